/* sim_units.c - the predictor's numbers against worked examples (SPEC 5, 5.1):
 * the advice formula, the o_a/o_b fit of the calibration, the machine-file parser,
 * interpolation and the bootstrap (tests/unit/sim_units.sh). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wtcrt.h"
#include "sim.h"
#include "calib.h"

static int failures;

static void check(const char *what, int ok)
{
    printf("%s %s\n", ok ? "[PASS]" : "[FAIL]", what);
    failures += !ok;
}

static int near(double got, double want, double tol)
{
    return fabs(got - want) <= tol;
}

/* x truncated to 3 significant digits, as the thesis prints them (0.004588 -> 0.00458) */
static double trunc3(double x)
{
    double e = pow(10, floor(log10(fabs(x))) - 2);
    return floor(x / e + 1e-9) * e;
}

static void advice(void)
{
    double ts1 = sim_advice_min_ts(14, 127, 148e-6);
    double ts2 = sim_advice_min_ts(2, 31, 148e-6);
    double M = sim_advice_min_masters(128, 0.0381, 14, 148e-6);
    printf("  f=14 w=127: t_s >= %.6f s; f=2 w=31: t_s >= %.6f s; M >= %.4f\n", ts1, ts2, M);
    check("advice: f=14, t_m=148us, w=127 gives t_s >= 0.244 s", near(trunc3(ts1), 0.244, 1e-12));
    check("advice: f=2, w=31 gives t_s >= 0.00458 s", near(trunc3(ts2), 0.00458, 1e-12));
    check("advice: P=128, t_s=0.0381 s, f=14 gives M >= 6.15", near(trunc3(M), 6.15, 1e-12));
    check("advice: M = 7 is enough there, M = 6 is not",
          sim_advice_ok(128, 7, 0.0381, 14, 148e-6) && !sim_advice_ok(128, 6, 0.0381, 14, 148e-6));
}

static void fit(void)
{
    double P[2] = { 2, 8 }, o[2] = { 12.48, 13.57 }, a, b;
    int rc = calib_fit_line(P, o, 2, &a, &b);
    printf("  o_a = %.4f us, o_b = %.4f us\n", a, b);
    check("fit: o_a + 2 o_b = 12.48, o_a + 8 o_b = 13.57 give o_a = 12.12 us",
          rc == 0 && near(a, 12.12, 0.005));
    check("fit: ... and o_b = 0.182 us", near(b, 0.182, 0.0005));
    double x[4] = { 1, 2, 3, 4 }, y[4] = { 3, 5, 7, 9 };
    check("fit: exact line through 4 points", calib_fit_line(x, y, 4, &a, &b) == 0 &&
          near(a, 1, 1e-12) && near(b, 2, 1e-12));
    check("fit: undefined with equal x", calib_fit_line(x, x, 1, &a, &b) < 0);
    double sz[4] = { 1024, 2048, 4096, 8192 }, t[4] = { 1e-6, 2e-6, 2.1e-3, 2.2e-3 };
    check("eager limit: the size before the first synchronous send",
          calib_eager_limit(sz, t, 4, 2e-3) == 2048);
    /* the per-rank slope only where the data support it (issue 8: a line through the
       noise of p = 2, 4 gave o_r = 39 us at P = 128) */
    double p2[2] = { 2, 4 }, c2[2] = { 1e-6, 3e-6 }, p3[3] = { 2, 4, 8 };
    double c3[3] = { 1.2e-6, 1.4e-6, 1.8e-6 }, n3[3] = { 3e-6, 2e-6, 2.5e-6 };
    double z3[3] = { 0.1e-6, 1.1e-6, 3.1e-6 };
    int fl = calib_fit_overhead(p2, c2, 2, &a, &b);
    check("overhead fit: 2 values of p give no slope, the median as constant",
          fl == 0 && b == 0 && near(a, 2e-6, 1e-15));
    fl = calib_fit_overhead(p3, c3, 3, &a, &b);
    check("overhead fit: 3 values of p on a line give its slope",
          fl == CALIB_SLOPE && near(a, 1e-6, 1e-12) && near(b, 0.1e-6, 1e-12));
    fl = calib_fit_overhead(p3, n3, 3, &a, &b);
    check("overhead fit: a negative slope is noise: none, the median",
          fl == 0 && b == 0 && near(a, 2.5e-6, 1e-15));
    fl = calib_fit_overhead(p3, z3, 3, &a, &b);
    check("overhead fit: a negative constant becomes the floor 0, flagged",
          fl == (CALIB_SLOPE | CALIB_FLOOR) && a == 0 && near(b, 0.5e-6, 1e-12));
    /* a loaded host: L = 669 us from the ping-pong, round trip 1.1 ms, negative fitted
       intercepts; t_m was written as -445 us and the predictor refused the file */
    check("t_m: round trip minus network and the worker's overheads",
          near(calib_master_time(20e-6, 2e-6, 0, 1e-6, 1e-6), 14e-6, 1e-12));
    check("t_m: at least the master's own overheads",
          near(calib_master_time(5e-6, 2e-6, 0, 1e-6, 1e-6), 2e-6, 1e-12));
    check("t_m: never negative when the fitted overheads are",
          calib_master_time(1.1e-3, 669e-6, 2.2e-9, -3e-6, -2e-6) >= 0);
}

