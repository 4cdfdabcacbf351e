/* sim_engine.c - the simulator against hand-computed timelines of every mode, the
 * decision log, conservation on a random tree, and the saturation of a 1,048,576-task
 * farm on the 2004 Ethernet preset (tests/unit/sim_engine.sh). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sim.h"
#include "proto.h"

static int failures;

/* A uniform number in [0, 1) (xorshift64). */
static double urand(unsigned long long *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return (double)(*s >> 11) / 9007199254740992.0;
}

static void check(const char *what, double got, double want)
{
    int ok = fabs(got - want) <= 1e-9 * (fabs(want) + 1);
    printf("%s %s: got %.9g, want %.9g\n", ok ? "[PASS]" : "[FAIL]", what, got, want);
    failures += !ok;
}

/* A machine with round numbers: o_s = 1, o_r = 2, L = 10, no per-byte or per-P costs. */
static sim_machine toy(void)
{
    sim_machine m;
    memset(&m, 0, sizeof m);
    m.L = 10;
    m.o_sa = 1;
    m.o_ra = 2;
    m.S = 1e18;
    m.cpu_ratio = 1;
    return m;
}

/* root: computes 5, par (cond) of k leaves of 100 each, then computes 3. */
static void two_leaves(sim_tree *t, int k)
{
    sim_tree_init(t);
    int root = sim_tree_add_nodes(t, 1);
    int c = sim_tree_add_nodes(t, k);
    for (int i = 0; i < k; i++) {
        t->nodes[c + i].t_after = 100;
        t->nodes[c + i].leaf = 1;
    }
    t->nodes[root].t_after = 3;
    sim_tree_add_par(t, root, 5, c, k, 1);
    sim_tree_add_region(t, root, 0);
    sim_tree_finish(t);
}

static double run(const sim_tree *t, const sim_machine *m, int mode, int P, int M, int T,
                  sim_result *r)
{
    sim_setting s = { mode, P, M, T };
    if (sim_run(t, m, s, r) < 0)
        return -1;
    return r->time;
}

