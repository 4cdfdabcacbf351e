/* clone.c - the two clones of a recursive function, and par statements.
 *
 * For a recursive function f the generator emits
 *   __wtc_seq_f(params)               plain C: par becomes for, calls go to __wtc_seq_*;
 *                                     used below the cut-off and with one processor
 *   __wtc_par_f(wtc_ctx, params)      par statements ask the runtime (wtc_par_open) and
 *                                     defer their spawn points (wtc_spawn); direct calls
 *                                     pass the context one level deeper
 * Ordinary functions keep their text; only their par statements are rewritten (a par
 * with spawn points there opens a parallel region), and main is renamed.
 */
#include <string.h>

#include "cg.h"

enum Flavor { R_SEQ, R_PAR, R_ORD };

typedef struct Render {
    Cg *cg;
    RecFn *f;          /* the function being cloned; NULL for ordinary functions */
    enum Flavor flavor;
    Edits ed;
    int npar;          /* par statements seen, to number their frames */
    const char *frame; /* the frame variable of the enclosing spawning par, or NULL */
    Node *par;         /* that par statement */
    bool seq_spawns;   /* --check, sequential clone: inside a par with spawn points */
    const char *fname; /* the name __func__ means here, where the emitted function has
                          another (a clone, the renamed main); NULL elsewhere */
} Render;

/* wtcc --check: does f keep a copy of its arguments at entry (__wtc_self) to check its
   children's counts against? */
static bool checks_children(const Cg *cg, const RecFn *f)
{
    return cg->opt && cg->opt->check && f && f->nbufs;
}

/* __func__ and gcc's __FUNCTION__ and __PRETTY_FUNCTION__ (glibc's assert uses it):
   names the C compiler would replace by the name of the function it compiles. */
static bool is_func_name(const Node *n)
{
    return n->kind == ND_IDENT && !n->decl &&
           (!strcmp(n->name, "__func__") || !strcmp(n->name, "__FUNCTION__") ||
            !strcmp(n->name, "__PRETTY_FUNCTION__"));
}

/* What replaces __func__ in a function that is emitted under another name: the user's
   name, as an lvalue of C's type for it (const char[N], C11 6.4.2.2), so sizeof and a
   static initializer behave as in C and a write to it is refused. */
static char *func_name_text(const char *fname)
{
    char *lit = cg_c_string(fname);
    return cg_fmt("(*(const char (*)[sizeof %s])%s)", lit, lit);
}

typedef struct FuncNames {
    const char *fname;
    Edits *ed;
} FuncNames;

/* Add the replacement of every __func__ in n and below it (see Render.fname). */
static void func_name_edits(Node *n, void *data)
{
    FuncNames *fn = data;
    if (is_func_name(n))
        edits_add(fn->ed, n->span.start, n->span.end, func_name_text(fn->fname));
    cg_children(n, func_name_edits, data);
}

/* Source text of a node with newlines folded, for use inside a one-line replacement
   (a spawn point's arguments and destination; __func__ there is the user's name). */
static char *flat_text(const Render *r, Node *n)
{
    Edits ed = {0};
    FuncNames fn = {r->fname, &ed};
    if (r->fname)
        func_name_edits(n, &fn);
    return cg_one_line(edits_apply(r->cg, &ed, n->span.start, n->span.end));
}

/* The arguments of a call as "a, b, c". */
static char *args_text(const Render *r, Node *call)
{
    Str b = {0};
    for (int i = 0; i < call->nargs; i++) {
        if (i)
            str_cat(&b, ", ");
        str_cat(&b, flat_text(r, call->args[i]));
    }
    return b.s ? b.s : "";
}

/* The cond: expression of f rendered for its parallel clone ("1" when absent). A call of
   a recursive function in it (f itself too) is plain sequential C there, as cond: is:
   its sequential clone, declared before every clone (before, f's own name was not yet
   declared, and gcc said so). */
