/* sim/notes.c - advice at source lines (doc/predictor.md 6.2, after Sugino et al.):
 * every piece of advice names the par statement it is about, as a compiler note,
 *   nqueens.wtc:39:5: note: cut-off too fine: ...
 * and is a comparison of two predictions: the setting it recommends against the
 * program as it stands, with the gain in seconds and percent. No note for a gain under
 * SIM_NOTE_GAIN. Four kinds:
 *   cut-off  a par that spawns at several depths, cut at each of the SIM_NOTE_MAXCUTS
 *            smaller depths (the recorded tree with cond false from that depth on:
 *            sim_tree_cut), simulated again with the table's best masters and batch
 *            per mode and P > 1; the best against the table's best;
 *   setting  the table's best setting against the source's own mode and masters (and
 *            the default batch) at the same P;
 *   coarse   otherwise, a par whose calls below the cut-off run their children one after
 *            the other: those children spawned too (sim_tree_deepen), simulated as the
 *            cut-off note does;
 *   batch    a farm (the par with the most children): batches 4, 16, ..., 4096 at the
 *            best dynamic setting, when --wtc-batch was not given.
 * Each is a sim_note (sim.h): its fields, gain and text are made here once, by
 * note_add; the formats only print them (the table, gcc-style lines on stderr with CSV
 * and JSON, JSON's "notes" array in report.c). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wtcrt.h"
#include "sim.h"
#include "proto.h"

#define SIM_NOTE_MAXCUTS 8   /* cut-off depths tried per par (the nearest to the top) */

typedef struct notes {
    sim_note_list *L;     /* what is found */
    const sim_tree *t;
    const sim_machine *m;
    const sim_row *v;     /* the table */
    int n, best;
    const char *program;
    const char *ctx;      /* the --wtc-vary values, or NULL */
    double wall;          /* simulating time spent here */
    long long *events;
} notes;

static const char *const kind_names[SIM_NOTE_NKINDS] = {
    [SIM_NOTE_CUTOFF_FINE] = "cutoff-fine", [SIM_NOTE_CUTOFF_COARSE] = "cutoff-coarse",
    [SIM_NOTE_MODE] = "mode", [SIM_NOTE_MASTERS] = "masters", [SIM_NOTE_BATCH] = "batch",
};

const char *sim_note_kind(int kind)
{
    return kind >= 0 && kind < SIM_NOTE_NKINDS ? kind_names[kind] : "?";
}

/* Simulates setting s on tree t; NaN when impossible. */
static double predict(notes *N, const sim_tree *t, sim_setting s)
{
    sim_result r;
    double w0 = wtcrt_now(), x;
    x = sim_run(t, N->m, s, &r) == 0 ? r.time : NAN;
    *N->events += r.events;
    N->wall += wtcrt_now() - w0;
    return x;
}

/* "dynamic, P = 8, M = 1, batch half" */
static const char *setting_text(sim_setting s, char *buf, size_t n)
{
    const wtcp_mode *mode = wtcp_mode_get(s.mode);
    int len = snprintf(buf, n, "%s, P = %d", mode->name, s.procs);
    if (mode->masters && s.procs > 1) {
        if (s.batch > 0)
            snprintf(buf + len, n - len, ", M = %d, batch %d", s.masters, s.batch);
        else
            snprintf(buf + len, n - len, ", M = %d, batch half", s.masters);
    }
    return buf;
}

/* A duration for a note: "12.3 us", "4.56 ms", "1.23 s". */
static const char *dur_text(double s, char *buf, size_t n)
{
    if (s < 1e-3)
        snprintf(buf, n, "%.3g us", s * 1e6);
    else if (s < 1)
        snprintf(buf, n, "%.3g ms", s * 1e3);
    else
        snprintf(buf, n, "%.3g s", s);
    return buf;
}

