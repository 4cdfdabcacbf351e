/* sema.c - the rules of Work-Time C (SPEC 2.1-2.4) that the grammar does not enforce.
 *
 * Every message says what to write instead where there is something to write. The
 * phrases are the compiler's message catalog: tests/err/ matches on them.
 */
#include <stdlib.h>
#include <string.h>

#include "cg.h"
#include "diag.h"
#include "wtc_abi.h"

/* ---- collecting the recursive functions ----------------------------------- */

static const char *clause_word(ClauseKind k)
{
    static const char *w[] = {"in:", "out:", "cond:", "mode:"};
    return w[k];
}

/* Is the decl one of f's own parameters? */
static RecParam *param_of(RecFn *f, Decl *d)
{
    for (int i = 0; i < f->nparams; i++)
        if (f->params[i].decl == d)
            return &f->params[i];
    return NULL;
}

static RecParam *param_named(RecFn *f, const char *name)
{
    for (int i = 0; i < f->nparams; i++)
        if (f->params[i].name && strcmp(f->params[i].name, name) == 0)
            return &f->params[i];
    return NULL;
}

/* Build the RecFn of a recursive function definition. */
static RecFn *collect_fn(Cg *cg, Node *def)
{
    FuncDef *fd = def->func;
    RecFn *f = ast_alloc(sizeof *f);
    f->name = fd->decl->name;
    f->id = cg->nfns;
    f->def = def;
    f->fd = fd;
    f->ret = fd->decl->type->base;
    f->is_void = type_strip_typedefs(f->ret)->kind == TY_VOID;
    f->mode = WTC_MODE_SIMPLE;
    f->masters = 1;
    f->first_item = -1;
    f->is_static = fd->decl->storage == SC_STATIC;
    for (Decl *d = fd->decl->prev_decl; d; d = d->prev_decl)
        if (d->storage == SC_STATIC)
            f->is_static = true;
    f->nparams = fd->nparams;
    f->params = ast_alloc(sizeof(RecParam) * (size_t)(fd->nparams + 1));
    for (int i = 0; i < fd->nparams; i++) {
        RecParam *p = &f->params[i];
        p->decl = fd->param_decls[i];
        p->name = p->decl->name;
        p->type = type_decay(p->decl->type);
        p->is_ptr = type_is_pointer(p->type);
        p->buf = p->is_ptr ? f->nbufs++ : -1;
    }
    return f;
}

/* Find every recursive function, and the top-level item that first declares each. */
static void collect_all(Cg *cg)
{
    TranslationUnit *tu = cg->tu;
    cg->fns = ast_alloc(sizeof(RecFn *) * (size_t)(tu->nitems + 1));
    for (int i = 0; i < tu->nitems; i++) {
        Node *n = tu->items[i];
        if (n->kind == ND_FUNCDEF && n->func && n->func->is_recursive) {
            if (cg_recfn_by_name(cg, n->func->decl->name)) {
                diag_error(n->func->decl->loc, "recursive function '%s' is defined twice",
                           n->func->decl->name);
                continue;
            }
            RecFn *f = collect_fn(cg, n);
            f->id = cg->nfns;
            cg->fns[cg->nfns++] = f;
        }
        if (n->kind == ND_FUNCDEF && n->func && strcmp(n->func->decl->name, "main") == 0)
            cg->main_fd = n->func;
    }
    for (int i = 0; i < tu->nitems; i++) {
        Node *n = tu->items[i];
        if (n->kind == ND_FUNCDEF && n->func) {
            RecFn *f = cg_recfn_by_name(cg, n->func->decl->name);
            if (f && f->first_item < 0)
                f->first_item = i;
        } else if (n->kind == ND_DECLARATION) {
            for (int j = 0; j < n->ndecls; j++) {
                Decl *d = n->decls[j];
                RecFn *f = d && d->kind == DK_FUNC ? cg_recfn_by_name(cg, d->name) : NULL;
                if (f && f->first_item < 0)
                    f->first_item = i;
            }
        }
    }
}

/* ---- types ------------------------------------------------------------------ */

/* Does a value of this type hold a pointer somewhere (through typedefs, arrays,
   struct and union members)? Names the offending member in *why. */
static bool contains_pointer(Type *t, const char **why, int depth)
{
    t = type_strip_typedefs(t);
    if (!t || depth > 64)
        return false;
    switch (t->kind) {
    case TY_PTR:
    case TY_FUNC:
    case TY_TYPEOF:  /* opaque to wtcc: may be one (a member '__typeof__(int *) p') */
    case TY_BUILTIN: /* va_list */
        return true;
    case TY_ARRAY:
        return contains_pointer(t->base, why, depth + 1);
    case TY_STRUCT:
    case TY_UNION:
        if (!t->sinfo)
            return false;
        for (Member *m = t->sinfo->members; m; m = m->next)
            if (contains_pointer(m->type, why, depth + 1)) {
                if (m->name && !*why)
                    *why = m->name;
                return true;
            }
        return false;
    default:
        return false;
    }
}

/* A type wtcc cannot see into, in a recursive function's signature (itself or the
   element of an array of it): "__typeof__(...)" (it may hide a pointer, which would
   travel as a number) or a builtin such as va_list (pointers inside); NULL otherwise. */
static const char *opaque_type(Type *t)
{
    for (int depth = 0; depth < 64; depth++) {
        t = type_strip_typedefs(t);
        if (!t)
            return NULL;
        if (t->kind == TY_TYPEOF)
            return "a __typeof__ type";
        if (t->kind == TY_BUILTIN)
            return t->name && strstr(t->name, "va_list") ? "va_list" : "a builtin type";
        if (t->kind != TY_ARRAY)
            return NULL;
        t = t->base;
    }
    return NULL;
}

/* Is the (stripped) type complete enough to be sent: not void, not an incomplete struct? */
static const char *incomplete_reason(Type *t)
{
    t = type_strip_typedefs(t);
    if (!t)
        return NULL;
    if (t->kind == TY_VOID)
        return "void";
    if (t->kind == TY_FUNC)
        return "a function";
    if ((t->kind == TY_STRUCT || t->kind == TY_UNION) && (!t->sinfo || !t->sinfo->complete))
        return "an incomplete type";
    return NULL;
}

/* The flexible array member that ends struct t (or a struct it ends with), NULL if
   none: sizeof leaves it out, so an element of t would travel without it. */
static const char *flexible_member(Type *t)
{
    t = type_strip_typedefs(t);
    if (!t || (t->kind != TY_STRUCT && t->kind != TY_UNION) || !t->sinfo)
        return NULL;
    for (Member *m = t->sinfo->members; m; m = m->next) {
        Type *mt = type_strip_typedefs(m->type);
        if (t->kind == TY_STRUCT && m->next) /* only a struct's last member can be one */
            continue;
        if (mt && mt->kind == TY_ARRAY && !mt->array_len)
            return m->name ? m->name : "(unnamed)";
        const char *in = flexible_member(m->type);
        if (in)
            return in;
    }
    return NULL;
}

/* Whether expression n reads a variable (so an array length made of it is not a
   constant). */
static bool reads_variable(Node *n, int depth)
{
    if (!n || depth > 200)
        return false;
    if (n->kind == ND_IDENT) /* anything but an enumeration constant: a parameter, a
                                variable (possibly not yet resolved in a parameter list) */
        return !n->decl || n->decl->kind != DK_ENUMCONST;
    if (n->kind == ND_SIZEOF_EXPR || n->kind == ND_SIZEOF_TYPE || n->kind == ND_ALIGNOF_EXPR ||
        n->kind == ND_ALIGNOF_TYPE)
        return false;
    Node *kids[] = {n->lhs, n->rhs, n->cond, n->then, n->els};
    for (size_t i = 0; i < sizeof kids / sizeof kids[0]; i++)
        if (reads_variable(kids[i], depth + 1))
            return true;
    for (int i = 0; i < n->nargs; i++)
        if (reads_variable(n->args[i], depth + 1))
            return true;
    return false;
}

/* Whether t (through pointers and arrays) has an array whose length is not a constant:
   'double m[n][n]' as a parameter is 'double (*m)[n]'. */
static bool variably_modified(Type *t)
{
    for (int depth = 0; (t = type_strip_typedefs(t)) && depth < 64; depth++) {
        if (t->kind == TY_ARRAY && reads_variable(t->array_len, 0))
            return true;
        if (t->kind != TY_ARRAY && t->kind != TY_PTR)
            return false;
        t = t->base;
    }
    return false;
}

/* Is t a pointer to a function (a parameter declared 'int (*f)(int)' or 'int f(int)')? */
static bool is_function_pointer(Type *t)
{
    t = type_strip_typedefs(t);
    return t && t->kind == TY_PTR && type_strip_typedefs(t->base) &&
           type_strip_typedefs(t->base)->kind == TY_FUNC;
}

