/* capture.c - what a spawn point must capture because the par body's own storage ends
 * with the iteration (doc/language.md, "Variables declared in a par body").
 *
 * A spawn point defers its call to the end of the par, but an array declared in the
 * body (n-queens' 'char b[16]') ends with its iteration: the next iteration reuses it.
 * So at the spawn point, every pointer argument that points into such an object is
 * copied into storage the par frame owns until it closes (wtc_keep), and a result
 * whose destination lies in one is dropped (nothing can read it after the iteration).
 * Whether a pointer points into the body's storage is decided when the program runs
 * (wtc_within), against every object of the body in scope at the spawn point whose
 * address can be taken: arrays, structs and unions, and scalars whose address the body
 * takes with '&' (the par index included). Arrays declared outside the par are never
 * copied: they outlive it.
 */
#include <string.h>

#include "cg.h"
#include "diag.h"

/* The body's objects a spawn point's pointers may point into. */
typedef struct Objs {
    Decl **v;
    int n, cap;
} Objs;

static void objs_push(Objs *o, Decl *d)
{
    if (o->n == o->cap) {
        o->cap = o->cap ? 2 * o->cap : 8;
        Decl **nv = ast_alloc(sizeof(Decl *) * (size_t)o->cap);
        if (o->n)
            memcpy(nv, o->v, sizeof(Decl *) * (size_t)o->n);
        o->v = nv;
    }
    o->v[o->n++] = d;
}

/* Removes the object named 'name' from o (an inner declaration hides it); returns it,
   or NULL. */
static Decl *objs_hide(Objs *o, const char *name)
{
    for (int i = 0; name && i < o->n; i++)
        if (strcmp(o->v[i]->name, name) == 0) {
            Decl *d = o->v[i];
            o->v[i] = o->v[--o->n];
            return d;
        }
    return NULL;
}

/* The struct or union member 'name' of type t (anonymous members searched), or NULL. */
static Member *member_of(Type *t, const char *name, int depth)
{
    t = type_strip_typedefs(t);
    if (!t || !name || depth > 64 || (t->kind != TY_STRUCT && t->kind != TY_UNION) || !t->sinfo)
        return NULL;
    for (Member *m = t->sinfo->members; m; m = m->next) {
        Member *found = m->name ? NULL : member_of(m->type, name, depth + 1);
        if (found || (m->name && strcmp(m->name, name) == 0))
            return found ? found : m;
    }
    return NULL;
}

static Type *member_type(Type *t, const char *name, int depth)
{
    Member *m = member_of(t, name, depth);
    return m ? m->type : NULL;
}

/* The type of an lvalue made of a variable, array indexing, '.' and '->', or NULL. */
Type *cg_lvalue_type(Node *n)
{
    Type *t;
    if (!n)
        return NULL;
    if (n->kind == ND_IDENT)
        return n->decl ? n->decl->type : NULL;
    if (n->kind == ND_MEMBER)
        return member_type(cg_lvalue_type(n->lhs), n->name, 0);
    if (n->kind == ND_PTR_MEMBER && (t = type_strip_typedefs(cg_lvalue_type(n->lhs))) &&
        (t->kind == TY_PTR || t->kind == TY_ARRAY))
        return member_type(t->base, n->name, 0);
    if (n->kind == ND_INDEX && (t = type_strip_typedefs(cg_lvalue_type(n->lhs))) &&
        (t->kind == TY_ARRAY || t->kind == TY_PTR))
        return t->base;
    return NULL;
}

/* The variable an lvalue lies in (through '.' and the indexing of arrays, never through
   a pointer), or NULL. */
static Decl *root_var(Node *n)
{
    Type *t;
    while (n && (n->kind == ND_MEMBER ||
                 (n->kind == ND_INDEX && (t = type_strip_typedefs(cg_lvalue_type(n->lhs))) &&
                  t->kind == TY_ARRAY)))
        n = n->lhs;
    return n && n->kind == ND_IDENT && n->decl && n->decl->kind == DK_VAR ? n->decl : NULL;
}

typedef struct AddrTaken {
    Decl **v;
    int n, cap;
} AddrTaken;

/* Note every variable whose address the body takes with '&'. */
static void addr_taken(Node *n, void *data)
{
    AddrTaken *a = data;
    Decl *d;
    if (n->kind == ND_ADDR && (d = root_var(n->lhs))) {
        if (a->n == a->cap) {
            a->cap = a->cap ? 2 * a->cap : 8;
            Decl **nv = ast_alloc(sizeof(Decl *) * (size_t)a->cap);
            if (a->n)
                memcpy(nv, a->v, sizeof(Decl *) * (size_t)a->n);
            a->v = nv;
        }
        a->v[a->n++] = d;
    }
    cg_children(n, addr_taken, data);
}

