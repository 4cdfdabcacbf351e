#!/bin/sh
# A rank's own sends go out while it computes (doc/runtime.md "Waiting without burning a
# core", the compute path's polls): a message may need its sender to call MPI before it
# moves (MPICH with UCX: a synchronous send), and a poll that skipped MPI because no
# message had come in left the dynamic mode's request to its master unsent until the
# 64th poll. Six leaves of 40 ms under one par, dynamic mode at -n 3 with one master:
# rank 0's request must reach the master while it runs its first leaves, so rank 1 runs
# some of them (before the fix: none, rank 0 ran all six; n-queens 15 'wtc_depth < 2',
# whose leaves take 5 ms, idled rank 1 for the first 0.2 s). Steal mode at -n 2 alike.
. "$(dirname "$0")/rt_lib.inc"

prog=$RT_OUT/sends
$RT_WTCC --no-predict tests/unit/rt_sends.wtc -o "$prog" >"$RT_STDERR" 2>&1 \
    || { rt_fail "build rt_sends.wtc"; exit 1; }

# calls-in of rank 1 in the --wtc-stats table
calls_in() { awk '$1 == "1" && $2 == "worker" { print $9 }' "$RT_STDERR"; }
for m in "dynamic 3" "steal 2"; do
    set -- $m
    # once more before failing: a loaded host (CI) can keep rank 1 off the CPU for the
    # whole 0.24 s; the bug left it without a leaf every run
    for try in 1 2; do
        rt_run "$2" "$prog" --wtc-mode="$1" --wtc-masters=1 --wtc-stats
        got=$(calls_in)
        ok=
        [ "$RT_RC" = 0 ] && [ "$(cat "$RT_STDOUT")" = OK ] && [ "${got:-0}" -ge 1 ] && ok=1
        [ -n "$ok" ] && break
    done
    if [ -n "$ok" ]; then
        rt_pass "$1 -n $2: rank 1 ran $got of the six leaves (attempt $try)"
    else
        rt_fail "$1 -n $2: rank 1 ran '${got:-?}' of the six leaves (status $RT_RC, 2 attempts)"
    fi
done
rt_summary
