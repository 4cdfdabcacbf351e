#!/bin/sh
# demo.sh - what 'make demo' runs after the build: compile a sample with bin/wtcc, run it
# in simple mode on 2 processes, in dynamic mode on 3 and in steal mode on 2 (with
# statistics), calibrate this host in a few seconds (wtc-calibrate --quick), then ask
# the predictor how the program would do on this host and on a 10 Gb/s Ethernet
# cluster (the ethernet-10g-mpich preset), each with a speed-up plot (SVG). Stops at the
# first failing step.
#
#   sh tools/demo.sh [sample.wtc]      (from the repository root; default samples/msort.wtc)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SRC=${1:-$ROOT/samples/msort.wtc}
[ -f "$SRC" ] || SRC=$(ls "$ROOT"/samples/*.wtc 2>/dev/null | head -n 1)
if [ -z "$SRC" ] || [ ! -f "$SRC" ]; then
    echo "demo: no sample found in samples/" >&2
    exit 1
fi
WTCC=${WTCC:-$ROOT/bin/wtcc}
CALIBRATE=${CALIBRATE:-$ROOT/bin/wtc-calibrate}
NAME=$(basename "$SRC" .wtc)
OUT=$ROOT/tests/out/demo
mkdir -p "$OUT" || exit 1
STEP=0

# Print a header, the command, then run it; stop the demo if it fails.
step() {
    step_to "" "$@"
}

# As step; a non-empty FILE keeps the command's standard output too (for the summary).
step_to() {
    file=$1 title=$2
    shift 2
    STEP=$((STEP + 1))
    printf '\n=== %d. %s\n$ %s\n' "$STEP" "$title" "$*"
    if [ -n "$file" ]; then
        "$@" >"$file"
        st=$?
        cat "$file"
    else
        "$@"
        st=$?
    fi
    if [ $st -ne 0 ]; then
        printf '\ndemo: step %d failed (exit status %d): %s\n' "$STEP" $st "$*" >&2
        exit 1
    fi
}

cd "$OUT" || exit 1
echo "wtcc demo: $SRC -> tests/out/demo/$NAME and $NAME.predict"
step "compile: wtcc turns the annotated C into an MPI program and its predictor" \
    "$WTCC" "$SRC" -o "$NAME"
step "run on 2 processes in simple mode (static splitting of the recursion)" \
    timeout 120 mpiexec -n 2 "./$NAME" --wtc-mode=simple
step "run on 3 processes in dynamic mode (1 master, 2 workers), with statistics" \
    timeout 120 mpiexec -n 3 "./$NAME" --wtc-mode=dynamic --wtc-stats
step "run on 2 processes in steal mode (idle ranks steal the oldest work), with statistics" \
    timeout 120 mpiexec -n 2 "./$NAME" --wtc-mode=steal --wtc-stats
step_to start.arg "time a job that ends at once: its launch, MPI's start, its end (3 runs at -n 2)" \
    sh "$ROOT/calibrate/start.sh" 2 3
step "calibrate this host in a few seconds: message costs, waiting, cores" \
    timeout 120 mpiexec -n 2 "$CALIBRATE" --quick --name=this-host -o host.conf $(cat start.arg)
# this host: 1, 2, 4 ... up to its cores (more ranks than cores is not modelled well)
CORES=$(nproc 2>/dev/null || echo 2)
PROCS=1 p=1
while [ $((p * 2)) -le "$CORES" ]; do p=$((p * 2)); PROCS=$PROCS,$p; done
[ "$PROCS" = 1 ] && PROCS=1,2
step_to host.txt "predict on this host (its calibration) for $PROCS processors, with a plot" \
    timeout 300 "./$NAME.predict" --wtc-machine=./host.conf --wtc-procs=$PROCS \
    --wtc-masters=1 --wtc-plot=host.svg
step_to cluster.txt "predict on a cluster of 1 to 128 nodes on 10 Gb/s Ethernet, with a plot" \
    timeout 300 "./$NAME.predict" --wtc-machine=ethernet-10g-mpich --wtc-plot=cluster.svg
printf '\ndemo: all %d steps passed. What the predictor says about %s:\n' "$STEP" "$NAME"
printf '  this host (%s cores): %s\n' "$CORES" \
    "$(grep '^best:' host.txt)"
printf '  10 GbE cluster:      %s\n' "$(grep '^best:' cluster.txt)"
printf '  plots (open them in a web browser): tests/out/demo/host.svg, tests/out/demo/cluster.svg\n'
printf '  a cluster of your own: mpiexec -n P bin/wtc-calibrate -o mine.conf, then\n'
printf '  ./%s.predict --wtc-machine=./mine.conf. Try: mpiexec -n 4 tests/out/demo/%s\n' \
    "$NAME" "$NAME"
