/* common/opts.c - the --wtc-* launch options of the MPI program (SPEC 4). Plain C. */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "wtcrt.h"
#include "proto.h"

#define WTCRT_KNOWN_OPTS \
    "--wtc-mode=simple|dynamic|steal, --wtc-masters=M, --wtc-batch=T, --wtc-stats, " \
    "--wtc-trace=FILE, --wtc-depth=D, --wtc-auto=PROFILE, --wtc-machine=M, --wtc-help"

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
    "  --wtc-depth=D              every cond: replaced by wtc_depth < D for this run\n"
    "                             (default: each function's own cond:)\n"
    "  --wtc-auto=PROFILE         mode, masters, batch and depth for this P from a\n"
    "                             profile saved by prog.predict --wtc-save-profile\n"
    "  --wtc-machine=M            with --wtc-auto: the machine its table must be for\n"
    "  --wtc-stats                print, per rank, where the time went (stderr)\n"
    "  --wtc-trace=FILE           write a timeline for chrome://tracing or Perfetto\n"
    "  --wtc-help                 print this text and stop\n"
    "\n"
    "Without mpiexec (or with -n 1) the program runs sequentially. Its predictor,\n"
    "prog.predict, tells the run time for each setting beforehand (--wtc-help there).\n"
    "Environment: WTC_DECISIONS=FILE appends every decision that moves work to FILE.\n"
    "See doc/runtime.md (also for the WTC_* variables of measurements and tests).\n";

/* --wtc-depth=D of this run (wtc_abi.h), -1: each function's cond: */
int wtc_cut_depth = -1;

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

int wtcrt_env_off(const char *name)
{
    const char *s = getenv(name);
    return s && strcmp(s, "0") == 0;
}

/* A cut-off depth: a decimal int from 0 to WTCRT_MAX_DEPTH, or -1. */
int wtcrt_parse_depth(const char *s)
{
    int v;
    if (s && strcmp(s, "0") == 0)
        return 0;
    v = wtcrt_parse_positive(s);
    return v > WTCRT_MAX_DEPTH ? -1 : v;
}

/* The value after "name=" in arg, or NULL when arg is not that option. */
static const char *opt_value(const char *arg, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0)
        return NULL;
    return arg[n] == '=' ? arg + n + 1 : NULL;
}

#define OPT_STR_(x) #x
#define OPT_STR(x) OPT_STR_(x)

/* How an option's value is read (and what a bad one should have been). */
enum { OPT_MODE, OPT_POSITIVE, OPT_DEPTH, OPT_FILE, OPT_OUTFILE, OPT_FLAG };

static const char *const opt_expected[] = {
    "expected simple, dynamic or steal", "expected a positive integer",
    "expected an integer from 0 to " OPT_STR(WTCRT_MAX_DEPTH), "expected a file name",
    "expected a file name", "",
};

/* The --wtc-* options of the program: --wtc-NAME=VALUE, or a flag with no value. */
static const struct wtcrt_opt {
    const char *name;
    int kind;              /* OPT_* */
    size_t field;          /* where it goes in wtcrt_opts (an int, or a const char *) */
} wtcrt_optv[] = {
    { "--wtc-mode", OPT_MODE, offsetof(wtcrt_opts, mode) },
    { "--wtc-masters", OPT_POSITIVE, offsetof(wtcrt_opts, masters) },
    { "--wtc-batch", OPT_POSITIVE, offsetof(wtcrt_opts, batch) },
    { "--wtc-trace", OPT_OUTFILE, offsetof(wtcrt_opts, trace) },
    { "--wtc-depth", OPT_DEPTH, offsetof(wtcrt_opts, depth) },
    { "--wtc-auto", OPT_FILE, offsetof(wtcrt_opts, autof) },
    { "--wtc-machine", OPT_FILE, offsetof(wtcrt_opts, machine) },
    { "--wtc-stats", OPT_FLAG, offsetof(wtcrt_opts, stats) },
    { "--wtc-help", OPT_FLAG, offsetof(wtcrt_opts, help) },
};

