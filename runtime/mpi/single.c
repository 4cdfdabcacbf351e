/* mpi/single.c - a job of one rank runs without MPI (doc/runtime.md "A job of one
   rank"): started without a launcher, or by one that says the job has one process, the
   program never calls MPI_Init, so its memory starts out as a plain C program's.

   Why: MPI_Init (MPICH 4.0 over UCX) leaves its own blocks and a few free holes in the
   heap (560 KB live; 72, 8 and 2 KB free). malloc places the program's temporaries
   differently around them, and an allocation-heavy program can then hand memory back
   to the system (brk) and fault it in again at every step: a recursive FFT of 2^23
   points (bench/fft.wtc) took 471 k page faults instead of 344 k and 8-10 % more
   time. No malloc setting is changed, so nothing can be undone after MPI_Init; not
   calling it is the only way to get plain C's heap. With one rank the runtime needs no
   message anyway: every call runs the sequential clone. */
#define _GNU_SOURCE /* process_vm_writev */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include "wtcrt.h"
#include "wtc_mpi_impl.h"
#if defined(WTC_MPI_MPICH) && defined(__has_include)
#if __has_include(<ucm/api/ucm.h>) /* UCX's headers: Debian's libmpich-dev needs them */
#include <dlfcn.h>
#include <ucm/api/ucm.h>
#define WTCRT_UCM 1
#endif
#endif

#ifndef WTCRT_MPIEXEC
#define WTCRT_MPIEXEC "mpiexec" /* the Makefile names the launcher of this runtime's MPI */
#endif


/* Launchers' variables that give the number of processes of the job (hydra, MPICH's
   PMI, Slurm's PMI-2: PMI_SIZE; Open MPI; MVAPICH; srun). The ones of the launchers of
   the MPI this runtime was built with come first: their word wins over a stray variable
   of another (launcher_size). Slurm's is last: under mpirun, or hydra over srun, it
   counts their daemons, not the job's processes. */
static const char *const size_vars[] = {
#if defined(OMPI_MAJOR_VERSION)
    "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "MV2_COMM_WORLD_SIZE",
#else
    "PMI_SIZE", "MV2_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_SIZE",
#endif
    "SLURM_STEP_NUM_TASKS",
};

/* Variables that show a launcher started this process, without the job's size. */
static const char *const launch_vars[] = {
    "PMI_FD", "PMI_PORT", "PMI_RANK", "PMI_ID", "PMIX_RANK", "PMIX_NAMESPACE",
    "SLURM_PROCID", "OMPI_COMM_WORLD_RANK", "MPIRUN_RANK",
};

#define NELEMS(a) (sizeof(a) / sizeof(a)[0])

/* 1 when the environment says this process is the whole job (and the program makes no
   MPI call of its own). Any doubt answers 0 (MPI starts, as before): a wrong 1 would run
   main on every rank of a bigger job. */
static int job_of_one(void)
{
    const char *s = getenv("WTC_ALONE");
    int sized = 0;
    if (wtcrt_program_calls_mpi())
        return 0;
#ifdef WTC_MPI_SMPI
    /* smpirun sets no variable, and an SMPI program only runs under it */
    return 0;
#endif
    if (s && strcmp(s, "0") == 0)
        return 0;
    for (size_t i = 0; i < NELEMS(size_vars); i++) {
        if (!(s = getenv(size_vars[i])))
            continue;
        if (strcmp(s, "1") != 0)
            return 0;
        sized = 1;
    }
    if (sized)
        return 1;
    for (size_t i = 0; i < NELEMS(launch_vars); i++)
        if (getenv(launch_vars[i]))
            return 0;
    return 1;
}

/* The number of processes the launcher's environment gives the job, 0 when it gives
   none; *var is the variable that says so. The first variable set in size_vars wins. */
static long launcher_size(const char **var)
{
    for (size_t i = 0; i < NELEMS(size_vars); i++) {
        const char *s = getenv(size_vars[i]);
        char *end;
        if (!s || !*s)
            continue;
        long n = strtol(s, &end, 10);
        if (*end || n < 1)
            continue;
        *var = size_vars[i];
        return n;
    }
    return 0;
}

/* MPI started and says this process is the whole job: stops the program when its
   launcher says the job has more (doc/runtime.md "Another MPI's mpiexec"). That is
   another MPI's mpiexec: each of its processes would start this MPI alone and run the
   whole program, every output printed P times, exit status 0. */
static void check_launcher(void)
{
    const char *var = NULL;
    long n = launcher_size(&var);
    if (n <= 1)
        return;
    const char *why = strncmp(var, "SLURM_", 6) == 0
                          ? "srun started it without a PMI this MPI speaks (srun --mpi=?)"
                          : "another MPI's mpiexec started it";
    fprintf(stderr,
            "wtc: error: started as one of %ld processes (%s=%ld), but %s, the MPI this "
            "program was built with, sees a job of one: %s\n"
            "wtc: note: start it with %s -n %ld, or rebuild it for the other MPI "
            "(wtcc --cc=...)\n",
            n, var, n, WTC_MPI_NAME, why, WTCRT_MPIEXEC, n);
    fflush(stderr);
    MPI_Finalize();
    exit(2);
}

