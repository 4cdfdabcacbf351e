/* Hand-written in the shape of wtcc's generated code (see fib_msort.c). Source:

     recursive long sq(int x) mode: dynamic 4;  { return (long)x * x; }   // 4 masters
     static void stop(long v) { printf("total %ld\n", v); exit(v == 328350 ? 3 : 1); }
     int main(void) { long out[100]; par i = 0 to 99 do out[i] = sq(i); ...; stop(sum); }

   exit() in main (through a plain function) must release the other ranks and give
   status 3 everywhere; asking for 4 masters on a small run must warn once. */
#include "wtc_abi.h"
#include <stdio.h>
#include <stdlib.h>

typedef struct { int x; } __wtc_args_sq;
static long __wtc_seq_sq(int x) { return (long)x * x; }
static void __wtc_counts_sq(const void *a, long *c) { (void)a; (void)c; }
static void __wtc_run_seq_sq(void *a, void *r) { *(long *)r = __wtc_seq_sq(((__wtc_args_sq *)a)->x); }
static void __wtc_run_par_sq(wtc_ctx c, void *a, void *r) { (void)c; __wtc_run_seq_sq(a, r); }
static const wtc_fn __wtc_fn_sq = {
    "sq", 0, WTC_MODE_DYNAMIC, 4, 0, sizeof(__wtc_args_sq), sizeof(long), WTC_KIND((long)0),
    0, 0, __wtc_counts_sq, __wtc_run_par_sq, __wtc_run_seq_sq };

static void stop(long v)
{
    printf("total %ld\n", v);
    exit(v == 328350 ? 3 : 1);
}

static int __wtc_user_main(int argc, char **argv)
{
    long out[100], sum = 0;
    (void)argc; (void)argv;
    for (int rep = 0; rep < 2; rep++) { /* two regions: the warning comes once */
        static const wtc_site __wtc_s_1 = { "exit_main.c", 34, 9 };
        wtc_par *__wtc_p_1 = wtc_region_open(&__wtc_fn_sq, &__wtc_s_1);
        for (int i = (0), __wtc_hi_1 = (99); i <= __wtc_hi_1; i++)
            if (__wtc_p_1) {
                __wtc_args_sq __wtc_a = { i };
                wtc_spawn(__wtc_p_1, &__wtc_fn_sq, &__wtc_a, &(out[i]), WTC_KIND(out[i]), sizeof(out[i]));
            } else
                out[i] = __wtc_seq_sq(i);
        if (__wtc_p_1) wtc_par_close(__wtc_p_1);
    }
    for (int i = 0; i < 100; i++) sum += out[i];
    stop(sum);
    return 0;
}

static const wtc_fn *const __wtc_fns[] = { &__wtc_fn_sq };
static const wtc_program __wtc_program = {
    WTC_ABI_VERSION, "exit_main.wtc", __wtc_fns, 1, 0, 0, __wtc_user_main, WTC_MODE_DEFAULT, 0, 0, 0, 0 };

int main(int argc, char **argv) { return wtc_start(argc, argv, &__wtc_program); }
