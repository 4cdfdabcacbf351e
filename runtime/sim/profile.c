/* sim/profile.c - the program profile (doc/predictor.md, "Profiles"): the recording
 * of one run (tree above the cut-off, leaf times, sampling figures, bytes) written to a
 * text file that --wtc-profile predicts from without running the program, on any
 * machine; plus the table of best settings per P that the program's --wtc-auto reads
 * (common/profile.c reads the frame and that table). Numbers are written as C99 hex
 * floats, so a prediction from the file is the prediction from the run, bit for bit. */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wtcrt.h"
#include "sim.h"

/* The largest time (seconds) and count a profile's recording may hold: any run's are
   far below, and a value edited by hand above them is refused as damaged. */
#define PROF_TIME_MAX 1e12
#define PROF_COUNT_MAX 1e15

/* The recording's sampling figures as the profile keeps them: the fields of each line
   in order (one list for writing and reading), each with the range the recording can
   give it (a profile edited by hand, its checksum made again, predicted "total nan s",
   a leaf count of -5 and a spread of -100 % with status 0: a helper's bug hunt). */
typedef struct samp_field {
    char kind;            /* 'l' long, 'i' int, 'd' double (finite) */
    size_t off;
    double lo, hi;        /* the values a recording gives it */
} samp_field;
#define SF(k, f, lo, hi) { k, offsetof(sim_sampling, f), lo, hi }
#define SF_TIME(f) SF('d', f, 0, PROF_TIME_MAX)
#define SF_COUNT(f) SF('l', f, 0, PROF_COUNT_MAX)
static const samp_field samp_line[] = {
    SF_COUNT(leaves), SF_COUNT(executed), SF_TIME(total),
    SF('d', err_lo, -PROF_TIME_MAX, 0), SF('d', err_hi, 0, PROF_TIME_MAX), /* bootstrap */
    SF('i', mode, SIM_SAMPLE_ERROR, SIM_SAMPLE_ALL), SF('l', n, 0, (double)LONG_MAX),
    SF('d', pct, 0, 100), SF('i', chunks, 0, INT_MAX), SF_COUNT(in_place), SF_COUNT(dear),
    SF_COUNT(preempted), SF('i', replicate, 0, 1 << 20), SF_COUNT(repl_subtrees),
    SF_COUNT(repl_calls), SF_COUNT(repl_leaves), SF_TIME(rec_seconds),
};
static const samp_field checks_line[] = {
    SF_TIME(pass1), SF_TIME(pass2), SF_COUNT(outliers), SF_COUNT(repl_checked),
    SF_COUNT(repl_unequal), SF('d', repl_maxdiff, 0, 1), SF_COUNT(same_args),
    SF('i', passes, 0, SIM_RETIME_PASSES), SF_TIME(pass_kept),
};

/* "kw v1 v2 ...\n": the fields of s listed in v[0..n-1]. */
static void write_fields(FILE *f, const char *kw, const sim_sampling *s, const samp_field *v,
                         size_t n)
{
    const char *b = (const char *)s;
    fputs(kw, f);
    for (size_t i = 0; i < n; i++) {
        if (v[i].kind == 'd')
            fprintf(f, " %a", *(const double *)(b + v[i].off));
        else if (v[i].kind == 'i')
            fprintf(f, " %d", *(const int *)(b + v[i].off));
        else
            fprintf(f, " %ld", *(const long *)(b + v[i].off));
    }
    fputc('\n', f);
}

