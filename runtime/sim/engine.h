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

#define HDR 48.0 /* the message header of doc/runtime.md */

enum { M_BEGIN, M_END, M_TASK, M_RESULT, M_REQ, M_FWD, M_GRANT, M_IDLE, M_STEAL, M_NOWORK,
       M_DONE, /* not a message: a synchronous TASK send has completed (to its sender) */
       M_TICK  /* not a message: a probing rank's clock has been reached by all others */ };

typedef struct msg {
    double arr;      /* arrival (a synchronous message: of its rendezvous request) */
    double bytes;
    int src, dst, kind, sync;
    int a, b, c, d;  /* TASK: par, first child (node), count, frame; RESULT: d = frame;
                        REQ: a = want; FWD: a = want, b = worker, c = hops;
                        GRANT: a = offset in the grant list, b = count, c = final */
    int lo, hi;      /* TASK in simple mode: the children's rank range */
    int next;        /* inbox / free-list link */
} msg;

/* F_NODE: a call; F_GROUP: a received group run in order (simple, dynamic);
   F_SPAR / F_DPAR: a par of simple / dynamic mode; F_WORK: steal mode's par or stolen
   group (a 'task frame'), whose pending children thieves may take. */
enum { F_NODE, F_GROUP, F_SPAR, F_DPAR, F_WORK };

typedef struct frame {
    int type, phase;
    int node, par;   /* F_NODE: the call and its current par (-1: its last compute);
                        F_GROUP / F_WORK: node = first child received, par = their par */
    int lo, hi;      /* simple mode: the owned rank range */
    int i, end;      /* children (node indices) pending or being run here: i .. end-1 */
    int j, s;        /* F_SPAR: next sub-range to collect, number of sub-ranges */
    int src, srcframe;            /* F_GROUP, task F_WORK: where the RESULT goes */
    int k, nextc, outstanding;    /* F_DPAR: children, first pending; RESULTs owed;
                                     task F_WORK: k = children received */
    int due, helped;              /* F_DPAR: a round is due; a helper child is running */
    int task;                     /* F_WORK: a stolen group (sends a RESULT when done) */
    double slice_t0;              /* F_DPAR: when its last round ended */
} frame;

typedef struct rank {
    double t;        /* local clock: when it can act next */
    int head, tail;  /* inbox */
    int finished;    /* received REGION_END */
    int begun;       /* received REGION_BEGIN (rank 0: from the start) */
    int asleep;      /* idle since before the region: its poll is in the sleeping phase */
    int sync_pending;/* synchronous TASK sends not yet completed */
    frame *st;
    int depth, cap;
    int helping, tick; /* helper nesting; an M_TICK of its probe is on its way */
    /* dynamic: the round in progress (for frame round_frame) and the slice state */
    int in_round, round_frame, round_done, round_granted;
    double round_t0, round_rtt;
    wtcp_slice sl;
    /* steal: a STEAL in flight; a child taken from a frame, to run after the poll */
    int steal_out, claimed;
    unsigned long long rng;
    double compute, comm, wmaster, wchild, busy;
} rank;

typedef struct hent {
    double t;
    unsigned long long seq;
    int msg;
} hent;

typedef struct sim sim;

/* A mode's executor: what the engine asks of it. */
typedef struct sim_ops {
    int id;                                          /* WTC_MODE_* = SIM_* */
    int (*setup)(sim *S);                            /* NULL: nothing; -1: impossible */
    void (*open_par)(sim *S, int rid, int p, int lo, int hi); /* a par that spreads */
    int (*step)(sim *S, int rid);                    /* the mode's frame on top */
    int (*serve)(sim *S, int rid);                   /* a worker with an empty stack */
    void (*group_done)(sim *S, int rid);             /* an F_GROUP sent its RESULT */
    void (*master)(sim *S, int rid);                 /* a master serves its inbox */
} sim_ops;

extern const sim_ops sim_simple_ops, sim_dynamic_ops, sim_steal_ops;

struct sim {
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
    unsigned char *idle;  /* dynamic: idle[w] for every worker */
    int *nidle;           /* idle workers per master */
    double *begin_arr;    /* arrival of REGION_BEGIN at each rank */
    int done, error;
    sim_result *res;
};

void *eng_xrealloc(void *p, size_t n);
void eng_internal(sim *S, const char *what, int rid);
int eng_msg_new(sim *S);
void eng_msg_free(sim *S, int i);
void eng_heap_push(sim *S, double t, int m);
/* Sends a message (the sender pays o_s); returns it for its fields. The pointer is
   valid until the next eng_send / eng_msg_new. */
msg *eng_send(sim *S, int from, int to, int kind, double bytes);
/* When a rank that began waiting at t_w notices a message arriving at a. */
double eng_notice(const sim *S, double t_w, double a, int asleep);
/* Receives message i (unlinked from the inbox): waits for it (into *wait), pays o_r. */
void eng_receive(sim *S, int rid, int i, double *wait);
/* Unlinks and returns the first inbox message matching (src, kind), -1 for any. */
int eng_take(sim *S, rank *r, int src, int kind);
/* Waits until the rank's synchronous TASK sends have completed; 0 when it must wait. */
int eng_wait_sends(sim *S, int rid);
/* M_DONE taken from the inbox by a waiting rank: one TASK send less to wait for (the
   wait into *wait unless NULL). */
void eng_send_done_taken(sim *S, int rid, int i, double *wait);
/* The MPI runtime's look for a message at the rank's clock: -1 while unknown (an M_TICK
   is on its way; the rank waits for it), else whether a message has arrived. */
int eng_probe(sim *S, int rid);
/* Whether every message arriving by the rank's clock is in its inbox; 0: an M_TICK is
   on its way, the rank waits for it. */
int eng_arrived(sim *S, int rid);

frame *eng_push(sim *S, int rid, int type);
void eng_compute(sim *S, int rid, double host_seconds);
/* Runs child 'node' of a par through the runtime, owning [lo, hi). */
void eng_start_child(sim *S, int rid, int node, int lo, int hi);
double eng_children_bytes(const sim *S, int first, int count, int result);
/* The core's view of a rank's frame stack (proto.h wtcp_frames). */
wtcp_frames eng_frames(rank *r);
/* The decision log (WTC_DECISIONS): a TASK carrying 'count' children of par p from
   node 'first' goes to rank 'to'. */
void eng_log_task(const sim *S, int p, int first, int count, int to);
/* The server loop of simple and dynamic workers: REGION_BEGIN, TASK (a group run in
   order, F_GROUP), REGION_END; 0 when it must wait. */
int eng_serve_groups(sim *S, int rid);

#endif
