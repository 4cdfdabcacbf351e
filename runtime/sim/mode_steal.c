/* sim/mode_steal.c - the simulator's executor of steal mode (doc/runtime.md, "steal
 * mode"): every rank is a worker; a rank runs the children of its frames from the
 * front and, between children, answers STEALs with the back of its oldest work
 * (steal-half); a rank that waits for RESULTs, or has nothing, steals from random
 * victims. The decisions are the core's: wtcp_seed_count, wtcp_may_give,
 * wtcp_give_frame, wtcp_group_size, wtcp_victim, wtcp_steal_pause, wtcp_parks.
 *
 * A rank polls at the start of every par and before each child it runs: it first takes
 * the child (the front pending one), then handles whatever has arrived by its clock,
 * then runs the child. So a rank deep in a child answers nothing until that child
 * returns (the leaf latency), and a group of one child just received is never given
 * straight back. A TASK received at a poll runs nested before the poll goes on. */
#include "engine.h"

/* What handling one message led to. */
enum { H_DONE, H_WAIT /* a steal answer's TASK send is being completed */,
       H_TASK /* the TASK of its STEAL: a task frame is on top */ };

/* Adds rank 'to' to r's seeds waiting for their RESULT (add), or removes it. */
static void seed_out(rank *r, int to, int add)
{
    if (!add)
        wtcp_seeds_remove(&r->seeds, to);
    else if (wtcp_seeds_add(&r->seeds, to) < 0)
        eng_out_of_memory();
}

/* A par with cond true: every child pending, in a frame thieves may take from. A call
   owning several ranks (the root owns all) first sends each other sub-range its
   children (eng_open_seeded); sub-range 0's stay here, owning it. */
static void open_wpar(sim *S, int rid, int p, int lo, int hi, int off)
{
    int s;
    eng_open_seeded(S, rid, p, lo, hi, off, &s);
    for (int j = 1; j < s; j++)
        seed_out(&S->r[rid], wtcp_split_lo(lo, hi - lo, j, s), 1);
}

/* Gives 'thief' the back of the oldest work (wtcp_give_frame; the front of a par still
   spawning, F_SPAWN), a group of wtcp_group_size children in one TASK; 0 when no frame
   has pending children or the thief may not be given any (wtcp_may_give). */
static int give(sim *S, int rid, int thief, int had_seed)
{
    rank *r = &S->r[rid];
    wtcp_frames v = eng_frames(r);
    int e = eng_pending(r) && wtcp_may_give(&r->seeds, thief, had_seed) ? wtcp_give_frame(&v)
                                                                          : -1;
    if (e < 0)
        return 0;
    frame *f = &r->st[e];
    int g = wtcp_group_size(S->mode, f->end - f->i, S->batch), p = f->par, c0;
    if (f->type == F_SPAWN) { /* its body still appends at the back */
        c0 = f->i;
        f->i += g;
    } else {
        c0 = f->end - g;
        f->end = c0;
    }
    eng_taken(r, e);
    f->outstanding++;
    msg *m = eng_send_children(S, rid, thief, M_TASK, c0, g);
    m->a = p;
    m->b = c0;
    m->d = e;
    S->res->remote_calls += g;
    S->res->grants++;
    eng_log_task(S, p, c0, g, thief, 0);
    return 1;
}

/* A STEAL from 'thief': work (give); else NOWORK, or a parking STEAL stays here until
   this rank has work to give or runs out of work (mpi/steal.c answer). */
static void answer(sim *S, int rid, int thief, int had_seed, int park)
{
    if (give(S, rid, thief, had_seed))
        return;
    if (park) {
        if (wtcp_park_add(&S->r[rid].parked, thief, had_seed) < 0)
            eng_out_of_memory();
        return;
    }
    eng_send(S, rid, thief, M_NOWORK, HDR);
    S->res->refusals++;
}

/* The thieves parked here get work while this rank has pending children, oldest first,
   a group each (mpi/steal.c feed); 1 when a TASK went. */
