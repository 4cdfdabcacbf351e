/* sim.h - the predictor runtime's internal header (libwtcrt_sim.a, doc/predictor.md).
 *
 * Four modules, each usable on its own (the unit tests build synthetic trees):
 *   sim/machine.c  machine files (SPEC 5.1) and the extended LogGPS costs
 *   sim/tree.c     the recorded program: call nodes, par statements, leaf tasks
 *   sim/engine.c   the discrete-event simulation of the runtime protocols
 *                  (doc/runtime.md), one executor per mode: sim/mode_simple.c,
 *                  sim/mode_dynamic.c, sim/mode_steal.c (internals: sim/engine.h)
 *   sim/sample.c   sampling, linear interpolation and the bootstrap
 *   sim/advice.c   the master-overload advice (SPEC 5 item 6)
 * and the ABI side: sim/record.c (wtc_* of wtc_abi.h), sim/options.c, sim/report.c.
 */
#ifndef WTCRT_SIM_H
#define WTCRT_SIM_H

#include <stddef.h>
#include <stdio.h>

/* ---- machine files and the extended LogGPS model ----------------------------------- */

/* All times in seconds, sizes in bytes. */
typedef struct sim_machine {
    double L, G;               /* latency, gap per byte */
    double o_sa, o_sb, O_s;    /* send overhead: o_sa + o_sb*P + O_s*k */
    double o_ra, o_rb, O_r;    /* receive overhead: o_ra + o_rb*P + O_r*k */
    double S;                  /* messages of more than S bytes are synchronous */
    double t_m;                /* a master's time to answer one request (advice) */
    double cpu_ratio;          /* target speed / host speed */
    /* beyond SPEC 5.1 (doc/predictor.md): the runtime's waiting strategy and the host */
    double w_yield;            /* a waiting rank only yields this long, then sleeps on */
    double w_wake;             /* the doorbell: a message then costs w_wake more to see */
    double t_child;            /* the runtime's own cost of one child run through a par */
    double t_task_child;       /* optional: more per child of a received TASK (unpacked,
                                  run from a task frame, its result packed), beyond
                                  t_child and the message's per-byte costs (default 0) */
    double t_task_child_fresh; /* optional: the same in new memory (page faults): a TASK
                                  bigger than any the rank had (default t_task_child) */
    double contention;         /* computing slows by this factor when 2+ ranks compute */
    double cores;              /* optional: cores per host, 0 = a core for every rank */
    double w_yield_over;       /* optional: w_yield when P > cores (default w_yield) */
    double ranks_per_node;     /* optional: ranks placed on each node in rank order (0: all
                                  on one); nodes share nothing but the network */
    double L_intra, G_intra;   /* optional: L and G between ranks of one node (default L,
                                  G); such messages use no network port */
    double procs;              /* optional: the largest P calibrated at (0: unknown) */
    double t_poll;             /* optional: the runtime's cost of one poll on the compute
                                  path (dynamic, steal: at every par and before each
                                  child); 0 where the doorbell makes it a load */
    double O_r_result;         /* optional: O_r for a RESULT, whose out: data goes into the
                                  caller's memory, already touched (default O_r: the
                                  other messages unpack into new memory, page faults
                                  and all) */
    double O_s_reuse, G_reuse, O_r_reuse; /* optional: O_s, G, O_r of a message whose
                                  buffers come from memory freed before (default O_s, G,
                                  O_r: fresh memory, page faults and all); which buffers
                                  do is the engine's model of the C library's allocator
                                  (engine.c, reused) */
    double intra_copy;         /* optional: 1 when ranks of one node copy big buffers into
                                  their messages as between nodes (no shared heap:
                                  WTC_SHARED_HEAP=0, SMPI); 0 (default): buffers that
                                  travel by reference stay where they lie (mpi/heap.c) */
    double no_doorbell;        /* optional: 1 when the ranks of a node have no doorbell
                               (SMPI, WTC_DOORBELL=0): a region of a one-node job ends
                               with MPI's barrier; 0 (default): through their shared
                               segment (wtcp_barrier_local) */
    double leaf_wait;          /* optional: 1 when a rank inside the program's code answers
                                  a STEAL or GRANT only at its next poll (no answering
                                  thread: SMPI, WTC_ANSWER=0); 0 (default): its answering
                                  thread does (mpi/answer.c) */
    double t_launch, t_launch_p; /* optional: the job's own costs at P ranks, each
                                  a + a_p P (0: not known, left out): from mpiexec's
                                  start to main, from there until every rank has started
                                  MPI (rank 0 runs main meanwhile: doc/runtime.md
                                  "Start-up"), from main's end to mpiexec's end */
    double t_start, t_start_p;
    double t_end, t_end_p;
    double t_page_shared;      /* optional: a page main touches first costs this much more
                                  in the node's shared heap than in private memory ... */
    double t_page_free;        /* ... and this much to give back at the job's end (0: left
                                  out); only where 2+ ranks share rank 0's node and big
                                  buffers stay where they lie (intra_copy 0) */
    double t_page_map;         /* optional: a page of the node's shared heap that another
                                  rank touched first costs a rank this much the first time
                                  it reads it (its page table maps it: a fault a 64 KiB);
                                  charged on the in: data of the calls a rank of rank 0's
                                  node other than rank 0 computes (engine.c, map_pages;
                                  0: left out) */
    double t_pack_child, t_store_child; /* optional: the sender of a TASK per child,
                                  packing it (before the TASK leaves) and storing its
                                  result from the RESULT, beyond O_s and O_r_result on the
                                  bytes (0: left out) */
    double speed_spread;       /* optional: ranks run up to this fraction faster or slower
                                  than the recording, each its own speed for a whole run,
                                  and messages take as much longer or shorter, different
                                  from run to run (default SIM_SPEED_SPREAD; 0: every run
                                  as recorded). The modes whose decisions follow the
                                  timing (wtcp_mode.timed) are simulated several times
                                  with such draws (sim_run) */
    char name[128];
    char source[512];          /* where it was read from (for the report) */
    unsigned long long follows; /* the optional keys the file left out, which take their
                                  source key's value (w_yield_over: w_yield, L_intra: L,
                                  G_intra: G, O_r_result: O_r, O_s_reuse: O_s,
                                  G_reuse: G, O_r_reuse: O_r), also when --wtc-vary
                                  sets that key */
} sim_machine;

