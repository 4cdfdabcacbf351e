/* sparselu.omp.c - sparselu.wtc with OpenMP tasks, as BOTS' sparselu_single: per step
 * lu0 by the single thread, a task per fwd and per bdiv, a taskwait, a task per bmod
 * (its fill-in block allocated before the task is created), a taskwait.
 *
 *   cc -O2 -fopenmp sparselu.omp.c -lm && OMP_NUM_THREADS=2 ./a.out [NB [BS]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <omp.h>

#define MAXNB 128

static int BS; /* block size: set once in main, before any region */

static double *alloc_block(int zero)
{
    double *p = zero ? calloc((size_t)BS * BS, sizeof *p) : malloc((size_t)BS * BS * sizeof *p);

    if (p == NULL) {
        fprintf(stderr, "sparselu: out of memory\n");
        exit(2);
    }
    return p;
}

/* the diagonal block: L (unit, below the diagonal) and U in place */
static void lu0(double *d, int bs)
{
    for (int k = 0; k < bs; k++)
        for (int i = k + 1; i < bs; i++) {
            d[i * bs + k] /= d[k * bs + k];
            for (int j = k + 1; j < bs; j++)
                d[i * bs + j] -= d[i * bs + k] * d[k * bs + j];
        }
}

/* col = L^-1 col: a block right of the diagonal */
static void fwd(double *d, double *col, int bs)
{
    for (int k = 0; k < bs; k++)
        for (int i = k + 1; i < bs; i++) {
            double l = d[i * bs + k];
            for (int j = 0; j < bs; j++)
                col[i * bs + j] -= l * col[k * bs + j];
        }
}

/* row = row U^-1: a block below the diagonal */
static void bdiv(double *d, double *row, int bs)
{
    for (int i = 0; i < bs; i++)
        for (int k = 0; k < bs; k++) {
            double r = row[i * bs + k] /= d[k * bs + k];
            for (int j = k + 1; j < bs; j++)
                row[i * bs + j] -= r * d[k * bs + j];
        }
}

/* inner -= row * col */
static void bmod(double *row, double *col, double *inner, int bs)
{
    for (int i = 0; i < bs; i++)
        for (int k = 0; k < bs; k++) {
            double r = row[i * bs + k];
            for (int j = 0; j < bs; j++)
                inner[i * bs + j] -= r * col[k * bs + j];
        }
}

/* BOTS' genmat: the sparsity pattern and the values (made diagonally dominant, so
   that the factorisation without pivoting is stable enough for the check) */
static void genmat(double *M[MAXNB][MAXNB], int nb)
{
    int init_val = 1325;

    for (int ii = 0; ii < nb; ii++)
        for (int jj = 0; jj < nb; jj++) {
            int null_entry = 0;
            if (ii < jj && ii % 3 != 0)
                null_entry = 1;
            if (ii > jj && jj % 3 != 0)
                null_entry = 1;
            if (ii % 2 == 1)
                null_entry = 1;
            if (jj % 2 == 1)
                null_entry = 1;
            if (ii == jj || ii == jj - 1 || ii - 1 == jj)
                null_entry = 0;
            if (null_entry) {
                M[ii][jj] = NULL;
                continue;
            }
            M[ii][jj] = alloc_block(0);
            for (int i = 0; i < BS; i++)
                for (int j = 0; j < BS; j++) {
                    init_val = (3125 * init_val) % 65536;
                    M[ii][jj][i * BS + j] = (init_val - 32768.0) / 16384.0 +
                                            (ii == jj && i == j ? 4.0 * BS : 0.0);
                }
        }
}

