/* strassen.omp.c - strassen.wtc with OpenMP tasks: the same temporaries allocated per
 * call, the same seven products (as tasks while n > 64, with a taskwait) and the same
 * leaf loop.
 *
 *   cc -O2 -fopenmp strassen.omp.c -lm && OMP_NUM_THREADS=2 ./a.out [N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

#define LEAF 64 /* blocks of this size or smaller: triple loop */

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes);

    if (p == NULL) {
        fprintf(stderr, "strassen: out of memory\n");
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

/* quadrant q (0: top left, 1: top right, 2: bottom left, 3: bottom right) of the
   n x n block m into d (h x h, h = n/2) */
static void getq(const double *m, int n, int q, double *d)
{
    int h = n / 2, r0 = (q / 2) * h, c0 = (q % 2) * h;

    for (int i = 0; i < h; i++)
        memcpy(&d[i * h], &m[(r0 + i) * n + c0], (size_t)h * sizeof *d);
}

/* d = x + s*y, hh elements */
static void add(const double *x, const double *y, double s, double *d, int hh)
{
    for (int i = 0; i < hh; i++)
        d[i] = x[i] + s * y[i];
}

/* The seven products as tasks (every block above LEAF). */
static void strassen(double *a, double *b, double *c, int n)
{
    int h = n / 2, hh = h * h;
    double *A[4], *B[4], *L, *R, *M;

    if (n <= LEAF) {
        mm_leaf(a, b, c, n);
        return;
    }
    for (int q = 0; q < 4; q++) {
        A[q] = xmalloc((size_t)hh * sizeof(double));
        B[q] = xmalloc((size_t)hh * sizeof(double));
        getq(a, n, q, A[q]);
        getq(b, n, q, B[q]);
    }
    L = xmalloc((size_t)7 * hh * sizeof(double));
    R = xmalloc((size_t)7 * hh * sizeof(double));
    M = xmalloc((size_t)7 * hh * sizeof(double));
    add(A[0], A[3], 1, &L[0 * hh], hh); /* M1 = (A11+A22)(B11+B22) */
    add(B[0], B[3], 1, &R[0 * hh], hh);
    add(A[2], A[3], 1, &L[1 * hh], hh); /* M2 = (A21+A22) B11 */
    memcpy(&R[1 * hh], B[0], (size_t)hh * sizeof(double));
    memcpy(&L[2 * hh], A[0], (size_t)hh * sizeof(double)); /* M3 = A11 (B12-B22) */
    add(B[1], B[3], -1, &R[2 * hh], hh);
    memcpy(&L[3 * hh], A[3], (size_t)hh * sizeof(double)); /* M4 = A22 (B21-B11) */
    add(B[2], B[0], -1, &R[3 * hh], hh);
    add(A[0], A[1], 1, &L[4 * hh], hh); /* M5 = (A11+A12) B22 */
    memcpy(&R[4 * hh], B[3], (size_t)hh * sizeof(double));
    add(A[2], A[0], -1, &L[5 * hh], hh); /* M6 = (A21-A11)(B11+B12) */
    add(B[0], B[1], 1, &R[5 * hh], hh);
    add(A[1], A[3], -1, &L[6 * hh], hh); /* M7 = (A12-A22)(B21+B22) */
    add(B[2], B[3], 1, &R[6 * hh], hh);
    for (int q = 0; q < 4; q++) {
        free(A[q]);
        free(B[q]);
    }
    for (int i = 0; i <= 6; i++) {
#pragma omp task shared(L, R, M)
        strassen(&L[i * hh], &R[i * hh], &M[i * hh], h);
    }
#pragma omp taskwait
    free(L);
    free(R);
    {
        const double *m1 = M, *m2 = M + hh, *m3 = M + 2 * hh, *m4 = M + 3 * hh,
                     *m5 = M + 4 * hh, *m6 = M + 5 * hh, *m7 = M + 6 * hh;
        for (int i = 0; i < h; i++)
            for (int j = 0; j < h; j++) {
                int k = i * h + j;
                c[i * n + j] = m1[k] + m4[k] - m5[k] + m7[k];
                c[i * n + j + h] = m3[k] + m5[k];
                c[(i + h) * n + j] = m2[k] + m4[k];
                c[(i + h) * n + j + h] = m1[k] - m2[k] + m3[k] + m6[k];
            }
    }
    free(M);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1024, ok = 1;
    unsigned long long s = 12345; /* LCG state: fixed seed */
    double *a, *b, *c, *x, *y, sum = 0, t0;

    if (n < 1 || (n & (n - 1)) != 0) {
        fprintf(stderr, "usage: strassen [N, a power of two]\n");
        return 2;
    }
    a = xmalloc((size_t)n * n * sizeof *a);
    b = xmalloc((size_t)n * n * sizeof *b);
    c = xmalloc((size_t)n * n * sizeof *c);
    x = xmalloc((size_t)n * sizeof *x);
    y = xmalloc((size_t)n * sizeof *y);
    /* entries in -8..7: every sum of products stays an exact integer */
    for (long i = 0; i < (long)n * n; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        a[i] = (double)((int)(s >> 60) - 8);
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        b[i] = (double)((int)(s >> 60) - 8);
    }
    for (int i = 0; i < n; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        x[i] = (double)((int)(s >> 61) - 4);
    }

    t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
    strassen(a, b, c, n);
    fprintf(stderr, "TIME strassen %.6f\n", omp_get_wtime() - t0);

    /* y = B*x, then (A*y)_i against (C*x)_i, exactly */
    for (int i = 0; i < n; i++) {
        double yi = 0;
        for (int j = 0; j < n; j++)
            yi += b[(long)i * n + j] * x[j];
        y[i] = yi;
    }
    for (int i = 0; i < n; i++) {
        double zi = 0, wi = 0;
        for (int j = 0; j < n; j++) {
            zi += a[(long)i * n + j] * y[j];
            wi += c[(long)i * n + j] * x[j];
        }
        if (zi != wi)
            ok = 0;
    }
    for (long i = 0; i < (long)n * n; i++)
        sum += c[i] * (double)(i % 7 + 1);
    printf("strassen: n = %d\n", n);
    printf("strassen: C*x against A*(B*x) %s\n", ok ? "OK" : "BAD");
    printf("strassen: checksum %.17g\n", sum);
    free(a);
    free(b);
    free(c);
    free(x);
    free(y);
    return ok ? 0 : 1;
}
