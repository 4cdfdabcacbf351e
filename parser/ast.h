/* ast.h - the abstract syntax tree of a preprocessed Work-Time C translation unit.
 *
 * This header is the contract between the front end (lexer.l, grammar.y, ast.c,
 * symtab.c, type.c) and everything after it (codegen/). Design principles:
 *
 *  - Every node carries the byte span [start, end) of its text in the preprocessed
 *    buffer, so code generation copies untouched text verbatim and re-prints only what
 *    it transforms.
 *  - Every node carries the source location (file, line, column) of its first token,
 *    mapped back to the original file through the preprocessor's line markers, so
 *    diagnostics point at what the user wrote.
 *  - Identifiers are resolved to their declaration while parsing (the scoped symbol
 *    table is needed anyway to tell typedef names from other identifiers).
 *  - Memory is allocated from an arena and never freed, on purpose: wtcc is a
 *    short-lived process.
 */
#ifndef WTC_AST_H
#define WTC_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct Type Type;
typedef struct Node Node;
typedef struct Decl Decl;
typedef struct Member Member;
typedef struct Param Param;

/* A source location, after line-marker mapping. */
typedef struct Loc {
    const char *file; /* as named by the line marker, e.g. "msort.wtc" or "/usr/include/stdio.h" */
    int line;         /* 1-based */
    int col;          /* 1-based column in the ORIGINAL line (best effort, see lexer.l) */
    bool user;        /* true when the token comes from the user's own .wtc file */
    bool sys;         /* from a system header (line marker flag 3): not the program's
                         own code, as gcc's -Wsystem-headers sees it */
} Loc;

/* A byte range [start, end) in the preprocessed buffer (TranslationUnit.text). */
typedef struct Span {
    int start, end;
} Span;

/* ---- types ---------------------------------------------------------------- */

typedef enum TypeKind {
    TY_VOID, TY_BOOL, TY_CHAR, TY_SHORT, TY_INT, TY_LONG, TY_LLONG, TY_INT128,
    TY_FLOAT, TY_DOUBLE, TY_LDOUBLE, TY_FLOATN, /* _Float32, _Float64x, __float128, ... */
    TY_ENUM, TY_STRUCT, TY_UNION,
    TY_PTR, TY_ARRAY, TY_FUNC,
    TY_TYPEDEF, /* a use of a typedef name: name + base (the type it stands for) */
    TY_TYPEOF,  /* __typeof__(...) / typeof(...): opaque; text holds the source spelling */
    TY_BUILTIN, /* __builtin_va_list and similar opaque builtin types; text holds the name */
} TypeKind;

enum { Q_CONST = 1, Q_VOLATILE = 2, Q_RESTRICT = 4, Q_ATOMIC = 8 };

struct Member {
    Member *next;
    const char *name; /* NULL for an anonymous struct/union member or unnamed bit-field */
    Type *type;
    Loc loc;
    bool bitfield;    /* declared with a width: "int a : 3" (no address) */
};

struct Param {
    Param *next;
    const char *name; /* NULL in an abstract declarator, e.g. "int f(int)" */
    Type *type;       /* as declared (arrays NOT adjusted to pointers; see type_decay) */
    Span span;        /* the whole parameter declaration text */
    Loc loc;          /* of the name, or of the first token when unnamed */
};

struct Type {
    TypeKind kind;
    int quals;             /* Q_* bits applying to this level */
    bool is_unsigned;      /* integer kinds; also set for plain "unsigned" = TY_INT */
    bool is_signed;        /* (added) "signed" was written: tells "signed char" from "char" */
    bool is_complex;       /* _Complex float/double/long double */
    const char *name;      /* TY_TYPEDEF: the typedef name; TY_STRUCT/UNION/ENUM: the tag
                              or NULL; TY_FLOATN/TY_BUILTIN/TY_TYPEOF: the spelling */
    Type *base;            /* TY_PTR/TY_ARRAY: element; TY_FUNC: return type;
                              TY_TYPEDEF: the aliased type; TY_ENUM: NULL */
    /* TY_ARRAY */
    Node *array_len;       /* NULL for [] ; otherwise the length expression */
    /* TY_FUNC */
    Param *params;         /* NULL for () and (void) alike; see has_void_params */
    bool has_void_params;  /* declared as (void) */
    bool is_variadic;
    bool is_oldstyle;      /* () with no prototype, or a K&R identifier list */
    /* TY_STRUCT/TY_UNION: members, shared by every Type naming the same struct, so a
       struct completed later is seen complete through earlier references. */
    struct StructInfo *sinfo;
};

