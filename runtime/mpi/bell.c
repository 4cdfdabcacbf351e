/* mpi/bell.c - the doorbell (doc/runtime.md "Waiting without burning a core"): a rank
   that sleeps in its back-off is woken at once by a rank on the same host that has
   just sent it a message, so waiting ranks can sleep long and still answer in a few
   microseconds.

   The ranks of a host (same hostname) share one small memory segment (POSIX shm,
   named per job and unlinked as soon as every local rank has mapped it) holding one futex word per local
   rank: 1 while the rank may sleep. A sleeper sets its word, polls once more, then
   futex-waits on it with the back-off step as timeout; a sender, after MPI_Isend, reads
   the receiver's word and, when it is 1, clears it and futex-wakes the receiver. */
#define _GNU_SOURCE /* fallocate */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include "wtcrt.h"
#include "wtc_mpi_impl.h"

/* One local rank's words, alone on their cache line: 'asleep' (the futex word) and
   'mail' (1: a rank of this host has sent it a message it may not have looked at). */
typedef struct wtcrt_bell_slot {
    atomic_int asleep;
    atomic_int mail;
    atomic_int bounds; /* BOUNDs sent to it by ranks of this host, ever (mpi/share.c) */
    atomic_int answer; /* its answering thread's futex word: rung by thieves and masters
                          of this host (mpi/answer.c) */
    atomic_int pending; /* not 0 while it has pending children (wtcrt_pending_show) */
    atomic_int idle;    /* a master: its idle workers (wtcrt_bell_idle_show) */
    char pad[40];
} bell_slot;

/* The region end's barrier of a job whose ranks all share this host (wtcrt_endbar_*):
   after the slots. 'gen' counts the barriers completed, 'arrived' the ranks in the
   current one; sum[g & 1][slot] adds up what the ranks of barrier g sent to each rank
   (dynamic mode's control messages). The last to arrive zeroes the next barrier's sums
   (every rank read them one barrier ago), resets 'arrived', raises 'gen' and rings the
   others' doorbells. */
typedef struct wtcrt_bell_bar {
    atomic_int gen;
    atomic_int arrived;
    char pad[56];
    atomic_int sum[];
} bell_bar;

/* futex(2) on a word of the shared segment (not FUTEX_PRIVATE: across processes). */
static long futex(atomic_int *w, int op, int val, const struct timespec *ts)
{
    return syscall(SYS_futex, (int *)(void *)w, op, val, ts, NULL, 0);
}

/* What every rank tells the others at start-up. */
typedef struct bell_id {
    char host[64];
    long pid;
    unsigned long token; /* rank 0's: makes the segment names of a job unique */
    unsigned long prog;  /* the program's fingerprint (prog_print) */
} bell_id;

/* A fingerprint of the program: its source's name, its recursive functions (names,
   argument and return sizes, buffers) and its globals (names, sizes), FNV-1a. Ranks of
   one job must run one program: 'mpiexec -n 1 ./msort : -n 1 ./fib' stopped with
   "truncated TASK (60 bytes)" or "TASK for fib with buffers by address it does not
   have" (a helper's hunt). */
static unsigned long prog_print(const wtc_program *pg)
{
    unsigned long h = 1469598103934665603ul;
#define MIX(v) (h = (h ^ (unsigned long)(v)) * 1099511628211ul)
    for (const char *c = pg->source ? pg->source : ""; *c; c++)
        MIX((unsigned char)*c);
    MIX(pg->nfns);
    for (int f = 0; f < pg->nfns; f++) {
        for (const char *c = pg->fns[f]->name; *c; c++)
            MIX((unsigned char)*c);
        MIX(pg->fns[f]->args_size);
        MIX(pg->fns[f]->ret_size);
        MIX(pg->fns[f]->nbufs);
    }
    MIX(pg->nglobals);
    for (int g = 0; g < pg->nglobals; g++) {
        for (const char *c = pg->globals[g].name ? pg->globals[g].name : ""; *c; c++)
            MIX((unsigned char)*c);
        MIX(pg->globals[g].size);
    }
#undef MIX
    return h;
}

