#!/bin/sh
# Element counts larger than their buffers (doc/wtcc.md "Checking element counts"):
# tests/unit/rt_counts.wtc in each of its cases, built normally and with wtcc --check,
# at -n 1..3 (and the root's cases built with -fsanitize=address). A case that must be
# caught stops with status 2 and one error naming the call's file:line (where there is one), the function and the argument, before any
# memory is corrupted; the correct program runs in both builds. Then every sample and
# every tests/run program built with --check prints its expected output (no false
# alarm) at -n 1 and 3. And where the way out hangs (MPI_Abort that never returns),
# the job still ends, and fails.
. "$(dirname "$0")/rt_lib.inc"
MODE= # --wtc-mode=... after the arguments of expect's runs; empty: the source's

src=tests/unit/rt_counts.wtc
$RT_WTCC "$src" -o "$RT_OUT/counts" || { echo "[FAIL] build"; exit 1; }
$RT_WTCC --check "$src" -o "$RT_OUT/counts_chk" || { echo "[FAIL] build --check"; exit 1; }
[ -x "$RT_OUT/counts_chk.predict" ] || rt_fail "--check builds the predictor too"

# expect BUILD CASE NP caught|runs [TEXT]: caught = status 2, exactly one error that
# contains "call of fill: argument 'a' (out: a[m])" and TEXT, the program's output not
# printed; runs = status 0 and "CASE: OK"
expect() {
    b=$1 c=$2 np=$3 what=$4 text=${5:-}
    # shellcheck disable=SC2086
    rt_run "$np" "$RT_OUT/$b" "$c" 10000 $MODE
    label="$b $c -n $np${MODE:+ $MODE}: $what"
    if [ "$what" = runs ]; then
        rt_expect "$label" 0 "$c: OK"
        return
    fi
    n=$(grep -c "fatal: .*call of fill: argument 'a' (out: a\[m\]) has" "$RT_STDERR")
    if [ "$RT_RC" != 2 ]; then rt_fail "$label" "exit status $RT_RC, want 2"
    elif [ "$n" != 1 ]; then rt_fail "$label" "$n error lines, want 1"
    elif [ -n "$text" ] && ! grep -q "fatal: .*$text" "$RT_STDERR"; then
        rt_fail "$label" "the error does not say '$text'"
    elif grep -q "$c: " "$RT_STDOUT"; then rt_fail "$label" "the program went on"
    elif grep -q "the job did not stop within" "$RT_STDERR"; then
        rt_fail "$label" "the way out hung: the watchdog ended the rank"
    else rt_pass "$label"; fi
}

for np in 1 2 3; do
    for b in counts counts_chk; do
        expect $b ok $np runs
        expect $b root-heap $np caught "rt_counts.wtc:74: call of fill: .* has 10001 elements (40004 bytes), but only 40000 bytes"
        expect $b root-array $np caught "rt_counts.wtc:76: call of fill: .*1001 elements"
    done
    # the last child has one element too many: seen where it is sent (-n 2, 3), and by
    # --check wherever it runs
    if [ $np = 1 ]; then expect counts child 1 runs
    else expect counts child $np caught "of the calling fill's argument 'a' (out: a\[m\] = 10000 elements)"; fi
    expect counts_chk child $np caught "rt_counts.wtc:43: call of fill"
    # the root's count is too large for a block malloc'ed elsewhere: only --check
    expect counts heap-only $np runs
    expect counts_chk heap-only $np caught "rt_counts.wtc:85: .*heap block of 40008 bytes"
    # a negative count (the last child's): before 2026-12-03 it travelled as none
    # (simple -n 2 printed BAD, dynamic -n 3 died in free()); now caught wherever the
    # spawn evaluates it: a job of one runs the tree as plain C, in place (latent, as
    # for child above), --check builds evaluate every count
    if [ $np = 1 ]; then expect counts negative 1 runs
    else expect counts negative $np caught "has -1 elements: an element count must not be negative"; fi
    expect counts_chk negative $np caught "has -1 elements: an element count must not be negative"
done
# (dynamic -n 2: its one worker runs the whole tree in place, evaluating no count)
MODE=--wtc-mode=dynamic expect counts negative 3 caught "has -1 elements"
for np in 2 3; do
    MODE=--wtc-mode=steal expect counts negative $np caught "has -1 elements"
done
MODE=
# the way out hangs (MPI_Abort preloaded to wait for ever): the rank's watchdog ends it
# WTC_ABORT_WAIT_S seconds after the error, saying so, and the launcher stops the job
# with a failure: hydra returns the rank's 2, the 9 of the SIGKILL it stopped the others
# with, or the 1 of a rank whose MPI lost rank 0 first, whichever it saw last (all three
# seen); never the timeout's 124
shim=$RT_OUT/abort_hang.so
if mpicc -shared -fPIC -O2 tests/unit/rt_abort_hang.c -o "$shim" >"$RT_STDERR" 2>&1; then
    RT_RC=0
    t0=$(date +%s)
    WTC_ABORT_WAIT_S=2 timeout "$RT_TIMEOUT" mpiexec -n 3 env LD_PRELOAD="$PWD/$shim" \
        "$RT_OUT/counts" child 10000 >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
    t=$(($(date +%s) - t0))
    if [ "$RT_RC" != 0 ] && [ "$RT_RC" != 124 ] && [ "$t" -lt 60 ] &&
        grep -q "fatal: .*call of fill: argument 'a'" "$RT_STDERR" &&
        grep -q "^wtc: rank 0: the job did not stop within 2 s of the error above; this rank exits (status 2)$" "$RT_STDERR"
    then rt_pass "MPI_Abort hangs: the watchdog ends the job in $t s, status $RT_RC"
    else rt_fail "MPI_Abort hangs" "status $RT_RC after $t s"; fi
