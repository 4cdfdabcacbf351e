/* alignment.omp.c - alignment.wtc with OpenMP tasks, as BOTS' alignment_single: one
 * thread creates a task per pair (i, j), i < j, in the same order; the same Gotoh
 * score in linear space.
 *
 *   cc -O2 -fopenmp alignment.omp.c && OMP_NUM_THREADS=2 ./a.out [NSEQ [MAXLEN]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

#define GAP_OPEN 10
#define GAP_EXT 1
#define NEG (-1000000000)

/* the substitution matrix of the 20 residues: symmetric, +4..+11 on the diagonal,
   -4..+1 off it */
static const signed char SUB[20][20] = {
#define R(i, j) ((i) == (j) ? 4 + (i) % 8 : ((i) * 7 + (j) * 7 + (i) * (j)) % 6 - 4)
#define ROW(i) { R(i, 0), R(i, 1), R(i, 2), R(i, 3), R(i, 4), R(i, 5), R(i, 6), R(i, 7), \
                 R(i, 8), R(i, 9), R(i, 10), R(i, 11), R(i, 12), R(i, 13), R(i, 14),    \
                 R(i, 15), R(i, 16), R(i, 17), R(i, 18), R(i, 19) }
    ROW(0), ROW(1), ROW(2), ROW(3), ROW(4), ROW(5), ROW(6), ROW(7), ROW(8), ROW(9),
    ROW(10), ROW(11), ROW(12), ROW(13), ROW(14), ROW(15), ROW(16), ROW(17), ROW(18), ROW(19)
};

/* The optimal global alignment score of a[0..la) and b[0..lb) (residues 0..19), affine
   gaps: a gap of length g costs GAP_OPEN + g * GAP_EXT. */
static int align(char *a, int la, char *b, int lb)
{
    int *hh = malloc((size_t)(lb + 1) * sizeof *hh), *ff = malloc((size_t)(lb + 1) * sizeof *ff);
    int score;

    if (hh == NULL || ff == NULL) {
        fprintf(stderr, "alignment: out of memory\n");
        exit(2);
    }
    /* row 0: H(0, j) = -(open + j ext), F(0, j) = -inf */
    hh[0] = 0;
    ff[0] = NEG;
    for (int j = 1; j <= lb; j++) {
        hh[j] = -(GAP_OPEN + j * GAP_EXT);
        ff[j] = NEG;
    }
    for (int i = 1; i <= la; i++) {
        const signed char *sub = SUB[(int)a[i - 1]];
        int diag = hh[0], e = NEG, h;
        hh[0] = -(GAP_OPEN + i * GAP_EXT);
        h = hh[0];
        for (int j = 1; j <= lb; j++) {
            int f = ff[j] - GAP_EXT, up = hh[j] - GAP_OPEN - GAP_EXT;
            ff[j] = f > up ? f : up; /* F(i, j): a gap in b */
            e = e - GAP_EXT > h - GAP_OPEN - GAP_EXT ? e - GAP_EXT : h - GAP_OPEN - GAP_EXT;
            h = diag + sub[(int)b[j - 1]]; /* E(i, j): a gap in a */
            if (e > h)
                h = e;
            if (ff[j] > h)
                h = ff[j];
            diag = hh[j];
            hh[j] = h;
        }
    }
    score = hh[lb];
    free(hh);
    free(ff);
    return score;
}

/* The same score by the full matrices of the recurrence: the self-check. */
static int align_full(const char *a, int la, const char *b, int lb)
{
    size_t w = (size_t)lb + 1;
    int *H = malloc((la + 1) * w * sizeof *H), *E = malloc((la + 1) * w * sizeof *E),
        *F = malloc((la + 1) * w * sizeof *F), score;

    if (H == NULL || E == NULL || F == NULL)
        exit(2);
    for (int i = 0; i <= la; i++)
        for (int j = 0; j <= lb; j++) {
            int h;
            if (i == 0 || j == 0) {
                H[i * w + j] = i + j == 0 ? 0 : -(GAP_OPEN + (i + j) * GAP_EXT);
                E[i * w + j] = F[i * w + j] = NEG;
                continue;
            }
            E[i * w + j] = E[i * w + j - 1] - GAP_EXT;
            if (H[i * w + j - 1] - GAP_OPEN - GAP_EXT > E[i * w + j])
                E[i * w + j] = H[i * w + j - 1] - GAP_OPEN - GAP_EXT;
            F[i * w + j] = F[(i - 1) * w + j] - GAP_EXT;
            if (H[(i - 1) * w + j] - GAP_OPEN - GAP_EXT > F[i * w + j])
                F[i * w + j] = H[(i - 1) * w + j] - GAP_OPEN - GAP_EXT;
            h = H[(i - 1) * w + j - 1] + SUB[(int)a[i - 1]][(int)b[j - 1]];
            if (E[i * w + j] > h)
                h = E[i * w + j];
            if (F[i * w + j] > h)
                h = F[i * w + j];
            H[i * w + j] = h;
        }
    score = H[la * w + lb];
    free(H);
    free(E);
    free(F);
    return score;
}

