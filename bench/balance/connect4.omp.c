/* connect4.omp.c - connect4.wtc with OpenMP tasks: the same search, the young
 * brothers as tasks in the first CUTOFF plies. Game-tree search: alpha-beta (negamax) on Connect Four, 7 x 6.
 *
 *   OMP_NUM_THREADS=2 ./connect4.omp [DEPTH]   plies searched (default 13) from the position
 *                                     after the opening 3 3 2 4 (columns 0..6)
 *
 * Young brothers wait: at each node the first move (centre first) is searched on its
 * own, then the other moves in a par with the window it gave (the siblings do not
 * tighten each other's window), in the first 3 plies (CUTOFF); below that the
 * search is the plain sequential alpha-beta (ab_seq), as knapsack.wtc cuts. A move that wins at once ends the node; at depth 0 the
 * position is scored by its open lines (windows of four holding one player's stones
 * only: 1, 4, 32 for one, two, three stones).
 *
 * Self-check: the value against the table in main (ab_seq's, the plain alpha-beta,
 * from the same position, depths 10-13); other depths print "?"; "connect4 DEPTH
 * check" runs ab_seq after the timed part and compares.
 * The time goes to stderr ("TIME connect4 <seconds>").
 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define W 7
#define H 6
#define WIN 1000000
#ifndef CUTOFF
#define CUTOFF 3
#endif

struct pos {
    signed char c[W * H]; /* c[col * H + row]: 0 empty, 1 / -1 the players */
    signed char h[W];     /* stones in each column */
};

static const int order[W] = {3, 2, 4, 1, 5, 0, 6};

/* Does the stone just played at (col, row) by player make four? */
static int wins(const struct pos *p, int col, int row, int player)
{
    static const int dc[4] = {1, 0, 1, 1}, dr[4] = {0, 1, 1, -1};

    for (int d = 0; d < 4; d++) {
        int n = 1;
        for (int s = -1; s <= 1; s += 2)
            for (int k = 1; k < 4; k++) {
                int c = col + s * k * dc[d], r = row + s * k * dr[d];
                if (c < 0 || c >= W || r < 0 || r >= H || p->c[c * H + r] != player)
                    break;
                n++;
            }
        if (n >= 4)
            return 1;
    }
    return 0;
}

/* The open lines of the position, for player. */
static int eval(const struct pos *p, int player)
{
    static const int dc[4] = {1, 0, 1, 1}, dr[4] = {0, 1, 1, -1};
    static const int score[4] = {0, 1, 4, 32};
    int s = 0;

    for (int c = 0; c < W; c++)
        for (int r = 0; r < H; r++)
            for (int d = 0; d < 4; d++) {
                int ec = c + 3 * dc[d], er = r + 3 * dr[d], mine = 0, theirs = 0;
                if (ec < 0 || ec >= W || er < 0 || er >= H)
                    continue;
                for (int k = 0; k < 4; k++) {
                    int v = p->c[(c + k * dc[d]) * H + r + k * dr[d]];
                    mine += v == player;
                    theirs += v == -player;
                }
                if (theirs == 0)
                    s += score[mine < 4 ? mine : 3];
                else if (mine == 0)
                    s -= score[theirs < 4 ? theirs : 3];
            }
    return s;
}

/* 1 if player to move has a move that wins at once. */
static int win_now(struct pos *p, int player)
{
    for (int c = 0; c < W; c++)
        if (p->h[c] < H) {
            int r = p->h[c], w;
            p->c[c * H + r] = (signed char)player;
            w = wins(p, c, r, player);
            p->c[c * H + r] = 0;
            if (w)
                return 1;
        }
    return 0;
}

/* Plain alpha-beta, the value of p for player to move. */
static int ab_seq(struct pos *p, int player, int depth, int alpha, int beta)
{
    int best = -WIN - 100, any = 0;

    if (win_now(p, player))
        return WIN + depth;
    if (depth == 0)
        return eval(p, player);
    for (int k = 0; k < W; k++) {
        int c = order[k], r = p->h[c], v;
        if (r >= H)
            continue;
        any = 1;
        p->c[c * H + r] = (signed char)player;
        p->h[c]++;
        v = -ab_seq(p, -player, depth - 1, -beta, -alpha);
        p->h[c]--;
        p->c[c * H + r] = 0;
        if (v > best)
            best = v;
        if (v > alpha)
            alpha = v;
        if (alpha >= beta)
            break;
    }
    return any ? best : 0;
}

/* The same, young brothers wait: the first move alone, then the others as tasks. */
static int ab(struct pos p, int player, int depth, int alpha, int beta, int ply)
{
    int best, first = -1, r[W];

    if (ply >= CUTOFF)
        return ab_seq(&p, player, depth, alpha, beta);
    if (win_now(&p, player))
        return WIN + depth;
    if (depth == 0)
        return eval(&p, player);
    for (int k = 0; k < W && first < 0; k++)
        if (p.h[order[k]] < H)
            first = k;
    if (first < 0)
        return 0;
    {
        struct pos q = p;
        int c = order[first];
        q.c[c * H + q.h[c]] = (signed char)player;
        q.h[c]++;
        best = -ab(q, -player, depth - 1, -beta, -alpha, ply + 1);
    }
    if (best >= beta)
        return best;
    if (best > alpha)
        alpha = best;
    for (int k = 0; k < W; k++)
        r[k] = WIN + 100;
    for (int k = first + 1; k <= W - 1; k++) {
        int c = order[k];
        if (p.h[c] < H) {
#pragma omp task firstprivate(k, c) shared(r, p)
            {
                struct pos q = p;
                q.c[c * H + q.h[c]] = (signed char)player;
                q.h[c]++;
                r[k] = ab(q, -player, depth - 1, -beta, -alpha, ply + 1);
            }
        }
    }
#pragma omp taskwait
    for (int k = first + 1; k < W; k++)
        if (-r[k] > best)
            best = -r[k];
    return best;
}

int main(int argc, char **argv)
{
    int depth = argc > 1 ? atoi(argv[1]) : 13, player = 1, v;
    static const int opening[] = {3, 3, 2, 4};
    struct pos p = {{0}, {0}};
    double t0;

    if (depth < 1 || depth > 30) {
        fprintf(stderr, "usage: connect4 [DEPTH in 1..30]\n");
        return 2;
    }
    for (int i = 0; i < 4; i++) {
        int c = opening[i];
        p.c[c * H + p.h[c]++] = (signed char)player;
        player = -player;
    }
    t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
    v = ab(p, player, depth, -WIN - 100, WIN + 100, 0);
    fprintf(stderr, "TIME connect4 %.6f\n", omp_get_wtime() - t0);
    if (argc > 2) { /* connect4 DEPTH check: the plain alpha-beta's value too */
        int s = ab_seq(&p, player, depth, -WIN - 100, WIN + 100);
        printf("connect4: depth %d: value %d, plain alpha-beta %d: %s\n", depth, v, s,
               v == s ? "OK" : "BAD");
        return v != s;
    }
    {
        /* the plain alpha-beta's values (connect4 DEPTH check) */
        static const int expect[14] = {[10] = -12, [11] = 18, [12] = -12, [13] = 18};
        const char *ok = depth >= 10 && depth <= 13 ? (v == expect[depth] ? "OK" : "BAD") : "?";
        printf("connect4: depth %d: value %d: %s\n", depth, v, ok);
        return ok[0] == 'B';
    }
}
