/* skew.omp.c - skew.wtc with OpenMP tasks: the same recursion, a task per child while
 * n > 64.
 *
 *   cc -O2 -fopenmp skew.omp.c && OMP_NUM_THREADS=2 ./a.out [N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

static unsigned long g(int n)
{
    unsigned long h = (unsigned long)n * 0x9e3779b97f4a7c15UL;

    for (int r = 0; r < 12; r++) {
        h ^= h >> 29;
        h *= 0xbf58476d1ce4e5b9UL;
    }
    return h & 0xffff;
}

static unsigned long skew_seq(int n)
{
    unsigned long part[2], sub[2] = {n - 1, n / 8};

    if (n < 2)
        return g(n);
    for (int i = 0; i <= 1; i++)
        part[i] = skew_seq((int)sub[i]);
    return g(n) + part[0] + part[1];
}

static unsigned long skew(int n)
{
    unsigned long part[2], sub[2] = {n - 1, n / 8};

    if (n < 2)
        return g(n);
    if (!(n > 64))
        return skew_seq(n);
    for (int i = 0; i <= 1; i++) {
#pragma omp task firstprivate(i) shared(part, sub)
        part[i] = skew((int)sub[i]);
    }
#pragma omp taskwait
    return g(n) + part[0] + part[1];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 4000;
    unsigned long r = 0, *t;
    double t0;

    if (n < 0 || n > 100000) {
        fprintf(stderr, "usage: skew [N in 0..100000]\n");
        return 2;
    }
    t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
    r = skew(n);
    fprintf(stderr, "TIME skew %.6f\n", omp_get_wtime() - t0);
    t = malloc(((size_t)n + 1) * sizeof *t);
    for (int k = 0; k <= n; k++)
        t[k] = k < 2 ? g(k) : g(k) + t[k - 1] + t[k / 8];
    printf("skew(%d) = %lu: %s\n", n, r, r == t[n] ? "OK" : "BAD");
    return r != t[n];
}