/* A function pointer cannot be sent: no clause helps, so say what does. */
static void error_function_pointer(RecParam *p, Loc loc)
{
    diag_error(loc, "parameter '%s' is a function pointer, which cannot be sent to another "
               "processor (an address means nothing there); pass an index into a const global "
               "table of functions instead ('int op', calling 'ops[op](...)'), or call the "
               "function by name", p->name);
}

/* ---- the signature ---------------------------------------------------------- */

/* Checks on the function's own declaration: main, variadic, return type, parameters. */
static void check_signature(RecFn *f)
{
    Loc loc = f->fd->decl->loc;
    Type *ft = f->fd->decl->type;
    const char *why = NULL;
    if (strcmp(f->name, "main") == 0)
        diag_error(loc, "'main' cannot be recursive; call a recursive function from main instead");
    if (ft->is_variadic)
        diag_error(loc, "recursive function '%s' cannot be variadic", f->name);
    if (ft->is_oldstyle && f->nparams == 0 && !ft->has_void_params)
        diag_error(loc, "recursive function '%s' needs a prototype: write '%s(void)'", f->name,
                   f->name);
    Type *rt = type_strip_typedefs(f->ret);
    const char *opaque = opaque_type(f->ret);
    if (opaque)
        diag_error(loc, "the return type of recursive function '%s' is %s, which wtcc cannot "
                   "see into (it may hold a pointer): write the type itself", f->name, opaque);
    else if (rt && (rt->kind == TY_PTR || rt->kind == TY_ARRAY || rt->kind == TY_FUNC))
        diag_error(loc, "recursive function '%s' cannot return a pointer; return data by an "
                   "out: parameter instead", f->name);
    else if (contains_pointer(f->ret, &why, 0))
        diag_error(loc, "the return type of recursive function '%s' contains a pointer%s%s%s",
                   f->name, why ? " (member '" : "", why ? why : "", why ? "')" : "");
    for (int i = 0; i < f->nparams; i++) {
        RecParam *p = &f->params[i];
        why = NULL;
        if (!p->name)
            diag_error(p->decl->loc, "parameter %d of recursive function '%s' has no name", i + 1,
                       f->name);
        else if ((opaque = opaque_type(p->type)) && strcmp(opaque, "va_list") == 0)
            diag_error(p->decl->loc, "parameter '%s' of recursive function '%s' is a va_list, "
                       "whose pointers into the caller's arguments would not be valid on "
                       "another processor: pass the values it holds", p->name, f->name);
        else if (opaque)
            diag_error(p->decl->loc, "parameter '%s' of recursive function '%s' has %s, which "
                       "wtcc cannot see into (it may hold a pointer, which would not be valid "
                       "on another processor): write the type itself", p->name, f->name,
                       opaque);
        else if (p->is_ptr && variably_modified(p->type))
            diag_error(p->decl->loc, "parameter '%s' of recursive function '%s' has a "
                       "variable-length array type, which cannot be sent; pass a pointer to "
                       "its first element instead, with the count of all its elements in "
                       "in:/out:, and index it as %s[i * n + j]", p->name, f->name, p->name);
        else if (!p->is_ptr && contains_pointer(p->type, &why, 0))
            diag_error(p->decl->loc, "parameter '%s' contains a pointer%s%s%s, which would not be "
                       "valid on another processor", p->name, why ? " (member '" : "",
                       why ? why : "", why ? "')" : "");
    }
}

/* A struct, union or enum defined inside the parameter list ('enum col { RED } c'): C
   scopes it to the function, but the generated code names the parameter's type outside
   it (the argument struct the runtime sends), where gcc said "field 'c' has incomplete
   type" at the user's line, as if wtcc had accepted the program. */
static void check_param_tags(const Cg *cg, RecFn *f)
{
    Type *ft = type_strip_typedefs(f->fd->decl->type);
    for (Param *p = ft ? ft->params : NULL; p; p = p->next) {
        const char *s = cg->tu->text + p->span.start;
        if (memchr(s, '{', (size_t)(p->span.end - p->span.start)))
            diag_error(p->loc, "parameter '%s' of recursive function '%s' defines its type "
                       "inside the parameter list, where the code wtcc generates to send it "
                       "cannot name it: define the struct, union or enum at file scope",
                       p->name ? p->name : "?", f->name);
    }
}

/* ---- clauses ------------------------------------------------------------------ */

/* The first write at or below n, into *(Node **)data. */
static void find_write(Node *n, void *data)
{
    Node **w = data;
    if (*w)
        return;
    if (cg_is_write(n)) {
        *w = n;
        return;
    }
    cg_children(n, find_write, data);
}

typedef struct IdentCheck {
    RecFn *f;
    const char *what;    /* "count" or "cond" */
    const char *buf;     /* the buffer whose count this is */
} IdentCheck;

/* Identifiers of a count or cond expression: parameters, globals, functions, enum
   constants, and (in cond: only) wtc_depth. */
static void check_clause_ident(Node *n, void *data)
{
    IdentCheck *c = data;
    if (n->kind == ND_IDENT) {
        Decl *d = n->decl;
        bool cond = strcmp(c->what, "cond") == 0;
        if (cg_is_wtc_depth(n)) {
            if (!cond)
                diag_error(n->loc, "wtc_depth may only be used in cond:");
        } else if (!d || !(param_of(c->f, d) || d->is_global || d->kind == DK_ENUMCONST ||
                           d->kind == DK_FUNC)) {
            /* not declared at all here: a function defined further down, most likely
               (C needs its declaration before the clause that names it) */
            const char *later = d ? "" : "; a function or global named in a clause must be "
                                         "declared before the recursive function";
            if (cond)
                diag_error(n->loc, "cond: may only use parameters, globals, functions and "
                           "wtc_depth ('%s' is neither%s)", n->name, later);
            else
                diag_error(n->loc, "'%s' in the count of '%s' is not a parameter or global%s",
                           n->name, c->buf, later);
        }
    }
    cg_children(n, check_clause_ident, data);
}

/* Does a count read anything but f's scalar parameters and enum constants (a global, a
   function's result, memory behind a pointer parameter)? Then it may change between
   the spawn point and the send, and is kept in the args struct (RecFn.counts_kept). */
static void count_reads_outside(Node *n, void *data)
{
    IdentCheck *c = data;
    if (n->kind == ND_IDENT) {
        RecParam *p = n->decl ? param_of(c->f, n->decl) : NULL;
        if (!(p && !p->is_ptr) && !(n->decl && n->decl->kind == DK_ENUMCONST))
            c->f->counts_kept = true;
    }
    cg_children(n, count_reads_outside, data);
}

/* A count is evaluated by the runtime as often as its choices need (a number of times
   that depends on the processors), and in plain C not at all: like cond:, it must not
   change anything. */
static void check_count_write(Clause *cl, ClauseItem *it)
{
    Node *w = NULL;
    find_write(it->count, &w);
    if (w)
        diag_error(w->loc, "the count of '%s' in %s must not change anything (the runtime "
                   "evaluates it as often as it needs, plain C not at all)", it->name,
                   clause_word(cl->kind));
}

/* What an expression that must be an integer has instead, for the message; NULL when it
   is an integer (or its type is not known). */
static const char *not_integer(Node *n)
{
    static const char *const what[] = {
        [EC_FLOATING] = "a floating or complex type", [EC_POINTER] = "a pointer or array type",
        [EC_AGGREGATE] = "a struct or union type", [EC_VOID] = "type void"};
    ExprClass c = n ? cg_expr_class(n) : EC_UNKNOWN;
    return c != EC_UNKNOWN && c != EC_INTEGER ? what[c] : NULL;
}

/* A count is a number of elements: an integer. The generated code converted a double
   count silently (and the C program has none to check it). */
static void check_count_type(Clause *cl, ClauseItem *it)
{
    const char *what = not_integer(it->count);
    if (what)
        diag_error(it->count->loc, "the count of '%s' in %s must have an integer type (it has "
                   "%s)", it->name, clause_word(cl->kind), what);
}

/* cond: is a condition, as C's 'if' takes one: of a scalar type (arithmetic or pointer).
   A void or struct cond: got the C compiler's error about the generated code, at the
   par's line (a helper's bug hunt). */
static void check_cond_type(Node *cond)
{
    ExprClass c = cg_expr_class(cond);
    if (c == EC_VOID || c == EC_AGGREGATE)
        diag_error(cond->loc, "cond: must have a scalar type (arithmetic or pointer, as the "
                   "condition of an 'if'); it has %s",
                   c == EC_VOID ? "type void" : "a struct or union type");
}

/* out: through a pointer to const: the callee cannot write there, and the copy back
   would write memory the caller declared read-only. */
static bool points_to_const(Type *t)
{
    Type *base = type_strip_typedefs(t)->base;
    return base && ((base->quals & Q_CONST) || (type_strip_typedefs(base)->quals & Q_CONST));
}

