/* common/opts.c - the --wtc-* launch options of the MPI program (SPEC 4). Plain C. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "wtcrt.h"
#include "proto.h"

#define WTCRT_KNOWN_OPTS \
    "--wtc-mode=simple|dynamic|steal, --wtc-masters=M, --wtc-batch=T, --wtc-stats, " \
    "--wtc-trace=FILE, --wtc-help"

const char wtcrt_usage[] =
    "usage: mpiexec -n P ./prog [--wtc-OPTION ...] [program arguments]\n"
    "\n"
    "A Work-Time C program: main runs on rank 0, every call of a recursive function\n"
    "from ordinary code is a parallel region over all P ranks. The --wtc- options may\n"
    "stand anywhere; the program never sees them.\n"
    "\n"
    "  --wtc-mode=simple|dynamic|steal\n"
    "                             every region in this mode (default: wtcc --mode,\n"
    "                             else each function's mode: clause)\n"
    "  --wtc-masters=M            dynamic mode: M masters, the last M ranks (default:\n"
    "                             wtcc --mode=dynamic:M, else the source's\n"
    "                             'mode: dynamic M', else 1; at most P-1); simple\n"
    "                             and steal regions have no masters and ignore it\n"
    "  --wtc-batch=T              children per task message: dynamic T, steal up to\n"
    "                             T (default: the bigger half of the pending ones)\n"
    "  --wtc-stats                print, per rank, where the time went (stderr)\n"
    "  --wtc-trace=FILE           write a timeline for chrome://tracing or Perfetto\n"
    "  --wtc-help                 print this text and stop\n"
    "\n"
    "Without mpiexec (or with -n 1) the program runs sequentially. Its predictor,\n"
    "prog.predict, tells the run time for each setting beforehand (--wtc-help there).\n"
    "See doc/runtime.md.\n";

/* Monotonic clock in seconds. */
double wtcrt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double wtcrt_median(double *v, long n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A positive decimal int, or -1. */
int wtcrt_parse_positive(const char *s)
{
    char *end;
    long v;
    if (!s || *s < '0' || *s > '9')
        return -1;
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || *end || v < 1 || v > INT_MAX)
        return -1;
    return (int)v;
}

const char *wtcrt_mode_name(int mode)
{
    return mode == WTC_MODE_DYNAMIC ? "dynamic" : mode == WTC_MODE_STEAL ? "steal" : "simple";
}

int wtcrt_source_mode(const wtc_program *prog, const wtc_fn *fn)
{
    if (prog->mode_override != WTC_MODE_DEFAULT)
        return prog->mode_override;
    return wtcp_mode_get(fn->mode) ? fn->mode : WTC_MODE_SIMPLE;
}

int wtcrt_source_masters(const wtc_program *prog, const wtc_fn *fn)
{
    return prog->masters_override > 0 ? prog->masters_override
                                      : fn->masters > 0 ? fn->masters : 1;
}

/* The value after "name=" in arg, or NULL when arg is not that option. */
static const char *opt_value(const char *arg, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0)
        return NULL;
    return arg[n] == '=' ? arg + n + 1 : NULL;
}

/* Interprets one --wtc-* argument; 0 or -1 with err set. */
static int opt_one(const char *arg, wtcrt_opts *o, char *err, size_t errsz)
{
    const char *v;
    if ((v = opt_value(arg, "--wtc-mode"))) {
        if (strcmp(v, "simple") == 0)
            o->mode = WTC_MODE_SIMPLE;
        else if (strcmp(v, "dynamic") == 0)
            o->mode = WTC_MODE_DYNAMIC;
        else if (strcmp(v, "steal") == 0)
            o->mode = WTC_MODE_STEAL;
        else
            goto bad_value;
    } else if ((v = opt_value(arg, "--wtc-masters"))) {
        if ((o->masters = wtcrt_parse_positive(v)) < 0)
            goto bad_value;
    } else if ((v = opt_value(arg, "--wtc-batch"))) {
        if ((o->batch = wtcrt_parse_positive(v)) < 0)
            goto bad_value;
    } else if ((v = opt_value(arg, "--wtc-trace"))) {
        if (!*v)
            goto bad_value;
        o->trace = v;
    } else if (strcmp(arg, "--wtc-stats") == 0) {
        o->stats = 1;
    } else if (strcmp(arg, "--wtc-help") == 0) {
        o->help = 1;
    } else {
        snprintf(err, errsz, "wtc: error: unknown option '%s' (known: " WTCRT_KNOWN_OPTS ")",
                 arg);
        return -1;
    }
    return 0;
bad_value:
    if (!v)
        v = "";
    snprintf(err, errsz, "wtc: error: bad value in '%s' (%s)", arg,
             strncmp(arg, "--wtc-mode", 10) == 0 ? "expected simple, dynamic or steal"
             : strncmp(arg, "--wtc-trace", 11) == 0 ? "expected a file name"
             : "expected a positive integer");
    return -1;
}

/* Removes every --wtc-* argument from argv, wherever it stands. */
int wtcrt_opts_parse(int *argc, char **argv, wtcrt_opts *o, char *err, size_t errsz)
{
    int i, j = 1;
    memset(o, 0, sizeof *o);
    err[0] = 0;
    for (i = 1; i < *argc; i++) {
        if (strncmp(argv[i], "--wtc-", 6) != 0) {
            argv[j++] = argv[i];
            continue;
        }
        if (opt_one(argv[i], o, err, errsz) < 0)
            return -1;
    }
    if (*argc > 0)
        *argc = j;
    argv[*argc] = NULL;
    return 0;
}
