/* mpi/heap.c - the node's shared heap (doc/runtime.md "Big buffers stay where they
   are on one host"): the program's big blocks (from WTCRT_SHHEAP_MIN bytes) lie in one
   memory segment that every rank of the host maps at the same address, so a child that
   runs on another rank of the host reads its in: buffers and writes its out: buffers
   where the parent has them, and no TASK or RESULT carries them.

   The segment is a POSIX shm file named after the launcher's process on this host (the
   ranks' common parent, its pid and start time), created by the first local rank that
   starts, sized to one slice of WTCRT_SHHEAP_SLICE bytes per local rank (sparse: memory
   is taken as blocks are handed out, with fallocate, so a full /dev/shm makes malloc
   fall back to the C library instead of a SIGBUS later) and mapped at WTCRT_SHHEAP_BASE
   with MAP_FIXED_NOREPLACE before main. Local rank k hands out blocks of slice k only;
   once its mapping is in place it writes its MPI rank into the slice's first page. The
   last local rank to map the segment unlinks the name (and so do MPI's start and exit,
   whichever comes first): nothing is left in /dev/shm after the job, unless a rank
   dies between its first instructions and MPI_Init.

   Which ranks share: rank r does when some slice of this rank's mapping carries r's
   MPI rank (r mapped this very file at this address: it writes its page only then).
   Only then does a TASK to r leave a big buffer lying in the segment where it is
   (mpi/par.c), and r checks that every buffer it gets by address lies in its mapping.
   No message is needed to learn it, so the first region's seeds, packed while MPI still
   starts (doc/runtime.md "Start-up"), share as well.

   Off: under WTC_SHARED_HEAP=0, without a launcher that names ranks and local ranks
   (hydra: PMI_RANK, MPI_LOCALRANKID, MPI_LOCALNRANKS; Open MPI: OMPI_COMM_WORLD_RANK,
   _LOCAL_RANK, _LOCAL_SIZE), with one local rank, under SMPI, with ThreadSanitizer or
   MemorySanitizer, or when the address range is taken. Then every block comes from
   the C library, as before. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "wtcrt.h"

#define SH_BASE ((char *)0x200000000000ul) /* 32 TiB: far from the program, mmap and
                                              AddressSanitizer's shadow (to 16 TiB) */
#define SH_SLICE ((size_t)1 << 36)         /* 64 GiB of address space per local rank */
#define SH_MAXSLOTS 256
#define SH_PAGE 4096ul
#define SH_HDR 64ul        /* a block's header, before the pointer handed out */
#define SH_MAGIC 0x77746368656170ul /* "wtcheap" */
#define SH_CLAIM 0x7774636c61696dul /* "wtclaim": a slot being filled in */

/* A slice's first page. */
typedef struct sh_slot {
    atomic_ulong magic; /* SH_MAGIC once rank is there (written last) */
    long rank;          /* the MPI rank of the slice's owner */
    atomic_int opened;  /* slot 0's: local ranks that have mapped the segment */
    long pid;           /* the owner's process (the reaper waits for it) */
    atomic_ulong filling; /* slot 0's: bytes the local ranks' fillers have still to
                             reserve (each rank's room() counts them all) */
    atomic_int nslots;  /* slot 0's: the local ranks of the job that made it */
    atomic_int clash;   /* slot 0's: a slot was claimed twice or the job sizes differ
                           (two jobs under one name): nobody shares through it */
} sh_slot;

/* A block's header, SH_HDR bytes before its pointer. */
typedef struct sh_block {
    unsigned long magic;
    size_t start; /* offset of the block in the slice */
    size_t len;   /* bytes of the block, header and alignment included (pages) */
} sh_block;

typedef struct sh_ext {
    size_t off, len;
} sh_ext;

static struct {
    pthread_mutex_t mu;
    int on, fd, slot, nslots, nranks, rank;
    int full;             /* the slice cannot grow any more (/dev/shm's room) */
    int forked;           /* a child of fork: it hands out no block of the segment */
    int counted;          /* slot 0's page is reserved here too: its count is read */
    atomic_int apart;     /* MPI's ranks are not the launcher's: nothing is shared */
    unsigned char *peer;  /* [MPI rank]: PEER_YES / PEER_NO once known (shares) */
    atomic_int settled;   /* every rank has mapped the segment or never will (MPI is
                             up): a rank not found in it is not a peer */
    char *mine;           /* this rank's slice */
    size_t top, hwm;      /* bump offset in the slice; highest it ever was (memory
                             below it is the segment's: fallocate'd, never given back) */
    sh_ext *free;         /* free extents below top, by address, coalesced */
    int nfree, capfree;
    char name[96];
} H = { .mu = PTHREAD_MUTEX_INITIALIZER, .fd = -1 };

/* Without the allocation wrappers (a program not linked by wtcc with --wrap=malloc:
   wtc-calibrate, the runtime's tests built from its sources) nobody asks for blocks
   here: the segment is not made. */
