/* wtc_calibrate.c - bin/wtc-calibrate: measures this machine's extended LogGPS
 * parameters (SPEC 5.1) and writes a machine file for prog.predict.
 *
 *   mpiexec -n P bin/wtc-calibrate -o FILE [--name=NAME] [--quick] [-v]
 *
 * Ranks 0 and 1 measure while every other rank idles without burning a core (a
 * non-blocking barrier polled with sleeps). For each p = 2, 4, ..., P the pair works in
 * a communicator of the first p ranks and receives from MPI_ANY_SOURCE, as the runtime
 * does, so that the cost of checking p-1 possible sources shows:
 *   o_s(k)  the time of a blocking send of k bytes (eager sizes),
 *   o_r(k)  the time of receiving k bytes that have already arrived,
 *   RTT(k)  a ping-pong; L + G k = RTT/2 - o_s - o_r.
 * o_s = c_s(p) + O_s k per p, then c_s(p) = o_sa + o_sb p by least squares (likewise
 * for o_r); L and G from the line through L + G k at p = 2. The eager limit S is the
 * largest size whose send returns before a receiver that waits 2 ms posts its receive.
 * t_m: a REQ/GRANT round trip with rank P-1 as a polling master, minus the network
 * part (2 L + G k) and the asking worker's own overheads. The file is written to a
 * temporary name and renamed, so it is never half-written. */
#define _GNU_SOURCE /* fallocate */
#include <errno.h>
#include <mpi.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "calib.h"
#include "wtcrt.h"
#include "wtc_mpi_impl.h"


#define MAXP 64
#define NSIZES 6

static const double sizes[NSIZES] = { 8, 64, 512, 2048, 8192, 16384 };
static int reps = 200, verbose;

static double now(void)
{
    return MPI_Wtime();
}

static void spin(double s)
{
    double t0 = now();
    while (now() - t0 < s)
        ;
}

/* This process's CPU time (-1 if the clock is missing). */
static double cpu_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return -1;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The smallest share of the wall time that a computing rank of the pair got as CPU
   time, over every kernel and spin check so far (1: nobody else ran). */
static double cpu_share = 1;

static void note_share(double wall, double cpu0)
{
    double c = cpu_now();
    if (cpu0 >= 0 && c >= 0 && wall > 0 && (c - cpu0) / wall < cpu_share)
        cpu_share = (c - cpu0) / wall;
}


/* Every rank waits here; idle ranks sleep between polls instead of spinning. */
static void sleepy_barrier(MPI_Comm c)
{
    MPI_Request rq;
    int done = 0, us = 1;
    MPI_Ibarrier(c, &rq);
    while (MPI_Test(&rq, &done, MPI_STATUS_IGNORE), !done) {
        struct timespec ts = { 0, us * 1000L };
        nanosleep(&ts, NULL);
        us = us < 1000 ? 2 * us : 1000;
    }
}

/* Ranks 0 and 1 spin 50 ms each, side by side, and note the CPU share they got: two
   cores free for the pair, or a busy host. The other ranks sleep meanwhile (before and
   after): a rank that went on into a collective would spin in MPICH's progress loop and
   take a core from the pair, and with more ranks than cores every check said "busy"
   (36 % at -n 4 on an idle 2-core host). The better of two spins counts: the first
   spin after start-up got 33 % and 68 % of an idle VM's cores, the next ones 98 % (a
   busy host takes the cores in both). */
static void busy_check(int me)
{
    sleepy_barrier(MPI_COMM_WORLD);
    if (me < 2) {
        double best = -1;
        for (int i = 0; i < 2; i++) {
            double c0 = cpu_now(), t0 = now(), c, w;
            spin(0.05);
            w = now() - t0;
            c = cpu_now();
            if (c0 >= 0 && c >= 0 && (c - c0) / w > best)
                best = (c - c0) / w;
        }
        if (best >= 0 && best < cpu_share)
            cpu_share = best;
    }
    sleepy_barrier(MPI_COMM_WORLD);
}

