/* cg.h - state shared by the code generator's files (internal to codegen/).
 *
 *   sema.c     the Work-Time C rules of SPEC 2 (clauses, par bodies, spawn points)
 *   edit.c     text edits over the preprocessed buffer, line mapping, output helpers
 *   clone.c    the sequential and parallel clones, par statements, spawn points
 *   capture.c  what a spawn point copies because the par body's storage ends with it
 *   marshal.c  argument structs, element counts, descriptors, the region-entry wrapper
 *   program.c  the global snapshot, main's wrapper, the program table, cg_generate
 */
#ifndef WTC_CG_H
#define WTC_CG_H

#include <stdbool.h>
#include <stdio.h>
#include "ast.h"
#include "codegen.h"

/* A parameter of a recursive function, with what its clauses say about it. */
typedef struct RecParam {
    Decl *decl;
    const char *name;
    Type *type;          /* decayed: arrays and functions become pointers */
    bool is_ptr;
    bool in, out;        /* listed in in: / out: */
    Node *count;         /* element count (from in:, else out:) for pointers */
    Span count_span;
    int buf;             /* index among the pointer parameters, -1 for scalars */
} RecParam;

/* A recursive function. */
typedef struct RecFn {
    const char *name;
    int id;
    Node *def;           /* the ND_FUNCDEF */
    FuncDef *fd;
    Type *ret;           /* return type */
    bool is_void;
    RecParam *params;
    int nparams;
    int nbufs;
    bool counts_kept;    /* a count reads more than its scalar parameters: the counts are
                            evaluated at the call into the args struct (__wtc_n) */
    Clause *cond;        /* the cond: clause or NULL */
    int mode;            /* WTC_MODE_SIMPLE / _DYNAMIC / _STEAL (values of wtc_abi.h) */
    int masters;         /* from "mode: dynamic M" (1 if not given) */
    bool has_spawn_par;  /* the body has a par with spawn points */
    bool has_par_clone;  /* it needs a parallel clone (spawns or direct recursive calls) */
    bool is_static;
    int first_item;      /* index of the top-level item that first declares it */
    const char *attrs;   /* its GNU attributes ("__attribute__((noinline)) ", or ""), which
                            its clones and wrapper carry (program.c fn_attributes) */
} RecFn;

/* The generator's state for one translation unit. */
typedef struct Cg {
    TranslationUnit *tu;
    const CgOptions *opt;
    FILE *out;
    RecFn **fns;
    int nfns;
    FuncDef *main_fd;
    /* globals shared as bounds (wtc_share_max / wtc_share_min), in first-use order, and
       each one's WTC_SHARE_* */
    Decl **shared;
    Decl **shared_data;  /* the global its solution is kept in (the _with forms), or NULL */
    int *shared_op;
    int nshared, capshared;
    int calls_mpi; /* the program includes <mpi.h> (program.c, includes_mpi_h) */
} Cg;

