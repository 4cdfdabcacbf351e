#!/bin/sh
# bench/rt_doorbell.sh - what waking waiting ranks costs (doc/runtime.md "Waiting
# without burning a core"): the samples that wait most for masters and idle workers,
# dynamic mode at -n 3 (one master) on this machine, medians of RUNS (default 5) of
# the kernel time ("TIME" line), and the CPU time of the master rank (rank 2).
#
#   sh bench/rt_doorbell.sh [DIR]     builds the programs into DIR once
#                                     (default tests/out/rt/doorbell), then runs them
#   CONFIGS="WTC_DOORBELL=0 WTC_DOORBELL=1" sh bench/rt_doorbell.sh
#                                     compares environments (VAR=VALUE[,VAR=VALUE...]
#                                     each), their runs interleaved, one line each
#   ONLY="nqueens|msort" sh bench/rt_doorbell.sh     only the matching rows
# Rebuild (delete DIR) after changing the runtime. Run from the repository root.
cd "$(dirname "$0")/.." || exit 2
D=${1:-tests/out/rt/doorbell}
RUNS=${RUNS:-5}
CONFIGS=${CONFIGS:-default}
ONLY=${ONLY:-.} # an extended regular expression: only the rows whose label matches
mkdir -p "$D" || exit 2
. bench/rt_lib.inc

# build NAME SOURCE (once)
build() {
    [ -x "$D/$1" ] || bin/wtcc -O2 --no-predict "$2" -o "$D/$1" -lm > "$D/$1.log" 2>&1 || {
        echo "building $1 failed" >&2; cat "$D/$1.log" >&2; exit 2; }
}

for c in 2 3 4; do
    sed "s/cond: wtc_depth < [0-9]*;/cond: wtc_depth < $c;/" samples/nqueens.wtc \
        > "$D/nqueens_d$c.wtc"
    build nqueens_d$c "$D/nqueens_d$c.wtc"
done
for s in mandel msort qsort; do build $s samples/$s.wtc; done

# once CONFIG ARGS...: "kernel master-cpu" of one run at -n 3 (rank 2 in time(1))
once() {
    cfg=$1
    shift
    [ "$cfg" = default ] && cfg=
    timeout 120 env $(echo "$cfg" | tr , ' ') mpiexec -n 3 sh -c 'if [ "$PMI_RANK" = 2 ]; then
            exec /usr/bin/time -f "CPU %U %S" -o "$0.cpu" "$@"; else exec "$@"; fi' \
        "$D/cpu" "$@" > /dev/null 2> "$D/stderr" || { echo "nan nan"; return; }
    awk '/^TIME / { k = $3 } END { printf "%s ", k }' "$D/stderr"
    awk '/^CPU / { printf "%.3f\n", $2 + $3 }' "$D/cpu.cpu"
}

# row LABEL ARGS...: per config, median kernel time and master CPU of RUNS runs
row() {
    label=$1
    shift
    echo "$label" | grep -Eq "$ONLY" || return 0
    collect "$@"
    n=0
    for cfg in $CONFIGS; do
        n=$((n + 1))
        f=$D/times.$n
        k=$(sort -n -k1,1 "$f" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
        c=$(sort -n -k2,2 "$f" | awk '{ a[NR] = $2 } END { print a[int((NR + 1) / 2)] }')
        r=$(awk '{ printf "%.3f ", $1 }' "$f")
        printf "  %-26s %-22s %8.4f s  master cpu %5.3f s  (%s)\n" "$label" "$cfg" "$k" \
            "$c" "$r"
    done
}

for c in 2 3 4; do
    row "nqueens 14 wtc_depth < $c" "$D/nqueens_d$c" --wtc-mode=dynamic 14
done
row "mandel 1024 batch 1" "$D/mandel" --wtc-mode=dynamic --wtc-batch=1 1024
row "mandel 1024 batch 4096" "$D/mandel" --wtc-mode=dynamic --wtc-batch=4096 1024
row "msort 8M dynamic" "$D/msort" --wtc-mode=dynamic 8000000
row "qsort 8M dynamic" "$D/qsort" --wtc-mode=dynamic 8000000
