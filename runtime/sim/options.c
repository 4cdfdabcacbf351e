/* sim/options.c - prog.predict's --wtc-* options (SPEC 5) and where the machine file
 * comes from. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "wtcrt.h"
#include "sim.h"
#include "proto.h"

/* The lead's code generator may define this (a machine file path or preset name);
   a weak definition so the library links without it. */
__attribute__((weak)) const char *wtcrt_sim_default_machine = "ethernet-mpich-2004.conf";

const char sim_usage[] =
    "usage: ./prog.predict [--wtc-OPTION ...] [program arguments]\n"
    "\n"
    "Runs the program once on this machine (its standard output is suppressed), records\n"
    "its recursion above the cut-off, times a sample of the leaf tasks below it, and\n"
    "simulates the runtime protocols on the target machine: the predicted run time,\n"
    "speedup and efficiency of every setting, the best one, and advice on cut-off, mode,\n"
    "masters and batch as notes at the par statements. It needs no MPI.\n"
    "\n"
    "  --wtc-procs=LIST       processor counts (default 1,2,4,...,128)\n"
    "  --wtc-modes=LIST       of simple, dynamic, steal (default all three); the same\n"
    "                         as --wtc-mode=LIST\n"
    "  --wtc-masters=LIST     dynamic mode: masters (default 1,2,4,8; M >= P is taken as\n"
    "                         P-1, as the runtime does)\n"
    "  --wtc-batch=LIST       dynamic mode: children per task message (default: the\n"
    "                         runtime's, the bigger half of the pending ones);\n"
    "                         steal mode is simulated without a cap (one row per P)\n"
    "  --wtc-machine=FILE     the target machine: a machine file or a preset name\n"
    "                         (default: this host's, made by 'make calibrate', else the\n"
    "                         shipped ethernet-mpich-2004)\n"
    "  --wtc-error=PCT        sample leaf tasks until the bootstrap interval of their\n"
    "                         total is within +-PCT % (default 5)\n"
    "  --wtc-sample=N|all     time N leaf tasks spread over the run, or every one\n"
    "  --wtc-replicate=on|off|N  run one of a par's equal-sized subtrees and copy it to\n"
    "                         its siblings, up to N copies of a call (on: 16;\n"
    "                         default on, off with --wtc-sample=all)\n"
    "  --wtc-runs=N           dynamic and steal mode, whose runs differ (thieves choose\n"
    "                         victims at random, ranks run faster or slower: machine key\n"
    "                         speed_spread): simulate N runs per setting and report their\n"
    "                         mean, with their spread (default 7; 1: one run, the\n"
    "                         runtime's victims at the recorded speeds)\n"
    "  --wtc-vary=KEY:V1,V2,...  what if machine key KEY (L, G, o_sa, cpu_ratio, t_m,\n"
    "                         ...) had each of these values: the best setting per value\n"
    "                         (csv, json: every setting); give it twice for a grid\n"
    "  --wtc-format=table|csv|json  the report's format (default table); csv, json:\n"
    "                         the notes at source lines on stderr, as gcc prints them\n"
    "  --wtc-trace=FILE       for one setting: write the predicted run as the program's\n"
    "                         --wtc-trace does (Chrome trace events, one lane per rank),\n"
    "                         and print its per-rank table (as --wtc-stats)\n"
    "  --wtc-stats            for one setting: the per-rank table of the program's\n"
    "                         --wtc-stats for the predicted run, after the report\n"
    "  --wtc-plot=FILE.svg    plot the predicted speed-up against P (SVG); with one\n"
    "                         --wtc-vary key, the predicted time against its value\n"
    "  --wtc-depth=LIST       cut-off depths: every cond: replaced by wtc_depth < D,\n"
    "                         each D recorded by a run of its own and simulated\n"
    "  --wtc-save-profile=FILE  also write the recording, and the best setting per P\n"
    "                         (for the program's --wtc-auto), to FILE\n"
    "  --wtc-profile=FILE     predict from a saved profile: the program does not run\n"
    "  --wtc-help             print this text and stop\n"
    "\n"
    "Environment: WTC_PREDICT_MEM_MB (memory for captured leaf inputs, default 1024),\n"
    "WTC_PREDICT_SEED (the sampling seed, default 0x5eed), WTC_PREDICT_DEBUG=1\n"
    "(recording details), WTC_DECISIONS=FILE (for one setting: every TASK the\n"
    "simulation sends, one line each), WTC_PREDICT_NO_WATCH=1 (read the CPU clock\n"
    "around every timed piece, as where the kernel does not let a thread watch its\n"
    "own scheduling).\n"
    "See doc/predictor.md.\n";

