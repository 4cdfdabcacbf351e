/* sim/report.c - runs the simulation for every setting asked for and prints the
 * prediction (table, csv or json), the best setting and the advice of SPEC 5. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wtcrt.h"
#include "sim.h"
#include "proto.h"

typedef sim_row row;

/* The settings asked for; notes says which masters were reduced to P - 1. */
typedef struct rows {
    row *v;
    int n, cap;
    int dcol;             /* --wtc-depth: a depth column */
    char notes[1024];
} rows;

/* Adds setting s unless rows from..n-1 (those of its mode and P) hold it already. */
static void add_row(rows *R, sim_setting s, int di, int depth, int from)
{
    for (int i = from; i < R->n; i++)
        if (!memcmp(&R->v[i].s, &s, sizeof s) && R->v[i].di == di)
            return; /* the same setting after a reduction of its masters */
    if (R->n == R->cap)
        R->v = realloc(R->v, (size_t)(R->cap = R->cap ? 2 * R->cap : 64) * sizeof *R->v);
    if (!R->v)
        sim_exit(2);
    memset(&R->v[R->n], 0, sizeof R->v[R->n]);
    R->v[R->n].di = di;
    R->v[R->n].depth = depth;
    R->v[R->n++].s = s;
}

/* Notes "4, 8 at P = 4: 3" when the runtime reduces masters of the list (wtcp_masters). */
static void note_reduced(rows *R, const wtcp_mode *mode, int P, const sim_opts *o)
{
    char buf[256];
    int len = 0, red;
    for (int im = 0; im < o->nmasters && len < (int)sizeof buf - 32; im++)
        if (wtcp_masters(mode, P, o->masters[im], &red), red)
            len += snprintf(buf + len, sizeof buf - len, "%s%d", len ? ", " : "",
                            o->masters[im]);
    if (len == 0)
        return;
    snprintf(buf + len, sizeof buf - len, " at P = %d: %d", P, P - 1);
    len = (int)strlen(R->notes);
    snprintf(R->notes + len, sizeof R->notes - len, "%s%s", len ? "; " : "", buf);
}

/* Every (mode, procs, masters, batch) asked for, once: P = 1 once per mode; masters
   and batches multiply the settings of a mode with masters (dynamic) only; masters
   >= P are reduced to P - 1 as the runtime reduces them (the core's wtcp_masters).
   With --wtc-depth, all of it once per depth. */
static void settings(const sim_opts *o, rows *R)
{
    memset(R, 0, sizeof *R);
    R->dcol = o->ndepth > 0;
    for (int di = o->ndepth ? 0 : -1; di < o->ndepth; di++)
    for (int id = 1; id <= SIM_NMODES; id++) {
        const wtcp_mode *mode = wtcp_mode_get(id);
        if (!o->modes[id] || !mode)
            continue;
        for (int ip = 0; ip < o->nprocs; ip++) {
            int P = o->procs[ip], lists = mode->masters && P > 1, red, from = R->n;
            int nm = lists ? o->nmasters : 1, nb = lists ? o->nbatch : 1;
            for (int im = 0; im < nm; im++)
                for (int ib = 0; ib < nb; ib++) {
                    /* 0: not given (steal: no cap), as the runtime takes it */
                    sim_setting s = { .mode = id, .procs = P };
                    if (lists) {
                        s.masters = wtcp_masters(mode, P, o->masters[im], &red);
                        s.batch = o->batch[ib];
                    }
                    add_row(R, s, di, di >= 0 ? o->depth[di] : -1, from);
                }
            if (lists && di <= 0)
                note_reduced(R, mode, P, o);
        }
    }
}

int sim_settings_count(const sim_opts *o)
{
    rows R;
    int n;
    settings(o, &R);
    n = R.n;
    free(R.v);
    return n;
}

static double seq_time(const sim_tree *t, const sim_machine *m)
{
    return sim_tree_seq(t) / m->cpu_ratio;
}

/* The speed-ups' base, the program's sequential time: the least of its recordings'
   (with --wtc-depth=LIST, depths recorded by runs of their own carry fewer recording
   costs than the deepest, sim/record.c record_apart). */
static double base_time(const sim_tree *t, const sim_tree *cuts, const sim_opts *o,
                        const sim_machine *m)
{
    double s = seq_time(t, m);
    for (int i = 0; cuts && i < o->ndepth; i++)
        s = fmin(s, seq_time(&cuts[i], m));
    return s;
}

static const char *mode_name(int mode)
{
    return wtcp_mode_get(mode)->name;
}

/* A setting with masters (dynamic, P > 1): masters, batch and master use apply. */
static int has_masters(const sim_setting *s)
{
    return wtcp_mode_get(s->mode)->masters && s->procs > 1;
}

/* Share of the workers' time spent in x. */
static double share(const sim_result *r, double x)
{
    double all = r->nworkers * r->time;
    return all > 0 ? 100 * x / all : 0;
}

static double master_util(const sim_result *r)
{
    return r->nmasters && r->time > 0 ? 100 * r->master_busy / (r->nmasters * r->time) : 0;
}

/* ---- advice -------------------------------------------------------------------------- */

#define MAXDEPTH 64

typedef struct cut {
    int f[MAXDEPTH + 2];      /* by depth of the children (+1: a par in main is -1) */
    double ts[MAXDEPTH + 2];
    long n[MAXDEPTH + 2];
    int fa;                   /* the recorded cut-off */
    double tsa;
    int site;                 /* its par (sim_tree.sites), -1 unknown */
    int maxd;
} cut;

/* Branching factor and largest sequential subtree per depth of the spawned calls. */
static void cut_info(const sim_tree *t, const sim_machine *m, cut *c)
{
    memset(c, 0, sizeof *c);
    c->maxd = -1;
    c->site = -1;
    for (int i = 0; i < t->nnodes; i++)
        for (int p = t->nodes[i].first_par; p >= 0; p = t->pars[p].next) {
            const sim_par *pp = &t->pars[p];
            int d = t->nodes[i].depth + 2; /* index of the children's depth */
            if (!pp->cond || d < 0 || d > MAXDEPTH + 1)
                continue;
            if (d - 1 > c->maxd)
                c->maxd = d - 1;
            if (pp->nchild > c->f[d])
                c->f[d] = pp->nchild;
            c->n[d] += pp->nchild;
            for (int k = 0; k < pp->nchild; k++) {
                int ch = pp->first_child + k;
                double ts = t->seq[ch] / m->cpu_ratio;
                if (ts > c->ts[d])
                    c->ts[d] = ts;
                if (!t->spawns[ch]) {
                    if (pp->nchild > c->fa) {
                        c->fa = pp->nchild;
                        c->site = pp->site;
                    }
                    if (ts > c->tsa)
                        c->tsa = ts;
                }
            }
        }
}

static int min_masters(int P, double ts, int f, double tm)
{
    double x = sim_advice_min_masters(P, ts, f, tm);
    int M = (int)ceil(x - 1e-9);
    return M < 1 ? 1 : M;
}

