/* calib_fit.c - least squares and the eager-limit detection of bin/wtc-calibrate. */
#include <string.h>
#include "calib.h"

int calib_fit_line(const double *x, const double *y, int n, double *a, double *b)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0, d;
    if (n < 2)
        return -1;
    for (int i = 0; i < n; i++) {
        sx += x[i];
        sy += y[i];
        sxx += x[i] * x[i];
        sxy += x[i] * y[i];
    }
    d = n * sxx - sx * sx;
    if (d == 0)
        return -1;
    *b = (n * sxy - sx * sy) / d;
    *a = (sy - *b * sx) / n;
    return 0;
}

double calib_eager_limit(const double *sizes, const double *t, int n, double delay)
{
    for (int i = 0; i < n; i++)
        if (t[i] > delay / 2)
            return i > 0 ? sizes[i - 1] : 0;
    return n > 0 ? sizes[n - 1] : 0;
}

/* The median of c[0..n), n <= 64 (a copy is sorted). */
static double median64(const double *c, int n)
{
    double v[64];
    if (n > 64)
        n = 64;
    memcpy(v, c, (size_t)n * sizeof *v);
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* c(p) = a + b p with the slope fitted from min_p or more values of p and only when it
   comes out positive, else b = 0 and a the median; a negative a is set to 0. */
static int fit_rising(const double *p, const double *c, int n, int min_p, double *a,
                      double *b)
{
    int flags = 0;
    *b = 0;
    if (n >= min_p && calib_fit_line(p, c, n, a, b) == 0 && *b > 0)
        flags |= CALIB_SLOPE;
    else {
        *b = 0;
        *a = n > 0 ? median64(c, n) : 0;
    }
    if (*a < 0) {
        *a = 0;
        flags |= CALIB_FLOOR;
    }
    return flags;
}

int calib_fit_overhead(const double *p, const double *c, int n, double *a, double *b)
{
    return fit_rising(p, c, n, 3, a, b);
}

int calib_fit_job(const double *p, const double *c, int n, double *a, double *b)
{
    return fit_rising(p, c, n, 2, a, b);
}

double calib_master_time(double rtt, double L, double G, double o_s, double o_r)
{
    double t;
    o_s = o_s > 0 ? o_s : 0;
    o_r = o_r > 0 ? o_r : 0;
    t = rtt - 2 * L - G * 100 - o_s - o_r;
    return t > o_s + o_r ? t : o_s + o_r;
}
