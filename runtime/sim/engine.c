/* sim/engine.c - the discrete-event engine of the simulator: ranks, messages with the
 * extended LogGPS costs of SPEC 5.4, calls, and the driver; the protocols of
 * doc/runtime.md are in one file per mode (sim/mode_*.c, registered in modes[] below),
 * which take their decisions from the protocol core (runtime/core/proto.h).
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
 * it saturates as in reality. Waiting is accounted by reason: wait-children (RESULTs),
 * idle (everything else); no worker waits for a master (dynamic mode's requests stand). */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "engine.h"

/* The modes the simulator executes (habit 11: a new mode is a row and a file). */
static const sim_ops *const modes[] = { &sim_simple_ops, &sim_dynamic_ops, &sim_steal_ops };

static const sim_ops *ops_of(int id)
{
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (modes[i]->id == id)
            return modes[i];
    return NULL;
}

void eng_out_of_memory(void)
{
    fprintf(stderr, "wtc predict: out of memory in the simulator\n");
    sim_exit(2);
}

void *eng_xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        eng_out_of_memory();
    return p;
}

void eng_internal(sim *S, const char *what, int rid)
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

void eng_heap_push(sim *S, double t, int m)
{
    int i;
    if (S->nh == S->caph) {
        S->caph = S->caph ? 2 * S->caph : 256;
        S->h = eng_xrealloc(S->h, (size_t)S->caph * sizeof *S->h);
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

int eng_msg_new(sim *S)
{
    int i;
    if (S->freel >= 0) {
        i = S->freel;
        S->freel = S->msgs[i].next;
        return i;
    }
    if (S->nmsgs == S->capmsgs) {
        S->capmsgs = S->capmsgs ? 2 * S->capmsgs : 1024;
        S->msgs = eng_xrealloc(S->msgs, (size_t)S->capmsgs * sizeof *S->msgs);
    }
    return S->nmsgs++;
}

void eng_msg_free(sim *S, int i)
{
    S->msgs[i].next = S->freel;
    S->freel = i;
}

/* An internal event (M_DONE, M_TICK) for rank 'to' at time t. */
static void post(sim *S, int to, int kind, double t)
{
    int i = eng_msg_new(S);
    msg *m = &S->msgs[i];
    memset(m, 0, sizeof *m);
    m->src = -1;
    m->dst = to;
    m->kind = kind;
    m->arr = t;
    m->next = -1;
    S->r[to].inflight++;
    eng_heap_push(S, t, i);
}

/* ---- the machine: nodes, network ports, cores (doc/predictor.md section 4) ------------ */

static int node_of(const sim *S, int rid)
{
    return rid / S->rpn;
}

/* Rank rid's CPU work of d seconds from t: where its node has more ranks than cores, a
   share of the node's cores; 'urgent' work (a message's overheads, which a waking rank
   does first: the kernel favours it) takes one at once, computing waits for one. Returns
   when it is done. */
static double cpu(sim *S, int rid, double t, double d, int urgent)
{
    if (!S->cores || !S->cores[node_of(S, rid)].units)
        return t + d;
    if (rid >= S->W && S->one_bell) {
        /* a master of a one-node job there runs at the lowest priority (the runtime's
           dyn_master): on a core left free */
        wtcrt_stats *st = eng_stats(S, rid);
        urgent = 0;
        if (st)
            st->lowprio = 1;
    }
    return eng_res_book(&S->cores[node_of(S, rid)], S->now, t, d, urgent);
}

/* The latency between two ranks: L across nodes, L_intra within one. */
static double latency(const sim *S, int from, int to)
{
    return node_of(S, from) == node_of(S, to) ? S->m->L_intra : S->m->L;
}

/* Memory touched before, as the runtime meets it: a message's big buffers land in the
   children's memory of a received TASK, which the runtime keeps for the next TASKs
   once freed (blocks up to WTCRT_TASKMEM_MAX, runtime/mpi/transport.c
   wtcrt_task_mem), and its small parts in buffers that glibc serves from memory freed
   before. So a rank pays the fresh per-byte costs (O_s, G, O_r) for a message larger
   than any it has had before, or above that limit, and the reuse costs (O_s_reuse,
   G_reuse, O_r_reuse) after that. 1 when rank r's buffer of k bytes is reused. */
#define SIM_REUSE_MAX ((double)WTCRT_TASKMEM_MAX)
static int reused(sim *S, int r, double k)
{
    rank *x = &S->r[r];
    if (k <= x->reused)
        return 1;
    if (k <= SIM_REUSE_MAX)
        x->reused = k;
    return 0;
}

/* The port time of a message's bytes (a reused receive buffer: G_reuse). A RESULT's
   out: buffers sent by reference (bytes - copied) go straight into the caller's memory,
   touched already (runtime/mpi/par.c, wtcrt_result_place): G_reuse. */
static double wire_gap(const sim *S, const msg *m)
{
    double g = m->reuse ? sim_reuse_cost(S->m->G, S->m->G_reuse) : S->m->G;
    if (m->kind == M_RESULT)
        return g * m->copied + sim_reuse_cost(S->m->G, S->m->G_reuse) * (m->bytes - m->copied);
    return g * m->bytes;
}

/* k bytes leave 'from' at t (its send overhead done) for 'to'. Within a node they take
   L_intra + G_intra*k. Across nodes they occupy the sender's outgoing port for G*k
   (LogGP's gap per byte: a node sends one message at a time, at the link's bandwidth),
   then, L later, the receiver's incoming port for G*k; the last byte is there when the
   second booking ends (L + G*k after t when both ports are free). *left: when the last
   byte has left the sender. Returns the arrival. */
static double wire(sim *S, const msg *x, double t, double *left)
{
    const sim_machine *m = S->m;
    int nf = node_of(S, x->src), nt = node_of(S, x->dst);
    double g = wire_gap(S, x), e1;
    if (nf == nt) {
        *left = t + m->G_intra * x->bytes;
        return *left + m->L_intra;
    }
    if (!S->port_out || g <= 0) {
        *left = t + g;
        return *left + m->L;
    }
    e1 = eng_res_book(&S->port_out[nf], S->now, t, g, 0);
    *left = e1;
    return eng_res_book(&S->port_in[nt], S->now, e1 - g + m->L, g, 0);
}

/* Flows j = 0 .. n-1 share one port equally while they are in flight (processor
   sharing): flow j starts at s[j] and needs w[j] of the port alone; its end goes to
   c[j]. rem[] is room for n. Each step starts a flow or ends one: O(n^2). */
static void share_port(const double *s, const double *w, double *c, double *rem, int n)
{
    int left = n;
    double t = 1e300;
    for (int j = 0; j < n; j++) {
        rem[j] = w[j];
        c[j] = -1;
        if (s[j] < t)
            t = s[j];
    }
    while (left > 0) {
        int k = 0;
        double least = 1e300, next = 1e300;
        for (int j = 0; j < n; j++) {
            if (c[j] >= 0)
                continue;
            if (s[j] <= t) {
                k++;
                if (rem[j] < least)
                    least = rem[j];
            } else if (s[j] < next) {
                next = s[j];
            }
        }
        if (k == 0) { /* nothing in flight: the next flow starts */
            t = next;
            continue;
        }
        double run = least * k; /* until the smallest in flight ends */
        if (next - t < run)
            run = next - t;
        for (int j = 0; j < n; j++)
            if (c[j] < 0 && s[j] <= t)
                rem[j] -= run / k;
        t += run;
        for (int j = 0; j < n; j++)
            if (c[j] < 0 && s[j] <= t - run && rem[j] <= 1e-12 * (w[j] > 0 ? w[j] : 1)) {
                c[j] = t;
                left--;
            }
    }
}

void eng_group_begin(sim *S)
{
    S->grp_open = 1;
    S->ngrp = 0;
}

/* Books the wires of the group's TASKs together (eng_group_begin): an eager one's data
   leaves at its send, a synchronous one's when the receiver, taking its request at
   once, has answered (2 L later); the flows share the sender's port while in flight,
   the port's total is booked from the first start (after what it carries already); each
   arrives L after its end. */
void eng_group_end(sim *S)
{
    int n = S->ngrp, nf;
    double *s, *w, *c, *rem, first = 1e300, last = 0, total = 0, end, shift;
    S->grp_open = 0;
    if (n == 0)
        return;
    s = eng_xrealloc(NULL, 4 * (size_t)n * sizeof *s);
    w = s + n, c = w + n, rem = c + n;
    nf = node_of(S, S->msgs[S->grp[0]].src);
    for (int j = 0; j < n; j++) {
        const msg *m = &S->msgs[S->grp[j]];
        s[j] = m->sent + (m->sync ? 2 * latency(S, m->dst, m->src) : 0);
        w[j] = wire_gap(S, m);
        total += w[j];
        if (s[j] < first)
            first = s[j];
    }
    share_port(s, w, c, rem, n);
    for (int j = 0; j < n; j++)
        if (c[j] > last)
            last = c[j];
    /* the port's earlier bookings delay the whole group */
    end = eng_res_book(&S->port_out[nf], S->now, first, total, 0);
    shift = end > last ? end - last : 0;
    for (int j = 0; j < n; j++) {
        int i = S->grp[j];
        msg *m = &S->msgs[i];
        double left = c[j] + shift, l = latency(S, m->src, m->dst);
        /* its receiver's port carries it while it trickles in (at its share of the
           sender's port, so the group's flows to one node never fill it): booked, so
           that later messages find it taken, but not waited for */
        double arr = eng_res_book(&S->port_in[node_of(S, m->dst)], S->now, left - w[j] + l,
                                  w[j], 1);
        if (m->sync) {
            m->data_arr = arr;
            m->data_left = left;
        } else {
            m->arr = arr;
            eng_heap_push(S, arr, i);
        }
    }
    free(s);
    S->ngrp = 0;
}

/* Sends a message: the sender pays o_s; it arrives after the wire (a synchronous one
   only announces itself after L; the data follows when the receiver takes it). A rank
   takes nothing before its REGION_BEGIN (wake): what comes earlier waits in its inbox,
   as in MPI's queue. A TASK of an open send group to another node is booked with the
   group (eng_group_end). copied: the bytes the sender copies into the message (packs:
   O_s); the rest travels by reference (wtcrt_buf_by_ref). nchild: a TASK's or RESULT's
   children; a TASK's sender packs each (t_pack_child) before it leaves. */
static msg *send_bytes(sim *S, int from, int to, int kind, double bytes, double copied,
                       int nchild)
{
    rank *r = &S->r[from];
    int i = eng_msg_new(S);
    msg *m = &S->msgs[i];
    double o = sim_o_send(S->m, S->P, copied, reused(S, from, copied)), left;
    if (kind == M_TASK)
        o += nchild * S->m->t_pack_child;
    wtcrt_stats *st = kind == M_BAR ? NULL : eng_stats(S, from); /* MPI's, not ours */
    if (st) {
        st->msgs++;
        st->bytes += (long long)bytes;
    }
    eng_mark(S, from, 0);
    r->t = cpu(S, from, r->t, o, 1);
    if (from >= S->W) /* a master */
        r->busy += o;
    else
        r->comm += o;
    memset(m, 0, sizeof *m);
    m->src = from;
    m->dst = to;
    m->kind = kind;
    m->bytes = bytes;
    m->copied = copied;
    m->c = nchild;
    m->sync = bytes > S->m->S;
    /* before MPI is up rank 0's messages wait in order; the start thread sends them all
       once it is (doc/runtime.md "A region held while MPI starts"), and the main thread
       goes on without waiting for any */
    m->held = from == 0 && r->t < S->hold;
    /* the receive buffer: a RESULT's holds only what was copied (the rest goes to its
       place, wtcrt_result_place) */
    m->reuse = reused(S, to, kind == M_RESULT ? copied : bytes);
    m->sent = m->held ? S->hold : r->t;
    m->shared = !m->held && S->grp_open && kind == M_TASK && S->port_out &&
                node_of(S, from) != node_of(S, to) && wire_gap(S, m) > 0;
    if (m->shared) {
        if (S->ngrp == S->capgrp) {
            S->capgrp = S->capgrp ? 2 * S->capgrp : 64;
            S->grp = eng_xrealloc(S->grp, (size_t)S->capgrp * sizeof *S->grp);
        }
        S->grp[S->ngrp++] = i;
    }
    m->arr = m->sync ? m->sent + latency(S, from, to)
             : m->shared ? 0 /* eng_group_end */
                         : wire(S, m, m->sent, &left);
    m->next = -1;
    if (kind != M_BAR) {
        S->res->messages++;
        S->res->bytes += (long long)bytes;
    }
    if (m->sync && !m->held && (kind == M_TASK || kind == M_BEGIN)) /* the sender waits */
        r->sync_pending++;
    S->r[to].inflight++;
    if (!m->shared || m->sync)
        eng_heap_push(S, m->arr, i);
    return m;
}

/* When a rank that began waiting at t_w notices a message arriving at a (doc/runtime.md,
   "Waiting without burning a core"): during its yield phase (w_yield after t_w) at
   once; after that it sleeps on the doorbell, which the sender rings, and wakes w_wake
   after the arrival. 'asleep': the rank has waited since before the region. With more
   ranks than the host has cores the runtime yields only briefly (w_yield_over). */
double eng_notice(const sim *S, double t_w, double a, int asleep)
{
    if (a <= t_w)
        return t_w;
    if (!asleep && a <= t_w + eng_yield_phase(S))
        return a;
    return a + S->m->w_wake;
}

double eng_yield_phase(const sim *S)
{
    return eng_oversubscribed(S) ? S->m->w_yield_over : S->m->w_yield;
}

int eng_oversubscribed(const sim *S)
{
    return S->m->cores > 0 && S->rpn > S->m->cores;
}

void eng_timer(sim *S, int rid, double t)
{
    post(S, rid, M_WAKE, t);
}

void eng_receive(sim *S, int rid, int i, double *wait)
{
    rank *r = &S->r[rid];
    msg *m = &S->msgs[i];
    double t0 = r->t, o;
    wtcrt_stats *st = eng_stats(S, rid);
    if (m->in) /* taken in while the rank waited for its sends: paid then */
        return;
    if (m->arr > r->t) {
        eng_mark(S, rid, 1);
        r->t = eng_notice(S, r->t, m->arr, r->asleep);
    }
    /* a worker without frames receives while idle, as the runtime's (a TASK is
       unpacked before its children compute) */
    eng_mark(S, rid, rid < S->W && r->depth == 0);
    r->asleep = 0;
    if (st && m->kind == M_TASK) {
        st->calls_run += m->c;
        S->tl->st[m->src].calls_sent += m->c;
    }
    if (m->sync) { /* rendezvous: clear-to-send back, then the data */
        double left, arr;
        if (m->shared) {
            /* booked with its group for a take at once; taken later, no sooner than
               alone from the take */
            double late = r->t + 2 * latency(S, rid, m->src) + wire_gap(S, m) - m->data_arr;
            arr = m->data_arr + (late > 0 ? late : 0);
            left = m->data_left + (late > 0 ? late : 0);
        } else {
            arr = wire(S, m, r->t + latency(S, rid, m->src), &left);
        }
        if ((m->kind == M_TASK || m->kind == M_BEGIN) && !m->held) /* its sender learns
                                                         it went when the data has left */
            post(S, m->src, M_DONE, left);
        r->t = arr;
    }
    if (wait)
        *wait += r->t - t0;
    /* only what was copied into the message is copied out of it: the buffers by
       reference were received where they go (wtcrt_task_place, wtcrt_result_place) */
    o = sim_o_recv(S->m, S->P, m->copied, m->kind == M_RESULT, m->reuse);
    if (m->kind == M_TASK) /* its children's unpacking, task frame and result packing */
        o += m->c * (m->reuse ? S->m->t_task_child : S->m->t_task_child_fresh);
    else if (m->kind == M_RESULT) /* its children's results stored */
        o += m->c * S->m->t_store_child;
    r->t = cpu(S, rid, r->t, o, 1);
    if (rid >= S->W)
        r->busy += o;
    else
        r->comm += o;
    S->res->events++;
}

int eng_take(sim *S, rank *r, int src, int kind)
{
    int prev = -1;
    for (int i = r->head; i >= 0; prev = i, i = S->msgs[i].next) {
        msg *m = &S->msgs[i];
        if ((src < 0 || m->src == src) &&
            (kind == ANY_KIND || (kind < 0 ? m->kind != M_BAR : m->kind == kind))) {
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

void eng_send_done_taken(sim *S, int rid, int i, double *wait)
{
    rank *r = &S->r[rid];
    double t0 = r->t;
    if (S->msgs[i].arr > r->t) {
        eng_mark(S, rid, wait != &r->comm); /* waiting for its TASK sends: computing */
        r->t = eng_notice(S, r->t, S->msgs[i].arr, 0);
    }
    if (wait)
        *wait += r->t - t0;
    r->sync_pending--;
    eng_msg_free(S, i);
}

/* The first rendezvous message in rank r's inbox not yet received, or -1. */
static int first_to_take_in(const sim *S, const rank *r)
{
    for (int i = r->head; i >= 0; i = S->msgs[i].next) {
        const msg *m = &S->msgs[i];
        if (m->sync && !m->in && m->src >= 0)
            return i;
    }
    return -1;
}

/* The MPI runtime waits for its TASK sends of a simple par / a dynamic round / a steal
   answer before computing. The wait counts as communication. Meanwhile it takes in what
   arrives (mpi/transport.c's take_in, doc/runtime.md "TASK sends are completed"): a
   rendezvous to this rank is received (its sender's send completes) and stays in the
   inbox, in its turn, to be handled later. Without it two ranks sending each other a
   big TASK waited for ever (the simulator stopped: "deadlock", cilksort in dynamic mode
   at P = 4-32, as the runtime hung before its inbox). Eager messages need no taking in
   to let their senders go on; they are received when handled, as before. */
int eng_wait_sends(sim *S, int rid)
{
    rank *r = &S->r[rid];
    while (r->sync_pending > 0) {
        int i = eng_take(S, r, -1, M_DONE);
        if (i >= 0) {
            eng_send_done_taken(S, rid, i, &r->comm);
            continue;
        }
        if ((i = first_to_take_in(S, r)) < 0)
            return 0;
        eng_receive(S, rid, i, &r->comm);
        S->msgs[i].in = 1;
    }
    return 1;
}

int eng_poll_next(sim *S, int rid)
{
    rank *r = &S->r[rid];
    int i = r->head;
    if (!eng_arrived(S, rid))
        return -2;
    while (i >= 0 && S->msgs[i].kind == M_BAR) /* the barrier's: not the protocol's */
        i = S->msgs[i].next;
    if (i < 0 || S->msgs[i].arr > r->t)
        return -1;
    return eng_take(S, r, -1, -1);
}

/* Whether every message that arrives by the rank's clock has been delivered to it (the
   runtime's MPI_Iprobe at that moment, doc/runtime.md simulator note 10). Known at once
   when the heap shows that nothing can arrive by then any more: every other rank waits
   for an event, so a message sent from now on leaves at the earliest event's time or
   later and arrives L after; with nothing on its way to the rank, events up to L before
   its clock cannot reach it. Else the rank posts an M_TICK to itself at its clock and
   waits (0) until it pops: every message arriving earlier pops before it. */
int eng_arrived(sim *S, int rid)
{
    rank *r = &S->r[rid];
    if (r->tick == 1)
        return 0;
    if (r->tick == 2) { /* popped (the driver says so without queueing it) */
        r->tick = 0;
        if (r->t <= r->tick_t)
            return 1;
    }
    if (S->nh == 0 || S->h[0].t > (r->inflight ? r->t : r->t - S->lmin))
        return 1;
    post(S, rid, M_TICK, r->t);
    r->tick = 1;
    r->tick_t = r->t;
    return 0;
}

/* ---- the timeline ------------------------------------------------------------------------ */

void eng_mark_state(sim *S, int rid, int waiting)
{
    int st;
    if (rid >= S->W)
        st = waiting ? WTCRT_S_MASTER_IDLE : WTCRT_S_MASTER_BUSY;
    else if (!waiting)
        st = WTCRT_S_COMPUTE;
    else
        st = S->r[rid].depth > 0 ? WTCRT_S_WAIT_CHILDREN : WTCRT_S_IDLE;
    sim_timeline_mark(S->tl, rid, st, S->tl->base + S->r[rid].t);
}

/* The region has ended at T on rank 0: every other rank waits from its clock on (no
   REGION_END is delivered to it), then is idle between regions; rank 0 goes on with
   main. */
static void mark_region_end(sim *S, double T)
{
    if (!S->tl)
        return;
    for (int i = 1; i < S->P; i++) {
        eng_mark(S, i, 1);
        sim_timeline_mark(S->tl, i, WTCRT_S_IDLE, S->tl->base + T);
    }
    sim_timeline_mark(S->tl, 0, WTCRT_S_COMPUTE, S->tl->base + T);
}

/* ---- frames and calls ------------------------------------------------------------------ */

static int frame_pending(void *ctx, int level);

frame *eng_push(sim *S, int rid, int type)
{
    rank *r = &S->r[rid];
    if (r->depth == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 16;
        r->st = eng_xrealloc(r->st, (size_t)r->cap * sizeof *r->st);
    }
    if (r->depth > 0 && frame_pending(r, r->depth - 1) > 0) { /* the top goes below */
        r->st[r->depth - 1].below = 1;
        r->below++;
    }
    frame *f = &r->st[r->depth++];
    memset(f, 0, sizeof *f);
    f->type = type;
    f->claimed = -1;
    return f;
}

void eng_pop(sim *S, int rid)
{
    rank *r = &S->r[rid];
    r->depth--;
    if (r->depth > 0 && r->st[r->depth - 1].below) { /* the top again */
        r->st[r->depth - 1].below = 0;
        r->below--;
    }
}

void eng_taken(rank *r, int e)
{
    if (r->st[e].below && frame_pending(r, e) == 0) {
        r->st[e].below = 0;
        r->below--;
    }
}

/* Rank rid computes d seconds of the target's time. */
static void compute_d(sim *S, int rid, double d)
{
    eng_mark(S, rid, 0);
    S->r[rid].t = cpu(S, rid, S->r[rid].t, d, 0);
    S->r[rid].compute += d;
}

/* The runtime's own work on the compute path (a poll, a child's start): computing, but
   not the program's code, where the answering thread could take over. */
static void compute_rt(sim *S, int rid, double host_seconds)
{
    compute_d(S, rid, host_seconds * S->inv_cpu * S->r[rid].speed);
}

/* ... in the program's code (a stretch its answering thread answers in: leaf_answer) */
static void compute_user(sim *S, int rid, double d)
{
    rank *r = &S->r[rid];
    double t0 = r->t;
    compute_d(S, rid, d);
    if (r->t > t0) { /* pieces in a row (a leaf, its caller's code after it) are one */
        if (t0 != r->user_to)
            r->user_from = t0;
        r->user_to = r->t;
    }
}

void eng_compute(sim *S, int rid, double host_seconds)
{
    compute_user(S, rid, host_seconds * S->inv_cpu * S->r[rid].speed);
}

static void hand_back(sim *S, int rid, int lo, int hi);

/* Call 'node', about to be computed at once by a rank of rank 0's node other than rank
   0, reads its in: data (its TASK bytes) where they lie, in the node's shared heap
   (doc/predictor.md section 4, "The shared heap's pages"): where main or another rank
   touched those pages first, this rank's page table maps them at its first read,
   t_page_map a page. Charged on what the rank computes, not on what its TASKs brought
   (in steal mode a thief's TASK is half the data and the victim takes much of it back).
   The simulator has no addresses, so which pages a rank has mapped already is
   estimated: within a region its calls are taken as reading different data, up to the
   pages main touched first (main_faults), and a later region as the same data again
   (an iteration's steps over one grid) for as many pages as the rank had in the
   largest region before: S->mapped[rid] is that largest, S->mapped[P + rid] this
   region's. */
static void map_pages(sim *S, int rid, int node)
{
    double *now, before, had, pages;
    if (!S->mapped || rid == 0 || node_of(S, rid) != node_of(S, 0))
        return;
    now = &S->mapped[S->P + rid];
    before = *now;
    *now = fmin(before + S->t->nodes[node].task_bytes / 4096.0, (double)S->t->main_faults);
    had = fmax(before, S->mapped[rid]);
    pages = *now - had;
    if (pages > 0)
        compute_user(S, rid, pages * S->m->t_page_map * S->r[rid].speed);
}

/* Starts running call 'node' owning [lo, hi): a subtree with nothing to spread (or, in
   a mode whose children own rank ranges, a range of one rank) is computed at once,
   otherwise a frame walks it. In a mode that polls at every par (dynamic, steal) a call
   with pars is walked even when all are below the cut-off: each of them polls. */
static void start_node(sim *S, int rid, int node, int lo, int hi)
{
    const sim_tree *t = S->t;
    int walk = t->spawns[node] || (S->ops->poll && t->nodes[node].first_par >= 0);
    if (!walk || (S->mode->ranges && hi - lo <= 1)) {
        map_pages(S, rid, node);
        eng_compute(S, rid, t->seq[node]);
        if (node != S->root)
            hand_back(S, rid, lo, hi);
        return;
    }
    frame *f = eng_push(S, rid, F_NODE);
    f->node = node;
    f->par = t->nodes[node].first_par;
    f->lo = lo;
    f->hi = hi;
}

/* The cost of a poll on the compute path (wtc_par_open, and before each child of a
   dynamic or steal par): where no doorbell rings it asks MPI (two MPI_Iprobe when
   nothing has come, doc/runtime.md "Waiting without burning a core"). Paid once per
   poll, when it becomes due: the poll then looks for what has arrived by the clock
   after it. */
void eng_poll_cost(sim *S, int rid)
{
    if (S->m->t_poll > 0)
        compute_rt(S, rid, S->m->t_poll);
}

/* The runtime's own cost per child (spawn into the arena, clock read, result store)
   first. */
void eng_start_child(sim *S, int rid, int node, int lo, int hi)
{
    compute_rt(S, rid, S->m->t_child);
    start_node(S, rid, node, lo, hi);
}

/* Bytes of the TASK (result 0) or RESULT (1) of children first..first+count-1 (nodes),
   header included; *copied: those the sender copies into the message. */
static double children_bytes(const sim *S, int first, int count, int result, double *copied)
{
    double b = HDR, c = HDR;
    for (int k = first; k < first + count; k++) {
        const sim_node *n = &S->t->nodes[k];
        b += result ? n->result_bytes : n->task_bytes;
        c += result ? n->result_copied : n->task_copied;
    }
    *copied = c;
    return b;
}

msg *eng_send(sim *S, int from, int to, int kind, double bytes)
{
    return send_bytes(S, from, to, kind, bytes, bytes, 0);
}

/* Between ranks of one node the buffers that travel by reference stay where they lie
   (the host's shared heap, mpi/heap.c): only what the sender copies is sent. */
msg *eng_send_children(sim *S, int from, int to, int kind, int first, int count)
{
    double c, b = children_bytes(S, first, count, kind == M_RESULT, &c);
    if (!S->m->intra_copy && node_of(S, from) == node_of(S, to)) {
        wtcrt_stats *st = eng_stats(S, from); /* NULL: no stats kept in this run */
        if (st)
            st->bytes_shared += (long long)(b - c);
        b = c;
    }
    return send_bytes(S, from, to, kind, b, c, count);
}

/* Par p's children from 'off' on are spawned into a frame the mode opens: the runtime's
   spawning time for them (a share of t_spawn), then the mode's open_par. */
static void spawn_rest(sim *S, int rid, int p, int lo, int hi, int off)
{
    const sim_par *pp = &S->t->pars[p];
    eng_compute(S, rid, pp->t_spawn * (pp->nchild - off) / pp->nchild);
    S->ops->open_par(S, rid, p, lo, hi, off);
}

int eng_same_node(const sim *S, int a, int b)
{
    return node_of(S, a) == node_of(S, b);
}

/* The child rank r took after its last stretch of the program's code, still on top
   (-1: none): pending while the stretch ran (leaf_answer, eng_pending_at). */
static int taken_after(const rank *r)
{
    const frame *top = r->depth > 0 ? &r->st[r->depth - 1] : NULL;
    return top && top->type == F_WORK && top->claimed >= 0 && top->claimed == top->i - 1
               ? top->claimed : -1;
}

int eng_pending_at(sim *S, int v, double t)
{
    const rank *r = &S->r[v];
    if (r->t <= t)
        return eng_pending(r);
    if (r->tick == 1 && t >= r->user_from && t < r->user_to)
        return eng_pending(r) || taken_after(r) >= 0;
    return -1;
}

/* Whether r's frames hold children pending, which a thief or a grant may take (the
   runtime's rt->npending > 0; the core's rules ask no more): the top frame's, or a
   frame below counted in r->below. A walk of the frames made every par of a spine
   thousands of calls deep cost its depth (a 1 s program took 424 s to predict, a chain
   40 000 deep 15 s). */
int eng_pending(const rank *r)
{
    int any = r->below > 0 || (r->depth > 0 && frame_pending((void *)(uintptr_t)r,
                                                             r->depth - 1) > 0);
#ifdef SIM_CHECK_PENDING /* the walk that 'below' saves (a spine 10 000 calls deep took
                            seconds to predict), as a check */
    int walk = 0;
    for (int l = r->depth - 1; l >= 0 && !walk; l--)
        walk = frame_pending((void *)(uintptr_t)r, l) > 0;
    if (walk != any) {
        fprintf(stderr, "eng_pending: walk %d, below %d, depth %d:", walk, r->below, r->depth);
        for (int l = 0; l < r->depth; l++)
            fprintf(stderr, " [%d: type %d %d..%d below %d]", l, r->st[l].type, r->st[l].i,
                    r->st[l].end, r->st[l].below);
        fprintf(stderr, "\n");
        abort();
    }
#endif
    return any;
}

/* Starts par p of the call on top of rank rid's stack: sequentially here when it does
   not spread (cond false, no children, a range of one rank); inline when the core says
   so (F_INLINE: the runtime's WTC_INLINE, its children called in order, no spawn, no
   cost per child but their calls); else the mode opens it. */
static void start_par(sim *S, int rid, int p, int lo, int hi)
{
    const sim_par *pp = &S->t->pars[p];
    if (!pp->cond && wtcp_hands_back(S->mode, lo, hi)) {
        frame *call = &S->r[rid].st[S->r[rid].depth - 1]; /* the F_NODE: it has */
        call->hi = call->lo + 1;
        hand_back(S, rid, lo, hi);
    }
    if (!pp->cond || pp->nchild == 0 || (S->mode->ranges && hi - lo <= 1)) {
        double s = 0;
        for (int c = 0; c < pp->nchild; c++) {
            map_pages(S, rid, pp->first_child + c);
            s += S->t->seq[pp->first_child + c];
        }
        eng_compute(S, rid, s);
        return;
    }
    if (wtcp_grain_add(S->mode, &S->r[rid].grain, 1))
        wtcp_grain_mark(&S->r[rid].grain, S->r[rid].t);
    if (wtcp_par_inline(S->mode, eng_pending(&S->r[rid]), &S->r[rid].grain, lo, hi)) {
        frame *f = eng_push(S, rid, F_INLINE); /* step_inline */
        if (eng_stats(S, rid))
            eng_stats(S, rid)->pars_inline++;
        f->par = p;
        f->node = f->i = pp->first_child;
        f->end = pp->first_child + pp->nchild;
        f->lo = lo;
        f->hi = hi;
        return;
    }
    if (eng_stats(S, rid))
        eng_stats(S, rid)->pars_framed++;
    if (S->ops->spawn_poll && S->mode->spawn_polls && pp->nchild >= WTCP_SPAWN_POLL) {
        frame *f = eng_push(S, rid, F_SPAWN); /* step_spawn */
        f->par = p;
        f->node = f->i = f->end = pp->first_child;
        f->lo = lo;
        f->hi = hi;
        return;
    }
    spawn_rest(S, rid, p, lo, hi, 0);
}

/* A par of WTCP_SPAWN_POLL children or more in a mode with spawn polls, while its body
   spawns: its spawning time (t_spawn, spread evenly over its children) in chunks of
   WTCP_SPAWN_POLL children, the mode's spawn poll after each (thieves take the front of
   those spawned), then the par opens with the rest (wtcp_spawn_poll_due). */
static int step_spawn(sim *S, int rid, frame *f)
{
    const sim_par *pp = &S->t->pars[f->par];
    int k = pp->nchild, done = f->end - pp->first_child;
    if (f->phase == 1) { /* the poll after a chunk */
        if (S->ops->spawn_poll(S, rid) < 0)
            return 0;
        S->r[rid].st[S->r[rid].depth - 1].phase = 0;
        return 1;
    }
    if (done < k) {
        int n = k - done < WTCP_SPAWN_POLL ? k - done : WTCP_SPAWN_POLL;
        eng_compute(S, rid, pp->t_spawn * n / k);
        f->end += n;
        if (wtcp_spawn_poll_due(S->mode, f->end - pp->first_child)) {
            eng_poll_cost(S, rid);
            f->phase = 1;
        }
        return 1;
    }
    int p = f->par, lo = f->lo, hi = f->hi, off = f->i - pp->first_child;
    int out = f->outstanding;
    eng_pop(S, rid);
    S->ops->open_par(S, rid, p, lo, hi, off);
    S->r[rid].st[S->r[rid].depth - 1].outstanding += out; /* the RESULTs thieves owe */
    return 1;
}

static int frame_pending(void *ctx, int level)
{
    const frame *f = &((rank *)ctx)->st[level];
    return f->type == F_WORK || f->type == F_SPAWN ? f->end - f->i : 0;
}

static int frame_closing(void *ctx, int level)
{
    int type = ((rank *)ctx)->st[level].type;
    return type == F_WORK || type == F_SPAWN;
}

wtcp_frames eng_frames(rank *r)
{
    wtcp_frames v = { r->depth, frame_pending, frame_closing, r };
    return v;
}

void eng_log_task(const sim *S, int p, int first, int count, int to, int seed)
{
    FILE *f = wtcp_log_file();
    if (f)
        fprintf(f, "%s %d %d %d -> %d\n", seed ? "seed" : "send", S->t->nodes[first].depth,
                first - S->t->pars[p].first_child, count, to);
}

/* Simple mode's split (and the seeds of steal and dynamic mode, 'seed'): par p's
   children cut into s sub-ranges of [lo, lo+n) (the core's wtcp_split_*), one TASK for
   each sub-range j > 0 to its first rank, owning it, answered to the frame rank rid
   pushes next. */
void eng_send_split(sim *S, int rid, int p, int off, int lo, int n, int s, int seed)
{
    const sim_par *pp = &S->t->pars[p];
    int k = pp->nchild - off, fidx = S->r[rid].depth;
    eng_group_begin(S);
    for (int j = 1; j < s; j++) {
        int c0 = off + wtcp_split_first(j, k, s), c1 = off + wtcp_split_first(j + 1, k, s);
        int to = wtcp_split_lo(lo, n, j, s);
        msg *m = eng_send_children(S, rid, to, M_TASK, pp->first_child + c0, c1 - c0);
        m->a = p;
        m->b = pp->first_child + c0;
        m->d = fidx;
        m->lo = to;
        m->hi = wtcp_split_lo(lo, n, j + 1, s);
        m->seed = seed;
        S->res->remote_calls += c1 - c0;
        eng_log_task(S, p, pp->first_child + c0, c1 - c0, to, seed);
    }
    eng_group_end(S);
}

frame *eng_open_seeded(sim *S, int rid, int p, int lo, int hi, int off, int *sp)
{
    const sim_par *pp = &S->t->pars[p];
    int k = pp->nchild - off, n = hi - lo, s = wtcp_seed_count(S->mode, k, n);
    int fidx = S->r[rid].depth;
    frame *f;
    eng_send_split(S, rid, p, off, lo, n, s, 1);
    if (n > 1 && fidx > 0 && S->r[rid].st[fidx - 1].type == F_NODE)
        S->r[rid].st[fidx - 1].hi = S->r[rid].st[fidx - 1].lo + 1; /* seeds once */
    f = eng_push(S, rid, F_WORK);
    f->par = p;
    f->node = pp->first_child;
    f->i = pp->first_child + off;
    f->end = pp->first_child + off + (s > 1 ? wtcp_split_first(1, k, s) : k);
    f->outstanding = s - 1;
    f->lo = n > 1 ? lo : rid;
    f->hi = n > 1 ? wtcp_split_lo(lo, n, 1, s) : rid + 1;
    *sp = s;
    return f;
}

/* A call of rid owning [lo, hi) gives its ranks up unspread (a par with cond false, or
   its return, the region's root excepted): where the mode hands them back
   (wtcp_hands_back), each rank but rid (the runtime's par.c hand_back). */
static void hand_back(sim *S, int rid, int lo, int hi)
{
    if (!wtcp_hands_back(S->mode, lo, hi))
        return;
    for (int r = lo; r < hi; r++)
        if (r != rid) {
            wtcp_log_back(r);
            S->ops->hand_back(S, rid, r);
        }
}

/* ---- workers ---------------------------------------------------------------------------- */

/* A call: its pars in order, each after its own compute, then its last compute. Where
   the mode polls at every par (wtc_par_open), the poll comes after the compute (the
   recording does not split the compute before the par from the par's loop body); the
   par of a region in main (depth -1, wtc_region_open) does not poll. */
static int step_node(sim *S, int rid, frame *f)
{
    const sim_tree *t = S->t;
    if (f->phase == 1) { /* its par has ended */
        f->par = t->pars[f->par].next;
        f->phase = 0;
    } else if (f->par < 0) {
        int node = f->node, lo = f->lo, hi = f->hi;
        eng_compute(S, rid, t->nodes[f->node].t_after);
        eng_pop(S, rid);
        if (node != S->root)
            hand_back(S, rid, lo, hi);
    } else if (f->phase == 0) {
        eng_compute(S, rid, t->pars[f->par].t_before);
        f->phase = S->ops->poll && t->nodes[f->node].depth >= 0 ? 2 : 3;
        if (f->phase == 2)
            eng_poll_cost(S, rid);
    } else {
        int p = f->par, lo = f->lo, hi = f->hi, x;
        if (f->phase == 2 && (x = S->ops->poll(S, rid)) != 0)
            return x > 0; /* waits, or runs a received TASK first */
        f->phase = 1;
        start_par(S, rid, p, lo, hi);
    }
    return 1;
}

/* A received group: its children in order, then one RESULT to the parent. */
static int step_group(sim *S, int rid, frame *f)
{
    if (f->i < f->end) {
        int c = f->i++, lo = f->lo, hi = f->hi;
        eng_start_child(S, rid, c, lo, hi);
    } else {
        int src = f->src, sf = f->srcframe, first = f->node, n = f->end - f->node;
        eng_pop(S, rid);
        msg *m = eng_send_children(S, rid, src, M_RESULT, first, n);
        m->d = sf;
    }
    return 1;
}

/* A par run inline: its children in order, each a direct call (its pars poll and may
   spawn again), a poll before each but the first (wtc_par_next), then the call goes
   on; when the rank has nothing pending left at such a poll, the rest are spawned into
   a frame as the runtime does (the mode's par from child 'off' on). */
static int step_inline(sim *S, int rid, frame *f)
{
    int fidx = S->r[rid].depth - 1, x, c;
    if (f->claimed >= 0) { /* the poll, then the child (wtc_par_next) */
        if ((x = S->ops->poll(S, rid)) != 0)
            return x > 0; /* waits, or runs a received TASK first */
        f = &S->r[rid].st[fidx];
        c = f->claimed;
        f->claimed = -1;
        if (wtcp_par_convert(eng_pending(&S->r[rid]))) { /* the rest go into a frame */
            int p = f->par, lo = f->lo, hi = f->hi, off = c - S->t->pars[p].first_child;
            eng_pop(S, rid);
            if (eng_stats(S, rid))
                eng_stats(S, rid)->pars_framed++;
            spawn_rest(S, rid, p, lo, hi, off);
            return 1;
        }
        start_node(S, rid, c, f->lo, f->hi);
    } else if (f->i < f->end) {
        c = f->i++;
        if (c > f->node && S->ops->poll) {
            f->claimed = c;
            eng_poll_cost(S, rid);
        } else {
            start_node(S, rid, c, f->lo, f->hi);
        }
    } else {
        eng_pop(S, rid);
    }
    return 1;
}

/* One step of the frame on top of a worker's stack; 0 when it must wait. */
static int step(sim *S, int rid)
{
    rank *r = &S->r[rid];
    frame *f = &r->st[r->depth - 1];
    if (f->type == F_NODE)
        return step_node(S, rid, f);
    if (f->type == F_GROUP)
        return step_group(S, rid, f);
    if (f->type == F_SPAWN)
        return step_spawn(S, rid, f);
    if (f->type == F_INLINE)
        return step_inline(S, rid, f);
    return S->ops->step(S, rid);
}

int eng_serve_groups(sim *S, int rid)
{
    rank *r = &S->r[rid];
    int i = eng_take(S, r, -1, -1);
    if (i < 0)
        return 0;
    eng_receive(S, rid, i, NULL);
    msg *m = &S->msgs[i];
    if (m->kind == M_TASK) {
        frame *f = eng_push(S, rid, F_GROUP);
        f->node = f->i = m->b;
        f->par = m->a;
        f->end = m->b + m->c;
        f->lo = m->lo;
        f->hi = m->hi;
        f->src = m->src;
        f->srcframe = m->d;
    } else if (m->kind == M_END) {
        eng_end_send(S, rid);
        r->finished = 1;
    } else {
        eng_internal(S, "unexpected message in the server loop", rid);
    }
    eng_msg_free(S, i);
    return !r->finished;
}

/* Rank rid sends REGION_END on by the core's route (rank 0: its root has returned; the
   others: theirs has come, and they pass it on before they act on it). */
void eng_end_send(sim *S, int rid)
{
    int n = wtcp_end_to(rid, S->P, S->kids);
    for (int x = 0; x < n; x++)
        eng_send(S, rid, S->kids[x], M_END, HDR);
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
            if (r->t < S->hold) { /* a held region's end waits for MPI's start
                                     (wtcrt_mpi_ready), whatever the mode */
                eng_mark(S, 0, 1);
                r->t = S->hold;
            }
            eng_end_send(S, 0);
            if (S->end_barrier)
                r->finished = 1; /* it takes part in the barrier (wake) */
            else
                S->done = 1;
            return;
        } else if (!S->ops->serve(S, rid)) {
            return;
        }
    }
}

/* ---- the region start: REGION_BEGIN by the core's route (doc/predictor.md) --------- */

/* Rank rid sends REGION_BEGIN of 'bytes' on to the ranks the core's route gives it; it
   waits for the synchronous ones to complete before it does anything else. */
static void begin_send(sim *S, int rid, double bytes)
{
    int n = wtcp_bcast_to(rid, S->P, S->bcast_tree, S->kids);
    for (int x = 0; x < n; x++) {
        if (wtcp_log_file())
            fprintf(wtcp_log_file(), "begin %d -> %d\n", rid, S->kids[x]);
        eng_send(S, rid, S->kids[x], M_BEGIN, bytes);
    }
    S->r[rid].bcast_wait = S->r[rid].sync_pending > 0;
}

/* A rank that has not begun takes its REGION_BEGIN first (the runtime's server loop
   receives only from the rank that passes it on) and passes it on; 0 when it has not
   come yet. */
static int begin_take(sim *S, int rid)
{
    rank *r = &S->r[rid];
    int i = eng_take(S, r, -1, M_BEGIN);
    double bytes;
    if (i < 0)
        return 0;
    eng_receive(S, rid, i, NULL);
    bytes = S->msgs[i].bytes;
    eng_msg_free(S, i);
    r->begun = 1;
    begin_send(S, rid, bytes);
    return 1;
}

/* Whether the rank has its REGION_BEGIN and every send of it on has completed; rank 0
   then starts the root. */
static int begun(sim *S, int rid)
{
    rank *r = &S->r[rid];
    if (!r->begun && !begin_take(S, rid))
        return 0;
    if (r->bcast_wait) {
        if (!eng_wait_sends(S, rid))
            return 0;
        r->bcast_wait = 0;
        if (rid == 0)
            start_node(S, 0, S->root, 0, wtcp_root_ranks(S->mode, S->roles));
    }
    return 1;
}

/* ---- the region end: the barrier of dynamic and steal mode (doc/predictor.md) ------- */

/* Rank rid sends the message of the barrier's round it is in (wtcp_barrier_peers). */
static void bar_send(sim *S, int rid)
{
    int to, from;
    wtcp_barrier_peers(rid, S->P, S->r[rid].bar_k, &to, &from);
    eng_send(S, rid, to, M_BAR, 0)->a = S->r[rid].bar_k;
}

/* Inbox message i of a rank at the region's end (the runtime's dyn_end, steal_end): a
   barrier message counts for its round, seen as the runtime's back-off from the
   barrier's start sees it (no doorbell rings for MPI's own messages); a STEAL gets
   NOWORK; a NOWORK answers the rank's STEAL; a completed TASK send or a timer is done
   with; a late control message (GRANT, REQ, FWD, IDLE) is received and dropped. */
static void end_take(sim *S, int rid, int i)
{
    rank *r = &S->r[rid];
    msg m = S->msgs[i];
    if (m.kind == M_DONE) {
        eng_send_done_taken(S, rid, i, NULL);
        return;
    }
    if (m.kind == M_WAKE) {
        r->timers -= r->timers > 0;
        eng_msg_free(S, i);
        return;
    }
    if (m.kind == M_BAR) {
        double seen = eng_notice(S, r->bar_t0, m.arr, 0);
        if (seen > r->t) {
            eng_mark(S, rid, 1);
            r->t = seen;
        }
        r->bar_got |= 1ULL << m.a;
    }
    eng_receive(S, rid, i, NULL);
    eng_msg_free(S, i);
    if (m.kind == M_STEAL)
        eng_send(S, rid, m.src, M_NOWORK, HDR);
    else if (m.kind == M_NOWORK)
        r->steal_out = 0;
    else if (m.kind == M_TASK || m.kind == M_RESULT || m.kind == M_BEGIN)
        eng_internal(S, "work after the region's end", rid);
}

/* A rank that has its REGION_END (rank 0: has sent them) in a mode that ends with a
   barrier: once its STEAL is answered and its TASK sends have completed it enters the
   barrier, and goes from round to round as their messages come; rank 0's region is
   over when it leaves. */
static void end_run(sim *S, int rid)
{
    rank *r = &S->r[rid];
    int local = wtcp_barrier_local(S->one_bell);
    int rounds = local ? 1 : wtcp_barrier_rounds(S->P), i;
    if (S->ops->ending && !r->bar_in)
        S->ops->ending(S, rid);
    for (;;) {
        if (!r->bar_in && !r->steal_out && r->sync_pending == 0) {
            r->bar_in = 1;
            r->bar_t0 = r->t;
            if (local && ++S->bar_arrived == S->P) {
                /* the last: the others' release, a ring each (round 0's message) */
                r->bar_got |= 1;
                for (int x = 0; x < S->P; x++)
                    if (x != rid)
                        eng_send(S, rid, x, M_BAR, 0)->a = 0;
            } else if (!local && rounds > 0) {
                bar_send(S, rid);
            }
        }
        while (r->bar_in && r->bar_k < rounds && (r->bar_got >> r->bar_k & 1))
            if (++r->bar_k < rounds)
                bar_send(S, rid);
        if (r->bar_in && r->bar_k == rounds) {
            if (rid == 0)
                S->done = 1;
            return;
        }
        /* the barrier's messages wait until it has entered (MPI matches them then) */
        if ((i = eng_take(S, r, -1, r->bar_in ? ANY_KIND : -1)) < 0)
            return;
        end_take(S, rid, i);
    }
}

static void wake(sim *S, int rid)
{
    rank *r = &S->r[rid];
    if (!begun(S, rid))
        return;
    if (!r->finished && rid >= S->W)
        S->ops->master(S, rid);
    else if (!r->finished)
        worker_run(S, rid);
    if (r->finished && S->end_barrier && !S->error)
        end_run(S, rid);
}

/* ---- driver ------------------------------------------------------------------------------ */

static void sim_free(sim *S)
{
    for (int i = 0; i < S->P; i++) {
        free(S->r[i].st);
        free(S->r[i].seeds.v);
        free(S->r[i].parked.v);
    }
    free(S->r);
    free(S->msgs);
    free(S->h);
    free(S->grants);
    free(S->idle);
    free(S->nidle);
    free(S->shown);
    free(S->standing);
    free(S->seen);
    free(S->flagged);
    free(S->refused);
    free(S->picked);
    free(S->stamp);
    free(S->nstanding);
    free(S->kids);
    free(S->grp);
    for (int n = 0; n < S->nnodes; n++) {
        if (S->port_out) {
            eng_res_free(&S->port_out[n]);
            eng_res_free(&S->port_in[n]);
        }
        if (S->cores)
            eng_res_free(&S->cores[n]);
    }
    free(S->port_out);
    free(S->port_in);
    free(S->cores);
}

static int ranks_on(const sim *S, int node)
{
    int left = S->P - node * S->rpn;
    return left < S->rpn ? left : S->rpn;
}

/* The nodes of the machine file: ports when there are several, shared cores where a
   node holds more ranks than it has cores. */
static void machine_setup(sim *S)
{
    const sim_machine *m = S->m;
    int over = 0;
    S->rpn = sim_ranks_per_node(m, S->P);
    S->nnodes = (S->P + S->rpn - 1) / S->rpn;
    S->one_bell = S->nnodes == 1 && !m->no_doorbell;
    /* the latencies that occur: L between nodes, L_intra within a node of 2+ ranks */
    if (S->nnodes == 1)
        S->lmin = m->L_intra;
    else
        S->lmin = S->rpn >= 2 && m->L_intra < m->L ? m->L_intra : m->L;
    if (S->nnodes > 1 && m->G > 0) {
        S->port_out = eng_xrealloc(NULL, (size_t)S->nnodes * sizeof *S->port_out);
        S->port_in = eng_xrealloc(NULL, (size_t)S->nnodes * sizeof *S->port_in);
        for (int n = 0; n < S->nnodes; n++) {
            eng_res_init(&S->port_out[n], 1);
            eng_res_init(&S->port_in[n], 1);
        }
    }
    for (int n = 0; n < S->nnodes; n++)
        over |= m->cores >= 1 && ranks_on(S, n) > m->cores;
    if (!over)
        return;
    S->cores = eng_xrealloc(NULL, (size_t)S->nnodes * sizeof *S->cores);
    for (int n = 0; n < S->nnodes; n++)
        eng_res_init(&S->cores[n], ranks_on(S, n) > m->cores ? (int)m->cores : 0);
}

/* The roles of a setting: masters as the runtime takes them (reduced to P - 1). */
static int roles_of(sim_setting s, const wtcp_mode **mode, wtcp_roles *roles)
{
    int reduced;
    *mode = wtcp_mode_get(s.mode);
    if (!*mode || !ops_of(s.mode) || s.procs < 1)
        return -1;
    if (s.unseeded)
        *mode = wtcp_unseeded(*mode);
    *roles = wtcp_roles_make(*mode, s.procs, wtcp_masters(*mode, s.procs, s.masters,
                                                          &reduced));
    return 0;
}

/* Whether run s of a setting of this mode draws the ranks' speeds and the messages'
   costs (rank_speeds, draw_machine): not draw 0, and only a timed mode on a machine
   whose speed_spread is not 0. */
static int draws_speeds(const wtcp_mode *mode, sim_setting s, const sim_machine *m)
{
    return s.draw && mode->timed && m->speed_spread > 0;
}

/* A factor uniform within 1 +- m's speed_spread, one for each (key, seed). */
static double drawn_factor(const sim_machine *m, int key, unsigned seed)
{
    unsigned long long x = wtcp_victim_seed(key, seed) * 0x2545F4914F6CDD1DULL;
    return 1 + m->speed_spread * (2 * ((double)(x >> 11) / 0x1p53) - 1);
}

/* How fast each rank computes in this run (rank.speed: the factor its recorded times
   take): 1 in draw 0 (the runtime's own victim sequence, which the decision log
   compares) and in a mode whose decisions do not follow the timing; in the other draws
   of a timed mode each rank its own speed for the whole run, uniform within 1 +- the
   machine's speed_spread, scaled so that the workers' mean speed stays 1 (a master
   keeps its own): a draw moves work between ranks, never adds any, so no run beats the
   recorded work spread evenly (speed_draws in tests/unit/sim_engine.c). A draw of the
   ranks' speeds and of the messages' costs (draw_machine) is what makes two runs of the
   program differ, and the mean over draws (sim_run_timeline) what keeps a prediction
   from flipping between two outcomes on timings recorded a fraction of a per cent
   apart. */
static void rank_speeds(sim *S)
{
    double sum = 0;
    if (!draws_speeds(S->mode, S->s, S->m))
        return;
    for (int i = 0; i < S->P; i++) {
        /* another stream than the victims' (wtcp_victim_seed(i, draw)) */
        S->r[i].speed = drawn_factor(S->m, i + S->P, S->s.draw ^ 0x5eedu);
        if (i < S->W) /* the workers' mean (ranks 0 .. W-1); a master's is its own */
            sum += S->r[i].speed;
    }
    for (int i = 0; i < S->P; i++) /* a speed s computes in 1/s of the recorded time */
        S->r[i].speed = (i < S->W ? sum / S->W : 1) / S->r[i].speed;
}

static int sim_setup(sim *S, const sim_tree *t, const sim_machine *m, sim_setting s,
                     sim_result *res)
{
    memset(S, 0, sizeof *S);
    S->t = t;
    S->m = m;
    S->s = s;
    S->res = res;
    if (roles_of(s, &S->mode, &S->roles) < 0)
        return -1;
    S->ops = ops_of(s.mode);
    S->P = S->roles.P;
    S->M = S->roles.M;
    S->W = S->roles.W;
    S->batch = s.batch;
    S->inv_cpu = 1.0 / m->cpu_ratio;
    S->freel = -1;
    S->r = eng_xrealloc(NULL, (size_t)S->P * sizeof *S->r);
    memset(S->r, 0, (size_t)S->P * sizeof *S->r);
    for (int i = 0; i < S->P; i++) {
        S->r[i].head = S->r[i].tail = -1;
        S->r[i].asleep = i != 0;
        S->r[i].begun = i == 0;
        S->r[i].rng = wtcp_victim_seed(i, s.draw);
        S->r[i].settled = i == 0;
        S->r[i].speed = 1;
        wtcp_grain_start(&S->r[i].grain, 0);
    }
    if (S->W >= 2) /* computing ranks share the host (machine file: contention) */
        S->inv_cpu *= 1 + m->contention;
    rank_speeds(S);
    S->kids = eng_xrealloc(NULL, (size_t)(S->P > 32 ? S->P : 32) * sizeof *S->kids);
    machine_setup(S);
    return S->ops->setup ? S->ops->setup(S) : 0;
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
            res->wait_children += r->wchild;
        } else {
            res->master_busy += r->busy < T ? r->busy : T;
        }
    }
    res->time += T;
}

