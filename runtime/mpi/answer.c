/* mpi/answer.c - the answering thread (doc/runtime.md "Answers from inside a leaf").

   A rank answers a thief's STEAL (steal mode) and serves its master's GRANT (dynamic
   mode) at its polls, and a rank deep in a sequential leaf does not poll: its thieves
   and granted ranks waited for the leaf to end (sudoku at -n 2: 18-83 ms a STEAL).
   Polling inside the sequential clones would cost every call a check. Instead each rank
   has a second thread that sleeps until a rank of its host rings it (a thief whose
   STEAL is WTCP_ANSWER_GRACE old, a master after a GRANT; with ranks on other hosts it
   also looks every WTCRT_ANSWER_TICK_US while the main thread stays in the program's
   code), takes the runtime's state while the main thread runs the program's code, and
   answers as the main thread's poll would have: the same handler, the oldest work.

   Exclusion, asymmetric (the main thread's side is two plain stores and a load; the
   thread pays the fence): the main thread stores a new non-zero 'user' when it leaves
   the runtime for the program's code (wtcrt_leave) and user = 0 when it comes back,
   then looks at ans_busy (wtcrt_enter). The thread stores ans_busy = 1, runs membarrier(2) (every
   thread of the process passes a full fence), then looks at user: either it sees the
   main thread in the runtime and backs off, or the main thread sees ans_busy and waits
   until the thread is done. So MPI is never called by both (MPI_THREAD_SERIALIZED),
   and the thread changes the frames only where a poll of the main thread could have.
   No thread without membarrier's private expedited command (Linux 4.14), in a --check
   build (its table of heap blocks has no lock), in a program that calls MPI itself (its
   calls could meet the thread's), under SMPI, or with WTC_ANSWER=0. */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include "wtcrt.h"
#include "wtc_mpi_impl.h"

/* With ranks on other hosts (who ring nothing): the core's tick, in microseconds. */
#define WTCRT_ANSWER_TICK_US ((int)(WTCP_ANSWER_TICK * 1e6))

__thread int wtcrt_answering;

static long membarrier(int cmd)
{
    return syscall(__NR_membarrier, cmd, 0, 0);
}

/* The main thread, coming back into the runtime while the thread works on the state:
   waits until it is done (an answer: a probe, a receive, a TASK packed and sent). */
void wtcrt_enter_wait(wtcrt_rt *rt)
{
    int spins = 0;
    if (wtcrt_forked(rt)) { /* a child of fork(), made while the thread (not copied) was
                               busy: nobody will clear it */
        atomic_store(&rt->ans_busy, 0);
        rt->ans_state = -1;
        return;
    }
    while (atomic_load_explicit(&rt->ans_busy, memory_order_acquire))
        if (++spins > 64)
            sched_yield();
}

/* Takes the state when the main thread runs the program's code: 1 (give it back with
   give()), or 0 when the main thread is in the runtime (it polls there itself). */
static int take(wtcrt_rt *rt)
{
    if (!atomic_load_explicit(&rt->user, memory_order_relaxed))
        return 0;
    atomic_store(&rt->ans_busy, 1);
    membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED);
    if (atomic_load_explicit(&rt->user, memory_order_acquire))
        return 1;
    atomic_store_explicit(&rt->ans_busy, 0, memory_order_release);
    return 0;
}

static void give(wtcrt_rt *rt)
{
    atomic_store_explicit(&rt->ans_busy, 0, memory_order_release);
}

/* WTC_ANSWER=0 in the environment: no answering thread (for measurements). */
static int answer_wanted(void)
{
    return !wtcrt_env_off("WTC_ANSWER");
}

/* membarrier's registration for this process: 1 made, -1 refused (no private expedited
   command), 0 not tried. With one thread in the process it takes microseconds; with
   more (MPI's, the start thread) the kernel waits for every CPU to pass a scheduling
   point: 9-16 ms on the test VM. Made by the main thread at the first region, that
   wait came between a region's start and its first seed, and every other rank idled
   through it (UTS steal -n 2: the seed 11-17 ms after the region's start, instead of
   under 1 ms), so wtc_start registers before any thread exists. */
static int mb_state;

void wtcrt_answer_prepare(void)
{
#ifndef WTC_MPI_SMPI
    if (answer_wanted())
        mb_state = membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0 ? 1 : -1;
#endif
}

/* Probes for the mode's kind before giving up: MPICH's shared-memory transport takes
   one message of its queue into MPI's per look, so a STEAL behind its thief's RESULT
   was not seen by the first looks (the main thread's poll takes any kind, one by
   one). */
#define WTCRT_ANSWER_LOOKS 16

/* With the state taken: answers every message of the mode's kind that has come;
   returns how many. */
