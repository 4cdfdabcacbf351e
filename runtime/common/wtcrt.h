/* wtcrt.h - the runtimes' internal header (not part of the ABI; see wtc_abi.h).
 *
 * The first half is plain C shared by both runtimes (runtime/common_*.c, compiled into
 * libwtcrt_mpi.a and libwtcrt_sim.a): launch options, the message header and payload
 * sizes of doc/runtime.md, result-kind conversion, the statistics table and the trace
 * writer. The second half (WTCRT_MPI) is the MPI runtime's own state.
 */
#ifndef WTCRT_H
#define WTCRT_H

#include <locale.h>
#include <stddef.h>
#include <stdio.h>
#include "wtc_abi.h"

/* ---- messages (doc/runtime.md, "Messages"): kinds are the MPI tags ------------- */
enum {
    WTCRT_REGION_BEGIN = 1, WTCRT_REGION_END = 2, WTCRT_EXIT = 3, WTCRT_TASK = 4,
    WTCRT_RESULT = 5, WTCRT_REQ = 6, WTCRT_FWD = 7, WTCRT_GRANT = 8, WTCRT_IDLE = 9,
    WTCRT_STATS = 10, WTCRT_STEAL = 11, WTCRT_NOWORK = 12, WTCRT_BOUND = 13
};

/* The control messages (REQ, FWD, GRANT, IDLE, STEAL, NOWORK) of every other region that
   ends with a barrier (dynamic, steal) travel with the kind plus WTCRT_TAG_ODD as MPI tag
   (wire_tag in mpi/transport.c): a rank still in one such region's end, taking
   these kinds, never takes those of the next (doc/runtime.md "Messages"). */
#define WTCRT_TAG_ODD 16

/* The fixed 48-byte header every runtime message starts with. */
typedef struct wtcrt_hdr {
    int kind;          /* the tag again */
    int fn;            /* function id of the first child carried */
    int depth;         /* wtc_depth of the first child carried */
    int lo, hi;        /* simple: rank range of the children; REQ/FWD: lo = asking worker;
                          GRANT: lo = the asker; IDLE: lo = the worker now idle */
    int frame;         /* par frame (nesting level) on the parent that waits */
    int first, count;  /* children first..first+count-1; GRANT: count = ranks granted
                          (their ranks are the payload, 4 bytes each) */
    int want;          /* REQ/FWD: groups still wanted; EXIT: exit status; TASK: index
                          of the first child in the original par (decision log) */
    int hops;          /* FWD: masters already asked; TASK and its RESULT: 1 for a seed
                          (steal and dynamic mode), 0 otherwise; STEAL: WTCP_HOPS_SEED,
                          the thief has had its seed; WTCP_HOPS_PARK, it parks
                          (wtcp_parks) */
    long long nbytes;  /* payload bytes after the header */
} wtcrt_hdr;

#define WTCRT_HDR_SIZE 48
#define WTCRT_CHILD_PREFIX 8 /* per child in a TASK: int fn id, then an unsigned of
                                buffer marks (by address: bits 0-7; merged: 8-31) */

/* Payload bytes of one child in a TASK / a RESULT (counts: fn->counts of its args). */
unsigned long wtcrt_task_child_bytes(const wtc_fn *fn, const long *counts);
unsigned long wtcrt_result_child_bytes(const wtc_fn *fn, const long *counts);
/* A buffer of nb bytes travels by reference: its TASK or RESULT is sent in pieces, this
   one straight from where the buffer lies, and the runtime copies it into no message
   (doc/runtime.md "Big buffers travel where they lie"): from 64 KiB, where a copy into
   new memory costs more than one more MPI message. */
#define WTCRT_BY_REF_MIN 65536ul
/* Blocks the program allocates from this size lie in the host's shared heap when there
   is one (mpi/heap.c, common/heapwrap.c): a buffer that travels by reference and lies
   there is not sent at all to a rank of the host (doc/runtime.md "Big buffers stay
   where they are on one host"). */
#define WTCRT_SHHEAP_MIN WTCRT_BY_REF_MIN
/* The children's memory of received TASKs (wtcrt_task_mem): blocks of 1 MiB to 1 GiB
   freed are kept for the next TASKs, at most 4 and 2 GiB, so that big buffers land in
   memory touched before (no page faults); the predictor's 'reused' takes the same
   limit. Until 2026-12-02 the limit was 128 MiB: a prefix sum of 2^24 doubles whose
   TASK carried two 64 MiB halves (just over it) mapped, faulted and zeroed new memory
   for every TASK between hosts (WTC_SHARED_HEAP=0): 7.7-9.9 s, now 2.0-2.15 s (the same
   bytes in 32 MiB halves: 1.2-1.4 s). What is kept is no more than the rank has just
   held. */
#define WTCRT_TASKMEM_KEEP 4
#define WTCRT_TASKMEM_MIN (1ul << 20)
#define WTCRT_TASKMEM_MAX (1ul << 30)
#define WTCRT_TASKMEM_TOTAL (2ul << 30)
int wtcrt_buf_by_ref(unsigned long nb);
/* The part of the above that the runtime copies into the message (buffers by
   reference left out): what the sender packs. */
unsigned long wtcrt_task_child_copied(const wtc_fn *fn, const long *counts);
unsigned long wtcrt_result_child_copied(const wtc_fn *fn, const long *counts);
/* Bytes of buffer b of fn holding 'count' elements (negative counts are 0). */
unsigned long wtcrt_buf_bytes(const wtc_fn *fn, int b, long count);
/* Read / write the pointer member of buffer b inside an args struct. */
void *wtcrt_buf_ptr(const wtc_fn *fn, const void *args, int b);
void wtcrt_buf_set(const wtc_fn *fn, void *args, int b, void *ptr);

/* ---- shared bounds (common/share.c, wtc_share_max / wtc_share_min) ---------------- */
/* The index of the shared global at g in prog->shared, or -1. */
int wtcrt_share_slot(const wtc_program *prog, const void *g);
/* 1 when the value at v is better than the one the global holds now. */
int wtcrt_share_better(const wtc_shared *s, const void *v);
/* A BOUND's payload: the region it was found in (the sender's count of regions), the
   global's slot, the value's bytes (at most a long double's). */
typedef struct wtcrt_bound {
    int region, slot;
    unsigned char value[16];
} wtcrt_bound;

