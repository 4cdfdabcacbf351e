/* knapsack_share.omp.c - knapsack_share.wtc with OpenMP tasks: the same instance,
 * bounds, shared incumbent (read atomically at every node, raised in a critical
 * section) and cut-off.
 *
 *   cc -O2 -fopenmp [-DCUTOFF=6] knapsack_share.omp.c && OMP_NUM_THREADS=2 ./a.out [N [SEED]]
 *
 * Above the cut-off the thread runs the "take item 0" child itself and leaves the
 * "skip it" child as a task for another thread, the order the .wtc's par runs them in
 * (its first child here, the rest for other processors). With both children as tasks
 * (BOTS' knapsack) libgomp ran the skip child first and the search took 80 s instead of
 * 1.6 s on 150 items of seed 2: it found its good packings late.
 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#ifndef CUTOFF
#define CUTOFF 10
#endif

#define MAXN 200

struct item {
    long w, v;
};

static long shared_best; /* the best value any task has found */

/* The bounds of the items e[0..n) in a knapsack of capacity cap: *lo the value of
   the greedy packing, *hi that of the fractional relaxation, rounded down. */
static void bounds(const struct item *e, int n, long cap, long *lo, long *hi)
{
    long w = 0, v = 0;
    int i = 0;

    while (i < n && w + e[i].w <= cap) {
        w += e[i].w;
        v += e[i].v;
        i++;
    }
    *hi = v + (i < n ? (cap - w) * e[i].v / e[i].w : 0);
    for (; i < n; i++)
        if (w + e[i].w <= cap) {
            w += e[i].w;
            v += e[i].v;
        }
    *lo = v;
}

/* 'best' raised to the shared best, and the shared best to it: the incumbent of a node. */
static long incumbent(long best)
{
    long b;

#pragma omp atomic read
    b = shared_best;
    if (b >= best)
        return b;
#pragma omp critical(knapsack_best)
    if (best > shared_best) {
#pragma omp atomic write
        shared_best = best;
    }
    return best;
}

/* The bounds of a node: raises *best to value plus the greedy packing and to the
   shared best (and the shared best to it); 1 if nothing below can beat *best (always
   at a leaf, n == 0), so the node is pruned. */
static int pruned(const struct item *e, int n, long cap, long value, long *best)
{
    long lo, hi;

    bounds(e, n, cap, &lo, &hi);
    *best = incumbent(value + lo > *best ? value + lo : *best);
    return value + hi <= *best;
}

/* The best of 'best' and 'value' plus a packing of e[0..n) into cap, depth first:
   take item 0, then skip it with what taking it found. */
static long knap_seq(const struct item *e, int n, long cap, long value, long best)
{
    if (pruned(e, n, cap, value, &best))
        return best;
    if (e[0].w <= cap)
        best = knap_seq(&e[1], n - 1, cap - e[0].w, value + e[0].v, best);
    return knap_seq(&e[1], n - 1, cap, value, best);
}

/* The same at depth d, the two children as tasks while d < CUTOFF. */
static long knap(const struct item *e, int n, long cap, long value, long best, int d)
{
    long r[2];

    if (d >= CUTOFF)
        return knap_seq(e, n, cap, value, best);
    if (pruned(e, n, cap, value, &best))
        return best;
    if (e[0].w > cap) /* item 0 cannot be taken */
        return knap(&e[1], n - 1, cap, value, best, d + 1);
#pragma omp task shared(r) /* skip item 0: for another thread */
    r[1] = knap(&e[1], n - 1, cap, value, best, d + 1);
    r[0] = knap(&e[1], n - 1, cap - e[0].w, value + e[0].v, best, d + 1); /* take it */
#pragma omp taskwait
    return r[0] > r[1] ? r[0] : r[1];
}

/* The optimum by dynamic programming: best[c], the best value within capacity c. */
static long optimum(const struct item *e, int n, long cap)
{
    long *best = calloc((size_t)cap + 1, sizeof *best), r;

    if (best == NULL) {
        fprintf(stderr, "knapsack: out of memory\n");
        exit(2);
    }
    for (int i = 0; i < n; i++)
        for (long c = cap; c >= e[i].w; c--)
            if (best[c - e[i].w] + e[i].v > best[c])
                best[c] = best[c - e[i].w] + e[i].v;
    r = best[cap];
    free(best);
    return r;
}

/* xorshift64*: the instance generator, the same on every machine. */
static unsigned long long next(unsigned long long *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545f4914f6cdd1dULL;
}

/* Better ratio first (a.v / a.w > b.v / b.w), then the lighter. */
static int by_ratio(const void *pa, const void *pb)
{
    const struct item *a = pa, *b = pb;
    long d = b->v * a->w - a->v * b->w;

    if (d != 0)
        return d < 0 ? -1 : 1;
    return (a->w > b->w) - (a->w < b->w);
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 150;
    long seed = argc > 2 ? atol(argv[2]) : 2;
    unsigned long long s = 0x9e3779b97f4a7c15ULL * ((unsigned long long)seed + 1);
    struct item e[MAXN];
    long cap = 0, found = 0, opt;
    double t0;

    if (n < 2 || n > MAXN || seed < 0) {
        fprintf(stderr, "usage: knapsack_share [N in 2..%d [SEED >= 0]]\n", MAXN);
        return 2;
    }
    for (int i = 0; i < n; i++) {
        e[i].w = 2 * (1 + (long)(next(&s) % 500));
        e[i].v = e[i].w + 100;
        cap += e[i].w;
    }
    cap = cap / 2 | 1;
    qsort(e, (size_t)n, sizeof e[0], by_ratio);
    t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
    found = knap(e, n, cap, 0, 0, 0);
    fprintf(stderr, "TIME knapsack_share %.6f\n", omp_get_wtime() - t0);
    opt = optimum(e, n, cap);
    printf("knapsack: %d items, seed %ld, capacity %ld: best %ld, cut-off depth %d: %s\n", n,
           seed, cap, found, CUTOFF, found == opt ? "OK" : "BAD");
    return found == opt ? 0 : 1;
}
