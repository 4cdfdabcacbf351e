#!/bin/sh
# bench/balance.sh - load balance: the programs of bench/balance/ against plain C and
# against OpenMP tasks, in every runtime mode.
#
#   sh bench/balance.sh                     every program (3-5 minutes on 2 cores)
#   sh bench/balance.sh nqueens uts         only these (names of bench/balance/*.wtc)
#   WTC_BENCH_RUNS=5 sh bench/balance.sh    median of 5 runs instead of 3
#   WTC_BALANCE_MODES="omp steal" sh bench/balance.sh   only these columns (plain C
#                                           always runs: it is the base)
#   WTC_BENCH_TIMEOUT=60 ...                seconds allowed to one run (default 120)
#   WTC_BALANCE_P=16 ...                    P cores instead of 2: OpenMP on P threads,
#                                           simple and steal -n P, dynamic -n P+1 (one
#                                           master beside P workers, as -n 3 on 2 cores)
#   WTC_BENCH_BUILT=DIR ...                 keep the binaries in DIR and take those that
#                                           are there instead of building them (build on
#                                           one machine, run on another without a compiler:
#                                           WTC_BENCH_BUILD_ONLY=1 builds and stops)
#
# Not a test: it prints figures, and says whether the targets of issue 10 were met.
# For each program (n-queens at cut-off depths 2, 3 and 4) it runs
#   plain C      tests/strip-annotations, then cc -O2 and wtcc's code layout (LAYOUT)
#   OpenMP       bench/balance/NAME.omp.c, cc -O2 -fopenmp, LAYOUT, OMP_NUM_THREADS=2
#   simple -n2   mpiexec -n 2 ./NAME --wtc-mode=simple
#   dynamic -n3  mpiexec -n 3 ./NAME --wtc-mode=dynamic --wtc-masters=1
#   steal -n2    mpiexec -n 2 ./NAME --wtc-mode=steal
# (the .wtc built with wtcc -O2 --no-predict). A run that exits non-zero, prints BAD or
# runs out of time counts as "fail" for its column, and the script goes on.
#
# Each figure is the median of WTC_BENCH_RUNS runs (default 3; the columns take turns
# within a round, so a drift of the shared machine hits them alike), both of the time
# the program prints for its parallel part ("TIME name seconds" on stderr) and of the
# wall time of the whole command, process and mpiexec start-up included. The table
# gives speed-ups over plain C: whole process, then the TIME line's in parentheses.
# The targets are judged on the whole-process speed-ups. A second table gives what each
# column spends outside its TIME line (MPI start and end, set-up, exit), in ms.

cd "$(dirname "$0")/.." || exit 2
WTCC=${WTCC:-bin/wtcc}
CC=${CC:-cc}
RUNS=${WTC_BENCH_RUNS:-3}
TMO=${WTC_BENCH_TIMEOUT:-120}
MODES=${WTC_BALANCE_MODES:-omp simple dynamic steal}
P=${WTC_BALANCE_P:-2}
BUILT=${WTC_BENCH_BUILT:-}
ALL="nqueens qsort_lomuto qsort_hoare msort cilksort fib mandel uts knapsack knapsack_share steps matmul floorplan floorplan_share strassen sparselu fft alignment lu rectmul radix sudoku tsp simpson skew connect4 bhut closest heat"
SRC=bench/balance
# Plain C and OpenMP get the code layout wtcc gives every program (doc/wtcc.md "Code
# layout"), so that the ratios measure the parallel run, not where a loop happens to
# start: sparse LU's plain C ran 1.32 s with cc -O2 alone and 0.90 s with these, as
# fast as the wtcc program at -n 1.
LAYOUT="-falign-functions=32 -falign-loops=64"

if [ ! -x "$WTCC" ]; then
    echo "balance: $WTCC not found; run make first" >&2
    exit 2
fi
for p in "$@"; do
    case " $ALL " in
    *" $p "*) ;;
    *) echo "balance: no program '$p' (one of: $ALL)" >&2; exit 2 ;;
    esac
done
for m in $MODES; do
    case $m in
    omp | simple | dynamic | steal) ;;
    *) echo "balance: no mode '$m' in WTC_BALANCE_MODES (omp simple dynamic steal)" >&2; exit 2 ;;
    esac
