/* mpi/steal.c - the steal mode (doc/runtime.md "steal mode"): masterless work
   stealing. Every rank computes; a rank without work asks a random victim, which gives
   the oldest pending children it has (the core decides which: runtime/core/proto.h). */
#include <stdlib.h>
#include "wtcrt.h"

static void steal_close(wtcrt_rt *rt, wtc_par *p);

/* A STEAL from 'thief' (hops: its header's): the pending children of the oldest
   frame, a group of the core's size, in one TASK; else NOWORK, or a parking STEAL stays
   here (wtcp_parks) until this rank has work to give or runs out of work itself. */
static void answer(wtcrt_rt *rt, int thief, int hops)
{
    if (wtcp_may_give(&rt->seeds, thief, hops & WTCP_HOPS_SEED) &&
        wtcrt_give_oldest(rt, &wtcp_steal, thief))
        wtcrt_sync_tasks(rt);
    else if (!(hops & WTCP_HOPS_PARK))
        wtcrt_send(rt, thief, WTCRT_NOWORK, wtcrt_msg_new(rt, 0));
    else if (wtcp_park_add(&rt->parked, thief, hops & WTCP_HOPS_SEED) < 0)
        wtcrt_die(rt, "out of memory");
}

/* The thieves parked here get work while this rank has pending children, oldest first,
   a group each (at every poll: the first pending work goes to a thief that waits for
   it). */
static void feed(wtcrt_rt *rt)
{
    int i, sent = 0;
    if (!rt->parked.n)
        return;
    while (rt->npending > 0 && (i = wtcp_park_next(&rt->parked, &rt->seeds)) >= 0) {
        if (!wtcrt_give_oldest(rt, &wtcp_steal, rt->parked.v[i].thief))
            break;
        wtcp_park_drop(&rt->parked, i);
        sent = 1;
    }
    if (sent)
        wtcrt_sync_tasks(rt);
}

/* This rank has run out of work (it waits for RESULTs, or is idle): the thieves parked
   here get what it can still give, the others NOWORK. */
static void unpark(wtcrt_rt *rt)
{
    feed(rt);
    for (int i = 0; i < rt->parked.n; i++)
        wtcrt_send(rt, rt->parked.v[i].thief, WTCRT_NOWORK, wtcrt_msg_new(rt, 0));
    rt->parked.n = 0;
}

/* The answer to this rank's STEAL has come: 'work' says whether it was a TASK. */
static void answered(wtcrt_rt *rt, int work)
{
    double w = wtcrt_now() - rt->steal_t0;
    rt->st.steal_wait += w;
    if (w > rt->st.steal_wait_max)
        rt->st.steal_wait_max = w;
    rt->steal_out = 0;
    if (work) {
        rt->st.granted++;
        rt->steal_fails = 0;
    } else {
        rt->st.refused++;
        rt->steal_fails++;
    }
    rt->steal_rtt = w;
}

/* Adds rank 'to' to the ranks seeded whose RESULT has not come (add), or removes it
   when it has (wtcp_may_give reads them). */
static void seed_out(wtcrt_rt *rt, int to, int add)
{
    if (add && wtcp_seeds_add(&rt->seeds, to) < 0)
        wtcrt_die(rt, "out of memory");
    if (!add && wtcp_seeds_remove(&rt->seeds, to) < 0)
        wtcrt_die(rt, "steal mode: a seed's RESULT from rank %d that was not seeded", to);
}

/* A par whose call owns several ranks and has not spread them yet: the seeds
   (wtcrt_seed), each remembered until its RESULT comes (wtcp_may_give). */
static void seed(wtcrt_rt *rt, wtc_par *p, int *lo, int *hi)
{
    int n = p->ctx.hi - p->ctx.lo, s = wtcrt_seed(rt, p, lo, hi);
    for (int j = 1; j < s; j++)
        seed_out(rt, wtcp_split_lo(p->ctx.lo, n, j, s), 1);
}

/* A STEAL taken by the answering thread while this rank runs the program's code. */
static void leaf_steal(wtcrt_rt *rt, wtcrt_msg *m)
{
    answer(rt, m->src, WTCRT_HDR(m)->hops);
    wtcrt_msg_free(rt, m);
}

