#!/bin/sh
# What a job's start and end cost (doc/predictor.md section 5, make calibrate): with
# WTC_START_PROBE set, rank 0 of any wtcc job prints "wtc-start: procs P launch L start
# S end E" on stderr (L from the moment the variable names, in CLOCK_REALTIME
# nanoseconds, "-" without one); without it nothing. calibrate/start.sh turns runs of
# calibrate/probe.wtc into wtc-calibrate's --start (tests/unit/sim_calibrate.sh checks
# the calibrator's side).
. "$(dirname "$0")/rt_lib.inc"

prog=$RT_OUT/rt_probe
$RT_WTCC calibrate/probe.wtc -o "$prog" --no-predict >"$RT_STDERR" 2>&1 ||
    { rt_fail "build calibrate/probe.wtc"; rt_summary; }
# in [0, 10] seconds
sane() { awk -v v="${1:-x}" 'BEGIN { exit !(v ~ /^[0-9.]+$/ && v + 0 >= 0 && v + 0 < 10) }'; }
for np in 2 3; do
    t0=$(date +%s%N)
    WTC_START_PROBE=$t0 rt_run $np "$prog"
    set -- $(grep '^wtc-start: ' "$RT_STDERR")
    if [ "$RT_RC" = 0 ] && [ "$3" = $np ] && sane "$5" && sane "$7" && sane "$9" &&
        [ "$(grep -c '^wtc-start: ' "$RT_STDERR")" = 1 ]; then
        rt_pass "-n $np: one line from rank 0: launch $5 s, start $7 s, end $9 s"
    else
        rt_fail "-n $np: status $RT_RC, '$*'"
    fi
done
WTC_START_PROBE=1 rt_run 2 "$prog"
set -- $(grep '^wtc-start: ' "$RT_STDERR")
[ "$RT_RC" = 0 ] && [ "$5" = - ] && sane "$7" &&
    rt_pass "no moment given: launch '-', start $7 s" || rt_fail "WTC_START_PROBE=1: '$*'"
rt_run 2 "$prog"
[ "$RT_RC" = 0 ] && ! grep -q 'wtc-start' "$RT_STDERR" &&
    rt_pass "without WTC_START_PROBE: nothing printed" || rt_fail "without the variable"
# one rank: no MPI, nothing to measure
WTC_START_PROBE=1 timeout "$RT_TIMEOUT" "$prog" >"$RT_STDOUT" 2>"$RT_STDERR"; rc=$?
[ $rc = 0 ] && ! grep -q 'wtc-start' "$RT_STDERR" &&
    rt_pass "a job of one rank (no MPI): nothing printed" || rt_fail "alone: status $rc"
# start.sh: one run at -n 2 and -n 3, the calibrator's argument
out=$(sh calibrate/start.sh 3 1 2>"$RT_STDERR"); rc=$?
echo "$out" | awk -F'[=:,]' 'NF == 9 && $1 == "--start" && $2 == 2 && $6 == 3 {
        for (i = 3; i <= 9; i++) if (i != 6 && !($i ~ /^[0-9.]+$/ && $i + 0 < 10)) exit 1
        exit 0 } { exit 1 }' && [ $rc = 0 ] &&
    rt_pass "calibrate/start.sh 3 1: $out" || rt_fail "calibrate/start.sh 3 1: status $rc, '$out'"
out=$(sh calibrate/start.sh 1 1 2>"$RT_STDERR"); rc=$?
[ $rc = 2 ] && [ -z "$out" ] && rt_pass "start.sh with NP 1: status 2" || rt_fail "NP 1: $rc '$out'"
rt_summary