/* speed_spread where a machine file leaves it out: a few per cent, what the ranks of a
   job show from run to run. With 1 % two recordings of fib 36 whose leaves differed by
   0.4 % in all still gave a dynamic P = 8 row 16 % apart; with 3 % no row of three
   recordings was more than 4.6 % apart (doc/predictor.md section 3, "The ranks'
   speeds"). */
#define SIM_SPEED_SPREAD 0.03

/* 1 when a job of P ranks on machine m has a shared heap on rank 0's node (2 or more
   ranks there, big buffers left where they lie: intra_copy 0), whose pages cost
   t_page_shared and t_page_free (doc/predictor.md section 4). */
int sim_shared_heap(const sim_machine *m, int P);
/* The ranks of a node at P ranks: ranks_per_node, or P where it is absent or at least P
   (every rank on one node). */
int sim_ranks_per_node(const sim_machine *m, int P);

/* Parses machine-file text; 'file' names it in messages. Returns 0, or -1 with
   "file:line: ..." (or "file: missing key 'X'") in err. */
int sim_machine_parse(const char *text, const char *file, sim_machine *m, char *err,
                      size_t errsz);
/* Reads and parses a file. */
int sim_machine_load(const char *path, sim_machine *m, char *err, size_t errsz);
/* The compiled-in text of a shipped preset ("ethernet-mpich-2004", with or without
   ".conf"), or NULL. */
const char *sim_machine_preset(const char *name);
/* The names of the compiled-in presets, ", "-separated, into buf. */
void sim_machine_preset_names(char *buf, size_t size);
/* Sets number key 'key' (any key of a machine file but name) to the text 'val', checked
   as the parser checks it (m NULL: only checks). Returns 0, or -1 with a message that
   lists the keys when the key is unknown. */
int sim_machine_set(sim_machine *m, const char *key, const char *val, char *err,
                    size_t errsz);
/* The value of number key 'key' in m (NaN when there is no such key). */
double sim_machine_get(const sim_machine *m, const char *key);
/* The number keys of a machine file, "L, G, o_sa, ...", for messages. */
const char *sim_machine_keys(void);
/* Writes m in machine-file syntax. */
void sim_machine_write(FILE *f, const sim_machine *m, const char *comment);

