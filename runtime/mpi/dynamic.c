/* mpi/dynamic.c - the dynamic mode (doc/runtime.md "dynamic mode", thesis Fig. 2.6 with
   standing requests): masters allocate idle workers to workers that have children to
   give; a worker never waits for its master; the children granted are the worker's
   oldest pending ones. */
#define _GNU_SOURCE /* SCHED_IDLE */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include "wtcrt.h"

/* ---- the worker's side ------------------------------------------------------------ */

/* Sends a control message (REQ, FWD, IDLE, GRANT) as an ordinary MPI_Isend, eager on
   every MPI, and counts it per destination: the region's end (dyn_end) adds up these
   counts so that each rank knows how many it must still receive. */
static void send_counted(wtcrt_rt *rt, int dest, int tag, wtcrt_msg *m)
{
    rt->ctl_sent[dest]++;
    wtcrt_send(rt, dest, tag, m);
}

/* A control message to a master. */
static void send_ctl(wtcrt_rt *rt, int dest, int tag, int lo, int want)
{
    wtcrt_msg *m = wtcrt_msg_new(rt, 0);
    WTCRT_HDR(m)->lo = lo;
    WTCRT_HDR(m)->want = want;
    send_counted(rt, dest, tag, m);
}

/* Keeps this rank's standing request in line with its pending work: a REQ for every
   pending group when none stands (and the masters have an idle worker, as far as their
   doorbell slots tell: wtcp_ask), a cancel (REQ for 0) when nothing is pending. */
static void ask(wtcrt_rt *rt)
{
    /* read (a fence) only where wtcp_ask may send a new REQ */
    int seen = rt->dyn_want == 0 && rt->npending > 0 ? wtcrt_bell_masters_idle(rt) : -1;
    int want = wtcp_ask(rt->npending, rt->batch, seen, &rt->dyn_want);
    if (want >= 0)
        send_ctl(rt, wtcrt_master_of(rt, rt->rank), WTCRT_REQ, rt->rank, want);
}

static void dyn_close(wtcrt_rt *rt, wtc_par *p);

/* A GRANT: a group to each granted rank while this rank has some; a rank granted when
   nothing is left goes back to its master (as if it had sent IDLE). At the end of a
   region a grant is dropped: the masters forget their tables, and nothing may be sent
   once this rank may have entered the end's barrier. */
static void on_grant(wtcrt_rt *rt, wtcrt_msg *m)
{
    const wtcrt_hdr *h = WTCRT_HDR(m);
    rt->ctl_recv++;
    if (rt->ending)
        return;
    for (int j = 0; j < h->count; j++) {
        int r;
        memcpy(&r, WTCRT_PAYLOAD(m) + 4ul * (unsigned long)j, sizeof r);
        int n = rt->npending > 0 ? wtcrt_give_oldest(rt, &wtcp_dynamic, r) : 0;
        if (n > 0) {
            rt->st.granted++;
        } else {
            send_ctl(rt, wtcrt_master_of(rt, r), WTCRT_IDLE, r, 0);
            rt->st.refused++;
        }
    }
    wtcrt_sync_tasks(rt);
    wtcp_granted(&rt->dyn_want, h->count);
    ask(rt);
}

/* A GRANT taken by the answering thread while this rank runs the program's code. */
static void leaf_grant(wtcrt_rt *rt, wtcrt_msg *m)
{
    on_grant(rt, m);
    wtcrt_msg_free(rt, m);
}

/* Handles one message of a worker during a region. */
static void handle(wtcrt_rt *rt, wtcrt_msg *m)
{
    switch (m->tag) {
    case WTCRT_GRANT:
        on_grant(rt, m);
        wtcrt_msg_free(rt, m);
        break;
    case WTCRT_RESULT:
        wtcrt_store_result(rt, m);
        wtcrt_msg_free(rt, m);
        break;
    case WTCRT_TASK: /* granted to this rank: the master marked it busy */
        rt->avail = 0;
        wtcrt_task_run(rt, m, dyn_close);
        break;
    default:
        wtcrt_die(rt, "dynamic mode: unexpected message %d from rank %d", m->tag, m->src);
    }
}

