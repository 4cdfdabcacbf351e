/* proto.h - the protocol core: every decision of every mode, once (doc/runtime.md).
 *
 * Plain C, no MPI, no clock, no state but the decision log: the MPI runtime (runtime/mpi/, the
 * program) and the simulator (runtime/sim/, the predictor) both call these functions,
 * so the simulator replays the very decisions the program takes. What a decision
 * needs (the rank's clock, its par frames) is passed in; what it decides is returned.
 *
 * A new mode is a row of wtcp_modes[] plus its executors' functions.
 */
#ifndef WTCP_PROTO_H
#define WTCP_PROTO_H

#include <stdio.h>

/* ---- modes ---------------------------------------------------------------------- */

typedef struct wtcp_mode {
    int id;             /* WTC_MODE_* of wtc_abi.h */
    const char *name;   /* as in mode:, wtcc --mode, --wtc-mode */
    int masters;        /* has master ranks (dynamic) */
    int ranges;         /* children own rank ranges (simple): a call of one rank is a leaf */
    int seeds;          /* a par whose call owns several ranks first gives each other
                           sub-range its children, as simple mode does, then works as
                           the mode does (steal, dynamic: wtcp_seed_count) */
    int end_barrier;    /* a region ends with a barrier of every rank once each has its
                           REGION_END (dynamic, steal: control messages may still be on
                           their way); rank 0 goes on after it (wtcp_barrier_*; the
                           others' regions too where it goes by the tree:
                           wtcp_end_barrier) */
    int spawn_polls;    /* while a par's body spawns, every WTCP_SPAWN_POLL children it
                           answers thieves from the children spawned so far (steal:
                           wtcp_spawn_poll_due) */
    int inlines;        /* a par opened while its rank has pending children runs them
                           as direct calls (dynamic, steal: wtcp_par_inline) */
    int leaf_answers;   /* the message that takes work from a rank (steal: a STEAL;
                           dynamic: the GRANT of its request) is answered while the rank
                           runs the program's code, a leaf too, not at its next poll
                           (doc/runtime.md "Answers from inside a leaf") */
    int random_victims; /* a rank looking for work asks a victim chosen at random
                           (steal: wtcp_victim), so runs of the same program differ in
                           whom they ask; the simulator predicts several (sim_run) */
    int timed;          /* where a child runs depends on when messages arrive (dynamic,
                           steal: a request, a steal, a grant), so runs of the same
                           program differ with how fast each rank happens to run; the
                           simulator predicts several (sim_run, machine key
                           speed_spread). Simple mode's ranges are fixed before it runs */
} wtcp_mode;

extern const wtcp_mode wtcp_simple, wtcp_dynamic, wtcp_steal;

/* The same mode without seeds (its row with seeds = 0): the simulator's tests of the
   machinery after the start (sim_setting.unseeded); no runtime runs it. */
const wtcp_mode *wtcp_unseeded(const wtcp_mode *mode);

/* The mode of id (WTC_MODE_SIMPLE ...), or NULL for an unknown id. */
const wtcp_mode *wtcp_mode_get(int id);
/* The mode called name, or NULL. */
const wtcp_mode *wtcp_mode_named(const char *name);
/* "simple, dynamic or steal", for messages. */
const char *wtcp_mode_list(void);

/* ---- roles: who is a master, who manages whom ---------------------------------------- */

typedef struct wtcp_roles {
    int P;  /* ranks */
    int M;  /* masters: ranks P-M .. P-1 (0 unless the mode has masters) */
    int W;  /* workers: ranks 0 .. W-1 */
} wtcp_roles;

/* Masters of a region of mode on P ranks asked for 'want' (0: not given, taken as 1):
   reduced to P-1 (at least one worker). *reduced is set when it had to be. */
int wtcp_masters(const wtcp_mode *mode, int P, int want, int *reduced);
wtcp_roles wtcp_roles_make(const wtcp_mode *mode, int P, int masters);
int wtcp_is_master(wtcp_roles r, int rank);
/* The rank of worker w's master: contiguous near-equal blocks, rank 0 in master 0's. */
int wtcp_master_of(wtcp_roles r, int w);
/* Workers [*lo, *hi) managed by the master of rank 'master'. */
void wtcp_managed(wtcp_roles r, int master, int *lo, int *hi);

