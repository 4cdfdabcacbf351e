/* common/keep.c - storage a par frame keeps until it closes: the copies wtc_keep makes
 * of spawn arguments that point into an object of the par body, whose storage ends
 * with the iteration (doc/language.md). Both runtimes hold one wtcrt_keep per frame.
 *
 * The copies cannot live in the frame's arena: it grows by realloc, and the args
 * structs there point at them. So they go into chunks that never move; a frame reused
 * for the next par reuses its chunks. */
#include <stdlib.h>
#include <string.h>
#include "wtcrt.h"

struct wtcrt_keep_chunk {
    wtcrt_keep_chunk *next;
    size_t cap, used;
    _Alignas(16) unsigned char data[];
};

#define KEEP_CHUNK_MIN 4096

/* Forgets every copy (the frame is opened again); keeps the chunks. */
void wtcrt_keep_reset(wtcrt_keep *k)
{
    for (wtcrt_keep_chunk *c = k->head; c; c = c->next)
        c->used = 0;
    k->cur = k->head;
}

/* n bytes, 16-aligned, that stay where they are until the next reset; NULL when out of
   memory. */
static void *keep_alloc(wtcrt_keep *k, size_t n)
{
    wtcrt_keep_chunk *c, **tail;
    n = (n + 15) & ~(size_t)15;
    while (k->cur && k->cur->cap - k->cur->used < n)
        k->cur = k->cur->next;
    if (!k->cur) {
        size_t cap = n > KEEP_CHUNK_MIN ? n : KEEP_CHUNK_MIN;
        if (!(c = malloc(sizeof *c + cap)))
            return NULL;
        c->next = NULL;
        c->cap = cap;
        c->used = 0;
        for (tail = &k->head; *tail; tail = &(*tail)->next)
            ;
        *tail = k->cur = c;
    }
    c = k->cur;
    c->used += n;
    return c->data + c->used - n;
}

int wtcrt_keep_buf(wtcrt_keep *k, const wtc_fn *fn, void *args, int b)
{
    long cnt[64], *counts = fn->nbufs <= 64 ? cnt : malloc((size_t)fn->nbufs * sizeof *counts);
    unsigned long n;
    void *copy;
    if (!counts || b < 0 || b >= fn->nbufs) {
        if (counts != cnt)
            free(counts);
        return -1;
    }
    fn->counts(args, counts);
    n = wtcrt_buf_bytes(fn, b, counts[b]);
    if (counts != cnt)
        free(counts);
    if (!(copy = keep_alloc(k, n ? n : 1)))
        return -1;
    if (n)
        memcpy(copy, wtcrt_buf_ptr(fn, args, b), n);
    wtcrt_buf_set(fn, args, b, copy);
    return 0;
}