static void hand_timelines(void)
{
    sim_machine m = toy();
    sim_tree t;
    sim_result r;
    two_leaves(&t, 2);
    /* simple, P = 2. rank 0: BEGIN to 1 (t 1, arrives 11); compute 5 (6); TASK child 1
       to rank 1 (7, arrives 17); child 0 here (107); RESULT awaited.
       rank 1: BEGIN received 11+2 = 13; TASK 17+2 = 19; compute 119; RESULT sent 120,
       arrives 130. rank 0: receives 130+2 = 132; compute 3 (135); END to 1 (136). */
    check("simple P=2 two leaves", run(&t, &m, SIM_SIMPLE, 2, 0, 1, &r), 136);
    check("simple P=2 wait-children", r.wait_children, 130 - 107);
    /* the doorbell (w_yield = 4, w_wake = 7) and the per-child cost (t_child = 0.5),
       simple, P = 2. rank 0: BEGIN to 1 (1, arr 11); compute 5 (6); TASK to 1 (7, arr
       17); child 0 here: 0.5 + 100 (107.5); waits for the RESULT from 107.5.
       rank 1 starts asleep: BEGIN arrives 11, seen 11 + 7 = 18, received 20; the TASK
       (arrived 17) at once: 22; child 0.5 + 100 (122.5); RESULT (123.5, arr 133.5).
       rank 0: 133.5 is after its yield phase (107.5 + 4): seen 140.5, received 142.5;
       compute 3 (145.5); END (146.5). Its wait for the RESULT: 140.5 - 107.5. */
    m.w_yield = 4;
    m.w_wake = 7;
    m.t_child = 0.5;
    check("doorbell: simple P=2 two leaves", run(&t, &m, SIM_SIMPLE, 2, 0, 1, &r), 146.5);
    check("doorbell: wait-children", r.wait_children, 140.5 - 107.5);
    /* with w_yield = 30 rank 0 still yields (until 107.5 + 30) when the RESULT arrives
       at 133.5: seen at once, received 135.5, compute 3 (138.5), END (139.5) */
    m.w_yield = 30;
    check("doorbell: seen at once while yielding", run(&t, &m, SIM_SIMPLE, 2, 0, 1, &r),
          139.5);
    /* the same on a 1-core host (P = 2 > cores): the short phase w_yield_over = 4 is
       over at 111.5, so the first doorbell timeline again (146.5) */
    m.cores = 1;
    m.w_yield_over = 4;
    check("doorbell: more ranks than cores", run(&t, &m, SIM_SIMPLE, 2, 0, 1, &r), 146.5);
    m.cores = 2; /* P = 2 = cores: w_yield again */
    check("doorbell: a core per rank", run(&t, &m, SIM_SIMPLE, 2, 0, 1, &r), 139.5);
    m = toy();
    /* P = 1: sequential, 5 + 200 + 3 */
    check("simple P=1", run(&t, &m, SIM_SIMPLE, 1, 0, 1, &r), 208);
    /* the recorded spawning of the children (t_spawn = 4) counts only where the runtime
       opens the par: not at P = 1; at simple P = 2 rank 0 computes it after its 5, so
       everything after shifts by 4 (136 + 4); with cond false, never (1 + 208 + 1) */
    t.pars[0].t_spawn = 4;
    check("t_spawn: not at P=1", run(&t, &m, SIM_SIMPLE, 1, 0, 1, &r), 208);
    check("t_spawn: simple P=2", run(&t, &m, SIM_SIMPLE, 2, 0, 1, &r), 140);
    t.pars[0].cond = 0;
    check("t_spawn: not when cond is false", run(&t, &m, SIM_SIMPLE, 2, 0, 1, &r), 210);
    t.pars[0].cond = 1;
    t.pars[0].t_spawn = 0;
    /* dynamic, P = 3, M = 1 (rank 2 the master, workers 0 and 1).
       rank 0: BEGIN to 1 (1, arr 11), to 2 (2, arr 12); compute 5 (7); REQ(1) to 2
       (8, arr 18). master: BEGIN 12 -> 14; REQ 18 -> 20; grants worker 1, GRANT final
       (21, arr 31). rank 0: GRANT 31 -> 33; TASK to 1 (34, arr 44); child 0 (134);
       collect. rank 1: BEGIN 11 -> 13; TASK 44 -> 46; compute 146; RESULT (147, arr
       157); IDLE (148). rank 0: RESULT 157 -> 159; compute 3 (162); END x2 (164). */
    check("dynamic P=3 M=1", run(&t, &m, SIM_DYNAMIC, 3, 1, 1, &r), 164);
    check("dynamic P=3 M=1 wait-master", r.wait_master, 31 - 8);
    check("dynamic P=3 M=1 master busy", r.master_busy, 2 + 2 + 1 + 2);
    /* dynamic, P = 2, M = 1: rank 0 is the only worker, every request is refused.
       rank 0: BEGIN (1, arr 11); compute 5 (6); REQ (7, arr 17). master: BEGIN 13;
       REQ 17 -> 19; GRANT of nobody, final (20, arr 30). rank 0: 30 -> 32; child 0
       (132); second round: REQ (133, arr 143); master 143 -> 145, GRANT (146, arr 156);
       rank 0: 156 -> 158; the refused group runs here (258); compute 3 (261); END (262).
       With the back-off (wtcrt.h): round 1 (7 -> 32) granted nothing, so the slice
       doubles to 2 x 52 = 104 from 32; after child 0 (132) only 100 has passed: no
       round, the refused group runs here (232); compute 3 (235); END (236). */
    check("dynamic P=2 M=1 refusals", run(&t, &m, SIM_DYNAMIC, 2, 1, 1, &r), 236);
    check("dynamic P=2 M=1 groups run locally", (double)r.refusals, 1);
    /* dynamic, P = 4, M = 2: worker 0 -> master rank 2, worker 1 -> master rank 3.
       rank 0: BEGINs to 1, 2, 3 (t 1, 2, 3; arrive 11, 12, 13); compute 5 (8); REQ to
       rank 2 (9, arr 19). rank 2: BEGIN 12 -> 14; REQ 19 -> 21, no idle worker: FWD to
       rank 3 (22, arr 32), no GRANT. rank 3: BEGIN 13 -> 15; FWD 32 -> 34; grants
       worker 1, final GRANT to rank 0 (35, arr 45). rank 0: 45 -> 47; TASK to 1 (48, arr
       58); child 0 (148). rank 1: BEGIN 11 -> 13; TASK 58 -> 60; compute 160; RESULT
       (161, arr 171). rank 0: 171 -> 173; compute 3 (176); END x3 (179). */
    check("dynamic P=4 M=2 forwarded request", run(&t, &m, SIM_DYNAMIC, 4, 2, 1, &r), 179);
    sim_tree_free(&t);
    /* batch: 3 leaves, T = 2, P = 3, M = 1: children 1 and 2 travel in one TASK.
       As the P=3 case up to the TASK (34, arr 44); child 0 (134). rank 1: TASK 44 -> 46;
       two children (246); RESULT (247, arr 257). rank 0: 257 -> 259; 3 (262); END x2 (264). */
    two_leaves(&t, 3);
    check("dynamic P=3 M=1 batch 2", run(&t, &m, SIM_DYNAMIC, 3, 1, 2, &r), 264);
    check("dynamic batch 2: one TASK", (double)r.remote_calls, 2);
    sim_tree_free(&t);
}