/* The program's own choice of stdout's buffering: wtcc links the program with
   --wrap=setvbuf,setbuf,setbuffer,setlinebuf (wtc/build.c), and stdout_rebuffer applies
   it again after MPI_Init, which had overruled it (a helper's bug hunt: main's
   setvbuf(stdout, NULL, _IONBF, 0) lost to the start thread, and lines printed before
   a kill were lost). The stream's lock is held around the call and the record, so the
   start thread sees both or neither. */
static struct {
    int set, mode;
    char *buf;
    size_t size;
} user_out;
extern int __real_setvbuf(FILE *f, char *buf, int mode, size_t size) __attribute__((weak));
int __wrap_setvbuf(FILE *f, char *buf, int mode, size_t size);
void __wrap_setbuf(FILE *f, char *buf);
void __wrap_setbuffer(FILE *f, char *buf, size_t size);
void __wrap_setlinebuf(FILE *f);

int __wrap_setvbuf(FILE *f, char *buf, int mode, size_t size)
{
    int r;
    if (f != stdout)
        return __real_setvbuf(f, buf, mode, size);
    flockfile(stdout);
    r = __real_setvbuf(f, buf, mode, size);
    if (r == 0) {
        user_out.mode = mode;
        user_out.buf = buf;
        user_out.size = size;
        user_out.set = 1;
    }
    funlockfile(stdout);
    return r;
}

void __wrap_setbuf(FILE *f, char *buf)
{
    __wrap_setvbuf(f, buf, buf ? _IOFBF : _IONBF, BUFSIZ);
}

void __wrap_setbuffer(FILE *f, char *buf, size_t size)
{
    __wrap_setvbuf(f, buf, buf ? _IOFBF : _IONBF, size);
}

void __wrap_setlinebuf(FILE *f)
{
    __wrap_setvbuf(f, NULL, _IOLBF, 0);
}

/* Buffers stdout again after MPI_Init, which leaves it unbuffered (printing 2 M lines
   took 2.7-3.6 s, a write per line, against 0.16 s for the same program built with
   gcc): as the program asked (setvbuf above), else rank 0 as the C library does for a
   fresh stream (fully when it is not a terminal, by lines when it is) and every other
   rank by lines. The other ranks print only from recursive code, at the same time as
   each other: fully buffered, each wrote 4 KiB at a time, cut mid-line, and lines of two
   ranks came out spliced ("leaf 0 lineleaf 1 line 0", 9-34 in 400 k lines, a helper's
   hunt; plain MPICH, unbuffered, has none). Rank 0's buffer is flushed at region starts,
   the others' at region ends, every one at exit, before MPI_Finalize and before any
   abort (doc/runtime.md). */
static char out_buf[BUFSIZ];
static int out_region; /* rank 0 inside a region (under stdout's lock) */

static void stdout_mode(int rank)
{
    int (*set)(FILE *, char *, int, size_t) = __real_setvbuf ? __real_setvbuf : setvbuf;
    if (user_out.set && user_out.mode != _IONBF && !user_out.buf)
        /* glibc keeps the stream's buffer for a mode without one, and MPI_Init's is
           the 1-byte one of an unbuffered stream: main's setvbuf(stdout, NULL, _IOLBF,
           0) went out a byte a write, lines of two ranks spliced in between */
        set(stdout, out_buf, user_out.mode, sizeof out_buf);
    else if (user_out.set)
        set(stdout, user_out.buf, user_out.mode, user_out.size);
    else
        set(stdout, out_buf,
            rank == 0 && !out_region && !isatty(fileno(stdout)) ? _IOFBF : _IOLBF,
            sizeof out_buf);
    /* glibc leaves a stream that had written (main's lines before MPI started) in
       output mode with no room in the new buffer, and the next printf then wrote its
       first piece on its own ("f " of "f 1520\n": another rank's line came between
       the two at -n 8, 4 runs in 30; a helper's bug hunt; 6 lines of plain C show it).
       A seek to where the stream is takes it out of that mode (on a pipe or a terminal
       the seek fails, harmlessly: no error indicator is set). */
    fseek(stdout, 0, SEEK_CUR);
}

static void stdout_rebuffer(int rank)
{
    flockfile(stdout); /* main's stdio waits for both calls (rank 0: "MPI starts
                          while main begins") */
    stdout_mode(rank);
    funlockfile(stdout);
}

/* Rank 0, a region starts (on = 1; what main printed has been flushed) or ends: while
   other ranks may print, rank 0's stdout goes by lines as theirs do (its 4 KiB writes
   were cut mid-line: 2-8 spliced lines in 400 k printed by two leaves), then fully
   buffered again for main. Also while MPI still starts (the first region, held): with
   the C library's full buffer there, the start thread's setvbuf wrote out what it held,
   a line's first part among them. */