static char *cond_text(const Cg *cg, RecFn *f)
{
    if (!f || !f->cond || !f->cond->cond)
        return "1";
    Edits ed = {0};
    Node *stack[256];
    int sp = 0;
    stack[sp++] = f->cond->cond;
    while (sp > 0) { /* iterative walk: cond expressions are small but may be deep */
        Node *n = stack[--sp];
        RecFn *g;
        if (cg_is_wtc_depth(n))
            edits_add(&ed, n->span.start, n->span.end, "__wtc_c.depth");
        if (n->kind == ND_CALL && n->lhs && (g = cg_called_recfn(cg, n)) != NULL)
            edits_add(&ed, n->lhs->span.start, n->lhs->span.end,
                      cg_fmt("__wtc_seq_%s", g->name));
        Node *kids[] = {n->lhs, n->rhs, n->cond, n->then, n->els, n->init, n->inc, n->body};
        for (size_t i = 0; i < sizeof kids / sizeof kids[0] && sp < 250; i++)
            if (kids[i])
                stack[sp++] = kids[i];
        for (int i = 0; i < n->nargs && sp < 250; i++)
            stack[sp++] = n->args[i];
    }
    char *text = cg_one_line(edits_apply(cg, &ed, f->cond->cond->span.start,
                                         f->cond->cond->span.end));
    /* the runtime takes an int (wtc_par_open_fast): a pointer there drew gcc's "pointer/
       integer type mismatch" about the generated code, and a double 0.5 became false;
       != 0 converts them as C's 'if' does. An integer stays as written, and no !! is
       used: gcc says "'*' in boolean context" of a '!!(share * n)' */
    return cg_expr_class(f->cond->cond) == EC_INTEGER ? text : cg_fmt("(%s) != 0", text);
}

/* The first recursive function spawned in a par body (gives a region its mode). */
static RecFn *first_spawned(const Cg *cg, Node *n)
{
    Node *call, *lv;
    if (!n)
        return NULL;
    if (cg_spawn_of(cg, n, &call, &lv))
        return cg_called_recfn(cg, call);
    Node *kids[] = {n->lhs, n->rhs, n->cond, n->then, n->els, n->init, n->inc, n->body};
    for (size_t i = 0; i < sizeof kids / sizeof kids[0]; i++) {
        RecFn *g = first_spawned(cg, kids[i]);
        if (g)
            return g;
    }
    for (int i = 0; i < n->nargs; i++) {
        RecFn *g = first_spawned(cg, n->args[i]);
        if (g)
            return g;
    }
    return NULL;
}

static void render(Node *n, void *data);

/* The static wtc_site of par number k at loc: "static const wtc_site __wtc_s_k = {...};"
   (the file named as the diagnostics name it, as a C string). */
static char *site_decl(Loc loc, int k)
{
    Str b = {0};
    str_printf(&b, "static const wtc_site __wtc_s_%d = { \"", k);
    for (const char *c = loc.file ? loc.file : ""; *c; c++) {
        if (*c == '"' || *c == '\\')
            str_printf(&b, "\\%c", *c);
        else if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f)
            str_printf(&b, "\\%03o", (unsigned char)*c);
        else
            str_printf(&b, "%c", *c);
    }
    str_printf(&b, "\", %d, %d }; ", loc.line, loc.col);
    return b.s;
}

