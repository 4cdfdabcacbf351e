#!/bin/sh
# A longjmp out of a region's root call back into main (tests/unit/rt_longjmp.wtc): as C
# at -n 1; at -n 2 and 3, in every mode, main's end with the region still open stops the
# job with status 2 and an error that says so (simple mode hung until killed: the other
# ranks waited for the region; dynamic and steal said "unexpected message 3 from rank
# 0"; a helper's bug hunt).
. "$(dirname "$0")/rt_lib.inc"
prog=$RT_OUT/longjmp
rt_wtcc rt_longjmp "$prog"
rt_run 1 "$prog"
rt_expect "-n 1: as C" 0 "found 6765"
for np in 2 3; do
    for mode in simple dynamic steal; do
        rt_run $np "$prog" --wtc-mode=$mode
        if [ "$RT_RC" = 2 ] && grep -q "found 6765" "$RT_STDOUT" &&
            grep -q "wtc: error: main ended while a parallel region was running: a call of a recursive function did not return (a longjmp out of it?)" "$RT_STDERR" &&
            ! grep -q 'unexpected message' "$RT_STDERR"; then
            rt_pass "-n $np $mode: status 2, the open region named"
        else
            rt_fail "-n $np $mode" "status $RT_RC, stdout $(head -c 60 "$RT_STDOUT"), stderr $(head -c 200 "$RT_STDERR")"
        fi
    done
done
rt_summary