/* The answering thread (doc/runtime.md "Answers from inside a leaf"): message i, just
   arrived, of the kind the mode answers from leaves, to a rank whose clock is ahead
   inside its last stretch of the program's code (it waits for its look at that clock,
   eng_arrived): its thread answers at the time it is rung and wakes, and the main
   thread goes on computing. Rung at once for a GRANT, by the thief WTCP_ANSWER_GRACE
   after its STEAL left; from another node nobody rings, and the thread looks every
   WTCP_ANSWER_TICK while the main thread stays in the program's code: on average 1.5
   ticks. The frames did not change during the stretch, so the answer is the one a
   poll there would give. 1: answered (i freed). */
static int leaf_answer(sim *S, int i)
{
    const msg *m = &S->msgs[i];
    int rid = m->dst;
    rank *r = &S->r[rid];
    double ta, keep;
    if (!S->ops->leaf || S->m->leaf_wait || m->kind != S->ops->leaf_kind || r->tick != 1 ||
        m->arr < r->user_from || m->src < 0)
        return 0;
    if (node_of(S, m->src) != node_of(S, rid))
        ta = m->arr + 1.5 * WTCP_ANSWER_TICK;
    else if (m->kind == M_STEAL && m->sent + WTCP_ANSWER_GRACE > m->arr)
        ta = m->sent + WTCP_ANSWER_GRACE + S->m->w_wake;
    else
        ta = m->arr + S->m->w_wake;
    if (ta >= r->user_to)
        return 0; /* the main thread's poll comes first */
    /* after the stretch the rank took its next child (its poll is due): at ta that child
       was still pending, the thread may give it */
    frame *top = r->depth > 0 ? &r->st[r->depth - 1] : NULL;
    int c = taken_after(r);
    if (c >= 0) {
        top->i = c;
        top->claimed = -1;
        r->npending++;
    }
    keep = r->t;
    r->t = ta;
    S->answering = 1;
    S->ops->leaf(S, rid, m);
    S->answering = 0;
    r->t = keep;
    if (c >= 0 && (top = &r->st[r->depth - 1])->i == c && c < top->end) {
        top->i = c + 1; /* still here: taken again (else it went: nothing is taken) */
        top->claimed = c;
        r->npending--;
    }
    if (eng_stats(S, rid))
        eng_stats(S, rid)->leaf_answers++;
    eng_msg_free(S, i);
    return 1;
}

