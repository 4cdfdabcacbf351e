/* matmul.omp.c - matmul.wtc with OpenMP tasks: the same quadrant copies, the same
 * eight products (as tasks while n > 64, with a taskwait) and the same leaf loop.
 *
 *   cc -O2 -fopenmp matmul.omp.c -lm && OMP_NUM_THREADS=2 ./a.out [N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <omp.h>

#define LEAF 64 /* blocks of this size or smaller: triple loop */

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes);

    if (p == NULL) {
        fprintf(stderr, "matmul: out of memory\n");
        exit(2);
    }
    return p;
}

/* c = a*b for n x n blocks, by the triple loop. */
static void mm_leaf(const double *a, const double *b, double *c, int n)
{
    memset(c, 0, (size_t)n * n * sizeof *c);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) {
            double aik = a[i * n + k];
            for (int j = 0; j < n; j++)
                c[i * n + j] += aik * b[k * n + j];
        }
}

/* Copy the four h x h quadrants of the n x n block m (n = 2h) into q, one after
   the other: top left, top right, bottom left, bottom right. */
static void split(const double *m, double *q, int n)
{
    int h = n / 2;
    double *q0 = q, *q1 = q + h * h, *q2 = q + 2 * h * h, *q3 = q + 3 * h * h;

    for (int i = 0; i < h; i++)
        for (int j = 0; j < h; j++) {
            q0[i * h + j] = m[i * n + j];
            q1[i * h + j] = m[i * n + j + h];
            q2[i * h + j] = m[(i + h) * n + j];
            q3[i * h + j] = m[(i + h) * n + j + h];
        }
}

/* The n x n block c from the eight h x h products in t: quadrant k (in split's
   order) is t[2k] + t[2k+1]. */
static void join(const double *t, double *c, int n)
{
    int h = n / 2;

    for (int k = 0; k < 4; k++) {
        const double *p = t + 2 * k * h * h, *r = p + h * h;
        double *d = c + (k / 2) * h * n + (k % 2) * h;
        for (int i = 0; i < h; i++)
            for (int j = 0; j < h; j++)
                d[i * n + j] = p[i * h + j] + r[i * h + j];
    }
}

/* The eight products of quadrants as tasks (every block above LEAF). */
static void mm(double *a, double *b, double *c, int n)
{
    /* product i is A[qa[i]] * B[qb[i]]; products 2k and 2k+1 make quadrant k of c */
    static const int qa[8] = { 0, 1, 0, 1, 2, 3, 2, 3 };
    static const int qb[8] = { 0, 2, 1, 3, 0, 2, 1, 3 };
    int h = n / 2;
    double *A, *B, *T;

    if (n <= LEAF) {
        mm_leaf(a, b, c, n);
        return;
    }
    A = xmalloc((size_t)4 * h * h * sizeof *A);
    B = xmalloc((size_t)4 * h * h * sizeof *B);
    T = xmalloc((size_t)8 * h * h * sizeof *T);
    split(a, A, n);
    split(b, B, n);
    for (int i = 0; i <= 7; i++) {
#pragma omp task shared(A, B, T, qa, qb)
        mm(&A[qa[i] * h * h], &B[qb[i] * h * h], &T[i * h * h], h);
    }
#pragma omp taskwait
    join(T, c, n);
    free(A);
    free(B);
    free(T);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1024;
    unsigned long long s = 2862933555777941757ULL; /* LCG state: fixed seed */
    double *a, *b, *c, *x, *y, *z, *w;
    double err = 0, scale = 0, sample_err = 0, sum = 0, t0;
    int ok;

    if (n < 1 || (n & (n - 1)) != 0) {
        fprintf(stderr, "usage: matmul [N, a power of two]\n");
        return 2;
    }
    a = xmalloc((size_t)n * n * sizeof *a);
    b = xmalloc((size_t)n * n * sizeof *b);
    c = xmalloc((size_t)n * n * sizeof *c);
    x = xmalloc((size_t)n * sizeof *x);
    y = xmalloc((size_t)n * sizeof *y);
    z = xmalloc((size_t)n * sizeof *z);
    w = xmalloc((size_t)n * sizeof *w);
    /* entries in [-1, 1) */
    for (long i = 0; i < (long)n * n; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        a[i] = (double)(s >> 11) / 4503599627370496.0 - 1.0;
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        b[i] = (double)(s >> 11) / 4503599627370496.0 - 1.0;
    }
    for (int i = 0; i < n; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        x[i] = (double)(s >> 11) / 4503599627370496.0 - 1.0;
    }

    t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
    mm(a, b, c, n);
    fprintf(stderr, "TIME matmul %.6f\n", omp_get_wtime() - t0);

    /* y = B*x, z = A*y = (A*B)*x, w = C*x */
    for (int i = 0; i < n; i++) {
        double yi = 0, wi = 0;
        for (int j = 0; j < n; j++) {
            yi += b[(long)i * n + j] * x[j];
            wi += c[(long)i * n + j] * x[j];
        }
        y[i] = yi;
        w[i] = wi;
    }
    for (int i = 0; i < n; i++) {
        double zi = 0;
        for (int j = 0; j < n; j++)
            zi += a[(long)i * n + j] * y[j];
        z[i] = zi;
        err = fmax(err, fabs(w[i] - zi));
        scale = fmax(scale, fabs(zi));
    }
    /* 16 entries of C, each against its dot product */
    for (int t = 0; t < 16; t++) {
        int i, j;
        double d = 0;
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        i = (int)((s >> 33) % (unsigned)n);
        j = (int)((s >> 13) % (unsigned)n);
        for (int k = 0; k < n; k++)
            d += a[(long)i * n + k] * b[(long)k * n + j];
        sample_err = fmax(sample_err, fabs(d - c[(long)i * n + j]));
    }
    for (long i = 0; i < (long)n * n; i++)
        sum += c[i];
    ok = err <= 1e-9 * (scale + 1) && sample_err <= 1e-9 * (n + 1);
    printf("matmul: n = %d\n", n);
    printf("matmul: C*x against A*(B*x) %s (max difference %.3g)\n", err <= 1e-9 * (scale + 1) ? "OK" : "BAD", err);
    printf("matmul: 16 entries %s\n", sample_err <= 1e-9 * (n + 1) ? "OK" : "BAD");
    printf("matmul: checksum %.10g\n", sum);
    free(a);
    free(b);
    free(c);
    free(x);
    free(y);
    free(z);
    free(w);
    return ok ? 0 : 1;
}
