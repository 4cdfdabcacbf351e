#!/bin/sh
# The shared heap's reaper (runtime/mpi/heap.c "the reaper", doc/runtime.md "Big
# buffers stay where they are on one host"): the last local rank to map the segment
# leaves a process (wtc-heapreap) that holds the segment's file and nothing else, so
# that the pages are released after the job instead of in its last rank's exit, and
# that ends once every local rank has ended. rt_reaper.wtc finds it from rank 0.
#   -n 2, 3 and 5 in each mode: the reaper holds the segment and one pidfd a local rank,
#     no other descriptor (mpiexec does not wait for it: no stdout, no PMI socket),
#     does not map the segment, and is gone within 5 s after mpiexec returns
#   WTC_HEAP_REAPER=0, WTC_SHARED_HEAP=0 and -n 1: no reaper, the sum right
. "$(dirname "$0")/rt_lib.inc"

prog=$RT_OUT/reaper
rt_wtcc rt_reaper "$prog"

# gone PID: 0 when process PID has ended within 5 s
gone() {
    i=0
    while [ -d "/proc/$1" ] && [ $i -lt 50 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    [ ! -d "/proc/$1" ]
}

for c in "2 steal" "3 simple" "3 dynamic" "5 steal"; do
    set -- $c
    rt_run $1 "$prog" --wtc-mode=$2
    label="$2 -n $1"
    pid=$(sed -n 's/^reaper \([0-9]*\)$/\1/p' "$RT_STDOUT")
    want="descriptors $(($1 + 1)): the segment and $1 pidfds
maps the segment 0
sum OK"
    if [ "$RT_RC" != 0 ] || [ -z "$pid" ] || [ "$(sed 1d "$RT_STDOUT")" != "$want" ]; then
        rt_fail "$label" "status $RT_RC, output '$(cat "$RT_STDOUT")'"
    elif ! gone "$pid"; then
        rt_fail "$label" "the reaper $pid still runs 5 s after the job"
    else
        rt_pass "$label: the reaper held the segment and $1 pidfds, and ended after the job"
    fi
done

for v in WTC_HEAP_REAPER WTC_SHARED_HEAP; do
    RT_RC=0
    env $v=0 timeout "$RT_TIMEOUT" mpiexec -n 2 "$prog" >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
    rt_expect "$v=0, -n 2: no reaper" 0 "reaper none
sum OK"
done
rt_run 1 "$prog"
rt_expect "-n 1: no shared heap, no reaper" 0 "reaper none
sum OK"
rt_summary
