#!/bin/sh
# Parking (doc/runtime.md "steal mode"): a thief that has been refused ceil(log2 P)
# times in a row sends a STEAL that its victim keeps while it computes, instead of one
# STEAL every pause for as long as the only busy rank has nothing to give.
#   steal -n 4, WTC_DOORBELL=0 (no peeks, the pause's cap of ranks on several hosts,
#     100 us), rt_park.wtc with a last leaf of 300 ms: correct; ranks 0-2 send fewer than
#     60 STEALs in all (about 1500 before parking: 500 each), at least one of them parks,
#     and rank 3's answering thread answers fewer than 60 (about 490 before, each a
#     wake-up inside the leaf).
#   the same with the doorbell (a victim that shows nothing pending is not asked), at
#     -n 4 and -n 8, and at -n 2 (one lifeline of a thief: parking after one NOWORK).
. "$(dirname "$0")/rt_lib.inc"

prog=$RT_OUT/park
rt_wtcc rt_park "$prog"

# steals, parks: the STEALs ranks 0-2 sent, and parked, in the last run (--wtc-stats);
# leaf3: the answers of rank 3's thread
steals() {
    sed -n 's/^steal: rank \([012]\) sent \([0-9]*\) STEALs.*/\2/p' "$RT_STDERR" |
        awk '{ s += $1 } END { print s + 0 }'
}
parks() {
    sed -n 's/^park: rank \([012]\) parked \([0-9]*\) .*/\2/p' "$RT_STDERR" |
        awk '{ s += $1 } END { print s + 0 }'
}
leaf3() {
    sed -n 's/^leaf: rank 3 answered \([0-9]*\) .*/\1/p' "$RT_STDERR" | awk '{ print $1 + 0 } END { if (!NR) print 0 }'
}
ok_run() { [ "$RT_RC" = 0 ] && grep -q '^sum 10 OK$' "$RT_STDOUT"; }

WTC_DOORBELL=0 rt_run 4 "$prog" 300 --wtc-mode=steal --wtc-stats
s=$(steals) p=$(parks) l=$(leaf3)
if ! ok_run; then
    rt_fail "steal -n 4, WTC_DOORBELL=0" "status $RT_RC, output '$(head -c 200 "$RT_STDOUT")'"
elif [ "$s" -ge 60 ] || [ "$p" -lt 1 ] || [ "$l" -ge 60 ]; then
    rt_fail "steal -n 4, WTC_DOORBELL=0" "ranks 0-2 sent $s STEALs ($p parked), rank 3's thread answered $l (want < 60, >= 1, < 60)"
else
    rt_pass "steal -n 4, WTC_DOORBELL=0: ranks 0-2 sent $s STEALs while rank 3 ran 300 ms, $p parked; rank 3's thread answered $l"
fi

for np in 2 4 8; do
    rt_run $np "$prog" 100 --wtc-mode=steal --wtc-stats
    if ok_run; then
        rt_pass "steal -n $np: correct"
    else
        rt_fail "steal -n $np" "status $RT_RC, output '$(head -c 200 "$RT_STDOUT")'"
    fi
done
rt_summary
