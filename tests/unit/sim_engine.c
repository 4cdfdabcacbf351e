/* sim_engine.c - the simulator against hand-computed timelines, and the saturation of
 * a 1,048,576-task farm on the 2004 Ethernet preset (tests/unit/sim_engine.sh). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sim.h"

static int failures;

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
    /* P = 1: sequential, 5 + 200 + 3 */
    check("simple P=1", run(&t, &m, SIM_SIMPLE, 1, 0, 1, &r), 208);
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
       rank 0: 156 -> 158; the refused group runs here (258); compute 3 (261); END (262). */
    check("dynamic P=2 M=1 refusals", run(&t, &m, SIM_DYNAMIC, 2, 1, 1, &r), 262);
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
    if (!(argc > 1 && strcmp(argv[1], "--no-farm") == 0))
        farm_saturation();
    printf("%s\n", failures ? "sim_engine: FAILED" : "sim_engine: ok");
    return failures != 0;
}
