/* mandel.omp.c - mandel.wtc with OpenMP tasks: the same farm, one task per row.
 *
 *   cc -O2 -fopenmp mandel.omp.c && OMP_NUM_THREADS=2 ./a.out [W [H]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define MAXIT 1000

int W = 1280, H = 1280;

/* Iterations before the orbit of pixel (x, y) leaves the disc of radius 2. */
static int escape(int x, int y)
{
    double cr = -2.1 + 2.8 * x / W, ci = -1.4 + 2.8 * y / H;
    double zr = 0.0, zi = 0.0, zr2 = 0.0, zi2 = 0.0;
    int k = 0;

    while (k < MAXIT && zr2 + zi2 <= 4.0) {
        zi = 2.0 * zr * zi + ci;
        zr = zr2 - zi2 + cr;
        zr2 = zr * zr;
        zi2 = zi * zi;
        k++;
    }
    return k;
}

/* One task: the iteration counts of row y. */
static void row(int y, int *line)
{
    for (int x = 0; x < W; x++)
        line[x] = escape(x, y);
}

int main(int argc, char **argv)
{
    unsigned long long iterations = 0;
    long inside = 0, wrong = 0;
    double t0;
    int *img;

    if (argc > 1)
        W = H = atoi(argv[1]);
    if (argc > 2)
        H = atoi(argv[2]);
    if (W < 1 || H < 1 || W > 16384 || H > 16384) {
        fprintf(stderr, "usage: mandel [W [H]] (1..16384)\n");
        return 2;
    }
    img = malloc((size_t)W * H * sizeof *img);
    if (img == NULL) {
        fprintf(stderr, "mandel: out of memory\n");
        return 2;
    }

    t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
    {
        for (int y = 0; y <= H - 1; y++) {
#pragma omp task
            row(y, &img[(size_t)y * W]);
        }
#pragma omp taskwait
    }
    fprintf(stderr, "TIME mandel %.6f\n", omp_get_wtime() - t0);

    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int k = img[(size_t)y * W + x];
            iterations += k;
            inside += k == MAXIT;
            if (y % 41 == 0 && k != escape(x, y))
                wrong++;
        }
    printf("mandel: %d x %d, at most %d iterations\n", W, H, MAXIT);
    printf("mandel: inside %ld, iterations %llu\n", inside, iterations);
    printf("mandel: rows checked %s\n", wrong == 0 ? "OK" : "BAD");
    free(img);
    return wrong == 0 ? 0 : 1;
}