/* Rank 0 learns the smallest share of every rank (collective). */
static void share_reduce(void)
{
    double mine = cpu_share;
    MPI_Allreduce(&mine, &cpu_share, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
}


/* One measured quantity of the pair (ranks 0 and 1 of c); the result is on rank 0. */
static double measure_os(MPI_Comm c, int me, char *buf, int k)
{
    double v[1000];
    for (int i = 0; i < reps; i++) {
        if (me == 0) {
            double t0 = now();
            MPI_Send(buf, k, MPI_CHAR, 1, 1, c);
            v[i] = now() - t0;
            MPI_Recv(buf, 0, MPI_CHAR, 1, 2, c, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(buf, k, MPI_CHAR, MPI_ANY_SOURCE, 1, c, MPI_STATUS_IGNORE);
            MPI_Send(buf, 0, MPI_CHAR, 0, 2, c);
        }
    }
    return me == 0 ? wtcrt_median(v, reps) : 0;
}

static double measure_or(MPI_Comm c, int me, char *buf, int k)
{
    double v[1000];
    /* o_r on rank 1's side: the message is known to have arrived (spin past L) */
    for (int i = 0; i < reps; i++) {
        if (me == 0) {
            MPI_Recv(buf, 0, MPI_CHAR, 1, 5, c, MPI_STATUS_IGNORE);
            MPI_Send(buf, k, MPI_CHAR, 1, 6, c);
        } else {
            int flag = 0;
            MPI_Send(buf, 0, MPI_CHAR, 0, 5, c);
            spin(100e-6);
            double t0 = now();
            while (!flag)
                MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, c, &flag, MPI_STATUS_IGNORE);
            MPI_Recv(buf, k, MPI_CHAR, MPI_ANY_SOURCE, 6, c, MPI_STATUS_IGNORE);
            v[i] = now() - t0;
        }
    }
    double r = me == 1 ? wtcrt_median(v, reps) : 0;
    if (me == 1)
        MPI_Send(&r, 1, MPI_DOUBLE, 0, 7, c);
    else
        MPI_Recv(&r, 1, MPI_DOUBLE, 1, 7, c, MPI_STATUS_IGNORE);
    return r;
}

static double measure_rtt(MPI_Comm c, int me, char *buf, int k)
{
    double v[1000];
    for (int i = 0; i < reps; i++) {
        if (me == 0) {
            double t0 = now();
            MPI_Send(buf, k, MPI_CHAR, 1, 8, c);
            MPI_Recv(buf, k, MPI_CHAR, MPI_ANY_SOURCE, 8, c, MPI_STATUS_IGNORE);
            v[i] = now() - t0;
        } else {
            MPI_Recv(buf, k, MPI_CHAR, MPI_ANY_SOURCE, 8, c, MPI_STATUS_IGNORE);
            MPI_Send(buf, k, MPI_CHAR, 0, 8, c);
        }
    }
    return me == 0 ? wtcrt_median(v, reps) : 0;
}

/* Large messages as the runtime moves them (runtime/mpi/transport.c, mpi/par.c: buffers above
   64 KiB are not pooled, so every big TASK is received into fresh memory and unpacked
   into fresh memory; first touches cost page faults). Rank 0 packs (malloc + memcpy from
   warm data) and sends; rank 1, polling, receives into a fresh buffer and unpacks into
   another. Per size: pk[] pack, tr[] the MPI_Recv (the transfer), up[] the unpack,
   medians of 5, on rank 0. The runtime packs only what it copies (buffers of 64 KiB or
   more go by reference, straight into their place, doc/runtime.md "Big buffers travel
   where they lie"); the predictor charges O_s and O_r, the pack's and the unpack's
   costs per byte, on those copied bytes alone, and G, which includes the receive
   buffer's first touches, on every byte. */
#define NBIG 4
/* above glibc's largest mmap threshold (32 MB): every buffer is fresh memory, as a big
   TASK's is in the runtime (smaller ones get reused heap memory after the first) */
static const double big_sizes[NBIG] = { 40 << 20, 80 << 20, 160 << 20, 320 << 20 };
/* Messages whose buffers the C library reuses: glibc maps anything above 32 MiB fresh,
   and below that reuses memory freed before once a buffer of the size was freed (the
   predictor's engine.c, reused): 4-24 MiB, each repeated, the median of the repeats
   (all but the first reuse). */
static const double reuse_sizes[NBIG] = { 4 << 20, 8 << 20, 16 << 20, 24 << 20 };
/* --quick (seconds, for 'make demo'): the two smaller sizes, medians of 3 */
static int nbig = NBIG, big_reps = 5;

static volatile int sink;

/* One big TASK of k bytes moved with the runtime's own functions (ranks 0 and 1):
   rank 0 packs (wtcrt_msg_new: fresh memory above 64 KiB, and a copy), sends it with
   wtcrt_send_task_msg and waits in wtcrt_sync_tasks until it has left (transfer: the
   receiver wakes on the doorbell and receives it); rank 1 waits in wtcrt_recv, then
   unpacks (a copy into fresh memory, as the children's buffers are). Medians of
   big_reps (at most 5). */
static void big_one(wtcrt_rt *rt, int me, const char *src, int k, double *pk, double *tr,
                    double *up, double *upw)
{
    double a[5], b[5], c[5], w[5], r[2];
    for (int rep = 0; rep < big_reps; rep++) {
        sleepy_barrier(MPI_COMM_WORLD); /* ranks spinning in MPI_Barrier would take the cores */
        if (me == 0) {
            double t0 = now(), t1;
            wtcrt_msg *m = wtcrt_msg_new(rt, (size_t)k);
            memcpy(WTCRT_PAYLOAD(m), src, (size_t)k);
            t1 = now();
            wtcrt_send_task_msg(rt, 1, m);
            wtcrt_sync_tasks(rt);
            a[rep] = t1 - t0;
            b[rep] = now() - t1;
        } else if (me == 1) {
            wtcrt_msg *m = wtcrt_recv(rt, 0, WTCRT_TASK);
            double t1 = now();
            char *mem = malloc((size_t)k);
            memcpy(mem, WTCRT_PAYLOAD(m), (size_t)k);
            sink += mem[k - 1] + mem[k / 2]; /* the copy must happen */
            c[rep] = now() - t1;
            /* again into the same memory, now touched: a RESULT's out: data goes into
               the caller's arrays */
            t1 = now();
            memcpy(mem, WTCRT_PAYLOAD(m), (size_t)k);
            sink += mem[k - 2] + mem[k / 3];
            w[rep] = now() - t1;
            free(mem);
            wtcrt_msg_free(rt, m);
        }
    }
    if (me == 1) {
        r[0] = wtcrt_median(c, big_reps);
        r[1] = wtcrt_median(w, big_reps);
        MPI_Send(r, 2, MPI_DOUBLE, 0, 12, MPI_COMM_WORLD);
    } else if (me == 0) {
        MPI_Recv(r, 2, MPI_DOUBLE, 1, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        *pk = wtcrt_median(a, big_reps);
        *tr = wtcrt_median(b, big_reps);
        *up = r[0];
        *upw = r[1];
    }
}

/* The per-byte costs of big messages (rank 0 gets them): O_s from the pack, G from the
   transfer, O_r from the unpack into new memory, O_r_result from the unpack into memory
   already touched, each the slope of a least-squares line over 40-320 MB. */
static void measure_big(wtcrt_rt *rt, int me, double *O_s, double *G, double *O_r,
                        double *O_r_result, double reuse[3])
{
    double pk[NBIG], tr[NBIG], up[NBIG], upw[NBIG], a;
    char *src = me == 0 ? malloc((size_t)big_sizes[nbig - 1]) : NULL;
    if (src)
        memset(src, 1, (size_t)big_sizes[nbig - 1]);
    for (int i = 0; i < nbig; i++)
        big_one(rt, me, src, (int)big_sizes[i], &pk[i], &tr[i], &up[i], &upw[i]);
    if (me == 0) {
        calib_fit_line(big_sizes, pk, nbig, &a, O_s);
        calib_fit_line(big_sizes, tr, nbig, &a, G);
        calib_fit_line(big_sizes, up, nbig, &a, O_r);
        calib_fit_line(big_sizes, upw, nbig, &a, O_r_result);
    }
    for (int i = 0; i < NBIG; i++)
        big_one(rt, me, src, (int)reuse_sizes[i], &pk[i], &tr[i], &up[i], &upw[i]);
    free(src);
    if (me != 0)
        return;
    calib_fit_line(reuse_sizes, pk, NBIG, &a, &reuse[0]);
    calib_fit_line(reuse_sizes, tr, NBIG, &a, &reuse[1]);
    calib_fit_line(reuse_sizes, up, NBIG, &a, &reuse[2]);
    if (verbose)
        printf("  %.0f MB: pack %.3g s, transfer %.3g s, unpack %.3g s\n",
               big_sizes[nbig - 1] / (1 << 20), pk[nbig - 1], tr[nbig - 1], up[nbig - 1]);
}

typedef struct fit {
    double cs[MAXP], cr[MAXP], pp[MAXP];
    int np;
    double O_s, O_r, L, G, S, t_m, O_r_result;
    double O_s_reuse, G_reuse, O_r_reuse; /* buffers the allocator reuses (0: no fit) */
    double w_yield, w_yield_over, w_wake, t_child, t_task_child, t_task_child_fresh, t_poll,
        contention;
    int cores;
    /* what the data did not support: values set to a floor, and what was measured */
    int floor_L, floor_tm, busy_contention, floor_orr;
    double raw_L, raw_tm, raw_contention;
    double share_start, share_cont; /* cpu_share before measuring, and around contention */
    int rpn; /* ranks on rank 0's node when the job spans several nodes, else 0 */
    double t_page_shared, t_page_free; /* the shared heap's pages against private ones */
    double t_page_map; /* a page another process touched first, read the first time */
    double t_pack_child, t_store_child; /* a sent child's packing, its result's storing */
    int map_measured;
    int poll_asks; /* a compute-path poll asks MPI (no doorbell covers every rank) */
    double others; /* cores other processes used on rank 0's host meanwhile; -1 unknown */
} fit;

/* ---- what other processes took while this ran (host_use) ----------------------------
   The CPU share check (busy_check) sees a rank that loses its core, not one whose core
   is slowed by work beside it, and under SMPI it sees simulated time only. So rank 0
   also counts what the rest of its host ran: the busy time of all its cores
   (/proc/stat) less the CPU time of this job's processes there (each process once: under
   SMPI every rank is one process), over the wall time; the real clocks and process ids,
   by system call, which SMPI does not take over. */
typedef struct host_use {
    double busy, wall; /* rank 0: the host's busy CPU seconds, the wall clock */
    double own;        /* every rank: its process's CPU seconds */
} host_use;

/* The host's busy CPU seconds since boot (user, nice, system, irq, softirq of every
   core), or -1. */
static double host_busy_seconds(void)
{
    unsigned long long v[7] = { 0 };
    long hz = sysconf(_SC_CLK_TCK);
    FILE *f = fopen("/proc/stat", "r");
    int n;
    if (!f)
        return -1;
    n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
               &v[5], &v[6]);
    fclose(f);
    if (n != 7 || hz <= 0)
        return -1;
    return (double)(v[0] + v[1] + v[2] + v[5] + v[6]) / (double)hz; /* not idle, iowait */
}

/* A clock read by system call: SMPI's macros take clock_gettime over, not this. */
static double real_clock(clockid_t id)
{
    struct timespec ts;
    if (syscall(SYS_clock_gettime, id, &ts) != 0)
        return -1;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void host_use_start(int me, host_use *u)
{
    u->own = real_clock(CLOCK_PROCESS_CPUTIME_ID);
    u->busy = me == 0 ? host_busy_seconds() : -1;
    u->wall = me == 0 ? real_clock(CLOCK_MONOTONIC) : -1;
}

/* Collective: the process time since host_use_start of every rank on rank 0's node
   (MPI's shared-memory split, as ranks_per_node) goes to rank 0 with its process id,
   and rank 0 adds up each other process once into *ranks_cpu. */
static void host_use_gather(int me, const host_use *u, double *ranks_cpu)
{
    MPI_Comm node;
    int n, here;
    double mine[2], *all;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &n);
    MPI_Comm_rank(node, &here);
    all = here == 0 ? malloc((size_t)n * sizeof mine) : NULL; /* every node's root */
    mine[0] = (double)syscall(SYS_getpid);
    mine[1] = u->own >= 0 ? real_clock(CLOCK_PROCESS_CPUTIME_ID) - u->own : -1;
    MPI_Gather(mine, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, 0, node); /* rank 0: node's 0 */
    MPI_Comm_free(&node);
    if (me != 0) {
        free(all);
        return;
    }
    *ranks_cpu = 0;
    for (int r = 1; r < n && all; r++) {
        int seen = all[2 * r + 1] < 0;
        for (int q = 0; q < r && !seen; q++)
            seen = all[2 * q] == all[2 * r];
        if (!seen)
            *ranks_cpu += all[2 * r + 1];
    }
    free(all);
}

/* Rank 0, at the end: the cores other processes used on average (>= 0), or -1. */
static double host_use_others(const host_use *u, double ranks_cpu)
{
    double busy = host_busy_seconds(), wall = real_clock(CLOCK_MONOTONIC), v;
    double own = real_clock(CLOCK_PROCESS_CPUTIME_ID);
    if (u->busy < 0 || busy < 0 || u->wall < 0 || wall <= u->wall || u->own < 0 || own < 0)
        return -1;
    v = (busy - u->busy - (own - u->own) - ranks_cpu) / (wall - u->wall);
    return v > 0 ? v : 0;
}

/* The job's placement: how many ranks share rank 0's node, and on how many nodes the
   job runs (the predictor's ranks_per_node; one node: 0, every rank on it). */
static int ranks_per_node(void)
{
    MPI_Comm node;
    int mine, first, nodes, here;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &mine);
    MPI_Comm_rank(node, &here);
    first = here == 0;
    MPI_Allreduce(&first, &nodes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Bcast(&mine, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Comm_free(&node);
    return nodes > 1 ? mine : 0;
}

/* One ping-pong of 48-byte messages (ranks 0 and 1 of rt->comm): rank 0 computes 'gap'
   seconds, sends and rings the doorbell as wtcrt_send does, then waits for the answer
   spinning in MPI_Recv; returns the round trip. Rank 1 waits with the runtime's own
   wtcrt_recv (yield polls, then doorbell sleeps) when 'polling', else spins in
   MPI_Recv (it sees the message at once). */
static double wake_pingpong(wtcrt_rt *rt, int me, double gap, int polling)
{
    char b[WTCRT_HDR_SIZE];
    double t = 0;
    memset(b, 0, sizeof b);
    if (me == 0) {
        spin(gap);
        t = now();
        MPI_Send(b, sizeof b, MPI_BYTE, 1, WTCRT_REQ, rt->comm);
        wtcrt_bell_ring(rt, 1);
        MPI_Recv(b, sizeof b, MPI_BYTE, 1, WTCRT_GRANT, rt->comm, MPI_STATUS_IGNORE);
        t = now() - t;
    } else if (me == 1) {
        if (polling)
            wtcrt_msg_free(rt, wtcrt_recv(rt, 0, WTCRT_REQ));
        else
            MPI_Recv(b, sizeof b, MPI_BYTE, 0, WTCRT_REQ, rt->comm, MPI_STATUS_IGNORE);
        MPI_Send(b, sizeof b, MPI_BYTE, 0, WTCRT_GRANT, rt->comm);
    }
    return t;
}

/* How long the runtime's yield phase lasts with the given rt->yield_s: wtcrt_backoff
   steps from 0 until it would sleep, two probes each as wtcrt_recv does, idle host;
   median of 21 (rank 0 only). */
static double yield_phase(wtcrt_rt *rt)
{
    double v[21];
    for (int r = 0; r < 21; r++) {
        int us = 0, flag;
        double t0 = now();
        do {
            MPI_Iprobe(MPI_ANY_SOURCE, 12345, rt->comm, &flag, MPI_STATUS_IGNORE);
            MPI_Iprobe(MPI_ANY_SOURCE, 12345, rt->comm, &flag, MPI_STATUS_IGNORE);
            wtcrt_backoff(rt, &us);
        } while (us <= 0);
        v[r] = now() - t0; /* the yield phase plus one (armed, not slept) step */
        wtcrt_backoff_end(rt, &us);
    }
    return wtcrt_median(v, 21);
}

/* The runtime's waiting (doc/runtime.md, "Waiting without burning a core"), with its
   own functions (ranks 0 and 1; rank 0 gets the results): w_yield = how long its yield
   phase lasts when every rank has a core (wtcrt_yield_seconds(1): calibration itself
   runs more ranks than cores), w_yield_over = the same with more ranks than cores;
   w_wake = what a message to a rank that went to sleep costs more than one to a
   spinning rank: round trips after the sender computed 25 .. 400 us (the receiver slept
   meanwhile: a rank polls between its children, and children of 25 us and more are
   common),
   pooled median, minus the same with the receiver spinning. How fast a vCPU wakes
   depends on how long it idled, so this is the typical case, not every case. */
static void measure_waiting(wtcrt_rt *rt, int me, fit *f)
{
    static const double gaps[5] = { 25e-6, 50e-6, 100e-6, 200e-6, 400e-6 };
    double v[105], asleep[105];
    int n = reps < 21 ? reps : 21;
    double yield_s = rt->yield_s;
    int yield_polls = rt->yield_polls;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    f->cores = cores > 0 ? (int)cores : 0;
    if (me == 0) {
        rt->yield_s = wtcrt_yield_seconds(1);
        f->w_yield = yield_phase(rt);
        rt->yield_s = wtcrt_yield_seconds(f->cores + 1);
        f->w_yield_over = yield_phase(rt);
    }
    /* w_wake: the receiver sleeps whatever the gap, without the few yields first (under
       SMPI ten polls take 15 us of the simulated clock, enough to see a message) */
    rt->yield_s = 0;
    rt->yield_polls = 0;
    for (int g = 0; g < 5; g++) {
        for (int i = 0; i < n; i++)
            v[g * n + i] = wake_pingpong(rt, me, gaps[g], 0);
        for (int i = 0; i < n; i++)
            asleep[g * n + i] = wake_pingpong(rt, me, gaps[g], 1);
    }
    if (me == 0) {
        f->w_wake = wtcrt_median(asleep, 5 * n) - wtcrt_median(v, 5 * n);
        if (verbose)
            printf("  round trips: %.3g us to a spinning rank, %.3g us to a sleeping one "
                   "(%d)\n", wtcrt_median(v, 5 * n) * 1e6, wtcrt_median(asleep, 5 * n) * 1e6,
                   5 * n);
        if (f->w_wake < 0)
            f->w_wake = 0;
    }
    rt->yield_s = yield_s;
    rt->yield_polls = yield_polls;
}

/* A child function for measure_child: a few operations, as small as a task gets. */
static void tiny_seq(void *args, void *ret)
{
    int x = *(int *)args;
    *(int *)ret = x * 7 + 1;
}

/* The same as a parallel clone. */
static void tiny_par(wtc_ctx c, void *args, void *ret)
{
    (void)c;
    tiny_seq(args, ret);
}

/* A child whose arguments are 64 times bigger (measure_task_child's per-byte part). */
typedef struct wide_args {
    int x[64];
} wide_args;

static void wide_seq(void *args, void *ret)
{
    const wide_args *a = args;
    *(int *)ret = a->x[0] * 7 + a->x[63];
}

static void wide_par(wtc_ctx c, void *args, void *ret)
{
    (void)c;
    wide_seq(args, ret);
}

/* Neither has buffers. */
static void no_counts(const void *args, long *counts)
{
    (void)args;
    (void)counts;
}

static const wtc_fn tiny_fn = { "tiny", 0, WTC_MODE_STEAL, 1, 0, sizeof(int), sizeof(int),
                                WTC_K_INT, 0, NULL, no_counts, tiny_par, tiny_seq };
static const wtc_fn wide_fn = { "wide", 1, WTC_MODE_STEAL, 1, 0, sizeof(wide_args),
                                sizeof(int), WTC_K_INT, 0, NULL, no_counts, wide_par,
                                wide_seq };

/* The runtime's own cost per child run through a par (rank 0, with the runtime's
   functions): n tiny children spawned into a frame, each run with wtcrt_run_local
   (result stored), minus calling the sequential function directly; median of 5. The
   spawning itself is not in it: the predictor records it per par (t_spawn,
   doc/predictor.md section 1); nor is the poll before each child (t_poll). */
static double measure_child(wtcrt_rt *rt)
{
    enum { N = 1 << 18 };
    int *out = calloc(N, sizeof *out);
    double with[5], without[5], d;
    wtc_ctx c = { 0, 0, 1, 0 };
    for (int rep = 0; rep < 5; rep++) {
        double t0;
        wtc_par *p = wtcrt_frame_push(rt, c);
        for (int i = 0; i < N; i++)
            wtc_spawn(p, &tiny_fn, &i, &out[i], WTC_K_INT, sizeof(int));
        t0 = now();
        for (int i = 0; i < N; i++)
            wtcrt_run_local(rt, p, i);
        rt->nframes--;
        with[rep] = now() - t0;
        t0 = now();
        for (int i = 0; i < N; i++) {
            int a = i;
            tiny_seq(&a, &out[i]);
        }
        without[rep] = now() - t0;
    }
    free(out);
    d = (wtcrt_median(with, 5) - wtcrt_median(without, 5)) / N;
    return d > 0 ? d : 0;
}

#ifdef __GLIBC__
int malloc_trim(size_t pad); /* <malloc.h>, which smpicc's malloc macros do not allow */
#endif

/* Memory freed so far comes back from the kernel, new, when allocated again: glibc
   keeps freed blocks in its heap (malloc_trim gives their pages back); the blocks it
   mapped on their own went back at free. */
static void new_memory(void)
{
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

/* One TASK of n children of fn to this rank (rank 0, the runtime's functions, as a
   thief runs stolen work): the seconds from its receive to its RESULT's send, i.e.
   unpacked into a task frame (wtcrt_task_frame), each child run (wtcrt_run_local), the
   RESULT packed (wtcrt_task_frame_reply), per child and minus running the children
   directly. fresh: the task frame's records and the children's memory are new (the
   memory kept for the next TASKs and the frame's records are let go first). The
   sender's side, per child, into snd[0] and snd[1] when not NULL: packing the TASK
   (wtcrt_send_task) and storing the RESULT (wtcrt_store_result). */
static double task_child_once(wtcrt_rt *rt, const wtc_fn *fn, int n, int fresh, double *snd)
{
    wtc_ctx c = { 0, 0, 1, 0 };
    wtc_par *p = wtcrt_frame_push(rt, c), *q;
    wide_args *w = calloc(1, sizeof *w);
    int *out = calloc((size_t)n, sizeof *out), wide = fn == &wide_fn;
    wtcrt_hdr th;
    wtcrt_msg *m;
    double t0, run, seq;
    if (!w || !out)
        wtcrt_die(rt, "out of memory");
    for (int i = 0; i < n; i++) {
        w->x[0] = i;
        wtc_spawn(p, fn, wide ? (void *)w : (void *)&i, &out[i], WTC_K_INT, sizeof(int));
    }
    if (fresh) {
        wtcrt_task_mem_drop(rt);
        if (rt->nframes < rt->capframes && rt->frames[rt->nframes]) {
            q = rt->frames[rt->nframes];
            free(q->ch);
            q->ch = NULL;
            q->capch = 0;
        }
        new_memory();
    }
    t0 = now();
    wtcrt_send_task(rt, p, rt->rank, 0, n, 0, 1);
    if (snd)
        snd[0] = (now() - t0) / n;
    t0 = now();
    m = wtcrt_recv(rt, rt->rank, WTCRT_TASK);
    th = *WTCRT_HDR(m);
    q = wtcrt_task_frame(rt, m);
    for (int i = 0; i < q->nch; i++)
        wtcrt_run_local(rt, q, i);
    wtcrt_task_frame_reply(rt, q, rt->rank, &th);
    run = now() - t0;
    rt->nframes--; /* the task frame */
    wtcrt_sync_tasks(rt);
    m = wtcrt_recv(rt, rt->rank, WTCRT_RESULT);
    t0 = now();
    wtcrt_store_result(rt, m);
    if (snd)
        snd[1] = (now() - t0) / n;
    wtcrt_msg_free(rt, m);
    wtcrt_flush_sends(rt);
    rt->nframes--; /* the spawning frame, its children sent and answered */
    t0 = now();
    for (int i = 0; i < n; i++) {
        w->x[0] = i;
        fn->run_seq(wide ? (void *)w : (void *)&i, &out[i]);
    }
    seq = now() - t0;
    free(out);
    free(w);
    return (run - seq) / n;
}

/* The line through (x0, y[0]) and (x1, y[1]) at 0: a cost per child with arguments of
   0 bytes, from the same measured with x0 and x1 bytes. */
static double at_zero(const double y[2], double x0, double x1)
{
    return y[0] - (y[1] - y[0]) / (x1 - x0) * x0;
}

/* A received TASK's cost per child that the model does not charge otherwise, in memory
   used before (*reuse: the frame's records and the children's memory kept from the
   TASK before) and in new memory (*fresh: page faults), medians of 5: task_child_once
   minus t_child (the predictor charges it for every child) and minus the part that
   grows with the children's bytes: the same with arguments of 256 bytes instead of 4
   gives the slope, which the message's per-byte costs (O_r, O_s, measured on their own)
   stand for; what remains at 0 bytes of arguments is written, >= 0. The sender's side
   alike, in memory used before: *pack per child it packs into a TASK, *store per child
   whose result it stores from the RESULT (the model's O_s and O_r_result per byte stand
   for the rest). */
static void measure_task_child(wtcrt_rt *rt, double t_child, double *reuse, double *fresh,
                               double *pack, double *store)
{
    static const wtc_fn *const fns[] = { &tiny_fn, &wide_fn };
    static const wtc_program prog = { .abi_version = WTC_ABI_VERSION, .source = "calibrate",
                                      .fns = fns, .nfns = 2 };
    const wtc_program *old = rt->prog;
    double x0 = (double)tiny_fn.args_size, x1 = (double)wide_fn.args_size;
    rt->prog = &prog;
    for (int f = 0; f < 2; f++) {
        double per[2], snd[2][2], *out = f ? fresh : reuse;
        for (int k = 0; k < 2; k++) {
            double v[5], sv[2][5], one[2];
            task_child_once(rt, fns[k], 1 << 16, f, NULL); /* the memory, reused or not */
            for (int rep = 0; rep < 5; rep++) {
                v[rep] = task_child_once(rt, fns[k], 1 << 16, f, one);
                sv[0][rep] = one[0];
                sv[1][rep] = one[1];
            }
            per[k] = wtcrt_median(v, 5);
            snd[0][k] = wtcrt_median(sv[0], 5);
            snd[1][k] = wtcrt_median(sv[1], 5);
        }
        if (!f) {
            *pack = fmax(at_zero(snd[0], x0, x1), 0);
            *store = fmax(at_zero(snd[1], x0, x1), 0);
            if (verbose)
                fprintf(stderr, "sent child: packing %.3g / %.3g us (4 / 256-byte arguments), "
                        "storing its result %.3g / %.3g us: %.3g and %.3g us at 0\n",
                        snd[0][0] * 1e6, snd[0][1] * 1e6, snd[1][0] * 1e6, snd[1][1] * 1e6,
                        *pack * 1e6, *store * 1e6);
        }
        *out = at_zero(per, x0, x1) - t_child;
        if (verbose)
            fprintf(stderr, "task child (%s memory): %.3g us with 4-byte arguments, %.3g us "
                    "with 256: %.3g us at 0\n", f ? "new" : "used", per[0] * 1e6,
                    per[1] * 1e6, *out * 1e6);
        if (*out < 0)
            *out = 0;
    }
    rt->prog = old;
}

/* measure_poll's handler: nobody sends now; a stray message is only dropped. */
static void drop_msg(wtcrt_rt *rt, wtcrt_msg *m)
{
    wtcrt_msg_free(rt, m);
}

/* ---- pages of the node's shared heap (doc/predictor.md section 4, "The job") -------- */

#define PAGES_MB 64
/* A POSIX shm file of n bytes for this process alone (named, then unlinked at once), on
   a file system with 4 n bytes free; -1 when shared memory cannot be had. */
static int shm_scratch(const char *tag, size_t n)
{
    struct statvfs v;
    char name[64];
    int fd;
    snprintf(name, sizeof name, "/wtc-calibrate%s.%ld", tag, (long)getpid());
    fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0)
        return -1;
    shm_unlink(name);
    if (fstatvfs(fd, &v) != 0 || (double)v.f_bavail * (double)v.f_frsize < 4.0 * (double)n ||
        ftruncate(fd, (off_t)n) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Touches n bytes of new memory, one write a page, then gives it back: private
   (anonymous) memory, or a POSIX shm file as runtime/mpi/heap.c takes it from main's
   sequential code (its pages reserved by the heap's filler thread while they are
   touched, wtcrt_shfill; by this thread where that thread cannot start), mapped shared,
   and unmapped while another descriptor holds the file (the heap's reaper). The
   seconds of each into t[0], t[1]. Returns -1 when shared memory cannot be had
   (/dev/shm missing or full). */
static int page_times(size_t n, int shared, double t[2])
{
    char *p;
    int fd = -1, hold;
    double t0 = wtcrt_now();
    if (shared) {
        if ((fd = shm_scratch("", n)) < 0)
            return -1;
        if (!wtcrt_shfill(fd, 0, n) && fallocate(fd, 0, 0, (off_t)n) != 0) {
            close(fd);
            return -1;
        }
        p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    } else {
        p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    }
    if (p == MAP_FAILED) {
        if (fd >= 0) {
            wtcrt_shfill_drain(); /* the filler lets the file go first */
            close(fd);
        }
        return -1;
    }
    for (size_t i = 0; i < n; i += 4096)
        ((volatile char *)p)[i] = 1;
    t[0] = wtcrt_now() - t0;
    if (fd >= 0 && wtcrt_shfill_drain() != 0) {
        munmap(p, n);
        close(fd);
        return -1;
    }
    /* the pages themselves are released by the last holder of the file, which in a job
       is the heap's reaper, after the job (mpi/heap.c): a second descriptor keeps the
       release out of the time, as the reaper does */
    hold = fd >= 0 ? dup(fd) : -1;
    t0 = wtcrt_now();
    munmap(p, n);
    if (fd >= 0)
        close(fd);
    t[1] = wtcrt_now() - t0;
    if (hold >= 0)
        close(hold);
    return 0;
}

/* t_page_shared, t_page_free: per page, the shared heap's touching and giving back less
   private memory's, medians of 5 rounds of 64 MiB each way (0 where the difference is
   negative or shared memory cannot be had). */
static void measure_pages(fit *f)
{
    size_t n = (size_t)PAGES_MB << 20;
    double pages = (double)(n / 4096), d[2][5];
    for (int k = 0; k < 5; k++) {
        double a[2], s[2];
        if (page_times(n, 0, a) < 0 || page_times(n, 1, s) < 0)
            return;
        d[0][k] = (s[0] - a[0]) / pages;
        d[1][k] = (s[1] - a[1]) / pages;
    }
    f->t_page_shared = fmax(wtcrt_median(d[0], 5), 0);
    f->t_page_free = fmax(wtcrt_median(d[1], 5), 0);
}

/* One round of t_page_map in a child process (a rank of the node that did not touch
   the pages): n bytes of a shm file the parent wrote, mapped anew and read one byte a
   page, twice; the first read's seconds less the second's, per page, into *d. The
   kernel maps a read page's present neighbours with it (fault-around), as when a rank
   reads a TASK's buffer in the shared heap. The parent has threads (MPI's, the
   runtime's): the child calls only what is safe after fork (mmap, clock_gettime,
   write, _exit). -1: no shared memory or no child. */
static int map_round(int fd, size_t n, double *d)
{
    int pfd[2];
    pid_t pid;
    double v = -1;
    if (pipe(pfd) != 0)
        return -1;
    pid = fork();
    if (pid == 0) { /* no MPI here: map, read, write the figure, leave */
        volatile const char *q = mmap(NULL, n, PROT_READ, MAP_SHARED, fd, 0);
        double t[3];
        long s = 0;
        if (q != MAP_FAILED)
            for (int k = 0; k < 2; k++) {
                t[k] = wtcrt_now();
                for (size_t i = 0; i < n; i += 4096)
                    s += q[i];
                t[k + 1] = wtcrt_now();
            }
        if (q != MAP_FAILED && s == (long)(n / 4096) * 2)
            v = ((t[1] - t[0]) - (t[2] - t[1])) / (double)(n / 4096);
        if (write(pfd[1], &v, sizeof v) != (ssize_t)sizeof v)
            _exit(1);
        _exit(0);
    }
    close(pfd[1]);
    if (pid < 0 || read(pfd[0], &v, sizeof v) != (ssize_t)sizeof v)
        v = -1;
    close(pfd[0]);
    if (pid > 0)
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
    *d = v;
    return v < 0 ? -1 : 0;
}

/* t_page_map: median of 5 rounds of 64 MiB (0 where shared memory cannot be had or
   fork fails: the key is then written as not measured). */
static void measure_map(fit *f)
{
#ifdef WTC_MPI_SMPI
    (void)f; /* one simulator process, no shared heap: nothing to map (nor to fork) */
    return;
#endif
    size_t n = (size_t)PAGES_MB << 20;
    char *p;
    double d[5];
    int fd = shm_scratch("-map", n), k = 0;
    if (fd < 0)
        return;
    if ((p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) != MAP_FAILED) {
        memset(p, 1, n); /* main's pages: present, mapped here only */
        for (k = 0; k < 5 && map_round(fd, n, &d[k]) == 0; k++)
            ;
        munmap(p, n);
    }
    close(fd);
    if (k == 5) {
        f->t_page_map = fmax(wtcrt_median(d, 5), 0);
        f->map_measured = 1;
    }
}

/* The runtime's own poll on the compute path (wtcrt_poll: dynamic and steal mode poll
   at every par and before each child) with nothing pending, on rank 0 while the other
   ranks sleep in a barrier: with every rank on this host the doorbell's mail flag makes
   it a load and a branch; across nodes (no doorbell) it asks MPI, two MPI_Iprobe. Per
   poll, median of 5 runs of 2^14. */
static double measure_poll(wtcrt_rt *rt)
{
    enum { N = 1 << 14 };
    double v[5];
    for (int rep = 0; rep < 5; rep++) {
        double t0 = now();
        for (int i = 0; i < N; i++)
            wtcrt_poll(rt, drop_msg);
        v[rep] = (now() - t0) / N;
    }
    return wtcrt_median(v, 5);
}

/* A computing kernel of ~20 ms: integer hashing over a 2 MB array. */
static double kernel(unsigned *a, int n)
{
    double c0 = cpu_now(), t0 = now(), t;
    unsigned x = 12345;
    for (int rep = 0; rep < 24; rep++)
        for (int i = 0; i < n; i++) {
            x = x * 1664525u + 1013904223u;
            a[(i * 7 + (x >> 20)) % n] += x;
        }
    t = now() - t0;
    note_share(t, c0);
    return t;
}

/* How much slower a rank computes while rank 1 computes too than alone (both ranks of
   the pair, the others idle): the contention of ranks sharing the host (caches, memory
   bandwidth, a VM's cores). Rank 0 gets the result. */
static double measure_contention(int me)
{
    int n = 1 << 19;
    unsigned *a = calloc((size_t)n, sizeof *a);
    double alone[5], both[5], r = 0;
    for (int rep = 0; rep < big_reps; rep++) {
        sleepy_barrier(MPI_COMM_WORLD); /* ranks spinning in MPI_Barrier would take the cores */
        if (me == 0)
            alone[rep] = kernel(a, n);
        sleepy_barrier(MPI_COMM_WORLD); /* ranks spinning in MPI_Barrier would take the cores */
        if (me <= 1)
            both[rep] = kernel(a, n);
    }
    if (me == 0)
        r = wtcrt_median(both, 5) / wtcrt_median(alone, 5) - 1;
    free(a);
    return r;
}

/* The measurements at one p (world ranks < p form c). */
static void at_p(MPI_Comm c, int me, int p, char *buf, fit *f)
{
    double os[NSIZES], orr[NSIZES], net[NSIZES], a, b;
    for (int i = 0; i < NSIZES; i++) {
        int k = (int)sizes[i];
        os[i] = measure_os(c, me, buf, k);
        orr[i] = measure_or(c, me, buf, k);
        net[i] = measure_rtt(c, me, buf, k) / 2 - os[i] - orr[i];
    }
    if (me != 0)
        return;
    calib_fit_line(sizes, os, NSIZES, &a, &b);
    f->cs[f->np] = a;
    f->O_s = b > 0 ? b : 0;
    calib_fit_line(sizes, orr, NSIZES, &a, &b);
    f->cr[f->np] = a;
    f->O_r = b > 0 ? b : 0;
    f->pp[f->np++] = p;
    if (p == 2) {
        calib_fit_line(sizes, net, NSIZES, &a, &b);
        f->raw_L = a;
        f->floor_L = a <= 1e-9;
        f->L = a > 1e-9 ? a : 1e-9;
        f->G = b > 0 ? b : 0;
    }
    if (verbose)
        printf("  p = %d: o_s(8) = %.3g us, o_r(8) = %.3g us, L+Gk(8) = %.3g us; o_r(16K) "
               "= %.3g us, c_r = %.3g us\n", p, os[0] * 1e6, orr[0] * 1e6, net[0] * 1e6,
               orr[NSIZES - 1] * 1e6, f->cr[f->np - 1] * 1e6);
}

/* The eager limit, ranks 0 and 1 of MPI_COMM_WORLD. */
static double eager_limit(int me, char *buf)
{
    double sz[16], t[16], delay = 2e-3;
    int n = 0;
    for (int k = 1024; k <= (1 << 22); k *= 2, n++) {
        sz[n] = k;
        if (me == 0) {
            MPI_Recv(buf, 0, MPI_CHAR, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            double t0 = now();
            MPI_Send(buf, k, MPI_CHAR, 1, 10, MPI_COMM_WORLD);
            t[n] = now() - t0;
        } else if (me == 1) {
            MPI_Send(buf, 0, MPI_CHAR, 0, 9, MPI_COMM_WORLD);
            spin(delay);
            MPI_Recv(buf, k, MPI_CHAR, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    return me == 0 ? calib_eager_limit(sz, t, n, delay) : 0;
}

/* REQ/GRANT round trips between rank 0 (worker) and rank P-1 (a polling master). */
static double request_rtt(int me, int P, char *buf)
{
    double v[1000];
    for (int i = 0; i < reps; i++) {
        if (me == 0) {
            double t0 = now();
            MPI_Send(buf, 48, MPI_CHAR, P - 1, 6, MPI_COMM_WORLD);
            MPI_Recv(buf, 52, MPI_CHAR, P - 1, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            v[i] = now() - t0;
        } else if (me == P - 1) {
            int flag = 0;
            MPI_Status st;
            while (!flag)
                MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
            MPI_Recv(buf, 48, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MPI_Send(buf, 52, MPI_CHAR, st.MPI_SOURCE, 8, MPI_COMM_WORLD);
        }
    }
    return me == 0 ? wtcrt_median(v, reps) : 0;
}

/* The overheads' fit (calib_fit_overhead) and what it could support. */
typedef struct overheads {
    double osa, osb, ora, orb;
    int fs, fr;        /* CALIB_* flags of the send and the receive fit */
} overheads;

/* "measured", or why a value is a floor or was left out. */
static const char *how(int floor)
{
    return floor ? "floor: the measurement gave less (see below)" : "measured";
}

/* The slope's comment: fitted, or not supported by the p measured. */
static const char *slope_how(int flags, int np)
{
    if (flags & CALIB_SLOPE)
        return "fitted over the p measured";
    return np < 3 ? "not fitted: needs 3 or more p (mpiexec -n 8 or more)"
                  : "not fitted: the slope came out negative (noise)";
}

/* The header: where and how the file was measured, and the host's load. */
static void write_head(FILE *o, const fit *f, int P)
{
    fprintf(o, "# written by wtc-calibrate on %d ranks (p from 2 to %d, doubling); times in seconds\n"
               "# 'measured': fitted from this run; 'floor': the fit gave less than the\n"
               "# smallest meaningful value, which is written instead\n", P, P);
    if (f->share_start < CALIB_BUSY_SHARE || f->share_cont < CALIB_BUSY_SHARE)
        fprintf(o, "# WARNING: the host was busy: a computing rank got %.0f %% of the wall time "
                   "as CPU time\n# (before measuring) and %.0f %% (around 'contention'); "
                   "recalibrate when it is idle\n", 100 * f->share_start, 100 * f->share_cont);
    if (f->others < 0)
        fprintf(o, "# other processes on this host: not known (no /proc/stat)\n");
    else
        fprintf(o, "# other processes on this host used %.2f cores on average while this ran"
                   "%s\n", f->others, f->others > CALIB_BUSY_OTHERS
                   ? "\n# WARNING: the host was busy: recalibrate when it is idle" : "");
}

/* The LogGPS costs: latency, bytes, the send and receive overheads, the master. */
static void write_costs(FILE *o, const char *name, const fit *f, const overheads *v, int P)
{
    fprintf(o, "name = %s\nprocs = %d   # the largest p measured: beyond it o_sb, o_rb extrapolate\n"
               "L = %.6g   # %s\nG = %.6g   # measured (big messages)\n"
               "o_sa = %.6g   # %s\no_sb = %.6g   # %s\nO_s = %.6g   # measured\n"
               "o_ra = %.6g   # %s\no_rb = %.6g   # %s\nO_r = %.6g   # measured\n"
               "O_r_result = %.6g   # %s\n"
               "S = %.0f   # measured\nt_m = %.6g   # %s\ncpu_ratio = 1\n",
            name, P, f->L, how(f->floor_L), f->G, v->osa, how(v->fs & CALIB_FLOOR), v->osb,
            slope_how(v->fs, f->np), f->O_s, v->ora, how(v->fr & CALIB_FLOOR), v->orb,
            slope_how(v->fr, f->np), f->O_r, f->O_r_result,
            f->floor_orr ? "not fitted (the fit gave 0 or less): O_r written"
                         : "measured (a RESULT's data into memory already touched)",
            f->S, f->t_m, how(f->floor_tm));
    fprintf(o, "# messages up to 32 MiB once one of their size was freed: the C library\n"
               "# reuses their buffers (no page faults)\n");
    if (f->O_s_reuse > 0)
        fprintf(o, "O_s_reuse = %.6g   # measured\n", f->O_s_reuse);
    if (f->G_reuse > 0)
        fprintf(o, "G_reuse = %.6g   # measured\n", f->G_reuse);
    if (f->O_r_reuse > 0)
        fprintf(o, "O_r_reuse = %.6g   # measured\n", f->O_r_reuse);
    if (f->floor_L)
        fprintf(o, "# L: the fit gave %.3g s\n", f->raw_L);
    if (f->floor_tm)
        fprintf(o, "# t_m: the fit gave %.3g s; the floor is the master's o_r + o_s\n", f->raw_tm);
}

/* The runtime's own costs: waiting, children, polls, contention, cores, nodes. */
static void write_runtime(FILE *o, const fit *f)
{
    fprintf(o, "# the runtime's waiting: yields for w_yield, then sleeps on the doorbell: w_wake\n"
               "# to wake up; t_child: its cost per child; t_poll: one poll on the compute\n"
               "# path (%s);\n"
               "# computing slows by 'contention'; t_task_child: more per child of a\n"
               "# received TASK (_fresh: in new memory, page faults and all)\n"
               "w_yield = %.6g\nw_wake = %.6g\nt_child = %.6g\nt_task_child = %.6g\n"
               "t_task_child_fresh = %.6g\nt_poll = %.6g   # measured\n"
               "contention = %.4f   # %s\n",
            f->poll_asks ? "no doorbell for every rank: two MPI_Iprobe"
                       : "every rank on this host: the doorbell's flag, a load",
            f->w_yield, f->w_wake, f->t_child, f->t_task_child, f->t_task_child_fresh,
            f->t_poll, f->contention,
            f->busy_contention ? "NOT measured: the host was busy, 0 written"
                               : f->raw_contention < 0 ? "floor: the fit gave less" : "measured");
    if (f->busy_contention || f->raw_contention < 0)
        fprintf(o, "# contention: the measurement gave %.1f %%\n", 100 * f->raw_contention);
    fprintf(o, "# the sender of a TASK per child: packing it, and storing its result when the\n"
               "# RESULT comes (beyond O_s and O_r_result on the bytes)\n"
               "t_pack_child = %.6g   # measured\nt_store_child = %.6g   # measured\n",
            f->t_pack_child, f->t_store_child);
    fprintf(o, "# this host's cores; with more ranks than that the yield phase is short and\n"
               "# the ranks share the cores\n"
               "cores = %d\nw_yield_over = %.6g\n", f->cores, f->w_yield_over);
    fprintf(o, "# a page that main touches first in the node's shared heap (2 or more ranks on\n"
               "# a node): more than in private memory to touch, and to give back at the end\n"
               "t_page_shared = %.6g   # measured (%d MiB, median of 5)\n"
               "t_page_free = %.6g   # measured\n", f->t_page_shared, PAGES_MB, f->t_page_free);
    if (f->map_measured)
        fprintf(o, "# a page of it that another rank of the node touched first, read the first\n"
                   "# time (the data of a call this rank computes)\n"
                   "t_page_map = %.6g   # measured (%d MiB, median of 5)\n", f->t_page_map,
                PAGES_MB);
    else
        fprintf(o, "# t_page_map NOT measured (no shared memory, or no child process): left "
                   "out\n");
    fprintf(o, "# speed_spread, how much faster or slower a rank may run from one run of a job\n"
               "# to the next, is NOT measured: left out, the predictor's default applies\n"
               "# (doc/predictor.md 3, \"Runs of the program\")\n");
    if (f->rpn > 0) /* L and G above are those of ranks 0 and 1, wherever they ran */
        fprintf(o, "# the job ran on several nodes, %d ranks on rank 0's\n"
                   "ranks_per_node = %d\n", f->rpn, f->rpn);
}

/* ---- the job's launch, start and end (--start, from calibrate/start.sh) ------------- */

#define JOB_MAX 16
static const char *const job_key[3] = { "t_launch", "t_start", "t_end" };
static double job_p[JOB_MAX], job_c[3][JOB_MAX];
static int njob;
static double job_a[3], job_b[3]; /* the lines t_X + t_X_p P through the points ... */
static int job_fl[3];             /* ... and what calib_fit_job could support */

/* --start=P:L:S:E[,P:L:S:E...]: seconds at P ranks (calibrate/start.sh prints it).
   Returns 0, or -1 when it is malformed. */
static int parse_start(const char *s)
{
    njob = 0;
    for (;;) {
        char *e;
        double v[4];
        if (njob == JOB_MAX)
            return -1;
        for (int k = 0; k < 4; k++) {
            /* plain decimal numbers: strtod also takes leading spaces, hex and "inf" */
            if (!(*s >= '0' && *s <= '9') && *s != '.')
                return -1;
            for (const char *q = s; *q && *q != ':' && *q != ','; q++)
                if (!strchr("0123456789.eE+-", *q))
                    return -1;
            errno = 0;
            v[k] = strtod(s, &e);
            if (e == s || errno || v[k] < 0 || v[k] > 100 ||
                *e != (k < 3 ? ':' : *e == ',' ? ',' : 0))
                return -1;
            s = e + 1; /* past ':' or ',' (or the end: then left at once below) */
        }
        if (v[0] < 1 || v[0] != floor(v[0]) || v[0] > 1e7)
            return -1;
        job_p[njob] = v[0];
        for (int k = 0; k < 3; k++)
            job_c[k][njob] = v[k + 1];
        njob++;
        if (!*e) {
            for (int k = 0; k < 3; k++)
                job_fl[k] = calib_fit_job(job_p, job_c[k], njob, &job_a[k], &job_b[k]);
            return 0;
        }
    }
}

/* t_launch, t_start, t_end (doc/predictor.md section 5), each a + b P. */
static void write_job(FILE *o)
{
    char ps[256] = "";
    size_t n = 0;
    if (!njob) {
        fprintf(o, "# the job's launch, start and end: not measured (make calibrate measures them:\n"
                   "# calibrate/start.sh, then wtc-calibrate --start=...); the predictions leave them out\n");
        return;
    }
    for (int i = 0; i < njob && n < sizeof ps; i++)
        n += (size_t)snprintf(ps + n, sizeof ps - n, "%s%.0f", i ? ", " : "", job_p[i]);
    fprintf(o, "# the job (calibrate/start.sh: a program that ends at once, medians at p = %s):\n"
               "# t_launch + t_launch_p * P from mpiexec's start to main, t_start + t_start_p * P\n"
               "# from there until every rank has started MPI, t_end + t_end_p * P from the end\n"
               "# of main to the end of mpiexec\n", ps);
    for (int k = 0; k < 3; k++) {
        fprintf(o, "%s = %.6g   # %s\n%s_p = %.6g   # %s\n", job_key[k], job_a[k],
                job_fl[k] & CALIB_FLOOR ? "floor: the line through the p measured gave less than 0"
                                        : "measured",
                job_key[k], job_b[k],
                job_fl[k] & CALIB_SLOPE ? "fitted over the p measured"
                : njob < 2       ? "not fitted: needs 2 or more p"
                                 : "not fitted: the slope came out negative (noise)");
    }
}

/* Whether the lines through the --start points stay where the predictor takes them
   (runtime/sim/machine.c: t_X <= 100 s, t_X_p <= 1 s per rank); else says which does
   not, on rank 0, and returns -1: a file it refuses is never written. */
static int job_in_range(int me)
{
    for (int k = 0; k < 3; k++) {
        if (job_a[k] > 100 || job_b[k] > 1) {
            if (me == 0)
                fprintf(stderr, "wtc-calibrate: error: --start: the line through the points "
                                "gives %s = %g s, %s_p = %g s per rank; the predictor takes "
                                "at most 100 s and 1 s per rank\n",
                        job_key[k], job_a[k], job_key[k], job_b[k]);
            return -1;
        }
    }
    return 0;
}

typedef struct machine_text {
    const char *name;
    const fit *f;
    const overheads *v;
    int P;
} machine_text;

static void machine_body(FILE *o, const void *ctx)
{
    const machine_text *m = ctx;
    write_head(o, m->f, m->P);
    write_costs(o, m->name, m->f, m->v, m->P);
    write_runtime(o, m->f);
    write_job(o);
}

/* The machine file, written to a temporary file and renamed: never half a file (a
   device such as /dev/null is written into: wtcrt_write_atomic). */
static int write_file(const char *path, const char *name, const fit *f, const overheads *v,
                      int P)
{
    machine_text m = { name, f, v, P };
    return wtcrt_write_atomic(path, machine_body, &m);
}

static const char usage[] =
    "usage: mpiexec -n P wtc-calibrate -o FILE [--name=NAME] [--quick] [-v]\n"
    "                                  [--start=P:L:S:E[,P:L:S:E...]]\n"
    "  measures this machine's extended LogGPS parameters (P >= 2) and writes a\n"
    "  machine file for prog.predict --wtc-machine=FILE; --start: the job's launch,\n"
    "  start and end in seconds at P ranks, as calibrate/start.sh prints them\n";

/* An argument that asks for the usage. */
static int asks_help(const char *a)
{
    return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0;
}

/* Returns the output path, or NULL after printing (rank 0) why not. */
static const char *parse_args(int argc, char **argv, int me, const char **name)
{
    const char *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 >= argc) {
            if (me == 0)
                fprintf(stderr, "wtc-calibrate: error: -o needs a file name\n%s", usage);
            return NULL;
        } else if (strcmp(argv[i], "-o") == 0)
            out = argv[++i];
        else if (strncmp(argv[i], "--name=", 7) == 0 && argv[i][7])
            *name = argv[i] + 7;
        else if (strcmp(argv[i], "--quick") == 0) {
            reps = 30;
            nbig = 2;
            big_reps = 3;
        }
        else if (strcmp(argv[i], "-v") == 0)
            verbose = 1;
        else if (strncmp(argv[i], "--start=", 8) == 0) {
            if (parse_start(argv[i] + 8) < 0) {
                if (me == 0)
                    fprintf(stderr, "wtc-calibrate: error: '%s': expected P:L:S:E[,P:L:S:E...] "
                                    "(at most %d points; P a whole number of ranks from 1, L, S, "
                                    "E decimal seconds from 0 to 100), as calibrate/start.sh "
                                    "prints it\n", argv[i], JOB_MAX);
                return NULL;
            }
            if (job_in_range(me) < 0)
                return NULL;
        } else {
            if (me == 0)
                fprintf(stderr, "wtc-calibrate: error: unexpected argument '%s'\n%s",
                        argv[i], usage);
            return NULL;
        }
    }
    if (!out && me == 0)
        fprintf(stderr, "wtc-calibrate: error: no output file (-o FILE)\n%s", usage);
    return out;
}

/* A loud warning on stderr when the host was busy (the file says it too). */
static void warn_busy(const fit *f)
{
    if (f->others > CALIB_BUSY_OTHERS)
        fprintf(stderr, "wtc-calibrate: WARNING: other processes on this host used %.2f "
                        "cores on average while it was measured: the times may be theirs "
                        "too; recalibrate when the host is idle\n", f->others);
    if (f->share_start >= CALIB_BUSY_SHARE && f->share_cont >= CALIB_BUSY_SHARE)
        return;
    fprintf(stderr, "wtc-calibrate: WARNING: the host is busy: a computing rank got only "
                    "%.0f %% of the wall time as CPU time\n"
                    "wtc-calibrate: WARNING: other processes take the cores; the times "
                    "measured are theirs too%s\n"
                    "wtc-calibrate: WARNING: recalibrate when the host is idle\n",
            100 * (f->share_start < f->share_cont ? f->share_start : f->share_cont),
            f->busy_contention ? "; contention was NOT measured (0 written)" : "");
}

static void fit_overheads(fit *f, int P, const char *out, const char *name)
{
    overheads v;
    v.fs = calib_fit_overhead(f->pp, f->cs, f->np, &v.osa, &v.osb);
    v.fr = calib_fit_overhead(f->pp, f->cr, f->np, &v.ora, &v.orb);
    if (write_file(out, name, f, &v, P) < 0) {
        fprintf(stderr, "wtc-calibrate: error: cannot write %s: %s\n", out, strerror(errno));
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    warn_busy(f);
    printf("wtc-calibrate: wrote %s: L = %.3g us, G = %.3g ns/B, o_s = %.3g + %.3g P us, "
           "o_r = %.3g + %.3g P us, S = %.0f B, t_m = %.3g us, w_yield = %.3g us, "
           "w_wake = %.3g us, t_child = %.3g us, t_task_child = %.3g us (%.3g us fresh), "
           "t_pack_child = %.3g us, t_store_child = %.3g us, t_poll = %.3g us, "
           "contention = %.1f%%%s\n",
           out, f->L * 1e6,
           f->G * 1e9, v.osa * 1e6, v.osb * 1e6, v.ora * 1e6, v.orb * 1e6, f->S, f->t_m * 1e6,
           f->w_yield * 1e6, f->w_wake * 1e6, f->t_child * 1e6, f->t_task_child * 1e6,
           f->t_task_child_fresh * 1e6, f->t_pack_child * 1e6, f->t_store_child * 1e6,
           f->t_poll * 1e6,
           100 * f->contention,
           f->busy_contention ? " (not measured: busy host)" : "");
}

/* Per p = 2, 4, ..., P: ranks 0 and 1 in a communicator of p ranks (at_p). */
static void measure_pairs(int me, int P, char *buf, fit *f)
{
    for (int p = 2; p <= P && f->np < MAXP; p = p * 2 > P && p < P ? P : p * 2) {
        MPI_Comm c;
        MPI_Comm_split(MPI_COMM_WORLD, me < p ? 0 : MPI_UNDEFINED, me, &c);
        if (me < 2)
            at_p(c, me, p, buf, f);
        if (c != MPI_COMM_NULL)
            MPI_Comm_free(&c);
        sleepy_barrier(MPI_COMM_WORLD);
    }
}

/* The big messages' per-byte costs (fresh buffers, page faults) replace the small
   ones' (pooled buffers): bytes matter for big messages only. */
static void measure_bytes(wtcrt_rt *rt, int me, fit *f)
{
    double bs = 0, bg = 0, br = 0, bw = 0, ru[3] = { 0, 0, 0 };
    measure_big(rt, me, &bs, &bg, &br, &bw, ru);
    if (me == 0) {
        f->O_s = bs > 0 ? bs : f->O_s;
        f->G = bg > 0 ? bg : f->G;
        f->O_r = br > 0 ? br : f->O_r;
        /* a reuse cost is at most the fresh one; a fit of 0 or less: not written (the
           predictor then uses the fresh one) */
        f->O_s_reuse = ru[0] > 0 ? fmin(ru[0], f->O_s) : 0;
        f->G_reuse = ru[1] > 0 ? fmin(ru[1], f->G) : 0;
        f->O_r_reuse = ru[2] > 0 ? fmin(ru[2], f->O_r) : 0;
        f->O_r_result = bw > 0 ? bw : f->O_r; /* a fit of 0 or less: O_r, and said so */
        f->floor_orr = bw <= 0;
    }
}

/* A master's time per request t_m, from the round trip of ranks 0 and P - 1. */
static void measure_master(int me, int P, char *buf, fit *f)
{
    if (me == 0 || me == P - 1) {
        double rtt = request_rtt(me, P, buf);
        if (me == 0) {
            double o_s = f->cs[f->np - 1] + f->O_s * 48, o_r = f->cr[f->np - 1] + f->O_r * 52;
            f->t_m = calib_master_time(rtt, f->L, f->G, o_s, o_r);
            f->raw_tm = rtt - 2 * f->L - f->G * 100 - (o_s > 0 ? o_s : 0) - (o_r > 0 ? o_r : 0);
            f->floor_tm = f->t_m > f->raw_tm;
        }
    }
}

/* How much computing slows when the cores are shared, with the host's load around it:
   a contention measured while other processes took the cores is theirs, not the
   pair's (a busy host gave 107 %, and every prediction came out 2x slow). */
static void measure_slowdown(int me, fit *f)
{
    cpu_share = 1;
    busy_check(me);
    f->contention = f->raw_contention = measure_contention(me);
    busy_check(me);
    share_reduce();
    f->share_cont = cpu_share;
    f->busy_contention = cpu_share < CALIB_BUSY_SHARE;
    if (f->busy_contention || f->contention < 0)
        f->contention = 0;
}

/* The measurements, in order, each phase between barriers; rank 0 writes the file. */
static void calibrate(wtcrt_rt *rt, int me, int P, const char *out, const char *name)
{
    fit f;
    char *buf;
    host_use use;
    double ranks_cpu = 0; /* the job's other processes on rank 0's host */
    memset(&f, 0, sizeof f);
    host_use_start(me, &use);
    f.rpn = ranks_per_node();
    buf = calloc(1, 1 << 22);
    busy_check(me);
    share_reduce();
    f.share_start = cpu_share;
    measure_pairs(me, P, buf, &f);
    f.S = eager_limit(me, buf);
    sleepy_barrier(MPI_COMM_WORLD);
    measure_bytes(rt, me, &f);
    sleepy_barrier(MPI_COMM_WORLD);
    measure_master(me, P, buf, &f);
    sleepy_barrier(MPI_COMM_WORLD);
    measure_slowdown(me, &f);
    if (me < 2)
        measure_waiting(rt, me, &f);
    /* the other ranks sleep from here on, in the last barrier */
    host_use_gather(me, &use, &ranks_cpu);
    if (me == 0) {
        f.t_child = measure_child(rt);
        measure_task_child(rt, f.t_child, &f.t_task_child, &f.t_task_child_fresh,
                           &f.t_pack_child, &f.t_store_child);
        f.t_poll = measure_poll(rt);
        f.poll_asks = !rt->bell_all_local;
        measure_pages(&f);
        measure_map(&f);
        f.others = host_use_others(&use, ranks_cpu);
        fit_overheads(&f, P, out, name);
    }
    sleepy_barrier(MPI_COMM_WORLD);
    free(buf);
}

int main(int argc, char **argv)
{
    static wtcrt_rt state; /* the runtime's state, for its waiting and its frames */
    wtcrt_rt *rt = &state;
    int me, P;
    const char *name = "host", *out;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_dup(MPI_COMM_WORLD, &rt->comm);
    rt->rank = me;
    rt->nranks = P;
    wtcrt_wait_init(rt);
    for (int i = 1; i < argc; i++)
        if (asks_help(argv[i])) { /* the usage on stdout, status 0, as gcc's --help */
            if (me == 0)
                fputs(usage, stdout);
            wtcrt_bell_fini(rt);
            MPI_Finalize();
            return 0;
        }
    out = parse_args(argc, argv, me, &name);
    if (!out || P < 2) {
        if (out && me == 0)
            fprintf(stderr, "wtc-calibrate: error: needs at least 2 ranks "
                            "(mpiexec -n P wtc-calibrate -o FILE)\n");
        wtcrt_bell_fini(rt);
        MPI_Finalize();
        return 2;
    }
    calibrate(rt, me, P, out, name);
    wtcrt_bell_fini(rt);
    MPI_Comm_free(&rt->comm);
    MPI_Finalize();
    return 0;
}
