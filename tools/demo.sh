#!/bin/sh
# demo.sh - what 'make demo' runs after the build: compile a sample with bin/wtcc, run it
# in simple mode on 2 processes, in dynamic mode on 3 and in steal mode on 2 (with
# statistics), then ask its
# predictor how it would do on 1, 2, 4 and 8 processors. Stops at the first failing step.
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
NAME=$(basename "$SRC" .wtc)
OUT=$ROOT/tests/out/demo
mkdir -p "$OUT" || exit 1
STEP=0

# Print a header, the command, then run it; stop the demo if it fails.
step() {
    title=$1
    shift
    STEP=$((STEP + 1))
    printf '\n=== %d. %s\n$ %s\n' "$STEP" "$title" "$*"
    "$@"
    st=$?
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
step "predict the run time on 1, 2, 4 and 8 processors, without a cluster" \
    timeout 300 "./$NAME.predict" --wtc-procs=1,2,4,8
printf '\ndemo: all %d steps passed. Try: mpiexec -n 4 tests/out/demo/%s\n' "$STEP" "$NAME"