/* A recorded tree: main's time, nodes, pars, regions, par statements. */
static void write_tree(FILE *f, const sim_tree *t)
{
    fprintf(f, "main_time %a\nmain_faults %ld\nnodes %d\n", t->main_time, t->main_faults,
            t->nnodes);
    for (int i = 0; i < t->nnodes; i++) {
        const sim_node *n = &t->nodes[i];
        fprintf(f, "%a %d %d %d %u %u %u %u\n", n->t_after, n->first_par, n->leaf, n->depth,
                n->task_bytes, n->result_bytes, n->task_copied, n->result_copied);
    }
    fprintf(f, "pars %d\n", t->npars);
    for (int i = 0; i < t->npars; i++) {
        const sim_par *p = &t->pars[i];
        fprintf(f, "%a %d %d %d %d %a %d %d\n", p->t_before, p->first_child, p->nchild,
                p->cond, p->next, p->t_spawn, p->site, p->depth);
    }
    fprintf(f, "regions %d\n", t->nregions);
    for (int i = 0; i < t->nregions; i++)
        fprintf(f, "%d %u %a %d %d\n", t->regions[i].root, t->regions[i].begin_bytes,
                t->regions[i].main_at, t->regions[i].mode, t->regions[i].masters);
    /* the par statements: line, column, then the file name to the end of the line */
    fprintf(f, "sites %d\n", t->nsites);
    for (int i = 0; i < t->nsites; i++)
        fprintf(f, "%d %d %s\n", t->sites[i].line, t->sites[i].col,
                t->sites[i].file ? t->sites[i].file : "");
}

/* The body, without the frame (version line, program line, end line). */
static void write_body(FILE *f, const sim_tree *t, const sim_sampling *s, int rec_depth,
                       const sim_aparts *ap, const sim_best *best, int nbest,
                       const sim_machine *m, const char *mspec)
{
    fprintf(f, "recorded_depth %d\n", rec_depth);
    write_fields(f, "sampling", s, samp_line, sizeof samp_line / sizeof samp_line[0]);
    write_fields(f, "checks", s, checks_line, sizeof checks_line / sizeof checks_line[0]);
    write_tree(f, t);
    fprintf(f, "apart %d\n", ap ? ap->n : 0);
    for (int k = 0; ap && k < ap->n; k++) {
        fprintf(f, "depth %d\n", ap->depth[k]);
        write_tree(f, &ap->tree[k]);
    }
    if (nbest <= 0)
        return;
    fprintf(f, "auto %d %s\nspec %s\n", nbest, m->name, mspec ? mspec : "default");
    for (int i = 0; i < nbest; i++)
        fprintf(f, "best %d %s %d %d %d %.9g\n", best[i].s.procs,
                wtcrt_mode_name(best[i].s.mode), best[i].s.masters, best[i].s.batch,
                best[i].depth, best[i].time);
}

/* The profile's text and its end line (the body's checksum), for wtcrt_write_atomic. */
typedef struct profile_text {
    const char *buf;
    size_t len;
} profile_text;

static void profile_file(FILE *f, const void *ctx)
{
    const profile_text *x = ctx;
    fwrite(x->buf, 1, x->len, f);
    fprintf(f, "end %016llx\n", wtcrt_checksum(x->buf, x->len));
}

int sim_profile_save(const char *path, const wtc_program *prog, const sim_tree *t,
                     const sim_sampling *s, int rec_depth, const sim_aparts *ap,
                     const sim_best *best, int nbest, const sim_machine *m,
                     const char *mspec, char *err, size_t errsz)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    profile_text text;
    int rc;
    if (!f)
        return snprintf(err, errsz, "%s: out of memory", path), -1;
    fprintf(f, WTCRT_PROFILE_MAGIC " %d\nprogram %016llx %s\n", WTCRT_PROFILE_VERSION,
            wtcrt_program_fingerprint(prog), prog->source);
    write_body(f, t, s, rec_depth, ap, best, nbest, m, mspec);
    fclose(f);
    /* never half a profile: the common writer's temporary file and rename */
    text = (profile_text){ buf, len };
    rc = wtcrt_write_atomic(path, profile_file, &text);
    if (rc < 0)
        snprintf(err, errsz, "%s: cannot write: %s", path, strerror(errno));
    free(buf);
    return rc;
}

/* A cursor over the body: every read checks what it got. */
typedef struct cur {
    const char *s;
    int bad;
} cur;

static long get_long(cur *c)
{
    char *end;
    long v = strtol(c->s, &end, 10);
    if (end == c->s)
        c->bad = 1;
    c->s = end;
    return v;
}

