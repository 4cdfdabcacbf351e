/* calib_fit.c - least squares and the eager-limit detection of bin/wtc-calibrate. */
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

double calib_master_time(double rtt, double L, double G, double o_s, double o_r)
{
    double t;
    o_s = o_s > 0 ? o_s : 0;
    o_r = o_r > 0 ? o_r : 0;
    t = rtt - 2 * L - G * 100 - o_s - o_r;
    return t > o_s + o_r ? t : o_s + o_r;
}
