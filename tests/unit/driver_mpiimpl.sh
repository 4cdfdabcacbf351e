#!/bin/sh
# driver_mpiimpl.sh - wtcc links the runtime of the wrapper's MPI (doc/wtcc.md "One
# runtime per MPI"): mpicc gets lib/wtc/<its MPI>/libwtcrt_mpi.a; a wrapper of an MPI
# this wtcc has no runtime for, or a compiler without <mpi.h>, is a clear error with
# status 2 and no output, never a program linked against another MPI's runtime.
# Run from the repository root after 'make'. WTCC=path overrides bin/wtcc.
. "$PWD/tests/unit/driver_lib.inc"
impl=$(sh tools/mpi-info.sh mpicc | cut -d' ' -f1)
[ -n "$impl" ] || { echo "FAIL: tools/mpi-info.sh mpicc says nothing"; exit 1; }
cp "$SRC" "$T/fib.wtc" && cd "$T" && mkdir fake || exit 1

timeout 120 "$WTCC" -v fib.wtc -o prog 2>err || fail "wtcc failed: $(cat err)"
# (the wrapper itself, or the command its -show named: wtc/wrapper.c)
grep -q "^ [^ ]* .*-E -P -DWTC_MPI_IMPL_PRINT .*wtc_mpi_impl.h" err ||
    fail "the wrapper was not asked which MPI it is: $(cat err)"
grep -q "^ [^ ]* .*-Wall .*/lib/wtc/$impl/libwtcrt_mpi.a" err ||
    fail "mpicc ($impl) did not link lib/wtc/$impl/libwtcrt_mpi.a: $(cat err)"

# a wrapper whose <mpi.h> is another MPI's (here: a fake Open MPI, or MPICH when the
# default is Open MPI) for which lib/wtc holds no runtime
if [ "$impl" = openmpi ]; then other=mpich macro=MPICH_VERSION; else other=openmpi macro=OMPI_MAJOR_VERSION; fi
echo "#define $macro 4" > fake/mpi.h
printf '#!/bin/sh\nexec cc -I"%s/fake" "$@"\n' "$T" > other-mpicc && chmod +x other-mpicc
if [ ! -e "$(dirname "$WTCC")/../lib/wtc/$other/libwtcrt_mpi.a" ]; then
    timeout 120 "$WTCC" --cc="$T/other-mpicc" fib.wtc -o o1 2>err
    st=$?
    [ $st = 2 ] || fail "a wrapper of $other: status $st, expected 2: $(cat err)"
    grep -q "wtcc: error: no wtcc runtime for the MPI of '.*other-mpicc' ($other)" err ||
        fail "a wrapper of $other: message: $(cat err)"
    grep -q "note: this wtcc has runtimes for: .*$impl.*make MPI_OTHERS=" err ||
        fail "a wrapper of $other: no note on what exists and how to build: $(cat err)"
    [ ! -e o1 ] && [ ! -e o1.predict ] || fail "a wrapper of $other: an output was written"
fi

# a C compiler that is no MPI wrapper at all
timeout 120 "$WTCC" --cc=cc fib.wtc -o o2 2>err
st=$?
[ $st = 2 ] || fail "--cc=cc: status $st, expected 2: $(cat err)"
grep -q "wtcc: error: cannot tell which MPI 'cc' compiles for" err ||
    fail "--cc=cc: message: $(cat err)"
[ ! -e o2 ] || fail "--cc=cc: an output was written"

[ $failed = 0 ] && echo "PASS: driver_mpiimpl"
exit $failed
