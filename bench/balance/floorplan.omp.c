/* floorplan.omp.c - floorplan.wtc with OpenMP tasks: the same instance, candidates,
 * search order and cut-off (a task per candidate of cells 0..CUTOFF-1, each with its own
 * copy of the board, then taskwait; the sequential depth-first search below), and the
 * same incumbent: passed down as an argument, so the tree and the work are plain C's
 * whatever the threads do.
 *
 *   cc -O2 -fopenmp [-DCUTOFF=2] floorplan.omp.c && OMP_NUM_THREADS=2 ./a.out [N [SEED]]
 *
 * BOTS' floorplan shares the least area found so far between all tasks (a global
 * updated under omp critical): that is floorplan_share.omp.c, the twin of
 * floorplan_share.wtc (wtc_share_min). Sharing it here would compare a smaller tree with
 * the .wtc's (knapsack.omp.c's lesson).
 *
 * A lone candidate (cell 0 of the default instance has one shape) runs in the thread
 * that finds it, as an undeferred task: libgomp's taskwait runs only the waiting task's
 * own children, so when the other thread took the root's only child, the first one
 * waited in the root's taskwait for the whole search (measured for floorplan.omp.c:
 * 1 node against 4 791 121, 0.91 s instead of 0.42 s, in some runs and not others).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

#ifndef CUTOFF
#define CUTOFF 3
#endif

#define MAXN 32
#define ROWS 64
#define COLS 64
#define MAXC 78 /* candidates of a cell: 3 shapes x (19 places on the right + 7 below) */

struct shape {
    int w, h;
};

struct cell {
    int n;                 /* shapes */
    struct shape s[3];
};

/* a placed cell: its top row, left column, and shape */
struct spot {
    int r, c, h, w;
};

static int ncells;
static struct cell cells[MAXN];

/* The places of cell id next to the cell before it ('prev'), in c[]; returns how many.
   Cell 0 goes to the corner. */
static int candidates(int id, const char *board, struct spot prev, struct spot *c)
{
    int k = 0;

    for (int s = 0; s < cells[id].n; s++) {
        int w = cells[id].s[s].w, h = cells[id].s[s].h;

        if (id == 0) {
            c[k++] = (struct spot){0, 0, h, w};
            continue;
        }
        for (int r = prev.r - h + 1; r < prev.r + prev.h; r++) /* on its right */
            c[k++] = (struct spot){r, prev.c + prev.w, h, w};
        for (int col = prev.c - w + 1; col < prev.c + prev.w; col++) /* below it */
            c[k++] = (struct spot){prev.r + prev.h, col, h, w};
    }
    /* keep those on the board that overlap nothing */
    int m = 0;
    for (int i = 0; i < k; i++) {
        int ok = c[i].r >= 0 && c[i].c >= 0 && c[i].r + c[i].h <= ROWS &&
                 c[i].c + c[i].w <= COLS;
        for (int y = c[i].r; ok && y < c[i].r + c[i].h; y++)
            for (int x = c[i].c; x < c[i].c + c[i].w; x++)
                if (board[y * COLS + x]) {
                    ok = 0;
                    break;
                }
        if (ok)
            c[m++] = c[i];
    }
    return m;
}

/* Lay cell id down at spot s on board b. */
static void lay(char *b, int id, struct spot s)
{
    for (int y = s.r; y < s.r + s.h; y++)
        memset(&b[y * COLS + s.c], id + 1, (size_t)s.w);
}

/* The least area of a placement of cells id.. on the board, below 'best' (else
   'best'), depth first: each child gets the best its elder siblings found. */
static int place_seq(int id, const char *board, int fr, int fc, struct spot prev, int best)
{
    struct spot c[MAXC];
    int nc = candidates(id, board, prev, c);

    for (int k = 0; k < nc; k++) {
        char b[ROWS * COLS];
        int r = fr > c[k].r + c[k].h ? fr : c[k].r + c[k].h;
        int q = fc > c[k].c + c[k].w ? fc : c[k].c + c[k].w;

        if (r * q >= best) /* pruned */
            continue;
        if (id == ncells - 1) { /* all placed */
            best = r * q;
            continue;
        }
        memcpy(b, board, sizeof b);
        lay(b, id, c[k]);
        best = place_seq(id + 1, b, r, q, c[k], best);
    }
    return best;
}

/* The same, a task per candidate of cells 0..CUTOFF-1, each with its own board. */
static int place(int id, const char *board, int fr, int fc, struct spot prev, int best)
{
    struct spot c[MAXC];
    int area[MAXC];
    int nc;

    if (id >= CUTOFF)
        return place_seq(id, board, fr, fc, prev, best);
    nc = candidates(id, board, prev, c);
    for (int k = 0; k < nc; k++) {
        int r = fr > c[k].r + c[k].h ? fr : c[k].r + c[k].h;
        int q = fc > c[k].c + c[k].w ? fc : c[k].c + c[k].w;

        area[k] = best;
        if (r * q >= best) /* pruned */
            continue;
        if (id == ncells - 1) {
            area[k] = r * q;
            continue;
        }
#pragma omp task shared(c, area) firstprivate(k, r, q) if (nc > 1)
        {
            char b[ROWS * COLS];

            memcpy(b, board, sizeof b);
            lay(b, id, c[k]);
            area[k] = place(id + 1, b, r, q, c[k], best);
        }
    }
#pragma omp taskwait
    for (int k = 0; k < nc; k++)
        if (area[k] < best)
            best = area[k];
    return best;
}

/* The instance generator: a 64-bit LCG (Knuth's MMIX constants), its high bits. */
static unsigned rnd(unsigned long long *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)(*s >> 33);
}

/* Areas found by place_seq from the root, by the sequential search itself. */
static const struct {
    int n;
    long seed;
    int area;
} known[] = {
    {13, 1, 92}, /* the default */
    {8, 1, 48},
};

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 13;
    long seed = argc > 2 ? atol(argv[2]) : 1;
    unsigned long long s = 0x9e3779b97f4a7c15ULL * ((unsigned long long)seed + 1);
    static char board[ROWS * COLS];
    int found, opt = -1;
    const char *how = "the sequential search";
    double t0;

    if (n < 2 || n > MAXN || seed < 0) {
        fprintf(stderr, "usage: floorplan [N in 2..%d [SEED >= 0]]\n", MAXN);
        return 2;
    }
    ncells = n;
    for (int i = 0; i < n; i++) {
        int a = 2 + (int)(rnd(&s) % 9);

        cells[i].n = 1 + (int)(rnd(&s) % 3);
        for (int k = 0; k < cells[i].n; k++) {
            cells[i].s[k].w = 1 + (int)(rnd(&s) % 4);
            cells[i].s[k].h = (a + cells[i].s[k].w - 1) / cells[i].s[k].w;
        }
    }
    t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
    found = place(0, board, 0, 0, (struct spot){0, 0, 0, 0}, ROWS * COLS + 1);
    fprintf(stderr, "TIME floorplan %.6f\n", omp_get_wtime() - t0);
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (known[i].n == n && known[i].seed == seed) {
            opt = known[i].area;
            how = "the known area";
        }
    if (opt < 0)
        opt = place_seq(0, board, 0, 0, (struct spot){0, 0, 0, 0}, ROWS * COLS + 1);
    printf("floorplan: %d cells, seed %ld: best area %d, cut-off cell %d, checked by %s: %s\n",
           n, seed, found, CUTOFF, how, found == opt ? "OK" : "BAD");
    return found == opt ? 0 : 1;
}