/* At every par and before each child: grants, results, work granted to this rank. */
static void dyn_poll(wtcrt_rt *rt)
{
    wtcrt_poll(rt, handle);
}

/* Waiting with nothing arrived: tells the master, once, that this rank is available
   (it then runs, nested, what it is granted). */
static void offer(wtcrt_rt *rt)
{
    if (!rt->avail && wtcp_may_nest(rt->nest)) {
        rt->avail = 1;
        send_ctl(rt, wtcrt_master_of(rt, rt->rank), WTCRT_IDLE, rt->rank, 0);
    }
}

/* A par (or a granted group or a seed as a task frame): a call that owns several
   ranks first seeds them (wtcrt_seed); its children run here from the first, grants
   take them from the last; then it collects what was sent away. */
static void dyn_close(wtcrt_rt *rt, wtc_par *p)
{
    int lo, hi;
    wtcrt_pending_end(rt, p, p->nch);
    if (p->mem) { /* a task frame: a seed's children own its ranks */
        lo = p->ctx.lo;
        hi = p->ctx.hi;
    } else {
        wtcrt_seed(rt, p, &lo, &hi);
    }
    p->closing = 1;
    /* the child is taken before the poll (a grant then takes the one after it), and
       before the request: a frame of one child (every seeding par of a binary tree)
       asks for nothing, not REQ(1) then REQ(0) */
    while (p->nextc < p->end) {
        int i = wtcrt_pending_take(rt, p);
        dyn_poll(rt);
        ask(rt);
        wtcrt_run_local_range(rt, p, i, lo, hi);
    }
    p->closing = 0;
    wtcrt_await(rt, p, handle, offer, 1);
}

/* ---- the masters ------------------------------------------------------------------ */

/* Grants up to 'want' of this master's idle workers (lowest rank first, never 'who'
   itself) to worker 'who' in one GRANT; returns how many. */
static int grant_own(wtcrt_rt *rt, int who, int want)
{
    int g;
    wtcrt_msg *m;
    if (want < 1 || rt->ending)
        return 0;
    /* the ranks are picked straight into the GRANT's payload (room for 'want') */
    m = wtcrt_msg_new(rt, 4ul * (unsigned long)want);
    g = wtcp_grant_pick(rt->roles, rt->rank, who, want, rt->idle,
                        (int *)(void *)WTCRT_PAYLOAD(m));
    if (g == 0) {
        wtcrt_msg_free(rt, m);
        return 0;
    }
    m->len = WTCRT_HDR_SIZE + 4ul * (unsigned long)g;
    WTCRT_HDR(m)->nbytes = 4ll * g;
    WTCRT_HDR(m)->count = g;
    WTCRT_HDR(m)->lo = who;
    send_counted(rt, who, WTCRT_GRANT, m);
    wtcrt_answer_ring(rt, who); /* a worker in a leaf serves it too (mpi/answer.c) */
    rt->nidle -= g;
    rt->st.granted += g;
    return g;
}

/* Sets worker 'who''s standing request to 'want' groups, keeping the count of
   standing requests (master_match looks for one only when some stand). */
static void set_standing(wtcrt_rt *rt, int who, int want)
{
    rt->nstanding += (want > 0) - (rt->standing[who] > 0);
    rt->standing[who] = want;
}

/* The rest of worker 'who''s request stands here until workers become idle. */
static void stand(wtcrt_rt *rt, int who, int want)
{
    set_standing(rt, who, want);
    rt->stand_seq[who] = ++rt->stand_clock;
    rt->st.refused++;
}

/* A request of worker 'who' for 'want' groups that has visited 'hops' masters: this
   master grants what it can; the rest travels on along the ring, and after the last
   master it stands at the worker's own master until workers become idle. */
