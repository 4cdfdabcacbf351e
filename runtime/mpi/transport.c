/* mpi/transport.c - the MPI runtime's core: start-up and exit, message transport with
   nonblocking sends and sleeping polls, states for --wtc-stats / --wtc-trace. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <time.h>
#include <sys/prctl.h>
#include <unistd.h>
#include "wtcrt.h"
#include "wtc_mpi_impl.h"

wtcrt_rt wtcrt_g;
#define rt wtcrt_g

#define WTCRT_YIELD_US 100 /* yield phase, a core per local rank; WTC_YIELD_US overrides */
#define WTCRT_YIELD_OVER_US 0 /* more local ranks than cores; WTC_YIELD_OVER_US */
#define WTCRT_YIELD_POLLS 10 /* and at least this many yields; WTC_YIELD_POLLS overrides */
#define WTCRT_SLEEP_MAX_US 100 /* back-off ceiling; WTC_SLEEP_MAX_US overrides */
#define WTCRT_SLEEP_MAX_BELL_US 1000 /* the same when every rank can ring (one host) */
#define WTCRT_BELL_TASK_BYTES 1024 /* a receiver rings the parent of bigger TASKs */
#define WTCRT_MSG_CHUNK ((size_t)1 << 30) /* bytes per MPI call; WTC_MSG_CHUNK overrides */

/* Prints a runtime error and stops every rank. */
void wtcrt_die(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout); /* what the program printed comes before the error */
    fprintf(stderr, "wtc: rank %d: fatal: ", rt.rank);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(NULL);
    wtcrt_mpi_abort(2);
    exit(2);
}

/* A call's element count reaches past its buffer (common/check.c): stops every rank. */
void wtcrt_check_fail(const char *msg)
{
    wtcrt_die("%s", msg);
}

/* Allocation that cannot fail silently. */
static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        wtcrt_die("out of memory (%zu bytes)", n);
    return q;
}

/* ---- messages --------------------------------------------------------------------- */

/* A buffer for a header and 'payload' bytes, from the pool. */
wtcrt_msg *wtcrt_msg_new(size_t payload)
{
    wtcrt_msg *m = rt.pool;
    size_t len = WTCRT_HDR_SIZE + payload;
    if (m)
        rt.pool = m->next;
    else
        m = calloc(1, sizeof *m);
    if (!m)
        wtcrt_die("out of memory");
    if (m->cap < len) {
        m->cap = len < 256 ? 256 : len;
        free(m->buf);
        m->buf = xrealloc(NULL, m->cap);
    }
    m->len = len;
    memset(m->buf, 0, WTCRT_HDR_SIZE);
    WTCRT_HDR(m)->nbytes = (long long)payload;
    return m;
}

/* Returns a buffer to the pool (big ones are freed, so the pool stays small). */
void wtcrt_msg_free(wtcrt_msg *m)
{
    if (m->cap > (1u << 16)) {
        free(m->buf);
        m->buf = NULL;
        m->cap = 0;
    }
    m->next = rt.pool;
    rt.pool = m;
}

static int send_any(int dest, int tag, wtcrt_msg *m, int sync);

/* Sends m (MPI_Isend); the buffer returns to the pool when the send completes. */
void wtcrt_send(int dest, int tag, wtcrt_msg *m)
{
    send_any(dest, tag, m, 0);
}

/* Sends m with MPI_Issend: the send completes once the receiver has taken it. */
void wtcrt_send_sync(int dest, int tag, wtcrt_msg *m)
{
    send_any(dest, tag, m, 1);
}

/* The largest piece one MPI call carries (doc/runtime.md "Messages over 2 GiB"):
   1 GiB, or WTC_MSG_CHUNK bytes (at least a header; for tests of the pieces). */
static size_t chunk_bytes(void)
{
    static size_t chunk;
    if (!chunk) {
        const char *s = getenv("WTC_MSG_CHUNK");
        long long v = s && *s ? atoll(s) : 0;
        chunk = WTCRT_MSG_CHUNK;
        if (v > 0)
            chunk = v < WTCRT_HDR_SIZE ? WTCRT_HDR_SIZE : v > INT_MAX ? INT_MAX : (size_t)v;
    }
    return chunk;
}

/* Remembers request r of message m (one per piece); m goes back to the pool when its
   last piece has left (msg_release). */
