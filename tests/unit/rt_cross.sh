#!/bin/sh
# Two workers granted to each other (doc/runtime.md "TASK sends are completed"): a
# parent that sends a TASK waits until it has left, and above MPI's eager limit it
# leaves only while its receiver takes it. A dynamic master may grant a worker that is
# waiting for results, or one that offered itself while waiting and has since gone back
# to its own children; two such workers, each granted the other, both waited for their
# TASK to leave and neither received (cilksort 16M hung at dynamic -n 17 on a 16-core
# machine; this program hung in 2-6 runs of 8 at -n 4 and 5). The wait now takes in what
# arrives meanwhile. Ten sorts of 1M ints a run, in dynamic mode at -n 5 with one master
# and -n 6 with two, three runs each, and steal mode (whose thieves answer each other
# alike) at -n 5: each must finish within its timeout and print OK.
. "$(dirname "$0")/rt_lib.inc"

prog=$RT_OUT/cross
$RT_WTCC -O2 --no-predict tests/unit/rt_cross.wtc -o "$prog" >"$RT_STDERR" 2>&1 \
    || { rt_fail "build rt_cross.wtc"; exit 1; }
RT_TIMEOUT=60
for m in "dynamic 5 1" "dynamic 6 2" "steal 5 1"; do
    set -- $m
    ok=0
    for run in 1 2 3; do
        rt_run "$2" "$prog" 1000000 10 --wtc-mode="$1" --wtc-masters="$3"
        if [ "$RT_RC" = 0 ] && [ "$(cat "$RT_STDOUT")" = OK ]; then
            ok=$((ok + 1))
        else
            rt_fail "$1 -n $2, $3 master(s), run $run" "status $RT_RC (124: hung), output '$(head -c 100 "$RT_STDOUT")'"
            break
        fi
    done
    [ "$ok" = 3 ] && rt_pass "$1 -n $2, $3 master(s): 3 runs of ten 1M-int sorts, each OK"
done
# The simulator models the same wait (sim/engine.c eng_wait_sends): until it took in
# rendezvous TASKs while waiting, as the runtime does, it stopped with "internal error
# in the simulator: deadlock" on this program in dynamic mode at P = 4-16 (and on
# bench/balance/cilksort at 8-10 of 33 dynamic settings). Every setting must be predicted.
$RT_WTCC -O2 tests/unit/rt_cross.wtc -o "$prog.p" >"$RT_STDERR" 2>&1 \
    || { rt_fail "build rt_cross.wtc with its predictor"; rt_summary; exit 1; }
csv=$RT_OUT/cross.csv
timeout 120 "$prog.p.predict" --wtc-procs=4,5,6,8,9,16 --wtc-masters=1,2 \
    --wtc-modes=dynamic,steal --wtc-format=csv 1000000 3 >"$csv" 2>"$RT_STDERR"
rc=$?
rows=$(awk -F, 'NR > 1 && $5 + 0 > 0 { n++ } END { print n + 0 }' "$csv")
if [ $rc = 0 ] && ! grep -q "internal error" "$RT_STDERR" && [ "$rows" = 18 ]; then
    rt_pass "predictor: all 18 settings (dynamic M = 1, 2 and steal at P = 4-16) predicted"
else
    rt_fail "predictor" "status $rc, $rows of 18 settings predicted, $(grep -c 'internal error' "$RT_STDERR") internal errors"
fi
rt_summary
