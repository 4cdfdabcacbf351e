/* Hand-written in the shape of wtcc's generated code (see fib_msort.c). Source it
   stands for:

     int weight = 1;           // set by main before the regions: read through snapshots
     int data[50000];          // filled by main, read by summ
     typedef struct { int lo, hi; } range;
     typedef struct { long sum; int argmax; double mean; } summary;

     // 7 children per par, int result stored into a double lvalue
     recursive int tsum(int d, int id)
     cond: d > 1;  mode: dynamic;
     { double r[7]; int s = 0;
       if (d == 0) return (id % 13) * weight;
       par i = 0 to 6 do r[i] = tsum(d - 1, id * 7 + i);
       for (int i = 0; i < 7; i++) s += (int)r[i];
       return s; }

     // struct argument and struct result
     recursive summary summ(range r)
     cond: r.hi - r.lo > 1000;
     { summary s[2]; range h[2]; ...; par i = 0 to 1 do s[i] = summ(h[i]); combine }

     recursive long leaf(int n) { return n % 7 + weight; }

     // cond always true, one level per element: 10,000 nested par frames
     recursive long chain(int n)
     mode: dynamic;
     { long r[2]; if (n == 0) return 0;
       par i = 0 to 1 do if (i == 0) r[i] = chain(n - 1); else r[i] = leaf(n);
       return r[0] + r[1]; }

     // cond always false
     recursive long nope(int n)
     cond: 0;
     { long r[2]; if (n < 2) return n; par i = 0 to 1 do r[i] = nope(n - 1 - i);
       return r[0] + r[1]; }

     // an out:-only buffer
     recursive void fill(double *out, int lo, int hi)
     in: lo, hi;  out: out[hi - lo];  cond: hi - lo > 64;
     { ... par i = 0 to 1 do fill(...halves...); }

     int main(int argc, char **argv) { ... }
*/
#include "wtc_abi.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int weight = 1;
int data[50000];
typedef struct { int lo, hi; } range;
typedef struct { long sum; int argmax; double mean; } summary;

/* ---- tsum ---- */
typedef struct { int d; int id; } __wtc_args_tsum;
static int __wtc_seq_tsum(int d, int id);
static int __wtc_par_tsum(wtc_ctx __wtc_c, int d, int id);
static void __wtc_counts_tsum(const void *a, long *c) { (void)a; (void)c; }
static void __wtc_run_par_tsum(wtc_ctx c, void *a, void *r)
{ *(int *)r = __wtc_par_tsum(c, ((__wtc_args_tsum *)a)->d, ((__wtc_args_tsum *)a)->id); }
static void __wtc_run_seq_tsum(void *a, void *r)
{ *(int *)r = __wtc_seq_tsum(((__wtc_args_tsum *)a)->d, ((__wtc_args_tsum *)a)->id); }
static const wtc_fn __wtc_fn_tsum = {
    "tsum", 0, WTC_MODE_DYNAMIC, 1, 1, sizeof(__wtc_args_tsum), sizeof(int),
    WTC_KIND((int)0), 0, 0, __wtc_counts_tsum, __wtc_run_par_tsum, __wtc_run_seq_tsum };

static int __wtc_seq_tsum(int d, int id)
{
    double r[7];
    int s = 0;
    if (d == 0) return (id % 13) * weight;
    for (int i = (0), __wtc_hi_1 = (6); i <= __wtc_hi_1; i++)
        r[i] = __wtc_seq_tsum(d - 1, id * 7 + i);
    for (int i = 0; i < 7; i++) s += (int)r[i];
    return s;
}

