/* sim/engine.h - the simulator's inside, shared by the event engine (sim/engine.c) and
 * the executor of each mode (sim/mode_simple.c, sim/mode_dynamic.c, sim/mode_steal.c).
 *
 * The engine owns time: ranks with local clocks, messages with LogGPS costs, the
 * arrival heap, frames and calls. A mode file owns its protocol's steps and takes every
 * decision from the protocol core (runtime/core/proto.h), as the MPI runtime does.
 * Modes register in the table of sim/engine.c (sim_ops); a new mode is a new file.
 */
#ifndef WTCRT_SIM_ENGINE_H
#define WTCRT_SIM_ENGINE_H

#include "sim.h"
#include "proto.h"
#include "wtcrt.h"

#define HDR 48.0 /* the message header of doc/runtime.md */

enum { M_BEGIN, M_END, M_TASK, M_RESULT, M_REQ, M_FWD, M_GRANT, M_IDLE, M_STEAL, M_NOWORK,
       M_DONE, /* not a message: a synchronous TASK send has completed (to its sender) */
       M_TICK, /* not a message: a probing rank's clock has been reached by all others */
       M_WAKE, /* not a message: a rank's timer (a thief's pause after NOWORK) is over */
       M_BAR   /* a message of the barrier that ends a region (a = its round): MPI's own,
                  unseen by the modes' receives and polls, not counted as the protocol's */ };

typedef struct msg {
    double arr;      /* arrival (a synchronous message: of its rendezvous request) */
    double bytes;
    double copied;   /* of bytes, those its sender copied into it (the rest by reference) */
    int src, dst, kind, sync;
    int a, b, c, d;  /* TASK: par, first child (node), count, frame; RESULT: c = count,
                        d = frame;
                        REQ: a = want; FWD: a = want, b = worker, c = hops;
                        GRANT: a = offset in the grant list, b = count;
                        IDLE: b = the worker now idle */
    int lo, hi;      /* TASK in simple mode, and a seed in steal and dynamic mode: the
                        children's rank range */
    int seed;        /* TASK, RESULT: of a seed (the split of a call's ranks),
                        not the answer to a STEAL; STEAL: the thief has had its seed */
    int park;        /* STEAL: it parks (wtcp_parks) */
    int in;          /* received already (eng_receive done), left in the inbox to be
                        handled in its turn: a rendezvous taken in while its receiver
                        waited for its own TASK sends (eng_wait_sends) */
    int reuse;       /* the receiver's buffers for it come from memory freed before
                        (engine.c, reused) */
    int shared;      /* a TASK of a send group: its wire was booked with the group's
                        (eng_group_end); a synchronous one's data is there at data_arr,
                        has left its sender at data_left (if taken in time) */
    double sent, data_arr, data_left;
    int held;        /* sent by rank 0 before MPI was up: the start thread sent it (its
                        sender does not wait for it) */
    int next;        /* inbox / free-list link */
} msg;

/* F_NODE: a call; F_GROUP: a received group run in order (simple mode); F_SPAR: a par
   of simple mode; F_WORK: a par of dynamic or steal mode, or the children of a received
   TASK run as one (a 'task frame'), whose pending children may leave again; F_SPAWN: a
   par whose body is still spawning, in a mode with spawn polls (node .. end-1 spawned,
   i .. end-1 not yet given to thieves; it becomes the par's F_WORK at the same depth);
   F_INLINE: a par run inline (wtcp_par_inline), its children i .. end-1 called in
   order, nothing pending). */
enum { F_NODE, F_GROUP, F_SPAR, F_WORK, F_SPAWN, F_INLINE };

typedef struct frame {
    int type, phase;
    int node, par;   /* F_NODE: the call and its current par (-1: its last compute);
                        F_GROUP / F_WORK: node = first child received, par = their par */
    int lo, hi;      /* the owned rank range (F_NODE: [lo, lo+1) once it has seeded
                        or handed back; F_WORK: its children's) */
    int i, end;      /* children (node indices) pending or being run here: i .. end-1 */
    int j, s;        /* F_SPAR: next sub-range to collect, number of sub-ranges */
    int src, srcframe;            /* F_GROUP, task F_WORK: where the RESULT goes */
    int k, outstanding;           /* task F_WORK: children received; F_WORK: RESULTs owed */
    int claimed;                  /* F_WORK: the child taken, to run after the poll (-1) */
    int task;                     /* F_WORK: a task frame (sends a RESULT when done) */
    int seed;                     /* task F_WORK: of a seed (its RESULT says so) */
    int below;                    /* counted in its rank's 'below' */
} frame;