/* 'hold': MPI is up that long after the region's start (0: before it); rank 0 runs the
   region at once, its messages wait, and the other ranks, just started, are awake. */
static int run_region(const sim_tree *t, int region, const sim_machine *m, sim_setting s,
                      sim_result *res, sim_timeline *tl, double hold, double *mapped)
{
    sim S;
    int root = t->regions[region].root;
    if (sim_setup(&S, t, m, s, res) < 0) {
        sim_free(&S);
        return -1;
    }
    S.tl = tl;
    S.mapped = mapped;
    if (mapped)
        memset(mapped + S.P, 0, (size_t)S.P * sizeof *mapped);
    S.hold = hold;
    for (int i = 1; hold > 0 && i < S.P; i++)
        S.r[i].asleep = 0;
    if (S.P == 1) { /* one processor: the sequential clones, no messages */
        eng_compute(&S, 0, t->seq[root]);
        sim_collect(&S, S.r[0].t);
        sim_free(&S);
        return 0;
    }
    S.root = root;
    S.bcast_tree = wtcp_bcast_tree(S.P, (long long)t->regions[region].begin_bytes);
    S.end_barrier = wtcp_end_barrier(S.mode, S.P);
    begin_send(&S, 0, HDR + t->regions[region].begin_bytes);
    if (!S.r[0].bcast_wait)
        start_node(&S, 0, root, 0, wtcp_root_ranks(S.mode, S.roles));
    wake(&S, 0);
    /* after rank 0 ends the region, deliver what arrives before that moment, so the
       other ranks' accounts cover the same span */
    while (!S.error && S.nh > 0 && (!S.done || S.h[0].t <= S.r[0].t)) {
        S.now = S.h[0].t;
        int i = heap_pop(&S);
        msg *mm = &S.msgs[i];
        rank *r = &S.r[mm->dst];
        r->inflight--;
        if (mm->kind == M_TICK) { /* the rank's look at its clock is answered */
            r->tick = 2;
            eng_msg_free(&S, i);
            wake(&S, mm->dst);
            continue;
        }
        if (leaf_answer(&S, i))
            continue;
        mm->next = -1;
        if (r->tail >= 0)
            S.msgs[r->tail].next = i;
        else
            r->head = i;
        r->tail = i;
        wake(&S, mm->dst);
    }
    if (!S.done && !S.error)
        eng_internal(&S, "deadlock (no message left to deliver)", 0);
    mark_region_end(&S, S.r[0].t);
    sim_collect(&S, S.r[0].t);
    for (int i = 0; mapped && i < S.P; i++) /* map_pages: the largest region so far */
        mapped[i] = fmax(mapped[i], mapped[S.P + i]);
    sim_free(&S);
    return S.error ? -1 : 0;
}

