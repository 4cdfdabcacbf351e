#!/bin/sh
# The region start as a collective in the MPI runtime (doc/runtime.md "The region
# start"): REGION_BEGIN and EXIT take the core's route. First the route itself, counted
# in --wtc-stats: at -n 8 a region that sends no TASK, with a 1 MiB snapshot (the rule:
# the tree) rank 0 sends 3 REGION_BEGINs, 7 REGION_ENDs (flat: an empty payload takes
# the tree from P = 587, doc/runtime.md "The region end") and 3 EXITs, ranks 4, 2 and 6
# pass the broadcasts on (4, 2 and 2 messages), the others send nothing; WTC_BCAST=flat
# makes it 7 + 7 + 7 from rank 0 alone; WTC_BCAST=tree sends REGION_END by the tree
# too (3 + 3 + 3 from rank 0; 6, 3 and 3 passed on; a simple region then ends with the
# barrier). Then rounds of regions in the three modes in turn, each with a new snapshot,
# at -n 4, 5, 8 and 16, by the rule (the tree), flat, and everything by the tree: every
# rank must sum this round's table (with REGION_END by the tree and no barrier after a
# simple region, the next region's first TASK from rank 0 overtook it at -n 16 and ran
# on the old snapshot: round 1 WRONG). Last, the tree with messages in pieces.
. "$(dirname "$0")/rt_lib.inc"

prog=$RT_OUT/bcast
$RT_WTCC --no-predict tests/unit/rt_bcast.wtc -o "$prog" >"$RT_STDERR" 2>&1 \
    || { rt_fail "build rt_bcast.wtc"; exit 1; }
unset WTC_BCAST

# msgs sent per rank, "r:n" for each rank of the --wtc-stats table
msgs() {
    awk '$1 ~ /^[0-9]+$/ && ($2 == "worker" || $2 == "master") {
        printf "%s%s:%s", sep, $1, $11; sep = " " }' \
        "$RT_STDERR"
}
# route_msgs SETTING WHAT WANT [VAR=VALUE [MODE]]: -n 8 with the 1 MiB snapshot, the
# messages each rank sent equal WANT (MODE: dynamic, whose region that runs all on rank 0
# sends no control message, its master included)
route_msgs() {
    RT_RC=0
    env ${4:-} timeout "$RT_TIMEOUT" mpiexec -n 8 "$prog" 0 --wtc-stats --wtc-mode=${5:-simple} \
        >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
    got=$(msgs)
    if [ "$RT_RC" = 0 ] && [ "$got" = "$3" ]; then
        rt_pass "-n 8, $1: $2 ($got)"
    else
        rt_fail "-n 8, $1: messages per rank '$got', want '$3' (status $RT_RC)"
    fi
}
route_msgs "1 MiB snapshot" "the tree's messages" "0:13 1:0 2:2 3:0 4:4 5:0 6:2 7:0"
route_msgs "WTC_BCAST=flat" "rank 0 sends to every rank" "0:21 1:0 2:0 3:0 4:0 5:0 6:0 7:0" \
    WTC_BCAST=flat
route_msgs "WTC_BCAST=tree, simple mode" "REGION_END by the tree too" \
    "0:9 1:0 2:3 3:0 4:6 5:0 6:3 7:0" WTC_BCAST=tree
route_msgs "WTC_BCAST=tree, dynamic mode" "REGION_END by the tree too" \
    "0:9 1:0 2:3 3:0 4:6 5:0 6:3 7:0" WTC_BCAST=tree dynamic
route_msgs "1 MiB snapshot, dynamic mode" "REGION_END flat by the rule" \
    "0:13 1:0 2:2 3:0 4:4 5:0 6:2 7:0" "" dynamic

want=$(printf 'round %d: OK\n' 0 1 2 3 4 5)
for np in 4 5 8 16; do
    rt_run $np "$prog"
    rt_expect "-n $np: six regions, simple / dynamic / steal, by the tree" 0 "$want"
    RT_RC=0
    WTC_BCAST=flat timeout "$RT_TIMEOUT" mpiexec -n $np "$prog" \
        >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
    rt_expect "-n $np: six regions, flat" 0 "$want"
    RT_RC=0
    WTC_BCAST=tree timeout "$RT_TIMEOUT" mpiexec -n $np "$prog" \
        >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
    rt_expect "-n $np: six regions, REGION_END by the tree too" 0 "$want"
done
# pieces (doc/runtime.md "Messages over 2 GiB"): every copy of the snapshot travels in
# 11 pieces of 100000 bytes and is passed on in pieces
want3=$(printf 'round %d: OK\n' 0 1 2)
RT_RC=0
WTC_MSG_CHUNK=100000 timeout "$RT_TIMEOUT" mpiexec -n 8 "$prog" 3 \
    >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
rt_expect "-n 8: the tree with the snapshot in pieces of 100000 bytes" 0 "$want3"
rt_summary
