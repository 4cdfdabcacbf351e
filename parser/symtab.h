/* symtab.h - scoped symbol table of the front end (private to parser/).
 *
 * Two name spaces per C: ordinary identifiers (variables, functions, typedef names,
 * enumeration constants) and tags (struct/union/enum). Scopes are numbered from 0
 * (file scope); popping a scope undoes every binding made in it. Names are interned,
 * so a name can be compared by pointer.
 */
#ifndef WTC_SYMTAB_H
#define WTC_SYMTAB_H

#include "ast.h"

/* Intern a string: equal strings give the same pointer. */
const char *sym_intern(const char *s, size_t n);

/* Reset the table and bind the builtin typedef names (__builtin_va_list, ...). */
void sym_init(void);
/* Forget every interned string (before ast_reset frees them; the fuzz target). */
void sym_reset(void);

/* Open a scope; returns its level (file scope is 0). 'proto' marks a function
   prototype scope (tags first seen there are bound at the enclosing scope). */
int sym_push_scope(bool proto);
void sym_pop_scope(void);
/* Pop scopes until the current level is 'level' (no-op if already there). */
void sym_pop_to(int level);
int sym_level(void);

/* Ordinary name space. */
Decl *sym_lookup(const char *name);      /* innermost visible binding or NULL */
Decl *sym_lookup_here(const char *name); /* bound in the current scope only */
void sym_bind(Decl *d);                  /* bind d->name (interned) in the current scope */
bool sym_is_typedef(const char *name);

/* Tag name space: a Type (TY_STRUCT/TY_UNION/TY_ENUM) whose sinfo is shared. */
Type *sym_tag_lookup(const char *name, bool current_only);
void sym_tag_bind(const char *name, Type *t, bool skip_proto);

#endif