/* root: par (cond) of k leaves of 'leaf' each, then computes 3 (no compute before). */
static void short_leaves(sim_tree *t, int k, double leaf)
{
    sim_tree_init(t);
    int root = sim_tree_add_nodes(t, 1);
    int c = sim_tree_add_nodes(t, k);
    for (int i = 0; i < k; i++) {
        t->nodes[c + i].t_after = leaf;
        t->nodes[c + i].leaf = 1;
    }
    t->nodes[root].t_after = 3;
    sim_tree_add_par(t, root, 5, c, k, 1);
    sim_tree_add_region(t, root, 0);
    sim_tree_finish(t);
}

/* doc/runtime.md "dynamic mode": refused children run here one at a time, a new round
   once the local work since the last one reaches the slice (2 x the round trip). */
static void slice_timeline(void)
{
    sim_machine m = toy();
    sim_tree t;
    sim_result r;
    short_leaves(&t, 6, 20);
    /* P = 2, M = 1: every round refused. rank 0: BEGIN (1, arr 11); compute 5 (6);
       round 1 from 6: REQ(5) (7, arr 17). master: BEGIN 11 -> 13; REQ 17 -> 19; GRANT
       of nobody (20, arr 30). rank 0: 30 -> 32: round trip 32 - 6 = 26, slice 52,
       starts at 32. child 0 (52). A round is due after the own child: from 52, REQ(5)
       (53, arr 63); master 63 -> 65, GRANT (66, arr 76); rank 0 76 -> 78 (round trip
       26). Children 1, 2, 3 here (98, 118, 138): before child 3 the local work was
       40 < 52, before child 4 it is 60: a round from 138, REQ(2) (139, arr 149);
       master 149 -> 151, GRANT (152, arr 162); rank 0 162 -> 164. Children 4, 5
       (184, 204); compute 3 (207); END (208). Messages: BEGIN, 3 REQ, 3 GRANT, END.
       (Fig. 2.6 would ask before every child: 6 rounds.)
       With the back-off (wtcrt.h) round 1 granted nothing: the slice doubles to 104
       from 32, so no round is due after child 0 (52 - 32 = 20) nor before children
       1..5 (local work 20, 40, 60, 80, 100 < 104): they run here (72 .. 152);
       compute 3 (155); END (156). Messages: BEGIN, REQ, GRANT, END. */
    check("dynamic slice: time", run(&t, &m, SIM_DYNAMIC, 2, 1, 1, &r), 156);
    check("dynamic slice: messages (1 round)", (double)r.messages, 4);
    check("dynamic slice: children run here after a refusal", (double)r.refusals, 5);
    check("dynamic slice: wait-master", r.wait_master, 30 - 7);
    sim_tree_free(&t);
    /* The back-off doubling (cap 4), 30 leaves of 20, P = 2, M = 1 (all refused).
       Round 1 as above: 6 -> 32, round trip 26, slice 52, back-off 2: next round once
       104 has passed since 32. child 0 (52); children 1..5 here (72 .. 152; at 132
       only 100 had passed). At 152 (120 >= 104): round 2, REQ (153, arr 163); master
       163 -> 165, GRANT of nobody (166, arr 176); rank 0 176 -> 178: round trip 26,
       back-off 4: next round once 208 has passed since 178. Children 6..15 (198 ..
       378; at 378 only 200 had passed), child 16 (398). At 398 (220 >= 208): round 3,
       REQ (399, arr 409); master 409 -> 411, GRANT (412, arr 422); rank 0 422 -> 424;
       the back-off stays 4 (WTCRT_SLICE_BACKOFF_MAX): next round once 208 has passed
       since 424. Children 17..26 (444 .. 624; 200 < 208), child 27 (644). At 644: round
       4, REQ (645, arr 655); master 655 -> 657, GRANT (658, arr 668); rank 0 668 ->
       670. Children 28, 29 (690, 710); compute 3 (713); END (714). Messages: BEGIN,
       4 REQ, 4 GRANT, END. (Without the back-off: a round after every 3 children.) */
    short_leaves(&t, 30, 20);
    check("dynamic back-off: time", run(&t, &m, SIM_DYNAMIC, 2, 1, 1, &r), 714);
    check("dynamic back-off: messages (4 rounds)", (double)r.messages, 10);
    check("dynamic back-off: children run here after a refusal", (double)r.refusals, 29);
    check("dynamic back-off: wait-master", r.wait_master,
          (30 - 7) + (176 - 153) + (422 - 399) + (668 - 645));
    sim_tree_free(&t);
}

