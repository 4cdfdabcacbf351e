/* mpi/region.c - parallel regions (doc/runtime.md "Ranks and roles"): wtc_call and
   wtc_region_open on rank 0, REGION_BEGIN (by the core's broadcast route) / REGION_END,
   the other ranks' server loop. */
#include <stdlib.h>
#include <string.h>
#include "wtcrt.h"

/* The modes of the MPI runtime, dispatched through this table. */
static const wtcrt_mode_ops *const mode_ops[] = {
    &wtcrt_simple_ops, &wtcrt_dynamic_ops, &wtcrt_steal_ops
};

static const wtcrt_mode_ops *ops_of(wtcrt_rt *rt, int mode)
{
    for (size_t i = 0; i < sizeof mode_ops / sizeof mode_ops[0]; i++)
        if (mode_ops[i]->mode->id == mode)
            return mode_ops[i];
    wtcrt_die(rt, "unknown mode %d", mode);
}

/* The region's mode: --wtc-mode, else wtcc --mode, else the function's mode:. */
int wtcrt_mode_of(wtcrt_rt *rt, const wtc_fn *fn)
{
    if (rt->opt.mode != WTC_MODE_DEFAULT)
        return rt->opt.mode;
    return wtcrt_source_mode(rt->prog, fn);
}

/* Masters of a region: --wtc-masters (checked at start), else wtcc --mode's M, else
   the source's; the core reduces them to P-1, said once on stderr. */
static int masters_of(wtcrt_rt *rt, const wtc_fn *fn, int mode)
{
    int m = rt->opt.masters, reduced;
    if (!m)
        m = wtcrt_source_masters(rt->prog, fn);
    int got = wtcp_masters(wtcp_mode_get(mode), rt->nranks, m, &reduced);
    if (reduced && !rt->warned_masters) {
        fprintf(stderr, "wtc: warning: %s asks for %d masters but only %d rank%s can "
                        "be spared; using %d\n", fn->name, m, rt->nranks - 1,
                rt->nranks - 1 == 1 ? "" : "s", got);
        rt->warned_masters = 1;
    }
    return got;
}

/* The rank of a worker's master. */
int wtcrt_master_of(wtcrt_rt *rt, int worker)
{
    return wtcp_master_of(rt->roles, worker);
}

/* Every rank: the region's parameters, and the masters' idle table. */
static void region_setup(wtcrt_rt *rt, int mode, int masters, int batch)
{
    rt->in_region = 1;
    wtcrt_shheap_pause(1); /* no core is spare for the filler */
    rt->mode = mode;
    rt->ops = ops_of(rt, mode);
    if (rt->ops->mode->end_barrier) /* its control messages take the next tag parity
                                       (mpi/transport.c) */
        rt->barrier_regions++;
    rt->roles = wtcp_roles_make(rt->ops->mode, rt->nranks, masters);
    rt->masters = rt->roles.M;
    rt->batch = batch;
    rt->nworkers = rt->roles.W;
    /* dynamic: a rank other than 0 says IDLE after each TASK it ran, not before the
       first (avail); its master counts it busy while the root owns it (below) */
    rt->avail = rt->rank != 0;
    rt->dyn_want = rt->npending = rt->ending = 0;
    wtcrt_pending_show(rt);
    wtcp_grain_start(&rt->grain, wtcrt_now());
    /* steal: each region asks the victims of its simulation (unseeded: always rank 0) */
    rt->steal_rng = wtcp_victim_seed(rt->rank, 0);
    rt->seeded_in = 0;
    rt->settled = rt->rank == 0; /* the region's root is rank 0's */
    if (!rt->ctl_sent && /* dynamic mode's counts (mpi/dynamic.c) */
        (!(rt->ctl_sent = calloc((size_t)rt->nranks, sizeof *rt->ctl_sent)) ||
         !(rt->ctl_total = calloc((size_t)rt->nranks, sizeof *rt->ctl_total))))
        wtcrt_die(rt, "out of memory");
    if (wtcp_is_master(rt->roles, rt->rank)) {
        rt->st.master = 1;
        if (!rt->idle && !(rt->idle = calloc((size_t)rt->nranks, 1)))
            wtcrt_die(rt, "out of memory");
        if (!rt->standing &&
            (!(rt->standing = calloc((size_t)rt->nranks, sizeof *rt->standing)) ||
             !(rt->stand_seq = calloc((size_t)rt->nranks, sizeof *rt->stand_seq)) ||
             !(rt->seen = calloc((size_t)rt->nranks, sizeof *rt->seen)) ||
             !(rt->flagged = calloc((size_t)rt->nranks, sizeof *rt->flagged)) ||
             !(rt->refused = calloc((size_t)rt->nranks, sizeof *rt->refused)) ||
             !(rt->picked = calloc((size_t)rt->nranks, sizeof *rt->picked))))
            wtcrt_die(rt, "out of memory");
        /* the workers the root owns are busy until seeded work ends or they are
           handed back (wtcp_hands_back); with seeds the root owns them all */
        int owned = wtcp_root_ranks(rt->ops->mode, rt->roles);
        for (int w = 0; w < rt->nworkers; w++) {
            rt->idle[w] = w >= owned;
            rt->standing[w] = 0;
            rt->flagged[w] = rt->refused[w] = 0;
        }
        rt->nidle = wtcrt_dyn_idle_count(rt);
        rt->nstanding = 0;
        wtcrt_bell_idle_show(rt, rt->nidle);
    } else {
        rt->st.worker = 1;
    }
    if (!wtcrt_held) /* held: once MPI has started (wtcrt_mpi_ready) */
        wtcrt_bounds_region(rt); /* after the snapshot: BOUNDs of this region come early */
    wtcrt_answer_start(rt, 0); /* the first region whose mode answers from leaves */
    wtcrt_answer_region(rt, 1);
}

