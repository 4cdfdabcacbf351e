/* edit.c - text edits over the preprocessed buffer, line mapping, and AST helpers.
 *
 * The generated C is the user's preprocessed text copied verbatim, with edits: a list of
 * (byte range, replacement) pairs applied while copying. Replacements never contain a
 * newline, so the copied text keeps its line structure and one line directive at the
 * start of each copied function is enough for the C compiler to point at the .wtc line.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cg.h"

/* ---- strings ------------------------------------------------------------- */

/* Append n bytes, growing the arena buffer. */
void str_catn(Str *b, const char *s, int n)
{
    if (b->len + n + 1 > b->cap) {
        int cap = b->cap ? b->cap * 2 : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *ns = ast_alloc((size_t)cap);
        if (b->len)
            memcpy(ns, b->s, (size_t)b->len);
        b->s = ns;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, (size_t)n);
    b->len += n;
    b->s[b->len] = '\0';
}

/* Append a NUL-terminated string. */
void str_cat(Str *b, const char *s)
{
    str_catn(b, s, (int)strlen(s));
}

/* vprintf into a new arena string. */
static char *vfmt(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *s = ast_alloc((size_t)n + 1);
    vsnprintf(s, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return s;
}

/* Append printf-style. */
void str_printf(Str *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    str_cat(b, vfmt(fmt, ap));
    va_end(ap);
}

/* printf into a new arena string. */
char *cg_fmt(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = vfmt(fmt, ap);
    va_end(ap);
    return s;
}

/* ---- edits ---------------------------------------------------------------- */

/* Record one edit. */
void edits_add(Edits *e, int start, int end, const char *text)
{
    if (e->n == e->cap) {
        int cap = e->cap ? e->cap * 2 : 32;
        Edit *nv = ast_alloc(sizeof(Edit) * (size_t)cap);
        if (e->n)
            memcpy(nv, e->v, sizeof(Edit) * (size_t)e->n);
        e->v = nv;
        e->cap = cap;
    }
    e->v[e->n++] = (Edit){start, end, text, e->n};
}

/* Order edits by position; inserts at one offset keep their insertion order. */
static int edit_cmp(const void *a, const void *b)
{
    const Edit *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if ((x->end == x->start) != (y->end == y->start))
        return x->end == x->start ? -1 : 1; /* an insert before a replace at one offset */
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* A macro of a system header (false, EOF, NULL, INT_MIN) expands in gcc -E's output
   between line markers of their own ('# 9 "prog.wtc" 3 4', at the start of a line), so
   an argument such as 'x + EOF' spans three lines there; folded onto one line as they
   stood, the markers were stray '#'s in the generated C ("stray '#' in program"). A '#'
   in the first column of preprocessed text is always a marker (or a #pragma line, which
   cannot stand inside an expression either). */
char *cg_one_line(char *s)
{
    char *q = s;
    int col0 = 0; /* the span starts at a token, never at a marker */
    for (const char *p = s; *p; p++) {
        if (*p == '\n' || *p == '\r') {
            *q++ = ' ';
            col0 = 1;
            continue;
        }
        if (col0 && *p == '#') {
            while (p[1] && p[1] != '\n')
                p++;
            continue;
        }
        col0 = 0;
        *q++ = *p;
    }
    *q = 0;
    return s;
}

/* The text of [start, end) with the edits inside it applied (source text through
   span_text: a NUL byte in a literal would end the string). */
char *edits_apply(const Cg *cg, Edits *e, int start, int end)
{
    Str out = {0};
    if (e->n > 1)
        qsort(e->v, (size_t)e->n, sizeof(Edit), edit_cmp);
    int pos = start;
    for (int i = 0; i < e->n; i++) {
        Edit *ed = &e->v[i];
        if (ed->start < start || ed->end > end)
            continue;
        if (ed->start < pos) /* overlapping edit: a bug in the caller; keep output sane */
            continue;
        str_cat(&out, span_text(cg->tu, (Span){pos, ed->start}));
        str_cat(&out, ed->text);
        cg_note_rewritten(cg_loc_at(ed->start));
        if (ed->end > ed->start)
            cg_note_rewritten(cg_loc_at(ed->end - 1));
        pos = ed->end;
    }
    str_cat(&out, span_text(cg->tu, (Span){pos, end}));
    return out.s ? out.s : ast_strndup("", 0);
}

/* ---- line mapping ---------------------------------------------------------- */

/* The user's lines whose text the generated C changed (codegen.h, cg_rewritten_lines). */
static Loc *rewritten;
static int nrewritten, caprewritten;

static int *line_start; /* offset of each line of the buffer */
static const char **line_file;
static int *line_no;
static int nlines;

/* Parse a line marker "# 12 "file" flags" or "#line 12 "file"" at p; 0 if not one. */
static int parse_marker(const char *p, const char *end, int *no, const char **file)
{
    if (p >= end || *p != '#')
        return 0;
    p++;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (end - p > 4 && strncmp(p, "line", 4) == 0)
        p += 4;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p >= end || *p < '0' || *p > '9')
        return 0;
    *no = atoi(p);
    while (p < end && *p >= '0' && *p <= '9')
        p++;
    while (p < end && *p == ' ')
        p++;
    if (p < end && *p == '"') {
        const char *q = ++p;
        while (q < end && *q != '"' && *q != '\n') {
            if (*q == '\\' && q + 1 < end)
                q++;
            q++;
        }
        *file = ast_strndup(p, (size_t)(q - p));
    }
    return 1;
}

/* Build the table: for every line of the buffer, its file and line number. */
void cg_lines_init(const TranslationUnit *tu)
{
    int cap = 1024;
    nlines = 0;
    free(line_start); /* of the previous unit, when there was one */
    free(line_file);
    free(line_no);
    nrewritten = 0;
    line_start = malloc(sizeof(int) * (size_t)cap);
    line_file = malloc(sizeof(char *) * (size_t)cap);
    line_no = malloc(sizeof(int) * (size_t)cap);
    const char *file = tu->path;
    int no = 1;
    const char *text = tu->text, *end = tu->text + tu->len;
    for (const char *p = text; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            nl = end;
        if (nlines == cap) {
            cap *= 2;
            line_start = realloc(line_start, sizeof(int) * (size_t)cap);
            line_file = realloc(line_file, sizeof(char *) * (size_t)cap);
            line_no = realloc(line_no, sizeof(int) * (size_t)cap);
        }
        int mno;
        const char *mfile = file;
        line_start[nlines] = (int)(p - text);
        line_file[nlines] = file;
        line_no[nlines] = no;
        nlines++;
        if (parse_marker(p, nl, &mno, &mfile)) {
            file = mfile;
            no = mno;
        } else {
            no++;
        }
        p = nl + 1;
    }
}

/* Note a line the generated C re-prints with other text. The edits of one function come
   in order, so a line is seldom noted twice in a row; a repeat elsewhere does no harm. */
void cg_note_rewritten(Loc l)
{
    if (nrewritten && rewritten[nrewritten - 1].line == l.line &&
        strcmp(rewritten[nrewritten - 1].file, l.file) == 0)
        return;
    if (nrewritten == caprewritten) {
        caprewritten = caprewritten ? 2 * caprewritten : 64;
        rewritten = realloc(rewritten, sizeof *rewritten * (size_t)caprewritten);
        if (!rewritten)
            abort();
    }
    rewritten[nrewritten++] = l;
}

int cg_rewritten_lines(const Loc **lines)
{
    *lines = rewritten;
    return nrewritten;
}

/* File and line of a byte offset (column 1). */
Loc cg_loc_at(int offset)
{
    int lo = 0, hi = nlines - 1;
    if (nlines == 0)
        return (Loc){"", 1, 1, true, false};
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (line_start[mid] <= offset)
            lo = mid;
        else
            hi = mid - 1;
    }
    return (Loc){line_file[lo], line_no[lo], 1, true, false};
}

