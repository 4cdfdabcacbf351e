#!/bin/sh
# A region opened while MPI still starts (doc/runtime.md "Start-up", a region held):
# rank 0 runs its own part at once, and the work of the other ranks reaches them as
# soon as MPI has started, although rank 0 is deep in a sequential leaf that never
# polls (the start thread sends what the region queued). rt_hold.wtc: main opens the
# region first thing; its two children spin 0.5 s each. Want, in each mode: child 0
# (rank 0) started within 5 ms of the region's start (before, rank 0 waited for MPI's
# start: 20-45 ms at -n 2-3 here), and child 1 (another rank) started before child 0
# ended (a TASK sent only when rank 0 polls again would start child 1 after it).
. "$(dirname "$0")/rt_lib.inc"

prog=$RT_OUT/hold
rt_wtcc rt_hold "$prog"

# check LABEL: the last run's status and its two children's start and end times
check() {
    s0=$(awk '$1 == "child" && $2 == 0 { print $3 }' "$RT_STDOUT")
    e0=$(awk '$1 == "child" && $2 == 0 { print $4 }' "$RT_STDOUT")
    s1=$(awk '$1 == "child" && $2 == 1 { print $3 }' "$RT_STDOUT")
    if [ "$RT_RC" != 0 ] || [ -z "$s0" ] || [ -z "$s1" ]; then
        rt_fail "$1" "status $RT_RC, output '$(tr '\n' ' ' <"$RT_STDOUT")'"
    elif ! awk -v s0="$s0" -v e0="$e0" -v s1="$s1" 'BEGIN { exit !(s0 < 5 && s1 < e0) }'; then
        rt_fail "$1" "child 0 ran $s0-$e0 ms, child 1 started at $s1 ms (want child 0 at once, child 1 before $e0)"
    else
        rt_pass "$1: child 0 started at $s0 ms, child 1 at $s1 ms (child 0 ended at $e0)"
    fi
}

for m in simple steal; do
    for np in 2 4; do
        rt_run "$np" "$prog" 0.5 --wtc-mode=$m
        check "$m -n $np"
    done
done
rt_run 3 "$prog" 0.5 --wtc-mode=dynamic --wtc-masters=1
check "dynamic -n 3, 1 master"
rt_summary