/* One item of in: or out:. */
/* The text of a count without its blanks, to compare two counts of one buffer. */
static char *count_text(const TranslationUnit *tu, Span sp)
{
    char *t = span_text(tu, sp), *w = t;
    for (const char *r = t; *r; r++)
        if (*r != ' ' && *r != '\t' && *r != '\n' && *r != '\r')
            *w++ = *r;
    *w = 0;
    return t;
}

static void check_item(const TranslationUnit *tu, RecFn *f, Clause *cl, ClauseItem *it)
{
    RecParam *p = param_named(f, it->name);
    if (!p) {
        diag_error(it->loc, "'%s' is not a parameter of '%s'", it->name, f->name);
        return;
    }
    bool is_in = cl->kind == CL_IN;
    if (is_in ? p->in : p->out) {
        diag_error(it->loc, "'%s' is listed twice in %s", it->name, clause_word(cl->kind));
        return;
    }
    if (is_in)
        p->in = true;
    else
        p->out = true;
    if (!p->is_ptr) {
        if (!is_in)
            diag_error(it->loc, "out: lists '%s', which is not a pointer; a scalar result is the "
                       "return value", it->name);
        else if (it->count)
            diag_error(it->loc, "'%s' is not a pointer; only pointer parameters take an element "
                       "count", it->name);
        return;
    }
    if (is_function_pointer(p->type)) {
        error_function_pointer(p, it->loc);
        return;
    }
    if (!is_in && points_to_const(p->type))
        diag_error(it->loc, "out: lists '%s', which points to const: the callee cannot write "
                   "through it, and copying its elements back would write memory the caller "
                   "declared read-only; list it in in: only", it->name);
    if (!it->count) {
        if (!p->count)
            diag_error(it->loc, "pointer parameter '%s' needs an element count: write '%s[N]' "
                       "with N the number of elements", it->name, it->name);
        return;
    }
    const char *why = NULL, *inc = incomplete_reason(type_strip_typedefs(p->type)->base);
    const char *fam = inc ? NULL : flexible_member(type_strip_typedefs(p->type)->base);
    if (inc)
        diag_error(it->loc, "element type of '%s' is %s; only plain data can be sent", it->name, inc);
    else if (fam)
        diag_error(it->loc, "element type of '%s' ends with a flexible array member ('%s'), which "
                   "sizeof leaves out, so it would not be sent; pass that array as a pointer "
                   "parameter of its own with its count", it->name, fam);
    else if (contains_pointer(type_strip_typedefs(p->type)->base, &why, 0))
        diag_error(it->loc, "element type of '%s' contains a pointer%s%s%s; only plain data can be "
                   "sent to another processor", it->name, why ? " (member '" : "",
                   why ? why : "", why ? "')" : "");
    IdentCheck c = {f, "count", it->name};
    check_clause_ident(it->count, &c);
    check_count_write(cl, it);
    check_count_type(cl, it);
    if (!p->count) {
        count_reads_outside(it->count, &c);
        p->count = it->count;
        p->count_span = it->count_span;
    } else if (strcmp(count_text(tu, p->count_span), count_text(tu, it->count_span)) != 0) {
        /* one buffer has one count: out: a[m] after in: a[n] was dropped, and the callee
           on another processor wrote m elements into a buffer of n (a helper's bug hunt) */
        diag_error(it->loc, "'%s' has the count '%s' in in: and '%s' in out:; a buffer has "
                   "one count: give both the same (the larger), or write '%s' alone in out: "
                   "to take in:'s", it->name, cg_one_line(span_text(tu, p->count_span)),
                   cg_one_line(span_text(tu, it->count_span)), it->name);
    }
}

/* mode: simple | dynamic [M] | steal */
static void check_mode(RecFn *f, Clause *cl)
{
    const char *w = cl->mode_word ? cl->mode_word : "";
    if (strcmp(w, "simple") == 0) {
        f->mode = WTC_MODE_SIMPLE;
        if (cl->mode_masters)
            diag_error(cl->mode_masters->loc, "mode 'simple' takes no number of masters");
        return;
    }
    if (strcmp(w, "steal") == 0) {
        f->mode = WTC_MODE_STEAL;
        if (cl->mode_masters)
            diag_error(cl->mode_masters->loc, "mode 'steal' takes no number of masters "
                       "(it has none: every processor computes)");
        return;
    }
    if (strcmp(w, "dynamic") != 0) {
        diag_error(cl->mode_word_loc, "unknown mode '%s'; write 'simple', 'dynamic', "
                   "'dynamic M' (M masters) or 'steal'", w);
        return;
    }
    f->mode = WTC_MODE_DYNAMIC;
    if (!cl->mode_masters)
        return;
    Node *m = cl->mode_masters;
    char *end = NULL;
    long v = m->kind == ND_INT_LIT && m->text ? strtol(m->text, &end, 0) : 0;
    if (m->kind != ND_INT_LIT || v <= 0 || v > 1000000 || (end && *end && !strchr("uUlL", *end)))
        diag_error(m->loc, "the number of masters must be a positive integer constant");
    else
        f->masters = (int)v;
}

/* The clauses: order in, out, cond, mode; each at most once; then the items. */
static void check_clauses(const TranslationUnit *tu, RecFn *f)
{
    Clause *seen[4] = {0};
    Clause *latest = NULL; /* the clause with the highest order written so far */
    for (Clause *cl = f->fd->clauses; cl; cl = cl->next) {
        if (seen[cl->kind]) {
            diag_error(cl->loc, "duplicate '%s' clause", clause_word(cl->kind));
            continue;
        }
        if (latest && latest->kind > cl->kind)
            diag_error(cl->loc, "'%s' must come before '%s' (the order is in:, out:, cond:, "
                       "mode:)", clause_word(cl->kind), clause_word(latest->kind));
        seen[cl->kind] = cl;
        if (!latest || cl->kind > latest->kind)
            latest = cl;
        if (cl->kind == CL_IN || cl->kind == CL_OUT)
            for (ClauseItem *it = cl->items; it; it = it->next)
                check_item(tu, f, cl, it);
        else if (cl->kind == CL_COND) {
            IdentCheck c = {f, "cond", NULL};
            Node *w = NULL;
            if (cl->cond) {
                check_clause_ident(cl->cond, &c);
                find_write(cl->cond, &w);
                check_cond_type(cl->cond);
            }
            if (w)
                diag_error(w->loc, "cond: must not change anything (it is evaluated where the "
                           "runtime decides, maybe more than once, and not where C would)");
            f->cond = cl;
        } else
            check_mode(f, cl);
    }
    for (int i = 0; i < f->nparams; i++) {
        RecParam *p = &f->params[i];
        if (p->is_ptr && !p->in && !p->out && p->name && is_function_pointer(p->type))
            error_function_pointer(p, p->decl->loc);
        else if (p->is_ptr && !p->in && !p->out && p->name)
            diag_error(p->decl->loc, "pointer parameter '%s' is in neither in: nor out:; the data "
                       "behind it would not exist on another processor (write 'in: %s[N];' or "
                       "'out: %s[N];')", p->name, p->name, p->name);
    }
    if (!seen[CL_IN]) /* no in: clause: every non-pointer parameter is an input */
        for (int i = 0; i < f->nparams; i++)
            if (!f->params[i].is_ptr)
                f->params[i].in = true;
}

/* ---- the body of a recursive function ------------------------------------------ */

typedef struct BodyCheck {
    Cg *cg;
    RecFn *f;
    bool *used;          /* per parameter: used in the body */
    bool *in_warned;     /* per parameter: a write through it (in: only) warned about */
    const char **warned; /* globals already warned about */
    int nwarned;
    const char *unwritten[64]; /* pointer-holding globals the program never writes */
    int nunwritten;
    const char *helper;  /* the function walked when not f itself (a function f calls,
                            directly or not): only what its globals hold is checked */
    Names helpers;       /* the functions f reaches, in the order found */
} BodyCheck;

/* Does the program write global g (memoized for the body: each look walks the whole
   program)? */
static bool written_once(BodyCheck *b, Decl *g)
{
    for (int i = 0; i < b->nunwritten; i++)
        if (strcmp(b->unwritten[i], g->name) == 0)
            return false;
    if (cg_global_written(b->cg, g->name))
        return true;
    if (b->nunwritten < 64)
        b->unwritten[b->nunwritten++] = g->name;
    return false;
}

/* A user-file global variable named by this expression, or NULL. */
static Decl *global_var(Node *n)
{
    if (!n || n->kind != ND_IDENT || !n->decl)
        return NULL;
    Decl *d = n->decl;
    return d->kind == DK_VAR && d->is_global && !d->loc.sys ? d : NULL;
}

enum { W_WRITE, W_DEREF, W_CALL, W_POINTERS };

/* A global wtc_share_max / wtc_share_min may name: an integer (not _Bool, not an enum)
   or floating variable, not const, volatile or _Atomic (the call is the
   synchronisation), not complex. */
