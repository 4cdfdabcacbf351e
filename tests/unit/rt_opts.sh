#!/bin/sh
# The MPI runtime's launch options: bad ones stop every rank with one clear message and a
# non-zero status (never a hang); --wtc-stats prints its table; --wtc-trace writes JSON
# with balanced B/E events in one lane per rank. Run from the repository root after make.
. "$(dirname "$0")/rt_lib.inc"

rt_build fib_msort

# bad options: exactly one message, from rank 0, status 2 everywhere
bad() { # label, np, options...
    label=$1 np=$2; shift 2
    rt_run "$np" "$RT_OUT/fib_msort" 20 1000 "$@"
    n=$(grep -c "wtc: error" "$RT_STDERR")
    if [ "$RT_RC" = 0 ] || [ "$RT_RC" = 124 ]; then rt_fail "$label" "exit status $RT_RC"
    elif [ "$n" != 1 ]; then rt_fail "$label" "$n error lines, want 1"
    elif [ -s "$RT_STDOUT" ]; then rt_fail "$label" "main ran"
    else rt_pass "$label: $(grep "wtc: error" "$RT_STDERR" | cut -c1-70)"; fi
}
bad "unknown option" 3 --wtc-frobnicate
bad "batch 0" 3 --wtc-batch=0
bad "masters 3 with -n 3" 3 --wtc-masters=3 --wtc-mode=dynamic
bad "masters garbage" 2 --wtc-masters=2x
bad "batch garbage" 4 --wtc-batch=-1
bad "mode garbage" 2 --wtc-mode=fast
bad "mode steal with masters attached" 2 --wtc-mode=steal:2
grep -q "expected simple, dynamic or steal" "$RT_STDERR" ||
    rt_fail "the mode error lists steal" "$(cat "$RT_STDERR")"
bad "empty trace file name" 2 --wtc-trace=
# a trace that cannot be written stops before the run, not after it
for np in 1 3; do
    bad "trace into a missing directory at -n $np" $np "--wtc-trace=$RT_OUT/missing.$$/t.json"
done
grep -q "cannot write it: No such file or directory" "$RT_STDERR" ||
    rt_fail "the trace error says why" "$(cat "$RT_STDERR")"
bad "trace onto a directory" 2 "--wtc-trace=$RT_OUT"
bad "masters INT_MAX" 3 --wtc-masters=2147483647 --wtc-mode=dynamic
grep -q "needs at least 2147483648 ranks" "$RT_STDERR" ||
    rt_fail "masters INT_MAX: the rank count does not overflow" "$(cat "$RT_STDERR")"
bad "stats with a value" 2 --wtc-stats=yes
bad "option after program arguments" 3 20 --wtc-bogus=1
bad "an option without its value" 2 --wtc-mode
grep -q "'--wtc-mode' needs a value: --wtc-mode=VALUE (expected simple, dynamic or steal)" \
    "$RT_STDERR" || rt_fail "the missing value is named" "$(cat "$RT_STDERR")"

# "--" ends the runtime's options: it and everything after it are the program's, a
# --wtc-* among them too (as getopt leaves them), at -n 1 and 3
rt_wtcc rt_args "$RT_OUT/args"
for np in 1 3; do
    rt_run $np "$RT_OUT/args" a --wtc-mode=steal b -- --wtc-depth=x c
    if [ "$RT_RC" = 0 ] && [ "$(tr '\n' ' ' <"$RT_STDOUT")" = "fib 144 [a] [b] [--] [--wtc-depth=x] [c] " ] &&
        [ ! -s "$RT_STDERR" ]; then
        rt_pass "-n $np: after '--' the arguments are the program's"
    else
        rt_fail "-n $np: after '--'" "status $RT_RC, stdout $(tr '\n' ' ' <"$RT_STDOUT")"
    fi
done

# --wtc-help: the usage on stdout once (rank 0), status 0 everywhere, main never runs
for np in 1 3; do
    rt_run $np "$RT_OUT/fib_msort" 20 1000 --wtc-help
    if [ "$RT_RC" = 0 ] && [ "$(grep -c '^usage: mpiexec' "$RT_STDOUT")" = 1 ] &&
        grep -q -- '--wtc-batch=T' "$RT_STDOUT" && ! grep -q 'fib(' "$RT_STDOUT" &&
        [ ! -s "$RT_STDERR" ]; then
        rt_pass "--wtc-help at -n $np: usage once, status 0, main not run"
    else
        rt_fail "--wtc-help at -n $np" "rc=$RT_RC, $(grep -c '^usage' "$RT_STDOUT") usage lines"
    fi
