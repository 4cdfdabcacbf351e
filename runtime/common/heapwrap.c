/* common/heapwrap.c - the program's allocation calls. wtcc links every MPI program with
 * -Wl,--wrap=malloc,... so that each call of the program (and of the runtime) comes
 * here first:
 *  - a big block (WTCRT_SHHEAP_MIN bytes or more) comes from the host's shared heap when
 *    the MPI runtime has one (mpi/heap.c: a child run on another rank of the host then
 *    uses it where it lies), else from the C library;
 *  - in a wtcc --check build (doc/wtcc.md "Checking element counts"; the link defines
 *    wtcrt_heap_checked) each block is recorded with the size asked for, and a pointer
 *    into it has a known number of bytes left (common/check.c).
 * Blocks of shared libraries (the C library's own, MPI's) are not seen: a pointer into
 * one has no known size and is not checked, and never lies in the shared heap. Without
 * --wrap (the predictor, wtc-calibrate) nothing refers to this file and it is not linked
 * (the __real_ symbols are weak), nor are the shared heap's functions in the predictor's
 * library (weak here: NULL there). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "wtcrt.h"

extern void *__real_malloc(size_t n) __attribute__((weak));
extern void *__real_calloc(size_t n, size_t size) __attribute__((weak));
extern void *__real_realloc(void *p, size_t n) __attribute__((weak));
extern void *__real_reallocarray(void *p, size_t n, size_t size) __attribute__((weak));
extern void __real_free(void *p) __attribute__((weak));
extern void *__real_aligned_alloc(size_t align, size_t n) __attribute__((weak));
extern void *__real_memalign(size_t align, size_t n) __attribute__((weak));
extern int __real_posix_memalign(void **p, size_t align, size_t n) __attribute__((weak));
extern ssize_t __real_getline(char **line, size_t *n, FILE *f) __attribute__((weak));
extern ssize_t __real_getdelim(char **line, size_t *n, int delim, FILE *f)
    __attribute__((weak));
extern ssize_t __real___getdelim(char **line, size_t *n, int delim, FILE *f)
    __attribute__((weak));
extern size_t __real_malloc_usable_size(void *p) __attribute__((weak));

/* Defined (by --defsym) in wtcc --check builds alone. */
extern const char wtcrt_heap_checked[] __attribute__((weak));
#define CHECKED (wtcrt_heap_checked != NULL)

/* The MPI runtime's shared heap (mpi/heap.c); absent from the predictor. */
void *wtcrt_shheap_alloc(size_t n, size_t align, int zero) __attribute__((weak));
int wtcrt_shheap_free(void *p, size_t *freed) __attribute__((weak));
int wtcrt_shheap_has(const void *p, size_t n) __attribute__((weak));
size_t wtcrt_shheap_size(const void *p) __attribute__((weak));
/* The MPI runtime's received TASKs (mpi/par.c); absent from the predictor. */
int wtcrt_task_memory_has(const void *p) __attribute__((weak));
int wtcrt_shheap_grow(void *p, size_t n) __attribute__((weak));
void wtcrt_shheap_shrink(void *p, size_t n) __attribute__((weak));

void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_reallocarray(void *p, size_t n, size_t size);
void __wrap_free(void *p);
void *__wrap_aligned_alloc(size_t align, size_t n);
void *__wrap_memalign(size_t align, size_t n);
int __wrap_posix_memalign(void **p, size_t align, size_t n);
ssize_t __wrap_getline(char **line, size_t *n, FILE *f);
ssize_t __wrap_getdelim(char **line, size_t *n, int delim, FILE *f);
ssize_t __wrap___getdelim(char **line, size_t *n, int delim, FILE *f);
size_t __wrap_malloc_usable_size(void *p);

/* A block of n bytes aligned to align (0: malloc's) from the shared heap, or NULL. */
static inline void *shared(size_t n, size_t align, int zero)
{
    return n >= WTCRT_SHHEAP_MIN && wtcrt_shheap_alloc ? wtcrt_shheap_alloc(n, align, zero)
                                                       : NULL;
}

static inline void *added(void *p, size_t n)
{
    if (p && CHECKED)
        wtcrt_heap_add(p, n);
    return p;
}