static void print_advice(FILE *out, const sim_tree *t, const sim_machine *m, int P)
{
    cut c;
    cut_info(t, m, &c);
    fprintf(out, "\nadvice (dynamic mode; a master answers a request in t_m = %.3g us):\n",
            m->t_m * 1e6);
    if (c.fa < 2) {
        fprintf(out, "  no parallel call spawns two or more children: nothing to balance\n");
        return;
    }
    double need = sim_advice_min_ts(c.fa, P - 1, m->t_m);
    int M = min_masters(P, c.tsa, c.fa, m->t_m);
    if (c.site >= 0)
        fprintf(out, "  recorded cut-off at %s:%d:%d:", t->sites[c.site].file,
                t->sites[c.site].line, t->sites[c.site].col);
    else
        fprintf(out, "  recorded cut-off:");
    fprintf(out, " branching factor f = %d, largest subtree below it t_s = %.4g s\n", c.fa,
            c.tsa);
    fprintf(out, "  at P = %d one master keeps up with w = %d workers if "
                 "(f-1) w / t_s <= 1/t_m, i.e. t_s >= %.4g s: %s\n",
            P, P - 1, need, c.tsa >= need ? "it does" : "it does NOT");
    if (M < P)
        fprintf(out, "  smallest number of masters for P = %d: M = %d (M >= %.3g)\n", P, M,
                sim_advice_min_masters(P, c.tsa, c.fa, m->t_m));
    else
        fprintf(out, "  no number of masters keeps up at P = %d with this cut-off\n", P);
    fprintf(out, "  by cut-off depth (children at that depth run sequentially):\n"
                 "    depth      f   tasks   largest t_s (s)   masters needed at P = %d\n", P);
    for (int d = 0; d <= c.maxd + 1 && d <= MAXDEPTH + 1; d++) {
        if (c.f[d] < 1)
            continue;
        int Md = c.f[d] < 2 ? 1 : min_masters(P, c.ts[d], c.f[d], m->t_m);
        if (Md >= P) /* every rank but one a master would still not do */
            fprintf(out, "    %5d %6d %7ld   %15.4g   none: too little work per task\n",
                    d - 1, c.f[d], c.n[d], c.ts[d]);
        else
            fprintf(out, "    %5d %6d %7ld   %15.4g   %d%s\n", d - 1, c.f[d], c.n[d],
                    c.ts[d], Md, sim_advice_ok(P, 1, c.ts[d], c.f[d], m->t_m) || c.f[d] < 2
                                     ? "  (one master keeps up)" : "");
    }
}

/* ---- the three formats --------------------------------------------------------------- */

/* The cut-off depth of row x ("" without --wtc-depth: dcol 0), as a column. */
static const char *depth_col(int dcol, const row *x, const char *fmt, char *buf, size_t n)
{
    buf[0] = 0;
    if (dcol)
        snprintf(buf, n, fmt, x->depth);
    return buf;
}

static void print_table(FILE *out, int dcol, const row *v, int n, double t1)
{
    char dc[32];
    fprintf(out, "\n%-8s %5s %7s %5s %12s %8s %6s %8s %8s %6s %8s %8s %6s%s\n", "mode", "procs",
            "masters", "batch", "predicted_s", "speedup", "eff", "master%", "compute%",
            "comm%", "wmaster%", "wchild%", "idle%", dcol ? "  depth" : "");
    for (int i = 0; i < n; i++) {
        const sim_result *r = &v[i].r;
        char ms[16], bs[16], mu[16];
        int dyn = has_masters(&v[i].s);
        snprintf(ms, sizeof ms, dyn ? "%d" : "-", v[i].s.masters);
        if (dyn && v[i].s.batch > 0)
            snprintf(bs, sizeof bs, "%d", v[i].s.batch);
        else
            snprintf(bs, sizeof bs, dyn ? "half" : "-");
        snprintf(mu, sizeof mu, dyn ? "%.1f" : "-", master_util(r));
        fprintf(out, "%-8s %5d %7s %5s %12.6f %8.2f %6.2f %8s %8.1f %6.1f %8.1f %8.1f %6.1f%s\n",
                mode_name(v[i].s.mode), v[i].s.procs, ms, bs, r->time, t1 / r->time,
                t1 / r->time / v[i].s.procs, mu, share(r, r->compute), share(r, r->comm),
                share(r, r->wait_master), share(r, r->wait_children), share(r, r->idle),
                depth_col(dcol, &v[i], " %6d", dc, sizeof dc));
    }
}

/* (slowest - fastest) / mean of a row's simulated runs (0: one run). */
static double runs_spread(const sim_result *r)
{
    return r->runs > 1 && r->time > 0 ? (r->time_max - r->time_min) / r->time : 0;
}

/* Prints text in lines of at most 'width' columns, breaking at spaces; the character
   '\1' is a space that does not break (inside "P = 16 M = 2 1.5 %"). Lines after the
   first start with a space. */
static void print_wrapped(FILE *out, const char *text, int width)
{
    int col = 0;
    while (*text) {
        size_t w = strcspn(text, " ");
        if (col > 1 && col + 1 + (int)w > width) {
            fputs("\n ", out);
            col = 1;
        } else if (col > 0) {
            fputc(' ', out);
            col++;
        }
        for (size_t i = 0; i < w; i++)
            fputc(text[i] == '\1' ? ' ' : text[i], out);
        col += (int)w;
        text += w;
        while (*text == ' ')
            text++;
    }
    fputc('\n', out);
}

/* Under the table, a paragraph for each mode with rows simulated several times (draws of
   victim sequences and of the ranks' speeds, sim_run): why, and how far apart the
   fastest and slowest runs of each row were. */
static void print_runs(FILE *out, const sim_machine *m, const row *v, int n)
{
    for (int mode = 1; mode <= SIM_NMODES; mode++) {
        const wtcp_mode *md = wtcp_mode_get(mode);
        char *text = NULL;
        size_t size = 0;
        FILE *f = NULL;
        int most = 0, fewest = 0; /* the most and fewest runs of a drawn row */
        for (int i = 0; i < n; i++)
            if (v[i].s.mode == mode && v[i].r.runs > 1 && !isnan(v[i].r.time)) {
                most = v[i].r.runs > most ? v[i].r.runs : most;
                fewest = !fewest || v[i].r.runs < fewest ? v[i].r.runs : fewest;
            }
        for (int i = 0; i < n; i++) {
            if (v[i].s.mode != mode || v[i].r.runs <= 1 || isnan(v[i].r.time))
                continue;
            if (!f) {
                int speeds = md->timed && m->speed_spread > 0;
                if (!(f = open_memstream(&text, &size)))
                    return;
                fprintf(f, "(%s: each row the mean of %d simulated runs", mode_name(mode),
                        most);
                if (fewest < most) /* rows stopped after the first draws */
                    fprintf(f, " (%d where the first %d came within %.3g %% of each other)",
                            fewest, fewest, 100 * SIM_RUNS_AGREE);
                fprintf(f, ", as runs of the program differ:%s%s",
                        md->random_victims ? " thieves ask other victims" : "",
                        md->random_victims && speeds ? "," : "");
                if (speeds)
                    fprintf(f, " each rank runs up to %.3g %% faster or slower",
                            100 * m->speed_spread);
                fputs("; slowest against fastest: ", f);
            } else {
                fputs(", ", f);
            }
            fprintf(f, "P\1=\1%d", v[i].s.procs);
            if (mode == SIM_DYNAMIC)
                fprintf(f, "\1M\1=\1%d", v[i].r.nmasters);
            if (v[i].s.batch > 0)
                fprintf(f, "\1batch\1%d", v[i].s.batch);
            fprintf(f, "\1%.1f\1%%", 100 * runs_spread(&v[i].r));
        }
        if (!f)
            continue;
        fputc(')', f);
        fclose(f);
        print_wrapped(out, text, 88);
        free(text);
    }
}

/* The CSV; 'head' (the --wtc-vary keys' columns, "L,") starts the header line when not
   NULL, 'pre' (their values, "5e-05,") every row. */
static void print_csv(FILE *out, int dcol, const row *v, int n, double t1, const char *head,
                      const char *pre)
{
    char dc[32];
    if (head)
        fprintf(out, "%smode,procs,masters,batch,predicted_s,speedup,efficiency,master_util,"
                     "compute,comm,wait_master,wait_children,idle,messages,bytes,regions_s,runs,spread%s\n",
                head, dcol ? ",depth" : "");
    for (int i = 0; i < n; i++) {
        const sim_result *r = &v[i].r;
        fprintf(out, "%s%s,%d,%d,%d,%.9g,%.6g,%.6g,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g,%lld,%lld,%.9g,%d,%.4g%s\n",
                pre, mode_name(v[i].s.mode), v[i].s.procs, v[i].s.masters, v[i].s.batch, r->time,
                t1 / r->time, t1 / r->time / v[i].s.procs, master_util(r) / 100,
                share(r, r->compute) / 100, share(r, r->comm) / 100,
                share(r, r->wait_master) / 100, share(r, r->wait_children) / 100,
                share(r, r->idle) / 100, r->messages, r->bytes, r->regions, r->runs,
                runs_spread(r), depth_col(dcol, &v[i], ",%d", dc, sizeof dc));
    }
}