static int feed(sim *S, int rid)
{
    rank *r = &S->r[rid];
    int i, sent = 0;
    if (!r->parked.n)
        return 0;
    while (eng_pending(r) && (i = wtcp_park_next(&r->parked, &r->seeds)) >= 0) {
        if (!give(S, rid, r->parked.v[i].thief, r->parked.v[i].had_seed))
            break;
        wtcp_park_drop(&r->parked, i);
        sent = 1;
    }
    return sent;
}

/* feed at a poll: -1 when a TASK went and the poll waits for its send, else 0 */
static int feed_at_poll(sim *S, int rid)
{
    return feed(S, rid) && !eng_wait_sends(S, rid) ? -1 : 0;
}

/* The rank has run out of work (it waits, or is idle): its parked thieves get what it
   can still give, the others NOWORK (mpi/steal.c unpark). */
static void unpark(sim *S, int rid)
{
    rank *r = &S->r[rid];
    feed(S, rid);
    for (int i = 0; i < r->parked.n; i++) {
        eng_send(S, rid, r->parked.v[i].thief, M_NOWORK, HDR);
        S->res->refusals++;
    }
    r->parked.n = 0;
}

/* A STEAL taken by the rank's answering thread inside the program's code (engine.c,
   leaf_answer); a TASK send to complete is waited for at the next poll. */
static void leaf_steal(sim *S, int rid, const msg *m)
{
    answer(S, rid, m->src, m->seed, m->park);
}

/* The thief's pause after its NOWORKs (wtcp_steal_pause): capped at 100 us, or 1000 us
   on one node with more ranks than cores (wtcp_pause_cap_us), and on several nodes also
   at 4 round trips; the doorbell covers every rank only where they all share one node. */
static double steal_pause(sim *S, const rank *r)
{
    int one = S->nnodes == 1;
    return wtcp_steal_pause(r->steal_fails, r->steal_rtt,
                            wtcp_pause_cap_us(one, eng_oversubscribed(S)) * 1e-6, !one);
}

/* A STEAL to a random victim, unless one is in flight or the core's pause after
   NOWORKs (wtcp_steal_pause) has not passed since the last one left; then a timer
   (M_WAKE) wakes the rank when it has (the runtime looks at its clock between polls). */
static void maybe_steal(sim *S, int rid)
{
    rank *r = &S->r[rid];
    double next;
    int victim;
    unpark(S, rid); /* called only where the rank waits or is idle */
    if (r->steal_out)
        return;
    /* (compared as a time, so that the timer's own time passes the test) */
    next = r->steal_t0 + steal_pause(S, r);
    if (r->t < next) {
        if (!r->timers || r->timer_at > next) {
            r->timer_at = next;
            r->timers++;
            eng_timer(S, rid, next);
        }
        return;
    }
    r->steal_t0 = r->t;
    victim = wtcp_victim(&r->rng, S->P, rid);
    if (!S->m->leaf_wait && eng_same_node(S, rid, victim) &&
        wtcp_peek_skips(eng_pending_at(S, victim, r->t))) {
        /* a victim of its node with nothing pending is not asked: as a NOWORK (the
           victim's frames now, as the runtime reads its doorbell slot) */
        r->steal_rtt = wtcp_peek_rtt(r->steal_rtt);
        r->steal_fails++;
        next = r->t + steal_pause(S, r);
        if (eng_stats(S, rid))
            eng_stats(S, rid)->steal_peeks++;
        wtcp_log_peek(rid, victim);
        if (!r->timers || r->timer_at > next) {
            r->timer_at = next;
            r->timers++;
            eng_timer(S, rid, next);
        }
        return;
    }
    wtcp_log_steal(rid, victim);
    msg *m = eng_send(S, rid, victim, M_STEAL, HDR);
    m->seed = r->seeded_in;
    m->park = wtcp_parks(r->settled, r->steal_fails, S->P);
    if (m->park && eng_stats(S, rid))
        eng_stats(S, rid)->steal_parks++;
    r->steal_out = 1;
    S->res->steals++;
    if (eng_stats(S, rid))
        eng_stats(S, rid)->steals++;
}

