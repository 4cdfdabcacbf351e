/* common/check.c - element counts checked against the memory they describe (doc/wtcc.md
 * "Checking element counts"). A count larger than the buffer it describes is harmless
 * while the callee runs on the caller's rank (it works in place) and corrupts memory
 * when it runs on another: the caller's rank packs that many elements into the TASK
 * (reading past the buffer) and stores that many back from the RESULT (writing past
 * it). So a count is checked wherever it is certain how many bytes remain at the
 * pointer:
 *   - what the caller's compiler knows (WTC_OBJSIZE at the call: arrays, blocks
 *     malloc'ed in the calling function), in every build;
 *   - the buffers of the call that spawns (the runtime knows their counts): a child's
 *     buffer that starts inside one must end inside it (mpi/par.c, at every TASK);
 *   - buffers the runtime unpacked from a TASK (exact sizes), and in a wtcc --check
 *     build every heap block the program allocated (common/heapwrap.c).
 * Shared by both runtimes; the executor supplies wtcrt_check_fail. */
#include <search.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "wtcrt.h"

/* A known object: [base, base + size). Objects in one table never overlap, so ordering
   by address and calling overlapping ones equal is a total order. */
typedef struct known {
    const unsigned char *base;
    unsigned long size;
} known;

static void *heap_root, *unpacked_root; /* tsearch trees of known */
static known *spare;                    /* free records, linked through 'base' */
static atomic_flag heap_lock = ATOMIC_FLAG_INIT;
int wtcrt_checking;                     /* a wtcc --check build (set at start) */

static int known_cmp(const void *a, const void *b)
{
    const known *x = a, *y = b;
    unsigned long xs = x->size ? x->size : 1, ys = y->size ? y->size : 1;
    if (x->base + xs <= y->base)
        return -1;
    if (y->base + ys <= x->base)
        return 1;
    return 0;
}

/* A record from a private pool: malloc here would come back to heapwrap.c in a
   --check build (and the heap table's lock is held). */
