/* symtab.c - interned names and the scoped symbol table (see symtab.h).
 *
 * Each (name, name space) pair has a slot holding a stack of bindings; each scope keeps
 * the list of bindings it made, so popping a scope restores what it shadowed. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "symtab.h"

/* ---- interning ------------------------------------------------------------ */

typedef struct Str {
    struct Str *next;
    unsigned hash;
    size_t len;
    char *s;
} Str;

static Str **str_tab;
static size_t str_cap, str_count;

/* FNV-1a: simple and good enough for identifiers. */
static unsigned hash_bytes(const char *s, size_t n)
{
    unsigned h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* Double the interning table when it gets crowded. */
static void str_grow(void)
{
    size_t ncap = str_cap ? str_cap * 2 : 4096;
    Str **nt = calloc(ncap, sizeof *nt);
    if (!nt)
        abort();
    for (size_t i = 0; i < str_cap; i++) {
        for (Str *e = str_tab[i], *nx; e; e = nx) {
            nx = e->next;
            e->next = nt[e->hash & (ncap - 1)];
            nt[e->hash & (ncap - 1)] = e;
        }
    }
    free(str_tab);
    str_tab = nt;
    str_cap = ncap;
}

const char *sym_intern(const char *s, size_t n)
{
    if (str_count * 2 >= str_cap)
        str_grow();
    unsigned h = hash_bytes(s, n);
    for (Str *e = str_tab[h & (str_cap - 1)]; e; e = e->next)
        if (e->hash == h && e->len == n && memcmp(e->s, s, n) == 0)
            return e->s;
    Str *e = ast_alloc(sizeof *e);
    e->hash = h;
    e->len = n;
    e->s = ast_strndup(s, n);
    e->next = str_tab[h & (str_cap - 1)];
    str_tab[h & (str_cap - 1)] = e;
    str_count++;
    return e->s;
}

/* ---- scoped bindings ---------------------------------------------------- */

enum { NS_ORD, NS_TAG };

typedef struct Binding Binding;
typedef struct Slot {
    struct Slot *next;
    const char *name; /* interned */
    int ns;
    Binding *top;
} Slot;

struct Binding {
    Slot *slot;
    void *val;           /* Decl* or Type* */
    int level;
    Binding *shadowed;   /* the binding this one hides */
    Binding *scope_next; /* next binding made in the same scope */
};

typedef struct Scope {
    Binding *bindings;
    bool proto;
} Scope;

#define SLOT_BUCKETS 65536
static Slot **slots;
static Scope *scopes;
static int nscopes, scopes_cap; /* nscopes - 1 is the current level */

/* The slot for (name, ns), created on demand. */
static Slot *slot_for(const char *name, int ns)
{
    size_t b = ((uintptr_t)name >> 3) % SLOT_BUCKETS;
    for (Slot *s = slots[b]; s; s = s->next)
        if (s->name == name && s->ns == ns)
            return s;
    Slot *s = ast_alloc(sizeof *s);
    s->name = name;
    s->ns = ns;
    s->next = slots[b];
    slots[b] = s;
    return s;
}

/* The existing slot for (name, ns) or NULL. */
static Slot *slot_find(const char *name, int ns)
{
    size_t b = ((uintptr_t)name >> 3) % SLOT_BUCKETS;
    for (Slot *s = slots[b]; s; s = s->next)
        if (s->name == name && s->ns == ns)
            return s;
    return NULL;
}

/* Add a binding of (name, ns) at scope 'level'. */
static void bind(const char *name, int ns, void *val, int level)
{
    Slot *s = slot_for(name, ns);
    Binding *b = ast_alloc(sizeof *b);
    b->slot = s;
    b->val = val;
    b->level = level;
    /* keep the stack ordered by level: insert below bindings of deeper scopes */
    Binding **pp = &s->top;
    while (*pp && (*pp)->level > level)
        pp = &(*pp)->shadowed;
    b->shadowed = *pp;
    *pp = b;
    b->scope_next = scopes[level].bindings;
    scopes[level].bindings = b;
}

/* Declare the compiler's builtin typedef names. */
static void bind_builtin_typedef(const char *name)
{
    Decl *d = ast_alloc(sizeof *d);
    d->kind = DK_TYPEDEF;
    d->name = sym_intern(name, strlen(name));
    d->storage = SC_TYPEDEF;
    d->is_global = true;
    d->type = type_new(TY_BUILTIN);
    d->type->name = d->name;
    d->loc.file = "<built-in>";
    bind(d->name, NS_ORD, d, 0);
}

void sym_reset(void)
{
    free(str_tab);
    str_tab = NULL;
    str_cap = str_count = 0;
    free(slots);
    slots = NULL;
}

void sym_init(void)
{
    free(slots);
    slots = calloc(SLOT_BUCKETS, sizeof *slots);
    if (!slots)
        abort();
    nscopes = 0;
    sym_push_scope(false);
    bind_builtin_typedef("__builtin_va_list");
    bind_builtin_typedef("__int128_t");
    bind_builtin_typedef("__uint128_t");
}

int sym_push_scope(bool proto)
{
    if (nscopes == scopes_cap) {
        scopes_cap = scopes_cap ? scopes_cap * 2 : 64;
        scopes = realloc(scopes, scopes_cap * sizeof *scopes);
        if (!scopes)
            abort();
    }
    scopes[nscopes].bindings = NULL;
    scopes[nscopes].proto = proto;
    return nscopes++;
}

void sym_pop_scope(void)
{
    if (nscopes <= 1)
        return; /* never pop file scope */
    Scope *sc = &scopes[--nscopes];
    for (Binding *b = sc->bindings; b; b = b->scope_next) {
        Binding **pp = &b->slot->top;
        while (*pp && *pp != b)
            pp = &(*pp)->shadowed;
        if (*pp)
            *pp = b->shadowed;
    }
}

void sym_pop_to(int level)
{
    if (level < 0)
        level = 0;
    while (nscopes - 1 > level)
        sym_pop_scope();
}

int sym_level(void)
{
    return nscopes - 1;
}

Decl *sym_lookup(const char *name)
{
    Slot *s = slot_find(name, NS_ORD);
    return s && s->top ? s->top->val : NULL;
}

Decl *sym_lookup_here(const char *name)
{
    Slot *s = slot_find(name, NS_ORD);
    return s && s->top && s->top->level == nscopes - 1 ? s->top->val : NULL;
}

void sym_bind(Decl *d)
{
    if (d->name)
        bind(d->name, NS_ORD, d, nscopes - 1);
}

bool sym_is_typedef(const char *name)
{
    Decl *d = sym_lookup(name);
    return d && d->kind == DK_TYPEDEF;
}

Type *sym_tag_lookup(const char *name, bool current_only)
{
    Slot *s = slot_find(name, NS_TAG);
    if (!s || !s->top)
        return NULL;
    if (current_only && s->top->level != nscopes - 1)
        return NULL;
    return s->top->val;
}

void sym_tag_bind(const char *name, Type *t, bool skip_proto)
{
    int level = nscopes - 1;
    while (skip_proto && level > 0 && scopes[level].proto)
        level--;
    bind(name, NS_TAG, t, level);
}