/* A complete file with one line replaced (or removed when repl is ""). */
static int parse_with(const char *key, const char *repl, char *err)
{
    static const char *lines[] = { "name = t", "L = 1e-6", "G = 1e-9", "o_sa = 1e-6",
        "o_sb = 0", "O_s = 0", "o_ra = 1e-6", "o_rb = 0", "O_r = 0", "S = 1024",
        "t_m = 1e-6", "cpu_ratio = 1", "w_yield = 1e-5", "w_wake = 1e-5", "t_child = 1e-7",
        "contention = 0.2" };
    char text[2048] = "# a test machine\n\n";
    sim_machine m;
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        if (key && strncmp(lines[i], key, strlen(key)) == 0 && lines[i][strlen(key)] == ' ')
            strcat(text, repl);
        else
            strcat(text, lines[i]);
        strcat(text, "   # comment\n");
    }
    return sim_machine_parse(text, "t.conf", &m, err, 256);
}

static void parser(void)
{
    char err[256];
    check("parser: a complete file parses", parse_with(NULL, NULL, err) == 0);
    parse_with("G", "Gee = 3", err);
    printf("  %s\n", err);
    check("parser: unknown key named with file:line", strcmp(err, "t.conf:5: unknown key 'Gee'") == 0);
    parse_with("S", "", err);
    printf("  %s\n", err);
    check("parser: missing key named", strcmp(err, "t.conf: missing key 'S'") == 0);
    parse_with("L", "L = 5us", err);
    printf("  %s\n", err);
    check("parser: bad number named with its key and line",
          strcmp(err, "t.conf:4: bad number '5us' for key 'L'") == 0);
    parse_with("t_m", "t_m 3", err);
    printf("  %s\n", err);
    check("parser: a line without '='", strcmp(err, "t.conf:13: expected 'key = value'") == 0);
    parse_with("cpu_ratio", "cpu_ratio = 0", err);
    check("parser: cpu_ratio must be positive", strstr(err, "cpu_ratio") != NULL);
    parse_with("o_sb", "o_sb = -1", err);
    check("parser: negative numbers rejected", strstr(err, "bad number '-1'") != NULL);
    parse_with("O_r", "O_r = 1e-9\nO_r = 2e-9", err);
    check("parser: a key given twice", strstr(err, "given twice") != NULL);
    parse_with("w_wake", "", err);
    check("parser: the waiting keys are required", strcmp(err, "t.conf: missing key 'w_wake'") == 0);
    parse_with("t_child", "w_sleep = 1e-4", err);
    check("parser: retired keys are unknown", strcmp(err, "t.conf:17: unknown key 'w_sleep'") == 0);
    parse_with("contention", "contention = x", err);
    check("parser: contention must be a number", strstr(err, "'contention'") != NULL);
    /* values no machine has: a typo or a unit slip, never inf/nan predictions */
    parse_with("G", "G = 1e308", err);
    printf("  %s\n", err);
    check("parser: G = 1e308 is out of range, named with file:line",
          strcmp(err, "t.conf:5: key 'G' = 1e308 is outside 0 to 0.001 s per byte") == 0);
    parse_with("cpu_ratio", "cpu_ratio = 1e-300", err);
    printf("  %s\n", err);
    check("parser: cpu_ratio = 1e-300 is out of range",
          strstr(err, "t.conf:14: key 'cpu_ratio' = 1e-300 is outside") == err);
    parse_with("L", "L = 1e999", err);
    check("parser: an overflowing number is bad", strstr(err, "bad number '1e999'") != NULL);
    parse_with("contention", "contention = 0.2\ncores = 2.5", err);
    printf("  %s\n", err);
    check("parser: cores is a whole number", strstr(err, "'cores' = 2.5 is outside the whole") != NULL);
    parse_with("contention", "contention = 0.2\nranks_per_node = 8\nL_intra = 2e-7", err);
    check("parser: ranks_per_node, L_intra are optional keys", parse_with("contention",
          "contention = 0.2\nranks_per_node = 8\nL_intra = 2e-7", err) == 0);
    {
        sim_machine m;
        check("parser: t_poll is optional, 0 when absent",
              sim_machine_parse("name = t\nL = 0\nG = 0\no_sa = 0\no_sb = 0\nO_s = 0\n"
                                "o_ra = 0\no_rb = 0\nO_r = 0\nS = 1\nt_m = 0\n"
                                "cpu_ratio = 1\nw_yield = 0\nw_wake = 0\nt_child = 0\n"
                                "contention = 0\n", "t.conf", &m, err, sizeof err) == 0 &&
              m.t_poll == 0);
    }
    {
        sim_machine m;
        const char *base = "name = t\nL = 0\nG = 0\no_sa = 0\no_sb = 0\nO_s = 0\n"
                           "o_ra = 0\no_rb = 0\nO_r = 3e-9\nS = 1\nt_m = 0\n"
                           "cpu_ratio = 1\nw_yield = 0\nw_wake = 0\nt_child = 0\n"
                           "contention = 0\n";
        char text[1024];
        check("parser: O_r_result is optional, O_r when absent",
              sim_machine_parse(base, "t.conf", &m, err, sizeof err) == 0 &&
              m.O_r_result == 3e-9);
        check("parser: O_r_result follows a swept O_r when absent",
              sim_machine_set(&m, "O_r", "5e-9", err, sizeof err) == 0 &&
              m.O_r_result == 5e-9 && sim_o_recv(&m, 2, 100, 1, 0) == 5e-7);
        snprintf(text, sizeof text, "%sO_r_result = 1e-10\n", base);
        check("parser: O_r_result given stays when O_r is swept",
              sim_machine_parse(text, "t.conf", &m, err, sizeof err) == 0 &&
              sim_machine_set(&m, "O_r", "5e-9", err, sizeof err) == 0 &&
              m.O_r_result == 1e-10 && near(sim_o_recv(&m, 2, 100, 1, 0), 1e-8, 1e-20) &&
              near(sim_o_recv(&m, 2, 100, 0, 0), 5e-7, 1e-20));
        check("parser: the _reuse keys are optional and follow O_s, G, O_r (swept too)",
              sim_machine_parse(base, "t.conf", &m, err, sizeof err) == 0 &&
              m.O_r_reuse == 3e-9 && m.O_s_reuse == 0 && m.G_reuse == 0 &&
              sim_machine_set(&m, "O_r", "5e-9", err, sizeof err) == 0 &&
              m.O_r_reuse == 5e-9 && sim_o_recv(&m, 2, 100, 0, 1) == 5e-7);
        snprintf(text, sizeof text, "%sO_s = 2e-9\nO_r_reuse = 1e-10\nO_s_reuse = 4e-10\n",
                 base);
        /* O_s given twice is refused: the base's O_s = 0 line is replaced first */
        {
            char t2[1024], *o = strstr(text, "O_s = 0\n");
            snprintf(t2, sizeof t2, "%.*s%s", (int)(o - text), text, o + 8);
            check("parser: reuse costs given are used for reused buffers only",
                  sim_machine_parse(t2, "t.conf", &m, err, sizeof err) == 0 &&
                  near(sim_o_recv(&m, 2, 100, 0, 1), 1e-8, 1e-20) &&
                  near(sim_o_recv(&m, 2, 100, 0, 0), 3e-7, 1e-20) &&
                  near(sim_o_send(&m, 2, 100, 1), 4e-8, 1e-20) &&
                  near(sim_o_send(&m, 2, 100, 0), 2e-7, 1e-20));
        }
    }
    check("parser: t_poll = 1.4e-6 parses",
          parse_with("contention", "contention = 0\nt_poll = 1.4e-6", err) == 0);
    parse_with("contention", "contention = 0\nt_poll = 2", err);
    printf("  %s\n", err);
    check("parser: t_poll = 2 s is out of range",
          strstr(err, "key 't_poll' = 2 is outside 0 to 1 s") != NULL);
}