int sim_run_region(const sim_tree *t, int region, const sim_machine *m, sim_setting s,
                   sim_result *res)
{
    return run_region(t, region, m, s, res, NULL, 0, NULL);
}

/* The roles of the setting on the timeline's lanes (the table's role column). */
static void timeline_roles(sim_timeline *tl, wtcp_roles roles)
{
    for (int i = 0; i < tl->P; i++) {
        if (i >= roles.W)
            tl->st[i].master = 1;
        else
            tl->st[i].worker = 1;
    }
}

int sim_run(const sim_tree *t, const sim_machine *m, sim_setting s, sim_result *r)
{
    return sim_run_timeline(t, m, s, r, NULL);
}

/* The machine a draw's run sees: m itself in draw 0 and where the mode's decisions do
   not follow the timing; in the other draws of a timed mode (rank_speeds) m with its
   messages' costs (latency, gaps, overheads, the wake-up of a sleeper, a master's time
   to answer a request) all by one factor uniform within 1 +- speed_spread: how long a
   message takes moves from run to run as a rank's speed does. */
static const sim_machine *draw_machine(const sim_machine *m, const wtcp_mode *mode,
                                       sim_setting s, sim_machine *dm)
{
    double f;
    if (!draws_speeds(mode, s, m))
        return m;
    f = drawn_factor(m, -1, s.draw ^ 0xc0au);
    *dm = *m;
    double *v[] = { &dm->L, &dm->G, &dm->o_sa, &dm->o_sb, &dm->O_s, &dm->o_ra, &dm->o_rb,
                    &dm->O_r, &dm->L_intra, &dm->G_intra, &dm->O_r_result, &dm->O_s_reuse,
                    &dm->G_reuse, &dm->O_r_reuse, &dm->w_wake, &dm->t_m };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        *v[i] *= f;
    return dm;
}