/* root: par (cond) of A, B, C; A: par (cond) of a0, a1; leaves of 100 (a0: 'a0');
   root then computes 3. No compute before the pars. */
static void nested_pars(sim_tree *t, double a0)
{
    sim_tree_init(t);
    int root = sim_tree_add_nodes(t, 1);
    int c = sim_tree_add_nodes(t, 3);
    int a = sim_tree_add_nodes(t, 2);
    for (int i = 0; i < 2; i++) {
        t->nodes[c + 1 + i].t_after = 100;
        t->nodes[c + 1 + i].leaf = 1;
        t->nodes[a + i].t_after = 100;
        t->nodes[a + i].leaf = 1;
    }
    t->nodes[a].t_after = a0;
    t->nodes[root].t_after = 3;
    sim_tree_add_par(t, root, 0, c, 3, 1);
    sim_tree_add_par(t, c, 0, a, 2, 1);
    sim_tree_add_region(t, root, 0);
    sim_tree_finish(t);
}

/* doc/runtime.md "dynamic mode": a worker waiting for RESULTs does the pending work of
   an outer par frame (first its due round, then its children). */
static void help_timeline(void)
{
    sim_machine m = toy();
    sim_tree t;
    sim_result r;
    nested_pars(&t, 100);
    /* P = 3, M = 1 (workers 0, 1; master 2), T = 1.
       rank 0: BEGINs (1, 2; arr 11, 12); root round 1 from 2: REQ(2) (3, arr 13).
       master: BEGIN 12 -> 14; REQ -> 16; grants worker 1 (final) (17, arr 27).
       rank 0: 27 -> 29; TASK B to 1 (30, arr 40). Own child A: its round 1 from 30:
       REQ(1) (31, arr 41); master 41 -> 43, nobody idle, GRANT (44, arr 54); rank 0
       54 -> 56; a0 here (156). Round due after the own child, from 156: REQ(1) (157,
       arr 167). rank 1: BEGIN 11 -> 13; TASK 40 -> 42; B (142); RESULT (143, arr 153);
       IDLE (144, arr 154). master: IDLE 154 -> 156; REQ 167 -> 169, grants worker 1
       (170, arr 180). rank 0 takes RESULT(B) 157 -> 159 (kept for the root frame),
       GRANT 180 -> 182; TASK a1 to 1 (183, arr 193). A's RESULT is missing; nothing has
       arrived at 183, so rank 0 helps the root frame: its round is due (the root is
       in its own child), from 183: REQ(1) (184, arr 194); master 194 -> 196, worker 1
       busy, GRANT of nobody (197, arr 207); rank 0 207 -> 209 (round trip 26, slice
       52). Nothing arrived at 209: C runs here (309). rank 1: TASK 193 -> 195; a1
       (295); RESULT (296, arr 306). rank 0: RESULT(a1) 309 -> 311; A ends; the root
       has nothing pending or missing; compute 3 (314); END x2 (316).
       With the back-off (wtcrt.h): A's round 1 (30 -> 56, round trip 26) granted
       nothing, so rank 0 waits 2 x 52 = 104 from 56 before asking again. a0 here
       (156); 100 < 104: a1 here too (256) (no round, so no help is needed). rank 1: B
       (142), RESULT (arr 153), IDLE (arr 154); master IDLE 154 -> 156. A ends; the
       root's round after its own child (256 - 56 = 200 >= 104): REQ(1) (257, arr 267);
       master 267 -> 269, grants worker 1 (270, arr 280). rank 0 takes RESULT(B) 257
       -> 259, GRANT 280 -> 282 (back-off reset); TASK C to 1 (283, arr 293). rank 1:
       293 -> 295; C (395); RESULT (396, arr 406); IDLE (397). rank 0 waits for it from
       283: 406 -> 408; compute 3 (411); END x2 (413). */
    check("dynamic help: time", run(&t, &m, SIM_DYNAMIC, 3, 1, 1, &r), 413);
    check("dynamic help: children run here after a refusal", (double)r.refusals, 1);
    check("dynamic help: remote calls", (double)r.remote_calls, 2);
    check("dynamic help: wait-children", r.wait_children, 406 - 283);
    check("dynamic help: wait-master", r.wait_master, (27 - 3) + (54 - 31) + (280 - 259));
    check("dynamic help: master busy", r.master_busy, 2 + 3 + 3 + 2 + 3 + 2);
    sim_tree_free(&t);
    /* The same with a0 = 110, so that the back-off has run out after a0: a GRANT takes
       the asking worker's OLDEST pending children (wtcp_give_frame: the root's C), not
       those of the frame that asked (A's a1). As above up to A's round 1 (30 -> 56,
       nothing granted: back-off 2, the next round once 104 has passed since 56). a0
       here (166): 110 >= 104, a round for A from 166: REQ(1) (167, arr 177). rank 1: B
       (142), RESULT (arr 153), IDLE (arr 154); master IDLE 154 -> 156; REQ 177 -> 179,
       grants worker 1 (180, arr 190). rank 0 takes RESULT(B) 167 -> 169, GRANT 190 ->
       192 (back-off reset): the outermost frame with pending children is the root's,
       so TASK C to 1 (193, arr 203); A's slice starts at 193, a1 runs here (refused
       locally: 293). A ends; the root waits for C. rank 1: TASK 203 -> 205; C (305);
       RESULT (306, arr 316). rank 0 316 -> 318; compute 3 (321); END x2 (323).
       (Before, with grants from the asking frame: a1 went to rank 1 and C ran here after
       a helping round, 326.) With oldest-first grants a frame owes RESULTs only when
       no outer frame had pending children, and outer frames never gain any: the helping
       of step 5 no longer finds work in dynamic mode. */
    nested_pars(&t, 110);
    check("dynamic oldest-first grant: time", run(&t, &m, SIM_DYNAMIC, 3, 1, 1, &r), 323);
    check("dynamic oldest-first grant: refusals", (double)r.refusals, 1);
    check("dynamic oldest-first grant: remote calls", (double)r.remote_calls, 2);
    check("dynamic oldest-first grant: wait-children", r.wait_children, 316 - 293);
    check("dynamic oldest-first grant: wait-master", r.wait_master,
          (27 - 3) + (54 - 31) + (190 - 169));
    check("dynamic oldest-first grant: master busy", r.master_busy, 2 + 3 + 3 + 2 + 3 + 2);
    sim_tree_free(&t);
}

