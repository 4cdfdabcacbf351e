/* rt_abort_hang.c - preloaded by tests/unit/rt_counts.sh: MPI_Abort never returns and
   stops nothing, as when a rank's way out hangs (doc/runtime.md "An error cannot hang
   the job"). The runtime's watchdog must then end the rank itself. */
#include <mpi.h>
#include <unistd.h>

int MPI_Abort(MPI_Comm comm, int code)
{
    (void)comm;
    (void)code;
    for (;;)
        pause();
}
