/* msort.omp.c - msort.wtc with OpenMP tasks: the same sort, merge and cut-off (the
 * halves as tasks while n > 10000).
 *
 *   cc -O2 -fopenmp msort.omp.c && OMP_NUM_THREADS=2 ./a.out [N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

#define SMALL 16 /* below this, insertion sort */

/* Sort a[0..n) by straight insertion. */
static void insertion_sort(int *a, int n)
{
    for (int i = 1; i < n; i++) {
        int v = a[i], j = i - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}

/* Merge the sorted runs a[0..m) and a[m..n) into a[0..n). */
static void merge(int *a, int m, int n)
{
    int *left = malloc((size_t)m * sizeof *left);
    int i = 0, j = m, k = 0;

    if (left == NULL) {
        fprintf(stderr, "msort: out of memory\n");
        exit(2);
    }
    memcpy(left, a, (size_t)m * sizeof *left);
    while (i < m && j < n)
        a[k++] = a[j] < left[i] ? a[j++] : left[i++];
    while (i < m)
        a[k++] = left[i++];
    free(left);
}

/* Below the cut-off: plain recursion. */
static void msort_seq(int *a, int n)
{
    int lo[2], len[2];

    if (n <= SMALL) {
        insertion_sort(a, n);
        return;
    }
    lo[0] = 0;
    len[0] = n / 2;
    lo[1] = n / 2;
    len[1] = n - n / 2;
    for (int h = 0; h <= 1; h++)
        msort_seq(&a[lo[h]], len[h]);
    merge(a, len[0], n);
}

/* Above it: the halves as tasks. */
static void msort(int *a, int n)
{
    int lo[2], len[2];

    if (n <= SMALL) {
        insertion_sort(a, n);
        return;
    }
    lo[0] = 0;
    len[0] = n / 2;
    lo[1] = n / 2;
    len[1] = n - n / 2;
    if (!(n > 10000)) {
        for (int h = 0; h <= 1; h++)
            msort_seq(&a[lo[h]], len[h]);
    } else {
        for (int h = 0; h <= 1; h++) {
#pragma omp task shared(a, lo, len)
            msort(&a[lo[h]], len[h]);
        }
#pragma omp taskwait
    }
    merge(a, len[0], n);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 8000000;
    unsigned long long x = 1181783497276652981ULL; /* LCG state: fixed seed */
    unsigned long sum_in = 0, sum_out = 0, weighted = 0;
    unsigned xor_in = 0, xor_out = 0;
    long unsorted = 0;
    double t0;
    int *a, ok;

    if (n < 1) {
        fprintf(stderr, "usage: msort [N>0]\n");
        return 2;
    }
    a = malloc((size_t)n * sizeof *a);
    if (a == NULL) {
        fprintf(stderr, "msort: out of memory\n");
        return 2;
    }
    for (int i = 0; i < n; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        a[i] = (int)(x >> 33) - (1 << 30);
        sum_in += (unsigned)a[i];
        xor_in ^= (unsigned)a[i];
    }

    t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
    msort(a, n);
    fprintf(stderr, "TIME msort %.6f\n", omp_get_wtime() - t0);

    for (int i = 0; i < n; i++) {
        if (i > 0 && a[i - 1] > a[i])
            unsorted++;
        sum_out += (unsigned)a[i];
        xor_out ^= (unsigned)a[i];
        weighted = weighted * 31 + (unsigned)a[i];
    }
    ok = unsorted == 0 && sum_in == sum_out && xor_in == xor_out;
    printf("msort: n = %d\n", n);
    printf("msort: sorted %s\n", unsorted == 0 ? "OK" : "BAD");
    printf("msort: same values %s\n", sum_in == sum_out && xor_in == xor_out ? "OK" : "BAD");
    printf("msort: min %d max %d\n", a[0], a[n - 1]);
    printf("msort: checksum %lu\n", weighted);
    free(a);
    return ok ? 0 : 1;
}