/* ---- simple mode: children over rank ranges -------------------------------------------- */

/* A par of k children owning n ranks is cut into s = min(k, n) sub-ranges. */
int wtcp_split_count(int k, int n);
/* First child of sub-range j (children i with floor(i*s/k) == j). */
int wtcp_split_first(int j, int k, int s);
/* First rank of sub-range j of [lo, lo+n). */
int wtcp_split_lo(int lo, int n, int j, int s);
/* The ranks a region's root owns: every worker (all P but the masters) where children
   own ranges or seeds (simple, steal, dynamic), else 1. Ranks 0 .. that - 1. */
int wtcp_root_ranks(const wtcp_mode *mode, wtcp_roles r);
/* The seeding start (steal and dynamic mode): a par of k children whose call owns n ranks is split into this
   many sub-ranges (1: none), sub-range j > 0 getting its children in one TASK that owns
   its ranks, exactly as simple mode splits; sub-range 0's children stay here, pending
   for thieves like any par's. Spreading the top of the tree at once, instead of
   waiting for thieves, costs a thief nothing later and spares the start-up the time a
   busy victim takes to answer (a whole leaf task: doc/runtime.md "steal mode"). */
int wtcp_seed_count(const wtcp_mode *mode, int k, int n);

/* A par's body spawning many children (a flat farm: par p = 0 to W * H - 1) would keep
   every thief waiting until the loop ends (1 M pixels: 50-70 ms of idle ranks). In a
   mode with spawn_polls, after every WTCP_SPAWN_POLL-th child of a par the spawning
   rank answers the STEALs that have come (and nothing else: RESULTs and the rest wait
   for the par's close), giving from the *front* of the children spawned so far, so the
   pending ones stay contiguous while the body appends; the par's close then runs, seeds
   or splits only those still pending (doc/runtime.md "steal mode"). */
#define WTCP_SPAWN_POLL 1024
static inline int wtcp_spawn_poll_due(const wtcp_mode *mode, int nch)
{
    return mode->spawn_polls && nch % WTCP_SPAWN_POLL == 0;
}
/* Whether a par whose cond: holds runs its children at once, in order, as direct calls
   of their parallel clones (WTC_INLINE: no frame, no copy of their arguments) instead
   of spawning them into a frame: in a mode that inlines, when its call owns this rank
   alone, the rank already has pending children (work a thief or a grant can take:
   'pending' > 0), and its pars come fast: 'grain', the rank's recent time per par
   (wtcp_grain), is under WTCP_INLINE_GRAIN. A par spawned into a frame costs about
   55 ns (fib without a cut-off, mpi/par.c); where pars come one a microsecond or
   slower that is 5 % or less, and the frames are worth more: an inline child hides its
   later siblings from thieves until it returns, and a heavy-tailed tree (UTS: 2.4 us a
   par) then ran 10-15 % slower at P = 2, its thieves getting small pieces from recent
   frames instead of the oldest. Where pars come faster, spawning is what costs (fib 40
   with cond: n > 1 at -n 2: 4.5 s spawned, 1.4 s inline; plain C 0.3 s). Before each
   child but the first an inline par polls and, once the rank has no pending children
   left, spawns the rest into a frame after all (wtc_par_next: wtcp_par_convert).
   doc/runtime.md "Inline pars". */
#define WTCP_INLINE_GRAIN 1e-6
#define WTCP_GRAIN_WINDOW 256u /* pars per look at the clock */
typedef struct wtcp_grain {
    unsigned n;   /* pars counted */
    double t0;    /* the clock at the last look (< 0: none yet) */
    double iv;    /* seconds per par over the last window (1e300 before the first) */
} wtcp_grain;
/* A region starts at 'now': no window measured yet, so its first pars spawn. */
static inline void wtcp_grain_start(wtcp_grain *g, double now)
{
    g->n = 0;
    g->t0 = now;
    g->iv = 1e300;
}
/* k more pars (cond true; the MPI runtime counts those its fast path ran inline at
   its next look), in a mode that inlines (else nothing is counted): 1 when the executor
   is to read its clock and pass it to wtcp_grain_mark (once WTCP_GRAIN_WINDOW or more
   have come since the last look). */
