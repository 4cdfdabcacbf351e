/* sim/advice.c - when is a master overloaded (SPEC 5 item 6, thesis 2.5.5)?
 *
 * A master of w workers receives, per subtree of sequential time t_s below the cut-off,
 * (f - 1) requests from each worker (one per spawned child it cannot keep), so about
 * (f-1)*w/t_s requests per second; it can answer 1/t_m per second. It keeps up when
 * (f - 1) * w / t_s <= 1 / t_m. */
#include "sim.h"

double sim_advice_min_ts(int f, double w, double t_m)
{
    return (f - 1) * w * t_m;
}

/* (f-1) * ((P-M)/M) * t_m <= t_s  <=>  P/M - 1 <= t_s/((f-1) t_m)  <=>
   M >= P / (1 + t_s / ((f-1) t_m)) */
double sim_advice_min_masters(int P, double t_s, int f, double t_m)
{
    if (f <= 1 || t_m <= 0)
        return 1;
    return P / (1 + t_s / ((f - 1) * t_m));
}

int sim_advice_ok(int P, int M, double t_s, int f, double t_m)
{
    if (M < 1 || M >= P)
        return 0;
    return (f - 1) * ((double)(P - M) / M) * t_m <= t_s * (1 + 1e-12);
}