void *__wrap_malloc(size_t n)
{
    void *p = shared(n, 0, 0);
    return added(p ? p : __real_malloc(n), n);
}

void *__wrap_calloc(size_t n, size_t size)
{
    void *p = NULL;
    if (size && n <= (size_t)-1 / size)
        p = shared(n * size, 0, 1);
    return added(p ? p : __real_calloc(n, size), n * size); /* calloc checks overflow */
}

/* The C library's heap, with the shared heap taking its big blocks. When a program
   frees a block it got by mmap (128 KiB or more at first), glibc raises its mmap
   threshold to that block's size (up to 32 MiB) and keeps twice as much free memory at
   the top of its heap before giving it back; with the big blocks in the shared heap it
   never saw one freed, so it kept giving its heap top back and faulting it in again:
   20000 rounds of four 50 KB blocks after a 4 MB one freed took 1.32 s and 340,030 page
   faults, against 0.05 s and 47 faults with the C library alone (strassen 1024 on 3
   ranks: 1.07 against 0.90 s). The same rule, applied here when a big block leaves the
   shared heap, sets what glibc would have set. */
#define GLIBC_MMAP_THRESHOLD 131072u             /* glibc's DEFAULT_MMAP_THRESHOLD_MIN */
#define GLIBC_MMAP_THRESHOLD_MAX (32ul << 20)    /* its maximum on 64-bit */
static size_t glibc_threshold = GLIBC_MMAP_THRESHOLD;

#ifdef __GLIBC__
/* <malloc.h>'s, declared here: under SMPI its helpers header (included first) makes
   malloc and free macros that <malloc.h> does not survive */
extern int mallopt(int param, int value);
#define GLIBC_M_TRIM_THRESHOLD (-1)
#define GLIBC_M_MMAP_THRESHOLD (-3)
#endif

static void glibc_saw_free(size_t n)
{
#ifdef __GLIBC__
    if (n > __atomic_load_n(&glibc_threshold, __ATOMIC_RELAXED) &&
        n <= GLIBC_MMAP_THRESHOLD_MAX) {
        __atomic_store_n(&glibc_threshold, n, __ATOMIC_RELAXED);
        mallopt(GLIBC_M_MMAP_THRESHOLD, (int)n);
        mallopt(GLIBC_M_TRIM_THRESHOLD, (int)(2 * n));
    }
#else
    (void)n;
#endif
}

/* Frees p: the shared heap's when it is one of its blocks, else the C library's. */
static void release(void *p)
{
    size_t n;
    if (!p)
        return;
    /* a callee freeing the in: buffer its caller handed over, which came here in a
       TASK: it lies inside the TASK's memory, which the runtime frees whole later (the
       caller's own block stays with the caller, as a block passed to another process) */
    if (wtcrt_task_memory_has && wtcrt_task_memory_has(p))
        return;
    if (CHECKED)
        wtcrt_heap_del(p);
    if (!wtcrt_shheap_free || !wtcrt_shheap_free(p, &n))
        __real_free(p);
    else if (n)
        glibc_saw_free(n);
}

