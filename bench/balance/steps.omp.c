/* steps.omp.c - steps.wtc with OpenMP tasks: the same iteration, bisection and cut-off
 * (a task per half while a range holds more than one piece); one parallel region, a
 * single thread stepping and the team running each step's tasks.
 *
 *   cc -O2 -fopenmp steps.omp.c && OMP_NUM_THREADS=2 ./a.out [T [K [M]]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

static double piece(double x, int j, int m)
{
    double y = 0.1 + 0.8 * x + j * 1e-4, s = 0.0;

    for (int k = 0; k < m; k++) {
        y = 3.9 * y * (1.0 - y);
        s += y;
    }
    return s / m;
}

static double sum(double x, int lo, int hi, int m)
{
    double part[2];
    int mid = lo + (hi - lo) / 2;

    if (hi - lo == 1)
        return piece(x, lo, m);
    for (int i = 0; i <= 1; i++) {
#pragma omp task shared(part)
        part[i] = sum(x, i ? mid : lo, i ? hi : mid, m);
    }
#pragma omp taskwait
    return part[0] + part[1];
}

static double sum_plain(double x, int lo, int hi, int m)
{
    int mid = lo + (hi - lo) / 2;

    if (hi - lo == 1)
        return piece(x, lo, m);
    return sum_plain(x, lo, mid, m) + sum_plain(x, mid, hi, m);
}

int main(int argc, char **argv)
{
    int t_steps = argc > 1 ? atoi(argv[1]) : 2000;
    int k = argc > 2 ? atoi(argv[2]) : 16;
    int m = argc > 3 ? atoi(argv[3]) : 20000;
    double x = 0.3, last_x = 0.0, s = 0.0, check, t0;

    if (t_steps < 1 || k < 1 || m < 1) {
        fprintf(stderr, "usage: steps [T [K [M]]] (all >= 1)\n");
        return 2;
    }
    t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
    for (int t = 0; t < t_steps; t++) {
        last_x = x;
        s = sum(x, 0, k, m);
        x = s / k;
    }
    fprintf(stderr, "TIME steps %.6f\n", omp_get_wtime() - t0);
    check = sum_plain(last_x, 0, k, m);
    printf("steps: x = %.15f after %d steps %s\n", x, t_steps, check == s ? "OK" : "BAD");
    return check == s ? 0 : 1;
}
