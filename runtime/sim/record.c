/* sim/record.c - the predictor runtime's side of wtc_abi.h: prog.predict runs the
 * program on one processor, records the recursion above the cut-off (sim/tree.c),
 * samples the leaf tasks, then simulates and reports (sim/report.c).
 *
 * Recording. A call above the cut-off runs its parallel clone for real; its own time
 * is measured in segments: from its start (or the end of its previous par) to the close
 * of its next par (the par's loop included), and after its last par. Runtime work inside
 * wtc_par_close (running children, capturing leaves) is excluded from every segment.
 *
 * Leaf tasks: a child spawned where cond is false, or a child whose function has no par
 * (fn->has_par == 0). With --wtc-sample=all each leaf runs in place and is timed. Else
 * (sampling) a leaf does not run during the recording: its inputs are captured as the
 * MPI runtime would send them in a TASK (the args struct and its in: buffers), its
 * return value reads 0 and its out: buffers stay unwritten. When the region ends (or the
 * captured inputs exceed WTC_PREDICT_MEM_MB, default 1024), the sample is chosen, run
 * from the captures and timed, and the other leaves are interpolated (sim/sample.c).
 * Knowing every leaf before choosing means the sample is spread evenly over the whole
 * allocation order and can grow until the bootstrap is satisfied. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <dirent.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "wtcrt.h"
#include "proto.h"
#include "sim.h"

/* One deferred spawn of a par frame. */
typedef union rec_child {
    struct {
        const wtc_fn *fn;
        size_t args_off;
        void *dest;
        unsigned dest_size;
        short dest_kind;
    };
    wtcrt_child runtime; /* never used: the MPI runtime's size, so growing an array of
                            them costs what the runtime's costs (page faults) */
} rec_child;
_Static_assert(sizeof(rec_child) == sizeof(wtcrt_child), "a record the runtime's size");

struct wtc_par {
    const wtc_site *site; /* the par statement (NULL: not known) */
    int cond;
    int depth;          /* wtc_depth of the call executing the par */
    int region;         /* opened by wtc_region_open: its close ends the region */
    rec_child *ch;
    int nch, capch;
    unsigned char *arena;
    size_t used, cap;
    double grow_s;      /* time spent growing ch and arena (timed: rare, page faults) */
    wtcrt_keep keep;    /* copies of spawn arguments into the par body (wtc_keep) */
};

/* A captured leaf: fn, counts[nbufs], args, in: buffers (each 16-byte aligned). */
typedef struct leaf_cap {
    const wtc_fn *fn;
    size_t size;
    long counts[];
} leaf_cap;

/* A moment: by the wall clock w, and the CPU clock at it, b + w (b: NAN without a CPU
   clock). Two doubles, returned in registers: nothing is done between the clock read
   and the timed work but returning them (stamp_now). */
typedef struct stamp {
    double w, b;
} stamp;

typedef struct call_rec {
    int node;
    stamp seg;          /* start of the current compute segment */
    long weight;        /* how many calls this one stands for (replication) */
    long witness;       /* inside a witness: the weight of the witness's root (its
                           replicable pars copy child 0 unchecked); 0 outside */
} call_rec;

/* What the recorder knows about a node beyond sim_node (replication, sim_replica.c
   in this file): its function, its size (TASK + RESULT bytes), and whether its own
   times are tainted (measured on data that replicas did not compute: 1 after its first
   par, 2 all of them, fix_tainted) or it is a replica (filled at the end of the
   region). */
typedef struct node_info {
    const wtc_fn *fn;
    double size;
    unsigned char taint, replica;
    unsigned char checked;  /* child 0 of a par whose witnesses were compared with it:
                               1, 2 when one differed (the report counts pars) */
} node_info;

/* Whether capturing a leaf function's inputs pays: its first SIM_PROBE_LEAVES leaves
   run in place and are timed, and so is a copy of their inputs (run_child). */
typedef struct fn_probe {
    const wtc_fn *fn;
    int n;              /* leaves probed so far */
    int in_place;       /* decided: copying costs too much, run every leaf in place */
    double run, copy;   /* their summed run and copy times */
} fn_probe;

/* A replica to fill at the end of the region: node dst copies the subtree of src
   (child 0 of its par), or of alt (child 1, the witness) when the two differ and dst's
   index is odd; alt < 0: no witness. dst < 0: only the check of src against alt. */
typedef struct repl_pair {
    int src, dst, alt;
} repl_pair;

static struct {
    const wtc_program *prog;
    sim_opts opt;
    sim_tree tree;
    sim_sampling smp;
    int in_region, started, reported;
    stamp mark;         /* start of main's current segment */
    long mark_flt;      /* the process's minor page faults then (main_faults) */
    call_rec *calls;
    int ncalls, capcalls;
    wtc_par **frames;
    int nframes, capframes;
    /* leaves of the current chunk, in allocation order */
    int *leaf_node;
    leaf_cap **leaf_cap;
    long nleaves, capleaves;
    size_t captured, cap_limit;
    int outgrew;               /* this region's captures outgrew cap_limit (chunks) */
    int saved_stdout;   /* the real stdout while the program's goes to /dev/null */
    struct stat saved_id; /* what it is (restore_stdout checks that it still is) */
    int stdout_lost;    /* the program closed saved_stdout */
    char **argv;        /* the command line as given (a second recording runs it again) */
    int repl_asked;     /* --wtc-replicate given: its choice stands */
    unsigned long long seed;
    node_info *info;
    long capinfo;
    repl_pair *repl;
    long nrepl, caprepl;
    int region_first;   /* first node of the current region */
    double t_start;     /* when wtc_start began (the prediction's own time) */
    double timer_cost;  /* what one pair of clock reads adds to a timed interval */
    double cpu_cost;    /* the same for the process's CPU clock */
    double spawn_cost;  /* one wtc_spawn into a grown frame (measured at start) */
    fn_probe *probe;    /* per leaf function: is capturing its inputs worth it? */
    int nprobe, capprobe;
    const wtc_site **site_of; /* the ABI's site of each tree site (same index) */
    const wtc_fn *region_fn;  /* the outermost function of the current region */
    sim_machine machine;      /* --wtc-machine's, read before the program runs (which
                                 may chdir(): a relative path would name another file) */
    int start_dir;            /* the directory it started in (-1: unknown): a second
                                 recording starts there again */
    off_t stdin_at;           /* where a regular file on standard input started (-1:
                                 not a regular file): runs again read it from there */
    struct stat stdin_id;     /* what standard input was then (a program may reopen it) */
    pid_t pid;                /* the predictor's process: a child of the program's fork()
                                 neither reports nor records again (forked) */
    const char *apart_path;   /* a recording of one depth for another predictor
                                 (record_apart): the profile to write, no report */
    sim_aparts ap;            /* --wtc-depth=LIST: the recordings of its depths but the
                                 deepest, each by a run of its own (or from a profile) */
} R;

/* Whether this process is a child that the program made by fork(): it ends as a plain
   process, with its own status, and the report is the parent's alone (each child wrote
   one, and its exit(7) ended with status 0: the parent's waitpid saw another program). */
static int forked(void)
{
    return R.pid != 0 && getpid() != R.pid;
}

/* The time a leaf (or a segment of a call) took between clock reads t0 and t1, less
   the reads' own cost. */
static double leaf_time(double t0, double t1)
{
    double d = t1 - t0 - R.timer_cost;
    return d > 0 ? d : 0;
}

/* The process's CPU time in seconds (-1 if the clock is missing): one thread computes
   at a time (the program's, or the first one while the program's waits), so it is that
   thread's, and main's own time, measured across both, can use it too. */
static double cpu_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return -1;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- the thread's own scheduling, watched without a system call ----------------------

   The CPU clock is a system call, and reading it before each timed piece made the
   pieces themselves slower (the kernel's return to user space costs the following code
   its warm state): fib 32 with cond: n > 5 (2 M calls of a few ns) was recorded as
   0.025 s against 0.006 s of plain C, in 3.2 s of recording, against 0.006-0.008 s in
   0.8 s without the reads. Where the kernel lets a thread count its own software events
   (perf_event_open, its task clock, user space only: allowed at the default
   perf_event_paranoid of 2), the event's page shows a sequence number the kernel bumps
   each time it puts the thread back on a core. While that number stands still the
   thread has run without a break, so its CPU time advanced as the wall clock did since
   the last read of the CPU clock: a piece opens with a load, not a system call; the CPU
   clock is read again once the thread has been off a core (a preemption, a sleep), and
   at the end of a piece long enough to be flagged (SIM_PREEMPT_S) that had such a
   break. Elsewhere (no perf_event_open: a container's seccomp filter, paranoid 3; or
   WTC_PREDICT_NO_WATCH=1) every piece reads the CPU clock as before. */
typedef struct watch {
    int state;                                /* 0: not tried, 1: on, -1: off */
    int fd;
    volatile const struct perf_event_mmap_page *pg;
    unsigned seen;                            /* the page's count at the last sync */
    double c, w;                              /* CPU and wall clock then */
} watch;

static __thread watch W;
static long watch_syncs, watch_reads; /* WTC_PREDICT_DEBUG: CPU clock reads for a sync,
                                         and at the end of a piece with a break */

static int watch_used; /* a thread's watch opened */

static void watch_report(void)
{
    if (watch_used)
        fprintf(stderr, "wtc predict: CPU clock read %ld times to sync the watch, %ld at the "
                    "end of a piece\n", watch_syncs, watch_reads);
}

/* A child of fork: the event counts its parent's thread; its own is opened anew. */
static void watch_forked(void)
{
    W.state = 0;
}

/* Once a process: a child of fork opens its own watch; WTC_PREDICT_DEBUG's count. */
static void watch_once(void)
{
    pthread_atfork(NULL, NULL, watch_forked);
    if (getenv("WTC_PREDICT_DEBUG"))
        atexit(watch_report);
}

static void watch_open(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    struct perf_event_attr a;
    void *pg;
    W.state = -1;
    pthread_once(&once, watch_once);
    if (R.cpu_cost < 0 || getenv("WTC_PREDICT_NO_WATCH"))
        return;
    memset(&a, 0, sizeof a);
    a.type = PERF_TYPE_SOFTWARE;
    a.size = sizeof a;
    a.config = PERF_COUNT_SW_TASK_CLOCK;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    W.fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (W.fd < 0)
        return;
    pg = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, W.fd, 0);
    if (pg == MAP_FAILED) {
        close(W.fd);
        return;
    }
    W.pg = pg;
    /* the watch must see a break: a sleep takes the thread off its core */
    {
        unsigned l = W.pg->lock;
        struct timespec nap = { 0, 1000 };
        nanosleep(&nap, NULL);
        if (W.pg->lock == l)
            return; /* a page the kernel does not update: the CPU clock as before */
    }
    W.state = 1;
    watch_used = 1;
    W.seen = W.pg->lock + 1; /* not in sync: the first stamp reads the CPU clock */
}

/* The thread's watch, in sync with the CPU clock (read again when the thread has been
   off a core since the last sync); NULL where there is none. */
static watch *watch_sync(void)
{
    if (W.state == 0)
        watch_open();
    if (W.state < 0)
        return NULL;
    for (int tries = 0; W.pg->lock != W.seen && tries < 4; tries++) {
        unsigned n = W.pg->lock;
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        W.c = cpu_now();
        W.w = wtcrt_now();
        watch_syncs++;
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (!(n & 1) && W.pg->lock == n) /* not mid-update, and no break meanwhile */
            W.seen = n;
    }
    return W.pg->lock == W.seen ? &W : NULL;
}

/* The median of 101 back-to-back reads of clock(). */
static double read_cost(double (*clock)(void))
{
    double v[101];
    for (int i = 0; i < 101; i++) {
        double t0 = clock();
        v[i] = clock() - t0;
    }
    return wtcrt_median(v, 101);
}

/* Measures what timing a leaf adds to it: the median of back-to-back clock reads
   (tiny leaves, e.g. a Mandelbrot pixel of 0.3 us, would be 5-10 % too slow); and the
   same for the CPU clock that detects preemption (run_capture). */
static void measure_timer_cost(void)
{
    R.timer_cost = read_cost(wtcrt_now);
    R.cpu_cost = cpu_now() < 0 ? -1 : read_cost(cpu_now);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "wtc predict: out of memory\n");
        sim_exit(2);
    }
    return p;
}

/* A call's element count reaches past its buffer (common/check.c). */
void wtcrt_check_fail(const char *msg)
{
    fflush(stdout);
    fprintf(stderr, "wtc predict: error: %s\n", msg);
    sim_exit(2);
}

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) {
        fprintf(stderr, "wtc predict: out of memory\n");
        sim_exit(2);
    }
    return p;
}

/* ---- leaf capture and sampling ------------------------------------------------------ */

/* Where a capture's arguments start: after its header and the buffers' counts. */
static size_t cap_head(const wtc_fn *fn)
{
    return ALIGN16(sizeof(leaf_cap) + (size_t)fn->nbufs * sizeof(long));
}

