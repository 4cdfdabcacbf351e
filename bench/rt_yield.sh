#!/bin/sh
# bench/rt_yield.sh - the waiting ranks' yield phase (doc/runtime.md "Waiting without
# burning a core"): medians of RUNS (default 5) kernel times ("TIME" line) of the
# programs whose speed depends on how fast a waiting rank answers, per configuration,
# runs interleaved.
#
#   CONFIGS="default WTC_YIELD_US=20 WTC_YIELD_US=100,WTC_YIELD_OVER_US=5" \
#       sh bench/rt_yield.sh [DIR]    (VAR=VALUE[,VAR=VALUE...] each, one column each)
#   OLD=/path/to/other/bin/wtcc       adds a column built with another compiler/runtime
#   ONLY="fib|nqueens"                only the rows whose label matches (egrep)
# Programs are built into DIR (default tests/out/rt/yield); delete it after changing
# the runtime. Run from the repository root.
cd "$(dirname "$0")/.." || exit 2
D=${1:-tests/out/rt/yield}
RUNS=${RUNS:-5}
CONFIGS=${CONFIGS:-default}
ONLY=${ONLY:-.}
mkdir -p "$D" || exit 2
. bench/rt_lib.inc

# build DIR NAME SOURCE WTCC (once)
build() {
    [ -x "$1/$2" ] || "$4" -O2 --no-predict "$3" -o "$1/$2" -lm > "$1/$2.log" 2>&1 || {
        echo "building $2 failed" >&2; cat "$1/$2.log" >&2; exit 2; }
}
for s in fib mandel msort nqueens qsort; do build "$D" $s samples/$s.wtc bin/wtcc; done
if [ -n "$OLD" ]; then
    mkdir -p "$D/old"
    for s in fib mandel msort nqueens qsort; do build "$D/old" $s samples/$s.wtc "$OLD"; done
    CONFIGS="$CONFIGS old"
fi

# once CONFIG NP PROG ARGS...: the kernel time of one run
once() {
    cfg=$1 np=$2 prog=$3
    shift 3
    if [ "$cfg" = old ]; then prog=$D/old/$prog; cfg=; else prog=$D/$prog; fi
    [ "$cfg" = default ] && cfg=
    timeout 120 env $(echo "$cfg" | tr , ' ') mpiexec -n "$np" "$prog" "$@" \
        > /dev/null 2> "$D/stderr" || { echo nan; return; }
    awk '/^TIME / { k = $3 } END { print k }' "$D/stderr"
}

# row LABEL NP PROG ARGS...: per config, the median of RUNS runs
row() {
    label=$1
    shift
    echo "$label" | grep -Eq "$ONLY" || return 0
    collect "$@"
    n=0
    printf "%-28s" "$label"
    for cfg in $CONFIGS; do
        n=$((n + 1))
        printf " %7.3f" "$(sort -n "$D/times.$n" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')"
    done
    echo
}

echo "# configs: $CONFIGS"
row "fib 41 dyn -n 2" 2 fib 41
row "nqueens 14 dyn -n 3" 3 nqueens 14
row "mandel 1024 -n 3 batch 1" 3 mandel --wtc-mode=dynamic --wtc-batch=1 1024
row "mandel 1024 dyn -n 2" 2 mandel --wtc-mode=dynamic 1024
row "qsort 8M dyn -n 3" 3 qsort --wtc-mode=dynamic 8000000
row "msort 8M dyn -n 3" 3 msort --wtc-mode=dynamic 8000000
