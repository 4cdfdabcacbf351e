#!/bin/sh
# Overlapping out: views (doc/runtime.md "Overlapping out: views"; the programs of
# tests/run/overlap.wtc cover quadrants in every mode). rt_overlap.wtc: four calls each
# add to their own columns of a matrix with a leading dimension, one of 128 KB (views by
# reference) and one of 1 KB (packed), with the shared heap off so that every view is a
# copy: every element right in every mode at -n 2-5 (before the merge, the copies' rows
# overwrote their neighbours'). And two calls that write the same row (a race): the
# merge that finds it prints a warning naming the function and the buffer, and the
# program still ends normally.
. "$(dirname "$0")/rt_lib.inc"

prog=$RT_OUT/overlap
$RT_WTCC -O2 --no-predict tests/unit/rt_overlap.wtc -o "$prog" >"$RT_STDERR" 2>&1 \
    || { rt_fail "build rt_overlap.wtc"; exit 1; }
for mode in simple dynamic steal; do
    for np in 2 3 4 5; do
        [ $mode = dynamic ] && [ $np = 2 ] && continue
        RT_RC=0
        WTC_SHARED_HEAP=0 timeout "$RT_TIMEOUT" mpiexec -n $np "$prog" gaps --wtc-mode=$mode \
            >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
        rt_expect "gaps, no shared heap, $mode -n $np" 0 "gaps: OK (0 wrong)"
    done
    rt_run 3 "$prog" gaps --wtc-mode=$mode
    rt_expect "gaps, shared heap, $mode -n 3" 0 "gaps: OK (0 wrong)"
done
for mode in simple steal; do
    rt_run 2 "$prog" race --wtc-mode=$mode
    if [ "$RT_RC" != 0 ]; then
        rt_fail "race, $mode -n 2" "exit status $RT_RC"
    elif grep -q "warning: rank 0: two calls of row in one par both wrote 800 bytes of 'r' (a data race" "$RT_STDERR"; then
        rt_pass "race, $mode -n 2: $(head -c 120 "$RT_STDERR")"
    else
        rt_fail "race, $mode -n 2: no warning" "$(head -c 300 "$RT_STDERR")"
    fi
done
# in place, on one rank, there is nothing to merge and nothing is said
rt_run 1 "$prog" race
if [ "$RT_RC" = 0 ] && ! grep -q warning "$RT_STDERR"; then
    rt_pass "race, -n 1: no merge, no warning"
else
    rt_fail "race, -n 1" "status $RT_RC: $(head -c 300 "$RT_STDERR")"
fi
# one-byte members set by two calls to 1 and 2 (their changed bits apart): a race,
# said, and one call's value kept, not their bits' 3 (tests/unit/rt_byterace.wtc)
rt_wtcc rt_byterace "$RT_OUT/byterace"
for mode in simple steal; do
    rt_run 2 "$RT_OUT/byterace" --wtc-mode=$mode
    if [ "$RT_RC" = 0 ] && grep -q '^c=[12]$' "$RT_STDOUT" &&
        grep -q "two calls of setc in one par both wrote 1 byte of 'p' (a data race" "$RT_STDERR"; then
        rt_pass "a one-byte race, $mode -n 2: said, $(cat "$RT_STDOUT") kept"
    else
        rt_fail "a one-byte race, $mode -n 2" "status $RT_RC, $(cat "$RT_STDOUT")"
    fi
done
rt_summary
