/* sim/mode_dynamic.c - the simulator's executor of dynamic mode (doc/runtime.md,
 * "dynamic mode", runtime/mpi/dynamic.c): masters allocate idle workers to workers that
 * have children to give, and no worker ever waits for its master.
 *
 * A worker keeps one request standing at its master for all its pending children
 * (REQ, never waited for; REQ(0) cancels it); it runs its frames' children from the
 * first, taking each before it polls; at a poll it handles what has arrived: a GRANT
 * sends one group of its oldest pending children to each granted rank (or gives the
 * rank back when nothing is pending), a RESULT is counted, a TASK runs nested as a
 * task frame. A worker waiting for RESULTs tells its master it is idle and runs what
 * it is granted. Masters grant their idle workers at once, forward the rest along their
 * ring, and let it stand at the worker's own master until workers become idle. The
 * decisions are the core's: wtcp_ask, wtcp_granted, wtcp_give_frame, wtcp_group_size,
 * wtcp_grant_pick, wtcp_rest_route, wtcp_fwd_stands, wtcp_oldest_standing. */
#include <string.h>
#include "engine.h"

/* What handling one message led to. */
enum { H_DONE, H_WAIT /* a GRANT's TASK sends are being completed */,
       H_TASK /* a received TASK's frame is on top */ };

/* ---- workers ------------------------------------------------------------------------- */

/* The masters' idle workers as a worker sees them in their doorbell slots (the
   runtime's wtcrt_bell_masters_idle): their counts at the worker's time (a master's
   slot shows the count before its unasked grants while it sends them: unasked), when
   every master shares the worker's node and it has a doorbell; -1 (not known)
   otherwise. */
static int masters_idle(sim *S, int rid)
{
    int n = 0;
    if (S->m->no_doorbell)
        return -1;
    for (int m = S->W; m < S->P; m++) {
        const struct eng_shown *w = &S->shown[m - S->W];
        double t = S->r[rid].t;
        if (!eng_same_node(S, rid, m))
            return -1;
        n += t >= w->from && t < w->to ? w->n : S->nidle[m - S->W];
    }
    return n;
}

/* Keeps the rank's standing request in line with its pending children (wtcp_ask). */
static void ask(sim *S, int rid)
{
    rank *r = &S->r[rid];
    int seen = r->dyn_want == 0 && r->npending > 0 ? masters_idle(S, rid) : -1;
    int want = wtcp_ask(r->npending, S->batch, seen, &r->dyn_want);
    if (want >= 0)
        eng_send(S, rid, wtcp_master_of(S->roles, rid), M_REQ, HDR)->a = want;
}

/* IDLE for worker 'who' to its master (sent by who itself, or by the rank that was
   granted it and had nothing left to give). */
static void send_idle(sim *S, int rid, int who)
{
    eng_send(S, rid, wtcp_master_of(S->roles, who), M_IDLE, HDR)->b = who;
}

/* A frame of children pending here: a par (cond true) or a received TASK's. */
static frame *push_work(sim *S, int rid, int p, int first, int n)
{
    rank *r = &S->r[rid];
    frame *f = eng_push(S, rid, F_WORK);
    f->par = p;
    f->node = f->i = first;
    f->end = first + n;
    f->k = n;
    r->npending += n;
    r->epoch++;
    return f;
}

/* A par with cond true: a call owning several ranks first seeds them
   (eng_open_seeded); the children left here pending (the request follows once the
   first is taken, step_work). */
static void open_dpar(sim *S, int rid, int p, int lo, int hi, int off)
{
    int s;
    frame *f = eng_open_seeded(S, rid, p, lo, hi, off, &s); /* (off > 0: an inline par
                                                               spawning its rest) */
    S->r[rid].npending += f->end - f->i; /* asked for once the first child is taken */
    S->r[rid].epoch++;
}

/* A TASK granted to this rank, or a seed: its children as a task frame, run nested
   here. */
static void push_task(sim *S, int rid, const msg *m)
{
    rank *r = &S->r[rid];
    frame *f;
    r->avail = 0;
    r->nest++;
    f = push_work(S, rid, m->a, m->b, m->c);
    f->task = 1;
    f->seed = m->seed;
    f->lo = m->seed ? m->lo : rid; /* a seed's children own its ranks */
    f->hi = m->seed ? m->hi : rid + 1;
    f->src = m->src;
    f->srcframe = m->d;
}

