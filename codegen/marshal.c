/* marshal.c - what the runtime needs to move a call between processors.
 *
 * For a recursive function f:
 *   __wtc_args_f       a struct with every parameter, in order (the runtime copies it
 *                      byte for byte: SPMD ranks run the same binary)
 *   __wtc_counts_f     the element count of every pointer parameter, evaluated from an
 *                      args struct; when a count reads more than the scalar parameters
 *                      (a global ...: RecFn.counts_kept), __wtc_eval_f evaluates them
 *                      where the args struct is built (the spawn point, the call) into
 *                      its hidden member __wtc_n, and __wtc_counts_f reads them there
 *   __wtc_run_par_f / __wtc_run_seq_f   call a clone from an args struct
 *   __wtc_bufs_f, __wtc_fn_f            the descriptor (runtime/wtc_abi.h)
 *   f                  the user's name: called from ordinary code, it starts a region
 */
#include <string.h>

#include "cg.h"

/* The type of a parameter as a struct member or local: top-level qualifiers dropped. */
static char *member_decl(const Cg *cg, const RecParam *p, const char *name)
{
    Type t = *p->type;
    t.quals = 0;
    return type_to_c(cg->tu, &t, name);
}

/* The return type as written (void, int, struct pt, ...). */
char *marshal_ret_type(const Cg *cg, const RecFn *f)
{
    /* without its qualifiers: C ignores them on a value returned ('recursive const long
       f'), and the runners store into it and the wrappers declare a local of it */
    Type t;
    if (!f->ret || !f->ret->quals)
        return type_to_c(cg->tu, f->ret, NULL);
    t = *f->ret;
    t.quals = 0;
    return type_to_c(cg->tu, &t, NULL);
}

/* "wtc_ctx __wtc_c, int *a, int n" */
char *marshal_param_list(const Cg *cg, const RecFn *f, bool with_ctx)
{
    Str b = {0};
    if (with_ctx)
        str_cat(&b, "wtc_ctx __wtc_c");
    for (int i = 0; i < f->nparams; i++) {
        if (b.len)
            str_cat(&b, ", ");
        str_cat(&b, type_to_c(cg->tu, f->params[i].type, f->params[i].name));
    }
    return b.len ? b.s : "void";
}

/* A C string literal holding s, newlines folded. */
char *cg_c_string(const char *s)
{
    Str b = {0};
    str_cat(&b, "\"");
    for (; *s; s++) {
        char c = *s == '\n' || *s == '\r' || *s == '\t' ? ' ' : *s;
        if (c == '"' || c == '\\')
            str_catn(&b, "\\", 1);
        str_catn(&b, &c, 1);
    }
    str_cat(&b, "\"");
    return b.s;
}

/* "file.wtc:line" of the text at offset, as a C string literal (error messages). */
char *cg_where(const Cg *cg, int offset)
{
    Loc l = cg_loc_at(offset);
    (void)cg;
    return cg_c_string(cg_fmt("%s:%d", l.file, l.line));
}

/* "__wtc_a->a, __wtc_a->n" */
static char *args_from_struct(const RecFn *f)
{
    Str b = {0};
    for (int i = 0; i < f->nparams; i++)
        str_printf(&b, "%s__wtc_a->%s", i ? ", " : "", f->params[i].name);
    return b.len ? b.s : "";
}

/* "__wtc_args_f var = { init }; ": an args struct built at a call or spawn point,
   with its counts evaluated there when f keeps them (so they travel with the call). */
char *marshal_args_decl(const RecFn *f, const char *var, const char *init)
{
    if (!f->counts_kept)
        return cg_fmt("__wtc_args_%s %s = { %s }; ", f->name, var, init);
    return cg_fmt("__wtc_args_%s %s = { %s, {0} }; __wtc_eval_%s(&%s); ", f->name, var, init,
                  f->name, var);
}

char *marshal_objsizes(const RecFn *f, const char *const *expr)
{
    Str b = {0};
    for (int i = 0; i < f->nparams; i++)
        if (f->params[i].is_ptr)
            str_printf(&b, "%sWTC_OBJSIZE((%s))", f->params[i].buf ? ", " : "", expr[i]);
    return b.s ? b.s : "";
}

