/* program.c - the whole generated file: the copied text with its transformed pieces,
 * the global snapshot table, main's wrapper and the program table (cg_generate).
 */
#include <string.h>

#include "cg.h"
#include "diag.h"
#include "wtc_abi.h"

/* ---- the global snapshot (SPEC 2.4) ---------------------------------------------- */

bool cg_names_has(const Names *s, const char *name)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->v[i], name) == 0)
            return true;
    return false;
}

void cg_names_add(Names *s, const char *name)
{
    if (cg_names_has(s, name))
        return;
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 32;
        const char **nv = ast_alloc(sizeof(char *) * (size_t)s->cap);
        if (s->n)
            memcpy(nv, s->v, sizeof(char *) * (size_t)s->n);
        s->v = nv;
    }
    s->v[s->n++] = name;
}

typedef struct Reach {
    const Cg *cg;
    Names globals; /* the program's global variables read by recursive code (those of
                      its .wtc file and its own headers, not of system headers) */
    Names funcs;   /* the program's functions reachable from recursive functions */
} Reach;

/* Note the globals and the functions an expression or statement refers to. */
static void reach_node(Node *n, void *data)
{
    Reach *r = data;
    if (n->kind == ND_IDENT && n->decl && n->decl->is_global && !n->decl->loc.sys) {
        if (n->decl->kind == DK_VAR)
            cg_names_add(&r->globals, n->name);
        else if (n->decl->kind == DK_FUNC)
            cg_names_add(&r->funcs, n->name);
    }
    cg_children(n, reach_node, data);
}

/* The initializer of the program's global variable 'name', or NULL. */
static Node *global_init(const Cg *cg, const char *name)
{
    for (int i = 0; i < cg->tu->nitems; i++) {
        Node *n = cg->tu->items[i];
        for (int j = 0; n->kind == ND_DECLARATION && j < n->ndecls; j++) {
            Decl *d = n->decls[j];
            if (d && d->kind == DK_VAR && d->init && strcmp(d->name, name) == 0)
                return d->init;
        }
    }
    return NULL;
}

/* Does a value of type t hold a pointer (itself, an element, a member)? */
bool cg_holds_pointer(Type *t, int depth)
{
    t = type_strip_typedefs(t);
    if (!t || depth > 64)
        return false;
    if (t->kind == TY_PTR)
        return true;
    if (t->kind == TY_ARRAY)
        return cg_holds_pointer(t->base, depth + 1);
    if ((t->kind == TY_STRUCT || t->kind == TY_UNION) && t->sinfo)
        for (Member *m = t->sinfo->members; m; m = m->next)
            if (cg_holds_pointer(m->type, depth + 1))
                return true;
    return false;
}

typedef struct Writes {
    const char *name;
    bool found;
} Writes;

/* The variable an lvalue lies in, through '.', '[]' and '->' ('g[i]', 'g.m', '&g'). */
static Node *written_root(Node *n)
{
    while (n && (n->kind == ND_MEMBER || n->kind == ND_INDEX || n->kind == ND_PTR_MEMBER))
        n = n->lhs;
    return n;
}

static bool names_global(const Node *n, const char *name)
{
    return n && n->kind == ND_IDENT && n->decl && n->decl->is_global && n->name &&
           strcmp(n->name, name) == 0;
}

/* Is the global w->name assigned, incremented, its address taken, or (an array) passed
   on as a pointer below n? An array's name anywhere but indexed, a member taken or
   under sizeof becomes a pointer through which it may be written (fill(table)). */
static void find_writes(Node *n, void *data)
{
    Writes *w = data;
    Node *root;
    if (w->found)
        return;
    if ((cg_is_write(n) || n->kind == ND_ADDR) &&
        (root = written_root(n->lhs)) && names_global(root, w->name)) {
        w->found = true;
        return;
    }
    if (names_global(n, w->name)) { /* reached not indexed: its value, or its decay */
        Type *t = type_strip_typedefs(n->decl->type);
        if (t && t->kind == TY_ARRAY)
            w->found = true;
        return;
    }
    if ((n->kind == ND_INDEX || n->kind == ND_MEMBER) && names_global(n->lhs, w->name)) {
        if (n->kind == ND_INDEX && n->rhs)
            find_writes(n->rhs, data);
        return;
    }
    if (n->kind == ND_SIZEOF_EXPR || n->kind == ND_ALIGNOF_EXPR)
        return;
    cg_children(n, find_writes, data);
}

/* May the program have set global 'name' after its initializer: a function assigns it,
   takes its address, or passes an array of it on as a pointer? */