typedef struct StructInfo {
    Member *members; /* NULL until complete */
    bool complete;
    Loc loc;         /* where the tag was first seen */
} StructInfo;

/* ---- declarations -------------------------------------------------------- */

typedef enum Storage {
    SC_NONE, SC_TYPEDEF, SC_EXTERN, SC_STATIC, SC_AUTO, SC_REGISTER
} Storage;

typedef enum DeclKind {
    DK_VAR,      /* an object (global or local variable) */
    DK_FUNC,     /* a function (declared or defined) */
    DK_TYPEDEF,  /* a typedef name */
    DK_PARAM,    /* a function parameter (of the function being defined) */
    DK_ENUMCONST /* an enumeration constant */
} DeclKind;

struct Decl {
    DeclKind kind;
    const char *name;
    Type *type;
    Storage storage;
    bool is_thread_local;
    bool is_inline;
    bool is_global;      /* declared at file scope */
    bool is_defined;     /* DK_VAR at file scope: has an initializer or is a tentative
                            definition (no extern); DK_FUNC: has a body */
    Node *init;          /* initializer expression or ND_INIT_LIST, or NULL */
    Span span;           /* the declarator (and its initializer, if any) */
    Loc loc;             /* of the declared name */
    Decl *prev_decl;     /* an earlier declaration of the same file-scope entity, or NULL */
    Node *funcdef;       /* DK_FUNC: the ND_FUNCDEF node once the body is seen */
};

/* ---- nodes ---------------------------------------------------------------- */

typedef enum NodeKind {
    /* expressions */
    ND_IDENT,       /* name; decl = resolved declaration or NULL if undeclared (e.g.
                       wtc_depth, or an implicitly declared function) */
    ND_INT_LIT, ND_FLOAT_LIT, ND_CHAR_LIT, ND_STRING_LIT, /* text = spelling */
    ND_CALL,        /* lhs = callee; args (count nargs) */
    ND_INDEX,       /* lhs[rhs] */
    ND_MEMBER,      /* lhs.name   */
    ND_PTR_MEMBER,  /* lhs->name  */
    ND_POST_INC, ND_POST_DEC, ND_PRE_INC, ND_PRE_DEC, /* lhs */
    ND_ADDR, ND_DEREF, ND_PLUS, ND_NEG, ND_BITNOT, ND_NOT, /* unary: lhs */
    ND_REAL, ND_IMAG, /* __real__ / __imag__ : lhs */
    ND_SIZEOF_EXPR, ND_ALIGNOF_EXPR, /* lhs */
    ND_SIZEOF_TYPE, ND_ALIGNOF_TYPE, /* type */
    ND_CAST,        /* (type) lhs */
    ND_COMPOUND_LIT,/* (type){ init }: type, rhs = ND_INIT_LIST */
    ND_BINARY,      /* lhs op rhs; op is the operator spelling, e.g. "+", "<<", "&&" */
    ND_ASSIGN,      /* lhs op rhs; op is "=", "+=", "<<=", ... */
    ND_COND,        /* cond ? then : els   (then == NULL for GNU "a ?: b") */
    ND_COMMA,       /* lhs , rhs */
    ND_STMT_EXPR,   /* GNU ({ ... }): body = ND_BLOCK */
    ND_GENERIC,     /* _Generic(lhs, ...): associations are not analysed */
    ND_BUILTIN,     /* __builtin_offsetof / __builtin_va_arg / __builtin_types_compatible_p
                       and similar forms taking type arguments: name = builtin; args may
                       hold expression arguments */
    ND_LABEL_ADDR,  /* GNU &&label: name */
    ND_INIT_LIST,   /* { ... } initializer: args = elements (designators not analysed) */

    /* statements */
    ND_BLOCK,       /* { items }: args = block items (statements and ND_DECLARATION) */
    ND_EXPR_STMT,   /* lhs ;  */
    ND_NULL_STMT,   /* ;      */
    ND_IF,          /* if (cond) then else els */
    ND_WHILE,       /* while (cond) body */
    ND_DO,          /* do body while (cond); */
    ND_FOR,         /* for (init; cond; inc) body ; init is an ND_DECLARATION or
                       ND_EXPR_STMT or NULL */
    ND_SWITCH,      /* switch (cond) body */
    ND_CASE,        /* case lhs [... rhs]: body */
    ND_DEFAULT,     /* default: body */
    ND_LABEL,       /* name: body */
    ND_GOTO,        /* goto name;  (computed goto *expr: lhs set, name NULL) */
    ND_CONTINUE, ND_BREAK,
    ND_RETURN,      /* return lhs;  (lhs may be NULL) */
    ND_ASM,         /* an asm statement (text skipped as balanced parentheses) */
    ND_PAR,         /* par var = lo to hi do body :
                         name = index variable, lhs = lo, rhs = hi, body = statement,
                         name_loc = location of the index name,
                         kw_to / kw_do = spans of the 'to' and 'do' keywords,
                         header = span from 'par' to the end of 'do' */

    /* declarations and top level */
    ND_DECLARATION, /* decls (count ndecls); spec_span = declaration specifiers */
    ND_STATIC_ASSERT,
    ND_FUNCDEF,     /* a function definition; see FuncDef */
    ND_EMPTY,       /* a stray ';' at file scope */
} NodeKind;

