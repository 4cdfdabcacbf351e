#!/bin/sh
# Shared bounds (wtc_share_max / wtc_share_min, doc/language.md "Shared bounds"):
# tests/unit/share.wtc - 40 regions in a row, each checking that every rank's better
# values reached rank 0 by the region's end (a long max, a double min, an unsigned char
# max) and that no value crossed into the next region, then a child that waits for the
# bound its sibling raised - without mpiexec, at -n 1-5, 8 and 16 in the three modes,
# with 2 masters and batches; the generated C compiles without warnings. Then
# bench/balance/knapsack_share.wtc (branch and bound with a shared incumbent) at a small
# instance: its self-check (the dynamic programming optimum) says OK as plain C, as its
# OpenMP twin, without mpiexec and at -n 2, 3, 5 in every mode; and its predictor runs.
. "$(dirname "$0")/rt_lib.inc"

want="meet: 2, best 5000
shared bounds OK"
bin/wtcc -O2 tests/unit/share.wtc -o "$RT_OUT/share" >"$RT_STDERR" 2>&1 && [ ! -s "$RT_STDERR" ] ||
    { rt_fail "build share.wtc (no warning allowed)"; exit 1; }

rt_alone "share: no mpiexec" "$want" "$RT_OUT/share"
for np in 1 2 3 4 5 8 16; do
    for m in simple dynamic steal; do
        rt_run $np "$RT_OUT/share" --wtc-mode=$m
        rt_expect "share: -n $np $m" 0 "$want"
    done
done
rt_run 5 "$RT_OUT/share" --wtc-mode=dynamic --wtc-masters=2 --wtc-batch=2
rt_expect "share: -n 5 dynamic, 2 masters, batch 2" 0 "$want"
rt_run 4 "$RT_OUT/share" --wtc-mode=steal --wtc-batch=3
rt_expect "share: -n 4 steal, batch 3" 0 "$want"

# --wtc-stats counts the bounds: at -n 2 in simple mode the 40 regions' values found on
# rank 1 reach rank 0 and the other way round, and 'meet' raises one on rank 0
rt_run 2 "$RT_OUT/share" --wtc-mode=simple --wtc-stats
if [ "$RT_RC" = 0 ] && grep -q '^bounds: rank 0 found [1-9][0-9]* better values (sent to every other rank), received [1-9]' "$RT_STDERR" &&
    grep -q '^bounds: rank 1 found [1-9][0-9]* better values (sent to every other rank), received [1-9]' "$RT_STDERR"; then
    rt_pass "share: --wtc-stats bounds lines"
else
    rt_fail "share: --wtc-stats bounds lines" "status $RT_RC"
fi

# the predictor records it (the program's own checks run in the recording)
RT_RC=0
timeout "$RT_TIMEOUT" "$RT_OUT/share.predict" --wtc-procs=2,3 --wtc-format=csv \
    >"$RT_OUT/share.csv" 2>"$RT_STDERR" || RT_RC=$?
if [ "$RT_RC" = 0 ] && grep -q '^steal,3,' "$RT_OUT/share.csv"; then
    rt_pass "share: predictor"
else
    rt_fail "share: predictor" "status $RT_RC"
fi

src=bench/balance/knapsack_share.wtc
args="100 1"
kwant="knapsack: 100 items, seed 1, capacity 26021: best 33020, cut-off depth 10: OK"
bin/wtcc -O2 "$src" -o "$RT_OUT/knapsack_share" >"$RT_STDERR" 2>&1 && [ ! -s "$RT_STDERR" ] ||
    { rt_fail "build knapsack_share (no warning allowed)"; exit 1; }
rt_twins "$src" bench/balance/knapsack_share.omp.c "$RT_OUT/knapsack_share" || exit 1
# shellcheck disable=SC2086 # $args: two words
rt_each_way "knapsack_share: " "$kwant" "$RT_OUT/knapsack_share" "2 3 5" $args
RT_RC=0
# shellcheck disable=SC2086
timeout "$RT_TIMEOUT" "$RT_OUT/knapsack_share.predict" --wtc-procs=2 --wtc-format=csv $args \
    >"$RT_OUT/knapsack_share.csv" 2>"$RT_STDERR" || RT_RC=$?
if [ "$RT_RC" = 0 ] && grep -q '^steal,2,' "$RT_OUT/knapsack_share.csv"; then
    rt_pass "knapsack_share: predictor"
else
    rt_fail "knapsack_share: predictor" "status $RT_RC"
fi
rt_summary
