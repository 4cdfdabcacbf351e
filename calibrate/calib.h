/* calib.h - the numerics of bin/wtc-calibrate, kept free of MPI so the unit tests can
 * check them (tests/unit/sim_units.c). */
#ifndef WTC_CALIB_H
#define WTC_CALIB_H

/* Least-squares line y = a + b*x through n points (n >= 2, not all x equal);
   returns 0, or -1 when the fit is undefined. */
int calib_fit_line(const double *x, const double *y, int n, double *a, double *b);

/* The eager limit: sizes[i] ascending, t[i] the time of a blocking send of that size
   while the receiver waits 'delay' seconds before receiving. A synchronous send lasts
   about 'delay'; returns the largest size before the first such one, or the last size
   when none is synchronous. */
double calib_eager_limit(const double *sizes, const double *t, int n, double delay);

#endif