/* One group to rank 'to': the last children (wtcp_group_size) of the oldest frame
   with pending children (wtcp_give_frame), in one TASK. */
static void send_group(sim *S, int rid, int to)
{
    rank *r = &S->r[rid];
    wtcp_frames v = eng_frames(r);
    int e = wtcp_give_frame(&v), n;
    frame *f;
    msg *m;
    if (e < 0) {
        eng_internal(S, "no pending children to send", rid);
        return;
    }
    f = &r->st[e];
    n = wtcp_group_size(S->mode, f->end - f->i, S->batch);
    f->end -= n;
    eng_taken(r, e);
    f->outstanding++;
    r->npending -= n;
    m = eng_send_children(S, rid, to, M_TASK, f->end, n);
    m->a = f->par;
    m->b = f->end;
    m->d = e;
    S->res->remote_calls += n;
    S->res->grants++;
    if (eng_stats(S, rid)) /* the worker counts groups sent away, as the runtime's */
        eng_stats(S, rid)->granted++;
    eng_log_task(S, f->par, f->end, n, to, 0);
}

/* The end of a GRANT's handling once its TASK sends have completed (the runtime waits
   for them before it goes on): the request shrinks, and is renewed or cancelled. */
static int grant_tail(sim *S, int rid)
{
    rank *r = &S->r[rid];
    if (!eng_wait_sends(S, rid))
        return 0;
    wtcp_granted(&r->dyn_want, r->grant_tail);
    r->grant_tail = 0;
    ask(S, rid);
    return 1;
}

/* A GRANT: a group to each granted rank while children are pending here; a rank
   granted when none is left goes back to its master (IDLE on its behalf). */
static void grant_sends(sim *S, int rid, const msg *g)
{
    rank *r = &S->r[rid];
    for (int x = 0; x < g->b; x++) {
        int to = S->grants[g->a + x];
        if (r->npending > 0) {
            send_group(S, rid, to);
        } else {
            send_idle(S, rid, to);
            S->res->refusals++;
            if (eng_stats(S, rid)) /* ... and grants given back */
                eng_stats(S, rid)->refused++;
        }
    }
}

static int on_grant(sim *S, int rid, const msg *g)
{
    grant_sends(S, rid, g);
    S->r[rid].grant_tail = g->b;
    return grant_tail(S, rid) ? H_DONE : H_WAIT;
}

/* A GRANT taken by the rank's answering thread inside the program's code (engine.c,
   leaf_answer): the groups go now; the next poll completes the sends and asks again. */
static void leaf_grant(sim *S, int rid, const msg *g)
{
    grant_sends(S, rid, g);
    S->r[rid].grant_tail += g->b;
}

/* Handles inbox message i (taken), waiting for it into *wait (NULL: not accounted). */
static int handle(sim *S, int rid, int i, double *wait)
{
    rank *r = &S->r[rid];
    msg m;
    if (S->msgs[i].kind == M_DONE) { /* a TASK send completed outside a wait for it */
        eng_send_done_taken(S, rid, i, wait);
        return H_DONE;
    }
    eng_receive(S, rid, i, wait);
    m = S->msgs[i];
    eng_msg_free(S, i);
    switch (m.kind) {
    case M_GRANT:
        return on_grant(S, rid, &m);
    case M_RESULT:
        if (m.d < r->depth && r->st[m.d].type == F_WORK && r->st[m.d].outstanding > 0)
            r->st[m.d].outstanding--;
        else
            eng_internal(S, "a RESULT for no waiting frame", rid);
        return H_DONE;
    case M_TASK:
        push_task(S, rid, &m);
        return H_TASK;
    case M_END:
        eng_end_send(S, rid);
        r->finished = 1;
        return H_DONE;
    default:
        eng_internal(S, "unexpected message in dynamic mode", rid);
        return H_DONE;
    }
}

/* The poll at every par and before each child: every message arrived by the rank's
   clock (sim_ops.poll: -1 waits, 0 done, 1 a TASK's frame is on top). */
static int poll(sim *S, int rid)
{
    int i;
    if (S->r[rid].grant_tail && !grant_tail(S, rid))
        return -1;
    while ((i = eng_poll_next(S, rid)) >= 0) {
        int h = handle(S, rid, i, NULL);
        if (h != H_DONE)
            return h == H_TASK ? 1 : -1;
    }
    return i == -2 ? -1 : 0;
}