/* Copies what a remote callee would receive: the args and the in: buffers. */
static leaf_cap *capture(const wtc_fn *fn, const void *args)
{
    long counts[64] = { 0 };
    size_t head = cap_head(fn);
    size_t size = head + ALIGN16(fn->args_size);
    int nb = fn->nbufs < 64 ? fn->nbufs : 64;
    if (nb)
        fn->counts(args, counts);
    for (int b = 0; b < nb; b++)
        if (fn->bufs[b].in)
            size += ALIGN16(wtcrt_buf_bytes(fn, b, counts[b]));
    leaf_cap *c = xmalloc(size);
    unsigned char *p = (unsigned char *)c + head;
    c->fn = fn;
    c->size = size;
    memcpy(p, args, fn->args_size);
    p += ALIGN16(fn->args_size);
    for (int b = 0; b < nb; b++) {
        c->counts[b] = counts[b];
        if (fn->bufs[b].in && counts[b] > 0) {
            size_t n = wtcrt_buf_bytes(fn, b, counts[b]);
            memcpy(p, wtcrt_buf_ptr(fn, args, b), n);
            p += ALIGN16(n);
        }
    }
    return c;
}

/* A sampled leaf's time stands for many leaves, so one that another process
   interrupted would spread its wait over them: n-queens 14 was predicted 30-50 % slow
   in about one run out of ten (95 sampled leaves, each worth 14; one preempted for a
   few ms). When the wall time w exceeds the process's CPU time (c1 - c0, less both
   clocks' read costs) by SIM_PREEMPT_S and by a fifth, the CPU time is the leaf's. */
#define SIM_PREEMPT_S 20e-6

static double preempt_checked(double w, double c0, double c1)
{
    double c;
    if (c0 < 0 || c1 < 0)
        return w;
    c = c1 - c0 - R.cpu_cost - R.timer_cost;
    if (c < 0)
        c = 0;
    if (w - c > SIM_PREEMPT_S && w - c > 0.2 * w) {
        R.smp.preempted++;
        return c;
    }
    return w;
}

/* A moment by both clocks: an interval between two is timed like a sampled leaf
   (preempt_checked), so that what another process took from the recording (a call's
   own segments, leaves run in place, main's own time) is not counted: on a host with a
   load of 10, msort 4M's predicted P = 1 time moved between 0.4 and 1.4 s by the wall
   clock. */
static stamp stamp_now(void)
{
    stamp s;
    watch *t = R.cpu_cost >= 0 ? watch_sync() : NULL;
    if (t) { /* the thread has run since the sync: its CPU clock goes with the wall clock */
        s.b = t->c - t->w;
        s.w = wtcrt_now();
        return s;
    }
    if (R.cpu_cost < 0) {
        s.b = NAN;
        s.w = wtcrt_now();
        return s;
    }
    s.b = cpu_now();
    s.w = wtcrt_now();
    s.b -= s.w;
    return s;
}

/* The time since s, less the clock reads, by CPU time where another process ran. The
   CPU clock is a system call (not the vDSO's), so it is not read again for an
   interval too short to be found preempted (preempt_checked could not flag it): a tree
   of 14 M calls spent 33 s of its 42 s recording in such reads. */
static double stamp_since(stamp s)
{
    double t1 = wtcrt_now(), w = leaf_time(s.w, t1);
    if (w <= SIM_PREEMPT_S || isnan(s.b))
        return w;
    /* on a core all along (synced before it began, no return to a core since): its
       wall time is its CPU time */
    if (W.state > 0 && W.pg->lock == W.seen && W.w <= s.w)
        return w;
    watch_reads++;
    return preempt_checked(w, s.b + s.w, cpu_now());
}

/* The process's minor page faults so far: a page touched for the first time. */
static long minflt_now(void)
{
    struct rusage u;
    return getrusage(RUSAGE_SELF, &u) == 0 ? u.ru_minflt : 0;
}

/* main's own time runs again (the program's start, a region's end) ... */
static void main_resume(void)
{
    R.mark = stamp_now();
    R.mark_flt = minflt_now();
}

/* ... and stops (a region's start, the program's end): its seconds and first-touched
   pages so far go to the tree */
static void main_pause(void)
{
    R.tree.main_time += stamp_since(R.mark);
    R.tree.main_faults += minflt_now() - R.mark_flt;
}

/* Runs a captured leaf as a remote callee would, on the captured copies; returns its
   time in seconds. */
static double run_capture(leaf_cap *c)
{
    static long long dummy[2];
    const wtc_fn *fn = c->fn;
    size_t head = cap_head(fn);
    unsigned char *args = (unsigned char *)c + head, *p = args + ALIGN16(fn->args_size);
    void *outs[64] = { 0 };
    unsigned char retbuf[256];
    void *ret = fn->ret_size > sizeof retbuf ? xmalloc(fn->ret_size) : retbuf;
    int nb = fn->nbufs < 64 ? fn->nbufs : 64;
    stamp t0;
    double t;
    for (int b = 0; b < nb; b++) {
        size_t n = wtcrt_buf_bytes(fn, b, c->counts[b]);
        if (fn->bufs[b].in && n) {
            wtcrt_buf_set(fn, args, b, p);
            p += ALIGN16(n);
        } else if (n) {
            outs[b] = calloc(1, n);
            wtcrt_buf_set(fn, args, b, outs[b] ? outs[b] : (void *)dummy);
        } else {
            wtcrt_buf_set(fn, args, b, dummy);
        }
    }
    t0 = stamp_now();
    fn->run_seq(args, ret);
    t = stamp_since(t0);
    for (int b = 0; b < nb; b++)
        free(outs[b]);
    if (ret != retbuf)
        free(ret);
    return t;
}

/* Shared bounds (wtc_share_max / wtc_share_min): their values before each leaf's first
   run, so that its second timing (retime) starts from the same bounds and prunes as
   much as the first, not more; NULL when the program shares none. */
static unsigned char *share_before;

static size_t share_bytes(void)
{
    size_t n = 0;
    for (int k = 0; k < R.prog->nshared; k++)
        n += R.prog->shared[k].size + R.prog->shared[k].data_size;
    return n;
}

/* Copies every shared global's value to (save) or from (!save) buf. */
static void share_copy(unsigned char *buf, int save)
{
    for (int k = 0; k < R.prog->nshared; k++) {
        const wtc_shared *s = &R.prog->shared[k];
        if (save) {
            memcpy(buf, s->addr, s->size);
            if (s->data)
                memcpy(buf + s->size, s->data, s->data_size);
        } else {
            memcpy(s->addr, buf, s->size);
            if (s->data)
                memcpy(s->data, buf + s->size, s->data_size);
        }
        buf += s->size + s->data_size;
    }
}

/* Runs leaf i of the chunk (once) and stores its time; x[0..*nx) are the times run so
   far and *sum their total. The capture is kept for the second timing (retime). */
static void run_leaf(long i, double *t, unsigned char *have, double *x, long *nx,
                     double *sum)
{
    if (have[i])
        return;
    if (share_before)
        share_copy(share_before + (size_t)i * share_bytes(), 1);
    t[i] = run_capture(R.leaf_cap[i]);
    have[i] = 1;
    x[(*nx)++] = t[i];
    *sum += t[i];
}

/* Two timings of one leaf further apart than this fraction (of the smaller) and than
   SIM_PREEMPT_S: the larger is an outlier (an interrupt, another process, a frequency
   step) and is dropped. Smaller differences are the clocks' noise (n-queens' 10-100 us
   leaves: a quarter of the pairs differ by 10 %), and the mean keeps them unbiased. */
#define SIM_RETIME_APART 0.10

/* A host that runs this process slower for a while: on the test VM a fixed fib(24) took
   its usual time in most processes but 10-40 % longer for stretches of 5-10 ms, several
   in a row, with fast gaps of 1-3 ms between them, and some processes spent most of
   their life so (bench/README.md "Slow stretches of the host"). Two passes over the
   sampled leaves of a program of eight fib calls (0.154 s) take 12 ms: both fell in one
   stretch in 1 to 3 recordings of every 15-20, and its sequential time came out 5-40 %
   long. So the passes go on, up to SIM_RETIME_PASSES in all, while all of them together
   take at most SIM_RETIME_SPAN seconds and the ones after the second at most
   SIM_RETIME_SHARE of the chunk's estimated leaf time (a sample of 2.4 % gets six
   passes, one of 4 % four, one of every leaf two), and each leaf keeps its fastest
   timing: a slowdown only adds time, and one pass in a fast gap is enough for the leaves
   it timed. Long passes already cover many such stretches, as the program's own run
   does, and keep the mean of two (n-queens 15: passes of 0.63 s; four of them, under a
   quarter's budget alone, had doubled the time of its prediction). SIM_RETIME_PASSES:
   sim.h (a profile's checks line holds at most that many). */
#define SIM_RETIME_SHARE 0.1
#define SIM_RETIME_SPAN 0.25

/* One more timing of every executed leaf of the chunk, in the same order (the cache sees
   the same sequence as in the first pass), each from the shared bounds of its first
   run; t2[i] gets leaf i's time. Returns the pass's total. */
static double retime_pass(double *t2, const unsigned char *have, long L)
{
    double sum = 0;
    for (long i = 0; i < L; i++) {
        if (!have[i] || !R.leaf_cap[i])
            continue;
        if (share_before)
            share_copy(share_before + (size_t)i * share_bytes(), 0);
        t2[i] = run_capture(R.leaf_cap[i]);
        sum += t2[i];
    }
    return sum;
}

/* Times every executed leaf of the chunk again: a second pass, after which each leaf
   keeps the mean of its two timings, or the smaller when they are over SIM_RETIME_APART
   apart; then, while SIM_RETIME_SPAN and 'budget' seconds allow (above), more passes,
   after which each leaf keeps its fastest timing of all. The first two passes' totals
   and the kept times' go into the report as the spread of the timing. */
static void retime(double *t, const unsigned char *have, long L, double budget)
{
    unsigned char *after = share_before ? xmalloc(share_bytes() + 1) : NULL;
    double *t2 = xmalloc((size_t)L * sizeof *t2), *lo = xmalloc((size_t)L * sizeof *lo);
    double pass, kept = 0;
    int passes = 2;
    if (after)
        share_copy(after, 1);
    pass = retime_pass(t2, have, L);
    for (long i = 0; i < L; i++) {
        double d;
        if (!have[i] || !R.leaf_cap[i])
            continue;
        R.smp.pass1 += t[i];
        d = fabs(t2[i] - t[i]);
        lo[i] = fmin(t[i], t2[i]);
        if (d > SIM_RETIME_APART * lo[i] && d > SIM_PREEMPT_S) {
            t[i] = lo[i];
            R.smp.outliers++;
        } else {
            t[i] = (t[i] + t2[i]) / 2;
        }
    }
    R.smp.pass2 += pass;
    /* the next pass would bring the passes to (passes + 1) * pass in all, those after
       the second to (passes - 1) * pass */
    for (; passes < SIM_RETIME_PASSES && pass > 0 && (passes + 1) * pass <= SIM_RETIME_SPAN &&
           (passes - 1) * pass <= budget;
         passes++) {
        retime_pass(t2, have, L);
        for (long i = 0; i < L; i++)
            if (have[i] && R.leaf_cap[i])
                lo[i] = fmin(lo[i], t2[i]);
    }
    for (long i = 0; i < L; i++) {
        if (!have[i] || !R.leaf_cap[i])
            continue;
        if (passes > 2)
            t[i] = lo[i];
        kept += t[i];
    }
    R.smp.pass_kept += kept;
    if (passes > R.smp.passes)
        R.smp.passes = passes;
    if (after) {
        share_copy(after, 0); /* the bounds the first runs found, for what follows */
        free(after);
    }
    free(t2);
    free(lo);
}

/* Below this estimated total of a chunk's leaves, --wtc-error runs them all: sampling
   saves little there, and the bootstrap underestimates the error of a small region
   (points' 48 ms of leaves were predicted 13-17 % high from a sample). */
#define SIM_SAMPLE_ALL_BELOW_S 0.1

/* The estimated total time of L leaves: the mean of the nx run so far, whose times add
   up to sum, L times; 0 when none ran. */
static double leaves_estimate(double sum, long nx, long L)
{
    return nx > 0 ? sum / (double)nx * (double)L : 0;
}

/* Is the estimated total time of L leaves small? */
static int cheap_leaves(double sum, long nx, long L)
{
    return nx > 0 && leaves_estimate(sum, nx, L) < SIM_SAMPLE_ALL_BELOW_S;
}

/* Even when the bootstrap is satisfied, the sample grows while it has fewer than
   SIM_SAMPLE_MIN_N leaves and they took under SIM_SAMPLE_MIN_COST of the estimated
   total: a few hundred leaves of a long tail (fib 41: 225 of 57,314 leaves) met +-5 %
   with a real spread of 2.3 % (sd) between seeds, 2048 leaves bring it under 1 %, and
   the cost stays within 2 % of the leaves' time. */
#define SIM_SAMPLE_MIN_N 2048
#define SIM_SAMPLE_MIN_COST 0.02

static int cheap_to_grow(double sum, long nx, long L)
{
    /* the nx leaves' share of the estimated total (sum / mean / L) is nx / L */
    return nx < SIM_SAMPLE_MIN_N && sum > 0 && (double)nx < SIM_SAMPLE_MIN_COST * (double)L;
}

/* The arguments of capture c (a function without buffers: nothing else goes into the
   call). */
static const unsigned char *cap_args(const leaf_cap *c)
{
    return (const unsigned char *)c + cap_head(c->fn);
}

/* FNV-1a of a leaf's function and arguments. */
static unsigned long long args_hash(const leaf_cap *c)
{
    unsigned long long h = 1469598103934665603ULL ^ (unsigned long long)(uintptr_t)c->fn;
    const unsigned char *a = cap_args(c);
    for (size_t k = 0; k < c->fn->args_size; k++)
        h = (h ^ a[k]) * 1099511628211ULL;
    return h;
}

static int same_call(const leaf_cap *a, const leaf_cap *b)
{
    return a->fn == b->fn && memcmp(cap_args(a), cap_args(b), a->fn->args_size) == 0;
}