/* Stores value v of option x in o; -1 when v is bad for it. */
static int opt_store(const struct wtcrt_opt *x, const char *v, wtcrt_opts *o)
{
    char *f = (char *)o + x->field;
    switch (x->kind) {
    case OPT_MODE: {
        int mode = strcmp(v, "simple") == 0    ? WTC_MODE_SIMPLE
                   : strcmp(v, "dynamic") == 0 ? WTC_MODE_DYNAMIC
                   : strcmp(v, "steal") == 0   ? WTC_MODE_STEAL
                                               : WTC_MODE_DEFAULT;
        if (mode == WTC_MODE_DEFAULT)
            return -1;
        *(int *)f = mode;
        return 0;
    }
    case OPT_POSITIVE:
        return (*(int *)f = wtcrt_parse_positive(v)) < 0 ? -1 : 0;
    case OPT_DEPTH:
        return (*(int *)f = wtcrt_parse_depth(v)) < 0 ? -1 : 0;
    case OPT_FILE:
    case OPT_OUTFILE: /* written at the end, maybe after a chdir() of the program */
        if (!*v)
            return -1;
        *(const char **)f = x->kind == OPT_OUTFILE ? wtcrt_path_from_start(v) : v;
        return 0;
    default:
        *(int *)f = 1;
        return 0;
    }
}

/* Interprets one --wtc-* argument; 0 or -1 with err set. */
static int opt_one(const char *arg, wtcrt_opts *o, char *err, size_t errsz)
{
    for (size_t i = 0; i < sizeof wtcrt_optv / sizeof *wtcrt_optv; i++) {
        const struct wtcrt_opt *x = &wtcrt_optv[i];
        const char *v = x->kind != OPT_FLAG ? opt_value(arg, x->name)
                        : strcmp(arg, x->name) == 0 ? "" : NULL;
        if (!v)
            continue;
        if (opt_store(x, v, o) == 0)
            return 0;
        snprintf(err, errsz, "wtc: error: bad value in '%s' (%s)", arg, opt_expected[x->kind]);
        return -1;
    }
    for (size_t i = 0; i < sizeof wtcrt_optv / sizeof *wtcrt_optv; i++)
        if (wtcrt_optv[i].kind != OPT_FLAG && strcmp(arg, wtcrt_optv[i].name) == 0) {
            snprintf(err, errsz, "wtc: error: '%s' needs a value: %s=VALUE (%s)", arg, arg,
                     opt_expected[wtcrt_optv[i].kind]);
            return -1;
        }
    snprintf(err, errsz, "wtc: error: unknown option '%s' (known: " WTCRT_KNOWN_OPTS ")", arg);
    return -1;
}

/* Removes every --wtc-* argument from argv, wherever it stands before a "--" (which
   stays, as everything after it: the program's own, as in getopt). */
int wtcrt_opts_parse(int *argc, char **argv, wtcrt_opts *o, char *err, size_t errsz)
{
    int i, j = 1;
    memset(o, 0, sizeof *o);
    o->depth = -1;
    err[0] = 0;
    for (i = 1; i < *argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            while (i < *argc)
                argv[j++] = argv[i++];
            break;
        }
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
    if (o->machine && !o->autof) {
        snprintf(err, errsz, "wtc: error: --wtc-machine needs --wtc-auto=PROFILE (the "
                 "program runs on the machine it is on)");
        return -1;
    }
    return 0;
}

/* Defined by the generated code of a program that includes <mpi.h> (wtc_abi.h): it may
   call MPI itself, so MPI starts before main however small the job (mpi/single.c), and
   the predictor models that start (sim/engine.c). */
extern const int wtc_calls_mpi __attribute__((weak));

int wtcrt_program_calls_mpi(void)
{
    return &wtc_calls_mpi && wtc_calls_mpi;
}