/* The answer to this rank's STEAL has been received: a TASK (work) or NOWORK. */
static void answered(sim *S, int rid, int work)
{
    rank *r = &S->r[rid];
    wtcrt_stats *st = eng_stats(S, rid);
    r->steal_out = 0;
    r->steal_rtt = r->t - r->steal_t0;
    if (st) { /* the thief counts, as the runtime's */
        st->steal_wait += r->steal_rtt;
        if (r->steal_rtt > st->steal_wait_max)
            st->steal_wait_max = r->steal_rtt;
        if (work)
            st->granted++;
        else
            st->refused++;
    }
    r->steal_fails = work ? 0 : r->steal_fails + 1;
}

/* A timer of the rank pops: a rank that waited for it wakes at its time (asleep by
   then when the wait outlasted the yield phase: the next message costs w_wake). */
static void timer_popped(sim *S, int rid, int i, double *wait)
{
    rank *r = &S->r[rid];
    double t = S->msgs[i].arr;
    if (t > r->t) {
        if (wait)
            *wait += t - r->t;
        r->asleep = t > r->t + eng_yield_phase(S);
        eng_mark(S, rid, 1);
        r->t = t;
    }
    if (--r->timers == 0)
        r->timer_at = 0;
    else
        r->timer_at = 1e300; /* a later one is still posted: a sooner one may be needed */
    eng_msg_free(S, i);
}

/* A stolen group (or a seed) arrived: a task frame holding its children as pending
   work, each owning the TASK's ranks. */
static void push_task(sim *S, int rid, const msg *m)
{
    frame *f = eng_push(S, rid, F_WORK);
    f->task = 1;
    f->seed = m->seed;
    f->lo = m->seed ? m->lo : rid;
    f->hi = m->seed ? m->hi : rid + 1;
    f->par = m->a;
    f->node = f->i = m->b;
    f->end = m->b + m->c;
    f->k = m->c;
    f->src = m->src;
    f->srcframe = m->d;
}

/* Handles inbox message i (taken) of rank rid, waiting for it into *wait (or not
   accounted when NULL). */
static int handle(sim *S, int rid, int i, double *wait)
{
    rank *r = &S->r[rid];
    msg m;
    if (S->msgs[i].kind == M_DONE) { /* a TASK of a steal answer went */
        eng_send_done_taken(S, rid, i, wait);
        return H_DONE;
    }
    if (S->msgs[i].kind == M_WAKE) {
        timer_popped(S, rid, i, wait);
        return H_DONE;
    }
    eng_receive(S, rid, i, wait);
    m = S->msgs[i];
    eng_msg_free(S, i);
    if (m.kind == M_STEAL) {
        answer(S, rid, m.src, m.seed, m.park); /* the runtime completes a TASK send before
                                                   going on */
        return eng_wait_sends(S, rid) ? H_DONE : H_WAIT;
    }
    if (m.kind == M_RESULT && m.d < r->depth && r->st[m.d].type == F_WORK) {
        r->st[m.d].outstanding--;
        if (m.seed)
            seed_out(r, m.src, 0);
    }
    else if (m.kind == M_TASK) {
        if (!m.seed)
            answered(S, rid, 1);
        else
            r->seeded_in = 1;
        r->settled = 1;
        push_task(S, rid, &m);
        return H_TASK;
    } else if (m.kind == M_NOWORK)
        answered(S, rid, 0);
    else if (m.kind == M_END) {
        eng_end_send(S, rid);
        r->finished = 1;
    }
    else
        eng_internal(S, "unexpected message in steal mode", rid);
    return H_DONE;
}

/* The poll at every par and before each child: every message arrived by the rank's
   clock (sim_ops.poll: -1 waits, 0 done, 1 a stolen TASK's frame is on top). */
static int poll(sim *S, int rid)
{
    int i;
    if (!eng_wait_sends(S, rid))
        return -1;
    while ((i = eng_poll_next(S, rid)) >= 0) {
        int h = handle(S, rid, i, NULL);
        if (h != H_DONE)
            return h == H_TASK ? 1 : -1;
    }
    if (i == -2)
        return -1;
    return feed_at_poll(S, rid);
}