/* Opens (creating it if no local rank has yet) and maps the segment 'name' of nlocal
   slots. Every local rank does this at once: creating and sizing are idempotent (the
   same length from each), the memory starts zeroed, so no rank waits for another. */
static void seg_map(wtcrt_rt *rt, const char *name, int nlocal)
{
    int fd = shm_open(name, O_CREAT | O_RDWR, 0600);
    if (fd < 0)
        return;
    rt->bell_len = (size_t)nlocal * sizeof(bell_slot) + sizeof(bell_bar) +
                   2 * (size_t)nlocal * sizeof(atomic_int);
    /* its pages reserved before any is touched: in a full /dev/shm (another job's big
       blocks, taken that moment) the first touch was a SIGBUS in MPI's start; now the
       job goes without a doorbell. A file system without fallocate: as before */
    if (ftruncate(fd, (off_t)rt->bell_len) == 0 &&
        (fallocate(fd, 0, 0, (off_t)rt->bell_len) == 0 || errno == EOPNOTSUPP))
        rt->bell_seg = mmap(NULL, rt->bell_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (rt->bell_seg == MAP_FAILED)
        rt->bell_seg = NULL;
}

/* Segments of jobs that died between creating the name and unlinking it (a rank killed
   during start-up): their names end with the pid of the host's first rank, which made
   or opened it; when no such process runs any more, the host's first rank of the next
   job of this user unlinks them (a pid taken again by another process keeps its file
   until that one ends). Without it one stayed in /dev/shm for good. */
static void seg_collect(void)
{
    struct dirent *e;
    DIR *d = opendir("/dev/shm");
    if (!d)
        return;
    while ((e = readdir(d))) {
        long pid0, leader;
        unsigned long token;
        int end = 0;
        struct stat st;
        char path[300];
        if (sscanf(e->d_name, "wtcrt.%ld.%lx.%ld%n", &pid0, &token, &leader, &end) != 3 ||
            e->d_name[end] != 0 || leader <= 1 || kill((pid_t)leader, 0) == 0 ||
            errno != ESRCH)
            continue;
        snprintf(path, sizeof path, "/dev/shm/%s", e->d_name);
        if (stat(path, &st) == 0 && st.st_uid == getuid())
            shm_unlink(e->d_name);
    }
    closedir(d);
}

/* Unmaps the segment (every rank's own mapping; the name is long gone). */
static void seg_drop(wtcrt_rt *rt)
{
    if (rt->bell_seg)
        munmap(rt->bell_seg, rt->bell_len);
    rt->bell_seg = NULL;
    rt->bell_mine = NULL;
    rt->bell_my_mail = NULL;
    rt->bell_my_pending = NULL;
    rt->bell_all_local = 0;
    wtcrt_bell_bounds_mine(rt);
}

/* All ranks agree: 1 when 'ok' holds on every rank (a collective over rt->comm). */
static int all_agree(wtcrt_rt *rt, int ok)
{
    MPI_Request req;
    MPI_Iallreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, rt->comm, &req);
    wtcrt_coll_wait(&req);
    return ok;
}

/* Fills rt->bell_slot_of from everyone's bell_id; returns (leader, my slot, local
   ranks). */
static void host_ranks(wtcrt_rt *rt, const bell_id *ids, int *leader, int *me, int *nlocal)
{
    const char *host = ids[rt->rank].host;
    *leader = -1;
    *nlocal = 0;
    for (int r = 0; r < rt->nranks; r++) {
        rt->bell_slot_of[r] = -1;
        if (strcmp(ids[r].host, host) != 0)
            continue;
        if (*leader < 0)
            *leader = r;
        if (r == rt->rank)
            *me = *nlocal;
        rt->bell_slot_of[r] = (*nlocal)++;
    }
}

