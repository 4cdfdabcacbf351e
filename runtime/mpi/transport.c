/* mpi/transport.c - the MPI runtime's core: start-up and exit, message transport with
   nonblocking sends and sleeping polls, states for --wtc-stats / --wtc-trace. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <time.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <sys/resource.h>
#include "wtcrt.h"
#include "wtc_mpi_impl.h"

/* The runtime state of this process (doc/runtime.md "Where the decisions live"): every
   function of runtime/mpi takes it as its first parameter; only the places where the
   outside world enters the runtime name it (tests/unit/rt_state.sh lists them). */
wtcrt_rt wtcrt_this_rank;

#define WTCRT_YIELD_US 100 /* yield phase, a core per local rank; WTC_YIELD_US overrides */
#define WTCRT_YIELD_OVER_US 0 /* more local ranks than cores; WTC_YIELD_OVER_US */
#define WTCRT_YIELD_POLLS 10 /* and at least this many yields; WTC_YIELD_POLLS overrides */
#define WTCRT_BELL_TASK_BYTES 1024 /* a receiver rings the parent of bigger TASKs */
#define WTCRT_MSG_CHUNK ((size_t)1 << 30) /* bytes per MPI call; WTC_MSG_CHUNK overrides */

/* Prints a runtime error and stops every rank. */
void wtcrt_die(wtcrt_rt *rt, const char *fmt, ...)
{
    va_list ap;
    wtcrt_abort_watch(rt, 2); /* before anything that waits: the start thread's join */
    wtcrt_mpi_ready(rt); /* rt->rank is MPI's */
    fflush(stdout); /* what the program printed comes before the error */
    fprintf(stderr, "wtc: rank %d: fatal: ", rt->rank);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(NULL);
    wtcrt_mpi_abort(rt, 2);
    exit(2);
}

/* A call's element count reaches past its buffer (common/check.c): stops every rank. */
void wtcrt_check_fail(const char *msg)
{
    wtcrt_rt *rt = &wtcrt_this_rank; /* entered from common/check.c */
    wtcrt_enter(rt);
    wtcrt_die(rt, "%s", msg);
}

/* Allocation that cannot fail silently. */
static void *xrealloc(wtcrt_rt *rt, void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        wtcrt_die(rt, "out of memory (%zu bytes)", n);
    return q;
}

/* ---- messages --------------------------------------------------------------------- */

/* A buffer for a header and 'payload' bytes, from the pool. */
wtcrt_msg *wtcrt_msg_new(wtcrt_rt *rt, size_t payload)
{
    wtcrt_msg *m = wtcrt_held ? NULL : rt->pool; /* held: the start thread's pool */
    size_t len = WTCRT_HDR_SIZE + payload;
    if (m)
        rt->pool = m->next;
    else
        m = calloc(1, sizeof *m);
    if (!m)
        wtcrt_die(rt, "out of memory");
    if (m->cap < len) {
        m->cap = len < 256 ? 256 : len;
        free(m->buf);
        m->buf = xrealloc(rt, NULL, m->cap);
    }
    m->len = len;
    m->refs = 0;
    m->nsegs = 0;
    m->owned = NULL;
    m->placed = NULL;
    memset(m->buf, 0, WTCRT_HDR_SIZE);
    WTCRT_HDR(m)->nbytes = (long long)payload;
    return m;
}

/* Returns a buffer to the pool (big ones are freed, so the pool stays small). */
void wtcrt_msg_free(wtcrt_rt *rt, wtcrt_msg *m)
{
    wtcrt_task_mem_free(rt, m->owned);
    wtcrt_task_mem_free(rt, m->placed);
    m->owned = m->placed = NULL;
    if (wtcrt_held) { /* the pool is the start thread's (mpi/single.c) */
        free(m->segs);
        free(m->buf);
        free(m);
        return;
    }
    m->nsegs = 0;
    if (m->cap > (1u << 16)) {
        free(m->buf);
        m->buf = NULL;
        m->cap = 0;
    }
    m->next = rt->pool;
    rt->pool = m;
}

void wtcrt_msg_seg(wtcrt_rt *rt, wtcrt_msg *m, size_t at, const void *ptr, size_t len)
{
    if (m->nsegs == m->capsegs) {
        m->capsegs = m->capsegs ? 2 * m->capsegs : 4;
        m->segs = xrealloc(rt, m->segs, (size_t)m->capsegs * sizeof *m->segs);
    }
    m->segs[m->nsegs].ptr = ptr;
    m->segs[m->nsegs].len = len;
    m->segs[m->nsegs++].at = at;
}

/* Task memory: a block's size is in the 16 bytes before it (h: the block's start). */
static size_t block_cap(const void *h)
{
    return *(const size_t *)h;
}

/* The smallest kept block that is big enough, else new memory. */
void *wtcrt_task_mem(wtcrt_rt *rt, size_t n)
{
    int best = -1;
    size_t *h;
    for (int i = 0; i < rt->nkept; i++)
        if (block_cap(rt->kept[i]) >= n &&
            (best < 0 || block_cap(rt->kept[i]) < block_cap(rt->kept[best])))
            best = i;
    if (best >= 0) {
        h = rt->kept[best];
        rt->kept[best] = rt->kept[--rt->nkept];
        rt->kept_bytes -= *h;
        return (unsigned char *)h + 16;
    }
    if (!(h = malloc(16 + (n ? n : 1))))
        wtcrt_die(rt, "out of memory (%zu bytes)", n);
    *h = n;
    return (unsigned char *)h + 16;
}

/* Lets every kept block go (wtc-calibrate: a TASK's children in new memory). */
void wtcrt_task_mem_drop(wtcrt_rt *rt)
{
    while (rt->nkept > 0)
        free(rt->kept[--rt->nkept]);
    rt->kept_bytes = 0;
}

/* Keeps a block of 1 MiB-1 GiB for the next TASKs (the smallest kept goes when there is
   no room, or this one when it is the smallest); frees any other. */
void wtcrt_task_mem_free(wtcrt_rt *rt, void *p)
{
    size_t *h, cap;
    if (!p)
        return;
    h = (size_t *)(void *)((unsigned char *)p - 16);
    cap = block_cap(h);
    if (cap < WTCRT_TASKMEM_MIN || cap > WTCRT_TASKMEM_MAX) {
        free(h);
        return;
    }
    while (rt->nkept == WTCRT_TASKMEM_KEEP || rt->kept_bytes + cap > WTCRT_TASKMEM_TOTAL) {
        int small = 0;
        for (int i = 1; i < rt->nkept; i++)
            if (block_cap(rt->kept[i]) < block_cap(rt->kept[small]))
                small = i;
        if (block_cap(rt->kept[small]) >= cap) {
            free(h);
            return;
        }
        rt->kept_bytes -= block_cap(rt->kept[small]);
        free(rt->kept[small]);
        rt->kept[small] = rt->kept[--rt->nkept];
    }
    rt->kept[rt->nkept++] = h;
    rt->kept_bytes += cap;
}

static int send_any(wtcrt_rt *rt, int dest, int tag, wtcrt_msg *m);
static void send_wait_step(wtcrt_rt *rt, int *us);

/* The MPI tag of a message of kind 'kind' sent or awaited now: the control messages of
   every other region that ends with a barrier add WTCRT_TAG_ODD. A rank in such a
   region's end takes these kinds (a master its workers' last REQ and IDLE, a thief the
   answer to its STEAL) until the barrier completes, and the next region may already
   have started elsewhere: rank 0 leaves the barrier once every rank entered it, and
   sends its first REQ, while a master still waits for its own barrier to complete.
   With one tag for both regions that master took the REQ and dropped it (its region
   was ending), and rank 0, its request standing, ran the region alone until it had
   nothing pending (tests/unit/rt_regions.sh). Only the next such region can reach a
   rank in an end (the one after it ends with a barrier this rank has not entered), so
   a parity is enough; simple regions between them send no control messages. */
static int wire_tag(const wtcrt_rt *rt, int kind)
{
    switch (kind) {
    case WTCRT_REQ: case WTCRT_FWD: case WTCRT_GRANT: case WTCRT_IDLE:
    case WTCRT_STEAL: case WTCRT_NOWORK:
        return rt->barrier_regions & 1 ? kind + WTCRT_TAG_ODD : kind;
    default:
        return kind;
    }
}