/* A leaf of a function without buffers whose arguments equal those of leaves that ran
   takes their mean time instead of an interpolation: the same arguments are the same
   computation (the globals are the region's snapshot; a shared bound's leaves differ
   in what they prune, and are left to the interpolation). fib's leaves alternate
   between fib(20) and fib(19), 1.6x apart, and interpolated each took about the mean
   of its neighbours: a total right within 1 %, but the 85 leaves of one rank of 128
   off by up to 10 %, and the slowest rank, which a simple-mode prediction is, 20 %
   high at P = 64 and 128 (SimGrid SMPI: fib 40). Marks the leaves so timed in have[]
   (bounds of the interpolation of the rest); returns how many. */
static long same_args(double *t, unsigned char *have, long L)
{
    typedef struct slot {
        long leaf;  /* a leaf that ran, -1: empty */
        double sum; /* the times of the leaves that ran with its arguments */
        long n;
    } slot;
    long nrun = 0, filled = 0;
    size_t cap = 16, mask;
    slot *tab;
    if (R.prog->nshared)
        return 0;
    for (long i = 0; i < L; i++)
        nrun += have[i] && R.leaf_cap[i] && R.leaf_cap[i]->fn->nbufs == 0;
    if (nrun == 0 || nrun == L)
        return 0;
    while (cap < 2 * (size_t)nrun)
        cap *= 2;
    mask = cap - 1;
    tab = xmalloc(cap * sizeof *tab);
    for (size_t k = 0; k < cap; k++)
        tab[k].leaf = -1;
    for (long i = 0; i < L; i++) {
        const leaf_cap *c = R.leaf_cap[i];
        size_t k;
        if (!have[i] || !c || c->fn->nbufs != 0)
            continue;
        for (k = args_hash(c) & mask; tab[k].leaf >= 0; k = (k + 1) & mask)
            if (same_call(R.leaf_cap[tab[k].leaf], c))
                break;
        if (tab[k].leaf < 0) {
            tab[k].leaf = i;
            tab[k].sum = 0;
            tab[k].n = 0;
        }
        tab[k].sum += t[i];
        tab[k].n++;
    }
    for (long i = 0; i < L; i++) {
        const leaf_cap *c = R.leaf_cap[i];
        if (have[i] || !c || c->fn->nbufs != 0)
            continue;
        for (size_t k = args_hash(c) & mask; tab[k].leaf >= 0; k = (k + 1) & mask)
            if (same_call(R.leaf_cap[tab[k].leaf], c)) {
                t[i] = tab[k].sum / (double)tab[k].n;
                have[i] = 1;
                filled++;
                break;
            }
    }
    free(tab);
    return filled;
}

/* Chooses and runs the sample of the current chunk (SPEC 5 item 2), interpolates the
   rest, writes every leaf's time into the tree and frees the captures. */
static void flush_leaves(void)
{
    long L = R.nleaves, nx = 0, n;
    double *t, *x, total = 0, xsum = 0;
    unsigned char *have;
    sim_boot b = { 0, 0, 0 };
    if (L == 0)
        return;
    t = xmalloc((size_t)L * sizeof *t);
    x = xmalloc((size_t)L * sizeof *x);
    have = calloc((size_t)L, 1);
    if (!have)
        sim_exit(2);
    share_before = R.prog->nshared ? xmalloc((size_t)L * share_bytes()) : NULL;
    n = R.opt.sample == SIM_SAMPLE_N ? (R.opt.sample_n < L ? R.opt.sample_n : L)
                                     : (L < 32 ? L : 32);
    for (;;) {
        for (long i = 0; i < n; i++)
            run_leaf(sim_spread_jittered(i, n, L, &R.seed), t, have, x, &nx, &xsum);
        run_leaf(L - 1, t, have, x, &nx, &xsum); /* it bounds the interpolation */
        if (R.opt.sample == SIM_SAMPLE_ERROR && n < L && cheap_leaves(xsum, nx, L)) {
            n = L; /* sampling does not pay: run them all, exactly */
            continue;
        }
        b = sim_bootstrap(x, (int)nx, &R.seed);
        if (R.opt.sample != SIM_SAMPLE_ERROR || nx >= L ||
            (fabs(b.lo) * 100 <= R.opt.error_pct && fabs(b.hi) * 100 <= R.opt.error_pct &&
             !cheap_to_grow(xsum, nx, L)))
            break;
        n = 2 * n < L ? 2 * n : L;
    }
    if (nx >= L)
        b.lo = b.hi = 0;
    retime(t, have, L, SIM_RETIME_SHARE * leaves_estimate(xsum, nx, L));
    free(share_before);
    share_before = NULL;
    R.smp.same_args += same_args(t, have, L);
    sim_interpolate(t, have, L);
    for (long i = 0; i < L; i++) {
        R.tree.nodes[R.leaf_node[i]].t_after = t[i];
        total += t[i];
        free(R.leaf_cap[i]);
    }
    R.smp.leaves += L;
    R.smp.executed += nx;
    R.smp.total += total;
    R.smp.err_lo += total * b.lo;
    R.smp.err_hi += total * b.hi;
    R.nleaves = 0;
    R.captured = 0;
    free(t);
    free(x);
    free(have);
}

static void add_leaf(int node, leaf_cap *c)
{
    if (R.nleaves == R.capleaves) {
        R.capleaves = R.capleaves ? 2 * R.capleaves : 4096;
        R.leaf_node = xrealloc(R.leaf_node, (size_t)R.capleaves * sizeof *R.leaf_node);
        R.leaf_cap = xrealloc(R.leaf_cap, (size_t)R.capleaves * sizeof *R.leaf_cap);
    }
    R.leaf_node[R.nleaves] = node;
    R.leaf_cap[R.nleaves++] = c;
    R.captured += c->size;
    if (R.captured > R.cap_limit) { /* a chunk: sampled on its own */
        flush_leaves();
        R.smp.chunks++;
        R.outgrew = 1;
    }
}

/* ---- node information ---------------------------------------------------------------- */

static node_info *info(int node)
{
    if (node >= R.capinfo) {
        long c = R.capinfo ? R.capinfo : 4096;
        while (c <= node)
            c *= 2;
        R.info = xrealloc(R.info, (size_t)c * sizeof *R.info);
        memset(R.info + R.capinfo, 0, (size_t)(c - R.capinfo) * sizeof *R.info);
        R.capinfo = c;
    }
    return &R.info[node];
}

/* ---- calls and par frames ----------------------------------------------------------- */

static void call_push(int node, long weight, long witness)
{
    if (R.ncalls == R.capcalls) {
        R.capcalls = R.capcalls ? 2 * R.capcalls : 64;
        R.calls = xrealloc(R.calls, (size_t)R.capcalls * sizeof *R.calls);
    }
    R.calls[R.ncalls].node = node;
    R.calls[R.ncalls].weight = weight;
    R.calls[R.ncalls].witness = witness;
    R.calls[R.ncalls++].seg = stamp_now();
}

/* Ends the call on top: its last segment is its time after its last par. */
static void call_pop(void)
{
    call_rec *c = &R.calls[--R.ncalls];
    R.tree.nodes[c->node].t_after = stamp_since(c->seg);
}

/* The index of a par site in the tree (added when first seen; -1 for NULL). The sites
   are few (one per par statement): the last one found is tried first. */
static int site_index(const wtc_site *site)
{
    static int last = -1;
    if (!site)
        return -1;
    if (last >= 0 && R.site_of[last] == site)
        return last;
    for (last = 0; last < R.tree.nsites; last++)
        if (R.site_of[last] == site)
            return last;
    R.site_of = xrealloc(R.site_of, (size_t)(R.tree.nsites + 1) * sizeof *R.site_of);
    R.site_of[R.tree.nsites] = site;
    return last = sim_tree_add_site(&R.tree, site->file, site->line, site->col);
}

static wtc_par *frame_push(const wtc_site *site, int cond, int depth, int region)
{
    wtc_par *p;
    if (R.nframes == R.capframes) {
        R.capframes = R.capframes ? 2 * R.capframes : 16;
        R.frames = xrealloc(R.frames, (size_t)R.capframes * sizeof *R.frames);
        for (int i = R.nframes; i < R.capframes; i++)
            R.frames[i] = NULL;
    }
    if (!R.frames[R.nframes]) {
        R.frames[R.nframes] = xmalloc(sizeof *p);
        memset(R.frames[R.nframes], 0, sizeof *p);
    }
    p = R.frames[R.nframes++];
    p->site = site;
    p->cond = cond;
    p->depth = depth;
    p->region = region;
    p->nch = 0;
    p->used = 0;
    p->grow_s = 0;
    wtcrt_keep_reset(&p->keep);
    return p;
}

/* May a region be recorded here (wtcrt_region_claim, common/claim.c: one region at a
   time among the program's threads, as the runtime has)? */
static int may_record(void *unused)
{
    (void)unused;
    return !R.in_region && R.started;
}

static void region_begin(const wtc_fn *root_fn, const void *args, int depth)
{
    int node;
    main_pause();
    R.in_region = 1;
    R.region_fn = root_fn;
    node = sim_tree_add_nodes(&R.tree, 1);
    R.region_first = node;
    R.nrepl = 0;
    R.tree.nodes[node].depth = depth;
    info(node)->fn = NULL;
    if (root_fn && args) {
        long counts[64] = { 0 };
        if (root_fn->nbufs)
            root_fn->counts(args, counts);
        info(node)->fn = root_fn;
        info(node)->size = (double)wtcrt_task_child_bytes(root_fn, counts) +
                           (double)wtcrt_result_child_bytes(root_fn, counts);
    }
    call_push(node, 1, 0);
}

/* The REGION_BEGIN payload: mode, masters, batch, a pad (four ints, as the MPI
   runtime's) and the global snapshot. */
static unsigned region_begin_bytes(void)
{
    unsigned long n = 16;
    for (int g = 0; g < R.prog->nglobals; g++)
        n += R.prog->globals[g].size;
    return (unsigned)n;
}

/* ---- subtree replication (doc/predictor.md, "Replication") ---------------------------- */

static int npars(int node)
{
    int n = 0;
    for (int p = R.tree.nodes[node].first_par; p >= 0; p = R.tree.pars[p].next)
        n++;
    return n;
}

/* Own-time component c of node i: 0 = t_after, c >= 1 = t_before of its par c. */
static double *component(int i, int c)
{
    if (c == 0)
        return &R.tree.nodes[i].t_after;
    int p = R.tree.nodes[i].first_par;
    for (int k = 1; k < c && p >= 0; k++)
        p = R.tree.pars[p].next;
    return p >= 0 ? &R.tree.pars[p].t_before : NULL;
}

/* The size classes of valid nodes idx[0..n-1] for own-time component c, largest
   first: nodes whose size is within 10 % below the largest remaining size form one
   class (median size, median time, count). Returns the number of classes. */
typedef struct size_class {
    double size, time, least; /* least: the class's fastest call */
    long count;
} size_class;

static int size_classes(const long *idx, long n, int c, size_class *out, int max,
                        double *tmp1, double *tmp2)
{
    double below = 1e300;
    int nc = 0;
    while (nc < max) {
        double top = 0;
        long k = 0;
        for (long j = 0; j < n; j++)
            if (R.info[idx[j]].size < below && R.info[idx[j]].size > top)
                top = R.info[idx[j]].size;
        if (top <= 0)
            break;
        for (long j = 0; j < n; j++) {
            double sz = R.info[idx[j]].size;
            if (sz < below && sz >= 0.9 * top) {
                tmp1[k] = sz;
                tmp2[k++] = *component((int)idx[j], c);
            }
        }
        out[nc].least = tmp2[0];
        for (long j = 1; j < k; j++)
            if (tmp2[j] < out[nc].least)
                out[nc].least = tmp2[j];
        out[nc].size = wtcrt_median(tmp1, k);
        out[nc].time = wtcrt_median(tmp2, k);
        out[nc++].count = k;
        below = 0.9 * top;
    }
    return nc;
}

#define FIT_MIN_COUNT 2 /* a single call is dominated by first-touch effects */
#define WARM_MIN_COUNT 3 /* a class of this many holds a warm call (its least): glibc
                            maps the first block of a size fresh and the second from
                            new heap; the third reuses memory */

/* A tainted call's own times after its first par were measured on data that the
   replicas did not compute (e.g. a merge of halves one of which was never sorted), so
   they are re-estimated from the untainted executed calls of the same function (same
   number of pars) by a power law in the size, t = t1 (s/s1)^a. A call or leaf run by a
   par of such a call (taint 2: cilksort's parallel merges, whose halves came from
   copies) was measured on that data whole: all its own times are re-estimated so, a
   leaf's from the untainted leaves of its function. The reference class is
   the largest one with at least FIT_MIN_COUNT calls (a single large call pays the
   first touch of its memory, which the real run pays once for many; a smaller class
   fits in a cache the tainted calls overflow); the exponent is the least-squares slope
   in log-log through it and every smaller such class (robust to one noisy class; a = 1
   when no class is 4 times smaller, clamped to [0, 2]). */
/* The untainted executed calls of function fn with np pars (leaves when leaf, else
   calls that are not; not replicas) into idx; returns how many. */
static long untainted_peers(const wtc_fn *fn, int np, int leaf, long *idx)
{
    long nv = 0;
    for (int i = R.region_first; i < R.tree.nnodes; i++) {
        node_info *ii = info(i);
        if (ii->fn == fn && !ii->taint && !ii->replica && R.tree.nodes[i].leaf == leaf &&
            npars(i) == np)
            idx[nv++] = i;
    }
    return nv;
}