/* ---- copies a par frame keeps until it closes (common/keep.c, wtc_keep) ---------- */
typedef struct wtcrt_keep_chunk wtcrt_keep_chunk;
typedef struct wtcrt_keep {
    wtcrt_keep_chunk *head, *cur;
} wtcrt_keep;
/* Forgets every copy of k (its frame is opened again), keeping the memory. */
void wtcrt_keep_reset(wtcrt_keep *k);
/* Copies buffer b of args (fn->counts of args elements) into k and points args at the
   copy; the copy stays until the next reset. Returns 0, or -1 when out of memory. */
int wtcrt_keep_buf(wtcrt_keep *k, const wtc_fn *fn, void *args, int b);

/* ---- element counts against the memory they describe (common/check.c) ---------- */
extern int wtcrt_checking; /* a wtcc --check build */
void wtcrt_heap_add(const void *base, unsigned long size);
void wtcrt_heap_del(const void *base);
void wtcrt_unpacked_add(const void *base, unsigned long size);
void wtcrt_unpacked_forget(const void *base, unsigned long size);
/* A child's buffers against those of the call that spawns it; stops on a count that
   reaches past them. */
void wtcrt_check_inside(const wtc_fn *pf, const void *pargs, const wtc_fn *cf,
                        const void *cargs, const char *where);
void wtcrt_count_error(const char *where, const wtc_fn *fn, int b, long count,
                       unsigned long need, unsigned long have, const char *what)
    __attribute__((noreturn));
/* The executor's way to stop the program with a message (mpi: every rank). */
void wtcrt_check_fail(const char *msg) __attribute__((noreturn));

/* ---- launch options (SPEC 4) ------------------------------------------------------ */
typedef struct wtcrt_opts {
    int mode;          /* WTC_MODE_*, DEFAULT when not given */
    int masters;       /* 0 when not given */
    int batch;         /* 0 when not given */
    int stats;         /* --wtc-stats */
    const char *trace; /* --wtc-trace=FILE, NULL when not given */
    int help;          /* --wtc-help: print wtcrt_usage and stop */
    int depth;         /* --wtc-depth=D: every cond replaced by wtc_depth < D; -1 if not */
    const char *autof; /* --wtc-auto=PROFILE: the setting from a saved profile, or NULL */
    const char *machine; /* --wtc-machine=M with --wtc-auto: the table's machine */
} wtcrt_opts;

/* The text --wtc-help prints. */
extern const char wtcrt_usage[];

/* Removes every --wtc-* option of the MPI program from argv (keeping argv[argc] NULL).
   Returns 0, or -1 with a one-line message in err. */
int wtcrt_opts_parse(int *argc, char **argv, wtcrt_opts *o, char *err, size_t errsz);
/* Parses a positive decimal int; returns -1 on garbage, overflow or a value < 1. */
int wtcrt_parse_positive(const char *s);
/* Parses a cut-off depth (--wtc-depth): a decimal int from 0 to WTCRT_MAX_DEPTH, else
   -1. */
#define WTCRT_MAX_DEPTH 100000
int wtcrt_parse_depth(const char *s);
const char *wtcrt_mode_name(int mode);
/* A region's mode and masters as the program was built (wtcc --mode, else the mode:
   of fn, its outermost function), before any --wtc- option. */
int wtcrt_source_mode(const wtc_program *prog, const wtc_fn *fn);
int wtcrt_source_masters(const wtc_program *prog, const wtc_fn *fn);

/* ---- profiles (common/profile.c, doc/predictor.md "Profiles") --------------------- */
#define WTCRT_PROFILE_MAGIC "wtc-profile"
#define WTCRT_PROFILE_VERSION 7
/* One row of a profile's table of best settings (what --wtc-auto runs). */
typedef struct wtcrt_auto {
    int procs, mode, masters, batch; /* masters, batch: 0 = not given */
    int depth;                       /* --wtc-depth, -1: the program's cond: */
    double predicted;                /* the predicted time of the whole program, s */
    char machine[256];               /* the machine the table was computed for */
} wtcrt_auto;
/* FNV-1a 64 of n bytes. */
unsigned long long wtcrt_checksum(const void *p, size_t n);
/* A hash of what a recording depends on in the program (names, sizes, buffers). */
unsigned long long wtcrt_program_fingerprint(const wtc_program *prog);
/* path opened for reading when it is a regular file, without waiting (a FIFO or a device
   named by mistake is refused at once); 'what' names it in messages ("machine file"),
   NULL: none. NULL with err set. */
FILE *wtcrt_open_regular(const char *path, const char *what, char *err, size_t errsz);
/* The whole file, NUL-terminated (len without it); NULL with err set. */
char *wtcrt_read_file(const char *path, size_t *len, char *err, size_t errsz);
/* Checks version, checksum and program of a profile read into text (modified: the
   end line is cut off); returns its body or NULL with err set. */
const char *wtcrt_profile_open(const char *path, char *text, size_t len,
                               const wtc_program *prog, char *err, size_t errsz);
/* The best setting for P ranks from a profile's table (machine: NULL or the name the
   table must have been computed for). 0, or -1 with err set. */
int wtcrt_profile_auto(const char *path, const wtc_program *prog, int P, const char *machine,
                       wtcrt_auto *a, char *err, size_t errsz);

/* ---- one region at a time among a program's threads (common/claim.c) ------------- */

/* Takes the claim and returns 1 when possible(arg) says a region may start here (the
   caller then starts one and releases the claim at its end); 0, the claim left as it
   was, when another thread holds it or possible(arg) says no. */
int wtcrt_region_claim(int (*possible)(void *arg), void *arg);
void wtcrt_region_unclaim(void);

/* ---- results: C conversion between arithmetic kinds (ABI WTC_K_*) ----------------- */
/* Stores the value at src (src_kind, src_size bytes, any alignment) into dest as C
   assignment would; WTC_K_OTHER on either side copies min(sizes) bytes. */
void wtcrt_kind_store(void *dest, int dest_kind, unsigned long dest_size,
                      const void *src, int src_kind, unsigned long src_size);

/* ---- statistics and traces (SPEC 4.3) -------------------------------------------- */
enum {
    WTCRT_S_COMPUTE, WTCRT_S_WAIT_MASTER, WTCRT_S_WAIT_CHILDREN, WTCRT_S_IDLE,
    WTCRT_S_MASTER_BUSY, WTCRT_S_MASTER_IDLE, WTCRT_NSTATES
};
extern const char *const wtcrt_state_names[WTCRT_NSTATES];