static void json_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(out, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(out, "\\u%04x", *s);
        else
            fputc(*s, out);
    }
    fputc('"', out);
}

/* s as a JSON string; null when it is empty. */
static void json_str_or_null(FILE *out, const char *s)
{
    if (*s)
        json_str(out, s);
    else
        fprintf(out, "null");
}

/* The settings array's entries, each indented by 'ind'. */
static void json_settings(FILE *out, int dcol, const row *v, int n, double t1,
                          const char *ind)
{
    char dc[32];
    for (int i = 0; i < n; i++) {
        const sim_result *r = &v[i].r;
        fprintf(out, "%s{\"mode\": \"%s\", \"procs\": %d, \"masters\": %d, \"batch\": %d, "
                     "\"predicted_s\": %.9g, \"regions_s\": %.9g, \"job_s\": %.9g, \"speedup\": %.6g, "
                     "\"efficiency\": %.6g, \"master_util\": %.4g, \"compute\": %.4g, \"comm\": %.4g, "
                     "\"wait_master\": %.4g, \"wait_children\": %.4g, \"idle\": %.4g, "
                     "\"messages\": %lld, \"bytes\": %lld, \"remote_calls\": %lld, "
                     "\"grants\": %lld, \"local_after_refusal\": %lld, \"steals\": %lld, "
                     "\"runs\": %d, \"fastest_s\": %.9g, \"slowest_s\": %.9g%s}%s\n",
                ind, mode_name(v[i].s.mode), v[i].s.procs, v[i].s.masters, v[i].s.batch, r->time,
                r->regions, r->job, t1 / r->time, t1 / r->time / v[i].s.procs, master_util(r) / 100,
                share(r, r->compute) / 100, share(r, r->comm) / 100,
                share(r, r->wait_master) / 100, share(r, r->wait_children) / 100,
                share(r, r->idle) / 100, r->messages, r->bytes, r->remote_calls, r->grants,
                r->refusals, r->steals, r->runs, r->time_min, r->time_max,
                depth_col(dcol, &v[i], ", \"depth\": %d", dc, sizeof dc),
                i + 1 < n ? "," : "");
    }
}

/* The best setting as a JSON object, or null. */
static void json_best(FILE *out, int dcol, const row *v, int best)
{
    char dc[32];
    if (best >= 0)
        fprintf(out, "{\"mode\": \"%s\", \"procs\": %d, \"masters\": %d, \"batch\": %d, "
                     "\"predicted_s\": %.9g%s}",
                mode_name(v[best].s.mode), v[best].s.procs, v[best].s.masters,
                v[best].s.batch, v[best].r.time,
                depth_col(dcol, &v[best], ", \"depth\": %d", dc, sizeof dc));
    else
        fprintf(out, "null");
}

/* A setting of a note with its predicted time (and for the one recommended, the cut-off
   depth, source clause and option that make it: null where there is none). */
static void json_note_setting(FILE *out, const sim_note *x, int rec)
{
    const sim_setting *s = rec ? &x->rec : &x->was;
    fprintf(out, "{\"mode\": \"%s\", \"procs\": %d, \"masters\": %d, \"batch\": %d, ",
            mode_name(s->mode), s->procs, s->masters, s->batch);
    if (rec) {
        fprintf(out, x->depth >= 0 ? "\"depth\": %d, " : "\"depth\": null, ", x->depth);
        fprintf(out, "\"clause\": ");
        json_str_or_null(out, x->clause);
        fprintf(out, ", \"option\": ");
        json_str_or_null(out, x->option);
        fprintf(out, ", ");
    }
    fprintf(out, "\"predicted_s\": %.9g}", rec ? x->rec_s : x->was_s);
}

/* "notes": the advice at source lines, a note an object (its fields, then its text as
   the table prints it), each line indented by 'ind'; "notes_none": why there is none
   (null when there are notes). */
static void json_notes(FILE *out, const sim_note_list *L, const char *ind)
{
    fprintf(out, "\"notes\": [");
    for (int i = 0; i < L->n; i++) {
        const sim_note *x = &L->v[i];
        fprintf(out, "%s\n%s  {\"kind\": \"%s\", \"file\": ", i ? "," : "", ind,
                sim_note_kind(x->kind));
        json_str(out, x->file);
        fprintf(out, x->line > 0 ? ", \"line\": %d, \"column\": %d"
                                 : ", \"line\": null, \"column\": null", x->line, x->col);
        fprintf(out, ", \"recommended\": ");
        json_note_setting(out, x, 1);
        fprintf(out, ", \"replaced\": ");
        json_note_setting(out, x, 0);
        fprintf(out, ", \"gain_s\": %.9g, \"gain_pct\": %.6g, \"text\": ", x->gain_s,
                x->gain_pct);
        json_str(out, x->text);
        fprintf(out, "}");
    }
    fprintf(out, L->n ? "\n%s], \"notes_none\": null" : "%s], \"notes_none\": ",
            L->n ? ind : "");
    if (!L->n)
        json_str(out, L->none);
}

/* "program" and "machine", the first members of the JSON object. */
static void json_program(FILE *out, const sim_machine *m, const char *program)
{
    fprintf(out, "{\n  \"program\": ");
    json_str(out, program ? program : "");
    fprintf(out, ",\n  \"machine\": {\"name\": ");
    json_str(out, m->name);
    fprintf(out, ", \"source\": ");
    json_str(out, m->source);
    fprintf(out, ", \"L\": %g, \"G\": %g, \"o_sa\": %g, \"o_sb\": %g, \"O_s\": %g, "
                 "\"o_ra\": %g, \"o_rb\": %g, \"O_r\": %g, \"S\": %g, \"t_m\": %g, "
                 "\"cpu_ratio\": %g},\n",
            m->L, m->G, m->o_sa, m->o_sb, m->O_s, m->o_ra, m->o_rb, m->O_r, m->S, m->t_m,
            m->cpu_ratio);
}

static void print_json(FILE *out, const rows *R, double t1, int best,
                       const sim_machine *m, const sim_sampling *smp, const char *program,
                       double msgs_per_s, const sim_note_list *L)
{
    json_program(out, m, program);
    fprintf(out, "  \"sequential_s\": %.9g,\n  \"sampling\": {\"leaf_tasks\": %ld, "
                 "\"executed\": %ld, \"same_args\": %ld, \"leaf_time_s\": %.9g, "
                 "\"error_lo\": %.6g, \"error_hi\": %.6g},\n",
            t1, smp->leaves, smp->executed, smp->same_args, smp->total,
            smp->total > 0 ? smp->err_lo / smp->total : 0,
            smp->total > 0 ? smp->err_hi / smp->total : 0);
    fprintf(out, "  \"replication\": {\"limit\": %d, \"subtrees\": %ld, \"calls\": %ld, "
                 "\"leaf_tasks\": %ld},\n", smp->replicate, smp->repl_subtrees,
            smp->repl_calls, smp->repl_leaves);
    /* --wtc-depth=LIST: the depths recorded by runs of their own (sim/record.c) */
    fprintf(out, "  \"depths_recorded_apart\": [%s],\n", smp->apart);
    fprintf(out, "  \"simulator_messages_per_s\": %.6g,\n  \"settings\": [\n", msgs_per_s);
    json_settings(out, R->dcol, R->v, R->n, t1, "    ");
    fprintf(out, "  ],\n  \"masters_reduced\": ");
    json_str(out, R->notes);
    fprintf(out, ",\n  \"best\": ");
    json_best(out, R->dcol, R->v, best);
    fprintf(out, ",\n  ");
    json_notes(out, L, "  ");
    fprintf(out, "\n}\n");
}

