/* cilksort.omp.c - cilksort.wtc with OpenMP tasks: the same sort, the same parallel
 * merge and the same cut-offs (tasks for sorts and merges of more than 10000 elements).
 *
 *   cc -O2 -fopenmp cilksort.omp.c && OMP_NUM_THREADS=2 ./a.out [N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define SMALL 32       /* sorts below this: insertion sort */
#define MERGESIZE 2048 /* merges below this: sequential */

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

/* Merge the sorted runs x[0..nx) and y[0..ny) into d[0..nx+ny). */
static void seq_merge(const int *x, int nx, const int *y, int ny, int *d)
{
    int i = 0, j = 0, k = 0;

    while (i < nx && j < ny)
        d[k++] = y[j] < x[i] ? y[j++] : x[i++];
    while (i < nx)
        d[k++] = x[i++];
    while (j < ny)
        d[k++] = y[j++];
}

/* The number of elements of the sorted y[0..n) that are less than v. */
static int lower_bound(const int *y, int n, int v)
{
    int lo = 0, hi = n;

    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (y[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Below the cut-off: the merge as plain recursion. */
static void pmerge_seq(int *x, int nx, int *y, int ny, int *d)
{
    if (nx + ny <= MERGESIZE) {
        seq_merge(x, nx, y, ny, d);
        return;
    }
    /* Split the longer run (ln elements) at its middle, the shorter (sn) where that
       element falls; part 0 merges below it, part 1 above it. */
    int *lr = nx >= ny ? x : y, *sr = nx >= ny ? y : x;
    int ln = nx >= ny ? nx : ny, sn = nx >= ny ? ny : nx;
    int lm = ln / 2, sm = lower_bound(sr, sn, lr[lm]);
    int *lpart[2] = { lr, lr + lm + 1 }, *spart[2] = { sr, sr + sm };
    int llen[2] = { lm, ln - lm - 1 }, slen[2] = { sm, sn - sm };
    int *dpart[2] = { d, d + lm + sm + 1 };

    d[lm + sm] = lr[lm];
    for (int h = 0; h <= 1; h++)
        pmerge_seq(lpart[h], llen[h], spart[h], slen[h], dpart[h]);
}

/* Above it: the two parts as tasks. */
static void pmerge(int *x, int nx, int *y, int ny, int *d)
{
    if (nx + ny <= MERGESIZE) {
        seq_merge(x, nx, y, ny, d);
        return;
    }
    /* Split the longer run (ln elements) at its middle, the shorter (sn) where that
       element falls; part 0 merges below it, part 1 above it. */
    int *lr = nx >= ny ? x : y, *sr = nx >= ny ? y : x;
    int ln = nx >= ny ? nx : ny, sn = nx >= ny ? ny : nx;
    int lm = ln / 2, sm = lower_bound(sr, sn, lr[lm]);
    int *lpart[2] = { lr, lr + lm + 1 }, *spart[2] = { sr, sr + sm };
    int llen[2] = { lm, ln - lm - 1 }, slen[2] = { sm, sn - sm };
    int *dpart[2] = { d, d + lm + sm + 1 };

    d[lm + sm] = lr[lm];
    if (!(nx + ny > 10000)) {
        for (int h = 0; h <= 1; h++)
            pmerge_seq(lpart[h], llen[h], spart[h], slen[h], dpart[h]);
        return;
    }
    for (int h = 0; h <= 1; h++) {
#pragma omp task shared(lpart, llen, spart, slen, dpart)
        pmerge(lpart[h], llen[h], spart[h], slen[h], dpart[h]);
    }
#pragma omp taskwait
}

/* Below the cut-off: the sort as plain recursion. */
static void csort_seq(int *a, int n)
{
    int off[4], len[4];
    int *tmp;

    if (n <= SMALL) {
        insertion_sort(a, n);
        return;
    }
    for (int q = 0; q < 4; q++) {
        off[q] = (int)((long)n * q / 4);
        len[q] = (int)((long)n * (q + 1) / 4) - off[q];
    }
    for (int q = 0; q <= 3; q++)
        csort_seq(&a[off[q]], len[q]);
    tmp = malloc((size_t)n * sizeof *tmp);
    if (tmp == NULL) {
        fprintf(stderr, "cilksort: out of memory\n");
        exit(2);
    }
    for (int h = 0; h <= 1; h++)
        pmerge_seq(&a[off[2 * h]], len[2 * h], &a[off[2 * h + 1]], len[2 * h + 1], &tmp[off[2 * h]]);
    pmerge_seq(tmp, len[0] + len[1], &tmp[off[2]], len[2] + len[3], a);
    free(tmp);
}

/* Above it: the quarters and the first two merges as tasks. */
static void csort(int *a, int n)
{
    int off[4], len[4];
    int *tmp;

    if (n <= SMALL) {
        insertion_sort(a, n);
        return;
    }
    for (int q = 0; q < 4; q++) {
        off[q] = (int)((long)n * q / 4);
        len[q] = (int)((long)n * (q + 1) / 4) - off[q];
    }
    if (!(n > 10000)) {
        csort_seq(a, n);
        return;
    }
    for (int q = 0; q <= 3; q++) {
#pragma omp task shared(a, off, len)
        csort(&a[off[q]], len[q]);
    }
#pragma omp taskwait
    tmp = malloc((size_t)n * sizeof *tmp);
    if (tmp == NULL) {
        fprintf(stderr, "cilksort: out of memory\n");
        exit(2);
    }
    for (int h = 0; h <= 1; h++) {
#pragma omp task shared(a, off, len, tmp)
        pmerge(&a[off[2 * h]], len[2 * h], &a[off[2 * h + 1]], len[2 * h + 1], &tmp[off[2 * h]]);
    }
#pragma omp taskwait
    pmerge(tmp, len[0] + len[1], &tmp[off[2]], len[2] + len[3], a);
    free(tmp);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 16000000;
    unsigned long long x = 7046029254386353131ULL; /* LCG state: fixed seed */
    unsigned long sum_in = 0, sum_out = 0, weighted = 0;
    unsigned xor_in = 0, xor_out = 0;
    long unsorted = 0;
    double t0;
    int *a, ok;

    if (n < 1) {
        fprintf(stderr, "usage: cilksort [N>0]\n");
        return 2;
    }
    a = malloc((size_t)n * sizeof *a);
    if (a == NULL) {
        fprintf(stderr, "cilksort: out of memory\n");
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
    csort(a, n);
    fprintf(stderr, "TIME cilksort %.6f\n", omp_get_wtime() - t0);

    for (int i = 0; i < n; i++) {
        if (i > 0 && a[i - 1] > a[i])
            unsorted++;
        sum_out += (unsigned)a[i];
        xor_out ^= (unsigned)a[i];
        weighted = weighted * 31 + (unsigned)a[i];
    }
    ok = unsorted == 0 && sum_in == sum_out && xor_in == xor_out;
    printf("cilksort: n = %d\n", n);
    printf("cilksort: sorted %s\n", unsorted == 0 ? "OK" : "BAD");
    printf("cilksort: same values %s\n", sum_in == sum_out && xor_in == xor_out ? "OK" : "BAD");
    printf("cilksort: min %d max %d\n", a[0], a[n - 1]);
    printf("cilksort: checksum %lu\n", weighted);
    free(a);
    return ok ? 0 : 1;
}
