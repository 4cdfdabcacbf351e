#!/bin/sh
# Sampled leaves interrupted by another process (doc/predictor.md section 2): another
# process shares one core with prog.predict, and every leaf of n-queens 14 is run from its
# capture (--wtc-sample=2000); the wall time doubles, the predicted leaf time must not
# (the thread's CPU time replaces the wall time of an interrupted leaf).
. tests/unit/sim_common.inc
[ -x bin/wtcc ] || { bad "bin/wtcc missing: run make"; exit 1; }
[ -n "$PIN" ] || { pass "taskset missing or not permitted here: skipped"; exit 0; }
bin/wtcc ${SIM_CFLAGS:-} samples/nqueens.wtc -o $OUT/preempt >$OUT/preempt.build 2>&1 \
    || { bad "build: $(cat $OUT/preempt.build)"; exit 1; }
leaves() { # the total leaf time of one prediction pinned to core $CORE
    timeout 120 taskset -c $CORE nice -n "${NICE:-0}" $OUT/preempt.predict --wtc-modes=simple --wtc-procs=1 \
        --wtc-sample=2000 14 2>/dev/null >$OUT/preempt.out
    sed -n 's/^leaf tasks: all [0-9]* ran; total \([0-9.]*\) s.*/\1/p' $OUT/preempt.out
}
# the other process sleeps 0.3 ms and computes 0.5 ms, over and over: each wake-up
# preempts whatever runs on the core, in the middle of a leaf (a plain busy loop is
# mostly switched at the predictor's own system calls, outside the timed leaves)
cat > $OUT/hog.c <<'C'
#include <time.h>
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}
int main(void)
{
    struct timespec d = { 0, 300000 };
    double end = now() + 60;
    while (now() < end) {
        double t;
        nanosleep(&d, 0);
        t = now();
        while (now() < t + 0.0005)
            ;
    }
    return 0;
}
C
cc -O2 -o $OUT/hog $OUT/hog.c || { bad "cannot build the competing process"; exit 1; }
# one attempt: the leaf total alone, then sharing the core with the other process;
# sets alone, shared, wall, e (the error in %)
attempt() {
    alone=$(leaves)
    timeout 100 taskset -c $CORE $OUT/hog &
    busy=$!
    sleep 0.2
    t0=$(date +%s.%N)
    shared=$(leaves)
    t1=$(date +%s.%N)
    kill $busy 2>/dev/null
    wait $busy 2>/dev/null
    cp $OUT/preempt.out $OUT/preempt.shared.out
    after=$(leaves)
    wall=$(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }')
    # the shared total's distance from the range of the two lone ones, in % of its
    # nearer end (0 inside it): the host's own drift moves both lone totals
    e=$(echo "$shared $alone $after" | awk '$2 > 0 && $3 > 0 {
        lo = $2 < $3 ? $2 : $3; hi = $2 < $3 ? $3 : $2
        d = $1 < lo ? 100 * ($1 / lo - 1) : ($1 > hi ? 100 * ($1 / hi - 1) : 0)
        printf "%+.1f", d }')
}
trap 'kill $busy 2>/dev/null' EXIT INT TERM
# The shared total against the range of two lone ones (before and after it), within
# 10 %; more attempts when the first is off: on a shared VM, a third process (or the
# host) can take the core during one of the measurements (seen once in ~10 runs: +14.5 %
# against one lone total); with the CPU-time check disabled every attempt is +50 %. Twice: with the thread's
# watch of its own scheduling (the CPU clock read only after a break: record.c), and
# with the CPU clock read around every piece (WTC_PREDICT_NO_WATCH=1, where the kernel
# has no such watch).
for how in watch no-watch; do
    if [ $how = no-watch ]; then
        WTC_PREDICT_NO_WATCH=1
        export WTC_PREDICT_NO_WATCH
    fi
    for try in 1 2 3; do
        attempt
        echo "$e" | awk '{ exit !($1 <= 10 && $1 >= -10) }' && break
    done
    [ -n "$alone" ] && [ -n "$shared" ] || { bad "$how: no leaf total (alone '$alone', shared '$shared')"; exit 1; }
    grep -q 'interrupted by another process' $OUT/preempt.shared.out \
        && pass "$how: interrupted leaves reported ($(grep -o '[0-9]* timed pieces* of work' $OUT/preempt.shared.out))" \
        || bad "$how: sharing a core for ${wall} s, yet no leaf reported interrupted"
    echo "$e" | awk '{ exit !($1 <= 10 && $1 >= -10) }' \
        && pass "$how: leaf total sharing a core ${shared} s (wall ${wall} s) vs alone ${alone} and ${after} s (${e}% outside, attempt $try)" \
        || bad "$how: leaf total sharing a core ${shared} s (wall ${wall} s) vs alone ${alone} and ${after} s (${e}% outside, limit 10%, 3 attempts)"
done
unset WTC_PREDICT_NO_WATCH
exit $fail
