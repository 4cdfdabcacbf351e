/* lex.h - interfaces private to the front end: the location type carried by every
 * grammar symbol, the lexer's entry points and the source-line cache of diag.c. */
#ifndef WTC_LEX_H
#define WTC_LEX_H

#include "ast.h"

/* The location of a grammar symbol: a byte range in the preprocessed buffer plus the
   mapped source location of its first token. 'empty' marks an empty rule, whose range
   is skipped when the span of the enclosing rule is computed. */
typedef struct WtcLoc {
    int start, end;
    bool empty;
    Loc loc;
} WtcLoc;

/* Limits that keep hostile input from exhausting the C stack. */
#define LEX_MAX_BRACKETS 10000 /* open (, [, { at once */
#define AST_MAX_DEPTH 100000   /* nesting depth of an expression/statement tree */

/* lexer.l */
void lex_init(const char *user_path, const char *text, int len);
void lex_finish(void);
bool lex_fatal(void);          /* lexing stopped early (nesting too deep) */
void lex_stop(void);           /* make every further token end-of-file */
/* The innermost open bracket, skipping the 'skip' innermost ones; false if none. */
/* Forget open brackets (after error recovery at file scope, where none can be open). */
void lex_reset_brackets(void);
bool lex_open_bracket(int skip, char *kind, Loc *loc);

/* hints.c: the standard header that declares the type name 'name', or NULL; gcc's
   "unknown type name 'name'" with that header as a hint. */
const char *lex_std_header(const char *name);
void lex_report_unknown_type(Loc loc, const char *name);
/* lexer.l: did the tokens read so far end a statement's "T *x" with T no declared
   name, the last token being the one that is a syntax error? Then T and its place. */
bool lex_unknown_type_before(const char **name, Loc *loc);
/* The kind of the i-th last token handed to the grammar (0: the last), or -1. */
int lex_handed_kind(unsigned i);
/* The i-th last token handed to the grammar (0: the last, a syntax error's lookahead):
   its kind, its text (identifiers and literals, else NULL) and place; false if none. */
bool lex_handed(unsigned i, int *kind, const char **text, Loc *loc);
/* How many '{' the grammar has been handed so far. */
unsigned lex_braces_seen(void);
/* grammar.y: the lexer dropped an __attribute__ naming cleanup at this offset (the
   attribute runs code when its variable's scope ends: codegen/capture.c). */
void parse_note_cleanup(int offset);
/* grammar.y: a token outside the system headers came from the file 'name' (interned). */
void parse_note_file(const char *name);
/* lexer.l: can a token of this kind follow the keyword 'recursive' (a declaration
   specifier or the function's name)? */
bool lex_may_follow_recursive(int kind);

/* hints.c: a syntax error whose cause has a better name than "unexpected X" (a
   Work-Time C keyword where the user meant a name, an old C form): report it and
   return true; false when the plain message stands. want_name, want_expr, want_type:
   the grammar could have taken an identifier, an expression, a declaration specifier
   in place of the lookahead. */
bool hint_syntax_error(bool want_name, bool want_expr, bool want_type);
/* Forget what the hints of the last translation unit said. */
void hints_reset(void);

/* diag.c: the text of line 'line' of 'file' (without newline), or NULL. Cached. */
const char *diag_source_line(const char *file, int line, int *len);

#endif