/* The reference class of cl[0..nc-1]: the largest with at least FIT_MIN_COUNT calls,
   else the most numerous. */
static int reference_class(const size_class *cl, int nc)
{
    int r = -1;
    for (int k = 0; k < nc && r < 0; k++)
        if (cl[k].count >= FIT_MIN_COUNT)
            r = k;
    if (r < 0) { /* no class is large enough: the most numerous one */
        r = 0;
        for (int k = 1; k < nc; k++)
            if (cl[k].count > cl[r].count)
                r = k;
    }
    return r;
}

/* The power law's exponent: least squares in log-log through every class from r down
   of at least min calls (their least times when least, else their medians); 1 when no
   such class is 4 times smaller than r's; clamped to [0, 2]. */
static double fit_exponent(const size_class *cl, int nc, int r, long min, int least)
{
    double a = 1, sx = 0, sy = 0, sxx = 0, sxy = 0, m = 0;
    int q = -1;
    for (int k = r; k < nc; k++) {
        double t = least ? cl[k].least : cl[k].time;
        if (cl[k].count >= min && t > 0 && cl[k].size > 0) {
            double lx = log(cl[k].size), ly = log(t);
            sx += lx;
            sy += ly;
            sxx += lx * lx;
            sxy += lx * ly;
            m++;
            if (cl[k].size * 4 <= cl[r].size)
                q = k;
        }
    }
    if (q >= 0 && m >= 2 && m * sxx - sx * sx > 0)
        a = (m * sxy - sx * sy) / (m * sxx - sx * sx);
    if (!(a >= 0))
        a = 0;
    if (a > 2)
        a = 2;
    return a;
}

/* One fit of fix_tainted: for function fn's calls (or leaves) with np pars, per own-time
   component c the reference class's size s1 and time t1 and the exponent a (s1 0:
   nothing to fit from). The same for every tainted node of the kind, so it is made
   once: with cilksort's merges tainted through, a fit per node (a scan of every node
   for its peers) took its recording from 0.2 to 3.8 s. */
typedef struct fit_law {
    double s1, t1, a;
} fit_law;

typedef struct taint_fit {
    const wtc_fn *fn;
    int np, leaf;
    fit_law *law; /* [0..np] */
    fit_law warm; /* t_after of a warm call (warm_after; s1 0: none) */
} taint_fit;

/* The region's fits, made on first use, and its table of warm calls (warm_after):
   fits_begin .. fits_end */
static struct {
    taint_fit *f;
    int n;
    long *idx;
    double *tmp1, *tmp2;
} F;

/* The exponent comes from the classes' least times where WARM_MIN_COUNT calls give a
   warm one: a class's median mixes cold first calls with warm ones in proportions
   that change with the size (mergesort 4M's 2M class is its two cold calls, 1M's seven
   are two cold and five warm, 3.7 times faster), which made the slope 1.2 where the
   work grows as the size (1.0) and the top merge 1.4 times too slow. The level stays
   the reference class's: the tainted calls are the tree's first calls of their sizes,
   cold as the reference's largest calls are. */
static taint_fit *taint_fit_of(const wtc_fn *fn, int np, int leaf)
{
    size_class cl[64];
    taint_fit *f;
    long nv;
    for (int k = 0; k < F.n; k++)
        if (F.f[k].fn == fn && F.f[k].np == np && F.f[k].leaf == leaf)
            return &F.f[k];
    F.f = xrealloc(F.f, (size_t)(F.n + 1) * sizeof *F.f);
    f = &F.f[F.n++];
    *f = (taint_fit){ fn, np, leaf, xmalloc(((size_t)np + 1) * sizeof *f->law), { 0, 0, 1 } };
    memset(f->law, 0, ((size_t)np + 1) * sizeof *f->law);
    nv = untainted_peers(fn, np, leaf, F.idx);
    for (int c = 0; c <= np && nv > 0; c++) {
        int nc = size_classes(F.idx, nv, c, cl, 64, F.tmp1, F.tmp2), r, w = -1;
        if (nc == 0)
            continue;
        r = reference_class(cl, nc);
        for (int k = 0; k < nc && w < 0; k++)
            if (cl[k].count >= WARM_MIN_COUNT)
                w = k;
        f->law[c] = (fit_law){ cl[r].size, cl[r].time,
                               w >= 0 ? fit_exponent(cl, nc, w, WARM_MIN_COUNT, 1)
                                      : fit_exponent(cl, nc, r, FIT_MIN_COUNT, 0) };
        if (c == 0 && w >= 0)
            f->warm = (fit_law){ cl[w].size, cl[w].least, f->law[0].a };
    }
    return f;
}

static void fix_tainted(void)
{
    for (int x = R.region_first; x < R.tree.nnodes; x++) {
        node_info *ix = info(x);
        int np;
        int leaf = R.tree.nodes[x].leaf;
        taint_fit *f;
        if (!ix->taint || ix->replica || !ix->fn || (leaf && ix->taint < 2))
            continue;
        np = npars(x);
        f = taint_fit_of(ix->fn, np, leaf);
        for (int c = 0; c <= np; c++) {
            double *slot;
            if (c == 1 && ix->taint < 2) /* the first par's t_before runs before any
                                            child, on the call's own inputs: valid */
                continue;
            slot = component(x, c);
            if (slot && f->law[c].s1 > 0)
                *slot = f->law[c].t1 * pow(ix->size / f->law[c].s1, f->law[c].a);
        }
    }
}

/* A copy's own time after its pars is a warm call's (warm_after), not necessarily its
   source's: the least of the executed untainted calls of the same function, number of
   pars and size, and above the largest class that holds a warm call (WARM_MIN_COUNT)
   the warm law of taint_fit_of when that is less. The first calls of each size in a
   process pay for memory the allocator maps fresh and caches it fills (glibc maps a
   block over its threshold, unmaps it on free and raises the threshold: the first two
   calls of a size are cold): mergesort 4M's 16 calls of 2M took 4.3 and 2.7 ms for
   the first two, 1.2-1.6 ms for the rest. Child 0's subtree, the one copied, runs
   first, so it holds the cold calls of every size, and 16 copies of them made
   mergesort's sequential time 23-30 % high (merges 0.55 s against 0.37 s); the real
   run pays them once per process. Calls in executed subtrees keep their own times. */
typedef struct warm_key {
    const wtc_fn *fn;
    int np;
    double size, t;
} warm_key;

static int warm_cmp(const void *a, const void *b)
{
    const warm_key *x = a, *y = b;
    if (x->fn != y->fn)
        return (uintptr_t)x->fn < (uintptr_t)y->fn ? -1 : 1;
    if (x->np != y->np)
        return x->np < y->np ? -1 : 1;
    if (x->size != y->size)
        return x->size < y->size ? -1 : 1;
    return (x->t > y->t) - (x->t < y->t);
}

static warm_key *warm_tab;
static long warm_n;

/* Before fix_tainted: the buffers of the fits. */
static void fits_begin(void)
{
    long n = R.tree.nnodes - R.region_first;
    F.idx = xmalloc((size_t)(n + 1) * sizeof *F.idx);
    F.tmp1 = xmalloc((size_t)(n + 1) * sizeof *F.tmp1);
    F.tmp2 = xmalloc((size_t)(n + 1) * sizeof *F.tmp2);
}

/* After fix_tainted, before do_replicas: the executed untainted calls' t_after, sorted
   for warm_after. */
static void warm_build(void)
{
    warm_tab = xmalloc((size_t)(R.tree.nnodes - R.region_first + 1) * sizeof *warm_tab);
    warm_n = 0;
    for (int i = R.region_first; i < R.tree.nnodes; i++) {
        node_info *ii = info(i);
        if (ii->fn && !ii->taint && !ii->replica && !R.tree.nodes[i].leaf)
            warm_tab[warm_n++] = (warm_key){ ii->fn, npars(i), ii->size,
                                             R.tree.nodes[i].t_after };
    }
    qsort(warm_tab, (size_t)warm_n, sizeof *warm_tab, warm_cmp);
}

static void fits_end(void)
{
    for (int k = 0; k < F.n; k++)
        free(F.f[k].law);
    free(F.f);
    free(F.idx);
    free(F.tmp1);
    free(F.tmp2);
    memset(&F, 0, sizeof F);
    free(warm_tab);
    warm_tab = NULL;
    warm_n = 0;
}

/* The least t_after of warm_tab's calls like node src (its own when none). */
static double warm_after(int src)
{
    node_info *is = info(src);
    warm_key k;
    long lo = 0, hi = warm_n;
    if (!is->fn || is->taint || R.tree.nodes[src].leaf)
        return R.tree.nodes[src].t_after;
    k = (warm_key){ is->fn, npars(src), is->size, -1 };
    while (lo < hi) { /* the first entry not below k: the least time of its group */
        long m = (lo + hi) / 2;
        if (warm_cmp(&warm_tab[m], &k) < 0)
            lo = m + 1;
        else
            hi = m;
    }
    double t = R.tree.nodes[src].t_after;
    if (lo < warm_n && warm_tab[lo].fn == k.fn && warm_tab[lo].np == k.np &&
        warm_tab[lo].size == k.size && warm_tab[lo].t < t)
        t = warm_tab[lo].t;
    /* above the largest class that holds a warm call, every call ran cold: the warm
       law of the smaller classes */
    taint_fit *f = taint_fit_of(is->fn, k.np, 0);
    if (f->warm.s1 > 0 && is->size > f->warm.s1) {
        double w = f->warm.t1 * pow(is->size / f->warm.s1, f->warm.a);
        if (w < t)
            t = w;
    }
    return t;
}

/* Node dst (already holding its own sizes) becomes a copy of src's subtree. */
static void copy_subtree(int src, int dst)
{
    R.tree.nodes[dst].t_after = warm_after(src);
    R.tree.nodes[dst].leaf = R.tree.nodes[src].leaf;
    R.smp.repl_calls++;
    if (R.tree.nodes[src].leaf)
        R.smp.repl_leaves++;
    for (int p = R.tree.nodes[src].first_par; p >= 0; p = R.tree.pars[p].next) {
        sim_par q = R.tree.pars[p];
        int f = sim_tree_add_nodes(&R.tree, q.nchild);
        int np = sim_tree_add_par(&R.tree, dst, q.t_before, f, q.nchild, q.cond);
        R.tree.pars[np].t_spawn = q.t_spawn;
        R.tree.pars[np].site = q.site;
        R.tree.pars[np].depth = q.depth;
        for (int c = 0; c < q.nchild; c++) {
            sim_node *s = &R.tree.nodes[q.first_child + c], *d = &R.tree.nodes[f + c];
            d->depth = s->depth;
            d->task_bytes = s->task_bytes;
            d->result_bytes = s->result_bytes;
            d->task_copied = s->task_copied;
            d->result_copied = s->result_copied;
        }
        for (int c = 0; c < q.nchild; c++)
            copy_subtree(q.first_child + c, f + c);
    }
}

/* The sequential time of node's subtree (its replicas already filled). */
static double subtree_time(int node)
{
    double t = R.tree.nodes[node].t_after;
    for (int p = R.tree.nodes[node].first_par; p >= 0; p = R.tree.pars[p].next) {
        t += R.tree.pars[p].t_before + R.tree.pars[p].t_spawn;
        for (int c = 0; c < R.tree.pars[p].nchild; c++)
            t += subtree_time(R.tree.pars[p].first_child + c);
    }
    return t;
}

/* Siblings whose measured times differ by more than this fraction of the larger are
   unequal: their replicas copy child 0 and the witness alternately. */
#define SIM_SIBLING_TOL 0.20

/* Compares child 0 (src) with a witness (alt): 1 if they differ by more than
   SIM_SIBLING_TOL (a par counted once, however many witnesses it has). */
static int siblings_differ(int src, int alt)
{
    static int last_src = -1, last_alt = -1, last = 0;
    double a, b, d;
    if (src == last_src && alt == last_alt)
        return last;
    a = subtree_time(src);
    b = subtree_time(alt);
    d = a > b ? (a - b) / a : (b > 0 ? (b - a) / b : 0);
    if (!info(src)->checked) {
        info(src)->checked = 1;
        R.smp.repl_checked++;
    }
    if (d > R.smp.repl_maxdiff)
        R.smp.repl_maxdiff = d;
    last_src = src;
    last_alt = alt;
    last = d > SIM_SIBLING_TOL;
    if (getenv("WTC_PREDICT_DEBUG"))
        fprintf(stderr, "wtc predict: siblings: node %d %.6f s, node %d %.6f s\n", src, a,
                alt, b);
    if (last && info(src)->checked == 1) {
        info(src)->checked = 2;
        R.smp.repl_unequal++;
    }
    return last;
}

/* Fills the replicas in the order they were made: every subtree a replica or a check
   reads (child 0's, the witness's) was recorded before it, its own replicas included. */
static void do_replicas(void)
{
    for (long i = 0; i < R.nrepl; i++) {
        repl_pair r = R.repl[i];
        int src = r.src;
        if (r.alt >= 0 && siblings_differ(r.src, r.alt) && r.dst >= 0 &&
            (r.dst - r.src) % 2 == 1)
            src = r.alt;
        if (r.dst < 0)
            continue;
        copy_subtree(src, r.dst);
        R.smp.repl_subtrees++;
    }
    R.nrepl = 0;
}

/* A subtree cheaper than this runs for real instead of being copied to its siblings:
   copying saves little there, and one subtree's timing noise multiplied by up to 16
   copies made points' 48 ms region 11-17 % high. */