/* ---- the recorded program ------------------------------------------------------------ */

/* A call: runs its pars in order (each after its own compute t_before), then t_after.
   A leaf task is a node without pars: t_after is its whole time. */
typedef struct sim_node {
    double t_after;       /* host seconds */
    int first_par;        /* index in pars, -1 when none */
    int leaf;             /* a leaf task (sample-able), see sim/sample.c */
    int depth;            /* wtc_depth of the call (-1: the par of a region in main) */
    unsigned task_bytes;  /* its share of a TASK payload (wtcrt_task_child_bytes) */
    unsigned result_bytes;/* its share of a RESULT payload */
    unsigned task_copied; /* of these, what the runtime copies into the message */
    unsigned result_copied; /* (wtcrt_task_child_copied; big buffers go by reference) */
} sim_node;

typedef struct sim_par {
    double t_before;      /* the caller's compute since its previous par (or start) */
    int first_child;      /* children: nodes first_child .. first_child+nchild-1 */
    int nchild;
    int cond;             /* 0: the children run sequentially here, no messages */
    int next;             /* the caller's next par, -1 when none */
    double t_spawn;       /* spawning the children (arena, args copies): computed before
                             them only where the runtime opens the par, not at P = 1 nor
                             in a simple-mode range of one rank (doc/predictor.md 1) */
    int site;             /* the par statement: index in sim_tree.sites, -1 unknown */
    int depth;            /* the wtc_depth its cond saw: the caller's depth, more where a
                             recursive function called directly (folded into the caller's
                             node) opened it, since a direct call goes one level down */
} sim_par;

/* A par statement in the source (wtc_site of wtc_abi.h), for the advice's notes. */
typedef struct sim_site {
    const char *file;
    int line, col;
} sim_site;

/* One parallel region: a root call run on rank 0. */
typedef struct sim_region {
    int root;
    unsigned begin_bytes; /* REGION_BEGIN payload: mode, masters, batch, globals */
    double main_at;       /* main's own time before the region (host seconds; set by
                             sim_tree_add_region from main_time): where the region
                             starts on a predicted timeline */
    int mode, masters;    /* the source's (wtcc --mode, else mode:); 0: not known */
} sim_region;

typedef struct sim_tree {
    sim_node *nodes;
    int nnodes, capnodes;
    sim_par *pars;
    int npars, cappars;
    sim_region *regions;
    int nregions, capregions;
    double main_time;     /* host seconds of main outside regions */
    long main_faults;     /* minor page faults of main outside regions: pages it touched
                             first, which lie in the node's shared heap at P >= 2
                             (doc/predictor.md section 4, "The job") */
    int calls_mpi, nshared; /* the program includes <mpi.h>, shares bounds: how its job
                             starts (wtcp_start_kind, with the machine's nodes); set from
                             the program linked in before simulating */
    int built_mode;       /* it was built with wtcc --mode (the regions' mode is that, not
                             the source's mode: clause; the advice says so); set so too */
    double *seq;          /* sequential time of each node's subtree (sim_tree_finish) */
    unsigned char *spawns;/* the subtree has a par with cond true (sim_tree_finish) */
    sim_site *sites;
    int nsites, capsites;
} sim_tree;

void sim_tree_init(sim_tree *t);
void sim_tree_free(sim_tree *t);
/* Appends n consecutive nodes (zeroed, no pars); returns the first index. */
int sim_tree_add_nodes(sim_tree *t, int n);
/* Appends a par to node 'caller' (after its existing pars); the children must have
   been added with sim_tree_add_nodes. Returns the par index. */
int sim_tree_add_par(sim_tree *t, int caller, double t_before, int first_child,
                     int nchild, int cond);
int sim_tree_add_region(sim_tree *t, int root, unsigned begin_bytes);
/* Computes seq[] (call after every time is known). */
void sim_tree_finish(sim_tree *t);
/* The sequential time: main's own and every region's (host seconds; finish done). */
double sim_tree_seq(const sim_tree *t);
/* Main's own time after its first region (*after) and the sequential time (*seq), host
   seconds (sim_tree_finish done); 1 when *after is over SIM_REPL_MAIN_SHARE of *seq.
   With replicas, main ran on after the region on the data the copies left, not on the
   program's results (the closest pair's grid check: 1.03 s so against 0.38 s), so the
   recording is made again without them (sim/record.c) or the report says it. 0 without
   a region. */