/* The frame on top has run its children and has every RESULT: a task frame sends its
   RESULT (all its children's, also of those granted on) to the rank it came from. */
static void finish(sim *S, int rid)
{
    rank *r = &S->r[rid];
    frame f = r->st[r->depth - 1];
    eng_pop(S, rid);
    if (f.task) {
        eng_send_children(S, rid, f.src, M_RESULT, f.node, f.k)->d =
            f.srcframe;
        r->nest--;
    }
}

/* Waiting for RESULTs: what has arrived first; else, once, IDLE to its master (not
   when the core's wtcp_may_nest says no); then the next message. Helping
   outer frames (the runtime's help()) never finds work: grants take the oldest frame's
   children, so a frame owes RESULTs only when no outer frame had pending ones, and
   outer frames gain none. */
static int wait_results(sim *S, int rid, int fidx)
{
    rank *r = &S->r[rid];
    wtcp_frames v;
    int i;
    if ((r->tick || r->head < 0) && !eng_arrived(S, rid))
        return 0;
    if ((i = eng_take(S, r, -1, -1)) >= 0)
        return handle(S, rid, i, &r->wchild) != H_WAIT;
    v = eng_frames(r);
    if (wtcp_help_frame(&v, fidx, 0, 1) >= 0) {
        eng_internal(S, "a waiting worker has outer work to help", rid);
        return 0;
    }
    if (!r->avail && wtcp_may_nest(r->nest)) {
        r->avail = 1;
        send_idle(S, rid, rid);
        return 1;
    }
    return 0; /* the next message wakes it */
}

/* One step of the F_WORK frame on top (a par or a task frame); 0: the rank waits. */
static int step_work(sim *S, int rid)
{
    rank *r = &S->r[rid];
    int fidx = r->depth - 1, x, c;
    frame *f = &r->st[fidx];
    if (r->grant_tail)
        return grant_tail(S, rid);
    if (f->claimed >= 0) { /* the child taken: the poll, the request, then the child */
        if ((x = poll(S, rid)) != 0)
            return x > 0;
        ask(S, rid);
        c = r->st[fidx].claimed;
        r->st[fidx].claimed = -1;
        eng_start_child(S, rid, c, r->st[fidx].lo, r->st[fidx].hi);
        return 1;
    }
    if (f->i < f->end) {
        f->claimed = f->i++;
        r->npending--;
        eng_poll_cost(S, rid);
        return 1;
    }
    if (f->outstanding == 0) {
        finish(S, rid);
        return 1;
    }
    return wait_results(S, rid, fidx);
}

/* A worker other than rank 0 with an empty stack (the server loop): after each TASK
   it has run, IDLE to its master; handles what comes until REGION_END. */
static int serve(sim *S, int rid)
{
    rank *r = &S->r[rid];
    int i;
    if (r->grant_tail && !grant_tail(S, rid))
        return 0;
    if (!r->avail) {
        r->avail = 1;
        send_idle(S, rid, rid);
    }
    if ((i = eng_take(S, r, -1, -1)) < 0)
        return 0;
    return handle(S, rid, i, NULL) != H_WAIT && !r->finished;
}

/* ---- masters ---------------------------------------------------------------------------- */

/* Grants up to 'want' idle workers of master rank 'mrank' to 'who' in one GRANT
   (wtcp_grant_pick); returns how many. */
static int grant_own(sim *S, int mrank, int who, int want)
{
    int mid = mrank - S->W, g;
    msg *m;
    if (want < 1 || S->nidle[mid] == 0)
        return 0;
    if (S->ngrants + want > S->capgrants) {
        S->capgrants = 2 * (S->ngrants + want) + 1024;
        S->grants = eng_xrealloc(S->grants, (size_t)S->capgrants * sizeof *S->grants);
    }
    g = wtcp_grant_pick(S->roles, mrank, who, want, S->idle, S->grants + S->ngrants);
    if (g == 0)
        return 0;
    S->nidle[mid] -= g;
    if (eng_stats(S, mrank)) /* a master counts the workers it grants */
        eng_stats(S, mrank)->granted += g;
    m = eng_send(S, mrank, who, M_GRANT, HDR + 4.0 * g);
    m->a = (int)S->ngrants;
    m->b = g;
    S->ngrants += g;
    return g;
}

