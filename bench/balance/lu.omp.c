/* lu.wtc - Cilk-5's lu.cilk: recursive block LU decomposition without pivoting, in
 * place on one n x n row-major matrix; every call works on sub-blocks given as a pointer
 * and the leading dimension ld (strided views). Leaves: BLOCK x BLOCK (Cilk's 16).
 *   ./lu [N]     N = BLOCK * 2^k, default 2048
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

#define BLOCK 16
#define V(n, ld) (((n) - 1) * (ld) + (n)) /* elements spanned by an n x n view */

static void block_lu(double *A, int ld)
{
    for (int k = 0; k < BLOCK; k++)
        for (int i = k + 1; i < BLOCK; i++) {
            double l = A[i * ld + k] /= A[k * ld + k];
            for (int j = k + 1; j < BLOCK; j++)
                A[i * ld + j] -= l * A[k * ld + j];
        }
}
static void block_schur(double *M, const double *V, const double *W, int ld)
{
    for (int i = 0; i < BLOCK; i++)
        for (int k = 0; k < BLOCK; k++) {
            double v = V[i * ld + k];
            for (int j = 0; j < BLOCK; j++)
                M[i * ld + j] -= v * W[k * ld + j];
        }
}
static void block_lower_solve(double *M, const double *L, int ld)
{   /* M := L^-1 M, L unit lower */
    for (int i = 1; i < BLOCK; i++)
        for (int k = 0; k < i; k++) {
            double l = L[i * ld + k];
            for (int j = 0; j < BLOCK; j++)
                M[i * ld + j] -= l * M[k * ld + j];
        }
}
static void block_upper_solve(double *M, const double *U, int ld)
{   /* M := M U^-1, U upper */
    for (int i = 0; i < BLOCK; i++)
        for (int j = 0; j < BLOCK; j++) {
            double s = M[i * ld + j];
            for (int k = 0; k < j; k++)
                s -= M[i * ld + k] * U[k * ld + j];
            M[i * ld + j] = s / U[j * ld + j];
        }
}

/* M -= V * W, all n x n views with leading dimension ld */
void schur(double *M, double *Vw, double *W, int n, int ld)



{
    int h = n / 2;
    if (n == BLOCK) {
        block_schur(M, Vw, W, ld);
        return;
    }
    if (1) {
for (int q = (0); q <= (3); q++) {
#pragma omp task

        schur(M + (q / 2) * h * ld + (q % 2) * h, Vw + (q / 2) * h * ld, W + (q % 2) * h, h, ld);
}
#pragma omp taskwait
} else
for (int q = (0); q <= (3); q++)
        schur(M + (q / 2) * h * ld + (q % 2) * h, Vw + (q / 2) * h * ld, W + (q % 2) * h, h, ld);

    if (1) {
for (int q = (0); q <= (3); q++) {
#pragma omp task

        schur(M + (q / 2) * h * ld + (q % 2) * h, Vw + (q / 2) * h * ld + h, W + h * ld + (q % 2) * h, h, ld);
}
#pragma omp taskwait
} else
for (int q = (0); q <= (3); q++)
        schur(M + (q / 2) * h * ld + (q % 2) * h, Vw + (q / 2) * h * ld + h, W + h * ld + (q % 2) * h, h, ld);

}

void lower_solve(double *M, double *L, int n, int ld);
void upper_solve(double *M, double *U, int n, int ld);

/* Ma (top) and Mb (bottom) : h x h views, L the n x n unit lower, n = 2h */
void aux_lower_solve(double *Ma, double *Mb, double *L, int h, int ld)



{
    lower_solve(Ma, L, h, ld);
    schur(Mb, L + h * ld, Ma, h, ld);
    lower_solve(Mb, L + h * ld + h, h, ld);
}

void lower_solve(double *M, double *L, int n, int ld)