typedef struct wtcrt_stats {
    double t[WTCRT_NSTATES]; /* seconds in each state */
    double wall;             /* seconds from start to exit */
    long long calls_run;     /* children run here for another rank */
    long long calls_sent;    /* children sent to another rank */
    long long msgs, bytes;   /* messages and bytes sent */
    long long granted;       /* master: workers granted; worker: groups sent away */
    long long refused;       /* master: groups refused; worker: children run here after a
                                refusal */
    int master;              /* was a master in some region */
    int worker;              /* was a worker in some region (or rank 0) */
    int lowprio;             /* a master whose regions ran on a thread of the lowest
                                priority (more ranks than cores: mpi/dynamic.c) */
    long long steals;        /* steal mode: STEALs sent (granted: answered with work,
                                refused: answered NOWORK) */
    double steal_wait;       /* steal mode: seconds from STEAL to its answer, summed */
    double steal_wait_max;   /* ... the longest one */
    long long bounds_sent;   /* shared bounds: better values this rank sent (each to
                                every other rank of the region) */
    long long bounds_taken;  /* ... BOUNDs it received, and of those, the ones that */
    long long bounds_better; /* were better than its own value */
    long long pars_framed;   /* pars (cond: true) whose children were spawned into a
                                frame, and those run inline (wtcp_par_inline) */
    long long pars_inline;
    long long bytes_shared;  /* bytes of buffers a TASK or RESULT this rank sent left
                                where they lie (the host's shared heap: not in bytes) */
    long long steal_peeks;   /* steal mode: victims of its host not asked, having no
                                pending children (wtcp_peek_skips) */
    long long steal_parks;   /* steal mode: STEALs it sent that parked (wtcp_parks) */
    long long leaf_answers;  /* STEALs / GRANTs answered while the rank ran the
                                program's code (its answering thread; the simulator's
                                model of it) */
} wtcrt_stats;

/* Prints the --wtc-stats table of all ranks and the minimum, maximum and average over
   the workers (the program's --wtc-stats and the predictor's, one place). */
void wtcrt_stats_print(FILE *f, const wtcrt_stats *s, int nranks, const char *title);

/* Trace events kept per rank (the program's and the predicted): later changes of state
   are not traced, the lane's last state is closed when the buffer fills. */
#define WTCRT_MAX_EVENTS (1L << 22)

/* One trace event: ts in microseconds, ph 'B' or 'E'. */
typedef struct wtcrt_event {
    double ts;
    int state;
    int ph;
} wtcrt_event;

/* An output file named by an option (--wtc-trace, the predictor's --wtc-plot and
   --wtc-save-profile) as the directory the program started in sees it: the program may
   chdir() before the file is written at its end. A relative path gets that directory
   in front (the string lives as long as the program); an absolute one, or one when the
   directory cannot be read, is path itself. */
const char *wtcrt_path_from_start(const char *path);

/* The C locale for the calling thread while the runtime writes its own output after the
   program ran (the predictor's report, traces, plots, profiles, --wtc-stats): the
   program may have called setlocale(LC_ALL, ""), and in a locale whose decimal point
   is a comma the JSON, CSV and profiles were unreadable ("damaged profile"). Returns
   what to give back to wtcrt_locale_end (which restores the program's). */
locale_t wtcrt_locale_c(void);
void wtcrt_locale_end(locale_t old);

/* Can wtcrt_write_atomic write path (its temporary file created beside it, path not a
   directory)? Checked before the run for traces and plots, so that a bad path does not
   waste it. Returns 0, or -1 with errno set. */
int wtcrt_check_writable(const char *path);

/* Whether paths a and b name one file: the same regular file, or where neither exists
   yet the same name in the same directory. Devices and FIFOs are never one file (two
   outputs into /dev/null are fine). Two outputs of one run, or an output and a file the
   run reads, must not be one: the last written replaced the other. */
int wtcrt_same_file(const char *a, const char *b);

/* Writes Chrome trace-event JSON, one lane per rank, atomically (temp file + rename);
   'name' names the process (the program's run, or the predicted one). Returns 0, or -1
   with errno set. */
int wtcrt_trace_write(const char *path, const char *name, int nranks,
                      wtcrt_event *const *ev, const long *nev, const wtcrt_stats *s);

/* Writes a file through body(f, ctx) into a temporary file beside path, then renames it
   into place (traces, the predictor's plots). Returns 0, or -1 with errno set. */
int wtcrt_write_atomic(const char *path, void (*body)(FILE *f, const void *ctx),
                       const void *ctx);

/* Monotonic clock, seconds. */
double wtcrt_now(void);

/* The median of v[0..n-1], n > 0 (sorts v). */
double wtcrt_median(double *v, long n);

/* ---- a par's deferred calls ----------------------------------------------------------- */

/* One deferred call of a par frame (the MPI runtime's; the predictor's recorder keeps
   records of the same size, so that growing a frame costs it what it costs the runtime:
   the page faults of a 1M-child par are most of its spawning). */
#define ALIGN16(n) (((n) + 15) & ~(size_t)15)

/* Where a child's return value lies after its arguments, in a frame's arena and in a
   received TASK's memory alike: at the return type's alignment, which divides its size
   (16 at most; the arguments start 16-aligned). An int after an int argument: 4 bytes
   on, 16 bytes for both (32 when each took 16: a 1M-child farm touched 16 MB more). */
static inline size_t wtcrt_ret_off(const wtc_fn *fn)
{
    size_t a = fn->ret_size & -fn->ret_size; /* the lowest bit set */
    if (a == 0 || a > 16)
        a = a ? 16 : 1;
    return (fn->args_size + a - 1) & ~(a - 1);
}

/* The bytes of a child's arguments and return value, up to the next 16-byte boundary. */
static inline size_t wtcrt_slot_bytes(const wtc_fn *fn)
{
    return ALIGN16(wtcrt_ret_off(fn) + fn->ret_size);
}

typedef struct wtcrt_child {
    const wtc_fn *fn;
    size_t args_off;          /* in the frame's arena; the return slot follows the args
                                 (wtcrt_ret_off) */
    void *dest;
    unsigned dest_size;       /* a return value's size: at most WTCRT_DEST_MAX */
    short dest_kind;          /* WTC_K_* */
    char remote;              /* sent to another rank, result not yet stored */
    unsigned char shared;     /* its buffers 0-7 that went by address (shared heap) */
} wtcrt_child;                /* 32 bytes: a farm of 1M children touches 32 MB of them */
#define WTCRT_DEST_MAX 0xffffffffu

/* 1 for a program that includes <mpi.h> (it may call MPI itself: mpi/single.c; the
   predictor models its start: sim/engine.c). common/opts.c. */