static double get_double(cur *c)
{
    char *end;
    double v = strtod(c->s, &end);
    if (end == c->s)
        c->bad = 1;
    c->s = end;
    return v;
}

/* A time in seconds: finite, 0 or more (a profile edited by hand and its checksum made
   again gave -1 s and nan s predictions: a helper's bug hunt). */
static double get_time(cur *c)
{
    double v = get_double(c);
    if (!(v >= 0 && v < PROF_TIME_MAX))
        c->bad = 1;
    return v;
}

/* Skips the keyword 'kw' (after white space). */
static void expect(cur *c, const char *kw)
{
    while (*c->s == ' ' || *c->s == '\n')
        c->s++;
    if (strncmp(c->s, kw, strlen(kw)) != 0)
        c->bad = 1;
    else
        c->s += strlen(kw);
}

/* Reads the fields v[0..n-1] of s after the keyword kw, each in its range (a double
   finite: NaN fails every comparison). */
static void read_fields(cur *c, const char *kw, sim_sampling *s, const samp_field *v,
                        size_t n)
{
    char *b = (char *)s;
    expect(c, kw);
    for (size_t i = 0; i < n; i++) {
        long w = v[i].kind == 'd' ? 0 : get_long(c);
        double x = v[i].kind == 'd' ? get_double(c) : (double)w;
        if (!(x >= v[i].lo && x <= v[i].hi))
            c->bad = 1;
        else if (v[i].kind == 'd')
            *(double *)(b + v[i].off) = x;
        else if (v[i].kind == 'i')
            *(int *)(b + v[i].off) = (int)w;
        else
            *(long *)(b + v[i].off) = w;
    }
}

/* The recorded depth (-1: the program's cond:) and the sampling figures, each in its
   range, the leaves run and the pars found unequal no more than the leaves and the pars
   checked. */
static void read_sampling(cur *c, sim_sampling *s, int *rec_depth)
{
    long d;
    expect(c, "recorded_depth");
    if ((d = get_long(c)) < -1 || d > WTCRT_MAX_DEPTH)
        c->bad = 1;
    *rec_depth = (int)(c->bad ? -1 : d);
    read_fields(c, "sampling", s, samp_line, sizeof samp_line / sizeof samp_line[0]);
    read_fields(c, "checks", s, checks_line, sizeof checks_line / sizeof checks_line[0]);
    if (s->executed > s->leaves || s->repl_unequal > s->repl_checked)
        c->bad = 1;
}

/* The par statements; their file names are kept for the tree's life (a profile is read
   once per run). */
static void read_sites(cur *c, sim_tree *t)
{
    long ns;
    expect(c, "sites");
    if ((ns = get_long(c)) < 0 || ns > (1L << 20) || c->bad)
        return (void)(c->bad = 1);
    for (long i = 0; i < ns && !c->bad; i++) {
        long line = get_long(c), col = get_long(c);
        size_t len;
        char *file;
        if (*c->s == ' ')
            c->s++;
        len = strcspn(c->s, "\n");
        if (c->bad || line < 0 || col < 0 || !(file = strndup(c->s, len)))
            return (void)(c->bad = 1);
        c->s += len;
        sim_tree_add_site(t, file, (int)line, (int)col);
    }
}

/* main's own time and the node records; returns their number (0: a program that ran no
   region, whose profile was refused as damaged when read back). */
static long read_nodes(cur *c, sim_tree *t)
{
    long n;
    expect(c, "main_time");
    t->main_time = get_time(c);
    expect(c, "main_faults");
    if ((t->main_faults = get_long(c)) < 0)
        c->bad = 1;
    expect(c, "nodes");
    if ((n = get_long(c)) < 0 || n > (1L << 30) || c->bad)
        return c->bad = 1, 0;
    sim_tree_add_nodes(t, (int)n);
    for (long i = 0; i < n && !c->bad; i++) {
        sim_node *x = &t->nodes[i];
        x->t_after = get_time(c);
        x->first_par = (int)get_long(c);
        x->leaf = (int)get_long(c);
        x->depth = (int)get_long(c);
        x->task_bytes = (unsigned)get_long(c);
        x->result_bytes = (unsigned)get_long(c);
        x->task_copied = (unsigned)get_long(c);
        x->result_copied = (unsigned)get_long(c);
        if (x->task_copied > x->task_bytes || x->result_copied > x->result_bytes ||
            x->depth < -1 || x->depth > WTCRT_MAX_DEPTH)
            c->bad = 1;
    }
    return n;
}