/* par var = lo to hi do body */
static void render_par(Render *r, Node *n)
{
    const Cg *cg = r->cg;
    int k = ++r->npar;
    bool spawning = r->flavor != R_SEQ && cg_par_has_spawn(cg, n);
    const char *v = n->name;
    char *hi = cg_fmt("__wtc_hi_%d", k);
    char *frame = cg_fmt("__wtc_p_%d", k);
    char *head;
    if (!spawning)
        head = cg_fmt("for (int %s = (", v);
    else if (r->flavor == R_PAR)
        /* --wtc-depth=D (wtc_cut_depth >= 0) replaces the cond: for one run, which then
           is not evaluated at all */
        head = cg_fmt("{ %swtc_par *%s = wtc_par_open_fast(__wtc_c, wtc_cut_depth >= 0 ? "
                      "__wtc_c.depth < wtc_cut_depth : (%s), &__wtc_s_%d); int __wtc_n_%d = 0; "
                      "for (int %s = (", site_decl(n->loc, k), frame, cond_text(cg, r->f), k,
                      k, v);
    else
        head = cg_fmt("{ %swtc_par *%s = wtc_region_open(&__wtc_fn_%s, &__wtc_s_%d); "
                      "for (int %s = (", site_decl(n->loc, k), frame,
                      first_spawned(cg, n->body)->name, k, v);
    /* up to the '=', not to the lower bound's start: a bound in parentheses starts
       inside them ("par k = (0) to 1" lost its '(') */
    edits_add(&r->ed, n->span.start, n->kw_eq.end, head);
    /* "v <= hi; v++" never ended for hi = INT_MAX (v overflowed): the loop stops after
       the iteration that reaches hi, testing before it steps (an index the body moves
       past hi ends it, as in the plain loop) */
    edits_add(&r->ed, n->kw_to.start, n->kw_to.end, cg_fmt("), %s = (", hi));
    edits_add(&r->ed, n->kw_do.start, n->kw_do.end,
              cg_fmt("), __wtc_e_%d = %s > %s; !__wtc_e_%d; __wtc_e_%d = %s >= %s, %s += "
                     "!__wtc_e_%d)", k, v, hi, k, k, v, hi, v, k));
    if (spawning && r->flavor == R_PAR)
        edits_add(&r->ed, n->span.end, n->span.end,
                  cg_fmt(" if (%s && %s != WTC_INLINE) wtc_par_close(%s); }", frame, frame,
                         frame));
    else if (spawning)
        edits_add(&r->ed, n->span.end, n->span.end,
                  cg_fmt(" if (%s) wtc_par_close(%s); }", frame, frame));
    render(n->lhs, r);
    render(n->rhs, r);
    const char *outer = r->frame;
    Node *outer_par = r->par;
    bool outer_seq = r->seq_spawns;
    r->frame = spawning ? frame : NULL;
    r->par = n;
    r->seq_spawns = r->flavor == R_SEQ && checks_children(cg, r->f) && cg_par_has_spawn(cg, n);
    if (n->body)
        render(n->body, r);
    r->frame = outer;
    r->par = outer_par;
    r->seq_spawns = outer_seq;
}

/* "__wtc_a.a, __wtc_a.n": g's arguments from its args struct. */
static char *args_from_local(const RecFn *g)
{
    Str b = {0};
    for (int i = 0; i < g->nparams; i++)
        str_printf(&b, "%s__wtc_a.%s", i ? ", " : "", g->params[i].name);
    return b.s ? b.s : "";
}

/* The statement that checks a spawned call's counts (in __wtc_a) against what gcc knows
   of the memory its pointer arguments point into: the object sizes of the call's own
   argument expressions, which gcc's object size does not evaluate (an argument with a
   side effect is "unknown"), so the arguments are still evaluated once, into the
   struct. Through the struct, whose address escapes, gcc saw nothing under
   AddressSanitizer (marshal.c emit_check). */
static char *spawn_count_check(const Render *r, RecFn *g, Node *call, Node *stmt)
{
    const char **expr = ast_alloc((size_t)g->nparams * sizeof *expr + 1);
    for (int i = 0; i < g->nparams && i < call->nargs; i++)
        expr[i] = flat_text(r, call->args[i]);
    return cg_fmt("{ unsigned long __wtc_os[%d] = { %s }; __wtc_check_os_%s(&__wtc_a, "
                  "__wtc_os, %s); } ", g->nbufs, marshal_objsizes(g, expr), g->name,
                  cg_where(r->cg, stmt->span.start));
}

/* wtcc --check: the statement that checks a spawned call's counts (in __wtc_a) against
   its own arguments' memory and against the spawning call's buffers (__wtc_self). */
static char *spawn_checks(const Render *r, RecFn *g, Node *call, Node *stmt)
{
    char *where = cg_where(r->cg, stmt->span.start);
    Str b = {0};
    if (g->nbufs)
        str_cat(&b, spawn_count_check(r, g, call, stmt));
    if (g->nbufs && checks_children(r->cg, r->f))
        str_printf(&b, "wtc_check_spawn(&__wtc_fn_%s, &__wtc_self, &__wtc_fn_%s, &__wtc_a, %s); ",
                   r->f->name, g->name, where);
    return b.s ? b.s : "";
}

/* wtcc --check, sequential clone: a spawn point becomes a checked plain call (its
   arguments evaluated once, into the args struct). */
static void render_seq_spawn(Render *r, Node *stmt, Node *call, Node *lv)
{
    const Cg *cg = r->cg;
    RecFn *g = cg_called_recfn(cg, call);
    Str b = {0};
    char *init = call->nargs ? args_text(r, call) : "0";
    str_printf(&b, "{ %s%s", marshal_args_decl(g, "__wtc_a", init),
               spawn_checks(r, g, call, stmt));
    if (lv)
        str_printf(&b, "%s = ", flat_text(r, lv));
    str_printf(&b, "__wtc_seq_%s(%s); }", g->name, args_from_local(g));
    edits_add(&r->ed, stmt->span.start, stmt->span.end, b.s);
}