extern void *__wrap_malloc(size_t n) __attribute__((weak));
extern void *__real_malloc(size_t n) __attribute__((weak));
extern void __real_free(void *p) __attribute__((weak));
/* ThreadSanitizer and MemorySanitizer stop a program that maps memory outside the
   ranges they shadow: with either linked in, no segment. */
extern void __tsan_init(void) __attribute__((weak));
extern void __msan_init(void) __attribute__((weak));

static int env_int(const char *a, const char *b, int *v)
{
    const char *s = getenv(a);
    char *end;
    long x;
    if (!s)
        s = getenv(b);
    if (!s || !*s)
        return 0;
    errno = 0;
    x = strtol(s, &end, 10);
    if (errno || *end || x < 0 || x > 1 << 20)
        return 0;
    *v = (int)x;
    return 1;
}

/* Field 'k' (4: the parent's pid, 22: the start time) of /proc/pid/stat, 0 if unknown. */
static unsigned long long stat_field(long pid, int k)
{
    char path[64], buf[1024], *p;
    unsigned long long t = 0;
    FILE *f;
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    if (!(f = fopen(path, "r")))
        return 0;
    if (fgets(buf, sizeof buf, f) && (p = strrchr(buf, ')'))) {
        int field = 2;
        for (p++; *p && field < k; p++)
            if (*p == ' ')
                field++;
        t = strtoull(p, NULL, 10);
    }
    fclose(f);
    return t;
}

/* The start time of process pid, 0 if unknown. */
static unsigned long long start_time(long pid)
{
    return stat_field(pid, 22);
}

/* The variables a launcher sets for each rank it starts (hydra, Slurm's PMI, Open MPI's
   PMIx), not for itself. A program between the launcher and the rank (mpiexec -n 2 perf
   record ./prog, strace -f, gdb, sh -c) holds them with this rank's values. */
enum { KEY_PMI_FD = 0 }; /* rank_keys[KEY_PMI_FD]: hydra's PMI socket (same_fd) */
static const char *const rank_keys[] = {
    "PMI_FD", "PMI_RANK", "PMI_SIZE", "PMI_ID", "MPI_LOCALRANKID", "MPI_LOCALNRANKS",
    "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK",
    "PMIX_NAMESPACE", "PMIX_RANK",
};
#define NRANK_KEYS (int)(sizeof rank_keys / sizeof rank_keys[0])

/* Whether fd 'fd' of process pid is the same open file (socket) as this process's. */
static int same_fd(long pid, int fd)
{
    char path[64], a[128], b[128];
    ssize_t na, nb;
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    na = readlink(path, a, sizeof a);
    snprintf(path, sizeof path, "/proc/%ld/fd/%d", pid, fd);
    nb = readlink(path, b, sizeof b);
    return na > 0 && na == nb && memcmp(a, b, (size_t)na) == 0;
}

/* Whether process pid runs in this rank's place: it has every rank variable this rank
   has, each with this rank's value, and (hydra, Slurm) holds this rank's PMI socket
   under the same number. Its mere presence was the test before 2026-12-02: a launcher
   started from a rank's environment (a driver under mpiexec that starts jobs, a shell
   inside an MPI step) has PMI_RANK too, so two jobs started from there walked up to
   the same process and shared one segment, a slot per local rank, each reading the
   other's buffers "by address": wrong sums, no word. 0 when pid cannot be read. */
static int same_rank_env(long pid)
{
    const char *mine[NRANK_KEYS];
    char path[64], buf[4096];
    size_t n, keep = 0;
    int have = 0, seen = 0, differ = 0, skip = 0; /* skip: inside an over-long entry */
    FILE *f;
    for (int k = 0; k < NRANK_KEYS; k++)
        have += (mine[k] = getenv(rank_keys[k])) != NULL;
    snprintf(path, sizeof path, "/proc/%ld/environ", pid);
    if (!have || !(f = fopen(path, "r")))
        return 0;
    /* NUL-separated entries, read in blocks; an entry cut at a block's end is kept */
    while (!differ && (n = fread(buf + keep, 1, sizeof buf - 1 - keep, f)) > 0) {
        size_t len = keep + n, start = 0;
        for (size_t i = 0; i < len && !differ; i++)
            if (buf[i] == 0) {
                for (int k = 0; k < NRANK_KEYS && !skip; k++) {
                    size_t kl = strlen(rank_keys[k]);
                    if (strncmp(buf + start, rank_keys[k], kl) != 0 || buf[start + kl] != '=')
                        continue;
                    if (!mine[k] || strcmp(buf + start + kl + 1, mine[k]) != 0)
                        differ = 1;
                    else
                        seen++;
                }
                skip = 0;
                start = i + 1;
            }
        keep = len - start;
        if (keep >= 256) { /* the rest of this entry is not a rank variable's */
            keep = 0;
            skip = 1;
        }
        memmove(buf, buf + len - keep, keep);
    }
    fclose(f);
    if (differ || seen != have)
        return 0;
    if (mine[KEY_PMI_FD]) {
        char *end;
        long fd = strtol(mine[KEY_PMI_FD], &end, 10);
        return *end == 0 && fd >= 0 && fd < 1 << 20 && same_fd(pid, (int)fd);
    }
    return 1;
}

