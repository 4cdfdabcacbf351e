/* ast.c - the node arena, constructors and the debug dump (wtcc --dump-ast).
 *
 * Memory is allocated from an arena and never freed, on purpose: wtcc is a
 * short-lived process. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"

/* ---- arena ---------------------------------------------------------------- */

#define ARENA_CHUNK (1 << 20)

typedef struct Chunk {
    struct Chunk *next;
    size_t used, cap;
    _Alignas(16) char data[];
} Chunk;

static Chunk *arena;

void *ast_alloc(size_t size)
{
    size = (size + 15) & ~(size_t)15;
    if (!arena || arena->used + size > arena->cap) {
        size_t cap = size > ARENA_CHUNK ? size : ARENA_CHUNK;
        Chunk *c = calloc(1, sizeof(Chunk) + cap);
        if (!c) {
            fputs("wtcc: error: out of memory\n", stderr);
            exit(1);
        }
        c->cap = cap;
        if (size > ARENA_CHUNK / 4 && arena) {
            /* a big block gets its own chunk; keep filling the current one */
            c->next = arena->next;
            arena->next = c;
            c->used = size;
            return c->data;
        }
        c->next = arena;
        arena = c;
    }
    void *p = arena->data + arena->used;
    arena->used += size;
    return p;
}

void ast_reset(void)
{
    while (arena) {
        Chunk *next = arena->next;
        free(arena);
        arena = next;
    }
}