/* Payload of REGION_BEGIN: mode, masters, batch, pad, then every global's bytes. */
static size_t snapshot_size(wtcrt_rt *rt)
{
    size_t n = 4 * sizeof(int);
    for (int g = 0; g < rt->prog->nglobals; g++)
        n += rt->prog->globals[g].size;
    return n;
}

/* Whether rank 0's broadcasts go by the tree: the core's rule for this program's
   REGION_BEGIN, the same on every rank. */
static int bcast_tree(wtcrt_rt *rt)
{
    return wtcp_bcast_tree(rt->nranks, (long long)snapshot_size(rt));
}

/* Room for the ranks a route of the core sends to (wtcp_bcast_to: up to P-1 flat, 32
   in the tree; wtcp_end_to: P-1); the caller frees it. */
static int *route_room(wtcrt_rt *rt)
{
    int *kids = malloc((size_t)(rt->nranks > 32 ? rt->nranks : 32) * sizeof *kids);
    if (!kids)
        wtcrt_die(rt, "out of memory");
    return kids;
}

/* Sends rank 0's broadcast m (REGION_BEGIN, EXIT) on to the ranks this rank passes it
   to (all others from rank 0 when flat, its children in the tree), waiting until they
   have it; the caller still owns m (doc/runtime.md "The region start"). */
void wtcrt_bcast(wtcrt_rt *rt, int tag, wtcrt_msg *m)
{
    int *kids = route_room(rt), n;
    n = wtcp_bcast_to(rt->rank, rt->nranks, bcast_tree(rt), kids);
    if (tag == WTCRT_REGION_BEGIN && wtcp_log_file())
        for (int i = 0; i < n; i++)
            fprintf(wtcp_log_file(), "begin %d -> %d\n", rt->rank, kids[i]);
    wtcrt_send_each(rt, kids, n, tag, m);
    free(kids);
}

