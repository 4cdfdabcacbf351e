/* heat.omp.c - heat.wtc with OpenMP tasks: the same steps, halving and cut-off (a task
 * per half while rows > 10).
 *
 *   cc -O2 -fopenmp heat.omp.c && OMP_NUM_THREADS=2 ./a.out [NX [NY [NT]]]
 *
 * Each time step computes the next grid from the last by the five-point stencil
 * u' = u + c (north + south + east + west - 4 u); the border stays at its starting
 * value. A step is one region: step() halves the rows down to blocks of at most 10
 * (Cilk's leafmaxcol; the cut-off a user writes: rows > 10), each child reading its
 * rows and the row above and below (in: src[(rows + 2) * ny]) and writing its rows
 * (out: dst[rows * ny]). Then the two grids swap: NT regions of a few milliseconds,
 * each reading and writing the whole grid.
 *
 * Self-check: three bands of 8 rows (by the top border, in the middle, by the bottom
 * border) are computed again from the starting grid over windows wide enough (NT rows
 * on each side) that a window's wrong edges cannot reach its band in NT steps; each
 * band must be equal bit for bit.
 * The time of the steps goes to stderr ("TIME heat <seconds>").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

#define C 0.2
#define BAND 8

/* rows [1, rows] of src (each ny wide, with a row above and below) into rows [0, rows)
   of dst; the first and last column are the border, copied */
static void rows_next(const double *src, double *dst, int rows, int ny)
{
    for (int i = 1; i <= rows; i++) {
        const double *u = src + (size_t)i * ny, *n = u - ny, *s = u + ny;
        double *d = dst + (size_t)(i - 1) * ny;
        d[0] = u[0];
        for (int j = 1; j < ny - 1; j++)
            d[j] = u[j] + C * (n[j] + s[j] + u[j - 1] + u[j + 1] - 4.0 * u[j]);
        d[ny - 1] = u[ny - 1];
    }
}

static void step(double *src, double *dst, int rows, int ny)
{
    int h = rows / 2;

    if (rows <= 10) {
        rows_next(src, dst, rows, ny);
        return;
    }
    for (int i = 0; i <= 1; i++) {
#pragma omp task
        step(src + (size_t)(i ? h : 0) * ny, dst + (size_t)(i ? h : 0) * ny,
             i ? rows - h : h, ny);
    }
#pragma omp taskwait
}

static void start_grid(double *g, int ny, int row0, int rows)
{
    /* rows row0 .. row0 + rows - 1 of the (nx + 2) x ny starting grid: a hot left
       border, a warm top, hot spots inside */
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < ny; j++) {
            int r = row0 + i;
            double v = 0.0;
            if (j == 0)
                v = 100.0;
            else if (r == 0)
                v = 50.0;
            else if ((r * 7 + j * 13) % 97 == 0)
                v = 80.0;
            g[(size_t)i * ny + j] = v;
        }
}

/* The rows first .. first + BAND - 1 of grid g after nt steps, computed again from a
   window of the starting grid nt rows wider on each side (clipped to the grid, whose
   border rows are exact): the window's wrong edges cannot reach the band in nt steps.
   The number of values that differ. */
static int check_band(const double *g, int nx, int ny, int nt, int first)
{
    int wlo = first - nt - 1 < 0 ? 0 : first - nt - 1;
    int whi = first + BAND + nt + 1 > nx + 2 ? nx + 2 : first + BAND + nt + 1;
    int wrows = whi - wlo, bad = 0;
    double *p = malloc((size_t)wrows * ny * sizeof *p), *q = malloc((size_t)wrows * ny * sizeof *q);

    if (p == NULL || q == NULL) {
        fprintf(stderr, "heat: out of memory\n");
        exit(2);
    }
    start_grid(p, ny, wlo, wrows);
    memcpy(q, p, (size_t)wrows * ny * sizeof *p);
    for (int t = 0; t < nt; t++) {
        double *x = p;
        rows_next(p, q + ny, wrows - 2, ny);
        p = q;
        q = x;
    }
    for (int i = 0; i < BAND; i++)
        for (int j = 0; j < ny; j++)
            bad += p[(size_t)(first - wlo + i) * ny + j] != g[(size_t)(first + i) * ny + j];
    free(p);
    free(q);
    return bad;
}

int main(int argc, char **argv)
{
    int nx = argc > 1 ? atoi(argv[1]) : 4096, ny = argc > 2 ? atoi(argv[2]) : 512;
    int nt = argc > 3 ? atoi(argv[3]) : 200;
    double *a, *b, t0, sum = 0.0;
    int bad;

    if (nx < BAND || ny < 3 || nt < 1 || nx > 1 << 20 || ny > 1 << 20 || nt > 1 << 20) {
        fprintf(stderr, "usage: heat [NX (>= %d) [NY (>= 3) [NT (>= 1)]]]\n", BAND);
        return 2;
    }
    a = malloc((size_t)(nx + 2) * ny * sizeof *a);
    b = malloc((size_t)(nx + 2) * ny * sizeof *b);
    if (a == NULL || b == NULL) {
        fprintf(stderr, "heat: out of memory\n");
        return 2;
    }
    start_grid(a, ny, 0, nx + 2);
    memcpy(b, a, (size_t)(nx + 2) * ny * sizeof *a); /* the border rows of both */

    t0 = omp_get_wtime();
    for (int t = 0; t < nt; t++) {
        double *x = a;
#pragma omp parallel
#pragma omp single
        step(a, b + ny, nx, ny);
        a = b;
        b = x;
    }
    fprintf(stderr, "TIME heat %.6f\n", omp_get_wtime() - t0);

    /* three bands: by the top border, in the middle (the first split), by the bottom */
    bad = check_band(a, nx, ny, nt, 1) + check_band(a, nx, ny, nt, (nx + 2) / 2 - BAND / 2) +
          check_band(a, nx, ny, nt, nx + 1 - BAND);
    for (size_t k = 0; k < (size_t)(nx + 2) * ny; k++)
        sum += a[k];
    printf("heat: %d x %d, %d steps, heat in the grid %.6f, bands %s\n", nx, ny, nt, sum,
           bad ? "BAD" : "OK");
    free(a);
    free(b);
    return bad ? 1 : 0;
}