/* Sends m (MPI_Isend); the buffer returns to the pool when the send completes. */
void wtcrt_send(wtcrt_rt *rt, int dest, int tag, wtcrt_msg *m)
{
    send_any(rt, dest, tag, m);
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
static void add_request(wtcrt_rt *rt, MPI_Request r, wtcrt_msg *m)
{
    if (rt->nreqs == rt->capreqs) {
        rt->capreqs = rt->capreqs ? 2 * rt->capreqs : 64;
        rt->reqs = xrealloc(rt, rt->reqs, (size_t)rt->capreqs * sizeof *rt->reqs);
        rt->reqmsg = xrealloc(rt, rt->reqmsg, (size_t)rt->capreqs * sizeof *rt->reqmsg);
        rt->reqdone = xrealloc(rt, rt->reqdone, (size_t)rt->capreqs * sizeof *rt->reqdone);
        rt->reqstat = xrealloc(rt, rt->reqstat, (size_t)rt->capreqs * sizeof *rt->reqstat);
    }
    rt->reqs[rt->nreqs] = r;
    rt->reqmsg[rt->nreqs++] = m;
    m->refs++;
}

/* One piece of a message has left: the message is freed with its last. */
static void msg_release(wtcrt_rt *rt, wtcrt_msg *m)
{
    if (--m->refs == 0)
        wtcrt_msg_free(rt, m);
}

/* Sends len bytes at p as pieces of at most 'chunk' bytes; returns how many. */
static int send_pieces(wtcrt_rt *rt, int dest, int tag, wtcrt_msg *m, const unsigned char *p,
                       size_t len, size_t chunk)
{
    int n = 0;
    for (size_t off = 0; off < len; n++) {
        size_t k = len - off < chunk ? len - off : chunk;
        MPI_Request r;
        MPI_Isend(p + off, (int)k, MPI_BYTE, dest, tag, rt->comm, &r);
        add_request(rt, r, m);
        off += k;
    }
    return n;
}

/* Sends m's byte stream (its buffer with its buffers by reference in between, m->segs)
   in pieces of at most chunk_bytes(), all with the same tag: MPI does not let messages
   of one sender and tag overtake each other, and the receiver takes the rest right
   after the first piece (recv_probed), so the pieces arrive as one message: one
   contiguous buffer there, or the big buffers straight where they go
   (wtcrt_task_place, wtcrt_result_place). The first piece holds at least the header
   (a buffer by reference comes after it). Returns the number of pieces (requests
   added). */
static int send_any(wtcrt_rt *rt, int dest, int tag, wtcrt_msg *m)
{
    size_t chunk = chunk_bytes(), at = 0, total = m->len;
    int n = 0;
    if (wtcrt_held && wtcrt_hold_send(rt, dest, tag, m))
        return 0; /* MPI still starting: the start thread sends it (mpi/single.c) */
    for (int i = 0; i < m->nsegs; i++)
        total += m->segs[i].len;
    WTCRT_HDR(m)->kind = tag;
    WTCRT_HDR(m)->nbytes = (long long)(total - WTCRT_HDR_SIZE); /* the receiver's total */
    tag = wire_tag(rt, tag);
    for (int i = 0; i < m->nsegs; i++) {
        n += send_pieces(rt, dest, tag, m, m->buf + at, m->segs[i].at - at, chunk);
        n += send_pieces(rt, dest, tag, m, m->segs[i].ptr, m->segs[i].len, chunk);
        at = m->segs[i].at;
    }
    n += send_pieces(rt, dest, tag, m, m->buf + at, m->len - at, chunk);
    wtcrt_bell_ring(rt, dest);
    if (WTCRT_HDR(m)->kind == WTCRT_BOUND) /* taken in inside leaves too (mpi/share.c) */
        wtcrt_bell_bound(rt, dest);
    rt->st.msgs++;
    rt->st.bytes += (long long)total;
    return n;
}

/* Sends m to each of the n ranks dest[], one buffer for all, and waits until these
   sends have completed: a message above the eager limit moves only while its sender
   calls MPI, and the receivers are idle ranks, so the wait is short (doc/runtime.md
   "The region start"). The caller still owns m. */
void wtcrt_send_each(wtcrt_rt *rt, const int *dest, int n, int tag, wtcrt_msg *m)
{
    int us = 0;
    wtcrt_mpi_ready(rt); /* waits for its receivers: MPI must have started */
    m->refs++; /* the caller's: the last send's completion does not free m */
    for (int i = 0; i < n; i++)
        send_any(rt, dest[i], tag, m);
    for (;;) {
        wtcrt_progress(rt);
        if (m->refs == 1)
            break;
        send_wait_step(rt, &us); /* a receiver may be sending to this rank */
    }
    wtcrt_backoff_end(rt, &us);
    m->refs--;
}

void wtcrt_send_others(wtcrt_rt *rt, int tag, wtcrt_msg *m)
{
    for (int d = 0; d < rt->nranks; d++)
        if (d != rt->rank)
            send_any(rt, d, tag, m);
}

/* Sends a TASK: like wtcrt_send, but wtcrt_sync_tasks will wait for it. */
void wtcrt_send_task_msg(wtcrt_rt *rt, int dest, wtcrt_msg *m)
{
    int n = send_any(rt, dest, WTCRT_TASK, m);
    if (n == 0) /* held: queued (mpi/single.c), and the start thread owns the request
                   lists until the hold is over: not even 'nreqs -= 0' (ThreadSanitizer
                   saw it undo the start thread's add_request) */
        return;
    /* move its requests from the general list to the TASK list */
    for (int i = rt->nreqs - n; i < rt->nreqs; i++) {
        if (rt->ntasks == rt->captasks) {
            rt->captasks = rt->captasks ? 2 * rt->captasks : 16;
            rt->treqs = xrealloc(rt, rt->treqs, (size_t)rt->captasks * sizeof *rt->treqs);
            rt->tmsgs = xrealloc(rt, rt->tmsgs, (size_t)rt->captasks * sizeof *rt->tmsgs);
        }
        rt->treqs[rt->ntasks] = rt->reqs[i];
        rt->tmsgs[rt->ntasks++] = rt->reqmsg[i];
    }
    rt->nreqs -= n;
}

/* Waits until every TASK sent so far has left. With MPICH/UCX a TASK above the eager
   limit does not move until the sender calls MPI again, so the sender waits before it
   computes (LogGPS: above S bytes a send is synchronous). Its receiver is mostly an idle
   worker polling, so this is short; polling with back-off leaves the core to it. But
   the receiver may itself be waiting here for a TASK to this rank: a dynamic master
   grants a worker that waits for results, or one that offered itself while waiting and
   has since gone back to its own children, and two such workers can be granted to each
   other; then neither receives and neither send completes (cilksort 4M, dynamic -n 5:
   4 runs in 8 hung). So the wait takes in whatever arrives meanwhile, into the inbox,
   to be handled at the next poll: every rank that waits here receives, and a cycle of
   sends cannot close. */
void wtcrt_sync_tasks(wtcrt_rt *rt)
{
    int us = 0;
    if (wtcrt_held && !wtcrt_hold_over(rt))
        return; /* the TASKs are queued: the start thread waits for them */
    while (rt->ntasks > 0) {
        int done = 0;
        MPI_Test(&rt->treqs[rt->ntasks - 1], &done, MPI_STATUS_IGNORE);
        if (done) {
            msg_release(rt, rt->tmsgs[--rt->ntasks]);
            wtcrt_backoff_end(rt, &us);
        } else {
            send_wait_step(rt, &us);
        }
    }
    wtcrt_backoff_end(rt, &us);
}

/* Completes the sends that have finished and keeps the others, in order: one
   MPI_Testsome for all of them (an MPI_Test each ran MPI's progress engine once per
   pending send, and SMPI charges every MPI_Test 1 us). */
void wtcrt_progress(wtcrt_rt *rt)
{
    int n = 0, j = 0;
    if (wtcrt_held && !wtcrt_hold_over(rt))
        return; /* nothing of this thread is in flight */
    if (rt->nreqs == 0)
        return;
    /* statuses, not MPI_STATUSES_IGNORE: gcc's access check warns about the latter */
    MPI_Testsome(rt->nreqs, rt->reqs, &n, rt->reqdone, rt->reqstat);
    if (n == MPI_UNDEFINED || n == 0)
        return;
    for (int k = 0; k < n; k++) /* MPI set their requests to MPI_REQUEST_NULL */
        msg_release(rt, rt->reqmsg[rt->reqdone[k]]);
    for (int i = 0; i < rt->nreqs; i++)
        if (rt->reqs[i] != MPI_REQUEST_NULL) {
            rt->reqs[j] = rt->reqs[i];
            rt->reqmsg[j++] = rt->reqmsg[i];
        }
    rt->nreqs = j;
}

/* Starts a nonblocking barrier over rt->comm: *req completes once every rank has
   started one (a region's end: nobody sends any more). SimGrid 3.32's MPI_Ibarrier does
   not wait for that: rank 0 sends its releases along with its receives, so a rank leaves
   once rank 0 has entered, a thief's STEAL to it stayed unanswered and the job hung
   (steal mode, 3 of 8 runs at P = 128). Its MPI_Iallreduce receives from every rank. */
void wtcrt_ibarrier(wtcrt_rt *rt, MPI_Request *req)
{
    wtcrt_mpi_ready(rt);
#ifdef WTC_MPI_SMPI
    static int zero, sum; /* one barrier at a time per rank, alive until it completes */
    MPI_Iallreduce(&zero, &sum, 1, MPI_INT, MPI_SUM, rt->comm, req);
#else
    MPI_Ibarrier(rt->comm, req);
#endif
}

/* Waits for a collective of the program's start (MPI_Comm_idup, the doorbell's
   MPI_Iallgather and MPI_Iallreduce, the start's MPI_Ibarrier): MPI_Test, then
   sched_yield, which returns at once where no other process wants the core. MPICH's
   blocking collectives poll without giving the core up, so with more ranks than cores
   the ranks that arrived first kept a latecomer off the cores for a scheduler time
   slice per collective: three took 20-30 ms of the start of 3 ranks on 2 cores, 2-10
   ms this way (doc/runtime.md "Start-up"). Under SMPI, MPI_Wait (its ranks are not
   processes that could yield to each other). */
void wtcrt_coll_wait(MPI_Request *req)
{
#ifdef WTC_MPI_SMPI
    MPI_Wait(req, MPI_STATUS_IGNORE);
#else
    int done = 0;
    for (;;) {
        MPI_Test(req, &done, MPI_STATUS_IGNORE);
        if (done)
            return;
        sched_yield();
    }
#endif
}

/* Waits for every pending send. */
void wtcrt_flush_sends(wtcrt_rt *rt)
{
    wtcrt_mpi_ready(rt);
    /* MPI_Wait one by one: gcc warns about MPI_STATUSES_IGNORE in MPI_Waitall */
    for (int i = 0; i < rt->nreqs; i++) {
        MPI_Wait(&rt->reqs[i], MPI_STATUS_IGNORE);
        msg_release(rt, rt->reqmsg[i]);
    }
    rt->nreqs = 0;
}

/* A sleep of us microseconds, cut short where the caller has something due before its
   end (rt->wake_by: a thief rings its victim's answering thread WTCP_ANSWER_GRACE after
   its STEAL; the doubling sleeps rang it 0.2-0.4 ms late, and the simulator rings at
   the grace). The back-off's own step goes on doubling. */
static int sleep_until(const wtcrt_rt *rt, int us)
{
    double left;
    if (rt->wake_by <= 0)
        return us;
    left = (rt->wake_by - wtcrt_now()) * 1e6;
    return left >= us || left <= 0 ? us : left > 1 ? (int)left : 1; /* past: not ours */
}

/* One step of waiting. *us starts at 0: the first steps only yield the core
   (sched_yield: returns at once when no other process wants the core), at least
   rt->yield_polls of them and for at least rt->yield_s seconds of wall time; then each
   step sleeps *us microseconds, doubling up to the ceiling, or until a rank on this
   host rings the doorbell (doc/runtime.md "Waiting without burning a core"). The
   caller looks for what it waits for between steps, and calls wtcrt_backoff_end when
   the wait is over. */
static void backoff_from(wtcrt_rt *rt, int *us, int first)
{
    wtcrt_mpi_ready(rt); /* a wait: for what only MPI brings */
    if (*us <= 0) {
        /* one deadline per rank: a wait nested in another only moves it */
        if (*us == 0)
            rt->yield_until = wtcrt_now() + rt->yield_s;
        if (-*us < rt->yield_polls || wtcrt_now() < rt->yield_until) {
            *us = *us > -1000000 ? *us - 1 : *us;
            sched_yield();
            return;
        }
        *us = first;
    }
    /* senders ring only once "asleep" is published: look once more before sleeping */
    if (wtcrt_bell_arm(rt))
        return;
    wtcrt_bell_sleep(rt, sleep_until(rt, *us));
    *us = *us > rt->sleep_max_us / 2 ? rt->sleep_max_us : *us * 2; /* no int overflow */
}

void wtcrt_backoff(wtcrt_rt *rt, int *us)
{
    backoff_from(rt, us, 1);
}

/* wtcrt_backoff for a wait that only a message from another rank can end. When every
   rank is on this host (each sender rings the doorbell after its send) and nothing
   this rank sent is still in flight (a rendezvous send may need its progress), the
   bell alone ends it, so the sleeps start at the ceiling instead of 1 us: a short
   timed sleep costs more CPU than it sleeps (a futex wait of 1-8 us took 20-25 us of
   CPU on the 2-core test VM), which an idle dynamic master spent over and over on the
   cores of the ranks computing beside it (doc/runtime.md "Waiting without burning a
   core"). */
void wtcrt_backoff_rung(wtcrt_rt *rt, int *us)
{
    backoff_from(rt, us, rt->bell_all_local && !rt->nreqs && !rt->ntasks ? rt->sleep_max_us : 1);
}

/* wtcrt_backoff for the region end's collective, which no doorbell announces: on a
   host with more ranks than cores the ranks it waits for need a core, and every one of
   them has been told the region ended, so the wait yields the core to them instead of
   sleeping 1-8 us at a time (dyn_end: 2000 regions of 8 children of 33 us at -n 3 on 2
   cores, 0.70 -> 0.58 s). */
static void backoff_collective(wtcrt_rt *rt, int *us)
{
    if (rt->oversubscribed && *us <= 0) {
        sched_yield();
        return;
    }
    wtcrt_backoff(rt, us);
}

void wtcrt_endbar_start(wtcrt_rt *rt, wtcrt_endbar *b, const int *counts, int *totals)
{
    b->local = wtcp_barrier_local(rt->bell_all_local);
    if (b->local)
        wtcrt_bell_bar_arrive(rt, counts);
    else if (counts)
        MPI_Iallreduce(counts, totals, rt->nranks, MPI_INT, MPI_SUM, rt->comm, &b->req);
    else
        wtcrt_ibarrier(rt, &b->req);
}

int wtcrt_endbar_done(wtcrt_rt *rt, wtcrt_endbar *b, int *totals)
{
    int done = 0;
    if (b->local)
        return wtcrt_bell_bar_done(rt, totals ? &totals[rt->rank] : NULL);
    MPI_Test(&b->req, &done, MPI_STATUS_IGNORE);
    return done;
}

void wtcrt_endbar_wait(wtcrt_rt *rt, const wtcrt_endbar *b, int *us)
{
    if (b->local) /* the segment's last rank rings */
        wtcrt_backoff_rung(rt, us);
    else
        backoff_collective(rt, us);
}

/* Ends a wait of wtcrt_backoff: the next one starts with yields again. */
void wtcrt_backoff_end(wtcrt_rt *rt, int *us)
{
    if (*us > 0)
        wtcrt_bell_disarm(rt);
    *us = 0;
    rt->wake_by = 0;
}

/* 1 when this host runs more of the job's ranks than it has online cores. */
static int host_oversubscribed(int host_ranks)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 0 && host_ranks > cores;
}