/* root: computes 5, par (cond) of the leaves t[0..k-1], then computes 3. */
static void leaves(sim_tree *t, const double *leaf, int k)
{
    sim_tree_init(t);
    int root = sim_tree_add_nodes(t, 1);
    int c = sim_tree_add_nodes(t, k);
    for (int i = 0; i < k; i++) {
        t->nodes[c + i].t_after = leaf[i];
        t->nodes[c + i].leaf = 1;
    }
    t->nodes[root].t_after = 3;
    sim_tree_add_par(t, root, 5, c, k, 1);
    sim_tree_add_region(t, root, 0);
    sim_tree_finish(t);
}

/* Compares a decision log with the lines wanted ('\n' printed as '; '). */
static void check_log(const char *what, const char *got, const char *want)
{
    int ok = strcmp(got, want) == 0;
    printf("%s %s: decision log '", ok ? "[PASS]" : "[FAIL]", what);
    for (const char *p = got; *p; p++)
        fputs(*p == '\n' ? "; " : (char[2]){ *p, 0 }, stdout);
    printf("'\n");
    failures += !ok;
}

/* The decision log of one simulation (WTC_DECISIONS), as one string. */
static double run_logged(const sim_tree *t, const sim_machine *m, int mode, int P,
                         sim_result *r, char *log, size_t logsz)
{
    FILE *f = tmpfile();
    size_t n;
    double x;
    wtcp_log_open(f);
    x = run(t, m, mode, P, 0, 0, r);
    wtcp_log_open(NULL);
    rewind(f);
    n = fread(log, 1, logsz - 1, f);
    log[n] = 0;
    fclose(f);
    return x;
}