/* "best: dynamic, 8 procs, masters 1, batch half: 0.12 s (speedup 5.00)". */
static void print_best(FILE *out, int dcol, const row *b, double t1)
{
    char bs[16];
    fprintf(out, "\nbest: %s, %d procs", mode_name(b->s.mode), b->s.procs);
    if (has_masters(&b->s)) {
        snprintf(bs, sizeof bs, b->s.batch > 0 ? "%d" : "half", b->s.batch);
        fprintf(out, ", masters %d, batch %s", b->s.masters, bs);
    }
    if (dcol)
        fprintf(out, ", depth %d", b->depth);
    fprintf(out, ": %.6f s (speedup %.2f)\n", b->r.time, t1 / b->r.time);
}

static void print_head(FILE *out, const sim_tree *t, const sim_machine *m,
                       const sim_sampling *smp, const char *program, double t1)
{
    fprintf(out, "wtc predict: %s on machine %s (%s), cpu_ratio %g\n",
            program ? program : "program", m->name, m->source, m->cpu_ratio);
    /* where the ranks are: a cluster's file without ranks_per_node describes one node,
       whose messages touch no link (bench/smpi/smpi-1gbe.conf did until 2026-11-30) */
    if (m->ranks_per_node >= 1)
        fprintf(out, "placement: %g rank%s per node, in rank order\n", m->ranks_per_node,
                m->ranks_per_node == 1 ? "" : "s");
    else
        fprintf(out, "placement: every rank on one node (the machine file has no "
                     "ranks_per_node)\n");
    fprintf(out, "recorded: %d parallel region%s, %d calls, %ld leaf tasks; main's own "
                 "time %.6f s; sequential time %.6f s\n",
            t->nregions, t->nregions == 1 ? "" : "s", t->nnodes, smp->leaves,
            t->main_time / m->cpu_ratio, seq_time(t, m));
    if (smp->apart[0])
        fprintf(out, "  (depth%s %s of --wtc-depth %s recorded by a run of %s own, not cut "
                     "from this recording, whose deeper calls cost recording time their leaf "
                     "tasks would carry; the speed-ups are over %.6f s, the least sequential "
                     "time recorded)\n", strchr(smp->apart, ',') ? "s" : "", smp->apart,
                strchr(smp->apart, ',') ? "were each" : "was",
                strchr(smp->apart, ',') ? "their" : "its", t1);
    if (smp->repl_subtrees > 0)
        fprintf(out, "replicated: %ld subtrees (%ld calls, %ld leaf tasks) copied from an "
                     "executed sibling (--wtc-replicate limit %d)\n",
                smp->repl_subtrees, smp->repl_calls, smp->repl_leaves, smp->replicate);
    double after, seq;
    if (smp->repl_subtrees > 0 && sim_tree_main_after(t, &after, &seq))
        /* kept by --wtc-replicate=on, or standard input that cannot be read again
           (else sim/record.c recorded again) */
        fprintf(out, "  (main's own time after its first region, %.6f s of the sequential "
                     "%.6f s, ran on the data the copies left, not on the program's "
                     "results: where main's work depends on them, --wtc-replicate=off "
                     "times it on real data)\n", after / m->cpu_ratio, seq / m->cpu_ratio);
    if (smp->repl_main_seq > 0)
        fprintf(out, "not replicated: with replicas, main's own time after its first region "
                     "was %.6f s of the sequential %.6f s, on the data the copies left, so "
                     "the program was recorded again without them\n",
                smp->repl_main_after / m->cpu_ratio, smp->repl_main_seq / m->cpu_ratio);
    if (smp->repl_checked > 0 && smp->replicate > 0)
        fprintf(out, "  (siblings checked at %ld pars by running child 1 and a wider par's last too: %ld differed by "
                     "over 20 %% (largest %.0f %%), where further siblings copy the two "
                     "alternately)\n",
                smp->repl_checked, smp->repl_unequal, 100 * smp->repl_maxdiff);
    else if (smp->repl_checked > 0)
        fprintf(out, "not replicated: a first recording ran siblings of equal sizes side by "
                     "side at %ld pars and %ld differed by over 20 %% (largest %.0f %%), so "
                     "every call ran\n",
                smp->repl_checked, smp->repl_unequal, 100 * smp->repl_maxdiff);
    if (m->t_launch + m->t_launch_p + m->t_start + m->t_start_p + m->t_end + m->t_end_p > 0) {
        /* how it starts on one node; across nodes MPI starts before main */
        int kind = wtcp_start_kind(t->calls_mpi, t->nshared, 1);
        char nodes[96] = "";
        if (kind != WTCP_START_FIRST && m->ranks_per_node >= 1)
            snprintf(nodes, sizeof nodes, " (before main at P > %.0f: the ranks span nodes)",
                     m->ranks_per_node);
        fprintf(out, "the job (P >= 2): launch %.1f + %.2f P ms, MPI's start %.1f + %.2f P ms "
                     "%s%s, end %.1f + %.2f P ms; in predicted_s\n",
                1e3 * m->t_launch, 1e3 * m->t_launch_p, 1e3 * m->t_start, 1e3 * m->t_start_p,
                kind == WTCP_START_FIRST ? "before main (the program includes <mpi.h>)"
                : kind == WTCP_START_WAIT
                    ? "beside main (its first region waits for it: shared bounds)"
                    : "beside main and its first region",
                nodes, 1e3 * m->t_end, 1e3 * m->t_end_p);
    } else
        fprintf(out, "the job's launch, MPI's start and its end are not in predicted_s (the "
                     "machine file has no t_launch, t_start, t_end: make calibrate)\n");
    if (m->t_page_shared + m->t_page_free + m->t_page_map > 0 && sim_shared_heap(m, 2)) {
        fprintf(out, "the shared heap (P >= 2, ranks sharing a node): main touched %ld pages "
                     "first, %.1f ms more in main and %.1f ms more at the end",
                t->main_faults, 1e3 * (double)t->main_faults * m->t_page_shared,
                1e3 * (double)t->main_faults * m->t_page_free);
        if (m->t_page_map > 0)
            fprintf(out, "; another rank maps a page of it that it reads for "
                         "%.2f us, up to %.1f ms a rank", 1e6 * m->t_page_map,
                    1e3 * (double)t->main_faults * m->t_page_map);
        fputc('\n', out);
    }
    if (smp->shared[0])
        fprintf(out, "shared bounds: %s; recorded in the sequential order, whose pruning a "
                     "parallel run does not follow (it may search fewer nodes or more)\n",
                smp->shared);
    if (smp->leaves == 0)
        return;
    if (smp->executed >= smp->leaves)
        fprintf(out, "leaf tasks: all %ld ran; total %.6f s (exact)\n", smp->leaves,
                smp->total);
    else
        fprintf(out, "leaf tasks: ran %ld of %ld (%.2f%%), the rest interpolated; total "
                     "%.6f s, estimated error %+.1f%% .. %+.1f%% (bootstrap, 40 resamples)\n",
                smp->executed, smp->leaves, 100.0 * smp->executed / smp->leaves, smp->total,
                smp->total > 0 ? 100 * smp->err_lo / smp->total : 0,
                smp->total > 0 ? 100 * smp->err_hi / smp->total : 0);
    if (smp->same_args > 0)
        fprintf(out, "  (%ld of the others took the time of leaf tasks that ran with the same "
                     "arguments)\n", smp->same_args);
    if (smp->in_place > 0 && smp->executed < smp->leaves)
        fprintf(out, "  (%ld of the leaf tasks ran in place: they write out: buffers that "
                     "the code after them reads)\n", smp->in_place);
    if (smp->chunks > 1)
        fprintf(out, "  (%d chunks: the captured inputs outgrew WTC_PREDICT_MEM_MB, so each chunk "
                     "was sampled on its own)\n",
                smp->chunks);
    if (smp->preempted > 0)
        fprintf(out, "  (%ld timed piece%s of work (leaf tasks, calls' own segments, main) %s "
                     "interrupted by another process: %s CPU time was used)\n", smp->preempted,
                smp->preempted == 1 ? "" : "s", smp->preempted == 1 ? "was" : "were",
                smp->preempted == 1 ? "its" : "their");
    if (smp->pass1 > 0 && smp->passes > 2)
        fprintf(out, "  (the %ld leaf tasks run from their captures were timed up to %d times: "
                     "%.6f s and %.6f s in all in the first two passes, spread %.1f %%; each "
                     "kept its fastest, %.6f s in all)\n",
                smp->executed - smp->in_place - smp->dear, smp->passes, smp->pass1,
                smp->pass2, 100 * fabs(smp->pass2 - smp->pass1) / fmin(smp->pass1, smp->pass2),
                smp->pass_kept);
    else if (smp->pass1 > 0)
        fprintf(out, "  (the %ld leaf tasks run from their captures were timed twice: %.6f s and "
                     "%.6f s in all, spread %.1f %%; %ld pairs over 10 %% and 20 us apart kept the smaller)\n",
                smp->executed - smp->in_place - smp->dear, smp->pass1, smp->pass2,
                100 * fabs(smp->pass2 - smp->pass1) / fmin(smp->pass1, smp->pass2),
                smp->outliers);
    if (smp->dear > 0)
        fprintf(out, "  (%ld of the leaf tasks ran in place: copying their inputs for "
                     "sampling costs half of running them or more)\n", smp->dear);
}

