/* bench/smpi/calls.c - what SimGrid's SMPI charges a rank for the MPI calls the wtcc
 * runtime makes, at a given number of simulated ranks (doc/predictor.md 8.1):
 *
 *   smpicc -O2 -o calls bench/smpi/calls.c
 *   smpirun -np 128 -platform bench/smpi/cluster.xml ./calls
 *
 * Three measurements, each in simulated time (MPI_Wtime), means over all ranks:
 *   probe    two MPI_Iprobe that find nothing (the runtime's poll where no doorbell
 *            rings), between bursts of ~20 us of computing, every rank at once;
 *   recv     the MPI_Recv of a 16-byte message that MPI_Iprobe has just reported:
 *            a real MPI reports an eager message once it has arrived, so this costs
 *            about a microsecond there;
 *   send     MPI_Isend of 50 bytes to each other rank in turn, then MPI_Test until it
 *            completes, from rank 0 while the others wait in MPI_Recv.
 * Not a test: it prints figures. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned sink;

/* About k ns of computing on a 1 Gf host at smpi/host-speed = 1Gf (the platform's). */
static void work(int k)
{
    unsigned x = 1;
    for (int i = 0; i < k; i++)
        x = x * 1664525u + 1013904223u;
    sink = x;
}

int main(int argc, char **argv)
{
    enum { N = 1000, EVERY = 20 };
    int me, np, got = 0, nreq = 0, allgot;
    unsigned rng;
    double t_probe = 0, t_recv = 0, sum_probe, sum_recv;
    char buf[64] = { 0 };
    MPI_Request reqs[N / EVERY + 1];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (np < 2) {
        if (me == 0)
            fprintf(stderr, "calls: run it with 2 ranks or more\n");
        MPI_Finalize();
        return 2;
    }
    rng = 7919u * (unsigned)me + 1;
    MPI_Barrier(MPI_COMM_WORLD);
    /* probe and recv: every rank computes and polls; every EVERY-th round it sends a
       16-byte message to a random other rank, as a thief does */
    for (int i = 0; i < N; i++) {
        int flag;
        MPI_Status st;
        double t0;
        work(20000);
        t0 = MPI_Wtime();
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (!flag)
            MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        t_probe += MPI_Wtime() - t0;
        if (flag) {
            t0 = MPI_Wtime();
            MPI_Recv(buf, 64, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            t_recv += MPI_Wtime() - t0;
            got++;
        }
        if (i % EVERY == 0) {
            int d;
            rng = rng * 1103515245u + 12345u;
            d = (int)((rng >> 8) % (unsigned)(np - 1));
            d += d >= me;
            MPI_Isend(buf, 16, MPI_CHAR, d, 1, MPI_COMM_WORLD, &reqs[nreq++]);
        }
    }
    MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    for (;;) { /* what is still on its way */
        int flag;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (!flag)
            break;
        MPI_Recv(buf, 64, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    }
    MPI_Reduce(&t_probe, &sum_probe, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&t_recv, &sum_recv, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(&got, &allgot, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    /* send: rank 0 to every other rank in turn, three rounds */
    if (me == 0) {
        double t_send = 0, t_done = 0;
        for (int rep = 0; rep < 3; rep++)
            for (int d = 1; d < np; d++) {
                MPI_Request r;
                int done = 0;
                double t0 = MPI_Wtime(), t1;
                MPI_Isend(buf, 50, MPI_CHAR, d, 2, MPI_COMM_WORLD, &r);
                t1 = MPI_Wtime();
                while (!done)
                    MPI_Test(&r, &done, MPI_STATUS_IGNORE);
                t_send += t1 - t0;
                t_done += MPI_Wtime() - t1;
            }
        printf("calls: %d ranks (simulated us, including an MPI_Wtime of ~1 us each)\n", np);
        printf("  probe  two MPI_Iprobe finding nothing, every rank polling: %.2f us\n",
               sum_probe / np / N * 1e6);
        printf("  recv   MPI_Recv right after MPI_Iprobe reported it: %.2f us (%d messages)\n",
               allgot ? sum_recv / allgot * 1e6 : 0.0, allgot);
        printf("  send   MPI_Isend of 50 bytes: %.2f us; MPI_Test until complete: %.2f us\n",
               t_send / (3 * (np - 1)) * 1e6, t_done / (3 * (np - 1)) * 1e6);
    } else {
        for (int rep = 0; rep < 3; rep++)
            MPI_Recv(buf, 64, MPI_CHAR, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