/* Handles one message of a region. */
static void handle(wtcrt_rt *rt, wtcrt_msg *m)
{
    switch (m->tag) {
    case WTCRT_STEAL:
        answer(rt, m->src, WTCRT_HDR(m)->hops);
        wtcrt_msg_free(rt, m);
        break;
    case WTCRT_RESULT:
        if (WTCRT_HDR(m)->hops & WTCP_HOPS_SEED) /* a seed's: its rank may be given work again */
            seed_out(rt, m->src, 0);
        wtcrt_store_result(rt, m);
        wtcrt_msg_free(rt, m);
        break;
    case WTCRT_TASK: /* the children a STEAL of this rank brought, or a seed */
        if (!WTCRT_HDR(m)->hops)
            answered(rt, 1);
        else
            rt->seeded_in = 1;
        rt->settled = 1;
        wtcrt_task_run(rt, m, steal_close);
        break;
    case WTCRT_NOWORK:
        answered(rt, 0);
        wtcrt_msg_free(rt, m);
        break;
    default:
        wtcrt_die(rt, "steal mode: unexpected message %d from rank %d", m->tag, m->src);
    }
}

/* At every par and before each child: answers thieves, stores RESULTs, runs the work
   a STEAL of this rank brought. */
static void steal_poll(wtcrt_rt *rt)
{
    wtcrt_poll(rt, handle);
    feed(rt);
}

/* The core's pause after this rank's NOWORKs (wtcp_steal_pause, wtcp_pause_cap_us).
   *exact: the back-off's sleep is cut to end with the pause (rt->wake_by), as the
   simulator's timer ends it, wherever the cap is below the one-host sleep ceiling (all
   but a host of more ranks than cores, where the sleep's own doubling spares the cores). */
static double steal_pause(const wtcrt_rt *rt, int *exact)
{
    int cap_us = wtcp_pause_cap_us(rt->bell_all_local, rt->oversubscribed);
    *exact = cap_us < wtcp_sleep_max_us(1);
    return wtcp_steal_pause(rt->steal_fails, rt->steal_rtt, cap_us * 1e-6, !rt->bell_all_local);
}

/* Asks a random victim for work, unless a STEAL is already out or the last ones were
   refused too recently (the core's pause after refusals); after ceil(log2 P) refusals
   the STEAL parks (wtcp_parks). Called only where this rank waits or is idle: the
   thieves parked here are answered first (unpark). */
static void maybe_steal(wtcrt_rt *rt)
{
    double now, pause;
    int victim, exact;
    wtcrt_msg *m;
    rt->wake_by = 0;
    unpark(rt);
    if (rt->steal_out) {
        /* unanswered for a while: the victim is in a leaf (mpi/answer.c) */
        if (!rt->steal_rung && wtcp_ring_due(wtcrt_now() - rt->steal_t0)) {
            rt->steal_rung = 1;
            wtcrt_answer_ring(rt, rt->steal_victim);
        } else if (!rt->steal_rung && wtcrt_bell_answer_word(rt, rt->steal_victim)) {
            rt->wake_by = rt->steal_t0 + WTCP_ANSWER_GRACE; /* the back-off wakes then */
        }
        return;
    }
    if (!wtcp_may_nest(rt->nest))
        return;
    now = wtcrt_now();
    pause = steal_pause(rt, &exact);
    if (now - rt->steal_t0 < pause) {
        if (exact)
            rt->wake_by = rt->steal_t0 + pause;
        return;
    }
    victim = wtcp_victim(&rt->steal_rng, rt->nranks, rt->rank);
    rt->steal_t0 = now;
    if (rt->ans_state == 1 && wtcp_peek_skips(wtcrt_bell_pending(rt, victim))) {
        rt->st.steal_peeks++; /* nothing to give: as a NOWORK, without asking */
        wtcp_log_peek(rt->rank, victim);
        rt->steal_fails++;
        rt->steal_rtt = wtcp_peek_rtt(rt->steal_rtt);
        pause = steal_pause(rt, &exact);
        if (exact)
            rt->wake_by = now + pause;
        return;
    }
    rt->steal_out = 1;
    rt->steal_rung = 0;
    rt->st.steals++;
    wtcp_log_steal(rt->rank, victim);
    m = wtcrt_msg_new(rt, 0);
    WTCRT_HDR(m)->hops = (rt->seeded_in ? WTCP_HOPS_SEED : 0) | /* wtcp_may_give */
                         (wtcp_parks(rt->settled, rt->steal_fails, rt->nranks)
                              ? WTCP_HOPS_PARK : 0);
    rt->st.steal_parks += (WTCRT_HDR(m)->hops & WTCP_HOPS_PARK) != 0;
    wtcrt_send(rt, victim, WTCRT_STEAL, m);
    rt->steal_victim = victim;
}