/* A clause item of in:/out:  -  name or name[count] */
typedef struct ClauseItem {
    struct ClauseItem *next;
    const char *name;
    Loc loc;          /* of the name */
    Node *count;      /* NULL when no [count] was written */
    Span count_span;  /* text between the brackets */
    Decl *decl;       /* (added) the parameter (or other declaration) named, or NULL */
} ClauseItem;

typedef enum ClauseKind { CL_IN, CL_OUT, CL_COND, CL_MODE } ClauseKind;

/* One annotation clause as written, in source order. The parser accepts clauses in any
   order and any number of times; ordering and duplicate rules are checked by codegen/sema.c
   so the message can say what to write instead. */
typedef struct Clause {
    struct Clause *next;
    ClauseKind kind;
    Loc loc;              /* of the clause keyword */
    Span span;            /* keyword to ';' inclusive */
    ClauseItem *items;    /* CL_IN / CL_OUT */
    Node *cond;           /* CL_COND */
    Span cond_span;       /* CL_COND: the expression text */
    const char *mode_word;/* CL_MODE: the identifier after "mode:", e.g. "dynamic" */
    Loc mode_word_loc;
    Node *mode_masters;   /* CL_MODE: the expression after the word, or NULL */
} Clause;

typedef struct FuncDef {
    Decl *decl;             /* the function's declaration (name, type, storage) */
    bool is_recursive;      /* the 'recursive' keyword was present */
    Span recursive_kw;      /* span of the 'recursive' keyword (valid if is_recursive) */
    Span spec_span;         /* declaration specifiers (may contain 'recursive') */
    Span declarator_span;   /* the declarator, e.g. "msort(int *a, int n)" */
    Span name_span;         /* the function name token inside the declarator */
    Clause *clauses;        /* annotation clauses, NULL if none */
    Span clauses_span;      /* from the first clause keyword to the last ';' (empty if none) */
    Node *body;             /* ND_BLOCK */
    Decl **param_decls;     /* array of nparams DK_PARAM Decls, in order */
    int nparams;
} FuncDef;

struct Node {
    NodeKind kind;
    Span span;              /* whole construct */
    Loc loc;                /* of the first token (for ND_BINARY/ND_ASSIGN: the operator) */
    const char *op;         /* ND_BINARY, ND_ASSIGN */
    const char *name;       /* ND_IDENT, ND_MEMBER, ND_PTR_MEMBER, ND_LABEL, ND_GOTO,
                               ND_PAR (index variable), ND_BUILTIN, ND_LABEL_ADDR */
    const char *text;       /* literals: spelling (string literals: concatenated spellings) */
    Decl *decl;             /* ND_IDENT: resolved declaration (NULL if none) */
    Type *type;             /* ND_CAST, ND_SIZEOF_TYPE, ND_ALIGNOF_TYPE, ND_COMPOUND_LIT */

