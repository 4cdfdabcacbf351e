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

/* A master's time to answer one request (t_m): the REQ/GRANT round trip minus the
   network part (2 L + G k, k = 100 bytes) and the asking worker's own send and receive
   overheads o_s, o_r; at least the master's own receive and send (o_r + o_s). On a
   loaded host the fitted intercepts can come out negative: they count as 0, so t_m is
   never negative (the machine-file parser refuses a negative one). */
double calib_master_time(double rtt, double L, double G, double o_s, double o_r);

#endif