static void add_request(MPI_Request r, wtcrt_msg *m)
{
    if (rt.nreqs == rt.capreqs) {
        rt.capreqs = rt.capreqs ? 2 * rt.capreqs : 64;
        rt.reqs = xrealloc(rt.reqs, (size_t)rt.capreqs * sizeof *rt.reqs);
        rt.reqmsg = xrealloc(rt.reqmsg, (size_t)rt.capreqs * sizeof *rt.reqmsg);
    }
    rt.reqs[rt.nreqs] = r;
    rt.reqmsg[rt.nreqs++] = m;
    m->refs++;
}

/* One piece of a message has left: the message is freed with its last. */
static void msg_release(wtcrt_msg *m)
{
    if (--m->refs == 0)
        wtcrt_msg_free(m);
}

/* Sends m in pieces of at most chunk_bytes() (one piece below that), all with the same
   tag: MPI does not let messages of one sender and tag overtake each other, and the
   receiver takes the rest right after the first piece (recv_probed), so the pieces
   arrive as one message. Returns the number of pieces (requests added). */
static int send_any(int dest, int tag, wtcrt_msg *m, int sync)
{
    size_t chunk = chunk_bytes(), off = 0;
    int n = 0;
    WTCRT_HDR(m)->kind = tag;
    WTCRT_HDR(m)->nbytes = (long long)(m->len - WTCRT_HDR_SIZE); /* the receiver's total */
    m->refs = 0;
    do {
        size_t len = m->len - off < chunk ? m->len - off : chunk;
        MPI_Request r;
        if (sync)
            MPI_Issend(m->buf + off, (int)len, MPI_BYTE, dest, tag, rt.comm, &r);
        else
            MPI_Isend(m->buf + off, (int)len, MPI_BYTE, dest, tag, rt.comm, &r);
        add_request(r, m);
        off += len;
        n++;
    } while (off < m->len);
    wtcrt_bell_ring(dest);
    rt.st.msgs++;
    rt.st.bytes += (long long)m->len;
    return n;
}

/* Sends a TASK: like wtcrt_send, but wtcrt_sync_tasks will wait for it. */
void wtcrt_send_task_msg(int dest, wtcrt_msg *m)
{
    int n = send_any(dest, WTCRT_TASK, m, 0);
    /* move its requests from the general list to the TASK list */
    for (int i = rt.nreqs - n; i < rt.nreqs; i++) {
        if (rt.ntasks == rt.captasks) {
            rt.captasks = rt.captasks ? 2 * rt.captasks : 16;
            rt.treqs = xrealloc(rt.treqs, (size_t)rt.captasks * sizeof *rt.treqs);
            rt.tmsgs = xrealloc(rt.tmsgs, (size_t)rt.captasks * sizeof *rt.tmsgs);
        }
        rt.treqs[rt.ntasks] = rt.reqs[i];
        rt.tmsgs[rt.ntasks++] = rt.reqmsg[i];
    }
    rt.nreqs -= n;
}

/* Waits until every TASK sent so far has left. With MPICH/UCX a TASK above the eager
   limit does not move until the sender calls MPI again, so the sender waits before it
   computes (LogGPS: above S bytes a send is synchronous). The receivers are idle workers
   polling, so this is short; polling with back-off leaves the core to them. */
void wtcrt_sync_tasks(void)
{
    int us = 0;
    while (rt.ntasks > 0) {
        int done = 0;
        MPI_Test(&rt.treqs[rt.ntasks - 1], &done, MPI_STATUS_IGNORE);
        if (done) {
            msg_release(rt.tmsgs[--rt.ntasks]);
            wtcrt_backoff_end(&us);
        } else {
            wtcrt_backoff(&us);
        }
    }
    wtcrt_backoff_end(&us);
}

/* Completes the sends that have finished; keeps the others. */
void wtcrt_progress(void)
{
    int i = 0;
    while (i < rt.nreqs) {
        int done = 0;
        MPI_Test(&rt.reqs[i], &done, MPI_STATUS_IGNORE);
        if (done) {
            msg_release(rt.reqmsg[i]);
            rt.nreqs--;
            rt.reqs[i] = rt.reqs[rt.nreqs];
            rt.reqmsg[i] = rt.reqmsg[rt.nreqs];
        } else {
            i++;
        }
    }
}