/* Whether 'better' gains enough over 'base' to be advised. */
static int worth(double better, double base)
{
    return !isnan(better) && !isnan(base) && base > 0 && better <= (1 - SIM_NOTE_GAIN) * base;
}

/* ---- making a note ------------------------------------------------------------------ */

/* A note's start: kind, the two settings and their times, no advised depth or clause. */
static sim_note note_of(int kind, sim_setting rec, double rec_s, sim_setting was,
                        double was_s)
{
    sim_note x;
    memset(&x, 0, sizeof x);
    x.kind = kind;
    x.rec = rec;
    x.rec_s = rec_s;
    x.was = was;
    x.was_s = was_s;
    x.depth = -1;
    return x;
}

static char *strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A new string printed from fmt (exits when out of memory: a note cannot be cut short). */
static char *strf(const char *fmt, ...)
{
    va_list ap;
    char *p;
    va_start(ap, fmt);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (len < 0 || !(p = malloc((size_t)len + 1))) {
        fprintf(stderr, "wtc predict: out of memory for a note\n");
        sim_exit(2);
    }
    va_start(ap, fmt);
    vsnprintf(p, (size_t)len + 1, fmt, ap);
    va_end(ap);
    return p;
}

/* Adds note x (its head, what is advised, made by the caller with strf) at par site
   'site' (the program's name when unknown), with its gain and its text: "file:line:col:
   note: [ctx: ]<head> is predicted R s (rec) against W s <was_how> (was): G s (P %)
   faster<tail>" ("(rec)" only when rec_shown). */
static void note_add(notes *N, int site, sim_note x, char *head, const char *was_how,
                     int rec_shown, const char *tail)
{
    sim_note_list *L = N->L;
    char s1[96], s2[96], r[104] = "", at[48] = "";
    if (site >= 0 && site < N->t->nsites) {
        x.file = N->t->sites[site].file;
        x.line = N->t->sites[site].line;
        x.col = N->t->sites[site].col;
        snprintf(at, sizeof at, ":%d:%d", x.line, x.col);
    } else {
        x.file = N->program ? N->program : "program";
    }
    x.gain_s = x.was_s - x.rec_s;
    x.gain_pct = 100 * x.gain_s / x.was_s;
    if (rec_shown)
        snprintf(r, sizeof r, " (%s)", setting_text(x.rec, s1, sizeof s1));
    x.text = strf("%s%s: note: %s%s%s is predicted %.6f s%s against %.6f s %s (%s): "
                  "%.6f s (%.1f %%) faster%s", x.file, at, N->ctx ? N->ctx : "",
                  N->ctx ? ": " : "", head, x.rec_s, r, x.was_s, was_how,
                  setting_text(x.was, s2, sizeof s2), x.gain_s, x.gain_pct, tail);
    free(head);
    if (L->n == L->cap &&
        !(L->v = realloc(L->v, (size_t)(L->cap = L->cap ? 2 * L->cap : 8) * sizeof *L->v))) {
        fprintf(stderr, "wtc predict: out of memory for a note\n");
        sim_exit(2);
    }
    L->v[L->n++] = x;
}

/* ---- cut-off ------------------------------------------------------------------------- */

/* The wtc_depths at which this site's par spawns (cond true): [*lo, *hi]. Returns 0
   when the site never spawns. */
static int site_depths(const sim_tree *t, int site, int *lo, int *hi)
{
    int any = 0;
    for (int p = 0; p < t->npars; p++)
        if (t->pars[p].site == site && t->pars[p].cond) {
            int d = t->pars[p].depth;
            if (!any || d < *lo)
                *lo = d;
            if (!any || d > *hi)
                *hi = d;
            any = 1;
        }
    return any;
}

