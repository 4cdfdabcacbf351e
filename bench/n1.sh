#!/bin/sh
# bench/n1.sh - a job of one rank against plain C (issue 10: "within 2 % of plain C for
# every sample and benchmark"): every sample at bench/bench's sizes, bench/fft.wtc and
# the programs of bench/balance at their own default sizes (named b-NAME; fib at 40).
#
#   sh bench/n1.sh                  everything (about 15 minutes on 2 cores)
#   sh bench/n1.sh fft msort        only these programs
#   WTC_BENCH_RUNS=9 sh bench/n1.sh
#
# For each program, WTC_BENCH_RUNS rounds (default 5); each round runs, in turn:
#   plain C               the program without annotations (tests/strip-annotations), cc -O2
#   plain C, mpiexec -n 1 the same under MPICH's launcher: the base of "mpiexec -n 1"'s
#                         wall time (hydra's own start-up is no part of the program)
#   no mpiexec            ./prog                 (runs without MPI: runtime/mpi/single.c)
#   mpiexec -n 1          mpiexec -n 1 ./prog    (the same)
#   MPI started           WTC_ALONE=0 ./prog     (MPI_Init as before the change)
# and prints the medians of the kernel time (the "TIME" line), of the whole command's
# wall time, of its CPU time (user + sys) and of its page faults (perf stat, else GNU
# time; under mpiexec the launcher's are included). "x plain" is the median over the
# rounds of this run / the same round's plain C run (under mpiexec for wall and CPU
# time), so drifts of a shared machine hit both alike; "ok" when it is at most 1.02.
# On a busy machine the CPU time is the steadiest of the three.
cd "$(dirname "$0")/.." || exit 2
WTCC=${WTCC:-bin/wtcc}
CC=${CC:-cc}
RUNS=${WTC_BENCH_RUNS:-5}
D=$(mktemp -d "${TMPDIR:-/tmp}/wtc-n1.XXXXXX") || exit 2
trap 'rm -rf "$D"' EXIT INT TERM

if [ ! -x "$WTCC" ]; then
    echo "n1: $WTCC not found; run make first" >&2
    exit 2
fi
# CPU time and page faults: perf stat (CPU time to the microsecond) or GNU time
# (to 10 ms), with the launcher's under mpiexec; without either, they show as nan
RUSAGE=none
if perf stat -x, -o /dev/null -e task-clock,page-faults true 2>/dev/null; then
    RUSAGE=perf
elif /usr/bin/time -f %e -o /dev/null true 2>/dev/null; then
    RUSAGE=gtime
fi

# the programs: NAME SOURCE ARGUMENTS (bench/bench's sizes)
PROGRAMS="msort:samples/msort.wtc:8000000 nqueens:samples/nqueens.wtc:14
qsort:samples/qsort.wtc:8000000 fib:samples/fib.wtc:42 points:samples/points.wtc:4000000
mandel:samples/mandel.wtc:1024 fft:bench/fft.wtc:23
b-nqueens:bench/balance/nqueens.wtc: b-qsort_lomuto:bench/balance/qsort_lomuto.wtc:
b-qsort_hoare:bench/balance/qsort_hoare.wtc: b-msort:bench/balance/msort.wtc:
b-cilksort:bench/balance/cilksort.wtc: b-fib:bench/balance/fib.wtc:40
b-mandel:bench/balance/mandel.wtc: b-uts:bench/balance/uts.wtc:
b-knapsack:bench/balance/knapsack.wtc: b-knapsack_share:bench/balance/knapsack_share.wtc:
b-steps:bench/balance/steps.wtc: b-matmul:bench/balance/matmul.wtc:
b-floorplan:bench/balance/floorplan.wtc: b-floorplan_share:bench/balance/floorplan_share.wtc:"
CONFIGS="plain plain-mpiexec alone mpiexec mpi"

# build NAME SOURCE: the Work-Time C program $D/NAME and the plain C one $D/NAME.plain
build() {
    perl tests/strip-annotations "$2" > "$D/$1.plain.c" &&
        $CC -O2 -x c "$D/$1.plain.c" -o "$D/$1.plain" -lm &&
        "$WTCC" -O2 --no-predict "$2" -o "$D/$1" -lm > "$D/$1.build.log" 2>&1 || {
        echo "n1: building $1 failed:" >&2
        cat "$D/$1.build.log" >&2
        exit 2
    }
}