/* Starts a nonblocking barrier over rt.comm: *req completes once every rank has
   started one (a region's end: nobody sends any more). SimGrid 3.32's MPI_Ibarrier does
   not wait for that: rank 0 sends its releases along with its receives, so a rank leaves
   once rank 0 has entered, a thief's STEAL to it stayed unanswered and the job hung
   (steal mode, 3 of 8 runs at P = 128). Its MPI_Iallreduce receives from every rank. */
void wtcrt_ibarrier(MPI_Request *req)
{
#ifdef WTC_MPI_SMPI
    static int zero, sum; /* one barrier at a time per rank, alive until it completes */
    MPI_Iallreduce(&zero, &sum, 1, MPI_INT, MPI_SUM, rt.comm, req);
#else
    MPI_Ibarrier(rt.comm, req);
#endif
}

/* Waits for every pending send. */
void wtcrt_flush_sends(void)
{
    /* MPI_Wait one by one: gcc warns about MPI_STATUSES_IGNORE in MPI_Waitall */
    for (int i = 0; i < rt.nreqs; i++) {
        MPI_Wait(&rt.reqs[i], MPI_STATUS_IGNORE);
        msg_release(rt.reqmsg[i]);
    }
    rt.nreqs = 0;
}

/* One step of waiting. *us starts at 0: the first steps only yield the core
   (sched_yield: returns at once when no other process wants the core), at least
   rt.yield_polls of them and for at least rt.yield_s seconds of wall time; then each
   step sleeps *us microseconds, doubling up to the ceiling, or until a rank on this
   host rings the doorbell (doc/runtime.md "Waiting without burning a core"). The
   caller looks for what it waits for between steps, and calls wtcrt_backoff_end when
   the wait is over. */
void wtcrt_backoff(int *us)
{
    if (*us <= 0) {
        /* one deadline per rank: a wait nested in another only moves it */
        if (*us == 0)
            rt.yield_until = wtcrt_now() + rt.yield_s;
        if (-*us < rt.yield_polls || wtcrt_now() < rt.yield_until) {
            *us = *us > -1000000 ? *us - 1 : *us;
            sched_yield();
            return;
        }
        *us = 1;
    }
    /* senders ring only once "asleep" is published: look once more before sleeping */
    if (wtcrt_bell_arm())
        return;
    wtcrt_bell_sleep(*us);
    *us = *us > rt.sleep_max_us / 2 ? rt.sleep_max_us : *us * 2; /* no int overflow */
}

/* Ends a wait of wtcrt_backoff: the next one starts with yields again. */
void wtcrt_backoff_end(int *us)
{
    if (*us > 0)
        wtcrt_bell_disarm();
    *us = 0;
}

/* The yield phase in seconds: long when every local rank has a core of its own (an
   answer comes in microseconds and nobody else wants the core), short when the host
   runs more ranks than it has cores (yielding would take the core from a computing
   rank). WTC_YIELD_US / WTC_YIELD_OVER_US override. host_ranks 0: not known. */
double wtcrt_yield_seconds(int host_ranks)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int over = cores > 0 && host_ranks > cores;
    const char *s = getenv(over ? "WTC_YIELD_OVER_US" : "WTC_YIELD_US");
    double us = over ? WTCRT_YIELD_OVER_US : WTCRT_YIELD_US;
    if (s && *s)
        us = atof(s);
    return us > 0 ? us * 1e-6 : 0;
}

/* The waiting parameters: doorbell, yield phase, sleep ceiling (collective). */
void wtcrt_wait_init(void)
{
    const char *s = getenv("WTC_SLEEP_MAX_US");
    int all = wtcrt_bell_init();
    rt.sleep_max_us = all ? WTCRT_SLEEP_MAX_BELL_US : WTCRT_SLEEP_MAX_US;
    if (s && wtcrt_parse_positive(s) > 0)
        rt.sleep_max_us = wtcrt_parse_positive(s);
    rt.yield_s = wtcrt_yield_seconds(rt.host_ranks);
    s = getenv("WTC_YIELD_POLLS");
    rt.yield_polls = s ? atoi(s) : WTCRT_YIELD_POLLS;
    /* short sleeps must really be short: the default 50 us timer slack would round
       every back-off step up */
    prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
}

