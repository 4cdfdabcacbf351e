/* sim/cut.c - the recorded tree as another cut-off would have made it (--wtc-depth):
 * with every cond: replaced by wtc_depth < D, a par whose cond sees wtc_depth d (its
 * call's depth; one more per direct call between recursive functions) spawns when d < D; else its children run sequentially, each a leaf task whose time is the
 * sequential time of its recorded subtree. A tree recorded to depth Dr (or with the
 * program's conds) gives every D whose spawning pars were all recorded as spawning. */
#include <stdlib.h>
#include <string.h>
#include "sim.h"

/* Copies node src of t into node dst of out as a leaf task (its subtree's time). */
static void as_leaf(const sim_tree *t, int src, sim_tree *out, int dst)
{
    sim_node *n = &out->nodes[dst];
    *n = t->nodes[src];
    n->t_after = t->seq[src];
    n->first_par = -1;
    n->leaf = 1;
}

/* Copies the pars of old node i (new node ni) and their children; map[] takes the
   children's new indices, -1 for those that are leaf tasks now (their subtrees go). */
static int copy_pars(const sim_tree *t, int i, int ni, int D, int *map, sim_tree *out)
{
    for (int p = t->nodes[i].first_par; p >= 0; p = t->pars[p].next) {
        const sim_par *pp = &t->pars[p];
        int cond = pp->depth < D, first, np;
        if (cond && !pp->cond)
            return -1; /* recorded with an earlier cut-off: its subtree is unknown */
        first = sim_tree_add_nodes(out, pp->nchild);
        np = sim_tree_add_par(out, ni, pp->t_before, first, pp->nchild, cond);
        out->pars[np].t_spawn = pp->t_spawn;
        out->pars[np].site = pp->site;
        out->pars[np].depth = pp->depth;
        for (int k = 0; k < pp->nchild; k++) {
            int c = pp->first_child + k;
            if (cond) {
                out->nodes[first + k] = t->nodes[c];
                out->nodes[first + k].first_par = -1;
                map[c] = first + k;
            } else {
                as_leaf(t, c, out, first + k);
            }
        }
    }
    return 0;
}

int sim_tree_cut_depth(const sim_tree *t, int D, sim_tree *out)
{
    int *map = malloc((size_t)(t->nnodes ? t->nnodes : 1) * sizeof *map);
    int rc = 0;
    if (!map)
        return -1;
    for (int i = 0; i < t->nnodes; i++)
        map[i] = -1;
    sim_tree_init(out);
    out->main_time = t->main_time;
    out->main_faults = t->main_faults;
    out->calls_mpi = t->calls_mpi;
    out->built_mode = t->built_mode;
    out->nshared = t->nshared;
    for (int g = 0; g < t->nregions; g++) { /* roots are nobody's children */
        int r = t->regions[g].root;
        map[r] = sim_tree_add_nodes(out, 1);
        out->nodes[map[r]] = t->nodes[r];
        out->nodes[map[r]].first_par = -1;
    }
    /* callers come before their children: one forward sweep */
    for (int i = 0; i < t->nnodes && rc == 0; i++)
        if (map[i] >= 0)
            rc = copy_pars(t, i, map[i], D, map, out);
    for (int g = 0; g < t->nregions && rc == 0; g++) { /* as recorded, the root moved */
        int k = sim_tree_add_region(out, map[t->regions[g].root], t->regions[g].begin_bytes);
        out->regions[k] = t->regions[g];
        out->regions[k].root = map[t->regions[g].root];
    }
    for (int i = 0; i < t->nsites && rc == 0; i++) /* the same par statements */
        sim_tree_add_site(out, t->sites[i].file, t->sites[i].line, t->sites[i].col);
    free(map);
    if (rc == 0)
        sim_tree_finish(out);
    else
        sim_tree_free(out);
    return rc;
}