bool cg_global_written(const Cg *cg, const char *name)
{
    Writes w = {name, false};
    for (int i = 0; i < cg->tu->nitems && !w.found; i++) {
        Node *n = cg->tu->items[i];
        if (n->kind == ND_FUNCDEF && n->func && n->func->body && !n->loc.sys)
            find_writes(n->func->body, &w);
    }
    return w.found;
}

/* The defining declaration of the program's global variable that can be snapshot:
   not const, and not one that holds pointers and that no function writes (every rank
   has it from its initializer already, with addresses of its own: rank 0's string
   literals and functions lie elsewhere in another process, a helper's table of names
   crashed the other ranks). */
static Decl *snapshot_decl(const Cg *cg, const char *name)
{
    for (int i = 0; i < cg->tu->nitems; i++) {
        Node *n = cg->tu->items[i];
        for (int j = 0; n->kind == ND_DECLARATION && j < n->ndecls; j++) {
            Decl *d = n->decls[j];
            if (!d || d->kind != DK_VAR || strcmp(d->name, name) != 0 || !d->is_defined ||
                d->storage == SC_EXTERN || d->is_thread_local || d->loc.sys)
                continue;
            Type *t = d->type;
            while (type_strip_typedefs(t)->kind == TY_ARRAY) {
                if (!type_strip_typedefs(t)->array_len && !d->init)
                    return NULL; /* incomplete array */
                t = type_strip_typedefs(t)->base;
            }
            if (t->quals & Q_CONST || type_strip_typedefs(t)->quals & Q_CONST)
                return NULL; /* the same on every rank anyway */
            if (cg_holds_pointer(d->type, 0) && !cg_global_written(cg, name))
                return NULL;
            return d;
        }
    }
    return NULL;
}

/* Globals read by recursive functions, their cond: clauses and the functions they call,
   also through the initializers of the globals they read (a const table of functions,
   called as ops[k](x): the functions it names read globals too). */
static Names snapshot_globals(const Cg *cg)
{
    Reach r = {cg, {0}, {0}};
    int nf = 0, ng = 0;
    for (int i = 0; i < cg->nfns; i++) {
        reach_node(cg->fns[i]->fd->body, &r);
        if (cg->fns[i]->cond && cg->fns[i]->cond->cond)
            reach_node(cg->fns[i]->cond->cond, &r);
    }
    while (nf < r.funcs.n || ng < r.globals.n) { /* both grow while we walk them */
        for (; nf < r.funcs.n; nf++) {
            FuncDef *fd = cg_funcdef_named(cg, r.funcs.v[nf]);
            if (fd && fd->body && !cg_recfn_by_name(cg, fd->decl->name))
                reach_node(fd->body, &r);
        }
        for (; ng < r.globals.n; ng++) {
            Node *init = global_init(cg, r.globals.v[ng]);
            if (init)
                reach_node(init, &r);
        }
    }
    Names out = {0};
    for (int i = 0; i < r.globals.n; i++)
        if (snapshot_decl(cg, r.globals.v[i]))
            cg_names_add(&out, r.globals.v[i]);
    return out;
}

/* ---- the tables and main ------------------------------------------------------------ */

/* The entry the runtime calls on rank 0: adapts to the user's main signature. */
static void emit_main_entry(Cg *cg)
{
    FILE *o = cg->out;
    FuncDef *m = cg->main_fd;
    bool is_void = type_strip_typedefs(m->decl->type->base)->kind == TY_VOID;
    int np = m->nparams;
    fprintf(o, "static int __wtc_main_entry(int argc, char **argv)\n{\n");
    if (np >= 3)
        fprintf(o, "    extern char **environ;\n");
    const char *args = np == 0 ? "" : np == 1 ? "argc" : np == 2 ? "argc, argv" : "argc, argv, environ";
    if (np < 2)
        fprintf(o, "    (void)argv;%s\n", np < 1 ? " (void)argc;" : "");
    if (is_void)
        fprintf(o, "    __wtc_user_main(%s);\n    return 0;\n}\n", args);
    else
        fprintf(o, "    return __wtc_user_main(%s);\n}\n", args);
}

/* 1 when the preprocessed text comes in part from a header named mpi.h (a line marker
   '# N "…/mpi.h"'): the program may call MPI itself (wtc_calls_mpi, wtc_abi.h). */
static int includes_mpi_h(const char *text)
{
    for (const char *l = text; *l;) {
        const char *nl = strchr(l, '\n'), *q, *e;
        size_t len = nl ? (size_t)(nl - l) : strlen(l);
        /* the quotes are looked for within the line only: a search to the next '"' of
           the text went through all of a 10 MB initializer from each of its lines */
        if (l[0] == '#' && l[1] == ' ' && (q = memchr(l, '"', len)) &&
            (e = memchr(q + 1, '"', len - (size_t)(q + 1 - l))) && e - (q + 1) >= 5 &&
            memcmp(e - 5, "mpi.h", 5) == 0 && (e - 5 == q + 1 || e[-6] == '/'))
            return 1;
        l += len + (nl != NULL);
    }
    return 0;
}

