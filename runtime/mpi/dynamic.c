/* mpi/dynamic.c - the dynamic mode (doc/runtime.md "dynamic mode", thesis Fig. 2.6):
   the worker's par with REQ/GRANT rounds, and the masters with their FWD ring. */
#include <stdlib.h>
#include <string.h>
#include "wtcrt.h"

#define rt wtcrt_g

/* ---- the worker's side ------------------------------------------------------------ */

/* The batch T (at least 1). */
static int batch(void)
{
    return rt.batch > 0 ? rt.batch : 1;
}

/* Groups still pending in every frame of this rank that may give work (a grant takes
   the oldest first, whichever frame asked). */
static int pending_groups(void)
{
    int n = 0, t = batch();
    for (int l = 0; l < rt.nframes; l++) {
        const wtc_par *e = rt.frames[l];
        if (e->closing && e->end > e->nextc)
            n += (e->end - e->nextc + t - 1) / t;
    }
    return n;
}

/* Sends the oldest pending group of this rank (the core: the outermost frame with
   pending children, its first ones) to rank r in one TASK. */
static void send_group(int r)
{
    wtcp_frames v = wtcrt_frames_view();
    int l = wtcp_give_frame(&v), n;
    wtc_par *e;
    if (l < 0)
        wtcrt_die("granted more workers than asked for");
    e = rt.frames[l];
    n = wtcp_group_size(&wtcp_dynamic, e->end - e->nextc, batch());
    wtcrt_send_task(e, r, e->nextc, n, r, r + 1);
    e->nextc += n;
    rt.st.granted++;
}

/* One round for frame p (step 2): REQ for its pending groups, then a TASK to every
   granted rank. RESULTs that arrive meanwhile are stored. Measures the round trip and
   starts p's time slice. */
static void dyn_round(wtc_par *p)
{
    wtcrt_msg *m = wtcrt_msg_new(0);
    int old, final_seen = 0, expect = 0, got = 0, granted = 0;
    double t0 = wtcrt_now();
    WTCRT_HDR(m)->lo = rt.rank;
    WTCRT_HDR(m)->want = pending_groups();
    WTCRT_HDR(m)->frame = p->level;
    old = wtcrt_set_state(WTCRT_S_WAIT_MASTER);
    wtcrt_send(wtcrt_master_of(rt.rank), WTCRT_REQ, m);
    while (!final_seen || got < expect) {
        wtcrt_hdr *h;
        m = wtcrt_recv(MPI_ANY_SOURCE, MPI_ANY_TAG);
        h = WTCRT_HDR(m);
        if (m->tag == WTCRT_RESULT) {
            wtcrt_store_result(m);
        } else if (m->tag == WTCRT_GRANT) {
            got++;
            if (h->hops) {
                final_seen = 1;
                expect = h->first;
            }
            granted += h->count;
            for (int j = 0; j < h->count; j++) {
                int r;
                memcpy(&r, WTCRT_PAYLOAD(m) + 4ul * (unsigned long)j, sizeof r);
                send_group(r);
            }
        } else {
            wtcrt_die("unexpected message %d from rank %d while waiting for a master",
                      m->tag, m->src);
        }
        wtcrt_msg_free(m);
    }
    double rtt = wtcrt_now() - t0;
    wtcrt_sync_tasks();
    wtcrt_set_state(old);
    p->due = 0;
    p->slice_t0 = wtcrt_now();
    wtcp_round_end(&rt.slice, rtt, granted, p->slice_t0);
}

/* Whether p's next step is a round: when one is due or p's slice is used up; while
   the worker is backed off, only once its longer slice has passed since its last
   round (whichever frame that was for). */
static int round_due(const wtc_par *p)
{
    return wtcp_round_due(&rt.slice, p->due, p->slice_t0, wtcrt_now());
}

/* One step of p's local work: a round (round_due), else its first pending child here. */
static void dyn_step(wtc_par *p)
{
    if (round_due(p)) {
        dyn_round(p);
    } else {
        wtcrt_run_local(p, p->nextc++);
        rt.st.refused++;
    }
}

/* The outer frame of p (below it on this rank's stack) whose pending children a wait
   for p may run (the core decides); NULL when none or when helping is already nested
   help_max deep. */
static wtc_par *help_frame(const wtc_par *p)
{
    wtcp_frames v = wtcrt_frames_view();
    int l = wtcp_help_frame(&v, p->level, rt.helping, rt.help_max);
    return l < 0 ? NULL : rt.frames[l];
}

/* Step 5: waits for every RESULT of p. While none has arrived, does outer frames'
   pending work (their own rounds, then their children, one step at a time). */
static void dyn_collect(wtc_par *p)
{
    int old;
    if (!p->outstanding)
        return;
    old = wtcrt_set_state(WTCRT_S_WAIT_CHILDREN);
    while (p->outstanding) {
        wtc_par *e = help_frame(p);
        wtcrt_msg *m = e ? wtcrt_try_recv(MPI_ANY_SOURCE, MPI_ANY_TAG)
                         : wtcrt_recv(MPI_ANY_SOURCE, MPI_ANY_TAG);
        if (m) {
            if (m->tag != WTCRT_RESULT)
                wtcrt_die("unexpected message %d from rank %d while waiting for results",
                          m->tag, m->src);
            wtcrt_store_result(m);
            wtcrt_msg_free(m);
            continue;
        }
        rt.helping++;
        wtcrt_set_state(WTCRT_S_COMPUTE);
        dyn_step(e);
        wtcrt_set_state(WTCRT_S_WAIT_CHILDREN);
        rt.helping--;
    }
    wtcrt_set_state(old);
}