void wtcrt_stdout_region(int on)
{
    flockfile(stdout);
    out_region = on;
    if (!user_out.set)
        stdout_mode(0);
    funlockfile(stdout);
}

/* What MPICH's MPI_Init need not prepare. For every job: hwloc's GPU discovery and its
   x86 component (HWLOC_EVERY_JOB below). For a job whose ranks all run on this node,
   when hydra says so (MPI_LOCALNRANKS, the ranks it started on this node, equals
   PMI_SIZE, the job's):
   * hwloc's list of the node's I/O devices (every PCI device's configuration, the
     network, block and GPU devices under /sys), made to find the network card nearest
     a rank: HWLOC_COMPONENTS=-linuxio,-pci (hwloc's documented switch). On the 2-core
     test VM, where each read of a PCI device's configuration traps to the hypervisor,
     it was 14 ms of the 45 ms that mpiexec -n 2 of an empty MPI program took.
   * UCX's network transports (TCP on every interface, InfiniBand where there is one):
     UCX_TLS=self,sm (UCX's documented choice of transports). An empty MPI program at
     -n 2, medians of 15 interleaved: 49 -> 37 ms; -n 3 94 -> 90 ms. Where UCX's
     single-copy transport is there (cma_there), UCX_TLS=self,sysv,cma: "sm" also opens
     the second FIFO transport (posix beside sysv: the same protocol, one is enough),
     which took 2-4 ms of each rank's MPI_Init and MPI_Finalize. On 16 cores, a wtcc
     program that ends at once, -n 16, medians of 7: 68.5 -> 46.6 ms with the x86
     component off too; steal -n 16 of n-queens 15, UTS and fib, whole process,
     medians of 7 interleaved: 0.256 -> 0.236, 0.184 -> 0.162, 0.254 -> 0.236 s.
   * With ch4:ucx, MPICH's own shared-memory layer: MPIR_CVAR_NOLOCAL=1 (MPICH's
     documented control variable) has local ranks talk through UCX's shared memory (the
     path Open MPI's UCX layer takes), set up without MPICH's start-up barriers. Those
     spin without ever giving the core up, so with more ranks than cores each one held
     the last rank off the cores for a time slice: MPI_Init took 60-70 ms at -n 3 on 2
     cores (35 % of each rank's samples in the spin), 22-27 ms with it; a whole job that
     ends at once, medians of 15: -n 2 38 -> 31 ms, -n 3 99 -> 49, -n 4 125 -> 59. The
     data path is level (bench/rt_latency, cilksort 16M, the 2.5 GB of bench/bigmsg).
     Not with ch4:ofi, whose local path without its shared memory could be TCP.
   (doc/runtime.md "Start-up", bench/init_parts.sh). A user's own variable wins; each
   one set here is removed again once MPI has started (start_env_restore), so the
   program's children do not see it. Returns a mask of what it set. */
enum { SET_HWLOC = 1, SET_UCX = 2, SET_NOLOCAL = 4 };
/* hwloc's components no job needs.
   * x86: reads each core's CPUID, moving the calling thread onto every core of the node
     in turn, to add what Linux's /sys already gives hwloc's linux component. With 16
     ranks starting at once on 16 cores it was 7 ms of each rank's 18 ms of hwloc
     (bench/init_parts.sh, medians of 7), and it grows with the cores.
   * The GPU and accelerator discovery components. Loaded as plugins where the system's
     hwloc has them (Debian's and Ubuntu's libhwloc-plugins: opencl, gl), each
     initialises its vendor's driver at MPI_Init to list the devices: on a 16-core GPU
     node (Ubuntu 24.04, MPICH 4.0.2 from Debian, the driver visible) an MPI program that
     only starts and ends took 0.31-0.33 s at -n 1 and 0.65 s at -n 16, and 0.03 s and
     0.15 s without them (bench/README.md, "On 16 cores"). The runtime passes host
     memory only, so no job needs MPICH to know the node's GPUs.
   hwloc ignores a name it does not have (x86 on another processor). */
#define HWLOC_EVERY_JOB "-x86,-cuda,-nvml,-opencl,-rsmi,-levelzero,-gl"
/* No topology at all: hwloc's no_os component alone (the node's processors, nothing
   about cores, caches or memory). MPICH 4 reads its topology for its own shared memory
   (placement of its queues), for MPI_Comm_split_type's hardware types, MPI_Alloc_mem's
   memory kinds and the network card nearest a rank. In a job on one node over ch4:ucx
   with MPIR_CVAR_NOLOCAL=1 (set here) its shared memory is off and there is no card to
   choose; a program that does not include <mpi.h> makes none of those calls, and the
   runtime neither. Even with the x86 component off, hwloc's linux component read /sys
   for 11-12 ms of each rank's MPI_Init at -n 16 on 16 cores (every rank reads every
   core's files at once), 3 ms at -n 2: a program that ends at once took 53.8 -> 39.6
   ms at -n 16 (bench/init_parts.sh, medians of 7). */