static bool is_addr_taken(const AddrTaken *a, Decl *d)
{
    for (int i = 0; i < a->n; i++)
        if (a->v[i] == d)
            return true;
    return false;
}

/* Is d an object whose storage ends with the iteration and that a pointer can reach? */
static bool is_capturable(Decl *d, const AddrTaken *a)
{
    if (!d || d->kind != DK_VAR || d->is_global || !d->name || d->storage == SC_STATIC ||
        d->storage == SC_EXTERN || d->storage == SC_REGISTER)
        return false;
    TypeKind k = type_strip_typedefs(d->type)->kind;
    return k == TY_ARRAY || k == TY_STRUCT || k == TY_UNION || is_addr_taken(a, d);
}

static bool contains(Node *outer, Node *inner)
{
    return outer && outer->span.start <= inner->span.start && inner->span.end <= outer->span.end;
}

/* The declarations of one ND_DECLARATION: each hides an object of the same name (kept
   in 'hidden': the code can no longer name it), the capturable ones are added. */
static void add_decls(Objs *o, Objs *hidden, Node *decl, const AddrTaken *a)
{
    for (int i = 0; decl && decl->kind == ND_DECLARATION && i < decl->ndecls; i++) {
        Decl *d = decl->decls[i], *h;
        if (!d || !d->name)
            continue;
        if ((h = objs_hide(o, d->name)))
            objs_push(hidden, h);
        if (is_capturable(d, a))
            objs_push(o, d);
    }
}

/* Calls visit(decl, from, ctx) for each declaration of a par body in scope at statement
   stmt: those before it in every block on the path from the body down to it (from: where
   the statement before it ends, for what precedes its specifiers), and a for's. */
static void walk_scope(Node *par, Node *stmt, void (*visit)(Node *decl, int from, void *ctx),
                       void *ctx)
{
    Node *n = par->body;
    while (n && n != stmt) {
        Node *next = NULL;
        if (n->kind == ND_BLOCK) {
            for (int i = 0; i < n->nargs && !next; i++) {
                if (contains(n->args[i], stmt))
                    next = n->args[i];
                else
                    visit(n->args[i], i ? n->args[i - 1]->span.end : n->span.start, ctx);
            }
        } else if (n->kind == ND_IF) {
            next = contains(n->then, stmt) ? n->then : n->els;
        } else if (n->kind == ND_FOR) {
            visit(n->init, n->span.start, ctx);
            next = n->body;
        } else {
            next = n->body; /* switch, case, default, label, while, do */
        }
        n = next && contains(next, stmt) ? next : NULL;
    }
}

typedef struct ScopeObjs {
    Objs o, *hidden;
    AddrTaken a;
} ScopeObjs;

static void visit_objs(Node *decl, int from, void *ctx)
{
    ScopeObjs *x = ctx;
    (void)from;
    add_decls(&x->o, x->hidden, decl, &x->a);
}

/* The capturable objects of a par body in scope at statement stmt (walk_scope). Objects
   hidden there by another declaration of their name go to *hidden. */
static Objs objs_in_scope(Node *par, Node *stmt, Objs *hidden)
{
    ScopeObjs x = { .hidden = hidden };
    addr_taken(par->body, &x.a);
    if (par->decl && is_addr_taken(&x.a, par->decl))
        objs_push(&x.o, par->decl);
    walk_scope(par, stmt, visit_objs, &x);
    return x.o;
}

typedef struct ScopeCleanup {
    const TranslationUnit *tu;
    Node *found;
} ScopeCleanup;

/* A declaration with __attribute__((cleanup(f))) (the lexer noted where it dropped one:
   between the statement before it and its end). */
static void visit_cleanup(Node *decl, int from, void *ctx)
{
    ScopeCleanup *x = ctx;
    for (int i = 0; decl && decl->kind == ND_DECLARATION && !x->found && i < x->tu->ncleanups; i++)
        if (x->tu->cleanups[i] >= from && x->tu->cleanups[i] < decl->span.end)
            x->found = decl;
}

/* "wtc_within(P, &b, sizeof b) || ..." over the objects, for the pointer expression P. */
static char *within_any(const Objs *o, const char *ptr)
{
    Str b = {0};
    for (int i = 0; i < o->n; i++)
        str_printf(&b, "%swtc_within(%s, (const void *)&%s, sizeof %s)", i ? " || " : "", ptr,
                   o->v[i]->name, o->v[i]->name);
    return b.s;
}

/* Is the argument a compound literal's address ('(int[]){1, 2}', '&(struct s){0}')? Its
   object ends with the iteration, and it has no name to test against. */
static bool is_compound_literal(Node *n)
{
    while (n && (n->kind == ND_CAST || n->kind == ND_ADDR || n->kind == ND_INDEX ||
                 n->kind == ND_MEMBER ||
                 (n->kind == ND_BINARY && n->op && (!strcmp(n->op, "+") || !strcmp(n->op, "-")))))
        n = n->lhs;
    return n && n->kind == ND_COMPOUND_LIT;
}