/* One simulated run of setting s, draw s.draw: its thieves' victim sequence and its
   ranks' speeds (rank_speeds). */
static int run_draw(const sim_tree *t, const sim_machine *m, sim_setting s, sim_result *r,
                    sim_timeline *tl)
{
    const wtcp_mode *mode;
    wtcp_roles roles;
    sim_machine dm;
    const sim_machine *dmp; /* the regions' machine (draw_machine), not the job's */
    memset(r, 0, sizeof *r);
    if (roles_of(s, &mode, &roles) < 0 || (tl && tl->P != roles.P))
        return -1;
    dmp = draw_machine(m, mode, s, &dm);
    r->nworkers = roles.W;
    r->nmasters = roles.M;
    if (tl)
        timeline_roles(tl, roles);
    /* the job's own costs (doc/predictor.md section 4): none for one rank, which runs
       without MPI. MPI's start runs beside main unless the program may call MPI itself
       or the ranks span nodes (wtcp_start_kind); then every rank is up 'start' after
       main began */
    double P = roles.P, launch = 0, start = 0, end = 0, before = 0, wait = 0, heap = 0;
    double *mapped = NULL; /* map_pages: per rank, over the run's regions */
    int kind = wtcp_start_kind(t->calls_mpi, t->nshared,
                               sim_ranks_per_node(m, roles.P) >= roles.P);
    if (roles.P > 1) {
        launch = m->t_launch + m->t_launch_p * P;
        start = m->t_start + m->t_start_p * P;
        end = m->t_end + m->t_end_p * P;
        /* the pages main touches first lie in the node's shared heap (doc/runtime.md
           "Big buffers stay where they are on one host"): slower to touch, and given
           back at the job's end */
        if (sim_shared_heap(m, roles.P)) {
            heap = (double)t->main_faults * m->t_page_shared;
            end += (double)t->main_faults * m->t_page_free;
            if (m->t_page_map > 0 && !(mapped = calloc(2 * (size_t)roles.P, sizeof *mapped)))
                eng_out_of_memory();
        }
    }
    if (kind == WTCP_START_FIRST) {
        before = start;
        start = 0;
    }
    for (int g = 0; g < t->nregions; g++) {
        /* main's pages are taken as touched before the first region (the input it
           builds): they delay its start, and MPI's start runs beside them too */
        double at = t->regions[g].main_at / m->cpu_ratio + heap, hold = 0;
        if (g == 0 && start > at) { /* the region opens before MPI is up */
            if (kind == WTCP_START_HOLD)
                hold = start - at;
            else /* it waits for MPI, every rank idle */
                r->time += wait = start - at;
        }
        if (tl) /* on the program's clock: after main's own time before the region */
            tl->base = at + r->time;
        if (run_region(t, g, dmp, s, r, tl, hold, mapped) < 0) {
            free(mapped);
            return -1;
        }
    }
    free(mapped);
    if (tl)
        sim_timeline_close(tl, r->time + t->main_time / m->cpu_ratio + heap);
    /* main's own time: computing on rank 0, idle elsewhere */
    r->regions = r->time - wait;
    r->time += t->main_time / m->cpu_ratio + heap;
    r->compute += t->main_time / m->cpu_ratio + heap;
    /* main ends only once MPI is up (it joins the start: wtcrt_mpi_ready) */
    if (r->time < start) {
        wait += start - r->time;
        r->time = start;
    }
    r->job = launch + before + wait + end;
    r->time += launch + before + end;
    r->idle = r->nworkers * r->time - r->compute - r->comm - r->wait_master -
              r->wait_children;
    if (r->idle < 0)
        r->idle = 0;
    r->runs = 1;
    r->time_min = r->time_max = r->time;
    return 0;
}