/* A measurement's setting in the environment (doc/runtime.md "Waiting without burning
   a core"): 0 when 'name' is unset, 1 with *v when it is a number >= lo (a whole one
   when 'whole'), -1 when it is anything else, which is then ignored. */
static int env_value(const char *name, int whole, double lo, double *v)
{
    const char *s = getenv(name);
    char *end;
    if (!s)
        return 0;
    errno = 0;
    *v = whole ? (double)strtol(s, &end, 10) : strtod(s, &end);
    return *s && !*end && !errno && *v >= lo && *v <= INT_MAX ? 1 : -1;
}

/* env_value, and rank 0 says so when the setting is ignored (a typo must not pass for
   the setting). */
static int env_checked(wtcrt_rt *rt, const char *name, int whole, double lo, double *v)
{
    int r = env_value(name, whole, lo, v);
    if (r < 0 && rt->rank == 0)
        fprintf(stderr, "wtc: warning: %s=%s ignored (want a %s, at least %g)\n", name,
                getenv(name), whole ? "whole number" : "number", lo);
    return r;
}

/* ---- an error that stops the job cannot hang it -------------------------------------

   A rank that stops the job waits for others on its way out: the start thread's join
   (wtcrt_mpi_ready), the answering thread's, MPI_Abort and the launcher. Should any of
   them never return (one CI run of tests/unit/rt_counts.sh at 2026-11-30 hung after the
   error until the test's timeout, with no stack taken; doc/runtime.md "Start-up"), a
   watchdog thread ends this rank itself WTCRT_ABORT_WAIT_S seconds later: a line that
   says so, then _exit(status), which the launcher takes as a failed rank and stops the
   others (hydra returns status, 9 for the ranks it killed, or 1 for one whose MPI lost
   this rank first). WTC_ABORT_WAIT_S overrides the wait (whole seconds, at least 1).
   Not under SMPI, whose ranks are threads of one process in simulated time. */