#define SIM_REPL_MAIN_SHARE 0.1
int sim_tree_main_after(const sim_tree *t, double *after, double *seq);
/* Appends a par site; returns its index. */
int sim_tree_add_site(sim_tree *t, const char *file, int line, int col);
/* A copy of t (finished) in which the pars of site 'site' called at depth >= depth run
   their children sequentially (cond false): the program with a coarser cut-off there.
   It shares t's nodes, regions and sites; free it with sim_tree_cut_free. */
void sim_tree_cut(const sim_tree *t, int site, int depth, sim_tree *out);
/* The other way: a copy of t in which the pars of site 'site' whose cond was false spawn
   their children (recorded one by one: a cond-false par's children are the leaf tasks),
   the program with the cut-off one level deeper there. Returns the children that became
   tasks. Shares as sim_tree_cut does; free it with sim_tree_cut_free. */
long sim_tree_deepen(const sim_tree *t, int site, sim_tree *out);
void sim_tree_cut_free(sim_tree *c);

/* ---- the simulation ---------------------------------------------------------------- */

/* The modes, numbered as WTC_MODE_* of wtc_abi.h (the core's wtcp_mode_get takes them). */
enum { SIM_SIMPLE = 1, SIM_DYNAMIC = 2, SIM_STEAL = 3, SIM_NMODES = 3 };

typedef struct sim_setting {
    int mode;             /* SIM_SIMPLE / SIM_DYNAMIC / SIM_STEAL */
    int procs, masters, batch; /* masters: dynamic (reduced to P-1 as the runtime does);
                                  batch: dynamic (0 = 1), steal (0 = no cap) */
    int unseeded;         /* tests only (tests/unit/sim_engine.c): the mode's row without
                             its seeds (wtcp_unseeded), so that a small tree still reaches
                             the masters' grants; the runtime always seeds */
    unsigned draw;        /* which of the runs sim_run simulates: the victim sequence of a
                             mode whose thieves choose at random (wtcp_victim_seed; 0: the
                             runtime's) and the ranks' speeds in a timed mode (0: the
                             recorded ones). Set by sim_run, 0 elsewhere */
} sim_setting;

/* How many runs sim_run simulates for a setting of a mode whose thieves choose at
   random or whose decisions follow the timing (draws of victim sequences and of the
   ranks' speeds, machine key speed_spread), the result's time being their mean, its
   other figures those of the run nearest the mean. One run is one draw: the same recording of n-queens 13 gave 0.0111-0.0121 s
   at P = 16 and 0.0040-0.0047 s at P = 64 from draw to draw (doc/predictor.md section
   3). Default SIM_RUNS (--wtc-runs). */
#define SIM_RUNS 7
#define SIM_RUNS_MAX 1000
/* The first draws simulated, and how close (a fraction of their mean) their slowest
   and fastest must be for the rest to be left out: a setting whose first draws agree
   that well does not turn on its timings, and its mean would move by less than that
   (sim_run_timeline). */
#define SIM_RUNS_FIRST 3
#define SIM_RUNS_AGREE 0.01
void sim_set_runs(int runs);

/* Where the time of the whole program went (seconds summed over the workers, or over
   the masters for busy). */
typedef struct sim_result {
    double time;          /* predicted run time of the whole program */
    double regions;       /* of which the parallel regions (main's own time excluded) */
    double compute, comm, wait_master, wait_children, idle; /* worker totals
                                   (wait_master: 0, nobody waits for a master since
                                   dynamic mode's requests stand; kept for the report) */
    int nworkers, nmasters;
    double master_busy;   /* master totals */
    long long messages, bytes;
    long long remote_calls; /* children run on another rank */
    long long grants, refusals; /* dynamic: groups sent to granted ranks / granted
                                   ranks given back (nothing pending); steal: successful
                                   steals (TASK answers) / NOWORK answers */
    long long steals;     /* steal: STEAL requests sent */
    long long events;     /* messages simulated (for the speed figure) */
    double job;           /* of time, the job's own: its launch, MPI's start where main
                             did not cover it, its end (machine file: t_launch, t_start,
                             t_end; doc/predictor.md section 4) */
    int runs;             /* draws simulated (sim_run: 1 where nothing is drawn, else
                             SIM_RUNS_FIRST when those agreed, else all of them) */
    double time_min, time_max; /* the fastest and slowest of them (time: their mean) */
} sim_result;