/* WTC_DECISIONS=FILE: the decision log of the simulation, for one setting only (the
   lines of different settings would mix). NULL when not asked for or not possible. */
static FILE *decisions_open(int n)
{
    const char *path = getenv("WTC_DECISIONS");
    FILE *f;
    if (!path || !*path)
        return NULL;
    if (n != 1) {
        fprintf(stderr, "wtc predict: WTC_DECISIONS ignored: it logs one setting, and %d "
                        "were asked for (give one --wtc-procs, one mode, one --wtc-masters "
                        "and one --wtc-batch, and at most one --wtc-depth)\n", n);
        return NULL;
    }
    if (!(f = fopen(path, "w")))
        fprintf(stderr, "wtc predict: WTC_DECISIONS: cannot write %s: %s\n", path,
                strerror(errno));
    return f;
}

/* "simple mode, 2 ranks" / "dynamic mode, 4 ranks, 1 master, batch 8". */
static void setting_words(const sim_setting *s, char *buf, size_t n)
{
    int len = snprintf(buf, n, "%s mode, %d rank%s", mode_name(s->mode), s->procs,
                       s->procs == 1 ? "" : "s");
    if (has_masters(s) && len < (int)n)
        len += snprintf(buf + len, n - len, ", %d master%s", s->masters,
                        s->masters == 1 ? "" : "s");
    if (has_masters(s) && s->batch > 0 && len < (int)n)
        snprintf(buf + len, n - len, ", batch %d", s->batch);
}

/* Whether every number the table, CSV and JSON print of row x is finite: "nan" is no
   JSON number, and a NaN row once went out with status 0 (steal mode on a free network,
   since simulated: mode_steal.c). */
static int row_finite(const row *x, double t1)
{
    const sim_result *r = &x->r;
    double v[] = { r->time, t1 / r->time, r->regions, r->job, r->time_min, r->time_max,
                   runs_spread(r), master_util(r), share(r, r->compute), share(r, r->comm),
                   share(r, r->wait_master), share(r, r->wait_children), share(r, r->idle) };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        if (!isfinite(v[i]))
            return 0;
    return 1;
}

/* A setting that has no finite prediction (its simulation failed, or gave NaN or inf):
   said on stderr, status 2, nothing printed for it. */
static void no_prediction(const row *x, int failed, double t1)
{
    char words[96];
    setting_words(&x->s, words, sizeof words);
    if (failed)
        fprintf(stderr, "wtc predict: %s: the simulation failed, no prediction\n", words);
    else
        fprintf(stderr, "wtc predict: %s: no finite prediction (predicted %g s, sequential "
                        "%g s)\n", words, x->r.time, t1);
    sim_exit(2);
}

/* Simulates every setting; returns the best (-1: none) and the simulating time. A
   setting without a finite prediction ends the run (no_prediction). */
static int simulate(sim_tree *t, sim_tree *cuts, const sim_machine *m, rows *R, double t1,
                    double *wall, long long *events, int *maxP, int log_ok)
{
    FILE *log = log_ok ? decisions_open(R->n) : NULL;
    int best = -1;
    for (int i = 0; i < R->n; i++) {
        row *x = &R->v[i];
        double w0 = wtcrt_now();
        wtcp_log_open(log);
        if (sim_run(x->di >= 0 ? &cuts[x->di] : t, m, x->s, &x->r) < 0)
            no_prediction(x, 1, t1);
        if (!row_finite(x, t1))
            no_prediction(x, 0, t1);
        wtcp_log_open(NULL);
        *wall += wtcrt_now() - w0;
        *events += x->r.events;
        if (best < 0 || x->r.time < R->v[best].r.time)
            best = i;
        if (x->s.procs > *maxP)
            *maxP = x->s.procs;
    }
    if (log)
        fclose(log);
    return best;
}

/* ---- the predicted run of one setting: --wtc-trace and --wtc-stats ---------------- */

/* Simulates the one setting again keeping its timeline; prints the per-rank table and
   writes the trace asked for with the program's own code. Returns -1 when the trace could not be
   written. */
static int report_timeline(FILE *out, const sim_tree *t, const sim_machine *m,
                           const sim_opts *o, const row *x)
{
    sim_timeline tl;
    sim_result r;
    char words[128], title[512];
    int rc = 0;
    setting_words(&x->s, words, sizeof words);
    sim_timeline_init(&tl, x->s.procs, o->trace != NULL);
    if (isnan(x->r.time) || sim_run_timeline(t, m, x->s, &r, &tl) < 0) {
        fprintf(stderr, "wtc predict: %s cannot be simulated: no trace or stats\n", words);
        sim_timeline_free(&tl);
        return -1;
    }
    /* --wtc-stats, or --wtc-trace: the report of a traced run shows its breakdown too */
    snprintf(title, sizeof title, "predicted run on %s: %s, %.4f s from start to exit",
             m->name, words, r.time);
    fputc('\n', out);
    wtcrt_stats_print(out, tl.st, tl.P, title);
    snprintf(title, sizeof title, "wtc prediction: %s on %s", words, m->name);
    if (o->trace && wtcrt_trace_write(o->trace, title, tl.P, tl.ev, tl.nev, tl.st) < 0) {
        fprintf(stderr, "wtc predict: cannot write the trace %s: %s\n", o->trace,
                strerror(errno));
        rc = -1;
    }
    sim_timeline_free(&tl);
    return rc;
}

/* ---- --wtc-plot: predicted speed-up against P ----------------------------------------- */

