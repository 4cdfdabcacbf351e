/* sim/engine.c - discrete-event simulation of the two runtime protocols of
 * doc/runtime.md (simple; dynamic with M masters and batch T) over a recorded tree,
 * with the extended LogGPS costs of SPEC 5.4.
 *
 * Each simulated rank has a local clock, an inbox (messages in arrival order) and a
 * stack of frames (the calls and par statements it is executing). A rank runs ahead
 * through computing and sending, which need nothing from other ranks, until it has to
 * receive; then it takes the first message of its inbox or blocks. The only events are
 * message arrivals, popped from one heap in time order; an arrival wakes its rank. This
 * is exact for FIFO receives: every message that arrives before the rank could take a
 * delivered one is itself already delivered, because a message arrives at least L after
 * it is sent and ranks only run ahead from events already popped.
 *
 * A master serves one message at a time (its receive and send overheads occupy it), so
 * it saturates as in reality. Waiting is accounted by reason: wait-master (REQ to final
 * GRANT), wait-children (RESULTs), idle (everything else). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"
#include "wtcrt.h" /* WTCRT_SLICE_*, WTCRT_HELP_* */

#define HDR 48.0 /* the message header of doc/runtime.md */

enum { M_BEGIN, M_END, M_TASK, M_RESULT, M_REQ, M_FWD, M_GRANT, M_IDLE,
       M_DONE, /* not a message: a synchronous TASK send has completed (to its sender) */
       M_TICK  /* not a message: a probing rank's clock has been reached by all others */ };

typedef struct msg {
    double arr;      /* arrival (a synchronous message: of its rendezvous request) */
    double bytes;
    int src, dst, kind, sync;
    int a, b, c, d;  /* TASK: par, first child, count, frame; RESULT: d = frame;
                        REQ: a = want; FWD: a = want, b = worker, c = hops;
                        GRANT: a = offset in the grant list, b = count, c = final */
    int lo, hi;      /* TASK in simple mode: the children's rank range */
    int next;        /* inbox / free-list link */
} msg;

enum { F_NODE, F_SPAR, F_DPAR, F_GROUP };
/* dynamic par phases (doc/runtime.md, "dynamic mode", steps 2-5; D_HWAIT / D_HAFTER:
   a round for an outer frame, done while waiting for RESULTs) */
enum { D_ROUND1, D_WAIT1, D_OWN, D_OWNED, D_LOOP, D_WAIT2, D_AFTER2, D_COLLECT, D_HWAIT,
       D_HAFTER };

typedef struct frame {
    int type, phase;
    int node, par;   /* F_NODE: the call and its current par (-1: its last compute) */
    int lo, hi;      /* simple mode: the owned rank range */
    int i, end;      /* children being run here, i .. end-1 (node indices) */
    int j, s;        /* F_SPAR: next sub-range to collect, number of sub-ranges */
    int src, srcframe;            /* F_GROUP: where the RESULT goes */
    int k, nextc, outstanding;    /* F_DPAR: children, first pending, RESULTs owed */
    int due, helped;              /* F_DPAR: a round is due; a helper child is running */
    double slice_t0;              /* F_DPAR: when its last round ended */
} frame;

typedef struct rank {
    double t;        /* local clock: when it can act next */
    int head, tail;  /* inbox */
    int finished;    /* received REGION_END */
    int asleep;      /* idle since before the region: its poll is in the sleeping phase */
    int sync_pending;/* synchronous TASK sends not yet completed */
    frame *st;
    int depth, cap;
    /* dynamic: the round in progress (for frame round_frame), the last round trip,
       helper nesting, a pending M_TICK */
    int in_round, round_frame, round_done, helping, tick;
    double round_t0, rtt;
    int round_granted, backoff; /* workers granted in this round; slice multiplier */
    double round_t1;            /* when its last round ended */
    double compute, comm, wmaster, wchild, busy;
} rank;

typedef struct hent {
    double t;
    unsigned long long seq;
    int msg;
} hent;

typedef struct sim {
    const sim_tree *t;
    const sim_machine *m;
    sim_setting s;
    int P, M, W, T;
    double inv_cpu;   /* 1 / cpu_ratio, times the contention factor when W >= 2 */
    rank *r;
    msg *msgs;
    int capmsgs, nmsgs, freel;
    hent *h;
    int nh, caph;
    unsigned long long seq;
    int *grants;
    long ngrants, capgrants;
    unsigned char *idle;  /* dynamic: idle[w] for every worker */
    int *nidle;           /* idle workers per master */
    double *begin_arr;    /* arrival of REGION_BEGIN at each rank */
    int done, error;
    sim_result *res;
} sim;

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) {
        fprintf(stderr, "wtc predict: out of memory in the simulator\n");
        exit(2);
    }
    return p;
}