/* doc/runtime.md "steal mode" on 2 ranks (rank 1 always steals from rank 0 and back):
   a rank answers a STEAL only between children, gives the back half of its oldest
   pending children, and a stolen group can be stolen from again. */
static void steal_timelines(void)
{
    sim_machine m = toy();
    sim_tree t;
    sim_result r;
    char log[256];
    double three[3] = { 100, 100, 100 };
    /* The STEAL waits for the victim's current child. rank 0: BEGIN (1, arr 11);
       compute 5 (6); takes child 0, polls (nothing), runs it (106); takes child 1 and
       polls at 106. rank 1: BEGIN 11 -> 13; STEAL to 0 (14, arr 24): it waits in rank
       0's inbox until that poll. rank 0: STEAL 106 -> 108; pending: child 2 only,
       steal-half of 1 = 1: TASK child 2 (109, arr 119); child 1 (209); nothing pending,
       its RESULT owed, nothing arrived: STEAL to 1 (210, arr 220). rank 1: TASK 119 ->
       121; task frame [2]: takes child 2, polls, runs it (221); RESULT (222, arr 232);
       idle: STEAL to 0 (223, arr 233); rank 0's STEAL 223 -> 225: NOWORK (226). rank 0:
       RESULT 232 -> 234; compute 3 (237); END (238). */
    leaves(&t, three, 3);
    check("steal P=2: the STEAL waits for the child", run_logged(&t, &m, SIM_STEAL, 2, &r,
          log, sizeof log), 238);
    check("steal P=2: children stolen", (double)r.remote_calls, 1);
    check("steal P=2: successful steals", (double)r.grants, 1);
    check("steal P=2: NOWORK answers", (double)r.refusals, 1);
    check("steal P=2: STEALs sent", (double)r.steals, 3);
    check("steal P=2: messages", (double)r.messages, 8);
    check("steal P=2: wait-children", r.wait_children, 232 - 210);
    check_log("steal P=2", log, "send 0 2 1 -> 1\n");
    sim_tree_free(&t);
    /* Steal-half of a frame of 8 leaves of 100. rank 0 as above up to the poll before
       child 1 at 106: 6 children pending (2..7), the thief gets the back 3 (5, 6, 7):
       TASK (109, arr 119); rank 0 runs 1, 2, 3, 4 (209 .. 509). rank 1: TASK 119 -> 121;
       runs 5, 6, 7 (221, 321, 421); RESULT (422, arr 432); STEAL (423). rank 0 at 509:
       the RESULT has arrived: 509 -> 511; compute 3 (514); END (515). */
    double eight[8] = { 100, 100, 100, 100, 100, 100, 100, 100 };
    leaves(&t, eight, 8);
    check("steal-half of 8: time", run_logged(&t, &m, SIM_STEAL, 2, &r, log, sizeof log),
          515);
    check("steal-half of 8: children stolen", (double)r.remote_calls, 3);
    check("steal-half of 8: STEALs sent", (double)r.steals, 2);
    check("steal-half of 8: messages", (double)r.messages, 6);
    check_log("steal-half of 8", log, "send 0 5 3 -> 1\n");
    sim_tree_free(&t);
    /* Re-steal from a task frame: leaves 100, 100, 10, 10, 10, 300, 300, 300. As above
       rank 1 gets 5, 6, 7 (TASK arr 119 -> 121) and runs 5 (421). rank 0 runs 1 (209),
       2, 3, 4 (239); RESULT owed, nothing arrived: STEAL to 1 (240, arr 250). rank 1
       takes child 6 and polls at 421: STEAL 421 -> 423; its task frame has child 7
       pending: TASK child 7 to 0 (424, arr 434); child 6 (724). rank 0: TASK 434 -> 436;
       child 7 (736); RESULT to 1 (737, arr 747); waits (its clock is 737 for all: tick).
       rank 1 at 724: nothing arrived: STEAL to 0 (725, arr 735). rank 0: STEAL 737 ->
       739, nothing pending: NOWORK (740); STEAL to 1 (741). rank 1: RESULT 747 -> 749;
       its task is complete: RESULT to 0 (750, arr 760); NOWORK 750 -> 752; STEAL (753);
       rank 0's STEAL 753 -> 755, NOWORK (756). rank 0: RESULT 760 -> 762; compute 3
       (765); END (766). */
    double mixed[8] = { 100, 100, 10, 10, 10, 300, 300, 300 };
    leaves(&t, mixed, 8);
    check("steal from a task frame: time", run_logged(&t, &m, SIM_STEAL, 2, &r, log,
          sizeof log), 766);
    check("steal from a task frame: children stolen", (double)r.remote_calls, 4);
    check("steal from a task frame: successful steals", (double)r.grants, 2);
    check("steal from a task frame: NOWORK answers", (double)r.refusals, 2);
    check("steal from a task frame: STEALs sent", (double)r.steals, 5);
    check("steal from a task frame: messages", (double)r.messages, 13);
    check("steal from a task frame: wait-children", r.wait_children,
          (434 - 240) + (760 - 741) + (747 - 725));
    check_log("steal from a task frame", log, "send 0 5 3 -> 1\nsend 0 7 1 -> 0\n");
    sim_tree_free(&t);
}