/* Looks once for a message matching src/tag; 1 with *st filled when there is one. */
static int probe(int src, int tag, MPI_Status *st)
{
    int flag = 0;
    /* MPICH's Iprobe makes progress only after looking: a message pulled in by that
       progress is seen by the second look, not a sleep later */
    MPI_Iprobe(src, tag, rt.comm, &flag, st);
    if (!flag)
        MPI_Iprobe(src, tag, rt.comm, &flag, st);
    return flag;
}

/* Receives the pieces after the first of a message sent in pieces (send_any): they
   come from the same sender with the same tag, and nothing of that sender and tag can
   come between them. */
static void recv_rest(wtcrt_msg *m, size_t got)
{
    while (got < m->len) {
        size_t want = m->len - got;
        MPI_Status st;
        int n;
        MPI_Recv(m->buf + got, want > INT_MAX ? INT_MAX : (int)want, MPI_BYTE, m->src,
                 m->tag, rt.comm, &st);
        MPI_Get_count(&st, MPI_BYTE, &n);
        if (n <= 0)
            wtcrt_die("empty piece of a %zu-byte message (tag %d) from rank %d", m->len,
                      m->tag, m->src);
        got += (size_t)n;
    }
}

/* Receives the message that probe found (all its pieces). */
static wtcrt_msg *recv_probed(const MPI_Status *st)
{
    int n;
    long long total;
    wtcrt_msg *m;
    MPI_Get_count(st, MPI_BYTE, &n);
    if (n < WTCRT_HDR_SIZE)
        wtcrt_die("short message (%d bytes, tag %d) from rank %d", n, st->MPI_TAG,
                  st->MPI_SOURCE);
    m = wtcrt_msg_new((size_t)n - WTCRT_HDR_SIZE);
    MPI_Recv(m->buf, n, MPI_BYTE, st->MPI_SOURCE, st->MPI_TAG, rt.comm, MPI_STATUS_IGNORE);
    m->src = st->MPI_SOURCE;
    m->tag = st->MPI_TAG;
    total = WTCRT_HDR(m)->nbytes;
    if (total < (long long)n - WTCRT_HDR_SIZE)
        wtcrt_die("message of %d bytes (tag %d) from rank %d says %lld", n, m->tag, m->src,
                  total);
    if (total > (long long)n - WTCRT_HDR_SIZE) {
        m->len = WTCRT_HDR_SIZE + (size_t)total;
        if (m->cap < m->len) {
            m->buf = xrealloc(m->buf, m->len);
            m->cap = m->len;
        }
        recv_rest(m, (size_t)n);
    }
    /* a big TASK's parent waits for the send to complete (wtcrt_sync_tasks) */
    if (m->tag == WTCRT_TASK && m->len > WTCRT_BELL_TASK_BYTES)
        wtcrt_bell_ring(m->src);
    return m;
}

/* Waits (polling, sleeping between polls) for a message matching src/tag and
   receives it. */
wtcrt_msg *wtcrt_recv(int src, int tag)
{
    MPI_Status st;
    int us = 0;
    while (!probe(src, tag, &st)) {
        if (rt.nreqs)
            wtcrt_progress();
        wtcrt_backoff(&us);
    }
    wtcrt_backoff_end(&us);
    return recv_probed(&st);
}

/* Receives a message matching src/tag if one has arrived; NULL otherwise. */
wtcrt_msg *wtcrt_try_recv(int src, int tag)
{
    MPI_Status st;
    if (rt.nreqs)
        wtcrt_progress();
    return probe(src, tag, &st) ? recv_probed(&st) : NULL;
}

/* Receives any message if one has arrived (for polls on the compute path); NULL
   otherwise. It asks MPI only when the doorbell's mail flag says a rank of this host
   sent something, or when the sleep ceiling has passed since it last asked (messages
   from other hosts, and any the flag missed, wait at most that long). The clock is read
   only every WTCRT_POLL_CLOCK polls with the flag down: a poll stays a load and a
   branch (UTS polls before each of its 4 M children). */