/* Worker who's request stands at its own master mrank for 'want' groups. */
static void stand(sim *S, int mrank, int who, int want)
{
    if (S->standing[who] == 0)
        S->nstanding[mrank - S->W]++;
    S->standing[who] = want;
    S->stamp[who] = ++S->stand_clock;
    if (eng_stats(S, mrank)) /* ... and the requests left standing */
        eng_stats(S, mrank)->refused++;
}

/* The request of worker 'who' for 'want' groups, having visited 'hops' masters: this
   master grants what it can; the rest travels on or stands (wtcp_rest_route). */
static void request(sim *S, int mrank, int who, int want, int hops)
{
    int rest = want - grant_own(S, mrank, who, want), dest, fh;
    switch (wtcp_rest_route(S->roles, mrank, who, rest, hops, &dest, &fh)) {
    case WTCP_REST_FWD: {
        msg *m = eng_send(S, mrank, dest, M_FWD, HDR);
        m->a = rest;
        m->b = who;
        m->c = fh;
        break;
    }
    case WTCP_REST_STAND:
        stand(S, mrank, who, rest);
        break;
    default:
        break;
    }
}

/* Idle workers to the standing requests, the oldest first (wtcp_oldest_standing). */
static void match(sim *S, int mrank)
{
    int mid = mrank - S->W, w0, w1;
    wtcp_managed(S->roles, mrank, &w0, &w1);
    while (S->nstanding[mid] > 0 && S->nidle[mid] > 0) {
        int who = wtcp_oldest_standing(w0, w1, S->standing, S->stamp), g;
        if (who < 0) {
            eng_internal(S, "standing requests miscounted", mrank);
            return;
        }
        g = grant_own(S, mrank, who, S->standing[who]);
        if (g == 0)
            return;
        S->standing[who] -= g;
        if (S->standing[who] == 0)
            S->nstanding[mid]--;
    }
}

/* With idle workers and no request standing: one to each worker of its node whose
   doorbell slot shows pending children at the master's time (eng_pending_at; not known:
   its frames now), unasked (wtcp_unasked; the runtime's master_unasked). As there, the
   slot shows the idle count from before the grants until they are sent, and a worker
   that looks meanwhile asks (wtcp_ask): its request then stands, and no grant goes
   unasked while it does. Shown and taken at one instant instead, no worker ever saw an
   idle one, none asked, and every idle worker went unasked to the lowest rank showing
   children: UTS at P = 16 (one master, the lent 16-core machine's file) was predicted
   with 9223 TASKs and 0.117 s against 3166-3318 and 0.066-0.080 s run there
   (simulator note 15). */
static void unasked(sim *S, int mrank)
{
    int mid = mrank - S->W, n;
    if (S->nidle[mid] == 0 || S->nstanding[mid] > 0 || S->m->no_doorbell)
        return;
    for (int x = 0; x < S->W; x++) {
        int p = eng_same_node(S, mrank, x) ? eng_pending_at(S, x, S->r[mrank].t) : -2;
        if (p == -1)
            p = eng_pending(&S->r[x]);
        S->seen[x] = p < 0 ? -1 : p > 0 ? S->r[x].epoch : 0;
    }
    n = wtcp_unasked(S->W, S->seen, S->refused, S->nidle[mid], S->picked);
    S->shown[mid].n = S->nidle[mid];
    S->shown[mid].from = S->r[mrank].t;
    for (int i = 0; i < n; i++) {
        int x = S->picked[i];
        S->flagged[x] = S->seen[x];
        grant_own(S, mrank, x, 1);
    }
    S->shown[mid].to = S->r[mrank].t;
}

/* The master's own work on a request between receiving it and answering: the machine
   file's t_m (the master's time to answer one request, SPEC 5 item 6, which the advice
   uses too) less the REQ's receive and the GRANT's send overheads the engine charges;
   nothing when those cover it, as in a calibrated file (t_m is at least o_r + o_s
   there). Without it a busier master (--wtc-vary=t_m) changed nothing but the advice,
   and the 2004 preset's master answered in 71 us at P = 128 against its 148 us. */
static double master_work(const sim *S)
{
    double w = S->m->t_m - sim_o_recv(S->m, S->P, HDR, 0, 0) - sim_o_send(S->m, S->P, HDR, 0);
    return w > 0 ? w : 0;
}