int wtcrt_program_calls_mpi(void);
/* 1 when the environment variable name is "0": a switch turned off (WTC_DOORBELL=0,
   WTC_SHARED_HEAP=0, ...: doc/runtime.md, the measurement switches). common/opts.c. */
int wtcrt_env_off(const char *name);

/* ---- the MPI runtime's own state -------------------------------------------------- */
#ifdef WTCRT_MPI
#include <pthread.h>
#include <stdatomic.h>
#include <mpi.h>

/* A message buffer (header + payload), pooled. */
/* A part of a message sent from where it lies (a buffer by reference): len bytes at
   ptr, coming in the byte stream after the first 'at' bytes of the message's buffer. */
typedef struct wtcrt_seg {
    const void *ptr;
    size_t len, at;
} wtcrt_seg;

typedef struct wtcrt_msg {
    unsigned char *buf;
    size_t cap, len;         /* len: the bytes in buf (a received message: all of it) */
    int src, tag;
    int wtag;                /* the MPI tag it came with (wire_tag: kind and parity) */
    int refs;                /* pieces of it still being sent */
    wtcrt_seg *segs;         /* to send: its buffers by reference, in stream order */
    int nsegs, capsegs;
    void *owned;             /* task memory freed with the message (wtcrt_task_mem: the
                                memory its segs point into) */
    void *placed;            /* a TASK: its children's memory, unpacked as it came in
                                (wtcrt_task_place), placed_size bytes */
    size_t placed_size;
    struct wtcrt_msg *next;
} wtcrt_msg;

#define WTCRT_HDR(m) ((wtcrt_hdr *)(void *)(m)->buf)
#define WTCRT_PAYLOAD(m) ((m)->buf + WTCRT_HDR_SIZE)

#include "proto.h"

/* A par statement being executed (wtc_par in the ABI), or the children of a received
   TASK run as one (a task frame: steal mode); frames are reused. */
struct wtc_par {
    int level;               /* index in wtcrt_rt.frames */
    int region;              /* opened by wtc_region_open: close ends the region */
    wtc_ctx ctx;             /* context of the call executing the par */
    wtcrt_child *ch;
    int nch, capch;
    unsigned char *arena;
    size_t used, cap;
    unsigned char *mem;      /* task frame: the unpacked TASK (args, results, buffers) */
    size_t memsize;          /* ... its bytes */
    int call;                /* index in wtcrt_rt.calls of the call running the par (its
                                buffers bound its children's: common/check.c), -1: none */
    int base;                /* task frame: index of its first child in the original par */
    int outstanding;         /* remote children whose RESULT has not arrived */
    /* while the par closes (dynamic and steal modes) */
    int closing;             /* its pending children may be helped, granted or stolen */
    int nextc, end;          /* pending children: nextc..end-1 (dynamic: end = nch) */
    int spawning;            /* its body still spawns, and thieves have been answered
                                from it (wtcp_spawn_poll_due): they take from the front */
    wtcrt_keep keep;         /* copies of spawn arguments into the par body (wtc_keep) */
    /* out: views that overlap a sibling's (mpi/merge.c, "Overlapping out: views"): for
       the first ovl_n children, the buffers whose extent overlaps another child's out:
       extent (ovl; ovl_any: some child has one); for a child sent with some of them, its
       merged buffers and their values when it left (tw, by child; tw_used: some entry
       may be set) */
    unsigned *ovl;
    int ovl_n, ovl_cap, ovl_any;
    struct wtcrt_twin *tw;
    int tw_cap, tw_used;
};

/* A remote child's out: buffers written back by merge: bit b of 'merge' (b < 24), and
   their bytes as they were when it was sent, one after the other (NULL: none). */
typedef struct wtcrt_twin {
    unsigned merge;
    unsigned char *orig;
} wtcrt_twin;
#define WTCRT_MERGE_BUFS 24

/* The args / return slot of child i of frame p. */
#define WTCRT_ARGS(p, i) (((p)->mem ? (p)->mem : (p)->arena) + (p)->ch[i].args_off)
#define WTCRT_RET(p, i) (WTCRT_ARGS(p, i) + wtcrt_ret_off((p)->ch[i].fn))

/* The MPI runtime's state of one rank (below); every function of runtime/mpi takes it
   as its first parameter. */
typedef struct wtcrt_rt wtcrt_rt;

/* What each mode does in the MPI runtime (mpi/region.c holds the table; the decisions
   themselves are the core's, runtime/core/proto.h). */
typedef struct wtcrt_mode_ops {
    const wtcp_mode *mode;
    void (*close)(wtcrt_rt *rt, wtc_par *p); /* runs a par's children, waits for them */
    void (*worker)(wtcrt_rt *rt); /* a worker other than rank 0 during a region */
    void (*master)(wtcrt_rt *rt); /* a master during a region (NULL: none) */
    void (*poll)(wtcrt_rt *rt);   /* at every par (cond true or false): NULL when none */
    void (*end)(wtcrt_rt *rt);    /* rank 0, the root returned: ends the region */
    /* rank r, owned by a call of this rank, is handed back unspread (wtcp_hands_back;
       NULL where the mode never hands back) */
    void (*hand_back)(wtcrt_rt *rt, int r);
    /* after every WTCP_SPAWN_POLL-th child of p while its body spawns (NULL where the
       mode has no spawn_polls) */
    void (*spawn_poll)(wtcrt_rt *rt, wtc_par *p);
    /* the mode's message answered from inside a leaf (wtcp_mode.leaf_answers: STEAL,
       GRANT) and its handler, which frees it (mpi/answer.c) */
    int leaf_tag;
    void (*leaf)(wtcrt_rt *rt, wtcrt_msg *m);
} wtcrt_mode_ops;