/* After every WTCP_SPAWN_POLL-th child while p's body spawns: the STEALs that have
   come are answered, from the front of the children spawned so far (wtcrt_give_oldest);
   every other message waits in the inbox for the par's close. */
static void steal_spawn_poll(wtcrt_rt *rt, wtc_par *p)
{
    wtcrt_pending_end(rt, p, p->nch);
    p->spawning = 1;
    wtcrt_poll_tag(rt, WTCRT_STEAL, handle);
    feed(rt);
}

/* A par (or a task frame): its children run here from the first still pending (the
   front may have gone to thieves while the body spawned), thieves take them from the
   last; then it waits for what was stolen. */
static void steal_close(wtcrt_rt *rt, wtc_par *p)
{
    int lo, hi;
    p->spawning = 0;
    wtcrt_pending_end(rt, p, p->nch);
    if (p->mem) { /* a task frame: its children own the TASK's ranks */
        lo = p->ctx.lo;
        hi = p->ctx.hi;
    } else {
        seed(rt, p, &lo, &hi);
    }
    p->closing = 1;
    /* the child is taken before the poll: a group of one just received must not
       bounce straight back to the next thief */
    while (p->nextc < p->end) {
        int i = wtcrt_pending_take(rt, p);
        steal_poll(rt);
        wtcrt_run_local_range(rt, p, i, lo, hi);
    }
    p->closing = 0;
    wtcrt_await(rt, p, handle, maybe_steal, 0);
}

/* After the region: answers one STEAL that has come with NOWORK; 0 when none. */
static int refuse_one(wtcrt_rt *rt)
{
    wtcrt_msg *m = wtcrt_try_recv(rt, MPI_ANY_SOURCE, WTCRT_STEAL);
    if (!m)
        return 0;
    wtcrt_send(rt, m->src, WTCRT_NOWORK, wtcrt_msg_new(rt, 0));
    wtcrt_msg_free(rt, m);
    return 1;
}

/* Every rank once the region's root has returned (rank 0) or REGION_END came (the
   others): no STEAL may stay unreceived. Every thief's STEAL is answered before it
   stops; a barrier then tells everybody that nobody asks any more, and until it
   completes every STEAL gets NOWORK (the root returned: no work is left). */
static void steal_end(wtcrt_rt *rt)
{
    wtcrt_endbar bar;
    int us = 0;
    unpark(rt); /* nothing is pending: NOWORK to each */
    /* only STEALs and NOWORKs: the next region's (or EXIT) from rank 0 stay queued */
    while (rt->steal_out) {
        wtcrt_msg *m = wtcrt_try_recv(rt, MPI_ANY_SOURCE, WTCRT_NOWORK);
        if (m) {
            answered(rt, 0);
            wtcrt_msg_free(rt, m);
        } else if (!refuse_one(rt)) {
            wtcrt_backoff(rt, &us);
            continue;
        }
        wtcrt_backoff_end(rt, &us);
    }
    wtcrt_endbar_start(rt, &bar, NULL, NULL);
    for (;;) {
        if (refuse_one(rt)) { /* before the barrier's test: see dyn_end */
            wtcrt_backoff_end(rt, &us);
            continue;
        }
        if (wtcrt_endbar_done(rt, &bar, NULL))
            break;
        wtcrt_endbar_wait(rt, &bar, &us);
    }
    wtcrt_backoff_end(rt, &us);
    rt->steal_fails = 0;
}

/* A rank other than 0 during a region: steals until REGION_END. */
static void steal_worker(wtcrt_rt *rt)
{
    int us = 0;
    for (;;) {
        wtcrt_msg *m = wtcrt_try_recv(rt, MPI_ANY_SOURCE, MPI_ANY_TAG);
        if (m) {
            wtcrt_backoff_end(rt, &us);
            if (m->tag == WTCRT_REGION_END) {
                wtcrt_end_got(rt, m);
                steal_end(rt);
                return;
            }
            handle(rt, m);
            continue;
        }
        maybe_steal(rt);
        wtcrt_backoff(rt, &us);
    }
}

const wtcrt_mode_ops wtcrt_steal_ops = {
    &wtcp_steal, steal_close, steal_worker, NULL, steal_poll, steal_end, NULL,
    steal_spawn_poll, WTCRT_STEAL, leaf_steal
};