/* Simulates every region of t (sim_tree_finish done) under one setting on machine m,
   and adds main's own time. Returns 0, or -1 when the setting is impossible. */
int sim_run(const sim_tree *t, const sim_machine *m, sim_setting s, sim_result *r);
/* Simulates one region; r accumulates (time += the region's time on rank 0). */
int sim_run_region(const sim_tree *t, int region, const sim_machine *m, sim_setting s,
                   sim_result *r);

/* The predicted run of one setting as the program's --wtc-trace and --wtc-stats show
   the real one (sim/timeline.c): per simulated rank its counters (wtcrt_stats, from
   wtcrt.h) and, when traced, its changes of state on the program's clock. */
struct wtcrt_stats;
struct wtcrt_event;
typedef struct sim_timeline {
    int P;
    int trace;                 /* keep the events (else only the counters) */
    unsigned char *full;       /* per rank: WTCRT_MAX_EVENTS reached, the lane closed */
    struct wtcrt_stats *st;    /* per rank */
    struct wtcrt_event **ev;   /* per rank: B/E events, ts in microseconds */
    long *nev, *capev;
    int *state;                /* the state each rank is in (WTCRT_S_*) */
    double *since;             /* ... since when (program seconds) */
    double base;               /* the current region's time 0 on the program's clock */
} sim_timeline;

void sim_timeline_init(sim_timeline *tl, int P, int trace);
void sim_timeline_free(sim_timeline *tl);
/* Rank 'rank' is in 'state' from program time t on (a time before its last change is
   taken as that change's: lanes stay ordered). */
void sim_timeline_mark(sim_timeline *tl, int rank, int state, double t);
/* Closes every lane at program time t (the end of the run). */
void sim_timeline_close(sim_timeline *tl, double t);
/* sim_run, also filling tl (NULL: none) with the predicted run of setting s. */
int sim_run_timeline(const sim_tree *t, const sim_machine *m, sim_setting s,
                     sim_result *r, sim_timeline *tl);

/* Extended LogGPS (SPEC 5 item 4): send / receive overhead of k bytes on P ranks. */
/* A per-byte cost for buffers the allocator reuses: 'reuse' where known (> 0), else the
   fresh one (a machine built without a file: 0 means not given). */
double sim_reuse_cost(double fresh, double reuse);
double sim_o_send(const sim_machine *m, int P, double k, int reuse);
double sim_o_recv(const sim_machine *m, int P, double k, int result, int reuse);

/* ---- sampling (SPEC 5 item 2) --------------------------------------------------------- */

typedef struct sim_boot {
    double mean;          /* bootstrap median of the mean */
    double lo, hi;        /* relative error interval of the mean, e.g. -0.03, +0.04 */
} sim_boot;

/* Bootstrap of the mean of x[0..n-1]: N = 40 resamples of size n, 2.5 % tails dropped. */
sim_boot sim_bootstrap(const double *x, int n, unsigned long long *seed);
/* Fills t[i] for every i not marked in have[] by linear interpolation in index order
   from the nearest marked neighbours (constant beyond the first / last). */
void sim_interpolate(double *t, const unsigned char *have, long n);
/* The i-th of n evenly spread positions in [0, len): floor(i*len/n), so the positions
   for 2n contain those for n. */
long sim_spread(long i, long n, long len);
/* A random position within the i-th of n equal strata of [0, len) (sim/sample.c). */
long sim_spread_jittered(long i, long n, long len, unsigned long long *seed);

/* ---- advice (SPEC 5 item 6) ------------------------------------------------------------ */

/* The smallest t_s that keeps a master of w workers from overloading:
   (f-1)*w/t_s <= 1/t_m  <=>  t_s >= (f-1)*w*t_m. */
