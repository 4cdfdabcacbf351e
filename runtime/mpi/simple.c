/* mpi/simple.c - the simple mode (doc/runtime.md "simple mode"): a par's children
   split over the rank range its call owns, the core deciding the sub-ranges. */
#include "wtcrt.h"

/* Sub-range j of s over [lo, lo+n) (the core's rule). */
static int sub_lo(int lo, int n, int s, int j)
{
    return wtcp_split_lo(lo, n, j, s);
}

/* doc/runtime.md simple mode, steps 1-4. */
static void simple_close(wtcrt_rt *rt, wtc_par *p)
{
    int k = p->nch, lo = p->ctx.lo, n = p->ctx.hi - p->ctx.lo;
    int s = wtcp_split_count(k, n), i = 0;
    /* children of sub-range j are i with floor(i*s/k) == j */
    wtcrt_send_split(rt, p, s, 0);
    wtcrt_sync_tasks(rt);
    for (i = 0; i < k && (long)i * s / k == 0; i++)
        wtcrt_run_local_range(rt, p, i, lo, sub_lo(lo, n, s, 1));
    /* step 4: RESULTs in sub-range order (a rank owes this rank one RESULT at most) */
    if (s > 1) {
        int old = wtcrt_set_state(rt, WTCRT_S_WAIT_CHILDREN);
        for (int j = 1; j < s; j++) {
            wtcrt_msg *m = wtcrt_recv(rt, sub_lo(lo, n, s, j), WTCRT_RESULT);
            wtcrt_store_result(rt, m);
            wtcrt_msg_free(rt, m);
        }
        wtcrt_set_state(rt, old);
    }
    if (p->outstanding)
        wtcrt_die(rt, "simple mode: %d RESULTs missing", p->outstanding);
}

/* Every rank of a simple region whose REGION_END goes by the tree, once it has its
   REGION_END (rank 0: has sent them): the barrier (wtcp_end_barrier). Nothing else comes
   meanwhile: every RESULT was taken before the root returned. */
static void simple_end(wtcrt_rt *rt)
{
    wtcrt_endbar bar;
    int us = 0;
    wtcrt_endbar_start(rt, &bar, NULL, NULL);
    while (!wtcrt_endbar_done(rt, &bar, NULL))
        wtcrt_endbar_wait(rt, &bar, &us);
    wtcrt_backoff_end(rt, &us);
}

/* A worker other than rank 0 in a simple region: runs TASKs until REGION_END. */
static void simple_worker(wtcrt_rt *rt)
{
    for (;;) {
        wtcrt_msg *m = wtcrt_recv(rt, MPI_ANY_SOURCE, MPI_ANY_TAG);
        if (m->tag == WTCRT_REGION_END) {
            wtcrt_end_got(rt, m);
            if (wtcp_end_barrier(rt->ops->mode, rt->nranks))
                simple_end(rt);
            return;
        }
        if (m->tag == WTCRT_REGION_BEGIN || m->tag == WTCRT_EXIT) {
            wtcrt_bcast_early(rt, m); /* from the tree: this region's end is on its way */
            return;
        }
        if (m->tag != WTCRT_TASK)
            wtcrt_die(rt, "unexpected message %d from rank %d in the server loop", m->tag,
                      m->src);
        wtcrt_run_task(rt, m);
    }
}

/* At every par: simple mode receives nothing while it computes, but the better values
   of shared bounds (mpi/share.c). */
static void simple_poll(wtcrt_rt *rt)
{
    if (rt->prog->nshared)
        wtcrt_bounds_poll(rt);
}

const wtcrt_mode_ops wtcrt_simple_ops = {
    &wtcp_simple, simple_close, simple_worker, NULL, simple_poll, simple_end, NULL, NULL, 0,
    NULL
};