/* Tasks spawned at depth >= d by site's pars, and their mean sequential time (host). */
static long site_tasks(const sim_tree *t, int site, int d, double *mean)
{
    long n = 0;
    double s = 0;
    for (int p = 0; p < t->npars; p++)
        if (t->pars[p].site == site && t->pars[p].cond && t->pars[p].depth >= d)
            for (int c = 0; c < t->pars[p].nchild; c++, n++)
                s += t->seq[t->pars[p].first_child + c];
    *mean = n ? s / n : 0;
    return n;
}

/* Whether row i is worth simulating again with another cut-off: P > 1 (with one rank
   the cut-off changes nothing) and the best masters and batch of its mode and P. */
static int cut_row(const notes *N, int i)
{
    const sim_row *r = &N->v[i];
    if (r->s.procs < 2 || isnan(r->r.time))
        return 0;
    for (int j = 0; j < N->n; j++)
        if (N->v[j].s.mode == r->s.mode && N->v[j].s.procs == r->s.procs &&
            N->v[j].r.time < r->r.time)
            return 0;
    return 1;
}

/* The best of the table's settings (those of cut_row) on tree c; its index in *at. */
static double best_on(notes *N, const sim_tree *c, int *at)
{
    double b = NAN;
    *at = -1;
    for (int i = 0; i < N->n; i++) {
        if (!cut_row(N, i))
            continue;
        double x = predict(N, c, N->v[i].s);
        if (!isnan(x) && (isnan(b) || x < b)) {
            b = x;
            *at = i;
        }
    }
    return b;
}

/* A par that spawns at depths lo..hi: would spawning only above depth d be faster? */
static int note_cutoff(notes *N, int site)
{
    const sim_tree *t = N->t;
    int lo = 0, hi = 0, bd = -1, bi = -1;
    double base = N->v[N->best].r.time, bt = NAN;
    if (!site_depths(t, site, &lo, &hi) || hi == lo)
        return 0;
    for (int d = lo + 1; d <= hi && d <= lo + SIM_NOTE_MAXCUTS; d++) {
        sim_tree c;
        int at;
        sim_tree_cut(t, site, d, &c);
        double x = best_on(N, &c, &at);
        sim_tree_cut_free(&c);
        if (!isnan(x) && (isnan(bt) || x < bt)) {
            bt = x;
            bd = d;
            bi = at;
        }
    }
    if (bd < 0 || !worth(bt, base))
        return 0;
    double mean;
    long k = site_tasks(t, site, bd, &mean);
    sim_note x = note_of(SIM_NOTE_CUTOFF_FINE, N->v[bi].s, bt, N->v[N->best].s, base);
    x.depth = bd;
    snprintf(x.clause, sizeof x.clause, "cond: ... && wtc_depth < %d", bd);
    note_add(N, site, x, strf("cut-off too fine: this par spawns at depths %d to %d; %ld of "
             "its tasks come from calls at depth %d or deeper (%.3g us each on average). "
             "Spawning only above depth %d (%s)", lo, hi, k, bd,
             mean / N->m->cpu_ratio * 1e6, bd, x.clause), "as written", 1, "");
    return 1;
}

/* The pars of this site whose cond was false (the wtc_depths they saw in [*lo, *hi]), and
   the mean and largest sequential time of their calls (host seconds). */
static long coarse_calls(const sim_tree *t, int site, int *lo, int *hi, double *mean,
                         double *big)
{
    long n = 0;
    double s = 0;
    *big = 0;
    for (int i = 0; i < t->nnodes; i++)
        for (int p = t->nodes[i].first_par; p >= 0; p = t->pars[p].next)
            if (t->pars[p].site == site && !t->pars[p].cond && t->pars[p].nchild > 1) {
                int d = t->pars[p].depth;
                if (!n || d < *lo)
                    *lo = d;
                if (!n || d > *hi)
                    *hi = d;
                n++;
                s += t->seq[i];
                if (t->seq[i] > *big)
                    *big = t->seq[i];
                break;
            }
    *mean = n ? s / n : 0;
    return n;
}

