#!/bin/sh
# Predictions independent of what else runs on the host (doc/predictor.md section 2,
# "Timing"): msort 2M is predicted pinned to one core, alone and then twice while two
# CPU hogs ('yes') share that core, so that the predictor gets about a third of it.
# By the wall clock the hogged predictions were 2-3x the lone one; every timed piece
# (leaves, calls' segments, main) now takes the CPU time when the wall time exceeds it
# by a fifth, so what the scheduler gives the hogs is not counted. What remains is the
# hogs' effect on caches and the shared host's memory traffic, and the host's own drift:
# on a VM the same core runs the same prediction 15 % faster or slower from one second
# to the next (0.165 s, then 0.19 s, with nothing else running), and a CI machine once
# gave both hogged predictions +11-12 % against one lone prediction made before them.
# So the lone prediction is made before AND after the hogged ones, and each hogged one
# must lie near the range the two lone ones span: at most 10 % above it (without the
# mechanism the error is +100 % or more), at most 25 % below it. The limits are not
# symmetric because the rule is not: a lone piece keeps its wall time until that exceeds
# the CPU time by a fifth, so a lone prediction on a busy host carries up to +20 % of
# other processes' time, while a hogged piece takes its CPU time, none of it (CI once
# gave hogged 0.191 / 0.170 s against lone 0.191 / 0.207 s: -10.9 %, the mechanism
# working). One more attempt before failing (another session can load the host during
# one of the lone runs).
. tests/unit/sim_common.inc
[ -x bin/wtcc ] || { bad "bin/wtcc missing: run make"; exit 1; }
command -v taskset >/dev/null || { pass "taskset missing: skipped"; exit 0; }
CORE=$(taskset -pc $$ 2>/dev/null | sed 's/.*: //; s/[,-].*//')
[ -n "$CORE" ] || CORE=0
taskset -c "$CORE" true 2>/dev/null || { pass "taskset not permitted here: skipped"; exit 0; }
bin/wtcc ${SIM_CFLAGS:-} samples/msort.wtc -o $OUT/load >$OUT/load.build 2>&1 \
    || { bad "build: $(cat $OUT/load.build)"; exit 1; }
seq1() { # the predicted sequential time, pinned to core $CORE; the report in $OUT/load.out
    timeout 120 taskset -c $CORE $OUT/load.predict --wtc-procs=1 --wtc-modes=simple \
        2000000 2>/dev/null >$OUT/load.out
    sed -n 's/.*sequential time \([0-9.]*\) s.*/\1/p' $OUT/load.out
}
hogs=
trap 'for h in $hogs; do kill $h 2>/dev/null; done' EXIT INT TERM
attempt() {
    alone=$(seq1)
    hogs=
    for i in 1 2; do
        timeout 100 taskset -c $CORE yes >/dev/null &
        hogs="$hogs $!"
    done
    sleep 0.2
    t0=$(date +%s.%N)
    h1=$(seq1)
    cp $OUT/load.out $OUT/load.hog.out
    h2=$(seq1)
    t1=$(date +%s.%N)
    for h in $hogs; do kill $h 2>/dev/null; wait $h 2>/dev/null; done
    hogs=
    sleep 0.2
    after=$(seq1)
    wall=$(echo "$t0 $t1" | awk '{ printf "%.2f", ($2 - $1) / 2 }')
    # each hogged prediction against the range [lo, hi] of the two lone ones: its
    # distance from the range in per cent of the range's nearer end (0 inside it)
    e=$(echo "$h1 $h2 $alone $after" | awk 'function off(h) {
            if (h < lo) return 100 * (h / lo - 1)
            if (h > hi) return 100 * (h / hi - 1)
            return 0 }
        $3 > 0 && $4 > 0 { lo = $3 < $4 ? $3 : $4; hi = $3 < $4 ? $4 : $3
            a = off($1); b = off($2)
            printf "%+.1f%% %+.1f%%", a, b; exit !(a <= 10 && a >= -25 && b <= 10 && b >= -25) }')
}
ok=0
for try in 1 2; do
    attempt && { ok=1; break; }
done
[ -n "$alone" ] && [ -n "$after" ] && [ -n "$h1" ] && [ -n "$h2" ] ||
    { bad "no prediction ('$alone' '$h1' '$h2' '$after')"; exit 1; }
grep -q 'interrupted by another process' $OUT/load.hog.out \
    && pass "sharing a core with two hogs: $(grep -o '[0-9]* timed pieces* of work' $OUT/load.hog.out) by CPU time" \
    || bad "sharing a core with two hogs for ${wall} s, yet nothing reported interrupted"
[ $ok = 1 ] \
    && pass "with hogs $h1 s and $h2 s (predicting took ${wall} s each) vs alone $alone s before and $after s after ($e outside their range, attempt $try)" \
    || bad "with hogs $h1 s and $h2 s (predicting took ${wall} s each) vs alone $alone s before and $after s after ($e outside their range, limits +10 % and -25 %)"
exit $fail
