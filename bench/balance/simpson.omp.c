/* simpson.omp.c - simpson.wtc with OpenMP tasks (a task per half while depth < 10):
 * adaptive Simpson integration of a spiky function on [0, 1].
 *
 *   OMP_NUM_THREADS=2 ./simpson.omp [EPS]     tolerance (default 3e-14)
 *
 * f is a sum of 300 narrow Lorentzian peaks (widths 1e-6 .. 1e-2) at random places:
 * the recursion goes deep near the peaks and stops at once elsewhere, an irregular
 * tree of fine-grained calls (a few evaluations of f each) that return a double.
 * Each interval's halves in a par while the call is less than 10 levels deep
 * (wtc_depth < 10).
 *
 * Self-check: the integral against the exact one (sum of arctangents), relative
 * error below 1e-8.
 * The time goes to stderr ("TIME simpson <seconds>").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define PEAKS 300

static double pc[PEAKS], pw[PEAKS], ph[PEAKS];

static double f(double x)
{
    double s = 0;

    for (int i = 0; i < PEAKS; i++) {
        double t = x - pc[i];
        s += ph[i] * pw[i] * pw[i] / (t * t + pw[i] * pw[i]);
    }
    return s;
}

static double asr_seq(double a, double b, double fa, double fm, double fb, double whole,
                      double eps)
{
    double m = (a + b) / 2, lm = (a + m) / 2, rm = (m + b) / 2;
    double flm = f(lm), frm = f(rm);
    double left = (m - a) / 6 * (fa + 4 * flm + fm), right = (b - m) / 6 * (fm + 4 * frm + fb);
    double half[2], lo[2] = {a, m}, hi[2] = {m, b}, f0[2] = {fa, fm}, f1[2], f2[2] = {fm, fb},
           w[2];

    if (fabs(left + right - whole) <= 15 * eps || b - a < 1e-12)
        return left + right + (left + right - whole) / 15;
    f1[0] = flm;
    f1[1] = frm;
    w[0] = left;
    w[1] = right;
    for (int i = 0; i <= 1; i++)
        half[i] = asr_seq(lo[i], hi[i], f0[i], f1[i], f2[i], w[i], eps / 2);
    return half[0] + half[1];
}

static double asr(double a, double b, double fa, double fm, double fb, double whole,
                  double eps, int depth)
{
    double m = (a + b) / 2, lm = (a + m) / 2, rm = (m + b) / 2;
    double flm, frm, left, right;
    double half[2], lo[2] = {a, m}, hi[2] = {m, b}, f0[2] = {fa, fm}, f1[2], f2[2] = {fm, fb},
           w[2];

    if (!(depth < 10))
        return asr_seq(a, b, fa, fm, fb, whole, eps);
    flm = f(lm);
    frm = f(rm);
    left = (m - a) / 6 * (fa + 4 * flm + fm);
    right = (b - m) / 6 * (fm + 4 * frm + fb);
    if (fabs(left + right - whole) <= 15 * eps || b - a < 1e-12)
        return left + right + (left + right - whole) / 15;
    f1[0] = flm;
    f1[1] = frm;
    w[0] = left;
    w[1] = right;
    for (int i = 0; i <= 1; i++) {
#pragma omp task firstprivate(i) shared(half)
        half[i] = asr(lo[i], hi[i], f0[i], f1[i], f2[i], w[i], eps / 2, depth + 1);
    }
#pragma omp taskwait
    return half[0] + half[1];
}

static unsigned long long next(unsigned long long *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545f4914f6cdd1dULL;
}

static double uniform(unsigned long long *s)
{
    return (double)(next(s) >> 11) * 0x1p-53;
}

int main(int argc, char **argv)
{
    double eps = argc > 1 ? atof(argv[1]) : 3e-14, exact = 0, r, t0, err;
    unsigned long long s = 12345;

    if (!(eps > 0)) {
        fprintf(stderr, "usage: simpson [EPS > 0]\n");
        return 2;
    }
    for (int i = 0; i < PEAKS; i++) {
        pc[i] = uniform(&s);
        pw[i] = pow(10, -6 + 4 * uniform(&s));
        ph[i] = 1 + 9 * uniform(&s);
        exact += ph[i] * pw[i] * (atan((1 - pc[i]) / pw[i]) - atan((0 - pc[i]) / pw[i]));
    }
    t0 = omp_get_wtime();
#pragma omp parallel
#pragma omp single
    r = asr(0, 1, f(0), f(0.5), f(1), (f(0) + 4 * f(0.5) + f(1)) / 6, eps, 0);
    fprintf(stderr, "TIME simpson %.6f\n", omp_get_wtime() - t0);
    err = fabs(r - exact) / fabs(exact);
    printf("simpson: eps %g: %.15g, exact %.15g, relative error %.2g: %s\n", eps, r, exact, err,
           err < 1e-8 ? "OK" : "BAD");
    return !(err < 1e-8);
}
