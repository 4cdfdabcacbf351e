/* sim_cut.c - sim_tree_cut_depth (the tree another --wtc-depth would have recorded) on a
 * hand-built tree with worked numbers (tests/unit/sim_profile.sh). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "sim.h"

static int failures;

static void check(const char *what, double got, double want)
{
    int ok = fabs(got - want) <= 1e-12 * (fabs(want) + 1);
    printf("%s %s: got %g, want %g\n", ok ? "[PASS]" : "[FAIL]", what, got, want);
    failures += !ok;
}

/* A binary tree recorded to depth 3: call at depth d computes 1 before its par and 2
   after it (t_spawn 0.5, not part of the sequential time), leaves at depth 3 take 10.
   Sequential time: 8 leaves * 10 + 7 calls * 3 = 101. */
static int add_call(sim_tree *t, int node, int d)
{
    t->nodes[node].depth = d;
    if (d == 3) {
        t->nodes[node].t_after = 10;
        t->nodes[node].leaf = 1;
        return 0;
    }
    int c = sim_tree_add_nodes(t, 2);
    int p = sim_tree_add_par(t, node, 1, c, 2, 1);
    t->pars[p].t_spawn = 0.5;
    t->pars[p].site = 7;
    t->nodes[node].t_after = 2;
    add_call(t, c, d + 1);
    add_call(t, c + 1, d + 1);
    return 0;
}

int main(void)
{
    sim_tree t, c;
    sim_tree_init(&t);
    add_call(&t, sim_tree_add_nodes(&t, 1), 0);
    sim_tree_add_region(&t, 0, 0);
    t.main_time = 4;
    sim_tree_finish(&t);
    check("recorded: sequential time", t.seq[0], 101);

    /* depth 1: the root's par spawns (0 < 1); the calls at depth 1 run their pars
       without spawning (1 < 1 is false), so their children are leaf tasks whose time
       is their subtree's: 1 + 2 + 2 * 10 = 23 */
    check("cut at 1: succeeds", sim_tree_cut_depth(&t, 1, &c), 0);
    check("cut at 1: nodes", c.nnodes, 7);
    check("cut at 1: pars", c.npars, 3);
    check("cut at 1: root's par spawns", c.pars[0].cond, 1);
    check("cut at 1: the pars at depth 1 do not", c.pars[1].cond + c.pars[2].cond, 0);
    check("cut at 1: a call at depth 2 is a leaf task",
          c.nodes[6].leaf && c.nodes[6].first_par < 0 && c.nodes[6].depth == 2, 1);
    check("cut at 1: its time is its subtree's", c.nodes[6].t_after, 23);
    check("cut at 1: sequential time kept", c.seq[0], 101);
    check("cut at 1: main's time kept", c.main_time, 4);
    check("cut at 1: t_spawn and site kept", c.pars[0].t_spawn + c.pars[0].site, 7.5);
    sim_tree_free(&c);

    /* depth 0: nothing spawns; the root keeps its par, cond false, 2 leaf tasks of
       3 + 2 * (3 + 20) = 49 */
    check("cut at 0: succeeds", sim_tree_cut_depth(&t, 0, &c), 0);
    check("cut at 0: nodes", c.nnodes, 3);
    check("cut at 0: the root's par does not spawn", c.pars[0].cond, 0);
    check("cut at 0: a child's time is its subtree's", c.nodes[2].t_after, 49);
    check("cut at 0: sequential time kept", c.seq[0], 101);
    sim_tree_free(&c);

    /* depth 2: every node, the pars at depth 2 do not spawn */
    check("cut at 2: succeeds", sim_tree_cut_depth(&t, 2, &c), 0);
    check("cut at 2: nodes", c.nnodes, 15);
    check("cut at 2: pars", c.npars, 7);
    check("cut at 2: spawning pars", c.pars[0].cond + c.pars[1].cond + c.pars[2].cond +
          c.pars[3].cond + c.pars[4].cond + c.pars[5].cond + c.pars[6].cond, 3);
    sim_tree_free(&c);

    /* depth 3 and more: the recording itself (every par spawned) */
    check("cut at 3: succeeds", sim_tree_cut_depth(&t, 3, &c), 0);
    check("cut at 3: every par spawns", c.npars == 7 && c.pars[3].cond && c.pars[6].cond, 1);
    sim_tree_free(&c);

    /* a recording whose pars at depth 1 did not spawn cannot tell depth 2 or more */
    t.pars[1].cond = 0;
    check("recorded with an earlier cut-off: depth 2 refused", sim_tree_cut_depth(&t, 2, &c), -1);
    check("... depth 1 still fine", sim_tree_cut_depth(&t, 1, &c), 0);
    sim_tree_free(&c);
    sim_tree_free(&t);
    printf("%s\n", failures ? "sim_cut: FAILED" : "sim_cut: all passed");
    return failures != 0;
}
