/* mpi_dynamic.c - the dynamic mode (doc/runtime.md "dynamic mode", thesis Fig. 2.6):
   the worker's par with REQ/GRANT rounds, and the masters with their FWD ring. */
#include <stdlib.h>
#include <string.h>
#include "wtcrt.h"

#define rt wtcrt_g

/* ---- the worker's side ------------------------------------------------------------ */

/* Children of group g (0-based) of frame p: 1 + g*T ... */
static int group_first(int g)
{
    return 1 + g * rt.batch;
}

static int group_count(const wtc_par *p, int g)
{
    int first = group_first(g), last = first + rt.batch;
    return (last > p->nch ? p->nch : last) - first;
}

/* One round (step 2): REQ for the pending groups next..ngroups-1, then a TASK to every
   granted rank. Returns the new first pending group. RESULTs that arrive meanwhile are
   stored. */
static int dyn_round(wtc_par *p, int next, int ngroups)
{
    wtcrt_msg *m = wtcrt_msg_new(0);
    int old, final_seen = 0, expect = 0, got = 0;
    WTCRT_HDR(m)->lo = rt.rank;
    WTCRT_HDR(m)->want = ngroups - next;
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
            for (int j = 0; j < h->count; j++) {
                int r;
                memcpy(&r, WTCRT_PAYLOAD(m) + 4ul * (unsigned long)j, sizeof r);
                if (next >= ngroups)
                    wtcrt_die("granted more workers than asked for");
                wtcrt_send_task(p, r, group_first(next), group_count(p, next), r, r + 1);
                rt.st.granted++;
                next++;
            }
        } else {
            wtcrt_die("unexpected message %d from rank %d while waiting for a master",
                      m->tag, m->src);
        }
        wtcrt_msg_free(m);
    }
    wtcrt_sync_tasks();
    wtcrt_set_state(old);
    return next;
}

/* Runs group g here, its children one after the other. */
static void run_group_here(wtc_par *p, int g)
{
    int first = group_first(g), n = group_count(p, g);
    for (int i = first; i < first + n; i++)
        wtcrt_run_local(p, i);
    rt.st.refused++;
}

/* doc/runtime.md dynamic mode, steps 1-5. */
void wtcrt_dyn_close(wtc_par *p)
{
    int k = p->nch;
    int ngroups = k > 1 ? (k - 1 + rt.batch - 1) / rt.batch : 0;
    int next = 0;
    if (ngroups)
        next = dyn_round(p, next, ngroups);
    wtcrt_run_local(p, 0);
    while (next < ngroups) {
        next = dyn_round(p, next, ngroups);
        if (next < ngroups)
            run_group_here(p, next++);
    }
    wtcrt_wait_results(p);
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

/* Workers of this master: [*lo, *hi). */
static void managed(int *lo, int *hi)
{
    int me = rt.rank - (rt.nranks - rt.masters), w = 0;
    while (w < rt.nworkers && (long)w * rt.masters / rt.nworkers < me)
        w++;
    *lo = w;
    while (w < rt.nworkers && (long)w * rt.masters / rt.nworkers == me)
        w++;
    *hi = w;
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
void wtcrt_master_loop(void)
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