char *ast_strndup(const char *s, size_t n)
{
    char *p = ast_alloc(n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

Node *ast_new(NodeKind kind, Loc loc, Span span)
{
    Node *n = ast_alloc(sizeof *n);
    n->kind = kind;
    n->loc = loc;
    n->span = span;
    n->depth = 1;
    return n;
}

/* A NUL byte can only stand in a string or character literal (the lexer calls it
   stray elsewhere), where gcc keeps it; it is written as the escape \000 (three octal
   digits: a digit that follows cannot join it), so that the text stays a C string and
   means the same. */
char *span_text(const TranslationUnit *tu, Span s)
{
    const char *p;
    size_t nuls = 0, n;
    char *out, *q;
    if (s.start < 0 || s.end > tu->len || s.end < s.start)
        return ast_strndup("", 0);
    p = tu->text + s.start;
    n = (size_t)(s.end - s.start);
    for (size_t i = 0; i < n; i++)
        nuls += p[i] == '\0';
    if (!nuls)
        return ast_strndup(p, n);
    out = q = ast_alloc(n + 3 * nuls + 1);
    for (size_t i = 0; i < n; i++) {
        if (p[i]) {
            *q++ = p[i];
        } else {
            memcpy(q, "\\000", 4);
            q += 4;
        }
    }
    *q = '\0';
    return out;
}

/* ---- dump ----------------------------------------------------------------- */

static const char *kind_names[] = {
    [ND_IDENT] = "Ident", [ND_INT_LIT] = "IntLit", [ND_FLOAT_LIT] = "FloatLit",
    [ND_CHAR_LIT] = "CharLit", [ND_STRING_LIT] = "StringLit", [ND_CALL] = "Call",
    [ND_INDEX] = "Index", [ND_MEMBER] = "Member", [ND_PTR_MEMBER] = "PtrMember",
    [ND_POST_INC] = "PostInc", [ND_POST_DEC] = "PostDec", [ND_PRE_INC] = "PreInc",
    [ND_PRE_DEC] = "PreDec", [ND_ADDR] = "Addr", [ND_DEREF] = "Deref", [ND_PLUS] = "Plus",
    [ND_NEG] = "Neg", [ND_BITNOT] = "BitNot", [ND_NOT] = "Not", [ND_REAL] = "Real",
    [ND_IMAG] = "Imag", [ND_SIZEOF_EXPR] = "SizeofExpr", [ND_ALIGNOF_EXPR] = "AlignofExpr",
    [ND_SIZEOF_TYPE] = "SizeofType", [ND_ALIGNOF_TYPE] = "AlignofType", [ND_CAST] = "Cast",
    [ND_COMPOUND_LIT] = "CompoundLit", [ND_BINARY] = "Binary", [ND_ASSIGN] = "Assign",
    [ND_COND] = "Cond", [ND_COMMA] = "Comma", [ND_STMT_EXPR] = "StmtExpr",
    [ND_GENERIC] = "Generic", [ND_BUILTIN] = "Builtin", [ND_LABEL_ADDR] = "LabelAddr",
    [ND_INIT_LIST] = "InitList", [ND_BLOCK] = "Block", [ND_EXPR_STMT] = "ExprStmt",
    [ND_NULL_STMT] = "NullStmt", [ND_IF] = "If", [ND_WHILE] = "While", [ND_DO] = "Do",
    [ND_FOR] = "For", [ND_SWITCH] = "Switch", [ND_CASE] = "Case", [ND_DEFAULT] = "Default",
    [ND_LABEL] = "Label", [ND_GOTO] = "Goto", [ND_CONTINUE] = "Continue",
    [ND_BREAK] = "Break", [ND_RETURN] = "Return", [ND_ASM] = "Asm", [ND_PAR] = "Par",
    [ND_DECLARATION] = "Declaration", [ND_STATIC_ASSERT] = "StaticAssert",
    [ND_FUNCDEF] = "FuncDef", [ND_EMPTY] = "Empty",
};

static const char *decl_kind_name(const Decl *d)
{
    switch (d->kind) {
    case DK_VAR: return d->is_global ? "global" : "local";
    case DK_FUNC: return "func";
    case DK_TYPEDEF: return "typedef";
    case DK_PARAM: return "param";
    case DK_ENUMCONST: return "enumconst";
    }
    return "?";
}

static const char *storage_names[] = {
    [SC_NONE] = "", [SC_TYPEDEF] = " typedef", [SC_EXTERN] = " extern",
    [SC_STATIC] = " static", [SC_AUTO] = " auto", [SC_REGISTER] = " register",
};

static void dump_node(const TranslationUnit *tu, FILE *out, Node *n, int ind, const char *role);

static void indent(FILE *out, int ind)
{
    for (int i = 0; i < ind && i < 200; i++)
        fputs("  ", out);
}

/* One line describing a declaration, then its initializer. */
static void dump_decl(const TranslationUnit *tu, FILE *out, Decl *d, int ind)
{
    indent(out, ind);
    fprintf(out, "Decl %s %s: %s%s%s%s @%d:%d\n", decl_kind_name(d), d->name ? d->name : "(anon)",
            type_to_c(tu, d->type, NULL), storage_names[d->storage],
            d->is_defined ? " defined" : "", d->prev_decl ? " redecl" : "", d->loc.line, d->loc.col);
    if (d->init)
        dump_node(tu, out, d->init, ind + 1, "init");
}

/* The clauses of a recursive function. */
static void dump_clauses(const TranslationUnit *tu, FILE *out, Clause *c, int ind)
{
    static const char *cl_names[] = {"in", "out", "cond", "mode"};
    for (; c; c = c->next) {
        indent(out, ind);
        fprintf(out, "Clause %s @%d:%d", cl_names[c->kind], c->loc.line, c->loc.col);
        for (ClauseItem *it = c->items; it; it = it->next) {
            fprintf(out, " %s", it->name);
            if (it->count)
                fprintf(out, "[%s]", span_text(tu, it->count_span));
            if (it->decl)
                fprintf(out, "(%s)", decl_kind_name(it->decl));
        }
        if (c->mode_word)
            fprintf(out, " %s", c->mode_word);
        fputc('\n', out);
        if (c->cond)
            dump_node(tu, out, c->cond, ind + 1, "cond");
        if (c->mode_masters)
            dump_node(tu, out, c->mode_masters, ind + 1, "masters");
    }
}

/* A function definition: signature, clauses, parameters, body. */
static void dump_funcdef(const TranslationUnit *tu, FILE *out, FuncDef *f, int ind)
{
    indent(out, ind + 1);
    fprintf(out, "signature: %s%s\n", f->is_recursive ? "recursive " : "",
            type_to_c(tu, f->decl->type, f->decl->name));
    dump_clauses(tu, out, f->clauses, ind + 1);
    for (int i = 0; i < f->nparams; i++)
        dump_decl(tu, out, f->param_decls[i], ind + 1);
    dump_node(tu, out, f->body, ind + 1, NULL);
}

/* Node-specific text after the kind name. */
static void dump_label(const TranslationUnit *tu, FILE *out, Node *n)
{
    if (n->kind == ND_IDENT)
        fprintf(out, " %s -> %s", n->name, n->decl ? decl_kind_name(n->decl) : "undeclared");
    else if (n->name)
        fprintf(out, " %s", n->name);
    if (n->op)
        fprintf(out, " %s", n->op);
    if (n->text)
        fprintf(out, " %s", n->text);
    if (n->type)
        fprintf(out, " (%s)", type_to_c(tu, n->type, NULL));
    if (n->kind == ND_FUNCDEF && n->func && n->func->decl)
        fprintf(out, " %s", n->func->decl->name);
}

static void dump_node(const TranslationUnit *tu, FILE *out, Node *n, int ind, const char *role)
{
    if (!n)
        return;
    indent(out, ind);
    if (ind > 5000) { /* cannot happen: the parser bounds the depth */
        fputs("...\n", out);
        return;
    }
    if (role)
        fprintf(out, "%s: ", role);
    fputs(kind_names[n->kind] ? kind_names[n->kind] : "?", out);
    dump_label(tu, out, n);
    fprintf(out, " @%d:%d\n", n->loc.line, n->loc.col);
    if (n->kind == ND_FUNCDEF && n->func) {
        dump_funcdef(tu, out, n->func, ind);
        return;
    }
    for (int i = 0; i < n->ndecls; i++)
        dump_decl(tu, out, n->decls[i], ind + 1);
    dump_node(tu, out, n->init, ind + 1, "init");
    dump_node(tu, out, n->cond, ind + 1, "cond");
    dump_node(tu, out, n->lhs, ind + 1, NULL);
    dump_node(tu, out, n->rhs, ind + 1, NULL);
    dump_node(tu, out, n->inc, ind + 1, "inc");
    dump_node(tu, out, n->then, ind + 1, "then");
    dump_node(tu, out, n->els, ind + 1, "else");
    for (int i = 0; i < n->nargs; i++)
        dump_node(tu, out, n->args[i], ind + 1, NULL);
    dump_node(tu, out, n->body, ind + 1, NULL);
}

void ast_dump(const TranslationUnit *tu, FILE *out)
{
    int hidden = 0;
    for (int i = 0; i < tu->nitems; i++)
        hidden += !tu->items[i]->loc.user;
    /* declarations from system headers would drown the user's code: count them only */
    fprintf(out, "TranslationUnit %s (%d items, %d from headers not shown)\n",
            tu->path ? tu->path : "?", tu->nitems, hidden);
    for (int i = 0; i < tu->nitems; i++)
        if (tu->items[i]->loc.user)
            dump_node(tu, out, tu->items[i], 1, NULL);
}