/* The statements that copy g's pointer arguments (in the args struct __wtc_a) that point
   into the body's storage, before the spawn point 'stmt' of par 'par' defers the call
   in frame 'frame'; "" when there is nothing to copy. */
char *capture_args(const Cg *cg, Node *par, Node *stmt, Node *call, const char *frame)
{
    RecFn *g = cg_called_recfn(cg, call);
    Objs hidden = {0}, o = objs_in_scope(par, stmt, &hidden);
    Str b = {0};
    for (int i = 0; g && i < g->nparams && i < call->nargs; i++) {
        RecParam *p = &g->params[i];
        char *ptr = cg_fmt("(const void *)__wtc_a.%s", p->name);
        char *keep = cg_fmt("wtc_keep(%s, &__wtc_fn_%s, &__wtc_a, %d); ", frame, g->name, p->buf);
        if (!p->is_ptr)
            continue;
        if (is_compound_literal(call->args[i]))
            str_cat(&b, keep);
        else if (o.n)
            str_printf(&b, "if (%s) %s", within_any(&o, ptr), keep);
    }
    return b.s ? b.s : "";
}

/* Is d declared inside the par's body (or is it the par's index)? */
static bool declared_in(Node *par, Decl *d)
{
    return d == par->decl || (par->body && par->body->span.start <= d->span.start &&
                              d->span.end <= par->body->span.end);
}

/* The destination of a spawn point's result 'lv = f(...)', whose address is in the
   variable 'addr': an expression that is NULL when lv lies in the body's storage (nobody
   can read it after the iteration), else addr; NULL when lv cannot lie there. */
char *capture_dest(Node *par, Node *stmt, Node *lv, const char *addr)
{
    Objs hidden = {0}, o = objs_in_scope(par, stmt, &hidden);
    Decl *d = root_var(lv);
    if (d && d->storage != SC_STATIC && d->storage != SC_EXTERN && declared_in(par, d))
        return cg_fmt("((void)%s, (void *)0)", addr);
    if (d || !o.n) /* lv lies in a variable declared outside the body */
        return NULL;
    return cg_fmt("(%s) ? (void *)0 : %s", within_any(&o, addr), addr);
}

/* sema: a spawn point where an object of the body that a pointer argument (or the
   result's destination) may point into is hidden by another declaration of its name:
   the generated code could not name it to test the pointer. */
void capture_check(const Cg *cg, Node *par, Node *stmt, Node *call, Node *lv)
{
    RecFn *g = cg_called_recfn(cg, call);
    Objs hidden = {0};
    bool pointers = lv && !root_var(lv); /* else the destination is known statically */
    objs_in_scope(par, stmt, &hidden);
    for (int i = 0; g && i < g->nparams; i++)
        pointers |= g->params[i].is_ptr;
    if (lv && (lv->kind == ND_MEMBER || lv->kind == ND_PTR_MEMBER)) {
        Type *t = type_strip_typedefs(cg_lvalue_type(lv->lhs));
        Member *m = NULL;
        if (t && lv->kind == ND_PTR_MEMBER)
            t = t->kind == TY_PTR || t->kind == TY_ARRAY ? t->base : NULL;
        if (t && (m = member_of(t, lv->name, 0)) && m->bitfield)
            diag_error(lv->loc, "the result of '%s' cannot go into the bit-field '%s': a par "
                       "stores each call's result through its address when the call "
                       "returns; store it in a variable or array and copy it into '%s' "
                       "after the par", g ? g->name : "the call", lv->name, lv->name);
    }
    if (lv && lv->kind == ND_IDENT && lv->decl && lv->decl->storage == SC_REGISTER)
        diag_error(lv->loc, "the result of '%s' cannot go into the register variable '%s': "
                   "a par stores each call's result through its address when the call "
                   "returns; declare '%s' without 'register'", g ? g->name : "the call",
                   lv->decl->name, lv->decl->name);
    ScopeCleanup cl = { cg->tu, NULL };
    walk_scope(par, stmt, visit_cleanup, &cl);
    if (cl.found)
        diag_error(cl.found->loc, "a variable declared with __attribute__((cleanup)) in this "
                   "par body is cleaned up when its iteration leaves its block, in C after "
                   "the call of '%s' inside the block, but a par defers the call to the par's "
                   "end; declare it outside the par, or make the call from a function of its "
                   "own", g ? g->name : "the recursive function");
    if (hidden.n && pointers)
        diag_error(call->loc, "'%s', declared in the par body, is hidden at this call of '%s' "
                   "by another declaration of '%s', so a pointer into it could not be copied "
                   "for the deferred call; rename one of them", hidden.v[0]->name, g->name,
                   hidden.v[0]->name);
}