static unsigned long long lcg = 424242; /* LCG state: fixed seed */

static unsigned rnd(unsigned n)
{
    lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((lcg >> 33) % n);
}

int main(int argc, char **argv)
{
    int nseq = argc > 1 ? atoi(argv[1]) : 100, maxlen = argc > 2 ? atoi(argv[2]) : 600;
    int npairs, *len, *off, *pi, *pj, *score, ok = 1, best = NEG, bi = 0, bj = 0;
    long total = 0, sum = 0;
    char *seq, anc[4][1000];
    double t0;

    if (nseq < 2 || nseq > 2000 || maxlen < 20 || maxlen > 1000) {
        fprintf(stderr, "usage: alignment [NSEQ in 2..2000 [MAXLEN in 20..1000]]\n");
        return 2;
    }
    /* four ancestors; each sequence a piece of one, with 30 % of its residues changed */
    for (int f = 0; f < 4; f++)
        for (int k = 0; k < maxlen; k++)
            anc[f][k] = (char)rnd(20);
    len = malloc(nseq * sizeof *len);
    off = malloc(nseq * sizeof *off);
    for (int i = 0; i < nseq; i++) {
        len[i] = 20 + (int)rnd((unsigned)(maxlen - 19));
        off[i] = (int)total;
        total += len[i];
    }
    seq = malloc(total);
    for (int i = 0; i < nseq; i++) {
        int f = (int)rnd(4), start = (int)rnd((unsigned)(maxlen - len[i] + 1));
        for (int k = 0; k < len[i]; k++)
            seq[off[i] + k] = rnd(10) < 3 ? (char)rnd(20) : anc[f][start + k];
    }
    npairs = nseq * (nseq - 1) / 2;
    pi = malloc(npairs * sizeof *pi);
    pj = malloc(npairs * sizeof *pj);
    score = malloc(npairs * sizeof *score);
    if (len == NULL || off == NULL || seq == NULL || pi == NULL || pj == NULL || score == NULL)
        return 2;
    for (int i = 0, t = 0; i < nseq; i++)
        for (int j = i + 1; j < nseq; j++, t++) {
            pi[t] = i;
            pj[t] = j;
        }

    t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
    for (int t = 0; t <= npairs - 1; t++) {
#pragma omp task firstprivate(t) shared(seq, off, len, pi, pj, score)
        score[t] = align(&seq[off[pi[t]]], len[pi[t]], &seq[off[pj[t]]], len[pj[t]]);
    }
    fprintf(stderr, "TIME alignment %.6f\n", omp_get_wtime() - t0);

    for (int t = 0; t < npairs; t++) {
        sum += score[t];
        if (score[t] > best) {
            best = score[t];
            bi = pi[t];
            bj = pj[t];
        }
    }
    for (int c = 0; c < 8; c++) { /* symmetric */
        int t = (int)rnd((unsigned)npairs), i = pi[t], j = pj[t];
        if (align(&seq[off[j]], len[j], &seq[off[i]], len[i]) != score[t])
            ok = 0;
    }
    for (int c = 0; c < 3; c++) { /* the full recurrence */
        int t = (int)rnd((unsigned)npairs), i = pi[t], j = pj[t];
        if (align_full(&seq[off[i]], len[i], &seq[off[j]], len[j]) != score[t])
            ok = 0;
    }
    printf("alignment: %d sequences, %ld residues, %d pairs\n", nseq, total, npairs);
    printf("alignment: sum of scores %ld, best %d (%d, %d)\n", sum, best, bi, bj);
    printf("alignment: 11 pairs again %s\n", ok ? "OK" : "BAD");
    free(len);
    free(off);
    free(seq);
    free(pi);
    free(pj);
    free(score);
    return ok ? 0 : 1;
}