static void master_request(wtcrt_rt *rt, int who, int want, int hops)
{
    int rest, dest, fh;
    if (want == 0 && hops == 0) { /* the worker has nothing left to give */
        set_standing(rt, who, 0);
        return;
    }
    rest = want - grant_own(rt, who, want);
    if (rt->ending)
        return;
    switch (wtcp_rest_route(rt->roles, rt->rank, who, rest, hops, &dest, &fh)) {
    case WTCP_REST_FWD: {
        wtcrt_msg *m = wtcrt_msg_new(rt, 0);
        WTCRT_HDR(m)->lo = who;
        WTCRT_HDR(m)->want = rest;
        WTCRT_HDR(m)->hops = fh;
        send_counted(rt, dest, WTCRT_FWD, m);
        break;
    }
    case WTCP_REST_STAND:
        stand(rt, who, rest);
        break;
    default:
        break;
    }
}

int wtcrt_dyn_idle_count(const wtcrt_rt *rt)
{
    int lo, hi, n = 0;
    wtcp_managed(rt->roles, rt->rank, &lo, &hi);
    for (int w = lo; w < hi; w++)
        n += rt->idle[w];
    return n;
}

/* Grants idle workers to the standing requests, the oldest request first. The counts
   of idle workers and of standing requests spare the two scans of all W workers when
   either is zero, as for most messages (a master's cost per message grew with P; under
   SMPI at P = 64 this took it from 3.5-4.7 us to 2.6-4.0 us, doc/predictor.md 8.1). */
static void master_match(wtcrt_rt *rt)
{
    while (rt->nidle > 0 && rt->nstanding > 0) {
        int who = wtcp_oldest_standing(0, rt->roles.W, rt->standing, rt->stand_seq);
        if (who < 0)
            return;
        int g = grant_own(rt, who, rt->standing[who]);
        if (g == 0)
            return;
        set_standing(rt, who, rt->standing[who] - g);
    }
}

/* With idle workers and no request standing: one to each worker of this host whose
   doorbell slot shows pending children, unasked (wtcp_unasked; its workers ask only
   when they see an idle worker, wtcp_ask). The count is shown first, so that a worker
   that shows children after this look sees it. */
static void master_unasked(wtcrt_rt *rt)
{
    int n, W = rt->roles.W;
    wtcrt_bell_idle_show(rt, rt->nidle);
    if (rt->nidle == 0 || rt->nstanding > 0 || rt->ending)
        return;
    for (int x = 0; x < W; x++)
        rt->seen[x] = wtcrt_bell_pending(rt, x);
    n = wtcp_unasked(W, rt->seen, rt->refused, rt->nidle, rt->picked);
    for (int i = 0; i < n; i++) {
        int x = rt->picked[i];
        rt->flagged[x] = rt->seen[x];
        grant_own(rt, x, 1);
    }
    if (n > 0)
        wtcrt_bell_idle_show(rt, rt->nidle);
}

/* One message to a master. */
static void master_handle(wtcrt_rt *rt, wtcrt_msg *m)
{
    const wtcrt_hdr *h = WTCRT_HDR(m);
    rt->ctl_recv++;
    switch (m->tag) {
    case WTCRT_REQ:
        master_request(rt, h->lo, h->want, 0);
        break;
    case WTCRT_FWD:
        if (wtcp_fwd_stands(rt->roles, h->hops)) /* back home: it stands here */
            stand(rt, h->lo, h->want);
        else
            master_request(rt, h->lo, h->want, h->hops);
        break;
    case WTCRT_IDLE:
        if (h->lo != m->src) /* given back (or handed back) by m->src */
            rt->refused[m->src] = rt->flagged[m->src];
        rt->nidle += !rt->idle[h->lo];
        rt->idle[h->lo] = 1;
        break;
    default:
        wtcrt_die(rt, "master: unexpected message %d from rank %d", m->tag, m->src);
    }
    master_match(rt);
    master_unasked(rt);
}

/* ---- the end of a region ------------------------------------------------------------ */

/* A master's message of this region, if one has come: REQ, FWD or IDLE. */
static wtcrt_msg *try_kinds(wtcrt_rt *rt)
{
    static const int kinds[] = { WTCRT_IDLE, WTCRT_REQ, WTCRT_FWD };
    for (int i = 0; i < 3; i++) {
        wtcrt_msg *m = wtcrt_try_recv(rt, MPI_ANY_SOURCE, kinds[i]);
        if (m)
            return m;
    }
    return NULL;
}