static int __wtc_par_tsum(wtc_ctx __wtc_c, int d, int id)
{
    double r[7];
    int s = 0;
    if (d == 0) return (id % 13) * weight;
    {
        static const wtc_site __wtc_s_1 = { "misc.c", 86, 9 };
        wtc_par *__wtc_p_1 = wtc_par_open_fast(__wtc_c, (d > 1), &__wtc_s_1);
        int __wtc_n_1 = 0;
        for (int i = (0), __wtc_hi_1 = (6); i <= __wtc_hi_1; i++) {
            if (__wtc_p_1 == WTC_INLINE && __wtc_n_1++ && wtc_next_due()) /* ABI 4 */
                __wtc_p_1 = wtc_par_next(__wtc_c);
            if (__wtc_p_1 == WTC_INLINE) { /* ABI 4: run at once */
                r[i] = __wtc_par_tsum(wtc_ctx_down(__wtc_c), d - 1, id * 7 + i);
            } else if (__wtc_p_1) {
                __wtc_args_tsum __wtc_a = { d - 1, id * 7 + i };
                wtc_spawn(__wtc_p_1, &__wtc_fn_tsum, &__wtc_a, &(r[i]), WTC_KIND(r[i]), sizeof(r[i]));
            } else
                r[i] = __wtc_seq_tsum(d - 1, id * 7 + i);
        }
        if (__wtc_p_1 && __wtc_p_1 != WTC_INLINE) wtc_par_close(__wtc_p_1);
    }
    for (int i = 0; i < 7; i++) s += (int)r[i];
    return s;
}

int tsum(int d, int id)
{
    __wtc_args_tsum __wtc_a = { d, id };
    int __wtc_r;
    wtc_call(&__wtc_fn_tsum, &__wtc_a, &__wtc_r);
    return __wtc_r;
}

/* ---- summ ---- */
typedef struct { range r; } __wtc_args_summ;
static summary __wtc_seq_summ(range r);
static summary __wtc_par_summ(wtc_ctx __wtc_c, range r);
static void __wtc_counts_summ(const void *a, long *c) { (void)a; (void)c; }
static void __wtc_run_par_summ(wtc_ctx c, void *a, void *r)
{ *(summary *)r = __wtc_par_summ(c, ((__wtc_args_summ *)a)->r); }
static void __wtc_run_seq_summ(void *a, void *r)
{ *(summary *)r = __wtc_seq_summ(((__wtc_args_summ *)a)->r); }
static const wtc_fn __wtc_fn_summ = {
    "summ", 1, WTC_MODE_SIMPLE, 1, 1, sizeof(__wtc_args_summ), sizeof(summary),
    WTC_KIND((summary){0}), 0, 0, __wtc_counts_summ, __wtc_run_par_summ, __wtc_run_seq_summ };

static summary summ_direct(range r)
{
    summary s = { 0, r.lo, 0 };
    for (int i = r.lo; i < r.hi; i++) {
        s.sum += data[i] * weight;
        if (data[i] > data[s.argmax]) s.argmax = i;
    }
    s.mean = (double)s.sum / (r.hi - r.lo);
    return s;
}

static summary summ_combine(summary a, summary b, range r)
{
    summary s;
    s.sum = a.sum + b.sum;
    s.argmax = data[b.argmax] > data[a.argmax] ? b.argmax : a.argmax;
    s.mean = (double)s.sum / (r.hi - r.lo);
    return s;
}

static summary __wtc_seq_summ(range r)
{
    summary s[2];
    range h[2];
    if (r.hi - r.lo <= 1000) return summ_direct(r);
    h[0].lo = r.lo; h[0].hi = (r.lo + r.hi) / 2; h[1].lo = h[0].hi; h[1].hi = r.hi;
    for (int i = (0), __wtc_hi_1 = (1); i <= __wtc_hi_1; i++)
        s[i] = __wtc_seq_summ(h[i]);
    return summ_combine(s[0], s[1], r);
}

