/* sim/options.c - prog.predict's --wtc-* options (SPEC 5) and where the machine file
 * comes from. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
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
    "  --wtc-modes=LIST       of simple, dynamic, steal (default all three)\n"
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
    "                         its siblings, up to N copies of a call (on: 16)\n"
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
    "                         each D simulated (recorded once, to the largest D)\n"
    "  --wtc-save-profile=FILE  also write the recording, and the best setting per P\n"
    "                         (for the program's --wtc-auto), to FILE\n"
    "  --wtc-profile=FILE     predict from a saved profile: the program does not run\n"
    "  --wtc-help             print this text and stop\n"
    "\n"
    "Environment: WTC_PREDICT_MEM_MB (memory for captured leaf inputs, default 1024),\n"
    "WTC_PREDICT_SEED (the sampling seed), WTC_PREDICT_DEBUG=1 (recording details),\n"
    "WTC_DECISIONS=FILE (for one setting: every TASK the simulation sends, one line each).\n"
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

/* A comma-separated list of positive ints, each at most max. */
static int parse_list(const char *opt, const char *s, int *v, int *n, int max, char *err,
                      size_t errsz)
{
    *n = 0;
    for (;;) {
        char *end;
        long x;
        errno = 0;
        x = strtol(s, &end, 10);
        if (end == s || errno || x < 1 || x > max || (*end && *end != ','))
            return fail(err, errsz, "%s: bad list '%s' (positive integers up to %d, "
                        "separated by commas)", opt, s, max);
        if (*n == SIM_MAXLIST)
            return fail(err, errsz, "%s: more than %d values", opt, SIM_MAXLIST);
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
}

/* A list of the core's mode names (wtcp_mode_named). */
static int parse_modes(const char *s, sim_opts *o, char *err, size_t errsz)
{
    char buf[64], *tok, *save;
    int any = 0;
    snprintf(buf, sizeof buf, "%s", s);
    memset(o->modes, 0, sizeof o->modes);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        const wtcp_mode *m = wtcp_mode_named(tok);
        if (!m || m->id < 1 || m->id > SIM_NMODES)
            return fail(err, errsz, "--wtc-modes: unknown mode '%s' (%s)", tok,
                        wtcp_mode_list());
        o->modes[m->id] = 1;
        any = 1;
    }
    if (!any)
        return fail(err, errsz, "--wtc-modes: no mode given (%s)", wtcp_mode_list());
    return 0;
}

/* --wtc-vary=KEY:V1,V2,...: a machine key and its values, each checked as the machine
   file's parser checks it (sim_machine_set). */
static int parse_vary(const char *s, sim_opts *o, char *err, size_t errsz)
{
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

/* --wtc-depth=LIST: cut-off depths >= 0 (wtcrt_parse_depth), each simulated. */
static int parse_depths(const char *s, sim_opts *o, char *err, size_t errsz)
{
    char buf[512], *tok, *save;
    snprintf(buf, sizeof buf, "%s", s);
    o->ndepth = 0;
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (o->ndepth == SIM_MAXLIST)
            return fail(err, errsz, "--wtc-depth: more than %d values", SIM_MAXLIST);
        if ((o->depth[o->ndepth++] = wtcrt_parse_depth(tok)) < 0)
            break;
    }
    if (o->ndepth == 0 || o->depth[o->ndepth - 1] < 0 || s[0] == ',' ||
        s[strlen(s) - 1] == ',' || strstr(s, ",,"))
        return fail(err, errsz, "--wtc-depth: bad list '%s' (depths >= 0 separated by "
                    "commas)", s);
    return 0;
}