#define WTCRT_ABORT_WAIT_S 30

static char watch_note[160];
static int watch_status, watch_wait = WTCRT_ABORT_WAIT_S;

static void *watch_main(void *arg)
{
    struct timespec t = { watch_wait, 0 };
    sigset_t all;
    (void)arg;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    while (nanosleep(&t, &t) != 0)
        ;
    if (write(STDERR_FILENO, watch_note, strlen(watch_note)) < 0) {
        /* nothing more to do: the exit below is what matters */
    }
    _exit(watch_status);
}

void wtcrt_abort_watch(wtcrt_rt *rt, int status)
{
#ifdef WTC_MPI_SMPI
    (void)rt;
    (void)status;
    (void)watch_main;
#else
    static atomic_int started;
    pthread_attr_t attr;
    pthread_t th;
    double v;
    if (rt->alone || atomic_exchange(&started, 1))
        return; /* one rank alone exits at once; one watchdog is enough */
    if (env_value("WTC_ABORT_WAIT_S", 1, 1, &v) > 0)
        watch_wait = (int)v;
    watch_status = status;
    snprintf(watch_note, sizeof watch_note,
             "wtc: rank %d: the job did not stop within %d s of the error above; this rank "
             "exits (status %d)\n", rt->rank, watch_wait, status);
    if (pthread_attr_init(&attr) != 0)
        return;
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_create(&th, &attr, watch_main, NULL);
    pthread_attr_destroy(&attr);
#endif
}

/* The yield phase in seconds: long when every local rank has a core of its own (an
   answer comes in microseconds and nobody else wants the core), short when the host
   runs more ranks than it has cores (yielding would take the core from a computing
   rank). WTC_YIELD_US / WTC_YIELD_OVER_US override. host_ranks 0: not known. */
double wtcrt_yield_seconds(int host_ranks)
{
    int over = host_oversubscribed(host_ranks);
    double us = over ? WTCRT_YIELD_OVER_US : WTCRT_YIELD_US, v;
    if (env_value(over ? "WTC_YIELD_OVER_US" : "WTC_YIELD_US", 0, 0, &v) > 0)
        us = v;
    return us > 0 ? us * 1e-6 : 0;
}

/* The waiting parameters: doorbell, yield phase, sleep ceiling (collective). Returns 1
   when it synchronised the ranks on the way (no rank left before all had entered). */
int wtcrt_wait_init(wtcrt_rt *rt)
{
    double v;
    int synced, all;
    /* WTC_DOORBELL is read where the doorbell starts, the yield phases below */
    env_checked(rt, "WTC_DOORBELL", 1, 0, &v);
    env_checked(rt, "WTC_ANSWER", 1, 0, &v); /* read where the thread starts (answer.c) */
    env_checked(rt, "WTC_YIELD_US", 0, 0, &v);
    env_checked(rt, "WTC_YIELD_OVER_US", 0, 0, &v);
    /* read before MPI started (mpi/heap.c, mpi/single.c), where nothing may print, or
       at the first use: said here, once (each took any value but 0 for 'on', and 'off'
       or 'no' passed for a setting without a word) */
    env_checked(rt, "WTC_SHARED_HEAP", 1, 0, &v);
    env_checked(rt, "WTC_HEAP_FILL", 1, 0, &v);
    env_checked(rt, "WTC_HEAP_REAPER", 1, 0, &v);
    env_checked(rt, "WTC_START_EARLY", 1, 0, &v);
    env_checked(rt, "WTC_ABORT_WAIT_S", 1, 1, &v);
    env_checked(rt, "WTC_MSG_CHUNK", 1, 1, &v);
    {
        const char *b = getenv("WTC_BCAST");
        if (b && strcmp(b, "tree") != 0 && strcmp(b, "flat") != 0 && rt->rank == 0)
            fprintf(stderr, "wtc: warning: WTC_BCAST=%s ignored (want tree or flat)\n", b);
    }
    all = wtcrt_bell_init(rt, &synced);
    rt->sleep_max_us = wtcp_sleep_max_us(all); /* the core's; WTC_SLEEP_MAX_US overrides */
    if (env_checked(rt, "WTC_SLEEP_MAX_US", 1, 1, &v) > 0)
        rt->sleep_max_us = (int)v;
    rt->yield_s = wtcrt_yield_seconds(rt->host_ranks);
    rt->oversubscribed = host_oversubscribed(rt->host_ranks);
    rt->yield_polls = env_checked(rt, "WTC_YIELD_POLLS", 1, 0, &v) > 0 ? (int)v
                                                                        : WTCRT_YIELD_POLLS;
    wtcrt_short_sleeps();
    return synced;
}

/* Short sleeps must really be short: the default 50 us timer slack would round every
   back-off step up. A setting of the calling thread. */
void wtcrt_short_sleeps(void)
{
    prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
}

/* Looks once for a message matching src/tag; 1 with *st filled when there is one. */
static int probe(wtcrt_rt *rt, int src, int tag, MPI_Status *st)
{
    int flag = 0;
    /* MPICH's Iprobe makes progress only after looking: a message pulled in by that
       progress is seen by the second look, not a sleep later */
    MPI_Iprobe(src, tag, rt->comm, &flag, st);
    if (!flag)
        MPI_Iprobe(src, tag, rt->comm, &flag, st);
    return flag;
}

/* Receives the pieces after the first of a message sent in pieces (send_any): they
   come from the same sender with the same tag, and nothing of that sender and tag can
   come between them. */
static void recv_rest(wtcrt_rt *rt, wtcrt_msg *m, size_t got, int mpi_tag)
{
    while (got < m->len) {
        size_t want = m->len - got;
        MPI_Status st;
        int n;
        MPI_Recv(m->buf + got, want > INT_MAX ? INT_MAX : (int)want, MPI_BYTE, m->src,
                 mpi_tag, rt->comm, &st);
        MPI_Get_count(&st, MPI_BYTE, &n);
        if (n <= 0)
            wtcrt_die(rt, "empty piece of a %zu-byte message (tag %d) from rank %d", m->len,
                      m->tag, m->src);
        got += (size_t)n;
    }
}

/* Receives one piece of exactly k bytes into p (send_pieces cut it so). */
static void recv_piece(wtcrt_rt *rt, wtcrt_msg *m, void *p, size_t k, int mpi_tag)
{
    MPI_Status st;
    int n;
    MPI_Recv(p, (int)k, MPI_BYTE, m->src, mpi_tag, rt->comm, &st);
    MPI_Get_count(&st, MPI_BYTE, &n);
    if (n < 0 || (size_t)n != k)
        wtcrt_die(rt, "piece of %d bytes of a message (tag %d) from rank %d, %zu expected",
                  n, m->tag, m->src, k);
}

/* Receives len bytes into p as the pieces send_pieces cut them into, skipping the first
   *skip bytes (received already; they must end a piece). */
static void recv_span(wtcrt_rt *rt, wtcrt_msg *m, unsigned char *p, size_t len,
                      size_t *skip, int mpi_tag)
{
    size_t chunk = chunk_bytes();
    for (size_t off = 0; off < len;) {
        size_t k = len - off < chunk ? len - off : chunk;
        if (*skip >= k) {
            *skip -= k;
        } else if (*skip) {
            wtcrt_die(rt, "first piece of a message (tag %d) from rank %d ends inside one",
                      m->tag, m->src);
        } else {
            recv_piece(rt, m, p + off, k, mpi_tag);
        }
        off += k;
    }
}

/* Receives the rest of a message whose byte stream the receiver has laid out (m->segs:
   where its buffers by reference go, wtcrt_result_place), piece by piece as send_any
   cut it; got: the bytes of the first piece. */
static void recv_segs(wtcrt_rt *rt, wtcrt_msg *m, size_t got, int mpi_tag)
{
    size_t at = 0, skip = got;
    for (int i = 0; i < m->nsegs; i++) {
        if (m->segs[i].at < at || m->segs[i].at > m->len)
            wtcrt_die(rt, "bad layout of a message (tag %d) from rank %d", m->tag, m->src);
        recv_span(rt, m, m->buf + at, m->segs[i].at - at, &skip, mpi_tag);
        recv_span(rt, m, (unsigned char *)(uintptr_t)m->segs[i].ptr, m->segs[i].len, &skip,
                  mpi_tag);
        at = m->segs[i].at;
    }
    recv_span(rt, m, m->buf + at, m->len - at, &skip, mpi_tag);
    if (skip)
        wtcrt_die(rt, "first piece of a message (tag %d) from rank %d too long", m->tag,
                  m->src);
    m->nsegs = 0;
}