static summary __wtc_par_summ(wtc_ctx __wtc_c, range r)
{
    summary s[2];
    range h[2];
    if (r.hi - r.lo <= 1000) return summ_direct(r);
    h[0].lo = r.lo; h[0].hi = (r.lo + r.hi) / 2; h[1].lo = h[0].hi; h[1].hi = r.hi;
    {
        static const wtc_site __wtc_s_1 = { "misc.c", 159, 9 };
        wtc_par *__wtc_p_1 = wtc_par_open_fast(__wtc_c, (r.hi - r.lo > 1000), &__wtc_s_1);
        int __wtc_n_1 = 0;
        for (int i = (0), __wtc_hi_1 = (1); i <= __wtc_hi_1; i++) {
            if (__wtc_p_1 == WTC_INLINE && __wtc_n_1++ && wtc_next_due()) /* ABI 4 */
                __wtc_p_1 = wtc_par_next(__wtc_c);
            if (__wtc_p_1 == WTC_INLINE) { /* ABI 4: run at once */
                s[i] = __wtc_par_summ(wtc_ctx_down(__wtc_c), h[i]);
            } else if (__wtc_p_1) {
                __wtc_args_summ __wtc_a = { h[i] };
                wtc_spawn(__wtc_p_1, &__wtc_fn_summ, &__wtc_a, &(s[i]), WTC_KIND(s[i]), sizeof(s[i]));
            } else
                s[i] = __wtc_seq_summ(h[i]);
        }
        if (__wtc_p_1 && __wtc_p_1 != WTC_INLINE) wtc_par_close(__wtc_p_1);
    }
    return summ_combine(s[0], s[1], r);
}

summary summ(range r)
{
    __wtc_args_summ __wtc_a = { r };
    summary __wtc_r;
    wtc_call(&__wtc_fn_summ, &__wtc_a, &__wtc_r);
    return __wtc_r;
}

/* ---- leaf and chain ---- */
typedef struct { int n; } __wtc_args_leaf;
static long __wtc_seq_leaf(int n) { return n % 7 + weight; }
static void __wtc_counts_leaf(const void *a, long *c) { (void)a; (void)c; }
static void __wtc_run_seq_leaf(void *a, void *r) { *(long *)r = __wtc_seq_leaf(((__wtc_args_leaf *)a)->n); }
static void __wtc_run_par_leaf(wtc_ctx c, void *a, void *r) { (void)c; __wtc_run_seq_leaf(a, r); }
static const wtc_fn __wtc_fn_leaf = {
    "leaf", 2, WTC_MODE_SIMPLE, 1, 0, sizeof(__wtc_args_leaf), sizeof(long), WTC_KIND((long)0),
    0, 0, __wtc_counts_leaf, __wtc_run_par_leaf, __wtc_run_seq_leaf };

typedef struct { int n; } __wtc_args_chain;
static long __wtc_seq_chain(int n);
static long __wtc_par_chain(wtc_ctx __wtc_c, int n);
static void __wtc_counts_chain(const void *a, long *c) { (void)a; (void)c; }
static void __wtc_run_par_chain(wtc_ctx c, void *a, void *r)
{ *(long *)r = __wtc_par_chain(c, ((__wtc_args_chain *)a)->n); }
static void __wtc_run_seq_chain(void *a, void *r)
{ *(long *)r = __wtc_seq_chain(((__wtc_args_chain *)a)->n); }
static const wtc_fn __wtc_fn_chain = {
    "chain", 3, WTC_MODE_DYNAMIC, 1, 1, sizeof(__wtc_args_chain), sizeof(long),
    WTC_KIND((long)0), 0, 0, __wtc_counts_chain, __wtc_run_par_chain, __wtc_run_seq_chain };

static long __wtc_seq_chain(int n)
{
    long r[2];
    if (n == 0) return 0;
    for (int i = (0), __wtc_hi_1 = (1); i <= __wtc_hi_1; i++)
        if (i == 0) r[i] = __wtc_seq_chain(n - 1); else r[i] = __wtc_seq_leaf(n);
    return r[0] + r[1];
}

