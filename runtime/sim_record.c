/* sim_record.c - the predictor runtime's side of wtc_abi.h: prog.predict runs the
 * program on one processor, records the recursion above the cut-off (sim_tree.c),
 * samples the leaf tasks, then simulates and reports (sim_report.c).
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
 * from the captures and timed, and the other leaves are interpolated (sim_sample.c).
 * Knowing every leaf before choosing means the sample is spread evenly over the whole
 * allocation order and can grow until the bootstrap is satisfied. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "wtcrt.h"
#include "sim.h"

/* One deferred spawn of a par frame. */
typedef struct rec_child {
    const wtc_fn *fn;
    size_t args_off;
    void *dest;
    int dest_kind;
    unsigned long dest_size;
} rec_child;

struct wtc_par {
    int cond;
    int depth;          /* wtc_depth of the call executing the par */
    int region;         /* opened by wtc_region_open: its close ends the region */
    rec_child *ch;
    int nch, capch;
    unsigned char *arena;
    size_t used, cap;
};

/* A captured leaf: fn, counts[nbufs], args, in: buffers (each 16-byte aligned). */
typedef struct leaf_cap {
    const wtc_fn *fn;
    size_t size;
    long counts[];
} leaf_cap;

typedef struct call_rec {
    int node;
    double seg;         /* start of the current compute segment */
} call_rec;

static struct {
    const wtc_program *prog;
    sim_opts opt;
    sim_tree tree;
    sim_sampling smp;
    int in_region, started, reported;
    double mark;        /* start of main's current segment */
    call_rec *calls;
    int ncalls, capcalls;
    wtc_par **frames;
    int nframes, capframes;
    /* leaves of the current chunk, in allocation order */
    int *leaf_node;
    leaf_cap **leaf_cap;
    long nleaves, capleaves;
    size_t captured, cap_limit;
    int saved_stdout;
    unsigned long long seed;
} R;

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "wtc predict: out of memory\n");
        exit(2);
    }
    return p;
}

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) {
        fprintf(stderr, "wtc predict: out of memory\n");
        exit(2);
    }
    return p;
}

static size_t align16(size_t n)
{
    return (n + 15) & ~(size_t)15;
}

/* ---- leaf capture and sampling ------------------------------------------------------ */

/* Copies what a remote callee would receive: the args and the in: buffers. */
static leaf_cap *capture(const wtc_fn *fn, const void *args)
{
    long counts[64] = { 0 };
    size_t head = align16(sizeof(leaf_cap) + (size_t)fn->nbufs * sizeof(long));
    size_t size = head + align16(fn->args_size);
    int nb = fn->nbufs < 64 ? fn->nbufs : 64;
    if (nb)
        fn->counts(args, counts);
    for (int b = 0; b < nb; b++)
        if (fn->bufs[b].in)
            size += align16(wtcrt_buf_bytes(fn, b, counts[b]));
    leaf_cap *c = xmalloc(size);
    unsigned char *p = (unsigned char *)c + head;
    c->fn = fn;
    c->size = size;
    memcpy(p, args, fn->args_size);
    p += align16(fn->args_size);
    for (int b = 0; b < nb; b++) {
        c->counts[b] = counts[b];
        if (fn->bufs[b].in && counts[b] > 0) {
            size_t n = wtcrt_buf_bytes(fn, b, counts[b]);
            memcpy(p, wtcrt_buf_ptr(fn, args, b), n);
            p += align16(n);
        }
    }
    return c;
}

/* Runs a captured leaf as a remote callee would, on the captured copies; returns its
   time in seconds. */