struct wtcrt_rt {
    const wtc_program *prog;
    MPI_Comm comm;
    int rank, nranks;
    long pid;                /* getpid() at start: a fork()ed child differs */
    wtcrt_opts opt;
    int started, finished;
    /* the current region */
    int in_region, mode, masters, batch, nworkers;
    unsigned barrier_regions; /* regions so far that end with a barrier (the tag parity) */
    int regions;             /* regions so far, this one included (BOUND's region) */
    /* shared bounds (mpi/share.c): BOUNDs this rank sent in this region (each to every
       other rank), BOUNDs taken from each rank in this region and, come early, in the
       next, and the early ones themselves (applied when the next region starts) */
    int bound_sent;
    int *bound_got, *bound_got_next, *bound_sent_all;
    wtcrt_msg *bound_early;
    const wtcrt_mode_ops *ops;
    wtcp_roles roles;
    int warned_masters;
    wtcrt_msg *bcast_early;  /* the next broadcast, taken before REGION_END (simple mode) */
    /* the calls the runtime started on this rank, innermost last (common/check.c) */
    struct wtcrt_call {
        const wtc_fn *fn;
        const void *args;
        int seeded;          /* steal, dynamic: the call has spread its ranks (one par
                                only) or handed them back (wtcp_hands_back) */
        int depth;           /* its wtc_depth */
        int inlined;         /* a par at or below it ran inline (wtc_par_open): a frame
                                deeper than the call is not bounded by its buffers */
    } *calls;
    int ncalls, capcalls;
    /* par frames of this rank */
    wtc_par **frames;
    int nframes, capframes;
    /* messages */
    wtcrt_msg *pool;
    void *kept[WTCRT_TASKMEM_KEEP]; /* children's memory freed, kept for the next TASKs */
    int nkept;
    size_t kept_bytes;
    MPI_Request *reqs;
    wtcrt_msg **reqmsg;
    int *reqdone;            /* room for MPI_Testsome's indices and statuses */
    MPI_Status *reqstat;     /* (wtcrt_progress) */
    int nreqs, capreqs;
    MPI_Request *treqs;      /* TASK sends not yet known to have left */
    wtcrt_msg **tmsgs;
    int ntasks, captasks;
    /* messages received while this rank waited for its own sends to leave, in the
       order they came; every receive looks here before asking MPI (mpi/transport.c) */
    wtcrt_msg *inbox, *inbox_last;
    int sleep_max_us;        /* back-off ceiling (WTC_SLEEP_MAX_US; mpi/transport.c) */
    double yield_s;          /* yield phase before sleeping, seconds (mpi/transport.c) */
    int yield_polls;         /* and at least this many yields (WTC_YIELD_POLLS) */
    double yield_until;      /* end of the current wait's yield phase (wtcrt_now) */
    double wake_by;          /* a wait's sleeps end by then (wtcrt_now; 0: no such time):
                                the ring a STEAL of this rank is due (mpi/steal.c) */
    double last_probe;       /* when a compute-path poll last asked MPI */
    int polls_down;          /* compute-path polls since the clock was last read */
    int host_ranks;          /* ranks on this host (doorbell start-up; 0: not known) */
    int oversubscribed;      /* host_ranks > this host's online cores */
    int alone;               /* this process is the whole job: MPI was not started
                                (mpi/single.c) */
    /* rank 0 of a job: MPI starting in a thread while main begins (mpi/single.c,
       wtcrt_mpi_ready); the variables set for MPI_Init, removed once it has returned */
    int start_pending, start_env, start_size;
    pthread_t start_thread;
    /* a region rank 0 runs while the start thread still starts MPI (wtcrt_hold): the
       REGION_BEGIN and the messages sent meanwhile, in order, which the start thread
       sends once MPI has started; start_over: it has taken them (under hold_mu);
       start_gone: and sent them (mpi/single.c) */
    pthread_mutex_t hold_mu;
    wtcrt_msg *hold_begin;
    struct wtcrt_held *hold_q;
    int nhold, caphold;
    atomic_int start_over, start_gone;
    /* the doorbell (mpi/bell.c): this host's segment (NULL without a doorbell), world
       rank -> slot in it (-1: another host), this rank's slot, every rank of the job
       on this host */
    struct wtcrt_bell_slot *bell_seg;
    size_t bell_len;
    int *bell_slot_of;
    atomic_int *bell_mine, *bell_my_mail; /* this rank's futex word and mail flag */
    atomic_int *bell_my_pending;          /* and its "has pending children" */
    int bell_all_local;
    int bar_gen;               /* the one-host end barrier this rank entered (mpi/bell.c) */
    int nest;                  /* work run nested while waiting (core: wtcp_may_nest) */
    /* the answering thread (mpi/answer.c): 'user' is non-zero (another value at each
       leave, counted in 'leaves') while the main thread runs the program's code
       (wtcrt_leave / wtcrt_enter), 'ans_busy' is 1 while the thread works on this
       state in its place; ans_state 0 not started, 1 running, -1 none */
    atomic_int user, ans_busy, ans_stop;
    atomic_int ans_region;     /* a region whose mode answers from leaves runs: the
                                  thread's ticks (ranks on other hosts) run only then */
    unsigned leaves;
    int ans_state;
    pthread_t ans_thread;
    atomic_int *ans_word;      /* its futex word: in the doorbell's slot, else ans_own */
    atomic_int ans_own;
    int open_views;            /* children of a TASK run directly (simple mode) whose
                                  buffers came by address or merged, so their views
                                  hold places others write: mpi/merge.c under_overlap */
    /* steal mode: a STEAL in flight (its victim), victim sequence, nesting of work run
       while waiting */
    int steal_out, steal_fails;
    int steal_rung;          /* the victim's answering thread was rung for it */
    int steal_victim;        /* the rank it went to */
    wtcp_seeds seeds;        /* ranks seeded, RESULT not back (wtcp_may_give) */
    int seeded_in;           /* steal: a seed came in this region (its STEALs say so) */
    int settled;             /* steal: it had work in this region, or is rank 0 (wtcp_parks) */
    wtcp_parked parked;      /* steal: thieves parked here (wtcp_parks) */
    double steal_t0, steal_rtt;
    unsigned long long steal_rng;

    /* children pending in this rank's frames, which a thief or a grant may take
       (wtcp_par_inline; mpi/par.c wtcrt_pending_*); dynamic mode, worker: groups asked
       for and not yet granted (a standing request), an IDLE sent and no work granted
       since; every rank: the region is ending */
    int npending, dyn_want, avail, ending;
    wtcp_grain grain;        /* this rank's recent time per par (wtcp_par_inline) */
    /* master: idle flags of all ranks (only the managed ones are used), standing
       requests (groups still wanted per worker) and their order */
    unsigned char *idle;
    int *standing;
    int nidle, nstanding; /* idle flags up, requests standing (master_match) */
    /* master, grants without a request (wtcp_unasked): the workers' doorbell slots as
       read, the showing each was last granted at unasked, the showing at which each gave
       such a grant back, the workers picked */
    int *seen, *flagged, *refused, *picked;
    int pending_epoch;       /* this rank's showings of pending children (wtcrt_pending_show) */
    /* every rank: control messages sent to each rank this region, their sums at the
       region's end, and the number received (mpi/dynamic.c, dyn_end) */
    int *ctl_sent, *ctl_total, ctl_recv;
    long long *stand_seq, stand_clock;
    /* statistics and trace */
    wtcrt_stats st;
    int state;
    double t0, tstate;
    wtcrt_event *ev;
    long nev, capev;
    int tracing;
};

