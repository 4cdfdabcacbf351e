/* common/heapwrap.c - the program's heap blocks, for wtcc --check builds (doc/wtcc.md
 * "Checking element counts"). wtcc --check links with -Wl,--wrap=malloc,... so every
 * allocation call of the program (and of the runtime) comes here first; each block is
 * recorded with the size asked for, and a pointer into it has a known number of bytes
 * left (common/check.c). Blocks of shared libraries (the C library's own, MPI's) are
 * not seen: a pointer into one has no known size and is not checked. Without --wrap
 * nothing refers to this file and it is not linked (the __real_ symbols are weak). */
#include <stddef.h>
#include "wtcrt.h"

extern void *__real_malloc(size_t n) __attribute__((weak));
extern void *__real_calloc(size_t n, size_t size) __attribute__((weak));
extern void *__real_realloc(void *p, size_t n) __attribute__((weak));
extern void *__real_reallocarray(void *p, size_t n, size_t size) __attribute__((weak));
extern void __real_free(void *p) __attribute__((weak));
extern void *__real_aligned_alloc(size_t align, size_t n) __attribute__((weak));
extern void *__real_memalign(size_t align, size_t n) __attribute__((weak));
extern int __real_posix_memalign(void **p, size_t align, size_t n) __attribute__((weak));

void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_reallocarray(void *p, size_t n, size_t size);
void __wrap_free(void *p);
void *__wrap_aligned_alloc(size_t align, size_t n);
void *__wrap_memalign(size_t align, size_t n);
int __wrap_posix_memalign(void **p, size_t align, size_t n);

void *__wrap_malloc(size_t n)
{
    void *p = __real_malloc(n);
    if (p)
        wtcrt_heap_add(p, n);
    return p;
}

void *__wrap_calloc(size_t n, size_t size)
{
    void *p = __real_calloc(n, size);
    if (p)
        wtcrt_heap_add(p, n * size); /* no overflow: calloc checked it */
    return p;
}

/* A block moved or resized by realloc: the old one is gone once the new one exists
   (a failed realloc leaves it; realloc(p, 0) frees it). */
static void *moved(void *old, void *p, size_t n)
{
    if (p) {
        if (old)
            wtcrt_heap_del(old);
        wtcrt_heap_add(p, n);
    } else if (old && n == 0) {
        wtcrt_heap_del(old);
    }
    return p;
}

void *__wrap_realloc(void *p, size_t n)
{
    return moved(p, __real_realloc(p, n), n);
}

void *__wrap_reallocarray(void *p, size_t n, size_t size)
{
    void *q = __real_reallocarray(p, n, size);
    return q || n * size == 0 ? moved(p, q, n * size) : q;
}

void __wrap_free(void *p)
{
    if (p)
        wtcrt_heap_del(p);
    __real_free(p);
}

void *__wrap_aligned_alloc(size_t align, size_t n)
{
    void *p = __real_aligned_alloc(align, n);
    if (p)
        wtcrt_heap_add(p, n);
    return p;
}

void *__wrap_memalign(size_t align, size_t n)
{
    void *p = __real_memalign(align, n);
    if (p)
        wtcrt_heap_add(p, n);
    return p;
}

int __wrap_posix_memalign(void **p, size_t align, size_t n)
{
    int r = __real_posix_memalign(p, align, n);
    if (r == 0 && *p)
        wtcrt_heap_add(*p, n);
    return r;
}
