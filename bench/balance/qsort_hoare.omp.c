/* qsort_hoare.omp.c - qsort_hoare.wtc with OpenMP tasks: the same sort, partition (Hoare's)
 * and cut-off (a task per part while n > 10000).
 *
 *   cc -O2 -fopenmp qsort_hoare.omp.c && OMP_NUM_THREADS=2 ./a.out [N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

#define SMALL 16 /* below this, insertion sort */

/* Sort a[0..n) by straight insertion. */
static void insertion_sort(double *a, int n)
{
    for (int i = 1; i < n; i++) {
        double v = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}

static void swap(double *a, int i, int j)
{
    double t = a[i];
    a[i] = a[j];
    a[j] = t;
}

/* Hoare: partition a[0..n) (n >= 3) and return j, 0 <= j < n-1, with
   a[0..j] <= pivot <= a[j+1..n). */
static int partition(double *a, int n)
{
    int m = n / 2, i = -1, j = n;
    double pivot;

    if (a[m] < a[0]) swap(a, m, 0);
    if (a[n - 1] < a[0]) swap(a, n - 1, 0);
    if (a[n - 1] < a[m]) swap(a, n - 1, m);   /* a[0] <= a[m] <= a[n-1] */
    pivot = a[m];
    for (;;) {
        do
            i++;
        while (a[i] < pivot);
        do
            j--;
        while (a[j] > pivot);
        if (i >= j)
            return j;
        swap(a, i, j);
    }
}

/* Below the cut-off: plain recursion. */
static void quick_seq(double *a, int n)
{
    int lo[2], len[2];
    int j;

    if (n <= SMALL) {
        insertion_sort(a, n);
        return;
    }
    j = partition(a, n);
    lo[0] = 0;
    len[0] = j + 1;
    lo[1] = j + 1;
    len[1] = n - j - 1;
    for (int x = 0; x <= 1; x++)
        quick_seq(&a[lo[x]], len[x]);
}

/* Above it: the two parts as tasks. */
static void quick(double *a, int n)
{
    int lo[2], len[2];
    int j;

    if (n <= SMALL) {
        insertion_sort(a, n);
        return;
    }
    j = partition(a, n);
    lo[0] = 0;
    len[0] = j + 1;
    lo[1] = j + 1;
    len[1] = n - j - 1;
    if (!(n > 10000)) {
        for (int x = 0; x <= 1; x++)
            quick_seq(&a[lo[x]], len[x]);
        return;
    }
    for (int x = 0; x <= 1; x++) {
#pragma omp task shared(a, lo, len)
        quick(&a[lo[x]], len[x]);
    }
#pragma omp taskwait
}

/* The bit pattern of a double, for exact sums. */
static unsigned long long bits(double d)
{
    unsigned long long u;
    memcpy(&u, &d, sizeof u);
    return u;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 8000000;
    unsigned long long x = 88172645463325252ULL; /* LCG state: fixed seed */
    unsigned long long sum_in = 0, sum_out = 0, xor_in = 0, xor_out = 0, weighted = 0;
    long unsorted = 0;
    double t0, *a;
    int ok;

    if (n < 1) {
        fprintf(stderr, "usage: qsort_hoare [N>0]\n");
        return 2;
    }
    a = malloc((size_t)n * sizeof *a);
    if (a == NULL) {
        fprintf(stderr, "qsort_hoare: out of memory\n");
        return 2;
    }
    for (int i = 0; i < n; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        a[i] = (double)(x >> 11) * 0x1p-53;
        sum_in += bits(a[i]);
        xor_in ^= bits(a[i]);
    }

    t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
    quick(a, n);
    fprintf(stderr, "TIME qsort_hoare %.6f\n", omp_get_wtime() - t0);

    for (int i = 0; i < n; i++) {
        if (i > 0 && a[i - 1] > a[i])
            unsorted++;
        sum_out += bits(a[i]);
        xor_out ^= bits(a[i]);
        weighted = weighted * 31 + bits(a[i]);
    }
    ok = unsorted == 0 && sum_in == sum_out && xor_in == xor_out;
    printf("qsort_hoare: n = %d\n", n);
    printf("qsort_hoare: sorted %s\n", unsorted == 0 ? "OK" : "BAD");
    printf("qsort_hoare: same values %s\n", sum_in == sum_out && xor_in == xor_out ? "OK" : "BAD");
    printf("qsort_hoare: min %.17g max %.17g\n", a[0], a[n - 1]);
    printf("qsort_hoare: checksum %llu\n", weighted);
    free(a);
    return ok ? 0 : 1;
}
