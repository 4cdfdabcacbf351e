/* sim/mode_dynamic.c - the simulator's executor of dynamic mode (doc/runtime.md,
 * "dynamic mode"): workers ask their master for idle workers in rounds (REQ, FWD along
 * the masters' ring, GRANT), send groups of pending children to the granted ones, run
 * the rest here with time slices and back-off, and help outer frames while waiting.
 * Roles, group sizes, slices, back-off and helping are the core's (proto.h). */
#include <string.h>
#include "engine.h"
#include "wtcrt.h" /* WTCRT_HELP_MAX */

/* dynamic par phases (doc/runtime.md, "dynamic mode", steps 2-5; D_HWAIT / D_HAFTER:
   a round for an outer frame, done while waiting for RESULTs) */
enum { D_ROUND1, D_WAIT1, D_OWN, D_OWNED, D_LOOP, D_WAIT2, D_AFTER2, D_COLLECT, D_HWAIT,
       D_HAFTER };

/* A par with cond true: child 0 is kept, the others pending (step 1). */
static void open_dpar(sim *S, int rid, int p, int lo, int hi)
{
    frame *f = eng_push(S, rid, F_DPAR);
    (void)lo;
    (void)hi;
    f->par = p;
    f->k = S->t->pars[p].nchild;
    f->nextc = 1;
    f->phase = D_ROUND1;
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
    msg *m = eng_send(S, rid, wtcp_master_of(S->roles, rid), M_REQ, HDR);
    m->a = wtcp_groups_wanted(S->mode, f->k - f->nextc, S->batch);
}

/* The round's TASK sends have completed: the frame's time slice starts. */
static void end_round(sim *S, int rid)
{
    rank *r = &S->r[rid];
    frame *f = &r->st[r->round_frame];
    f->due = 0;
    f->slice_t0 = r->t;
    r->in_round = 0;
    wtcp_round_end(&r->sl, r->round_rtt, r->round_granted, r->t);
}

/* Whether frame f's next step is a round (the core's wtcp_round_due). */
static int round_due(const rank *r, const frame *f)
{
    return wtcp_round_due(&r->sl, f->due, f->slice_t0, r->t);
}

/* A GRANT for the round in progress: each granted worker gets the asking worker's
   oldest pending children, a group (wtcp_group_size) from the first pending child of
   the outermost frame with pending children (wtcp_give_frame), whichever frame asked. */
static void on_grant(sim *S, int rid, msg g)
{
    rank *r = &S->r[rid];
    r->round_granted += g.b;
    for (int x = 0; x < g.b; x++) {
        wtcp_frames v = eng_frames(r);
        int e = wtcp_give_frame(&v), to = S->grants[g.a + x];
        if (e < 0) { /* cannot happen: the asking frame's groups cover every grant */
            eng_internal(S, "a GRANT with nothing pending", rid);
            return;
        }
        frame *f = &r->st[e];
        const sim_par *pp = &S->t->pars[f->par];
        int c0 = f->nextc, n = wtcp_group_size(S->mode, f->k - c0, S->batch);
        f->nextc = c0 + n;
        f->outstanding++;
        msg *m = eng_send(S, rid, to, M_TASK,
                          eng_children_bytes(S, pp->first_child + c0, n, 0));
        m->a = f->par;
        m->b = pp->first_child + c0;
        m->c = n;
        m->d = e;
        S->res->remote_calls += n;
        S->res->grants++;
        eng_log_task(S, f->par, pp->first_child + c0, n, to);
    }
    if (g.c) {
        r->round_done = 1;
        r->round_rtt = r->t - r->round_t0;
    }
}

/* Takes the first inbox message of a waiting worker (GRANT or RESULT); 0 when none. */
static int worker_take(sim *S, int rid, double *wait)
{
    rank *r = &S->r[rid];
    int i = eng_take(S, r, -1, -1);
    if (i < 0)
        return 0;
    if (S->msgs[i].kind == M_DONE) { /* a TASK of this round went */
        eng_send_done_taken(S, rid, i, wait);
        return 1;
    }
    eng_receive(S, rid, i, wait);
    msg m = S->msgs[i];
    eng_msg_free(S, i);
    if (m.kind == M_RESULT && m.d < r->depth && r->st[m.d].type == F_DPAR)
        r->st[m.d].outstanding--;
    else if (m.kind == M_GRANT && r->in_round)
        on_grant(S, rid, m);
    else
        eng_internal(S, "unexpected message while waiting", rid);
    return 1;
}

/* Runs the first pending child of frame e here (after a refusal). */
static void run_pending(sim *S, int rid, int e)
{
    frame *f = &S->r[rid].st[e];
    int c = S->t->pars[f->par].first_child + f->nextc++;
    S->res->refusals++;
    eng_start_child(S, rid, c, 0, 0);
}