#define WTCRT_POLL_CLOCK 64
wtcrt_msg *wtcrt_try_recv_quick(void)
{
    MPI_Status st;
    if (!wtcrt_bell_mail()) {
        double now;
        if (++rt.polls_down < WTCRT_POLL_CLOCK)
            return NULL;
        rt.polls_down = 0;
        now = wtcrt_now();
        if (now - rt.last_probe < rt.sleep_max_us * 1e-6)
            return NULL;
        rt.last_probe = now;
    }
    if (rt.nreqs)
        wtcrt_progress();
    if (!probe(MPI_ANY_SOURCE, MPI_ANY_TAG, &st))
        return NULL;
    wtcrt_bell_mail_again();
    return recv_probed(&st);
}

/* ---- states, statistics, trace ---------------------------------------------------- */

/* Appends one trace event. */
static void trace_event(int state, int ph, double now)
{
    if (rt.nev == rt.capev) {
        if (rt.capev >= WTCRT_MAX_EVENTS)
            return;
        rt.capev = rt.capev ? 2 * rt.capev : 4096;
        rt.ev = xrealloc(rt.ev, (size_t)rt.capev * sizeof *rt.ev);
    }
    rt.ev[rt.nev].ts = (now - rt.t0) * 1e6;
    rt.ev[rt.nev].state = state;
    rt.ev[rt.nev].ph = ph;
    rt.nev++;
}

/* Enters a state; returns the previous one. Time is charged to the state left. */
int wtcrt_set_state(int state)
{
    int old = rt.state;
    double now;
    if (state == old)
        return old;
    now = wtcrt_now();
    rt.st.t[old] += now - rt.tstate;
    rt.tstate = now;
    rt.state = state;
    if (rt.tracing) {
        /* keep B/E balanced when the event buffer is full: stop after an E */
        if (rt.nev + 2 > WTCRT_MAX_EVENTS) {
            if (rt.tracing == 1)
                trace_event(old, 'E', now);
            rt.tracing = 2;
            return old;
        }
        trace_event(old, 'E', now);
        trace_event(state, 'B', now);
    }
    return old;
}

/* Closes the last state at exit. */
static void states_end(void)
{
    double now = wtcrt_now();
    rt.st.t[rt.state] += now - rt.tstate;
    rt.tstate = now;
    rt.st.wall = now - rt.t0;
    if (rt.tracing == 1)
        trace_event(rt.state, 'E', now);
}

/* Rank 0: receives every rank's STATS, prints the table, writes the trace; -1 when
   the trace could not be written. */
static int stats_gather(void)
{
    int failed = 0;
    int P = rt.nranks;
    wtcrt_stats *s = calloc((size_t)P, sizeof *s);
    wtcrt_event **ev = calloc((size_t)P, sizeof *ev);
    long *nev = calloc((size_t)P, sizeof *nev);
    wtcrt_msg **msgs = calloc((size_t)P, sizeof *msgs);
    char title[256];
    if (!s || !ev || !nev || !msgs)
        wtcrt_die("out of memory");
    s[0] = rt.st;
    ev[0] = rt.ev;
    nev[0] = rt.nev;
    for (int r = 1; r < P; r++) {
        msgs[r] = wtcrt_recv(r, WTCRT_STATS);
        memcpy(&s[r], WTCRT_PAYLOAD(msgs[r]), sizeof s[r]);
        nev[r] = (long)((msgs[r]->len - WTCRT_HDR_SIZE - sizeof s[r]) / sizeof(wtcrt_event));
        ev[r] = (wtcrt_event *)(void *)(WTCRT_PAYLOAD(msgs[r]) + sizeof s[r]);
    }
    if (rt.opt.stats) {
        snprintf(title, sizeof title, "%d rank%s, %.4f s from start to exit", P,
                 P > 1 ? "s" : "", rt.st.wall);
        wtcrt_stats_print(stderr, s, P, title);
    }
    if (rt.opt.trace && wtcrt_trace_write(rt.opt.trace, "wtc program", P, ev, nev, s) < 0) {
        fprintf(stderr, "wtc: error: --wtc-trace=%s: cannot write it: %s\n", rt.opt.trace,
                strerror(errno));
        failed = 1;
    }
    for (int r = 1; r < P; r++)
        wtcrt_msg_free(msgs[r]);
    free(s);
    free(ev);
    free(nev);
    free(msgs);
    return failed ? -1 : 0;
}

