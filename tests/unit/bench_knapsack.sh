#!/bin/sh
# bench/balance/knapsack.wtc (branch and bound) at a small instance (38 items, seed 1:
# 1.5 M nodes, ~0.01 s): its self-check (the dynamic programming optimum) must say OK,
# with the known optimum 12018, as plain C, as its OpenMP twin, without mpiexec, and at
# -n 1, 2, 3 in the three modes; built with a shallow cut-off (CUTOFF=2) at -n 3 too.
# Then the predictor on it: a table at --wtc-depth=2,4 and a saved profile that
# mpiexec -n 2 --wtc-auto runs (bench/auto.sh does that with a larger instance).
. "$(dirname "$0")/rt_lib.inc"

src=bench/balance/knapsack.wtc
args="38 1"
want="knapsack: 38 items, seed 1, capacity 9419: best 12018, cut-off depth 10: OK"
want2="knapsack: 38 items, seed 1, capacity 9419: best 12018, cut-off depth 2: OK"

bin/wtcc -O2 "$src" -o "$RT_OUT/knapsack" >"$RT_STDERR" 2>&1 && [ ! -s "$RT_STDERR" ] ||
    { rt_fail "build (no warning allowed)"; exit 1; }
bin/wtcc -O2 --no-predict -DCUTOFF=2 "$src" -o "$RT_OUT/knapsack_c2" >"$RT_STDERR" 2>&1 ||
    { rt_fail "build -DCUTOFF=2"; exit 1; }
rt_twins "$src" bench/balance/knapsack.omp.c "$RT_OUT/knapsack" || exit 1

# shellcheck disable=SC2086 # $args: two words
rt_each_way "" "$want" "$RT_OUT/knapsack" "1 2 3" $args
for m in dynamic steal; do
    # shellcheck disable=SC2086
    rt_run 3 "$RT_OUT/knapsack_c2" $args --wtc-mode=$m
    rt_expect "CUTOFF=2 -n 3 $m" 0 "$want2"
done

# the predictor: one row per mode and depth at P = 2, and a profile --wtc-auto runs
RT_RC=0
# shellcheck disable=SC2086
timeout "$RT_TIMEOUT" "$RT_OUT/knapsack.predict" --wtc-procs=2 --wtc-masters=1 \
    --wtc-depth=2,4 --wtc-format=csv --wtc-save-profile="$RT_OUT/knapsack.prof" $args \
    >"$RT_OUT/knapsack.csv" 2>"$RT_STDERR" || RT_RC=$?
rows=$(awk -F, '$2 == 2 && ($1 == "simple" || $1 == "dynamic" || $1 == "steal") { print $1 "@" $NF }' \
    "$RT_OUT/knapsack.csv" | sort -u | tr '\n' ' ')
if [ "$RT_RC" = 0 ] && [ "$rows" = "dynamic@2 dynamic@4 simple@2 simple@4 steal@2 steal@4 " ]; then
    rt_pass "predictor: P = 2 at depths 2 and 4"
else
    rt_fail "predictor: P = 2 at depths 2 and 4" "status $RT_RC, rows: $rows"
fi
# shellcheck disable=SC2086
rt_run 2 "$RT_OUT/knapsack" $args --wtc-auto="$RT_OUT/knapsack.prof"
rt_expect "-n 2 --wtc-auto" 0 "$want"
grep -q "^wtc: auto from .*P = 2: --wtc-mode=" "$RT_STDERR" ||
    rt_fail "--wtc-auto says what it chose"

rt_summary