done

# --wtc-mode=steal is a mode (accepted with --wtc-masters, which steal regions ignore);
# --wtc-help stops before any region, so this checks the parsing alone
rt_run 3 "$RT_OUT/fib_msort" 20 1000 --wtc-mode=steal --wtc-masters=2 --wtc-help
if [ "$RT_RC" = 0 ] && [ ! -s "$RT_STDERR" ] && grep -q -- '--wtc-mode=simple|dynamic|steal' "$RT_STDOUT"
then rt_pass "--wtc-mode=steal accepted, listed by --wtc-help"
else rt_fail "--wtc-mode=steal accepted" "rc=$RT_RC"; fi

# --wtc-stats: a row per rank and the workers' average, on stderr
for mode in simple dynamic; do
    rt_run 4 "$RT_OUT/fib_msort" 22 20000 --wtc-stats --wtc-mode=$mode --wtc-masters=1
    rows=$(grep -cE '^[0-3] +(worker|master)' "$RT_STDERR")
    if [ "$RT_RC" = 0 ] && grep -q '^wtc stats:' "$RT_STDERR" && [ "$rows" = 4 ] &&
        grep -qE '^avg +worker' "$RT_STDERR" && grep -q compute "$RT_STDERR"; then
        rt_pass "--wtc-stats table ($mode)"
    else
        rt_fail "--wtc-stats table ($mode)" "rc=$RT_RC rows=$rows"
    fi
done
if [ "$mode" = dynamic ] && grep -qE '^3 +master' "$RT_STDERR"; then
    rt_pass "--wtc-stats shows the master"
else
    rt_fail "--wtc-stats shows the master"
fi

# --wtc-trace: valid JSON, balanced and properly nested B/E per lane, one lane per rank
trace_check() { # file, ranks
    awk -v want="$2" '
        /"ph":"[BE]"/ {
            match($0, /"tid":[0-9]+/); tid = substr($0, RSTART + 6, RLENGTH - 6)
            if ($0 ~ /"ph":"B"/) depth[tid]++; else depth[tid]--
            if (depth[tid] < 0) bad = 1
            seen[tid] = 1
        }
        END {
            n = 0
            for (t in seen) { n++; if (depth[t] != 0) bad = 1 }
            exit (bad || n != want)
        }' "$1"
}
for mode in simple dynamic; do
    f=$RT_OUT/trace.$$.json
    rm -f "$f"
    rt_run 3 "$RT_OUT/fib_msort" 22 20000 --wtc-mode=$mode "--wtc-trace=$f"
    if [ "$RT_RC" != 0 ] || [ ! -s "$f" ]; then
        rt_fail "--wtc-trace ($mode)" "rc=$RT_RC, no file"
    elif ! trace_check "$f" 3; then
        rt_fail "--wtc-trace ($mode)" "unbalanced B/E or missing lanes"
    elif ls "$f".tmp* >/dev/null 2>&1; then
        rt_fail "--wtc-trace ($mode)" "temporary file left"
    else
        rt_pass "--wtc-trace ($mode): balanced B/E on 3 lanes"
    fi
    if command -v python3 >/dev/null 2>&1; then
        if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["traceEvents"]' "$f"
        then rt_pass "--wtc-trace ($mode) parses as JSON"
        else rt_fail "--wtc-trace ($mode) parses as JSON"; fi
    else
        echo "[SKIP] --wtc-trace JSON parse (no python3)"
    fi
    rm -f "$f"
done

# stats and trace with one rank (no mpiexec)
f=$RT_OUT/trace1.$$.json
RT_RC=0
timeout "$RT_TIMEOUT" "$RT_OUT/fib_msort" 20 1000 --wtc-stats "--wtc-trace=$f" \
    >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
if [ "$RT_RC" = 0 ] && grep -q '^wtc stats:' "$RT_STDERR" && trace_check "$f" 1; then
    rt_pass "stats and trace on one rank"
else
    rt_fail "stats and trace on one rank" "rc=$RT_RC"
fi
rm -f "$f"

rt_summary
