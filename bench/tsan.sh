#!/bin/sh
# bench/tsan.sh - the MPI runtime under ThreadSanitizer: rank 0 runs a region while a
# second thread still starts MPI (doc/runtime.md "Start-up", a region held), so the two
# threads share the runtime's state for a while; this builds a few programs with
# -fsanitize=thread against the runtime's sources and runs them in every mode.
#
#   sh bench/tsan.sh            (about a minute on 2 cores)
#
# Not part of `make check` (a separate build of the runtime, and slow); run it after a
# change to mpi/single.c, mpi/transport.c or anything the main thread does while held.
# UCX's memory hooks must be off under TSan, or the ranks die of SIGSEGV. Prints one
# line per run and "N runs, M with a report"; exits 1 when any run reported or failed.
cd "$(dirname "$0")/.." || exit 2
[ -x bin/wtcc ] || { echo "tsan: run make first" >&2; exit 2; }
D=$(mktemp -d "${TMPDIR:-/tmp}/wtc-tsan.XXXXXX") || exit 2
trap 'rm -rf "$D"' EXIT INT TERM
export UCX_MEM_MALLOC_HOOKS=no UCX_MEM_MMAP_HOOK_MODE=none UCX_MEM_EVENTS=no
export TSAN_OPTIONS=${TSAN_OPTIONS:-history_size=7}
MPIEXEC=$(sh tools/mpi-info.sh mpicc | cut -d' ' -f2)
[ -n "$MPIEXEC" ] || MPIEXEC=mpiexec

# build NAME SOURCE: the generated C of SOURCE with the runtime's sources, under TSan
build() {
    bin/wtcc --no-predict -E "$2" -o "$D/$1.c" &&
        mpicc -std=gnu11 -O1 -g -fsanitize=thread -DWTCRT_MPI \
            -DWTCRT_MPIEXEC="\"$MPIEXEC\"" -Iruntime -Iruntime/common -Iruntime/core \
            -Iruntime/mpi -Ilib/wtc/include "$D/$1.c" runtime/common/*.c runtime/core/*.c \
            runtime/mpi/*.c -lm -lpthread -o "$D/$1" 2>"$D/$1.log" || {
        echo "tsan: building $2 failed:" >&2
        head -5 "$D/$1.log" >&2
        exit 2
    }
}
build inline tests/unit/rt_inline.wtc
build hold tests/unit/rt_hold.wtc
build msort samples/msort.wtc

runs=0 bad=0
# run NP PROG ARGS...
run() {
    np=$1
    shift
    runs=$((runs + 1))
    timeout 300 mpiexec -n "$np" "$@" >"$D/out" 2>&1
    st=$?
    n=$(grep -c 'WARNING: ThreadSanitizer' "$D/out")
    echo "-n $np $(basename "$1") $(shift; echo "$@"): status $st, $n report(s)"
    if [ "$st" != 0 ] || [ "$n" != 0 ]; then
        bad=$((bad + 1))
        grep -A12 -m1 'WARNING: ThreadSanitizer' "$D/out" | sed 's/^/    /'
    fi
}
for m in simple steal; do
    for np in 2 4; do
        run $np "$D/inline" fib 20 --wtc-mode=$m
        run $np "$D/inline" comb 16 20 --wtc-mode=$m
        run $np "$D/hold" 0.1 --wtc-mode=$m
        run $np "$D/msort" 400000 --wtc-mode=$m
    done
done
run 3 "$D/inline" fib 20 --wtc-mode=dynamic --wtc-masters=1
run 3 "$D/inline" comb 16 20 --wtc-mode=dynamic --wtc-masters=1
run 3 "$D/hold" 0.1 --wtc-mode=dynamic --wtc-masters=1
run 5 "$D/msort" 400000 --wtc-mode=dynamic --wtc-masters=2
echo "tsan: $runs runs, $bad with a report or a failure"
[ "$bad" = 0 ]