/* Inside a parallel clone, the branch of a spawn point that runs it inline (the par
   got WTC_INLINE): a poll before every child but the first (its counter __wtc_n_K
   beside the frame __wtc_p_K), then a direct call of g's parallel clone, whose own pars
   ask again (its sequential clone when it has none); "" elsewhere. */
static char *inline_branch(const Render *r, RecFn *g, const char *P, const char *lv,
                           const char *args)
{
    Str b = {0};
    if (r->flavor != R_PAR)
        return "";
    str_printf(&b, "if (%s == WTC_INLINE && __wtc_n_%s++ && wtc_next_due()) "
               "%s = wtc_par_next(__wtc_c); if (%s == WTC_INLINE) { ", P,
               P + strlen("__wtc_p_"), P, P);
    if (lv)
        str_printf(&b, "%s = ", lv);
    if (g->has_par_clone)
        str_printf(&b, "__wtc_par_%s(wtc_ctx_down(__wtc_c)%s%s); } else ", g->name,
                   *args ? ", " : "", args);
    else
        str_printf(&b, "__wtc_seq_%s(%s); } else ", g->name, args);
    return b.s;
}

/* A spawn point: defer the call through the runtime, call the sequential clone, or (a
   par run inline) call the parallel clone at once. The args struct (with the counts,
   when g keeps them) is built here, at the spawn point; pointer arguments into the
   body's own storage are copied first (capture.c). */
static void render_spawn(Render *r, Node *stmt, Node *call, Node *lv)
{
    const Cg *cg = r->cg;
    RecFn *g = cg_called_recfn(cg, call);
    char *args = args_text(r, call);
    char *decl = marshal_args_decl(g, "__wtc_a", call->nargs ? args : "0");
    const char *P = r->frame;
    char *l = lv ? flat_text(r, lv) : NULL;
    Str b = {0};
    if (cg->opt && cg->opt->check) {
        /* the arguments once, checked whichever way the call goes */
        args = args_from_local(g);
        str_printf(&b, "{ %s%s%sif (%s) { %s", decl, spawn_checks(r, g, call, stmt),
                   inline_branch(r, g, P, l, args), P,
                   capture_args(cg, r->par, stmt, call, P));
    } else {
        str_printf(&b, "{ %sif (%s) { %s", inline_branch(r, g, P, l, call->nargs ? args : ""),
                   P, decl);
        if (g->nbufs)
            str_cat(&b, spawn_count_check(r, g, call, stmt));
        str_cat(&b, capture_args(cg, r->par, stmt, call, P));
    }
    if (lv) {
        char *dest = capture_dest(r->par, stmt, lv, "__wtc_d");
        if (dest)
            str_printf(&b, "void *__wtc_d = (void *)&(%s); ", l);
        str_printf(&b, "wtc_spawn(%s, &__wtc_fn_%s, &__wtc_a, %s, WTC_KIND(%s), sizeof(%s)); "
                   "} else %s = __wtc_seq_%s(%s); }", P, g->name,
                   dest ? dest : cg_fmt("(void *)&(%s)", l), l, l, l, g->name, args);
    } else {
        str_printf(&b, "wtc_spawn(%s, &__wtc_fn_%s, &__wtc_a, 0, 0, 0); } else __wtc_seq_%s(%s); }",
                   P, g->name, g->name, args);
    }
    edits_add(&r->ed, stmt->span.start, stmt->span.end, b.s);
}

/* A call of a recursive function that is not a spawn point. */
static void render_call(Render *r, Node *call, RecFn *g)
{
    Node *callee = call->lhs;
    if (r->flavor == R_SEQ || (r->flavor == R_PAR && !g->has_par_clone))
        edits_add(&r->ed, callee->span.start, callee->span.end, cg_fmt("__wtc_seq_%s", g->name));
    else if (r->flavor == R_PAR)
        edits_add(&r->ed, callee->span.start, cg_lparen_after(r->cg, callee) + 1,
                  cg_fmt("__wtc_par_%s(wtc_ctx_down(__wtc_c)%s", g->name,
                         call->nargs ? ", " : ""));
    else if (g->nbufs) { /* R_ORD: starts a region; its counts are checked here */
        edits_add(&r->ed, callee->span.start, callee->span.end, cg_fmt("__wtc_call_%s", g->name));
        edits_add(&r->ed, call->span.end - 1, call->span.end - 1,
                  cg_fmt(", %s", cg_where(r->cg, call->span.start)));
    }
    /* else R_ORD: the region-entry wrapper, which keeps the user's name */
}