/* After every WTCP_SPAWN_POLL-th child of a par still spawning: the STEALs that have
   arrived by the rank's clock are answered (from the front of the children spawned);
   every other message stays for the par's close (sim_ops.spawn_poll). The runtime
   receives those others into its inbox there (mpi/transport.c wtcrt_poll_tag); here
   they are received, and charged, when handled. */
static int spawn_poll(sim *S, int rid)
{
    rank *r = &S->r[rid];
    if (!eng_wait_sends(S, rid) || !eng_arrived(S, rid))
        return -1;
    for (;;) {
        int i = r->head;
        while (i >= 0 && S->msgs[i].kind != M_STEAL)
            i = S->msgs[i].next;
        if (i < 0 || S->msgs[i].arr > r->t)
            return feed_at_poll(S, rid);
        i = eng_take(S, r, -1, M_STEAL);
        if (handle(S, rid, i, NULL) == H_WAIT)
            return -1;
    }
}

/* The frame on top has run and collected everything: a task frame sends its RESULT
   (all its children's, also of those stolen from it) to the rank it came from. */
static void finish(sim *S, int rid)
{
    rank *r = &S->r[rid];
    frame f = r->st[r->depth - 1];
    eng_pop(S, rid);
    if (f.task) {
        msg *m = eng_send_children(S, rid, f.src, M_RESULT, f.node, f.k);
        m->d = f.srcframe;
        m->seed = f.seed;
    }
}

/* Waiting for RESULTs: what has arrived first (RESULTs, STEALs to answer, the TASK of
   its own STEAL or a seed); when nothing has, a STEAL to a random victim (if none is in
   flight) and a wait for the next message. */
static int wait_results(sim *S, int rid, int fidx)
{
    rank *r = &S->r[rid];
    (void)fidx;
    int i;
    if (!eng_wait_sends(S, rid))
        return 0;
    if ((r->tick || r->head < 0) && !eng_arrived(S, rid))
        return 0; /* (a look at its clock taken as a message would let two ranks at one
                     instant post looks to each other forever) */
    if ((i = eng_take(S, r, -1, -1)) >= 0)
        return handle(S, rid, i, &r->wchild) != H_WAIT;
    /* the runtime does not run its own outer pending children while it waits (without
       seeds it never has any: the oldest is given first); with seeds it can: a seed that
       comes while the rank runs stolen work runs nested on it, and the stolen frame's
       pending children wait for thieves (doc/runtime.md "steal mode") */
    maybe_steal(S, rid);
    return 0; /* the next message (or its timer) wakes it */
}

/* One step of the F_WORK frame on top (a par, or a task frame); 0: the rank waits. */
static int step_work(sim *S, int rid)
{
    rank *r = &S->r[rid];
    int fidx = r->depth - 1, x, c;
    frame *f = &r->st[fidx];
    if (f->claimed >= 0) { /* a child taken: the poll, then the child */
        if ((x = poll(S, rid)) != 0)
            return x > 0;
        c = r->st[fidx].claimed;
        r->st[fidx].claimed = -1;
        eng_start_child(S, rid, c, r->st[fidx].lo, r->st[fidx].hi);
        return 1;
    }
    if (f->i < f->end) {
        f->claimed = f->i++;
        eng_poll_cost(S, rid);
        return 1;
    }
    if (f->outstanding == 0) {
        finish(S, rid);
        return 1;
    }
    return wait_results(S, rid, fidx);
}

/* A rank with an empty stack (it has its REGION_BEGIN: engine.c's wake): it steals
   until REGION_END. */
static int serve_steal(sim *S, int rid)
{
    rank *r = &S->r[rid];
    int i;
    maybe_steal(S, rid);
    if ((i = eng_take(S, r, -1, -1)) < 0)
        return 0;
    handle(S, rid, i, NULL);
    return !r->finished;
}

const sim_ops sim_steal_ops = {
    .id = SIM_STEAL,
    .open_par = open_wpar,
    .step = step_work,
    .serve = serve_steal,
    .poll = poll,
    .spawn_poll = spawn_poll,
    .leaf_kind = M_STEAL,
    .leaf = leaf_steal,
    .ending = unpark, /* nothing is pending: NOWORK to each (mpi/steal.c steal_end) */
};