/* The launcher's process that started this rank (hydra's proxy, Open MPI's daemon): the
   parent, or further up where the rank runs under a program the launcher started, which
   runs in the rank's place (same_rank_env); at most 8 steps. The segment is named after
   it, so that every local rank finds the same one: named after the parent, a rank under
   perf had a segment of its own, and its big buffers travelled by copy. */
static long launcher_pid(void)
{
    long pid = (long)getppid();
    for (int step = 0; step < 8 && pid > 1 && same_rank_env(pid); step++) {
        long up = (long)stat_field(pid, 4);
        if (up <= 1)
            break;
        pid = up;
    }
    return pid;
}

/* Segments whose job died before any rank unlinked the name (mpiexec stops the other
   ranks when one dies before every local rank had mapped the file: rank 0 calling
   abort() first thing left such files at -n 2 and 8) are unlinked by the next job of
   this user on the host: a name whose launcher no longer runs (no process of that pid
   with that start time). A live job's launcher runs, so its name stays. */
static void sh_collect(void)
{
    char pre[48];
    struct dirent *e;
    DIR *d = opendir("/dev/shm");
    int np = snprintf(pre, sizeof pre, "wtcrt-heap.%u.", (unsigned)getuid());
    if (!d)
        return;
    while ((e = readdir(d))) {
        char name[300], *end;
        long pid;
        unsigned long long t;
        if (strncmp(e->d_name, pre, (size_t)np) != 0)
            continue;
        errno = 0;
        pid = strtol(e->d_name + np, &end, 10);
        if (errno || pid <= 0 || *end != '.')
            continue;
        t = strtoull(end + 1, &end, 10);
        if (errno || *end || t == 0 || start_time(pid) == t)
            continue;
        snprintf(name, sizeof name, "/%s", e->d_name);
        shm_unlink(name);
    }
    closedir(d);
}

static void sh_unlink(void)
{
    if (H.name[0]) {
        shm_unlink(H.name);
        H.name[0] = 0;
    }
}

/* A child made by fork (without exec) keeps the segment mapped, shared with its parent,
   not copied as fork copies private memory: it must not hand out blocks of the parent's
   slice (both handed out the same block), so its new big blocks come from the C
   library, and it leaves the parent's blocks alone when it frees them. */
static void fill_forked(void);
static void sh_forked(void)
{
    H.forked = 1;
    fill_forked();
}

/* ---- the reaper: the segment's pages released after the job ---------------------

   The segment's pages go back when its last reference goes, and that was the exit of
   the last local rank, inside the job's time: FFT 2^23 at -n 2, 65 k pages, its rank 0
   took 88 ms from exit_group to its end against 9 ms without the segment; a C program
   touching 256 MiB of a shm file exits in 66-80 ms, in 14-18 ms when another process
   still holds the file (the release, 46-66 ms, is then that process's). So the last
   local rank to map the segment leaves a small process (reaper_run) that holds the
   file and nothing else (no mapping, no other descriptor: stdin, stdout, stderr and
   the launcher's PMI socket closed, so mpiexec does not wait for it), in a session of
   its own, and waits for every local rank's process to end (pidfd_open, Linux 5.3; a
   rank already gone counts as ended); then it exits, and its exit releases the pages,
   after the job. Only async-signal-safe calls between fork and _exit (the parent may
   have threads: UCX's, MPI's). Without pidfds, or when fork fails, no reaper: the
   last rank releases them, as before. Under WTC_HEAP_REAPER=0 none (measurements). */
#ifndef SYS_close_range
#define SYS_close_range 436
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

/* Closes every descriptor but the n of keep (sorted). Above the last kept one
   close_range goes to the highest number, not to the soft RLIMIT_NOFILE: a descriptor
   may lie above that limit (opened before a parent lowered it, or above 65536 where the
   limit is larger) and still be a pipe that a shell reads the job's output from. Only
   without close_range does the loop stop at the limit (at most 65536 calls). */
static void close_but(const int *keep, int n)
{
    struct rlimit rl;
    int lo = 0, max = 1 << 16;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        rl.rlim_cur < (rlim_t)max)
        max = (int)rl.rlim_cur;
    for (int i = 0; i <= n; i++) {
        int hi = i < n ? keep[i] : max; /* close [lo, hi) */
        unsigned last = i < n ? (unsigned)hi - 1 : ~0u;
        if ((hi > lo || i == n) && syscall(SYS_close_range, (unsigned)lo, last, 0) != 0)
            for (int fd = lo; fd < hi; fd++)
                close(fd);
        lo = hi + 1;
    }
}