typedef struct rank {
    double t;        /* local clock: when it can act next */
    int head, tail;  /* inbox */
    int finished;    /* received REGION_END */
    int begun;       /* received REGION_BEGIN (rank 0: from the start); until then it
                        takes nothing else (engine.c's wake) */
    int asleep;      /* its wait is past the yield phase (idle since before the region,
                        or a thief woken by its timer): the next message costs w_wake */
    int sync_pending;/* synchronous TASK (or REGION_BEGIN) sends not yet completed */
    int bcast_wait;  /* it waits for its REGION_BEGIN sends to complete */
    int inflight;    /* messages and events to it still in the heap */
    double user_from, user_to; /* its last stretch of the program's code (eng_compute),
                        where its answering thread answers (engine.c, leaf_answer) */
    frame *st;
    int depth, cap;
    int below;       /* its frames below the top with pending children (each marked
                        'below'): only the top frame gains any, the others only lose
                        them (eng_push, eng_pop, eng_taken), so eng_pending walks none */
    int tick;        /* its look at its clock (eng_arrived): 1 an M_TICK is on its way,
                        2 it has popped */
    double tick_t;   /* the M_TICK's time */
    /* dynamic: children pending in its frames, groups its standing request still asks
       for, an IDLE sent and no TASK since (avail), task frames nested (the runtime's
       'nest', bounded by wtcp_may_nest), a GRANT of grant_tail ranks whose TASK sends are being completed */
    int npending, dyn_want, avail, nest, grant_tail;
    int epoch;       /* dynamic: its showings of pending children (wtcp_unasked) */
    wtcp_grain grain;/* its recent time per par (wtcp_par_inline) */
    /* steal: a STEAL in flight, NOWORKs in a row, when the last STEAL left and its
       answer's round trip; M_WAKE timers posted and the latest one's time */
    int steal_out, steal_fails, timers;
    double steal_t0, steal_rtt, timer_at;
    wtcp_seeds seeds;     /* ranks seeded and not yet answered (wtcp_may_give) */
    int seeded_in;   /* a seed came (its STEALs say so) */
    int settled;     /* it had work in this region, or is rank 0 (wtcp_parks) */
    wtcp_parked parked; /* thieves parked here */
    unsigned long long rng;
    double speed;    /* its computing takes this times the recorded time (1, or the
                        inverse of a draw's speed within the machine's speed_spread:
                        rank_speeds) */
    /* the region's end barrier (modes with end_barrier): entered, rounds done, the
       rounds whose message has come (bit k), when it entered */
    int bar_in, bar_k;
    unsigned long long bar_got;
    double bar_t0;
    double reused;   /* the largest buffer it has freed that the allocator reuses
                        (engine.c, reused) */
    double compute, comm, wchild, busy;
} rank;

typedef struct hent {
    double t;
    unsigned long long seq;
    int msg;
} hent;

typedef struct sim sim;

/* A resource of 'units' identical units booked in processing order (sim/resource.c):
   segment i is [t[i], t[i+1]) with b[i] units in use; the last one is free for ever. */
typedef struct eng_res {
    double *t;
    int *b;
    int n, cap, lo, units;
} eng_res;

void eng_res_init(eng_res *r, int units);
void eng_res_free(eng_res *r);
/* Books d of one unit's time from t0 on, in the free time (every segment when force),
   nothing before 'now' being kept; returns when the d has been had. */
double eng_res_book(eng_res *r, double now, double t0, double d, int force);

/* A mode's executor: what the engine asks of it. */
typedef struct sim_ops {
    int id;                                          /* WTC_MODE_* = SIM_* */
    int (*setup)(sim *S);                            /* NULL: nothing; -1: impossible */
    /* a par that spreads, its first 'off' children given to thieves while it spawned */
    void (*open_par)(sim *S, int rid, int p, int lo, int hi, int off);
    int (*step)(sim *S, int rid);                    /* the mode's frame on top */
    int (*serve)(sim *S, int rid);                   /* a worker with an empty stack */
    void (*master)(sim *S, int rid);                 /* a master serves its inbox */
    /* the poll at the start of every par, cond true or false (NULL: none): -1 the rank
       waits, 0 done, 1 a received TASK's frame was pushed (the poll goes on after it) */
    int (*poll)(sim *S, int rid);
    /* rank r, owned by a call of rid that gives its ranks up unspread (wtcp_hands_back;
       NULL where the mode never hands back) */
    void (*hand_back)(sim *S, int rid, int r);
    /* after every WTCP_SPAWN_POLL-th child while a par spawns (NULL where the mode has
       no spawn_polls): -1 the rank waits, 0 done */
    int (*spawn_poll)(sim *S, int rid);
    /* the message the rank's answering thread takes while the rank runs the program's
       code (wtcp_mode.leaf_answers: M_STEAL, M_GRANT) and its handler at the rank's
       clock (NULL: none) */
    int leaf_kind;
    void (*leaf)(sim *S, int rid, const msg *m);
    /* the rank has its REGION_END (rank 0: has sent them) and is about to enter the end
       barrier (NULL: nothing to do; steal mode answers its parked thieves) */
    void (*ending)(sim *S, int rid);
} sim_ops;

