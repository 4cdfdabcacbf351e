/* fuzz_parse.c - fuzz target: the parser and the code generator fed preprocessed text.
 *
 * One input is one translation unit, as `cc -E` would hand it to wtcc (line markers
 * included; '#include' lines are skipped like any other directive). It is parsed, and
 * when it parses without error, checked and turned into C (written to /dev/null). A
 * crash, a hang or a sanitizer report is a bug; diagnostics are the expected answer.
 *
 * Built three ways (tests/fuzz/build.sh, doc/wtcc.md "Fuzzing"):
 *   libFuzzer  clang -fsanitize=fuzzer,address,undefined -DWTC_LIBFUZZER
 *   AFL++      afl-clang-fast ...: main() reads each file named, or stdin
 *   plain cc   the same main(); with --mutate N it also runs N deterministic mutants
 *              of each file (the smoke run of `make check`, tests/unit/fuzz_smoke.sh)
 */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "codegen.h"
#include "diag.h"
#include "symtab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Inputs beyond this are cut: bigger ones only make a run slower. */
#define FUZZ_MAX_INPUT (1 << 20)
/* An input this small cannot nest deeper than the calling thread's stack holds (a level
   takes a token or more), so it runs there: a thread with a 1 GB stack per input costs
   a sanitized build most of its speed. */
#define FUZZ_SHALLOW_INPUT 2048

typedef struct Input {
    const char *text;
    int len;
} Input;

static jmp_buf too_many_errors;
static FILE *sink;
static unsigned long n_inputs, n_clean; /* inputs run; of those, parsed without error */

/* diag.c's "too many errors": return to the harness instead of exiting. */
static void stop_input(void)
{
    longjmp(too_many_errors, 1);
}

/* Parse, check and generate one input (on the deep stack: parser/deep.c). */
static int run_input(void *p)
{
    Input *in = p;
    sym_reset();
    ast_reset();
    diag_reset();
    if (setjmp(too_many_errors) == 0) {
        /* "<fuzz>": no file of that name is read to show source lines */
        TranslationUnit *tu = parse_translation_unit("<fuzz>", in->text, in->len);
        if (tu->nerrors == 0) {
            n_clean++;
            /* the checking build's code (wtcc --check) for every other input */
            CgOptions opt = {0, 0, (int)(in->len & 1)};
            cg_generate(tu, &opt, sink);
        }
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!sink) {
        sink = fopen("/dev/null", "w");
        if (!sink)
            abort();
        diag_set_exit_hook(stop_input);
    }
    Input in = {(const char *)data, size > FUZZ_MAX_INPUT ? FUZZ_MAX_INPUT : (int)size};
    n_inputs++;
    if (in.len <= FUZZ_SHALLOW_INPUT)
        run_input(&in);
    else
        ast_run_deep(run_input, &in);
    return 0;
}

#ifndef WTC_LIBFUZZER

/* Read a whole file ("-": stdin); NULL when it cannot be read. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    if (f != stdin)
        fclose(f);
    *len = n;
    return buf;
}

/* Tokens a mutation inserts: the ones that open, close or switch a context. */
static const char *const fuzz_words[] = {
    "{", "}", "(", ")", "[", "]", ";", ",", "*", "=", ":", "\"", "'", "\\", "#", "\n",
    "recursive ", "par i = 0 to 1 do ", " in: ", " out: ", " cond: ", " mode: dynamic 2;",
    "typedef int T; ", "struct S ", "__attribute__((x)) ", "asm(\"\") ", "...",
    "# 1 \"<fuzz>\"\n", "# 1 \"h.h\" 1 3\n", "\\u03c0", "\xcf\x80", "else if (a) ",
};

/* The next number of a fixed linear congruential sequence (deterministic runs). */
static unsigned next_rand(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return (*state >> 16) & 0x7fff;
}

/* Mutant k of text: a few edits (flip, delete, insert a word, duplicate, cut). */
static char *mutate(const char *text, size_t len, unsigned k, size_t *out_len)
{
    unsigned st = 2166136261u ^ (k * 16777619u);
    size_t cap = 2 * len + 4096, n = len;
    char *b = malloc(cap);
    if (!b)
        abort();
    memcpy(b, text, len);
    for (unsigned e = 0, edits = 1 + next_rand(&st) % 4; e < edits; e++) {
        size_t at = ((size_t)next_rand(&st) << 15 | next_rand(&st)) % (n + 1);
        switch (next_rand(&st) % 5) {
        case 0: /* flip a byte */
            if (at < n)
                b[at] = (char)(b[at] ^ (1 << next_rand(&st) % 8));
            break;
        case 1: { /* delete up to 16 bytes */
            size_t d = 1 + next_rand(&st) % 16;
            d = at + d > n ? n - at : d;
            memmove(b + at, b + at + d, n - at - d);
            n -= d;
            break;
        }
        case 2: { /* insert a word */
            const char *w = fuzz_words[next_rand(&st) % (sizeof fuzz_words / sizeof *fuzz_words)];
            size_t wl = strlen(w);
            if (n + wl < cap) {
                memmove(b + at + wl, b + at, n - at);
                memcpy(b + at, w, wl);
                n += wl;
            }
            break;
        }
        case 3: { /* duplicate up to 64 bytes in place */
            size_t d = 1 + next_rand(&st) % 64;
            d = at + d > n ? n - at : d;
            if (n + d < cap) {
                memmove(b + at + d, b + at, n - at);
                n += d;
            }
            break;
        }
        default: /* cut the rest */
            n = at;
            break;
        }
    }
    *out_len = n;
    return b;
}

int main(int argc, char **argv)
{
    unsigned mutants = 0;
    int first = 1;
    if (argc > 2 && strcmp(argv[1], "--mutate") == 0) {
        mutants = (unsigned)strtoul(argv[2], NULL, 10);
        first = 3;
    }
    if (first >= argc) { /* AFL++ with stdin, or a pipe */
        size_t len;
        char *text = slurp("-", &len);
        if (text)
            LLVMFuzzerTestOneInput((const uint8_t *)text, len);
        free(text);
        return 0;
    }
    for (int i = first; i < argc; i++) {
        size_t len;
        char *text = slurp(argv[i], &len);
        if (!text) {
            fprintf(stderr, "fuzz_parse: cannot read %s\n", argv[i]);
            return 2;
        }
        LLVMFuzzerTestOneInput((const uint8_t *)text, len);
        for (unsigned k = 0; k < mutants; k++) {
            size_t ml;
            char *m = mutate(text, len, k * 7919u + (unsigned)i, &ml);
            LLVMFuzzerTestOneInput((const uint8_t *)m, ml);
            free(m);
        }
        free(text);
    }
    printf("%lu inputs, %lu parsed without error\n", n_inputs, n_clean);
    return 0;
}

#endif