/* A random tree below 'node': 0..3 pars of 1..8 children per call (1..3 near the root) (one in ten with
   cond false), leaves of 50..1050, own times of 0..20; 'budget' bounds the calls. */
static void random_tree(sim_tree *t, int node, int depth, unsigned long long *seed,
                        long *budget)
{
    int npars = depth >= 6 || *budget <= 0 ? 0 : (depth < 2) + (int)(urand(seed) * 3);
    if (npars == 0) {
        t->nodes[node].t_after = 50 + 1000 * urand(seed);
        t->nodes[node].leaf = 1;
        return;
    }
    for (int p = 0; p < npars; p++) {
        int k = 1 + (int)(urand(seed) * 8), c = sim_tree_add_nodes(t, k);
        *budget -= k;
        for (int i = 0; i < k; i++) {
            t->nodes[c + i].depth = depth + 1;
            t->nodes[c + i].task_bytes = 16;
            t->nodes[c + i].result_bytes = 8;
        }
        sim_tree_add_par(t, node, 20 * urand(seed), c, k, urand(seed) < 0.9);
        for (int i = 0; i < k; i++)
            random_tree(t, c + i, depth + 1, seed, budget);
    }
    t->nodes[node].t_after = 20 * urand(seed);
}

/* Every mode on a big random tree: the compute simulated is the tree's work (every
   leaf and every own time exactly once: the leaf times are random, so a leaf run twice
   and one skipped would not cancel), no setting beats total work / P, and work is
   spread (dynamic at P = 2 has one worker: nothing to spread). */
static void conservation(void)
{
    sim_machine m = toy();
    sim_tree t;
    unsigned long long seed = 12345;
    long budget = 40000;
    static const int procs[] = { 2, 3, 4, 7, 16, 64 };
    sim_tree_init(&t);
    int root = sim_tree_add_nodes(&t, 1);
    t.nodes[root].depth = -1;
    random_tree(&t, root, -1, &seed, &budget);
    sim_tree_add_region(&t, root, 0);
    sim_tree_finish(&t);
    double work = t.seq[root];
    int ok = 1;
    for (int mode = SIM_SIMPLE; mode <= SIM_STEAL; mode++)
        for (size_t i = 0; i < sizeof procs / sizeof procs[0]; i++) {
            sim_result r;
            int P = procs[i];
            double x = run(&t, &m, mode, P, 1, mode == SIM_DYNAMIC ? 2 : 0, &r);
            int good = x > 0 && fabs(r.compute - work) <= 1e-9 * work && x >= work / P &&
                       (r.remote_calls > 0 || (mode == SIM_DYNAMIC && P < 3));
            if (!good || P == 16)
                printf("    mode %d P = %2d: %.0f (work %.0f, /P %.0f), compute %.6f, "
                       "children sent %lld, steals %lld\n", mode, P, x, work, work / P,
                       r.compute, r.remote_calls, r.steals);
            ok &= good;
        }
    printf("%s every mode on a random tree of %d calls: compute = work, time >= work/P\n",
           ok ? "[PASS]" : "[FAIL]", t.nnodes);
    failures += !ok;
    sim_tree_free(&t);
}