extern const sim_ops sim_simple_ops, sim_dynamic_ops, sim_steal_ops;

struct sim {
    int answering;   /* a rank's answering thread acts (engine.c, leaf_answer) */
    const sim_tree *t;
    const sim_machine *m;
    sim_setting s;
    const wtcp_mode *mode;
    const sim_ops *ops;
    wtcp_roles roles;
    int P, M, W;      /* roles.P, roles.M, roles.W */
    int batch;        /* the batch as given (0: none) */
    double inv_cpu;   /* 1 / cpu_ratio, times the contention factor when W >= 2 */
    rank *r;
    msg *msgs;
    int capmsgs, nmsgs, freel;
    hent *h;
    int nh, caph;
    unsigned long long seq;
    int *grants;
    long ngrants, capgrants;
    unsigned char *idle;  /* dynamic: idle[w] for every worker (at its master) */
    int *seen, *flagged, *refused, *picked; /* dynamic: grants without a request
                             (mode_dynamic.c unasked, the runtime's master_unasked) */
    int *nidle;           /* idle workers per master */
    struct eng_shown {    /* dynamic, per master: the idle count n its slot shows from
                             'from' to 'to', while it sends unasked grants
                             (mode_dynamic.c unasked, masters_idle) */
        int n;
        double from, to;
    } *shown;
    int *standing;        /* dynamic: groups a worker's standing request asks for (at its
                             own master), 0: none */
    long long *stamp, stand_clock; /* when each request began to stand (the order) */
    int *nstanding;       /* standing requests per master */
    int root;             /* the region's root call (rank 0 starts it after its
                             REGION_BEGIN sends) */
    int bcast_tree;       /* REGION_BEGIN goes by the core's tree (wtcp_bcast_tree) */
    int end_barrier;      /* the region ends with the barrier (wtcp_end_barrier) */
    int *kids;            /* room for the ranks one rank sends REGION_BEGIN to */
    sim_timeline *tl;     /* the predicted timeline and per-rank counters, or NULL */
    /* the machine's nodes (doc/predictor.md section 4): ranks_per_node ranks each, in
       rank order; a network port per node and direction when there are several nodes
       (NULL: none), the cores of a node shared when it has more ranks than cores */
    int rpn, nnodes;
    int one_bell;         /* one node whose ranks ring each other's doorbell (the
                             runtime's bell_all_local) */
    eng_res *port_out, *port_in, *cores;
    int *grp;             /* the TASKs of the open send group (eng_group_begin) */
    int ngrp, capgrp, grp_open;
    double now;           /* the time of the last event popped */
    double hold;          /* rank 0's messages wait until then: MPI's start (the first
                             region of a job whose main opens it before MPI is up) */
    double lmin;          /* the smallest latency between two ranks */
    int bar_arrived;      /* ranks in the region end's barrier through the segment */
    double *mapped;       /* per rank: the shared heap's pages it has mapped in this run
                             (its page table lasts from region to region: map_pages) */
    int done, error;
    sim_result *res;
};

void *eng_xrealloc(void *p, size_t n);
/* Says the simulator ran out of memory and exits (status 2). */
void eng_out_of_memory(void);
void eng_internal(sim *S, const char *what, int rid);
int eng_msg_new(sim *S);
void eng_msg_free(sim *S, int i);
void eng_heap_push(sim *S, double t, int m);
/* Sends a message (the sender pays o_s); returns it for its fields. The pointer is
   valid until the next eng_send / eng_msg_new. */
msg *eng_send(sim *S, int from, int to, int kind, double bytes);
/* The TASK or RESULT (kind) of children first..first+count-1 (nodes), its bytes and
   what the runtime copies of them (sim_node's *_copied); its c is count. */
msg *eng_send_children(sim *S, int from, int to, int kind, int first, int count);
/* When a rank that began waiting at t_w notices a message arriving at a. */
double eng_notice(const sim *S, double t_w, double a, int asleep);
/* Receives message i (unlinked from the inbox): waits for it (into *wait), pays o_r. */
void eng_receive(sim *S, int rid, int i, double *wait);
/* Unlinks and returns the first inbox message matching (src, kind), -1 for any but the
   barrier's (M_BAR), ANY_KIND for any at all. */
#define ANY_KIND (-2)
int eng_take(sim *S, rank *r, int src, int kind);
/* The next message of a poll (the runtime's MPI_Iprobe loop): the first one in the inbox
   that has arrived by the rank's clock; -1 when none has, -2 when that is not known yet
   (an M_TICK is on its way: the rank waits for it). */