/* The program table and the real main. */
void program_emit_tables(Cg *cg)
{
    FILE *o = cg->out;
    Names g = snapshot_globals(cg);
    fprintf(o, "\n/* ---- wtcc: program table ---- */\n");
    emit_main_entry(cg);
    fprintf(o, "static const wtc_fn *const __wtc_fns[] = {");
    for (int i = 0; i < cg->nfns; i++)
        fprintf(o, "%s &__wtc_fn_%s", i ? "," : "", cg->fns[i]->name);
    fprintf(o, "%s };\n", cg->nfns ? "" : " 0");
    fprintf(o, "static const wtc_global __wtc_globals[] = {");
    for (int i = 0; i < g.n; i++)
        fprintf(o, "%s\n    { (void *)&%s, sizeof(%s), \"%s\" }", i ? "," : "", g.v[i], g.v[i],
                g.v[i]);
    fprintf(o, "%s };\n", g.n ? "" : " { 0, 0, 0 }");
    fprintf(o, "static const wtc_shared __wtc_shared[] = {");
    for (int i = 0; i < cg->nshared; i++) {
        const char *n = cg->shared[i]->name;
        const char *d = cg->shared_data[i] ? cg->shared_data[i]->name : NULL;
        fprintf(o, "%s\n    { (void *)&%s, sizeof(%s), WTC_KIND(%s), %d, \"%s\", ", i ? "," : "",
                n, n, n, cg->shared_op[i], n);
        if (d)
            fprintf(o, "(void *)&%s, sizeof(%s) }", d, d);
        else
            fprintf(o, "0, 0 }");
    }
    fprintf(o, "%s };\n", cg->nshared ? "" : " { 0, 0, 0, 0, 0, 0, 0 }");
    const char *src = strrchr(cg->tu->path, '/');
    fprintf(o, "static const wtc_program __wtc_program = {\n    WTC_ABI_VERSION, %s, __wtc_fns, "
            "%d, __wtc_globals, %d,\n    __wtc_main_entry, %d, %d, %d, __wtc_shared, %d };\n",
            cg_c_string(src ? src + 1 : cg->tu->path),
            cg->nfns, g.n, cg->opt ? cg->opt->mode_override : 0,
            cg->opt ? cg->opt->masters_override : 0, cg->opt ? cg->opt->check : 0, cg->nshared);
    fprintf(o, "#ifdef WTC_LIBDIR\nconst char *const wtc_libdir = WTC_LIBDIR;\n#endif\n");
    if (cg->calls_mpi)
        fprintf(o, "const int wtc_calls_mpi = 1;\n");
    fprintf(o, "int main(int argc, char **argv)\n{\n    return wtc_start(argc, argv, "
            "&__wtc_program);\n}\n");
}

/* ---- the whole file ------------------------------------------------------------------ */

/* Copy buffer text [from, to) unchanged. */
static void copy_text(Cg *cg, int from, int to)
{
    if (to > from)
        fwrite(cg->tu->text + from, 1, (size_t)(to - from), cg->out);
}

/* The end of a GNU attribute starting at text[i] ("__attribute__((...))" or
   "__attribute((...))"), or -1 when none starts there. */
