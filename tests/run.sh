#!/bin/sh
# tests/run.sh - the whole test suite of wtcc; `make check` runs it after building.
#
#   sh tests/run.sh                      everything
#   WTC_TEST_FILTER=msort sh tests/run.sh     only tests whose name contains "msort"
#                                        (a shell pattern: 'err/*', 'run/*par*', ...)
#   WTC_TEST_QUICK=1 sh tests/run.sh     skip the extras (-n 5, 8, 16, masters,
#                                        batches)
#   WTC_TEST_JOBS=1 sh tests/run.sh      the programs one at a time (default 2 side
#                                        by side; the unit tests, some timed, always
#                                        run one at a time)
#
# Prints one line per test, "[PASS] name" or "[FAIL] name: reason" followed by the
# first lines of the diff or stderr, and ends with exactly one line "N passed, N failed".
# Exit status 0 iff nothing failed. Scratch files go to tests/out/ (removed by
# `make clean`, ignored by git).
#
# Sections:
#   unit/   every tests/unit/*.sh, each one test (run from the repository root)
#   err/    every tests/err/NAME.wtc must make wtcc exit 1, write no output file, and
#           print every line of NAME.err somewhere in its stderr; plus generated
#           inputs: binary garbage, 100000 '(' and '{', two 10 MB files
#   run/    every samples/X.wtc and tests/run/X.wtc is built with wtcc (no warning
#           allowed) and run without mpiexec, with mpiexec -n 1..4 in the three modes,
#           and as plain C (tests/strip-annotations); stdout must equal X.out and the
#           exit status must be 0. X.args holds the program's arguments (one line),
#           X.flags extra options for wtcc and for the plain C build (e.g. -lm).
#           Each also runs in dynamic and steal modes at -n 5, 8 and 16 (simple at 16),
#           with 2 masters, with batches, with the --wtc- options after its own
#           arguments, and in simple mode at -n 5 with the big jobs' routes
#           (WTC_BCAST=tree). Programs run in WTC_TEST_JOBS shards side by side; each
#           shard's lines are printed together when all have ended.

cd "$(dirname "$0")/.." || exit 2

WTCC=${WTCC:-bin/wtcc}
CC=${CC:-cc}
OUT=tests/out
FILTER=${WTC_TEST_FILTER:-}
RUN_TIMEOUT=${WTC_TEST_TIMEOUT:-120}

passed=0
failed=0
failures=  # the failed tests' lines again, printed last: a log's tail names them
mkdir -p "$OUT" || exit 2

# ---- reporting ------------------------------------------------------------------

pass() {
    passed=$((passed + 1))
    echo "[PASS] $1"
}

# fail NAME REASON [FILE...]: the reason, then the first lines of each FILE given.
fail() {
    failed=$((failed + 1))
    echo "[FAIL] $1: $2"
    failures="$failures
[FAIL] $1: $2"
    shift 2
    for f in "$@"; do
        if [ -s "$f" ]; then
            head -n 15 "$f" | sed 's/^/    | /'
        fi
    done
}

# selected NAME: is this test wanted under WTC_TEST_FILTER?
selected() {
    [ -z "$FILTER" ] && return 0
    case "$1" in
        $FILTER | *$FILTER*) return 0 ;;
    esac
    return 1
}

# selected_program NAME: does the filter want any test of this program? (a filter
# naming one of its cases, e.g. "samples/fib -n 2*", or starting with a wildcard)
selected_program() {
    selected "$1" && return 0
    case "$FILTER" in
        "$1 "* | "*"*) return 0 ;;
    esac
    return 1
}

# describe_status STATUS: a word for an exit status.
describe_status() {
    case "$1" in
        0) echo "exit 0" ;;
        124) echo "timed out" ;;
        13[4-9] | 1[4-9][0-9] | 2[0-9][0-9]) echo "crashed (status $1, signal $(($1 - 128)))" ;;
        *) echo "exit $1" ;;
    esac
}

# ---- (a) unit tests ---------------------------------------------------------------