/* This process's runtime state (mpi/transport.c). Named only where the outside world
   enters the runtime: the functions of wtc_abi.h, wtcrt_check_fail; everything else
   takes it as its first parameter (tests/unit/rt_state.sh). */
extern wtcrt_rt wtcrt_this_rank;

/* mpi/transport.c: transport, states, fatal errors */
wtcrt_msg *wtcrt_msg_new(wtcrt_rt *rt, size_t payload);
void wtcrt_msg_free(wtcrt_rt *rt, wtcrt_msg *m);
/* Adds len bytes at ptr to m's byte stream after the 'at' bytes of m->buf written so
   far, sent from there (they must stay as they are until the send completes). */
void wtcrt_msg_seg(wtcrt_rt *rt, wtcrt_msg *m, size_t at, const void *ptr, size_t len);
/* n bytes (16-aligned) for a received TASK's children; back with wtcrt_task_mem_free
   (NULL: nothing). */
void *wtcrt_task_mem(wtcrt_rt *rt, size_t n);
void wtcrt_task_mem_free(wtcrt_rt *rt, void *p);
void wtcrt_task_mem_drop(wtcrt_rt *rt); /* lets the kept blocks go */
void wtcrt_send(wtcrt_rt *rt, int dest, int tag, wtcrt_msg *m);
void wtcrt_send_task_msg(wtcrt_rt *rt, int dest, wtcrt_msg *m);
void wtcrt_send_each(wtcrt_rt *rt, const int *dest, int n, int tag, wtcrt_msg *m);
void wtcrt_sync_tasks(wtcrt_rt *rt);
void wtcrt_progress(wtcrt_rt *rt);
void wtcrt_flush_sends(wtcrt_rt *rt);
void wtcrt_ibarrier(wtcrt_rt *rt, MPI_Request *req);
void wtcrt_coll_wait(MPI_Request *req);
/* The region end's barrier of dynamic and steal mode (doc/runtime.md "The region end"):
   through the doorbell segment when every rank shares this host (wtcp_barrier_local),
   else MPI's collective. start enters it, adding counts (dynamic mode's control
   messages, one per rank; NULL: none) into totals; done is 1 once every rank has entered,
   totals[rt->rank] then being what the ranks sent to this one; wait is one step of
   waiting for it, as wtcrt_backoff. */
typedef struct wtcrt_endbar {
    int local;
    MPI_Request req;
} wtcrt_endbar;
void wtcrt_endbar_start(wtcrt_rt *rt, wtcrt_endbar *b, const int *counts, int *totals);
int wtcrt_endbar_done(wtcrt_rt *rt, wtcrt_endbar *b, int *totals);
void wtcrt_endbar_wait(wtcrt_rt *rt, const wtcrt_endbar *b, int *us);
wtcrt_msg *wtcrt_recv(wtcrt_rt *rt, int src, int tag);
wtcrt_msg *wtcrt_try_recv(wtcrt_rt *rt, int src, int tag);
wtcrt_msg *wtcrt_try_recv_quick(wtcrt_rt *rt);
void wtcrt_poll_tag(wtcrt_rt *rt, int tag, void (*handle)(wtcrt_rt *rt, wtcrt_msg *m));
int wtcrt_set_state(wtcrt_rt *rt, int state);
void wtcrt_die(wtcrt_rt *rt, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));
/* An error stops the job: a thread ends this rank should the way out hang
   (mpi/transport.c). */
void wtcrt_abort_watch(wtcrt_rt *rt, int status);
int wtcrt_forked(wtcrt_rt *rt);
/* rank 0's start is over: the fault handlers that waited for it go (mpi/transport.c) */
void wtcrt_fatal_start_over(void);
/* the program's MPI_Init, MPI_Init_thread, MPI_Finalize, renamed by a macro of its
   generated code (codegen/program.c), whose prototypes are <mpi.h>'s (mpi/user_mpi.c) */
int wtc_mpi_init(int *argc, char ***argv);
int wtc_mpi_init_thread(int *argc, char ***argv, int required, int *provided);
int wtc_mpi_finalize(void);
double wtcrt_yield_seconds(int host_ranks);
void wtcrt_backoff(wtcrt_rt *rt, int *us);
void wtcrt_backoff_rung(wtcrt_rt *rt, int *us);
void wtcrt_backoff_end(wtcrt_rt *rt, int *us);
int wtcrt_wait_init(wtcrt_rt *rt);

/* Sends m to every other rank (nonblocking; m is freed when the last send completes). */
void wtcrt_send_others(wtcrt_rt *rt, int tag, wtcrt_msg *m);
/* Waits for the next BOUND from rank src and receives it. */
wtcrt_msg *wtcrt_recv_bound(wtcrt_rt *rt, int src);
/* Takes in the BOUNDs that have come, when a compute-path poll is due (simple mode's
   polls, after wtcrt_poll_none: nothing else is received). */
void wtcrt_bounds_poll(wtcrt_rt *rt);
/* Takes in every BOUND that has come, now. */
void wtcrt_bounds_take_all(wtcrt_rt *rt);

/* mpi/share.c: shared bounds (doc/runtime.md "Shared bounds") */
/* A received BOUND: applied, or kept for the next region; m is taken. */
void wtcrt_bound_take(wtcrt_rt *rt, wtcrt_msg *m);
/* Every rank, a region's start (after the snapshot): counts, early BOUNDs applied. */
void wtcrt_bounds_region(wtcrt_rt *rt);
/* Every rank, a region's end: takes in every BOUND of the region still on its way. */
void wtcrt_bounds_end(wtcrt_rt *rt);

/* mpi/single.c: MPI start and end; a job of one rank runs without MPI */
void wtcrt_mpi_start(wtcrt_rt *rt, int *argc, char ***argv);
int wtcrt_mpi_early(wtcrt_rt *rt);
void wtcrt_mpi_start_early(wtcrt_rt *rt, void (*then)(wtcrt_rt *rt));
void wtcrt_mpi_ready(wtcrt_rt *rt);
/* Rank 0, a region starts (1) or ends (0): stdout by lines while other ranks may print */
void wtcrt_stdout_region(int on);
/* Rank 0's main thread while it runs a region whose MPI is still starting (wtcrt_hold):
   nothing of MPI, the doorbell, the message pool, the sends in flight or the inbox is
   its to touch; the transport's entries queue, skip or wait (mpi/transport.c). */