static inline int wtcp_grain_add(const wtcp_mode *mode, wtcp_grain *g, unsigned k)
{
    if (!mode->inlines || !k)
        return 0;
    g->n += k;
    return g->n >= WTCP_GRAIN_WINDOW;
}
static inline void wtcp_grain_mark(wtcp_grain *g, double now)
{
    g->iv = (now - g->t0) / g->n;
    g->t0 = now;
    g->n = 0;
}
static inline int wtcp_par_inline(const wtcp_mode *mode, int pending, const wtcp_grain *g,
                                  int lo, int hi)
{
    return mode->inlines && pending > 0 && g->iv < WTCP_INLINE_GRAIN && hi - lo <= 1;
}
/* Before a child but the first of a par running inline: the rest go into a frame when
   the rank has nothing pending left. */
static inline int wtcp_par_convert(int pending)
{
    return pending == 0;
}

/* Whether a call that owns ranks [lo, hi) and gives them up unspread (its first par
   does not spread: cond false; or it returns without one, the region's root excepted)
   hands back the ranks other than its own, lo + 1 .. hi - 1: in dynamic mode, where a
   master counts an owned rank busy until told it is idle (an IDLE on its behalf to its
   master), and would otherwise never grant it. Steal mode's unseeded ranks steal
   anyway; simple mode's have nothing to do. */
int wtcp_hands_back(const wtcp_mode *mode, int lo, int hi);
/* The ranks a rank has sent a seed whose RESULT has not come back (each executor keeps
   one per rank; zeroed: empty). */
typedef struct wtcp_seeds {
    int *v;
    int n, cap;
} wtcp_seeds;
/* A seed went to rank 'to': 0, or -1 out of memory. */
int wtcp_seeds_add(wtcp_seeds *s, int to);
/* The RESULT of the seed sent to 'to' came: 0, or -1 when none was outstanding. */
int wtcp_seeds_remove(wtcp_seeds *s, int to);
/* Whether a STEAL from 'thief' may be given work: not when this rank has sent it a seed
   still outstanding (s) and the STEAL says the thief had no seed yet when it asked
   (had_seed 0). Its work is on the way, and what it took here would only be stolen back
   (cilksort at P = 2: 17.6 MB moved instead of 14.2 MB). A thief that has its seed is
   served: it waits for work stolen from the seed, and this rank's pending work is what
   it should take meanwhile. */
int wtcp_may_give(const wtcp_seeds *s, int thief, int had_seed);

/* ---- which pending children leave a rank ------------------------------------------------ */

/* A rank's open par frames, level 0 outermost: what the decisions below read. */
typedef struct wtcp_frames {
    int n;                                   /* open frames */
    int (*pending)(void *ctx, int level);    /* children neither sent nor run */
    int (*closing)(void *ctx, int level);    /* the frame runs its children (may be helped) */
    void *ctx;
} wtcp_frames;

/* The frame whose pending children a grant or a thief receives: the oldest (outermost)
   frame with pending children, whose children are the biggest work there is. -1: none. */
int wtcp_give_frame(const wtcp_frames *f);
/* How many of 'pending' children one group takes. Without a batch (batch 0): the
   bigger half, rounded up, in both modes (steal-half, as Cilk and X10 GLB: a thief or a
   granted worker takes the bigger half of the oldest work, and can hand on half of it
   again, so no group size needs tuning). With --wtc-batch=T: dynamic takes T (the
   thesis's groups), steal the half but at most T. */
int wtcp_group_size(const wtcp_mode *mode, int pending, int batch);
/* How many groups a worker asks for: dynamic (REQ 'want'): enough for every pending
   child, ceil(pending / T); steal: one per STEAL. 0 when nothing is pending. */
int wtcp_groups_wanted(const wtcp_mode *mode, int pending, int batch);
/* An outer closing frame below 'level' with pending children (the innermost such), or
   -1; -1 as well when already nested 'help_max' deep. With the oldest work given first
   there is never one once a frame waits in dynamic mode (doc/runtime.md, "dynamic
   mode"): the simulator checks it as an invariant there. In steal mode a seed can run
   nested on stolen work and find one (doc/runtime.md "steal mode"); no executor helps. */
int wtcp_help_frame(const wtcp_frames *f, int level, int helping, int help_max);

