/* type.c - Type helpers and printing a type back as a C declaration (type_to_c). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ast.h"

Type *type_new(TypeKind kind)
{
    Type *t = ast_alloc(sizeof *t);
    t->kind = kind;
    return t;
}

Type *type_strip_typedefs(Type *t)
{
    while (t && t->kind == TY_TYPEDEF && t->base)
        t = t->base;
    return t;
}

Type *type_decay(Type *t)
{
    Type *s = type_strip_typedefs(t);
    if (!s)
        return t;
    if (s->kind == TY_ARRAY) {
        Type *p = type_new(TY_PTR);
        p->base = s->base;
        return p;
    }
    if (s->kind == TY_FUNC) {
        Type *p = type_new(TY_PTR);
        p->base = t;
        return p;
    }
    return t;
}

bool type_is_pointer(Type *t)
{
    t = type_strip_typedefs(t);
    return t && t->kind == TY_PTR;
}

bool type_is_scalar_or_struct(Type *t)
{
    t = type_strip_typedefs(t);
    if (!t)
        return false;
    switch (t->kind) {
    case TY_VOID: case TY_ARRAY: case TY_FUNC:
        return false;
    case TY_TYPEDEF: /* an unresolved typedef: assume plain data */
    default:
        return true;
    }
}

/* ---- printing ------------------------------------------------------------- */

/* A growable arena string. */
typedef struct Buf {
    char *s;
    size_t len, cap;
} Buf;

/* Append printf-style text to a Buf. */
static void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void buf_printf(Buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (b->len + n + 1 > b->cap) {
        size_t ncap = (b->cap + n + 1) * 2;
        char *ns = ast_alloc(ncap);
        if (b->s)
            memcpy(ns, b->s, b->len);
        b->s = ns;
        b->cap = ncap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, n + 1, fmt, ap);
    va_end(ap);
    b->len += n;
}

static const char *buf_str(Buf *b)
{
    return b->s ? b->s : "";
}

/* "const volatile " etc. for the qualifier bits. */
static const char *quals_str(int q)
{
    static const char *tab[16];
    if (!tab[q]) {
        Buf b = {0};
        if (q & Q_CONST) buf_printf(&b, "const ");
        if (q & Q_VOLATILE) buf_printf(&b, "volatile ");
        if (q & Q_RESTRICT) buf_printf(&b, "restrict ");
        if (q & Q_ATOMIC) buf_printf(&b, "_Atomic ");
        tab[q] = buf_str(&b);
    }
    return tab[q];
}

/* The spelling of an arithmetic base type, e.g. "unsigned long". */
static const char *arith_name(Type *t)
{
    static const char *names[] = {
        [TY_VOID] = "void", [TY_BOOL] = "_Bool", [TY_CHAR] = "char", [TY_SHORT] = "short",
        [TY_INT] = "int", [TY_LONG] = "long", [TY_LLONG] = "long long",
        [TY_INT128] = "__int128", [TY_FLOAT] = "float", [TY_DOUBLE] = "double",
        [TY_LDOUBLE] = "long double",
    };
    const char *n = t->kind == TY_FLOATN ? t->name : names[t->kind];
    Buf b = {0};
    if (t->is_complex)
        buf_printf(&b, "_Complex ");
    if (t->is_unsigned)
        buf_printf(&b, "unsigned ");
    else if (t->is_signed && t->kind == TY_CHAR)
        buf_printf(&b, "signed ");
    buf_printf(&b, "%s", n ? n : "int");
    return buf_str(&b);
}

static void print_members(const TranslationUnit *tu, Buf *b, Member *m);

/* The declaration specifiers of a non-derived type (without qualifiers). */
static void print_base(const TranslationUnit *tu, Buf *b, Type *t)
{
    switch (t->kind) {
    case TY_STRUCT: case TY_UNION:
        buf_printf(b, "%s", t->kind == TY_STRUCT ? "struct" : "union");
        if (t->name)
            buf_printf(b, " %s", t->name);
        else if (t->sinfo)
            print_members(tu, b, t->sinfo->members);
        break;
    case TY_ENUM:
        if (t->name)
            buf_printf(b, "enum %s", t->name);
        else
            buf_printf(b, "int"); /* an anonymous enum: its constants are ints */
        break;
    case TY_TYPEDEF: case TY_TYPEOF: case TY_BUILTIN:
        buf_printf(b, "%s", t->name ? t->name : "int");
        break;
    default:
        buf_printf(b, "%s", arith_name(t));
        break;
    }
}

/* " { int a; double b; }" for an anonymous struct. */
static void print_members(const TranslationUnit *tu, Buf *b, Member *m)
{
    buf_printf(b, " {");
    for (; m; m = m->next)
        buf_printf(b, " %s;", type_to_c(tu, m->type, m->name));
    buf_printf(b, " }");
}

/* "(int a, char *b, ...)" for a function type. */
static void print_params(const TranslationUnit *tu, Buf *b, Type *f)
{
    buf_printf(b, "(");
    if (f->has_void_params)
        buf_printf(b, "void");
    for (Param *p = f->params; p; p = p->next)
        buf_printf(b, "%s%s", type_to_c(tu, p->type, p->name), p->next ? ", " : "");
    if (f->is_variadic)
        buf_printf(b, ", ...");
    buf_printf(b, ")");
}

char *type_to_c(const TranslationUnit *tu, Type *t, const char *name)
{
    /* Build the declarator inside-out: pointers prefix it, arrays and functions suffix
       it, and a pointer to an array/function needs parentheses. */
    Buf d = {0};
    buf_printf(&d, "%s", name ? name : "");
    bool after_ptr = false;
    int guard = 0;
    while (t && (t->kind == TY_PTR || t->kind == TY_ARRAY || t->kind == TY_FUNC) && guard++ < 100000) {
        Buf n = {0};
        if (t->kind == TY_PTR) {
            buf_printf(&n, "*%s%s", quals_str(t->quals), buf_str(&d));
            after_ptr = true;
        } else {
            if (after_ptr)
                buf_printf(&n, "(%s)", buf_str(&d));
            else
                buf_printf(&n, "%s", buf_str(&d));
            if (t->kind == TY_ARRAY) {
                if (t->array_len && tu)
                    buf_printf(&n, "[%s]", span_text(tu, t->array_len->span));
                else
                    buf_printf(&n, "[]");
            } else {
                print_params(tu, &n, t);
            }
            after_ptr = false;
        }
        d = n;
        t = t->base;
    }
    Buf out = {0};
    if (!t) {
        buf_printf(&out, "int");
    } else {
        buf_printf(&out, "%s", quals_str(t->quals));
        print_base(tu, &out, t);
    }
    /* no space between "int" and "*p"? gcc style keeps one: "int *p" */
    if (d.len)
        buf_printf(&out, d.s[0] == '[' ? "%s" : " %s", buf_str(&d));
    /* trim a trailing space left by qualifiers on an unnamed pointer ("int *const ") */
    while (out.len && out.s[out.len - 1] == ' ')
        out.s[--out.len] = 0;
    return (char *)buf_str(&out);
}