static void internal(sim *S, const char *what, int rid)
{
    if (!S->error)
        fprintf(stderr, "wtc predict: internal error in the simulator: %s on rank %d\n",
                what, rid);
    S->error = 1;
}

/* ---- the arrival heap ----------------------------------------------------------------- */

static int hless(const hent *a, const hent *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void heap_push(sim *S, double t, int m)
{
    int i;
    if (S->nh == S->caph) {
        S->caph = S->caph ? 2 * S->caph : 256;
        S->h = xrealloc(S->h, (size_t)S->caph * sizeof *S->h);
    }
    i = S->nh++;
    hent e = { t, S->seq++, m };
    while (i > 0 && hless(&e, &S->h[(i - 1) / 2])) {
        S->h[i] = S->h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    S->h[i] = e;
}

static int heap_pop(sim *S)
{
    int top = S->h[0].msg, i = 0;
    hent last = S->h[--S->nh];
    for (;;) {
        int c = 2 * i + 1;
        if (c >= S->nh)
            break;
        if (c + 1 < S->nh && hless(&S->h[c + 1], &S->h[c]))
            c++;
        if (!hless(&S->h[c], &last))
            break;
        S->h[i] = S->h[c];
        i = c;
    }
    if (S->nh)
        S->h[i] = last;
    return top;
}

/* ---- messages ------------------------------------------------------------------------ */

static int msg_new(sim *S)
{
    int i;
    if (S->freel >= 0) {
        i = S->freel;
        S->freel = S->msgs[i].next;
        return i;
    }
    if (S->nmsgs == S->capmsgs) {
        S->capmsgs = S->capmsgs ? 2 * S->capmsgs : 1024;
        S->msgs = xrealloc(S->msgs, (size_t)S->capmsgs * sizeof *S->msgs);
    }
    return S->nmsgs++;
}

static void msg_free(sim *S, int i)
{
    S->msgs[i].next = S->freel;
    S->freel = i;
}

/* Sends a message: the sender pays o_s; it arrives L + G*k after (a synchronous one
   only announces itself after L; the data follows when the receiver takes it). MPI's
   non-overtaking rule matters for REGION_BEGIN only: nothing overtakes it. */
static msg *send(sim *S, int from, int to, int kind, double bytes)
{
    rank *r = &S->r[from];
    int i = msg_new(S);
    msg *m = &S->msgs[i];
    double o = sim_o_send(S->m, S->P, bytes);
    r->t += o;
    if (from >= S->W && S->s.mode == SIM_DYNAMIC)
        r->busy += o;
    else
        r->comm += o;
    memset(m, 0, sizeof *m);
    m->src = from;
    m->dst = to;
    m->kind = kind;
    m->bytes = bytes;
    m->sync = bytes > S->m->S;
    m->arr = r->t + S->m->L + (m->sync ? 0 : S->m->G * bytes);
    if (kind == M_BEGIN)
        S->begin_arr[to] = m->arr;
    else if (m->arr < S->begin_arr[to])
        m->arr = S->begin_arr[to];
    m->next = -1;
    S->res->messages++;
    S->res->bytes += (long long)bytes;
    if (m->sync && kind == M_TASK) /* the parent waits for it (doc/runtime.md) */
        r->sync_pending++;
    heap_push(S, m->arr, i);
    return m;
}

/* When a rank that began waiting at t_w notices a message arriving at a (doc/runtime.md,
   "Waiting without burning a core"): during its yield phase (w_yield after t_w) at
   once; after that it sleeps on the doorbell, which the sender rings, and wakes w_wake
   after the arrival. 'asleep': the rank has waited since before the region. With more
   ranks than the host has cores the runtime yields only briefly (w_yield_over). */
static double notice(const sim *S, double t_w, double a, int asleep)
{
    const sim_machine *m = S->m;
    double w_yield = m->cores > 0 && S->P > m->cores ? m->w_yield_over : m->w_yield;
    if (a <= t_w)
        return t_w;
    if (!asleep && a <= t_w + w_yield)
        return a;
    return a + S->m->w_wake;
}

/* The sender of a synchronous TASK learns that the receiver took it (clear-to-send
   back, then the data), as an internal event. */
static void send_done(sim *S, int to, double t)
{
    int i = msg_new(S);
    msg *m = &S->msgs[i];
    memset(m, 0, sizeof *m);
    m->src = -1;
    m->dst = to;
    m->kind = M_DONE;
    m->arr = t;
    m->next = -1;
    heap_push(S, t, i);
}

/* Receives message i (already unlinked from the inbox) on rank rid: waits for it
   (accounted to *wait), then pays o_r. */
static void receive(sim *S, int rid, int i, double *wait)
{
    rank *r = &S->r[rid];
    msg *m = &S->msgs[i];
    double t0 = r->t, o;
    if (m->arr > r->t)
        r->t = notice(S, r->t, m->arr, r->asleep);
    r->asleep = 0;
    if (m->sync && m->kind == M_TASK) /* its sender learns it went: CTS back, data out */
        send_done(S, m->src, r->t + S->m->L + S->m->G * m->bytes);
    if (m->sync) /* rendezvous: clear-to-send back, then the data */
        r->t += 2 * S->m->L + S->m->G * m->bytes;
    if (wait)
        *wait += r->t - t0;
    o = sim_o_recv(S->m, S->P, m->bytes);
    r->t += o;
    if (rid >= S->W && S->s.mode == SIM_DYNAMIC)
        r->busy += o;
    else
        r->comm += o;
    S->res->events++;
}

/* Unlinks and returns the first inbox message matching (src, kind), -1 for any. */
static int inbox_take(sim *S, rank *r, int src, int kind)
{
    int prev = -1;
    for (int i = r->head; i >= 0; prev = i, i = S->msgs[i].next) {
        msg *m = &S->msgs[i];
        if ((src < 0 || m->src == src) && (kind < 0 || m->kind == kind)) {
            if (prev < 0)
                r->head = m->next;
            else
                S->msgs[prev].next = m->next;
            if (r->tail == i)
                r->tail = prev;
            return i;
        }
    }
    return -1;
}

/* Waits until the rank's synchronous TASK sends have completed (the MPI runtime waits
   for its TASK sends of a simple par / a dynamic round before computing); 0 when it
   must wait. The wait counts as communication. */
static int wait_sends(sim *S, int rid)
{
    rank *r = &S->r[rid];
    while (r->sync_pending > 0) {
        int i = inbox_take(S, r, -1, M_DONE);
        double t0 = r->t;
        if (i < 0)
            return 0;
        if (S->msgs[i].arr > r->t)
            r->t = notice(S, r->t, S->msgs[i].arr, 0);
        r->comm += r->t - t0;
        r->sync_pending--;
        msg_free(S, i);
    }
    return 1;
}

/* ---- frames --------------------------------------------------------------------------- */

static frame *push(sim *S, int rid, int type)
{
    rank *r = &S->r[rid];
    if (r->depth == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 16;
        r->st = xrealloc(r->st, (size_t)r->cap * sizeof *r->st);
    }
    frame *f = &r->st[r->depth++];
    memset(f, 0, sizeof *f);
    f->type = type;
    return f;
}

static void compute(sim *S, int rid, double host_seconds)
{
    double d = host_seconds * S->inv_cpu;
    S->r[rid].t += d;
    S->r[rid].compute += d;
}

/* Starts running call 'node' owning [lo, hi): a subtree with nothing to spread (or a
   simple-mode range of one rank) is computed at once, otherwise a frame walks it. */
static void start_node(sim *S, int rid, int node, int lo, int hi)
{
    const sim_tree *t = S->t;
    if (!t->spawns[node] || (S->s.mode == SIM_SIMPLE && hi - lo <= 1)) {
        compute(S, rid, t->seq[node]);
        return;
    }
    frame *f = push(S, rid, F_NODE);
    f->node = node;
    f->par = t->nodes[node].first_par;
    f->lo = lo;
    f->hi = hi;
}

/* Runs child 'node' of a par through the runtime (not the sequential clone): the
   runtime's own cost per child (spawn into the arena, clock read, result store) first. */
static void start_child(sim *S, int rid, int node, int lo, int hi)
{
    compute(S, rid, S->m->t_child);
    start_node(S, rid, node, lo, hi);
}

static double children_bytes(const sim *S, int first, int count, int result)
{
    double b = HDR;
    for (int c = first; c < first + count; c++)
        b += result ? S->t->nodes[c].result_bytes : S->t->nodes[c].task_bytes;
    return b;
}

/* First child (0-based within the par) of simple-mode sub-range j of s, k children. */
static int subrange_first_child(long long j, long long k, long long s)
{
    return (int)((j * k + s - 1) / s);
}

static int subrange_lo(int lo, long long n, long long j, long long s)
{
    return lo + (int)(j * n / s);
}

/* A par with cond true in simple mode (doc/runtime.md, "simple mode"): one TASK per
   remote sub-range, sub-range 0's children here, RESULTs in sub-range order. */
static void start_spar(sim *S, int rid, int p, int lo, int hi)
{
    const sim_par *pp = &S->t->pars[p];
    int n = hi - lo, k = pp->nchild, s = k < n ? k : n;
    int fidx = S->r[rid].depth;
    for (int j = 1; j < s; j++) {
        int c0 = subrange_first_child(j, k, s), c1 = subrange_first_child(j + 1, k, s);
        int to = subrange_lo(lo, n, j, s);
        msg *m = send(S, rid, to, M_TASK,
                      children_bytes(S, pp->first_child + c0, c1 - c0, 0));
        m->a = p;
        m->b = pp->first_child + c0;
        m->c = c1 - c0;
        m->d = fidx;
        m->lo = to;
        m->hi = subrange_lo(lo, n, j + 1, s);
        S->res->remote_calls += c1 - c0;
    }
    frame *f = push(S, rid, F_SPAR);
    f->par = p;
    f->lo = lo;
    f->hi = hi;
    f->s = s;
    f->j = 1;
    f->i = pp->first_child;
    f->end = pp->first_child + subrange_first_child(1, k, s);
}

/* Starts par p of the call on top of rank rid's stack. */
static void start_par(sim *S, int rid, int p, int lo, int hi)
{
    const sim_par *pp = &S->t->pars[p];
    int local = !pp->cond || pp->nchild == 0 || (S->s.mode == SIM_SIMPLE && hi - lo <= 1);
    if (local) {
        double s = 0;
        for (int c = 0; c < pp->nchild; c++)
            s += S->t->seq[pp->first_child + c];
        compute(S, rid, s);
        return;
    }
    compute(S, rid, pp->t_spawn); /* the runtime spawns the children into its frame */
    if (S->s.mode == SIM_SIMPLE) {
        start_spar(S, rid, p, lo, hi);
    } else {
        frame *f = push(S, rid, F_DPAR);
        f->par = p;
        f->k = pp->nchild;
        f->nextc = 1;
        f->phase = D_ROUND1;
    }
}

/* ---- dynamic mode ------------------------------------------------------------------- */

static int master_of(const sim *S, int w)
{
    return (int)((long long)w * S->M / S->W);
}

/* Starts a round for frame fidx of rank rid: REQ for its pending groups. */
static void begin_round(sim *S, int rid, int fidx)
{
    rank *r = &S->r[rid];
    frame *f = &r->st[fidx];
    r->round_t0 = r->t;
    r->in_round = 1;
    r->round_frame = fidx;
    r->round_done = 0;
    r->round_granted = 0;
    msg *m = send(S, rid, S->W + master_of(S, rid), M_REQ, HDR);
    m->a = (f->k - f->nextc + S->T - 1) / S->T;
}

/* The round's TASK sends have completed: the frame's time slice starts. */
static void end_round(sim *S, int rid)
{
    rank *r = &S->r[rid];
    frame *f = &r->st[r->round_frame];
    f->due = 0;
    f->slice_t0 = r->round_t1 = r->t;
    r->in_round = 0;
    if (r->round_granted) /* the back-off of wtcrt.h (WTCRT_SLICE_BACKOFF_MAX) */
        r->backoff = 1;
    else { /* doubled, at most the cap (a cap of 1 or less: no back-off) */
        int nb = r->backoff < 1 ? 2 : 2 * r->backoff;
        r->backoff = nb < WTCRT_SLICE_BACKOFF_MAX ? nb : WTCRT_SLICE_BACKOFF_MAX;
    }
}

/* The local-work slice: max(factor x the last round trip, minimum), virtual time. */
static double slice(const rank *r)
{
    double x = WTCRT_SLICE_FACTOR * r->rtt;
    return x > WTCRT_SLICE_MIN ? x : WTCRT_SLICE_MIN;
}

/* Whether frame f's next step is a round (mpi/dynamic.c round_due): when one is due or
   f's slice is used up; while the rank is backed off, only once backoff x the slice has
   passed since its last round ended. */
static int round_due(const rank *r, const frame *f)
{
    if (r->backoff > 1)
        return r->t - r->round_t1 >= r->backoff * slice(r);
    return f->due || r->t - f->slice_t0 >= slice(r);
}

/* A GRANT for the round in progress: the next pending groups (T consecutive children
   from the first pending one) go to the granted workers. */
static void on_grant(sim *S, int rid, const msg *g)
{
    rank *r = &S->r[rid];
    int fidx = r->round_frame;
    r->round_granted += g->b;
    for (int x = 0; x < g->b; x++) {
        frame *f = &r->st[fidx];
        const sim_par *pp = &S->t->pars[f->par];
        int c0 = f->nextc, c1 = c0 + S->T < f->k ? c0 + S->T : f->k;
        f->nextc = c1;
        f->outstanding++;
        msg *m = send(S, rid, S->grants[g->a + x], M_TASK,
                      children_bytes(S, pp->first_child + c0, c1 - c0, 0));
        m->a = f->par;
        m->b = pp->first_child + c0;
        m->c = c1 - c0;
        m->d = fidx;
        S->res->remote_calls += c1 - c0;
        S->res->grants++;
    }
    if (g->c) {
        r->round_done = 1;
        r->rtt = r->t - r->round_t0;
    }
}

/* Takes the first inbox message of a waiting worker (GRANT or RESULT); 0 when none. */
static int worker_take(sim *S, int rid, double *wait)
{
    rank *r = &S->r[rid];
    int i = inbox_take(S, r, -1, -1);
    if (i < 0)
        return 0;
    if (S->msgs[i].kind == M_DONE) { /* a TASK of this round went */
        double t0 = r->t;
        if (S->msgs[i].arr > r->t)
            r->t = notice(S, r->t, S->msgs[i].arr, 0);
        *wait += r->t - t0;
        r->sync_pending--;
        msg_free(S, i);
        return 1;
    }
    receive(S, rid, i, wait);
    msg *m = &S->msgs[i];
    if (m->kind == M_RESULT && m->d < r->depth && r->st[m->d].type == F_DPAR)
        r->st[m->d].outstanding--;
    else if (m->kind == M_GRANT && r->in_round)
        on_grant(S, rid, m);
    else
        internal(S, "unexpected message while waiting", rid);
    msg_free(S, i);
    return 1;
}

/* The MPI runtime's look for a message (MPI_Iprobe) at the rank's clock: -1 while the
   answer is unknown, else whether a message has arrived. The answer is known once an
   M_TICK to itself at that time pops: every message arriving earlier pops before it. */
static int probe(sim *S, int rid)
{
    rank *r = &S->r[rid];
    int i;
    if (!r->tick) {
        if (r->head >= 0) /* delivered messages arrived before the rank's clock */
            return 1;
        i = msg_new(S);
        memset(&S->msgs[i], 0, sizeof S->msgs[i]);
        S->msgs[i].src = -1;
        S->msgs[i].dst = rid;
        S->msgs[i].kind = M_TICK;
        S->msgs[i].arr = r->t;
        S->msgs[i].next = -1;
        heap_push(S, r->t, i);
        r->tick = 1;
        return -1;
    }
    if ((i = inbox_take(S, r, -1, M_TICK)) < 0)
        return -1;
    msg_free(S, i);
    r->tick = 0;
    return r->head >= 0;
}

/* The outer frame (below fidx) whose pending children a wait may run, innermost first
   (or outermost, WTCRT_HELP_OUTER_FIRST); -1 when none or helping is nested too deep. */
static int help_frame(const sim *S, const rank *r, int fidx)
{
    if (r->helping >= WTCRT_HELP_MAX)
        return -1;
    for (int j = 0; j < fidx; j++) {
        int e = WTCRT_HELP_OUTER_FIRST ? j : fidx - 1 - j;
        if (r->st[e].type == F_DPAR && r->st[e].nextc < r->st[e].k)
            return e;
    }
    (void)S;
    return -1;
}

/* Runs the first pending child of frame e here (after a refusal). */
static void run_pending(sim *S, int rid, int e)
{
    frame *f = &S->r[rid].st[e];
    int c = S->t->pars[f->par].first_child + f->nextc++;
    S->res->refusals++;
    start_child(S, rid, c, 0, 0);
}

/* Step 5 of the dynamic par on top: collect its RESULTs; while none has arrived, do
   one step of an outer frame's pending work (its round, or one child). */
static int collect(sim *S, int rid)
{
    rank *r = &S->r[rid];
    int fidx = r->depth - 1, e, x;
    frame *f = &r->st[fidx];
    if (f->helped) { /* its helper child has returned */
        f->helped = 0;
        r->helping--;
    }
    if (f->outstanding == 0) {
        r->depth--;
        return 1;
    }
    if ((e = help_frame(S, r, fidx)) < 0 || (x = probe(S, rid)) > 0)
        return worker_take(S, rid, &r->wchild);
    if (x < 0)
        return 0;
    if (round_due(r, &r->st[e])) {
        begin_round(S, rid, e);
        f->phase = D_HWAIT;
    } else {
        f->helped = 1;
        r->helping++;
        run_pending(S, rid, e);
    }
    return 1;
}

/* One step of a dynamic par (phases D_*); returns 0 when the rank must wait. */
static int step_dpar(sim *S, int rid)
{
    rank *r = &S->r[rid];
    int fidx = r->depth - 1;
    frame *f = &r->st[fidx];
    switch (f->phase) {
    case D_ROUND1:
        f->due = 1;
        if (f->nextc < f->k && round_due(r, f)) {
            begin_round(S, rid, fidx);
            f->phase = D_WAIT1;
        } else {
            f->phase = D_OWN;
        }
        return 1;
    case D_WAIT1:
    case D_WAIT2:
    case D_HWAIT:
        if (!r->round_done)
            return worker_take(S, rid, &r->wmaster);
        f->phase = f->phase == D_WAIT1 ? D_OWN : f->phase == D_WAIT2 ? D_AFTER2 : D_HAFTER;
        return 1;
    case D_OWN:
        if (!wait_sends(S, rid))
            return 0;
        if (r->in_round)
            end_round(S, rid);
        f->due = 1;
        f->phase = D_OWNED;
        start_child(S, rid, S->t->pars[f->par].first_child, 0, 0);
        return 1;
    case D_OWNED: /* refused children are asked for again after the own child */
        f->due = 1;
        f->phase = D_LOOP;
        return 1;
    case D_LOOP:
        if (f->nextc >= f->k) {
            f->phase = D_COLLECT;
        } else if (round_due(r, f)) {
            begin_round(S, rid, fidx);
            f->phase = D_WAIT2;
        } else {
            run_pending(S, rid, fidx);
        }
        return 1;
    case D_AFTER2:
    case D_HAFTER:
        if (!wait_sends(S, rid))
            return 0;
        end_round(S, rid);
        f->phase = f->phase == D_AFTER2 ? D_LOOP : D_COLLECT;
        return 1;
    default: /* D_COLLECT */
        return collect(S, rid);
    }
}

/* A master serves its inbox, one message at a time (doc/runtime.md, "Master"). */
static void serve_request(sim *S, int mid, int worker, int want, int hops)
{
    int rid = S->W + mid, w0 = (int)(((long long)mid * S->W + S->M - 1) / S->M);
    int w1 = (int)(((long long)(mid + 1) * S->W + S->M - 1) / S->M);
    int g = want < S->nidle[mid] ? want : S->nidle[mid];
    long off = S->ngrants;
    if (S->ngrants + g > S->capgrants) {
        S->capgrants = 2 * (S->ngrants + g) + 1024;
        S->grants = xrealloc(S->grants, (size_t)S->capgrants * sizeof *S->grants);
    }
    for (int w = w0, n = 0; w < w1 && n < g; w++)
        if (S->idle[w]) {
            S->idle[w] = 0;
            S->grants[S->ngrants++] = w;
            n++;
        }
    S->nidle[mid] -= g;
    if (g < want && hops < S->M - 1) {
        msg *f = send(S, rid, S->W + (mid + 1) % S->M, M_FWD, HDR);
        f->a = want - g;
        f->b = worker;
        f->c = hops + 1;
        if (g == 0)
            return;
    }
    msg *m = send(S, rid, worker, M_GRANT, HDR + 4.0 * g);
    m->a = (int)off;
    m->b = g;
    m->c = !(g < want && hops < S->M - 1);
}

static void master_run(sim *S, int rid)
{
    rank *r = &S->r[rid];
    int mid = rid - S->W, i;
    while ((i = inbox_take(S, r, -1, -1)) >= 0) {
        msg *m = &S->msgs[i];
        receive(S, rid, i, NULL);
        if (m->kind == M_IDLE) {
            if (!S->idle[m->src]) {
                S->idle[m->src] = 1;
                S->nidle[mid]++;
            }
        } else if (m->kind == M_REQ) {
            serve_request(S, mid, m->src, m->a, 0);
        } else if (m->kind == M_FWD) {
            serve_request(S, mid, m->b, m->a, m->c);
        }
        msg_free(S, i);
    }
}

/* ---- workers ---------------------------------------------------------------------------- */

/* One step of the frame on top of a worker's stack; 0 when it must wait. */
static int step(sim *S, int rid)
{
    rank *r = &S->r[rid];
    frame *f = &r->st[r->depth - 1];
    const sim_tree *t = S->t;
    switch (f->type) {
    case F_NODE:
        if (f->phase == 1) { /* its par has ended */
            f->par = t->pars[f->par].next;
            f->phase = 0;
        } else if (f->par < 0) {
            compute(S, rid, t->nodes[f->node].t_after);
            r->depth--;
        } else {
            int p = f->par, lo = f->lo, hi = f->hi;
            compute(S, rid, t->pars[p].t_before);
            f->phase = 1;
            start_par(S, rid, p, lo, hi);
        }
        return 1;
    case F_SPAR:
        if (!wait_sends(S, rid))
            return 0;
        if (f->i < f->end) {
            int c = f->i++, lo = f->lo, hi = subrange_lo(f->lo, f->hi - f->lo, 1, f->s);
            start_child(S, rid, c, lo, hi);
            return 1;
        }
        if (f->j < f->s) {
            int src = subrange_lo(f->lo, f->hi - f->lo, f->j, f->s);
            int i = inbox_take(S, r, src, M_RESULT);
            if (i < 0)
                return 0;
            receive(S, rid, i, &r->wchild);
            msg_free(S, i);
            f->j++;
            return 1;
        }
        r->depth--;
        return 1;
    case F_GROUP:
        if (f->i < f->end) {
            int c = f->i++, lo = f->lo, hi = f->hi;
            start_child(S, rid, c, lo, hi);
            return 1;
        } else {
            int src = f->src, sf = f->srcframe, first = f->node, n = f->end - f->node;
            r->depth--;
            msg *m = send(S, rid, src, M_RESULT, children_bytes(S, first, n, 1));
            m->d = sf;
            if (S->s.mode == SIM_DYNAMIC)
                send(S, rid, S->W + master_of(S, rid), M_IDLE, HDR);
            return 1;
        }
    default:
        return step_dpar(S, rid);
    }
}

/* The server loop of a worker without work: REGION_BEGIN, TASK, REGION_END. */
static int serve_worker(sim *S, int rid)
{
    rank *r = &S->r[rid];
    int i = inbox_take(S, r, -1, -1);
    if (i < 0)
        return 0;
    receive(S, rid, i, NULL);
    msg *m = &S->msgs[i];
    if (m->kind == M_TASK) {
        frame *f = push(S, rid, F_GROUP);
        f->node = f->i = m->b;
        f->end = m->b + m->c;
        f->lo = m->lo;
        f->hi = m->hi;
        f->src = m->src;
        f->srcframe = m->d;
    } else if (m->kind == M_END) {
        r->finished = 1;
    } else if (m->kind != M_BEGIN) {
        internal(S, "unexpected message in the server loop", rid);
    }
    msg_free(S, i);
    return !r->finished;
}

/* Runs a worker until it has to wait. Rank 0 ends the region when its root returns. */
static void worker_run(sim *S, int rid)
{
    rank *r = &S->r[rid];
    while (!S->error && !r->finished) {
        if (r->depth > 0) {
            if (!step(S, rid))
                return;
        } else if (rid == 0) {
            if (S->done)
                return;
            for (int x = 1; x < S->P; x++)
                send(S, 0, x, M_END, HDR);
            S->done = 1;
            return;
        } else if (!serve_worker(S, rid)) {
            return;
        }
    }
}

static void wake(sim *S, int rid)
{
    if (S->s.mode == SIM_DYNAMIC && rid >= S->W)
        master_run(S, rid);
    else
        worker_run(S, rid);
}

/* ---- driver ------------------------------------------------------------------------------ */

static void sim_free(sim *S)
{
    for (int i = 0; i < S->P; i++)
        free(S->r[i].st);
    free(S->r);
    free(S->msgs);
    free(S->h);
    free(S->grants);
    free(S->idle);
    free(S->nidle);
    free(S->begin_arr);
}

static int sim_setup(sim *S, const sim_tree *t, const sim_machine *m, sim_setting s,
                     sim_result *res)
{
    memset(S, 0, sizeof *S);
    S->t = t;
    S->m = m;
    S->s = s;
    S->res = res;
    S->P = s.procs;
    S->M = s.mode == SIM_DYNAMIC && s.procs > 1 ? s.masters : 0;
    S->W = S->P - S->M;
    S->T = s.batch > 0 ? s.batch : 1;
    S->inv_cpu = 1.0 / m->cpu_ratio;
    S->freel = -1;
    if (S->P < 1 || S->W < 1 || (s.mode == SIM_DYNAMIC && S->M < 1 && S->P > 1))
        return -1;
    S->r = xrealloc(NULL, (size_t)S->P * sizeof *S->r);
    memset(S->r, 0, (size_t)S->P * sizeof *S->r);
    for (int i = 0; i < S->P; i++) {
        S->r[i].head = S->r[i].tail = -1;
        S->r[i].asleep = i != 0;
    }
    if (S->W >= 2) /* computing ranks share the host (machine file: contention) */
        S->inv_cpu *= 1 + m->contention;
    S->begin_arr = xrealloc(NULL, (size_t)S->P * sizeof *S->begin_arr);
    memset(S->begin_arr, 0, (size_t)S->P * sizeof *S->begin_arr);
    S->idle = xrealloc(NULL, (size_t)S->W);
    S->nidle = xrealloc(NULL, (size_t)(S->M + 1) * sizeof *S->nidle);
    memset(S->nidle, 0, (size_t)(S->M + 1) * sizeof *S->nidle);
    for (int w = 0; w < S->W; w++) { /* every worker but rank 0 starts idle */
        S->idle[w] = w != 0;
        if (S->M && w != 0)
            S->nidle[master_of(S, w)]++;
    }
    return 0;
}

/* Adds the per-rank accounts of a finished region to the result. */
static void sim_collect(sim *S, double T)
{
    sim_result *res = S->res;
    for (int i = 0; i < S->P; i++) {
        rank *r = &S->r[i];
        if (i < S->W) {
            res->compute += r->compute;
            res->comm += r->comm;
            res->wait_master += r->wmaster;
            res->wait_children += r->wchild;
        } else {
            res->master_busy += r->busy < T ? r->busy : T;
        }
    }
    res->time += T;
}

int sim_run_region(const sim_tree *t, int region, const sim_machine *m, sim_setting s,
                   sim_result *res)
{
    sim S;
    int root = t->regions[region].root;
    if (sim_setup(&S, t, m, s, res) < 0)
        return -1;
    if (S.P == 1) { /* one processor: the sequential clones, no messages */
        compute(&S, 0, t->seq[root]);
        sim_collect(&S, S.r[0].t);
        sim_free(&S);
        return 0;
    }
    for (int x = 1; x < S.P; x++)
        send(&S, 0, x, M_BEGIN, HDR + t->regions[region].begin_bytes);
    start_node(&S, 0, root, 0, S.P);
    worker_run(&S, 0);
    /* after rank 0 ends the region, deliver what arrives before that moment, so the
       other ranks' accounts cover the same span */
    while (!S.error && S.nh > 0 && (!S.done || S.h[0].t <= S.r[0].t)) {
        int i = heap_pop(&S);
        msg *mm = &S.msgs[i];
        rank *r = &S.r[mm->dst];
        mm->next = -1;
        if (r->tail >= 0)
            S.msgs[r->tail].next = i;
        else
            r->head = i;
        r->tail = i;
        wake(&S, mm->dst);
    }
    if (!S.done && !S.error)
        internal(&S, "deadlock (no message left to deliver)", 0);
    sim_collect(&S, S.r[0].t);
    sim_free(&S);
    return S.error ? -1 : 0;
}

int sim_run(const sim_tree *t, const sim_machine *m, sim_setting s, sim_result *r)
{
    int M = s.mode == SIM_DYNAMIC && s.procs > 1 ? s.masters : 0;
    memset(r, 0, sizeof *r);
    if (s.procs < 1 || (s.procs > 1 && s.mode == SIM_DYNAMIC && (M < 1 || M >= s.procs)))
        return -1;
    r->nworkers = s.procs - M;
    r->nmasters = M;
    for (int g = 0; g < t->nregions; g++)
        if (sim_run_region(t, g, m, s, r) < 0)
            return -1;
    /* main's own time: computing on rank 0, idle elsewhere */
    r->regions = r->time;
    r->time += t->main_time / m->cpu_ratio;
    r->compute += t->main_time / m->cpu_ratio;
    r->idle = r->nworkers * r->time - r->compute - r->comm - r->wait_master -
              r->wait_children;
    if (r->idle < 0)
        r->idle = 0;
    return 0;
}
