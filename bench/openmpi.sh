#!/bin/sh
# bench/openmpi.sh - wtcc with Open MPI beside MPICH ('make check-openmpi'; doc/wtcc.md
# "One runtime per MPI"). Not part of 'make check': it may download Open MPI.
#   1. Open MPI: the system's mpicc.openmpi, else Debian's packages fetched and unpacked
#      into build/openmpi-root (tools/fetch-openmpi.sh; never installed system-wide,
#      which would switch every user's mpicc and mpiexec)
#   2. make: builds lib/wtc/openmpi/libwtcrt_mpi.a beside the default MPI's runtime
#   3. every samples/X.wtc built with wtcc --cc=mpicc.openmpi, run with Open MPI's
#      mpiexec at -n 1-5 in simple, dynamic and steal modes: stdout must be X.out
#   4. the launcher check both ways: a program of one MPI under the other's mpiexec -n 2
#      must stop with status != 0 and name its own mpiexec
# Prints "[PASS] ..." / "[FAIL] ..." per case and "N passed, N failed" last; status 0 iff
# nothing failed. Run from the repository root: sh bench/openmpi.sh [SAMPLE...]
cd "$(dirname "$0")/.." || exit 2
OUT=build/openmpi-check
RUN_TIMEOUT=${WTC_TEST_TIMEOUT:-120}
passed=0 failed=0
pass() { passed=$((passed + 1)); echo "[PASS] $1"; }
fail() { failed=$((failed + 1)); echo "[FAIL] $1: $2"; [ -s "${3:-}" ] && head -n 8 "$3" | sed 's/^/    | /'; }

if ! command -v mpicc.openmpi >/dev/null 2>&1; then
    env_sh=$(sh tools/fetch-openmpi.sh build/openmpi-root) || exit 2
    . "$env_sh"
fi
# mpiexec refuses root without these; oversubscription: more ranks than cores is wanted
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ompi_exec="mpiexec.openmpi --oversubscribe"
${MAKE:-make} --no-print-directory >/dev/null || { echo "openmpi: make failed" >&2; exit 2; }
[ -f lib/wtc/openmpi/libwtcrt_mpi.a ] || {
    echo "openmpi: make built no lib/wtc/openmpi/libwtcrt_mpi.a" >&2; exit 2; }
mkdir -p "$OUT"

# run_case NAME EXPECTED COMMAND...: stdout must be EXPECTED and the status 0
run_case() {
    name=$1 exp=$2; shift 2
    timeout -k 5 "$RUN_TIMEOUT" "$@" > "$OUT/stdout" 2> "$OUT/stderr" < /dev/null
    st=$?
    if [ $st -ne 0 ]; then fail "$name" "exit $st" "$OUT/stderr"
    elif ! cmp -s "$exp" "$OUT/stdout"; then
        diff "$exp" "$OUT/stdout" > "$OUT/diff"; fail "$name" "wrong output" "$OUT/diff"
    else pass "$name"; fi
}

# mismatch NAME RIGHT COMMAND...: must fail, naming RIGHT (the program's own mpiexec)
mismatch() {
    name=$1 right=$2; shift 2
    timeout -k 5 "$RUN_TIMEOUT" "$@" > "$OUT/stdout" 2> "$OUT/stderr" < /dev/null
    st=$?
    if [ $st -ne 0 ] && grep -q "wtc: note: start it with .*$right -n 2" "$OUT/stderr"; then
        pass "$name"
    else fail "$name" "exit $st, no message naming $right" "$OUT/stderr"; fi
}

samples=${*:-$(ls samples/*.wtc | xargs -n 1 basename | sed 's/\.wtc$//')}
for x in $samples; do
    args=$(cat "samples/$x.args" 2>/dev/null)
    flags=$(cat "samples/$x.flags" 2>/dev/null)
    # shellcheck disable=SC2086
    if ! bin/wtcc --cc=mpicc.openmpi --no-predict $flags "samples/$x.wtc" -o "$OUT/$x" \
            2> "$OUT/wtcc.err"; then
        fail "$x build" "wtcc --cc=mpicc.openmpi failed" "$OUT/wtcc.err"; continue
    fi
    for n in 1 2 3 4 5; do
        for mode in simple dynamic steal; do
            # shellcheck disable=SC2086
            run_case "$x -n $n --wtc-mode=$mode" "samples/$x.out" \
                $ompi_exec -n $n "$OUT/$x" --wtc-mode=$mode $args
        done
    done
done

# the launcher check, both ways (MPICH's side only where mpicc.mpich exists)
bin/wtcc --no-predict --cc=mpicc.openmpi samples/fib.wtc -o "$OUT/fib-openmpi" &&
    [ -x "$OUT/fib-openmpi" ] || fail "fib-openmpi build" "wtcc failed"
if command -v mpicc.mpich >/dev/null 2>&1 && [ -f lib/wtc/mpich/libwtcrt_mpi.a ]; then
    bin/wtcc --no-predict --cc=mpicc.mpich samples/fib.wtc -o "$OUT/fib-mpich" ||
        fail "fib-mpich build" "wtcc failed"
    mismatch "MPICH program under Open MPI's mpiexec -n 2" mpiexec.mpich \
        $ompi_exec -n 2 "$OUT/fib-mpich" 20
    mismatch "Open MPI program under MPICH's mpiexec -n 2" mpiexec.openmpi \
        mpiexec.mpich -n 2 "$OUT/fib-openmpi" 20
fi

echo "$passed passed, $failed failed"
[ $failed = 0 ]