#define HWLOC_NO_TOPOLOGY "no_os,stop"

/* Whether UCX's single-copy transport between processes (cma, process_vm_readv) is
   there, by the two tests UCX makes before it offers it: the process may write its own
   memory with process_vm_writev (a seccomp filter may refuse the call), and Yama's
   ptrace_scope, where the kernel has Yama, is 0 or 1 (UCX makes 1 work with
   prctl(PR_SET_PTRACER)). A transport named in UCX_TLS that is not there gets a
   warning from every rank; "sm" takes whatever shared-memory transports there are.
   (MPICH's UCX only: under Open MPI and SMPI nothing asks.) */
#if defined(WTC_MPI_MPICH)
static int cma_there(void)
{
    long src = 1, dst = 0;
    struct iovec from = {&src, sizeof src}, to = {&dst, sizeof dst};
    if (process_vm_writev(getpid(), &from, 1, &to, 1, 0) != (ssize_t)sizeof dst)
        return 0;
    FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "r");
    if (!f)
        return 1;
    int scope = -1;
    if (fscanf(f, "%d", &scope) != 1)
        scope = -1;
    fclose(f);
    return scope == 0 || scope == 1;
}
#endif

#if defined(WTC_MPI_MPICH)
/* Hydra started every rank of the job on this node: MPI_LOCALNRANKS equals PMI_SIZE. */
static int one_node_job(void)
{
    const char *local = getenv("MPI_LOCALNRANKS"), *size = getenv("PMI_SIZE");
    return local && size && strcmp(local, size) == 0;
}

/* This MPICH's device is ch4:ucx (MPI_Get_library_version may be called before
   MPI_Init: MPI 3.0 and later). */
static int over_ucx(void)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    return MPI_Get_library_version(version, &len) == MPI_SUCCESS &&
           strstr(version, "Device:\tch4:ucx") != NULL;
}
#endif

static int start_env_setup(void)
{
    int set = 0;
#if defined(WTC_MPI_MPICH)
    int one_node = one_node_job();
    if (one_node) {
        if (!getenv("UCX_TLS") &&
            setenv("UCX_TLS", cma_there() ? "self,sysv,cma" : "self,sm", 0) == 0)
            set |= SET_UCX;
        if (over_ucx() && !getenv("MPIR_CVAR_NOLOCAL") &&
            setenv("MPIR_CVAR_NOLOCAL", "1", 0) == 0)
            set |= SET_NOLOCAL;
    }
    if (!getenv("HWLOC_COMPONENTS") &&
        setenv("HWLOC_COMPONENTS",
               (set & SET_NOLOCAL) && !wtcrt_program_calls_mpi() ? HWLOC_NO_TOPOLOGY
               : one_node                          ? "-linuxio,-pci," HWLOC_EVERY_JOB
                                                   : HWLOC_EVERY_JOB,
               0) == 0)
        set |= SET_HWLOC;
#endif
    return set;
}

static void start_env_restore(int set)
{
    if (set & SET_HWLOC)
        unsetenv("HWLOC_COMPONENTS");
    if (set & SET_UCX)
        unsetenv("UCX_TLS");
    if (set & SET_NOLOCAL)
        unsetenv("MPIR_CVAR_NOLOCAL");
}

/* The runtime's communicator, this rank and the job's size, once MPI has started. */
static void world(wtcrt_rt *rt)
{
    MPI_Request req;
#ifdef WTC_MPI_SMPI
    (void)req; /* SimGrid 3.32 has no MPI_Comm_idup (it aborts: "Not yet implemented") */
    MPI_Comm_dup(MPI_COMM_WORLD, &rt->comm);
#else
    MPI_Comm_idup(MPI_COMM_WORLD, &rt->comm, &req);
    wtcrt_coll_wait(&req);
#endif
    int rank, size;
    MPI_Comm_rank(rt->comm, &rank);
    MPI_Comm_size(rt->comm, &size);
    /* in the start thread the main thread reads these meanwhile (the launcher's values,
       wtcrt_mpi_early): written only when MPI says otherwise (start_done stops then) */
    if (rt->rank != rank)
        rt->rank = rank;
    if (rt->nranks != size)
        rt->nranks = size;
    wtcrt_shheap_world(rank, size);
}

#ifdef WTC_MPI_SMPI
/* SMPI runs every simulated rank in one process, on one heap, and charges each rank
   the CPU time its code takes between two MPI calls. With the C library's fast bins,
   a request of 1 KiB or more first coalesces every small block freed since the last
   one (malloc_consolidate), and the simulator frees many: the rank whose malloc came
   next was charged 2-4 ms for the simulator's garbage (at P = 128 once a run, a rank
   that then got its first TASK late: fib 36 simple took 2.7-3.7 ms of simulated time,
   1.96-1.99 ms with the fast bins off). A cluster's rank has a heap of its own. So the
   SMPI flavour turns the fast bins off for the whole process, once per rank, before
   MPI starts (the thread cache still serves small blocks); doc/predictor.md 8.1. */