/* A par whose calls below the cut-off run their children one after the other: would
   spawning those children too (the cut-off one level deeper) be faster? The recording
   has them one by one (they are its leaf tasks), so this is a simulation, not a guess;
   a level further down was not recorded. */
static int note_coarse(notes *N, int site)
{
    const sim_tree *t = N->t;
    int lo = 0, hi = 0, at;
    double mean, big, base = N->v[N->best].r.time;
    char where[48], d1[32], d2[32];
    long k = coarse_calls(t, site, &lo, &hi, &mean, &big);
    if (k == 0)
        return 0;
    sim_tree c;
    long tasks = sim_tree_deepen(t, site, &c);
    double y = NAN;
    at = -1;
    for (int i = 0; i < N->n; i++) {
        /* deeper, the leaves' work is the same and the spawns only add to it: a row
           whose computing alone, spread evenly, is not 5 % under the best cannot gain
           (most rows of a fine cut-off: their time is computing already) */
        const sim_result *r = &N->v[i].r;
        if (!cut_row(N, i) || r->nworkers < 1 ||
            r->time - r->regions + r->compute / r->nworkers > (1 - SIM_NOTE_GAIN) * base)
            continue;
        double z = predict(N, &c, N->v[i].s);
        if (!isnan(z) && (isnan(y) || z < y)) {
            y = z;
            at = i;
        }
    }
    sim_tree_cut_free(&c);
    if (at < 0 || !worth(y, base))
        return 0;
    sim_note x = note_of(SIM_NOTE_CUTOFF_COARSE, N->v[at].s, y, N->v[N->best].s, base);
    if (lo == hi) {
        snprintf(where, sizeof where, "at depth %d", lo);
        x.depth = hi + 1;
        snprintf(x.clause, sizeof x.clause, "cond: ... || wtc_depth < %d", x.depth);
    } else {
        snprintf(where, sizeof where, "at depths %d to %d", lo, hi);
    }
    note_add(N, site, x, strf("cut-off too coarse: in %ld calls (%s) this par's cond is "
             "false and their children run one after the other (%s a call on average, the "
             "largest %s). Spawning those %ld children too (one level deeper%s%s)", k, where,
             dur_text(mean / N->m->cpu_ratio, d1, sizeof d1),
             dur_text(big / N->m->cpu_ratio, d2, sizeof d2), tasks, x.clause[0] ? ": " : "",
             x.clause), "as written", 1, "");
    return 1;
}

/* ---- the setting --------------------------------------------------------------------- */

/* The first par (with a known site) of region g's root. */
static int region_site(const sim_tree *t, int g)
{
    for (int p = t->nodes[t->regions[g].root].first_par; p >= 0; p = t->pars[p].next)
        if (t->pars[p].site >= 0)
            return t->pars[p].site;
    return -1;
}

/* The table's best against the source's mode and masters (default batch) at its P,
   when every region has the same source setting. */