/* Other ranks: sends counters and trace events to rank 0. */
static void stats_send(void)
{
    size_t evb = (size_t)rt.nev * sizeof(wtcrt_event);
    wtcrt_msg *m = wtcrt_msg_new(sizeof rt.st + evb);
    memcpy(WTCRT_PAYLOAD(m), &rt.st, sizeof rt.st);
    if (evb)
        memcpy(WTCRT_PAYLOAD(m) + sizeof rt.st, rt.ev, evb);
    wtcrt_send(0, WTCRT_STATS, m);
}

/* ---- start and exit --------------------------------------------------------------- */

/* Everything after user_main (rank 0) or EXIT (others): stats, MPI_Finalize. Returns
   the exit status: 'status', or 2 on rank 0 when the trace could not be written. */
static int finish(int status)
{
    if (rt.finished)
        return status;
    rt.finished = 1;
    if (rt.rank == 0) {
        for (int r = 1; r < rt.nranks; r++) {
            wtcrt_msg *m = wtcrt_msg_new(0);
            WTCRT_HDR(m)->want = status;
            wtcrt_send(r, WTCRT_EXIT, m);
        }
    }
    states_end();
    if (rt.opt.stats || rt.opt.trace) {
        if (rt.rank == 0) {
            fflush(stdout);
            if (stats_gather() < 0 && status == 0)
                status = 2;
        } else {
            stats_send();
        }
    }
    wtcrt_flush_sends();
    fflush(NULL); /* every rank's output is out before MPI_Finalize */
    wtcrt_mpi_end();
    wtcrt_bell_fini();
    return status;
}

/* exit() called by the user: rank 0 outside a region releases the other ranks;
   anywhere else the program cannot end cleanly and is aborted. */
static void on_exit_handler(int status, void *arg)
{
    (void)arg;
    if (rt.finished || !rt.started || wtcrt_forked())
        return;
    if (rt.rank == 0 && !rt.in_region) {
        fflush(stdout);
        finish(status);
        return;
    }
    fflush(stdout);
    fprintf(stderr, "wtc: rank %d: exit(%d) called inside a parallel region; "
                    "aborting all ranks\n", rt.rank, status);
    fflush(NULL);
    wtcrt_mpi_abort(status ? status : 1);
}

/* 1 in a child of fork() made by the user's program: the MPI state (and the
   doorbell) belong to the parent, so the child ends as a plain process and touches
   nothing of MPI (MPI_Finalize there died of SIGABRT and took the parent with it). */
int wtcrt_forked(void)
{
    return rt.pid != 0 && getpid() != rt.pid;
}

/* --wtc-auto=PROFILE: takes mode, masters, batch and depth for this P from the
   profile's table (every rank reads it, as every rank parses argv); rank 0 says what
   it chose, on one line. 0 or -1 with err set. */
static int opts_auto(char *err, size_t errsz)
{
    wtcrt_auto a;
    char how[128];
    int n;
    if (rt.opt.mode || rt.opt.masters || rt.opt.batch || rt.opt.depth >= 0) {
        snprintf(err, errsz, "wtc: error: --wtc-auto chooses mode, masters, batch and depth; "
                 "give none of them with it");
        return -1;
    }
    if (wtcrt_profile_auto(rt.opt.autof, rt.prog, rt.nranks, rt.opt.machine, &a, err + 12,
                           errsz - 12) < 0) {
        memcpy(err, "wtc: error: ", 12);
        return -1;
    }
    rt.opt.mode = a.mode;
    rt.opt.masters = a.mode == WTC_MODE_DYNAMIC && rt.nranks > 1 ? a.masters : 0;
    rt.opt.batch = a.batch;
    rt.opt.depth = a.depth;
    /* the choice as the options that would run it by hand */
    n = snprintf(how, sizeof how, "--wtc-mode=%s", wtcrt_mode_name(a.mode));
    if (rt.opt.masters)
        n += snprintf(how + n, sizeof how - n, " --wtc-masters=%d", rt.opt.masters);
    if (a.batch)
        n += snprintf(how + n, sizeof how - n, " --wtc-batch=%d", a.batch);
    if (a.depth >= 0)
        snprintf(how + n, sizeof how - n, " --wtc-depth=%d", a.depth);
    if (rt.rank == 0)
        fprintf(stderr, "wtc: auto from %s (machine %s), P = %d: %s, predicted %.6f s\n",
                rt.opt.autof, a.machine, rt.nranks, how, a.predicted);
    return 0;
}

