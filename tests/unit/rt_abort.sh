#!/bin/sh
# abort() inside a region (tests/unit/rt_abort.wtc) at -n 2 and 3 in the three modes: a
# non-zero status, no hang, and one "wtc: rank R: abort() called (SIGABRT)" line; at
# -n 1 as C (a non-zero status, no line from the runtime).
. "$(dirname "$0")/rt_lib.inc"
prog=$RT_OUT/abort
rt_wtcc rt_abort "$prog"
rt_run 1 "$prog"
if [ "$RT_RC" != 0 ] && [ "$RT_RC" != 124 ] && ! grep -q '^wtc:' "$RT_STDERR"; then
    rt_pass "-n 1: stops (status $RT_RC) as C, no line of the runtime"
else
    rt_fail "-n 1" "status $RT_RC"
fi
for np in 2 3; do
    for mode in simple dynamic steal; do
        rt_run $np "$prog" --wtc-mode=$mode
        n=$(grep -c '^wtc: rank [0-9]*: abort() called (SIGABRT); the job stops$' "$RT_STDERR")
        if [ "$RT_RC" != 0 ] && [ "$RT_RC" != 124 ] && [ "$n" = 1 ]; then
            rt_pass "-n $np $mode: status $RT_RC, the rank named"
        else
            rt_fail "-n $np $mode" "status $RT_RC, $n lines naming the abort"
        fi
    done
done
rt_summary
