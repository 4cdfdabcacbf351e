/* sim/profile.c - the program profile (doc/predictor.md, "Profiles"): the recording
 * of one run (tree above the cut-off, leaf times, sampling figures, bytes) written to a
 * text file that --wtc-profile predicts from without running the program, on any
 * machine; plus the table of best settings per P that the program's --wtc-auto reads
 * (common/profile.c reads the frame and that table). Numbers are written as C99 hex
 * floats, so a prediction from the file is the prediction from the run, bit for bit. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "wtcrt.h"
#include "sim.h"

/* The body, without the frame (version line, program line, end line). */
static void write_body(FILE *f, const sim_tree *t, const sim_sampling *s, int rec_depth,
                       const sim_best *best, int nbest, const sim_machine *m,
                       const char *mspec)
{
    fprintf(f, "recorded_depth %d\n", rec_depth);
    fprintf(f, "sampling %ld %ld %a %a %a %d %ld %a %d %ld %ld %ld %d %ld %ld %ld %a\n",
            s->leaves, s->executed, s->total, s->err_lo, s->err_hi, s->mode, s->n, s->pct,
            s->chunks, s->in_place, s->dear, s->preempted, s->replicate, s->repl_subtrees,
            s->repl_calls, s->repl_leaves, s->rec_seconds);
    fprintf(f, "checks %a %a %ld %ld %ld %a\n", s->pass1, s->pass2, s->outliers,
            s->repl_checked, s->repl_unequal, s->repl_maxdiff);
    fprintf(f, "main_time %a\nnodes %d\n", t->main_time, t->nnodes);
    for (int i = 0; i < t->nnodes; i++) {
        const sim_node *n = &t->nodes[i];
        fprintf(f, "%a %d %d %d %u %u\n", n->t_after, n->first_par, n->leaf, n->depth,
                n->task_bytes, n->result_bytes);
    }
    fprintf(f, "pars %d\n", t->npars);
    for (int i = 0; i < t->npars; i++) {
        const sim_par *p = &t->pars[i];
        fprintf(f, "%a %d %d %d %d %a %d\n", p->t_before, p->first_child, p->nchild, p->cond,
                p->next, p->t_spawn, p->site);
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
    if (nbest <= 0)
        return;
    fprintf(f, "auto %d %s\nspec %s\n", nbest, m->name, mspec ? mspec : "default");
    for (int i = 0; i < nbest; i++)
        fprintf(f, "best %d %s %d %d %d %.9g\n", best[i].s.procs,
                wtcrt_mode_name(best[i].s.mode), best[i].s.masters, best[i].s.batch,
                best[i].depth, best[i].time);
}

int sim_profile_save(const char *path, const wtc_program *prog, const sim_tree *t,
                     const sim_sampling *s, int rec_depth, const sim_best *best, int nbest,
                     const sim_machine *m, const char *mspec, char *err, size_t errsz)
{
    char *buf = NULL, tmp[4200];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int ok;
    if (!f)
        return snprintf(err, errsz, "%s: out of memory", path), -1;
    fprintf(f, WTCRT_PROFILE_MAGIC " %d\nprogram %016llx %s\n", WTCRT_PROFILE_VERSION,
            wtcrt_program_fingerprint(prog), prog->source);
    write_body(f, t, s, rec_depth, best, nbest, m, mspec);
    fclose(f);
    /* written whole to a temporary file next to it, then renamed: never half a profile */
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    f = fopen(tmp, "w");
    ok = f && fwrite(buf, 1, len, f) == len &&
         fprintf(f, "end %016llx\n", wtcrt_checksum(buf, len)) > 0;
    ok = f && fclose(f) == 0 && ok;
    free(buf);
    if (!ok || rename(tmp, path) != 0) {
        snprintf(err, errsz, "%s: cannot write: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
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

static void read_sampling(cur *c, sim_sampling *s, int *rec_depth)
{
    expect(c, "recorded_depth");
    *rec_depth = (int)get_long(c);
    expect(c, "sampling");
    s->leaves = get_long(c);
    s->executed = get_long(c);
    s->total = get_double(c);
    s->err_lo = get_double(c);
    s->err_hi = get_double(c);
    s->mode = (int)get_long(c);
    s->n = get_long(c);
    s->pct = get_double(c);
    s->chunks = (int)get_long(c);
    s->in_place = get_long(c);
    s->dear = get_long(c);
    s->preempted = get_long(c);
    s->replicate = (int)get_long(c);
    s->repl_subtrees = get_long(c);
    s->repl_calls = get_long(c);
    s->repl_leaves = get_long(c);
    s->rec_seconds = get_double(c);
    expect(c, "checks");
    s->pass1 = get_double(c);
    s->pass2 = get_double(c);
    s->outliers = get_long(c);
    s->repl_checked = get_long(c);
    s->repl_unequal = get_long(c);
    s->repl_maxdiff = get_double(c);
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

/* The tree; indices are checked so that no file can make the simulator read outside
   it (callers before children, every par's children inside the node array). */
static void read_tree(cur *c, sim_tree *t)
{
    long n, np, nr;
    expect(c, "main_time");
    t->main_time = get_double(c);
    expect(c, "nodes");
    if ((n = get_long(c)) < 1 || n > (1L << 30) || c->bad)
        return (void)(c->bad = 1);
    sim_tree_add_nodes(t, (int)n);
    for (long i = 0; i < n && !c->bad; i++) {
        sim_node *x = &t->nodes[i];
        x->t_after = get_double(c);
        x->first_par = (int)get_long(c);
        x->leaf = (int)get_long(c);
        x->depth = (int)get_long(c);
        x->task_bytes = (unsigned)get_long(c);
        x->result_bytes = (unsigned)get_long(c);
    }
    expect(c, "pars");
    if ((np = get_long(c)) < 0 || np > (1L << 30) || c->bad)
        return (void)(c->bad = 1);
    if (!(t->pars = malloc((size_t)(np ? np : 1) * sizeof *t->pars)))
        exit(2);
    for (long i = 0; i < np && !c->bad; i++) {
        double tb = get_double(c);
        int first = (int)get_long(c), nch = (int)get_long(c), cond = (int)get_long(c);
        int next = (int)get_long(c);
        if (first < 1 || nch < 0 || first > n - nch || next < -1 || next >= np)
            c->bad = 1;
        t->pars[i] = (sim_par){ tb, first, nch, cond, next, get_double(c), -1 };
        t->pars[i].site = (int)get_long(c);
        t->npars = t->cappars = (int)i + 1;
    }
    for (long i = 0; i < n && !c->bad; i++)
        if (t->nodes[i].first_par < -1 || t->nodes[i].first_par >= np)
            c->bad = 1;
    for (long i = 0; i < n && !c->bad; i++) /* children after their caller */
        for (int p = t->nodes[i].first_par, k = 0; p >= 0 && !c->bad; p = t->pars[p].next)
            if (t->pars[p].first_child <= i || ++k > np)
                c->bad = 1;
    expect(c, "regions");
    if ((nr = get_long(c)) < 0 || nr > n || c->bad)
        return (void)(c->bad = 1);
    for (long i = 0; i < nr && !c->bad; i++) {
        long root = get_long(c), bytes = get_long(c);
        double at = get_double(c);
        long mode = get_long(c), masters = get_long(c);
        if (root < 0 || root >= n || !(at >= 0) || mode < 0 || mode > SIM_NMODES ||
            masters < 0)
            c->bad = 1;
        else {
            int k = sim_tree_add_region(t, (int)root, (unsigned)bytes);
            t->regions[k].main_at = at;
            t->regions[k].mode = (int)mode;
            t->regions[k].masters = (int)masters;
        }
    }
    read_sites(c, t);
    for (long i = 0; i < np && !c->bad; i++)
        if (t->pars[i].site < -1 || t->pars[i].site >= t->nsites)
            c->bad = 1;
}

int sim_profile_load(const char *path, const wtc_program *prog, sim_tree *t,
                     sim_sampling *s, int *rec_depth, char *err, size_t errsz)
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
    read_sampling(&c, s, rec_depth);
    if (!c.bad)
        read_tree(&c, t);
    free(text);
    if (c.bad) {
        sim_tree_free(t);
        snprintf(err, errsz, "%s: damaged profile (the recording does not parse)", path);
        return -1;
    }
    sim_tree_finish(t);
    return 0;
}