    Node *lhs, *rhs;
    Node *cond, *then, *els;
    Node *init, *inc, *body;

    Node **args;            /* ND_CALL arguments, ND_BLOCK items, ND_INIT_LIST elements */
    int nargs;

    Decl **decls;           /* ND_DECLARATION */
    int ndecls;
    Span spec_span;         /* ND_DECLARATION */

    FuncDef *func;          /* ND_FUNCDEF */

    /* ND_PAR */
    Loc name_loc;
    Span kw_eq, kw_to, kw_do, header;
    /* (added) ND_PAR: decl = the index variable's Decl (a local int).
       depth = height of the subtree (the parser rejects trees deeper than a few
       thousand levels, so recursive walks of the AST cannot exhaust the C stack). */
    int depth;
    /* ND_PAR: a name the cond: of the function around it uses that names another
       declaration here (a local that hides a parameter, global, function or enum
       constant: the par evaluates cond: where it stands), or NULL */
    const char *cond_hidden;
};

/* The whole translation unit. */
typedef struct TranslationUnit {
    const char *path;       /* the user's .wtc file as given on the command line */
    const char *text;       /* the preprocessed buffer (NUL-terminated) */
    int len;
    Node **items;           /* top-level ND_DECLARATION / ND_FUNCDEF / ND_STATIC_ASSERT /
                               ND_EMPTY, in order */
    int nitems;
    int nerrors;            /* errors reported while parsing */
    int *cleanups;          /* where the lexer dropped __attribute__((cleanup(f))): the
                               attributes' offsets in text, ascending */
    int ncleanups, capcleanups;
    const char **files;     /* the names the tokens outside system headers came under:
                               the user's file under every name a #line gave it, and
                               its own headers (interned; the C compiler's messages at
                               these are the user's, wtc/build.c) */
    int nfiles, capfiles;
} TranslationUnit;

/* ---- front-end entry points ---------------------------------------------- */

/* Parse a preprocessed buffer. 'path' is the user's file: its text, outside the headers
   that line markers enter (flag 1) and leave (flag 2), is the user's own even where a
   #line renamed it; only there are 'recursive' and 'par' keywords. Diagnostics go to
   stderr through diag.h. Never returns NULL; check tu->nerrors. */
TranslationUnit *parse_translation_unit(const char *path, const char *text, int len);

/* Arena allocation (zeroed), never freed by the compiler. ast_reset frees it all, for a
   program that parses many inputs (the fuzz target): call sym_reset first. */
void *ast_alloc(size_t size);
void ast_reset(void);
char *ast_strndup(const char *s, size_t n);

/* Node constructors used by the grammar. */
Node *ast_new(NodeKind kind, Loc loc, Span span);

/* Type helpers. */
Type *type_new(TypeKind kind);
Type *type_strip_typedefs(Type *t);          /* follow TY_TYPEDEF links */
Type *type_decay(Type *t);                   /* array -> pointer, function -> pointer */
bool type_is_pointer(Type *t);               /* after typedef stripping */
bool type_is_scalar_or_struct(Type *t);
/* Print 't' as a C declaration of 'name' (name may be NULL for an abstract declarator),
   keeping typedef names and struct tags as written. Array lengths are printed from their
   source text (needs the TU buffer). Returns an arena string. */
char *type_to_c(const TranslationUnit *tu, Type *t, const char *name);
/* The source text of a span, as an arena string (a NUL byte in a literal becomes \000). */
char *span_text(const TranslationUnit *tu, Span s);

/* Run fn(arg) on a thread whose stack holds a walk of the deepest tree the parser
   accepts (AST_MAX_DEPTH levels; parser/deep.c); returns what fn returned. */
int ast_run_deep(int (*fn)(void *), void *arg);

/* Debug dump (wtcc --dump-ast). */
void ast_dump(const TranslationUnit *tu, FILE *out);

#endif