static bool share_type_ok(Decl *g)
{
    Type *t = type_strip_typedefs(g->type);
    int q = Q_CONST | Q_VOLATILE | Q_ATOMIC;
    return t && !t->is_complex && !(t->quals & q) && !(g->type->quals & q) &&
           (t->kind == TY_CHAR || t->kind == TY_SHORT || t->kind == TY_INT ||
            t->kind == TY_LONG || t->kind == TY_LLONG || t->kind == TY_FLOAT ||
            t->kind == TY_DOUBLE || t->kind == TY_LDOUBLE);
}

/* Warn once per global and function; in a function f calls (b->helper) the warning
   says so. */
static void warn_global(BodyCheck *b, Node *at, Decl *g, int what)
{
    char who[512];
    for (int i = 0; i < b->nwarned; i++)
        if (strcmp(b->warned[i], g->name) == 0)
            return;
    b->warned[b->nwarned++] = g->name;
    if (b->helper)
        snprintf(who, sizeof who, "recursive function '%s' calls '%s', which", b->f->name,
                 b->helper);
    else
        snprintf(who, sizeof who, "recursive function '%s'", b->f->name);
    if (what == W_CALL)
        diag_warning(at->loc, "%s calls through global '%s', which holds rank 0's function "
                     "addresses: they are not valid on another processor (make it a const "
                     "table of functions and pass an index)", who, g->name);
    else if (what == W_POINTERS)
        diag_warning(at->loc, "%s uses global '%s', which holds pointers and which the "
                     "program writes: another processor gets rank 0's copy of it, whose "
                     "pointers are rank 0's addresses, not valid there, even one that keeps "
                     "its initializer (a FILE * set to stderr, a table of pointers filled in "
                     "main, a struct whose other members main sets); keep such pointers in a "
                     "global nobody writes, or pass what they point to as arguments", who,
                     g->name);
    else if (what == W_DEREF && !written_once(b, g))
        /* never written: each processor's own address of what its initializer names (a
           global, copied at the region's start, is right there; a helper's bug hunt
           found the old words false for 'int *tp = table') */
        diag_warning(at->loc, "%s dereferences global pointer '%s', which no function "
                     "writes: on each processor it points where its initializer says, in "
                     "that processor's memory (a global there holds rank 0's values from "
                     "the region's start; memory main allocates would exist only on rank 0)",
                     who, g->name);
    else if (what == W_DEREF)
        diag_warning(at->loc, "%s dereferences global pointer '%s'; the data it points to "
                     "exists only on rank 0", who, g->name);
    else {
        diag_warning(at->loc, "%s writes global variable '%s'; other processors will not see "
                     "the write", who, g->name);
        if (at->kind == ND_ASSIGN && at->op && strcmp(at->op, "=") == 0 && share_type_ok(g))
            diag_note(at->loc, "a best value found so far that every processor should see "
                      "is shared with wtc_share_max(%s, v) or wtc_share_min(%s, v) "
                      "(doc/language.md, \"Shared bounds\")", g->name, g->name);
    }
}

/* The variable an lvalue writes into, through indexing of arrays and member access. */
static Node *lvalue_root(Node *n)
{
    while (n && (n->kind == ND_MEMBER || (n->kind == ND_INDEX && n->lhs && n->lhs->decl &&
                                          !type_is_pointer(n->lhs->decl->type))))
        n = n->lhs;
    return n;
}

/* The variable whose memory the expression n designates or points into: 'buf', 'buf[k]',
   '&buf[k]', 'buf + k', 's.a[1]', 'p->x', '*p', '(char *)buf'; NULL for anything else.
   *bare: n is the variable itself (casts aside). */
static Decl *memory_root(Node *n, bool *bare)
{
    *bare = true;
    while (n) {
        if (n->kind == ND_CAST) {
            n = n->lhs;
        } else if (n->kind == ND_ADDR || n->kind == ND_INDEX || n->kind == ND_MEMBER ||
                   n->kind == ND_DEREF || n->kind == ND_PTR_MEMBER) {
            *bare = false;
            n = n->lhs;
        } else if (n->kind == ND_BINARY && n->op && (!strcmp(n->op, "+") || !strcmp(n->op, "-"))) {
            Node *r = n->rhs;
            bool r_ptr = r && r->kind == ND_IDENT && r->decl &&
                         (type_is_pointer(r->decl->type) ||
                          type_strip_typedefs(r->decl->type)->kind == TY_ARRAY);
            *bare = false;
            n = r_ptr ? r : n->lhs; /* 'k + p' or 'p + k' */
        } else {
            break;
        }
    }
    if (!n || n->kind != ND_IDENT || !n->decl ||
        (n->decl->kind != DK_VAR && n->decl->kind != DK_PARAM))
        return NULL;
    return n->decl;
}

/* A pointer parameter of f listed in in: but not in out: that the lvalue n writes
   through ('p[i]', '*p', 'p->m', '*(p + i)', 'p[i].m'), or NULL: a write to a variable
   itself ('p = q') or through anything else. */
static RecParam *in_only_written(RecFn *f, Node *n)
{
    bool bare;
    Decl *d = memory_root(n, &bare);
    RecParam *p = d && !bare ? param_of(f, d) : NULL;
    return p && p->is_ptr && p->in && !p->out ? p : NULL;
}

/* The global a call goes through when it holds function pointers that rank 0 set:
   'op(x)', '(*op)(x)', 'ops[k](x)', 's.fn(x)' with a global that is not const (a const
   one has every rank's own addresses, from its initializer), or NULL. */
static Decl *called_global(Node *callee)
{
    while (callee && (callee->kind == ND_DEREF || callee->kind == ND_INDEX ||
                      callee->kind == ND_MEMBER))
        callee = callee->lhs;
    Decl *g = global_var(callee);
    if (!g)
        return NULL;
    Type *t = g->type;
    for (Type *u = type_strip_typedefs(t); u && u->kind == TY_ARRAY; u = type_strip_typedefs(t))
        t = u->base;
    return (t->quals & Q_CONST) || (type_strip_typedefs(t)->quals & Q_CONST) ? NULL : g;
}

/* Notes a function of the program that the body walked calls (or names), to be walked
   too: not a recursive function (checked on its own), not one of a system header. */
static void note_helper(BodyCheck *b, Node *n)
{
    if (n->kind == ND_IDENT && n->decl && n->decl->kind == DK_FUNC && !n->decl->loc.sys &&
        !cg_recfn_by_name(b->cg, n->name))
        cg_names_add(&b->helpers, n->name);
}

/* Walk a recursive function's body: parameter uses, wtc_depth, global writes/derefs;
   in the functions it calls, what the globals they use hold (a pointer rank 0 set, a
   function address), as in the body itself. */
static void check_body_node(Node *n, void *data)
{
    BodyCheck *b = data;
    if (n->kind == ND_IDENT && !b->helper) {
        RecParam *p = n->decl ? param_of(b->f, n->decl) : NULL;
        if (p)
            b->used[p - b->f->params] = true;
    }
    note_helper(b, n);
    if (b->nwarned < 64) {
        /* in a function f calls, only what the globals hold, and of pointers only one the
           program sets (one it never writes holds its initializer, every rank's own
           address of a global whose value the region's start brings): 'gp = malloc(...)'
           in main crashed at -n 2 with no word (a helper's bug hunt) */
        Decl *g;
        bool write = cg_is_write(n);
        RecParam *p;
        if (write && (g = global_var(lvalue_root(n->lhs))))
            warn_global(b, n, g, W_WRITE); /* also in a helper ('calls++' there was lost) */
        if (write && !b->helper && (p = in_only_written(b->f, n->lhs)) &&
            !b->in_warned[p - b->f->params]) {
            b->in_warned[p - b->f->params] = true;
            diag_warning(n->loc, "recursive function '%s' writes through '%s', which is "
                         "listed in in: but not in out:; when the call runs on another "
                         "processor its caller does not see the write (list '%s' in out: "
                         "too, or write into a buffer of its own)", b->f->name, p->name,
                         p->name);
        }
        if ((n->kind == ND_DEREF || n->kind == ND_PTR_MEMBER || n->kind == ND_INDEX) &&
            (g = global_var(n->lhs)) && type_is_pointer(g->type) &&
            (!b->helper || written_once(b, g)))
            warn_global(b, n, g, W_DEREF); /* SPEC 2.4 in f, whatever it points to */
        if (n->kind == ND_CALL && (g = called_global(n->lhs)))
            warn_global(b, n, g, W_CALL);
        if (n->kind == ND_IDENT && (g = global_var(n)) && !(g->type->quals & Q_CONST) &&
            !(b->helper && type_is_pointer(g->type)) && cg_holds_pointer(g->type, 0) &&
            written_once(b, g))
            warn_global(b, n, g, W_POINTERS);
    }
    cg_children(n, check_body_node, data);
}

