/* sim/timeline.c - the predicted run of one setting as the program's --wtc-trace and
 * --wtc-stats show the real one: per simulated rank, the state it is in over time (the
 * runtime's state names, common/stats.c) and its counters. The engine marks every change
 * of state (sim/engine.c, eng_mark); the writing and printing are the program's own
 * (wtcrt_trace_write, wtcrt_stats_print). */
#include <stdlib.h>
#include <string.h>
#include "wtcrt.h"
#include "sim.h"

static void *tl_alloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) {
        fprintf(stderr, "wtc predict: out of memory for the timeline\n");
        sim_exit(2);
    }
    return p;
}

/* Every rank starts in its state at program time 0: rank 0 runs main, the rest idle. */
void sim_timeline_init(sim_timeline *tl, int P, int trace)
{
    memset(tl, 0, sizeof *tl);
    tl->P = P;
    tl->trace = trace;
    tl->st = tl_alloc((size_t)P, sizeof *tl->st);
    tl->ev = tl_alloc((size_t)P, sizeof *tl->ev);
    tl->nev = tl_alloc((size_t)P, sizeof *tl->nev);
    tl->capev = tl_alloc((size_t)P, sizeof *tl->capev);
    tl->state = tl_alloc((size_t)P, sizeof *tl->state);
    tl->since = tl_alloc((size_t)P, sizeof *tl->since);
    tl->full = tl_alloc((size_t)P, sizeof *tl->full);
    for (int r = 0; r < P; r++)
        tl->state[r] = -1;
    for (int r = 0; r < P; r++)
        sim_timeline_mark(tl, r, r == 0 ? WTCRT_S_COMPUTE : WTCRT_S_IDLE, 0);
}

void sim_timeline_free(sim_timeline *tl)
{
    for (int r = 0; r < tl->P; r++)
        free(tl->ev[r]);
    free(tl->st);
    free(tl->ev);
    free(tl->nev);
    free(tl->capev);
    free(tl->state);
    free(tl->since);
    free(tl->full);
    memset(tl, 0, sizeof *tl);
}

static void tl_event(sim_timeline *tl, int r, int state, int ph, double t)
{
    if (!tl->trace || tl->full[r])
        return;
    if (ph == 'B' && tl->nev[r] + 2 > WTCRT_MAX_EVENTS) {
        tl->full[r] = 1; /* as the runtime's: the E just written closed the lane */
        return;
    }
    if (tl->nev[r] == tl->capev[r]) {
        tl->capev[r] = tl->capev[r] ? 2 * tl->capev[r] : 256;
        tl->ev[r] = realloc(tl->ev[r], (size_t)tl->capev[r] * sizeof *tl->ev[r]);
        if (!tl->ev[r]) {
            fprintf(stderr, "wtc predict: out of memory for the timeline\n");
            sim_exit(2);
        }
    }
    tl->ev[r][tl->nev[r]++] = (wtcrt_event){ t * 1e6, state, ph };
}

/* As the runtime's wtcrt_set_state: the time since the last change goes to the state
   left, and the trace gets an E for it and a B for the new one. */
void sim_timeline_mark(sim_timeline *tl, int r, int state, double t)
{
    int old = tl->state[r];
    if (state == old)
        return;
    if (old >= 0) {
        if (t < tl->since[r])
            t = tl->since[r];
        tl->st[r].t[old] += t - tl->since[r];
        tl_event(tl, r, old, 'E', t);
    }
    tl->state[r] = state;
    tl->since[r] = t;
    tl_event(tl, r, state, 'B', t);
}

void sim_timeline_close(sim_timeline *tl, double t)
{
    for (int r = 0; r < tl->P; r++) {
        int old = tl->state[r];
        double at = t < tl->since[r] ? tl->since[r] : t;
        if (old < 0)
            continue;
        tl->st[r].t[old] += at - tl->since[r];
        tl->st[r].wall = at;
        tl_event(tl, r, old, 'E', at);
        tl->state[r] = -1;
    }
}