/* Step 5 of the dynamic par on top: collect its RESULTs; while none has arrived, do
   one step of an outer frame's pending work (its round, or one child). */
static int collect(sim *S, int rid)
{
    rank *r = &S->r[rid];
    int fidx = r->depth - 1, e, x;
    frame *f = &r->st[fidx];
    wtcp_frames v = eng_frames(r);
    if (f->helped) { /* its helper child has returned */
        f->helped = 0;
        r->helping--;
    }
    if (f->outstanding == 0) {
        r->depth--;
        return 1;
    }
    if ((e = wtcp_help_frame(&v, fidx, r->helping, WTCRT_HELP_MAX)) < 0 ||
        (x = eng_probe(S, rid)) > 0)
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
        if (!eng_wait_sends(S, rid))
            return 0;
        if (r->in_round)
            end_round(S, rid);
        f->due = 1;
        f->phase = D_OWNED;
        eng_start_child(S, rid, S->t->pars[f->par].first_child, 0, 0);
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
        if (!eng_wait_sends(S, rid))
            return 0;
        end_round(S, rid);
        f->phase = f->phase == D_AFTER2 ? D_LOOP : D_COLLECT;
        return 1;
    default: /* D_COLLECT */
        return collect(S, rid);
    }
}

/* ---- masters ---------------------------------------------------------------------------- */

/* A REQ or FWD of 'worker' for 'want' groups at master rank 'mrank' (doc/runtime.md,
   "Master"): its own idle workers, lowest rank first; the rest travel on the ring. */
static void serve_request(sim *S, int mrank, int worker, int want, int hops)
{
    int mid = mrank - S->W, w0, w1;
    int g = want < S->nidle[mid] ? want : S->nidle[mid];
    long off = S->ngrants;
    wtcp_managed(S->roles, mrank, &w0, &w1);
    if (S->ngrants + g > S->capgrants) {
        S->capgrants = 2 * (S->ngrants + g) + 1024;
        S->grants = eng_xrealloc(S->grants, (size_t)S->capgrants * sizeof *S->grants);
    }
    for (int w = w0, n = 0; w < w1 && n < g; w++)
        if (S->idle[w]) {
            S->idle[w] = 0;
            S->grants[S->ngrants++] = w;
            n++;
        }
    S->nidle[mid] -= g;
    if (g < want && hops < S->M - 1) {
        msg *f = eng_send(S, mrank, S->W + (mid + 1) % S->M, M_FWD, HDR);
        f->a = want - g;
        f->b = worker;
        f->c = hops + 1;
        if (g == 0)
            return;
    }
    msg *m = eng_send(S, mrank, worker, M_GRANT, HDR + 4.0 * g);
    m->a = (int)off;
    m->b = g;
    m->c = !(g < want && hops < S->M - 1);
}

/* A master serves its inbox, one message at a time. */
static void master_run(sim *S, int rid)
{
    rank *r = &S->r[rid];
    int mid = rid - S->W, i;
    while ((i = eng_take(S, r, -1, -1)) >= 0) {
        eng_receive(S, rid, i, NULL);
        msg m = S->msgs[i];
        eng_msg_free(S, i);
        if (m.kind == M_IDLE) {
            if (!S->idle[m.src]) {
                S->idle[m.src] = 1;
                S->nidle[mid]++;
            }
        } else if (m.kind == M_REQ) {
            serve_request(S, rid, m.src, m.a, 0);
        } else if (m.kind == M_FWD) {
            serve_request(S, rid, m.b, m.a, m.c);
        }
    }
}

/* A granted worker reports IDLE to its master after its RESULT. */
static void group_done(sim *S, int rid)
{
    eng_send(S, rid, wtcp_master_of(S->roles, rid), M_IDLE, HDR);
}

/* Every worker but rank 0 starts idle. */
static int setup(sim *S)
{
    if (S->P > 1 && S->M < 1)
        return -1;
    S->idle = eng_xrealloc(NULL, (size_t)S->W);
    S->nidle = eng_xrealloc(NULL, (size_t)(S->M + 1) * sizeof *S->nidle);
    memset(S->nidle, 0, (size_t)(S->M + 1) * sizeof *S->nidle);
    for (int w = 0; w < S->W; w++) {
        S->idle[w] = w != 0;
        if (S->M && w != 0)
            S->nidle[wtcp_master_of(S->roles, w) - S->W]++;
    }
    return 0;
}

const sim_ops sim_dynamic_ops = {
    .id = SIM_DYNAMIC,
    .setup = setup,
    .open_par = open_dpar,
    .step = step_dpar,
    .serve = eng_serve_groups,
    .group_done = group_done,
    .master = master_run,
};
