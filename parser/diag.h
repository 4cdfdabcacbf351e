/* diag.h - gcc-style diagnostics: "file:line:col: error: message", the source line, a caret. */
#ifndef WTC_DIAG_H
#define WTC_DIAG_H

#include "ast.h"

/* Stop after this many errors (the rest would mostly be follow-on noise). */
#define DIAG_MAX_ERRORS 20

/* Report an error / warning / note at 'loc'. printf-style. The source line is read from
   loc.file (cached) and printed with a caret under loc.col. After DIAG_MAX_ERRORS errors,
   prints "too many errors, stopping" and exits with status 1. */
void diag_error(Loc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_warning(Loc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_note(Loc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An error with no location (e.g. a tool failed): "wtcc: error: message". */
void diag_fatal_noloc(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

int diag_error_count(void);
/* Start counting errors and warnings afresh (a program that checks many inputs). */
void diag_reset(void);
int diag_warning_count(void);

/* Called before exit(1) on too many errors, so the driver can remove temporary files. */
void diag_set_exit_hook(void (*hook)(void));

#endif