static int fail(char *err, size_t errsz, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errsz, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errsz, fmt, ap);
    va_end(ap);
    return -1;
}

struct sim_option;

/* One option's name and value, and where its parser puts what it reads. */
typedef struct opt_arg {
    const char *name, *v;
    int has_value;         /* "=" given (the value may be empty) */
    const struct sim_option *opt; /* its entry in sim_options */
    sim_opts *o;
    int *seen_sample;      /* guards --wtc-sample against --wtc-error */
    char *err;
    size_t errsz;
} opt_arg;

/* An option of prog.predict: its name, its parser, and the fields its parser fills. */
typedef struct sim_option {
    const char *name;
    int (*parse)(const opt_arg *a);
    int flag;              /* parsed before the check that a value is given */
    size_t field;          /* opt_string: the const char *; opt_list: the int array */
    size_t count;          /* opt_list: the int that counts it */
    int max;               /* opt_list: the largest value */
} sim_option;

/* Whether x is one of v[0..n-1]. */
static int in_list(const int *v, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x)
            return 1;
    return 0;
}

/* --wtc-procs, --wtc-masters, --wtc-batch: a comma-separated list of positive ints,
   each at most the option's max. */
static int opt_list(const opt_arg *a)
{
    const char *s = a->v;
    int *v = (int *)((char *)a->o + a->opt->field), *n = (int *)((char *)a->o + a->opt->count);
    *n = 0;
    for (;;) {
        char *end;
        long x;
        errno = 0;
        x = strtol(s, &end, 10);
        if (end == s || errno || x < 1 || x > a->opt->max || (*end && *end != ','))
        {
            /* the whole list, and where it went wrong after its start ('1,,2' named
               ',2' alone: a helper's bug hunt) */
            char where[64] = "";
            if (s != a->v)
                snprintf(where, sizeof where, *s ? " at '%.40s'" : " at its end", s);
            return fail(a->err, a->errsz, "%s: bad list '%s'%s (positive integers up to %d, "
                        "separated by commas)", a->name, a->v, where, a->opt->max);
        }
        if (*n == SIM_MAXLIST)
            return fail(a->err, a->errsz, "%s: more than %d values", a->name, SIM_MAXLIST);
        if (!in_list(v, *n, (int)x)) /* a value twice is one setting (its rows came twice) */
            v[(*n)++] = (int)x;
        if (!*end)
            return 0;
        s = end + 1;
    }
}

static void defaults(sim_opts *o)
{
    memset(o, 0, sizeof *o);
    for (int p = 1; p <= 128; p *= 2)
        o->procs[o->nprocs++] = p;
    for (int m = 1; m <= 8; m *= 2)
        o->masters[o->nmasters++] = m;
    o->batch[o->nbatch++] = 0; /* the runtime's default: half the pending children */
    for (int id = 1; id <= SIM_NMODES; id++)
        o->modes[id] = 1;
    o->sample = SIM_SAMPLE_ERROR;
    o->error_pct = 5;
    o->format = SIM_FMT_TABLE;
    o->replicate = SIM_REPLICATE_ON;
    o->runs = SIM_RUNS;
}

/* A comma-separated list with an empty item: a comma first, last, or twice in a row
   (strtok would skip it, and 'L:1e-6,,2e-6' meant something the user did not see). */
static int list_has_empty(const char *s)
{
    return !*s || s[0] == ',' || s[strlen(s) - 1] == ',' || strstr(s, ",,");
}