int eng_poll_next(sim *S, int rid);
/* A timer for rank rid at time t (an M_WAKE event). */
void eng_timer(sim *S, int rid, double t);
/* How long a waiting rank only yields before it sleeps (doc/runtime.md, the doorbell). */
double eng_yield_phase(const sim *S);
/* Whether a node has more ranks than the machine file's cores (the runtime's
   rt->oversubscribed). */
int eng_oversubscribed(const sim *S);
/* Waits until the rank's synchronous TASK sends have completed; 0 when it must wait. */
int eng_wait_sends(sim *S, int rid);
/* M_DONE taken from the inbox by a waiting rank: one TASK send less to wait for (the
   wait into *wait unless NULL). */
void eng_send_done_taken(sim *S, int rid, int i, double *wait);
/* Whether every message arriving by the rank's clock is in its inbox; 0: an M_TICK is
   on its way, the rank waits for it. */
int eng_arrived(sim *S, int rid);

/* The timeline (sim/timeline.c): from the rank's clock on it works (waiting 0: computes,
   or a master serves) or waits (1: for RESULTs with frames open, else idle; a master is
   idle). Every advance of a rank's clock is marked first, so the lanes cover the run. */
void eng_mark_state(sim *S, int rid, int waiting);
static inline void eng_mark(sim *S, int rid, int waiting)
{
    if (S->tl && !S->answering) /* the simulations of the report keep no timeline: one
                                   test; an answering thread's sends leave it alone */
        eng_mark_state(S, rid, waiting);
}
/* The per-rank counters of --wtc-stats, NULL when no timeline is kept. */
static inline wtcrt_stats *eng_stats(sim *S, int rid)
{
    return S->tl ? &S->tl->st[rid] : NULL;
}

frame *eng_push(sim *S, int rid, int type);
/* Pops rank rid's top frame (every pop goes here: it keeps the rank's 'below'). */
void eng_pop(sim *S, int rid);
/* Children were taken from frame e of rank r, maybe below its top (a thief's or a
   grant's group): keeps the rank's 'below'. */
void eng_taken(rank *r, int e);
/* 1 when rank r has pending children in some frame (the runtime's npending > 0). */
int eng_pending(const rank *r);
/* Whether rank v had pending children at time t, as its doorbell slot shows them: its
   frames when its clock is not ahead of t, or t falls in the stretch of the program's
   code it is ahead in (the child it took after the stretch still pending); -1 (not
   known: the thief asks) otherwise. */
int eng_pending_at(sim *S, int v, double t);
/* 1 when ranks a and b share a node. */
int eng_same_node(const sim *S, int a, int b);
void eng_compute(sim *S, int rid, double host_seconds);
/* Runs child 'node' of a par through the runtime, owning [lo, hi). */
void eng_start_child(sim *S, int rid, int node, int lo, int hi);
/* The machine's t_poll on the rank's clock, as computing: a poll has become due. */
void eng_poll_cost(sim *S, int rid);
/* The core's view of a rank's frame stack (proto.h wtcp_frames). */
wtcp_frames eng_frames(rank *r);
/* The decision log (WTC_DECISIONS): a TASK carrying 'count' children of par p from
   node 'first' goes to rank 'to'. */
void eng_log_task(const sim *S, int p, int first, int count, int to, int seed);
void eng_send_split(sim *S, int rid, int p, int off, int lo, int n, int s, int seed);
/* The seeding start of par p (steal, dynamic: wtcp_seed_count) of the call on top of
   rid's stack, owning [lo, hi): the seeds sent (eng_send_split), the call marked as
   having spread its ranks, and the F_WORK frame of sub-range 0's children pushed,
   owning its ranks; *s gets the number of sub-ranges. */
frame *eng_open_seeded(sim *S, int rid, int p, int lo, int hi, int off, int *s);
/* A send group: the TASKs of a split (simple mode's sub-ranges, the seeds) go
   to other nodes at once and share the sender's port, as a network's flows share a link
   (doc/predictor.md section 4): between eng_group_begin and eng_group_end their wires
   are not booked one after another but together, each getting an equal share of the
   port while it is in flight. Other messages take the port in turn (a GRANT's groups
   too: shared, three dynamic rows moved away from SMPI). */
void eng_group_begin(sim *S);
void eng_group_end(sim *S);
/* REGION_END on from rid by the core's route (wtcp_end_to). */
void eng_end_send(sim *S, int rid);
/* The server loop of simple-mode workers: REGION_BEGIN, TASK (a group run in order,
   F_GROUP), REGION_END; 0 when it must wait. */
int eng_serve_groups(sim *S, int rid);

#endif
