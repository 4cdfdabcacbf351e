/* fft.omp.c - fft.wtc with OpenMP tasks: the same out-of-place recursion (the two
 * halves as tasks while n > 4096, with a taskwait), the same butterflies split in halves
 * as tasks while more than 4096 are left, the same leaves.
 *
 *   cc -O2 -fopenmp fft.omp.c -lm && OMP_NUM_THREADS=2 ./a.out [LOG2N]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

typedef struct cpx {
    double re, im;
} cpx;

#define CUT 4096 /* up to this many points or butterflies: sequential */

static void *xmalloc(size_t n)
{
    void *p = malloc(n);

    if (p == NULL) {
        fprintf(stderr, "fft: out of memory\n");
        exit(2);
    }
    return p;
}

/* The butterflies k0 .. k0+m-1 of a transform of n points: e[k] (the even half's
   coefficient) and o[k] (the odd half's) become e[k] + w o[k] and e[k] - w o[k], with
   w = e^(-2 pi i (k0 + k) / n). */
static void twiddle(cpx *e, cpx *o, int m, int k0, int n)
{
    double c = cos(2 * M_PI / n), s = -sin(2 * M_PI / n), wr = 1, wi = 0;

    if (m > CUT) {
        int h = m / 2;
        for (int x = 0; x <= 1; x++) {
#pragma omp task
            twiddle(e + x * h, o + x * h, x ? m - h : h, k0 + x * h, n);
        }
#pragma omp taskwait
        return;
    }
    for (int k = 0; k < m; k++) {
        double tr, ti;
        if (k % 64 == 0) {
            wr = cos(2 * M_PI * (k0 + k) / n);
            wi = -sin(2 * M_PI * (k0 + k) / n);
        } else {
            double t = wr * c - wi * s;
            wi = wr * s + wi * c;
            wr = t;
        }
        tr = wr * o[k].re - wi * o[k].im;
        ti = wr * o[k].im + wi * o[k].re;
        o[k].re = e[k].re - tr;
        o[k].im = e[k].im - ti;
        e[k].re += tr;
        e[k].im += ti;
    }
}

/* out[0..n) = the DFT of in[0], in[s], ..., in[(n-1)s]; n a power of two */
static void fft(cpx *in, cpx *out, int n, int s)
{
    int h = n / 2;

    if (n == 1) {
        out[0] = in[0];
        return;
    }
    if (n == 2) {
        out[0].re = in[0].re + in[s].re;
        out[0].im = in[0].im + in[s].im;
        out[1].re = in[0].re - in[s].re;
        out[1].im = in[0].im - in[s].im;
        return;
    }
    if (!(n > CUT)) { /* below the cut-off: plain recursion */
        for (int x = 0; x <= 1; x++)
            fft(in + x * s, out + x * h, h, 2 * s);
    } else {
        for (int x = 0; x <= 1; x++) {
#pragma omp task
            fft(in + x * s, out + x * h, h, 2 * s);
        }
#pragma omp taskwait
    }
    twiddle(out, out + h, h, 0, n);
}

/* the direct sum for coefficient k of x[0..n): the rotation exact every 64 steps */
static cpx direct(const cpx *x, int n, int k)
{
    double c = cos(2 * M_PI * k / n), s = -sin(2 * M_PI * k / n), wr = 1, wi = 0;
    cpx r = { 0, 0 };

    for (int j = 0; j < n; j++) {
        if (j % 64 == 0) {
            double a = -2 * M_PI * (double)((long long)j * k % n) / n;
            wr = cos(a);
            wi = sin(a);
        } else {
            double t = wr * c - wi * s;
            wi = wr * s + wi * c;
            wr = t;
        }
        r.re += x[j].re * wr - x[j].im * wi;
        r.im += x[j].re * wi + x[j].im * wr;
    }
    return r;
}

int main(int argc, char **argv)
{
    int lg = argc > 1 ? atoi(argv[1]) : 23, n, ok = 1;
    unsigned long long s = 20240607; /* LCG state: fixed seed */
    double t0, e_time = 0, e_freq = 0, sum = 0;
    cpx *x, *X;

    if (lg < 1 || lg > 27) {
        fprintf(stderr, "usage: fft [LOG2N in 1..27]\n");
        return 2;
    }
    n = 1 << lg;
    x = xmalloc((size_t)n * sizeof *x);
    X = xmalloc((size_t)n * sizeof *X);
    for (int i = 0; i < n; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        x[i].re = (double)(s >> 11) / 9007199254740992.0 - 0.5;
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        x[i].im = (double)(s >> 11) / 9007199254740992.0 - 0.5;
        e_time += x[i].re * x[i].re + x[i].im * x[i].im;
    }

    t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
    fft(x, X, n, 1);
    fprintf(stderr, "TIME fft %.6f\n", omp_get_wtime() - t0);

    printf("fft: n = 2^%d\n", lg);
    for (int t = 0; t < 3; t++) {
        int k = t == 0 ? 1 : t == 1 ? n / 3 : n - 5;
        cpx d = direct(x, n, k);
        double err = hypot(d.re - X[k].re, d.im - X[k].im) / sqrt((double)n);
        printf("fft: coefficient %d %s\n", k, err < 1e-9 ? "OK" : "BAD");
        ok &= err < 1e-9;
    }
    for (int i = 0; i < n; i++) {
        e_freq += X[i].re * X[i].re + X[i].im * X[i].im;
        sum += X[i].re * (i % 7 + 1) - X[i].im * (i % 3);
    }
    e_freq /= n;
    printf("fft: Parseval %s\n", fabs(e_freq - e_time) < 1e-9 * e_time ? "OK" : "BAD");
    ok &= fabs(e_freq - e_time) < 1e-9 * e_time;
    printf("fft: checksum %.10g\n", sum);
    free(x);
    free(X);
    return ok ? 0 : 1;
}