static double run_capture(leaf_cap *c)
{
    static long long dummy[2];
    const wtc_fn *fn = c->fn;
    size_t head = align16(sizeof(leaf_cap) + (size_t)fn->nbufs * sizeof(long));
    unsigned char *args = (unsigned char *)c + head, *p = args + align16(fn->args_size);
    void *outs[64] = { 0 };
    unsigned char retbuf[256];
    void *ret = fn->ret_size > sizeof retbuf ? xmalloc(fn->ret_size) : retbuf;
    int nb = fn->nbufs < 64 ? fn->nbufs : 64;
    double t0, t1;
    for (int b = 0; b < nb; b++) {
        size_t n = wtcrt_buf_bytes(fn, b, c->counts[b]);
        if (fn->bufs[b].in && n) {
            wtcrt_buf_set(fn, args, b, p);
            p += align16(n);
        } else if (n) {
            outs[b] = calloc(1, n);
            wtcrt_buf_set(fn, args, b, outs[b] ? outs[b] : (void *)dummy);
        } else {
            wtcrt_buf_set(fn, args, b, dummy);
        }
    }
    t0 = wtcrt_now();
    fn->run_seq(args, ret);
    t1 = wtcrt_now();
    for (int b = 0; b < nb; b++)
        free(outs[b]);
    if (ret != retbuf)
        free(ret);
    return t1 - t0;
}

/* Runs leaf i of the chunk (once) and stores its time. */
static void run_leaf(long i, double *t, unsigned char *have, double *x, long *nx)
{
    if (have[i])
        return;
    t[i] = run_capture(R.leaf_cap[i]);
    free(R.leaf_cap[i]);
    R.leaf_cap[i] = NULL;
    have[i] = 1;
    x[(*nx)++] = t[i];
}

/* Chooses and runs the sample of the current chunk (SPEC 5 item 2), interpolates the
   rest, writes every leaf's time into the tree and frees the captures. */
static void flush_leaves(void)
{
    long L = R.nleaves, nx = 0, n;
    double *t, *x, total = 0;
    unsigned char *have;
    sim_boot b = { 0, 0, 0 };
    if (L == 0)
        return;
    t = xmalloc((size_t)L * sizeof *t);
    x = xmalloc((size_t)L * sizeof *x);
    have = calloc((size_t)L, 1);
    if (!have)
        exit(2);
    n = R.opt.sample == SIM_SAMPLE_N ? (R.opt.sample_n < L ? R.opt.sample_n : L)
                                     : (L < 32 ? L : 32);
    for (;;) {
        for (long i = 0; i < n; i++)
            run_leaf(sim_spread(i, n, L), t, have, x, &nx);
        run_leaf(L - 1, t, have, x, &nx); /* the last one bounds the interpolation */
        b = sim_bootstrap(x, (int)nx, &R.seed);
        if (R.opt.sample != SIM_SAMPLE_ERROR || nx >= L ||
            (fabs(b.lo) * 100 <= R.opt.error_pct && fabs(b.hi) * 100 <= R.opt.error_pct))
            break;
        n = 2 * n < L ? 2 * n : L;
    }
    if (nx >= L)
        b.lo = b.hi = 0;
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
    R.smp.chunks++;
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
    if (R.captured > R.cap_limit)
        flush_leaves();
}

/* ---- calls and par frames ----------------------------------------------------------- */

static void call_push(int node)
{
    if (R.ncalls == R.capcalls) {
        R.capcalls = R.capcalls ? 2 * R.capcalls : 64;
        R.calls = xrealloc(R.calls, (size_t)R.capcalls * sizeof *R.calls);
    }
    R.calls[R.ncalls].node = node;
    R.calls[R.ncalls++].seg = wtcrt_now();
}

/* Ends the call on top: its last segment is its time after its last par. */
static void call_pop(void)
{
    call_rec *c = &R.calls[--R.ncalls];
    R.tree.nodes[c->node].t_after = wtcrt_now() - c->seg;
}

static wtc_par *frame_push(int cond, int depth, int region)
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
    p->cond = cond;
    p->depth = depth;
    p->region = region;
    p->nch = 0;
    p->used = 0;
    return p;
}

static void region_begin(const wtc_fn *root_fn, int depth)
{
    double now = wtcrt_now();
    int node;
    R.tree.main_time += now - R.mark;
    R.in_region = 1;
    node = sim_tree_add_nodes(&R.tree, 1);
    R.tree.nodes[node].depth = depth;
    (void)root_fn;
    call_push(node);
}