else
    rt_fail "build rt_abort_hang.c"
fi

# a program built with -fsanitize=address still checks the counts of a call from main
# and of a spawn point in main (tests/unit/rt_counts_par.wtc, -n 2): each asks the
# object size of the call's own parameters or argument expressions (codegen/marshal.c
# emit_check, clone.c spawn_count_check); through the args struct, whose address
# escapes, gcc could not tell under AddressSanitizer: the root-heap and root-array cases
# ran on (status 0), and the spawn's callee wrote past the array (ASan's report, 1)
if [ -z "$SAN" ]; then
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:verify_asan_link_order=0}
    for san in "" -fsanitize=address; do
        label="a spawn point in main${san:+ built with $san}, -n 2"
        if $RT_WTCC $san --no-predict tests/unit/rt_counts_par.wtc -o "$RT_OUT/counts_par" \
            >"$RT_STDERR" 2>&1; then
            RT_RC=0
            timeout "$RT_TIMEOUT" mpiexec -n 2 "$RT_OUT/counts_par" bad \
                >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
            if [ "$RT_RC" = 2 ] &&
                grep -q "fatal: .*rt_counts_par.wtc:23: call of fill: argument 'a' (out: a\[m\]) has 501 elements" "$RT_STDERR"
            then rt_pass "$label: caught"
            else rt_fail "$label: caught" "status $RT_RC: $(head -2 "$RT_STDERR")"; fi
            rt_run 2 "$RT_OUT/counts_par"
            rt_expect "$label: the right counts run" 0 "499"
        else
            rt_fail "build rt_counts_par.wtc $san" "$(head -3 "$RT_STDERR")"
        fi
    done
    if $RT_WTCC -fsanitize=address --no-predict "$src" -o "$RT_OUT/counts_asan" \
        >"$RT_STDERR" 2>&1; then
        for c in root-heap root-array; do
            RT_RC=0
            timeout "$RT_TIMEOUT" "$RT_OUT/counts_asan" $c 10000 >"$RT_STDOUT" \
                2>"$RT_STDERR" || RT_RC=$?
            if [ "$RT_RC" = 2 ] && grep -q "fatal: .*call of fill: argument 'a'" "$RT_STDERR"
            then rt_pass "-fsanitize=address build, $c: caught"
            else rt_fail "-fsanitize=address build, $c: caught" "status $RT_RC"; fi
        done
    else
        rt_fail "build rt_counts.wtc with -fsanitize=address" "$(head -3 "$RT_STDERR")"
    fi
fi

# the predictor of a --check build checks too
RT_RC=0
timeout "$RT_TIMEOUT" "$RT_OUT/counts_chk.predict" heap-only 10000 --wtc-procs=1,2 \
    >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
if [ "$RT_RC" = 2 ] && grep -q "wtc predict: error: .*call of fill" "$RT_STDERR"
then rt_pass "the --check predictor stops too"
else rt_fail "the --check predictor stops too" "rc=$RT_RC"; fi

# a count too small (0) for what a child sent elsewhere writes: its empty view is
# memory no one may touch, so it faults; before, it wrote into the TASK's other memory
# and the program went on without its results ("short: BAD", status 1, at -n 2 and 3)
for MODE in --wtc-mode=simple --wtc-mode=steal; do
    for np in 2 3; do
        rt_run "$np" "$RT_OUT/counts" short 10000 $MODE
        label="counts short -n $np $MODE: the child's writes fault"
        # (a fault's status: hydra's 11 or 139; 1 under AddressSanitizer, which
        # reports the fault itself; the program's own BAD is 1 too, hence its output)
        if [ "$RT_RC" = 0 ] || [ "$RT_RC" = 124 ]; then
            rt_fail "$label" "exit status $RT_RC"
        elif grep -q "short: " "$RT_STDOUT"; then rt_fail "$label" "the program went on"
        else rt_pass "$label"; fi
    done
done
MODE=
expect counts short 1 runs

# the predictor of a default build stops on a negative count as the program does
RT_RC=0
timeout "$RT_TIMEOUT" "$RT_OUT/counts.predict" negative 10000 --wtc-procs=1,2 \
    >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
if [ "$RT_RC" = 2 ] && grep -q "wtc predict: error: .*call of fill: .* has -1 elements" "$RT_STDERR"
then rt_pass "the predictor stops on a negative count"
else rt_fail "the predictor stops on a negative count" "rc=$RT_RC"; fi

# no false alarm: the samples and tests/run programs with --check
for s in samples/*.wtc tests/run/*.wtc; do
    x=$(basename "$s" .wtc) d=$(dirname "$s")
    args= flags=
    [ -f "$d/$x.args" ] && args=$(cat "$d/$x.args")
    [ -f "$d/$x.flags" ] && flags=$(cat "$d/$x.flags")
    # shellcheck disable=SC2086
    if ! $RT_WTCC --check --no-predict $flags "$s" -o "$RT_OUT/chk_$x" >"$RT_STDERR" 2>&1; then
        rt_fail "--check build of $s"
        continue
    fi
    for np in 1 3; do
        # shellcheck disable=SC2086
        rt_run $np "$RT_OUT/chk_$x" $args
        rt_expect "--check $s -n $np" 0 "$(cat "$d/$x.out")"
    done
done

rt_summary