/* Collective over rt->comm: maps this host's segment and learns which ranks share the
   host (same hostname). Returns 1 when every rank of the job has a doorbell and all
   run on one host. Any failure anywhere, or SMPI: no doorbell at all (plain back-off).
   *synced: 1 when the ranks went through a collective that none leaves before all have
   entered (the caller needs no barrier of its own then). Two collectives: one
   MPI_Allgather of the hosts, one MPI_Allreduce that agrees every local rank has mapped
   the segment, both waited for by wtcrt_coll_wait (a blocking collective costs a
   scheduler time slice with more ranks than cores: four took ~25 ms of a 3-rank start
   on 2 cores). */
int wtcrt_bell_init(wtcrt_rt *rt, int *synced)
{
    bell_id id, *ids;
    MPI_Request req;
    int leader, me = 0, nlocal, ok;
    char name[96];
    *synced = 0;
    if (rt->nranks < 2)
        return 0;
#ifdef WTC_MPI_SMPI
    /* SimGrid's SMPI: every simulated rank is a thread of one process on one host
       (gethostname is not simulated), and a futex sleep would stop the whole
       simulation in real time; its nanosleep (plain back-off) is simulated */
    return 0;
#endif
    memset(&id, 0, sizeof id);
    if (gethostname(id.host, sizeof id.host - 1) != 0)
        strcpy(id.host, "?");
    id.pid = (long)getpid();
    id.token = (unsigned long)(wtcrt_now() * 1e9) ^ ((unsigned long)id.pid << 32);
    id.prog = rt->prog ? prog_print(rt->prog) : 0;
    ids = malloc((size_t)rt->nranks * sizeof *ids);
    rt->bell_slot_of = malloc((size_t)rt->nranks * sizeof *rt->bell_slot_of);
    if (!ids || !rt->bell_slot_of)
        wtcrt_die(rt, "out of memory");
    MPI_Iallgather(&id, sizeof id, MPI_BYTE, ids, sizeof id, MPI_BYTE, rt->comm, &req);
    wtcrt_coll_wait(&req);
    for (int r = 1; r < rt->nranks && rt->rank == 0; r++) /* rank 0 stops the job */
        if (ids[r].prog != ids[0].prog)
            wtcrt_die(rt, "rank %d runs another program than rank 0 (%s): every rank of a "
                          "job must run the same program (mpiexec -n P ./prog)",
                      r, rt->prog && rt->prog->source ? rt->prog->source : "?");
    /* the doorbell itself (the all-gather above is every job's: the check) */
    if (wtcrt_env_off("WTC_DOORBELL")) {
        free(ids);
        return 0;
    }
    host_ranks(rt, ids, &leader, &me, &nlocal);
    rt->host_ranks = nlocal;
    snprintf(name, sizeof name, "/wtcrt.%ld.%lx.%ld", ids[0].pid, ids[0].token,
             ids[leader].pid);
    if (nlocal > 1) {
        if (ids[leader].pid == id.pid)
            seg_collect();
        seg_map(rt, name, nlocal);
    }
    /* every local rank has mapped it; then no rank opens the name any more */
    ok = all_agree(rt, nlocal < 2 || rt->bell_seg);
    *synced = 1;
    if (nlocal > 1)
        shm_unlink(name); /* whoever comes first; the others find it gone */
    if (!ok)
        seg_drop(rt);
    if (rt->bell_seg) {
        rt->bell_mine = &rt->bell_seg[me].asleep;
        rt->bell_my_mail = &rt->bell_seg[me].mail;
        rt->bell_my_pending = &rt->bell_seg[me].pending;
        /* "may have work" until the main thread says exactly (wtcrt_pending_show): a
           slot that said none while work was pending would keep its thieves away */
        atomic_store(rt->bell_my_pending, 1);
    }
    free(ids);
    rt->bell_all_local = rt->bell_seg && nlocal == rt->nranks;
    return rt->bell_all_local;
}

/* Releases the segment at exit (after the last send: rings write into it). */
void wtcrt_bell_fini(wtcrt_rt *rt)
{
    seg_drop(rt);
    free(rt->bell_slot_of);
    rt->bell_slot_of = NULL;
}

