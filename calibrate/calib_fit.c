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
