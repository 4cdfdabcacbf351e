/* hints.c - diagnostics that name a syntax error's cause instead of its first bad token:
 *  - which standard header declares a type name, for gcc's hint after "unknown type
 *    name 'uint32_t'": "did you forget '#include <stdint.h>'?";
 *  - Work-Time C's words where the user meant something else: 'recursive' or 'par' in a
 *    header (keywords only in the .wtc file), a variable called 'to' in a par header;
 *  - old C that wtcc does not take: K&R parameter lists. */
#include <string.h>

#include "diag.h"
#include "lex.h"
#include "grammar.tab.h"

static const struct {
    const char *name, *header;
} std_types[] = {
    {"int8_t", "stdint.h"}, {"int16_t", "stdint.h"}, {"int32_t", "stdint.h"},
    {"int64_t", "stdint.h"}, {"uint8_t", "stdint.h"}, {"uint16_t", "stdint.h"},
    {"uint32_t", "stdint.h"}, {"uint64_t", "stdint.h"}, {"intptr_t", "stdint.h"},
    {"uintptr_t", "stdint.h"}, {"intmax_t", "stdint.h"}, {"uintmax_t", "stdint.h"},
    {"int_least8_t", "stdint.h"}, {"int_least16_t", "stdint.h"},
    {"int_least32_t", "stdint.h"}, {"int_least64_t", "stdint.h"},
    {"uint_least8_t", "stdint.h"}, {"uint_least16_t", "stdint.h"},
    {"uint_least32_t", "stdint.h"}, {"uint_least64_t", "stdint.h"},
    {"int_fast8_t", "stdint.h"}, {"int_fast16_t", "stdint.h"},
    {"int_fast32_t", "stdint.h"}, {"int_fast64_t", "stdint.h"},
    {"uint_fast8_t", "stdint.h"}, {"uint_fast16_t", "stdint.h"},
    {"uint_fast32_t", "stdint.h"}, {"uint_fast64_t", "stdint.h"},
    {"size_t", "stddef.h"}, {"ptrdiff_t", "stddef.h"}, {"wchar_t", "stddef.h"},
    {"max_align_t", "stddef.h"}, {"bool", "stdbool.h"}, {"FILE", "stdio.h"},
    {"fpos_t", "stdio.h"}, {"va_list", "stdarg.h"}, {"time_t", "time.h"},
    {"clock_t", "time.h"}, {"jmp_buf", "setjmp.h"}, {"sig_atomic_t", "signal.h"},
    {"div_t", "stdlib.h"}, {"ldiv_t", "stdlib.h"}, {"lldiv_t", "stdlib.h"},
    {"wint_t", "wchar.h"}, {"mbstate_t", "wchar.h"}, {"char16_t", "uchar.h"},
    {"char32_t", "uchar.h"}, {"atomic_int", "stdatomic.h"}, {"atomic_bool", "stdatomic.h"},
    {"pthread_t", "pthread.h"}, {"pthread_mutex_t", "pthread.h"}, {"ssize_t", "sys/types.h"},
    {"off_t", "sys/types.h"}, {"pid_t", "sys/types.h"}, {"MPI_Comm", "mpi.h"},
};

/* What the last hint said, so that its follow-on errors are not shown: the rest of its
   line (a header's "par i = 0 to n do" read as a declaration), and after a K&R list
   the body's '{', which the grammar meets after the parameters' declarations. */
static struct {
    const char *file;  /* the hint's line */
    int line;
    unsigned kr_brace; /* at a K&R hint: lex_braces_seen() + 1, the body's '{'; else 0 */
    bool header_noted; /* the note on keywords in headers was shown */
} hinted;

void hints_reset(void)
{
    hinted.file = NULL;
    hinted.line = 0;
    hinted.kr_brace = 0;
    hinted.header_noted = false;
}

static void remember(Loc loc, bool kr)
{
    hinted.file = loc.file;
    hinted.line = loc.line;
    hinted.kr_brace = kr ? lex_braces_seen() + 1 : 0;
}