/* __wtc_check_f (the element counts of a call against what is known of its buffers:
   doc/wtcc.md "Checking element counts") and __wtc_call_f (a call from ordinary code
   that is checked where it is written). Both are inlined, so gcc's object size sees the
   caller's arrays and blocks; when it knows nothing the default build's check folds
   away, a --check build always asks the runtime (the heap blocks). __wtc_call_f takes
   the sizes of its own parameters, not of the args struct's copies: gcc sees through
   an inlined parameter at any optimization, but not always through a struct whose
   address escapes (with -fsanitize=address a root count too large for main's array went
   unchecked). A spawn point passes the sizes of its argument expressions to
   __wtc_check_os_f (clone.c spawn_count_check); __wtc_check_f, the struct's copies, is
   left to a --check build's callee checking its own (__wtc_self). */
static void emit_check(Cg *cg, RecFn *f)
{
    FILE *o = cg->out;
    const char *inl = "static inline __attribute__((always_inline, unused))";
    char *ret = marshal_ret_type(cg, f);
    Str known = {0}, init = {0};
    const char **names = ast_alloc((size_t)f->nparams * sizeof *names + 1);
    const char **fields = ast_alloc((size_t)f->nparams * sizeof *fields + 1);
    for (int i = 0; i < f->nparams; i++) {
        RecParam *p = &f->params[i];
        str_printf(&init, "%s%s", i ? ", " : "", p->name);
        names[i] = p->name;
        fields[i] = cg_fmt("__wtc_a->%s", p->name);
        if (p->is_ptr)
            str_printf(&known, "%s__wtc_os[%d] != WTC_UNKNOWN_SIZE", p->buf ? " || " : "",
                       p->buf);
    }
    char *os = marshal_objsizes(f, fields), *os_params = marshal_objsizes(f, names);
    const char *ask = cg->opt && cg->opt->check ? "1" : known.s;
    fprintf(o, "%s void __wtc_check_os_%s(const __wtc_args_%s *__wtc_a, "
            "const unsigned long *__wtc_os, const char *__wtc_where)\n"
            "{\n    if (%s)\n"
            "        wtc_check_call(&__wtc_fn_%s, __wtc_a, __wtc_os, __wtc_where);\n}\n",
            inl, f->name, f->name, ask, f->name);
    fprintf(o, "%s void __wtc_check_%s(const __wtc_args_%s *__wtc_a, const char *__wtc_where)\n"
            "{\n    unsigned long __wtc_os[%d] = { %s };\n"
            "    __wtc_check_os_%s(__wtc_a, __wtc_os, __wtc_where);\n}\n",
            inl, f->name, f->name, f->nbufs, os, f->name);
    fprintf(o, "%s %s __wtc_call_%s(%s, const char *__wtc_where)\n{\n"
            "    unsigned long __wtc_os[%d] = { %s };\n"
            "    %s\n    __wtc_check_os_%s(&__wtc_a, __wtc_os, __wtc_where);\n", inl, ret,
            f->name, marshal_param_list(cg, f, false), f->nbufs, os_params,
            marshal_args_decl(f, "__wtc_a", init.s), f->name);
    if (f->is_void)
        fprintf(o, "    wtc_call(&__wtc_fn_%s, &__wtc_a, 0);\n}\n", f->name);
    else
        fprintf(o, "    %s __wtc_r;\n    wtc_call(&__wtc_fn_%s, &__wtc_a, &__wtc_r);\n"
                "    return __wtc_r;\n}\n", ret, f->name);
}

/* The wrapper's declarator, "static long fib(int n)", for its prototype and definition. */
static char *wrapper_head(Cg *cg, RecFn *f)
{
    /* a static one called only from recursive code (its calls there go to the clones)
       is not used in the generated C, where it is in the user's: gcc must not say so */
    return cg_fmt("%s%s%s %s(%s)", f->attrs ? f->attrs : "",
                  f->is_static ? "__attribute__((unused)) static " : "",
                  marshal_ret_type(cg, f), f->name, marshal_param_list(cg, f, false));
}