static void note_setting(notes *N)
{
    const sim_tree *t = N->t;
    const sim_row *b = &N->v[N->best];
    int big = 0, red;
    if (b->s.procs < 2 || t->nregions == 0)
        return;
    for (int i = 0; i < t->nregions; i++) {
        if (!t->regions[i].mode || t->regions[i].mode != t->regions[0].mode ||
            t->regions[i].masters != t->regions[0].masters)
            return; /* regions differ: the source has no single setting to compare */
        if (t->seq[t->regions[i].root] > t->seq[t->regions[big].root])
            big = i;
    }
    const wtcp_mode *mode = wtcp_mode_get(t->regions[0].mode);
    sim_setting d = { .mode = t->regions[0].mode, .procs = b->s.procs };
    if (!mode)
        return;
    if (mode->masters)
        d.masters = wtcp_masters(mode, d.procs, t->regions[0].masters, &red);
    double base = NAN;
    for (int i = 0; i < N->n; i++)
        if (!memcmp(&N->v[i].s, &d, sizeof d))
            base = N->v[i].r.time;
    if (isnan(base))
        base = predict(N, t, d);
    if (!worth(b->r.time, base))
        return;
    sim_note x = note_of(SIM_NOTE_BATCH, b->s, b->r.time, d, base);
    const char *to = wtcp_mode_get(b->s.mode)->name;
    char build[64] = ""; /* wtcc --mode sets every function's mode: not a mode: clause */
    if (t->built_mode && (b->s.mode != d.mode || b->s.masters != d.masters)) {
        int masters = wtcp_mode_get(b->s.mode)->masters;
        x.kind = b->s.mode != d.mode ? SIM_NOTE_MODE : SIM_NOTE_MASTERS;
        snprintf(build, sizeof build, masters ? "%s:%d" : "%s", to, b->s.masters);
        if (b->s.mode == d.mode)
            snprintf(x.option, sizeof x.option, "--wtc-masters=%d", b->s.masters);
        else if (masters)
            snprintf(x.option, sizeof x.option, "--wtc-mode=%s --wtc-masters=%d", to,
                     b->s.masters);
        else
            snprintf(x.option, sizeof x.option, "--wtc-mode=%s", to);
    } else if (b->s.mode != d.mode && wtcp_mode_get(b->s.mode)->masters) {
        x.kind = SIM_NOTE_MODE;
        snprintf(x.clause, sizeof x.clause, "mode: %s %d;", to, b->s.masters);
        snprintf(x.option, sizeof x.option, "--wtc-mode=%s --wtc-masters=%d", to,
                 b->s.masters);
    } else if (b->s.mode != d.mode) {
        x.kind = SIM_NOTE_MODE;
        snprintf(x.clause, sizeof x.clause, "mode: %s;", to);
        snprintf(x.option, sizeof x.option, "--wtc-mode=%s", to);
    } else if (b->s.masters != d.masters) {
        x.kind = SIM_NOTE_MASTERS;
        snprintf(x.clause, sizeof x.clause, "mode: %s %d;", to, b->s.masters);
        snprintf(x.option, sizeof x.option, "--wtc-masters=%d", b->s.masters);
    } else {
        snprintf(x.option, sizeof x.option, "--wtc-batch=%d", b->s.batch);
    }
    note_add(N, region_site(t, big), x,
             build[0] ? strf("%s: %s (or build with wtcc --mode=%s)", sim_note_kind(x.kind),
                             x.option, build)
             : x.clause[0] ? strf("%s: '%s' (or %s)", sim_note_kind(x.kind), x.clause, x.option)
                           : strf("%s: %s", sim_note_kind(x.kind), x.option),
             t->built_mode ? "with the build's setting (wtcc --mode)"
                           : "with the source's setting", 1, "");
}

/* ---- batch (aggregation) ------------------------------------------------------------ */

/* The par with the most children (a farm): its site, and the children in *nch. */
static int farm_site(const sim_tree *t, int *nch)
{
    int site = -1;
    *nch = 0;
    for (int p = 0; p < t->npars; p++)
        if (t->pars[p].cond && t->pars[p].site >= 0 && t->pars[p].nchild > *nch) {
            *nch = t->pars[p].nchild;
            site = t->pars[p].site;
        }
    return site;
}

/* When --wtc-batch was not given: batches 4, 16, ..., 4096 at the best dynamic setting
   of the table (a farm of tiny tasks: Mandelbrot 1024x1024 at P = 3 ran 0.449 s with
   batch 1 and 0.291 s with 4096). */
