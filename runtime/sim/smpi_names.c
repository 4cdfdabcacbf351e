/* sim/smpi_names.c - SimGrid SMPI's names for C library functions, for a predictor whose
   program is compiled with smpicc (wtc/build.c). smpicc's preprocessor, which wtcc runs
   on the user's source, force-includes <smpi/smpi_helpers.h>: its macros turn the user's
   malloc, exit, clock_gettime, sleep, getopt ... into smpi_* calls, so that under smpirun
   they are simulated. The predictor is built from that same text with the host compiler
   and no SimGrid: here each smpi_* name is the C library function it stands for (an
   archive member, linked only into predictors that call them). The prototypes are
   SimGrid 3.32's (smpi_helpers_internal.h). */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdlib.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

int smpi_usleep(useconds_t usecs);
int smpi_nanosleep(const struct timespec *tp, struct timespec *t);
int smpi_clock_gettime(clockid_t clk_id, struct timespec *tp);
unsigned int smpi_sleep(unsigned int secs);
int smpi_gettimeofday(struct timeval *tv, struct timezone *tz);
int smpi_getopt_long_only(int argc, char *const *argv, const char *options,
                          const struct option *long_options, int *opt_index);
int smpi_getopt_long(int argc, char *const *argv, const char *options,
                     const struct option *long_options, int *opt_index);
int smpi_getopt(int argc, char *const *argv, const char *options);
void *smpi_shared_malloc_intercept(size_t size, const char *file, int line);
void *smpi_shared_calloc_intercept(size_t num_elm, size_t elem_size, const char *file,
                                   int line);
void *smpi_shared_realloc_intercept(void *data, size_t size, const char *file, int line);
void smpi_shared_free(void *data);
pid_t smpi_getpid(void);
_Noreturn void smpi_exit(int status);

int smpi_usleep(useconds_t usecs) { return usleep(usecs); }
int smpi_nanosleep(const struct timespec *tp, struct timespec *t) { return nanosleep(tp, t); }
int smpi_clock_gettime(clockid_t clk_id, struct timespec *tp)
{
    return clock_gettime(clk_id, tp);
}
unsigned int smpi_sleep(unsigned int secs) { return sleep(secs); }
int smpi_gettimeofday(struct timeval *tv, struct timezone *tz)
{
    (void)tz; /* SMPI's macro passes 0 */
    return gettimeofday(tv, NULL);
}
int smpi_getopt_long_only(int argc, char *const *argv, const char *options,
                          const struct option *long_options, int *opt_index)
{
    return getopt_long_only(argc, argv, options, long_options, opt_index);
}
int smpi_getopt_long(int argc, char *const *argv, const char *options,
                     const struct option *long_options, int *opt_index)
{
    return getopt_long(argc, argv, options, long_options, opt_index);
}
int smpi_getopt(int argc, char *const *argv, const char *options)
{
    return getopt(argc, argv, options);
}
void *smpi_shared_malloc_intercept(size_t size, const char *file, int line)
{
    (void)file, (void)line;
    return malloc(size);
}
void *smpi_shared_calloc_intercept(size_t num_elm, size_t elem_size, const char *file,
                                   int line)
{
    (void)file, (void)line;
    return calloc(num_elm, elem_size);
}
void *smpi_shared_realloc_intercept(void *data, size_t size, const char *file, int line)
{
    (void)file, (void)line;
    return realloc(data, size);
}
void smpi_shared_free(void *data) { free(data); }
pid_t smpi_getpid(void) { return getpid(); }
_Noreturn void smpi_exit(int status) { exit(status); }