/* The declarations every later use of f needs: args struct, clone prototypes, descriptor. */
void marshal_emit_forward(Cg *cg, RecFn *f)
{
    FILE *o = cg->out;
    char *ret = marshal_ret_type(cg, f);
    cg_emit_line_generated(cg, f->def->span.start);
    fprintf(o, "typedef struct {");
    for (int i = 0; i < f->nparams; i++)
        fprintf(o, " %s;", member_decl(cg, &f->params[i], f->params[i].name));
    if (f->nparams == 0)
        fprintf(o, " char __wtc_unused;");
    if (f->counts_kept)
        fprintf(o, " long __wtc_n[%d];", f->nbufs);
    fprintf(o, " } __wtc_args_%s;\n", f->name);
    if (f->counts_kept)
        fprintf(o, "static void __wtc_eval_%s(__wtc_args_%s *);\n", f->name, f->name);
    fprintf(o, "static %s __wtc_seq_%s(%s);\n", ret, f->name, marshal_param_list(cg, f, false));
    if (f->has_par_clone)
        fprintf(o, "static %s __wtc_par_%s(%s);\n", ret, f->name, marshal_param_list(cg, f, true));
    fprintf(o, "static const wtc_fn __wtc_fn_%s;\n", f->name);
    /* f's body names f other than in a direct call ('(f)(x)', 'p = f'): in its clones,
       above the wrapper, that is the wrapper, which must be declared by then; on the
       definition's line, where gcc's "conflicting types" with a prototype of the user's
       belongs (it named a line 4 below it, past the end of a short file) */
    cg_emit_line_generated(cg, f->def->span.start);
    fprintf(o, "%s;\n", wrapper_head(cg, f));
    if (f->nbufs)
        emit_check(cg, f);
}

/* The counts of f from the args struct __wtc_a into __wtc_n[]: the parameters as locals,
   then one count per pointer parameter. */
static void emit_count_exprs(Cg *cg, RecFn *f)
{
    FILE *o = cg->out;
    for (int i = 0; i < f->nparams; i++)
        fprintf(o, "    %s = __wtc_a->%s; (void)%s;\n", member_decl(cg, &f->params[i],
                f->params[i].name), f->params[i].name, f->params[i].name);
    for (int i = 0; i < f->nparams; i++) {
        RecParam *p = &f->params[i];
        if (!p->is_ptr)
            continue;
        char *count = p->count ? cg_one_line(span_text(cg->tu, p->count_span)) : "0";
        fprintf(o, "    __wtc_n[%d] = (long)(%s);\n", p->buf, count);
        /* a negative count would travel as none: a callee on another rank would
           write into nothing, its results lost (a NULL pointer has nothing to lose) */
        fprintf(o, "    if (__builtin_expect(__wtc_n[%d] < 0, 0) && %s)\n"
                "        wtc_count_negative(&__wtc_fn_%s, %d, __wtc_n[%d]);\n", p->buf,
                p->name, f->name, p->buf, p->buf);
    }
}

/* __wtc_counts_f, and __wtc_eval_f when f keeps its counts in the args struct. */
static void emit_counts(Cg *cg, RecFn *f)
{
    FILE *o = cg->out;
    if (f->counts_kept) {
        fprintf(o, "static void __wtc_eval_%s(__wtc_args_%s *__wtc_a)\n{\n"
                "    long *__wtc_n = __wtc_a->__wtc_n;\n", f->name, f->name);
        emit_count_exprs(cg, f);
        fprintf(o, "}\n");
    }
    fprintf(o, "static void __wtc_counts_%s(const void *__wtc_v, long *__wtc_n)\n{\n", f->name);
    if (f->nbufs == 0) {
        fprintf(o, "    (void)__wtc_v; (void)__wtc_n;\n}\n");
        return;
    }
    fprintf(o, "    const __wtc_args_%s *__wtc_a = __wtc_v;\n", f->name);
    if (f->counts_kept)
        fprintf(o, "    for (int __wtc_b = 0; __wtc_b < %d; __wtc_b++)\n"
                "        __wtc_n[__wtc_b] = __wtc_a->__wtc_n[__wtc_b];\n", f->nbufs);
    else
        emit_count_exprs(cg, f);
    fprintf(o, "}\n");
}