/* Collect the edits for a node and everything below it. */
static void render(Node *n, void *data)
{
    Render *r = data;
    Node *call, *lv;
    RecFn *g;
    if (!n)
        return;
    if (n->kind == ND_PAR && n->lhs && n->rhs) {
        render_par(r, n);
        return;
    }
    if (r->frame && cg_spawn_of(r->cg, n, &call, &lv)) {
        render_spawn(r, n, call, lv);
        return;
    }
    if (r->seq_spawns && cg_spawn_of(r->cg, n, &call, &lv)) {
        render_seq_spawn(r, n, call, lv);
        return;
    }
    if (r->fname && is_func_name(n))
        edits_add(&r->ed, n->span.start, n->span.end, func_name_text(r->fname));
    if ((g = cg_called_recfn(r->cg, n)))
        render_call(r, n, g);
    cg_children(n, render, data);
}

/* ---- queries used by sema.c ----------------------------------------------------- */

typedef struct Query {
    const Cg *cg;
    bool spawn_par, rec_call;
} Query;

static void query(Node *n, void *data)
{
    Query *q = data;
    if (n->kind == ND_PAR && cg_par_has_spawn(q->cg, n))
        q->spawn_par = true;
    if (cg_called_recfn(q->cg, n))
        q->rec_call = true;
    cg_children(n, query, data);
}

/* Does the body contain a par statement with spawn points? */
bool clone_has_spawn_par(const Cg *cg, Node *body)
{
    Query q = {cg, false, false};
    query(body, &q);
    return q.spawn_par;
}

/* Does the body call a recursive function (directly or as a spawn point)? */
bool clone_has_recursive_call(const Cg *cg, Node *body)
{
    Query q = {cg, false, false};
    query(body, &q);
    return q.rec_call;
}

typedef struct HasPar {
    bool found;
} HasPar;

static void has_par(Node *n, void *data)
{
    HasPar *h = data;
    if (n->kind == ND_PAR)
        h->found = true;
    if (!h->found)
        cg_children(n, has_par, data);
}

/* Must this ordinary function be re-printed (main, or it has par statements)? */
bool clone_needs_rewrite(const Cg *cg, Node *def)
{
    HasPar h = {false};
    if (cg->main_fd && def->func == cg->main_fd)
        return true;
    if (def->func && def->func->body)
        has_par(def->func->body, &h);
    return h.found;
}

/* ---- inlining in the sequential clone ---------------------------------------------- */

/* The sequential clone must run as fast as the plain C program. There, a static helper
   called once (mergesort's merge) is inlined; here it has two callers, the two clones,
   and gcc keeps it out of line: 8-15 % more cycles for mergesort. So the sequential
   clone is marked flatten (every call into this file inlined) when that stays small:
   the source bytes of the fully inlined clone are bounded, cycles counted once. */
#define FLATTEN_MAX_BYTES 65536

typedef struct FlatSize {
    const Cg *cg;
    FuncDef **seen;   /* functions on the current inlining path (cycles count 0) */
    int nseen;
    long total;
} FlatSize;

static long flat_size(const Cg *cg, FuncDef *fd, FuncDef **path, int depth);

/* Add the inlined size of every call below n to fs->total. */
static void flat_calls(Node *n, void *data)
{
    FlatSize *fs = data;
    if (fs->total > FLATTEN_MAX_BYTES)
        return;
    if (n->kind == ND_CALL && n->lhs && n->lhs->kind == ND_IDENT && n->lhs->decl &&
        n->lhs->decl->kind == DK_FUNC && n->lhs->decl->is_global) {
        FuncDef *callee = cg_funcdef_named(fs->cg, n->lhs->name);
        if (callee && callee->body)
            fs->total += flat_size(fs->cg, callee, fs->seen, fs->nseen);
    }
    cg_children(n, flat_calls, data);
}

