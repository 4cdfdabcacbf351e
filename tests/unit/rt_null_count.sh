#!/bin/sh
# An out: buffer NULL with elements (tests/unit/rt_null_count.wtc): as C at -n 1; at -n 2
# and 3, in every mode, a call that would run on another processor stops the job with
# status 2 and an error that names the call, the buffer and the fix (a segmentation
# fault inside the RESULT's store before).
. "$(dirname "$0")/rt_lib.inc"
prog=$RT_OUT/null_count
rt_wtcc rt_null_count "$prog"
rt_run 1 "$prog"
rt_expect "-n 1: as C" 0 "1 2 1"
for np in 2 3; do
    for mode in simple dynamic steal; do
        [ $np = 2 ] && [ $mode = dynamic ] && continue # one worker: every call runs here
        rt_run $np "$prog" --wtc-mode=$mode
        if [ "$RT_RC" = 2 ] && [ ! -s "$RT_STDOUT" ] &&
            grep -q "fatal: a call of f has out: o\[1\] NULL with 1 element, and it is to run on another processor: give an optional buffer a count of 0 when it is NULL (o\[o ? 1 : 0\]" "$RT_STDERR" &&
            ! grep -q 'Caught signal\|Segmentation' "$RT_STDERR"; then
            rt_pass "-n $np $mode: status 2, the call and the fix named"
        else
            rt_fail "-n $np $mode" "status $RT_RC, stdout $(head -c 60 "$RT_STDOUT")"
        fi
    done
done
rt_summary