static __attribute__((noreturn)) void reaper_run(int n)
{
    int keep[SH_MAXSLOTS + 1], nk = 0, live = 0;
    struct pollfd pf[SH_MAXSLOTS];
    setsid();
    for (int k = 0; k < n; k++) {
        const sh_slot *s = (const sh_slot *)(const void *)(SH_BASE + (size_t)k * SH_SLICE);
        int fd = (int)syscall(SYS_pidfd_open, (pid_t)s->pid, 0);
        if (fd < 0 && errno != ESRCH)
            _exit(0); /* no pidfds: the last rank releases the pages */
        if (fd >= 0) {
            pf[live].fd = fd;
            pf[live++].events = POLLIN;
        }
    }
    munmap(SH_BASE, (size_t)n * SH_SLICE);
    keep[nk++] = H.fd;
    for (int i = 0; i < live; i++)
        keep[nk++] = pf[i].fd;
    for (int i = 1; i < nk; i++) /* insertion sort */
        for (int j = i; j > 0 && keep[j] < keep[j - 1]; j--) {
            int t = keep[j];
            keep[j] = keep[j - 1];
            keep[j - 1] = t;
        }
    close_but(keep, nk);
    /* named once it holds what it keeps (tests/unit/rt_reaper.wtc looks for the name) */
    prctl(PR_SET_NAME, "wtc-heapreap", 0, 0, 0);
    while (live > 0) {
        if (poll(pf, (nfds_t)live, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int i = 0; i < live; i++)
            if (pf[i].revents) { /* that process has ended */
                close(pf[i].fd);
                pf[i--] = pf[--live];
            }
    }
    _exit(0);
}

/* Whether a tracer follows this process (strace -f, a debugger): it would follow the
   reaper too and wait for it, while the reaper waits for every local rank, so a rank
   that died under 'mpiexec -n 2 strace -f ./prog' was never seen to end and the job
   hung until its timeout. Traced, the last rank releases the pages, as without pidfds. */
static int traced(void)
{
    char line[128];
    long pid = 0;
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "TracerPid: %ld", &pid) == 1)
            break;
    fclose(f);
    return pid != 0;
}

/* The last local rank to map the segment, before main: leaves the reaper (a child's
   child, so that nobody waits for it). */
static void sh_reaper(int n)
{
    pid_t c;
    if (wtcrt_env_off("WTC_HEAP_REAPER") || traced())
        return;
    c = fork();
    if (c == 0) {
        if (fork() == 0)
            reaper_run(n);
        _exit(0);
    }
    if (c > 0)
        while (waitpid(c, NULL, 0) < 0 && errno == EINTR)
            ;
}

__attribute__((constructor)) static void sh_open(void)
{
    int slot, n, rank, nranks;
    unsigned long long t;
    char *p = MAP_FAILED;
    sh_slot *me, *first;
    long ppid = launcher_pid();
    if (!__wrap_malloc || !__real_malloc || __tsan_init || __msan_init ||
        wtcrt_env_off("WTC_SHARED_HEAP"))
        return; /* __real_malloc: only with --wrap=malloc (else nothing comes here) */
#ifdef WTC_MPI_SMPI
    return; /* SMPI: every rank is a thread of one process */
#endif
    if (!env_int("MPI_LOCALRANKID", "OMPI_COMM_WORLD_LOCAL_RANK", &slot) ||
        !env_int("MPI_LOCALNRANKS", "OMPI_COMM_WORLD_LOCAL_SIZE", &n) ||
        !env_int("PMI_RANK", "OMPI_COMM_WORLD_RANK", &rank) ||
        !env_int("PMI_SIZE", "OMPI_COMM_WORLD_SIZE", &nranks) || n < 2 ||
        n > SH_MAXSLOTS || slot >= n || rank >= nranks)
        return;
    if (!(H.peer = __real_malloc((size_t)nranks)))
        return;
    memset(H.peer, 0, (size_t)nranks);
    H.nranks = nranks;
    H.rank = rank;
    t = start_time(ppid);
    if (slot == 0 && t) /* where start times are known: once per host and job */
        sh_collect();
    snprintf(H.name, sizeof H.name, "/wtcrt-heap.%u.%ld.%llu", (unsigned)getuid(), ppid, t);
    H.fd = shm_open(H.name, O_CREAT | O_RDWR, 0600);
    if (H.fd < 0)
        goto none;
    if (ftruncate(H.fd, (off_t)((size_t)n * SH_SLICE)) != 0)
        goto none;
    p = mmap(SH_BASE, (size_t)n * SH_SLICE, PROT_READ | PROT_WRITE,
             MAP_SHARED | MAP_FIXED_NOREPLACE | MAP_NORESERVE, H.fd, 0);
    /* p != SH_BASE: a kernel before 4.17 takes the flag as a hint */
    if (p != SH_BASE ||
        fallocate(H.fd, 0, (off_t)((size_t)slot * SH_SLICE), (off_t)SH_PAGE) != 0)
        goto none;
    H.mine = SH_BASE + (size_t)slot * SH_SLICE;
    me = (sh_slot *)(void *)H.mine;
    first = (sh_slot *)(void *)SH_BASE;
    /* slot 0's page holds the count and the job's size (no room for it: neither read) */
    H.counted = fallocate(H.fd, 0, 0, (off_t)SH_PAGE) == 0;
    /* Each slot is claimed once. A second claimant, or a job of another size, means two
       jobs found one name (launcher_pid cannot tell them apart): the segment is
       poisoned, and no rank of either shares a buffer through it (shares) */
    {
        unsigned long none_yet = 0;
        int size = 0;
        if (!atomic_compare_exchange_strong(&me->magic, &none_yet, SH_CLAIM) ||
            (H.counted && !atomic_compare_exchange_strong(&first->nslots, &size, n) &&
             size != n)) {
            if (H.counted)
                atomic_store(&first->clash, 1);
            H.counted = 0;
            goto none;
        }
    }
    me->rank = rank;
    me->pid = (long)getpid();
    atomic_store_explicit(&me->magic, SH_MAGIC, memory_order_release);
    H.slot = slot;
    H.nslots = n;
    H.top = H.hwm = SH_PAGE;
    H.on = 1;
    atexit(sh_unlink);
    pthread_atfork(NULL, NULL, sh_forked);
    /* the last local rank to come unlinks the name */
    if (H.counted) {
        if (atomic_fetch_add(&first->opened, 1) + 1 == n) {
            sh_unlink();
            sh_reaper(n);
        }
    }
    return;
none:
    if (p != MAP_FAILED)
        munmap(p, (size_t)n * SH_SLICE);
    if (H.fd >= 0) {
        close(H.fd);
        H.fd = -1;
    }
    sh_unlink();
    __real_free(H.peer);
    H.peer = NULL;
}