/* Every rank once the region's root has returned (rank 0) or REGION_END came: nothing
   more is granted, asked or forwarded, so this rank's counts of control messages sent
   are final; one MPI_Iallreduce adds them up per destination, and each rank serves
   until it has received as many as were sent to it (Mattern's counting, done once).
   Meanwhile stale grants are dropped (on_grant: the masters' lists of idle workers
   start afresh at the next region) and masters take the last control messages. No
   message is left unreceived. */
static void dyn_end(wtcrt_rt *rt)
{
    wtcrt_endbar bar;
    int started = 0, done = 0, us = 0, master = wtcp_is_master(rt->roles, rt->rank);
    rt->ending = 1;
    if (master) {
        for (int w = 0; w < rt->roles.W; w++)
            set_standing(rt, w, 0);
        wtcrt_bell_idle_show(rt, 0); /* nothing more is granted */
    }
    for (;;) {
        wtcrt_msg *m;
        if (rt->nreqs)
            wtcrt_progress(rt);
        if (!started && rt->nreqs == 0 && rt->ntasks == 0) {
            wtcrt_endbar_start(rt, &bar, rt->ctl_sent, rt->ctl_total);
            started = 1;
        }
        /* this region's kinds only: the next region's messages stay queued (their tag
           parity differs, wtcrt.h); what has come is taken before the sum is tested,
           which under SMPI costs 2(P-1) MPI_Tests
           (bench/history/bench.md, "SimGrid SMPI") */
        m = master ? try_kinds(rt) : wtcrt_try_recv(rt, MPI_ANY_SOURCE, WTCRT_GRANT);
        if (m) {
            wtcrt_backoff_end(rt, &us);
            if (m->tag == WTCRT_GRANT)
                on_grant(rt, m);
            else
                master_handle(rt, m);
            wtcrt_msg_free(rt, m);
            continue;
        }
        if (started && !done)
            done = wtcrt_endbar_done(rt, &bar, rt->ctl_total);
        if (done && rt->ctl_recv >= rt->ctl_total[rt->rank])
            break;
        if (started)
            wtcrt_endbar_wait(rt, &bar, &us);
        else
            wtcrt_backoff(rt, &us);
    }
    wtcrt_backoff_end(rt, &us);
    if (rt->ctl_recv != rt->ctl_total[rt->rank])
        wtcrt_die(rt, "dynamic mode: %d control messages received at the region's end, "
                  "%d sent to this rank", rt->ctl_recv, rt->ctl_total[rt->rank]);
    if (master && rt->nidle != wtcrt_dyn_idle_count(rt)) /* master_match's count */
        wtcrt_die(rt, "dynamic mode: master counted %d idle workers, %d are", rt->nidle,
                  wtcrt_dyn_idle_count(rt));
    memset(rt->ctl_sent, 0, (size_t)rt->nranks * sizeof *rt->ctl_sent);
    rt->ctl_recv = 0;
    rt->ending = 0;
    rt->dyn_want = 0;
    rt->avail = 0;
    rt->npending = 0;
    wtcrt_pending_show(rt);
}

/* A master during a region: serves requests and IDLEs until REGION_END. */
static void master_loop(wtcrt_rt *rt)
{
    wtcrt_set_state(rt, WTCRT_S_MASTER_IDLE);
    for (;;) {
        wtcrt_msg *m = wtcrt_recv(rt, MPI_ANY_SOURCE, MPI_ANY_TAG);
        wtcrt_set_state(rt, WTCRT_S_MASTER_BUSY);
        if (m->tag == WTCRT_REGION_END) {
            wtcrt_end_got(rt, m);
            dyn_end(rt);
            break;
        }
        master_handle(rt, m);
        wtcrt_msg_free(rt, m);
        wtcrt_set_state(rt, WTCRT_S_MASTER_IDLE);
    }
    wtcrt_set_state(rt, WTCRT_S_IDLE);
}

/* A worker other than rank 0 in a dynamic region: runs what it is granted and reports
   IDLE to its master after each, until REGION_END. */
