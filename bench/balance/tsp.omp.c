/* tsp.omp.c - tsp.wtc with OpenMP tasks: the same search and cut-off (a task per child
 * while depth < 3), the best length shared by all tasks: read atomically, lowered in
 * a critical section.
 *
 *   OMP_NUM_THREADS=2 ./tsp.omp [N [SEED]]   N random cities (3..20, default 16) of instance SEED
 *
 * Tours start at city 0; a node is a path (its last city, the set visited, its
 * length). Lower bound: the length plus, for the last city and every unvisited one,
 * its shortest edge. Children: the unvisited cities, nearest first; in a par while
 * the node is less than 3 levels deep (wtc_depth < 3). The incumbent starts at the
 * nearest-neighbour tour and is lowered with wtc_share_min at every complete tour.
 *
 * Self-check: the length equals the optimum from Held-Karp's dynamic programming
 * (after the timed part).
 * The time goes to stderr ("TIME tsp <seconds>").
 */
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <omp.h>

#define MAXN 20

static int n;
static int d[MAXN][MAXN];        /* distances, rounded */
static int near[MAXN][MAXN];     /* near[c]: the other cities, nearest first */
static int minedge[MAXN];        /* the shortest edge of each city */
static int best_len;             /* the shortest tour anyone has found */

/* wtc_share_min(best_len, v): best_len lowered to v; returns best_len after. */
static int share_min(int v)
{
    int b;

#pragma omp atomic read
    b = best_len;
    if (b <= v)
        return b;
#pragma omp critical(tsp_best)
    {
        if (v < best_len) {
#pragma omp atomic write
            best_len = v;
        }
        b = best_len;
    }
    return b;
}

static int read_best(void)
{
    int b;

#pragma omp atomic read
    b = best_len;
    return b;
}

static int tsp(int last, unsigned visited, int len, int left, int depth)
{
    int r[MAXN], bound = len + minedge[last], best = INT_MAX;

    if (left == 0)
        return share_min(len + d[last][0]);
    for (int c = 1; c < n; c++)
        if (!(visited >> c & 1))
            bound += minedge[c];
    if (bound >= read_best())
        return INT_MAX;
    for (int k = 0; k < n; k++)
        r[k] = INT_MAX;
    for (int k = 0; k <= n - 2; k++) {
        int c = near[last][k];
        if (c != 0 && !(visited >> c & 1) && len + d[last][c] < read_best()) {
            if (depth < 3) {
#pragma omp task firstprivate(k, c) shared(r)
                r[k] = tsp(c, visited | 1u << c, len + d[last][c], left - 1, depth + 1);
            } else
                r[k] = tsp(c, visited | 1u << c, len + d[last][c], left - 1, depth + 1);
        }
    }
    if (depth < 3) {
#pragma omp taskwait
    }
    for (int k = 0; k < n - 1; k++)
        if (r[k] < best)
            best = r[k];
    return best;
}

/* Held-Karp: the shortest tour, O(2^n n^2). */
static int held_karp(void)
{
    int full = 1 << (n - 1), res = INT_MAX;
    int *f = malloc((size_t)full * (size_t)n * sizeof *f);

    if (f == NULL) {
        fprintf(stderr, "tsp: out of memory\n");
        exit(2);
    }
    /* f[s * n + j]: the shortest path from 0 through set s (of cities 1..n-1, bit
       c-1) ending at j (in s) */
    for (int s = 1; s < full; s++)
        for (int j = 1; j < n; j++) {
            int v = INT_MAX;
            if (!(s >> (j - 1) & 1))
                continue;
            int s0 = s & ~(1 << (j - 1));
            if (s0 == 0)
                v = d[0][j];
            else
                for (int i = 1; i < n; i++)
                    if ((s0 >> (i - 1) & 1) && f[s0 * n + i] + d[i][j] < v)
                        v = f[s0 * n + i] + d[i][j];
            f[s * n + j] = v;
        }
    for (int j = 1; j < n; j++)
        if (f[(full - 1) * n + j] + d[j][0] < res)
            res = f[(full - 1) * n + j] + d[j][0];
    free(f);
    return res;
}

static unsigned long long next(unsigned long long *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545f4914f6cdd1dULL;
}

int main(int argc, char **argv)
{
    long seed = argc > 2 ? atol(argv[2]) : 1;
    unsigned long long s = 0x9e3779b97f4a7c15ULL * ((unsigned long long)seed + 1);
    int x[MAXN], y[MAXN], found, opt, greedy = 0;
    unsigned seen = 1;
    double t0;

    n = argc > 1 ? atoi(argv[1]) : 16;
    if (n < 3 || n > MAXN || seed < 0) {
        fprintf(stderr, "usage: tsp [N in 3..%d [SEED >= 0]]\n", MAXN);
        return 2;
    }
    for (int i = 0; i < n; i++) {
        x[i] = (int)(next(&s) % 10000);
        y[i] = (int)(next(&s) % 10000);
    }
    for (int i = 0; i < n; i++) {
        minedge[i] = INT_MAX;
        for (int j = 0; j < n; j++) {
            double dx = x[i] - x[j], dy = y[i] - y[j], e = dx * dx + dy * dy;
            int k = 0;
            while ((double)(k + 1) * (k + 1) <= e) /* floor(sqrt), exactly */
                k++;
            d[i][j] = k;
            if (i != j && k < minedge[i])
                minedge[i] = k;
        }
    }
    for (int i = 0; i < n; i++) { /* near[i]: the others by distance (insertion) */
        int m = 0;
        for (int j = 0; j < n; j++) {
            int p = m++;
            if (j == i) {
                m--;
                continue;
            }
            while (p > 0 && d[i][near[i][p - 1]] > d[i][j]) {
                near[i][p] = near[i][p - 1];
                p--;
            }
            near[i][p] = j;
        }
    }
    for (int c = 0, k = 1; k < n; k++) { /* the nearest-neighbour tour */
        int b = -1;
        for (int j = 0; j < n; j++)
            if (!(seen >> j & 1) && (b < 0 || d[c][j] < d[c][b]))
                b = j;
        greedy += d[c][b];
        seen |= 1u << b;
        c = b;
        if (k == n - 1)
            greedy += d[b][0];
    }
    best_len = greedy + 1;
    t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
    found = tsp(0, 1, 0, n - 1, 0);
    fprintf(stderr, "TIME tsp %.6f\n", omp_get_wtime() - t0);
    opt = held_karp();
    if (found == INT_MAX)
        found = greedy;
    printf("tsp: %d cities, seed %ld: nearest neighbour %d, best %d, optimum %d: %s\n", n, seed,
           greedy, found, opt, found == opt ? "OK" : "BAD");
    return found != opt;
}