/* Emit "#line N "file"" so that the text at 'offset' is reported at its own line. */
void cg_emit_line(Cg *cg, int offset)
{
    Loc l = cg_loc_at(offset);
    fprintf(cg->out, "\n#line %d \"%s\"\n", l.line, l.file);
}

/* The same before text of wtcc's own (a clone's header, a prototype, a wrapper), which
   the C compiler then reports at that line with the columns of the generated text. */
void cg_emit_line_generated(Cg *cg, int offset)
{
    cg_note_rewritten(cg_loc_at(offset));
    cg_emit_line(cg, offset);
}

/* ---- AST helpers ------------------------------------------------------------ */

/* Visit the immediate children of a node. */
void cg_children(Node *n, NodeVisit visit, void *data)
{
    Node *kids[] = {n->lhs, n->rhs, n->cond, n->then, n->els, n->init, n->inc, n->body};
    for (size_t i = 0; i < sizeof kids / sizeof kids[0]; i++)
        if (kids[i])
            visit(kids[i], data);
    for (int i = 0; i < n->nargs; i++)
        if (n->args[i])
            visit(n->args[i], data);
    for (int i = 0; i < n->ndecls; i++)
        if (n->decls[i] && n->decls[i]->init)
            visit(n->decls[i]->init, data);
    if (n->kind == ND_FUNCDEF && n->func && n->func->body && n->body != n->func->body)
        visit(n->func->body, data);
}