static long __wtc_par_chain(wtc_ctx __wtc_c, int n)
{
    long r[2];
    if (n == 0) return 0;
    {
        static const wtc_site __wtc_s_1 = { "misc.c", 216, 9 };
        wtc_par *__wtc_p_1 = wtc_par_open_fast(__wtc_c, 1, &__wtc_s_1);
        int __wtc_n_1 = 0;
        for (int i = (0), __wtc_hi_1 = (1); i <= __wtc_hi_1; i++) {
            if (__wtc_p_1 == WTC_INLINE && __wtc_n_1++ && wtc_next_due()) /* ABI 4 */
                __wtc_p_1 = wtc_par_next(__wtc_c);
            if (__wtc_p_1 == WTC_INLINE) { /* ABI 4: run at once */
                { if (i == 0) r[i] = __wtc_par_chain(wtc_ctx_down(__wtc_c), n - 1); else r[i] = __wtc_seq_leaf(n); }
            } else if (__wtc_p_1) {
                if (i == 0) {
                    __wtc_args_chain __wtc_a = { n - 1 };
                    wtc_spawn(__wtc_p_1, &__wtc_fn_chain, &__wtc_a, &(r[i]), WTC_KIND(r[i]), sizeof(r[i]));
                } else {
                    __wtc_args_leaf __wtc_a = { n };
                    wtc_spawn(__wtc_p_1, &__wtc_fn_leaf, &__wtc_a, &(r[i]), WTC_KIND(r[i]), sizeof(r[i]));
                }
            } else {
                if (i == 0) r[i] = __wtc_seq_chain(n - 1); else r[i] = __wtc_seq_leaf(n);
            }
        }
        if (__wtc_p_1 && __wtc_p_1 != WTC_INLINE) wtc_par_close(__wtc_p_1);
    }
    return r[0] + r[1];
}

long chain(int n)
{
    __wtc_args_chain __wtc_a = { n };
    long __wtc_r;
    wtc_call(&__wtc_fn_chain, &__wtc_a, &__wtc_r);
    return __wtc_r;
}

/* ---- nope: cond always false ---- */
typedef struct { int n; } __wtc_args_nope;
static long __wtc_seq_nope(int n);
static long __wtc_par_nope(wtc_ctx __wtc_c, int n);
static void __wtc_counts_nope(const void *a, long *c) { (void)a; (void)c; }
static void __wtc_run_par_nope(wtc_ctx c, void *a, void *r)
{ *(long *)r = __wtc_par_nope(c, ((__wtc_args_nope *)a)->n); }
static void __wtc_run_seq_nope(void *a, void *r)
{ *(long *)r = __wtc_seq_nope(((__wtc_args_nope *)a)->n); }
static const wtc_fn __wtc_fn_nope = {
    "nope", 4, WTC_MODE_SIMPLE, 1, 1, sizeof(__wtc_args_nope), sizeof(long),
    WTC_KIND((long)0), 0, 0, __wtc_counts_nope, __wtc_run_par_nope, __wtc_run_seq_nope };

static long __wtc_seq_nope(int n)
{
    long r[2];
    if (n < 2) return n;
    for (int i = (0), __wtc_hi_1 = (1); i <= __wtc_hi_1; i++)
        r[i] = __wtc_seq_nope(n - 1 - i);
    return r[0] + r[1];
}