/* Receives the message that probe found (all its pieces). */
static wtcrt_msg *recv_probed(wtcrt_rt *rt, const MPI_Status *st)
{
    int n;
    long long total;
    wtcrt_msg *m;
    MPI_Get_count(st, MPI_BYTE, &n);
    if (n < WTCRT_HDR_SIZE)
        wtcrt_die(rt, "short message (%d bytes, tag %d) from rank %d", n, st->MPI_TAG,
                  st->MPI_SOURCE);
    m = wtcrt_msg_new(rt, (size_t)n - WTCRT_HDR_SIZE);
    MPI_Recv(m->buf, n, MPI_BYTE, st->MPI_SOURCE, st->MPI_TAG, rt->comm, MPI_STATUS_IGNORE);
    m->src = st->MPI_SOURCE;
    m->wtag = st->MPI_TAG;
    m->tag = st->MPI_TAG % WTCRT_TAG_ODD; /* the kind (wire_tag) */
    total = WTCRT_HDR(m)->nbytes;
    if (total < (long long)n - WTCRT_HDR_SIZE)
        wtcrt_die(rt, "message of %d bytes (tag %d) from rank %d says %lld", n, m->tag,
                  m->src, total);
    if (total > (long long)n - WTCRT_HDR_SIZE) {
        m->len = WTCRT_HDR_SIZE + (size_t)total;
        if (m->tag == WTCRT_RESULT) /* its big out: data goes straight to its place */
            wtcrt_result_place(rt, m);
        else if (m->tag == WTCRT_TASK) /* its big in: data straight to the children's */
            wtcrt_task_place(rt, m, (size_t)n);
        if (m->cap < m->len) {
            m->buf = xrealloc(rt, m->buf, m->len);
            m->cap = m->len;
        }
        if (m->nsegs)
            recv_segs(rt, m, (size_t)n, st->MPI_TAG);
        else
            recv_rest(rt, m, (size_t)n, st->MPI_TAG);
    }
    /* a big TASK's parent waits for the send to complete (wtcrt_sync_tasks), a big
       REGION_BEGIN's sender too (wtcrt_send_each) */
    if ((m->tag == WTCRT_TASK || m->tag == WTCRT_REGION_BEGIN) &&
        m->len > WTCRT_BELL_TASK_BYTES)
        wtcrt_bell_ring(rt, m->src);
    return m;
}

/* The inbox: messages taken in while this rank waited for its own sends (take_in).
   MPI does not let a message overtake an earlier one of the same sender and tag, so
   every receive looks here first, in arrival order, and asks MPI only after. */

/* Receives one message that has arrived, if any, into the inbox; 1 if it did. */
static int take_in(wtcrt_rt *rt)
{
    MPI_Status st;
    wtcrt_msg *m;
    if (!probe(rt, MPI_ANY_SOURCE, MPI_ANY_TAG, &st))
        return 0;
    m = recv_probed(rt, &st);
    if (m->tag == WTCRT_BOUND && !wtcrt_answering) { /* never queued: applied now
                                                        (mpi/share.c) */
        wtcrt_bound_take(rt, m);
        return 1;
    }
    /* the answering thread queues a BOUND: it writes the program's global, which the
       main thread may be reading; the main thread's next receive applies it */
    m->next = NULL;
    if (rt->inbox_last)
        rt->inbox_last->next = m;
    else
        rt->inbox = m;
    rt->inbox_last = m;
    return 1;
}

/* One step of waiting for this rank's own sends to leave (wtcrt_sync_tasks,
   wtcrt_send_each): takes in a message that has come, else backs off. */
static void send_wait_step(wtcrt_rt *rt, int *us)
{
    if (take_in(rt))
        wtcrt_backoff_end(rt, us);
    else
        wtcrt_backoff(rt, us);
}

/* Applies the BOUNDs the answering thread queued (take_in), and takes them out. */
static void inbox_bounds(wtcrt_rt *rt)
{
    wtcrt_msg *prev = NULL, *m = rt->inbox;
    while (m) {
        wtcrt_msg *next = m->next;
        if (m->tag != WTCRT_BOUND) {
            prev = m;
        } else {
            if (prev)
                prev->next = next;
            else
                rt->inbox = next;
            if (rt->inbox_last == m)
                rt->inbox_last = prev;
            m->next = NULL;
            wtcrt_bound_take(rt, m);
        }
        m = next;
    }
}

/* The first message of the inbox matching src and the MPI tag 'wtag' (or any), taken
   out of it; NULL if none matches. */
static wtcrt_msg *inbox_take(wtcrt_rt *rt, int src, int wtag)
{
    wtcrt_msg *prev = NULL;
    if (rt->inbox && !wtcrt_answering)
        inbox_bounds(rt);
    for (wtcrt_msg *m = rt->inbox; m; prev = m, m = m->next) {
        if ((src != MPI_ANY_SOURCE && m->src != src) || (wtag != MPI_ANY_TAG && m->wtag != wtag))
            continue;
        if (prev)
            prev->next = m->next;
        else
            rt->inbox = m->next;
        if (rt->inbox_last == m)
            rt->inbox_last = prev;
        m->next = NULL;
        return m;
    }
    return NULL;
}

/* Waits (polling, sleeping between polls) for a message matching src and the MPI tag
   wtag and receives it, a BOUND too. */
static wtcrt_msg *recv_wait(wtcrt_rt *rt, int src, int wtag)
{
    MPI_Status st;
    int us = 0;
    while (!probe(rt, src, wtag, &st)) {
        if (rt->nreqs)
            wtcrt_progress(rt);
        wtcrt_backoff_rung(rt, &us);
    }
    wtcrt_backoff_end(rt, &us);
    return recv_probed(rt, &st);
}

/* Waits (polling, sleeping between polls) for a message matching src/tag and
   receives it. A BOUND that comes meanwhile is applied (mpi/share.c). */
wtcrt_msg *wtcrt_recv(wtcrt_rt *rt, int src, int tag)
{
    wtcrt_msg *m;
    wtcrt_mpi_ready(rt); /* a wait for another rank */
    if (tag != MPI_ANY_TAG)
        tag = wire_tag(rt, tag);
    if ((m = inbox_take(rt, src, tag)))
        return m;
    while ((m = recv_wait(rt, src, tag))->tag == WTCRT_BOUND)
        wtcrt_bound_take(rt, m);
    return m;
}

wtcrt_msg *wtcrt_recv_bound(wtcrt_rt *rt, int src)
{
    wtcrt_mpi_ready(rt);
    return recv_wait(rt, src, WTCRT_BOUND);
}

/* The next message that has arrived matching src and the MPI tag wtag, a BOUND
   applied on the way; NULL when none has. */
static wtcrt_msg *try_take(wtcrt_rt *rt, int src, int wtag)
{
    MPI_Status st;
    while (probe(rt, src, wtag, &st)) {
        wtcrt_msg *m = recv_probed(rt, &st);
        if (m->tag != WTCRT_BOUND)
            return m;
        wtcrt_bound_take(rt, m);
    }
    return NULL;
}

/* Receives a message matching src/tag if one has arrived; NULL otherwise. */
wtcrt_msg *wtcrt_try_recv(wtcrt_rt *rt, int src, int tag)
{
    wtcrt_msg *m;
    if (wtcrt_held && !wtcrt_hold_over(rt))
        return NULL; /* MPI still starting: nothing can have come */
    if (tag != MPI_ANY_TAG)
        tag = wire_tag(rt, tag);
    if ((m = inbox_take(rt, src, tag)))
        return m;
    if (rt->nreqs)
        wtcrt_progress(rt);
    return try_take(rt, src, tag);
}

/* Is it time to ask MPI on a compute-path poll (wtcrt_try_recv_quick)? */
static int poll_due(wtcrt_rt *rt)
{
    double now;
    if (wtcrt_bell_mail(rt))
        return 1;
    if (++rt->polls_down < WTCRT_POLL_CLOCK)
        return 0;
    rt->polls_down = 0;
    now = wtcrt_now();
    if (now - rt->last_probe < rt->sleep_max_us * 1e-6)
        return 0;
    rt->last_probe = now;
    return 1;
}