/* The same file with LF, CRLF and CR line endings: the same machine. */
static void line_endings(void)
{
    static const char *const ends[] = { "\n", "\r\n", "\r" };
    char text[3][2048], err[256];
    sim_machine m[3];
    const char *body[] = { "# comment", "name = t", "L = 1e-6", "G = 1e-9", "o_sa = 1e-6",
        "o_sb = 0", "O_s = 0", "o_ra = 1e-6", "o_rb = 0", "O_r = 0", "S = 1024",
        "t_m = 1e-6", "cpu_ratio = 2", "w_yield = 1e-5", "w_wake = 1e-5", "t_child = 1e-7",
        "contention = 0.2", "ranks_per_node = 4" };
    for (int e = 0; e < 3; e++) {
        text[e][0] = 0;
        for (size_t i = 0; i < sizeof body / sizeof *body; i++) {
            strcat(text[e], body[i]);
            strcat(text[e], ends[e]);
        }
        err[0] = 0;
        if (sim_machine_parse(text[e], "e.conf", &m[e], err, sizeof err) < 0)
            printf("  %s\n", err);
    }
    check("parser: CRLF line endings", m[1].cpu_ratio == 2 && m[1].ranks_per_node == 4 &&
          strcmp(m[1].name, "t") == 0);
    check("parser: CR line endings", m[2].cpu_ratio == 2 && m[2].ranks_per_node == 4 &&
          strcmp(m[2].name, "t") == 0 && m[0].L == m[2].L);
    strcpy(text[0], "name = t\r\rL = x\r");
    sim_machine_parse(text[0], "e.conf", &m[0], err, sizeof err);
    check("parser: CR line numbers", strcmp(err, "e.conf:3: bad number 'x' for key 'L'") == 0);
    /* a UTF-8 byte order mark first (it gave "unknown key '<BOM>name'") */
    strcpy(text[0], "\xef\xbb\xbf");
    strcat(text[0], text[1]); /* under 600 bytes */
    check("parser: a UTF-8 byte order mark is skipped",
          sim_machine_parse(text[0], "e.conf", &m[0], err, sizeof err) == 0 &&
          strcmp(m[0].name, "t") == 0 && m[0].L == m[1].L);
}