static long __wtc_par_nope(wtc_ctx __wtc_c, int n)
{
    long r[2];
    if (n < 2) return n;
    {
        static const wtc_site __wtc_s_1 = { "misc.c", 270, 9 };
        wtc_par *__wtc_p_1 = wtc_par_open_fast(__wtc_c, (0), &__wtc_s_1);
        int __wtc_n_1 = 0;
        for (int i = (0), __wtc_hi_1 = (1); i <= __wtc_hi_1; i++) {
            if (__wtc_p_1 == WTC_INLINE && __wtc_n_1++ && wtc_next_due()) /* ABI 4 */
                __wtc_p_1 = wtc_par_next(__wtc_c);
            if (__wtc_p_1 == WTC_INLINE) { /* ABI 4: run at once */
                r[i] = __wtc_par_nope(wtc_ctx_down(__wtc_c), n - 1 - i);
            } else if (__wtc_p_1) {
                __wtc_args_nope __wtc_a = { n - 1 - i };
                wtc_spawn(__wtc_p_1, &__wtc_fn_nope, &__wtc_a, &(r[i]), WTC_KIND(r[i]), sizeof(r[i]));
            } else
                r[i] = __wtc_seq_nope(n - 1 - i);
        }
        if (__wtc_p_1 && __wtc_p_1 != WTC_INLINE) wtc_par_close(__wtc_p_1);
    }
    return r[0] + r[1];
}

long nope(int n)
{
    __wtc_args_nope __wtc_a = { n };
    long __wtc_r;
    wtc_call(&__wtc_fn_nope, &__wtc_a, &__wtc_r);
    return __wtc_r;
}

/* ---- fill: out:-only buffer ---- */
typedef struct { double *out; int lo; int hi; } __wtc_args_fill;
static void __wtc_seq_fill(double *out, int lo, int hi);
static void __wtc_par_fill(wtc_ctx __wtc_c, double *out, int lo, int hi);
static void __wtc_counts_fill(const void *__wtc_v, long *__wtc_n)
{
    const __wtc_args_fill *__wtc_a = __wtc_v;
    int lo = __wtc_a->lo, hi = __wtc_a->hi;
    __wtc_n[0] = (long)(hi - lo);
}
static void __wtc_run_par_fill(wtc_ctx c, void *v, void *r)
{ __wtc_args_fill *a = v; (void)r; __wtc_par_fill(c, a->out, a->lo, a->hi); }
static void __wtc_run_seq_fill(void *v, void *r)
{ __wtc_args_fill *a = v; (void)r; __wtc_seq_fill(a->out, a->lo, a->hi); }
static const wtc_buf __wtc_bufs_fill[] = {
    { __builtin_offsetof(__wtc_args_fill, out), sizeof(double), 0, 1, "out", "hi - lo", sizeof(double) } };
static const wtc_fn __wtc_fn_fill = {
    "fill", 5, WTC_MODE_SIMPLE, 1, 1, sizeof(__wtc_args_fill), 0, WTC_K_OTHER,
    1, __wtc_bufs_fill, __wtc_counts_fill, __wtc_run_par_fill, __wtc_run_seq_fill };

static void __wtc_seq_fill(double *out, int lo, int hi)
{
    int mid = (lo + hi) / 2;
    if (hi - lo <= 64) { for (int i = lo; i < hi; i++) out[i - lo] = i * 0.5 + weight; return; }
    for (int i = (0), __wtc_hi_1 = (1); i <= __wtc_hi_1; i++)
        __wtc_seq_fill(i ? out + (mid - lo) : out, i ? mid : lo, i ? hi : mid);
}

static void __wtc_par_fill(wtc_ctx __wtc_c, double *out, int lo, int hi)
{
    int mid = (lo + hi) / 2;
    if (hi - lo <= 64) { for (int i = lo; i < hi; i++) out[i - lo] = i * 0.5 + weight; return; }
    {
        static const wtc_site __wtc_s_1 = { "misc.c", 324, 9 };
        wtc_par *__wtc_p_1 = wtc_par_open_fast(__wtc_c, (hi - lo > 64), &__wtc_s_1);
        int __wtc_n_1 = 0;
        for (int i = (0), __wtc_hi_1 = (1); i <= __wtc_hi_1; i++) {
            if (__wtc_p_1 == WTC_INLINE && __wtc_n_1++ && wtc_next_due()) /* ABI 4 */
                __wtc_p_1 = wtc_par_next(__wtc_c);
            if (__wtc_p_1 == WTC_INLINE) { /* ABI 4: run at once */
                __wtc_par_fill(wtc_ctx_down(__wtc_c), i ? out + (mid - lo) : out, i ? mid : lo, i ? hi : mid);
            } else if (__wtc_p_1) {
                __wtc_args_fill __wtc_a = { i ? out + (mid - lo) : out, i ? mid : lo, i ? hi : mid };
                wtc_spawn(__wtc_p_1, &__wtc_fn_fill, &__wtc_a, 0, 0, 0);
            } else
                __wtc_seq_fill(i ? out + (mid - lo) : out, i ? mid : lo, i ? hi : mid);
        }
        if (__wtc_p_1 && __wtc_p_1 != WTC_INLINE) wtc_par_close(__wtc_p_1);
    }
}

