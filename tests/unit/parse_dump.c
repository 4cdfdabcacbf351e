/* parse_dump.c - standalone front-end driver for the parser tests.
 *
 *   parse_dump [--user PATH] [--quiet] [--spans] FILE.i
 *
 * parses a preprocessed file and prints the AST dump (--quiet: nothing; --spans: the
 * exact text of the spans the code generator copies, for the user's function
 * definitions and top-level items).
 *
 * PATH is the user's file as named in the line markers (default: FILE.i itself, which
 * also suits unpreprocessed input). Exits 1 when errors were reported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "diag.h"

/* Read a whole file into memory. */
static char *slurp(const char *path, long *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap);
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    *len = (long)n;
    return buf;
}

/* Print one span's text on one line (newlines shown as \n). */
static void show(const TranslationUnit *tu, const char *what, Span s)
{
    printf("  %s: [", what);
    for (int i = s.start; i < s.end; i++) {
        if (tu->text[i] == '\n')
            fputs("\\n", stdout);
        else
            putchar(tu->text[i]);
    }
    printf("]\n");
}

/* Walk statements for par nodes (bounded: the parser limits the depth). */
static void show_pars(const TranslationUnit *tu, Node *n)
{
    if (!n)
        return;
    if (n->kind == ND_PAR) {
        show(tu, "par", n->span);
        show(tu, "par.header", n->header);
        show(tu, "par.to", n->kw_to);
        show(tu, "par.do", n->kw_do);
        show(tu, "par.lo", n->lhs->span);
        show(tu, "par.hi", n->rhs->span);
        show(tu, "par.body", n->body->span);
    }
    if (n->kind == ND_EXPR_STMT || n->kind == ND_CALL) {
        show(tu, n->kind == ND_CALL ? "call" : "exprstmt", n->span);
    }
    Node *kids[] = {n->lhs, n->rhs, n->cond, n->then, n->els, n->init, n->inc, n->body};
    for (size_t i = 0; i < sizeof kids / sizeof kids[0]; i++)
        show_pars(tu, kids[i]);
    for (int i = 0; i < n->nargs; i++)
        show_pars(tu, n->args[i]);
}

/* The spans of the user's top-level items. */
static void dump_spans(const TranslationUnit *tu)
{
    for (int i = 0; i < tu->nitems; i++) {
        Node *n = tu->items[i];
        if (!n->loc.user)
            continue;
        if (n->kind != ND_FUNCDEF) {
            show(tu, "item", n->span);
            for (int k = 0; k < n->ndecls; k++)
                show(tu, "decl", n->decls[k]->span);
            continue;
        }
        FuncDef *f = n->func;
        printf("funcdef %s\n", f->decl->name);
        show(tu, "span", n->span);
        show(tu, "spec", f->spec_span);
        show(tu, "declarator", f->declarator_span);
        show(tu, "name", f->name_span);
        if (f->is_recursive)
            show(tu, "recursive", f->recursive_kw);
        show(tu, "clauses", f->clauses_span);
        for (Clause *c = f->clauses; c; c = c->next) {
            show(tu, "clause", c->span);
            for (ClauseItem *it = c->items; it; it = it->next)
                if (it->count)
                    show(tu, "count", it->count_span);
            if (c->cond)
                show(tu, "cond", c->cond_span);
        }
        for (int k = 0; k < f->nparams; k++)
            show(tu, "param", f->param_decls[k]->span);
        show(tu, "body", f->body->span);
        show_pars(tu, f->body);
    }
}

typedef struct Job {
    const char *user, *file;
    bool quiet, spans;
    char *text;
    long len;
} Job;

/* Parse and print, on the deep stack (parser/deep.c). */
static int run(void *p)
{
    Job *j = p;
    TranslationUnit *tu = parse_translation_unit(j->user ? j->user : j->file, j->text, (int)j->len);
    if (j->spans)
        dump_spans(tu);
    else if (!j->quiet)
        ast_dump(tu, stdout);
    return tu->nerrors ? 1 : 0;
}

int main(int argc, char **argv)
{
    const char *user = NULL, *file = NULL;
    bool quiet = false, spans = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--user") == 0 && i + 1 < argc)
            user = argv[++i];
        else if (strcmp(argv[i], "--quiet") == 0)
            quiet = true;
        else if (strcmp(argv[i], "--spans") == 0)
            spans = true;
        else
            file = argv[i];
    }
    if (!file) {
        fprintf(stderr, "usage: parse_dump [--quiet] [--user PATH] FILE\n");
        return 2;
    }
    long len;
    char *text = slurp(file, &len);
    if (!text) {
        diag_fatal_noloc("cannot read %s", file);
        return 2;
    }
    Job j = {user, file, quiet, spans, text, len};
    int st = ast_run_deep(run, &j);
    fflush(stdout);
    return st;
}