/* Rank r's slot when r is on this host (and there is a doorbell), else NULL. */
static bell_slot *slot_of(wtcrt_rt *rt, int r)
{
    return rt->bell_seg && rt->bell_slot_of[r] >= 0 ? &rt->bell_seg[rt->bell_slot_of[r]]
                                                     : NULL;
}

/* Wakes rank r if it sleeps on this host. Call after the message to r was sent. */
void wtcrt_bell_ring(wtcrt_rt *rt, int r)
{
    bell_slot *s = slot_of(rt, r);
    if (!s)
        return;
    atomic_store_explicit(&s->mail, 1, memory_order_relaxed);
    /* the message is in place before the word is read (pairs with bell_arm) */
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load_explicit(&s->asleep, memory_order_relaxed) &&
        atomic_exchange(&s->asleep, 0))
        futex(&s->asleep, FUTEX_WAKE, 1, NULL);
}

/* Rank r's answering thread's word when r is on this host, else NULL. */
atomic_int *wtcrt_bell_answer_word(wtcrt_rt *rt, int r)
{
    bell_slot *s = slot_of(rt, r);
    return s ? &s->answer : NULL;
}

int wtcrt_bell_pending(wtcrt_rt *rt, int r)
{
    bell_slot *s = slot_of(rt, r);
    return s ? atomic_load_explicit(&s->pending, memory_order_relaxed) : -1;
}

/* A word's count goes up and one sleeper on it wakes (the answering thread's). */
void wtcrt_word_wake(atomic_int *w)
{
    atomic_fetch_add_explicit(w, 1, memory_order_release);
    futex(w, FUTEX_WAKE, 1, NULL);
}

/* Sleeps while *w is 'seen', at most 'us' microseconds (0: until woken). */
void wtcrt_word_wait(atomic_int *w, int seen, int us)
{
    struct timespec ts = { us / 1000000, 1000L * (us % 1000000) };
    futex(w, FUTEX_WAIT, seen, us ? &ts : NULL);
}

/* Counts a BOUND sent to rank r (after the send) when r is on this host: r's
   wtc_share_max/min take it in at their next call. */
void wtcrt_bell_bound(wtcrt_rt *rt, int r)
{
    bell_slot *s = slot_of(rt, r);
    if (s)
        atomic_fetch_add_explicit(&s->bounds, 1, memory_order_release);
}

/* Points wtc__bounds_in at this rank's counter (or at a 0 without a doorbell). Called on
   the main thread: at each region's start and when the segment goes. */
void wtcrt_bell_bounds_mine(wtcrt_rt *rt)
{
    static int none;
    wtc__bounds_in = &none;
    if (rt->bell_seg && rt->bell_mine)
        wtc__bounds_in = (int *)(void *)&((bell_slot *)(void *)((char *)rt->bell_mine -
                                          offsetof(bell_slot, asleep)))->bounds;
}

/* Before sleeping: publishes "may sleep". Returns 1 when it was not yet published
   (the caller must look for its message once more before sleeping), else 0. */
int wtcrt_bell_arm(wtcrt_rt *rt)
{
    if (!rt->bell_mine || atomic_load_explicit(rt->bell_mine, memory_order_relaxed))
        return 0;
    atomic_store(rt->bell_mine, 1);
    return 1;
}

/* Sleeps up to 'us' microseconds, or until a sender rings. */
void wtcrt_bell_sleep(wtcrt_rt *rt, int us)
{
    struct timespec ts = { us / 1000000, 1000L * (us % 1000000) }; /* tv_nsec < 1e9 */
    if (rt->bell_mine)
        futex(rt->bell_mine, FUTEX_WAIT, 1, &ts);
    else
        nanosleep(&ts, NULL);
}

/* The wait is over: senders need not ring any more. */
void wtcrt_bell_disarm(wtcrt_rt *rt)
{
    if (rt->bell_mine && atomic_load_explicit(rt->bell_mine, memory_order_relaxed))
        atomic_store_explicit(rt->bell_mine, 0, memory_order_relaxed);
}

