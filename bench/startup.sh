#!/bin/sh
# bench/startup.sh - what a job costs before and after its work: the whole command's wall
# time of a wtcc program that ends at once, beside an MPI C program that only calls
# MPI_Init and MPI_Finalize and beside a C program that does nothing, at -n 1, 2, 3
# (doc/runtime.md "Start-up"). The difference between the first two is the runtime's
# own start and end; the second is MPI's and its launcher's.
#
#   sh bench/startup.sh                 -n 1, 2, 3; 21 runs each
#   WTC_BENCH_RUNS=41 WTC_STARTUP_NP="2 4" sh bench/startup.sh
#   WTC_BENCH_BUILT=DIR ...     keep the three programs in DIR and take them from there if
#                               they are (WTC_BENCH_BUILD_ONLY=1: build them and stop)
#
# Prints the median and the quartiles of each, in milliseconds. The runs of the three
# programs alternate, so drifts of a shared machine hit all three alike.
cd "$(dirname "$0")/.." || exit 2
WTCC=${WTCC:-bin/wtcc}
RUNS=${WTC_BENCH_RUNS:-21}
NPS=${WTC_STARTUP_NP:-1 2 3}
D=$(mktemp -d "${TMPDIR:-/tmp}/wtc-startup.XXXXXX") || exit 2
trap 'rm -rf "$D"' EXIT
trap 'exit 130' INT TERM
B=$D
if [ -n "${WTC_BENCH_BUILT:-}" ]; then
    mkdir -p "$WTC_BENCH_BUILT" || exit 2
    B=$WTC_BENCH_BUILT
fi

if [ ! -x "$WTCC" ]; then
    echo "startup: $WTCC not found; run make first" >&2
    exit 2
fi
if [ -z "${WTC_BENCH_BUILT:-}" ] || [ ! -x "$B/wtc" ] || [ ! -x "$B/mpi" ] || [ ! -x "$B/none" ]; then
    # fib 5 is below the sample's cut-off (n > 20): the region is opened and runs its
    # sequential clone, so the figure is start, one region, end
    "$WTCC" -O2 --no-predict samples/fib.wtc -o "$B/wtc" >"$D/log" 2>&1 ||
        { echo "startup: building samples/fib.wtc failed:" >&2; cat "$D/log" >&2; exit 2; }
    printf '#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize(); return 0; }\n' >"$D/mpi.c"
    mpicc -O2 "$D/mpi.c" -o "$B/mpi" >"$D/log" 2>&1 ||
        { echo "startup: mpicc failed:" >&2; cat "$D/log" >&2; exit 2; }
    printf 'int main(void) { return 0; }\n' >"$D/none.c"
    ${CC:-cc} -O2 "$D/none.c" -o "$B/none" >"$D/log" 2>&1 ||
        { echo "startup: cc failed:" >&2; cat "$D/log" >&2; exit 2; }
fi
[ "${WTC_BENCH_BUILD_ONLY:-0}" = 1 ] && { echo "startup: built in $B"; exit 0; }

# once FILE COMMAND...: appends the command's wall time in ms to FILE (or "fail")
once() {
    f=$1
    shift
    t0=$(date +%s%N)
    if timeout -k 5 60 "$@" >/dev/null 2>&1 </dev/null; then
        t1=$(date +%s%N)
        echo $(((t1 - t0) / 1000)) | awk '{ printf "%.2f\n", $1 / 1000 }' >>"$f"
    else
        echo fail >>"$f"
    fi
}

# stats FILE: "median (q1-q3)" of its numbers, or "fail"
stats() {
    if grep -q fail "$1"; then
        echo fail
        return
    fi
    sort -n "$1" | awk '{ v[NR] = $1 }
        END { printf "%7.1f  (%.1f-%.1f)", v[int((NR + 1) / 2)], v[int((NR + 3) / 4)],
              v[int((3 * NR + 1) / 4)] }'
}

echo "startup: $(nproc) cores, $RUNS runs each, $(date -u '+%Y-%m-%d %H:%M'), load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
printf '%-6s %-24s %-24s %-24s\n' "procs" "wtcc program, ms" "MPI_Init+Finalize, ms" "empty C program, ms"
for np in $NPS; do
    : >"$D/w" && : >"$D/m" && : >"$D/n"
    i=0
    while [ $i -lt "$RUNS" ]; do
        once "$D/w" mpiexec -n "$np" "$B/wtc" 5
        once "$D/m" mpiexec -n "$np" "$B/mpi"
        once "$D/n" mpiexec -n "$np" "$B/none"
        i=$((i + 1))
    done
    printf '%-6s %-24s %-24s %-24s\n' "-n $np" "$(stats "$D/w")" "$(stats "$D/m")" "$(stats "$D/n")"
done