/* Whether a rank running 'nest' pieces of work nested while it waits (granted or stolen
   TASKs) may take one more: it tells its master it is idle (dynamic) or sends a STEAL
   (steal) only below WTCP_NEST_MAX, so the C stack stays bounded. */
#define WTCP_NEST_MAX 64
int wtcp_may_nest(int nest);

/* ---- dynamic mode: standing requests (doc/runtime.md "dynamic mode") -------------------- */

/* What a worker with 'pending' children sends its master now, *want being the groups its
   standing request still asks for (0: none stands): REQ(ceil(pending / T)) when none
   stands and children are pending (returns that want, stored in *want); REQ(0), the
   cancel, when one stands and nothing is pending (returns 0, *want = 0); else nothing
   (-1). The worker never waits for the answer. A new REQ is not sent when the masters
   have no idle worker to grant (idle_seen: the sum of the counts their doorbell slots
   show, every master being on the worker's host; -1 when not known: a master on another
   host, no doorbell): it would stand until a worker becomes idle, and the master, woken
   for it and for the REQ(0) that usually follows, took a core from the ranks computing
   beside it. A master whose worker becomes idle with no request standing grants it
   unasked instead (wtcp_unasked), and the worker asks at its next poll once it sees
   the idle worker. */
int wtcp_ask(int pending, int batch, int idle_seen, int *want);
/* The workers a master with 'idle' idle workers and no standing request grants one
   each, unasked, into out[] (returns how many): in rank order among the W workers, each
   whose doorbell slot shows pending children (seen[x] > 0, the showing's number; 0:
   none; -1: not known, another host: skipped) unless it gave back the worker granted
   to it at that very showing (refused[x] == seen[x]; a worker's showing changes each
   time it gains children). */
int wtcp_unasked(int W, const int *seen, const int *refused, int idle, int *out);
/* A GRANT of 'count' ranks was handled: the standing request shrinks (not below 0). */
void wtcp_granted(int *want, int count);
/* A master (rank 'master') grants up to 'want' of its idle managed workers to worker
   'who': lowest rank first, never 'who' itself; clears their idle[] flags, writes them
   to ranks[] (room for 'want'); returns how many (one GRANT carries them all). */
int wtcp_grant_pick(wtcp_roles r, int master, int who, int want, unsigned char *idle,
                    int *ranks);
/* Where the rest of a request goes once master 'master' has granted what it could:
   'rest' groups still wanted by worker 'who', the request having visited 'hops' masters.
   WTCP_REST_NONE: nothing left; WTCP_REST_FWD: a FWD(rest, *fwd_hops) to *dest (the
   next master of the ring while hops < M - 1, else the worker's own master with hops =
   M, where it stands); WTCP_REST_STAND: this master is the worker's own, it stands here. */
enum { WTCP_REST_NONE, WTCP_REST_FWD, WTCP_REST_STAND };
int wtcp_rest_route(wtcp_roles r, int master, int who, int rest, int hops, int *dest,
                    int *fwd_hops);
/* Whether a FWD that has visited 'hops' masters is back home to stand (hops >= M). */
int wtcp_fwd_stands(wtcp_roles r, int hops);
/* The standing request a master grants first when workers are idle: the oldest (least
   stamp) among workers lo .. hi-1 with standing[w] > 0; -1 when none. */
int wtcp_oldest_standing(int lo, int hi, const int *standing, const long long *stamp);

/* ---- steal mode: whom a thief asks ------------------------------------------------------ */

/* A random victim other than 'self' among P > 1 ranks (xorshift64*, state *rng != 0). */
int wtcp_victim(unsigned long long *rng, int P, int self);
/* A thief does not ask a victim of its own host that shows no pending children (the
   doorbell's slot: a load instead of a STEAL, a NOWORK and, the victim being in a leaf,
   a wake-up of its answering thread): it counts as a NOWORK for the pause. victim_pending:
   1 / 0, -1 when not known (another host, no doorbell): asked. With the answering
   thread only (doc/runtime.md "Answers from inside a leaf"). */
static inline int wtcp_peek_skips(int victim_pending)
{
    return victim_pending == 0;
}
/* A peek's pause is a NOWORK's with a round trip of at least WTCP_PEEK_STEP, the
   back-off's first sleep: the thief looks again after 1, 2, 4 ... us, up to the pause's
   cap, as its back-off steps would. The round trip both executors keep after a peek. */
