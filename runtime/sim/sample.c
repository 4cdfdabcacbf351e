/* sim/sample.c - the numerics of sampling (SPEC 5 item 2, thesis 4.3.1 and 4.5.3):
 * evenly spread sample positions, linear interpolation in allocation order, and the
 * bootstrap estimate of the error of the mean task time. */
#include <stdlib.h>
#include "sim.h"

#define BOOT_N 40      /* resamples */
#define BOOT_TAIL 1    /* 2.5 % of 40 dropped at each end */

/* splitmix64: a small deterministic generator, so predictions are reproducible. */
static unsigned long long rnd(unsigned long long *s)
{
    unsigned long long z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

sim_boot sim_bootstrap(const double *x, int n, unsigned long long *seed)
{
    double means[BOOT_N];
    sim_boot b = { 0, 0, 0 };
    if (n <= 0)
        return b;
    for (int r = 0; r < BOOT_N; r++) {
        double s = 0;
        for (int i = 0; i < n; i++)
            s += x[rnd(seed) % (unsigned long long)n];
        means[r] = s / n;
    }
    qsort(means, BOOT_N, sizeof means[0], cmp_double);
    /* the median of the 38 kept means, and their extremes */
    b.mean = (means[BOOT_N / 2 - 1] + means[BOOT_N / 2]) / 2;
    if (b.mean > 0) {
        b.lo = means[BOOT_TAIL] / b.mean - 1;
        b.hi = means[BOOT_N - 1 - BOOT_TAIL] / b.mean - 1;
    }
    return b;
}

void sim_interpolate(double *t, const unsigned char *have, long n)
{
    long prev = -1;
    for (long i = 0; i <= n; i++) {
        if (i < n && !have[i])
            continue;
        /* fill prev+1 .. i-1 from the marked neighbours prev and i */
        for (long j = prev + 1; j < i; j++) {
            if (prev < 0 && i >= n)
                t[j] = 0;
            else if (prev < 0)
                t[j] = t[i];
            else if (i >= n)
                t[j] = t[prev];
            else
                t[j] = t[prev] + (t[i] - t[prev]) * (double)(j - prev) / (double)(i - prev);
        }
        prev = i;
    }
}

long sim_spread(long i, long n, long len)
{
    return (long)((double)i * (double)len / (double)n);
}

/* A random position in the i-th of n equal strata of [0, len). The plain spread takes
   the same offset in every stratum: for a farm over an image 1024 pixels wide, n = 8192
   sampled columns 0, 128, ..., 896 of every row, and Mandelbrot's sampled total came out
   10 % low while the bootstrap promised +-5 %. A random offset per stratum keeps the
   sample spread evenly without following the data's period. */
long sim_spread_jittered(long i, long n, long len, unsigned long long *seed)
{
    long lo = sim_spread(i, n, len), hi = sim_spread(i + 1, n, len);
    return hi - lo > 1 ? lo + (long)(rnd(seed) % (unsigned long long)(hi - lo)) : lo;
}