done
case $P in
'' | *[!0-9]* | 0 | 1) echo "balance: WTC_BALANCE_P must be a number of cores >= 2" >&2; exit 2 ;;
esac
[ $# -gt 0 ] && ALL="$*"
D=$(mktemp -d "${TMPDIR:-/tmp}/wtc-balance.XXXXXX") || exit 2
trap 'rm -rf "$D"' EXIT
trap 'exit 130' INT TERM
# B: where the binaries are (D, or WTC_BENCH_BUILT's folder, kept)
B=$D
if [ -n "$BUILT" ]; then
    mkdir -p "$BUILT" || exit 2
    B=$(cd "$BUILT" && pwd) || exit 2
fi

# build_fail WHAT: show the log of a failed build and stop (nothing to measure then)
build_fail() {
    echo "balance: building $1 failed:" >&2
    cat "$D/build.log" >&2
    exit 2
}

# build NAME BIN [FLAGS]: $B/BIN.plain, $B/BIN.omp and $B/BIN from bench/balance/NAME
# (in WTC_BENCH_BUILT's folder: only those missing there)
build() {
    name=$1 bin=$2
    shift 2
    if [ -n "$BUILT" ] && [ -x "$B/$bin.plain" ] && [ -x "$B/$bin.omp" ] && [ -x "$B/$bin" ]; then
        return
    fi
    perl tests/strip-annotations "$SRC/$name.wtc" > "$D/$bin.plain.c" || build_fail "$name (strip)"
    $CC -O2 $LAYOUT "$@" -x c "$D/$bin.plain.c" -o "$B/$bin.plain" -lm > "$D/build.log" 2>&1 ||
        build_fail "$name (plain C)"
    $CC -O2 $LAYOUT -fopenmp "$@" "$SRC/$name.omp.c" -o "$B/$bin.omp" -lm > "$D/build.log" 2>&1 ||
        build_fail "$name (OpenMP)"
    "$WTCC" -O2 --no-predict "$@" "$SRC/$name.wtc" -o "$B/$bin" -lm > "$D/build.log" 2>&1 ||
        build_fail "$name (wtcc)"
    if [ -s "$D/build.log" ]; then # wtcc does not fail on warnings; say so here
        echo "balance: wtcc printed warnings for $name:" >&2
        cat "$D/build.log" >&2
    fi
}

# once COMMAND...: run it under timeout; print "kernel wall", or "fail" with the
# reason in $D/why
once() {
    t0=$(date +%s.%N)
    timeout -k 5 "$TMO" "$@" > "$D/stdout" 2> "$D/stderr" < /dev/null
    st=$?
    t1=$(date +%s.%N)
    if [ $st -ne 0 ] || grep -q BAD "$D/stdout" || ! grep -q '^TIME ' "$D/stderr"; then
        { echo "status $st: $*"; head -n 3 "$D/stderr"; grep BAD "$D/stdout"; } > "$D/why"
        [ $st -eq 124 ] && echo "(timed out after $TMO s)" >> "$D/why"
        echo fail
        return
    fi
    awk -v t0="$t0" -v t1="$t1" '
        /^TIME / { k = $3 }
        END { printf "%.4f %.4f\n", k, t1 - t0 }' "$D/stderr"
}

# run_mode BIN MODE: one run of BIN in column MODE
run_mode() {
    case $2 in
    plain) once "$B/$1.plain" ;;
    omp) once env OMP_NUM_THREADS=$P "$B/$1.omp" ;;
    simple) once mpiexec -n $P "$B/$1" --wtc-mode=simple ;;
    dynamic) once mpiexec -n $((P + 1)) "$B/$1" --wtc-mode=dynamic --wtc-masters=1 ;;
    steal) once mpiexec -n $P "$B/$1" --wtc-mode=steal ;;
    esac
}