int mallopt(int param, int value); /* glibc's <malloc.h>: smpicc's malloc macros break it */
#define WTC_M_MXFAST 1                 /* its M_MXFAST */
static void smpi_heap(void)
{
    mallopt(WTC_M_MXFAST, 0);
}
#endif

/* ---- A job of one under hydra: the goodbye ------------------------------------------
   hydra's mpiexec writes to its proxy after the launch (what it read of its standard
   input, EOF too); a process that speaks no PMI and ends first lets the proxy report
   and leave before that write, and mpiexec dies of SIGPIPE: status 141 and the job's
   output lost (CI, tests/run.sh, run/mutual -n 1; with the cores busy `mpiexec -n 1
   true < /dev/null` 36 times in 100, an MPI program that starts MPI never). So a job of
   one under hydra (PMI_FD and hydra's MPI_LOCALNRANKS set) says goodbye as MPI_Finalize
   would at its end, in PMI-1's wire protocol over PMI_FD: init, a barrier (which goes
   through mpiexec, so mpiexec has served what it read before) and finalize, each reply
   awaited for GOODBYE_WAIT_MS at most. Nothing else of PMI or MPI: the heap stays plain
   C's. The socket is the one found at the start (device and inode), never a socket the
   program opened on the same number since; any failure just ends the goodbye. */
#define GOODBYE_WAIT_MS 10000
static struct {
    int fd; /* -1: no goodbye */
    pid_t pid;
    dev_t dev;
    ino_t ino;
} hydra = { -1, 0, 0, 0 };

static void goodbye_note(void)
{
    const char *s = getenv("PMI_FD");
    char *end;
    struct stat st;
    long fd;
    if (!s || !*s || !getenv("MPI_LOCALNRANKS"))
        return;
    fd = strtol(s, &end, 10);
    if (*end || fd < 0 || fd > INT_MAX || fstat((int)fd, &st) != 0 || !S_ISSOCK(st.st_mode))
        return;
    hydra.fd = (int)fd;
    hydra.pid = getpid();
    hydra.dev = st.st_dev;
    hydra.ino = st.st_ino;
}

/* Sends the line 'cmd' on fd and waits for a reply line that starts with 'want'. 0 if
   so. */