static int sim_runs = SIM_RUNS;
#define SIM_THREADS_MAX 64 /* threads simulating the draws of one setting */

void sim_set_runs(int runs)
{
    sim_runs = runs;
}

/* How many runs setting s is simulated with (draws: victim sequences, ranks' speeds):
   several where its thieves choose victims at random among two or more, or where its
   decisions follow the timing (wtcp_mode.timed) of two or more workers on a machine
   whose ranks' speeds differ (speed_spread); one otherwise, and where a decision log is
   open (it is compared with the runtime's own run: draw 0). */
static int draws_of(sim_setting s, const sim_machine *m)
{
    const wtcp_mode *mode;
    wtcp_roles roles;
    if (roles_of(s, &mode, &roles) < 0 || wtcp_log_file())
        return 1;
    if ((mode->random_victims && roles.W >= 3) ||
        (mode->timed && roles.W >= 2 && m->speed_spread > 0))
        return sim_runs;
    return 1;
}

/* The draws of one setting, shared by the threads that simulate them. */
typedef struct draws {
    const sim_tree *t;
    const sim_machine *m;
    sim_setting s;
    sim_result *v;        /* per draw; time NAN: its simulation failed */
    int n;
    atomic_int next;      /* the next draw to take */
} draws;

static void *draws_work(void *arg)
{
    draws *d = arg;
    int k;
    while ((k = atomic_fetch_add(&d->next, 1)) < d->n) {
        sim_setting s = d->s;
        s.draw = (unsigned)k;
        if (run_draw(d->t, d->m, s, &d->v[k], NULL) < 0)
            d->v[k].time = NAN;
    }
    return NULL;
}