#define WTCP_PEEK_STEP 1e-6
static inline double wtcp_peek_rtt(double rtt)
{
    return rtt > WTCP_PEEK_STEP ? rtt : WTCP_PEEK_STEP;
}
/* Parking (doc/runtime.md "steal mode"): after as many NOWORKs in a row as ceil(log2 P)
   (peeks included), a settled thief's next STEAL parks: a victim that cannot give work
   now keeps it instead of answering NOWORK while the victim computes, gives the thief
   work at its first poll with pending children, and answers NOWORK only when it runs
   out of work itself (it waits for RESULTs or is idle: it polls nothing new then). The
   thief asks nobody meanwhile. An idle thief then costs one STEAL per busy stretch of a
   victim, not one per pause: 127 idle thieves asked every 100 us while one rank merged
   (mergesort 8M, P = 128). One STEAL per thief stays out, so a thief never receives
   work it did not ask for (work that came while it computes would run nested, and the
   frame below would wait for it). Settled: the thief had work in this region (a seed or
   stolen) or is rank 0; before its seed, a parked thief would be given work that its seed
   then ran nested on (mergesort, 10 GbE, P = 8: +34 % in a trial with lifelines). */
typedef struct wtcp_parked {
    struct wtcp_park {
        int thief, had_seed; /* its STEAL's had_seed (wtcp_may_give) */
    } *v;                    /* the thieves parked here, oldest first */
    int n, cap;
} wtcp_parked;
#define WTCP_HOPS_SEED 1 /* STEAL: the thief had its seed; TASK, RESULT: of a seed */
#define WTCP_HOPS_PARK 2 /* STEAL: it parks (wtcp_parks) */
/* Whether a thief whose last 'fails' STEALs got NOWORK parks its next one. */
int wtcp_parks(int settled, int fails, int P);
/* Parks 'thief' here: 0, or -1 out of memory. */
int wtcp_park_add(wtcp_parked *p, int thief, int had_seed);
/* The parked thief to give work to next (index, oldest first, one wtcp_may_give allows),
   or -1. */
int wtcp_park_next(const wtcp_parked *p, const wtcp_seeds *s);
/* Removes parked thief i (given work, or NOWORK), keeping the order. */
void wtcp_park_drop(wtcp_parked *p, int i);
/* The seed of rank 'rank's victim sequence (differs between ranks). The runtime's is
   'draw' 0, the same in every run; the simulator also predicts draws 1, 2, ..., other
   sequences the thieves could have followed (the order of events differs from run to
   run, and with it whom a thief asks when). */
unsigned long long wtcp_victim_seed(int rank, unsigned draw);
/* How long after its last STEAL a thief whose last 'fails' STEALs were answered NOWORK
   waits before the next one: 0 after a success, then 2^(fails-1) times the last
   answer's round trip 'rtt' (at least WTCP_PEEK_STEP, the back-off's first sleep, as a
   peek's: on a free network, a what-if of the predictor, the round trip is 0 and the
   thieves would ask again at the same instant), at most 'cap' (a victim with nothing is
   not kept busy answering, and idle thieves do not flood the network;
   wtcp_pause_cap_us). 'by_rtt' (no
   doorbell covers every rank: the job spans hosts, its victims are asked by message) also
   bounds it by WTCP_PAUSE_RTTS round trips: each thief asking a random victim at most
   once per that many round trips keeps any victim's load below it whatever P is, where
   the fixed cap (100 us) held the thieves back on a fast network (doc/runtime.md "steal
   mode", Thieves). */
#define WTCP_PAUSE_RTTS 4
double wtcp_steal_pause(int fails, double rtt, double cap, int by_rtt);
/* The cap of the pause, in us (wtcp_steal_pause's 'cap'): the runtime's sleep ceiling of
   a host that all ranks share (1000 us, wtcp_sleep_max_us) only where that host has
   more ranks than cores ('bell_all && oversubscribed'): a thief looking more often
   would take a core from a computing rank there. Elsewhere 100 us, the ceiling of ranks
   on several hosts: on one host with a core per rank a thief's look at the doorbell (a
   load) takes no core from anyone, and with the 1000 us cap the predictor put UTS on
   one node of 64 cores at 4.4x for P = 64: thieves pausing a millisecond between looks
   at random victims found the few ranks holding the tree's work too seldom; 35.8x with
   100 us (doc/runtime.md "steal mode", Thieves). */