/* in: present: every non-pointer parameter the body uses must be listed. */
static void check_body(Cg *cg, RecFn *f)
{
    BodyCheck b = {cg, f, ast_alloc(sizeof(bool) * (size_t)(f->nparams + 1)),
                   ast_alloc(sizeof(bool) * (size_t)(f->nparams + 1)),
                   ast_alloc(sizeof(char *) * 65), 0, {0}, 0, NULL, {0}};
    check_body_node(f->fd->body, &b);
    for (int i = 0; i < b.helpers.n; i++) { /* the list grows while we walk it */
        FuncDef *fd = cg_funcdef_named(cg, b.helpers.v[i]);
        if (fd && fd->body) {
            b.helper = b.helpers.v[i];
            check_body_node(fd->body, &b);
        }
    }
    b.helper = NULL;
    bool has_in = false;
    for (Clause *cl = f->fd->clauses; cl; cl = cl->next)
        has_in |= cl->kind == CL_IN;
    for (int i = 0; has_in && i < f->nparams; i++) {
        RecParam *p = &f->params[i];
        if (!p->is_ptr && !p->in && b.used[i])
            diag_error(p->decl->loc, "parameter '%s' is used but not listed in in:; add it to "
                       "the in: clause", p->name);
    }
}

/* ---- par statements ---------------------------------------------------------------- */

typedef struct ParCheck {
    Cg *cg;
    Node *par;           /* the par statement checked */
    const char **labels; /* labels defined inside the par body */
    int nlabels, caplabels;
    int loops;           /* loops around the statement checked (their continue is theirs) */
    int branches;        /* if and switch statements around it */
} ParCheck;

static void collect_labels(Node *n, void *data)
{
    ParCheck *pc = data;
    if (n->kind == ND_LABEL && n->name) {
        if (pc->nlabels == pc->caplabels) {
            pc->caplabels = pc->caplabels ? pc->caplabels * 2 : 16;
            const char **nl = ast_alloc(sizeof(char *) * (size_t)pc->caplabels);
            if (pc->nlabels)
                memcpy(nl, pc->labels, sizeof(char *) * (size_t)pc->nlabels);
            pc->labels = nl;
        }
        pc->labels[pc->nlabels++] = n->name;
    }
    cg_children(n, collect_labels, data);
}

static bool has_label(ParCheck *pc, const char *name)
{
    for (int i = 0; i < pc->nlabels; i++)
        if (strcmp(pc->labels[i], name) == 0)
            return true;
    return false;
}

static void par_stmt(ParCheck *pc, Node *n, bool is_last, int breakable, bool brk_ends);

/* A par inside a par body (a statement or a statement expression's). */
static void nested_par_error(Node *n)
{
    diag_error(n->loc, "nested par statement; a par body may not contain another par "
               "(move the inner par into a recursive function)");
}

/* An expression in a par body: a recursive call here is inside a larger expression. */
static void par_expr(Node *n, void *data)
{
    ParCheck *pc = data;
    RecFn *g;
    if (n->kind == ND_SIZEOF_EXPR || n->kind == ND_ALIGNOF_EXPR || n->kind == ND_GENERIC)
        return; /* not evaluated (_Generic: its controlling expression): no call there */
    g = cg_called_recfn(pc->cg, n);
    if (g && g->is_void) /* no result to store */
        diag_error(n->loc, "a call of recursive function '%s' is inside a larger expression; "
                   "in a par body write '%s(...);' as a statement of its own, the last of the "
                   "iteration", g->name, g->name);
    else if (g)
        diag_error(n->loc, "the result of recursive function '%s' is used inside a larger "
                   "expression; in a par body write 'v = %s(...);' as the last statement of the "
                   "iteration and use v after the par", g->name, g->name);
    if (n->kind == ND_STMT_EXPR && n->body) {
        par_stmt(pc, n->body, false, 0, false);
        return;
    }
    if (n->kind == ND_PAR) {
        nested_par_error(n);
        return;
    }
    cg_children(n, par_expr, data);
}

/* What follows items[i] of a block: the end of the iteration (a 'continue', or a
   'break' that ends it), the end of the block, or something else. */
enum { REST_ENDS, REST_FALLS, REST_MORE };

/* A statement that does nothing: ';', '{ }', or a label on one ('skip: ;', where a
   goto before the spawn point jumps to the end of the iteration; 'default: ;' or
   'case K: ;' that a case with a spawn point falls through to at the end of a switch). */
static bool no_action(const Node *n)
{
    if (!n || n->kind == ND_NULL_STMT)
        return true;
    if (n->kind == ND_LABEL || n->kind == ND_CASE || n->kind == ND_DEFAULT)
        return no_action(n->body);
    if (n->kind != ND_BLOCK)
        return false;
    for (int i = 0; i < n->nargs; i++)
        if (!no_action(n->args[i]))
            return false;
    return true;
}

static int rest_of(const ParCheck *pc, Node *blk, int i, bool brk_ends)
{
    for (int j = i + 1; j < blk->nargs; j++) {
        Node *it = blk->args[j];
        if (no_action(it))
            continue;
        return (it->kind == ND_CONTINUE && !pc->loops) || (it->kind == ND_BREAK && brk_ends)
                   ? REST_ENDS
                   : REST_MORE;
    }
    return REST_FALLS;
}

/* 'do … while (0)', the statement macros are wrapped in: its body runs once. */
static bool once_do(const Node *n)
{
    return n->kind == ND_DO && n->cond && n->cond->kind == ND_INT_LIT && n->cond->text &&
           strcmp(n->cond->text, "0") == 0;
}

/* Is lo..hi one iteration or none (integer constants, lo >= hi)? */
static bool one_iteration(const Node *par)
{
    return par->lhs && par->rhs && par->lhs->kind == ND_INT_LIT &&
           par->rhs->kind == ND_INT_LIT && par->lhs->text && par->rhs->text &&
           strtoll(par->lhs->text, NULL, 0) >= strtoll(par->rhs->text, NULL, 0);
}

/* A spawn point statement: its call must be the last action; arguments are expressions. */
static void par_spawn(ParCheck *pc, Node *stmt, Node *call, Node *lv, bool is_last)
{
    RecFn *g = cg_called_recfn(pc->cg, call);
    capture_check(pc->cg, pc->par, stmt, call, lv);
    /* 'i = f(i);': C's loop would go on from the result, the par's drops it (the index
       ends with its iteration) */
    bool into_index = lv && lv->kind == ND_IDENT && lv->decl && lv->decl == pc->par->decl;
    if (into_index)
        diag_error(lv->loc, "the result of '%s' cannot go into the par index '%s': the "
                   "index is the iteration's own, and the result would be dropped (in C it "
                   "would change the loop); store it in an array indexed by '%s'", g->name,
                   lv->name, lv->name);
    /* 'f(&i);' with an out: parameter: the same, through the pointer (the callee writes
       a copy of the index where the call is deferred, the index itself where it runs at
       once: the result depended on the processors) */
    for (int i = 0; g && i < g->nparams && i < call->nargs; i++) {
        Node *a = call->args[i];
        if (g->params[i].out && a && a->kind == ND_ADDR && a->lhs && a->lhs->kind == ND_IDENT &&
            a->lhs->decl && a->lhs->decl == pc->par->decl)
            diag_error(a->loc, "'&%s' passes the par index to '%s', which lists '%s' in out:; "
                       "the index is the iteration's own, and what the call writes there "
                       "would be lost (in C it would change the loop); pass a copy "
                       "('int k = %s;' before the call, then '&k')", a->lhs->name, g->name,
                       g->params[i].name, a->lhs->name);
    }
    /* 'r = f(i);' into one variable from every iteration: C keeps the last iteration's
       value, a par the one whose call ends last (not under an if: iterations may store
       into different variables) */
    if (!into_index && lv && lv->kind == ND_IDENT && lv->decl &&
        lv->decl->kind != DK_ENUMCONST && !pc->branches && !one_iteration(pc->par) &&
        pc->par->body &&
        !(lv->decl->span.start >= pc->par->body->span.start &&
          lv->decl->span.start < pc->par->body->span.end))
        diag_warning(lv->loc, "every iteration of this par stores the result of '%s' into "
                     "'%s': which one stays depends on the order the calls end (in C, the "
                     "last iteration's); store into an array indexed by '%s'", g->name,
                     lv->name, pc->par->name);
    if (!is_last && g->is_void)
        diag_error(call->loc, "a call of recursive function '%s' in a par body must be the last "
                   "action of its iteration; move what follows after the par", g->name);
    else if (!is_last)
        diag_error(call->loc, "a call of recursive function '%s' in a par body must be the last "
                   "action of its iteration; store the result ('v[i] = %s(...);') and move what "
                   "follows after the par", g->name, g->name);
    for (int i = 0; i < call->nargs; i++)
        par_expr(call->args[i], pc);
    if (lv)
        par_expr(lv, pc);
}

