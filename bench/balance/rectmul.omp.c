/* rectmul.wtc - Cilk-5's rectmul: C = A*B (or C += A*B) for rectangular row-major
 * matrices, splitting the largest of m (rows of C), n (the inner dimension) and p
 * (columns of C) in halves. Splitting n: both halves add into the same C, so they run
 * one after the other (Cilk: spawn; sync; spawn), each still parallel inside.
 *   ./rectmul [M N P]     C is M x P, A M x N, B N x P; default 1024 896 1152
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

#define LEAF 96   /* m + n + p at or below this: the triple loop */

static void leaf(double *C, const double *A, const double *B, int m, int n, int p,
                 int ldc, int lda, int ldb, int add)
{
    for (int i = 0; i < m; i++) {
        double *c = C + (long)i * ldc;
        if (!add)
            memset(c, 0, p * sizeof *c);
        for (int k = 0; k < n; k++) {
            double a = A[(long)i * lda + k];
            const double *b = B + (long)k * ldb;
            for (int j = 0; j < p; j++)
                c[j] += a * b[j];
        }
    }
}

void rec_mult(double *C, double *A, double *B, int m, int n, int p,
                        int ldc, int lda, int ldb, int add)





{
    if (m + n + p <= LEAF) {
        leaf(C, A, B, m, n, p, ldc, lda, ldb, add);
        return;
    }
    if (m >= n && m >= p) {
        int m1 = m / 2;
        if (m + n + p > LEAF) {
for (int i = (0); i <= (1); i++) {
#pragma omp task

            if (i == 0)
                rec_mult(C, A, B, m1, n, p, ldc, lda, ldb, add);
            else
                rec_mult(C + (long)m1 * ldc, A + (long)m1 * lda, B, m - m1, n, p, ldc, lda, ldb, add);
}
#pragma omp taskwait
} else
for (int i = (0); i <= (1); i++)
            if (i == 0)
                rec_mult(C, A, B, m1, n, p, ldc, lda, ldb, add);
            else
                rec_mult(C + (long)m1 * ldc, A + (long)m1 * lda, B, m - m1, n, p, ldc, lda, ldb, add);

    } else if (n >= m && n >= p) {
        int n1 = n / 2;
        rec_mult(C, A, B, m, n1, p, ldc, lda, ldb, add);
        rec_mult(C, A + n1, B + (long)n1 * ldb, m, n - n1, p, ldc, lda, ldb, 1);
    } else {
        int p1 = p / 2;
        if (m + n + p > LEAF) {
for (int i = (0); i <= (1); i++) {
#pragma omp task

            if (i == 0)
                rec_mult(C, A, B, m, n, p1, ldc, lda, ldb, add);
            else
                rec_mult(C + p1, A, B + p1, m, n, p - p1, ldc, lda, ldb, add);
}
#pragma omp taskwait
} else
for (int i = (0); i <= (1); i++)
            if (i == 0)
                rec_mult(C, A, B, m, n, p1, ldc, lda, ldb, add);
            else
                rec_mult(C + p1, A, B + p1, m, n, p - p1, ldc, lda, ldb, add);

    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double rnd(unsigned long long *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / 4503599627370496.0 - 1.0;
}

int main(int argc, char **argv)
{
    int m = argc > 3 ? atoi(argv[1]) : 1024, n = argc > 3 ? atoi(argv[2]) : 896,
        p = argc > 3 ? atoi(argv[3]) : 1152;
    double *A = malloc(sizeof(double) * m * n), *B = malloc(sizeof(double) * n * p);
    double *C = malloc(sizeof(double) * m * p), *x = malloc(sizeof(double) * p);
    double *y = malloc(sizeof(double) * n);
    unsigned long long s = 99;
    double t0, err = 0, scale = 0, sum = 0;

    for (long i = 0; i < (long)m * n; i++) A[i] = rnd(&s);
    for (long i = 0; i < (long)n * p; i++) B[i] = rnd(&s);
    for (long i = 0; i < (long)m * p; i++) C[i] = 12345.0;   /* overwritten (add = 0) */
    for (int j = 0; j < p; j++) x[j] = rnd(&s);

    t0 = now();
#pragma omp parallel
#pragma omp single
    rec_mult(C, A, B, m, n, p, p, n, p, 0);
    fprintf(stderr, "TIME rectmul %.6f\n", now() - t0);

    for (int k = 0; k < n; k++) {
        double t = 0;
        for (int j = 0; j < p; j++) t += B[(long)k * p + j] * x[j];
        y[k] = t;
    }
    for (int i = 0; i < m; i++) {
        double r = 0, c = 0;
        for (int k = 0; k < n; k++) r += A[(long)i * n + k] * y[k];
        for (int j = 0; j < p; j++) c += C[(long)i * p + j] * x[j];
        err = fmax(err, fabs(r - c));
        scale = fmax(scale, fabs(r));
    }
    for (long i = 0; i < (long)m * p; i++) sum += C[i] * (double)(i % 11 + 1);
    printf("rectmul %dx%dx%d: Cx vs A(Bx) %s, checksum %.15g\n", m, n, p,
           err <= 1e-9 * (scale + 1) ? "OK" : "BAD", sum);
    return err <= 1e-9 * (scale + 1) ? 0 : 1;
}