/* Source bytes of fd's body with every call inlined (recursion cut at cycles). */
static long flat_size(const Cg *cg, FuncDef *fd, FuncDef **path, int depth)
{
    for (int i = 0; i < depth; i++)
        if (path[i] == fd)
            return 0; /* a cycle: gcc does not inline recursion */
    if (depth >= 64)
        return FLATTEN_MAX_BYTES + 1;
    FuncDef *seen[65];
    for (int i = 0; i < depth; i++)
        seen[i] = path[i];
    seen[depth] = fd;
    FlatSize fs = {cg, seen, depth + 1, fd->body->span.end - fd->body->span.start};
    flat_calls(fd->body, &fs);
    return fs.total;
}

/* Should f's sequential clone be flattened? */
static bool seq_flatten(const Cg *cg, RecFn *f)
{
    return flat_size(cg, f->fd, NULL, 0) <= FLATTEN_MAX_BYTES;
}

/* ---- emitting ------------------------------------------------------------------- */

/* Where a clone's own first statements go in body: after its local label declarations
   (__label__ x;), which GNU C wants before anything else in a block ("expected
   expression before '__label__'" where the par clone began with (void)__wtc_c;). */
static int body_start(const Cg *cg, const Node *body)
{
    int at = body->span.start + 1;
    for (int i = 0; i < body->nargs; i++) {
        const Node *n = body->args[i];
        if (n->kind != ND_DECLARATION || strncmp(cg->tu->text + n->span.start, "__label__", 9))
            break;
        at = n->span.end;
    }
    return at;
}

/* Emit one clone of f: its header, then the body with the flavor's edits. */
static void emit_clone(Cg *cg, RecFn *f, enum Flavor flavor)
{
    Render r = {cg, f, flavor, {0}, 0, NULL, NULL, false, f->name};
    Node *body = f->fd->body;
    bool par = flavor == R_PAR;
    int at = body_start(cg, body);
    render(body, &r);
    if (par) /* the context may go unused: a body with direct calls to leaves only */
        edits_add(&r.ed, at, at, " (void)__wtc_c;");
    if (checks_children(cg, f)) { /* wtcc --check: every call, any clone */
        Str init = {0};
        for (int i = 0; i < f->nparams; i++)
            str_printf(&init, "%s%s", i ? ", " : "", f->params[i].name);
        edits_add(&r.ed, at, at,
                  cg_fmt(" %s(void)__wtc_self; __wtc_check_%s(&__wtc_self, 0);",
                         marshal_args_decl(f, "__wtc_self", init.s), f->name));
    }
    cg_emit_line_generated(cg, body->span.start);
    fprintf(cg->out, "%s%sstatic %s __wtc_%s_%s(%s) %s\n", f->attrs ? f->attrs : "",
            !par && seq_flatten(cg, f) ? "__attribute__((flatten)) " : "", marshal_ret_type(cg, f),
            par ? "par" : "seq", f->name, marshal_param_list(cg, f, par),
            edits_apply(cg, &r.ed, body->span.start, body->span.end));
}

/* The sequential clone. */
void clone_emit_seq(Cg *cg, RecFn *f)
{
    emit_clone(cg, f, R_SEQ);
}

/* The parallel clone (only for functions that spawn or call recursive functions). */
void clone_emit_par(Cg *cg, RecFn *f)
{
    if (f->has_par_clone)
        emit_clone(cg, f, R_PAR);
}

/* An ordinary function with its par statements rewritten. */
void clone_emit_ordinary(Cg *cg, Node *def)
{
    bool is_main = cg->main_fd && def->func == cg->main_fd;
    /* main is renamed __wtc_user_main (program.c), which __func__ would say */
    Render r = {cg, NULL, R_ORD, {0}, 0, NULL, NULL, false, is_main ? "main" : NULL};
    render(def->func->body, &r);
    if (is_main) {
        Node *body = def->func->body;
        /* reaching main's '}' returns 0 (C11 5.1.2.2.3), but not once it is renamed (by
           the macro at the top of the generated file) */
        if (type_strip_typedefs(def->func->decl->type->base)->kind == TY_INT)
            edits_add(&r.ed, body->span.end - 1, body->span.end - 1, " return 0; ");
    }
    cg_emit_line(cg, def->span.start);
    fprintf(cg->out, "%s\n", edits_apply(cg, &r.ed, def->span.start, def->span.end));
}