/* An expression statement in a par body: a spawn point, or an expression. */
static void par_expr_stmt(ParCheck *pc, Node *n, bool is_last)
{
    Node *call, *lv, *e = n->lhs;
    Type *t = e && e->kind == ND_CAST ? type_strip_typedefs(e->type) : NULL;
    RecFn *g;
    if (cg_spawn_of(pc->cg, n, &call, &lv))
        par_spawn(pc, n, call, lv, is_last);
    else if (t && t->kind == TY_VOID && (g = cg_called_recfn(pc->cg, e->lhs)) && !g->is_void) {
        /* '(void)f(x);': the result is dropped, the call is what is wanted */
        diag_error(e->lhs->loc, "'(void)%s(...)' in a par body is not a spawn point; write "
                   "'%s(...);' without the cast (a spawn point's result may be dropped)",
                   g->name, g->name);
        cg_children(e->lhs, par_expr, pc);
    } else if (e)
        par_expr(e, pc);
}

/* A loop in a par body: its own break ends the loop, never the iteration. */
static void par_loop(ParCheck *pc, Node *n, int breakable)
{
    if (n->init)
        n->init->kind == ND_DECLARATION || n->init->kind == ND_EXPR_STMT
            ? cg_children(n->init, par_expr, pc)
            : par_expr(n->init, pc);
    if (n->cond)
        par_expr(n->cond, pc);
    if (n->inc)
        par_expr(n->inc, pc);
    pc->loops++;
    par_stmt(pc, n->body, false, breakable + 1, false);
    pc->loops--;
}

/* return, break, goto in a par body: an error when they leave it. */
static void par_jump(ParCheck *pc, Node *n, int breakable)
{
    if (n->kind == ND_RETURN)
        diag_error(n->loc, "'return' inside a par body; store what you need and return after "
                   "the par");
    else if (n->kind == ND_BREAK && breakable == 0)
        diag_error(n->loc, "'break' leaves a par body; a par always runs all its "
                   "iterations (use 'continue' to end one iteration)");
    else if (n->kind == ND_GOTO && (!n->name || !has_label(pc, n->name)))
        diag_error(n->loc, "'goto' leaves a par body; jumps must stay inside the iteration");
}

/* A declaration in a par body. 'long t = f(x);' is not a spawn point: its variable
   ends with the iteration, before the deferred call's result could be stored there. */
static void par_decl(ParCheck *pc, Node *n)
{
    for (int i = 0; i < n->ndecls; i++) {
        Node *init = n->decls[i] ? n->decls[i]->init : NULL;
        RecFn *g = init ? cg_called_recfn(pc->cg, init) : NULL;
        if (!g) {
            if (init)
                par_expr(init, pc);
            continue;
        }
        diag_error(init->loc, "a call of recursive function '%s' initializes '%s', a variable "
                   "of the par body; a spawn point is '%s(...);' or 'lv = %s(...);' with lv "
                   "declared before the par (e.g. 'r[%s] = %s(...);'), used after it",
                   g->name, n->decls[i]->name, g->name, g->name, pc->par->name, g->name);
        cg_children(init, par_expr, pc);
    }
}

/* Statements of a par body. is_last: nothing follows in the iteration on this path;
   breakable: inner loops/switches around; brk_ends: a break here ends the iteration. */
static void par_stmt(ParCheck *pc, Node *n, bool is_last, int breakable, bool brk_ends)
{
    if (!n)
        return;
    switch (n->kind) {
    case ND_BLOCK:
        for (int i = 0; i < n->nargs; i++) {
            int rest = rest_of(pc, n, i, brk_ends);
            par_stmt(pc, n->args[i], rest == REST_ENDS || (is_last && rest == REST_FALLS),
                     breakable, brk_ends);
        }
        break;
    case ND_EXPR_STMT:
        par_expr_stmt(pc, n, is_last);
        break;
    case ND_IF:
        par_expr(n->cond, pc);
        pc->branches++;
        par_stmt(pc, n->then, is_last, breakable, brk_ends);
        par_stmt(pc, n->els, is_last, breakable, brk_ends);
        pc->branches--;
        break;
    case ND_DO:
        if (once_do(n) && is_last) { /* its break and continue end the iteration too */
            par_stmt(pc, n->body, true, breakable + 1, true);
            break;
        }
        par_loop(pc, n, breakable);
        break;
    case ND_WHILE:
    case ND_FOR:
        par_loop(pc, n, breakable);
        break;
    case ND_SWITCH:
        par_expr(n->cond, pc);
        pc->branches++;
        par_stmt(pc, n->body, is_last, breakable + 1, is_last);
        pc->branches--;
        break;
    case ND_CASE:
    case ND_DEFAULT:
    case ND_LABEL:
        par_stmt(pc, n->body, is_last, breakable, brk_ends);
        break;
    case ND_RETURN:
    case ND_BREAK:
    case ND_GOTO:
        par_jump(pc, n, breakable);
        break;
    case ND_PAR:
        nested_par_error(n);
        break;
    case ND_DECLARATION:
        par_decl(pc, n);
        break;
    default:
        break;
    }
}

/* Check one par statement. */
/* ---- a body that rewrites what the calls it spawns read ---------------------------- */

static bool decl_in(Decl *const *v, int n, const Decl *d);

/* Memory declared outside a par body that the calls spawned in it read through an in:
   argument ('lent'), and the lent variables already warned about. */
typedef struct LentCheck {
    Cg *cg;
    Node *par;
    Decl *lent[32];
    RecFn *by[32];       /* a function spawned with lent[k] */
    int nlent;
    Decl *warned[32];
    int nwarned;
    bool mentions;       /* lvalue_iterates: the walk met the index or a body variable */
    Decl *root;          /* lvalue_iterates: the variable written (not a mention) */
} LentCheck;

static bool declared_in(const Node *body, const Decl *d)
{
    return d->span.start >= body->span.start && d->span.start < body->span.end;
}

/* A variable of the body whose storage ends with the iteration: a static or extern
   one declared there outlives the par, as an outer one does (it is not copied at the
   spawn point: capture.c). */
static bool lives_in(const Node *body, const Decl *d)
{
    return declared_in(body, d) && d->storage != SC_STATIC && d->storage != SC_EXTERN;
}

static void lent_add(LentCheck *lc, Decl *d, RecFn *g)
{
    for (int k = 0; k < lc->nlent; k++)
        if (lc->lent[k] == d)
            return;
    if (lc->nlent < (int)(sizeof lc->lent / sizeof lc->lent[0])) {
        lc->lent[lc->nlent] = d;
        lc->by[lc->nlent++] = g;
    }
}

/* The spawns of the body: each in: pointer argument into memory declared outside it. */
static void lent_collect(Node *n, void *data)
{
    LentCheck *lc = data;
    RecFn *g = n->kind == ND_CALL ? cg_called_recfn(lc->cg, n) : NULL;
    for (int k = 0; g && k < n->nargs && k < g->nparams; k++) {
        bool bare;
        Decl *d;
        if (g->params[k].is_ptr && g->params[k].in &&
            (d = memory_root(n->args[k], &bare)) && !lives_in(lc->par->body, d))
            lent_add(lc, d, g);
    }
    cg_children(n, lent_collect, data);
}

/* Does the lvalue name the par's index or a variable of the body (then each iteration
   may write its own element: 'tmp[i] = ...', 'buf[k] = ...' with k from i)? */
static void lvalue_iterates(Node *n, void *data)
{
    LentCheck *lc = data;
    if (n->kind == ND_IDENT && n->decl && n->decl != lc->root &&
        (n->decl == lc->par->decl || declared_in(lc->par->body, n->decl)))
        lc->mentions = true;
    cg_children(n, lvalue_iterates, data);
}

/* The body's writes into lent memory that every iteration makes to the same place:
   'buf[0] = i;  r[i] = first(buf, 1);'. The spawned calls run after the whole body (on
   other processors, or here at the par's end), so each reads what the last iteration
   wrote, where C's call reads what its own iteration wrote: 33 33 33 33 against C's
   0 11 22 33 (a helper's bug hunt). */
/* The C library's functions that write through their first argument. */
static Node *libc_dest(Node *n)
{
    static const char *const writers[] = {"memcpy", "memmove", "memset", "strcpy",
                                          "strncpy", "strcat", "strncat", "sprintf",
                                          "snprintf"};
    if (n->kind != ND_CALL || !n->lhs || n->lhs->kind != ND_IDENT || !n->lhs->name ||
        n->nargs < 1)
        return NULL;
    for (size_t i = 0; i < sizeof writers / sizeof writers[0]; i++)
        if (strcmp(n->lhs->name, writers[i]) == 0 ||
            (strncmp(n->lhs->name, "__builtin_", 10) == 0 &&
             strcmp(n->lhs->name + 10, writers[i]) == 0))
            return n->args[0];
    return NULL;
}

