/* sudoku.omp.c - sudoku.wtc with OpenMP tasks: count the solutions of a sudoku with few givens (an irregular search).
 *
 *   OMP_NUM_THREADS=2 ./sudoku.omp [MASK]   the puzzle below with the givens of MASK blanked
 *                                  (bit g: the g-th given from the end; default 4)
 *
 * Depth-first search: at each node, the empty cell with the fewest candidates; one
 * child per candidate digit, in a par while the node is less than 4 levels deep
 * (wtc_depth < 4). The subtrees differ in size by orders of magnitude (many die at
 * once, a few hold most of the solutions).
 *
 * Self-check: the count against the table below (plain C, this file): MASK 0: 1
 * solution, 1: 7309 (0.06 s), 4: 184622 (1.1 s), 2: 300891 (1.2 s); 3: 3481026 (13 s);
 * other MASKs print "?".
 * The time goes to stderr ("TIME sudoku <seconds>").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

/* A 17-clue-ish puzzle with a unique solution, row by row, 0 = empty. */
static const char *const puzzle =
    "000000010"
    "400000000"
    "020000000"
    "000050407"
    "008000300"
    "001090000"
    "300400200"
    "050100000"
    "000806000";

/* The candidates of cell c of board b as a bit mask (bits 1..9). */
static int cands(const char *b, int c)
{
    int r = c / 9, k = c % 9, used = 0;
    int br = r / 3 * 3, bk = k / 3 * 3;

    for (int i = 0; i < 9; i++) {
        used |= 1 << b[r * 9 + i];
        used |= 1 << b[i * 9 + k];
        used |= 1 << b[(br + i / 3) * 9 + bk + i % 3];
    }
    return ~used & 0x3fe;
}

/* The empty cell with the fewest candidates (-1: none empty; *mask its candidates). */
static int pick(const char *b, int *mask)
{
    int best = -1, bn = 10;

    for (int c = 0; c < 81; c++)
        if (b[c] == 0) {
            int m = cands(b, c), n = __builtin_popcount(m);
            if (n < bn) {
                bn = n;
                best = c;
                *mask = m;
                if (n <= 1)
                    break;
            }
        }
    return best;
}

static long count_seq(const char *b)
{
    long part[10] = {0}, total = 0;
    int mask = 0, c = pick(b, &mask);

    if (c < 0)
        return 1;
    for (int d = 1; d <= 9; d++)
        if (mask & 1 << d) {
            char nb[81];
            memcpy(nb, b, 81);
            nb[c] = (char)d;
            part[d] = count_seq(nb);
        }
    for (int d = 1; d <= 9; d++)
        total += part[d];
    return total;
}

/* A task per candidate while depth < 4 (wtc_depth < 4 in the .wtc). */
static long count(const char *b, int depth)
{
    long part[10] = {0}, total = 0;
    int mask = 0, c;

    if (!(depth < 4))
        return count_seq(b);
    c = pick(b, &mask);
    if (c < 0)
        return 1;
    for (int d = 1; d <= 9; d++)
        if (mask & 1 << d) {
#pragma omp task firstprivate(d) shared(part)
            {
                char nb[81];
                memcpy(nb, b, 81);
                nb[c] = (char)d;
                part[d] = count(nb, depth + 1);
            }
        }
#pragma omp taskwait
    for (int d = 1; d <= 9; d++)
        total += part[d];
    return total;
}

int main(int argc, char **argv)
{
    int mask = argc > 1 ? atoi(argv[1]) : 4;
    char b[81];
    long n;
    double t0;
    int given = 0;

    for (int c = 0; c < 81; c++)
        b[c] = (char)(puzzle[c] - '0');
    for (int c = 80, g = 0; c >= 0; c--)
        if (b[c] != 0 && (mask >> g++ & 1))
            b[c] = 0;
    for (int c = 0; c < 81; c++)
        given += b[c] != 0;
    t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
    n = count(b, 0);
    fprintf(stderr, "TIME sudoku %.6f\n", omp_get_wtime() - t0);
    {
        static const long expect[] = {1, 7309, 300891, 3481026, 184622};
        const char *v = mask >= 0 && mask <= 4 ? (n == expect[mask] ? "OK" : "BAD") : "?";
        printf("sudoku: %d givens, %ld solutions: %s\n", given, n, v);
        return v[0] == 'B';
    }
}