/* Receives any message if one has arrived (for polls on the compute path); NULL
   otherwise. This rank's own sends still pending are driven first, whatever came in: a
   message may move only while its sender calls MPI (MPICH with UCX: a synchronous
   send), and a dynamic mode's request to its master sat unsent for 64 polls (0.2 s of
   n-queens leaves) when this was skipped with the flag down. For receiving, it asks MPI
   only when the doorbell's mail flag says a rank of this host sent something, or when
   the sleep ceiling has passed since it last asked (messages from other hosts, and any
   the flag missed, wait at most that long). The clock is read only every
   WTCRT_POLL_CLOCK polls with the flag down: a poll with nothing pending stays a load
   and a branch (UTS polls before each of its 4 M children). */
wtcrt_msg *wtcrt_try_recv_quick(wtcrt_rt *rt)
{
    wtcrt_msg *m;
    if (wtcrt_held && !wtcrt_hold_over(rt))
        return NULL;
    if (rt->inbox)
        return inbox_take(rt, MPI_ANY_SOURCE, MPI_ANY_TAG);
    if (rt->nreqs)
        wtcrt_progress(rt);
    if (!poll_due(rt) || !(m = try_take(rt, MPI_ANY_SOURCE, MPI_ANY_TAG)))
        return NULL;
    wtcrt_bell_mail_again(rt);
    return m;
}

/* A compute-path poll for one kind of message only (a par's body spawning: STEALs,
   wtcp_spawn_poll_due): what has arrived goes into the inbox in arrival order, and the
   inbox's messages of that kind are handed to 'handle'; the others wait there for the
   next poll (an inbox that holds any keeps wtcrt_poll_none false). */
void wtcrt_poll_tag(wtcrt_rt *rt, int tag, void (*handle)(wtcrt_rt *rt, wtcrt_msg *m))
{
    wtcrt_msg *m;
    if (wtcrt_held && !wtcrt_hold_over(rt))
        return;
    if (rt->nreqs)
        wtcrt_progress(rt);
    if (poll_due(rt))
        while (take_in(rt))
            ;
    while ((m = inbox_take(rt, MPI_ANY_SOURCE, wire_tag(rt, tag))))
        handle(rt, m);
}

void wtcrt_bounds_take_all(wtcrt_rt *rt)
{
    if (try_take(rt, MPI_ANY_SOURCE, WTCRT_BOUND))
        wtcrt_die(rt, "a message taken for a BOUND");
}

void wtcrt_bounds_poll(wtcrt_rt *rt)
{
    if (rt->nreqs)
        wtcrt_progress(rt);
    if (poll_due(rt))
        wtcrt_bounds_take_all(rt);
}

/* ---- states, statistics, trace ---------------------------------------------------- */

/* Appends one trace event. */
static void trace_event(wtcrt_rt *rt, int state, int ph, double now)
{
    if (rt->nev == rt->capev) {
        if (rt->capev >= WTCRT_MAX_EVENTS)
            return;
        rt->capev = rt->capev ? 2 * rt->capev : 4096;
        rt->ev = xrealloc(rt, rt->ev, (size_t)rt->capev * sizeof *rt->ev);
    }
    rt->ev[rt->nev].ts = (now - rt->t0) * 1e6;
    rt->ev[rt->nev].state = state;
    rt->ev[rt->nev].ph = ph;
    rt->nev++;
}

/* Enters a state; returns the previous one. Time is charged to the state left. */
int wtcrt_set_state(wtcrt_rt *rt, int state)
{
    int old = rt->state;
    double now;
    if (state == old)
        return old;
    now = wtcrt_now();
    rt->st.t[old] += now - rt->tstate;
    rt->tstate = now;
    rt->state = state;
    if (rt->tracing) {
        /* keep B/E balanced when the event buffer is full: stop after an E */
        if (rt->nev + 2 > WTCRT_MAX_EVENTS) {
            if (rt->tracing == 1)
                trace_event(rt, old, 'E', now);
            rt->tracing = 2;
            return old;
        }
        trace_event(rt, old, 'E', now);
        trace_event(rt, state, 'B', now);
    }
    return old;
}

/* Closes the last state at exit. */
static void states_end(wtcrt_rt *rt)
{
    double now = wtcrt_now();
    rt->st.t[rt->state] += now - rt->tstate;
    rt->tstate = now;
    rt->st.wall = now - rt->t0;
    if (rt->tracing == 1)
        trace_event(rt, rt->state, 'E', now);
}

/* Rank 0: receives every rank's STATS, prints the table, writes the trace; -1 when
   the trace could not be written. */
static int stats_gather(wtcrt_rt *rt)
{
    int failed = 0;
    int P = rt->nranks;
    wtcrt_stats *s = calloc((size_t)P, sizeof *s);
    wtcrt_event **ev = calloc((size_t)P, sizeof *ev);
    long *nev = calloc((size_t)P, sizeof *nev);
    wtcrt_msg **msgs = calloc((size_t)P, sizeof *msgs);
    char title[256];
    if (!s || !ev || !nev || !msgs)
        wtcrt_die(rt, "out of memory");
    s[0] = rt->st;
    ev[0] = rt->ev;
    nev[0] = rt->nev;
    for (int r = 1; r < P; r++) {
        msgs[r] = wtcrt_recv(rt, r, WTCRT_STATS);
        memcpy(&s[r], WTCRT_PAYLOAD(msgs[r]), sizeof s[r]);
        nev[r] = (long)((msgs[r]->len - WTCRT_HDR_SIZE - sizeof s[r]) / sizeof(wtcrt_event));
        ev[r] = (wtcrt_event *)(void *)(WTCRT_PAYLOAD(msgs[r]) + sizeof s[r]);
    }
    if (rt->opt.stats) {
        snprintf(title, sizeof title, "%d rank%s, %.4f s from start to exit", P,
                 P > 1 ? "s" : "", rt->st.wall);
        wtcrt_stats_print(stderr, s, P, title);
    }
    if (rt->opt.trace &&
        wtcrt_trace_write(rt->opt.trace, "wtc program", P, ev, nev, s) < 0) {
        fprintf(stderr, "wtc: error: --wtc-trace=%s: cannot write it: %s\n", rt->opt.trace,
                strerror(errno));
        failed = 1;
    }
    for (int r = 1; r < P; r++)
        wtcrt_msg_free(rt, msgs[r]);
    free(s);
    free(ev);
    free(nev);
    free(msgs);
    return failed ? -1 : 0;
}

/* Other ranks: sends counters and trace events to rank 0. */
static void stats_send(wtcrt_rt *rt)
{
    size_t evb = (size_t)rt->nev * sizeof(wtcrt_event);
    wtcrt_msg *m = wtcrt_msg_new(rt, sizeof rt->st + evb);
    memcpy(WTCRT_PAYLOAD(m), &rt->st, sizeof rt->st);
    if (evb)
        memcpy(WTCRT_PAYLOAD(m) + sizeof rt->st, rt->ev, evb);
    wtcrt_send(rt, 0, WTCRT_STATS, m);
}

/* ---- WTC_START_PROBE: what the job's start and end cost (doc/predictor.md §5) ------

   make calibrate runs a program that ends at once with WTC_START_PROBE set to the
   CLOCK_REALTIME nanoseconds at which it called mpiexec; rank 0 then prints on stderr
   "wtc-start: procs P launch L start S end E" (seconds): L from that moment to rank 0's
   wtc_start (the launcher and the loading; "-" without a moment), S from there until
   the start's last collective has completed (every rank has started MPI: the others can
   take the region's work), E from the end of main (MPI started) to MPI_Finalize's
   return; a job of one rank (no MPI) prints nothing. Nothing of it changes what the job
   does. */
static struct {
    int on;
    double entry, ready, end, launch; /* launch < 0: not known */
} job_probe;

static void probe_begin(void)
{
    const char *s = getenv("WTC_START_PROBE");
    struct timespec ts;
    char *e;
    double at;
    if (!s || !*s)
        return;
    job_probe.on = 1;
    job_probe.entry = wtcrt_now();
    job_probe.launch = -1;
    clock_gettime(CLOCK_REALTIME, &ts);
    at = strtod(s, &e);
    if (!*e && at > 1e18) /* nanoseconds since 1970: after 2001 */
        job_probe.launch = (double)ts.tv_sec - at * 1e-9 + (double)ts.tv_nsec * 1e-9;
}

static void probe_report(const wtcrt_rt *rt)
{
    char launch[32] = "-";
    if (!job_probe.on || rt->rank != 0 || rt->alone)
        return;
    if (job_probe.launch >= 0)
        snprintf(launch, sizeof launch, "%.6f", job_probe.launch);
    fprintf(stderr, "wtc-start: procs %d launch %s start %.6f end %.6f\n", rt->nranks,
            launch, job_probe.ready - job_probe.entry, wtcrt_now() - job_probe.end);
}