static void lent_writes(Node *n, void *data)
{
    LentCheck *lc = data;
    Decl *d;
    bool bare;
    int k;
    Node *dest = libc_dest(n);
    if (!dest && cg_is_write(n) && !(n->kind == ND_ASSIGN && cg_called_recfn(lc->cg, n->rhs)))
        dest = n->lhs;
    if (dest && (d = memory_root(dest, &bare)) &&
        !(bare && dest == n->lhs && type_is_pointer(d->type))) {
        for (k = 0; k < lc->nlent && lc->lent[k] != d; k++)
            ;
        lc->mentions = false;
        lc->root = d;
        if (k < lc->nlent)
            lvalue_iterates(dest, lc);
        if (k < lc->nlent && !lc->mentions && !decl_in(lc->warned, lc->nwarned, d) &&
            lc->nwarned < (int)(sizeof lc->warned / sizeof lc->warned[0])) {
            char hint[160];
            if (type_is_pointer(d->type) || type_strip_typedefs(d->type)->kind == TY_ARRAY)
                snprintf(hint, sizeof hint, "element, e.g. '%s[%s]'", d->name, lc->par->name);
            else
                snprintf(hint, sizeof hint, "copy, e.g. in an array indexed by '%s'",
                         lc->par->name);
            lc->warned[lc->nwarned++] = d;
            diag_warning(n->loc, "every iteration of this par writes '%s', which the calls "
                         "of '%s' it spawns read: spawned calls run after the whole body "
                         "(on other processors, or here at the par's end), so each reads "
                         "what the last iteration wrote, not what its own iteration wrote "
                         "before its spawn (give each iteration its own %s, or a variable "
                         "declared in the body, not static)", d->name, lc->by[k]->name, hint);
        }
    }
    cg_children(n, lent_writes, data);
}

/* A par's bounds are integers: the index is an int, and a double bound was converted
   silently ('par i = 0 to hi' with hi = -0.5 ran one iteration, where 'i <= hi' runs
   none; a helper's bug hunt). */
static void check_par_bounds(Node *par)
{
    Node *b[2] = {par->lhs, par->rhs};
    for (int i = 0; i < 2; i++) {
        const char *what = not_integer(b[i]);
        if (what)
            diag_error(b[i]->loc, "the %s bound of par '%s' must have an integer type (it has "
                       "%s; the index is an int)", i ? "upper" : "lower", par->name, what);
    }
}

static void check_par(Cg *cg, Node *par)
{
    ParCheck pc = {cg, par, NULL, 0, 0, 0, 0};
    check_par_bounds(par);
    if (par->body)
        collect_labels(par->body, &pc);
    par_stmt(&pc, par->body, true, 0, false);
    if (par->body && !one_iteration(par) && cg_par_has_spawn(cg, par)) {
        LentCheck lc = {0};
        lc.cg = cg;
        lc.par = par;
        lent_collect(par->body, &lc);
        if (lc.nlent)
            lent_writes(par->body, &lc);
    }
}

/* Find the par statements of a function body; report wtc_depth outside cond:. */
/* ---- shared bounds: wtc_share_max(g, v), wtc_share_min(g, v) ------------------------ */

/* The shared-bound calls: wtc_share_max(g, v), wtc_share_min(g, v), and the forms with
   the solution that has the value, wtc_share_max_with(g, v, G, p) / _min_with. */
static const struct share_fn {
    const char *name;
    int op, with;
} share_fns[] = {
    { "wtc_share_max", WTC_SHARE_MAX, 0 }, { "wtc_share_min", WTC_SHARE_MIN, 0 },
    { "wtc_share_max_with", WTC_SHARE_MAX, 1 }, { "wtc_share_min_with", WTC_SHARE_MIN, 1 },
};

/* The form n calls (not a function the user declared), or NULL. */
static const struct share_fn *share_call(const Node *n)
{
    const Node *c = n->kind == ND_CALL ? n->lhs : NULL;
    if (!c || c->kind != ND_IDENT || c->decl || !c->name)
        return NULL;
    for (size_t i = 0; i < sizeof share_fns / sizeof share_fns[0]; i++)
        if (strcmp(c->name, share_fns[i].name) == 0)
            return &share_fns[i];
    return NULL;
}

/* The global G of a _with form: any variable of this file that may be written (an
   array, a struct, a scalar), or NULL after an error. */
static Decl *share_data(const struct share_fn *f, Node *arg)
{
    Decl *d = global_var(arg);
    int q = Q_CONST | Q_VOLATILE | Q_ATOMIC;
    Type *t = d ? d->type : NULL;
    while (t && type_strip_typedefs(t)->kind == TY_ARRAY)
        t = type_strip_typedefs(t)->base;
    if (!d || d->is_thread_local || !t || (t->quals & q) || (type_strip_typedefs(t)->quals & q) ||
        type_strip_typedefs(t)->kind == TY_VOID) {
        diag_error(arg->loc, "the third argument of %s must name a global variable of this "
                   "file, not const, volatile or _Atomic (where the solution of the best "
                   "value is kept)", f->name);
        return NULL;
    }
    return d;
}

/* The fourth argument of a _with form points to the solution that has the value (sizeof
   G bytes are copied from it): a struct or number passed by value (a slip for '&t') was
   left to the C compiler, whose error named the runtime's internals. */
static bool share_solution_ok(const Cg *cg, const struct share_fn *f, Node *arg,
                              const Decl *data)
{
    ExprClass c = cg_expr_class(arg);
    if (c == EC_UNKNOWN || c == EC_POINTER)
        return true;
    bool lvalue = arg->kind == ND_IDENT || arg->kind == ND_MEMBER ||
                  arg->kind == ND_PTR_MEMBER || arg->kind == ND_INDEX;
    char *text = cg_one_line(span_text(cg->tu, arg->span));
    diag_error(arg->loc, "the fourth argument of %s must point to the solution (sizeof %s "
               "bytes are copied from it into '%s'); '%s' is %s, not a pointer%s%s%s", f->name,
               data->name, data->name, text,
               c == EC_AGGREGATE ? "a struct or union" : c == EC_VOID ? "void" : "a number",
               lvalue ? ": write '&" : "", lvalue ? text : "", lvalue ? "'" : "");
    return false;
}

/* The first argument must name a global variable of a real or integer type (not _Bool,
   an enum or a complex type), not const; each global takes one direction and, in every
   call, the same global for its solution or none. */
static void check_share(Cg *cg, Node *n, const struct share_fn *f)
{
    int want = f->with ? 4 : 2;
    Decl *g = n->nargs == want ? global_var(n->args[0]) : NULL, *data = NULL;
    if (n->nargs != want) {
        diag_error(n->loc, f->with ? "%s takes four arguments: a global variable, a value, "
                                     "the global for its solution and a pointer to the "
                                     "solution"
                                   : "%s takes two arguments: a global variable and a value",
                   f->name);
        return;
    }
    if (!g || g->is_thread_local) {
        diag_error(n->args[0]->loc, "the first argument of %s must name a global variable "
                   "of this file (the bound every processor shares)", f->name);
        return;
    }
    if (!share_type_ok(g)) {
        diag_error(n->args[0]->loc, "%s: global '%s' must be an integer or floating "
                   "variable (char ... long long, float, double, long double), not const, "
                   "volatile or _Atomic", f->name, g->name);
        return;
    }
    if (f->with && !(data = share_data(f, n->args[2])))
        return;
    if (f->with && !share_solution_ok(cg, f, n->args[3], data))
        return;
    if (data == g) {
        diag_error(n->args[2]->loc, "%s: the solution's global must not be the bound '%s' "
                   "itself", f->name, g->name);
        return;
    }
    for (int i = 0; i < cg->nshared; i++)
        if (cg->shared[i] == g) {
            if (cg->shared_op[i] != f->op)
                diag_error(n->loc, "global '%s' is shared with both wtc_share_max and "
                           "wtc_share_min; a bound only moves one way", g->name);
            else if (cg->shared_data[i] != data)
                diag_error(n->loc, "global '%s' is shared with %s%s here and with %s%s "
                           "elsewhere; its solution must always travel with it, in the same "
                           "global", g->name, data ? "the solution in " : "no solution",
                           data ? data->name : "",
                           cg->shared_data[i] ? "the solution in " : "no solution",
                           cg->shared_data[i] ? cg->shared_data[i]->name : "");
            return;
        }
    if (cg->nshared == cg->capshared) {
        int cap = cg->capshared ? 2 * cg->capshared : 8;
        Decl **v = ast_alloc(sizeof *v * (size_t)cap), **dv = ast_alloc(sizeof *dv * (size_t)cap);
        int *o = ast_alloc(sizeof *o * (size_t)cap);
        for (int i = 0; i < cg->nshared; i++) {
            v[i] = cg->shared[i];
            dv[i] = cg->shared_data[i];
            o[i] = cg->shared_op[i];
        }
        cg->shared = v;
        cg->shared_data = dv;
        cg->shared_op = o;
        cg->capshared = cap;
    }
    cg->shared[cg->nshared] = g;
    cg->shared_data[cg->nshared] = data;
    cg->shared_op[cg->nshared++] = f->op;
}