#define SIM_REPLICATE_MIN_S 0.05

/* Inside a witness: a witness is a check, compared with child 0 within SIM_SIBLING_TOL,
   not the measurement the prediction rests on, so it copies down to subtrees this many
   times cheaper than SIM_REPLICATE_MIN_S, and up to --wtc-replicate copies counted from
   the witness's own root (with the floor and the factor of the calls around it, each
   witness ran a whole 0.05 s subtree and more: mergesort 8M's four checks ran half
   its leaves, where the replicas alone run an eighth). */
#define SIM_WITNESS_SCALE 8

/* Whether par p's children are data-parallel: two or more calls of one function with
   a par, carrying buffers (at least one in: buffer not empty), every buffer of every
   child within 1 % (or 1 element) of child 0's, and the replication factor of the
   call so far times the number of children within the limit. */
static int replicable(const wtc_par *p, long weight, long witness)
{
    long c0[64] = { 0 }, ci[64] = { 0 };
    const wtc_fn *fn;
    int nb, data = 0;
    if (witness > 0)
        weight /= witness;
    if (R.opt.replicate <= 0 || !p->cond || p->nch < 2 ||
        weight * p->nch > R.opt.replicate)
        return 0;
    fn = p->ch[0].fn;
    if (!fn->has_par || fn->nbufs < 1 || fn->nbufs > 64)
        return 0;
    nb = fn->nbufs;
    fn->counts(p->arena + p->ch[0].args_off, c0);
    for (int b = 0; b < nb; b++)
        data |= fn->bufs[b].in && c0[b] > 0;
    if (!data)
        return 0;
    for (int i = 1; i < p->nch; i++) {
        if (p->ch[i].fn != fn)
            return 0;
        fn->counts(p->arena + p->ch[i].args_off, ci);
        for (int b = 0; b < nb; b++) {
            long d = ci[b] > c0[b] ? ci[b] - c0[b] : c0[b] - ci[b];
            if (d > 1 && d * 100 > c0[b])
                return 0;
        }
    }
    return 1;
}

/* Child i of par p becomes a replica of child 0 (already run): no call, its outputs
   (return value, out: buffers) are copies of child 0's, so the caller and main go on
   with data of the right shape; its subtree is copied at the end of the region. */
static void repl_add(int src, int dst, int alt)
{
    if (R.nrepl == R.caprepl) {
        R.caprepl = R.caprepl ? 2 * R.caprepl : 256;
        R.repl = xrealloc(R.repl, (size_t)R.caprepl * sizeof *R.repl);
    }
    R.repl[R.nrepl++] = (repl_pair){ src, dst, alt };
}

static void make_replica(wtc_par *p, int i, int node, int src, int alt)
{
    rec_child *c = &p->ch[i], *c0 = &p->ch[0];
    const wtc_fn *fn = c->fn;
    void *args = p->arena + c->args_off, *args0 = p->arena + c0->args_off;
    long counts[64] = { 0 }, counts0[64] = { 0 };
    sim_node *nd = &R.tree.nodes[node];
    fn->counts(args, counts);
    fn->counts(args0, counts0);
    nd->task_bytes = (unsigned)wtcrt_task_child_bytes(fn, counts);
    nd->result_bytes = (unsigned)wtcrt_result_child_bytes(fn, counts);
    nd->task_copied = (unsigned)wtcrt_task_child_copied(fn, counts);
    nd->result_copied = (unsigned)wtcrt_result_child_copied(fn, counts);
    nd->depth = p->depth + 1;
    nd->leaf = 0;
    info(node)->fn = fn;
    info(node)->size = (double)nd->task_bytes + nd->result_bytes;
    info(node)->replica = 1;
    for (int b = 0; b < fn->nbufs && b < 64; b++)
        if (fn->bufs[b].out) {
            long n = counts[b] < counts0[b] ? counts[b] : counts0[b];
            if (n > 0)
                memmove(wtcrt_buf_ptr(fn, args, b), wtcrt_buf_ptr(fn, args0, b),
                        wtcrt_buf_bytes(fn, b, n));
        }
    if (c->dest && c->dest_size) {
        if (c0->dest && c0->dest_kind == c->dest_kind && c0->dest_size == c->dest_size)
            memmove(c->dest, c0->dest, c->dest_size);
        else
            memset(c->dest, 0, c->dest_size);
    }
    repl_add(src, node, alt);
}

static void debug_dump(const char *what, int replicas)
{
    if (!getenv("WTC_PREDICT_DEBUG"))
        return;
    for (int i = R.region_first; i < R.tree.nnodes; i++)
        if (!R.tree.nodes[i].leaf && (replicas || !info(i)->replica))
            fprintf(stderr, "%s %d depth %d size %.0f taint %d t_after %.6f\n", what, i,
                    R.tree.nodes[i].depth, info(i)->size, info(i)->taint,
                    R.tree.nodes[i].t_after);
}

/* Makes standard input ready to be read again by another run of the program, as this
   run found it: the same regular file from where it started, or a device (/dev/null; a
   terminal only when tty_ok). 0, or -1 when it cannot be read again: a pipe or socket,
   whose data is gone, or one the program closed or replaced. */
static int stdin_rewind(int tty_ok)
{
    struct stat st;
    if (fstat(0, &st) != 0 || st.st_dev != R.stdin_id.st_dev ||
        st.st_ino != R.stdin_id.st_ino || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
        return -1;
    if (S_ISREG(st.st_mode))
        return R.stdin_at >= 0 && lseek(0, R.stdin_at, SEEK_SET) == R.stdin_at ? 0 : -1;
    return isatty(0) && !tty_ok ? -1 : 0;
}

/* The environment variable by which a second recording learns what the first found. */
#define SIM_REPL_ENV "WTC_PREDICT_REPLICAS_DIFFERED"

static void restore_stdout(void);

/* The replicas do not hold, so the whole program is recorded again without replication:
   siblings of equal sizes were run side by side and their costs differed (a
   branch-and-bound search: the replicas copied inside the witnesses are guesses; issue 8:
   floorplan-like trees must not be predicted as balanced, a knapsack's sequential time
   came out 40 % high), or main's own time after its first region is over
   SIM_REPL_MAIN_SHARE of the sequential time (main_after > 0): it ran on the data the
   copies left, and the closest pair's grid check took 1.03 s so against 0.38 s on the
   real results. The predictor runs itself again with --wtc-replicate=off and tells the
   second run, which reports it, what the first found. Only when --wtc-replicate was not
   given. */
static void record_again(double main_after, double main_seq)
{
    char buf[160], why[160];
    int n = 0;
    char **v;
    if (forked())
        return;
    locale_t loc = wtcrt_locale_c(); /* the second run reads buf in the C locale */
    if (main_after > 0) { /* the second run reports one reason: main's times */
        snprintf(why, sizeof why, "main's own time after its first region was %.3f s of "
                 "the sequential %.3f s, on the data the copies left", main_after, main_seq);
        snprintf(buf, sizeof buf, "0 0 0 %.6g %.6g", main_after, main_seq);
    } else { /* ... or the first run's checks */
        snprintf(why, sizeof why, "siblings of equal sizes differed by up to %.0f %% (%ld "
                 "of %ld pars checked)", 100 * R.smp.repl_maxdiff, R.smp.repl_unequal,
                 R.smp.repl_checked);
        snprintf(buf, sizeof buf, "%ld %ld %.6g 0 0", R.smp.repl_checked,
                 R.smp.repl_unequal, R.smp.repl_maxdiff);
    }
    wtcrt_locale_end(loc);
    /* the second run reads the program's standard input again: a file from where it
       started, a terminal or /dev/null as they are; a pipe's data is gone */
    if (stdin_rewind(1) < 0) {
        fprintf(stderr, "wtc predict: warning: %s, but the program's standard input cannot "
                        "be read again: the replicas stay (predict with "
                        "--wtc-replicate=off)\n", why);
        R.repl_asked = 1; /* said once */
        return;
    }
    while (R.argv[n])
        n++;
    v = malloc((size_t)(n + 2) * sizeof *v);
    if (!v)
        return;
    v[0] = R.argv[0];
    v[1] = "--wtc-replicate=off";
    memcpy(v + 2, R.argv + 1, (size_t)n * sizeof *v); /* with the closing NULL */
    fprintf(stderr, "wtc predict: note: %s: recording again without replication\n", why);
    restore_stdout();
    fflush(NULL);
    setenv(SIM_REPL_ENV, buf, 1);
    /* the program may have changed directory: its relative paths (its own chdir, its
       input files, the options' files) are the start directory's */
    if (R.start_dir >= 0 && fchdir(R.start_dir) != 0)
        fprintf(stderr, "wtc predict: warning: cannot go back to the start directory (%s)\n",
                strerror(errno));
    execv("/proc/self/exe", v);
    fprintf(stderr, "wtc predict: warning: cannot run again (%s): the replicas stay\n",
            strerror(errno));
    unsetenv(SIM_REPL_ENV);
    free(v);
}

/* --wtc-depth=LIST, each depth but the deepest recorded by a run of its own
   (record_apart): "DEPTH PATH" in a recording for another predictor. */
#define SIM_APART_ENV "WTC_PREDICT_APART"

/* The recording apart of depth d in R.ap, NULL if there is none. */
static sim_tree *apart_of(int d)
{
    for (int k = 0; k < R.ap.n; k++)
        if (R.ap.depth[k] == d)
            return &R.ap.tree[k];
    return NULL;
}

/* Frees the recordings apart. */
static void aparts_free(void)
{
    for (int k = 0; k < R.ap.n; k++)
        sim_profile_tree_free(&R.ap.tree[k]);
    R.ap.n = 0;
}

/* Runs the predictor again with SIM_APART_ENV = "d path": it records the program cut at
   depth d and writes the profile there (its output and its errors to /dev/null and to
   errpath). 0 when it did, else -1 (errpath holds what it said). */
static pid_t apart_pid;          /* the run of record_apart under way (0: none) */
static const char *apart_dir;   /* its directory, removed on a signal */

/* Removes every file of the directory of the runs apart, then the directory. */
static void apart_rmdir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[4400];
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* A signal that ends the predictor during the runs apart: the run and its files go too. */
static void apart_signal(int sig)
{
    if (apart_pid > 0)
        kill(apart_pid, SIGKILL), waitpid(apart_pid, NULL, 0);
    if (apart_dir)
        apart_rmdir(apart_dir);
    signal(sig, SIG_DFL);
    raise(sig);
}

static int run_apart(int d, const char *path, const char *errpath, char *why, size_t whysz)
{
    char env[4300];
    int status;
    pid_t pid, parent = getpid();
    struct sigaction dfl = { .sa_handler = SIG_DFL }, old;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGCHLD, &dfl, &old); /* inherited SIG_IGN would reap it before waitpid */
    fflush(NULL);
    if ((pid = fork()) < 0) {
        snprintf(why, whysz, "fork: %s", strerror(errno));
        sigaction(SIGCHLD, &old, NULL);
        return -1;
    }
    if (pid == 0) {
        int out, err;
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* not left running when the predictor dies */
        if (getppid() != parent)
            _exit(127);
        signal(SIGINT, SIG_DFL), signal(SIGTERM, SIG_DFL), signal(SIGHUP, SIG_DFL);
        out = open("/dev/null", O_WRONLY);
        err = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
            _exit(127);
        snprintf(env, sizeof env, "%d %s", d, path);
        setenv(SIM_APART_ENV, env, 1);
        unsetenv("WTC_DECISIONS"); /* the report's, not the recordings' */
        if (R.start_dir >= 0 && fchdir(R.start_dir) != 0)
            _exit(127);
        execv("/proc/self/exe", R.argv);
        _exit(127);
    }
    apart_pid = pid;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) {
            snprintf(why, whysz, "waitpid: %s", strerror(errno));
            apart_pid = 0;
            sigaction(SIGCHLD, &old, NULL);
            return -1;
        }
    apart_pid = 0;
    sigaction(SIGCHLD, &old, NULL);
    if (WIFSIGNALED(status))
        snprintf(why, whysz, "it was killed by signal %d, %s", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
        snprintf(why, whysz, "it ended with status %d", WEXITSTATUS(status));
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Says that depth d could not be recorded by a run of its own and why (why: the last
   line of the file errpath when why is NULL). */
static void apart_failed(int d, int deepest, const char *why, const char *errpath)
{
    char line[512] = "", buf[512];
    FILE *f = errpath ? fopen(errpath, "r") : NULL;
    while (f && fgets(buf, sizeof buf, f))
        if (buf[0] != '\n')
            strcpy(line, buf);
    if (f)
        fclose(f);
    line[strcspn(line, "\n")] = 0;
    if (why && (!errpath || !line[0]))
        snprintf(line, sizeof line, "%s", why);
    fprintf(stderr, "wtc predict: warning: --wtc-depth=%d could not be recorded by a run of "
                    "its own%s%s%s; it is cut from the recording to depth %d, whose recording "
                    "costs make its leaf tasks slower\n",
            d, line[0] ? " (" : "", line, line[0] ? ")" : "", deepest);
}

/* --wtc-depth=LIST: recording the program to its deepest depth D times every call above
   D, and that costs time a leaf task of a shallower cut-off then carries (fib 32 to
   depth 20: 3.1 M calls recorded, 0.046 s of sequential time against 0.0065 s run; its
   depth-2 rows came out 7 times too slow, n-queens 13's 1.3 times). So every shallower
   depth is recorded by a run of its own, the predictor run again with that depth alone;
   the deepest is this process's own recording. Not where the program's standard input
   cannot be read again from its start (a pipe, a file read from elsewhere than its
   start): then they are cut from the deepest, as before, with a note. */
static void record_apart(void)
{
    char dir[4096], path[4200], errpath[4200];
    const char *tmp = getenv("TMPDIR");
    sim_sampling smp;
    sim_aparts none;
    int deepest = -1, todo = 0, rd;
    for (int i = 0; i < R.opt.ndepth; i++)
        if (R.opt.depth[i] > deepest)
            deepest = R.opt.depth[i];
    for (int i = 0; i < R.opt.ndepth; i++)
        todo += R.opt.depth[i] < deepest;
    if (todo == 0 || !R.argv)
        return;
    /* not a terminal: the runs' prompts go to files, and each run could be given
       another input, unseen (a helper's bug hunt) */
    if (stdin_rewind(0) < 0) {
        fprintf(stderr, "wtc predict: note: the program's standard input (a pipe, a "
                        "terminal, or one it closed) cannot be read again, so the depths "
                        "of --wtc-depth are all cut from the recording to depth %d, whose "
                        "recording costs make their leaf tasks slower (give a file as its "
                        "input)\n", deepest);
        return;
    }
    snprintf(dir, sizeof dir, "%s/wtc-depth-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "wtc predict: warning: cannot make a directory for the recordings "
                        "of --wtc-depth in %s (%s): they are cut from the recording to "
                        "depth %d\n", tmp && *tmp ? tmp : "/tmp", strerror(errno), deepest);
        return;
    }
    struct sigaction sa = { .sa_handler = apart_signal }, old[3];
    static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
    sigemptyset(&sa.sa_mask);
    apart_dir = dir;
    for (int j = 0; j < 3; j++) { /* a signal now removes the directory (not if ignored) */
        sigaction(sigs[j], NULL, &old[j]);
        if (old[j].sa_handler != SIG_IGN)
            sigaction(sigs[j], &sa, NULL);
    }
    for (int i = 0; i < R.opt.ndepth; i++) {
        int d = R.opt.depth[i];
        char err[1024], why[256] = "";
        int k = R.ap.n;
        if (d == deepest || apart_of(d))
            continue;
        snprintf(path, sizeof path, "%s/%d.prof", dir, d);
        snprintf(errpath, sizeof errpath, "%s/%d.err", dir, d);
        if (run_apart(d, path, errpath, why, sizeof why) < 0)
            apart_failed(d, deepest, why, errpath);
        else if (sim_profile_load(path, R.prog, &R.ap.tree[k], &smp, &rd, &none, err,
                                  sizeof err) < 0)
            apart_failed(d, deepest, err, NULL);
        else
            R.ap.depth[R.ap.n++] = d; /* none: its recording is of one depth */
        stdin_rewind(0); /* the next run reads it from there too */
    }
    apart_rmdir(dir); /* with what a run killed left (its profile's FILE.tmp.PID) */
    for (int j = 0; j < 3; j++)
        if (old[j].sa_handler != SIG_IGN)
            sigaction(sigs[j], &old[j], NULL);
    apart_dir = NULL;
}