/* __wtc_run_par_f / __wtc_run_seq_f: unpack the args struct and call a clone. */
static void emit_runners(Cg *cg, RecFn *f)
{
    FILE *o = cg->out;
    char *ret = marshal_ret_type(cg, f);
    char *store = f->is_void ? "" : cg_fmt("*(%s *)__wtc_r = ", ret);
    char *args = args_from_struct(f);
    const char *sep = f->nparams ? ", " : "";
    fprintf(o, "static void __wtc_run_par_%s(wtc_ctx __wtc_c, void *__wtc_v, void *__wtc_r)\n"
            "{\n    __wtc_args_%s *__wtc_a = __wtc_v; (void)__wtc_a; (void)__wtc_r; "
            "(void)__wtc_c;\n", f->name, f->name);
    if (f->has_par_clone)
        fprintf(o, "    %s__wtc_par_%s(__wtc_c%s%s);\n}\n", store, f->name, sep, args);
    else
        fprintf(o, "    %s__wtc_seq_%s(%s);\n}\n", store, f->name, args);
    fprintf(o, "static void __wtc_run_seq_%s(void *__wtc_v, void *__wtc_r)\n"
            "{\n    __wtc_args_%s *__wtc_a = __wtc_v; (void)__wtc_a; (void)__wtc_r;\n"
            "    %s__wtc_seq_%s(%s);\n}\n", f->name, f->name, store, f->name, args);
}

/* Does a struct or union of type t (or one inside it, or an array of them) have a
   bit-field? */
static bool has_bitfields(Type *t, int depth)
{
    t = type_strip_typedefs(t);
    while (t && t->kind == TY_ARRAY)
        t = type_strip_typedefs(t->base);
    if (!t || (t->kind != TY_STRUCT && t->kind != TY_UNION) || !t->sinfo || depth > 64)
        return false;
    for (Member *m = t->sinfo->members; m; m = m->next)
        if (m->bitfield || has_bitfields(m->type, depth + 1))
            return true;
    return false;
}

/* The C expression of buffer p's merge unit (wtc_buf.unit): the size of the scalar its
   element is, or is an array of; 1 when a struct or union is inside; WTC_UNIT_BITS when
   it has bit-fields (merged bit by bit: sibling calls may set fields of one byte). */
static const char *buf_unit(RecFn *f, RecParam *p)
{
    Type *t = type_strip_typedefs(p->type);
    int depth = 0;
    t = t ? type_strip_typedefs(t->base) : NULL;
    while (t && t->kind == TY_ARRAY) {
        depth++;
        t = type_strip_typedefs(t->base);
    }
    if (t && (t->kind == TY_STRUCT || t->kind == TY_UNION) && has_bitfields(t, 0))
        return "WTC_UNIT_BITS";
    if (!t || t->kind == TY_STRUCT || t->kind == TY_UNION)
        return "1";
    char *e = cg_fmt("sizeof((*((__wtc_args_%s *)0)->%s)", f->name, p->name);
    for (int k = 0; k < depth; k++)
        e = cg_fmt("%s[0]", e);
    return cg_fmt("%s)", e);
}