/* Simulates the n draws of d on this thread and, where the host has more CPUs, on as
   many more threads as help (the simulation keeps all its state in its sim; the tree
   and machine are only read). A thread that cannot be started leaves its draws to the
   others. */
static void draws_run(draws *d)
{
    cpu_set_t cpus;
    int ncpu = sched_getaffinity(0, sizeof cpus, &cpus) == 0 ? CPU_COUNT(&cpus) : 1;
    int nt = (ncpu < d->n ? ncpu : d->n) - 1, started = 0;
    pthread_t th[SIM_THREADS_MAX];
    if (nt > SIM_THREADS_MAX)
        nt = SIM_THREADS_MAX;
    for (int i = 0; i < nt; i++)
        if (pthread_create(&th[started], NULL, draws_work, d) == 0)
            started++;
    draws_work(d);
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
}

/* The mean time of v[0..n), the fastest and slowest, and the run nearest the mean (ties
   by draw), or -1 when a simulation failed (time NAN). */
static int draws_mean(const sim_result *v, int n, double *mean, double *lo, double *hi)
{
    int near = 0;
    double sum = 0;
    for (int k = 0; k < n; k++) {
        if (isnan(v[k].time))
            return -1;
        sum += v[k].time;
    }
    *mean = sum / n;
    *lo = *hi = v[0].time;
    for (int k = 1; k < n; k++) {
        *lo = v[k].time < *lo ? v[k].time : *lo;
        *hi = v[k].time > *hi ? v[k].time : *hi;
        if (fabs(v[k].time - *mean) < fabs(v[near].time - *mean))
            near = k;
    }
    return near;
}