double sim_advice_min_ts(int f, double w, double t_m);
/* The smallest real M with (f-1)*((P-M)/M)*t_m <= t_s, i.e. M >= P/(1 + t_s/((f-1)t_m)). */
double sim_advice_min_masters(int P, double t_s, int f, double t_m);
/* Whether M masters are enough on P ranks. */
int sim_advice_ok(int P, int M, double t_s, int f, double t_m);

/* ---- the prediction report ------------------------------------------------------------- */

enum { SIM_FMT_TABLE, SIM_FMT_CSV, SIM_FMT_JSON };

/* What the advice needs from the recorded tree: per depth of the pars that spawn, the
   branching factor and the largest subtree below. */
typedef struct sim_cutinfo {
    int depth;            /* depth of the spawning call */
    int f;                /* largest branching factor at that depth */
    double t_s;           /* largest sequential subtree time of a child (host s) */
    long ntasks;          /* children at that depth */
} sim_cutinfo;

/* ---- prog.predict's options (SPEC 5) ---------------------------------------------------- */

#define SIM_MAXLIST 64
enum { SIM_SAMPLE_ERROR, SIM_SAMPLE_N, SIM_SAMPLE_ALL };

/* --wtc-vary=KEY:V1,V2,...: predict with each value of a machine key in turn (two
   such options: every pair). The values are kept as text, checked by sim_machine_set. */
#define SIM_MAXVARY 2
typedef struct sim_vary {
    char key[32];
    const char *val[SIM_MAXLIST];
    int n;
} sim_vary;

typedef struct sim_opts {
    int procs[SIM_MAXLIST], nprocs;
    int masters[SIM_MAXLIST], nmasters;
    int batch[SIM_MAXLIST], nbatch;
    unsigned char modes[SIM_NMODES + 1]; /* modes[SIM_SIMPLE ...]: asked for */
    const char *machine;       /* --wtc-machine, NULL: the default */
    int sample;                /* SIM_SAMPLE_* */
    long sample_n;
    double error_pct;
    int format;                /* SIM_FMT_* */
    int replicate;             /* subtree replication: the largest replication factor
                                  (--wtc-replicate=on|off|N; on = SIM_REPLICATE_ON) */
    const char *trace;         /* --wtc-trace=FILE: the predicted timeline (one setting) */
    int stats;                 /* --wtc-stats: the predicted per-rank table (one setting) */
    const char *plot;          /* --wtc-plot=FILE.svg: speed-up against P */
    sim_vary vary[SIM_MAXVARY];/* --wtc-vary=KEY:V1,V2,...: what-if sweeps */
    int nvary;
    int help;
    int depth[SIM_MAXLIST], ndepth; /* --wtc-depth=LIST (0 values: the program's cond:) */
    const char *save_profile;  /* --wtc-save-profile=FILE */
    const char *profile;       /* --wtc-profile=FILE: predict from it, no run */
    int recording;             /* an option of the recording was given */
    int runs;                  /* --wtc-runs: draws per dynamic or steal setting */
} sim_opts;

#define SIM_REPLICATE_ON 16

/* How many settings (rows of the report) the options name (sim/report.c). */
int sim_settings_count(const sim_opts *o);

/* Removes every --wtc-* option from argv (argv[argc] stays NULL) into o, with the
   defaults of SPEC 5 for what is not given. Returns 0, or -1 with a message in err. */
int sim_opts_parse(int *argc, char **argv, sim_opts *o, char *err, size_t errsz);
extern const char sim_usage[];

/* Finds the machine: --wtc-machine (a path, or the name of a preset in $WTC_LIBDIR/
   machines or compiled in), else $WTC_LIBDIR/machines/host.conf, else
   wtcrt_sim_default_machine, else the compiled-in ethernet-mpich-2004. */
int sim_machine_find(const char *spec, sim_machine *m, char *err, size_t errsz);

