/* common/share.c - shared bounds (wtc_share_max / wtc_share_min, doc/language.md
 * "Shared bounds"): which global a call names, and whether a value is better than the
 * one a global holds. Both runtimes use these; only the MPI runtime sends bounds. */
#include <string.h>
#include "wtcrt.h"

int wtcrt_share_slot(const wtc_program *prog, const void *g)
{
    for (int i = 0; prog && i < prog->nshared; i++)
        if (prog->shared[i].addr == g)
            return i;
    return -1;
}

/* a compared with b by the variable's kind: -1, 0, 1 */
#define CMP(T)                                                                           \
    do {                                                                                 \
        T x, y;                                                                          \
        memcpy(&x, a, sizeof x);                                                         \
        memcpy(&y, b, sizeof y);                                                         \
        return (x > y) - (x < y);                                                        \
    } while (0)

static int compare(int kind, const void *a, const void *b)
{
    switch (kind) {
    case WTC_K_CHAR: CMP(char);
    case WTC_K_SCHAR: CMP(signed char);
    case WTC_K_UCHAR: CMP(unsigned char);
    case WTC_K_SHORT: CMP(short);
    case WTC_K_USHORT: CMP(unsigned short);
    case WTC_K_INT: CMP(int);
    case WTC_K_UINT: CMP(unsigned int);
    case WTC_K_LONG: CMP(long);
    case WTC_K_ULONG: CMP(unsigned long);
    case WTC_K_LLONG: CMP(long long);
    case WTC_K_ULLONG: CMP(unsigned long long);
    case WTC_K_FLOAT: CMP(float);
    case WTC_K_DOUBLE: CMP(double);
    case WTC_K_LDOUBLE: CMP(long double);
    default: return 0;
    }
}

int wtcrt_share_better(const wtc_shared *s, const void *v)
{
    int c = compare(s->kind, v, s->addr);
    return s->op == WTC_SHARE_MAX ? c > 0 : c < 0;
}
