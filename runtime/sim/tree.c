/* sim/tree.c - the recorded program the simulator replays: call nodes, their par
 * statements and the leaf tasks. Built by sim/record.c from a real run, or by hand in
 * the unit tests. Node indices grow in allocation (depth-first) order, so a child
 * always has a larger index than its caller. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"

/* Grows *p (n used, *cap allocated, elements of size sz) to hold n + more. */
static void *grow(void *p, int n, int *cap, int more, size_t sz)
{
    if (n + more <= *cap)
        return p;
    int c = *cap ? *cap : 64;
    while (c < n + more)
        c *= 2;
    p = realloc(p, (size_t)c * sz);
    if (!p) {
        fprintf(stderr, "wtc predict: out of memory recording the program\n");
        sim_exit(2);
    }
    *cap = c;
    return p;
}

void sim_tree_init(sim_tree *t)
{
    memset(t, 0, sizeof *t);
}

void sim_tree_free(sim_tree *t)
{
    free(t->nodes);
    free(t->pars);
    free(t->regions);
    free(t->seq);
    free(t->spawns);
    free(t->sites);
    sim_tree_init(t);
}

int sim_tree_add_site(sim_tree *t, const char *file, int line, int col)
{
    t->sites = grow(t->sites, t->nsites, &t->capsites, 1, sizeof *t->sites);
    t->sites[t->nsites] = (sim_site){ file, line, col };
    return t->nsites++;
}

int sim_tree_add_nodes(sim_tree *t, int n)
{
    int first = t->nnodes;
    t->nodes = grow(t->nodes, t->nnodes, &t->capnodes, n, sizeof *t->nodes);
    for (int i = 0; i < n; i++) {
        sim_node *nd = &t->nodes[first + i];
        memset(nd, 0, sizeof *nd);
        nd->first_par = -1;
    }
    t->nnodes += n;
    return first;
}

int sim_tree_add_par(sim_tree *t, int caller, double t_before, int first_child,
                     int nchild, int cond)
{
    int p = t->npars, *link;
    t->pars = grow(t->pars, t->npars, &t->cappars, 1, sizeof *t->pars);
    t->pars[p] = (sim_par){ t_before, first_child, nchild, cond, -1, 0, -1,
                             t->nodes[caller].depth };
    t->npars++;
    /* append at the end of the caller's list (short: a call has few pars) */
    for (link = &t->nodes[caller].first_par; *link >= 0; link = &t->pars[*link].next)
        ;
    *link = p;
    return p;
}

int sim_tree_add_region(sim_tree *t, int root, unsigned begin_bytes)
{
    t->regions = grow(t->regions, t->nregions, &t->capregions, 1, sizeof *t->regions);
    t->regions[t->nregions] = (sim_region){ root, begin_bytes, t->main_time, 0, 0 };
    return t->nregions++;
}

double sim_tree_seq(const sim_tree *t)
{
    double s = t->main_time;
    for (int g = 0; g < t->nregions; g++)
        s += t->seq[t->regions[g].root];
    return s;
}

int sim_tree_main_after(const sim_tree *t, double *after, double *seq)
{
    *seq = sim_tree_seq(t);
    *after = t->nregions > 0 ? t->main_time - t->regions[0].main_at : 0;
    return t->nregions > 0 && *after > SIM_REPL_MAIN_SHARE * *seq;
}

/* A copy of t sharing its nodes, regions and sites, with pars of its own (whose cond
   the caller changes, then sim_tree_finish). */
static void copy_pars_only(const sim_tree *t, sim_tree *out)
{
    *out = *t;
    out->seq = NULL;
    out->spawns = NULL;
    out->pars = malloc((size_t)(t->npars ? t->npars : 1) * sizeof *t->pars);
    if (!out->pars) {
        fprintf(stderr, "wtc predict: out of memory\n");
        sim_exit(2);
    }
    memcpy(out->pars, t->pars, (size_t)t->npars * sizeof *t->pars);
}

void sim_tree_cut(const sim_tree *t, int site, int depth, sim_tree *out)
{
    copy_pars_only(t, out);
    for (int p = 0; p < t->npars; p++)
        if (t->pars[p].site == site && t->pars[p].depth >= depth)
            out->pars[p].cond = 0;
    sim_tree_finish(out);
}

long sim_tree_deepen(const sim_tree *t, int site, sim_tree *out)
{
    long n = 0;
    copy_pars_only(t, out);
    for (int p = 0; p < t->npars; p++)
        if (t->pars[p].site == site && !t->pars[p].cond && t->pars[p].nchild > 0) {
            out->pars[p].cond = 1;
            n += t->pars[p].nchild;
        }
    sim_tree_finish(out);
    return n;
}

void sim_tree_cut_free(sim_tree *c)
{
    free(c->pars);
    free(c->seq);
    free(c->spawns);
    memset(c, 0, sizeof *c);
}

/* Children have larger indices than their callers: one backward sweep suffices. */
void sim_tree_finish(sim_tree *t)
{
    free(t->seq);
    free(t->spawns);
    t->seq = malloc((size_t)(t->nnodes ? t->nnodes : 1) * sizeof *t->seq);
    t->spawns = malloc((size_t)(t->nnodes ? t->nnodes : 1));
    if (!t->seq || !t->spawns) {
        fprintf(stderr, "wtc predict: out of memory\n");
        sim_exit(2);
    }
    for (int i = t->nnodes - 1; i >= 0; i--) {
        double s = t->nodes[i].t_after;
        unsigned char sp = 0;
        for (int p = t->nodes[i].first_par; p >= 0; p = t->pars[p].next) {
            const sim_par *pp = &t->pars[p];
            s += pp->t_before;
            sp |= pp->cond != 0;
            for (int c = 0; c < pp->nchild; c++) {
                s += t->seq[pp->first_child + c];
                sp |= t->spawns[pp->first_child + c];
            }
        }
        t->seq[i] = s;
        t->spawns[i] = sp;
    }
}