# once CONFIG NAME ARGS...: one run; prints "kernel wall cpu faults" (nan: failed)
once() {
    cfg=$1 name=$2
    shift 2
    case $cfg in
    plain) set -- "$D/$name.plain" "$@" ;;
    plain-mpiexec) set -- mpiexec -n 1 "$D/$name.plain" "$@" ;;
    alone) set -- "$D/$name" "$@" ;;
    mpiexec) set -- mpiexec -n 1 "$D/$name" "$@" ;;
    mpi) set -- env WTC_ALONE=0 "$D/$name" "$@" ;;
    esac
    t0=$(date +%s.%N)
    case $RUSAGE in
    perf) perf stat -x, -o "$D/rusage" -e task-clock,page-faults -- "$@" ;;
    gtime) /usr/bin/time -f '%U %S %R' -o "$D/rusage" "$@" ;;
    *) "$@" ;;
    esac > "$D/stdout" 2> "$D/stderr" < /dev/null
    st=$?
    t1=$(date +%s.%N)
    case $RUSAGE in
    perf) ru=$(awk -F, '$3 == "task-clock" { c = $1 / 1000 } $3 == "page-faults" { f = $1 }
                        END { printf "%.4f %s", c, f }' "$D/rusage") ;;
    gtime) ru=$(tail -n 1 "$D/rusage" | awk '{ printf "%.2f %s", $1 + $2, $3 }') ;;
    *) ru="nan nan" ;;
    esac
    if [ $st -ne 0 ] || grep -q BAD "$D/stdout"; then
        echo "n1: failed (status $st): $*" >&2
        head -n 5 "$D/stdout" "$D/stderr" >&2
        echo "nan nan nan nan"
        return
    fi
    awk -v t0="$t0" -v t1="$t1" -v ru="$ru" '
        /^TIME / { k = $3 }
        END { w = t1 - t0; if (k == "") k = w; printf "%.4f %.4f %s\n", k, w, ru }' "$D/stderr"
}

# median FILE COLUMN: the median of a column
median() {
    sort -g -k"$2","$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'
}

# ratio FILE BASEFILE COLUMN: the median over rounds of FILE's value / BASEFILE's
ratio() {
    paste -d' ' "$1" "$2" | awk -v c="$3" '{ b = $(c + 4); if (b > 0) print $c / b }' |
        sort -g | awk '{ v[NR] = $1 } END { if (NR) printf "%.3f\n", v[int((NR + 1) / 2)]; else print "nan" }'
}

# verdict RATIO: ok / NOT ok for the 2 % target
verdict() {
    awk -v r="$1" 'BEGIN { print (r != "nan" && r <= 1.02) ? "ok " : "NOT" }'
}

# measure NAME ARGS...: RUNS interleaved rounds of every configuration, then the table
measure() {
    name=$1
    shift
    for c in $CONFIGS; do : > "$D/t.$c"; done
    i=0
    while [ $i -lt "$RUNS" ]; do
        for c in $CONFIGS; do once "$c" "$name" "$@" >> "$D/t.$c"; done
        i=$((i + 1))
    done
    echo "$name $*"
    printf "  %-22s %9s %-11s %9s %-11s %9s %-11s %8s\n" "" "TIME s" " x plain" "wall s" \
        " x plain" "cpu s" " x plain" "faults"
    for c in $CONFIGS; do
        case $c in
        plain) label="plain C" ;;
        plain-mpiexec) label="plain C, mpiexec -n 1" ;;
        alone) label="no mpiexec" ;;
        mpiexec) label="mpiexec -n 1" ;;
        mpi) label="MPI started (before)" ;;
        esac
        k=$(median "$D/t.$c" 1) w=$(median "$D/t.$c" 2)
        cpu=$(median "$D/t.$c" 3) f=$(median "$D/t.$c" 4)
        if [ "$c" = plain ] || [ "$c" = plain-mpiexec ]; then
            printf "  %-22s %9.4f %-11s %9.4f %-11s %9s %-11s %8s\n" "$label" "$k" "" "$w" "" \
                "$cpu" "" "$f"
            continue
        fi
        # the kernel against plain C; wall and CPU time against plain C under the same
        # launcher (hydra's start-up is no part of the program)
        base=plain
        [ "$c" = mpiexec ] && base=plain-mpiexec
        rk=$(ratio "$D/t.$c" "$D/t.plain" 1)
        rw=$(ratio "$D/t.$c" "$D/t.$base" 2)
        rc=$(ratio "$D/t.$c" "$D/t.$base" 3)
        printf "  %-22s %9.4f  %5s %-3s  %9.4f  %5s %-3s  %9s  %5s %-3s  %8s\n" "$label" "$k" \
            "$rk" "$(verdict "$rk")" "$w" "$rw" "$(verdict "$rw")" "$cpu" "$rc" \
            "$(verdict "$rc")" "$f"
        [ "$c" = mpi ] ||
            echo "$(verdict "$rk") $(verdict "$rw") $(verdict "$rc")" >> "$D/verdicts"
    done
}

echo "n1: $(nproc) cores, medians of $RUNS interleaved rounds, $(date -u +%Y-%m-%d)"
: > "$D/verdicts"
for p in $PROGRAMS; do
    name=${p%%:*} rest=${p#*:}
    src=${rest%%:*} args=${rest#*:}
    if [ $# -gt 0 ]; then
        case " $* " in *" $name "*) ;; *) continue ;; esac
    fi
    build "$name" "$src"
    measure "$name" $args
done
echo
awk '{ n++; k += $1 == "ok"; w += $2 == "ok"; c += $3 == "ok" }
     END { printf "n1: within 2 %% of plain C (no mpiexec and mpiexec -n 1, %d in all): " \
                  "TIME %d, wall %d, cpu %d\n", n, k, w, c }' "$D/verdicts"