/* A growable string (arena-backed, never freed). */
typedef struct Str {
    char *s;
    int len, cap;
} Str;
void str_cat(Str *b, const char *s);
void str_catn(Str *b, const char *s, int n);
void str_printf(Str *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *cg_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Text edits: replace [start, end) of the buffer by text (start == end: insert). */
typedef struct Edit {
    int start, end;
    const char *text;
    int seq; /* insertion order, to keep inserts at the same offset stable */
} Edit;
typedef struct Edits {
    Edit *v;
    int n, cap;
} Edits;
void edits_add(Edits *e, int start, int end, const char *text);
/* The text of [start, end) with every edit inside it applied (edits must not overlap). */
char *edits_apply(const Cg *cg, Edits *e, int start, int end);

/* Folds text of the preprocessed buffer onto one line, in place, for a one-line
   replacement: newlines become spaces and line markers are dropped (returns s). */
char *cg_one_line(char *s);

/* Line mapping of the preprocessed buffer (follows line markers). */
void cg_lines_init(const TranslationUnit *tu);
Loc cg_loc_at(int offset);
void cg_note_rewritten(Loc l); /* a line whose generated text differs (codegen.h) */
/* Emit a line directive so that what follows is reported as 'offset's line. */
void cg_emit_line(Cg *cg, int offset);
void cg_emit_line_generated(Cg *cg, int offset); /* ... before text of wtcc's own */

/* AST helpers. */
typedef void (*NodeVisit)(Node *n, void *data);
void cg_children(Node *n, NodeVisit visit, void *data); /* immediate children */
RecFn *cg_recfn_by_name(const Cg *cg, const char *name);
FuncDef *cg_funcdef_named(const Cg *cg, const char *name);
RecFn *cg_called_recfn(const Cg *cg, Node *call);       /* callee of ND_CALL, if recursive */
bool cg_is_wtc_depth(Node *n);
bool cg_is_write(const Node *n);                     /* =, op=, ++, -- */
/* The kind of value an expression has, where the declarations tell it without a type
   checker (the C compiler has the one that decides); EC_UNKNOWN elsewhere. */
typedef enum ExprClass {
    EC_UNKNOWN, EC_INTEGER, EC_FLOATING /* or complex */, EC_POINTER /* or array */,
    EC_AGGREGATE /* struct or union */, EC_VOID
} ExprClass;
ExprClass cg_expr_class(Node *n);
ExprClass cg_type_class(Type *t);
/* A spawn point: an expression statement "f(...);" or "lv = f(...);" calling a
   recursive function. Fills call and lv (NULL when the result is discarded). */
bool cg_spawn_of(const Cg *cg, Node *stmt, Node **call, Node **lv);
bool cg_par_has_spawn(const Cg *cg, Node *par);
int cg_lparen_after(const Cg *cg, Node *callee);       /* offset of the call's '(' */

/* sema.c */
int sema_check(Cg *cg);

/* clone.c */
void clone_emit_seq(Cg *cg, RecFn *f);
void clone_emit_par(Cg *cg, RecFn *f);
/* An ordinary function (main, or one with par statements) with its pars transformed. */
void clone_emit_ordinary(Cg *cg, Node *def);
bool clone_needs_rewrite(const Cg *cg, Node *def);
bool clone_has_spawn_par(const Cg *cg, Node *body);
bool clone_has_recursive_call(const Cg *cg, Node *body);

/* capture.c: code for the spawn point 'stmt' (calling 'call') of par statement 'par' */
char *capture_args(const Cg *cg, Node *par, Node *stmt, Node *call, const char *frame);
char *capture_dest(Node *par, Node *stmt, Node *lv, const char *addr);
Type *cg_lvalue_type(Node *n); /* a variable, a[i], s.m, p->m; NULL for other forms */

/* program.c: does a value of type t hold a pointer; does any function of the program
   write global 'name' (assign, increment, take its address) after its initializer? */
bool cg_holds_pointer(Type *t, int depth);
bool cg_global_written(const Cg *cg, const char *name);

/* A set of names in the order added (the snapshot's globals, the functions recursive
   code reaches). */
typedef struct Names {
    const char **v;
    int n, cap;
} Names;
bool cg_names_has(const Names *s, const char *name);
void cg_names_add(Names *s, const char *name); /* once */
void capture_check(const Cg *cg, Node *par, Node *stmt, Node *call, Node *lv);

/* marshal.c */
char *cg_c_string(const char *s);
char *cg_where(const Cg *cg, int offset);
char *marshal_param_list(const Cg *cg, const RecFn *f, bool with_ctx);
char *marshal_ret_type(const Cg *cg, const RecFn *f);
void marshal_emit_forward(Cg *cg, RecFn *f);
void marshal_emit_support(Cg *cg, RecFn *f);
void marshal_emit_wrapper(Cg *cg, RecFn *f);
char *marshal_args_decl(const RecFn *f, const char *var, const char *init);
/* "WTC_OBJSIZE((e0)), WTC_OBJSIZE((e1))": the object sizes of f's pointer parameters,
   in buffer order, each of expr[i] (the expression for parameter i; the extra
   parentheses keep a compound literal's commas in one macro argument). */
char *marshal_objsizes(const RecFn *f, const char *const *expr);

/* program.c */
void program_emit_tables(Cg *cg);

#endif