int wtcp_pause_cap_us(int bell_all, int oversubscribed);
/* A STEAL unanswered WTCP_ANSWER_GRACE seconds after it left: the victim is in a leaf
   (a rank between pars polls at least every 32 pars: 77 us in UTS, the finest-grained
   benchmark), so the thief wakes the victim's answering thread, which takes it at once
   (doc/runtime.md "Answers from inside a leaf"). Earlier it would cost every fine-grained
   STEAL a wake-up of that thread; later, the thief idles longer. A GRANT rings at once
   (a master cannot wait; grants are few). */
#define WTCP_ANSWER_GRACE 200e-6
/* Where ranks on other hosts ring nothing, the answering thread looks this often
   whether the main thread has stayed in the program's code since its last look, and
   answers then (a timed wake-up, 5-20 us of CPU: at most 2 % of a core). */
#define WTCP_ANSWER_TICK 1000e-6
static inline int wtcp_ring_due(double waited)
{
    return waited >= WTCP_ANSWER_GRACE;
}
/* The back-off's longest sleep in microseconds, also the cap of a thief's pause
   (doc/runtime.md "Waiting without burning a core"): 1000 where a doorbell covers every
   rank of the job (a sender wakes the sleeper), 100 where none rings (several hosts,
   SMPI: a sleeper sees a message only when it wakes). */
int wtcp_sleep_max_us(int bell_all);

/* ---- the job's start (doc/runtime.md "Start-up") ------------------------------------ */

/* How a job of several ranks starts, by what the program does and whether every rank
   runs on rank 0's node (one_node): across nodes MPI starts before main (MPI_Init in a
   thread beside main is safe only where rank 0 can keep MPI's memory hooks out of it:
   doc/runtime.md "Start-up"). The MPI runtime's environment and options may start MPI
   before main too: WTC_START_EARLY=0, a trace, a device other than ch4:ucx. */
enum {
    WTCP_START_HOLD,  /* rank 0 runs main while MPI starts; a region opened before MPI
                         is up runs at once, the messages it sends waiting until then */
    WTCP_START_WAIT,  /* the same, but such a region waits for MPI: the program shares
                         bounds, which go straight to the other ranks */
    WTCP_START_FIRST  /* MPI starts before main: the program may call MPI itself (it
                         includes <mpi.h>), or the ranks span nodes */
};
int wtcp_start_kind(int calls_mpi, int nshared, int one_node);

/* ---- the region start: rank 0's broadcasts (doc/runtime.md "The region start") ---- */

/* Rank 0's broadcasts (REGION_BEGIN, EXIT) go by a tree of recursive halving: the rank
   lo of a range [lo, hi) of n > 1 ranks sends to lo + floor(n/2), which takes
   [lo + floor(n/2), hi), and keeps [lo, lo + floor(n/2)) (the ranges of simple mode's
   two-way split). Every rank but 0 receives once; the last receives in round
   ceil(log2 P) when each rank sends one message per round. */
/* The rank from which rank r of P receives in the tree (-1 for rank 0). */
int wtcp_bcast_parent(int r, int P);
/* The ranks r sends to, in sending order (the biggest subtree first), into kids[]
   (room for 32); returns how many. */
int wtcp_bcast_children(int r, int P, int *kids);
/* A send's overhead and a sleeping rank's wake-up, in bytes a link carries meanwhile
   (the rule of wtcp_bcast_tree, doc/runtime.md "The region start"). */
#define WTCP_BCAST_SEND_BYTES 4096
#define WTCP_BCAST_WAKE_BYTES 262144
/* Whether the broadcasts of a program on P ranks whose REGION_BEGIN carries 'bytes'
   of payload go by the tree (1) or flat, rank 0 to every rank (0). The tree saves rank
   0 P-1-h sends (h = ceil(log2 P)) of the payload and costs h-1 more hops, each a wake-up
   of a sleeping rank: tree when (P-1-h)(bytes + SEND) >= (h-1) WAKE. Every rank decides
   alike (the payload's size is the program's). WTC_BCAST=tree or =flat in the
   environment (the same on every rank, and for the predictor) forces a route: tests. */