/* A list of the core's mode names (wtcp_mode_named). */
static int opt_modes(const opt_arg *a)
{
    const char *s = a->v;
    sim_opts *o = a->o;
    char *err = a->err;
    size_t errsz = a->errsz;
    char *buf, *tok, *save;
    int any = 0;
    if (list_has_empty(s)) /* 'steal,' was taken as 'steal' */
        return fail(err, errsz, "--wtc-modes: bad list '%s' (%s, separated by single "
                    "commas)", s, wtcp_mode_list());
    /* the whole list: a copy into 64 bytes dropped what followed silently (a list of 68
       characters ending in ',steal' simulated no steal mode: a helper's bug hunt) */
    if (!(buf = strdup(s)))
        return fail(err, errsz, "--wtc-modes: out of memory");
    memset(o->modes, 0, sizeof o->modes);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        const wtcp_mode *m = wtcp_mode_named(tok);
        if (!m || m->id < 1 || m->id > SIM_NMODES) {
            fail(err, errsz, "--wtc-modes: unknown mode '%s' (%s)", tok, wtcp_mode_list());
            free(buf);
            return -1;
        }
        o->modes[m->id] = 1;
        any = 1;
    }
    free(buf);
    if (!any)
        return fail(err, errsz, "--wtc-modes: no mode given (%s)", wtcp_mode_list());
    return 0;
}

/* --wtc-vary=KEY:V1,V2,...: a machine key and its values, each checked as the machine
   file's parser checks it (sim_machine_set). */
static int opt_vary(const opt_arg *a)
{
    const char *s = a->v;
    sim_opts *o = a->o;
    char *err = a->err;
    size_t errsz = a->errsz;
    const char *colon = strchr(s, ':');
    char msg[512], *buf, *tok, *save;
    sim_vary *v = &o->vary[o->nvary];
    if (o->nvary == SIM_MAXVARY)
        return fail(err, errsz, "--wtc-vary: at most %d keys", SIM_MAXVARY);
    if (!colon || colon == s || (size_t)(colon - s) >= sizeof v->key || !colon[1])
        return fail(err, errsz, "--wtc-vary: expected KEY:V1,V2,... (a machine key: %s), "
                    "not '%s'", sim_machine_keys(), s);
    snprintf(v->key, sizeof v->key, "%.*s", (int)(colon - s), s);
    if (isnan(sim_machine_get(&(sim_machine){ 0 }, v->key)))
        return fail(err, errsz, "--wtc-vary: unknown machine key '%s' (%s)", v->key,
                    sim_machine_keys());
    for (int i = 0; i < o->nvary; i++)
        if (strcmp(o->vary[i].key, v->key) == 0)
            return fail(err, errsz, "--wtc-vary: key '%s' given twice", v->key);
    if (list_has_empty(colon + 1))
        return fail(err, errsz, "--wtc-vary: an empty value in '%s' (values separated by "
                    "single commas)", s);
    if (!(buf = strdup(colon + 1)))
        return fail(err, errsz, "--wtc-vary: out of memory");
    v->n = 0;
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (v->n == SIM_MAXLIST)
            return fail(err, errsz, "--wtc-vary: more than %d values", SIM_MAXLIST);
        if (sim_machine_set(NULL, v->key, tok, msg, sizeof msg) < 0)
            return fail(err, errsz, "--wtc-vary: %s", msg);
        v->val[v->n++] = tok;
    }
    if (v->n == 0)
        return fail(err, errsz, "--wtc-vary: no value for '%s'", v->key);
    o->nvary++;
    return 0;
}

/* --wtc-depth=LIST: cut-off depths, 0 to WTCRT_MAX_DEPTH (wtcrt_parse_depth), each
   simulated. */
static int opt_depth(const opt_arg *a)
{
    const char *s = a->v;
    sim_opts *o = a->o;
    char *err = a->err;
    size_t errsz = a->errsz;
    char *buf, *tok, *save;
    /* the whole list (a copy into 512 bytes cut '1,1,...,1,12' to depth 1 alone) */
    if (!(buf = strdup(s)))
        return fail(err, errsz, "--wtc-depth: out of memory");
    o->ndepth = 0;
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (o->ndepth == SIM_MAXLIST) {
            free(buf);
            return fail(err, errsz, "--wtc-depth: more than %d values", SIM_MAXLIST);
        }
        if ((o->depth[o->ndepth++] = wtcrt_parse_depth(tok)) < 0)
            break;
        if (in_list(o->depth, o->ndepth - 1, o->depth[o->ndepth - 1]))
            o->ndepth--; /* one depth, once */
    }
    free(buf);
    if (o->ndepth == 0 || o->depth[o->ndepth - 1] < 0 || list_has_empty(s))
        return fail(err, errsz, "--wtc-depth: bad list '%s' (depths from 0 to %d separated "
                    "by commas)", s, WTCRT_MAX_DEPTH);
    return 0;
}