static int cmp_int(const void *a, const void *b)
{
    return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* The row of (mode, P, masters as the runtime takes them, batch), -1 when absent. */
static int find_row(const rows *R, int mode, int P, int masters, int batch)
{
    const wtcp_mode *md = wtcp_mode_get(mode);
    int red, M = md->masters && P > 1 ? wtcp_masters(md, P, masters, &red) : 0;
    int T = md->masters && P > 1 ? batch : 0;
    int bi = -1; /* with --wtc-depth, the setting's best depth */
    for (int i = 0; i < R->n; i++) {
        const sim_setting *s = &R->v[i].s;
        if (s->mode == mode && s->procs == P && s->masters == M && s->batch == T &&
            (bi < 0 || isnan(R->v[bi].r.time) || R->v[i].r.time < R->v[bi].r.time))
            bi = i;
    }
    return bi;
}

/* One line per mode, and per masters (and batch) value asked for in dynamic mode: the
   speed-up t1 / predicted at every P (P = 1 is the same row for all of a mode's lines). */
static int plot_series(const rows *R, const sim_opts *o, double t1, int best,
                       sim_plot_series *ps, int *bs, int *bp, double *xy)
{
    int procs[SIM_MAXLIST], ns = 0;
    memcpy(procs, o->procs, sizeof procs);
    qsort(procs, (size_t)o->nprocs, sizeof procs[0], cmp_int);
    *bs = *bp = -1;
    for (int id = 1; id <= SIM_NMODES; id++) {
        const wtcp_mode *md = wtcp_mode_get(id);
        int nm = md && md->masters ? o->nmasters : 1, nb = md && md->masters ? o->nbatch : 1;
        if (!o->modes[id] || !md)
            continue;
        for (int im = 0; im < nm; im++)
            for (int ib = 0; ib < nb; ib++) {
                sim_plot_series *x = &ps[ns];
                int len = snprintf(x->label, sizeof x->label, "%s", md->name);
                if (md->masters)
                    len += snprintf(x->label + len, sizeof x->label - len, ", %d master%s",
                                    o->masters[im], o->masters[im] == 1 ? "" : "s");
                if (md->masters && nb > 1)
                    snprintf(x->label + len, sizeof x->label - len, ", batch %d",
                             o->batch[ib]);
                x->x = xy;
                x->y = xy + o->nprocs;
                xy += 2 * o->nprocs;
                x->n = 0;
                for (int ip = 0; ip < o->nprocs; ip++) {
                    int i = find_row(R, id, procs[ip], o->masters[im], o->batch[ib]);
                    if (i < 0 || isnan(R->v[i].r.time) || !(R->v[i].r.time > 0))
                        continue;
                    if (i == best && *bs < 0) {
                        *bs = ns;
                        *bp = x->n;
                    }
                    x->x[x->n] = procs[ip];
                    x->y[x->n++] = t1 / R->v[i].r.time;
                }
                if (x->n > 0)
                    ns++;
            }
    }
    return ns;
}

/* Writes plot p to path; -1 (said on stderr) when it could not be written. */
static int plot_write(const char *path, const sim_plot *p)
{
    int rc = sim_plot_write(path, p);
    if (rc < 0)
        fprintf(stderr, "wtc predict: cannot write the plot %s: %s\n", path, strerror(errno));
    return rc;
}

/* Writes the speed-up plot; -1 when it could not be written. */
static int report_plot(const rows *R, const sim_opts *o, double t1, int best,
                       const sim_machine *m, const char *program)
{
    int nmax = SIM_NMODES * o->nmasters * o->nbatch, rc;
    sim_plot_series *ps = calloc((size_t)nmax, sizeof *ps);
    double *xy = calloc((size_t)nmax * 2 * o->nprocs, sizeof *xy);
    char title[256], sub[768], bl[160];
    sim_plot p;
    if (!ps || !xy) {
        fprintf(stderr, "wtc predict: out of memory for the plot\n");
        sim_exit(2);
    }
    memset(&p, 0, sizeof p);
    p.s = ps;
    p.ns = plot_series(R, o, t1, best, ps, &p.best_series, &p.best_point, xy);
    snprintf(title, sizeof title, "%s: predicted speed-up", program ? program : "program");
    snprintf(sub, sizeof sub, "on machine %s (cpu_ratio %g); sequential time %.4g s",
             m->name, m->cpu_ratio, t1);
    p.title = title;
    p.subtitle = sub;
    p.xlabel = "processors P (log scale)";
    p.ylabel = "speed-up (sequential time / predicted time)";
    p.xlog = 1;
    p.ideal = 1;
    if (best >= 0) {
        size_t len;
        setting_words(&R->v[best].s, bl, sizeof bl);
        len = strlen(bl);
        snprintf(bl + len, sizeof bl - len, ": speed-up %.2f", t1 / R->v[best].r.time);
        p.best_label = bl;
    }
    rc = plot_write(o->plot, &p);
    free(ps);
    free(xy);
    return rc;
}

/* ---- what-if sweeps (--wtc-vary) ----------------------------------------------------- */

/* The number of value combinations of the --wtc-vary keys. */
static long vary_count(const sim_opts *o)
{
    long n = 1;
    for (int k = 0; k < o->nvary; k++)
        n *= o->vary[k].n;
    return n;
}

/* Machine m with the values of combination c (the first key varies slowest); val[k]
   receives key k's value. */
static void vary_machine(const sim_opts *o, long c, const sim_machine *m, sim_machine *mv,
                         double *val)
{
    *mv = *m;
    for (int k = o->nvary - 1; k >= 0; k--) {
        const sim_vary *v = &o->vary[k];
        const char *text = v->val[c % v->n];
        c /= v->n;
        sim_machine_set(mv, v->key, text, NULL, 0); /* checked when the option was parsed */
        val[k] = sim_machine_get(mv, v->key); /* the value set ('cores:host' is a count) */
    }
}

/* One row of the what-if table: the values, then the best setting and its time. */
static void vary_table_row(FILE *out, const sim_opts *o, const double *val, const rows *R,
                           int best, double t1)
{
    for (int k = 0; k < o->nvary; k++)
        fprintf(out, "%*.6g ", (int)(strlen(o->vary[k].key) > 12 ? strlen(o->vary[k].key) : 12),
                val[k]);
    if (best < 0) {
        fprintf(out, " (no setting could be simulated)\n");
        return;
    }
    const row *b = &R->v[best];
    char ms[16], bs[16];
    int dyn = has_masters(&b->s);
    snprintf(ms, sizeof ms, dyn ? "%d" : "-", b->s.masters);
    if (dyn && b->s.batch > 0)
        snprintf(bs, sizeof bs, "%d", b->s.batch);
    else
        snprintf(bs, sizeof bs, dyn ? "half" : "-");
    fprintf(out, " %-8s %5d %7s %5s %12.6f %8.2f", mode_name(b->s.mode), b->s.procs, ms, bs,
            b->r.time, t1 / b->r.time);
    if (R->dcol) /* which cut-off won (a helper's bug hunt: the table did not say) */
        fprintf(out, " %6d", b->depth);
    fputc('\n', out);
}

/* The header of the what-if table (with the machine's own values). */
static void vary_table_head(FILE *out, const sim_opts *o, const sim_machine *m)
{
    fprintf(out, "\nwhat-if (--wtc-vary): the best of the settings asked for, per value of");
    for (int k = 0; k < o->nvary; k++)
        fprintf(out, "%s %s (the machine's: %g)", k ? " and" : "", o->vary[k].key,
                sim_machine_get(m, o->vary[k].key));
    fprintf(out, "\n");
    for (int k = 0; k < o->nvary; k++)
        fprintf(out, "%*s ", (int)(strlen(o->vary[k].key) > 12 ? strlen(o->vary[k].key) : 12),
                o->vary[k].key);
    fprintf(out, " %-8s %5s %7s %5s %12s %8s%s\n", "mode", "procs", "masters", "batch",
            "predicted_s", "speedup", o->ndepth > 0 ? "  depth" : "");
}

/* The notes as diagnostics, as gcc's (doc/predictor.md 6.2): on stderr when stdout is
   for a program (CSV, JSON); the table prints them in its own section. */
static void notes_on_stderr(const sim_opts *o, const sim_note_list *L)
{
    if (o->format != SIM_FMT_TABLE)
        sim_notes_lines(stderr, L, 0);
}

/* "L = 1e-05, cpu_ratio = 4": which values of the sweep's keys the notes are for. */
static const char *vary_ctx(const sim_opts *o, const double *val, char *buf, size_t n)
{
    int len = 0;
    buf[0] = 0;
    for (int k = 0; k < o->nvary && len < (int)n; k++)
        len += snprintf(buf + len, n - len, "%s%s = %g", k ? ", " : "", o->vary[k].key,
                        val[k]);
    return buf;
}

/* The first members of a JSON prediction of the sweep: the values of its keys. */
static void json_vary_values(FILE *out, const sim_opts *o, const double *val)
{
    for (int k = 0; k < o->nvary; k++) {
        json_str(out, o->vary[k].key);
        fprintf(out, ": %.9g, ", val[k]);
    }
}

/* Series x (mode id) of the what-if plot: the points of xy (nc values then nc times;
   NAN: none) in ascending x, stored in x->x and x->y; lo and hi take the extremes of x. */
static void vary_series(sim_plot_series *x, int id, const double *xy, long nc, double *lo,
                        double *hi)
{
    const double *vx = xy + (size_t)(id - 1) * 2 * nc, *vy = vx + nc;
    x->n = 0;
    snprintf(x->label, sizeof x->label, "%s (its best setting)", wtcp_mode_get(id)->name);
    for (long c = 0; c < nc; c++) {
        int k;
        if (isnan(vy[c]))
            continue;
        for (k = x->n; k > 0 && x->x[k - 1] > vx[c]; k--) { /* ascending x */
            x->x[k] = x->x[k - 1];
            x->y[k] = x->y[k - 1];
        }
        x->x[k] = vx[c];
        x->y[k] = vy[c];
        x->n++;
        *lo = vx[c] < *lo ? vx[c] : *lo;
        *hi = vx[c] > *hi ? vx[c] : *hi;
    }
}

/* Marks the point of least time of all of p's series as its best. */
static void plot_mark_least(sim_plot *p)
{
    const sim_plot_series *ps = p->s;
    for (int i = 0; i < p->ns; i++)
        for (int k = 0; k < ps[i].n; k++)
            if (p->best_series < 0 || ps[i].y[k] < ps[p->best_series].y[p->best_point]) {
                p->best_series = i;
                p->best_point = k;
            }
}

/* --wtc-vary with --wtc-plot (one key): the predicted time of each mode's best setting
   against the key's value (xy: per mode, nc values then nc times; NAN: none), the best
   point marked; a log x axis when the values span 16x or more. -1 when not written. */
static int vary_plot(const sim_opts *o, long nc, const double *xy, const sim_machine *m,
                     const char *program)
{
    sim_plot_series ps[SIM_NMODES];
    double *pts = calloc((size_t)(2 * SIM_NMODES * nc), sizeof *pts), lo = INFINITY, hi = 0;
    char title[256], sub[512], xl[96], bl[160];
    sim_plot p;
    int rc;
    if (!pts) {
        fprintf(stderr, "wtc predict: out of memory for the plot\n");
        sim_exit(2);
    }
    memset(&p, 0, sizeof p);
    p.best_series = p.best_point = -1;
    for (int id = 1; id <= SIM_NMODES; id++) {
        sim_plot_series *x = &ps[p.ns];
        x->x = pts + (size_t)p.ns * 2 * nc;
        x->y = x->x + nc;
        vary_series(x, id, xy, nc, &lo, &hi);
        if (x->n > 0)
            p.ns++;
    }
    p.s = ps;
    plot_mark_least(&p);
    p.xlog = lo > 0 && hi >= 16 * lo;
    snprintf(title, sizeof title, "%s: predicted time against %s",
             program ? program : "program", o->vary[0].key);
    snprintf(sub, sizeof sub, "machine %s with %s varied (its own: %g); the best of the "
             "settings asked for in each mode", m->name, o->vary[0].key,
             sim_machine_get(m, o->vary[0].key));
    snprintf(xl, sizeof xl, "%s%s", o->vary[0].key, p.xlog ? " (log scale)" : "");
    p.title = title;
    p.subtitle = sub;
    p.xlabel = xl;
    p.ylabel = "predicted time (s)";
    if (p.best_series >= 0) {
        snprintf(bl, sizeof bl, "%s = %g: %.4g s", o->vary[0].key,
                 ps[p.best_series].x[p.best_point], ps[p.best_series].y[p.best_point]);
        p.best_label = bl;
    }
    rc = plot_write(o->plot, &p);
    free(pts);
    return rc;
}

/* The start of the sweep's report: JSON's program and keys, or the table's heads. */
static void vary_print_start(FILE *out, const sim_tree *t, const sim_tree *cuts,
                             const sim_machine *m, const sim_opts *o,
                             const sim_sampling *smp, const char *program)
{
    if (o->format == SIM_FMT_JSON) {
        json_program(out, m, program);
        fprintf(out, "  \"sequential_s\": %.9g,\n  \"vary\": [", base_time(t, cuts, o, m));
        for (int k = 0; k < o->nvary; k++) {
            fprintf(out, k ? ", " : "");
            json_str(out, o->vary[k].key);
        }
        fprintf(out, "],\n  \"predictions\": [\n");
    } else if (o->format == SIM_FMT_TABLE) {
        print_head(out, t, m, smp, program, base_time(t, cuts, o, m));
        vary_table_head(out, o, m);
    }
}

/* For the plot: combination c's value x and each mode's best time of R (NAN: none), in
   xy (per mode, nc values then nc times). */
static void vary_mode_bests(double *xy, long nc, long c, double x, const rows *R)
{
    for (int id = 1; id <= SIM_NMODES; id++) {
        double *vx = xy + (size_t)(id - 1) * 2 * nc, *vy = vx + nc;
        vx[c] = x;
        vy[c] = NAN;
        for (int i = 0; i < R->n; i++)
            if (R->v[i].s.mode == id && !isnan(R->v[i].r.time) &&
                (isnan(vy[c]) || R->v[i].r.time < vy[c]))
                vy[c] = R->v[i].r.time;
    }
}

/* Combination c of nc (values val) in the report: CSV's rows (head: the keys' columns,
   before the first), a JSON prediction, or a row of the table. */
static void vary_print_one(FILE *out, const sim_opts *o, long c, long nc, const double *val,
                           const rows *R, int best, double t1, const char *head,
                           const sim_note_list *L)
{
    if (o->format == SIM_FMT_CSV) {
        char pre[128];
        int len = 0;
        for (int k = 0; k < o->nvary; k++)
            len += snprintf(pre + len, sizeof pre - len, "%.9g,", val[k]);
        print_csv(out, R->dcol, R->v, R->n, t1, c ? NULL : head, pre);
    } else if (o->format == SIM_FMT_JSON) {
        fprintf(out, "    {");
        json_vary_values(out, o, val);
        fprintf(out, "\"sequential_s\": %.9g, \"best\": ", t1);
        json_best(out, R->dcol, R->v, best);
        fprintf(out, ", \"settings\": [\n");
        json_settings(out, R->dcol, R->v, R->n, t1, "      ");
        fprintf(out, "    ], ");
        json_notes(out, L, "    ");
        fprintf(out, "}%s\n", c + 1 < nc ? "," : "");
    } else {
        vary_table_row(out, o, val, R, best, t1);
    }
}

/* The end of the sweep's report: the masters reduced; in the table, the notes of every
   combination and what the simulation took. */
static void vary_print_end(FILE *out, const sim_opts *o, const rows *R,
                           const sim_note_list *notes, long nc, long long events, double wall,
                           const sim_sampling *smp)
{
    if (o->format == SIM_FMT_JSON) {
        fprintf(out, "  ],\n  \"masters_reduced\": ");
        json_str(out, R->notes);
        fprintf(out, "\n}\n");
    } else if (R->notes[0]) {
        if (o->format == SIM_FMT_CSV)
            fprintf(stderr, "wtc predict: masters reduced to P - 1: %s\n", R->notes);
        else
            fprintf(out, "(masters reduced to P - 1, at least one worker, as the runtime "
                         "does: %s)\n", R->notes);
    }
    if (o->format == SIM_FMT_TABLE) {
        sim_notes_sweep_heading(out, o);
        for (long c = 0; c < nc; c++)
            sim_notes_lines(out, &notes[c], 1);
        fprintf(out, "\nsimulator: %lld messages in %.3f s (%.2f million messages/s)\n",
                events, wall, wall > 0 ? events / wall / 1e6 : 0);
        fprintf(out, "prediction took %.3f s (%s %.3f s, simulating %.3f s)\n",
                smp->rec_seconds + wall, o->profile ? "reading the profile"
                : "running and recording the program once", smp->rec_seconds, wall);
    }
}

/* --wtc-vary: the settings asked for, simulated on the machine of every combination of
   the values (one recording for all); the table gives the best setting per combination,
   CSV and JSON every setting, with the values in front; --wtc-plot (one key) draws the
   time against the value. The notes are found for every combination (each names it):
   in the table after the sweep's, in JSON in each prediction, with CSV on stderr.
   Returns -1 when the plot could not be written. */
static int report_vary(FILE *out, sim_tree *t, sim_tree *cuts, const sim_machine *m,
                       const sim_opts *o, const sim_sampling *smp, const char *program)
{
    rows R;
    long nc = vary_count(o);
    double wall = 0, val[SIM_MAXVARY];
    double *xy = o->plot ? malloc((size_t)(2 * SIM_NMODES * nc) * sizeof *xy) : NULL;
    sim_note_list *notes = calloc((size_t)nc, sizeof *notes);
    long long events = 0;
    int maxP = 1, len = 0, rc = 0;
    if ((o->plot && !xy) || !notes) {
        fprintf(stderr, "wtc predict: out of memory for the sweep\n");
        sim_exit(2);
    }
    char head[128] = "", ctx[160];
    settings(o, &R);
    if (getenv("WTC_DECISIONS"))
        fprintf(stderr, "wtc predict: WTC_DECISIONS ignored with --wtc-vary\n");
    for (int k = 0; k < o->nvary; k++)
        len += snprintf(head + len, sizeof head - len, "%s,", o->vary[k].key);
    vary_print_start(out, t, cuts, m, o, smp, program);
    for (long c = 0; c < nc; c++) {
        sim_machine mv;
        vary_machine(o, c, m, &mv, val);
        double t1 = base_time(t, cuts, o, &mv);
        int best = simulate(t, cuts, &mv, &R, t1, &wall, &events, &maxP, 0);
        wall += sim_notes_find(&notes[c], t, &mv, o, R.v, R.n, best, program,
                               vary_ctx(o, val, ctx, sizeof ctx), &events);
        if (xy)
            vary_mode_bests(xy, nc, c, val[0], &R);
        vary_print_one(out, o, c, nc, val, &R, best, t1, head, &notes[c]);
        notes_on_stderr(o, &notes[c]);
    }
    vary_print_end(out, o, &R, notes, nc, events, wall, smp);
    if (xy) {
        rc = vary_plot(o, nc, xy, m, program);
        free(xy);
    }
    for (long c = 0; c < nc; c++)
        sim_notes_free(&notes[c]);
    free(notes);
    free(R.v);
    return rc;
}

/* The best row of each P of the list, for the profile's --wtc-auto table. */
static void best_per_procs(const sim_opts *o, const rows *R, sim_best *b)
{
    for (int ip = 0; ip < o->nprocs; ip++) {
        int bi = -1;
        for (int i = 0; i < R->n; i++)
            if (R->v[i].s.procs == o->procs[ip] && !isnan(R->v[i].r.time) &&
                (bi < 0 || R->v[i].r.time < R->v[bi].r.time))
                bi = i;
        b[ip].s = bi >= 0 ? R->v[bi].s : (sim_setting){ .mode = SIM_SIMPLE, .procs = o->procs[ip] };
        b[ip].depth = bi >= 0 ? R->v[bi].depth : -1;
        b[ip].time = bi >= 0 ? R->v[bi].r.time : NAN;
    }
}

/* The table's lines after the head: the settings, the masters reduced, a warning when
   P goes past the calibration, and the best setting. */
static void print_table_rows(FILE *out, const sim_machine *m, const rows *R, int best,
                             double t1, int maxP)
{
    print_table(out, R->dcol, R->v, R->n, t1);
    print_runs(out, m, R->v, R->n);
    if (R->notes[0])
        fprintf(out, "(masters reduced to P - 1, at least one worker, as the runtime "
                     "does: %s)\n", R->notes);
    if (m->procs > 0 && maxP > m->procs)
        fprintf(out, "(the machine file was calibrated up to P = %.0f: its per-rank "
                     "overheads o_sb, o_rb are extrapolated to P = %d; calibrate with "
                     "mpiexec -n %d)\n", m->procs, maxP, maxP);
    if (best >= 0)
        print_best(out, R->dcol, &R->v[best], t1);
}

/* The table's last lines: what the simulation and the recording (or profile) took. */
static void print_took(FILE *out, const sim_opts *o, const sim_sampling *smp,
                       long long events, double wall, double rate)
{
    fprintf(out, "\nsimulator: %lld messages in %.3f s (%.2f million messages/s)\n",
            events, wall, rate / 1e6);
    fprintf(out, "prediction took %.3f s (%s %.3f s, simulating %.3f s)\n",
            smp->rec_seconds + wall, o->profile ? "reading the profile"
            : "running and recording the program", smp->rec_seconds, wall);
}

/* --wtc-trace, --wtc-stats (the options name one setting then: sim_opts_parse) and
   --wtc-plot; -1 when one of them failed. */
static int report_extras(FILE *out, const sim_tree *t, sim_tree *cuts, const sim_machine *m,
                         const sim_opts *o, const rows *R, double t1, int best,
                         const char *program)
{
    const row *v = R->v;
    int rc = 0;
    if ((o->trace || o->stats) && R->n == 1 &&
        report_timeline(o->format == SIM_FMT_TABLE ? out : stderr,
                        v[0].di >= 0 ? &cuts[v[0].di] : t, m, o, &v[0]) < 0)
        rc = -1;
    if (o->plot && report_plot(R, o, t1, best, m, program) < 0)
        rc = -1;
    return rc;
}

/* The prediction of SPEC 5 for the settings of o (--wtc-vary: report_vary) in o's
   format; bestp, when given, takes the best setting per P. -1 when an output failed. */
int sim_report(FILE *out, sim_tree *t, const sim_machine *m, const sim_opts *o,
               const sim_sampling *smp, const char *program, sim_tree *cuts,
               sim_best *bestp)
{
    rows R;
    int best, maxP = 1, rc;
    double t1 = base_time(t, cuts, o, m), wall = 0;
    long long events = 0;
    if (o->nvary) {
        return report_vary(out, t, cuts, m, o, smp, program);
    }
    settings(o, &R);
    best = simulate(t, cuts, m, &R, t1, &wall, &events, &maxP, 1);
    if (bestp)
        best_per_procs(o, &R, bestp);
    sim_note_list L;
    wall += sim_notes_find(&L, t, m, o, R.v, R.n, best, program, NULL, &events);
    double rate = wall > 0 ? events / wall : 0;
    if (o->format == SIM_FMT_CSV) {
        print_csv(out, R.dcol, R.v, R.n, t1, "", "");
        if (R.notes[0])
            fprintf(stderr, "wtc predict: masters reduced to P - 1: %s\n", R.notes);
    } else if (o->format == SIM_FMT_JSON) {
        print_json(out, &R, t1, best, m, smp, program, rate, &L);
    } else {
        print_head(out, t, m, smp, program, t1);
        print_table_rows(out, m, &R, best, t1, maxP);
        sim_notes_print(out, &L);
        print_advice(out, t, m, maxP);
        print_took(out, o, smp, events, wall, rate);
    }
    notes_on_stderr(o, &L);
    rc = report_extras(out, t, cuts, m, o, &R, t1, best, program);
    sim_notes_free(&L);
    free(R.v);
    return rc;
}