static int answer_all(wtcrt_rt *rt)
{
    wtcrt_msg *m;
    int n = 0, misses = 0;
    if (!rt->in_region || !rt->ops || !rt->ops->leaf || rt->finished ||
        (rt->start_pending && !atomic_load(&rt->start_gone)))
        return 0; /* (a held region's messages are sent, start_gone: MPI is ours) */
    while (misses < WTCRT_ANSWER_LOOKS) {
        if (!(m = wtcrt_try_recv(rt, MPI_ANY_SOURCE, rt->ops->leaf_tag))) {
            misses++;
            continue;
        }
        rt->ops->leaf(rt, m);
        n++;
        misses = 0;
    }
    /* wtc_fast (wtc_abi.h) is left alone: the generated code counts it down without
       a lock, so the main thread asks the runtime again within 32 pars */
    rt->st.leaf_answers += n;
    return n;
}

static void *answer_main(void *arg)
{
    wtcrt_rt *rt = arg;
    sigset_t all;
    /* not made at the start (wtcrt_answer_prepare): the thread waits for it, not the
       main thread; refused, the thread never takes the state, and the main thread
       polls as without one */
    if (mb_state == 0 && membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) != 0)
        return NULL;
    /* a few looks at once: a ring may have come before the thread (a held region's
       thread starts after its seeds went out, mpi/single.c) */
    int seen = atomic_load(rt->ans_word), wait_us, tries = 3, last_user = 0;
    int ticks = !rt->bell_all_local; /* ranks elsewhere ring nothing */
    wtcrt_answering = 1;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL); /* the program's signals go to its thread */
    wtcrt_short_sleeps();
    wait_us = 100;
    for (;;) {
        int now, user;
        if (atomic_load(&rt->ans_stop)) /* stop raises it before the word: a stop seen
                                           here is not slept through */
            break;
        wtcrt_word_wait(rt->ans_word, seen, wait_us);
        if (atomic_load(&rt->ans_stop))
            break;
        now = atomic_load(rt->ans_word);
        user = atomic_load_explicit(&rt->user, memory_order_relaxed);
        if (now != seen) { /* rung: a thief waited WTCP_ANSWER_GRACE, or a GRANT came */
            seen = now;
            tries = 3;
        } else if (!tries) {
            /* a tick: only when the main thread has stayed in the program's code since
               the last one (a rank between pars polls itself) */
            int stay = user && user == last_user;
            last_user = user;
            if (!stay)
                continue;
        }
        if (take(rt)) {
            int n = answer_all(rt);
            give(rt);
            tries = n ? 0 : tries - 1; /* nothing there yet: look again soon */
        } else {
            tries--; /* the main thread is in the runtime: it polls there, unless it
                        leaves for a leaf just after its poll */
        }
        wait_us = tries > 0                               ? 100
                  : ticks && atomic_load(&rt->ans_region) ? WTCRT_ANSWER_TICK_US
                                                          : 0;
    }
    return NULL;
}

/* from_start: called by the start thread once it has sent what a held region queued
   (mpi/single.c), so that rank 0's thread answers inside the leaf it may be in then;
   else by the main thread, which starts none while MPI is still starting. */
void wtcrt_answer_start(wtcrt_rt *rt, int from_start)
{
#ifdef WTC_MPI_SMPI
    (void)rt;
    (void)from_start; /* SMPI's ranks are threads of one process, its time simulated */
    (void)answer_wanted; /* (compiled all the same: no warning that they are unused) */
    (void)answer_main;
#else
    if (rt->ans_state || !rt->in_region || !rt->ops || !rt->ops->mode->leaf_answers ||
        rt->nranks < 2)
        return;
    if (!from_start && (rt->start_pending || wtcrt_held))
        return; /* MPI is still starting (mpi/single.c): at a later region */
    rt->ans_state = -1;
    if (!answer_wanted() || rt->prog->check || wtcrt_forked(rt) ||
        wtcrt_program_calls_mpi() || mb_state < 0)
        return;
    rt->ans_word = wtcrt_bell_answer_word(rt, rt->rank);
    if (!rt->ans_word)
        rt->ans_word = &rt->ans_own;
    atomic_store(&rt->ans_region, 1); /* started inside such a region */
    if (pthread_create(&rt->ans_thread, NULL, answer_main, rt) == 0)
        rt->ans_state = 1;
#endif
}

void wtcrt_answer_stop(wtcrt_rt *rt)
{
    if (rt->ans_state != 1 || pthread_equal(pthread_self(), rt->ans_thread))
        return;
    rt->ans_state = -1;
    atomic_store(&rt->ans_stop, 1);
    wtcrt_word_wake(rt->ans_word);
    pthread_join(rt->ans_thread, NULL);
}

void wtcrt_answer_region(wtcrt_rt *rt, int on)
{
    on = on && rt->ops && rt->ops->leaf;
    if (rt->ans_state != 1 || atomic_load(&rt->ans_region) == on)
        return;
    atomic_store(&rt->ans_region, on);
    if (on && !rt->bell_all_local) /* its ticks start: wake it from its untimed sleep */
        wtcrt_word_wake(rt->ans_word);
}

/* After sending rank r a STEAL or a GRANT: wakes r's thread when r is on this host. */
void wtcrt_answer_ring(wtcrt_rt *rt, int r)
{
    atomic_int *w = wtcrt_bell_answer_word(rt, r);
    if (w)
        wtcrt_word_wake(w);
}
