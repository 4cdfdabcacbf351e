/* closest.omp.c - closest.wtc with OpenMP tasks (a task per half while n > 10000):
 * the closest pair of points in the plane, divide and conquer.
 *
 *   OMP_NUM_THREADS=2 ./closest.omp [N]       N random points (default 2000000)
 *
 * main makes the points sorted by x (point i has x in [i/N, (i+1)/N)). closest(p, n) returns the least distance
 * among p[0..n) and leaves p[0..n) sorted by y: both halves in a par (while n > 10000),
 * then their merge by y and the strip of width 2d around the dividing line, each
 * point against the next ones up to d above it. Below 32 points: all pairs, then an
 * insertion sort by y.
 *
 * Self-check: the distance against a grid search (cells of side at least the found
 * distance, about 2 points a cell: the true closest pair lies in neighbouring cells),
 * after the timed part.
 * The time goes to stderr ("TIME closest <seconds>").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

struct pt {
    double x, y;
};

static double dist(struct pt a, struct pt b)
{
    return sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y));
}

/* Merge p[0..m) and p[m..n), both sorted by y, into p[0..n) sorted by y. */
static void merge_y(struct pt *p, int m, int n)
{
    struct pt *t = malloc((size_t)n * sizeof *t);
    int i = 0, j = m, k = 0;

    if (t == NULL) {
        fprintf(stderr, "closest: out of memory\n");
        exit(2);
    }
    while (i < m && j < n)
        t[k++] = p[j].y < p[i].y ? p[j++] : p[i++];
    while (i < m)
        t[k++] = p[i++];
    while (j < n)
        t[k++] = p[j++];
    memcpy(p, t, (size_t)n * sizeof *t);
    free(t);
}

/* The least distance among p[0..n), which is sorted by y, with a pair closer than d
   across the line x = xm (else d). */
static double strip(const struct pt *p, int n, double xm, double d)
{
    struct pt *s = malloc((size_t)n * sizeof *s);
    int k = 0;

    if (s == NULL) {
        fprintf(stderr, "closest: out of memory\n");
        exit(2);
    }
    for (int i = 0; i < n; i++)
        if (fabs(p[i].x - xm) < d)
            s[k++] = p[i];
    for (int i = 0; i < k; i++)
        for (int j = i + 1; j < k && s[j].y - s[i].y < d; j++) {
            double e = dist(s[i], s[j]);
            if (e < d)
                d = e;
        }
    free(s);
    return d;
}

static double closest_seq(struct pt *p, int n)
{
    int lo[2] = {0, n / 2}, len[2] = {n / 2, n - n / 2};
    double half[2], xm, d;

    if (n < 32) {
        d = INFINITY;
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                if (dist(p[i], p[j]) < d)
                    d = dist(p[i], p[j]);
        for (int i = 1; i < n; i++) { /* by y */
            struct pt v = p[i];
            int j = i - 1;
            while (j >= 0 && p[j].y > v.y) {
                p[j + 1] = p[j];
                j--;
            }
            p[j + 1] = v;
        }
        return d;
    }
    xm = p[n / 2].x; /* p is sorted by x here */
    for (int h = 0; h <= 1; h++)
        half[h] = closest_seq(&p[lo[h]], len[h]);
    d = half[0] < half[1] ? half[0] : half[1];
    merge_y(p, n / 2, n);
    return strip(p, n, xm, d);
}

static double closest(struct pt *p, int n)
{
    int lo[2] = {0, n / 2}, len[2] = {n / 2, n - n / 2};
    double half[2], xm, d;

    if (!(n > 10000))
        return closest_seq(p, n);
    xm = p[n / 2].x;
    for (int h = 0; h <= 1; h++) {
#pragma omp task firstprivate(h) shared(half, lo, len)
        half[h] = closest(&p[lo[h]], len[h]);
    }
#pragma omp taskwait
    d = half[0] < half[1] ? half[0] : half[1];
    merge_y(p, n / 2, n);
    return strip(p, n, xm, d);
}

static unsigned long long next(unsigned long long *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545f4914f6cdd1dULL;
}

/* The least distance by a grid of cells of side 1/g >= d (d >= the true least
   distance). */
static double grid_check(const struct pt *p, int n, double d)
{
    int g = (int)sqrt(n / 2.0) + 1, *head, *link;
    double best = INFINITY;

    if (g > 1 / d)
        g = (int)(1 / d);
    if (g < 1)
        g = 1;
    head = malloc((size_t)g * g * sizeof *head);
    link = malloc((size_t)n * sizeof *link);
    if (head == NULL || link == NULL) {
        fprintf(stderr, "closest: out of memory\n");
        exit(2);
    }
    for (long i = 0; i < (long)g * g; i++)
        head[i] = -1;
    for (int i = 0; i < n; i++) {
        int cx = (int)(p[i].x * g), cy = (int)(p[i].y * g);
        link[i] = head[cx * g + cy];
        head[cx * g + cy] = i;
    }
    for (int i = 0; i < n; i++) {
        int cx = (int)(p[i].x * g), cy = (int)(p[i].y * g);
        for (int a = cx - 1; a <= cx + 1; a++)
            for (int b = cy - 1; b <= cy + 1; b++)
                if (a >= 0 && a < g && b >= 0 && b < g)
                    for (int j = head[a * g + b]; j >= 0; j = link[j])
                        if (j != i && dist(p[i], p[j]) < best)
                            best = dist(p[i], p[j]);
    }
    free(head);
    free(link);
    return best;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2000000;
    unsigned long long s = 777;
    struct pt *p;
    double d, e, t0;

    if (n < 2) {
        fprintf(stderr, "usage: closest [N >= 2]\n");
        return 2;
    }
    p = malloc((size_t)n * sizeof *p);
    if (p == NULL) {
        fprintf(stderr, "closest: out of memory\n");
        return 2;
    }
    for (int i = 0; i < n; i++) {
        p[i].x = (i + (double)(next(&s) >> 11) * 0x1p-53) / n;
        p[i].y = (double)(next(&s) >> 11) * 0x1p-53;
    }
    t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
    d = closest(p, n);
    fprintf(stderr, "TIME closest %.6f\n", omp_get_wtime() - t0);
    e = grid_check(p, n, d);
    printf("closest: %d points: %.9g, grid %.9g: %s\n", n, d, e, d == e ? "OK" : "BAD");
    free(p);
    return d != e;
}