/* The command line as given, strings and all, for a second recording: the program may
   change its arguments in place (strtok(argv[1], ",") cut "4,5" to "4" for the run
   again). NULL when memory is short (then there is no second recording). */
static char **copy_argv(int argc, char **argv)
{
    char **v = malloc((size_t)(argc + 1) * sizeof *v);
    for (int i = 0; v && i < argc; i++)
        if (!(v[i] = strdup(argv[i]))) {
            while (i > 0)
                free(v[--i]);
            free(v);
            v = NULL;
        }
    if (v)
        v[argc] = NULL;
    return v;
}

/* In a second recording (record_again): the first one's checks, for the report. */
static void replicas_differed_before(void)
{
    const char *s = getenv(SIM_REPL_ENV);
    if (!s)
        return;
    if (sscanf(s, "%ld %ld %lf %lf %lf", &R.smp.repl_checked, &R.smp.repl_unequal,
               &R.smp.repl_maxdiff, &R.smp.repl_main_after, &R.smp.repl_main_seq) != 5) {
        R.smp.repl_checked = R.smp.repl_unequal = 0;
        R.smp.repl_main_after = R.smp.repl_main_seq = 0;
    }
    unsetenv(SIM_REPL_ENV); /* the program itself does not see it */
}

static void region_end(int root)
{
    /* the rest is a chunk too where the region's captures outgrew the memory (a region
       that ends is not a chunk: the report blamed memory for every region after the
       first) */
    if (R.outgrew && R.nleaves > 0)
        R.smp.chunks++;
    R.outgrew = 0;
    flush_leaves();
    debug_dump("before", 0);
    fits_begin();
    fix_tainted();
    debug_dump("after", 0);
    warm_build();
    do_replicas();
    fits_end();
    debug_dump("copied", 1);
    if (R.smp.repl_unequal > 0 && !R.repl_asked)
        record_again(0, 0);
    int g = sim_tree_add_region(&R.tree, root, region_begin_bytes());
    R.tree.regions[g].mode = wtcrt_source_mode(R.prog, R.region_fn);
    R.tree.regions[g].masters = wtcrt_source_masters(R.prog, R.region_fn);
    R.in_region = 0;
    main_resume();
    wtcrt_region_unclaim();
}

/* wtc_share_max / wtc_share_min while recording: the program runs in one process, in
   the order of the sequential program, and the better value is stored (the prediction
   follows the pruning of that order, doc/predictor.md "Known limits"). */
/* No other processor sends bounds while recording. */
static int bounds_none;
int *wtc__bounds_in = &bounds_none;
int wtc__bounds_taken;

void wtc_share_poll(void)
{
}

void wtc_share(void *g, const void *v, const void *p)
{
    int slot = wtcrt_share_slot(R.prog, g);
    const wtc_shared *s = slot < 0 ? NULL : &R.prog->shared[slot];
    if (!s || !s->data != !p) {
        fprintf(stderr, "wtc predict: error: wtc_share_max/min on a variable wtcc did not "
                        "list as shared (or without the solution it listed)\n");
        sim_exit(2);
    }
    memcpy(g, v, s->size);
    if (s->data)
        memcpy(s->data, p, s->data_size);
}

void wtc_call(const wtc_fn *fn, void *args, void *ret)
{
    int root;
    if (!wtcrt_region_claim(may_record, NULL)) {
        fn->run_seq(args, ret);
        return;
    }
    region_begin(fn, args, 0);
    root = R.calls[R.ncalls - 1].node;
    wtc_ctx ctx = { 0, 0, 1, 0 };
    fn->run_par(ctx, args, ret);
    call_pop();
    region_end(root);
}

wtc_par *wtc_par_open(wtc_ctx ctx, int cond, const wtc_site *site)
{
    if (!R.in_region || R.ncalls == 0)
        return NULL;
    /* a frame even when cond is false: the spawns become leaf tasks */
    return frame_push(site, cond != 0, ctx.depth, 0);
}

struct wtc_fast wtc_fast; /* stays 0: every par comes to wtc_par_open */

wtc_par *wtc_par_next(wtc_ctx ctx)
{
    (void)ctx; /* a recording never runs a par inline (wtc_par_open above) */
    return WTC_INLINE;
}

wtc_par *wtc_region_open(const wtc_fn *first, const wtc_site *site)
{
    if (!wtcrt_region_claim(may_record, NULL))
        return NULL;
    region_begin(first, NULL, -1);
    return frame_push(site, 1, -1, 1);
}

void wtc_spawn(wtc_par *p, const wtc_fn *fn, const void *args, void *dest, int dest_kind,
               unsigned long dest_size)
{
    /* the arena takes what the MPI runtime's does: the arguments and the return value */
    size_t need = wtcrt_slot_bytes(fn);
    if (p->nch == p->capch || p->used + need > p->cap) {
        /* growing is timed and the new memory touched here, so that the spawns' cost
           is the measured growth plus spawn_cost each (wtc_par_close) */
        double t0 = wtcrt_now();
        if (p->nch == p->capch) {
            int old = p->capch;
            p->capch = p->capch ? 2 * p->capch : 16;
            p->ch = xrealloc(p->ch, (size_t)p->capch * sizeof *p->ch);
            memset(p->ch + old, 0, (size_t)(p->capch - old) * sizeof *p->ch);
        }
        if (p->used + need > p->cap) {
            size_t old = p->cap;
            p->cap = p->cap ? 2 * p->cap : 1024;
            while (p->used + need > p->cap)
                p->cap *= 2;
            p->arena = xrealloc(p->arena, p->cap);
            memset(p->arena + old, 0, p->cap - old);
        }
        p->grow_s += wtcrt_now() - t0;
    }
    memcpy(p->arena + p->used, args, fn->args_size);
    if (dest_size > WTCRT_DEST_MAX) {
        fprintf(stderr, "wtc predict: %s: a return value of %lu bytes\n", fn->name, dest_size);
        sim_exit(2);
    }
    p->ch[p->nch++] = (rec_child){ { fn, p->used, dest, (unsigned)dest_size, (short)dest_kind } };
    p->used += need;
}

void wtc_keep(wtc_par *p, const wtc_fn *fn, void *args, int b)
{
    if (wtcrt_keep_buf(&p->keep, fn, args, b) < 0) {
        fprintf(stderr, "wtc predict: out of memory copying an argument of %s\n", fn->name);
        sim_exit(2);
    }
}

/* Whether a leaf of fn with these counts writes an out: buffer its caller (or main)
   reads afterwards: then it must run, or the code after the par works on data nobody
   computed (mergesort's merges on unsorted halves run 3-4 times faster). */
static int writes_out(const wtc_fn *fn, const long *counts)
{
    for (int b = 0; b < fn->nbufs && b < 64; b++)
        if (fn->bufs[b].out && counts[b] > 0)
            return 1;
    return 0;
}

/* Leaves whose in: buffers hold this many bytes or more are probed (see fn_probe):
   copying smaller inputs is cheap next to any leaf worth sampling. */
#define SIM_PROBE_BYTES 16384
/* Leaves probed per function before deciding whether to capture. */
#define SIM_PROBE_LEAVES 4
/* Copying the inputs costs at least this fraction of running the leaf: run it in place.
   Such a leaf reads its inputs about once (points: 156 KB summed in 12 us, the copy
   takes 30 us), so sampling cannot save anything, and a leaf run on a copy in fresh
   memory ran 5-10 % slower than on the program's own data (points' predictions were
   13-17 % high). */
#define SIM_COPY_TOO_DEAR 0.5

/* The bytes of a leaf's in: buffers. */
static unsigned long in_bytes(const wtc_fn *fn, const long *counts)
{
    unsigned long n = 0;
    for (int b = 0; b < fn->nbufs && b < 64; b++)
        if (fn->bufs[b].in && counts[b] > 0)
            n += wtcrt_buf_bytes(fn, b, counts[b]);
    return n;
}

static fn_probe *probe_of(const wtc_fn *fn)
{
    for (int i = 0; i < R.nprobe; i++)
        if (R.probe[i].fn == fn)
            return &R.probe[i];
    if (R.nprobe == R.capprobe) {
        R.capprobe = R.capprobe ? 2 * R.capprobe : 8;
        R.probe = xrealloc(R.probe, (size_t)R.capprobe * sizeof *R.probe);
    }
    R.probe[R.nprobe] = (fn_probe){ fn, 0, 0, 0, 0 };
    return &R.probe[R.nprobe++];
}

/* How a leaf is timed: captured for sampling, or run in place (and why). */
enum { LEAF_CAPTURE, LEAF_IN_PLACE, LEAF_PROBE, LEAF_DEAR };

/* Decides how the leaf fn(args) with these counts is timed (section 2 of
   doc/predictor.md): out: buffers and --wtc-sample=all run in place; inputs larger
   than the capture memory, or dear to copy (probed), too; the rest is captured. */
static int leaf_way(const wtc_fn *fn, const long *counts, fn_probe **probe)
{
    unsigned long ib;
    *probe = NULL;
    if (R.opt.sample == SIM_SAMPLE_ALL || writes_out(fn, counts))
        return LEAF_IN_PLACE;
    ib = in_bytes(fn, counts);
    if (ib > R.cap_limit) /* one copy would exceed the capture memory */
        return LEAF_DEAR;
    if (ib < SIM_PROBE_BYTES)
        return LEAF_CAPTURE;
    *probe = probe_of(fn);
    if ((*probe)->in_place)
        return LEAF_DEAR;
    return (*probe)->n < SIM_PROBE_LEAVES ? LEAF_PROBE : LEAF_CAPTURE;
}

/* A probe: what would the copy of this leaf's inputs have cost, next to its run time
   t? After SIM_PROBE_LEAVES of them, the function's leaves are captured or not. */
static void probe_leaf(fn_probe *pr, const wtc_fn *fn, const void *args, double t)
{
    double c0 = wtcrt_now();
    free(capture(fn, args));
    pr->copy += wtcrt_now() - c0;
    pr->run += t;
    if (++pr->n < SIM_PROBE_LEAVES)
        return;
    pr->in_place = pr->copy >= SIM_COPY_TOO_DEAR * pr->run;
    if (pr->in_place)
        R.smp.dear += pr->n; /* the probes ran in place too */
    if (getenv("WTC_PREDICT_DEBUG"))
        fprintf(stderr, "probe %s: run %.3g s, copy %.3g s: %s\n", fn->name, pr->run,
                pr->copy, pr->in_place ? "in place" : "capture");
}