{
    int h = n / 2;
    if (n == BLOCK) {
        block_lower_solve(M, L, ld);
        return;
    }
    if (1) {
for (int j = (0); j <= (1); j++) {
#pragma omp task

        aux_lower_solve(M + j * h, M + h * ld + j * h, L, h, ld);
}
#pragma omp taskwait
} else
for (int j = (0); j <= (1); j++)
        aux_lower_solve(M + j * h, M + h * ld + j * h, L, h, ld);

}

/* Ma (left) and Mb (right): h x h views, U the n x n upper, n = 2h */
void aux_upper_solve(double *Ma, double *Mb, double *U, int h, int ld)



{
    upper_solve(Ma, U, h, ld);
    schur(Mb, Ma, U + h, h, ld);
    upper_solve(Mb, U + h * ld + h, h, ld);
}

void upper_solve(double *M, double *U, int n, int ld)



{
    int h = n / 2;
    if (n == BLOCK) {
        block_upper_solve(M, U, ld);
        return;
    }
    if (1) {
for (int i = (0); i <= (1); i++) {
#pragma omp task

        aux_upper_solve(M + i * h * ld, M + i * h * ld + h, U, h, ld);
}
#pragma omp taskwait
} else
for (int i = (0); i <= (1); i++)
        aux_upper_solve(M + i * h * ld, M + i * h * ld + h, U, h, ld);

}

void lu(double *M, int n, int ld)



{
    int h = n / 2;
    if (n == BLOCK) {
        block_lu(M, ld);
        return;
    }
    lu(M, h, ld);
    if (1) {
for (int i = (0); i <= (1); i++) {
#pragma omp task

        if (i == 0)
            lower_solve(M + h, M, h, ld);
        else
            upper_solve(M + h * ld, M, h, ld);
}
#pragma omp taskwait
} else
for (int i = (0); i <= (1); i++)
        if (i == 0)
            lower_solve(M + h, M, h, ld);
        else
            upper_solve(M + h * ld, M, h, ld);

    schur(M + h * ld + h, M + h * ld, M + h, h, ld);
    lu(M + h * ld + h, h, ld);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2048;
    double *A = malloc(sizeof(double) * n * n), *A0 = malloc(sizeof(double) * n * n);
    double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n), *z = malloc(sizeof(double) * n);
    unsigned long long s = 12345;
    double t0, sum = 0, err = 0, scale = 0;

    if (n < BLOCK || n % BLOCK || ((n / BLOCK) & (n / BLOCK - 1))) {
        fprintf(stderr, "usage: lu [N = 16 * 2^k]\n");
        return 2;
    }
    for (long i = 0; i < (long)n * n; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        A[i] = (double)(s >> 11) / 9007199254740992.0;
    }
    for (int i = 0; i < n; i++)
        A[(long)i * n + i] += n;     /* diagonally dominant: no pivoting needed */
    memcpy(A0, A, sizeof(double) * n * n);
    for (int i = 0; i < n; i++)
        x[i] = (i % 7) - 3.0;

    t0 = now();
#pragma omp parallel
#pragma omp single
    lu(A, n, n);
    fprintf(stderr, "TIME lu %.6f\n", now() - t0);

    /* y = U x, z = L y, compare with A0 x */
    for (int i = 0; i < n; i++) {
        double t = 0;
        for (int j = i; j < n; j++) t += A[(long)i * n + j] * x[j];
        y[i] = t;
    }
    for (int i = 0; i < n; i++) {
        double t = y[i], r = 0;
        for (int j = 0; j < i; j++) t += A[(long)i * n + j] * y[j];
        for (int j = 0; j < n; j++) r += A0[(long)i * n + j] * x[j];
        z[i] = t;
        err = fmax(err, fabs(t - r));
        scale = fmax(scale, fabs(r));
    }
    for (long i = 0; i < (long)n * n; i++)
        sum += A[i] * (double)(i % 13 + 1);
    printf("lu n=%d: LUx vs Ax %s, checksum %.15g\n", n, err <= 1e-9 * scale ? "OK" : "BAD", sum);
    return err <= 1e-9 * scale ? 0 : 1;
}