int wtcrt_shheap_on(void)
{
    return H.on;
}

void wtcrt_shheap_world(int rank, int nranks)
{
    if (H.on && (rank != H.rank || nranks != H.nranks)) /* the launcher numbers ranks */
        atomic_store(&H.apart, 1);                       /* otherwise: never share */
    atomic_store_explicit(&H.settled, 1, memory_order_relaxed); /* start thread: rank 0 */
    /* every rank of the job is past MPI_Init, so past its constructor: the name goes
       even where a local rank never mapped the segment (its count stays short) */
    sh_unlink();
}

int wtcrt_shheap_has(const void *p, size_t n)
{
    const char *c = p;
    return H.on && c >= SH_BASE && n <= (size_t)H.nslots * SH_SLICE &&
           (size_t)(c - SH_BASE) <= (size_t)H.nslots * SH_SLICE - n;
}

/* 1 when MPI rank r maps this segment too and [p, p+n) lies in it. A rank seen there
   stays a peer (its mapping lasts until it exits); one not seen is looked for again at
   the next big buffer while processes may still be starting, and is known not to be a
   peer once MPI is up (wtcrt_shheap_world): a rank on another host costs no look at the
   slices' pages per TASK then. */
enum { PEER_UNKNOWN, PEER_YES, PEER_NO };
int wtcrt_shheap_shares(int r, const void *p, size_t n)
{
    if (!wtcrt_shheap_has(p, n) || r < 0 || r >= H.nranks ||
        atomic_load_explicit(&H.apart, memory_order_relaxed) ||
        (H.counted && atomic_load_explicit(&((const sh_slot *)(const void *)SH_BASE)->clash,
                                           memory_order_acquire)))
        return 0;
    if (H.peer[r] == PEER_UNKNOWN) {
        for (int k = 0; k < H.nslots; k++) {
            const sh_slot *s = (const sh_slot *)(const void *)(SH_BASE + (size_t)k * SH_SLICE);
            if (k != H.slot && atomic_load_explicit(&s->magic, memory_order_acquire) ==
                                   SH_MAGIC && s->rank == r) {
                H.peer[r] = PEER_YES;
                break;
            }
        }
        if (H.peer[r] == PEER_UNKNOWN &&
            atomic_load_explicit(&H.settled, memory_order_relaxed))
            H.peer[r] = PEER_NO;
    }
    return H.peer[r] == PEER_YES;
}

/* ---- the filler: a new block's pages reserved on a spare core ------------------------

   Reserving a page of the segment (fallocate: allocate and zero it, into the file) cost
   1.2-1.5 us on the test VM, on top of the fault that maps it, which costs what a page
   of private memory costs all told (2 us there); 256 MiB of private memory touched:
   153-157 ms, of the segment: 210-320 ms. While main runs its sequential code every
   other rank of the job waits, so a core is spare: a block main takes above the
   high-water mark returns at once, and a thread of this process reserves its pages
   ahead of main's first touches, in order, 2 MiB at a time (a page main touches first
   is allocated by its fault, as before; the thread's fallocate skips it). The same
   256 MiB so: 182-186 ms. Inside a region no core is spare: the thread pauses at its
   next piece and the rest waits for the region's end (meanwhile pages come by their
   faults); blocks taken inside a region are reserved at once, as before. What the
   thread has still to reserve counts as taken in every local rank's room() check
   (fill_show), so a full /dev/shm still makes malloc fall back to the C library; the
   reservation is asked only with
   all of room()'s margin free (a quarter of /dev/shm, at least 256 MiB), so another
   program would have to fill that much within those milliseconds for a page to be
   missing (SIGBUS at its first touch). Off under WTC_HEAP_FILL=0 (measurements). */

