/* sim/machine.c - machine files (SPEC 5.1) and the extended LogGPS costs (SPEC 5.4).
 *
 * A machine file is "key = value" lines with '#' comments. The parser is strict on
 * purpose: a typo in a key would otherwise silently predict for the wrong machine. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"

/* The shipped presets, compiled in so that prog.predict works without lib/wtc. Keep
   them byte-identical to the files in machines/ (tests/unit/sim_machine.sh checks). */
static const char preset_ethernet[] =
    "# MPICH 1.2 over 100 Mb/s Ethernet, Pentium III 1 GHz cluster (2004).\n"
    "# Extended LogGPS parameters of Mizutani's thesis, table 3.2; all times in seconds.\n"
    "#   o_s = 12.1 + 0.182 P + 0.0708 k us,   o_r = 12.1 + 0.182 P + 0.0722 k us\n"
    "name = ethernet-mpich-2004\n"
    "L = 50e-6\n"
    "G = 0.0268e-6\n"
    "o_sa = 12.1e-6\n"
    "o_sb = 0.182e-6\n"
    "O_s = 0.0708e-6\n"
    "o_ra = 12.1e-6\n"
    "o_rb = 0.182e-6\n"
    "O_r = 0.0722e-6\n"
    "# MPICH ch_p4's eager limit\n"
    "S = 131072\n"
    "# a master's time to answer one request (the thesis' 148 us)\n"
    "t_m = 148e-6\n"
    "cpu_ratio = 1\n"
    "# beyond the thesis: the wtcc runtime's waiting (a yield phase, then sleep; across\n"
    "# hosts no doorbell rings, a sleeper polls every 100 us: half of that on average),\n"
    "# its cost per child, and no slow-down of ranks computing side by side (one per node)\n"
    "w_yield = 10e-6\n"
    "w_wake = 50e-6\n"
    "t_child = 0.5e-6\n"
    "contention = 0\n";

static const char preset_loopback[] =
    "# A guess for MPICH 4 (ch4, shared memory) with every rank on one host, for when\n"
    "# this host has not been calibrated (run: mpiexec -n P bin/wtc-calibrate -o FILE).\n"
    "# All times in seconds.\n"
    "name = loopback-default\n"
    "L = 0.5e-6\n"
    "G = 0.2e-9\n"
    "o_sa = 0.4e-6\n"
    "o_sb = 0.01e-6\n"
    "O_s = 0.1e-9\n"
    "o_ra = 0.4e-6\n"
    "o_rb = 0.01e-6\n"
    "O_r = 0.1e-9\n"
    "S = 65536\n"
    "t_m = 2e-6\n"
    "cpu_ratio = 1\n"
    "# the wtcc runtime's waiting: yields for w_yield (100 us with a core per rank), then\n"
    "# sleeps on the doorbell, which a sender rings: w_wake to wake up; t_child: the\n"
    "# runtime's cost of one child;\n"
    "# computing ranks slow each other by contention\n"
    "w_yield = 100e-6\n"
    "w_wake = 10e-6\n"
    "t_child = 0.15e-6\n"
    "contention = 0.1\n";

static const struct { const char *name, *text; } presets[] = {
    { "ethernet-mpich-2004", preset_ethernet },
    { "loopback-default", preset_loopback },
};

const char *sim_machine_preset(const char *name)
{
    size_t n = strlen(name);
    if (n > 5 && strcmp(name + n - 5, ".conf") == 0)
        n -= 5;
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
        if (strlen(presets[i].name) == n && strncmp(presets[i].name, name, n) == 0)
            return presets[i].text;
    return NULL;
}

/* The keys, in file order, with where each lives in sim_machine. */
enum { K_NAME, K_L, K_G, K_OSA, K_OSB, K_OS, K_ORA, K_ORB, K_OR, K_S, K_TM, K_CPU,
       K_WY, K_WW, K_TC, K_CONT, K_CORES, K_WYO, K_PROCS, K_N };
#define K_REQUIRED K_CORES /* the keys from K_CORES on are optional */
static const char *const key_names[K_N] = {
    "name", "L", "G", "o_sa", "o_sb", "O_s", "o_ra", "o_rb", "O_r", "S", "t_m", "cpu_ratio",
    "w_yield", "w_wake", "t_child", "contention", "cores", "w_yield_over", "procs"
};

static double *key_slot(sim_machine *m, int k)
{
    double *slots[K_N] = { NULL, &m->L, &m->G, &m->o_sa, &m->o_sb, &m->O_s, &m->o_ra,
                           &m->o_rb, &m->O_r, &m->S, &m->t_m, &m->cpu_ratio,
                           &m->w_yield, &m->w_wake, &m->t_child, &m->contention,
                           &m->cores, &m->w_yield_over, &m->procs };
    return slots[k];
}