/* The par records, their children inside the n nodes; returns their number. */
static long read_pars(cur *c, sim_tree *t, long n)
{
    long np;
    expect(c, "pars");
    if ((np = get_long(c)) < 0 || np > (1L << 30) || c->bad)
        return c->bad = 1, 0;
    if (!(t->pars = malloc((size_t)(np ? np : 1) * sizeof *t->pars)))
        sim_exit(2);
    for (long i = 0; i < np && !c->bad; i++) {
        double tb = get_time(c);
        int first = (int)get_long(c), nch = (int)get_long(c), cond = (int)get_long(c);
        int next = (int)get_long(c);
        if (first < 1 || nch < 0 || first > n - nch || next < -1 || next >= np)
            c->bad = 1;
        t->pars[i] = (sim_par){ tb, first, nch, cond, next, get_time(c), -1, 0 };
        t->pars[i].site = (int)get_long(c);
        t->pars[i].depth = (int)get_long(c);
        t->npars = t->cappars = (int)i + 1;
    }
    return np;
}

/* Every node's first par inside the np pars, every par in one node's list, and every
   child after its caller and the child of one par (called[] marks them, for
   read_regions): a tree, as the recorder makes it. A profile edited by hand and its
   checksum made again whose pars shared children (node i spawning i+1 and i+2) made a
   tree of 60 nodes a DAG of 10^12 calls, and the simulation ran for hours (a helper's
   bug hunt); nodes sharing one list of pars did the same. */
static void check_links(cur *c, const sim_tree *t, long n, long np, unsigned char *called)
{
    unsigned char *listed = calloc((size_t)(np ? np : 1), 1);
    if (!listed)
        sim_exit(2);
    for (long i = 0; i < n && !c->bad; i++)
        if (t->nodes[i].first_par < -1 || t->nodes[i].first_par >= np)
            c->bad = 1;
    for (long i = 0; i < n && !c->bad; i++) /* children after their caller */
        for (int p = t->nodes[i].first_par; p >= 0 && !c->bad; p = t->pars[p].next)
            if (listed[p]++ || t->pars[p].first_child <= i) /* also a cycle of next */
                c->bad = 1;
    for (long p = 0; p < np && !c->bad; p++) /* each node the child of one par */
        for (int k = 0; k < t->pars[p].nchild && !c->bad; k++)
            if (called[t->pars[p].first_child + k]++)
                c->bad = 1;
    free(listed);
}

/* The regions, each rooted at one of the n nodes, a node no par calls and no other
   region has (called[]: check_links'), so that the regions' trees are apart. */
static void read_regions(cur *c, sim_tree *t, long n, unsigned char *called)
{
    long nr;
    expect(c, "regions");
    if ((nr = get_long(c)) < 0 || nr > n || c->bad)
        return (void)(c->bad = 1);
    for (long i = 0; i < nr && !c->bad; i++) {
        long root = get_long(c), bytes = get_long(c);
        double at = get_double(c);
        long mode = get_long(c), masters = get_long(c);
        if (root < 0 || root >= n || called[root]++ || !(at >= 0) || mode < 0 ||
            mode > SIM_NMODES || masters < 0)
            c->bad = 1;
        else {
            int k = sim_tree_add_region(t, (int)root, (unsigned)bytes);
            t->regions[k].main_at = at;
            t->regions[k].mode = (int)mode;
            t->regions[k].masters = (int)masters;
        }
    }
}

