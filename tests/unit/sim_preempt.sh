#!/bin/sh
# Sampled leaves interrupted by another process (doc/predictor.md section 2): a busy
# loop shares one core with prog.predict, and every leaf of n-queens 14 is run from its
# capture (--wtc-sample=2000); the wall time doubles, the predicted leaf time must not
# (the thread's CPU time replaces the wall time of an interrupted leaf).
. tests/unit/sim_common.inc
[ -x bin/wtcc ] || { bad "bin/wtcc missing: run make"; exit 1; }
command -v taskset >/dev/null || { pass "taskset missing: skipped"; exit 0; }
# the first core this shell may run on (a cpuset may exclude core 0)
CORE=$(taskset -pc $$ 2>/dev/null | sed 's/.*: //; s/[,-].*//')
[ -n "$CORE" ] || CORE=0
bin/wtcc ${SIM_CFLAGS:-} samples/nqueens.wtc -o $OUT/preempt >$OUT/preempt.build 2>&1 \
    || { bad "build: $(cat $OUT/preempt.build)"; exit 1; }
leaves() { # the total leaf time of one prediction pinned to core $CORE
    timeout 120 taskset -c $CORE $OUT/preempt.predict --wtc-modes=simple --wtc-procs=1 \
        --wtc-sample=2000 14 2>/dev/null >$OUT/preempt.out
    sed -n 's/^leaf tasks: all [0-9]* ran; total \([0-9.]*\) s.*/\1/p' $OUT/preempt.out
}
alone=$(leaves)
timeout 200 taskset -c $CORE sh -c 'while :; do :; done' &
busy=$!
trap 'kill $busy 2>/dev/null' EXIT INT TERM
sleep 0.2
t0=$(date +%s.%N)
shared=$(leaves)
t1=$(date +%s.%N)
kill $busy 2>/dev/null
cp $OUT/preempt.out $OUT/preempt.shared.out
wall=$(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }')
[ -n "$alone" ] && [ -n "$shared" ] || { bad "no leaf total (alone '$alone', shared '$shared')"; exit 1; }
grep -q 'interrupted by another process' $OUT/preempt.shared.out \
    && pass "interrupted leaves reported ($(grep -o '[0-9]* sampled leaf tasks* w[a-z]* interrupted' $OUT/preempt.shared.out))" \
    || bad "sharing a core for ${wall} s, yet no leaf reported interrupted"
e=$(echo "$shared $alone" | awk '{ printf "%+.1f", 100 * ($1 / $2 - 1) }')
echo "$e" | awk '{ exit !($1 <= 10 && $1 >= -10) }' \
    && pass "leaf total sharing a core ${shared} s (wall ${wall} s) vs alone ${alone} s (${e}%)" \
    || bad "leaf total sharing a core ${shared} s (wall ${wall} s) vs alone ${alone} s (${e}%, limit 10%)"
exit $fail