/* --wtc-help: a flag that ignores any value. */
static int opt_help(const opt_arg *a)
{
    a->o->help = 1;
    return 0;
}

/* --wtc-stats: a flag that takes no value. */
static int opt_stats(const opt_arg *a)
{
    if (a->has_value)
        return fail(a->err, a->errsz, "--wtc-stats takes no value");
    a->o->stats = 1;
    return 0;
}

/* --wtc-format=table|csv|json */
static int opt_format(const opt_arg *a)
{
    if (strcmp(a->v, "table") == 0) a->o->format = SIM_FMT_TABLE;
    else if (strcmp(a->v, "csv") == 0) a->o->format = SIM_FMT_CSV;
    else if (strcmp(a->v, "json") == 0) a->o->format = SIM_FMT_JSON;
    else return fail(a->err, a->errsz, "--wtc-format: unknown format '%s' (table, csv, json)",
                     a->v);
    return 0;
}

/* Whether s is a whole decimal number from lo to hi (into *x). */
static int whole_in(const char *s, long lo, long hi, long *x)
{
    char *end;
    errno = 0;
    *x = strtol(s, &end, 10);
    return !*end && !errno && *x >= lo && *x <= hi;
}

/* --wtc-replicate=on|off|N: the largest replication factor of a subtree. */
static int opt_replicate(const opt_arg *a)
{
    long x;
    if (strcmp(a->v, "on") == 0) {
        a->o->replicate = SIM_REPLICATE_ON;
        return 0;
    }
    if (strcmp(a->v, "off") == 0) {
        a->o->replicate = 0;
        return 0;
    }
    if (!whole_in(a->v, 2, 1 << 20, &x))
        return fail(a->err, a->errsz, "--wtc-replicate: expected on, off or a replication "
                    "limit from 2 to %d, not '%s'", 1 << 20, a->v);
    a->o->replicate = (int)x;
    return 0;
}

/* --wtc-runs=N: runs (draws) per setting of dynamic and steal mode, 1 to SIM_RUNS_MAX. */
static int opt_runs(const opt_arg *a)
{
    long x;
    if (!whole_in(a->v, 1, SIM_RUNS_MAX, &x))
        return fail(a->err, a->errsz, "--wtc-runs: expected a number of runs from 1 to %d, "
                    "not '%s'", SIM_RUNS_MAX, a->v);
    a->o->runs = (int)x;
    return 0;
}

/* --wtc-sample and --wtc-error choose the same thing: only one of them, once. */
static int sample_twice(const opt_arg *a)
{
    if ((*a->seen_sample)++)
        return fail(a->err, a->errsz, "%s: give only one of --wtc-sample and --wtc-error",
                    a->name);
    return 0;
}

/* --wtc-sample=N|all: how many leaf tasks to time (only one of it and --wtc-error). */
static int opt_sample(const opt_arg *a)
{
    long x;
    if (sample_twice(a))
        return -1;
    if (strcmp(a->v, "all") == 0) {
        a->o->sample = SIM_SAMPLE_ALL;
        return 0;
    }
    if (!whole_in(a->v, 1, LONG_MAX, &x))
        return fail(a->err, a->errsz, "--wtc-sample: expected a positive number of "
                    "tasks or 'all', not '%s'", a->v);
    a->o->sample = SIM_SAMPLE_N;
    a->o->sample_n = x;
    return 0;
}

/* --wtc-error=PCT: sample until the bootstrap interval is this tight. */
static int opt_error(const opt_arg *a)
{
    char *end;
    double x;
    if (sample_twice(a))
        return -1;
    errno = 0;
    x = strtod(a->v, &end);
    if (*end || errno || !(x > 0) || x > 100)
        return fail(a->err, a->errsz, "--wtc-error: expected a percentage in (0, 100], "
                    "not '%s'", a->v);
    a->o->sample = SIM_SAMPLE_ERROR;
    a->o->error_pct = x;
    return 0;
}

/* --wtc-machine, --wtc-profile: kept as given (both are read before the program runs). */
static int opt_string(const opt_arg *a)
{
    *(const char **)((char *)a->o + a->opt->field) = a->v;
    return 0;
}