void fill(double *out, int lo, int hi)
{
    __wtc_args_fill __wtc_a = { out, lo, hi };
    wtc_call(&__wtc_fn_fill, &__wtc_a, 0);
}

/* ---- main ---- */
static int __wtc_user_main(int argc, char **argv)
{
    int depth = argc > 1 ? atoi(argv[1]) : 5;
    int nchain = argc > 2 ? atoi(argv[2]) : 10000;
    int bad = 0;
    weight = 3; /* only rank 0 runs this: the snapshot must carry it */
    for (int i = 0; i < 50000; i++) data[i] = (int)((i * 2654435761u) >> 12) % 100000;
    {
        int t = tsum(depth, 1);
        double want = 0;
        /* leaves are ids 7^depth .. 2*7^depth - 1 */
        long p7 = 1;
        for (int i = 0; i < depth; i++) p7 *= 7;
        for (long id = p7; id < 2 * p7; id++) want += (double)((id % 13) * weight);
        printf("tsum(%d) = %d %s\n", depth, t, t == (int)want ? "ok" : "BAD");
        bad |= t != (int)want;
    }
    {
        range r = { 0, 50000 };
        summary s = summ(r), d = summ_direct(r);
        printf("summ: sum %ld argmax %d mean %.3f %s\n", s.sum, s.argmax, s.mean,
               s.sum == d.sum && s.argmax == d.argmax ? "ok" : "BAD");
        bad |= s.sum != d.sum || s.argmax != d.argmax;
    }
    {
        long c = chain(nchain), want = 0;
        for (int n = 1; n <= nchain; n++) want += n % 7 + weight;
        printf("chain(%d) = %ld %s\n", nchain, c, c == want ? "ok" : "BAD");
        bad |= c != want;
    }
    {
        long f = nope(22);
        printf("nope(22) = %ld %s\n", f, f == 17711 ? "ok" : "BAD");
        bad |= f != 17711;
    }
    {
        int n = 10000;
        double *out = malloc((size_t)n * sizeof *out), err = 0;
        fill(out, 0, n);
        for (int i = 0; i < n; i++) err += out[i] != i * 0.5 + weight;
        printf("fill %d %s\n", n, err == 0 ? "ok" : "BAD");
        bad |= err != 0;
        free(out);
    }
    printf("%s\n", bad ? "BAD" : "OK");
    return bad;
}

static const wtc_fn *const __wtc_fns[] = {
    &__wtc_fn_tsum, &__wtc_fn_summ, &__wtc_fn_leaf, &__wtc_fn_chain, &__wtc_fn_nope, &__wtc_fn_fill };
static const wtc_global __wtc_globals[] = {
    { &weight, sizeof(weight), "weight" }, { data, sizeof(data), "data" } };
static const wtc_program __wtc_program = {
    WTC_ABI_VERSION, "misc.wtc", __wtc_fns, 6, __wtc_globals, 2,
    __wtc_user_main, WTC_MODE_DEFAULT, 0, 0, 0, 0 };

int main(int argc, char **argv) { return wtc_start(argc, argv, &__wtc_program); }