#define FILL_PIECE ((size_t)2 << 20)

static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t th;
    int started, off; /* off: WTC_HEAP_FILL=0, or the thread could not start */
    int fd;
    off_t lo, hi;     /* [lo, hi) of file fd is still to reserve */
    int busy;         /* the thread is inside a fallocate */
    int paused;       /* a region runs (wtcrt_shheap_pause) */
    int failed;       /* a reservation failed: the slice grows no more */
    size_t shown;     /* what of it slot 0's count holds (fill_show) */
} F = { .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER, .fd = -1 };

static __thread int fill_main; /* this thread runs main's sequential code */

static void fill_show(void);

static void *fill_run(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&F.mu);
    for (;;) {
        off_t a;
        size_t n;
        int r, fd;
        while (F.paused || F.lo >= F.hi) {
            pthread_cond_broadcast(&F.cv); /* wtcrt_shfill_drain waits for this */
            pthread_cond_wait(&F.cv, &F.mu);
        }
        a = F.lo;
        n = (size_t)(F.hi - F.lo) < FILL_PIECE ? (size_t)(F.hi - F.lo) : FILL_PIECE;
        fd = F.fd;
        F.busy = 1;
        pthread_mutex_unlock(&F.mu);
        r = fallocate(fd, 0, a, (off_t)n);
        pthread_mutex_lock(&F.mu);
        F.busy = 0;
        if (r != 0) {
            F.failed = 1;
            F.lo = F.hi;
        } else if (F.lo == a) {
            F.lo = a + (off_t)n;
        }
        fill_show();
    }
    return NULL;
}

/* Starts the thread once (F.mu held): 1 when it runs. Every signal blocked in it (the
   program's handlers run on the program's threads). */
static int fill_thread(void)
{
    sigset_t all, old;
    pthread_attr_t at;
    if (F.started || F.off)
        return F.started;
    if (wtcrt_env_off("WTC_HEAP_FILL")) {
        F.off = 1;
        return 0;
    }
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_attr_init(&at);
    pthread_attr_setstacksize(&at, 64 << 10);
    F.started = pthread_create(&F.th, &at, fill_run, NULL) == 0;
    if (F.started) /* its name, before the block returns: tests/unit/rt_shfill.sh */
        pthread_setname_np(F.th, "wtc-heapfill");
    pthread_attr_destroy(&at);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    F.off = !F.started;
    return F.started;
}

/* Bytes still to reserve (F.mu held). */
static size_t fill_pending(void)
{
    return F.lo < F.hi ? (size_t)(F.hi - F.lo) : 0;
}

/* Slot 0's count of bytes still to reserve follows this rank's (F.mu held): another
   local rank's room() counts them too. Without it a rank taking a block inside a region
   (the thread paused) saw rank 0's pending pages as free and took them: rank 0's
   reservation then failed and main's first touch of its block was a SIGBUS. */
static void fill_show(void)
{
    size_t now = H.counted && F.fd == H.fd ? fill_pending() : 0;
    sh_slot *first = (sh_slot *)(void *)SH_BASE;
    if (now != F.shown) {
        atomic_fetch_add(&first->filling, (unsigned long)(now - F.shown));
        F.shown = now;
    }
}

/* Hands [off, off+n) of file fd to the thread; 0 when it cannot take it (another file
   still pending, or no thread): the caller reserves the pages itself. F.mu held. */
static int fill_add(int fd, off_t off, size_t n)
{
    if (F.failed || !fill_thread() || (F.fd != fd && fill_pending()))
        return 0;
    if (F.fd != fd || !fill_pending()) { /* a new range (the heap's are contiguous: */
        F.lo = off;                        /* each starts at the high-water mark) */
        F.hi = off + (off_t)n;
    } else if (off + (off_t)n > F.hi) {
        F.hi = off + (off_t)n;
    }
    F.fd = fd;
    fill_show();
    pthread_cond_broadcast(&F.cv);
    return 1;
}

/* In a child of fork: no thread (the parent's is not copied), and a lock it may have
   held at the fork is new. */
static void fill_forked(void)
{
    pthread_mutex_init(&F.mu, NULL);
    pthread_cond_init(&F.cv, NULL);
    F.started = F.busy = 0;
    F.off = 1;
    F.lo = F.hi = 0;
}

void wtcrt_shheap_main(int on)
{
    fill_main = on;
}

void wtcrt_shheap_pause(int on)
{
    pthread_mutex_lock(&F.mu);
    F.paused = on;
    if (!on && fill_pending())
        pthread_cond_broadcast(&F.cv);
    pthread_mutex_unlock(&F.mu);
}

int wtcrt_shfill(int fd, off_t off, size_t n)
{
    int ok;
    pthread_mutex_lock(&F.mu);
    ok = fill_add(fd, off, n);
    pthread_mutex_unlock(&F.mu);
    return ok;
}