int wtcp_bcast_tree(int P, long long bytes);
/* The rank from which rank r of P receives rank 0's broadcasts on the route chosen: its
   tree parent, or 0 when flat (-1 for rank 0). */
int wtcp_bcast_from(int r, int P, int tree);
/* The ranks r sends rank 0's broadcasts to, in order, for the route chosen (flat: rank
   0 to 1 .. P-1, the others none) into kids[] (room for P-1 when flat, 32 when tree). */
int wtcp_bcast_to(int r, int P, int tree, int *kids);

/* ---- the region end (doc/runtime.md "The region end") ---------------------------- */

/* Whether REGION_END goes by the broadcasts' tree: where their rule holds for an empty
   payload, wtcp_bcast_tree(P, 0) (P >= 587; so, WTC_BCAST aside, only where
   REGION_BEGIN goes by it too). Flat, rank 0 sends P-1 of them; by the tree at most
   ceil(log2 P), and each rank passes its own on before it acts on it. */
int wtcp_end_tree(int P);
/* Whether a region of this mode on P ranks ends with the barrier (wtcp_barrier_*):
   dynamic and steal always (control messages may still be on their way); simple mode
   where its REGION_END goes by the tree: rank 0 would go on at once, and its next
   region's first TASK to a rank could overtake that rank's REGION_END, still on its way
   down the tree (flat, both come from rank 0 and MPI keeps them in order). */
int wtcp_end_barrier(const wtcp_mode *mode, int P);
/* The ranks r sends REGION_END to, in order, into kids[] (room for P-1): rank 0 once the
   region's root has returned, every other rank when its own comes, on the route of
   wtcp_end_tree (flat: rank 0 to 1 .. P-1, the others none; nobody waits for these
   sends). Returns how many. */
int wtcp_end_to(int r, int P, int *kids);
/* The rank from which rank r receives REGION_END (-1 for rank 0). */
int wtcp_end_from(int r, int P);
/* The barrier of a region that ends with one (wtcp_end_barrier), as the runtime's
   MPI_Ibarrier runs it (MPICH: dissemination): ceil(log2 P) rounds; in round k rank r sends one empty
   message to (r + 2^k) mod P and waits for one from (r - 2^k) mod P; it starts round
   k+1 when round k's has come, and leaves after the last. */
int wtcp_barrier_rounds(int P);
/* The barrier's route: 1 when every rank of the job shares one host whose ranks share a
   doorbell segment (one_host_bell), and then the barrier goes through the segment: each
   rank adds itself (and dynamic mode's counts) there and sleeps; the last to arrive
   releases the others, one doorbell ring each (mpi/bell.c). 0: MPI's collective, in
   the rounds above. Why: an MPI collective's messages ring no doorbell, so its waiters
   poll; on a host with more ranks than cores a polling waiter that yields kept the
   core from the rank it waited for, which had run longest (Linux's EEVDF scheduler
   picks the yielder again): 100-350 us at each of 2000 region ends (doc/runtime.md
   "The region end"). */
int wtcp_barrier_local(int one_host_bell);
/* Round k's peers of rank r of P: *to receives from r, *from sends to r. */
void wtcp_barrier_peers(int r, int P, int k, int *to, int *from);

/* ---- the decision log -------------------------------------------------------------------- */

/* With a log open (WTC_DECISIONS=FILE in both runtimes), each executor writes one line
   per decision that moves work: "send FRAME_DEPTH FIRST COUNT -> RANK", one per
   REGION_BEGIN a rank sends (wtcp_bcast_to): "begin FROM -> TO", and in steal mode one
   per STEAL: "steal THIEF -> VICTIM" (a victim peeked at and not asked:
   "peek THIEF -> VICTIM"), and in dynamic mode one per rank handed back
   (wtcp_hands_back): "back RANK". The simple mode's lines of a real run and of the
   simulation of its recording are equal; so is each thief's victim sequence. */
void wtcp_log_open(FILE *f);
FILE *wtcp_log_file(void);
/* Logs a STEAL of 'thief' to 'victim' when a log is open. */
void wtcp_log_steal(int thief, int victim);
void wtcp_log_peek(int thief, int victim); /* a victim not asked (wtcp_peek_skips) */
/* Logs rank r handed back (wtcp_hands_back) when a log is open. */
void wtcp_log_back(int r);

#endif