/* One option "--wtc-NAME=VALUE" (or a flag); seen_sample guards N|all vs PCT. */
static int parse_one(const char *a, sim_opts *o, int *seen_sample, char *err, size_t errsz)
{
    const char *eq = strchr(a, '='), *v = eq ? eq + 1 : "";
    size_t n = eq ? (size_t)(eq - a) : strlen(a);
    char name[64], *end;
    snprintf(name, sizeof name, "%.*s", (int)(n < 60 ? n : 60), a);
    if (strcmp(name, "--wtc-help") == 0) {
        o->help = 1;
        return 0;
    }
    if (strcmp(name, "--wtc-stats") == 0) {
        if (eq)
            return fail(err, errsz, "--wtc-stats takes no value");
        o->stats = 1;
        return 0;
    }
    if (!eq || !*v)
        return fail(err, errsz, "%s: needs a value (%s=...)", name, name);
    if (strcmp(name, "--wtc-procs") == 0)
        return parse_list(name, v, o->procs, &o->nprocs, 1 << 16, err, errsz);
    if (strcmp(name, "--wtc-masters") == 0)
        return parse_list(name, v, o->masters, &o->nmasters, 1 << 15, err, errsz);
    if (strcmp(name, "--wtc-batch") == 0)
        return parse_list(name, v, o->batch, &o->nbatch, 1 << 30, err, errsz);
    if (strcmp(name, "--wtc-modes") == 0 || strcmp(name, "--wtc-mode") == 0)
        return parse_modes(v, o, err, errsz);
    if (strcmp(name, "--wtc-vary") == 0)
        return parse_vary(v, o, err, errsz);
    if (strcmp(name, "--wtc-depth") == 0)
        return parse_depths(v, o, err, errsz);
    if (strcmp(name, "--wtc-save-profile") == 0 || strcmp(name, "--wtc-profile") == 0) {
        *(name[6] == 's' ? &o->save_profile : &o->profile) = v;
        return 0;
    }
    if (strcmp(name, "--wtc-machine") == 0) {
        o->machine = v;
        return 0;
    }
    if (strcmp(name, "--wtc-trace") == 0) {
        o->trace = v;
        return 0;
    }
    if (strcmp(name, "--wtc-plot") == 0) {
        o->plot = v;
        return 0;
    }
    if (strcmp(name, "--wtc-format") == 0) {
        if (strcmp(v, "table") == 0) o->format = SIM_FMT_TABLE;
        else if (strcmp(v, "csv") == 0) o->format = SIM_FMT_CSV;
        else if (strcmp(v, "json") == 0) o->format = SIM_FMT_JSON;
        else return fail(err, errsz, "--wtc-format: unknown format '%s' (table, csv, json)", v);
        return 0;
    }
    if (strcmp(name, "--wtc-replicate") == 0) {
        long x;
        if (strcmp(v, "on") == 0) {
            o->replicate = SIM_REPLICATE_ON;
            return 0;
        }
        if (strcmp(v, "off") == 0) {
            o->replicate = 0;
            return 0;
        }
        errno = 0;
        x = strtol(v, &end, 10);
        if (*end || errno || x < 2 || x > (1 << 20))
            return fail(err, errsz, "--wtc-replicate: expected on, off or a replication "
                        "limit from 2 to %d, not '%s'", 1 << 20, v);
        o->replicate = (int)x;
        return 0;
    }
    if (strcmp(name, "--wtc-sample") == 0 || strcmp(name, "--wtc-error") == 0) {
        if ((*seen_sample)++)
            return fail(err, errsz, "%s: give only one of --wtc-sample and --wtc-error", name);
        if (strcmp(name, "--wtc-sample") == 0 && strcmp(v, "all") == 0) {
            o->sample = SIM_SAMPLE_ALL;
            return 0;
        }
        errno = 0;
        if (name[6] == 's') {
            long x = strtol(v, &end, 10);
            if (*end || errno || x < 1)
                return fail(err, errsz, "--wtc-sample: expected a positive number of "
                            "tasks or 'all', not '%s'", v);
            o->sample = SIM_SAMPLE_N;
            o->sample_n = x;
        } else {
            double x = strtod(v, &end);
            if (*end || errno || !(x > 0) || x > 100)
                return fail(err, errsz, "--wtc-error: expected a percentage in (0, 100], "
                            "not '%s'", v);
            o->sample = SIM_SAMPLE_ERROR;
            o->error_pct = x;
        }
        return 0;
    }
    return fail(err, errsz, "unknown option %s (prog.predict accepts --wtc-procs, "
                "--wtc-masters, --wtc-batch, --wtc-modes, --wtc-machine, --wtc-sample, "
                "--wtc-error, --wtc-replicate, --wtc-vary, --wtc-format, --wtc-trace, "
                "--wtc-stats, --wtc-plot, --wtc-depth, --wtc-profile, --wtc-save-profile, "
                "--wtc-help)", name);
}

int sim_opts_parse(int *argc, char **argv, sim_opts *o, char *err, size_t errsz)
{
    int out = 1, seen_sample = 0, n;
    defaults(o);
    for (int i = 1; i < *argc; i++) {
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
    if (o->nvary && (o->trace || o->stats))
        return fail(err, errsz, "%s shows the predictions of one machine: it cannot be "
                    "combined with --wtc-vary", o->trace ? "--wtc-trace" : "--wtc-stats");
    if (o->nvary > 1 && o->plot)
        return fail(err, errsz, "--wtc-plot draws the time against one --wtc-vary key, "
                    "and %d are given", o->nvary);
    if ((o->trace || o->stats) && (n = sim_settings_count(o)) != 1)
        return fail(err, errsz, "%s shows one predicted run, and these options name %d "
                    "settings: give one --wtc-procs, one --wtc-modes and, for dynamic "
                    "mode, one --wtc-masters and one --wtc-batch",
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