static int goodbye_step(int fd, const char *cmd, const char *want)
{
    char line[512];
    size_t n = 0, len = strlen(cmd);
    while (len > 0) {
        ssize_t w = send(fd, cmd, len, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        cmd += w;
        len -= (size_t)w;
    }
    while (n < sizeof line - 1) {
        struct pollfd p = { fd, POLLIN, 0 };
        int r = poll(&p, 1, GOODBYE_WAIT_MS);
        ssize_t got;
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        got = read(fd, line + n, 1); /* a byte at a time: nothing read past the line */
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        if (line[n++] == '\n')
            break;
    }
    line[n] = 0;
    return strncmp(line, want, strlen(want)) == 0 ? 0 : -1;
}

static void goodbye(void)
{
    struct stat st;
    int fd = hydra.fd;
    if (fd < 0 || hydra.pid != getpid() || fstat(fd, &st) != 0 || st.st_dev != hydra.dev ||
        st.st_ino != hydra.ino)
        return;
    hydra.fd = -1; /* once */
    if (goodbye_step(fd, "cmd=init pmi_version=1 pmi_subversion=1\n",
                     "cmd=response_to_init") == 0 &&
        goodbye_step(fd, "cmd=barrier_in\n", "cmd=barrier_out") == 0)
        goodbye_step(fd, "cmd=finalize\n", "cmd=finalize_ack");
}

/* Starts MPI, unless this process is the whole job; sets rt->comm, rt->rank,
   rt->nranks. */
void wtcrt_mpi_start(wtcrt_rt *rt, int *argc, char ***argv)
{
    int inited = 0;
#ifdef WTC_MPI_SMPI
    smpi_heap();
#endif
    MPI_Initialized(&inited);
    if (!inited && job_of_one()) {
        rt->alone = 1;
        rt->comm = MPI_COMM_NULL;
        rt->rank = 0;
        rt->nranks = 1;
        goodbye_note();
        return;
    }
    if (!inited) {
        int set = start_env_setup();
        int me = 0;
        MPI_Init(argc, argv);
        start_env_restore(set);
        MPI_Comm_rank(MPI_COMM_WORLD, &me);
        stdout_rebuffer(me);
    }
    world(rt);
    if (rt->nranks == 1)
        check_launcher();
}

/* ---- MPI starts while main begins (doc/runtime.md "Start-up") ----------------------

   MPI_Init takes 15-25 ms on one node and far more on a cluster; rank 0 alone runs
   main, whose first lines (reading the input, filling the arrays) need no other rank.
   So rank 0 of a job hydra started starts MPI in a thread of its own and runs main at
   once; the other ranks start MPI as always and wait for the first region. The thread
   calls MPI_Init_thread(MPI_THREAD_SERIALIZED) — after it, MPI is called by the main
   thread, never by two at once — then the rest of the start every rank makes (the
   runtime's communicator, the doorbell's collectives); main joins it (wtcrt_mpi_ready)
   before anything that needs MPI: a region, the end of the program, an error that
   stops the job. Between the two nothing of the main thread touches the runtime's
   state: the thread writes it, pthread_join publishes it. */

static __thread int in_start_thread; /* this thread is the start thread */
static void (*start_then)(wtcrt_rt *rt);

#if defined(WTC_MPI_MPICH)
/* Whether MPI_Init, made by the start thread while main runs, leaves the program break
   alone. Over ch4:ucx it need not: UCX hooks mmap, munmap, brk, sbrk and others when
   its library loads, before main, and MPI_Init tests the hooks again by moving the
   break up a page and back down (sbrk(+4096), sbrk(-4096)) for its caches of RDMA
   registrations and of memory types (GPU memory). A malloc of main that grew the heap
   between the two lost its top page to the second: glibc's abort "break adjusted to
   free malloc space" in one CI run of tests/unit/rt_shheap.sh, a hang in one of
   tests/unit/rt_counts.sh; a 20-line program making the two calls in a loop beside
   malloc and free crashes at once. The test is made only while UCX's memory events are
   on. On one node (UCX_TLS self,sysv,cma or sm: start_env_setup) with host memory only
   nothing reads them, so rank 0 turns them off here, with UCX's own API
   (ucm_set_global_opts; the variable UCX_MEM_EVENTS is read when UCX loads, before
   main), before any thread exists, and returns 1. A user's UCX_MEM_EVENTS is kept:
   off, 1; on, 0. 0 too over another device (ch4:ofi's libfabric hooks the same calls)
   and where UCX's API is not there: MPI then starts before main. Asked only for a job
   on one node (wtcp_start_kind: across nodes MPI starts before main; RDMA networks need
   the events). */
static int start_break_safe(void)
{
    const char *ev = getenv("UCX_MEM_EVENTS");
    if (!over_ucx())
        return 0; /* ch3 has no such hooks, ch4:ofi has libfabric's */
    if (ev)
        return !strcasecmp(ev, "n") || !strcasecmp(ev, "no") || !strcasecmp(ev, "off") ||
               !strcmp(ev, "0");
#ifdef WTCRT_UCM
    {
        ucm_global_config_t *opts = dlsym(RTLD_DEFAULT, "ucm_global_opts"), off;
        void (*set)(const ucm_global_config_t *);
        *(void **)&set = dlsym(RTLD_DEFAULT, "ucm_set_global_opts");
        if (!opts || !set)
            return 0;
        off = *opts;
        off.enable_events = 0;
        set(&off);
        return 1;
    }
#else
    return 0;
#endif
}
#endif

/* The job's size when this process is rank 0 of a job of several that hydra started
   (PMI_RANK 0, PMI_SIZE above 1) and MPI has not started: rt->rank and rt->nranks are
   set from them for the checks of the options, and MPI may start in a thread
   (wtcrt_mpi_start_early). 0 otherwise, with WTC_START_EARLY=0, and for a program that
   includes <mpi.h> (wtc_calls_mpi: it may call MPI in main): MPI starts before main.
   Only MPICH: the variables are its launcher's; and only where the start thread's
   MPI_Init leaves the program break alone (start_break_safe, checked last: it turns
   UCX's memory events off). */
int wtcrt_mpi_early(wtcrt_rt *rt)
{
#if defined(WTC_MPI_MPICH)
    const char *r = getenv("PMI_RANK"), *var = "";
    int inited = 0;
    long n;
    if (wtcrt_env_off("WTC_START_EARLY") || !r || strcmp(r, "0") != 0 ||
        wtcp_start_kind(wtcrt_program_calls_mpi(), 0, one_node_job()) == WTCP_START_FIRST)
        return 0;
    n = launcher_size(&var);
    if (n <= 1 || n > INT_MAX || strcmp(var, "PMI_SIZE") != 0)
        return 0;
    MPI_Initialized(&inited);
    if (inited || !start_break_safe())
        return 0;
    rt->rank = 0;
    rt->nranks = rt->start_size = (int)n;
    rt->comm = MPI_COMM_NULL;
    return (int)n;
#else
    (void)rt;
    return 0;
#endif
}

/* ---- a region while MPI starts ------------------------------------------------------

   A program that opens its first region at once (a generator, a small set-up) met the
   start unfinished and waited for it: 20 ms at -n 2 on the test VM, 50-60 ms at -n 16
   on one node, more across nodes, with every core idle. Now rank 0 runs such a region
   at once (wtcrt_hold): the REGION_BEGIN it would broadcast, and every message its
   region sends before MPI is up (the seeds, the TASKs of simple mode's splits, a
   request to a master), wait in order in rt->hold_q; the start thread sends them all,
   the REGION_BEGIN first, as soon as MPI has started — the other ranks cannot receive
   anything earlier — and waits until the TASKs have left, so the work reaches the
   others whatever rank 0's main thread is doing (a long sequential leaf polls nowhere).
   Meanwhile rank 0's main thread computes: its polls find nothing and do not touch MPI;
   what must wait for another rank (a RESULT, the region's end) joins the start thread
   first (wtcrt_mpi_ready). The decisions are the ones the run makes without the hold
   (the seeds and splits are decided by the ranges alone). Not for a program that shares
   bounds (a BOUND and the doorbell's counters of wtc_share_* go straight to the other
   ranks; it waits for the start as before). */

__thread int wtcrt_held; /* this (main) thread runs a region held: see above */

/* A message sent while held, for the start thread to send (a TASK with
   wtcrt_send_task_msg, for wtcrt_sync_tasks, as every TASK is sent). */
struct wtcrt_held {
    int dest, tag;
    wtcrt_msg *m;
};

/* Main thread, at a region's start: holds the region when MPI is still starting (then
   'begin', the REGION_BEGIN, is the start thread's to send; returns 1); 0 when it has
   started: the caller joins it and broadcasts as always. */
int wtcrt_hold(wtcrt_rt *rt, wtcrt_msg *begin)
{
    int held = 0;
    /* (a start pending: the job is on one node) */
    if (!rt->start_pending || in_start_thread || wtcrt_forked(rt) ||
        wtcp_start_kind(0, rt->prog->nshared, 1) != WTCP_START_HOLD)
        return 0;
    pthread_mutex_lock(&rt->hold_mu);
    if (!atomic_load(&rt->start_over)) {
        rt->hold_begin = begin;
        wtcrt_held = held = 1;
    }
    pthread_mutex_unlock(&rt->hold_mu);
    return held;
}

/* Main thread, held: queues m for dest (1), or, when the start thread has taken the
   queue already, ends the hold (waits for the thread) and returns 0: the caller sends m
   itself, after what was queued. */
int wtcrt_hold_send(wtcrt_rt *rt, int dest, int tag, wtcrt_msg *m)
{
    pthread_mutex_lock(&rt->hold_mu);
    if (atomic_load(&rt->start_over)) {
        pthread_mutex_unlock(&rt->hold_mu);
        wtcrt_mpi_ready(rt);
        return 0;
    }
    if (rt->nhold == rt->caphold) {
        int cap = rt->caphold ? 2 * rt->caphold : 16;
        struct wtcrt_held *q = realloc(rt->hold_q, (size_t)cap * sizeof *q);
        if (!q) {
            pthread_mutex_unlock(&rt->hold_mu);
            wtcrt_die(rt, "out of memory");
        }
        rt->hold_q = q;
        rt->caphold = cap;
    }
    rt->hold_q[rt->nhold].dest = dest;
    rt->hold_q[rt->nhold].tag = tag;
    rt->hold_q[rt->nhold++].m = m;
    pthread_mutex_unlock(&rt->hold_mu);
    return 1;
}

/* Main thread, held, at a poll: 1 when the start thread has sent what was held (the
   hold is over now: the thread joined), 0 while MPI is still starting. A load. */
int wtcrt_hold_over(wtcrt_rt *rt)
{
    if (!atomic_load_explicit(&rt->start_gone, memory_order_acquire))
        return 0;
    wtcrt_mpi_ready(rt);
    return 1;
}

/* The start thread, once MPI has started: sends what the held region queued, the
   REGION_BEGIN first, and waits until the TASKs have left. With nothing held, marks
   the start over, so no region is held from now on. */
static void hold_release(wtcrt_rt *rt)
{
    wtcrt_msg *begin;
    struct wtcrt_held *q;
    int n;
    pthread_mutex_lock(&rt->hold_mu);
    begin = rt->hold_begin;
    q = rt->hold_q;
    n = rt->nhold;
    rt->hold_begin = NULL;
    rt->hold_q = NULL;
    rt->nhold = rt->caphold = 0;
    atomic_store(&rt->start_over, 1);
    pthread_mutex_unlock(&rt->hold_mu);
    /* MPI disagrees with the launcher: nothing goes out, the main thread stops the job
       (start_done) */
    if (begin && rt->rank == 0 && rt->nranks == rt->start_size) {
        wtcrt_bcast(rt, WTCRT_REGION_BEGIN, begin);
        for (int i = 0; i < n; i++) {
            if (q[i].tag == WTCRT_TASK)
                wtcrt_send_task_msg(rt, q[i].dest, q[i].m);
            else
                wtcrt_send(rt, q[i].dest, q[i].tag, q[i].m);
        }
        wtcrt_sync_tasks(rt);
    }
    if (begin)
        wtcrt_msg_free(rt, begin);
    free(q);
    /* the held region's answering thread, now that MPI is up: rank 0's main thread
       may be deep in a leaf and not join this thread for a while (mpi/answer.c) */
    if (begin && rt->rank == 0 && rt->nranks == rt->start_size)
        wtcrt_answer_start(rt, 1);
    atomic_store_explicit(&rt->start_gone, 1, memory_order_release);
}

static void *start_main(void *arg)
{
    wtcrt_rt *rt = arg;
    int provided;
    in_start_thread = 1;
    /* no argc/argv: the main thread is taking the runtime's options out of them */
    MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided);
    /* at once: main may be printing (the C library's setvbuf takes the stream's lock
       and writes out what the stream holds first) */
    stdout_rebuffer(0);
    world(rt);
    start_then(rt); /* nothing with one rank */
    hold_release(rt);
    return NULL;
}