/* --wtc-trace, --wtc-plot, --wtc-save-profile: written after the program ran, which may
   have changed its directory, so as the start directory sees them. */
static int opt_out_path(const opt_arg *a)
{
    *(const char **)((char *)a->o + a->opt->field) = wtcrt_path_from_start(a->v);
    return 0;
}

#define LIST(f, max) opt_list, 0, offsetof(sim_opts, f), offsetof(sim_opts, n##f), max
#define STRING(f) opt_string, 0, offsetof(sim_opts, f), 0, 0
#define OUT_PATH(f) opt_out_path, 0, offsetof(sim_opts, f), 0, 0

/* Every option of prog.predict, looked up by parse_one. */
static const sim_option sim_options[] = {
    { "--wtc-help", opt_help, 1, 0, 0, 0 },
    { "--wtc-stats", opt_stats, 1, 0, 0, 0 },
    { "--wtc-procs", LIST(procs, 1 << 16) },
    { "--wtc-masters", LIST(masters, 1 << 15) },
    { "--wtc-batch", LIST(batch, 1 << 30) },
    { "--wtc-modes", opt_modes, 0, 0, 0, 0 },
    { "--wtc-mode", opt_modes, 0, 0, 0, 0 },
    { "--wtc-vary", opt_vary, 0, 0, 0, 0 },
    { "--wtc-depth", opt_depth, 0, 0, 0, 0 },
    { "--wtc-save-profile", OUT_PATH(save_profile) },
    { "--wtc-profile", STRING(profile) },
    { "--wtc-machine", STRING(machine) },
    { "--wtc-trace", OUT_PATH(trace) },
    { "--wtc-plot", OUT_PATH(plot) },
    { "--wtc-format", opt_format, 0, 0, 0, 0 },
    { "--wtc-replicate", opt_replicate, 0, 0, 0, 0 },
    { "--wtc-sample", opt_sample, 0, 0, 0, 0 },
    { "--wtc-error", opt_error, 0, 0, 0, 0 },
    { "--wtc-runs", opt_runs, 0, 0, 0, 0 },
};

#undef LIST
#undef STRING
#undef OUT_PATH

/* One option "--wtc-NAME=VALUE" (or a flag); seen_sample guards N|all vs PCT. */
static int parse_one(const char *s, sim_opts *o, int *seen_sample, char *err, size_t errsz)
{
    const char *eq = strchr(s, '=');
    size_t n = eq ? (size_t)(eq - s) : strlen(s);
    char name[64];
    opt_arg a = { name, eq ? eq + 1 : "", eq != NULL, NULL, o, seen_sample, err, errsz };
    snprintf(name, sizeof name, "%.*s", (int)(n < 60 ? n : 60), s);
    for (size_t i = 0; i < sizeof sim_options / sizeof *sim_options && !a.opt; i++)
        if (strcmp(name, sim_options[i].name) == 0)
            a.opt = &sim_options[i];
    if (a.opt && a.opt->flag)
        return a.opt->parse(&a);
    if (a.opt && (!eq || !*a.v))
        return fail(err, errsz, "%s: needs a value (%s=...)", name, name);
    if (a.opt)
        return a.opt->parse(&a);
    return fail(err, errsz, "unknown option %s (prog.predict accepts --wtc-procs, "
                "--wtc-masters, --wtc-batch, --wtc-modes, --wtc-machine, --wtc-sample, "
                "--wtc-error, --wtc-replicate, --wtc-runs, --wtc-vary, --wtc-format, --wtc-trace, "
                "--wtc-stats, --wtc-plot, --wtc-depth, --wtc-profile, --wtc-save-profile, "
                "--wtc-help)", name);
}