/* Rank 0: decides the region's parameters and broadcasts REGION_BEGIN. */
void wtcrt_region_begin(wtcrt_rt *rt, const wtc_fn *fn)
{
    /* what main printed goes out before any rank can print or abort (stdout is fully
       buffered: mpi/single.c) */
    fflush(stdout);
    wtcrt_stdout_region(1);
    int mode = wtcrt_mode_of(rt, fn);
    /* batch 0: the mode's default (dynamic: 1; steal: half the pending children) */
    int par[4] = { mode, masters_of(rt, fn, mode), rt->opt.batch > 0 ? rt->opt.batch : 0,
                   0 };
    wtcrt_msg *m = wtcrt_msg_new(rt, snapshot_size(rt));
    unsigned char *p = WTCRT_PAYLOAD(m);
    memcpy(p, par, sizeof par);
    p += sizeof par;
    for (int g = 0; g < rt->prog->nglobals; g++) {
        memcpy(p, rt->prog->globals[g].addr, rt->prog->globals[g].size);
        p += rt->prog->globals[g].size;
    }
    WTCRT_HDR(m)->fn = fn->id;
    /* MPI still starting: the start thread sends m once it has (mpi/single.c) */
    if (!wtcrt_hold(rt, m)) {
        wtcrt_mpi_ready(rt);
        wtcrt_bcast(rt, WTCRT_REGION_BEGIN, m);
        wtcrt_msg_free(rt, m);
    }
    region_setup(rt, par[0], par[1], par[2]);
}

/* Every rank, its part of the region done: what region_setup began ends (bounds, the
   filler's pause, the answering thread's region). */
static void region_leave(wtcrt_rt *rt)
{
    wtcrt_bounds_end(rt);
    rt->in_region = 0;
    wtcrt_shheap_pause(0);
    wtcrt_answer_region(rt, 0);
}

/* Other ranks: applies REGION_BEGIN (parameters and the global snapshot). */
static void region_enter(wtcrt_rt *rt, wtcrt_msg *m)
{
    int par[4];
    const unsigned char *p = WTCRT_PAYLOAD(m);
    if (m->len - WTCRT_HDR_SIZE != snapshot_size(rt))
        wtcrt_die(rt, "REGION_BEGIN of %zu bytes, expected %zu", m->len - WTCRT_HDR_SIZE,
                  snapshot_size(rt));
    memcpy(par, p, sizeof par);
    p += sizeof par;
    for (int g = 0; g < rt->prog->nglobals; g++) {
        memcpy(rt->prog->globals[g].addr, p, rt->prog->globals[g].size);
        p += rt->prog->globals[g].size;
    }
    region_setup(rt, par[0], par[1], par[2]);
}

/* Sends REGION_END on by the core's route (wtcp_end_to), without waiting. */
static void end_send(wtcrt_rt *rt)
{
    int *kids = route_room(rt);
    int n = wtcp_end_to(rt->rank, rt->nranks, kids);
    for (int i = 0; i < n; i++)
        wtcrt_send(rt, kids[i], WTCRT_REGION_END, wtcrt_msg_new(rt, 0));
    free(kids);
}

/* A rank other than 0 got REGION_END m: it passes it on before it acts on it (the
   mode's end follows), as a broadcast (doc/runtime.md "The region end"). */
void wtcrt_end_got(wtcrt_rt *rt, wtcrt_msg *m)
{
    wtcrt_msg_free(rt, m);
    end_send(rt);
}

/* Rank 0: the region's root has returned; every other rank leaves the region (the
   core's route, wtcp_end_to), and in a mode that ends with a barrier rank 0 takes part
   (its end operation; doc/runtime.md "The region end"). */
void wtcrt_region_end(wtcrt_rt *rt)
{
    wtcrt_mpi_ready(rt); /* a region held while MPI started: its start has gone out */
    wtcrt_fast_stop(rt);
    if (rt->npending) /* every frame closed: each child counted pending was taken */
        wtcrt_die(rt, "internal error: %d children counted pending at the region's end",
                  rt->npending);
    end_send(rt);
    if (wtcp_end_barrier(rt->ops->mode, rt->nranks)) {
        rt->ops->end(rt);
        /* the end took every message of the region, from the inbox too: what was taken
           in while waiting for a send (mpi/transport.c) belongs to this region */
        if (rt->inbox)
            wtcrt_die(rt, "message of kind %d from rank %d left unhandled at the region's end",
                      rt->inbox->tag, rt->inbox->src);
    }
    region_leave(rt);
    wtcrt_stdout_region(0);
    wtcrt_region_unclaim();
}

/* May a region start here? Only rank 0, outside a region, with other ranks, not in a
   child of fork() (its recursive calls run sequentially: MPI is the parent's), not once
   the job has ended (an atexit handler or a destructor after main returned: the other
   ranks are gone and MPI is finalized; it died with MPICH's "after finalizing"). */
