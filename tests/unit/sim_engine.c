/* sim_engine.c - the simulator against hand-computed timelines of every mode, the
 * decision log, conservation on a random tree, and the saturation of a 131,072-task
 * farm on the 2004 Ethernet preset (tests/unit/sim_engine.sh). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sim.h"
#include "proto.h"
#include "engine.h"

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

/* A machine with round numbers: o_s = 1, o_r = 2, L = 10, no per-byte or per-P costs;
   every rank on one node with a core of its own. */
static sim_machine toy(void)
{
    sim_machine m;
    memset(&m, 0, sizeof m);
    m.L = m.L_intra = 10;
    m.o_sa = 1;
    m.o_ra = 2;
    m.S = 1e18;
    m.cpu_ratio = 1;
    /* the timelines below are the polls' (a GRANT or STEAL waits for the leaf's end);
       the answering thread's: leaf_timelines */
    m.leaf_wait = 1;
    /* the region ends below are MPI's barrier (dissemination); the doorbell segment's:
       "the barrier through the segment" */
    m.no_doorbell = 1;
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

/* Set around the hand timelines of dynamic mode's masters (dynamic_timelines to
   oldest_and_nested_timelines): their trees of a few leaves would be spread by the
   region's seeds alone (doc/runtime.md "dynamic mode", item 0) and never reach the
   grants, forwards and standing requests they time; they run the mode's row without
   seeds (sim_setting.unseeded). dynamic_seeds times the seeds themselves. */
static int unseeded_dynamic;

static double run(const sim_tree *t, const sim_machine *m, int mode, int P, int M, int T,
                  sim_result *r)
{
    sim_setting s = { .mode = mode, .procs = P, .masters = M, .batch = T,
                      .unseeded = mode == SIM_DYNAMIC && unseeded_dynamic };
    if (sim_run(t, m, s, r) < 0)
        return -1;
    return r->time;
}

static void hand_timelines(void)
{
    sim_machine m = toy();
    sim_tree t;
    sim_result r, r2;
    sim_node *c1;
    double ref;
    two_leaves(&t, 2);
    /* simple, P = 2. rank 0: BEGIN to 1 (t 1, arrives 11); compute 5 (6); TASK child 1
       to rank 1 (7, arrives 17); child 0 here (107); RESULT awaited.
       rank 1: BEGIN received 11+2 = 13; TASK 17+2 = 19; compute 119; RESULT sent 120,
       arrives 130. rank 0: receives 130+2 = 132; compute 3 (135); END to 1 (136). */
    check("simple P=2 two leaves", run(&t, &m, SIM_SIMPLE, 2, 0, 1, &r), 136);
    /* P = 1024: REGION_BEGIN and REGION_END by the tree, then the barrier. rank 0: BEGIN
       to 512, 256, ..., 1 (10); compute 5 (15); TASK child 1 to rank 512 (16, arrives
       26); child 0 (116). rank 512: BEGIN arrives 11, received 13, on to its 9 (22);
       TASK received 28; compute 128; RESULT 129, arrives 139. rank 0: 141, compute 144;
       END to its 10 (154) and the barrier's 10 rounds, each at least L + o_s + o_r; flat,
       the ENDs alone would take rank 0 to 144 + 1023 */
    ref = run(&t, &m, SIM_SIMPLE, 1024, 0, 1, &r2);
    check("simple P=1024 two leaves, END by the tree, then the barrier",
          ref >= 154 + 10 * 13 && ref < 144 + 1023, 1);
    ref = run(&t, &m, SIM_STEAL, 1024, 0, 1, &r2);
    check("steal P=1024 two leaves, END by the tree: ends before 144 + 1023",
          ref > 144 && ref < 144 + 1023, 1);
    check("simple P=2 wait-children", r.wait_children, 130 - 107);
    c1 = &t.nodes[t.pars[0].first_child + 1];
    /* O_r_result: child 1's RESULT carries 952 bytes of data (1000 with its header):
       rank 0 takes it in 2 + 0.01 * 1000 (142); compute 3 (145); END (146). The TASK
       rank 1 receives pays O_r (0 here), so nothing else moves. */
    c1->result_bytes = c1->result_copied = 952;
    m.O_r_result = 0.01;
    check("O_r_result: a RESULT pays it", run(&t, &m, SIM_SIMPLE, 2, 0, 1, &r), 146);
    /* the same 952 bytes as an out: buffer sent by reference (wtcrt_buf_by_ref): rank 0
       receives them where they go and copies only the header, 2 + 0.01 * 48 (132.48);
       compute 3 (135.48); END (136.48). */
    c1->result_copied = 0;
    check("O_r_result: not on bytes by reference", run(&t, &m, SIM_SIMPLE, 2, 0, 1, &r),
          136.48);
    /* the TASK with 952 bytes instead, and O_r = 0.01: rank 1 takes it in 2 + 10 (29),
       computes (129), RESULT (130, arr 140); rank 0: 142, 145, END 146. With O_r_result
       = 0 the RESULT (48 bytes) pays none of it. */
    c1->result_bytes = c1->result_copied = 0;
    c1->task_bytes = c1->task_copied = 952;
    m.O_r = 0.01;
    m.O_r_result = 0;
    check("O_r_result: a TASK pays O_r", run(&t, &m, SIM_SIMPLE, 2, 0, 1, &r), 146);
    /* a TASK's bytes by reference are neither packed nor unpacked (received straight
       into the children's memory): with O_s = 0.01 and O_r = 0.01 the run is 2 * 0.01 *
       952 shorter when they go by reference (every other message pays the same either
       way, and the TASK is on the path). */
    m.O_s = 0.01;
    ref = run(&t, &m, SIM_SIMPLE, 2, 0, 1, &r);
    c1->task_copied = 0;
    check("O_s, O_r: not on bytes by reference", ref - run(&t, &m, SIM_SIMPLE, 2, 0, 1, &r),
          19.04);
    m.O_s = 0;
    c1->task_bytes = 0;
    m.O_r = 0;
    /* a received TASK's own cost per child (t_task_child = 4; 6 in new memory): rank 1
       receives the TASK of one child at 19 + 4, the rest 4 later: 140. Its 48 bytes are
       no more than its REGION_BEGIN's, so the memory is used: 4. A TASK of 952 bytes,
       more than any before: 6 (142). Rank 0 receives only RESULTs: never charged. */
    m.t_task_child = 4;
    m.t_task_child_fresh = 6;
    check("t_task_child: a received TASK's child", run(&t, &m, SIM_SIMPLE, 2, 0, 1, &r), 140);
    c1->task_bytes = c1->task_copied = 952;
    check("t_task_child_fresh: in new memory", run(&t, &m, SIM_SIMPLE, 2, 0, 1, &r), 142);
    c1->task_bytes = c1->task_copied = 0;
    m.t_task_child = m.t_task_child_fresh = 0;
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
    /* the same on a 1-core host (P = 2 > cores): the short phase w_yield_over = 4, and
       the two ranks share the core. A message's overheads take the core at once (the
       kernel favours a waking rank), computing waits for it. rank 0 holds it computing
       from 1 to 6 and 7 to 107.5 (as above). rank 1: BEGIN seen 18, received 20, the
       TASK 22; its child waits for the core until 107.5: 0.5 + 100 to 208; RESULT (209,
       arr 219). rank 0's yield phase ended at 111.5: seen 226, received 228, compute 3
       (231), END (232). */
    m.cores = 1;
    m.w_yield_over = 4;
    check("cores: two ranks share one core", run(&t, &m, SIM_SIMPLE, 2, 0, 1, &r), 232);
    check("cores: the work is counted once", r.compute, 5 + 2 * 100.5 + 3);
    m.cores = 2; /* P = 2 = cores: w_yield again */
    check("doorbell: a core per rank", run(&t, &m, SIM_SIMPLE, 2, 0, 1, &r), 139.5);
    /* one core per node, one rank per node: nothing shared (139.5 as with 2 cores) */
    m.cores = 1;
    m.ranks_per_node = 1;
    check("cores: a node per rank", run(&t, &m, SIM_SIMPLE, 2, 0, 1, &r), 139.5);
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
    sim_tree_free(&t);
}

/* A booked resource (sim/resource.c): bookings fill the free time from their start on,
   in pieces if they must, never moving an earlier one. */
static void resource_bookings(void)
{
    eng_res r;
    eng_res_init(&r, 1);
    check("resource: a first booking", eng_res_book(&r, 0, 0, 10, 0), 10);
    check("resource: from 5 it waits for the first", eng_res_book(&r, 0, 5, 10, 0), 20);
    check("resource: from 0, after both", eng_res_book(&r, 0, 0, 3, 0), 23);
    check("resource: a booking in the future", eng_res_book(&r, 0, 30, 5, 0), 35);
    /* free: [23, 30) then from 35: 7 + 3 */
    check("resource: a booking filling a hole, then after", eng_res_book(&r, 0, 22, 10, 0), 38);
    check("resource: at once when forced (o_s, o_r)", eng_res_book(&r, 0, 0, 4, 1), 4);
    /* nothing before 'now' = 100 is kept: free from 100 */
    check("resource: the past is dropped", eng_res_book(&r, 100, 100, 1, 0), 101);
    eng_res_free(&r);
    eng_res_init(&r, 2);
    eng_res_book(&r, 0, 0, 10, 0);
    eng_res_book(&r, 0, 0, 10, 0);
    check("resource: 2 units: the third waits", eng_res_book(&r, 0, 0, 10, 0), 20);
    eng_res_book(&r, 0, 20, 5, 1);
    eng_res_book(&r, 0, 20, 5, 1);
    /* [20, 25) has 2 in use (forced): full; from 18: 2 in [18, 20), 2 after 25 */
    check("resource: forced use counts against the others", eng_res_book(&r, 0, 18, 4, 0), 27);
    eng_res_free(&r);
}

/* The network ports (LogGP's gap per byte, per node and direction): simple mode, P = 5
   ranks on 5 nodes, root computes 5, par of 5 leaves of 100, computes 3. G = 0.01, so
   a message of k bytes holds a port for k / 100 (a header of 48 bytes: 0.48). */
static void port_timelines(void)
{
    sim_machine m = toy();
    sim_tree t;
    sim_result r;
    m.G = m.G_intra = 0.01;
    m.ranks_per_node = 1;
    two_leaves(&t, 5);
    for (int i = 1; i <= 5; i++)
        t.nodes[i].task_bytes = t.nodes[i].task_copied = 952; /* TASK = 48 + 952 = 1000 bytes: 10 on a port */
    /* rank 0: 4 BEGINs (48 B: 1..4, on its port 0.48 each, arr 11.48 .. 14.48); compute
       5 (9); 4 TASKs of 1000 B, one send group (the split), sent 10, 11, 12, 13, share
       its port (10 each alone): [10, 11) A alone (9 left), [11, 12) A, B (8.5, 9.5),
       [12, 13) A, B, C (8.17, 9.17, 9.67), then four: A ends at 13 + 4 x 8.17 = 45.67
       (B 1, C 1.5, D 1.83 left), B at 48.67, C at 49.67, D at 50: the port's 4 G k = 40
       from 10 to 50 (one after the other: 20, 30, 40, 50). L later, each holds its
       receiver's port for its 10: arrive 55.67, 58.67, 59.67, 60 (without ports: 30, 31,
       32, 33). Child 0 here (113). Rank j receives its TASK at arr + 2, computes to arr +
       102, sends its RESULT (48 B) at arr + 103, arr + 113.48: 169.15, 172.15, 173.15,
       173.48. rank 0 receives each +2: 171.15, 174.15, 176.15, 178.15; compute 3
       (181.15); 4 ENDs (185.15). */
    check("ports: 4 TASKs of k bytes share the sender's port, 4 G k in all",
          run(&t, &m, SIM_SIMPLE, 5, 0, 1, &r), 185.48 - 1.0 / 3);
    /* the same TASKs synchronous (S = 500): each sent as a request (arr 20, 21, 22, 23)
       whose receiver, idle, answers at once; the data of all four share the port from
       2 L after each send (30, 31, 32, 33): ends 65.67, 68.67, 69.67, 70, arrivals
       75.67, 78.67, 79.67, 80. Rank j receives (+2), computes 100, sends its RESULT (+1):
       arr 189.15, 192.15, 193.15, 193.48. rank 0 (its child from 70 to 170) receives
       them +2 each: 191.15, 194.15, 196.15, 198.15; compute 3 (201.15); ENDs (205.15). */
    m.S = 500;
    check("ports: 4 synchronous TASKs share the sender's port from their answers",
          run(&t, &m, SIM_SIMPLE, 5, 0, 1, &r), 205.48 - 1.0 / 3);
    m.S = 1e18;
    /* all 5 ranks on one node: no port, the TASKs arrive 30, 31, 32, 33, the RESULTs
       143.48 .. 146.48; rank 0 receives them one after the other (2 each) until 151.48;
       compute 3, ENDs: 158.48 */
    m.ranks_per_node = 0;
    check("ports: none within a node", run(&t, &m, SIM_SIMPLE, 5, 0, 1, &r), 158.48);
    /* 2 ranks per node (0 1 | 2 3 | 4), L_intra = 1, G_intra = 0. rank 0: BEGIN to 1
       (1, arr 2), to 2, 3, 4 on its port (arr 12.48, 13.48, 14.48); compute 5 (9); TASK
       to 1 (10, arr 11: no port); to 2, 3, 4 (11, 12, 13) share the port: [11, 12) A
       alone, [12, 13) A, B (8.5, 9.5 left), three from 13: A ends at 38.5, B at 40.5,
       C at 41; arr 48.5, 50.5, 51 (ranks 2 and 3 share node 1's incoming port, but
       their flows came at a share of one port); child 0 (113). rank 1: 13 .. 113,
       RESULT (114, arr 115); ranks 2, 3, 4: RESULTs sent 151.5, 153.5, 154, arr 161.98,
       163.98, 164.48. rank 0: 117, 163.98, 165.98, 167.98; compute 3 (170.98); ENDs
       (174.98). */
    m.ranks_per_node = 2;
    m.L_intra = 1;
    m.G_intra = 0;
    check("ports: L_intra and G_intra within a node, ports between nodes",
          run(&t, &m, SIM_SIMPLE, 5, 0, 1, &r), 174.98);
    m.L_intra = m.L;
    m.G_intra = m.G;
    /* tiny TASKs (48 B), RESULTs of 1000 B: the TASKs arrive 20.48 + j - 1, rank j sends
       its RESULT at 123.48 + j - 1; they would all arrive within 3 of 133.48, but rank
       0's incoming port takes one at a time: 143.48, 153.48, 163.48, 173.48; then as
       above (182.48) */
    m.ranks_per_node = 1;
    for (int i = 1; i <= 5; i++) {
        t.nodes[i].task_bytes = t.nodes[i].task_copied = 0;
        t.nodes[i].result_bytes = t.nodes[i].result_copied = 952;
    }
    check("ports: 4 RESULTs of k bytes hold the receiver's port 4 G k",
          run(&t, &m, SIM_SIMPLE, 5, 0, 1, &r), 182.48);
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

/* root: computes 5, par (cond) of k children at depth 1, then computes 3; child bi, B,
   is a par (cond) of b0..b3 (leaves of 100 at depth 2), the others leaves of leaf[i]. */
static void leaves_and_b(sim_tree *t, const double *leaf, int k, int bi)
{
    sim_tree_init(t);
    int root = sim_tree_add_nodes(t, 1), c = sim_tree_add_nodes(t, k);
    int b = sim_tree_add_nodes(t, 4);
    for (int i = 0; i < k; i++) {
        t->nodes[c + i].depth = 1;
        t->nodes[c + i].t_after = i == bi ? 0 : leaf[i];
        t->nodes[c + i].leaf = i != bi;
    }
    for (int i = 0; i < 4; i++) {
        t->nodes[b + i].t_after = 100;
        t->nodes[b + i].leaf = 1;
        t->nodes[b + i].depth = 2;
    }
    t->nodes[root].t_after = 3;
    sim_tree_add_par(t, root, 5, c, k, 1);
    sim_tree_add_par(t, c + bi, 0, b, 4, 1);
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
static double run_logged(const sim_tree *t, const sim_machine *m, int mode, int P, int M,
                         sim_result *r, char *log, size_t logsz)
{
    FILE *f = tmpfile();
    size_t n;
    double x;
    wtcp_log_open(f);
    /* the dynamic timelines below were computed for groups of one child (--wtc-batch=1;
       the default is the bigger half), the steal ones for the default */
    x = run(t, m, mode, P, M, mode == SIM_DYNAMIC ? 1 : 0, r);
    wtcp_log_open(NULL);
    rewind(f);
    n = fread(log, 1, logsz - 1, f);
    log[n] = 0;
    fclose(f);
    return x;
}

/* doc/runtime.md "dynamic mode" with standing requests, on the leaves of leaves(): a
   worker sends REQ for all its pending children and never waits for the answer; it
   takes a child, then polls (GRANTs, RESULTs, TASKs), then runs the child; a GRANT
   sends the last pending children of its oldest frame, or gives the rank back. */
/* The end of a dynamic or steal region (engine.c's end_run, doc/predictor.md "The
   region end"): REGION_END from rank 0 to each other rank, then a barrier, MPICH's
   dissemination (wtcp_barrier_peers): in round k each rank sends to r + 2^k mod P and
   waits for r - 2^k; rank 0's region ends when its last round has come. On the toy
   machine, offsets from T, when rank 0 has sent its last END, every other rank waiting:
   P = 2: rank 0 in the barrier at 0, BAR to 1 (1, arr 11). rank 1: END 10 -> 12, BAR to
     0 (13, arr 23), rank 0's 11 -> 15. rank 0: 23 -> 25.
   P = 3 (ENDs arr 9, 10): rank 0 BAR to 1 (1, arr 11). rank 1: END -> 11, BAR to 2 (12,
     arr 22), rank 0's -> 14, round 1: BAR to 0 (15, arr 25). rank 2: END -> 12, BAR to 0
     (13, arr 23), rank 1's 22 -> 24, BAR to 1 (25, arr 35). rank 0: rank 2's 23 -> 25,
     BAR to 2 (26, arr 36), rank 1's (arr 25) -> 28.
   P = 4 (ENDs arr 8, 9, 10; ranks 1-3 in the barrier at 10, 11, 12): round 0's
     messages (sent 1, 11, 12, 13) are taken by rank 1 at 13, 2 at 23, 3 at 24, 0 at 25;
     round 1: rank 2 to 0 (24, arr 34), 0 to 2 (26, arr 36); rank 0 takes rank 2's
     34 -> 36.
   P = 5 (in the barrier at 0, 9, 10, 11, 12; rounds 1, 2, 4 apart): rank 0 takes round
     0 at 25, round 1 (from rank 3, arr 34) at 36, round 2 (from rank 1: round 0 at 13,
     round 1 from rank 4 arr 35 at 37, sent 38, arr 48) at 50.
   The barrier's messages are MPI's: not counted in the messages. */
enum { END_P2 = 25, END_P3 = 28, END_P4 = 36, END_P5 = 50 };

static void dynamic_timelines(void)
{
    sim_machine m = toy();
    sim_tree t;
    sim_result r;
    double two[2] = { 100, 100 }, four[4] = { 100, 100, 100, 100 };
    double thirty[30];
    leaves(&t, two, 2);
    /* A grant that finds nothing pending gives the worker back. P = 3, M = 1 (rank 2
       the master, workers 0 and 1). rank 0: BEGIN to 1 (1, arr 11), to 2 (2, arr 12);
       compute 5 (7); polls at the par (nothing); takes child 0 (1 pending), polls
       (nothing), REQ(1) (8, arr 18), runs it (108). master: BEGIN 12 -> 14; REQ 18 -> 20;
       grants worker 1 (21, arr 31). rank 0 takes child 1 (nothing pending) and polls at
       108: GRANT 31 -> 110; nothing to give: IDLE for rank 1 to the master (111); the
       request is spent and nothing is pending: no REQ(0); child 1 (211); compute 3
       (214); END x2 (216), the barrier. master: IDLE 121 -> 123, no request stands.
       Messages: BEGIN x2, REQ, GRANT, IDLE, END x2. (A REQ before the first child is
       taken would ask for both and cancel with REQ(0): two messages more.) */
    check("dynamic P=3 M=1: the grant comes too late", run(&t, &m, SIM_DYNAMIC, 3, 1, 1, &r),
          216 + END_P3);
    check("dynamic P=3 M=1: a granted rank given back", (double)r.refusals, 1);
    check("dynamic P=3 M=1: messages", (double)r.messages, 7);
    check("dynamic P=3 M=1: nobody waits for a master", r.wait_master, 0);
    /* the end: END received (2), round 0 (1 + 2), round 1's send (1): its own last
       message (rank 0's, arr 36 in the P = 3 timeline above) comes after rank 0 left */
    check("dynamic P=3 M=1: master busy", r.master_busy, 2 + 2 + 1 + 2 + 2 + 3 + 1);
    /* The barrier through the segment (a one-node job with a doorbell: wtcp_barrier_local;
       engine.c's end_run), the same run: rank 0 in it at 216 (T) after END to 1 (215,
       arr 225) and to 2 (216, arr 226); rank 1: END 225 -> 227, in; the master: END 226
       -> 228, the last in: releases rank 0 (229, arr 239) and rank 1 (230, arr 240);
       rank 0: 239 -> 241 = T + 25, three earlier than MPI's two rounds. The master's
       time: the same up to its END, then two releases instead of the rounds (2 + 2 + 1 +
       2 + 2 + 1 + 1). */
    m.no_doorbell = 0;
    check("dynamic P=3 M=1, the barrier through the segment",
          run(&t, &m, SIM_DYNAMIC, 3, 1, 1, &r), 216 + 25);
    check("dynamic P=3 M=1, the segment's barrier: messages", (double)r.messages, 7);
    check("dynamic P=3 M=1, the segment's barrier: master busy", r.master_busy,
          2 + 2 + 1 + 2 + 2 + 1 + 1);
    m.no_doorbell = 1;
    /* P = 2, M = 1: rank 0 is the only worker. Child 0 taken, REQ(1) (7, arr 17); child
       0 (107); the request stands at the master (nobody idle); child 1 taken, REQ(0)
       (108); child 1 (208); compute 3 (211); END (212), the barrier. Messages: BEGIN,
       REQ, REQ(0), END. */
    check("dynamic P=2 M=1: the request stands", run(&t, &m, SIM_DYNAMIC, 2, 1, 1, &r),
          212 + END_P2);
    check("dynamic P=2 M=1: messages", (double)r.messages, 4);
    /* P = 4, M = 2: worker 0 -> master rank 2, worker 1 -> master rank 3. rank 0:
       BEGINs to 1, 2, 3 (1, 2, 3; arr 11, 12, 13); compute 5 (8); child 0 taken, REQ(1)
       to rank 2 (9, arr 19); child 0 (109). rank 2: BEGIN 12 -> 14; REQ 19 -> 21, no idle
       worker: FWD(1, hops 1) to rank 3 (22, arr 32). rank 3: BEGIN 13 -> 15; FWD 32 ->
       34; grants worker 1 (35, arr 45), nothing left to go home ("dynamic two masters"
       below takes that way). rank 0 takes child 1 and polls at 109: GRANT 45 -> 111,
       nothing pending: IDLE for rank 1 to rank 3 (112); child 1 (212); compute 3 (215);
       END x3 (218), the barrier. Messages: BEGIN x3, REQ, FWD, GRANT, IDLE, END x3. */
    check("dynamic P=4 M=2: FWD", run(&t, &m, SIM_DYNAMIC, 4, 2, 1, &r), 218 + END_P4);
    check("dynamic P=4 M=2: messages", (double)r.messages, 3 + 1 + 1 + 1 + 1 + 3);
    sim_tree_free(&t);
    /* batch 2, 4 leaves, P = 3, M = 1: child 0 taken, REQ(ceil(3 / 2) = 2) (8, arr 18);
       child 0 (108).
       master: REQ 18 -> 20, grants worker 1 (21, arr 31), 1 stands. rank 0 takes child 1,
       polls at 108: GRANT 31 -> 110: children 2 and 3 in one TASK to rank 1 (111, arr
       121); REQ(0) (112, arr 122); child 1 (212); waits: IDLE (213, arr 223).
       rank 1: TASK 121 -> 123; REQ(1) (124, arr 134); child 2 (224). master: REQ(0)
       122 -> 124; REQ(1) 134 -> 136 stands; IDLE 223 -> 225: rank 0 granted to rank 1
       (226, arr 236). rank 1 takes child 3 and polls at 224 (the GRANT is not there
       yet): REQ(0) (225); child 3 (325); RESULT (326, arr 336); in its server loop:
       IDLE (327), then the GRANT 236 -> 329: nothing pending, rank 0 given back (330).
       rank 0: RESULT 336 -> 338; compute 3 (341); END x2 (343), the barrier. */
    leaves(&t, four, 4);
    check("dynamic P=3 M=1 batch 2", run(&t, &m, SIM_DYNAMIC, 3, 1, 2, &r), 343 + END_P3);
    check("dynamic batch 2: two children in one TASK", (double)r.remote_calls, 2);
    check("dynamic batch 2: one TASK", (double)r.grants, 1);
    check("dynamic batch 2: rank 0 given back", (double)r.refusals, 1);
    check("dynamic batch 2: wait-children", r.wait_children, 336 - 213);
    sim_tree_free(&t);
    /* No time slices, no back-off: 30 leaves of 20 alone (P = 2) cost one REQ and one
       REQ(0) (taken with child 29). 7 + 30 x 20 = 607, the REQ(0) 1, compute 3 (611),
       END (612), the barrier. Messages: BEGIN, REQ, REQ(0), END. */
    for (int i = 0; i < 30; i++)
        thirty[i] = 20;
    leaves(&t, thirty, 30);
    check("dynamic alone: no rounds", run(&t, &m, SIM_DYNAMIC, 2, 1, 1, &r), 612 + END_P2);
    check("dynamic alone: messages", (double)r.messages, 4);
    sim_tree_free(&t);
}

/* t_poll: the runtime's cost of a poll on the compute path (no doorbell: two
   MPI_Iprobe), paid in dynamic and steal mode at every par and before each child, as
   computing, before the poll looks; simple mode never polls. p = 0.5 on the toy
   machine: the timelines of dynamic_timelines and steal_timelines, each poll p later. */
static void poll_cost_timelines(void)
{
    sim_machine m = toy();
    sim_tree t;
    sim_result r;
    double two[2] = { 100, 100 }, three[3] = { 100, 100, 100 }, thirty[30], base;
    char log[256];
    const double p = 0.5;
    m.t_poll = p;
    /* dynamic P = 3, M = 1, two leaves: rank 0 BEGINs (2), computes 5 (7), pays the
       par's poll (7.5); takes child 0, pays its poll (8), REQ(1) (9, arr 19), runs it
       (109). master: REQ 19 -> 21, grants rank 1 (22, arr 32). rank 0 takes child 1,
       pays its poll (109.5): the GRANT 32 -> 111.5, nothing to give: IDLE (112.5); child
       1 (212.5); compute 3 (215.5); END x2 (217.5): 216 + 3p, then the barrier. */
    leaves(&t, two, 2);
    check("t_poll: dynamic P=3 M=1, three polls", run(&t, &m, SIM_DYNAMIC, 3, 1, 1, &r),
          216 + 3 * p + END_P3);
    check("t_poll: dynamic P=3 M=1, messages as without", (double)r.messages, 7);
    /* simple mode does not poll: the same time with and without */
    base = (m.t_poll = 0, run(&t, &m, SIM_SIMPLE, 2, 0, 0, &r));
    m.t_poll = p;
    check("t_poll: simple mode pays none", run(&t, &m, SIM_SIMPLE, 2, 0, 0, &r), base);
    sim_tree_free(&t);
    /* dynamic alone (P = 2): 30 leaves of 20, one poll at the par and one per child:
       612 + 31p and the barrier; the rank's computing too (5 + 600 + 3 + 31p) */
    for (int i = 0; i < 30; i++)
        thirty[i] = 20;
    leaves(&t, thirty, 30);
    check("t_poll: dynamic alone, 31 polls", run(&t, &m, SIM_DYNAMIC, 2, 1, 1, &r),
          612 + 31 * p + END_P2);
    check("t_poll: dynamic alone, counted as computing", r.compute, 608 + 31 * p);
    sim_tree_free(&t);
    /* steal P = 2, three leaves: rank 0 computes 5 (6), pays the par's poll (6.5), seeds
       child 2 to rank 1 (7.5, arr 17.5); child 0's poll (8), child 0 (108); child 1's
       poll (108.5): rank 1's STEAL (arr 24) -> 110.5, NOWORK (111.5); child 1 (211.5).
       rank 1: the TASK 17.5 -> 19.5, child 2's poll (20), child 2 (120), RESULT (121,
       arr 131). rank 0: RESULT 211.5 -> 213.5; compute 3 (216.5); END (217.5): 216 + 3p,
       and the end as in steal_timelines (29) */
    leaves(&t, three, 3);
    check("t_poll: steal P=2, three polls on the critical path",
          run_logged(&t, &m, SIM_STEAL, 2, 0, &r, log, sizeof log), 216 + 3 * p + 29);
    check("t_poll: steal P=2, messages as without", (double)r.messages, 8);
    sim_tree_free(&t);
}

/* A standing request granted when a worker becomes idle (P = 3, M = 1) and on two
   masters (P = 5, M = 2: the FWD ring, the rest standing at home). */
static void standing_timelines(void)
{
    sim_machine m = toy();
    sim_tree t;
    sim_result r;
    char log[256];
    double five[5] = { 100, 100, 100, 10, 10 }, six[6] = { 100, 100, 100, 10, 10, 10 };
    /* P = 3, M = 1. rank 0: BEGINs (1, 2); compute 5 (7); takes child 0, REQ(4) (8, arr
       18); child 0 (108). master: BEGIN 12 -> 14; REQ 18 -> 20: grants worker 1 (21, arr
       31), 3 stand. rank 0 takes child 1, polls at 108: GRANT 31 -> 110: the last child,
       4, to rank 1 (111, arr 121); 2 pending, 3 still asked for: no REQ; child 1 (211).
       rank 1: BEGIN 11 -> 13; TASK 121 -> 123; takes child 4 (nothing pending: no REQ);
       child 4 (133); RESULT (134, arr 144); IDLE (135, arr 145). master: IDLE 145 -> 147:
       rank 1 is idle, rank 0's request the oldest standing: GRANT (148, arr 158). rank 0
       takes child 2, polls at 211: RESULT 144 -> 213, GRANT 158 -> 215: child 3 to rank
       1 (216, arr 226); nothing pending: REQ(0) (217, arr 227); child 2 (317). rank 1:
       TASK 226 -> 228; child 3 (238); RESULT (239, arr 249); IDLE (240). rank 0: RESULT
       249 -> 319; compute 3 (322); END x2 (324), the barrier. Messages: rank 0 BEGIN x2,
       REQ, TASK x2, REQ(0), END x2; rank 1 RESULT, IDLE, twice; master GRANT x2. Master
       busy: 4 messages received (8), 2 GRANTs (2), BEGIN (2); at the end END (2), round
       0 (3) and round 1's send (1), as in "dynamic P=3 M=1". */
    leaves(&t, five, 5);
    check("dynamic standing request: time", run_logged(&t, &m, SIM_DYNAMIC, 3, 1, &r, log,
          sizeof log), 324 + END_P3);
    check("dynamic standing request: groups sent", (double)r.grants, 2);
    check("dynamic standing request: messages", (double)r.messages, 14);
    check("dynamic standing request: master busy", r.master_busy, 12 + 6);
    check_log("dynamic standing request", log, "begin 0 -> 1\nbegin 0 -> 2\n"
              "send 0 4 1 -> 1\nsend 0 3 1 -> 1\n");
    sim_tree_free(&t);
    /* P = 5, M = 2: workers 0, 1 -> master rank 3, worker 2 -> master rank 4. rank 0:
       BEGINs to 1..4 (1..4; arr 11..14); compute 5 (9); takes child 0, REQ(5) to rank 3
       (10, arr 20); child 0 (110). rank 3: BEGIN 13 -> 15; REQ 20 -> 22: grants worker 1
       (23, arr 33), FWD(4, hops 1) to rank 4 (24, arr 34). rank 4: BEGIN 14 -> 16; FWD 34
       -> 36: grants worker 2 (37, arr 47); the ring is done: FWD(3, hops 2) home to rank
       3 (38, arr 48), where it stands (48 -> 50). rank 0 takes child 1, polls at 110:
       GRANT 33 -> 112, child 5 to rank 1 (113, arr 123); GRANT 47 -> 115, child 4 to rank
       2 (116, arr 126); 2 pending, 3 asked for: no REQ; child 1 (216). rank 1: TASK 123
       -> 125; child 5 (135); RESULT (136, arr 146); IDLE (137, arr 147). rank 2: TASK 126
       -> 128; child 4 (138); RESULT (139, arr 149); IDLE (140, arr 150). rank 3: IDLE 147
       -> 149: rank 1 idle, rank 0's request stands: GRANT (150, arr 160). rank 4: IDLE
       150 -> 152 (no request stands there). rank 0 takes child 2, polls at 216: RESULTs
       146, 149 (-> 218, 220), GRANT 160 -> 222: child 3 to rank 1 (223, arr 233); REQ(0)
       (224, arr 234); child 2 (324). rank 1: TASK 233 -> 235; child 3 (245); RESULT (246,
       arr 256); IDLE (247). rank 0: RESULT 256 -> 326; compute 3 (329); END x4 (333),
       the barrier. Messages: rank 0 BEGIN x4, REQ, TASK x3, REQ(0), END x4; rank 1
       RESULT, IDLE twice; rank 2 RESULT, IDLE; rank 3 GRANT, FWD, GRANT; rank 4 GRANT,
       FWD. (The TASKs' own REQ(1), REQ(0), before their child was taken first, went
       round the ring of masters and had a worker granted and given back.) */
    leaves(&t, six, 6);
    check("dynamic two masters: time", run_logged(&t, &m, SIM_DYNAMIC, 5, 2, &r, log,
          sizeof log), 333 + END_P5);
    check("dynamic two masters: children sent", (double)r.remote_calls, 3);
    check("dynamic two masters: nothing given back", (double)r.refusals, 0);
    check("dynamic two masters: messages", (double)r.messages, 13 + 4 + 2 + 3 + 2);
    check_log("dynamic two masters", log,
              "begin 0 -> 1\nbegin 0 -> 2\nbegin 0 -> 3\nbegin 0 -> 4\n"
              "send 0 5 1 -> 1\nsend 0 4 1 -> 2\nsend 0 3 1 -> 1\n");
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

/* A full binary tree of depth d under node x, every par cond true, leaves of 'leaf'
   seconds. */
static void binary(sim_tree *t, int x, int d, double leaf)
{
    int c;
    if (d == 0) {
        t->nodes[x].t_after = leaf;
        t->nodes[x].leaf = 1;
        return;
    }
    c = sim_tree_add_nodes(t, 2);
    sim_tree_add_par(t, x, 0, c, 2, 1);
    binary(t, c, d - 1, leaf);
    binary(t, c + 1, d - 1, leaf);
}

/* Inline pars (wtcp_par_inline, engine.c's F_INLINE) as the runtime's --wtc-stats
   counts them, on a binary tree of 4095 pars: with leaves of 10 ns (pars come far
   faster than WTCP_INLINE_GRAIN) most of rank 0's pars run inline in steal (P = 2) and
   dynamic (P = 3, one master) mode, after the first window of WTCP_GRAIN_WINDOW pars,
   which spawn; with leaves of 100 us none does; simple mode never inlines. The
   predicted time stays within the work's bounds either way. */
static void inline_counts(void)
{
    sim_machine m = toy();
    static const struct { int mode, P, M; double leaf; int inl; const char *name; } c[] = {
        { SIM_STEAL, 2, 0, 1e-8, 1, "steal P = 2, 10 ns leaves" },
        { SIM_DYNAMIC, 3, 1, 1e-8, 1, "dynamic P = 3, 10 ns leaves" },
        { SIM_STEAL, 2, 0, 1e-4, 0, "steal P = 2, 100 us leaves" },
        { SIM_SIMPLE, 2, 0, 1e-8, 0, "simple P = 2, 10 ns leaves" },
    };
    m.t_child = m.t_poll = 0;
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        sim_tree t;
        sim_result r;
        sim_timeline tl;
        sim_setting s = { .mode = c[i].mode, .procs = c[i].P, .masters = c[i].M };
        char what[96];
        int root;
        sim_tree_init(&t);
        root = sim_tree_add_nodes(&t, 1);
        binary(&t, root, 14, c[i].leaf);
        sim_tree_add_region(&t, root, 0);
        sim_tree_finish(&t);
        memset(&r, 0, sizeof r);
        sim_timeline_init(&tl, c[i].P, 0);
        if (sim_run_timeline(&t, &m, s, &r, &tl) < 0) {
            check(c[i].name, -1, 0);
        } else {
            long long in = tl.st[0].pars_inline, fr = tl.st[0].pars_framed;
            snprintf(what, sizeof what, "inline pars, %s: rank 0 %s", c[i].name,
                     c[i].inl ? "mostly inline" : "none inline");
            check(what, c[i].inl ? in > 2 * fr : in == 0, 1);
            if (c[i].inl && in <= 2 * fr)
                printf("    rank 0: %lld inline, %lld framed\n", in, fr);
            snprintf(what, sizeof what, "inline pars, %s: time within the work's bounds",
                     c[i].name);
            check(what, r.time >= 16384 * c[i].leaf / c[i].P && r.time < 1e6, 1);
        }
        sim_timeline_free(&tl);
        sim_tree_free(&t);
    }
}

/* A GRANT takes the asking worker's oldest work (wtcp_give_frame: the outermost frame
   with pending children), and a worker waiting for RESULTs is granted to others and
   runs their TASK nested. */
static void oldest_and_nested_timelines(void)
{
    sim_machine m = toy();
    sim_tree t;
    sim_result r;
    char log[256];
    nested_pars(&t, 100);
    /* P = 3, M = 1. rank 0: BEGINs (1, 2; arr 11, 12); the root's par: takes A, REQ(2)
       (3, arr 13); A's par runs inline (B and C pending: wtcp_par_inline); a0 (103).
       master: BEGIN 12 -> 14; REQ 13 -> 16: grants worker 1 (17, arr 27), 1 stands.
       rank 0 polls before a1 at 103 (wtc_poll): GRANT 27 -> 105: the oldest frame with pending
       children is the root's: C to rank 1 (106, arr 116); a1 (206). rank 1: TASK 116
       -> 118; C (218); RESULT (219, arr 229). rank 0: A ends; takes B, polls at 206
       (nothing), REQ(0) (207); B (307); RESULT 229 -> 309; compute 3 (312); END x2
       (314), the barrier. (Grants from the innermost frame would have sent a1.) */
    check("dynamic oldest work: time", run_logged(&t, &m, SIM_DYNAMIC, 3, 1, &r, log,
          sizeof log), 314 + END_P3);
    check_log("dynamic oldest work", log, "begin 0 -> 1\nbegin 0 -> 2\n"
              "send 0 2 1 -> 1\n");
    sim_tree_free(&t);
    /* leaves_and_b: root: compute 5, par of A (leaf 300), X (leaf 13), B; B: par of
       b0..b3 (leaves of 100). P = 4, M = 1 (workers 0, 1, 2; master 3).
       rank 0: BEGINs (1, 2, 3; arr 11, 12, 13); compute 5 (8); takes A, REQ(2) (9, arr
       19); A (309). master: BEGIN 13 -> 15; REQ 19 -> 21: grants 1 and 2 (22, arr 32).
       rank 0 takes X, polls at 309: GRANT 32 -> 311: B to rank 1 (312, arr 322); nothing
       left for rank 2: IDLE for it (313, arr 323); the request is spent: no REQ(0); X
       (326); waits for B: IDLE (327, arr 337).
       master: IDLE(2) 323 -> 325: no request stands, rank 2 idle.
       rank 1: TASK 322 -> 324 (a task frame); takes B (nothing pending: no REQ); B's
       par: takes b0, REQ(3) (325, arr 335); b0 (425).
       master: REQ(3) 335 -> 337: rank 2 granted to rank 1 (338, arr 348), 2 stand;
       IDLE(0) 337 -> 340: rank 0 granted to rank 1 (341, arr 351), 1 stands.
       rank 1 takes b1, polls at 425: GRANT 348 -> 427: b3 to rank 2 (428, arr 438);
       GRANT 351 -> 430: b2 to rank 0 (431, arr 441); nothing pending: REQ(0) (432); b1
       (532); waits: IDLE (533).
       rank 2: TASK 438 -> 440; b3 (540); RESULT (541, arr 551); IDLE (542).
       rank 0 (waiting): TASK 441 -> 443, run nested: b2 (543); RESULT to rank 1 (544,
       arr 554); waits again: IDLE (545).
       rank 1: RESULTs 551 -> 553, 554 -> 556; B's RESULT to rank 0 (557, arr 567).
       rank 0: RESULT 567 -> 569; compute 3 (572); END x3 (575), the barrier.
       Waiting for RESULTs: rank 0 (441 - 327) + (567 - 545), rank 1 (551 - 533) +
       (554 - 553). Master busy: 9 messages received (BEGIN, REQ(2), IDLE(2), REQ(3),
       IDLE(0), REQ(0), IDLE(1), IDLE(2), IDLE(0)), 3 GRANTs; at the end END and two
       rounds (2 + 6). */
    {
        double ax[3] = { 300, 13, 0 };
        leaves_and_b(&t, ax, 3, 2);
    }
    check("dynamic nested TASK while waiting: time", run_logged(&t, &m, SIM_DYNAMIC, 4, 1,
          &r, log, sizeof log), 575 + END_P4);
    check("dynamic nested TASK while waiting: granted rank given back",
          (double)r.refusals, 1);
    check("dynamic nested TASK while waiting: messages", (double)r.messages, 12 + 6 + 2 + 3);
    check("dynamic nested TASK while waiting: wait-children", r.wait_children,
          (441 - 327) + (567 - 545) + (551 - 533) + (554 - 553));
    check("dynamic nested TASK while waiting: master busy", r.master_busy, 9 * 2 + 3 + 8);
    check_log("dynamic nested TASK while waiting", log,
              "begin 0 -> 1\nbegin 0 -> 2\nbegin 0 -> 3\n"
              "send 1 2 1 -> 1\nsend 2 3 1 -> 2\nsend 2 2 1 -> 0\n");
    sim_tree_free(&t);
}

/* doc/runtime.md "steal mode" on 2 ranks (rank 1 always steals from rank 0 and back):
   the root owns both ranks, so its par first seeds rank 1 with the back of its
   children (simple mode's split); a rank answers a STEAL only between children,
   refuses a thief it seeded that asked before its seed came, gives the back half of its
   oldest pending children, and a stolen group can be stolen from again. */
static void steal_timelines(void)
{
    sim_machine m = toy();
    sim_tree t;
    sim_result r;
    char log[256];
    double three[3] = { 100, 100, 100 };
    /* The seed, and a STEAL that waits for the victim's current child. rank 0: BEGIN
       (1, arr 11); compute 5 (6); seed: children 0, 1 stay, child 2 to rank 1 (TASK 7,
       arr 17); takes child 0, polls (nothing), runs it (107); takes child 1 and polls at
       107. rank 1: BEGIN 11 -> 13; STEAL to 0 (14, arr 24): it waits in rank 0's inbox
       until that poll: 107 -> 109, rank 1 was seeded: NOWORK (110, arr 120); child 1
       (210). rank 1: TASK 17 -> 19, runs child 2 (119); RESULT (120, arr 130); NOWORK 120
       -> 122; STEAL again (123, arr 133). rank 0 at 210: the RESULT has arrived: 210 ->
       212; compute 3 (215); END (216, arr 226). The end: rank 0 in the barrier (216):
       BAR to 1 (217, arr 227); rank 1's STEAL 217 -> 219: NOWORK (220, arr 230). rank 1:
       END 226 -> 228; its STEAL's answer first: NOWORK 230 -> 232; in the barrier: BAR
       to 0 (233, arr 243), rank 0's 233 -> 235. rank 0: 243 -> 245. */
    leaves(&t, three, 3);
    check("steal P=2: the STEAL waits for the child", run_logged(&t, &m, SIM_STEAL, 2, 0, &r,
          log, sizeof log), 245);
    check("steal P=2: children sent (the seed)", (double)r.remote_calls, 1);
    check("steal P=2: successful steals", (double)r.grants, 0);
    check("steal P=2: NOWORK answers (the seeded thief)", (double)r.refusals, 1);
    check("steal P=2: STEALs sent", (double)r.steals, 2);
    check("steal P=2: messages", (double)r.messages, 8);
    check("steal P=2: wait-children", r.wait_children, 0);
    check_log("steal P=2", log, "begin 0 -> 1\nseed 0 2 1 -> 1\nsteal 1 -> 0\nsteal 1 -> 0\n");
    sim_tree_free(&t);
    /* The seed of a frame of 8 leaves of 100: children 4..7 to rank 1 (TASK 7, arr 17);
       rank 0 runs 0 (107); its poll before 1 refuses rank 1's STEAL (arr 24; 107 -> 109,
       NOWORK 110, arr 120); runs 1, 2, 3 (410); waits, steals from 1 (411, arr 421).
       rank 1: TASK 17 -> 19; runs 4, 5 (219); NOWORK 219 -> 221; runs 6, 7 (421);
       RESULT (422, arr 432); STEAL to 0 (423); rank 0's STEAL 423 -> 425: NOWORK (426).
       rank 0: RESULT 432 -> 434; compute 3 (437); END (438, arr 448). The end: rank 0's
       STEAL is out: rank 1's STEAL (arr 433) 438 -> 440, NOWORK (441, arr 451); the
       answer to its own (arr 436) 442: in the barrier, BAR to 1 (443, arr 453). rank 1:
       END 448 -> 450; NOWORK 451 -> 453; BAR to 0 (454, arr 464); rank 0: 464 -> 466. */
    double eight[8] = { 100, 100, 100, 100, 100, 100, 100, 100 };
    leaves(&t, eight, 8);
    check("seed of 8: time", run_logged(&t, &m, SIM_STEAL, 2, 0, &r, log, sizeof log),
          466);
    check("seed of 8: children sent", (double)r.remote_calls, 4);
    check("seed of 8: STEALs sent", (double)r.steals, 3);
    check("seed of 8: messages", (double)r.messages, 10);
    /* (each rank's lines in order; the simulator runs rank 1 ahead to 422 before rank
       0 reaches 410) */
    check_log("seed of 8", log,
              "begin 0 -> 1\nseed 0 4 4 -> 1\nsteal 1 -> 0\nsteal 1 -> 0\nsteal 0 -> 1\n");
    sim_tree_free(&t);
    /* Re-steal from a task frame: leaves 100, 100, 10, 10, 10, 300, 300, 300. Rank 1 gets
       the seed 4..7 (TASK arr 17 -> 19), runs 4 (29) and 5 (329). rank 0 refuses rank 1's
       first STEAL at 107 (NOWORK arr 120), runs 1 (210), 2, 3 (230); RESULT owed, nothing
       arrived: STEAL to 1 (231, arr 241). rank 1 takes child 6 and polls at 329: NOWORK
       329 -> 331, the STEAL 331 -> 333; its task frame has child 7 pending: TASK child 7
       to 0 (334, arr 344); child 6 (634). rank 0: TASK 344 -> 346; child 7 (646); RESULT
       to 1 (647, arr 657); rank 1's STEAL (634 -> 635, arr 645; it has its seed) 647
       -> 649: nothing pending: NOWORK (650); STEAL to 1 (651). rank 1: RESULT 657 -> 659; its task is
       complete: RESULT to 0 (660, arr 670); NOWORK 660 -> 662; STEAL to 0 (663, arr 673);
       rank 0's STEAL (arr 661) -> 665: NOWORK (666, arr 676). rank 0: RESULT 670 -> 672;
       compute 3 (675); END (676, arr 686). The end: rank 1's STEAL 676 -> 678: NOWORK
       (679, arr 689); the answer to its own 676 -> 681; in the barrier: BAR to 1 (682,
       arr 692). rank 1: END 686 -> 688; NOWORK 689 -> 691; BAR to 0 (692, arr 702),
       rank 0's -> 694. rank 0: 702 -> 704. */
    double mixed[8] = { 100, 100, 10, 10, 10, 300, 300, 300 };
    leaves(&t, mixed, 8);
    check("steal from a task frame: time", run_logged(&t, &m, SIM_STEAL, 2, 0, &r, log,
          sizeof log), 704);
    check("steal from a task frame: children sent", (double)r.remote_calls, 5);
    check("steal from a task frame: successful steals", (double)r.grants, 1);
    check("steal from a task frame: NOWORK answers", (double)r.refusals, 3);
    check("steal from a task frame: messages", (double)r.messages, 15);
    check("steal from a task frame: wait-children", r.wait_children,
          (344 - 231) + (670 - 651) + (657 - 635));
    /* the STEALs: 1 (14), 0 (231), 1 (635), 0 (651), 1 after its NOWORK */
    check_log("steal from a task frame", log,
              "begin 0 -> 1\nseed 0 4 4 -> 1\nsteal 1 -> 0\nsteal 0 -> 1\nsend 0 7 1 -> 0\n"
              "steal 1 -> 0\nsteal 0 -> 1\nsteal 1 -> 0\n");
    sim_tree_free(&t);
}

/* Seeds down the ranges: at P = 4 a root par of 2 calls, each with a par of 2 leaves of
   100 and a second par of 2 leaves after it. The root (ranks 0-3) seeds call 1 to rank 2
   with ranks 2-3; call 0 keeps 0-1. Each call seeds its first par's leaf 1 (to 1, and
   from 2 to 3), and not its second par: a call spreads its ranks once, at its first par
   (later the ranks are busy, and only thieves move work). */
static void steal_seeds(void)
{
    sim_machine m = toy();
    sim_tree t;
    sim_result r;
    char log[256];
    sim_tree_init(&t);
    int root = sim_tree_add_nodes(&t, 1);
    int c = sim_tree_add_nodes(&t, 2);
    t.nodes[root].t_after = 3;
    sim_tree_add_par(&t, root, 5, c, 2, 1);
    for (int k = 0; k < 2; k++) {
        t.nodes[c + k].depth = 1;
        for (int q = 0; q < 2; q++) {
            int b = sim_tree_add_nodes(&t, 2);
            for (int i = 0; i < 2; i++) {
                t.nodes[b + i].t_after = 100;
                t.nodes[b + i].leaf = 1;
                t.nodes[b + i].depth = 2;
            }
            sim_tree_add_par(&t, c + k, 1, b, 2, 1);
        }
    }
    sim_tree_add_region(&t, root, 0);
    sim_tree_finish(&t);
    run_logged(&t, &m, SIM_STEAL, 4, 0, &r, log, sizeof log);
    /* the log in the order the sends happened (the depth of the children first): the
       root's, then rank 0's and rank 2's first pars; their second pars are not seeded,
       and here nothing is stolen from them (the thieves' STEALs miss the one poll at
       which a second leaf is pending) */
    check("seeds down the ranges: the root's seed first (after the region start)",
          strstr(log, "seed 1 1 1 -> 2\n") != NULL &&
          strstr(log, "seed 1 1 1 -> 2\n") < strstr(log, "seed 2 1 1 -> 1\n"), 1);
    check("seeds down the ranges: call 0 seeds rank 1", strstr(log, "seed 2 1 1 -> 1\n") != NULL, 1);
    check("seeds down the ranges: call 1 seeds rank 3", strstr(log, "seed 2 1 1 -> 3\n") != NULL, 1);
    int seeds = 0;
    for (const char *q = log; (q = strstr(q, "seed ")) != NULL; q++)
        seeds++;
    check("seeds down the ranges: three seeds, none at the second pars", seeds, 3);
    sim_tree_free(&t);
}

/* A STEAL round trip that costs nothing (a free network, a what-if: every latency and
   overhead 0) is simulated: the thief's pause after a NOWORK takes a round trip of at
   least the back-off's first sleep (WTCP_PEEK_STEP), never 0. The setting was refused,
   and the report printed "nan" for every steal row, P = 1 too (a helper's bug hunt:
   ethernet-mpich-2004 with L = o_sa = o_ra = 0). On two_leaves (5, two leaves of 100,
   3): P = 1 runs them in turn, 208; P = 2 the two at once, 108. Unseeded at P = 4 the
   idle ranks ask rank 0 and each other from time 0; with the answering thread, rank 0's
   is rung WTCP_ANSWER_GRACE after the STEAL left, so child 1 leaves at most that and a
   pause after 5: 108 + 300 us at most, a few STEALs per thief. */
static void steal_free_round_trip(void)
{
    sim_machine m = toy();
    sim_tree t;
    sim_result r;
    m.L = m.L_intra = m.o_sa = m.o_ra = 0;
    two_leaves(&t, 2);
    check("steal: a free round trip, P = 1", run(&t, &m, SIM_STEAL, 1, 0, 0, &r), 208);
    check("steal: a free round trip, P = 2", run(&t, &m, SIM_STEAL, 2, 0, 0, &r), 108);
    sim_setting s = { .mode = SIM_STEAL, .procs = 4, .unseeded = 1 };
    m.leaf_wait = 0;
    int ok = sim_run(&t, &m, s, &r) == 0 && r.time >= 108 && r.time <= 108 + 300e-6 &&
             r.steals <= 3 * 10;
    printf("%s steal: a free round trip, unseeded P = 4 with the answering thread: %.9g, "
           "%lld STEALs\n", ok ? "[PASS]" : "[FAIL]", r.time, r.steals);
    failures += !ok;
    check("steal: a free round trip, the pause's rule", wtcp_steal_pause(3, 0, 100e-6, 1),
          4 * WTCP_PEEK_STEP);
    sim_tree_free(&t);
}

/* The toy machine in microseconds, and the tree of the timelines below: the root's par
   of C (which computes 20 times 50 us, each followed by a par with cond false) and, with
   'leaf_a', a second child A, a leaf of 5 us. */
static const double us = 1e-6;
static void pause_tree(sim_tree *t, sim_machine *m, int leaf_a)
{
    *m = toy();
    m->L *= us;
    m->L_intra *= us;
    m->o_sa *= us;
    m->o_ra *= us;
    sim_tree_init(t);
    int root = sim_tree_add_nodes(t, 1), c = sim_tree_add_nodes(t, 1 + leaf_a);
    t->nodes[root].t_after = 3 * us;
    t->nodes[c].depth = 1;
    if (leaf_a) {
        t->nodes[c + 1].depth = 1;
        t->nodes[c + 1].t_after = 5 * us;
        t->nodes[c + 1].leaf = 1;
    }
    sim_tree_add_par(t, root, 5 * us, c, 1 + leaf_a, 1);
    for (int i = 0; i < 20; i++)
        sim_tree_add_par(t, c, 50 * us, 0, 0, 0);
    sim_tree_add_region(t, root, 0);
    sim_tree_finish(t);
}

/* The thief's pause after NOWORKs (wtcp_steal_pause): 2^(f-1) x the last answer's round
   trip after f NOWORKs in a row, at most 1000 us on one node with more ranks than cores,
   100 us elsewhere (wtcp_pause_cap_us). On 2 ranks sharing one core, with times in us
   (o_s = 1, o_r = 2, L = 10): rank 0 runs the root's only child C, which computes 20
   times 50 us, each followed by a par with cond false, where rank 0 polls and answers
   NOWORK. (Rank 1 computes only its messages' costs: sharing the core moves nothing.) */
static void steal_pause_timeline(void)
{
    sim_machine m;
    sim_tree t;
    sim_result r;
    pause_tree(&t, &m, 0);
    m.cores = 1;
    /* rank 0: BEGIN (1, arr 11); compute 5 (6); takes C; polls at C's pars at 56, 109,
       162, 212, 265, ... (50 apart, +3 after each NOWORK sent).
       rank 1: BEGIN 11 -> 13; STEAL (13 -> 14, arr 24).
       rank 0 at 56: STEAL -> 58, NOWORK (59, arr 69). rank 1: 69 -> 71, round trip 58,
       1 NOWORK: pause 58, already over: STEAL (71 -> 72, arr 82). rank 0 at 109: -> 111,
       NOWORK (112, arr 122). rank 1: 122 -> 124, round trip 53, 2 NOWORKs: pause 106,
       until 71 + 106 = 177: STEAL (178, arr 188). rank 0 at 162 nothing, at 212: -> 214,
       NOWORK (215, arr 225). rank 1: -> 227, round trip 50, pause 200: STEAL at 377
       (arr 388). rank 0 at 265, 315, 365 nothing, at 415: -> 417, NOWORK (418, arr 428).
       rank 1: -> 430, round trip 53, pause 424: STEAL at 801 (arr 812). rank 0 at 468 ...
       768 nothing, at 818: -> 820, NOWORK (821, arr 831). rank 1: -> 833, round trip 32,
       pause 512: its next STEAL would leave at 1313. rank 0: polls at 871, 921, 971,
       1021; compute 3 (1024); END (1025), the barrier (25: rank 1 waits for its timer,
       no STEAL out). Without the pause rank 1 would steal again
       at once after each NOWORK, and rank 0 would answer one STEAL at every poll. */
    check("steal pause: time", run(&t, &m, SIM_STEAL, 2, 0, 0, &r), (1025 + END_P2) * us);
    check("steal pause: STEALs sent", (double)r.steals, 5);
    check("steal pause: NOWORK answers", (double)r.refusals, 5);
    check("steal pause: messages", (double)r.messages, 12);
    /* The same with a core per rank: the pause's cap is 100 us (wtcp_pause_cap_us): after
       the STEALs at 13 and 71 rank 1 steals every 100 us (171, 271, ..., 971), each
       answered at rank 0's next poll: 11 STEALs, 11 NOWORKs, BEGIN and END; rank 0 pays 3
       for each NOWORK, so END leaves at 1043 instead of 1025. */
    m.cores = 0;
    check("steal pause, a core per rank: time", run(&t, &m, SIM_STEAL, 2, 0, 0, &r),
          (1043 + END_P2) * us);
    check("steal pause, a core per rank: STEALs sent", (double)r.steals, 11);
    check("steal pause, a core per rank: NOWORK answers", (double)r.refusals, 11);
    check("steal pause, a core per rank: messages", (double)r.messages, 24);
    /* The same on two nodes: no doorbell covers both, so the runtime's sleep ceiling
       and the pause's cap are 100 us (4 round trips are more): the same 11 STEALs. */
    m.ranks_per_node = 1;
    run(&t, &m, SIM_STEAL, 2, 0, 0, &r);
    check("steal pause, two nodes: STEALs sent", (double)r.steals, 11);
    check("steal pause, two nodes: NOWORK answers", (double)r.refusals, 11);
    check("steal pause, two nodes: messages", (double)r.messages, 24);
    sim_tree_free(&t);
    /* The rule itself (times in us): 2^(f-1) round trips, at most the cap; where the
       victims are asked by message (by_rtt), also at most WTCP_PAUSE_RTTS = 4 round trips:
       after 5 NOWORKs of 10 us each 40 us instead of the 100 us cap, after 2 still 20 */
    check("steal pause rule: f 3, one host", wtcp_steal_pause(3, 10 * us, 100 * us, 0), 40 * us);
    check("steal pause rule: f 5, one host", wtcp_steal_pause(5, 10 * us, 100 * us, 0), 100 * us);
    check("steal pause rule: f 5, by message", wtcp_steal_pause(5, 10 * us, 100 * us, 1), 40 * us);
    check("steal pause rule: f 2, by message", wtcp_steal_pause(2, 10 * us, 100 * us, 1), 20 * us);
    check("steal pause rule: f 0", wtcp_steal_pause(0, 10 * us, 100 * us, 1), 0);
    /* the cap: 1000 us only on one host with more ranks than cores */
    check("steal pause cap: one host, oversubscribed", wtcp_pause_cap_us(1, 1), 1000);
    check("steal pause cap: one host, a core per rank", wtcp_pause_cap_us(1, 0), 100);
    check("steal pause cap: several hosts", wtcp_pause_cap_us(0, 0), 100);
    check("steal pause cap: several hosts, oversubscribed", wtcp_pause_cap_us(0, 1), 100);
}

/* Parking (wtcp_parks): the tree of steal_pause_timeline with a second child of the
   root, a leaf A of 5 us, on two nodes (no peeks). Rank 1 gets A as its seed (it is
   settled), is done with it at once, and its first STEAL is answered NOWORK at rank 0's
   next poll inside C. With P = 2 one NOWORK in a row is ceil(log2 P): its second STEAL
   parks, rank 0 keeps it while it runs C (nothing to give), and answers it NOWORK at the
   region's end. Without parking rank 1 asked every 100 us (11 STEALs, above). */
static void steal_park_timeline(void)
{
    sim_machine m;
    sim_tree t;
    sim_result r;
    pause_tree(&t, &m, 1);
    m.ranks_per_node = 1;
    double x = run(&t, &m, SIM_STEAL, 2, 0, 0, &r);
    check("steal park: STEALs sent", (double)r.steals, 2);
    check("steal park: NOWORK answers (one at a poll, the parked one at the region's end)",
          (double)r.refusals, 2);
    check("steal park: the region lasts C and the end", x > 1000 * us && x < 1100 * us, 1);
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
            t->nodes[c + i].task_bytes = t->nodes[c + i].task_copied = 16;
            t->nodes[c + i].result_bytes = t->nodes[c + i].result_copied = 8;
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
    /* on one node of 2 cores no setting beats work / 2 (a speed-up above the cores) */
    m.cores = 2;
    ok = 1;
    for (int mode = SIM_SIMPLE; mode <= SIM_STEAL; mode++)
        for (size_t i = 0; i < sizeof procs / sizeof procs[0]; i++) {
            sim_result r;
            double x = run(&t, &m, mode, procs[i], 1, mode == SIM_DYNAMIC ? 2 : 0, &r);
            int good = x >= work / 2 && fabs(r.compute - work) <= 1e-9 * work;
            if (!good)
                printf("    mode %d P = %2d on 2 cores: %.0f < work / 2 = %.0f\n", mode,
                       procs[i], x, work / 2);
            ok &= good;
        }
    printf("%s every mode on 2 cores: time >= work/2\n", ok ? "[PASS]" : "[FAIL]");
    failures += !ok;
    /* nodes of 4 ranks and 2 cores with network ports: time >= work / (2 x nodes) */
    m.ranks_per_node = 4;
    m.G = 0.01;
    ok = 1;
    for (int mode = SIM_SIMPLE; mode <= SIM_STEAL; mode++)
        for (size_t i = 0; i < sizeof procs / sizeof procs[0]; i++) {
            sim_result r;
            int nodes = (procs[i] + 3) / 4;
            double x = run(&t, &m, mode, procs[i], 1, mode == SIM_DYNAMIC ? 2 : 0, &r);
            int good = x >= work / (2 * nodes) && fabs(r.compute - work) <= 1e-9 * work;
            if (!good)
                printf("    mode %d P = %2d on %d nodes of 2 cores: %.0f < %.0f\n", mode,
                       procs[i], nodes, x, work / (2 * nodes));
            ok &= good;
        }
    printf("%s every mode on nodes of 4 ranks, 2 cores, with ports: time >= work/cores\n",
           ok ? "[PASS]" : "[FAIL]");
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
        t->nodes[c + i].task_bytes = t->nodes[c + i].task_copied = 16;
        t->nodes[c + i].result_bytes = t->nodes[c + i].result_copied = 8;
    }
    t->nodes[root].depth = -1;
    sim_tree_add_par(t, root, 0, c, (int)n, 1);
    sim_tree_add_region(t, root, 12);
    sim_tree_finish(t);
}

/* CPU time of this process: the speed check must not depend on what else runs. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The P with the least predicted time among procs[] (dynamic, one master); *last: the
   time at the last P. */
static int saturation(const sim_tree *t, const sim_machine *m, const int *procs, int np,
                      long long *events, double *wall, double *least, double *last)
{
    int best = -1;
    double bt = 0, x = 0;
    for (int i = 0; i < np; i++) {
        sim_result r;
        double w0 = now();
        x = run(t, m, SIM_DYNAMIC, procs[i], 1, 1, &r);
        *wall += now() - w0;
        *events += r.events;
        printf("    P = %3d: %.3f s, master busy %.0f%%\n", procs[i], x,
               100 * r.master_busy / x);
        if (best < 0 || x < bt) {
            best = procs[i];
            bt = x;
        }
    }
    *least = bt;
    *last = x;
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
    /* 2^17 tasks of 1 ms: where the master saturates depends on the tasks' length
       against its cost per message, not on their number (2^20 tasks gave the same
       curve, 8 times longer, in 8 times the CPU) */
    farm(&t, 131072, 1e-3);
    /* the masters' saturation: with its seeds, dynamic mode cuts a farm of equal tasks
       into one block per worker and the master is hardly asked (doc/runtime.md "dynamic
       mode", item 0); the master/worker machinery after the start is timed without */
    unseeded_dynamic = 1;
    double least, last, least0, last0;
    printf("  extended LogGPS (2004 preset):\n");
    int sat = saturation(&t, &m, procs, np, &events, &wall, &least, &last);
    m.o_sb = m.o_rb = 0;
    printf("  plain LogGPS (o_sb = o_rb = 0):\n");
    int sat0 = saturation(&t, &m, procs, np, &events, &wall, &least0, &last0);
    int interior = sat > procs[0] && sat < procs[np - 1];
    printf("%s farm of 131072 tasks: minimum at interior P = %d\n",
           interior ? "[PASS]" : "[FAIL]", sat);
    failures += !interior;
    /* past the saturation point the master's o_b*P terms make every added worker cost
       time: the extended model's time rises (P = 128 at least 1.5 times the least);
       without them it stays on its plateau (within 0.1 %) */
    int rises = last > 1.5 * least && last0 <= 1.001 * least0 && sat0 >= sat;
    printf("%s without the o_b*P terms the time after the saturation point stays level: "
           "P = %d: %.3f s against %.3f s at P = %d (with them %.3f s against %.3f s)\n",
           rises ? "[PASS]" : "[FAIL]", procs[np - 1], last0, least0, sat0, last, least);
    failures += !rises;
    double rate = events / wall;
    /* a guard against a gross slowdown (the target, 5 million/s on an idle host, is a
       figure to report: bench/README.md); CPU time, so a busy host does not fail it */
    int fast = rate >= 1e6 || getenv("SIM_SLOW_OK");
    printf("%s simulator speed: %lld messages in %.2f s of CPU = %.2f million messages/s "
           "(at least 1; target 5)\n", fast ? "[PASS]" : "[FAIL]", events, wall, rate / 1e6);
    failures += !fast;
    unseeded_dynamic = 0;
    sim_tree_free(&t);
}

/* The region end's rules in the core, and its timeline with the doorbell: REGION_END
   seen by a sleeping rank w_wake late, a barrier message seen at once during the yield
   phase that began when the rank entered the barrier, w_wake late after it (MPI's own
   messages ring no doorbell: the back-off's poll finds them). */
static void end_timelines(void)
{
    sim_machine m = toy();
    sim_tree t;
    sim_result r;
    double two[2] = { 100, 100 };
    int kids[8], big[2048], to, from, n = wtcp_end_to(0, 4, kids);
    check("end: rank 0 ends ranks 1-3", n == 3 && kids[0] == 1 && kids[2] == 3, 1);
    check("end: the others end nobody", wtcp_end_to(2, 4, kids), 0);
    /* the broadcasts' rule for an empty payload, P - 1 - h >= 64 (h - 1), from P = 587;
       a simple region ends with the barrier there too */
    check("end: flat at P = 586", wtcp_end_tree(586), 0);
    check("end: by the tree at P = 587", wtcp_end_tree(587), 1);
    check("end: simple mode, no barrier at P = 586", wtcp_end_barrier(&wtcp_simple, 586), 0);
    check("end: simple mode, the barrier at P = 587", wtcp_end_barrier(&wtcp_simple, 587), 1);
    check("end: steal mode, the barrier at P = 2", wtcp_end_barrier(&wtcp_steal, 2), 1);
    n = wtcp_end_to(0, 2048, big);
    check("end: P = 2048, rank 0 ends 11 ranks, 1024 first", n * 10000 + big[0], 111024);
    n = wtcp_end_to(1024, 2048, big);
    check("end: P = 2048, rank 1024 passes it on to 10, 1536 first", n * 10000 + big[0],
          101536);
    check("end: P = 2048, rank 1536 has it from 1024", wtcp_end_from(1536, 2048), 1024);
    check("end: P = 586, rank 300 has it from 0", wtcp_end_from(300, 586), 0);
    check("end: no barrier rounds at P = 1", wtcp_barrier_rounds(1), 0);
    check("end: 1 round at P = 2", wtcp_barrier_rounds(2), 1);
    check("end: 3 rounds at P = 5", wtcp_barrier_rounds(5), 3);
    check("end: 6 rounds at P = 64", wtcp_barrier_rounds(64), 6);
    wtcp_barrier_peers(1, 5, 2, &to, &from);
    check("end: P = 5, round 2 of rank 1: to 0, from 2", to * 10 + from, 2);
    /* dynamic P = 2, M = 1, w_yield = 4, w_wake = 7: rank 0 as in "dynamic P=2 M=1" up
       to END (212, arr 222); in the barrier: BAR to 1 (213, arr 223). master: asleep,
       BEGIN 11 seen 18 -> 20; REQ 17 -> 22; REQ(0) 118 (after its yield phase, 26)
       seen 125 -> 127; END 222 seen 229 -> 231; in the barrier: BAR to 0 (232, arr 242),
       rank 0's -> 234. rank 0 in the barrier since 212, yielded until 216: 242 seen 249
       -> 251. */
    leaves(&t, two, 2);
    m.w_yield = 4;
    m.w_wake = 7;
    check("end: dynamic P=2, the barrier message after the yield phase",
          run(&t, &m, SIM_DYNAMIC, 2, 1, 1, &r), 251);
    /* w_yield = 40: the master as before (each wait longer than 40); rank 0 yields
       until 252: 242 -> 244 */
    m.w_yield = 40;
    check("end: dynamic P=2, the barrier message during the yield phase",
          run(&t, &m, SIM_DYNAMIC, 2, 1, 1, &r), 244);
    /* simple mode has no barrier: rank 0's region ends with its END. rank 1: BEGIN 11
       seen 18 -> 20, TASK -> 22, child (122), RESULT (123, arr 133); rank 0 yields from
       107: 133 -> 135, compute 3 (138), END (139) */
    check("end: simple mode ends with its END", run(&t, &m, SIM_SIMPLE, 2, 0, 1, &r), 139);
    sim_tree_free(&t);
}

/* doc/runtime.md "dynamic mode", item 0: the region's root owns every worker and seeds
   them as steal mode does; the masters count them busy until they say IDLE after their
   seed's work, or a call that cannot spread its ranks hands them back. */
static void dynamic_seeds(void)
{
    sim_machine m = toy();
    sim_tree t;
    sim_result r;
    char log[256];
    double two[2] = { 100, 100 };
    /* P = 3, M = 1, two leaves: rank 0: BEGIN to 1 (1, arr 11), to 2 (2, arr 12);
       compute 5 (7); its par owns workers 0-1: child 1 seeded to rank 1 (8, arr 18);
       takes child 0 (nothing pending: no REQ); child 0 (108); waits: IDLE (109, arr
       119). rank 1: BEGIN 11 -> 13; TASK 18 -> 20; child 1 (120); RESULT (121, arr 131);
       IDLE (122). rank 0: RESULT 131 -> 133; compute 3 (136); END x2 (138), the
       barrier. The master only hears two IDLEs: no REQ, no GRANT. Messages: BEGIN x2,
       TASK, IDLE, RESULT, IDLE, END x2. (Without seeds: 216, "dynamic P=3 M=1".) */
    leaves(&t, two, 2);
    check("dynamic seeds P=3 M=1: time", run_logged(&t, &m, SIM_DYNAMIC, 3, 1, &r, log,
          sizeof log), 138 + END_P3);
    check("dynamic seeds P=3 M=1: messages", (double)r.messages, 8);
    check("dynamic seeds P=3 M=1: no grant", (double)r.grants, 0);
    check("dynamic seeds P=3 M=1: wait-children", r.wait_children, 131 - 109);
    check_log("dynamic seeds P=3 M=1", log, "begin 0 -> 1\nbegin 0 -> 2\n"
              "seed 0 1 1 -> 1\n");
    sim_tree_free(&t);
    /* Hand-back. leaves_and_b: root: compute 5, par of B (a par of b0..b3, leaves of
       100) and A (a leaf of 50); then compute 3. P = 4, M = 1: workers 0-2, master 3.
       rank 0: BEGINs (1, 2, 3; arr 11, 12, 13); compute 5 (8); the root owns workers 0-2:
       A, the second half, seeded to rank 1 owning 1-2 (9, arr 19); B stays, owning
       rank 0 only; takes B; B's par: takes b0, REQ(3) (10, arr 20); b0 (110).
       rank 1: BEGIN 11 -> 13; TASK 19 -> 21; A (71) returns without a par: rank 2 handed
       back, IDLE for it (72, arr 82); RESULT (73, arr 83); IDLE (74, arr 84).
       master: BEGIN 13 -> 15; REQ 20 -> 22: every worker busy, it stands; IDLE(2) 82 ->
       84: rank 2 granted to rank 0 (85, arr 95); IDLE(1) 84 -> 87: rank 1 granted to rank
       0 (88, arr 98).
       rank 0 takes b1, polls at 110: RESULT 83 -> 112; GRANT 95 -> 114: b3 to rank 2
       (115, arr 125); GRANT 98 -> 117: b2 to rank 1 (118, arr 128); nothing pending:
       REQ(0) (119); b1 (219); waits: IDLE (220).
       rank 2: BEGIN 12 -> 14; TASK 125 -> 127; b3 (227); RESULT (228, arr 238).
       rank 1: TASK 128 -> 130; b2 (230); RESULT (231, arr 241).
       rank 0: RESULTs 238 -> 240, 241 -> 243; compute 3 (246); END x3 (249), the
       barrier. Messages: rank 0 BEGIN x3, TASK x3, REQ, REQ(0), IDLE, END x3; rank 1
       IDLE(2), RESULT, IDLE, RESULT, IDLE; rank 2 RESULT, IDLE; master GRANT x2.
       Without the hand-back rank 2 would never be granted. */
    {
        double ba[2] = { 0, 50 };
        leaves_and_b(&t, ba, 2, 0);
    }
    check("dynamic hand-back P=4 M=1: time", run_logged(&t, &m, SIM_DYNAMIC, 4, 1, &r, log,
          sizeof log), 249 + END_P4);
    check("dynamic hand-back P=4 M=1: messages", (double)r.messages, 12 + 5 + 2 + 2);
    check("dynamic hand-back P=4 M=1: groups granted", (double)r.grants, 2);
    check("dynamic hand-back P=4 M=1: wait-children", r.wait_children, (238 - 220) + 1);
    check_log("dynamic hand-back P=4 M=1", log,
              "begin 0 -> 1\nbegin 0 -> 2\nbegin 0 -> 3\nseed 1 1 1 -> 1\nback 2\n"
              "send 2 3 1 -> 2\nsend 2 2 1 -> 1\n");
    sim_tree_free(&t);
    /* A grant without a request (doc/runtime.md "dynamic mode", wtcp_ask, wtcp_unasked):
       with a doorbell on one node a worker does not ask while its master shows no idle
       worker, and a master whose worker becomes idle with no request standing grants it
       to a worker whose slot shows pending children. P = 3, M = 1, B and a leaf of 50:
       rank 0: BEGIN x2 (2); compute 5 (7); seed TASK (the leaf) to rank 1 (8, arr 18);
       takes B; B's par: takes b0 (3 pending): the master shows 0 idle: no REQ; b0 (108).
       rank 1: BEGIN 11 -> 13; TASK 18 -> 20; the leaf (70); RESULT (71, arr 81); IDLE
       (72, arr 82). master: BEGIN 12 -> 14; IDLE 82 -> 84: no request stands, rank 0
       shows pending children: rank 1 granted to it unasked (85, arr 95).
       rank 0 takes b1 and polls at 108: RESULT 81 -> 110; GRANT 95 -> 112: b3 to rank 1
       (113, arr 123); b2 still pending, the master shows 0 idle: no REQ; b1 (213); takes
       b2; b2 (313). rank 1: TASK 123 -> 125; b3 (225); RESULT (226, arr 236); IDLE (227,
       arr 237); the master: rank 0 shows nothing pending, no grant. rank 0: RESULT 236
       -> 315; compute 3 (318); END x2 (320), the segment's barrier (25, above): 345.
       Messages: BEGIN x2, TASK x2, RESULT x2, IDLE x2, GRANT, END x2: no REQ, no
       REQ(0). With MPI's barrier (no_doorbell, as above) it asks: REQ(3) and REQ(0). */
    {
        double ba[2] = { 0, 50 };
        leaves_and_b(&t, ba, 2, 0);
    }
    m.no_doorbell = 0;
    check("dynamic unasked P=3 M=1: time", run_logged(&t, &m, SIM_DYNAMIC, 3, 1, &r, log,
          sizeof log), 320 + 25);
    check("dynamic unasked P=3 M=1: messages", (double)r.messages, 11);
    check("dynamic unasked P=3 M=1: groups granted", (double)r.grants, 1);
    check_log("dynamic unasked P=3 M=1", log,
              "begin 0 -> 1\nbegin 0 -> 2\nseed 1 1 1 -> 1\nsend 2 3 1 -> 1\n");
    m.no_doorbell = 1;
    run(&t, &m, SIM_DYNAMIC, 3, 1, 1, &r);
    check("dynamic asks P=3 M=1 without a doorbell: messages", (double)r.messages, 13);
    sim_tree_free(&t);
}

/* The answering thread (doc/runtime.md "Answers from inside a leaf", Simulator notes
   13): the toy machine with leaf_wait = 0 (w_wake = 0; WTCP_ANSWER_GRACE, 200 us, is
   nothing on its clock). */
static void leaf_timelines(void)
{
    sim_machine m = toy();
    sim_tree t;
    sim_result r;
    double two[2] = { 100, 100 }, uneven[4] = { 10, 10, 100, 100 };
    m.leaf_wait = 0;
    /* dynamic P = 3, M = 1, two leaves of 100: as "the grant comes too late" above up to
       the GRANT (rank 0 runs child 0 from 8 to 108 with child 1 pending; GRANT arr 31),
       which rank 0's thread serves at 31: child 1 to rank 1 (32, arr 42). rank 1: TASK
       42 -> 44, child 1 (144), RESULT (145, arr 155), then IDLE. rank 0 after child 0
       has nothing pending: waits, IDLE (109); RESULT 155 -> 157; compute 3 (160); END x2
       (162), the barrier: 82 sooner than the poll's 244. */
    leaves(&t, two, 2);
    check("leaf: dynamic P=3 M=1: the thread serves the GRANT",
          run(&t, &m, SIM_DYNAMIC, 3, 1, 1, &r), 162 + END_P3);
    check("leaf: dynamic P=3 M=1: nothing given back", (double)r.refusals, 0);
    sim_tree_free(&t);
    /* steal P = 2, leaves 10, 10, 100, 100: rank 0 keeps children 0, 1 and seeds 2, 3 to
       rank 1 (BEGIN 1, arr 11; compute 5 (6); seed TASK (7, arr 17)). rank 1: BEGIN 11
       -> 13, idle: rank 0 shows nothing it may give (its frame waits to be seeded), so
       rank 1 peeks instead of asking (wtcp_peek_skips), again and again at its pause;
       TASK 17 -> 19, child 2 (to 119) with child 3 pending. rank 0: children 0, 1 (27),
       waits for the seed's RESULT: STEAL to rank 1 (28, arr 38), which rank 1's thread
       answers at 38 with child 3 (arr 49); rank 0 runs it (51 -> 151), RESULT (arr
       162). rank 1 after child 2 waits, peeks at rank 0 and asks it while rank 0's state
       is not known (its clock ahead outside a stretch): NOWORK from its thread; then the
       RESULT, and the seed's RESULT; rank 0 ends at 216 (END_P2 included). With the
       polls and no peeks (leaf_wait = 1) rank 1 answers at 119, after taking child 3
       for itself: NOWORK, and child 3 runs after child 2: 269. */
    leaves(&t, uneven, 4);
    check("leaf: steal P=2: the thread answers the STEAL",
          run(&t, &m, SIM_STEAL, 2, 0, 0, &r), 216);
    m.leaf_wait = 1;
    check("leaf: steal P=2: at the poll", run(&t, &m, SIM_STEAL, 2, 0, 0, &r), 269);
    sim_tree_free(&t);
}

/* The draws of a timed mode (doc/predictor.md section 3, "The ranks' speeds"): 64 leaves
   of 1000 on 4 workers, speed_spread 20 %. Every draw moves work between the workers and
   adds none, so even the fastest run takes at least the work spread evenly (16000), where
   ranks all drawn faster would take less; draw 0 (--wtc-runs=1) is the run
   without draws; simple mode and speed_spread = 0 draw nothing (steal: victims only);
   draws that agree from the first ones on stop there. */
static void speed_draws(void)
{
    sim_machine m = toy();
    sim_tree t;
    sim_result r, r0;
    sim_tree_init(&t);
    int root = sim_tree_add_nodes(&t, 1);
    int c = sim_tree_add_nodes(&t, 64);
    for (int i = 0; i < 64; i++) {
        t.nodes[c + i].t_after = 1000;
        t.nodes[c + i].leaf = 1;
    }
    sim_tree_add_par(&t, root, 0, c, 64, 1);
    sim_tree_add_region(&t, root, 0);
    sim_tree_finish(&t);
    m.speed_spread = 0.2;
    for (int mode = SIM_DYNAMIC; mode <= SIM_STEAL; mode++) {
        const char *name = mode == SIM_DYNAMIC ? "dynamic P=5 M=1" : "steal P=4";
        int P = mode == SIM_DYNAMIC ? 5 : 4;
        char what[128];
        run(&t, &m, mode, P, 1, 0, &r);
        snprintf(what, sizeof what, "draws: %s, 7 runs", name);
        check(what, r.runs, 7);
        snprintf(what, sizeof what, "draws: %s, the fastest at least the work spread evenly "
                 "(%.1f)", name, r.time_min);
        check(what, r.time_min >= 16000, 1);
        snprintf(what, sizeof what, "draws: %s, the runs differ (%.1f .. %.1f)", name,
                 r.time_min, r.time_max);
        check(what, r.time_max > r.time_min && r.time_min <= r.time && r.time <= r.time_max,
              1);
        sim_set_runs(1); /* draw 0 */
        run(&t, &m, mode, P, 1, 0, &r);
        m.speed_spread = 0;
        run(&t, &m, mode, P, 1, 0, &r0);
        snprintf(what, sizeof what, "draws: %s, draw 0 is the run without draws", name);
        check(what, r.time, r0.time);
        sim_set_runs(SIM_RUNS);
        run(&t, &m, mode, P, 1, 0, &r0);
        snprintf(what, sizeof what, "draws: %s, speed_spread 0: runs", name);
        check(what, r0.runs, mode == SIM_STEAL ? 7 : 1);
        m.speed_spread = 0.2;
    }
    run(&t, &m, SIM_SIMPLE, 4, 0, 0, &r);
    check("draws: simple P=4, one run", r.runs, 1);
    /* speeds 0.01 % apart: the first SIM_RUNS_FIRST draws agree within SIM_RUNS_AGREE,
       the rest are left out */
    m.speed_spread = 1e-4;
    run(&t, &m, SIM_DYNAMIC, 5, 1, 0, &r);
    check("draws: dynamic P=5 M=1, speed_spread 0.01 %: the first runs agree, no more",
          r.runs, SIM_RUNS_FIRST);
    check("draws: ... and they lie within SIM_RUNS_AGREE",
          r.time_max - r.time_min <= SIM_RUNS_AGREE * r.time, 1);
    sim_tree_free(&t);
}

int main(int argc, char **argv)
{
    hand_timelines();
    resource_bookings();
    port_timelines();
    unseeded_dynamic = 1;
    dynamic_timelines();
    leaf_timelines();
    poll_cost_timelines();
    standing_timelines();
    oldest_and_nested_timelines();
    inline_counts();
    unseeded_dynamic = 0;
    dynamic_seeds();
    steal_timelines();
    steal_seeds();
    steal_pause_timeline();
    steal_park_timeline();
    steal_free_round_trip();
    end_timelines();
    speed_draws();
    conservation();
    if (!(argc > 1 && strcmp(argv[1], "--no-farm") == 0))
        farm_saturation();
    printf("%s\n", failures ? "sim_engine: FAILED" : "sim_engine: ok");
    return failures != 0;
}
