/* nqueens.omp.c - nqueens.wtc with OpenMP tasks: the same search and the same
 * cut-off (a task per free square while the depth is below CUTOFF).
 *
 *   cc -O2 -fopenmp [-DCUTOFF=3] nqueens.omp.c && OMP_NUM_THREADS=2 ./a.out [N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#ifndef CUTOFF
#define CUTOFF 3
#endif

#define MAXN 16

/* A000170(n), n = 0..16 */
static const long known[MAXN + 1] = {
    1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512
};

/* The free squares of the row as single bits; returns how many. */
static int free_bits(unsigned all, unsigned cols, unsigned left, unsigned right, unsigned *bit)
{
    unsigned free_sq = all & ~(cols | left | right);
    int k = 0;

    while (free_sq != 0) {
        bit[k++] = free_sq & -free_sq;
        free_sq &= free_sq - 1;
    }
    return k;
}

/* Below the cut-off: plain recursion. */
static long queens_seq(unsigned all, unsigned cols, unsigned left, unsigned right)
{
    unsigned bit[MAXN];
    long cnt[MAXN];
    long total = 0;
    int k;

    if (cols == all)
        return 1;
    k = free_bits(all, cols, left, right, bit);
    for (int i = 0; i < k; i++)
        cnt[i] = queens_seq(all, cols | bit[i], (left | bit[i]) << 1, (right | bit[i]) >> 1);
    for (int i = 0; i < k; i++)
        total += cnt[i];
    return total;
}

/* Above it: one task per free square. */
static long queens(int depth, unsigned all, unsigned cols, unsigned left, unsigned right)
{
    unsigned bit[MAXN];
    long cnt[MAXN];
    long total = 0;
    int k;

    if (cols == all)
        return 1;
    if (depth >= CUTOFF)
        return queens_seq(all, cols, left, right);
    k = free_bits(all, cols, left, right, bit);
    for (int i = 0; i < k; i++) {
#pragma omp task shared(cnt, bit)
        cnt[i] = queens(depth + 1, all, cols | bit[i], (left | bit[i]) << 1, (right | bit[i]) >> 1);
    }
#pragma omp taskwait
    for (int i = 0; i < k; i++)
        total += cnt[i];
    return total;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 15;
    long count = 0;
    double t0;

    if (n < 1 || n > MAXN) {
        fprintf(stderr, "usage: nqueens [N in 1..%d]\n", MAXN);
        return 2;
    }
    t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
    count = queens(0, (1u << n) - 1, 0, 0, 0);
    fprintf(stderr, "TIME nqueens %.6f\n", omp_get_wtime() - t0);
    printf("nqueens(%d) = %ld, cut-off depth %d: %s\n", n, count, CUTOFF,
           count == known[n] ? "OK" : "BAD");
    return count == known[n] ? 0 : 1;
}