void *__wrap_realloc(void *p, size_t n)
{
    size_t have = p && wtcrt_shheap_size ? wtcrt_shheap_size(p) : 0;
    void *q;
    if (p && n == 0) {
        release(p);
        return NULL;
    }
    if (!have && p && n >= WTCRT_SHHEAP_MIN && __real_malloc_usable_size && wtcrt_shheap_has &&
        !wtcrt_shheap_has(p, 1) && (q = shared(n, 0, 0))) {
        /* the C library's block grown big: into the shared heap, as a block allocated
           big would be (an array read with a doubling buffer, then sorted in parallel,
           stayed private and was copied to the other ranks of the host) */
        size_t old = __real_malloc_usable_size(p);
        memcpy(q, p, old < n ? old : n);
        release(p);
        return added(q, n);
    }
    if (!have && (p || n < WTCRT_SHHEAP_MIN)) {
        /* the C library's block (it grows there: mremap, no copy), or a new small one */
        q = __real_realloc(p, n);
        if (q && CHECKED) {
            if (p)
                wtcrt_heap_del(p);
            wtcrt_heap_add(q, n);
        }
        return q;
    }
    if (have && n <= have && wtcrt_shheap_shrink)
        wtcrt_shheap_shrink(p, n);
    if (have && (n <= have || (wtcrt_shheap_grow && wtcrt_shheap_grow(p, n)))) {
        if (CHECKED) { /* the same block, another size */
            wtcrt_heap_del(p);
            wtcrt_heap_add(p, n);
        }
        return p;
    }
    if (!have) /* a new block */
        return __wrap_malloc(n);
    /* a shared block that cannot grow where it lies (another block lies after it):
       moved, with room for half as much again, so that a buffer grown step by step
       between other allocations is copied a logarithmic number of times, as a vector's
       doubling is, not at every step */
    q = shared(n > have + have / 2 ? n : have + have / 2, 0, 0);
    if (!q)
        q = __real_malloc(n);
    if (q) {
        memcpy(q, p, have);
        release(p);
        added(q, n);
    }
    return q;
}

void *__wrap_reallocarray(void *p, size_t n, size_t size)
{
    if (size && n > (size_t)-1 / size) {
        errno = ENOMEM;
        return NULL;
    }
    return __wrap_realloc(p, n * size);
}

void __wrap_free(void *p)
{
    release(p);
}

void *__wrap_aligned_alloc(size_t align, size_t n)
{
    void *p = shared(n, align, 0);
    return added(p ? p : __real_aligned_alloc(align, n), n);
}

void *__wrap_memalign(size_t align, size_t n)
{
    void *p = shared(n, align, 0);
    return added(p ? p : __real_memalign(align, n), n);
}

int __wrap_posix_memalign(void **p, size_t align, size_t n)
{
    void *q;
    /* POSIX: a power of two and a multiple of sizeof (void *), else EINVAL with *p
       left as it was (the shared heap took 4 and wrote NULL on a failure) */
    if (align < sizeof(void *) || (align & (align - 1)))
        return EINVAL;
    q = shared(n, align, 0);
    if (q) {
        *p = added(q, n);
        return 0;
    }
    int r = __real_posix_memalign(p, align, n);
    if (r == 0)
        added(*p, n);
    return r;
}

/* getline and getdelim grow the caller's buffer with the C library's own realloc, which
   must not see a block of the shared heap: such a buffer moves to a C library block of
   the same size first (the program's pointer and size are updated, as a realloc by
   getline would). */
static int lib_block(char **line, size_t *n)
{
    size_t have = *line && wtcrt_shheap_size ? wtcrt_shheap_size(*line) : 0;
    char *q;
    if (!have)
        return 0;
    if (!(q = __real_malloc(have))) {
        errno = ENOMEM;
        return -1;
    }
    memcpy(q, *line, have);
    release(*line);
    *line = added(q, have);
    *n = have;
    return 0;
}

ssize_t __wrap_getline(char **line, size_t *n, FILE *f)
{
    if (line && n && lib_block(line, n) < 0)
        return -1;
    return __real_getline(line, n, f);
}

ssize_t __wrap_getdelim(char **line, size_t *n, int delim, FILE *f)
{
    if (line && n && lib_block(line, n) < 0)
        return -1;
    return __real_getdelim(line, n, delim, f);
}

/* glibc's <stdio.h> makes getline an inline call of __getdelim when optimising with
   _GNU_SOURCE: the C library's realloc met a shared block ("realloc(): invalid
   pointer", the job aborted). */
ssize_t __wrap___getdelim(char **line, size_t *n, int delim, FILE *f)
{
    if (line && n && lib_block(line, n) < 0)
        return -1;
    return __real___getdelim(line, n, delim, f);
}

/* The C library's answer for a block of the shared heap would come from bytes that are
   not its header (1 MiB asked for, 0 or any number answered): a program sizing what it
   writes by it would write past the block. */
size_t __wrap_malloc_usable_size(void *p)
{
    size_t have = p && wtcrt_shheap_size ? wtcrt_shheap_size(p) : 0;
    return have ? have : __real_malloc_usable_size(p);
}