/* __wtc_bufs_f and __wtc_fn_f. */
static void emit_descriptor(Cg *cg, RecFn *f)
{
    FILE *o = cg->out;
    char *ret = marshal_ret_type(cg, f);
    if (f->nbufs) {
        fprintf(o, "static const wtc_buf __wtc_bufs_%s[] = {", f->name);
        for (int i = 0; i < f->nparams; i++) {
            RecParam *p = &f->params[i];
            if (p->is_ptr)
                fprintf(o, "%s\n    { __builtin_offsetof(__wtc_args_%s, %s), "
                        "sizeof(*((__wtc_args_%s *)0)->%s), %d, %d, \"%s\", %s, %s }",
                        p->buf ? "," : "", f->name, p->name, f->name, p->name, p->in, p->out,
                        p->name, cg_c_string(p->count ? cg_one_line(span_text(cg->tu, p->count_span)) : "0"),
                        buf_unit(f, p));
        }
        fprintf(o, " };\n");
    }
    fprintf(o, "static const wtc_fn __wtc_fn_%s = {\n    \"%s\", %d, %d, %d, %d, "
            "sizeof(__wtc_args_%s), %s, %s,\n    %d, %s, __wtc_counts_%s, __wtc_run_par_%s, "
            "__wtc_run_seq_%s };\n", f->name, f->name, f->id, f->mode, f->masters,
            f->has_spawn_par, f->name, f->is_void ? "0" : cg_fmt("sizeof(%s)", ret),
            f->is_void ? "0" : cg_fmt("WTC_KIND(*(%s *)0)", ret), f->nbufs,
            f->nbufs ? cg_fmt("__wtc_bufs_%s", f->name) : "0", f->name, f->name, f->name);
}

/* The runtime lays arguments, return values and buffers out 16-aligned (a received
   TASK's memory, a frame's arena, the predictor's copies): a type aligned to more (a
   32-byte vector, an _Alignas(64) element) arrived misaligned on another processor, and
   the aligned AVX moves gcc emits for it crashed there. Refused with a message, at the
   function's definition. */
static void emit_align_checks(Cg *cg, RecFn *f)
{
    FILE *o = cg->out;
    cg_emit_line_generated(cg, f->def->span.start);
    /* (no quotes around the names: gcc prints a static assertion's ' as \') */
    const char *why = "which the runtime does not keep aligned on other processors (at most "
                      "16 bytes: a vector of 32 or more, or _Alignas above 16, is not "
                      "supported)";
    fprintf(o, "_Static_assert(__alignof__(__wtc_args_%s) <= 16, \"wtcc: recursive function "
            "%s has a parameter whose type is aligned to more than 16 bytes, %s\"); ",
            f->name, f->name, why);
    if (!f->is_void)
        fprintf(o, "_Static_assert(__alignof__(%s) <= 16, \"wtcc: recursive function %s "
                "returns a type aligned to more than 16 bytes, %s\"); ",
                marshal_ret_type(cg, f), f->name, why);
    for (int i = 0; i < f->nparams; i++) {
        RecParam *p = &f->params[i];
        if (p->is_ptr)
            fprintf(o, "_Static_assert(__alignof__(*((__wtc_args_%s *)0)->%s) <= 16, "
                    "\"wtcc: the elements of buffer %s of recursive function %s have a "
                    "type aligned to more than 16 bytes, %s\"); ",
                    f->name, p->name, p->name, f->name, why);
    }
    fprintf(o, "\n"); /* one line: every message at the definition */
}

/* Everything the runtime needs about f. */
void marshal_emit_support(Cg *cg, RecFn *f)
{
    cg_emit_line_generated(cg, f->def->span.start);
    emit_counts(cg, f);
    emit_runners(cg, f);
    emit_descriptor(cg, f);
    emit_align_checks(cg, f);
}

/* The function under the user's own name: from ordinary code it starts a region. */
void marshal_emit_wrapper(Cg *cg, RecFn *f)
{
    FILE *o = cg->out;
    char *ret = marshal_ret_type(cg, f);
    Str init = {0};
    for (int i = 0; i < f->nparams; i++)
        str_printf(&init, "%s%s", i ? ", " : "", f->params[i].name);
    cg_emit_line_generated(cg, f->def->span.start);
    fprintf(o, "%s\n{\n    %s\n", wrapper_head(cg, f),
            marshal_args_decl(f, "__wtc_a", init.len ? init.s : "0"));
    if (f->is_void) {
        fprintf(o, "    wtc_call(&__wtc_fn_%s, &__wtc_a, 0);\n}\n", f->name);
    } else {
        fprintf(o, "    %s __wtc_r;\n    wtc_call(&__wtc_fn_%s, &__wtc_a, &__wtc_r);\n"
                "    return __wtc_r;\n}\n", ret, f->name);
    }
}
