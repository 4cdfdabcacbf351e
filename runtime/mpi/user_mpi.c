/* user_mpi.c - MPI_Init, MPI_Init_thread and MPI_Finalize as the program calls them.
 *
 * A program that includes <mpi.h> finds MPI started before main on every rank
 * (wtc_calls_mpi, doc/runtime.md "Start-up"), and the runtime ends it after main. One
 * written as an MPI program calls MPI_Init first and MPI_Finalize last all the same:
 * MPICH stopped the job at main's MPI_Init ("Cannot call MPI_INIT or MPI_INIT_THREAD
 * more than once", status 15 at every -n; the fifth bug hunt). The generated code of
 * such a program renames its calls to these (codegen/program.c): once MPI runs,
 * MPI_Init has nothing to do, MPI_Init_thread says the level MPI runs at, and
 * MPI_Finalize leaves MPI to the runtime's end (finish, mpi/transport.c). Only the
 * program's calls are renamed, not the runtime's: a profiling tool that takes the MPI_
 * names (LD_PRELOAD) still sees MPI start and end once.
 */
#include <mpi.h>
#include "wtcrt.h"

int wtc_mpi_init(int *argc, char ***argv)
{
    int inited = 0;
    MPI_Initialized(&inited);
    return inited ? MPI_SUCCESS : MPI_Init(argc, argv);
}

int wtc_mpi_init_thread(int *argc, char ***argv, int required, int *provided)
{
    int inited = 0;
    MPI_Initialized(&inited);
    if (!inited)
        return MPI_Init_thread(argc, argv, required, provided);
    return MPI_Query_thread(provided);
}

int wtc_mpi_finalize(void)
{
    wtcrt_rt *rt = &wtcrt_this_rank; /* entered from the program's MPI_Finalize */
    if (rt->started && !rt->finished) /* a child of fork() too: MPI is its parent's */
        return MPI_SUCCESS;
    return MPI_Finalize();
}