static int attribute_end(const char *text, int i, int end)
{
    int depth = 0, j;
    if (strncmp(text + i, "__attribute__", 13) == 0)
        j = i + 13;
    else if (strncmp(text + i, "__attribute", 11) == 0)
        j = i + 11;
    else
        return -1;
    while (j < end && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n'))
        j++;
    if (j >= end || text[j] != '(')
        return -1;
    for (; j < end; j++) {
        if (text[j] == '(')
            depth++;
        else if (text[j] == ')' && --depth == 0)
            return j + 1;
    }
    return -1;
}

/* The GNU attributes of recursive function f, whose definition starts at 'start' (the
   lexer drops them, so the definition's span begins after those written before it):
   those between 'from' (where the text before it ends) and 'start', and those among
   its specifiers (not a parameter's), into f->attrs for its clones and wrapper (they stood
   before a generated typedef instead: 'noinline' ignored with a warning, target("avx")
   leaving the clones without AVX); returns where the text before them ends. */
static int fn_attributes(Cg *cg, RecFn *f, int from, int start)
{
    const char *t = cg->tu->text;
    int first = start, body = f->fd->declarator_span.start;
    Str a = {0};
    for (int i = from; i < start; i++) {
        int e;
        if (t[i] == '#' && (i == 0 || t[i - 1] == '\n')) { /* a line marker */
            while (i < start && t[i] != '\n')
                i++;
            continue;
        }
        if ((e = attribute_end(t, i, start)) > 0) {
            if (first == start)
                first = i;
            str_printf(&a, "%.*s ", e - i, t + i);
            i = e - 1;
        }
    }
    for (int i = start; i < body; i++) {
        int e = attribute_end(t, i, body);
        if (e > 0) {
            str_printf(&a, "%.*s ", e - i, t + i);
            i = e - 1;
        }
    }
    f->attrs = a.s ? cg_one_line(a.s) : "";
    return first;
}

/* The replacement of a recursive function definition. */
static void emit_recursive(Cg *cg, RecFn *f, int item)
{
    if (f->first_item == item)
        marshal_emit_forward(cg, f);
    clone_emit_seq(cg, f);
    clone_emit_par(cg, f);
    marshal_emit_support(cg, f);
    marshal_emit_wrapper(cg, f);
}

/* Emit forward blocks of the recursive functions first declared by a prototype here. */
static void emit_forwards_after(Cg *cg, int item)
{
    bool any = false;
    for (int i = 0; i < cg->nfns; i++)
        if (cg->fns[i]->first_item == item && cg->fns[i]->def != cg->tu->items[item]) {
            marshal_emit_forward(cg, cg->fns[i]);
            any = true;
        }
    if (any)
        cg_emit_line(cg, cg->tu->items[item]->span.end);
}

/* Check the translation unit and write the generated C. */
int cg_generate(TranslationUnit *tu, const CgOptions *opt, FILE *out)
{
    Cg cg = {0};
    cg.tu = tu;
    cg.opt = opt;
    cg.out = out;
    cg_lines_init(tu);
    int errors = sema_check(&cg);
    if (errors)
        return errors;
    fprintf(out, "/* Generated by wtcc from %s: do not edit. */\n#include \"wtc_abi.h\"\n",
            tu->path);
    /* The program's code starts on a page of its own (doc/wtcc.md, "Code layout"): its
       place no longer depends on how much runtime code the linker put before it, and
       prog and prog.predict run it at the same offsets within a page. */
    fputs("__asm__(\".text\\n\\t.balign 4096\");\n", out);
    /* The user's main becomes __wtc_user_main everywhere: its definition, a prototype,
       a use of its address (the runtime's main, below, calls it). */
    fputs("#define main __wtc_user_main\n", out);
    /* A program that includes <mpi.h> finds MPI started: its own MPI_Init and
       MPI_Finalize go to the runtime's, which know (runtime/mpi/user_mpi.c) */
    cg.calls_mpi = includes_mpi_h(tu->text);
    if (cg.calls_mpi)
        fputs("#define MPI_Init wtc_mpi_init\n#define MPI_Init_thread wtc_mpi_init_thread\n"
              "#define MPI_Finalize wtc_mpi_finalize\n", out);
    int pos = 0;
    for (int i = 0; i < tu->nitems; i++) {
        Node *n = tu->items[i];
        RecFn *f = n->kind == ND_FUNCDEF && n->func && n->func->is_recursive
                       ? cg_recfn_by_name(&cg, n->func->decl->name) : NULL;
        if (n->kind == ND_FUNCDEF && n->func && n->func->decl && n->func->decl->name &&
            strcmp(n->func->decl->name, "main") == 0)
            cg_note_rewritten(n->func->decl->loc); /* the macro renames it (above) */
        if (f && f->def == n) {
            copy_text(&cg, pos, fn_attributes(&cg, f, pos, n->span.start));
            emit_recursive(&cg, f, i);
        } else if (n->kind == ND_FUNCDEF && n->func && clone_needs_rewrite(&cg, n)) {
            copy_text(&cg, pos, n->span.start);
            clone_emit_ordinary(&cg, n);
        } else {
            copy_text(&cg, pos, n->span.end);
            pos = n->span.end;
            emit_forwards_after(&cg, i);
            continue;
        }
        pos = n->span.end;
        cg_emit_line(&cg, pos);
    }
    copy_text(&cg, pos, tu->len);
    fputs("\n#undef main\n", out);
    if (cg.calls_mpi)
        fputs("#undef MPI_Init\n#undef MPI_Init_thread\n#undef MPI_Finalize\n", out);
    program_emit_tables(&cg);
    if (ferror(out)) {
        diag_fatal_noloc("cannot write the generated C");
        return 1;
    }
    return 0;
}