/* An error at 'loc' on the line of the last hint: its consequence, not shown. */
static bool follow_on(Loc loc)
{
    return hinted.file && loc.file && strcmp(loc.file, hinted.file) == 0 &&
           loc.line == hinted.line;
}

/* 'recursive' or 'par' in a header (even the program's own): there they are ordinary
   names (lexer.l, classify_ident), so "recursive long f(...)" reads as a variable
   called recursive followed by a stray 'long'. Say what the rule is. */
static bool keyword_in_header(Loc loc, const char *name)
{
    if (loc.user || (strcmp(name, "recursive") != 0 && strcmp(name, "par") != 0))
        return false;
    diag_error(loc, "'%s' is a keyword only in the .wtc file being compiled, not in a header "
               "it includes", name);
    if (!hinted.header_noted)
        diag_note(loc, "define recursive functions and write par statements in the .wtc "
                  "file; a header may declare a recursive function with a plain prototype "
                  "(without 'recursive' and its clauses)");
    hinted.header_noted = true;
    remember(loc, false);
    return true;
}

void lex_report_unknown_type(Loc loc, const char *name)
{
    if (follow_on(loc) || keyword_in_header(loc, name)) /* "recursive fib(long n)", "par i" */
        return;
    diag_error(loc, "unknown type name '%s'", name);
    const char *hdr = lex_std_header(name);
    if (hdr)
        diag_note(loc, "'%s' is defined in header '<%s>'; did you forget '#include <%s>'?",
                  name, hdr, hdr);
}

const char *lex_std_header(const char *name)
{
    for (size_t i = 0; i < sizeof std_types / sizeof std_types[0]; i++)
        if (strcmp(std_types[i].name, name) == 0)
            return std_types[i].header;
    return NULL;
}

bool hint_syntax_error(bool want_name, bool want_expr, bool want_type)
{
    int k0, k1;
    const char *t0, *t1;
    Loc l0, l1;
    if (!lex_handed(0, &k0, &t0, &l0)) /* the lookahead */
        return false;
    bool prev = lex_handed(1, &k1, &t1, &l1);
    unsigned kr_brace = hinted.kr_brace;
    hinted.kr_brace = 0;
    if (follow_on(l0) || (k0 == '{' && kr_brace == lex_braces_seen()))
        return true; /* said already */

    /* "recursive long fib(long n)" in a header: 'recursive' was a name there */
    if (prev && k1 == IDENT && t1 && lex_may_follow_recursive(k0) &&
        keyword_in_header(l1, t1))
        return true;

    /* "par i = 0 to to do": between 'par' and 'do' (outside brackets) 'to' is the
       keyword, so a variable of that name cannot be a bound or the index there */
    if (k0 == TO && (want_name || want_expr)) {
        diag_error(l0, "'to' is a keyword in a par header (between 'par' and 'do'); it "
                   "cannot name a variable there");
        if (want_expr)
            diag_note(l0, "rename the variable, or write it in parentheses: '(to)'");
        else
            diag_note(l0, "rename the index");
        return true;
    }

    /* "int f(a, b) int a, b; { ... }": a parameter list of bare names, where only
       declarations (or ')') can come, after a declarator's name or its ')' ("(*fp)(a)";
       not "_Atomic(a)" nor "__builtin_offsetof(a, m)") */
    int k2;
    const char *t2;
    Loc l2;
    if (k0 == IDENT && t0 && prev && k1 == '(' && want_type && !want_expr &&
        lex_handed(2, &k2, &t2, &l2) && (k2 == IDENT || k2 == TYPEDEF_NAME || k2 == ')')) {
        if (lex_std_header(t0)) { /* "int f(size_t)" without <stddef.h> */
            lex_report_unknown_type(l0, t0);
            return true;
        }
        diag_error(l0, "old-style (K&R) parameter declarations are not supported");
        diag_note(l0, "give each parameter its type inside the parentheses, as in "
                  "'int f(int a, int b)'");
        remember(l0, true);
        return true;
    }
    return false;
}