static void find_pars(Node *n, void *data)
{
    Cg *cg = data;
    const struct share_fn *f;
    if (cg_is_wtc_depth(n))
        diag_error(n->loc, "wtc_depth may only be used in cond:");
    if (n->kind == ND_PAR)
        check_par(cg, n);
    if ((f = share_call(n)))
        check_share(cg, n, f);
    cg_children(n, find_pars, data);
}

/* ---- a goto into a par body ------------------------------------------------------- */

/* The labels inside par bodies of one function (C's labels are the function's), each
   with its par; then its gotos, each with the par it stands in. */
typedef struct GotoIn {
    const char *name[256];
    Node *lpar[256];
    int n;
    Node *par;   /* the par around the node visited (NULL: none) */
    bool gotos;  /* second walk: look at the gotos */
} GotoIn;

static void goto_in_walk(Node *n, void *data)
{
    GotoIn *g = data;
    Node *outer = g->par;
    if (!g->gotos && n->kind == ND_LABEL && n->name && g->par && g->n < 256) {
        g->name[g->n] = n->name;
        g->lpar[g->n++] = g->par;
    }
    if (g->gotos && n->kind == ND_GOTO && n->name)
        for (int i = 0; i < g->n; i++)
            if (strcmp(g->name[i], n->name) == 0 && g->lpar[i] != g->par) {
                diag_error(n->loc, "'goto %s' jumps into the body of a par; a par body is "
                           "entered only by the par itself", n->name);
                break;
            }
    if (n->kind == ND_PAR)
        g->par = n;
    cg_children(n, goto_in_walk, data);
    g->par = outer;
}

/* A goto from outside a par body (or from another par's) to a label inside it. */
static void check_goto_into_par(Node *body)
{
    GotoIn g;
    g.n = 0;
    g.par = NULL;
    g.gotos = false;
    goto_in_walk(body, &g);
    if (!g.n)
        return;
    g.gotos = true;
    goto_in_walk(body, &g);
}

/* ---- globals written in the body of a par that starts a region --------------------- */

/* The globals recursive functions read (their bodies), and what was warned. */
typedef struct RegionWrites {
    Cg *cg;
    Decl *read[256];
    int nread;
    Decl *warned[64];
    int nwarned;
} RegionWrites;

static bool decl_in(Decl *const *v, int n, const Decl *d)
{
    for (int i = 0; i < n; i++)
        if (v[i] == d)
            return true;
    return false;
}

static void collect_global_reads(Node *n, void *data)
{
    RegionWrites *w = data;
    Decl *g = global_var(n);
    if (g && w->nread < (int)(sizeof w->read / sizeof w->read[0]) &&
        !decl_in(w->read, w->nread, g))
        w->read[w->nread++] = g;
    cg_children(n, collect_global_reads, data);
}

/* In the body of a region's par: a write to a global that recursive functions read. The
   region's globals travel when the par begins (REGION_BEGIN), so a call spawned after the
   write runs, on another processor, with the value from before it (SPEC 2.4). */
static void region_body_writes(Node *n, void *data)
{
    RegionWrites *w = data;
    bool write = cg_is_write(n);
    Decl *g;
    if (write && (g = global_var(lvalue_root(n->lhs))) && decl_in(w->read, w->nread, g) &&
        !decl_in(w->warned, w->nwarned, g) && w->nwarned < 64) {
        w->warned[w->nwarned++] = g;
        diag_warning(n->loc, "global variable '%s' is written in the body of a par that "
                     "starts a parallel region, and recursive functions read it: a call "
                     "running on another processor sees its value from when the par began, "
                     "not the one set before its spawn (set it before the par, or pass it "
                     "as an argument)", g->name);
    }
    cg_children(n, region_body_writes, data);
}

static void find_region_pars(Node *n, void *data)
{
    RegionWrites *w = data;
    if (n->kind == ND_PAR && n->body && cg_par_has_spawn(w->cg, n))
        region_body_writes(n->body, w);
    cg_children(n, find_region_pars, data);
}

/* ---- a name of cond: hidden at a par ---------------------------------------------- */

/* The par of a recursive function evaluates its cond: where the par stands (clone.c,
   render_par): a declaration in the body around the par that hides a parameter, global,
   function or enum constant the cond: names made the cond: read the local instead (an
   int local turned the parallelism off without a word; a struct stopped gcc on the
   generated code). The parser notes such a name on the par (cond_hidden). */
typedef struct CondHidden {
    const Cg *cg;
    RecFn *f;
} CondHidden;

static void cond_hidden_walk(Node *n, void *data)
{
    CondHidden *h = data;
    if (n->kind == ND_PAR) {
        if (n->cond_hidden && cg_par_has_spawn(h->cg, n))
            diag_error(n->loc, "'%s', which the cond: of '%s' names, is hidden at this par "
                       "by a declaration of '%s' in the function's body; the par evaluates "
                       "cond: where it stands, so it would read that one: rename it",
                       n->cond_hidden, h->f->name, n->cond_hidden);
        return; /* no par inside a par body */
    }
    cg_children(n, cond_hidden_walk, data);
}

static void check_cond_hidden(const Cg *cg, RecFn *f)
{
    CondHidden h = {cg, f};
    if (f->cond && f->cond->cond && f->fd->body)
        cond_hidden_walk(f->fd->body, &h);
}

/* ---- a definition that takes the name of a function MPI calls ---------------------- */

/* POSIX functions that MPI's library, its launcher's client and its transports call:
   a program's own definition with external linkage replaces them for those too (the
   executable's symbol comes first). A program defining 'long write(long)' stopped at
   -n 2 with hydra's "write_line failed to write entire message" (a helper's bug hunt). */
static const char *const mpi_uses[] = {
    "accept", "bind", "close", "connect", "dup", "dup2", "epoll_wait", "fcntl", "getpid",
    "gethostname", "ioctl", "listen", "mmap", "munmap", "nanosleep", "open", "pipe", "poll",
    "read", "readv", "recv", "recvfrom", "recvmsg", "sched_yield", "select", "send",
    "sendmsg", "sendto", "shm_open", "shm_unlink", "shmat", "shmdt", "shmget", "socket",
    "unlink", "usleep", "write", "writev",
};

static void check_mpi_name(const Decl *d)
{
    if (!d || !d->name || !d->is_global || d->storage == SC_STATIC ||
        d->storage == SC_EXTERN || !d->loc.user)
        return;
    for (size_t i = 0; i < sizeof mpi_uses / sizeof mpi_uses[0]; i++)
        if (strcmp(d->name, mpi_uses[i]) == 0) {
            diag_warning(d->loc, "'%s' is also a function of the C library that MPI calls "
                         "(its library, its launcher's messages): defined here with external "
                         "linkage, it replaces that function for MPI too, and the job fails "
                         "or hangs; make it static or rename it", d->name);
            return;
        }
}

/* Check the whole translation unit; returns the number of errors found so far. */
int sema_check(Cg *cg)
{
    TranslationUnit *tu = cg->tu;
    collect_all(cg);
    for (int i = 0; i < cg->nfns; i++) {
        RecFn *f = cg->fns[i];
        check_signature(f);
        check_param_tags(cg, f);
        check_clauses(tu, f);
        check_body(cg, f);
        check_cond_hidden(cg, f);
    }
    for (int i = 0; i < tu->nitems; i++) {
        Node *n = tu->items[i];
        if (n->kind == ND_FUNCDEF && n->func)
            check_mpi_name(n->func->decl);
        for (int k = 0; n->kind == ND_DECLARATION && k < n->ndecls; k++)
            if (n->decls[k]->kind == DK_VAR && n->decls[k]->is_defined)
                check_mpi_name(n->decls[k]);
        if (n->kind == ND_FUNCDEF && n->func && n->func->body && n->func->decl->loc.user) {
            find_pars(n->func->body, cg);
            check_goto_into_par(n->func->body);
        }
    }
    {
        RegionWrites w = {0};
        w.cg = cg;
        for (int i = 0; i < cg->nfns; i++)
            collect_global_reads(cg->fns[i]->fd->body, &w);
        for (int i = 0; i < tu->nitems && w.nread; i++) {
            Node *n = tu->items[i];
            bool recursive = false;
            for (int k = 0; k < cg->nfns; k++)
                recursive |= cg->fns[k]->def == n;
            if (!recursive && n->kind == ND_FUNCDEF && n->func && n->func->body &&
                n->func->decl->loc.user)
                find_region_pars(n->func->body, &w);
        }
    }
    for (int i = 0; i < cg->nfns; i++) {
        RecFn *f = cg->fns[i];
        f->has_spawn_par = clone_has_spawn_par(cg, f->fd->body);
        f->has_par_clone = f->has_spawn_par || clone_has_recursive_call(cg, f->fd->body);
    }
    if (!cg->main_fd)
        diag_error((Loc){tu->path, 1, 1, true, false}, "no 'main' function; a Work-Time C program "
                   "starts in main like any C program");
    return diag_error_count();
}
