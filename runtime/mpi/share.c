/* mpi/share.c - shared bounds over MPI (doc/runtime.md "Shared bounds"): a better value
   of a global named in wtc_share_max / wtc_share_min goes, as a BOUND, to every other
   rank of the region; each takes it in at its polls (the transport hands BOUNDs here,
   never to a mode) and keeps the better of its own and the received. At the region's
   end every rank takes in every BOUND still on its way, so all ranks, rank 0 included,
   leave the region with the best value any of them found, and no BOUND of a region
   reaches the next one. */
#include <stdlib.h>
#include <string.h>
#include "wtcrt.h"

/* Per-rank counters, allocated at the first region of a program with shared bounds. */
static void counters(wtcrt_rt *rt)
{
    if (rt->bound_got)
        return;
    rt->bound_got = calloc((size_t)rt->nranks, sizeof *rt->bound_got);
    rt->bound_got_next = calloc((size_t)rt->nranks, sizeof *rt->bound_got_next);
    rt->bound_sent_all = calloc((size_t)rt->nranks, sizeof *rt->bound_sent_all);
    if (!rt->bound_got || !rt->bound_got_next || !rt->bound_sent_all)
        wtcrt_die(rt, "out of memory");
}

static int bounds_none;
int *wtc__bounds_in = &bounds_none;
int wtc__bounds_taken;

void wtc_share_poll(void)
{
    wtcrt_rt *rt = &wtcrt_this_rank; /* entered from generated code (wtc_abi.h) */
    wtcrt_enter(rt);
    if (rt->in_region && !wtcrt_forked(rt))
        wtcrt_bounds_take_all(rt);
    wtcrt_leave(rt);
}

/* Stores v (and the solution at p) and, in a region of several ranks, sends them to
   every other rank. */
static void share(wtcrt_rt *rt, void *g, const void *v, const void *p);

void wtc_share(void *g, const void *v, const void *p)
{
    wtcrt_rt *rt = &wtcrt_this_rank; /* entered from generated code (wtc_abi.h) */
    wtcrt_enter(rt);
    share(rt, g, v, p);
    wtcrt_leave(rt);
}

static void share(wtcrt_rt *rt, void *g, const void *v, const void *p)
{
    int slot = wtcrt_share_slot(rt->prog, g);
    const wtc_shared *s;
    wtcrt_bound *b;
    wtcrt_msg *m;
    if (slot < 0)
        wtcrt_die(rt, "wtc_share_max/min on a variable wtcc did not list as shared "
                      "(was the call's file built by wtcc?)");
    s = &rt->prog->shared[slot];
    if (!s->data != !p)
        wtcrt_die(rt, "shared bound '%s' %s", s->name,
                  s->data ? "without its solution" : "with a solution wtcc did not list");
    memcpy(g, v, s->size);
    if (s->data)
        memcpy(s->data, p, s->data_size);
    if (!rt->in_region || rt->nranks == 1 || wtcrt_forked(rt))
        return; /* main, or a job of one: the next region's snapshot carries it */
    counters(rt);
    m = wtcrt_msg_new(rt, sizeof *b + s->data_size);
    b = (wtcrt_bound *)(void *)WTCRT_PAYLOAD(m);
    memset(b, 0, sizeof *b);
    b->region = rt->regions;
    b->slot = slot;
    memcpy(b->value, v, s->size);
    if (s->data)
        memcpy(WTCRT_PAYLOAD(m) + sizeof *b, p, s->data_size);
    wtcrt_send_others(rt, WTCRT_BOUND, m);
    rt->bound_sent++;
    rt->st.bounds_sent++;
}

/* Applies a BOUND of this region. */
static void apply(wtcrt_rt *rt, wtcrt_msg *m)
{
    const wtcrt_bound *b = (const wtcrt_bound *)(const void *)WTCRT_PAYLOAD(m);
    const wtc_shared *s = &rt->prog->shared[b->slot];
    rt->st.bounds_taken++;
    if (wtcrt_share_better(s, b->value)) {
        memcpy(s->addr, b->value, s->size);
        if (s->data) /* the solution that has the value */
            memcpy(s->data, WTCRT_PAYLOAD(m) + sizeof *b, s->data_size);
        rt->st.bounds_better++;
    }
}

void wtcrt_bound_take(wtcrt_rt *rt, wtcrt_msg *m)
{
    const wtcrt_bound *b = (const wtcrt_bound *)(const void *)WTCRT_PAYLOAD(m);
    if (m->len < WTCRT_HDR_SIZE + sizeof *b || b->slot < 0 || b->slot >= rt->prog->nshared ||
        m->len != WTCRT_HDR_SIZE + sizeof *b + rt->prog->shared[b->slot].data_size)
        wtcrt_die(rt, "bad BOUND message from rank %d", m->src);
    counters(rt);
    if (rt->bell_seg && rt->bell_slot_of[m->src] >= 0)
        wtc__bounds_taken++; /* counted by its sender (wtcrt_bell_bound) */
    if (b->region == rt->regions && rt->in_region) {
        apply(rt, m);
        rt->bound_got[m->src]++;
        wtcrt_msg_free(rt, m);
    } else if (b->region == rt->regions + 1) {
        /* the sender is in the next region already (this rank is still ending this one,
           or waits for the next REGION_BEGIN): kept until that region's snapshot is in */
        rt->bound_got_next[m->src]++;
        m->next = rt->bound_early;
        rt->bound_early = m;
    } else {
        wtcrt_die(rt, "BOUND of region %d from rank %d in region %d", b->region, m->src,
                  rt->regions);
    }
}

void wtcrt_bounds_region(wtcrt_rt *rt)
{
    rt->regions++;
    wtcrt_bell_bounds_mine(rt);
    rt->bound_sent = 0;
    if (!rt->bound_got)
        return;
    for (int r = 0; r < rt->nranks; r++) {
        rt->bound_got[r] = rt->bound_got_next[r];
        rt->bound_got_next[r] = 0;
    }
    while (rt->bound_early) {
        wtcrt_msg *m = rt->bound_early;
        rt->bound_early = m->next;
        apply(rt, m);
        wtcrt_msg_free(rt, m);
    }
}

void wtcrt_bounds_end(wtcrt_rt *rt)
{
    MPI_Request req;
    if (!rt->prog->nshared || rt->nranks == 1)
        return;
    counters(rt);
    /* how many BOUNDs each rank sent (to every other one): a nonblocking collective,
       waited for without holding the core (wtcrt_coll_wait) */
    MPI_Iallgather(&rt->bound_sent, 1, MPI_INT, rt->bound_sent_all, 1, MPI_INT, rt->comm,
                   &req);
    wtcrt_coll_wait(&req);
    for (int r = 0; r < rt->nranks; r++)
        while (r != rt->rank && rt->bound_got[r] < rt->bound_sent_all[r])
            wtcrt_bound_take(rt, wtcrt_recv_bound(rt, r)); /* in order: this region's */
}