/* What the recording learnt about the leaf tasks (sim/record.c). */
#define SIM_RETIME_PASSES 6    /* the most timings of a sampled leaf (record.c retime) */
typedef struct sim_sampling {
    long leaves, executed;
    long same_args;            /* leaves not run that took the time of run leaves with
                                  the same arguments (not interpolated) */
    double total;              /* estimated total leaf time, host seconds */
    double err_lo, err_hi;     /* its relative error interval (bootstrap) */
    int mode;
    long n;
    double pct;
    int chunks;                /* sampled in this many chunks: the regions' captures
                                  that outgrew WTC_PREDICT_MEM_MB (0: none did) */
    long in_place;             /* leaves run in place because they write out: buffers */
    long dear;                 /* ... because copying their inputs costs too much */
    long preempted;            /* timings by CPU time: another process ran */
    double pass1, pass2;       /* the sampled leaves' totals in their first two timings */
    long outliers;             /* ... leaves whose two timings were over 10 % apart */
    int passes;                /* the most timings of one leaf (record.c retime), at
                                  most SIM_RETIME_PASSES */
    double pass_kept;          /* the sampled leaves' total of the times kept */
    int replicate;             /* the --wtc-replicate limit (0: off) */
    long repl_subtrees, repl_calls, repl_leaves; /* replicas and what they hold */
    long repl_checked, repl_unequal; /* pars whose child 1 was run to check child 0 */
    double repl_maxdiff;       /* ... and the largest difference of the two, a fraction */
    double repl_main_after, repl_main_seq; /* recorded again without replication because
                                  main's own time after its first region was this much of
                                  this sequential time with replicas (sim_tree_main_after;
                                  0: it was not; not saved in profiles) */
    double rec_seconds;        /* the recording's own time (program, sampling) */
    char shared[128];          /* the globals the program shares as bounds (wtc_share_max
                                  / _min), comma-separated; "" when none (not saved in
                                  profiles) */
    char apart[128];           /* --wtc-depth=LIST: its depths recorded by runs of their
                                  own, comma-separated (record_apart; not saved) */
} sim_sampling;

/* ---- plots (sim/plot.c) -------------------------------------------------------------- */

/* One line of a plot: n points (x ascending), a legend label. */
typedef struct sim_plot_series {
    char label[64];
    double *x, *y;
    int n;
} sim_plot_series;

/* A plot of series against x: speed-up against P (log-scale x, the ideal line y = x)
   today; a predicted time against a varied parameter is the same call with linear x,
   no ideal line and its own labels. */
typedef struct sim_plot {
    const char *title, *subtitle, *xlabel, *ylabel;
    int xlog;                  /* x on a log2 scale (processor counts) */
    int ideal;                 /* draw y = x (perfect speed-up) */
    const sim_plot_series *s;
    int ns;
    int best_series, best_point; /* the point marked as the best (-1: none) */
    const char *best_label;    /* its label, after "best: " */
} sim_plot;

/* Writes p as a self-contained SVG file (atomically); 0, or -1 with errno set. */
int sim_plot_write(const char *path, const sim_plot *p);

/* One setting of the report and its prediction. */
typedef struct sim_row {
    sim_setting s;
    int di;               /* index in sim_opts.depth, -1: the recorded cut-off */
    int depth;            /* that depth (--wtc-depth), -1: the recorded cut-off */
    sim_result r;
} sim_row;

/* ---- advice at source lines (sim/notes.c, doc/predictor.md 6.2) ---------------------- */

#define SIM_NOTE_GAIN 0.05     /* a note for a predicted gain of 5 % or more */

/* What a note is about; sim_note_kind names it ("cutoff-fine", ...) for JSON. */
enum { SIM_NOTE_CUTOFF_FINE, SIM_NOTE_CUTOFF_COARSE, SIM_NOTE_MODE, SIM_NOTE_MASTERS,
       SIM_NOTE_BATCH, SIM_NOTE_NKINDS };
const char *sim_note_kind(int kind);

/* One note: a comparison of two predictions at a par statement. Every format prints
   these fields (text is the line as the table prints it); none computes them again. */
typedef struct sim_note {
    int kind;                  /* SIM_NOTE_* */
    const char *file;          /* the par: file:line:col; the program, line 0, unknown */
    int line, col;
    sim_setting rec, was;      /* the setting recommended and the one it replaces */
    double rec_s, was_s;       /* their predicted times */
    double gain_s, gain_pct;   /* was_s - rec_s, and that in percent of was_s */
    int depth;                 /* D of the advised "wtc_depth < D", -1: none */
    char clause[48];           /* the source change ("mode: simple;"), "": none */
    char option[64];           /* the option that makes it ("--wtc-batch=1024"), "": none */
    char *text;                /* "file:line:col: note: ..." */
} sim_note;