static void presets(const char *dir)
{
    const char *names[] = { "ethernet-mpich-2004", "loopback-default", "ethernet-10g-mpich",
                            "ethernet-25g-openmpi", "ethernet-100g-efa",
                            "infiniband-hdr-openmpi" };
    char list[1024];
    sim_machine_preset_names(list, sizeof list);
    check("presets: every shipped file is compiled in, and listed",
          strcmp(list, "ethernet-mpich-2004, loopback-default, ethernet-10g-mpich, "
                 "ethernet-25g-openmpi, ethernet-100g-efa, infiniband-hdr-openmpi") == 0);
    for (int i = 0; i < (int)(sizeof names / sizeof *names); i++) {
        char path[1024], err[256], *text;
        sim_machine a, b;
        FILE *f;
        long n;
        snprintf(path, sizeof path, "%s/%s.conf", dir, names[i]);
        f = fopen(path, "r");
        if (!f) {
            check(path, 0);
            continue;
        }
        fseek(f, 0, SEEK_END);
        n = ftell(f);
        rewind(f);
        text = calloc(1, (size_t)n + 1);
        if (fread(text, 1, (size_t)n, f) != (size_t)n)
            n = -1;
        fclose(f);
        printf("  %s\n", path);
        check("preset: the compiled-in text is the shipped file",
              n >= 0 && strcmp(text, sim_machine_preset(names[i])) == 0);
        check("preset: it parses", sim_machine_parse(text, path, &a, err, sizeof err) == 0 &&
              sim_machine_load(path, &b, err, sizeof err) == 0 && a.L == b.L);
        free(text);
    }
    sim_machine m;
    char err[256];
    sim_machine_parse(sim_machine_preset("ethernet-mpich-2004.conf"), "p", &m, err, sizeof err);
    /* o_s = 12.1 + 0.182 P + 0.0708 k us */
    check("LogGPS: o_s(P=8, k=100) = 12.1 + 1.456 + 7.08 us",
          near(sim_o_send(&m, 8, 100, 0), 20.636e-6, 1e-12));
    check("LogGPS: o_r(P=64, k=1) = 12.1 + 11.648 + 0.0722 us",
          near(sim_o_recv(&m, 64, 1, 0, 0), 23.8202e-6, 1e-12));
}

