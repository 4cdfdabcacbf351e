/* sim/mode_simple.c - the simulator's executor of simple mode (doc/runtime.md, "simple
 * mode"): a par's rank range is cut into sub-ranges (the core's wtcp_split_*), one TASK
 * per remote sub-range, sub-range 0's children here, RESULTs in sub-range order. */
#include "engine.h"

/* A par with cond true owning [lo, hi), hi - lo > 1. */
static void open_spar(sim *S, int rid, int p, int lo, int hi, int off)
{
    const sim_par *pp = &S->t->pars[p];
    int n = hi - lo, k = pp->nchild, s = wtcp_split_count(k, n);
    (void)off; /* 0: simple mode has no spawn polls */
    eng_send_split(S, rid, p, 0, lo, n, s, 0);
    frame *f = eng_push(S, rid, F_SPAR);
    f->par = p;
    f->lo = lo;
    f->hi = hi;
    f->s = s;
    f->j = 1;
    f->i = pp->first_child;
    f->end = pp->first_child + wtcp_split_first(1, k, s);
}

/* Once the TASK sends have completed: sub-range 0's children (each owning sub-range
   0), then the RESULT of each remote sub-range, in order. */
static int step_spar(sim *S, int rid)
{
    rank *r = &S->r[rid];
    frame *f = &r->st[r->depth - 1];
    if (!eng_wait_sends(S, rid))
        return 0;
    if (f->i < f->end) {
        int c = f->i++, lo = f->lo, hi = wtcp_split_lo(f->lo, f->hi - f->lo, 1, f->s);
        eng_start_child(S, rid, c, lo, hi);
        return 1;
    }
    if (f->j < f->s) {
        int src = wtcp_split_lo(f->lo, f->hi - f->lo, f->j, f->s);
        int i = eng_take(S, r, src, M_RESULT);
        if (i < 0)
            return 0;
        eng_receive(S, rid, i, &r->wchild);
        eng_msg_free(S, i);
        f->j++;
        return 1;
    }
    eng_pop(S, rid);
    return 1;
}

const sim_ops sim_simple_ops = {
    .id = SIM_SIMPLE,
    .open_par = open_spar,
    .step = step_spar,
    .serve = eng_serve_groups,
};