extern __thread int wtcrt_held;
extern __thread int wtcrt_answering; /* this thread is a rank's answering thread */
int wtcrt_hold(wtcrt_rt *rt, wtcrt_msg *begin);
int wtcrt_hold_send(wtcrt_rt *rt, int dest, int tag, wtcrt_msg *m);
int wtcrt_hold_over(wtcrt_rt *rt);
void wtcrt_short_sleeps(void);
void wtcrt_mpi_end(wtcrt_rt *rt);
void wtcrt_mpi_abort(wtcrt_rt *rt, int status);

/* mpi/bell.c: the doorbell between ranks of one host */
/* mpi/heap.c: the host's shared heap */
int wtcrt_shheap_on(void);
void wtcrt_shheap_world(int rank, int nranks);
int wtcrt_shheap_has(const void *p, size_t n);
int wtcrt_shheap_shares(int r, const void *p, size_t n);
void *wtcrt_shheap_alloc(size_t n, size_t align, int zero);
int wtcrt_shheap_free(void *p, size_t *freed);
/* Whether p lies in the memory of a received TASK still in use (mpi/par.c): the free
   wrapper leaves such a block alone. */
int wtcrt_task_memory_has(const void *p);
size_t wtcrt_shheap_size(const void *p);
int wtcrt_shheap_grow(void *p, size_t n);
void wtcrt_shheap_shrink(void *p, size_t n);
/* The filler (mpi/heap.c): main's thread runs sequential code (rank 0, from main's
   start to its return), a region runs (every rank); new pages of [off, off+n) of a
   shm file reserved by a thread, and the wait for it to let the file go (-1 when a
   reservation failed). */
void wtcrt_shheap_main(int on);
void wtcrt_shheap_pause(int on);
int wtcrt_shfill(int fd, off_t off, size_t n);
int wtcrt_shfill_drain(void);

int wtcrt_bell_init(wtcrt_rt *rt, int *synced);
void wtcrt_bell_fini(wtcrt_rt *rt);
void wtcrt_bell_ring(wtcrt_rt *rt, int r);
int wtcrt_bell_arm(wtcrt_rt *rt);
void wtcrt_bell_sleep(wtcrt_rt *rt, int us);
void wtcrt_bell_disarm(wtcrt_rt *rt);
int wtcrt_bell_mail(wtcrt_rt *rt);
void wtcrt_bell_mail_again(wtcrt_rt *rt);
void wtcrt_bell_bound(wtcrt_rt *rt, int r);
atomic_int *wtcrt_bell_answer_word(wtcrt_rt *rt, int r);
/* 1 when rank r of this host has pending children, 0 when it has none, -1 when r is on
   another host (or there is no doorbell). */
int wtcrt_bell_pending(wtcrt_rt *rt, int r);
/* A futex word (the doorbell segment's or a process's own): wake one sleeper after a
   raise of its count; sleep while it holds 'seen', up to 'us' (0: no limit). */
void wtcrt_word_wake(atomic_int *w);
void wtcrt_word_wait(atomic_int *w, int seen, int us);
void wtcrt_bell_bounds_mine(wtcrt_rt *rt);
void wtcrt_bell_bar_arrive(wtcrt_rt *rt, const int *counts);
int wtcrt_bell_bar_done(wtcrt_rt *rt, int *total);
/* A master shows its count of idle workers to the workers of its host; the sum of the
   masters' counts as their slots show them (-1 when a master is on another host, or
   there is no doorbell). Both order this rank's earlier stores (the count, a showing
   of pending children) before what they read next (a fence). */
void wtcrt_bell_idle_show(wtcrt_rt *rt, int n);
int wtcrt_bell_masters_idle(wtcrt_rt *rt);

/* A compute-path poll (wtcrt_try_recv_quick) that would find nothing without asking
   MPI: no send of this rank in flight, nothing in the inbox, every rank on this host
   (the doorbell's mail flag tells of every message), the flag down, and not yet
   WTCRT_POLL_CLOCK polls since the clock was read. Inline: pars and children poll
   (fib without a cut-off: three times per par, 11 % of its run in the calls that found
   this). */
#define WTCRT_POLL_CLOCK 64
static inline int wtcrt_poll_none(wtcrt_rt *rt)
{
    if (wtcrt_held) /* nothing can have come before MPI has started */
        return !wtcrt_hold_over(rt);
    return !rt->nreqs && !rt->inbox && rt->bell_all_local &&
           !atomic_load_explicit(rt->bell_my_mail, memory_order_relaxed) &&
           ++rt->polls_down < WTCRT_POLL_CLOCK;
}

/* mpi/region.c */
int wtcrt_mode_of(wtcrt_rt *rt, const wtc_fn *fn);
void wtcrt_region_begin(wtcrt_rt *rt, const wtc_fn *fn);
void wtcrt_region_end(wtcrt_rt *rt);
int wtcrt_serve(wtcrt_rt *rt);
void wtcrt_bcast(wtcrt_rt *rt, int tag, wtcrt_msg *m);
void wtcrt_bcast_early(wtcrt_rt *rt, wtcrt_msg *m);
void wtcrt_end_got(wtcrt_rt *rt, wtcrt_msg *m);
int wtcrt_master_of(wtcrt_rt *rt, int worker);

/* mpi/answer.c: the answering thread (doc/runtime.md "Answers from inside a leaf").
   The main thread marks where it leaves the runtime for the program's code (a child, a
   region's root, back to generated code) and where it comes back; the answering thread
   works on the state only in between, and the main thread, coming back, waits until it
   is done. Two stores and a load: the thread's side pays the fence (membarrier). */
static inline void wtcrt_leave(wtcrt_rt *rt)
{
    /* never 0, and each time another value: the thread's look every tick knows a stay
       in the program's code from two */
    rt->leaves = (rt->leaves + 2u) | 1u;
    atomic_store_explicit(&rt->user, (int)rt->leaves, memory_order_release);
}