int wtcrt_shfill_drain(void)
{
    int failed;
    pthread_mutex_lock(&F.mu);
    F.lo = F.hi; /* what is left is not reserved: the caller lets the file go */
    fill_show();
    while (F.busy)
        pthread_cond_wait(&F.cv, &F.mu);
    failed = F.failed;
    F.failed = 0;
    pthread_mutex_unlock(&F.mu);
    return failed ? -1 : 0;
}

/* ---- the allocator of this rank's slice (under H.mu) ------------------------------- */

/* Reserves n more bytes of the slice (from H.hwm on) in /dev/shm: only while a
   quarter of /dev/shm, and at least 256 MiB, stay free besides what the fillers of the
   host's ranks have still to reserve (slot 0's count, fill_show; MPI's own shared
   memory lives there too, made while the program already allocates: a container's
   /dev/shm of 64 MiB gets no shared heap at all);
   once it cannot, the slice stops growing. From main's sequential code the filler
   reserves them (above); else this thread, now. A block of more than a quarter of what
   is spare is reserved now even from main: another job on the host cannot see this
   one's pending pages (nor this one its), and two jobs started together, each taking
   1.2 GiB of a 2 GiB /dev/shm, both passed the check and one died of a SIGBUS at its
   first touch; reserved now, the one that finds no room gets its block from the C
   library. Up to four jobs taking a quarter each at once still fit. */
static int room(size_t n)
{
    struct statvfs v;
    double keep, spare;
    off_t at = (off_t)((size_t)H.slot * SH_SLICE + H.hwm);
    int ok, handed = 0;
    unsigned long pending;
    if (fstatvfs(H.fd, &v) != 0) {
        H.full = 1;
        return 0;
    }
    keep = 0.25 * (double)v.f_blocks * (double)v.f_frsize;
    if (keep < 256.0 * 1024 * 1024)
        keep = 256.0 * 1024 * 1024;
    pthread_mutex_lock(&F.mu);
    pending = H.counted ? atomic_load(&((sh_slot *)(void *)SH_BASE)->filling) : fill_pending();
    spare = (double)v.f_bavail * (double)v.f_frsize - keep - (double)pending;
    ok = !F.failed && spare >= (double)n;
    if (ok && fill_main && !F.paused && 4.0 * (double)n <= spare)
        handed = fill_add(H.fd, at, n);
    pthread_mutex_unlock(&F.mu);
    if (ok && !handed)
        ok = fallocate(H.fd, 0, at, (off_t)n) == 0;
    if (!ok)
        H.full = 1;
    return ok;
}

/* The pages of a block that holds n bytes 'lead' bytes after its start. */
static size_t block_len(size_t lead, size_t n)
{
    return (lead + n + SH_PAGE - 1) & ~(SH_PAGE - 1);
}

/* Takes len bytes from the front of free extent i (gone when it is used up). */
static void ext_cut(int i, size_t len)
{
    H.free[i].off += len;
    H.free[i].len -= len;
    if (!H.free[i].len) {
        memmove(&H.free[i], &H.free[i + 1], (size_t)(H.nfree - i - 1) * sizeof *H.free);
        H.nfree--;
    }
}

/* Moves the top up by len bytes, reserving what lies above the high-water mark; 0 when
   the slice or /dev/shm has no room (the C library's heap instead). */
static int top_take(size_t len)
{
    if (len > SH_SLICE - H.top || H.full ||
        (H.top + len > H.hwm && !room(H.top + len - H.hwm)))
        return 0;
    H.top += len;
    if (H.top > H.hwm)
        H.hwm = H.top;
    return 1;
}

/* Takes len bytes at the lowest free extent that holds them, else from the top; returns
   the offset, 0 when there is no room (the slice's first page is never handed out). */
static size_t take(size_t len, int *fresh)
{
    for (int i = 0; i < H.nfree; i++)
        if (H.free[i].len >= len) {
            size_t off = H.free[i].off;
            ext_cut(i, len);
            *fresh = 0;
            return off;
        }
    *fresh = H.top >= H.hwm;
    return top_take(len) ? H.top - len : 0;
}

/* Gives [off, off+len) back: into the free list, merged with its neighbours, or to the
   top when it ends there. Returns 0 when the list cannot grow (the block is lost). */
static int give(size_t off, size_t len)
{
    int i = 0;
    while (i < H.nfree && H.free[i].off < off)
        i++;
    if (i > 0 && H.free[i - 1].off + H.free[i - 1].len == off) {
        H.free[i - 1].len += len;
        if (i < H.nfree && off + len == H.free[i].off) {
            H.free[i - 1].len += H.free[i].len;
            memmove(&H.free[i], &H.free[i + 1], (size_t)(H.nfree - i - 1) * sizeof *H.free);
            H.nfree--;
        }
        i--;
    } else if (i < H.nfree && off + len == H.free[i].off) {
        H.free[i].off = off;
        H.free[i].len += len;
    } else {
        if (H.nfree == H.capfree) {
            int cap = H.capfree ? 2 * H.capfree : 64;
            sh_ext *f = __real_malloc((size_t)cap * sizeof *f);
            if (!f)
                return 0;
            if (H.nfree)
                memcpy(f, H.free, (size_t)H.nfree * sizeof *f);
            __real_free(H.free);
            H.free = f;
            H.capfree = cap;
        }
        memmove(&H.free[i + 1], &H.free[i], (size_t)(H.nfree - i) * sizeof *H.free);
        H.free[i].off = off;
        H.free[i].len = len;
        H.nfree++;
    }
    /* the last extent reaches the top: the top comes down */
    if (H.nfree && H.free[H.nfree - 1].off + H.free[H.nfree - 1].len == H.top) {
        H.top = H.free[H.nfree - 1].off;
        H.nfree--;
    }
    return 1;
}