/* ---- start and exit --------------------------------------------------------------- */

/* Everything after user_main (rank 0) or EXIT (others): stats, MPI_Finalize. Returns
   the exit status: 'status', or 2 on rank 0 when the trace could not be written. */
static int finish(wtcrt_rt *rt, int status)
{
    wtcrt_mpi_ready(rt);
    if (rt->finished)
        return status;
    job_probe.end = wtcrt_now();
    if (rt->rank == 0 && rt->in_region) {
        /* main ended with its region's root call still open: a longjmp out of the
           recursion (or a signal handler's) left it, while the other ranks still work
           on the region: an EXIT now hung them or was an unexpected message there */
        fflush(stdout);
        fprintf(stderr, "wtc: error: main ended while a parallel region was running: a "
                        "call of a recursive function did not return (a longjmp out of "
                        "it?); stopping every rank\n");
        wtcrt_mpi_abort(rt, 2);
    }
    wtcrt_answer_stop(rt);
    wtcrt_master_stop(rt);
    rt->finished = 1;
    if (rt->rank == 0) {
        wtcrt_msg *m = wtcrt_msg_new(rt, 0);
        WTCRT_HDR(m)->want = status;
        wtcrt_bcast(rt, WTCRT_EXIT, m); /* by REGION_BEGIN's route (mpi/region.c) */
        wtcrt_msg_free(rt, m);
    }
    states_end(rt);
    if (rt->opt.stats || rt->opt.trace) {
        if (rt->rank == 0) {
            locale_t loc = wtcrt_locale_c(); /* the trace's numbers as JSON's */
            fflush(stdout);
            if (stats_gather(rt) < 0 && status == 0)
                status = 2;
            wtcrt_locale_end(loc);
        } else {
            stats_send(rt);
        }
    }
    wtcrt_flush_sends(rt);
    fflush(NULL); /* every rank's output is out before MPI_Finalize */
    wtcrt_mpi_end(rt);
    probe_report(rt);
    wtcrt_bell_fini(rt);
    return status;
}

/* exit() called by the user: rank 0 outside a region releases the other ranks;
   anywhere else the program cannot end cleanly and is aborted (arg: the runtime state
   wtc_start registered). */
static void on_exit_handler(int status, void *arg)
{
    wtcrt_rt *rt = arg;
    if (rt->finished || !rt->started || wtcrt_forked(rt))
        return;
    wtcrt_enter(rt); /* exit() in the program's code: the answering thread is done */
    wtcrt_mpi_ready(rt);
    if (rt->rank == 0 && !rt->in_region) {
        fflush(stdout);
        finish(rt, status);
        return;
    }
    fflush(stdout);
    if (status) /* exit(0) is the program ending as it wanted: the others are stopped */
        fprintf(stderr, "wtc: rank %d: exit(%d) called inside a parallel region; "
                        "aborting all ranks\n", rt->rank, status);
    fflush(NULL);
    wtcrt_mpi_abort(rt, status);
}

/* abort() (SIGABRT) in a job of several ranks: hydra's banner says only "BAD
   TERMINATION ... EXIT CODE: 134"; this line says which rank and what. Written from the
   handler with write() alone (async-signal-safe); the C library's abort() then ends the
   process as before. (UCX reports SIGSEGV, SIGBUS, SIGFPE and SIGILL itself.)

   A fatal signal on rank 0 while its start thread still starts MPI (a program that
   fails at once) first waits for that start, up to FATAL_START_WAIT_S: the other ranks
   are then still in their launcher's start-up exchange, and hydra, losing a rank in the
   middle of it, failed itself ("assert (!closed) failed", status 255, no banner) and at
   times dropped what the rank had written (CI, tests/unit/rt_abort.sh; on the 2-core VM
   with 4 jobs at once 1 run in 25 for abort(), 1 in 30 for a null pointer). For SIGSEGV,
   SIGBUS, SIGFPE and SIGILL a handler of ours stands only while the start is pending: it
   waits, puts back the handler it replaced (UCX's, which reports the fault) and returns,
   and the faulting instruction faults again into that one; a signal sent by a process
   (kill) is raised again instead. Only nanosleep(), sigaction() and raise() in them. */
#define FATAL_START_WAIT_S 10

static char abort_note[96];
static size_t abort_note_len;
static wtcrt_rt *fatal_rt;
static const int fault_sigs[4] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };
static struct sigaction fault_old[4];

/* In a handler: rank 0's start, if still pending, is over or given up. */
static void fatal_start_wait(void)
{
    wtcrt_rt *rt = fatal_rt;
    struct timespec tick = { 0, 10 * 1000 * 1000 };
    if (!rt || !rt->start_pending || wtcrt_forked(rt) ||
        pthread_equal(pthread_self(), rt->start_thread))
        return;
    for (int i = 0; i < FATAL_START_WAIT_S * 100 &&
                    !atomic_load_explicit(&rt->start_gone, memory_order_acquire); i++)
        nanosleep(&tick, NULL);
}

static void abort_noted(int sig)
{
    (void)sig;
    fatal_start_wait();
    if (write(2, abort_note, abort_note_len) < 0) /* nothing more to do */
        return;
}

static void fault_waited(int sig, siginfo_t *info, void *ctx)
{
    (void)ctx;
    fatal_start_wait();
    for (int k = 0; k < 4; k++)
        if (fault_sigs[k] == sig)
            sigaction(sig, &fault_old[k], NULL);
    if (!info || info->si_code <= 0) /* sent, not a fault: delivered once this returns */
        raise(sig);
}

static void fatal_install(wtcrt_rt *rt, int early)
{
    struct sigaction sa;
    int n;
    if (rt->nranks < 2)
        return;
    fatal_rt = rt;
    n = snprintf(abort_note, sizeof abort_note,
                 "wtc: rank %d: abort() called (SIGABRT); the job stops\n", rt->rank);
    if (n > 0 && (size_t)n < sizeof abort_note) {
        abort_note_len = (size_t)n;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = abort_noted;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESETHAND; /* once: abort() raises it again, to the default */
        sigaction(SIGABRT, &sa, NULL);
    }
    if (!early)
        return;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = fault_waited;
    sigemptyset(&sa.sa_mask);
    for (int k = 0; k < 4; k++) {
        if (sigaction(fault_sigs[k], NULL, &fault_old[k]) != 0)
            continue;
        /* on the alternate stack where the handler replaced ran there (a stack overflow) */
        sa.sa_flags = SA_SIGINFO | (fault_old[k].sa_flags & SA_ONSTACK);
        sigaction(fault_sigs[k], &sa, NULL);
    }
}

/* Main thread, once the start thread is joined: the handlers fatal_install put in for
   the start give way to the ones they replaced (unless the program has put in its own). */
void wtcrt_fatal_start_over(void)
{
    struct sigaction cur;
    if (!fatal_rt)
        return;
    for (int k = 0; k < 4; k++)
        if (sigaction(fault_sigs[k], NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) &&
            cur.sa_sigaction == fault_waited)
            sigaction(fault_sigs[k], &fault_old[k], NULL);
}

/* 1 in a child of fork() made by the user's program: the MPI state (and the
   doorbell) belong to the parent, so the child ends as a plain process and touches
   nothing of MPI (MPI_Finalize there died of SIGABRT and took the parent with it). */
int wtcrt_forked(wtcrt_rt *rt)
{
    return rt->pid != 0 && getpid() != rt->pid;
}

/* --wtc-auto=PROFILE: takes mode, masters, batch and depth for this P from the
   profile's table (every rank reads it, as every rank parses argv); rank 0 says what
   it chose, on one line. 0 or -1 with err set. */
