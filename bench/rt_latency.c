/* rt_latency.c - what the MPI runtime's way of waiting costs (doc/runtime.md, "Waiting
 * without burning a core").
 *
 *   mpiexec -n 2 bench/rt_latency [iterations]     ping-pong only
 *   mpiexec -n 3 bench/rt_latency [iterations]     rank 2 computes meanwhile
 *
 * Ranks 0 and 1 ping-pong a 48-byte message (a runtime header). Rank 0 first computes
 * for 'gap' microseconds (0, 20, 200, 2000), as a worker does between messages, so the
 * waiting rank 1 has backed off when the ping arrives. Printed per gap: the round trip
 * beyond the gap with rank 1 waiting in a blocking MPI_Recv, and with the runtime's
 * MPI_Iprobe + sleep with back-off (wtcrt_recv; rank 0 rings the doorbell after its
 * send, as the runtime does; WTC_DOORBELL=0 measures without it). With a third rank,
 * it runs a fixed amount of computing during each measurement; its slowdown shows what the waiting
 * rank takes from the computing ones when there are more ranks than cores.
 */
#include <stdlib.h>
#include <string.h>
#include "wtcrt.h"

/* Busy work for 'us' microseconds. */
static void spin_us(double us)
{
    double end = wtcrt_now() + us * 1e-6;
    while (wtcrt_now() < end) {
    }
}

/* Rank 2's fixed work; returns its duration in seconds. */
static double fixed_work(long n)
{
    volatile double x = 0;
    double t = wtcrt_now();
    for (long i = 0; i < n; i++)
        x += (double)i * 1e-9;
    return wtcrt_now() - t;
}

/* Order of doubles, for qsort. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One ping-pong series; sets the median and mean round trip beyond the gap, in
   microseconds (rank 0). */
static void series(wtcrt_rt *rt, int iters, double gap, int polling, double *med,
                   double *mean)
{
    double t, total = 0, *rtt = malloc((size_t)iters * sizeof *rtt);
    char buf[WTCRT_HDR_SIZE];
    if (!rtt)
        wtcrt_die(rt, "out of memory");
    memset(buf, 0, sizeof buf);
    for (int i = 0; i < iters; i++) {
        if (rt->rank == 0) {
            spin_us(gap);
            t = wtcrt_now();
            MPI_Send(buf, sizeof buf, MPI_BYTE, 1, WTCRT_TASK, rt->comm);
            wtcrt_bell_ring(rt, 1); /* as wtcrt_send does */
            MPI_Recv(buf, sizeof buf, MPI_BYTE, 1, WTCRT_RESULT, rt->comm,
                     MPI_STATUS_IGNORE);
            rtt[i] = (wtcrt_now() - t) * 1e6;
            total += rtt[i];
        } else if (rt->rank == 1) {
            if (polling)
                wtcrt_msg_free(rt, wtcrt_recv(rt, 0, WTCRT_TASK));
            else
                MPI_Recv(buf, sizeof buf, MPI_BYTE, 0, WTCRT_TASK, rt->comm,
                         MPI_STATUS_IGNORE);
            MPI_Send(buf, sizeof buf, MPI_BYTE, 0, WTCRT_RESULT, rt->comm);
        }
    }
    qsort(rtt, (size_t)iters, sizeof *rtt, cmp_double);
    *med = rtt[iters / 2];
    *mean = total / iters;
    free(rtt);
}

int main(int argc, char **argv)
{
    int iters = argc > 1 ? atoi(argv[1]) : 500;
    static const double gaps[] = { 0, 20, 200, 2000 };
    long work = 0;
    static wtcrt_rt state; /* the runtime's state, for its waiting */
    wtcrt_rt *rt = &state;
    MPI_Init(&argc, &argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &rt->comm);
    MPI_Comm_rank(rt->comm, &rt->rank);
    MPI_Comm_size(rt->comm, &rt->nranks);
    wtcrt_wait_init(rt); /* the runtime's doorbell and back-off (WTC_DOORBELL=0: none) */
    if (rt->nranks < 2 || iters < 1) {
        if (rt->rank == 0)
            fprintf(stderr, "usage: mpiexec -n 2|3 rt_latency [iterations]\n");
        MPI_Finalize();
        return 2;
    }
    if (rt->rank == 2) /* calibrate ~0.2 s of work */
        for (work = 1000000; fixed_work(work) < 0.2; work *= 2) {
        }
    if (rt->rank == 0)
        printf("%8s %22s %22s %s\n", "gap(us)", "MPI_Recv rtt(us)", "poll+sleep rtt(us)",
               rt->nranks > 2 ? "rank-2 work (s): MPI_Recv / poll+sleep" : "");
    if (rt->rank == 0)
        printf("%8s %22s %22s\n", "", "median / mean", "median / mean");
    for (size_t g = 0; g < sizeof gaps / sizeof gaps[0]; g++) {
        int n = gaps[g] >= 2000 ? iters / 10 + 1 : iters;
        double med[2], mean[2], w[2] = { 0, 0 };
        for (int polling = 0; polling < 2; polling++) {
            MPI_Barrier(rt->comm);
            if (rt->rank == 2)
                w[polling] = fixed_work(work);
            series(rt, n, gaps[g], polling, &med[polling], &mean[polling]);
            MPI_Bcast(&w[polling], 1, MPI_DOUBLE, rt->nranks > 2 ? 2 : 0, rt->comm);
        }
        if (rt->rank == 0) {
            printf("%8.0f %10.1f / %9.1f %10.1f / %9.1f", gaps[g], med[0], mean[0], med[1],
                   mean[1]);
            if (rt->nranks > 2)
                printf("   %.3f / %.3f", w[0], w[1]);
            printf("\n");
        }
    }
    wtcrt_flush_sends(rt);
    MPI_Comm_free(&rt->comm);
    MPI_Finalize();
    return 0;
}