/* A master serves its inbox, one message at a time, and matches after each. */
static void master_run(sim *S, int rid)
{
    rank *r = &S->r[rid];
    int mid = rid - S->W, i;
    while ((i = eng_take(S, r, -1, -1)) >= 0) {
        eng_receive(S, rid, i, NULL);
        msg m = S->msgs[i];
        eng_msg_free(S, i);
        if (m.kind == M_END) { /* the region's end (engine.c's end_run) */
            eng_end_send(S, rid);
            r->finished = 1;
            return;
        }
        if ((m.kind == M_REQ && m.a > 0) || m.kind == M_FWD)
            r->t += master_work(S);
        if (m.kind == M_REQ && m.a == 0) { /* the worker has nothing left to give */
            if (S->standing[m.src] > 0)
                S->nstanding[mid]--;
            S->standing[m.src] = 0;
        } else if (m.kind == M_REQ) {
            request(S, rid, m.src, m.a, 0);
        } else if (m.kind == M_FWD && wtcp_fwd_stands(S->roles, m.c)) {
            stand(S, rid, m.b, m.a);
        } else if (m.kind == M_FWD) {
            request(S, rid, m.b, m.a, m.c);
        } else if (m.kind == M_IDLE) {
            if (m.b != m.src) /* given back (or handed back) by m.src */
                S->refused[m.src] = S->flagged[m.src];
            if (!S->idle[m.b]) {
                S->idle[m.b] = 1;
                S->nidle[mid]++;
            }
        }
        match(S, rid);
        unasked(S, rid);
    }
}

/* Rank r, owned by a call of rid that gives its ranks up unspread: IDLE on its behalf
   to its master, which counted it busy (setup). */
static void hand_back(sim *S, int rid, int r)
{
    send_idle(S, rid, r);
}

/* The workers the region's root owns (all of them where the mode seeds) start busy at
   their masters, until their seed's work ends or they are handed back; the others
   idle. A worker other than rank 0 says IDLE after each TASK it runs, not before the
   first (avail). */
static int setup(sim *S)
{
    size_t w = (size_t)S->W;
    if (S->P > 1 && S->M < 1)
        return -1;
    S->idle = eng_xrealloc(NULL, w);
    S->standing = eng_xrealloc(NULL, w * sizeof *S->standing);
    S->stamp = eng_xrealloc(NULL, w * sizeof *S->stamp);
    S->nidle = eng_xrealloc(NULL, (size_t)(S->M + 1) * sizeof *S->nidle);
    S->shown = eng_xrealloc(NULL, (size_t)(S->M + 1) * sizeof *S->shown);
    for (int i = 0; i <= S->M; i++) /* no window yet */
        S->shown[i] = (struct eng_shown){ 0, -1, -1 };
    S->nstanding = eng_xrealloc(NULL, (size_t)(S->M + 1) * sizeof *S->nstanding);
    memset(S->standing, 0, w * sizeof *S->standing);
    memset(S->stamp, 0, w * sizeof *S->stamp);
    S->seen = eng_xrealloc(NULL, w * sizeof *S->seen);
    S->flagged = eng_xrealloc(NULL, w * sizeof *S->flagged);
    S->refused = eng_xrealloc(NULL, w * sizeof *S->refused);
    S->picked = eng_xrealloc(NULL, w * sizeof *S->picked);
    memset(S->flagged, 0, w * sizeof *S->flagged);
    memset(S->refused, 0, w * sizeof *S->refused);
    memset(S->nidle, 0, (size_t)(S->M + 1) * sizeof *S->nidle);
    memset(S->nstanding, 0, (size_t)(S->M + 1) * sizeof *S->nstanding);
    int owned = wtcp_root_ranks(S->mode, S->roles);
    for (int x = 0; x < S->W; x++) {
        S->idle[x] = x >= owned;
        S->r[x].avail = x != 0;
        if (S->M && S->idle[x])
            S->nidle[wtcp_master_of(S->roles, x) - S->W]++;
    }
    return 0;
}

const sim_ops sim_dynamic_ops = {
    .id = SIM_DYNAMIC,
    .setup = setup,
    .open_par = open_dpar,
    .step = step_work,
    .serve = serve,
    .master = master_run,
    .poll = poll,
    .hand_back = hand_back,
    .leaf_kind = M_GRANT,
    .leaf = leaf_grant,
};
