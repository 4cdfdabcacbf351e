/* fib.omp.c - fib.wtc with OpenMP tasks: the same recursion and cut-off (a task per
 * call while n > 20).
 *
 *   cc -O2 -fopenmp fib.omp.c && OMP_NUM_THREADS=2 ./a.out [N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

/* Below the cut-off: plain recursion. */
static long fib_seq(int n)
{
    long part[2];

    if (n < 2)
        return n;
    for (int i = 0; i <= 1; i++)
        part[i] = fib_seq(n - 1 - i);
    return part[0] + part[1];
}

/* Above it: each call a task. */
static long fib(int n)
{
    long part[2];

    if (n < 2)
        return n;
    if (!(n > 20))
        return fib_seq(n);
    for (int i = 0; i <= 1; i++) {
#pragma omp task shared(part)
        part[i] = fib(n - 1 - i);
    }
#pragma omp taskwait
    return part[0] + part[1];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 44;
    long f = 0, a = 0, b = 1;
    double t0;

    if (n < 0 || n > 90) {
        fprintf(stderr, "usage: fib [N in 0..90]\n");
        return 2;
    }
    t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
    f = fib(n);
    fprintf(stderr, "TIME fib %.6f\n", omp_get_wtime() - t0);
    for (int i = 0; i < n; i++) {
        long t = a + b;
        a = b;
        b = t;
    }
    printf("fib(%d) = %ld %s\n", n, f, f == a ? "OK" : "BAD");
    return f == a ? 0 : 1;
}