static int region_possible(void *arg) /* (wtcrt_region_claim's test: common/claim.c) */
{
    wtcrt_rt *rt = arg;
    return rt->started && rt->rank == 0 && !rt->in_region && rt->nranks > 1 &&
           !rt->finished && !wtcrt_forked(rt);
}

void wtc_call(const wtc_fn *fn, void *args, void *ret)
{
    wtcrt_rt *rt = &wtcrt_this_rank; /* entered from generated code (wtc_abi.h) */
    wtc_ctx c = { 0, 0, 1, 0 };
    if (!wtcrt_region_claim(region_possible, rt)) { /* MPI's start may go on */
        fn->run_seq(args, ret); /* outside the runtime all along (mpi/answer.c) */
        return;
    }
    wtcrt_enter(rt);
    wtcrt_region_begin(rt, fn);
    c.hi = wtcp_root_ranks(rt->ops->mode, rt->roles);
    wtcrt_call_push(rt, fn, args, c.depth);
    wtcrt_leave(rt);
    fn->run_par(c, args, ret);
    wtcrt_enter(rt);
    wtcrt_call_pop(rt);
    wtcrt_region_end(rt);
    wtcrt_leave(rt);
}

wtc_par *wtc_region_open(const wtc_fn *first, const wtc_site *site)
{
    wtcrt_rt *rt = &wtcrt_this_rank; /* entered from generated code (wtc_abi.h) */
    (void)site; /* the predictor's advice uses it */
    wtc_ctx c = { -1, 0, 1, 0 }; /* the spawned calls get depth 0 */
    wtc_par *p;
    if (!wtcrt_region_claim(region_possible, rt))
        return NULL;
    wtcrt_enter(rt);
    wtcrt_region_begin(rt, first);
    c.hi = wtcp_root_ranks(rt->ops->mode, rt->roles);
    p = wtcrt_frame_push(rt, c);
    p->region = 1;
    wtcrt_leave(rt);
    return p;
}

/* The next of rank 0's broadcasts (REGION_BEGIN, EXIT), from the rank that passes it
   to this one: between regions nobody else speaks first, so messages of the next
   region from other ranks wait in MPI's queue until its REGION_BEGIN is applied. */
static wtcrt_msg *bcast_next(wtcrt_rt *rt)
{
    wtcrt_msg *m = rt->bcast_early;
    if (m)
        rt->bcast_early = NULL;
    else
        m = wtcrt_recv(rt, wtcp_bcast_from(rt->rank, rt->nranks, bcast_tree(rt)), MPI_ANY_TAG);
    if (m->tag != WTCRT_EXIT && m->tag != WTCRT_REGION_BEGIN)
        wtcrt_die(rt, "unexpected message %d from rank %d between regions", m->tag, m->src);
    return m;
}

/* A simple-mode worker got the next broadcast m from its tree parent before this
   region's REGION_END from rank 0 (they come by different routes where REGION_END goes
   flat): m waits for the server loop, and only the REGION_END is taken now. */
void wtcrt_bcast_early(wtcrt_rt *rt, wtcrt_msg *m)
{
    if (rt->bcast_early)
        wtcrt_die(rt, "two broadcasts from rank %d before REGION_END", m->src);
    rt->bcast_early = m;
    wtcrt_end_got(rt, wtcrt_recv(rt, wtcp_end_from(rt->rank, rt->nranks), WTCRT_REGION_END));
}

/* Ranks other than 0: wait for regions until EXIT; returns the exit status. */
int wtcrt_serve(wtcrt_rt *rt)
{
    for (;;) {
        wtcrt_msg *m = bcast_next(rt);
        wtcrt_bcast(rt, m->tag, m); /* on to the ranks below this one first */
        if (m->tag == WTCRT_EXIT) {
            int status = WTCRT_HDR(m)->want;
            wtcrt_msg_free(rt, m);
            return status;
        }
        region_enter(rt, m);
        wtcrt_msg_free(rt, m);
        if (wtcp_is_master(rt->roles, rt->rank))
            rt->ops->master(rt);
        else
            rt->ops->worker(rt);
        region_leave(rt);
        fflush(stdout); /* what recursive code printed here, before main goes on */
    }
}