/* Ends the start in the main thread, once the start thread's work is done. */
static void start_done(wtcrt_rt *rt)
{
    start_env_restore(rt->start_env);
    if (rt->nranks == 1) {
        rt->finished = 1; /* at exit nothing is left to end but MPI, which it ends */
        check_launcher(); /* another MPI's launcher started it: says so and stops */
    }
    wtcrt_short_sleeps(); /* a setting of each thread: the start thread's was made */
    if (rt->rank != 0 || rt->nranks != rt->start_size)
        wtcrt_die(rt, "hydra's PMI_RANK and PMI_SIZE said rank 0 of %d, MPI says rank %d "
                  "of %d (start the program with WTC_START_EARLY=0)", rt->start_size,
                  rt->rank, rt->nranks);
}

/* Starts MPI in a thread (after wtcrt_mpi_early said so), then 'then' there (the
   start's collectives); without a thread, here and now. */
void wtcrt_mpi_start_early(wtcrt_rt *rt, void (*then)(wtcrt_rt *rt))
{
    start_then = then;
    rt->start_env = start_env_setup(); /* setenv before any other thread runs */
    if (pthread_mutex_init(&rt->hold_mu, NULL) == 0 &&
        pthread_create(&rt->start_thread, NULL, start_main, rt) == 0) {
        rt->start_pending = 1;
        return;
    }
    start_main(rt);
    in_start_thread = 0;
    start_done(rt);
}