/* The REGION_BEGIN payload: mode, masters, batch and the global snapshot. */
static unsigned region_begin_bytes(void)
{
    unsigned long n = 12;
    for (int g = 0; g < R.prog->nglobals; g++)
        n += R.prog->globals[g].size;
    return (unsigned)n;
}

static void region_end(int root)
{
    flush_leaves();
    sim_tree_add_region(&R.tree, root, region_begin_bytes());
    R.in_region = 0;
    R.mark = wtcrt_now();
}

void wtc_call(const wtc_fn *fn, void *args, void *ret)
{
    int root;
    if (R.in_region || !R.started) {
        fn->run_seq(args, ret);
        return;
    }
    region_begin(fn, 0);
    root = R.calls[R.ncalls - 1].node;
    wtc_ctx ctx = { 0, 0, 1, 0 };
    fn->run_par(ctx, args, ret);
    call_pop();
    region_end(root);
}

wtc_par *wtc_par_open(wtc_ctx ctx, int cond)
{
    if (!R.in_region || R.ncalls == 0)
        return NULL;
    /* a frame even when cond is false: the spawns become leaf tasks */
    return frame_push(cond != 0, ctx.depth, 0);
}

wtc_par *wtc_region_open(const wtc_fn *first)
{
    if (R.in_region || !R.started)
        return NULL;
    region_begin(first, -1);
    return frame_push(1, -1, 1);
}

void wtc_spawn(wtc_par *p, const wtc_fn *fn, const void *args, void *dest, int dest_kind,
               unsigned long dest_size)
{
    size_t need = align16(fn->args_size);
    if (p->nch == p->capch) {
        p->capch = p->capch ? 2 * p->capch : 16;
        p->ch = xrealloc(p->ch, (size_t)p->capch * sizeof *p->ch);
    }
    if (p->used + need > p->cap) {
        p->cap = p->cap ? 2 * p->cap : 1024;
        while (p->used + need > p->cap)
            p->cap *= 2;
        p->arena = xrealloc(p->arena, p->cap);
    }
    memcpy(p->arena + p->used, args, fn->args_size);
    p->ch[p->nch++] = (rec_child){ fn, p->used, dest, dest_kind, dest_size };
    p->used += need;
}