static known *known_new(void)
{
    known *k = spare;
    if (!k) {
        size_t n = 65536 / sizeof *k;
        known *slab = mmap(NULL, n * sizeof *k, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (slab == MAP_FAILED)
            return NULL;
        for (size_t i = 1; i < n; i++) {
            slab[i].base = (const unsigned char *)spare;
            spare = &slab[i];
        }
        return &slab[0];
    }
    spare = (known *)(void *)k->base;
    return k;
}

static void known_free(known *k)
{
    k->base = (const unsigned char *)spare;
    spare = k;
}

/* Adds [base, base + size) to a table, replacing whatever it overlaps (a stale entry:
   a block the C library freed without passing through free()). */
static void table_add(void **root, const void *base, unsigned long size)
{
    known key = { base, size }, *k;
    while (tfind(&key, root, known_cmp)) {
        known *old = *(known **)tfind(&key, root, known_cmp);
        tdelete(&key, root, known_cmp);
        known_free(old);
    }
    if (!(k = known_new()))
        return; /* unknown is always safe */
    *k = key;
    if (!tsearch(k, root, known_cmp))
        known_free(k);
}

/* Removes the object that contains base, if any. */
static void table_del(void **root, const void *base)
{
    known key = { base, 1 }, **found = tfind(&key, root, known_cmp);
    known *old;
    if (!found)
        return;
    old = *found;
    tdelete(&key, root, known_cmp);
    known_free(old);
}

/* The object of a table that contains p, or NULL. */
static const known *table_find(void *const *root, const void *p)
{
    known key = { p, 1 }, **found = tfind(&key, root, known_cmp);
    return found ? *found : NULL;
}

/* A heap block of the program (heapwrap.c, --check builds) was allocated / freed. */
void wtcrt_heap_add(const void *base, unsigned long size)
{
    while (atomic_flag_test_and_set_explicit(&heap_lock, memory_order_acquire))
        ;
    table_add(&heap_root, base, size);
    atomic_flag_clear_explicit(&heap_lock, memory_order_release);
}

void wtcrt_heap_del(const void *base)
{
    while (atomic_flag_test_and_set_explicit(&heap_lock, memory_order_acquire))
        ;
    table_del(&heap_root, base);
    atomic_flag_clear_explicit(&heap_lock, memory_order_release);
}

/* A buffer the runtime unpacked from a TASK (only tracked in --check builds: the
   spawning call's own check covers them otherwise). */
void wtcrt_unpacked_add(const void *base, unsigned long size)
{
    if (wtcrt_checking && size)
        table_add(&unpacked_root, base, size);
}

/* Forgets every unpacked buffer inside [base, base + size) (the TASK is freed). */
void wtcrt_unpacked_forget(const void *base, unsigned long size)
{
    known key = { base, size };
    const void *found;
    if (!wtcrt_checking || !size)
        return;
    while ((found = tfind(&key, &unpacked_root, known_cmp))) {
        known *old = *(known *const *)found;
        tdelete(&key, &unpacked_root, known_cmp);
        known_free(old);
    }
}

/* What the message says the count is checked against. */
enum { BY_COMPILER, BY_UNPACKED, BY_HEAP };

/* Bytes known to remain at p (WTC_UNKNOWN_SIZE: nothing is known); *by says how. */
static unsigned long remaining(const void *p, unsigned long objsize, int *by,
                               unsigned long *whole)
{
    const known *k;
    *by = BY_COMPILER;
    *whole = 0;
    if (objsize != WTC_UNKNOWN_SIZE)
        return objsize;
    if (!wtcrt_checking)
        return WTC_UNKNOWN_SIZE;
    if ((k = table_find(&unpacked_root, p)))
        *by = BY_UNPACKED;
    else {
        while (atomic_flag_test_and_set_explicit(&heap_lock, memory_order_acquire))
            ;
        k = table_find(&heap_root, p);
        atomic_flag_clear_explicit(&heap_lock, memory_order_release);
        *by = BY_HEAP;
    }
    if (!k)
        return WTC_UNKNOWN_SIZE;
    *whole = k->size;
    return k->size - (unsigned long)((const unsigned char *)p - k->base);
}

/* "in:", "out:" or "in: and out:" for buffer b. */
static const char *clause_of(const wtc_buf *b)
{
    return b->in && b->out ? "in: and out:" : b->in ? "in:" : "out:";
}

/* "call of fill: argument 'a' (out: a[m]) has 10001 elements": buffer b of a call of fn
   and its count, as every count error names them. */
static void call_words(char *buf, size_t n, const wtc_fn *fn, int b, long count)
{
    const wtc_buf *x = &fn->bufs[b];
    const char *name = x->name ? x->name : "?";
    snprintf(buf, n, "call of %s: argument '%s' (%s %s[%s]) has %ld element%s", fn->name,
             name, clause_of(x), name, x->count ? x->count : "?", count,
             count == 1 ? "" : "s");
}

/* Stops the program: buffer b of a call of fn needs 'need' bytes, 'have' remain. */
void wtcrt_count_error(const char *where, const wtc_fn *fn, int b, long count,
                       unsigned long need, unsigned long have, const char *what)
{
    char msg[1024], call[512];
    call_words(call, sizeof call, fn, b, count);
    snprintf(msg, sizeof msg, "%s%s%s (%lu bytes), but only %lu bytes of %s remain at that "
             "address: its element count is too large (a callee on another rank would %s "
             "past the end)", where ? where : "", where ? ": " : "", call, need, have, what,
             fn->bufs[b].out ? "write" : "read");
    wtcrt_check_fail(msg);
}

void wtc_count_negative(const wtc_fn *fn, int b, long count)
{
    char msg[1024], call[512];
    call_words(call, sizeof call, fn, b, count);
    snprintf(msg, sizeof msg, "%s: an element count must not be negative (a callee on "
             "another rank would get none of its elements%s)", call,
             fn->bufs[b].out ? ", and its results would be lost" : "");
    wtcrt_check_fail(msg);
}

void wtc_check_call(const wtc_fn *fn, const void *args, const unsigned long *avail,
                    const char *where)
{
    long cnt[64], *counts;
    if (fn->nbufs == 0)
        return;
    counts = fn->nbufs <= 64 ? cnt : malloc((size_t)fn->nbufs * sizeof *counts);
    if (!counts)
        return;
    fn->counts(args, counts);
    for (int b = 0; b < fn->nbufs; b++) {
        unsigned long need = wtcrt_buf_bytes(fn, b, counts[b]), have, whole;
        const void *p = wtcrt_buf_ptr(fn, args, b);
        char what[160];
        int by;
        if (!need || !p)
            continue;
        have = remaining(p, avail ? avail[b] : WTC_UNKNOWN_SIZE, &by, &whole);
        if (have == WTC_UNKNOWN_SIZE || need <= have)
            continue;
        if (by == BY_COMPILER)
            snprintf(what, sizeof what, "the array or block the caller passes");
        else
            snprintf(what, sizeof what, "the %s of %lu bytes it points into",
                     by == BY_HEAP ? "heap block" : "buffer received from the caller", whole);
        wtcrt_count_error(where, fn, b, counts[b], need, have, what);
    }
    if (counts != cnt)
        free(counts);
}

/* A child's buffers against the buffers of the call that spawns it (pf, pargs): a
   buffer that starts inside one of the parent's (its end included) must end inside
   one of them, or a callee on another rank would reach past what the parent has. */
void wtcrt_check_inside(const wtc_fn *pf, const void *pargs, const wtc_fn *cf,
                        const void *cargs, const char *where)
{
    long pc[64], cc[64];
    if (pf->nbufs == 0 || cf->nbufs == 0 || pf->nbufs > 64 || cf->nbufs > 64)
        return;
    pf->counts(pargs, pc);
    cf->counts(cargs, cc);
    for (int b = 0; b < cf->nbufs; b++) {
        const unsigned char *p = wtcrt_buf_ptr(cf, cargs, b);
        unsigned long need = wtcrt_buf_bytes(cf, b, cc[b]), best = 0;
        int inside = 0, from = -1;
        if (!need || !p)
            continue;
        for (int q = 0; q < pf->nbufs; q++) {
            const unsigned char *pb = wtcrt_buf_ptr(pf, pargs, q);
            unsigned long pn = wtcrt_buf_bytes(pf, q, pc[q]);
            if (!pb || !pn || p < pb || p > pb + pn)
                continue;
            inside = 1;
            if ((unsigned long)(pb + pn - p) >= best) {
                best = (unsigned long)(pb + pn - p);
                from = q;
            }
        }
        if (inside && need > best) {
            char what[256];
            const wtc_buf *pbuf = &pf->bufs[from];
            snprintf(what, sizeof what, "the calling %s's argument '%s' (%s %s[%s] = %ld "
                     "element%s)", pf->name, pbuf->name ? pbuf->name : "?", clause_of(pbuf),
                     pbuf->name ? pbuf->name : "?", pbuf->count ? pbuf->count : "?",
                     pc[from], pc[from] == 1 ? "" : "s");
            wtcrt_count_error(where, cf, b, cc[b], need, best, what);
        }
    }
}

void wtc_check_spawn(const wtc_fn *pf, const void *pargs, const wtc_fn *cf,
                     const void *cargs, const char *where)
{
    wtcrt_check_inside(pf, pargs, cf, cargs, where);
}
