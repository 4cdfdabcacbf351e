/* wtc_mpi_impl.h - which MPI implementation the <mpi.h> of a compiler wrapper belongs to
 * (doc/wtcc.md "One runtime per MPI"). The one place that tells them apart, read three
 * ways: the MPI runtime includes it (its messages name the MPI it was built with), and
 * the Makefile (tools/mpi-info.sh) and wtcc preprocess it with the wrapper and
 * -DWTC_MPI_IMPL_PRINT, which leaves the line "WTC_MPI_IMPL_IS <name>": <name> is the
 * folder of lib/wtc that holds the runtime for that MPI (lib/wtc/<name>/libwtcrt_mpi.a).
 * Derivatives first: MVAPICH and Intel MPI define MPICH_VERSION too, but their runtime
 * libraries are not MPICH's. SimGrid's SMPI (smpicc, <smpi/smpi.h>) runs every rank in
 * one simulator process: WTC_MPI_SMPI switches off what only real processes can do
 * (the doorbell, mpi/bell.c) and works around SMPI's MPI_Ibarrier (wtcrt_ibarrier).
 */
#ifndef WTC_MPI_IMPL_H
#define WTC_MPI_IMPL_H

#include <mpi.h>

#if defined(SMPI_H)
#define WTC_MPI_IMPL smpi
#define WTC_MPI_NAME "SimGrid SMPI"
#define WTC_MPI_SMPI 1
#elif defined(OMPI_MAJOR_VERSION)
#define WTC_MPI_IMPL openmpi
#define WTC_MPI_NAME "Open MPI"
#elif defined(I_MPI_VERSION)
#define WTC_MPI_IMPL intelmpi
#define WTC_MPI_NAME "Intel MPI"
#elif defined(MVAPICH2_VERSION) || defined(MVAPICH_VERSION)
#define WTC_MPI_IMPL mvapich
#define WTC_MPI_NAME "MVAPICH"
#elif defined(MPICH_VERSION)
#define WTC_MPI_IMPL mpich
#define WTC_MPI_NAME "MPICH"
#define WTC_MPI_MPICH 1
#else
#define WTC_MPI_IMPL unknown
#define WTC_MPI_NAME "an unknown MPI"
#endif

#ifdef WTC_MPI_IMPL_PRINT
WTC_MPI_IMPL_IS WTC_MPI_IMPL
#endif

#endif