void *wtcrt_shheap_alloc(size_t n, size_t align, int zero)
{
    size_t lead, len, off;
    int fresh = 0;
    char *p;
    sh_block *b;
    if (!H.on || H.forked || n < WTCRT_SHHEAP_MIN || n > SH_SLICE || align > SH_PAGE ||
        (align & (align - 1)))
        return NULL;
    lead = align > SH_HDR ? align : SH_HDR;
    len = block_len(lead, n);
    pthread_mutex_lock(&H.mu);
    off = take(len, &fresh);
    pthread_mutex_unlock(&H.mu);
    if (!off)
        return NULL;
    p = H.mine + off + lead;
    b = (sh_block *)(void *)(p - SH_HDR);
    b->magic = SH_MAGIC;
    b->start = off;
    b->len = len;
    if (zero && !fresh)
        memset(p, 0, n);
    return p;
}

/* The block of p when p is one this rank handed out, else NULL. */
static sh_block *block_of(const void *p)
{
    const char *c = p;
    sh_block *b;
    if (!H.on || c < H.mine + SH_PAGE + SH_HDR || c >= H.mine + SH_SLICE)
        return NULL;
    b = (sh_block *)(void *)(c - SH_HDR);
    return b->magic == SH_MAGIC && b->start < (size_t)(c - H.mine) ? b : NULL;
}

/* The block of p when this rank may change it: its own, and not a child of fork's. */
static sh_block *own_block(const void *p)
{
    return H.forked ? NULL : block_of(p);
}

/* Grows the block of p (one of this rank's) to hold n bytes from p where it lies: into
   the top of the slice when it ends there, or into a free extent right after it; 1 when
   it did. A buffer grown by realloc in steps was copied whole at each step otherwise
   (the C library moves its big blocks with mremap, without a copy): 64 MiB in steps of
   64 KiB took 3.6 s against 25 ms. */
int wtcrt_shheap_grow(void *p, size_t n)
{
    sh_block *b = own_block(p);
    size_t len, end, more;
    int grown = 0;
    if (!b || n > SH_SLICE)
        return 0;
    len = block_len((size_t)((char *)p - (H.mine + b->start)), n);
    if (len <= b->len)
        return 1;
    more = len - b->len;
    pthread_mutex_lock(&H.mu);
    end = b->start + b->len;
    if (end == H.top) {
        grown = top_take(more);
    } else {
        for (int i = 0; i < H.nfree && H.free[i].off <= end; i++)
            if (H.free[i].off == end && H.free[i].len >= more) {
                ext_cut(i, more);
                grown = 1;
                break;
            }
    }
    if (grown)
        b->len = len;
    pthread_mutex_unlock(&H.mu);
    return grown;
}

/* Shrinks the block of p (one of this rank's) to the pages that hold n bytes from p,
   its tail back to the free extents (or the top), as the C library's realloc gives a
   shrunk block's tail back: malloc_usable_size said 1052608 after 1 MiB became 100000
   bytes, and the tail stayed taken until the block was freed. */
void wtcrt_shheap_shrink(void *p, size_t n)
{
    sh_block *b = own_block(p);
    size_t len;
    if (!b)
        return;
    len = block_len((size_t)((char *)p - (H.mine + b->start)), n);
    if (len >= b->len)
        return;
    pthread_mutex_lock(&H.mu);
    if (give(b->start + len, b->len - len))
        b->len = len;
    pthread_mutex_unlock(&H.mu);
}

/* 1 when p lies in the segment (then the C library must not free it), with *freed the
   usable bytes given back when it was this rank's own block, else 0. */
int wtcrt_shheap_free(void *p, size_t *freed)
{
    sh_block *b;
    *freed = 0;
    if (!wtcrt_shheap_has(p, 1))
        return 0;
    b = own_block(p);
    if (!b) /* another rank's block (or not a block), or a parent's: left alone */
        return 1;
    *freed = b->len - (size_t)((char *)p - (H.mine + b->start));
    b->magic = 0;
    pthread_mutex_lock(&H.mu);
    give(b->start, b->len);
    pthread_mutex_unlock(&H.mu);
    return 1;
}

size_t wtcrt_shheap_size(const void *p)
{
    sh_block *b = block_of(p);
    return b ? b->len - (size_t)((const char *)p - (H.mine + b->start)) : 0;
}