/* Runs leaf fn(args) in place as node 'node' and times it; 'way' says why. */
static void run_leaf_in_place(const wtc_fn *fn, void *args, void *ret, int node, int way,
                              fn_probe *pr)
{
    stamp t0 = stamp_now();
    double t;
    fn->run_seq(args, ret);
    t = stamp_since(t0);
    R.tree.nodes[node].t_after = t;
    R.smp.leaves++;
    R.smp.executed++;
    R.smp.total += t;
    if (way == LEAF_DEAR)
        R.smp.dear++;
    else if (way == LEAF_IN_PLACE && R.opt.sample != SIM_SAMPLE_ALL)
        R.smp.in_place++;
    else if (way == LEAF_PROBE)
        probe_leaf(pr, fn, args, t);
}

/* Runs (or captures) child i of par p, recorded as node 'node'; weight: how many
   calls it stands for; witness: the weight of the witness it runs inside, 0 if none. */
static void run_child(wtc_par *p, int i, int node, long weight, long witness)
{
    rec_child *c = &p->ch[i];
    const wtc_fn *fn = c->fn;
    void *args = p->arena + c->args_off;
    unsigned char retbuf[256];
    void *ret = fn->ret_size > sizeof retbuf ? xmalloc(fn->ret_size) : retbuf;
    long counts[64] = { 0 };
    sim_node *nd = &R.tree.nodes[node];
    int leaf = !p->cond || !fn->has_par, way = LEAF_IN_PLACE;
    fn_probe *pr = NULL;
    if (fn->nbufs)
        fn->counts(args, counts);
    nd->task_bytes = (unsigned)wtcrt_task_child_bytes(fn, counts);
    nd->result_bytes = (unsigned)wtcrt_result_child_bytes(fn, counts);
    nd->task_copied = (unsigned)wtcrt_task_child_copied(fn, counts);
    nd->result_copied = (unsigned)wtcrt_result_child_copied(fn, counts);
    nd->depth = p->depth + 1;
    nd->leaf = leaf;
    info(node)->fn = fn;
    info(node)->size = (double)nd->task_bytes + nd->result_bytes;
    if (leaf)
        way = leaf_way(fn, counts, &pr);
    if (leaf && way == LEAF_CAPTURE) {
        add_leaf(node, capture(fn, args));
        if (c->dest && c->dest_size)
            memset(c->dest, 0, c->dest_size); /* a result nobody computed reads 0 */
    } else if (leaf) {
        run_leaf_in_place(fn, args, ret, node, way, pr);
        wtcrt_kind_store(c->dest, c->dest_kind, c->dest_size, ret, fn->ret_kind, fn->ret_size);
    } else {
        wtc_ctx ctx = { p->depth + 1, 0, 1, 0 };
        call_push(node, weight, witness);
        fn->run_par(ctx, args, ret);
        call_pop();
        wtcrt_kind_store(c->dest, c->dest_kind, c->dest_size, ret, fn->ret_kind, fn->ret_size);
    }
    if (ret != retbuf)
        free(ret);
}

void wtc_par_close(wtc_par *p)
{
    call_rec *caller = &R.calls[R.ncalls - 1];
    int cnode = caller->node, first, rep;
    long weight = caller->weight;
    long witness = caller->witness; /* caller moves if R.calls grows */
    /* a call tainted before this par (a par of it replicated children) feeds this
       par's children with copies: each of them is measured on such data, whole */
    int fed = info(cnode)->taint != 0;
    double t_before = stamp_since(caller->seg);
    /* the spawns are the runtime's work, not the caller's: the simulator adds them
       where the real runtime spawns (sim_par.t_spawn) */
    double t_spawn = p->grow_s + p->nch * R.spawn_cost;
    int np;
    if (t_spawn > t_before)
        t_spawn = t_before;
    first = sim_tree_add_nodes(&R.tree, p->nch);
    np = sim_tree_add_par(&R.tree, cnode, t_before - t_spawn, first, p->nch, p->cond);
    R.tree.pars[np].t_spawn = t_spawn;
    R.tree.pars[np].site = site_index(p->site);
    R.tree.pars[np].depth = p->depth;
    rep = replicable(p, weight, witness);
    for (int i = 0; i < p->nch; i++) {
        if (fed) /* its inputs come from outputs replicas did not compute */
            info(first + i)->taint = 2;
        if (rep && !witness && (i == 1 || i == p->nch - 1)) {
            /* the witnesses: child 1 runs too (copying inside it unchecked), and in a
               wider par the last child, since two neighbours can agree by chance where
               the rest do not (a floorplan's candidates: children 0 and 1 within 15 %,
               the sequential time 22 % high); each is checked against child 0, and the
               replicas are filled from child 0 and child 1 (do_replicas) */
            run_child(p, i, first + i, weight * p->nch, weight * p->nch);
            repl_add(first, -1, first + i);
        } else if (rep && i > 0) {
            make_replica(p, i, first + i, first, witness ? -1 : first + 1);
        } else if (i == 0 && rep) {
            stamp t0 = stamp_now(); /* CPU time if disturbed: the choice must not depend on the load */
            run_child(p, 0, first, weight * p->nch, witness);
            rep = stamp_since(t0) >=
                  (witness ? SIM_REPLICATE_MIN_S / SIM_WITNESS_SCALE : SIM_REPLICATE_MIN_S);
            if (rep) /* the caller and every call above it read data replicas did not compute */
                for (int k = 0; k < R.ncalls; k++)
                    if (!info(R.calls[k].node)->taint)
                        info(R.calls[k].node)->taint = 1;
        } else {
            run_child(p, i, first + i, weight, witness);
        }
    }
    R.nframes--;
    if (p->region) {
        R.tree.nodes[cnode].t_after = 0;
        R.ncalls--;
        region_end(cnode);
    } else {
        R.calls[R.ncalls - 1].seg = stamp_now();
    }
}

/* ---- the program around it ------------------------------------------------------------ */

/* Restores the real stdout (the user's output went to /dev/null). */
/* Standard output (what it holds written out first) goes to /dev/null from here on. */
static void stdout_to_devnull(void)
{
    int devnull;
    fflush(stdout);
    if ((devnull = open("/dev/null", O_WRONLY)) >= 0) {
        dup2(devnull, 1);
        close(devnull);
    }
}

static void restore_stdout(void)
{
    struct stat st;
    fflush(stdout);
    if (R.saved_stdout >= 0) {
        /* a program that closes every descriptor above 2 closed our copy (or opened a
           file of its own under its number): the report has nowhere to go, say so */
        if (fstat(R.saved_stdout, &st) != 0 || st.st_dev != R.saved_id.st_dev ||
            st.st_ino != R.saved_id.st_ino) {
            R.stdout_lost = 1;
        } else {
            dup2(R.saved_stdout, 1);
            close(R.saved_stdout);
        }
        R.saved_stdout = -1;
    }
}

/* The trees cut at each --wtc-depth into *cuts (NULL without); -1 when t cannot give
   one (said on stderr). */
static int cut_trees(const sim_tree *t, int rec_depth, sim_tree **cuts)
{
    *cuts = NULL;
    if (R.opt.ndepth <= 0)
        return 0;
    *cuts = xmalloc((size_t)R.opt.ndepth * sizeof **cuts);
    for (int i = 0; i < R.opt.ndepth; i++)
        if (sim_tree_cut_depth(apart_of(R.opt.depth[i]) ? apart_of(R.opt.depth[i]) : t,
                               R.opt.depth[i], &(*cuts)[i]) < 0) {
            char rd[64] = "with the program's cond:";
            if (rec_depth >= 0)
                snprintf(rd, sizeof rd, "to depth %d", rec_depth);
            fprintf(stderr, "wtc predict: --wtc-depth=%d: the recording (%s) was cut above "
                    "that depth; record with --wtc-depth=%d or deeper\n", R.opt.depth[i], rd,
                    R.opt.depth[i]);
            while (--i >= 0)
                sim_tree_free(&(*cuts)[i]);
            free(*cuts);
            return -1;
        }
    return 0;
}

/* A stream of its own on standard output (fd 1) for the report: the program's stdout
   may be closed (fclose(stdout), a common check of its write errors), wide-oriented
   (wprintf: fprintf to it fails without an error flag) or otherwise changed, and the
   report must not depend on what the program did with it. NULL: said on stderr. */
static FILE *report_open(void)
{
    int fd;
    FILE *out;
    if (R.stdout_lost) {
        fprintf(stderr, "wtc predict: error: cannot write the report: the program closed "
                        "the predictor's copy of standard output (a descriptor it did not "
                        "open)\n");
        return NULL;
    }
    fd = dup(1);
    out = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!out) {
        fprintf(stderr, "wtc predict: error: cannot write the report: %s\n", strerror(errno));
        if (fd >= 0)
            close(fd);
    }
    return out;
}

/* What the simulation and the advice take from the program linked in, not from the
   recording (a profile does not hold them): how its job starts, how its mode was set. */
static void program_facts(sim_tree *t)
{
    t->calls_mpi = wtcrt_program_calls_mpi();
    t->nshared = R.prog->nshared;
    t->built_mode = R.prog->mode_override != WTC_MODE_DEFAULT;
}

/* Simulates and reports the recording t (and saves it with --wtc-save-profile).
   Returns 0, or -1 when the report or a file asked for could not be made (said on
   stderr). */
static int predict(sim_tree *t, const sim_sampling *smp, int rec_depth)
{
    sim_machine m = R.machine;
    char err[1024];
    sim_tree *cuts;
    sim_best *best = NULL;
    FILE *out;
    locale_t loc;
    int rc;
    if (!(out = report_open()))
        return -1;
    sim_sampling s = *smp;
    program_facts(t);
    for (int k = 0; k < R.ap.n; k++)
        program_facts(&R.ap.tree[k]);
    for (int i = 0; i < R.opt.ndepth; i++) { /* the report names those it uses */
        size_t n = strlen(s.apart);
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= R.opt.depth[j] == R.opt.depth[i];
        if (apart_of(R.opt.depth[i]) && !seen)
            snprintf(s.apart + n, sizeof s.apart - n, "%s%d", n ? ", " : "", R.opt.depth[i]);
    }
    smp = &s;
    if (cut_trees(t, rec_depth, &cuts) < 0) {
        fclose(out);
        return -1;
    }
    loc = wtcrt_locale_c(); /* numbers as the readers of the report and files parse them */
    if (R.opt.save_profile)
        best = xmalloc((size_t)R.opt.nprocs * sizeof *best);
    rc = sim_report(out, t, &m, &R.opt, smp, R.prog->source, cuts, best);
    if (fflush(out) != 0 || ferror(out)) {
        fprintf(stderr, "wtc predict: error: cannot write the report: %s\n", strerror(errno));
        rc = -1;
    }
    fclose(out);
    if (R.opt.save_profile &&
        sim_profile_save(R.opt.save_profile, R.prog, t, smp, rec_depth, &R.ap, best,
                         R.opt.nprocs,
                         &m, R.opt.machine, err, sizeof err) < 0) {
        fprintf(stderr, "wtc predict: %s\n", err);
        rc = -1;
    }
    wtcrt_locale_end(loc);
    for (int i = 0; cuts && i < R.opt.ndepth; i++)
        sim_tree_free(&cuts[i]);
    free(cuts);
    free(best);
    return rc;
}

/* --wtc-profile=FILE: predicts from a saved recording; the program does not run. */
static int predict_from_profile(void)
{
    char err[1024];
    sim_tree t;
    sim_sampling smp;
    int rec_depth, rc;
    if (sim_profile_load(R.opt.profile, R.prog, &t, &smp, &rec_depth, &R.ap, err,
                         sizeof err) < 0) {
        fprintf(stderr, "wtc predict: %s\n", err);
        return 2;
    }
    smp.rec_seconds = wtcrt_now() - R.t_start; /* the report says what it was */
    if (R.opt.ndepth == 0 && rec_depth >= 0) {
        /* recorded with --wtc-depth: the tree is the program cut at that depth, not under
           its own cond:, so it is predicted (and saved again, with its --wtc-auto table)
           at that depth; re-saving a profile dropped the depth from the table, and
           --wtc-auto then ran the source's cond: (a helper's bug hunt) */
        R.opt.depth[0] = rec_depth;
        R.opt.ndepth = 1;
    }
    rc = predict(&t, &smp, rec_depth);
    sim_profile_tree_free(&t);
    aparts_free();
    return rc < 0 ? 2 : 0;
}

/* A recording for another predictor (record_apart): its profile, no report. 0, or -1
   when it could not be written (said on stderr). */
static int save_apart(void)
{
    char err[1024];
    program_facts(&R.tree);
    if (sim_profile_save(R.apart_path, R.prog, &R.tree, &R.smp, wtc_cut_depth, NULL, NULL,
                         0, &R.machine, R.opt.machine, err, sizeof err) < 0) {
        fprintf(stderr, "wtc predict: %s\n", err);
        return -1;
    }
    return 0;
}

/* Restores stdout and writes the report there; -1 when it (or an output file asked for)
   could not be written. */
static int finish(void)
{
    if (R.reported)
        return 0;
    R.reported = 1;
    main_pause();
    restore_stdout();
    if (R.in_region)
        fprintf(stderr, "wtc predict: the program exited inside a parallel region; "
                        "that region is not predicted\n");
    R.smp.mode = R.opt.sample;
    R.smp.n = R.opt.sample_n;
    R.smp.pct = R.opt.error_pct;
    sim_tree_finish(&R.tree);
    R.smp.replicate = R.opt.replicate;
    R.smp.rec_seconds = wtcrt_now() - R.t_start;
    double after, seq;
    if (R.smp.repl_subtrees > 0 && !R.repl_asked && sim_tree_main_after(&R.tree, &after, &seq))
        record_again(after, seq); /* returns only when it cannot (standard input) */
    if (R.apart_path)
        return save_apart();
    /* after this recording, which may have run the predictor again without replication
       (record_again): the runs apart then were made twice, and replicated */
    record_apart();
    int rc = predict(&R.tree, &R.smp, wtc_cut_depth);
    aparts_free();
    /* what the program prints after this (its atexit handlers) is not the report: to
       /dev/null again (it ended the report's JSON, a helper's bug hunt) */
    stdout_to_devnull();
    return rc;
}