static int fail(char *err, size_t errsz, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Formats an error message and returns -1. */
static int fail(char *err, size_t errsz, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errsz)
        vsnprintf(err, errsz, fmt, ap);
    va_end(ap);
    return -1;
}

/* Trims spaces at both ends of s in place. */
static char *trim(char *s)
{
    char *e;
    while (isspace((unsigned char)*s))
        s++;
    e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = 0;
    return s;
}

/* key = value on one line (comment already removed). */
static int parse_line(char *line, const char *file, int lineno, sim_machine *m,
                      int *seen, char *err, size_t errsz)
{
    char *eq = strchr(line, '='), *key, *val, *end;
    int k;
    double v;
    if (!eq)
        return fail(err, errsz, "%s:%d: expected 'key = value'", file, lineno);
    *eq = 0;
    key = trim(line);
    val = trim(eq + 1);
    for (k = 0; k < K_N && strcmp(key, key_names[k]) != 0; k++)
        ;
    if (k == K_N)
        return fail(err, errsz, "%s:%d: unknown key '%s'", file, lineno, key);
    if (seen[k])
        return fail(err, errsz, "%s:%d: key '%s' given twice", file, lineno, key);
    seen[k] = lineno;
    if (k == K_NAME) {
        if (!*val)
            return fail(err, errsz, "%s:%d: empty value for key 'name'", file, lineno);
        snprintf(m->name, sizeof m->name, "%s", val);
        return 0;
    }
    errno = 0;
    v = strtod(val, &end);
    if (!*val || *end || errno || !isfinite(v) || v < 0)
        return fail(err, errsz, "%s:%d: bad number '%s' for key '%s'", file, lineno, val,
                    key);
    if (k == K_CPU && v <= 0)
        return fail(err, errsz, "%s:%d: key 'cpu_ratio' must be positive", file, lineno);
    *key_slot(m, k) = v;
    return 0;
}

int sim_machine_parse(const char *text, const char *file, sim_machine *m, char *err,
                      size_t errsz)
{
    int seen[K_N] = { 0 }, lineno = 0;
    const char *p = text;
    memset(m, 0, sizeof *m);
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char buf[1024], *line;
        lineno++;
        if (len >= sizeof buf)
            return fail(err, errsz, "%s:%d: line too long", file, lineno);
        memcpy(buf, p, len);
        buf[len] = 0;
        if (strchr(buf, '#'))
            *strchr(buf, '#') = 0;
        line = trim(buf);
        if (*line && parse_line(line, file, lineno, m, seen, err, errsz) < 0)
            return -1;
        p += len + (nl != NULL);
    }
    for (int k = 0; k < K_REQUIRED; k++)
        if (!seen[k])
            return fail(err, errsz, "%s: missing key '%s'", file, key_names[k]);
    if (!seen[K_WYO])
        m->w_yield_over = m->w_yield;
    snprintf(m->source, sizeof m->source, "%s", file);
    return 0;
}

int sim_machine_load(const char *path, sim_machine *m, char *err, size_t errsz)
{
    FILE *f = fopen(path, "r");
    char *text;
    long n;
    int rc;
    if (!f)
        return fail(err, errsz, "%s: cannot open machine file: %s", path, strerror(errno));
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    if (n < 0 || n > (1 << 20)) {
        fclose(f);
        return fail(err, errsz, "%s: not a machine file (size)", path);
    }
    text = malloc((size_t)n + 1);
    if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) {
        free(text);
        fclose(f);
        return fail(err, errsz, "%s: cannot read machine file", path);
    }
    text[n] = 0;
    fclose(f);
    if (memchr(text, 0, (size_t)n)) {
        free(text);
        return fail(err, errsz, "%s: not a machine file (binary)", path);
    }
    rc = sim_machine_parse(text, path, m, err, errsz);
    free(text);
    return rc;
}

void sim_machine_write(FILE *f, const sim_machine *m, const char *comment)
{
    if (comment)
        fprintf(f, "%s", comment);
    fprintf(f, "name = %s\n", m->name);
    for (int k = 1; k < K_N; k++)
        fprintf(f, "%s = %.6g\n", key_names[k], *key_slot((sim_machine *)m, k));
}

/* ---- the extended LogGPS model ------------------------------------------------------ */

double sim_o_send(const sim_machine *m, int P, double k)
{
    return m->o_sa + m->o_sb * P + m->O_s * k;
}

double sim_o_recv(const sim_machine *m, int P, double k)
{
    return m->o_ra + m->o_rb * P + m->O_r * k;
}