/* For polls on the compute path: 1 when a message may have come. With every rank of the
   job on this host every sender raises the receiver's mail flag after its send, so a
   poll that finds the flag down need not ask MPI (a load instead of an MPI_Iprobe);
   the flag is lowered here and raised again by wtcrt_bell_mail_again while messages
   keep coming. Otherwise (ranks on other hosts, no doorbell): always 1. */
int wtcrt_bell_mail(wtcrt_rt *rt)
{
    if (!rt->bell_all_local)
        return 1;
    if (!atomic_load_explicit(rt->bell_my_mail, memory_order_relaxed))
        return 0;
    atomic_store_explicit(rt->bell_my_mail, 0, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    return 1;
}

/* A poll found a message: there may be more behind it. */
void wtcrt_bell_mail_again(wtcrt_rt *rt)
{
    if (rt->bell_my_mail)
        atomic_store_explicit(rt->bell_my_mail, 1, memory_order_relaxed);
}

void wtcrt_bell_idle_show(wtcrt_rt *rt, int n)
{
    bell_slot *s = slot_of(rt, rt->rank);
    if (!s)
        return;
    atomic_store_explicit(&s->idle, n, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst); /* pairs with wtcrt_bell_masters_idle */
}

int wtcrt_bell_masters_idle(wtcrt_rt *rt)
{
    int n = 0;
    atomic_thread_fence(memory_order_seq_cst); /* the showing of pending children first */
    for (int m = rt->roles.W; m < rt->nranks; m++) {
        bell_slot *s = slot_of(rt, m);
        if (!s)
            return -1;
        n += atomic_load_explicit(&s->idle, memory_order_relaxed);
    }
    return n;
}

/* ---- the region end's barrier on one host ------------------------------------------ */

static bell_bar *bar_of(wtcrt_rt *rt)
{
    return (bell_bar *)(void *)(rt->bell_seg + rt->host_ranks);
}

/* This rank enters the barrier, adding counts[r] (when not NULL) to what rank r is
   told it was sent. Only when every rank shares this host (rt->bell_all_local). */
void wtcrt_bell_bar_arrive(wtcrt_rt *rt, const int *counts)
{
    bell_bar *b = bar_of(rt);
    int g = atomic_load_explicit(&b->gen, memory_order_acquire), n = rt->nranks;
    atomic_int *sum = b->sum + (size_t)(g & 1) * (size_t)n;
    rt->bar_gen = g;
    if (counts)
        for (int r = 0; r < n; r++)
            if (counts[r])
                atomic_fetch_add_explicit(&sum[rt->bell_slot_of[r]], counts[r],
                                          memory_order_relaxed);
    if (atomic_fetch_add_explicit(&b->arrived, 1, memory_order_acq_rel) < n - 1)
        return;
    /* the last: nobody reads the other half any more, nobody adds to it yet */
    atomic_int *next = b->sum + (size_t)((g + 1) & 1) * (size_t)n;
    for (int r = 0; r < n; r++)
        atomic_store_explicit(&next[r], 0, memory_order_relaxed);
    atomic_store_explicit(&b->arrived, 0, memory_order_relaxed);
    atomic_store_explicit(&b->gen, g + 1, memory_order_release);
    for (int r = 0; r < n; r++)
        if (r != rt->rank)
            wtcrt_bell_ring(rt, r);
}

/* 1 once every rank has entered the barrier this rank entered; then *total (when not
   NULL) is what the ranks sent to this one. */
int wtcrt_bell_bar_done(wtcrt_rt *rt, int *total)
{
    bell_bar *b = bar_of(rt);
    if (atomic_load_explicit(&b->gen, memory_order_acquire) == rt->bar_gen)
        return 0;
    if (total)
        *total = atomic_load_explicit(&b->sum[(size_t)(rt->bar_gen & 1) * (size_t)rt->nranks +
                                              (size_t)rt->bell_slot_of[rt->rank]],
                                      memory_order_relaxed);
    return 1;
}