/* A program that ended with status N (returned it, or called exit) is predicted as
   it ran, and a note says so: where leaves were captured or replicated, their results
   were left unwritten and a self-check may have stopped the run early; where none was, N is the
   program's own (a usage error ended it before its work: 'recorded: 0 parallel
   regions', predicted with status 0 and no word, a helper's bug hunt). */
static void note_status(int exited, int status)
{
    char how[48];
    if (status == 0)
        return;
    snprintf(how, sizeof how, exited ? "called exit(%d)" : "returned %d", status);
    /* a leaf captured (not run in place) or replicated returned 0 and wrote no out:
       buffer, whether or not it was then run from its capture for its time: a self-check
       fails (every sample's did, and was said to have "ended so", 2026-12-03) */
    long unwritten = R.smp.leaves - R.smp.in_place - R.smp.dear + R.smp.repl_leaves;
    if (R.opt.sample != SIM_SAMPLE_ALL && unwritten > 0)
        fprintf(stderr, "wtc predict: note: the program %s, as a self-check does when "
                        "recorded: leaf tasks not run in place return 0 and write no out: "
                        "buffer; if it stopped early, predict with --wtc-sample=all\n",
                how);
    else
        fprintf(stderr, "wtc predict: note: the program %s: the prediction is of the run "
                        "that ended so\n", how);
}

/* The program called exit(N): the report is still written (and its failure shows,
   status 2); written, the predictor ends with status 0 as after main's return (it
   ended with N: a script saw the predictor fail where the program's self-check had, on
   tasks sampling left unwritten), N said in a note as a return's is. */
int sim_exiting; /* sim.h: the predictor's own exit (an error): its status stays */

static void at_exit(int status, void *arg)
{
    (void)arg;
    if (!R.started || R.reported || forked())
        return;
    if (finish() < 0) {
        fflush(NULL);
        _exit(2);
    }
    if (sim_exiting)
        return;
    note_status(1, status);
    fflush(NULL);
    _exit(0);
}

/* WTC_DECISIONS=FILE: checked before the run, so that a path that cannot be written
   does not waste it (sim/report.c writes it). 0, or -1 with a message printed. */
static int decisions_check(const char *prog)
{
    const char *path = getenv("WTC_DECISIONS");
    int existed;
    FILE *f;
    if (!path || !*path)
        return 0;
    existed = access(path, F_OK) == 0;
    if (!(f = fopen(path, "a"))) {
        fprintf(stderr, "%s: error: WTC_DECISIONS=%s: cannot write it: %s\n", prog, path,
                strerror(errno));
        return -1;
    }
    fclose(f);
    if (!existed)
        remove(path);
    /* sim/report.c opens it after the run, which may chdir(): the start directory's */
    setenv("WTC_DECISIONS", wtcrt_path_from_start(path), 1);
    return 0;
}

typedef struct main_call {
    int argc;
    char **argv;
    int rc;
} main_call;

static void *main_thread(void *p)
{
    main_call *c = p;
    c->rc = R.prog->user_main(c->argc, c->argv);
    if (forked()) /* a child returned from main: the status is main's, as in C */
        exit(c->rc);
    return NULL;
}

/* Recording adds frames to every level of the user's recursion, so main runs on a
   thread with a 1 GiB stack (reserved, not committed): a tree 10,000 levels deep that
   fits the default stack as plain C must fit here too. */
static int run_user_main(int argc, char **argv)
{
    pthread_attr_t a;
    pthread_t t;
    main_call c = {argc, argv, 0};
    if (pthread_attr_init(&a) != 0)
        return R.prog->user_main(argc, argv);
    if (pthread_attr_setstacksize(&a, (size_t)1 << 30) != 0 ||
        pthread_create(&t, &a, main_thread, &c) != 0) {
        pthread_attr_destroy(&a);
        return R.prog->user_main(argc, argv);
    }
    pthread_join(t, NULL);
    pthread_attr_destroy(&a);
    return c.rc;
}

/* Measures what one wtc_spawn costs into a frame that has grown already: 4096 spawns
   of 16-byte arguments, the fastest of two passes after a first that grows it. */
static void measure_spawn_cost(void)
{
    static const wtc_fn dummy = { .name = "spawn", .args_size = 16 };
    unsigned char args[16] = { 0 };
    wtc_par *p = frame_push(NULL, 1, 0, 0);
    double best = 0;
    for (int rep = 0; rep < 3; rep++) {
        double t0;
        p->nch = 0;
        p->used = 0;
        t0 = wtcrt_now();
        for (int i = 0; i < 4096; i++)
            wtc_spawn(p, &dummy, args, NULL, 0, 0);
        t0 = (wtcrt_now() - t0) / 4096;
        if (rep == 1 || (rep > 1 && t0 < best))
            best = t0;
    }
    p->nch = 0;
    p->used = 0;
    R.nframes--;
    R.spawn_cost = best;
}

/* The recorder's state before anything runs: clocks, costs, seed, memory limit. */
static void record_init(const wtc_program *prog)
{
    R.prog = prog;
    for (int k = 0; k < prog->nshared; k++) {
        size_t n = strlen(R.smp.shared);
        snprintf(R.smp.shared + n, sizeof R.smp.shared - n, "%s%s", k ? ", " : "",
                 prog->shared[k].name);
    }
    R.saved_stdout = -1;
    R.start_dir = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    memset(&R.stdin_id, 0, sizeof R.stdin_id);
    R.stdin_at = fstat(0, &R.stdin_id) == 0 && S_ISREG(R.stdin_id.st_mode)
                     ? lseek(0, 0, SEEK_CUR) : -1;
    R.pid = getpid();
    R.t_start = wtcrt_now();
    measure_timer_cost();
    measure_spawn_cost();
    sim_tree_init(&R.tree);
}

/* The number in environment variable name, unset or empty: def; a decimal number, or
   with hex a 0x and hex digits, from 1 (0 with zero) to max, else -1 with a message. A
   seed of 010 was octal 8, 'abc' 0, a memory limit of '1e9' 1 MB, and 17592186044416
   MB (2^44) shifted to 0 bytes, a chunk per leaf task: all silently (a helper's bug
   hunt). */
static int env_number(const char *argv0, const char *name, int hex, int zero,
                      unsigned long long max, unsigned long long def, unsigned long long *v)
{
    const char *s = getenv(name), *d;
    char *end;
    int base = 10;
    *v = def;
    if (!s || !*s)
        return 0;
    d = s;
    if (hex && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        d = s + 2, base = 16;
    errno = 0;
    *v = strtoull(d, &end, base);
    if (!(base == 16 ? isxdigit((unsigned char)*d) : isdigit((unsigned char)*d)) || *end ||
        errno || *v > max || (*v == 0 && !zero)) {
        fprintf(stderr, "%s: error: %s=%s: expected %s from %d to %llu\n", argv0, name, s,
                hex ? "a decimal number or 0x and hex digits" : "a decimal number", !zero,
                max);
        return -1;
    }
    return 0;
}

/* No two outputs are one file, and no output is a file the prediction reads (the
   machine file; the profile, which --wtc-save-profile may write again: it is read
   first): --wtc-trace=F --wtc-plot=F kept the plot alone, --wtc-trace=P.prof
   --wtc-profile=P.prof replaced the profile by a trace, with status 0 (a helper's bug
   hunt). 0, or -1 when said. */
static int one_file_twice(const char *argv0)
{
    static const char *const name[] = { "--wtc-trace", "--wtc-plot", "--wtc-save-profile",
                                        "WTC_DECISIONS", "--wtc-profile", "--wtc-machine" };
    const char *dec = getenv("WTC_DECISIONS");
    const char *path[6] = { R.opt.trace, R.opt.plot, R.opt.save_profile,
                            dec && *dec ? dec : NULL, R.opt.profile,
                            strncmp(R.machine.source, "built-in preset ", 16) != 0
                                ? R.machine.source : NULL };
    for (int i = 0; i < 4; i++) /* an output against every later name */
        for (int j = i + 1; j < 6; j++)
            if (path[i] && path[j] && !(i == 2 && j == 4) && wtcrt_same_file(path[i], path[j])) {
                fprintf(stderr, "%s: error: %s=%s and %s=%s name one file: %s\n", argv0,
                        name[i], path[i], name[j], path[j],
                        j < 4 ? "one output would replace the other"
                              : "the output would replace what the prediction reads");
                return -1;
            }
    return 0;
}

/* What can fail is checked before the program runs: the environment's numbers, the
   machine file (read here, into R.machine), WTC_DECISIONS, and the files asked for (as
   the program checks its trace). 0, or -1 when said. */
static int check_before_run(const char *argv0)
{
    char err[1024];
    unsigned long long mb;
    if (env_number(argv0, "WTC_PREDICT_SEED", 1, 1, ULLONG_MAX, 0x5eed, &R.seed) < 0 ||
        env_number(argv0, "WTC_PREDICT_MEM_MB", 0, 0, SIZE_MAX >> 20, 1024, &mb) < 0)
        return -1;
    R.cap_limit = (size_t)mb << 20;
    if (sim_machine_find(R.opt.machine, &R.machine, err, sizeof err) < 0) {
        fprintf(stderr, "%s: error: %s\n", argv0, err);
        return -1;
    }
    if (decisions_check(argv0) < 0)
        return -1;
    for (int i = 0; i < 3; i++) { /* before the program runs: a bad path wastes nothing */
        static const char *const name[] = { "--wtc-trace", "--wtc-plot",
                                            "--wtc-save-profile" };
        const char *path = i == 0 ? R.opt.trace : i == 1 ? R.opt.plot : R.opt.save_profile;
        if (path && wtcrt_check_writable(path) < 0) {
            fprintf(stderr, "%s: error: %s=%s: cannot write it: %s\n", argv0, name[i], path,
                    strerror(errno));
            return -1;
        }
    }
    return one_file_twice(argv0);
}

/* The program's standard output goes to /dev/null while it is recorded (the report
   goes to R.saved_stdout). */
static void silence_stdout(void)
{
    fflush(stdout);
    R.saved_stdout = dup(1);
    if (R.saved_stdout >= 0 && fstat(R.saved_stdout, &R.saved_id) == 0)
        stdout_to_devnull();
}

/* In a recording for another predictor (record_apart; SIM_APART_ENV is "DEPTH PATH"):
   that depth alone, its profile to PATH, nothing else written. 0, or -1 when said. */
static int apart_child(void)
{
    const char *e = getenv(SIM_APART_ENV);
    int d, n = 0;
    if (!e)
        return 0;
    if (sscanf(e, "%d %n", &d, &n) != 1 || n == 0 || d < 0 || !e[n]) {
        fprintf(stderr, "wtc predict: error: %s=%s: not a depth and a path\n", SIM_APART_ENV,
                e);
        return -1;
    }
    R.apart_path = e + n;
    R.opt.depth[0] = d;
    R.opt.ndepth = 1;
    R.opt.trace = R.opt.plot = R.opt.save_profile = NULL;
    R.opt.stats = 0;
    R.opt.nvary = 0;
    return 0;
}

/* prog.predict's start (the ABI's entry): options and checks, the recorded run of the
   program with its output silenced, then the report (finish). */
int wtc_start(int argc, char **argv, const wtc_program *prog)
{
    char err[1024];
    int rc;
    record_init(prog);
    if (prog->abi_version != WTC_ABI_VERSION) {
        fprintf(stderr, "wtc predict: program built for ABI %d, runtime is ABI %d\n",
                prog->abi_version, WTC_ABI_VERSION);
        return 2;
    }
    wtcrt_checking = prog->check;
    R.argv = copy_argv(argc, argv);
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        R.repl_asked |= strncmp(argv[i], "--wtc-replicate", 15) == 0;
    R.repl_asked |= !R.argv; /* cannot run again */
    replicas_differed_before();
    if (sim_opts_parse(&argc, argv, &R.opt, err, sizeof err) < 0) {
        fprintf(stderr, "%s: error: %s (--wtc-help for usage)\n", argv[0], err);
        return 2;
    }
    if (R.opt.sample == SIM_SAMPLE_ALL) /* every task runs: nothing is replicated */
        R.opt.replicate = 0;
    if (R.opt.help) {
        fputs(sim_usage, stdout);
        return 0;
    }
    sim_set_runs(R.opt.runs);
    if (apart_child() < 0)
        return 2;
    if (check_before_run(argv[0]) < 0)
        return 2;
    if (R.opt.profile)
        return predict_from_profile();
    /* --wtc-depth=LIST: recorded to the deepest, the others are cut from it (cut.c) */
    for (int i = 0; i < R.opt.ndepth; i++)
        if (R.opt.depth[i] > wtc_cut_depth)
            wtc_cut_depth = R.opt.depth[i];
    silence_stdout();
    on_exit(at_exit, NULL);
    R.started = 1;
    main_resume();
    rc = run_user_main(argc, argv);
    if (forked())
        return rc;
    note_status(0, rc);
    return finish() < 0 ? 2 : 0;
}
