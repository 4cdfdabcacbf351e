#!/bin/sh
# tools/mpi-info.sh WRAPPER - "IMPL MPIEXEC" for an MPI compiler wrapper (the Makefile
# builds one runtime per IMPL: doc/wtcc.md "One runtime per MPI").
#   IMPL:    what runtime/mpi/wtc_mpi_impl.h says its <mpi.h> is (mpich, openmpi, ...)
#   MPIEXEC: the launcher of that MPI, named in the runtime's message when a program is
#            started by another MPI's mpiexec: beside the wrapper, mpiexec.IMPL (Debian's
#            unambiguous name: plain 'mpiexec' follows the system's default MPI, which may
#            change), else the wrapper's own name with mpicc -> mpiexec, else mpiexec;
#            SMPI's is smpirun.
# Exits 1 with a message when the wrapper cannot be run or does not find <mpi.h>.
set -u
w=${1:?usage: tools/mpi-info.sh WRAPPER}
here=$(dirname "$0")
path=$(command -v "$w" 2>/dev/null) || {
    echo "mpi-info: MPI compiler wrapper '$w' not found" >&2; exit 1; }
impl=$("$w" -E -P -DWTC_MPI_IMPL_PRINT -x c "$here/../runtime/mpi/wtc_mpi_impl.h" |
       awk '$1 == "WTC_MPI_IMPL_IS" { print $2 }') || impl=""
[ -n "$impl" ] || {
    echo "mpi-info: '$w -E' cannot tell which MPI it is (no <mpi.h>?)" >&2; exit 1; }
dir=$(dirname "$path")
base=$(basename "$path")
mpiexec=mpiexec
smpirun=
[ "$impl" = smpi ] && smpirun="$dir/smpirun"
for cand in $smpirun "$dir/mpiexec.$impl" "$dir/$(echo "$base" | sed 's/mpicc/mpiexec/')" "$dir/mpiexec"; do
    if [ -x "$cand" ] && [ ! -d "$cand" ]; then mpiexec=$cand; break; fi
done
echo "$impl $mpiexec"
