/* rt_answer_mb.c - a shim for tests/unit/rt_answer.sh (built as a shared object and
   preloaded): each process writes to stderr, at each membarrier(2) registration for the
   private expedited command, how many threads it had started before it (pthread_create
   calls). The runtime must register while main is the only thread: with more, the
   kernel waits for every CPU to pass a scheduling point (9-16 ms on the test VM), and a
   registration at a region's start kept every other rank waiting for its first work
   that long (runtime/mpi/answer.c, wtcrt_answer_prepare). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

static int started;

int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
    int (*real)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
    *(void **)&real = dlsym(RTLD_NEXT, "pthread_create");
    __atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
    return real(t, attr, fn, arg);
}

long syscall(long nr, ...)
{
    long (*real)(long, ...);
    long a[6];
    va_list ap;
    va_start(ap, nr);
    for (int i = 0; i < 6; i++) /* as the C library's own syscall(): six words */
        a[i] = va_arg(ap, long);
    va_end(ap);
    *(void **)&real = dlsym(RTLD_NEXT, "syscall");
    if (nr == __NR_membarrier && a[0] == MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) {
        char line[96];
        int n = snprintf(line, sizeof line, "membarrier register after %d threads\n",
                         __atomic_load_n(&started, __ATOMIC_SEQ_CST));
        if (write(2, line, (size_t)n) < 0)
            return -1;
    }
    return real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}