void wtcrt_enter_wait(wtcrt_rt *rt);
static inline void wtcrt_enter(wtcrt_rt *rt)
{
    atomic_store_explicit(&rt->user, 0, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst); /* the thread's membarrier orders the rest */
    if (atomic_load_explicit(&rt->ans_busy, memory_order_acquire))
        wtcrt_enter_wait(rt);
}
/* At the process's start, before any thread: what the thread needs from the kernel. */
void wtcrt_answer_prepare(void);
/* Starts the thread for a region whose mode answers from leaves (once, when it can). */
void wtcrt_answer_start(wtcrt_rt *rt, int from_start);
/* Stops it (the job ends); the main thread is in the runtime. */
void wtcrt_answer_stop(wtcrt_rt *rt);
/* mpi/dynamic.c: ends a master's low-priority thread, if it has one (at exit). */
void wtcrt_master_stop(wtcrt_rt *rt);
/* Wakes rank r's answering thread (a STEAL unanswered for a while, a GRANT sent). */
void wtcrt_answer_ring(wtcrt_rt *rt, int r);
/* A region starts (1) or ends (0) on this rank: the thread's ticks follow it. */
void wtcrt_answer_region(wtcrt_rt *rt, int on);

/* mpi/par.c */
void wtcrt_call_push(wtcrt_rt *rt, const wtc_fn *fn, const void *args, int depth);
/* Stops the fast path of inline pars (wtc_abi.h wtc_fast), its count into the stats. */
void wtcrt_fast_stop(wtcrt_rt *rt);
void wtcrt_call_pop(wtcrt_rt *rt);
wtc_par *wtcrt_frame_push(wtcrt_rt *rt, wtc_ctx ctx);
/* Shows whether this rank has pending children to the thieves of its host (the
   doorbell's slot, mpi/bell.c): a thief does not ask a rank of its host that has none
   (mpi/steal.c, wtcp_peek_skips). A store, where a doorbell is. */
static inline void wtcrt_pending_show(wtcrt_rt *rt)
{
    if (rt->bell_my_pending) /* not 0 while children are pending: a new number each time
                                there are more (a master's wtcp_unasked tells showings
                                apart) */
        atomic_store_explicit(rt->bell_my_pending, rt->npending > 0 ? rt->pending_epoch : 0,
                              memory_order_relaxed);
}
/* p's pending children are now p->nextc .. end-1 (every change of p->end goes
   through here, so rt->npending counts them); the next pending child is taken. */
static inline void wtcrt_pending_end(wtcrt_rt *rt, wtc_par *p, int end)
{
    if (end > p->end)
        rt->pending_epoch = rt->pending_epoch < 1 << 30 ? rt->pending_epoch + 1 : 1;
    rt->npending += end - p->end;
    p->end = end;
    wtcrt_pending_show(rt);
}
/* n pending children leave the count (taken here or given away); at 0 the fast path
   stops, so the next par looks again (wtc_abi.h wtc_fast, wtcp_par_convert). */
static inline void wtcrt_pending_gone(wtcrt_rt *rt, int n)
{
    rt->npending -= n;
    if (rt->npending == 0) {
        if (!wtcrt_answering) /* the generated code's counter is the main thread's
                                 alone: its next 31 pars at most run inline */
            wtc_fast.left = 0;
        wtcrt_pending_show(rt);
    }
}
static inline int wtcrt_pending_take(wtcrt_rt *rt, wtc_par *p)
{
    wtcrt_pending_gone(rt, 1);
    return p->nextc++;
}
void wtcrt_run_local(wtcrt_rt *rt, wtc_par *p, int i);
void wtcrt_send_split(wtcrt_rt *rt, wtc_par *p, int s, int seed);
int wtcrt_seed(wtcrt_rt *rt, wtc_par *p, int *lo, int *hi);
void wtcrt_send_task(wtcrt_rt *rt, wtc_par *p, int dest, int first, int count, int lo,
                     int hi);
/* Overlapping out: views (mpi/merge.c): the buffers of child i of p to send merged to a
   rank that gets those of 'shared' by address; the room for its twin, which pack_child
   fills as it packs (NULL when none); the buffers whose RESULT is merged (0: none); the
   twin entry of child i, made when missing; and the store of one merged buffer. */
unsigned wtcrt_child_merge(wtcrt_rt *rt, wtc_par *p, int i, unsigned shared,
                           const long *counts);
unsigned char *wtcrt_new_twin(wtcrt_rt *rt, wtc_par *p, int i, unsigned merge,
                              const long *counts);
unsigned wtcrt_merged(const wtc_par *p, int i);
wtcrt_twin *wtcrt_twin_of(wtcrt_rt *rt, wtc_par *p, int i);
void wtcrt_twin_done(wtc_par *p, int i);   /* its RESULT stored */
void wtcrt_merge_reset(wtc_par *p);        /* the frame opens again */
void wtcrt_merge_into(wtcrt_rt *rt, const wtc_fn *fn, int b, unsigned char *dst,
                      const unsigned char *res, const unsigned char *orig, size_t n);
void wtcrt_store_result(wtcrt_rt *rt, wtcrt_msg *m);
void wtcrt_result_place(wtcrt_rt *rt, wtcrt_msg *m);
void wtcrt_task_place(wtcrt_rt *rt, wtcrt_msg *m, size_t got);
void wtcrt_run_task(wtcrt_rt *rt, wtcrt_msg *m);
wtc_par *wtcrt_task_frame(wtcrt_rt *rt, wtcrt_msg *m);
void wtcrt_task_frame_reply(wtcrt_rt *rt, wtc_par *p, int parent, const wtcrt_hdr *th);
wtcp_frames wtcrt_frames_view(wtcrt_rt *rt);
int wtcrt_give_oldest(wtcrt_rt *rt, const wtcp_mode *mode, int dest);
void wtcrt_poll(wtcrt_rt *rt, void (*handle)(wtcrt_rt *rt, wtcrt_msg *m));
void wtcrt_task_run(wtcrt_rt *rt, wtcrt_msg *m, void (*close)(wtcrt_rt *rt, wtc_par *p));
void wtcrt_await(wtcrt_rt *rt, wtc_par *p, void (*handle)(wtcrt_rt *rt, wtcrt_msg *m),
                 void (*idle)(wtcrt_rt *rt), int rung);
void wtcrt_run_local_range(wtcrt_rt *rt, wtc_par *p, int i, int lo, int hi);

/* mpi/simple.c */
extern const wtcrt_mode_ops wtcrt_simple_ops;

/* mpi/steal.c */
extern const wtcrt_mode_ops wtcrt_steal_ops;

/* mpi/dynamic.c */
extern const wtcrt_mode_ops wtcrt_dynamic_ops;
/* A master: how many of the workers it manages have their idle flag up. */
int wtcrt_dyn_idle_count(const wtcrt_rt *rt);
#endif

#endif
