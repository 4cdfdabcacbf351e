/* uts.omp.c - uts.wtc with OpenMP tasks: the same tree, the same hash, and, like the
 * .wtc, no cut-off (a task for every child that has children of its own).
 *
 *   cc -O2 -fopenmp uts.omp.c && OMP_NUM_THREADS=2 ./a.out
 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#ifndef UTS_B0
#define UTS_B0 2000                     /* children of the root */
#endif
#ifndef UTS_M
#define UTS_M 8                         /* children of an inner node */
#endif
#ifndef UTS_Q
#define UTS_Q 0.124875                  /* probability that a node has children */
#endif
#ifndef UTS_SEED
#define UTS_SEED 26                     /* the root's state */
#endif
#ifndef UTS_ROUNDS
#define UTS_ROUNDS 100                  /* hash rounds per node: the work */
#endif
#ifndef UTS_NODES
#define UTS_NODES 4085121L              /* the answer for the values above */
#endif

typedef unsigned long long u64;

/* A bijective 64-bit mix (the finalizer of splitmix64). */
static u64 mix(u64 z)
{
    z ^= z >> 30;
    z *= 0xbf58476d1ce4e5b9ULL;
    z ^= z >> 27;
    z *= 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The state of child i of the node with state s. */
static u64 child_state(u64 s, int i)
{
    u64 z = s + 0x9e3779b97f4a7c15ULL * (u64)(i + 1);
    for (int r = 0; r < UTS_ROUNDS; r++)
        z = mix(z);
    return z;
}

/* Does the (non-root) node with state s have children? P = UTS_Q. */
static int has_children(u64 s)
{
    return (double)(s >> 11) < UTS_Q * 9007199254740992.0;   /* 2^53 */
}

/* Nodes in the subtree of a node with children. */
static long subtree(u64 s)
{
    long cnt[UTS_M];
    long total = 1;

    for (int i = 0; i < UTS_M; i++) {
        u64 c = child_state(s, i);
        cnt[i] = 1;
        if (has_children(c)) {
#pragma omp task shared(cnt) firstprivate(c, i)
            cnt[i] = subtree(c);
        }
    }
#pragma omp taskwait
    for (int i = 0; i < UTS_M; i++)
        total += cnt[i];
    return total;
}

/* Nodes in the whole tree. */
static long tree(u64 seed)
{
    long cnt[UTS_B0];
    long total = 1;

    for (int i = 0; i < UTS_B0; i++) {
        u64 c = child_state(seed, i);
        cnt[i] = 1;
        if (has_children(c)) {
#pragma omp task shared(cnt) firstprivate(c, i)
            cnt[i] = subtree(c);
        }
    }
#pragma omp taskwait
    for (int i = 0; i < UTS_B0; i++)
        total += cnt[i];
    return total;
}

int main(void)
{
    long count = 0;
    double t0;

    t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
    count = tree(UTS_SEED);
    fprintf(stderr, "TIME uts %.6f\n", omp_get_wtime() - t0);
    printf("uts: b0 %d, m %d, q %g, seed %d: %ld nodes %s\n", UTS_B0, UTS_M, UTS_Q,
           UTS_SEED, count, count == UTS_NODES ? "OK" : "BAD");
    return count == UTS_NODES ? 0 : 1;
}