/* Runs (or captures) child i of par p, recorded as node 'node'. */
static void run_child(wtc_par *p, int i, int node)
{
    rec_child *c = &p->ch[i];
    const wtc_fn *fn = c->fn;
    void *args = p->arena + c->args_off;
    unsigned char retbuf[256];
    void *ret = fn->ret_size > sizeof retbuf ? xmalloc(fn->ret_size) : retbuf;
    long counts[64] = { 0 };
    sim_node *nd = &R.tree.nodes[node];
    int leaf = !p->cond || !fn->has_par;
    if (fn->nbufs)
        fn->counts(args, counts);
    nd->task_bytes = (unsigned)wtcrt_task_child_bytes(fn, counts);
    nd->result_bytes = (unsigned)wtcrt_result_child_bytes(fn, counts);
    nd->depth = p->depth + 1;
    nd->leaf = leaf;
    if (leaf && R.opt.sample != SIM_SAMPLE_ALL) {
        add_leaf(node, capture(fn, args));
        if (c->dest && c->dest_size)
            memset(c->dest, 0, c->dest_size); /* a result nobody computed reads 0 */
    } else if (leaf) {
        double t0 = wtcrt_now();
        fn->run_seq(args, ret);
        R.tree.nodes[node].t_after = wtcrt_now() - t0;
        R.smp.leaves++;
        R.smp.executed++;
        R.smp.total += R.tree.nodes[node].t_after;
        wtcrt_kind_store(c->dest, c->dest_kind, c->dest_size, ret, fn->ret_kind, fn->ret_size);
    } else {
        wtc_ctx ctx = { p->depth + 1, 0, 1, 0 };
        call_push(node);
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
    int cnode = caller->node, first;
    double t_before = wtcrt_now() - caller->seg;
    first = sim_tree_add_nodes(&R.tree, p->nch);
    sim_tree_add_par(&R.tree, cnode, t_before, first, p->nch, p->cond);
    for (int i = 0; i < p->nch; i++)
        run_child(p, i, first + i);
    R.nframes--;
    if (p->region) {
        R.tree.nodes[cnode].t_after = 0;
        R.ncalls--;
        region_end(cnode);
    } else {
        R.calls[R.ncalls - 1].seg = wtcrt_now();
    }
}

/* ---- the program around it ------------------------------------------------------------ */

/* Restores the real stdout (the user's output went to /dev/null). */
static void restore_stdout(void)
{
    fflush(stdout);
    if (R.saved_stdout >= 0) {
        dup2(R.saved_stdout, 1);
        close(R.saved_stdout);
        R.saved_stdout = -1;
    }
}

static void finish(void)
{
    sim_machine m;
    char err[1024];
    if (R.reported)
        return;
    R.reported = 1;
    R.tree.main_time += wtcrt_now() - R.mark;
    restore_stdout();
    if (R.in_region)
        fprintf(stderr, "wtc predict: the program exited inside a parallel region; "
                        "that region is not predicted\n");
    if (sim_machine_find(R.opt.machine, &m, err, sizeof err) < 0) {
        fprintf(stderr, "wtc predict: %s\n", err);
        return;
    }
    R.smp.mode = R.opt.sample;
    R.smp.n = R.opt.sample_n;
    R.smp.pct = R.opt.error_pct;
    sim_tree_finish(&R.tree);
    sim_report(stdout, &R.tree, &m, &R.opt, &R.smp, R.prog->source);
    fflush(stdout);
}

static void at_exit(void)
{
    if (R.started && !R.reported)
        finish();
}

int wtc_start(int argc, char **argv, const wtc_program *prog)
{
    char err[1024];
    sim_machine m;
    const char *mem = getenv("WTC_PREDICT_MEM_MB");
    int devnull, rc;
    R.prog = prog;
    R.saved_stdout = -1;
    R.seed = 0x5eed;
    R.cap_limit = (size_t)(mem && atol(mem) > 0 ? atol(mem) : 1024) << 20;
    sim_tree_init(&R.tree);
    if (prog->abi_version != WTC_ABI_VERSION) {
        fprintf(stderr, "wtc predict: program built for ABI %d, runtime is ABI %d\n",
                prog->abi_version, WTC_ABI_VERSION);
        return 2;
    }
    if (sim_opts_parse(&argc, argv, &R.opt, err, sizeof err) < 0) {
        fprintf(stderr, "%s: error: %s (--wtc-help for usage)\n", argv[0], err);
        return 2;
    }
    if (R.opt.help) {
        fputs(sim_usage, stdout);
        return 0;
    }
    /* a bad machine file stops before the program runs */
    if (sim_machine_find(R.opt.machine, &m, err, sizeof err) < 0) {
        fprintf(stderr, "%s: error: %s\n", argv[0], err);
        return 2;
    }
    fflush(stdout);
    R.saved_stdout = dup(1);
    devnull = open("/dev/null", O_WRONLY);
    if (R.saved_stdout >= 0 && devnull >= 0)
        dup2(devnull, 1);
    if (devnull >= 0)
        close(devnull);
    atexit(at_exit);
    R.started = 1;
    R.mark = wtcrt_now();
    rc = prog->user_main(argc, argv);
    /* the program's own status is meaningless when tasks were skipped, but a self-check
       that failed may have cut the run short */
    if (rc != 0 && R.opt.sample != SIM_SAMPLE_ALL && R.smp.executed < R.smp.leaves)
        fprintf(stderr, "wtc predict: note: the program returned %d; sampled tasks leave "
                        "results unwritten, so if it stopped early, predict with "
                        "--wtc-sample=all\n", rc);
    finish();
    return 0;
}