/* Checks the options against the number of ranks; 0 or -1 with err set. */
static int opts_check(char *err, size_t errsz)
{
    if (rt.opt.autof && opts_auto(err, errsz) < 0)
        return -1;
    wtc_cut_depth = rt.opt.depth;
    if (rt.opt.masters && rt.nranks > 1 && rt.opt.masters >= rt.nranks) {
        snprintf(err, errsz, "wtc: error: --wtc-masters=%d needs at least %ld ranks "
                 "(running on %d): at least one rank must be a worker",
                 rt.opt.masters, (long)rt.opt.masters + 1, rt.nranks);
        return -1;
    }
    return 0;
}

/* --wtc-trace=FILE: rank 0 makes sure FILE can be written before the run, not after
   it; every rank learns the answer. 0, or -1 with err set. */
static int trace_check(char *err, size_t errsz)
{
    int bad = 0;
    if (!rt.opt.trace)
        return 0;
    if (rt.rank == 0 && wtcrt_check_writable(rt.opt.trace) < 0) {
        bad = errno ? errno : EIO;
        snprintf(err, errsz, "wtc: error: --wtc-trace=%s: cannot write it: %s",
                 rt.opt.trace, strerror(bad));
    }
    if (rt.nranks > 1) /* every rank has the same options: all take part */
        MPI_Bcast(&bad, 1, MPI_INT, 0, rt.comm);
    return bad ? -1 : 0;
}

/* Initialises states and the trace; every rank starts the clock after a barrier so the
   lanes of the trace line up. */
static void states_start(void)
{
    if (rt.nranks > 1) {
        /* one rank never waits (and may run without MPI: mpi/single.c) */
        wtcrt_wait_init();
        MPI_Barrier(rt.comm);
    }
    rt.tracing = rt.opt.trace ? 1 : 0;
    rt.t0 = rt.tstate = wtcrt_now();
    rt.state = rt.rank == 0 ? WTCRT_S_COMPUTE : WTCRT_S_IDLE;
    if (rt.tracing)
        trace_event(rt.state, 'B', rt.t0);
    rt.st.worker = rt.rank == 0;
}

/* WTC_DECISIONS=FILE: every rank appends its decisions that move work to FILE, one
   line each (runtime/core/proto.h), for comparing a run with its simulation. */
static void decisions_open(void)
{
    const char *path = getenv("WTC_DECISIONS");
    FILE *f;
    if (!path || !*path)
        return;
    if (!(f = fopen(path, "a")))
        wtcrt_die("WTC_DECISIONS=%s: cannot open", path);
    setvbuf(f, NULL, _IOLBF, 0);
    wtcp_log_open(f);
}

int wtc_start(int argc, char **argv, const wtc_program *prog)
{
    char err[512];
    int status, ok;
    rt.pid = getpid();
    wtcrt_mpi_start(&argc, &argv);
    rt.prog = prog;
    ok = prog->abi_version == WTC_ABI_VERSION;
    wtcrt_checking = ok && prog->check;
    if (!ok)
        snprintf(err, sizeof err, "wtc: error: program built for ABI %d, runtime is ABI %d",
                 prog->abi_version, WTC_ABI_VERSION);
    else
        ok = wtcrt_opts_parse(&argc, argv, &rt.opt, err, sizeof err) == 0 &&
             opts_check(err, sizeof err) == 0 &&
             (rt.opt.help || trace_check(err, sizeof err) == 0);
    if (!ok || rt.opt.help) {
        /* every rank parsed the same argv: all stop, rank 0 says why (or the usage) */
        if (rt.rank == 0 && !ok)
            fprintf(stderr, "%s\n", err);
        else if (rt.rank == 0)
            fputs(wtcrt_usage, stdout);
        wtcrt_mpi_end();
        return ok ? 0 : 2;
    }
    states_start();
    decisions_open();
    rt.started = 1;
    on_exit(on_exit_handler, NULL);
    if (rt.rank == 0)
        status = prog->user_main(argc, argv);
    else
        status = wtcrt_serve();
    if (wtcrt_forked())
        return status; /* a child of fork() returned from main: a plain process */
    fflush(stdout);
    return finish(status);
}