/* The definition of a function of this translation unit by name, or NULL. */
FuncDef *cg_funcdef_named(const Cg *cg, const char *name)
{
    for (int i = 0; i < cg->tu->nitems; i++) {
        Node *n = cg->tu->items[i];
        if (n->kind == ND_FUNCDEF && n->func && strcmp(n->func->decl->name, name) == 0)
            return n->func;
    }
    return NULL;
}

/* The recursive function with this name, or NULL. */
RecFn *cg_recfn_by_name(const Cg *cg, const char *name)
{
    for (int i = 0; i < cg->nfns; i++)
        if (strcmp(cg->fns[i]->name, name) == 0)
            return cg->fns[i];
    return NULL;
}

/* The recursive function a call calls by name, or NULL. */
RecFn *cg_called_recfn(const Cg *cg, Node *call)
{
    if (!call || call->kind != ND_CALL || !call->lhs || call->lhs->kind != ND_IDENT)
        return NULL;
    Decl *d = call->lhs->decl;
    if (!d || d->kind != DK_FUNC || !d->is_global)
        return NULL;
    RecFn *f = cg_recfn_by_name(cg, call->lhs->name);
    if (f && cg_lparen_after(cg, call->lhs) < 0)
        return NULL; /* "(f)(x)": called through an expression, not by name */
    return f;
}

/* Does n write its operand (lhs): an assignment, increment or decrement? */
bool cg_is_write(const Node *n)
{
    return n->kind == ND_ASSIGN || n->kind == ND_PRE_INC || n->kind == ND_PRE_DEC ||
           n->kind == ND_POST_INC || n->kind == ND_POST_DEC;
}

/* The class of a value of type t (TypeKind lists the integer kinds, then the floating). */
ExprClass cg_type_class(Type *t)
{
    t = type_strip_typedefs(t);
    if (!t)
        return EC_UNKNOWN;
    if ((t->kind >= TY_BOOL && t->kind <= TY_INT128) || t->kind == TY_ENUM)
        return t->is_complex ? EC_FLOATING : EC_INTEGER;
    if (t->kind >= TY_FLOAT && t->kind <= TY_FLOATN)
        return EC_FLOATING;
    if (t->kind == TY_PTR || t->kind == TY_ARRAY || t->kind == TY_FUNC)
        return EC_POINTER;
    if (t->kind == TY_STRUCT || t->kind == TY_UNION)
        return EC_AGGREGATE;
    if (t->kind == TY_VOID)
        return EC_VOID;
    return EC_UNKNOWN;
}

/* The class of a + b, a * b, ... (C's usual arithmetic conversions, and pointer
   arithmetic for + and -). */
static ExprClass binary_class(const char *op, ExprClass a, ExprClass b)
{
    static const char *const int_ops[] = {"%", "<<", ">>", "&", "|", "^", "<", ">", "<=",
                                          ">=", "==", "!=", "&&", "||"};
    for (size_t i = 0; i < sizeof int_ops / sizeof int_ops[0]; i++)
        if (strcmp(op, int_ops[i]) == 0)
            return EC_INTEGER;
    if (a == EC_VOID || b == EC_VOID)
        return EC_UNKNOWN; /* an error the C compiler names */
    bool additive = strcmp(op, "+") == 0 || strcmp(op, "-") == 0;
    if (additive && a == EC_POINTER && b == EC_POINTER)
        return strcmp(op, "-") == 0 ? EC_INTEGER : EC_UNKNOWN;
    if (additive && (a == EC_POINTER || b == EC_POINTER))
        return EC_POINTER;
    if ((a == EC_FLOATING && b != EC_UNKNOWN) || (b == EC_FLOATING && a != EC_UNKNOWN))
        return EC_FLOATING;
    return a == EC_INTEGER && b == EC_INTEGER ? EC_INTEGER : EC_UNKNOWN;
}

/* The class of c ? a : b: both the same, or arithmetic of both. */
static ExprClass cond_class(ExprClass a, ExprClass b)
{
    if (a == b)
        return a;
    if ((a == EC_FLOATING && b == EC_INTEGER) || (a == EC_INTEGER && b == EC_FLOATING))
        return EC_FLOATING;
    return EC_UNKNOWN;
}

/* The class of a call's result, when it calls a declared function by name. */
static ExprClass call_class(Node *call)
{
    Type *t = call->lhs && call->lhs->kind == ND_IDENT && call->lhs->decl &&
                      call->lhs->decl->kind == DK_FUNC
                  ? type_strip_typedefs(call->lhs->decl->type)
                  : NULL;
    return t && t->kind == TY_FUNC ? cg_type_class(t->base) : EC_UNKNOWN;
}

