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

/* What calib_fit_overhead could support (flags). */
#define CALIB_SLOPE 1   /* the slope b was fitted (3 or more p, positive slope) */
#define CALIB_FLOOR 2   /* the constant a came out negative and was set to 0 */

/* The overhead of a message at p ranks, c(p) = a + b p, from the constants c[i] measured
   at p[i] (n >= 1): the slope is fitted only from 3 or more values of p and when it
   comes out positive (two points always fit a line: at p = 2, 4 the noise became
   o_r = 39 us at P = 128); else b = 0 and a is the median of c. Returns the flags. */
int calib_fit_overhead(const double *p, const double *c, int n, double *a, double *b);

/* A cost of the whole job at p ranks (its launch, its start, its end), c(p) = a + b p,
   from the medians c[i] measured at p[i] (n >= 1, calibrate/start.sh: p = 2 and the
   calibration's P): a line through two or more values of p, the slope only when it
   comes out positive (else b = 0 and a is the median of c); a negative a is set to 0.
   Returns the flags (CALIB_SLOPE, CALIB_FLOOR). */
int calib_fit_job(const double *p, const double *c, int n, double *a, double *b);

/* Whether the host is busy: the share of the wall time that a spinning rank got as CPU
   time (cpu / wall, each rank of the pair) below this. */
#define CALIB_BUSY_SHARE 0.9
/* Other processes on rank 0's host using more cores than this on average while the
   calibration runs make it warn (wtc_calibrate.c host_use): a build and small SMPI runs
   beside a calibration under smpirun moved G by 25 %, where the CPU share check sees
   simulated time; a shell loop beside it counts 0.91-1.01, an idle 2-core VM 0.00. */
#define CALIB_BUSY_OTHERS 0.25

/* A master's time to answer one request (t_m): the REQ/GRANT round trip minus the
   network part (2 L + G k, k = 100 bytes) and the asking worker's own send and receive
   overheads o_s, o_r; at least the master's own receive and send (o_r + o_s). On a
   loaded host the fitted intercepts can come out negative: they count as 0, so t_m is
   never negative (the machine-file parser refuses a negative one). */
double calib_master_time(double rtt, double L, double G, double o_s, double o_r);

#endif