static void note_batch(notes *N, const sim_opts *o)
{
    int bd = -1, bestT = 0, nch;
    double base, best;
    char s2[96];
    if (o->nbatch != 1)
        return;
    for (int i = 0; i < N->n; i++)
        if (wtcp_mode_get(N->v[i].s.mode)->masters && N->v[i].s.procs > 1 &&
            !isnan(N->v[i].r.time) && (bd < 0 || N->v[i].r.time < N->v[bd].r.time))
            bd = i;
    if (bd < 0)
        return;
    base = best = N->v[bd].r.time;
    for (int T = 4; T <= 4096; T *= 4) {
        sim_setting s = N->v[bd].s;
        if (T == s.batch)
            continue;
        s.batch = T;
        double x = predict(N, N->t, s);
        if (!isnan(x) && x < best) {
            best = x;
            bestT = T;
        }
    }
    if (!worth(best, base))
        return;
    int site = farm_site(N->t, &nch);
    const sim_row *b = &N->v[N->best];
    char other[160] = "";
    if (b->r.time < best) /* another mode or P is better still: say so */
        snprintf(other, sizeof other, " (the table's best, %s, is %.6f s)",
                 setting_text(b->s, s2, sizeof s2), b->r.time);
    sim_setting rec = N->v[bd].s;
    rec.batch = bestT;
    sim_note x = note_of(SIM_NOTE_BATCH, rec, best, N->v[bd].s, base);
    snprintf(x.option, sizeof x.option, "--wtc-batch=%d", bestT);
    note_add(N, site, x, strf("batch: %s (task messages of up to %d children; this par has "
             "%d)", x.option, bestT, nch), "at the best dynamic setting", 0, other);
}

double sim_notes_find(sim_note_list *L, const sim_tree *t, const sim_machine *m,
                      const sim_opts *o, const sim_row *v, int n, int best,
                      const char *program, const char *ctx, long long *events)
{
    notes N = { L, t, m, v, n, best, program, ctx, 0, events };
    memset(L, 0, sizeof *L);
    snprintf(L->ctx, sizeof L->ctx, "%s", ctx ? ctx : "");
    if (o->ndepth > 0) { /* the notes re-simulate the recorded tree: the program's cond: */
        snprintf(L->none, sizeof L->none, "with --wtc-depth the table compares cut-offs "
                 "itself; the notes are for the program's own cond:, without --wtc-depth");
        return 0;
    }
    if (best < 0) {
        snprintf(L->none, sizeof L->none, "no setting could be simulated");
        return 0;
    }
    for (int s = 0; s < t->nsites; s++)
        if (!note_cutoff(&N, s))
            note_coarse(&N, s);
    note_setting(&N);
    note_batch(&N, o);
    if (L->n == 0)
        snprintf(L->none, sizeof L->none, "no change of cut-off, mode, masters or batch is "
                 "predicted to gain %.0f %% or more", 100 * SIM_NOTE_GAIN);
    return N.wall;
}

void sim_notes_free(sim_note_list *L)
{
    for (int i = 0; i < L->n; i++)
        free(L->v[i].text);
    free(L->v);
    memset(L, 0, sizeof *L);
}

void sim_notes_lines(FILE *out, const sim_note_list *L, int none)
{
    for (int i = 0; i < L->n; i++)
        fprintf(out, "%s\n", L->v[i].text);
    if (L->n == 0 && none)
        fprintf(out, "%s: none (%s)\n", L->ctx, L->none);
}

void sim_notes_print(FILE *out, const sim_note_list *L)
{
    if (L->n == 0) {
        fprintf(out, "\nadvice at source lines: none (%s)\n", L->none);
        return;
    }
    fprintf(out, "\nadvice at source lines (predicted gains of %.0f %% or more):\n",
            100 * SIM_NOTE_GAIN);
    sim_notes_lines(out, L, 0);
}

void sim_notes_sweep_heading(FILE *out, const sim_opts *o)
{
    fprintf(out, "\nadvice at source lines (predicted gains of %.0f %% or more), for each "
            "value of", 100 * SIM_NOTE_GAIN);
    for (int k = 0; k < o->nvary; k++)
        fprintf(out, "%s %s", k ? " and" : "", o->vary[k].key);
    fprintf(out, ":\n");
}
