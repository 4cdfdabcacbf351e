/* Hand-written in the shape of wtcc's generated code: lets the runtimes be tested
   without the compiler. Source it stands for:

     recursive long fib(int n)
     cond: n > 20;
     mode: dynamic;
     {
         long r[2];
         if (n < 2) return n;
         par i = 0 to 1 do
             r[i] = fib(n - 1 - i);
         return r[0] + r[1];
     }

     recursive void msort(int *a, int n)
     in: a[n], n;  out: a[n];  cond: n > 4096;  mode: simple;
     { ... par x = 0 to 1 do msort(&a[top[x]], size[x]); merge ... }

     int main(int argc, char **argv) { ... fib(atoi(argv[1])) ... msort(a, n) ... }
*/
#include "wtc_abi.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int scale = 1; /* a global read by recursive code: snapshot at region start */
int farm_work = 1; /* argv[3]: cost of one farm task (benchmarks) */

typedef struct { int n; } __wtc_args_fib;
static long __wtc_seq_fib(int n);
static long __wtc_par_fib(wtc_ctx __wtc_c, int n);
static void __wtc_counts_fib(const void *a, long *c) { (void)a; (void)c; }
static void __wtc_run_par_fib(wtc_ctx c, void *a, void *r)
{ *(long *)r = __wtc_par_fib(c, ((__wtc_args_fib *)a)->n); }
static void __wtc_run_seq_fib(void *a, void *r)
{ *(long *)r = __wtc_seq_fib(((__wtc_args_fib *)a)->n); }
static const wtc_fn __wtc_fn_fib = {
    "fib", 0, WTC_MODE_DYNAMIC, 1, 1, sizeof(__wtc_args_fib), sizeof(long),
    WTC_KIND((long)0), 0, 0, __wtc_counts_fib, __wtc_run_par_fib, __wtc_run_seq_fib };

static long __wtc_seq_fib(int n)
{
    long r[2];
    if (n < 2) return n * scale;
    for (int i = (0), __wtc_hi_1 = (1); i <= __wtc_hi_1; i++)
        r[i] = __wtc_seq_fib(n - 1 - i);
    return r[0] + r[1];
}

static long __wtc_par_fib(wtc_ctx __wtc_c, int n)
{
    long r[2];
    if (n < 2) return n * scale;
    {
        static const wtc_site __wtc_s_1 = { "fib_msort.c", 56, 9 };
        wtc_par *__wtc_p_1 = wtc_par_open_fast(__wtc_c, (n > 20), &__wtc_s_1);
        int __wtc_n_1 = 0;
        for (int i = (0), __wtc_hi_1 = (1); i <= __wtc_hi_1; i++) {
            if (__wtc_p_1 == WTC_INLINE && __wtc_n_1++ && wtc_next_due()) /* ABI 4 */
                __wtc_p_1 = wtc_par_next(__wtc_c);
            if (__wtc_p_1 == WTC_INLINE) { /* ABI 4: run at once */
                r[i] = __wtc_par_fib(wtc_ctx_down(__wtc_c), n - 1 - i);
            } else if (__wtc_p_1) {
                __wtc_args_fib __wtc_a = { n - 1 - i };
                wtc_spawn(__wtc_p_1, &__wtc_fn_fib, &__wtc_a, &(r[i]), WTC_KIND(r[i]), sizeof(r[i]));
            } else
                r[i] = __wtc_seq_fib(n - 1 - i);
        }
        if (__wtc_p_1 && __wtc_p_1 != WTC_INLINE) wtc_par_close(__wtc_p_1);
    }
    return r[0] + r[1];
}

long fib(int n)
{
    __wtc_args_fib __wtc_a = { n };
    long __wtc_r;
    wtc_call(&__wtc_fn_fib, &__wtc_a, &__wtc_r);
    return __wtc_r;
}

/* ---- msort ---- */
typedef struct { int *a; int n; } __wtc_args_msort;
static void __wtc_seq_msort(int *a, int n);
static void __wtc_par_msort(wtc_ctx __wtc_c, int *a, int n);
static void __wtc_counts_msort(const void *__wtc_v, long *__wtc_n)
{
    const __wtc_args_msort *__wtc_a = __wtc_v;
    int *a = __wtc_a->a; int n = __wtc_a->n; (void)a; (void)n;
    __wtc_n[0] = (long)(n);
}
static void __wtc_run_par_msort(wtc_ctx c, void *v, void *r)
{ __wtc_args_msort *a = v; (void)r; __wtc_par_msort(c, a->a, a->n); }
static void __wtc_run_seq_msort(void *v, void *r)
{ __wtc_args_msort *a = v; (void)r; __wtc_seq_msort(a->a, a->n); }
static const wtc_buf __wtc_bufs_msort[] = {
    { __builtin_offsetof(__wtc_args_msort, a), sizeof(int), 1, 1, "a", "n", sizeof(int) } };
static const wtc_fn __wtc_fn_msort = {
    "msort", 1, WTC_MODE_SIMPLE, 1, 1, sizeof(__wtc_args_msort), 0, WTC_K_OTHER,
    1, __wtc_bufs_msort, __wtc_counts_msort, __wtc_run_par_msort, __wtc_run_seq_msort };

static void merge(int *a, int n, int m, int *b)
{
    int i = 0, j = m, k = 0;
    while (i < m && j < n) b[k++] = a[i] <= a[j] ? a[i++] : a[j++];
    while (i < m) b[k++] = a[i++];
    while (j < n) b[k++] = a[j++];
    memcpy(a, b, (size_t)n * sizeof *a);
}