static void sampling(void)
{
    double t[7] = { 1, 0, 0, 4, 0, 0, 0 };
    unsigned char have[7] = { 1, 0, 0, 1, 0, 0, 0 };
    sim_interpolate(t, have, 7);
    check("interpolation: linear between samples, constant after the last",
          t[1] == 2 && t[2] == 3 && t[6] == 4);
    check("spread: positions for 2n contain those for n",
          sim_spread(3, 8, 1000) == sim_spread(6, 16, 1000) && sim_spread(0, 8, 1000) == 0);
    {
        /* jittered: each position inside its stratum, and not one offset for all of them
           (a farm over rows would sample the same columns of every row) */
        unsigned long long js = 7;
        int inside = 1, offsets_differ = 0;
        long first = -1;
        for (long i = 0; i < 8; i++) {
            long p = sim_spread_jittered(i, 8, 1024, &js);
            inside &= p >= i * 128 && p < (i + 1) * 128;
            if (first < 0)
                first = p % 128;
            else if (p % 128 != first)
                offsets_differ = 1;
        }
        check("spread: jittered positions stay in their strata with varying offsets",
              inside && offsets_differ && sim_spread_jittered(5, 8, 8, &js) == 5);
    }
    double x[1000];
    unsigned long long seed = 1;
    for (int i = 0; i < 1000; i++)
        x[i] = 1 + (i % 10) * 0.1;
    sim_boot b = sim_bootstrap(x, 1000, &seed);
    printf("  bootstrap of 1000: mean %.4f, %+.2f%% .. %+.2f%%\n", b.mean, 100 * b.lo, 100 * b.hi);
    check("bootstrap: mean near 1.45, interval a few percent wide around it",
          near(b.mean, 1.45, 0.02) && b.lo < 0 && b.hi > 0 && b.hi - b.lo < 0.05);
    sim_boot b2 = sim_bootstrap(x, 10, &seed);
    check("bootstrap: fewer tasks, wider interval", b2.hi - b2.lo > b.hi - b.lo);
}

/* The predicted timeline keeps at most WTCRT_MAX_EVENTS events a lane, as the runtime
   does, and still closes every B with an E; the counters go on to the end. */
static void timeline_cap(void)
{
    sim_timeline tl;
    long b = 0, e = 0, n = WTCRT_MAX_EVENTS / 2 + 10;
    sim_timeline_init(&tl, 2, 1);
    for (long i = 1; i <= n; i++) /* two events per change */
        sim_timeline_mark(&tl, 0, i & 1 ? WTCRT_S_WAIT_CHILDREN : WTCRT_S_COMPUTE, i * 1e-6);
    sim_timeline_mark(&tl, 1, WTCRT_S_COMPUTE, 0.5);
    sim_timeline_close(&tl, 10);
    for (long i = 0; i < tl.nev[0]; i++)
        tl.ev[0][i].ph == 'B' ? b++ : e++;
    check("timeline: at most WTCRT_MAX_EVENTS events on a lane, B and E balanced",
          tl.nev[0] <= WTCRT_MAX_EVENTS && tl.nev[0] > WTCRT_MAX_EVENTS - 4 && b == e &&
          tl.ev[0][tl.nev[0] - 1].ph == 'E');
    check("timeline: a lane's states add up to the end, after the cap too",
          near(tl.st[0].t[WTCRT_S_COMPUTE] + tl.st[0].t[WTCRT_S_WAIT_CHILDREN], 10, 1e-9) &&
          near(tl.st[1].t[WTCRT_S_IDLE], 0.5, 1e-12) &&
          near(tl.st[1].t[WTCRT_S_COMPUTE], 9.5, 1e-12) && tl.nev[1] == 4);
    sim_timeline_free(&tl);
}

int main(int argc, char **argv)
{
    timeline_cap();
    advice();
    fit();
    parser();
    line_endings();
    presets(argc > 1 ? argv[1] : "machines");
    sampling();
    printf("%s\n", failures ? "sim_units: FAILED" : "sim_units: ok");
    return failures != 0;
}