/* The notes of one prediction; without one, why not (after "none"). */
typedef struct sim_note_list {
    sim_note *v;
    int n, cap;
    char none[192];
    char ctx[160];             /* the --wtc-vary values they are for, "": none */
} sim_note_list;

/* Fills L with the notes for the table v[0..n-1] (best: its best row) on machine m:
   each change of cut-off, mode, masters or batch predicted to gain SIM_NOTE_GAIN or
   more. ctx: NULL, or the --wtc-vary values they are for ("L = 1e-05"), which every
   note's text then names. Returns the time spent simulating (events: messages added). */
double sim_notes_find(sim_note_list *L, const sim_tree *t, const sim_machine *m,
                      const sim_opts *o, const sim_row *v, int n, int best,
                      const char *program, const char *ctx, long long *events);
void sim_notes_free(sim_note_list *L);
/* The table's section "advice at source lines": its heading and L's lines, or "none". */
void sim_notes_print(FILE *out, const sim_note_list *L);
/* The heading of that section for a --wtc-vary sweep ("for each value of L") ... */
void sim_notes_sweep_heading(FILE *out, const sim_opts *o);
/* ... and L's lines alone, as gcc prints its notes (on stderr with CSV and JSON); none:
   "L = 1e-05: none (why)" when L has none (a sweep's table). */
void sim_notes_lines(FILE *out, const sim_note_list *L, int none);

/* The best setting found for one P (the table --wtc-auto reads). */
typedef struct sim_best {
    sim_setting s;
    int depth;                 /* --wtc-depth, -1: the program's cond: */
    double time;               /* predicted, s */
} sim_best;

/* Prints the predictions of every setting asked for, the best one and the advice; writes
   the trace, the per-rank table and the plot asked for. cuts: NULL, or the tree cut at
   each o->depth[] (sim_tree_cut_depth); best: NULL, or o->nprocs entries that receive the
   best setting of each P. Returns 0, or -1 when one of those could not be made (a message
   on stderr). */
int sim_report(FILE *out, sim_tree *t, const sim_machine *m, const sim_opts *o,
               const sim_sampling *smp, const char *program, sim_tree *cuts,
               sim_best *best);

/* ---- cut-off depths and profiles (sim/cut.c, sim/profile.c) ------------------------------ */

/* Builds in out (sim_tree_finish done) the tree that recording with every cond:
   replaced by wtc_depth < D would give, from t (finished) recorded deeper. -1 when t
   was cut above D somewhere (then it cannot tell). */
int sim_tree_cut_depth(const sim_tree *t, int D, sim_tree *out);

/* --wtc-depth=LIST: the recordings of its depths but the deepest, each by a run of its
   own (sim/record.c record_apart), kept beside the deepest's and in its profile. */
typedef struct sim_aparts {
    int n;
    int depth[SIM_MAXLIST];
    sim_tree tree[SIM_MAXLIST];
} sim_aparts;

struct wtc_program;
/* Writes the profile (tmp + rename): t, s, the depth it was recorded to (-1: the
   program's cond:), the recordings apart ap (NULL: none), and nbest rows of best
   settings computed on machine m (mspec: how it was named). 0, or -1 with err set. */
int sim_profile_save(const char *path, const struct wtc_program *prog, const sim_tree *t,
                     const sim_sampling *s, int rec_depth, const sim_aparts *ap,
                     const sim_best *best, int nbest, const sim_machine *m,
                     const char *mspec, char *err, size_t errsz);
/* Reads a profile of prog into t (finished), s and ap (its trees finished, each to be
   freed by sim_profile_tree_free). 0, or -1 with err set. */
int sim_profile_load(const char *path, const struct wtc_program *prog, sim_tree *t,
                     sim_sampling *s, int *rec_depth, sim_aparts *ap, char *err,
                     size_t errsz);
/* Frees a tree sim_profile_load filled, the file names of its par statements with it
   (a recorded tree's are the program's own). */
void sim_profile_tree_free(sim_tree *t);

/* The predictor's own exits (its errors: out of memory, a bad count under --check, a
   file it cannot write): record.c's exit handler keeps their status, where an exit(N)
   of the program ends with 0 after the report. Every exit of runtime/sim/ goes through
   sim_exit. */
extern int sim_exiting;
#define sim_exit(status) (sim_exiting = 1, exit(status))

#endif
