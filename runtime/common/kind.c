/* common/kind.c - storing results with C's arithmetic conversions, and the payload
   sizes of TASK and RESULT (doc/runtime.md). Plain C, shared by both runtimes. */
#include <string.h>
#include "wtcrt.h"

#ifdef __SIZEOF_INT128__
typedef __int128 kint;
typedef unsigned __int128 kuint;
#else
typedef long long kint;
typedef unsigned long long kuint;
#endif

/* A value of any arithmetic kind, widened without loss of sign or fraction: an integer
   (i, or u when unsigned), a real floating value (f), or a complex one (c). */
typedef struct kval {
    int is_float, is_unsigned, is_complex;
    kint i;
    kuint u;
    long double f;
    long double _Complex c;
} kval;

/* Copies n bytes from src into a local of type T (src may be unaligned). */
#define KREAD(T, field) do { T x_; memcpy(&x_, src, sizeof x_); v.field = x_; } while (0)

/* Reads a value of kind k. */
static kval kind_read(const void *src, int k)
{
    kval v = { 0, 0, 0, 0, 0, 0, 0 };
    switch (k) {
    case WTC_K_BOOL: { _Bool x; memcpy(&x, src, sizeof x); v.is_unsigned = 1; v.u = x; break; }
    case WTC_K_CHAR: KREAD(char, i); break;
    case WTC_K_SCHAR: KREAD(signed char, i); break;
    case WTC_K_UCHAR: v.is_unsigned = 1; KREAD(unsigned char, u); break;
    case WTC_K_SHORT: KREAD(short, i); break;
    case WTC_K_USHORT: v.is_unsigned = 1; KREAD(unsigned short, u); break;
    case WTC_K_INT: KREAD(int, i); break;
    case WTC_K_UINT: v.is_unsigned = 1; KREAD(unsigned int, u); break;
    case WTC_K_LONG: KREAD(long, i); break;
    case WTC_K_ULONG: v.is_unsigned = 1; KREAD(unsigned long, u); break;
    case WTC_K_LLONG: KREAD(long long, i); break;
    case WTC_K_ULLONG: v.is_unsigned = 1; KREAD(unsigned long long, u); break;
    case WTC_K_INT128: KREAD(kint, i); break;
    case WTC_K_UINT128: v.is_unsigned = 1; KREAD(kuint, u); break;
    case WTC_K_FLOAT: v.is_float = 1; KREAD(float, f); break;
    case WTC_K_DOUBLE: v.is_float = 1; KREAD(double, f); break;
    case WTC_K_CFLOAT: v.is_complex = 1; KREAD(float _Complex, c); break;
    case WTC_K_CDOUBLE: v.is_complex = 1; KREAD(double _Complex, c); break;
    case WTC_K_CLDOUBLE: v.is_complex = 1; KREAD(long double _Complex, c); break;
    default: v.is_float = 1; KREAD(long double, f); break;
    }
    if (v.is_complex) { /* to a real type only its real part goes (C11 6.3.1.7) */
        v.is_float = 1;
        v.f = __real__ v.c;
    }
    return v;
}

/* Converts v to type T as C assignment does (a real T; a complex one from its real type
   T: C converts a real value to the complex type's real part, 0 imaginary). */
#define KCONV(T) ((T)(v.is_float ? (T)v.f : v.is_unsigned ? (T)v.u : (T)v.i))
#define KWRITE(T) do { T x_ = KCONV(T); memcpy(dest, &x_, sizeof x_); } while (0)
#define KWRITE_C(T) do { \
        T _Complex x_ = v.is_complex ? (T _Complex)v.c : (T _Complex)KCONV(T); \
        memcpy(dest, &x_, sizeof x_); \
    } while (0)