int sim_opts_parse(int *argc, char **argv, sim_opts *o, char *err, size_t errsz)
{
    int out = 1, seen_sample = 0, n;
    defaults(o);
    for (int i = 1; i < *argc; i++) {
        if (strcmp(argv[i], "--") == 0) { /* it and what follows: the program's */
            while (i < *argc)
                argv[out++] = argv[i++];
            break;
        }
        if (strncmp(argv[i], "--wtc-", 6) != 0) {
            argv[out++] = argv[i];
            continue;
        }
        if (parse_one(argv[i], o, &seen_sample, err, errsz) < 0)
            return -1;
        o->recording |= strncmp(argv[i], "--wtc-sample", 12) == 0 ||
                        strncmp(argv[i], "--wtc-error", 11) == 0 ||
                        strncmp(argv[i], "--wtc-replicate", 15) == 0;
    }
    if (o->profile && (o->recording || out > 1))
        return fail(err, errsz, "--wtc-profile: the program does not run, so %s would "
                    "not be used (they belong to the recording)", out > 1
                    ? "program arguments" : "--wtc-sample, --wtc-error and --wtc-replicate");
    if (o->nvary && o->save_profile) /* its table of best settings is one machine's */
        return fail(err, errsz, "--wtc-save-profile saves the best settings on one machine: "
                    "it cannot be combined with --wtc-vary");
    if (o->nvary && (o->trace || o->stats))
        return fail(err, errsz, "%s shows the predictions of one machine: it cannot be "
                    "combined with --wtc-vary", o->trace ? "--wtc-trace" : "--wtc-stats");
    if (o->nvary > 1 && o->plot)
        return fail(err, errsz, "--wtc-plot draws the time against one --wtc-vary key, "
                    "and %d are given", o->nvary);
    if ((o->trace || o->stats) && (n = sim_settings_count(o)) != 1)
        return fail(err, errsz, "%s shows one predicted run, and these options name %d "
                    "settings: give one --wtc-procs, one --wtc-modes and, for dynamic "
                    "mode, one --wtc-masters and one --wtc-batch, and at most one --wtc-depth",
                    o->trace ? "--wtc-trace" : "--wtc-stats", n);
    *argc = out;
    argv[out] = NULL;
    return 0;
}

/* ---- the machine file ---------------------------------------------------------------- */

/* The runtime directory: $WTC_LIBDIR, else where wtcc was when it built this predictor
   (wtc_libdir, defined by the generated code; weak so the library links without it). */
extern const char *const wtc_libdir __attribute__((weak));
static const char *libdir(void)
{
    const char *env = getenv("WTC_LIBDIR");
    if (env && *env)
        return env;
    return &wtc_libdir ? wtc_libdir : NULL;
}

static int readable(const char *p)
{
    return access(p, R_OK) == 0;
}

/* A name without '/': a file here, $WTC_LIBDIR/machines/NAME[.conf], or a preset. */
static int find_named(const char *spec, sim_machine *m, char *err, size_t errsz)
{
    const char *lib = libdir(), *text;
    char path[4096];
    if (readable(spec))
        return sim_machine_load(spec, m, err, errsz);
    if (lib && *lib) {
        snprintf(path, sizeof path, "%s/machines/%s", lib, spec);
        if (readable(path))
            return sim_machine_load(path, m, err, errsz);
        snprintf(path, sizeof path, "%s/machines/%s.conf", lib, spec);
        if (readable(path))
            return sim_machine_load(path, m, err, errsz);
    }
    text = sim_machine_preset(spec);
    if (!text) {
        char names[1024];
        sim_machine_preset_names(names, sizeof names);
        return fail(err, errsz, "--wtc-machine: no machine file '%s' here%s%s%s (and no "
                    "preset of that name; presets: %s)", spec, lib && *lib ? " nor in " : "",
                    lib && *lib ? lib : "", lib && *lib ? "/machines" : "", names);
    }
    if (sim_machine_parse(text, spec, m, err, errsz) < 0)
        return -1;
    snprintf(m->source, sizeof m->source, "built-in preset %s", m->name);
    return 0;
}

int sim_machine_find(const char *spec, sim_machine *m, char *err, size_t errsz)
{
    const char *lib = libdir(), *def = wtcrt_sim_default_machine;
    char path[4096];
    if (spec)
        return strchr(spec, '/') ? sim_machine_load(spec, m, err, errsz)
                                 : find_named(spec, m, err, errsz);
    if (lib && *lib) {
        snprintf(path, sizeof path, "%s/machines/host.conf", lib);
        if (readable(path))
            return sim_machine_load(path, m, err, errsz);
    }
    if (def && *def && (strchr(def, '/') ? readable(def) : 1) &&
        (strchr(def, '/') ? sim_machine_load(def, m, err, errsz)
                          : find_named(def, m, err, errsz)) == 0)
        return 0;
    return find_named("ethernet-mpich-2004", m, err, errsz);
}