static void dyn_worker(wtcrt_rt *rt)
{
    for (;;) {
        wtcrt_msg *m = wtcrt_recv(rt, MPI_ANY_SOURCE, MPI_ANY_TAG);
        if (m->tag == WTCRT_REGION_END) {
            wtcrt_end_got(rt, m);
            dyn_end(rt);
            return;
        }
        handle(rt, m);
        if (!rt->avail) {
            rt->avail = 1;
            send_ctl(rt, wtcrt_master_of(rt, rt->rank), WTCRT_IDLE, rt->rank, 0);
        }
    }
}

/* ---- a master on a host with more ranks than cores --------------------------------- */

/* There the master shares the workers' cores, and a master woken by a message took the
   core of a computing worker at once (the kernel favours a rank that slept), for each
   REGION_BEGIN, IDLE, REGION_END and the region end's barrier. Its loop runs instead on
   a thread of its own at the lowest priority (SCHED_IDLE): it runs when a core is free,
   which is when it is needed (the worker that says IDLE, rank 0 at the region's end,
   have just gone to sleep), and a computing worker keeps its core. Only with every rank
   on this host: an idle worker on another host frees no core here, and its master must
   not wait for one. The main thread sleeps meanwhile (a futex), so MPI is called by one
   thread at a time (MPI_THREAD_SERIALIZED). Without a free core for long the thread
   still gets a small share. Not under SMPI, nor without the doorbell (the host's ranks
   not known). */
static struct {
    pthread_t th;
    int state;          /* 0: not started, 1: running, -1: none */
    atomic_int go, done, stop; /* futex words: regions handed over, regions done */
    wtcrt_rt *rt;
} mth;

static void *master_main(void *arg)
{
    struct sched_param sp = { 0 };
    sigset_t all;
    int seen = 0;
    (void)arg;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL); /* signals are the main thread's */
    sched_setscheduler(0, SCHED_IDLE, &sp); /* this thread only (Linux); else as it is */
    for (;;) {
        while (atomic_load(&mth.go) == seen && !atomic_load(&mth.stop))
            wtcrt_word_wait(&mth.go, seen, 0);
        if (atomic_load(&mth.stop))
            return NULL;
        seen = atomic_load(&mth.go);
        master_loop(mth.rt);
        wtcrt_word_wake(&mth.done);
    }
}

/* A region of a master: on the low-priority thread where the job's one host is
   oversubscribed. */
static void dyn_master(wtcrt_rt *rt)
{
    int d;
#ifndef WTC_MPI_SMPI
    if (mth.state == 0) {
        mth.state = -1;
        mth.rt = rt;
        if (rt->oversubscribed && rt->bell_all_local &&
            pthread_create(&mth.th, NULL, master_main, NULL) == 0)
            mth.state = 1;
    }
#endif
    if (mth.state != 1) {
        master_loop(rt);
        return;
    }
    rt->st.lowprio = 1;
    d = atomic_load(&mth.done);
    wtcrt_word_wake(&mth.go);
    while (atomic_load(&mth.done) == d)
        wtcrt_word_wait(&mth.done, d, 0);
}

void wtcrt_master_stop(wtcrt_rt *rt)
{
    (void)rt;
    if (mth.state != 1 || pthread_equal(pthread_self(), mth.th))
        return;
    mth.state = -1;
    atomic_store(&mth.stop, 1);
    wtcrt_word_wake(&mth.go);
    pthread_join(mth.th, NULL);
}

/* Rank r, owned by a call of this rank that gives its ranks up unspread: IDLE on its
   behalf to its master, which counted it busy (region.c: the root owns every worker). */
static void dyn_hand_back(wtcrt_rt *rt, int r)
{
    send_ctl(rt, wtcrt_master_of(rt, r), WTCRT_IDLE, r, 0);
}

const wtcrt_mode_ops wtcrt_dynamic_ops = {
    &wtcp_dynamic, dyn_close, dyn_worker, dyn_master, dyn_poll, dyn_end, dyn_hand_back, NULL,
    WTCRT_GRANT, leaf_grant
};
