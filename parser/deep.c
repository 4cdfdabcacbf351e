/* deep.c - run the compiler proper on a stack deep enough for the deepest tree the
 * parser accepts.
 *
 * The parser is iterative (bison's stack lives on the heap), but every walk of the AST
 * (checks, code generation, the dump) recurses once per level, and the parser accepts
 * trees AST_MAX_DEPTH levels deep (gcc takes a 5,000-branch else-if chain; so do we,
 * and five times more). The default 8 MB stack does not hold that, less so under
 * AddressSanitizer, so the work runs on a thread with a stack of its own: reserved
 * address space, touched only as deep as the input goes. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "ast.h"
#include "lex.h"

/* Bytes of stack for AST_MAX_DEPTH levels: generous, for sanitizer builds too. */
#define DEEP_STACK_BYTES ((size_t)1 << 30)

typedef struct DeepCall {
    int (*fn)(void *);
    void *arg;
    int result;
} DeepCall;

static void *deep_main(void *p)
{
    DeepCall *c = p;
    c->result = c->fn(c->arg);
    return NULL;
}

int ast_run_deep(int (*fn)(void *), void *arg)
{
    DeepCall c = {fn, arg, 0};
    pthread_attr_t attr;
    pthread_t t;
    if (pthread_attr_init(&attr) != 0)
        return fn(arg);
    /* without the big stack (no memory for it) run here: deep inputs may then fail */
    if (pthread_attr_setstacksize(&attr, DEEP_STACK_BYTES) != 0 ||
        pthread_create(&t, &attr, deep_main, &c) != 0) {
        pthread_attr_destroy(&attr);
        return fn(arg);
    }
    pthread_attr_destroy(&attr);
    pthread_join(t, NULL);
    return c.result;
}