/* The tree; indices are checked so that no file can make the simulator read outside
   it (callers before children, every par's children inside the node array), nor
   simulate a node twice (a tree, its regions apart). Each part
   is read only when the ones before it parsed. */
static void read_tree(cur *c, sim_tree *t)
{
    long n, np;
    unsigned char *called;
    n = read_nodes(c, t);
    if (c->bad)
        return;
    np = read_pars(c, t, n);
    if (c->bad)
        return;
    if (!(called = calloc((size_t)(n ? n : 1), 1)))
        sim_exit(2);
    check_links(c, t, n, np, called);
    if (!c->bad)
        read_regions(c, t, n, called);
    free(called);
    if (c->bad)
        return;
    read_sites(c, t);
    for (long i = 0; i < np && !c->bad; i++)
        if (t->pars[i].site < -1 || t->pars[i].site >= t->nsites)
            c->bad = 1;
}

/* A tree recorded to depth D >= 0 (--wtc-depth replaced every cond: by wtc_depth < D):
   every par's cond says whether its depth is below D. A recorded_depth edited by hand
   (5 in a profile of fib recorded with its cond:, pars spawning down to depth 12) was
   predicted as that depth's cut. */
static void check_depth(cur *c, const sim_tree *t, int D)
{
    for (int i = 0; D >= 0 && i < t->npars && !c->bad; i++)
        if (!t->pars[i].cond != !(t->pars[i].depth < D))
            c->bad = 1;
}

void sim_profile_tree_free(sim_tree *t)
{
    for (int i = 0; i < t->nsites; i++) /* read_sites' copies */
        free((char *)t->sites[i].file);
    sim_tree_free(t);
}

/* The recordings apart (a list's shallower depths) into ap: a count, then each one's
   depth and tree. A depth is a --wtc-depth (0 to WTCRT_MAX_DEPTH, each once, below the
   recording's own). */
static void read_aparts(cur *c, sim_aparts *ap, int rec_depth)
{
    long n;
    expect(c, "apart");
    if ((n = get_long(c)) < 0 || n > SIM_MAXLIST || (n > 0 && rec_depth < 0) || c->bad)
        return (void)(c->bad = 1);
    for (long k = 0; k < n && !c->bad; k++) {
        long d;
        expect(c, "depth");
        d = get_long(c);
        for (int j = 0; j < ap->n; j++)
            if (ap->depth[j] == d)
                c->bad = 1;
        if (c->bad || d < 0 || d >= rec_depth)
            return (void)(c->bad = 1);
        sim_tree_init(&ap->tree[ap->n]);
        ap->depth[ap->n] = (int)d;
        read_tree(c, &ap->tree[ap->n]);
        check_depth(c, &ap->tree[ap->n], (int)d);
        ap->n++;
    }
}

int sim_profile_load(const char *path, const wtc_program *prog, sim_tree *t,
                     sim_sampling *s, int *rec_depth, sim_aparts *ap, char *err,
                     size_t errsz)
{
    size_t len;
    char *text = wtcrt_read_file(path, &len, err, errsz);
    cur c = { NULL, 0 };
    if (!text)
        return -1;
    if (!(c.s = wtcrt_profile_open(path, text, len, prog, err, errsz))) {
        free(text);
        return -1;
    }
    memset(s, 0, sizeof *s);
    sim_tree_init(t);
    ap->n = 0;
    read_sampling(&c, s, rec_depth);
    if (!c.bad)
        read_tree(&c, t);
    if (!c.bad)
        check_depth(&c, t, *rec_depth);
    if (!c.bad)
        read_aparts(&c, ap, *rec_depth);
    free(text);
    if (c.bad) {
        sim_profile_tree_free(t);
        for (int k = 0; k < ap->n; k++)
            sim_profile_tree_free(&ap->tree[k]);
        ap->n = 0;
        snprintf(err, errsz, "%s: damaged profile (the recording does not parse)", path);
        return -1;
    }
    sim_tree_finish(t);
    for (int k = 0; k < ap->n; k++)
        sim_tree_finish(&ap->tree[k]);
    return 0;
}