int main(int argc, char **argv)
{
    static double *A[MAXNB][MAXNB], *O[MAXNB][MAXNB];
    int nb = argc > 1 ? atoi(argv[1]) : 28, fill = 0, nblocks = 0;
    double *x, *y, *z, t0, err = 0, scale = 0, sum = 0;
    unsigned long long s = 777; /* LCG state: fixed seed */
    long n;

    BS = argc > 2 ? atoi(argv[2]) : 100;
    if (nb < 1 || nb > MAXNB || BS < 1 || BS > 1000) {
        fprintf(stderr, "usage: sparselu [NB in 1..%d [BS in 1..1000]]\n", MAXNB);
        return 2;
    }
    genmat(A, nb);

    t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
    for (int kk = 0; kk < nb; kk++) {
        lu0(A[kk][kk], BS);
        for (int jj = kk + 1; jj < nb; jj++)
            if (A[kk][jj] != NULL) {
#pragma omp task firstprivate(kk, jj) shared(A)
                fwd(A[kk][kk], A[kk][jj], BS);
            }
        for (int ii = kk + 1; ii < nb; ii++)
            if (A[ii][kk] != NULL) {
#pragma omp task firstprivate(kk, ii) shared(A)
                bdiv(A[kk][kk], A[ii][kk], BS);
            }
#pragma omp taskwait
        for (int ii = kk + 1; ii < nb; ii++)
            if (A[ii][kk] != NULL)
                for (int jj = kk + 1; jj < nb; jj++)
                    if (A[kk][jj] != NULL) {
                        if (A[ii][jj] == NULL) {
                            A[ii][jj] = alloc_block(1);
                            fill++;
                        }
#pragma omp task firstprivate(kk, ii, jj) shared(A)
                        bmod(A[ii][kk], A[kk][jj], A[ii][jj], BS);
                    }
#pragma omp taskwait
    }
    fprintf(stderr, "TIME sparselu %.6f\n", omp_get_wtime() - t0);

    /* z = L*(U*x) from the factors, y = A*x from the original matrix */
    genmat(O, nb);
    n = (long)nb * BS;
    x = malloc(n * sizeof *x);
    y = calloc(n, sizeof *y);
    z = calloc(n, sizeof *z);
    if (x == NULL || y == NULL || z == NULL)
        return 2;
    for (long i = 0; i < n; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        x[i] = (double)(s >> 11) / 9007199254740992.0 - 0.5;
    }
    for (int ii = 0; ii < nb; ii++) /* y = U*x (upper blocks, diagonal included) */
        for (int jj = ii; jj < nb; jj++) {
            const double *u = A[ii][jj];
            if (u == NULL)
                continue;
            for (int i = 0; i < BS; i++)
                for (int j = ii == jj ? i : 0; j < BS; j++)
                    y[(long)ii * BS + i] += u[i * BS + j] * x[(long)jj * BS + j];
        }
    for (int ii = 0; ii < nb; ii++) /* z = L*y (unit diagonal) */
        for (int jj = 0; jj <= ii; jj++) {
            const double *l = A[ii][jj];
            if (l == NULL)
                continue;
            for (int i = 0; i < BS; i++) {
                double acc = 0;
                for (int j = 0; j < (ii == jj ? i : BS); j++)
                    acc += l[i * BS + j] * y[(long)jj * BS + j];
                z[(long)ii * BS + i] += acc + (ii == jj ? y[(long)ii * BS + i] : 0);
            }
        }
    memset(y, 0, n * sizeof *y); /* y = A*x, the original matrix */
    for (int ii = 0; ii < nb; ii++)
        for (int jj = 0; jj < nb; jj++) {
            const double *o = O[ii][jj];
            if (o == NULL)
                continue;
            for (int i = 0; i < BS; i++)
                for (int j = 0; j < BS; j++)
                    y[(long)ii * BS + i] += o[i * BS + j] * x[(long)jj * BS + j];
        }
    for (long i = 0; i < n; i++) {
        err = fmax(err, fabs(z[i] - y[i]));
        scale = fmax(scale, fabs(y[i]));
    }
    for (int ii = 0; ii < nb; ii++)
        for (int jj = 0; jj < nb; jj++) {
            if (A[ii][jj] != NULL) {
                nblocks++;
                for (int i = 0; i < BS * BS; i++)
                    sum += A[ii][jj][i] * (double)(i % 5 + 1);
            }
            free(A[ii][jj]);
            free(O[ii][jj]);
        }
    printf("sparselu: %d x %d blocks of %d x %d, %d blocks after %d fill-ins\n", nb, nb,
           BS, BS, nblocks, fill);
    printf("sparselu: L*U*x against A*x %s\n", err <= 1e-9 * (scale + 1) ? "OK" : "BAD");
    printf("sparselu: checksum %.12e\n", sum);
    free(x);
    free(y);
    free(z);
    return err <= 1e-9 * (scale + 1) ? 0 : 1;
}