/* Waits for the start thread, when there is one, and ends the start as
   wtcrt_mpi_start ends it. Every way into MPI on rank 0 passes here first. */
void wtcrt_mpi_ready(wtcrt_rt *rt)
{
    if (!rt->start_pending || in_start_thread || wtcrt_forked(rt))
        return;
    pthread_join(rt->start_thread, NULL);
    rt->start_pending = 0;
    wtcrt_fatal_start_over();
    start_done(rt);
    if (wtcrt_held) { /* the thread sent what the region held: the region's own start */
        wtcrt_held = 0;
        wtcrt_bounds_region(rt);
    }
    if (rt->in_region) /* its answering thread could not start while MPI started */
        wtcrt_answer_start(rt, 0);
}

/* Ends what wtcrt_mpi_start started. */
void wtcrt_mpi_end(wtcrt_rt *rt)
{
    wtcrt_mpi_ready(rt);
    if (rt->alone) {
        goodbye();
        return;
    }
    MPI_Comm_free(&rt->comm);
    MPI_Finalize();
}

/* Stops every rank of the job with 'status' (MPI_Abort); alone, it returns and the
   caller exits. */
void wtcrt_mpi_abort(wtcrt_rt *rt, int status)
{
    int inited = 0;
    wtcrt_abort_watch(rt, status);
    wtcrt_mpi_ready(rt);
    wtcrt_answer_stop(rt); /* nothing when called by the answering thread itself */
    fflush(NULL);
    if (!rt->alone) {
        /* an error on rank 0 before its start thread was due (WTC_DECISIONS naming a
           directory): MPI_Abort before MPI_Init only printed MPICH's complaint, and the
           other ranks waited for rank 0 for ever */
        MPI_Initialized(&inited);
        if (!inited)
            MPI_Init(NULL, NULL);
        /* hydra stops forwarding a job's output once it learns of the abort: on the
           loaded VM a message just written to stderr was lost (once in a few hundred
           runs of tests/unit/rt_counts.sh, status 2 and no message). A pause lets the
           launcher take it first; aborts are rare. */
        struct timespec pause = { 0, 100 * 1000 * 1000 };
        nanosleep(&pause, NULL);
        MPI_Abort(MPI_COMM_WORLD, status);
    }
    goodbye(); /* alone: the caller exits with 'status', which mpiexec must live to say */
}