# median FILE: "kernel wall", the medians of the lines of FILE, or "fail" if one failed
median() {
    if grep -q fail "$1"; then
        echo fail
        return
    fi
    k=$(sort -n -k1,1 "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
    w=$(sort -n -k2,2 "$1" | awk '{ v[NR] = $2 } END { print v[int((NR + 1) / 2)] }')
    echo "$k $w"
}

# measure ROW BIN MODES: RUNS rounds of every mode of MODES in turn (a mode that failed
# is not run again); the medians go to $D/res.ROW.MODE
measure() {
    row=$1 bin=$2 modes=$3
    for m in $modes; do : > "$D/runs.$m"; done
    i=0
    while [ $i -lt "$RUNS" ]; do
        for m in $modes; do
            grep -q fail "$D/runs.$m" && continue
            run_mode "$bin" "$m" >> "$D/runs.$m"
            grep -q fail "$D/runs.$m" && mv "$D/why" "$D/why.$m"
        done
        i=$((i + 1))
    done
    for m in $modes; do
        median "$D/runs.$m" > "$D/res.$row.$m"
        printf '  %-14s %-8s %s\n' "$row" "$m" "$(cat "$D/res.$row.$m")"
        if [ -f "$D/why.$m" ]; then
            sed 's/^/      /' "$D/why.$m"
            rm -f "$D/why.$m"
        fi
    done
}

# label NAME: what the table calls the program
label() {
    case $1 in
    qsort_lomuto) echo "quicksort 8M, Lomuto" ;;
    qsort_hoare) echo "quicksort 8M, Hoare" ;;
    msort) echo "mergesort 8M" ;;
    cilksort) echo "cilksort 16M" ;;
    fib) echo "fib 44, n>20" ;;
    mandel) echo "Mandelbrot 1280^2" ;;
    uts) echo "UTS, 4.1M nodes" ;;
    knapsack) echo "knapsack 44, B&B" ;;
    knapsack_share) echo "knapsack 150, shared bound" ;;
    steps) echo "steps: 2000 regions" ;;
    matmul) echo "matmul 1024, quadrants" ;;
    floorplan) echo "floorplan 13, B&B" ;;
    floorplan_share) echo "floorplan 16, shared" ;;
    strassen) echo "Strassen 1024" ;;
    sparselu) echo "sparse LU 28x28 of 100" ;;
    fft) echo "FFT 2^23, radix 2" ;;
    alignment) echo "alignment, 4950 pairs" ;;
    lu) echo "LU 2048, Cilk's quadrants" ;;
    rectmul) echo "rectmul 1024x896x1152" ;;
    radix) echo "MSD radix 20M, 256-way par" ;;
    sudoku) echo "sudoku, 184622 solutions" ;;
    tsp) echo "TSP 16, shared bound" ;;
    simpson) echo "adaptive Simpson, 300 peaks" ;;
    skew) echo "skewed f(n-1)+f(n/8), 4000" ;;
    connect4) echo "connect four, 13 plies" ;;
    bhut) echo "Barnes-Hut forces, 30000" ;;
    closest) echo "closest pair, 2M points" ;;
    heat) echo "heat 4096x512, 200 steps" ;;
    esac
}

# The rows of the table: "row bin label", one per line.
: > "$D/rows"
echo "balance: P = $P on $(nproc) cores, median of $RUNS runs, $(date -u +%Y-%m-%d), load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
echo "balance: building in $B"
for p in $ALL; do
    if [ "$p" = nqueens ]; then
        for c in 2 3 4; do
            build nqueens nqueens_c$c -DCUTOFF=$c
            echo "nqueens_c$c nqueens_c$c nqueens15, depth<$c" >> "$D/rows"
        done
    else
        build "$p" "$p"
        echo "$p $p $(label "$p")" >> "$D/rows"
    fi
done
if [ "${WTC_BENCH_BUILD_ONLY:-0}" = 1 ]; then
    echo "balance: built in $B; not run (WTC_BENCH_BUILD_ONLY=1)"
    exit 0
fi

echo "balance: running (medians: TIME-line s, wall s)"
# every row measures its own plain C (n-queens' too, the same program at each cut-off),
# in the same rounds as its other columns
while read -r row bin label; do
    measure "$row" "$bin" "plain $MODES"
done < "$D/rows"

# speedup ROW MODE: "whole kernel" speed-ups over plain C, or "fail" / "-" (not run)
speedup() {
    [ -s "$D/res.$1.$2" ] || { echo "-"; return; }
    # shellcheck disable=SC2046 # split "kernel wall" into words
    set -- $(cat "$D/res.$1.plain") $(cat "$D/res.$1.$2")
    if [ "$1" = fail ] || [ "$3" = fail ]; then
        echo fail
        return
    fi
    awk -v pk="$1" -v pw="$2" -v k="$3" -v w="$4" 'BEGIN {
        printf "%.3f %.3f\n", (w > 0 ? pw / w : 0), (k > 0 ? pk / k : 0) }'
}

# cell ROW MODE: a table cell, "1.85x (1.92x)"
cell() {
    # shellcheck disable=SC2046 # split "whole kernel" into words
    set -- $(speedup "$1" "$2")
    case $1 in
    fail | -) echo "$1" ;;
    *) printf '%.2fx (%.2fx)\n' "$1" "$2" ;;
    esac
}

# best ROW: the best whole-process speed-up of the wtcc modes that ran, or "fail"/"-"
best() {
    b=-
    for m in simple dynamic steal; do
        s=$(speedup "$1" $m | cut -d' ' -f1)
        case $s in
        -) ;;
        fail) [ "$b" = - ] && b=fail ;;
        *) b=$(awk -v b="$b" -v s="$s" 'BEGIN { print (b == "-" || b == "fail" || s > b) ? s : b }') ;;
        esac
    done
    echo "$b"
}

