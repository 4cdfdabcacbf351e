#!/bin/sh
# Outputs that cannot be written give a message and a non-zero status, never a silent
# exit 0: the program's --wtc-trace file whose directory went away during the run (a
# path bad from the start is refused before the run: tests/unit/rt_opts.sh), and the
# predictor's report on a full disk (/dev/full) and its WTC_DECISIONS file (checked
# before the run). Program: tests/cg/rmdir_main.wtc, built with $SAN when it is set
# (SAN="-fsanitize=address,undefined" after make asan, as tests/unit/rt_lib.inc has it).
set -u
cd "$(dirname "$0")/../.." || exit 1
out=tests/out/rt_outputs
rm -rf "$out" && mkdir -p "$out"
fail=0
pass() { echo "[PASS] $*"; }
bad() { echo "[FAIL] $*"; fail=1; }
bin/wtcc ${SAN:-} tests/cg/rmdir_main.wtc -o "$out/prog" > "$out/build.log" 2>&1 ||
    { bad "build: $(head -3 "$out/build.log")"; exit 1; }

# the trace's directory is removed by main: the run happens, the write fails at the end
for np in 1 3; do
    mkdir -p "$out/gone"
    timeout -k 5 60 mpiexec -n $np "$out/prog" "$out/gone" "--wtc-trace=$out/gone/t.json" \
        > "$out/stdout" 2> "$out/stderr"
    rc=$?
    if [ $rc -ne 0 ] && [ $rc -ne 124 ] && [ "$(cat "$out/stdout")" = 2584 ] &&
        grep -q "wtc: error: --wtc-trace=$PWD/$out/gone/t.json: cannot write it" "$out/stderr"; then
        pass "-n $np: trace directory gone during the run: status $rc, message"
    else
        bad "-n $np: trace directory gone during the run: status $rc, $(head -2 "$out/stderr")"
    fi
done

# the predictor's report cannot be written
timeout -k 5 60 "$out/prog.predict" --wtc-procs=1,2 > /dev/full 2> "$out/stderr"
rc=$?
[ $rc = 2 ] && grep -q "cannot write the report" "$out/stderr" &&
    pass "predictor, report to /dev/full: status 2" ||
    bad "predictor, report to /dev/full: status $rc, $(head -2 "$out/stderr")"

# WTC_DECISIONS into a missing directory: refused before the run
WTC_DECISIONS=$out/missing/d.log timeout -k 5 60 "$out/prog.predict" --wtc-procs=2 \
    > "$out/stdout" 2> "$out/stderr"
rc=$?
[ $rc = 2 ] && [ ! -s "$out/stdout" ] && grep -q "WTC_DECISIONS=.*cannot write it" "$out/stderr" &&
    pass "predictor, WTC_DECISIONS unwritable: status 2 before the run" ||
    bad "predictor, WTC_DECISIONS unwritable: status $rc, $(head -2 "$out/stderr")"

# and a good one is written
WTC_DECISIONS=$out/d.log timeout -k 5 60 "$out/prog.predict" --wtc-procs=2 --wtc-modes=simple \
    > "$out/stdout" 2> "$out/stderr"
rc=$?
[ $rc = 0 ] && [ -s "$out/d.log" ] && pass "predictor, WTC_DECISIONS written" ||
    bad "predictor, WTC_DECISIONS: status $rc, log $(wc -l < "$out/d.log" 2>/dev/null)"
exit $fail