static void __wtc_seq_msort(int *a, int n)
{
    int top[2], size[2], m, *b;
    if (n <= 1) return;
    m = n / 2; top[0] = 0; size[0] = m; top[1] = m; size[1] = n - m;
    for (int x = (0), __wtc_hi_1 = (1); x <= __wtc_hi_1; x++)
        __wtc_seq_msort(&a[top[x]], size[x]);
    b = malloc((size_t)n * sizeof *b);
    merge(a, n, m, b);
    free(b);
}

static void __wtc_par_msort(wtc_ctx __wtc_c, int *a, int n)
{
    int top[2], size[2], m, *b;
    if (n <= 1) return;
    m = n / 2; top[0] = 0; size[0] = m; top[1] = m; size[1] = n - m;
    {
        static const wtc_site __wtc_s_1 = { "fib_msort.c", 124, 9 };
        wtc_par *__wtc_p_1 = wtc_par_open_fast(__wtc_c, (n > 4096), &__wtc_s_1);
        int __wtc_n_1 = 0;
        for (int x = (0), __wtc_hi_1 = (1); x <= __wtc_hi_1; x++) {
            if (__wtc_p_1 == WTC_INLINE && __wtc_n_1++ && wtc_next_due()) /* ABI 4 */
                __wtc_p_1 = wtc_par_next(__wtc_c);
            if (__wtc_p_1 == WTC_INLINE) { /* ABI 4: run at once */
                __wtc_par_msort(wtc_ctx_down(__wtc_c), &a[top[x]], size[x]);
            } else if (__wtc_p_1) {
                __wtc_args_msort __wtc_a = { &a[top[x]], size[x] };
                wtc_spawn(__wtc_p_1, &__wtc_fn_msort, &__wtc_a, 0, 0, 0);
            } else
                __wtc_seq_msort(&a[top[x]], size[x]);
        }
        if (__wtc_p_1 && __wtc_p_1 != WTC_INLINE) wtc_par_close(__wtc_p_1);
    }
    b = malloc((size_t)n * sizeof *b);
    merge(a, n, m, b);
    free(b);
}

void msort(int *a, int n)
{
    __wtc_args_msort __wtc_a = { a, n };
    wtc_call(&__wtc_fn_msort, &__wtc_a, 0);
}

/* ---- a task farm: par in main over pixels-like tasks ---- */
typedef struct { int x; } __wtc_args_sq;
static long __wtc_seq_sq(int x) { long s = 0; for (int k = 0; k < (1000 + x % 1000) * farm_work; k++) s += (long)k * x % 7; return s; }
static void __wtc_counts_sq(const void *a, long *c) { (void)a; (void)c; }
static void __wtc_run_seq_sq(void *a, void *r) { *(long *)r = __wtc_seq_sq(((__wtc_args_sq *)a)->x); }
static void __wtc_run_par_sq(wtc_ctx c, void *a, void *r) { (void)c; __wtc_run_seq_sq(a, r); }
static const wtc_fn __wtc_fn_sq = {
    "sq", 2, WTC_MODE_DYNAMIC, 1, 0, sizeof(__wtc_args_sq), sizeof(long), WTC_KIND((long)0),
    0, 0, __wtc_counts_sq, __wtc_run_par_sq, __wtc_run_seq_sq };

static int __wtc_user_main(int argc, char **argv)
{
    int nfib = argc > 1 ? atoi(argv[1]) : 25;
    int n = argc > 2 ? atoi(argv[2]) : 100000;
    if (argc > 3) farm_work = atoi(argv[3]);
    int *a = malloc((size_t)n * sizeof *a);
    unsigned s = 12345;
    long sum = 0, chk = 0;
    scale = 1;
    printf("fib(%d) = %ld\n", nfib, fib(nfib));
    for (int i = 0; i < n; i++) { s = s * 1103515245u + 12345u; a[i] = (int)(s >> 8) % 1000000; sum += a[i]; }
    msort(a, n);
    for (int i = 0; i < n; i++) chk += a[i];
    for (int i = 1; i < n; i++) if (a[i - 1] > a[i]) { printf("NOT SORTED at %d\n", i); return 1; }
    printf("sorted %d, checksum %s\n", n, chk == sum ? "ok" : "BAD");
    {
        long out[5000];
        long tot = 0;
        static const wtc_site __wtc_s_1 = { "fib_msort.c", 173, 9 };
        wtc_par *__wtc_p_1 = wtc_region_open(&__wtc_fn_sq, &__wtc_s_1);
        for (int i = (0), __wtc_hi_1 = (4999); i <= __wtc_hi_1; i++)
            if (__wtc_p_1) {
                __wtc_args_sq __wtc_a = { i };
                wtc_spawn(__wtc_p_1, &__wtc_fn_sq, &__wtc_a, &(out[i]), WTC_KIND(out[i]), sizeof(out[i]));
            } else
                out[i] = __wtc_seq_sq(i);
        if (__wtc_p_1) wtc_par_close(__wtc_p_1);
        for (int i = 0; i < 5000; i++) tot += out[i];
        printf("farm total %ld\n", tot);
    }
    free(a);
    return 0;
}

static const wtc_fn *const __wtc_fns[] = { &__wtc_fn_fib, &__wtc_fn_msort, &__wtc_fn_sq };
static const wtc_global __wtc_globals[] = {
    { &scale, sizeof(scale), "scale" }, { &farm_work, sizeof(farm_work), "farm_work" } };
static const wtc_program __wtc_program = {
    WTC_ABI_VERSION, "fib_msort.wtc", __wtc_fns, 3, __wtc_globals, 2,
    __wtc_user_main, WTC_MODE_DEFAULT, 0, 0, 0, 0 };

int main(int argc, char **argv) { return wtc_start(argc, argv, &__wtc_program); }