/* A setting of several draws (draws_of: victim sequences, ranks' speeds; sim_set_runs)
   is simulated once per draw, side by side on the host's CPUs. Its time is the draws'
   mean, with the fastest and slowest beside it; its run (per-rank figures, timeline) is
   the draw nearest the mean, and its count of events the messages of all draws. The
   mean, not the median: where the runs fall into two groups (a decision that goes one
   way or the other, e.g. n-queens 14 in dynamic mode at P = 8 with 4 masters on the
   2004 preset: 0.207 or 0.229 s), the median jumps between the groups as the recording's
   timings move by a fraction of a per cent, the mean moves with the groups' shares
   (three recordings in a row: medians 10.3 % apart, means 3.7 %). The first
   SIM_RUNS_FIRST draws come first; when they lie within SIM_RUNS_AGREE of each other
   the setting does not turn on its timings and the rest are not simulated (most
   settings: a prediction of Mandelbrot 1024^2 in dynamic mode at P = 1-3 took 3.1 s with
   7 draws, its rows 0.3 % apart, and 1.1 s with one). Its timeline is that of the run
   nearest the mean, simulated again (the simulation is deterministic). */
int sim_run_timeline(const sim_tree *t, const sim_machine *m, sim_setting s,
                     sim_result *r, sim_timeline *tl)
{
    int n = draws_of(s, m), near;
    sim_result *v;
    long long events = 0;
    double mean, lo, hi;
    if (n == 1)
        return run_draw(t, m, s, r, tl);
    v = eng_xrealloc(NULL, (size_t)n * sizeof *v);
    draws d = { t, m, s, v, n > SIM_RUNS_FIRST ? SIM_RUNS_FIRST : n, 0 };
    draws_run(&d);
    near = draws_mean(v, d.n, &mean, &lo, &hi);
    if (near >= 0 && d.n < n && hi - lo > SIM_RUNS_AGREE * mean) {
        atomic_store(&d.next, d.n); /* the rest of the draws */
        d.n = n;
        draws_run(&d);
        near = draws_mean(v, n, &mean, &lo, &hi);
    }
    if (near < 0) {
        free(v);
        memset(r, 0, sizeof *r);
        return -1;
    }
    for (int k = 0; k < d.n; k++)
        events += v[k].events;
    *r = v[near];
    free(v);
    s.draw = (unsigned)near;
    if (tl && run_draw(t, m, s, r, tl) < 0)
        return -1;
    r->time = mean;
    r->runs = d.n;
    r->time_min = lo;
    r->time_max = hi;
    r->events = events;
    return 0;
}