run_unit_tests() {
    for t in tests/unit/*.sh; do
        [ -f "$t" ] || continue
        name=unit/$(basename "$t" .sh)
        selected "$name" || continue
        log=$OUT/unit-$(basename "$t" .sh).log
        t0=$(date +%s)
        # standard input /dev/null, as the programs' cases have: a pipe there (make check
        # | tee, or a CI runner's) kept sim_unequal's replicas (a predictor records again
        # only where it can read its input again) and failed it
        timeout -k 10 300 sh "$t" > "$log" 2>&1 < /dev/null
        st=$?
        echo "$(($(date +%s) - t0)) $name" >> "$OUT/unit-times.txt"
        if [ $st -eq 0 ]; then
            pass "$name"
        else
            # the test's first failure line in the reason (a log's first lines are
            # often its passes)
            why=$(grep -m1 'FAIL' "$log" | cut -c1-300)
            fail "$name" "$(describe_status $st)${why:+: $why}" "$log"
        fi
    done
}

# ---- (b) malformed programs -------------------------------------------------------

# compile_must_fail NAME SOURCE EXPECT_FILE|"" [SECONDS]: wtcc must exit 1 without
# writing an output file, and its stderr must contain every line of EXPECT_FILE.
compile_must_fail() {
    e_name=$1 e_src=$2 expect=$3 limit=${4:-60}
    base=$OUT/err-$(basename "$e_src" .wtc)
    rm -f "$base" "$base.predict" "$base.stderr"
    timeout -k 5 "$limit" "$WTCC" "$e_src" -o "$base" > /dev/null 2> "$base.stderr"
    st=$?
    if [ $st -ne 1 ]; then
        fail "$e_name" "wtcc: $(describe_status $st), expected exit 1" "$base.stderr"
        return
    fi
    if [ -e "$base" ] || [ -e "$base.predict" ]; then
        fail "$e_name" "wtcc failed but left an output file" "$base.stderr"
        return
    fi
    if ! grep -q 'error' "$base.stderr"; then
        fail "$e_name" "wtcc exited 1 without printing an error" "$base.stderr"
        return
    fi
    if [ -n "$expect" ]; then
        missing=$OUT/err-$(basename "$e_src" .wtc).missing
        : > "$missing"
        while IFS= read -r want || [ -n "$want" ]; do
            [ -z "$want" ] && continue
            grep -F -q -e "$want" "$base.stderr" || echo "expected: $want" >> "$missing"
        done < "$expect"
        if [ -s "$missing" ]; then
            echo "--- stderr:" >> "$missing"
            fail "$e_name" "diagnostic missing" "$missing" "$base.stderr"
            return
        fi
    fi
    pass "$e_name"
}

# compile_must_not_crash NAME SOURCE SECONDS: success or a clean error, in time.
compile_must_not_crash() {
    e_name=$1 e_src=$2 limit=$3
    base=$OUT/err-$(basename "$e_src" .wtc)
    rm -f "$base" "$base.predict" "$base.stderr"
    timeout -k 5 "$limit" "$WTCC" "$e_src" -o "$base" > /dev/null 2> "$base.stderr"
    st=$?
    if [ $st -eq 0 ] && [ -x "$base" ]; then
        pass "$e_name (compiled)"
    elif [ $st -eq 1 ] && [ ! -e "$base" ] && grep -q 'error' "$base.stderr"; then
        pass "$e_name (clean error)"
    else
        fail "$e_name" "wtcc: $(describe_status $st)" "$base.stderr"
    fi
}

# repeat TEXT COUNT: TEXT written COUNT times (no newline).
repeat() {
    awk -v t="$1" -v n="$2" 'BEGIN { s = ""; for (i = 0; i < n; i++) s = s t; printf "%s", s }'
}

generate_inputs() {
    # binary garbage: every byte value, an ELF-like start, no trailing newline
    awk 'BEGIN { printf "\177ELF\002\001\001"; for (r = 0; r < 8; r++) for (i = 1; i < 256; i++) printf "%c", (i * 37 + r) % 255 + 1 }' \
        > "$OUT/gen_binary.wtc"
    # 100000 '(' in an expression, never closed
    { printf 'int main(void)\n{\n    return '; repeat '(' 100000; printf '1;\n}\n'; } \
        > "$OUT/gen_deep_parens.wtc"
    # 100000 '{' nested blocks, never closed
    { printf 'int main(void)\n'; repeat '{' 100000; printf '\n'; } > "$OUT/gen_deep_braces.wtc"
    # 10 MB of valid C: a big initializer and a main that uses it
    awk 'BEGIN {
        print "#include <stdio.h>"
        print "static const int table[] = {"
        line = ""
        for (i = 0; i < 16; i++) line = line sprintf("%d, ", 1000000 + i)
        for (i = 0; i < 110000; i++) print line
        print "};"
        print "int main(void) { long s = 0; for (unsigned i = 0; i < sizeof table / sizeof table[0]; i++) s += table[i]; printf(\"%ld\\n\", s); return 0; }"
    }' > "$OUT/gen_big_valid.wtc"
    # 10 MB of lines that are not C
    awk 'BEGIN { for (i = 0; i < 200000; i++) print "this is @ not C at all, line " i " ((( }}} ;;" }' \
        > "$OUT/gen_big_garbage.wtc"
}

run_err_tests() {
    for src in tests/err/*.wtc; do
        [ -f "$src" ] || continue
        n=$(basename "$src" .wtc)
        selected "err/$n" || continue
        if [ -f "tests/err/$n.err" ]; then
            compile_must_fail "err/$n" "$src" "tests/err/$n.err"
        else
            fail "err/$n" "tests/err/$n.err is missing"
        fi
    done
    selected "err/gen_" || return 0
    generate_inputs
    gen_expect=$OUT/gen_binary.err
    echo "error: stray" > "$gen_expect"
    selected "err/gen_binary" && compile_must_fail "err/gen_binary" "$OUT/gen_binary.wtc" "$gen_expect"
    selected "err/gen_deep_parens" && compile_must_fail "err/gen_deep_parens" "$OUT/gen_deep_parens.wtc" "" 60
    selected "err/gen_deep_braces" && compile_must_fail "err/gen_deep_braces" "$OUT/gen_deep_braces.wtc" "" 60
    selected "err/gen_big_valid" && compile_must_not_crash "err/gen_big_valid" "$OUT/gen_big_valid.wtc" 30
    selected "err/gen_big_garbage" && compile_must_not_crash "err/gen_big_garbage" "$OUT/gen_big_garbage.wtc" 30
    rm -f "$OUT"/gen_big_*.wtc
}

# ---- (c) programs that must run -----------------------------------------------------

# check_output NAME EXPECTED ACTUAL STDERR STATUS: stdout and exit status as expected?
check_output() {
    o_name=$1 o_exp=$2 o_act=$3 o_err=$4 o_st=$5
    if [ "$o_st" -ne 0 ]; then
        diff -u "$o_exp" "$o_act" > "$o_act.diff" 2>&1
        fail "$o_name" "$(describe_status "$o_st")" "$o_act.diff" "$o_err"
    elif ! cmp -s "$o_exp" "$o_act"; then
        diff -u "$o_exp" "$o_act" > "$o_act.diff" 2>&1
        fail "$o_name" "wrong output" "$o_act.diff" "$o_err"
    else
        pass "$o_name"
    fi
}

# run_case NAME EXPECTED COMMAND...: run it under the time limit and check it.
run_case() {
    c_name=$1 c_exp=$2
    shift 2
    selected "$c_name" || return 0
    timeout -k 5 "$RUN_TIMEOUT" "$@" > "$case_out" 2> "$case_err" < /dev/null
    check_output "$c_name" "$c_exp" "$case_out" "$case_err" $?
}

# run_predictor NAME BIN ARGS...: BIN.predict runs the program without MPI and prints
# a CSV with a row per setting asked for, each with a positive predicted time.
run_predictor() {
    p_name="$1 predictor"
    p_bin=$2
    shift 2
    selected "$p_name" || return 0
    timeout -k 5 "$RUN_TIMEOUT" "$p_bin.predict" --wtc-procs=1,2,4 --wtc-masters=1 \
        --wtc-format=csv "$@" > "$p_bin.csv" 2> "$p_bin.predict.err" < /dev/null
    p_st=$?
    if [ $p_st -ne 0 ]; then
        fail "$p_name" "$(describe_status $p_st)" "$p_bin.predict.err"
        return
    fi
    # header + simple at 1,2,4 + dynamic at 1 (one row) and at 2,4 with one master
    p_rows=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i
                                ok = col["mode"] && col["procs"] && col["masters"] &&
                                     col["batch"] && col["predicted_s"] && col["speedup"]
                                next }
                      ok && $col["predicted_s"] + 0 > 0 && $col["speedup"] + 0 > 0 { n++ }
                      END { print ok ? n + 0 : -1 }' "$p_bin.csv")
    if [ "$p_rows" -ge 6 ]; then
        pass "$p_name"
    else
        fail "$p_name" "expected a CSV header and 6 rows with positive times, got $p_rows" \
            "$p_bin.csv" "$p_bin.predict.err"
    fi
}

# run_program SOURCE: every check of one sample or test program.
run_program() {
    src=$1
    dir=$(dirname "$src")
    x=$(basename "$src" .wtc)
    case "$dir" in
        samples) prog=samples/$x ;;
        *) prog=run/$x ;;
    esac
    selected_program "$prog" || return 0
    expected=$dir/$x.out
    args=
    flags=
    [ -f "$dir/$x.args" ] && args=$(cat "$dir/$x.args")
    [ -f "$dir/$x.flags" ] && flags=$(cat "$dir/$x.flags")
    bin=$OUT/$(echo "$prog" | tr / -)
    case_out=$bin.stdout
    case_err=$bin.stderr
    if [ ! -f "$expected" ]; then
        fail "$prog" "$expected is missing"
        return
    fi

    # the plain C version: annotations stripped, cc -O2 -Wall, no warning
    if perl tests/strip-annotations "$src" > "$bin.plain.c" 2> "$bin.plain.log" \
        && $CC -O2 -Wall -Werror -x c "$bin.plain.c" -o "$bin.plain" $flags >> "$bin.plain.log" 2>&1; then
        run_case "$prog plain C" "$expected" "$bin.plain" $args
    else
        fail "$prog plain C" "strip-annotations or cc failed" "$bin.plain.log"
    fi

    # the Work-Time C build: must succeed without a warning
    [ -x "$WTCC" ] || return 0
    rm -f "$bin" "$bin.predict"
    # shellcheck disable=SC2086  # flags and args are word lists on purpose
    timeout -k 5 300 "$WTCC" $flags "$src" -o "$bin" > "$bin.build.log" 2>&1
    st=$?
    if [ $st -ne 0 ] || [ ! -x "$bin" ]; then
        fail "$prog build" "wtcc: $(describe_status $st)" "$bin.build.log"
        return
    fi
    if grep -q 'warning' "$bin.build.log"; then
        fail "$prog build" "warnings while building" "$bin.build.log"
    else
        pass "$prog build"
    fi

    run_predictor "$prog" "$bin" $args
    run_case "$prog (no mpiexec)" "$expected" "$bin" $args
    run_case "$prog -n 3 (mode from the source)" "$expected" mpiexec -n 3 "$bin" $args
    for mode in simple dynamic steal; do
        for p in 1 2 3 4; do
            run_case "$prog -n $p --wtc-mode=$mode" "$expected" \
                mpiexec -n $p "$bin" --wtc-mode=$mode $args
        done
    done

    # extras: more processes (16: 8 per core, any P must work), two masters, batches
    [ -z "${WTC_TEST_QUICK:-}" ] || return 0
    for mode in simple dynamic steal; do
        for p in 5 8 16; do
            [ $mode = simple ] && [ $p != 16 ] && continue
            run_case "$prog -n $p --wtc-mode=$mode" "$expected" \
                mpiexec -n $p "$bin" --wtc-mode=$mode $args
        done
    done
    run_case "$prog -n 5 --wtc-mode=steal --wtc-batch=4" "$expected" \
        mpiexec -n 5 "$bin" --wtc-mode=steal --wtc-batch=4 $args
    run_case "$prog -n 3 --wtc-mode=steal --wtc-batch=1 (options after args)" "$expected" \
        mpiexec -n 3 "$bin" $args --wtc-mode=steal --wtc-batch=1
    run_case "$prog -n 4 --wtc-mode=dynamic --wtc-masters=2" "$expected" \
        mpiexec -n 4 "$bin" --wtc-mode=dynamic --wtc-masters=2 $args
    run_case "$prog -n 5 --wtc-mode=dynamic --wtc-masters=2 --wtc-batch=4" "$expected" \
        mpiexec -n 5 "$bin" --wtc-mode=dynamic --wtc-masters=2 --wtc-batch=4 $args
    run_case "$prog -n 3 --wtc-mode=dynamic --wtc-batch=4 (options after args)" "$expected" \
        mpiexec -n 3 "$bin" $args --wtc-mode=dynamic --wtc-batch=4
    # the routes of a big job (from P = 587: REGION_END down the tree, a simple region
    # then ends with the barrier; doc/runtime.md "The region end"), forced at -n 5
    run_case "$prog -n 5 --wtc-mode=simple, WTC_BCAST=tree" "$expected" \
        env WTC_BCAST=tree mpiexec -n 5 "$bin" --wtc-mode=simple $args
}

# run_mode_switch SOURCE: the mode chosen at compile time (wtcc --mode=...) for the
# whole program, run without --wtc-mode.
run_mode_switch() {
    x=$(basename "$1" .wtc)
    args=
    [ -f "samples/$x.args" ] && args=$(cat "samples/$x.args")
    for m in simple dynamic dynamic:2 steal; do
        prog="samples/$x wtcc --mode=$m"
        selected_program "samples/$x" || selected "$prog" || continue
        bin=$OUT/samples-$x-mode-$(echo $m | tr : -)
        case_out=$bin.stdout
        case_err=$bin.stderr
        rm -f "$bin"
        if ! timeout -k 5 300 "$WTCC" --mode=$m "$1" -o "$bin" > "$bin.build.log" 2>&1; then
            fail "$prog build" "wtcc failed" "$bin.build.log"
            continue
        fi
        run_case "$prog -n 4" "samples/$x.out" mpiexec -n 4 "$bin" $args
    done
}

# run_shard K N: every N-th program from the K-th (0-based), then, in shard 0, the mode
# switches. Its lines go to stdout; the caller counts them.
run_shard() {
    k=0
    for src in samples/*.wtc tests/run/*.wtc; do
        [ -f "$src" ] || continue
        [ $((k % $2)) -eq "$1" ] && run_program "$src"
        k=$((k + 1))
    done
    [ "$1" -eq 0 ] || return 0
    for src in samples/msort.wtc samples/nqueens.wtc; do
        [ -x "$WTCC" ] && [ -f "$src" ] && run_mode_switch "$src"
    done
}

# The programs run as WTC_TEST_JOBS shards side by side (default 2, the CI machine's
# cores): each case only compares outputs, and one job's mpiexec leaves the cores idle
# while its ranks start and end. The shards' lines are printed shard by shard and
# counted here.
run_programs() {
    jobs=${WTC_TEST_JOBS:-2}
    case "$jobs" in '' | *[!0-9]* | 0) jobs=1 ;; esac
    if [ "$jobs" -eq 1 ]; then
        run_shard 0 1
        return
    fi
    k=0
    while [ $k -lt "$jobs" ]; do
        (passed=0 failed=0 failures= run_shard $k "$jobs" > "$OUT/shard-$k.log" 2>&1) &
        k=$((k + 1))
    done
    wait
    k=0
    while [ $k -lt "$jobs" ]; do
        cat "$OUT/shard-$k.log"
        passed=$((passed + $(grep -c '^\[PASS\] ' "$OUT/shard-$k.log")))
        failed=$((failed + $(grep -c '^\[FAIL\] ' "$OUT/shard-$k.log")))
        failures="$failures$(grep '^\[FAIL\] ' "$OUT/shard-$k.log" | sed 's/^/\n/')"
        k=$((k + 1))
    done
}

# ---- main ---------------------------------------------------------------------------

: > "$OUT/unit-times.txt"
start=$(date +%s)
run_unit_tests
if [ -x "$WTCC" ]; then
    run_err_tests
else
    fail "wtcc" "$WTCC does not exist: build it first (make); only the plain C checks ran"
fi
t_units=$(($(date +%s) - start))
run_programs
# where the time goes (CI's budget is 15 minutes): the whole run and the slowest units
echo "took $(($(date +%s) - start)) s ($t_units s before the programs); slowest unit tests (s): $(sort -rn "$OUT/unit-times.txt" | head -8 | tr '\n' ' ')"
if [ $failed -gt 0 ]; then
    echo "what failed (details above):$failures"
fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