echo
echo "speed-up over plain C: whole process (TIME line); plain C: wall s (TIME s)"
printf '%-22s | %-15s | %-15s | %-15s | %-15s | %-15s\n' \
    program "plain C s" "OpenMP $P thr" "simple -n$P" "dynamic -n$((P + 1))" "steal -n$P"
printf '%s\n' "-----------------------+-----------------+-----------------+-----------------+-----------------+----------------"
while read -r row bin label; do
    plain=$(cat "$D/res.$row.plain")
    case $plain in
    fail) plain=fail ;;
    *) plain=$(echo "$plain" | awk '{ printf "%.3f (%.3f)", $2, $1 }') ;;
    esac
    printf '%-22s | %-15s | %-15s | %-15s | %-15s | %-15s\n' "$label" "$plain" \
        "$(cell "$row" omp)" "$(cell "$row" simple)" "$(cell "$row" dynamic)" "$(cell "$row" steal)"
done < "$D/rows"

# outside ROW MODE: wall minus TIME of the medians, in ms, or "fail" / "-"
outside() {
    [ -s "$D/res.$1.$2" ] || { echo "-"; return; }
    awk '$1 == "fail" { print "fail"; exit } { printf "%.0f\n", 1000 * ($2 - $1) }' "$D/res.$1.$2"
}

# What the whole process pays beside the program's timed part (MPI's start and end, the
# program's own set-up and output, the exit): where a mode's whole-process speed-up falls
# short of its TIME line's, this says by how many milliseconds, beside plain C's and
# OpenMP's own.
echo
echo "outside the TIME line (wall - TIME of the medians, ms): MPI start and end, set-up, exit"
printf '%-22s | %-15s | %-15s | %-15s | %-15s | %-15s\n' \
    program "plain C" "OpenMP $P thr" "simple -n$P" "dynamic -n$((P + 1))" "steal -n$P"
while read -r row bin label; do
    printf '%-22s | %-15s | %-15s | %-15s | %-15s | %-15s\n' "$label" "$(outside "$row" plain)" \
        "$(outside "$row" omp)" "$(outside "$row" simple)" "$(outside "$row" dynamic)" \
        "$(outside "$row" steal)"
done < "$D/rows"

# target TEXT VALUE LIMIT: "met" if VALUE >= LIMIT; VALUE may be "fail" or "-"
target() {
    case $2 in
    -) verdict="not run" ;;
    fail) verdict="NOT met (fail)" ;;
    *) verdict=$(awk -v v="$2" -v l="$3" 'BEGIN {
           printf("%s (%.2fx, target %.2fx)", v >= l ? "met" : "NOT met", v, l) }') ;;
    esac
    printf '  target: %-54s %s\n' "$1" "$verdict"
}

# whole ROW MODE: the whole-process speed-up alone
whole() {
    speedup "$1" "$2" | cut -d' ' -f1
}

echo
if [ "$P" != 2 ]; then
    echo "targets: issue 10's are for 2 cores (WTC_BALANCE_P=2); none judged at P = $P"
    exit 0
fi
echo "targets (whole-process speed-ups over plain C):"
for row in nqueens_c2 nqueens_c3 nqueens_c4 uts fib; do
    grep -q "^$row " "$D/rows" && target "$row steal -n 2 >= 1.85x" "$(whole $row steal)" 1.85
done
for row in nqueens_c2 nqueens_c3 nqueens_c4; do
    grep -q "^$row " "$D/rows" && target "$row dynamic -n 3, 1 master >= 1.7x" "$(whole $row dynamic)" 1.7
done
for row in qsort_lomuto qsort_hoare; do
    grep -q "^$row " "$D/rows" && target "$row best mode >= 1.5x" "$(best $row)" 1.5
done
grep -q "^msort " "$D/rows" && target "msort simple -n 2 >= 1.75x" "$(whole msort simple)" 1.75
while read -r row bin label; do
    o=$(whole "$row" omp)
    b=$(best "$row")
    case $o in
    - | fail) target "$row best mode >= 0.95 x OpenMP" "-" 0 ;;
    *) case $b in
       - | fail) target "$row best mode >= 0.95 x OpenMP" "$b" 0 ;;
       *) target "$row best mode >= 0.95 x OpenMP ($o)" "$b" "$(awk -v o="$o" 'BEGIN { printf "%.4f", 0.95 * o }')" ;;
       esac ;;
    esac
done < "$D/rows"
