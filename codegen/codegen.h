/* codegen.h - checking an annotated translation unit and generating its C.
 *
 * The generated C is the preprocessed user text, copied verbatim by byte span, with the
 * recursive functions, the par statements and main re-printed (see doc/codegen.md).
 */
#ifndef WTC_CODEGEN_H
#define WTC_CODEGEN_H

#include <stdio.h>
#include "ast.h"

typedef struct CgOptions {
    int mode_override;    /* WTC_MODE_* from wtcc --mode (0 = none) */
    int masters_override; /* from --mode=dynamic:M (0 = none) */
    int check;            /* wtcc --check: every call checks its element counts */
} CgOptions;

/* Check the Work-Time C rules (SPEC 2) and write the generated C to 'out'.
   Diagnostics are printed through diag.h. Returns the number of errors; when it is not
   zero the contents of 'out' are meaningless and must be discarded. */
int cg_generate(TranslationUnit *tu, const CgOptions *opt, FILE *out);

/* After cg_generate: the user's lines (file and line; col unused) that the generated C
   re-prints with other text on them (a clone's renamed header, a par, a renamed call,
   main renamed by a macro), in *lines; returns how many. The C compiler's columns there
   count the generated text, not the user's (wtc/tidy.c drops them). */
int cg_rewritten_lines(const Loc **lines);

#endif