/* The class of an operand-less expression: a name, a literal, sizeof, a cast, an
   element or member of a variable. */
static ExprClass leaf_class(Node *n)
{
    Type *t;
    switch (n->kind) {
    case ND_IDENT:
        if (n->decl && n->decl->kind == DK_ENUMCONST)
            return EC_INTEGER;
        return n->decl ? cg_type_class(n->decl->type) : EC_UNKNOWN;
    case ND_INT_LIT: /* a GNU imaginary constant (2i) is complex */
        return n->text && strpbrk(n->text, "iIjJ") ? EC_FLOATING : EC_INTEGER;
    case ND_CHAR_LIT:
    case ND_SIZEOF_EXPR:
    case ND_SIZEOF_TYPE:
    case ND_ALIGNOF_EXPR:
    case ND_ALIGNOF_TYPE:
        return EC_INTEGER;
    case ND_FLOAT_LIT:
        return EC_FLOATING;
    case ND_STRING_LIT:
        return EC_POINTER;
    case ND_CAST:
    case ND_COMPOUND_LIT:
        return cg_type_class(n->type);
    case ND_MEMBER:
    case ND_PTR_MEMBER:
    case ND_INDEX:
        return cg_type_class(cg_lvalue_type(n));
    case ND_DEREF:
        t = type_strip_typedefs(cg_lvalue_type(n->lhs));
        return t && (t->kind == TY_PTR || t->kind == TY_ARRAY) ? cg_type_class(t->base)
                                                              : EC_UNKNOWN;
    case ND_CALL:
        return call_class(n);
    default:
        return EC_UNKNOWN;
    }
}

ExprClass cg_expr_class(Node *n)
{
    if (!n)
        return EC_UNKNOWN;
    switch (n->kind) {
    case ND_NOT:
        return EC_INTEGER;
    case ND_ADDR:
        return EC_POINTER;
    case ND_PLUS:
    case ND_NEG:
    case ND_BITNOT:
    case ND_PRE_INC:
    case ND_PRE_DEC:
    case ND_POST_INC:
    case ND_POST_DEC:
    case ND_ASSIGN:
        return cg_expr_class(n->lhs);
    case ND_COMMA:
        return cg_expr_class(n->rhs);
    case ND_BINARY:
        return n->op ? binary_class(n->op, cg_expr_class(n->lhs), cg_expr_class(n->rhs))
                     : EC_UNKNOWN;
    case ND_COND:
        return cond_class(cg_expr_class(n->then ? n->then : n->cond), cg_expr_class(n->els));
    default:
        return leaf_class(n);
    }
}

/* Is this an unresolved use of the built-in wtc_depth? */
bool cg_is_wtc_depth(Node *n)
{
    return n->kind == ND_IDENT && !n->decl && n->name && strcmp(n->name, "wtc_depth") == 0;
}

/* A spawn point "f(...);" or "lv = f(...);". */
bool cg_spawn_of(const Cg *cg, Node *stmt, Node **call, Node **lv)
{
    if (!stmt || stmt->kind != ND_EXPR_STMT || !stmt->lhs)
        return false;
    Node *e = stmt->lhs;
    if (cg_called_recfn(cg, e)) {
        *call = e;
        *lv = NULL;
        return true;
    }
    if (e->kind == ND_ASSIGN && e->op && strcmp(e->op, "=") == 0 && cg_called_recfn(cg, e->rhs)) {
        *call = e->rhs;
        *lv = e->lhs;
        return true;
    }
    return false;
}

typedef struct SpawnSearch {
    const Cg *cg;
    bool found;
} SpawnSearch;

/* Look for a spawn point anywhere below n. */
static void find_spawn(Node *n, void *data)
{
    SpawnSearch *s = data;
    Node *call, *lv;
    if (s->found)
        return;
    if (cg_spawn_of(s->cg, n, &call, &lv)) {
        s->found = true;
        return;
    }
    if (n->kind == ND_PAR)
        return; /* a nested par is an error reported elsewhere */
    cg_children(n, find_spawn, s);
}

/* Does this par statement's body contain a spawn point? */
bool cg_par_has_spawn(const Cg *cg, Node *par)
{
    SpawnSearch s = {cg, false};
    if (par->body)
        find_spawn(par->body, &s);
    return s.found;
}

/* Offset of the '(' that follows a callee, or -1 when something else comes first. */
int cg_lparen_after(const Cg *cg, Node *callee)
{
    const char *t = cg->tu->text;
    int i = callee->span.end;
    while (i < cg->tu->len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
        i++;
    return i < cg->tu->len && t[i] == '(' ? i : -1;
}