static int opts_auto(wtcrt_rt *rt, char *err, size_t errsz)
{
    wtcrt_auto a;
    char how[128];
    int n;
    if (rt->opt.mode || rt->opt.masters || rt->opt.batch || rt->opt.depth >= 0) {
        snprintf(err, errsz, "wtc: error: --wtc-auto chooses mode, masters, batch and depth; "
                 "give none of them with it");
        return -1;
    }
    if (wtcrt_profile_auto(rt->opt.autof, rt->prog, rt->nranks, rt->opt.machine, &a,
                           err + 12, errsz - 12) < 0) {
        memcpy(err, "wtc: error: ", 12);
        return -1;
    }
    rt->opt.mode = a.mode;
    rt->opt.masters = a.mode == WTC_MODE_DYNAMIC && rt->nranks > 1 ? a.masters : 0;
    rt->opt.batch = a.batch;
    rt->opt.depth = a.depth;
    /* the choice as the options that would run it by hand */
    n = snprintf(how, sizeof how, "--wtc-mode=%s", wtcrt_mode_name(a.mode));
    if (rt->opt.masters)
        n += snprintf(how + n, sizeof how - n, " --wtc-masters=%d", rt->opt.masters);
    if (a.batch)
        n += snprintf(how + n, sizeof how - n, " --wtc-batch=%d", a.batch);
    if (a.depth >= 0)
        snprintf(how + n, sizeof how - n, " --wtc-depth=%d", a.depth);
    if (rt->rank == 0)
        fprintf(stderr, "wtc: auto from %s (machine %s), P = %d: %s, predicted %.6f s\n",
                rt->opt.autof, a.machine, rt->nranks, how, a.predicted);
    return 0;
}

/* Checks the options against the number of ranks; 0 or -1 with err set. */
static int opts_check(wtcrt_rt *rt, char *err, size_t errsz)
{
    if (rt->opt.autof && opts_auto(rt, err, errsz) < 0)
        return -1;
    wtc_cut_depth = rt->opt.depth;
    if (rt->opt.masters && rt->nranks > 1 && rt->opt.masters >= rt->nranks) {
        snprintf(err, errsz, "wtc: error: --wtc-masters=%d needs at least %ld ranks "
                 "(running on %d): at least one rank must be a worker",
                 rt->opt.masters, (long)rt->opt.masters + 1, rt->nranks);
        return -1;
    }
    return 0;
}

/* --wtc-trace=FILE: rank 0 makes sure FILE can be written before the run, not after
   it, and is not the profile of --wtc-auto (the trace replaced it, status 0: a helper's
   bug hunt); every rank learns the answer. 0, or -1 with err set. */
static int trace_check(wtcrt_rt *rt, char *err, size_t errsz)
{
    int bad = 0;
    if (!rt->opt.trace)
        return 0;
    if (rt->rank == 0 && rt->opt.autof && wtcrt_same_file(rt->opt.trace, rt->opt.autof)) {
        bad = EEXIST;
        snprintf(err, errsz, "wtc: error: --wtc-trace=%s and --wtc-auto=%s name one file: "
                 "the trace would replace the profile", rt->opt.trace, rt->opt.autof);
    } else if (rt->rank == 0 && wtcrt_check_writable(rt->opt.trace) < 0) {
        bad = errno ? errno : EIO;
        snprintf(err, errsz, "wtc: error: --wtc-trace=%s: cannot write it: %s",
                 rt->opt.trace, strerror(bad));
    }
    if (rt->nranks > 1) /* every rank has the same options: all take part */
        MPI_Bcast(&bad, 1, MPI_INT, 0, rt->comm);
    return bad ? -1 : 0;
}

/* The start's synchronisation: the doorbell's collectives (the last one a barrier),
   else a barrier, so the lanes of a trace line up; one rank alone never waits (and may
   run without MPI: mpi/single.c). Rank 0 may make it in the start thread
   (wtcrt_mpi_start_early). */
static void states_sync(wtcrt_rt *rt)
{
    if (rt->nranks > 1 && !wtcrt_wait_init(rt)) {
        MPI_Request req;
        wtcrt_ibarrier(rt, &req);
        wtcrt_coll_wait(&req);
    }
    job_probe.ready = wtcrt_now(); /* rank 0's start thread or main thread: read after */
}

/* Initialises states and the trace; the clock starts here. */
static void states_start(wtcrt_rt *rt)
{
    rt->tracing = rt->opt.trace ? 1 : 0;
    rt->t0 = rt->tstate = wtcrt_now();
    rt->state = rt->rank == 0 ? WTCRT_S_COMPUTE : WTCRT_S_IDLE;
    if (rt->tracing)
        trace_event(rt, rt->state, 'B', rt->t0);
    rt->st.worker = rt->rank == 0;
}

/* WTC_DECISIONS=FILE: every rank appends its decisions that move work to FILE, one
   line each (runtime/core/proto.h), for comparing a run with its simulation. Opened
   with the options' checks, on every rank alike (the environment is the job's), so a
   file that cannot be written stops every rank together as a bad option does: as a
   fatal error on rank 0 before MPI was up, the other ranks printed MPICH's failed-start
   stacks and left a file in /dev/shm (a helper's bug hunt). -1: err says why. */
static int decisions_open(char *err, size_t errsz)
{
    const char *path = getenv("WTC_DECISIONS");
    FILE *f;
    if (!path || !*path)
        return 0;
    if (!(f = fopen(path, "a"))) {
        snprintf(err, errsz, "wtc: error: WTC_DECISIONS=%s: cannot open it: %s", path,
                 strerror(errno));
        return -1;
    }
    setvbuf(f, NULL, _IOLBF, 0);
    wtcp_log_open(f);
    return 0;
}

/* Room on the stack: the parallel clones take more of it a level than plain C (a par's
   locals, the runtime's calls), and a chain with a par at every level overflowed 8 MiB
   at 40 000 levels, where plain C reaches 100 000 (a helper's case: a segmentation
   fault, or a hang in UCX's handler). Linux grows a main thread's stack up to the soft
   limit as it is at each growth, and leaves 128 MiB or more below it free, so the soft
   limit is raised to 64 MiB (not above the hard one, nor lowered). */
static void stack_room(void)
{
    const rlim_t want = (rlim_t)64 << 20;
    struct rlimit r;
    if (getrlimit(RLIMIT_STACK, &r) != 0 || r.rlim_cur == RLIM_INFINITY || r.rlim_cur >= want)
        return;
    r.rlim_cur = r.rlim_max != RLIM_INFINITY && r.rlim_max < want ? r.rlim_max : want;
    setrlimit(RLIMIT_STACK, &r);
}

int wtc_start(int argc, char **argv, const wtc_program *prog)
{
    wtcrt_rt *rt = &wtcrt_this_rank;
    char err[512];
    int status, ok, first;
    /* rank 0 of a job of several: MPI may start in a thread while main begins
       (mpi/single.c); rt->rank and rt->nranks are the launcher's until it has */
    int early;
    probe_begin();
    stack_room();
    wtcrt_answer_prepare(); /* while main is the only thread */
    early = wtcrt_mpi_early(rt);
    rt->pid = getpid();
    if (!early)
        wtcrt_mpi_start(rt, &argc, &argv);
    rt->prog = prog;
    ok = prog->abi_version == WTC_ABI_VERSION;
    wtcrt_checking = ok && prog->check;
    if (!ok)
        snprintf(err, sizeof err, "wtc: error: program built for ABI %d, runtime is ABI %d",
                 prog->abi_version, WTC_ABI_VERSION);
    else
        ok = wtcrt_opts_parse(&argc, argv, &rt->opt, err, sizeof err) == 0 &&
             opts_check(rt, err, sizeof err) == 0 &&
             (rt->opt.help || decisions_open(err, sizeof err) == 0);
    /* what needs MPI before main, or follows every rank from the first moment, starts
       it now: an error or --help (every rank stops together), a trace (its check and
       its clock), a --check build (the start thread's allocations would meet main's in
       the checker's unlocked table of heap blocks) */
    if (early && (!ok || rt->opt.help || rt->opt.trace || prog->check)) {
        early = 0;
        wtcrt_mpi_start(rt, &argc, &argv);
    }
    ok = ok && (rt->opt.help || trace_check(rt, err, sizeof err) == 0);
    if (!ok || rt->opt.help) {
        /* every rank parsed the same argv: all stop, rank 0 says why (or the usage) */
        if (rt->rank == 0 && !ok)
            fprintf(stderr, "%s\n", err);
        else if (rt->rank == 0)
            fputs(wtcrt_usage, stdout);
        wtcrt_mpi_end(rt);
        return ok ? 0 : 2;
    }
    if (!early)
        states_sync(rt);
    states_start(rt);
    rt->started = 1;
    on_exit(on_exit_handler, rt);
    fatal_install(rt, early);
    first = rt->rank == 0;
    if (early) /* from here on the main thread leaves rt alone until wtcrt_mpi_ready */
        wtcrt_mpi_start_early(rt, states_sync);
    if (first) {
        wtcrt_leave(rt);
        wtcrt_shheap_main(1);
        status = prog->user_main(argc, argv);
        wtcrt_shheap_main(0);
        wtcrt_enter(rt);
    } else
        status = wtcrt_serve(rt);
    if (wtcrt_forked(rt))
        return status; /* a child of fork() returned from main: a plain process */
    fflush(stdout);
    return finish(rt, status);
}