/* doc/runtime.md dynamic mode, steps 1-5. */
static void dyn_close(wtc_par *p)
{
    p->nextc = 1;
    p->end = p->nch;
    p->closing = 1;
    p->due = 1;
    if (p->nextc < p->end && round_due(p))
        dyn_round(p);
    /* refused children are asked for again (by a helper, or after the own child)
       before any runs here */
    p->due = 1;
    wtcrt_run_local(p, 0);
    p->due = 1;
    while (p->nextc < p->end)
        dyn_step(p);
    p->closing = 0;
    dyn_collect(p);
}

/* ---- the masters ------------------------------------------------------------------ */

/* Sends a GRANT listing ranks[0..n-1]; 'nmsgs' is the request's GRANT count if final. */
static void send_grant(int who, const int *ranks, int n, int final, int nmsgs)
{
    wtcrt_msg *m = wtcrt_msg_new(4ul * (unsigned long)n);
    if (n)
        memcpy(WTCRT_PAYLOAD(m), ranks, 4ul * (unsigned long)n);
    WTCRT_HDR(m)->count = n;
    WTCRT_HDR(m)->hops = final;
    WTCRT_HDR(m)->first = nmsgs;
    WTCRT_HDR(m)->lo = who;
    wtcrt_send(who, WTCRT_GRANT, m);
}

/* Workers of this master: [*lo, *hi) (the core decides). */
static void managed(int *lo, int *hi)
{
    wtcp_managed(rt.roles, rt.rank, lo, hi);
}

/* A REQ or FWD: grant from own idle workers (lowest first), forward the rest along the
   ring while masters remain, else answer with the final GRANT. */
static void master_request(int who, int want, int hops, int nmsgs, int lo, int hi)
{
    int *ranks, g = 0;
    if (want < 1)
        want = 1;
    if (!(ranks = malloc((size_t)want * sizeof *ranks)))
        wtcrt_die("out of memory");
    for (int w = lo; w < hi && g < want; w++)
        if (rt.idle[w]) {
            rt.idle[w] = 0;
            ranks[g++] = w;
        }
    rt.st.granted += g;
    if (g < want && hops < rt.masters - 1) {
        wtcrt_msg *m = wtcrt_msg_new(0);
        int me = rt.rank - (rt.nranks - rt.masters);
        /* FWD first, then the partial GRANT (doc/runtime.md, simulator note 5) */
        WTCRT_HDR(m)->lo = who;
        WTCRT_HDR(m)->want = want - g;
        WTCRT_HDR(m)->hops = hops + 1;
        WTCRT_HDR(m)->count = nmsgs + (g > 0);
        wtcrt_send(rt.nranks - rt.masters + (me + 1) % rt.masters, WTCRT_FWD, m);
        if (g > 0)
            send_grant(who, ranks, g, 0, 0);
    } else {
        rt.st.refused += g < want; /* requests not fully granted */
        send_grant(who, ranks, g, 1, nmsgs + 1);
    }
    free(ranks);
}

/* A master in a region: serves REQ / FWD / IDLE one at a time until REGION_END, then
   until every managed worker has reported IDLE. */
static void master_loop(void)
{
    int lo, hi, ending = 0;
    managed(&lo, &hi);
    wtcrt_set_state(WTCRT_S_MASTER_IDLE);
    for (;;) {
        wtcrt_msg *m;
        wtcrt_hdr *h;
        if (ending) {
            int busy = 0;
            for (int w = lo; w < hi; w++)
                busy += w != 0 && !rt.idle[w];
            if (!busy)
                break;
        }
        /* after REGION_END only IDLEs of this region can still arrive */
        m = wtcrt_recv(MPI_ANY_SOURCE, ending ? WTCRT_IDLE : MPI_ANY_TAG);
        wtcrt_set_state(WTCRT_S_MASTER_BUSY);
        h = WTCRT_HDR(m);
        if (m->tag == WTCRT_REQ)
            master_request(m->src, h->want, 0, 0, lo, hi);
        else if (m->tag == WTCRT_FWD)
            master_request(h->lo, h->want, h->hops, h->count, lo, hi);
        else if (m->tag == WTCRT_IDLE)
            rt.idle[m->src] = 1;
        else if (m->tag == WTCRT_REGION_END)
            ending = 1;
        else
            wtcrt_die("master: unexpected message %d from rank %d", m->tag, m->src);
        wtcrt_msg_free(m);
        wtcrt_set_state(WTCRT_S_MASTER_IDLE);
    }
    wtcrt_set_state(WTCRT_S_IDLE);
}

/* A worker other than rank 0 in a dynamic region: runs TASKs until REGION_END and
   reports IDLE to its master after each. */
static void dyn_worker(void)
{
    for (;;) {
        wtcrt_msg *m = wtcrt_recv(MPI_ANY_SOURCE, MPI_ANY_TAG);
        if (m->tag == WTCRT_REGION_END) {
            wtcrt_msg_free(m);
            return;
        }
        if (m->tag != WTCRT_TASK)
            wtcrt_die("unexpected message %d from rank %d in the server loop", m->tag, m->src);
        wtcrt_run_task(m);
        wtcrt_send(wtcrt_master_of(rt.rank), WTCRT_IDLE, wtcrt_msg_new(0));
    }
}

const wtcrt_mode_ops wtcrt_dynamic_ops = {
    &wtcp_dynamic, dyn_close, dyn_worker, master_loop, NULL, NULL
};