/* par in main: n leaf tasks of 'task' seconds each */
static void farm(sim_tree *t, long n, double task)
{
    sim_tree_init(t);
    int root = sim_tree_add_nodes(t, 1);
    int c = sim_tree_add_nodes(t, (int)n);
    for (long i = 0; i < n; i++) {
        t->nodes[c + i].t_after = task;
        t->nodes[c + i].leaf = 1;
        t->nodes[c + i].task_bytes = 16;
        t->nodes[c + i].result_bytes = 8;
    }
    t->nodes[root].depth = -1;
    sim_tree_add_par(t, root, 0, c, (int)n, 1);
    sim_tree_add_region(t, root, 12);
    sim_tree_finish(t);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The P with the least predicted time among procs[] (dynamic, one master). */
static int saturation(const sim_tree *t, const sim_machine *m, const int *procs, int np,
                      long long *events, double *wall)
{
    int best = -1;
    double bt = 0;
    for (int i = 0; i < np; i++) {
        sim_result r;
        double w0 = now(), x = run(t, m, SIM_DYNAMIC, procs[i], 1, 1, &r);
        *wall += now() - w0;
        *events += r.events;
        printf("    P = %3d: %.3f s, master busy %.0f%%\n", procs[i], x,
               100 * r.master_busy / x);
        if (best < 0 || x < bt) {
            best = procs[i];
            bt = x;
        }
    }
    return best;
}

static void farm_saturation(void)
{
    static const int procs[] = { 4, 8, 16, 24, 32, 48, 64, 96, 128 };
    int np = sizeof procs / sizeof procs[0];
    char err[256];
    sim_machine m;
    sim_tree t;
    long long events = 0;
    double wall = 0;
    if (sim_machine_parse(sim_machine_preset("ethernet-mpich-2004"), "preset", &m, err,
                          sizeof err) < 0) {
        printf("[FAIL] preset: %s\n", err);
        failures++;
        return;
    }
    farm(&t, 1048576, 1e-3);
    printf("  extended LogGPS (2004 preset):\n");
    int sat = saturation(&t, &m, procs, np, &events, &wall);
    m.o_sb = m.o_rb = 0;
    printf("  plain LogGPS (o_sb = o_rb = 0):\n");
    int sat0 = saturation(&t, &m, procs, np, &events, &wall);
    int interior = sat > procs[0] && sat < procs[np - 1];
    printf("%s farm of 1048576 tasks: minimum at interior P = %d\n",
           interior ? "[PASS]" : "[FAIL]", sat);
    failures += !interior;
    printf("%s without the o_b*P terms the saturation point moves up: P = %d > %d\n",
           sat0 > sat ? "[PASS]" : "[FAIL]", sat0, sat);
    failures += !(sat0 > sat);
    double rate = events / wall;
    int fast = rate >= 5e6 || getenv("SIM_SLOW_OK");
    printf("%s simulator speed: %lld messages in %.2f s = %.2f million messages/s "
           "(target 5)\n", fast ? "[PASS]" : "[FAIL]", events, wall, rate / 1e6);
    failures += !fast;
    sim_tree_free(&t);
}

int main(int argc, char **argv)
{
    hand_timelines();
    slice_timeline();
    help_timeline();
    steal_timelines();
    conservation();
    if (!(argc > 1 && strcmp(argv[1], "--no-farm") == 0))
        farm_saturation();
    printf("%s\n", failures ? "sim_engine: FAILED" : "sim_engine: ok");
    return failures != 0;
}