/* Writes v into dest of kind k. */
static void kind_write(void *dest, int k, kval v)
{
    switch (k) {
    case WTC_K_BOOL: {
        _Bool b = v.is_complex ? v.c != 0 : v.is_float ? v.f != 0 : v.is_unsigned ? v.u != 0
                                                                                 : v.i != 0;
        memcpy(dest, &b, sizeof b);
        break;
    }
    case WTC_K_CHAR: KWRITE(char); break;
    case WTC_K_SCHAR: KWRITE(signed char); break;
    case WTC_K_UCHAR: KWRITE(unsigned char); break;
    case WTC_K_SHORT: KWRITE(short); break;
    case WTC_K_USHORT: KWRITE(unsigned short); break;
    case WTC_K_INT: KWRITE(int); break;
    case WTC_K_UINT: KWRITE(unsigned int); break;
    case WTC_K_LONG: KWRITE(long); break;
    case WTC_K_ULONG: KWRITE(unsigned long); break;
    case WTC_K_LLONG: KWRITE(long long); break;
    case WTC_K_ULLONG: KWRITE(unsigned long long); break;
    case WTC_K_INT128: KWRITE(kint); break;
    case WTC_K_UINT128: KWRITE(kuint); break;
    case WTC_K_FLOAT: KWRITE(float); break;
    case WTC_K_DOUBLE: KWRITE(double); break;
    case WTC_K_CFLOAT: KWRITE_C(float); break;
    case WTC_K_CDOUBLE: KWRITE_C(double); break;
    case WTC_K_CLDOUBLE: KWRITE_C(long double); break;
    default: KWRITE(long double); break;
    }
}

/* Stores a result into an lvalue (SPEC 2.2: lv = f(...)). */
void wtcrt_kind_store(void *dest, int dest_kind, unsigned long dest_size,
                      const void *src, int src_kind, unsigned long src_size)
{
    if (!dest || !src || !src_size)
        return;
    if (dest_kind == src_kind || dest_kind == WTC_K_OTHER || src_kind == WTC_K_OTHER ||
        dest_kind > WTC_K_LAST || src_kind > WTC_K_LAST) {
        memcpy(dest, src, dest_size < src_size ? dest_size : src_size);
        return;
    }
    kind_write(dest, dest_kind, kind_read(src, src_kind));
}

/* ---- payload sizes ---------------------------------------------------------------- */

unsigned long wtcrt_buf_bytes(const wtc_fn *fn, int b, long count)
{
    return count > 0 ? (unsigned long)count * fn->bufs[b].elem_size : 0;
}

void *wtcrt_buf_ptr(const wtc_fn *fn, const void *args, int b)
{
    void *p;
    memcpy(&p, (const char *)args + fn->bufs[b].offset, sizeof p);
    return p;
}

void wtcrt_buf_set(const wtc_fn *fn, void *args, int b, void *ptr)
{
    memcpy((char *)args + fn->bufs[b].offset, &ptr, sizeof ptr);
}

int wtcrt_buf_by_ref(unsigned long nb)
{
    return nb >= WTCRT_BY_REF_MIN;
}

/* The bytes of one child in a TASK (task: fn id prefix + args struct + buffer counts +
   in: buffers) or a RESULT (return value + out: buffers); copied: only those the
   runtime copies into the message (not the buffers sent where they lie). */
static unsigned long child_bytes(const wtc_fn *fn, const long *counts, int task, int copied)
{
    unsigned long n = task ? WTCRT_CHILD_PREFIX + fn->args_size + 8ul * (unsigned long)fn->nbufs
                           : fn->ret_size;
    for (int b = 0; b < fn->nbufs; b++)
        if (task ? fn->bufs[b].in : fn->bufs[b].out) {
            unsigned long nb = wtcrt_buf_bytes(fn, b, counts[b]);
            if (!copied || !wtcrt_buf_by_ref(nb))
                n += nb;
        }
    return n;
}

unsigned long wtcrt_task_child_bytes(const wtc_fn *fn, const long *counts)
{
    return child_bytes(fn, counts, 1, 0);
}

unsigned long wtcrt_result_child_bytes(const wtc_fn *fn, const long *counts)
{
    return child_bytes(fn, counts, 0, 0);
}

unsigned long wtcrt_task_child_copied(const wtc_fn *fn, const long *counts)
{
    return child_bytes(fn, counts, 1, 1);
}

unsigned long wtcrt_result_child_copied(const wtc_fn *fn, const long *counts)
{
    return child_bytes(fn, counts, 0, 1);
}
