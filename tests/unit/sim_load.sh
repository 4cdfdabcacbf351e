#!/bin/sh
# Predictions independent of what else runs on the host (doc/predictor.md section 2,
# "Timing"): msort 2M is predicted pinned to one core, alone and while two CPU hogs
# ('yes') share that core, so that the predictor gets about a third of it. By the wall
# clock the hogged predictions were 2-3x the lone one; every timed piece (leaves, calls'
# segments, main) now takes the CPU time when the wall time exceeds it by a fifth, so
# what the scheduler gives the hogs is not counted. What remains is the hogs' effect on
# caches and the shared host's memory traffic, and the host's own drift: on this VM four
# lone predictions in a row spanned 0.21-0.34 s, and a CI machine gave two hogged ones
# +10 % and +24 % above two tight lone ones (0.207, 0.208 s), another time -11 %.
# So lone and hogged predictions are interleaved (L H L H L H L) and the hogged ones'
# median must lie near the range the four lone ones span: at most 30 % above it
# (without the mechanism the error is +100 % or more, so this still fails when it
# breaks), at most 25 % below it. The limits are not symmetric because the rule is not:
# a lone piece keeps its wall time until that exceeds the CPU time by a fifth, so a lone
# prediction on a busy host carries up to +20 % of other processes' time, while a hogged
# piece takes its CPU time, none of it. One more attempt before failing (another session
# can load the host during the lone runs).
. tests/unit/sim_common.inc
[ -x bin/wtcc ] || { bad "bin/wtcc missing: run make"; exit 1; }
[ -n "$PIN" ] || { pass "taskset missing or not permitted here: skipped"; exit 0; }
bin/wtcc ${SIM_CFLAGS:-} samples/msort.wtc -o $OUT/load >$OUT/load.build 2>&1 \
    || { bad "build: $(cat $OUT/load.build)"; exit 1; }
seq1() { # the predicted sequential time, pinned to core $CORE; the report in $OUT/load.out
    timeout 120 taskset -c $CORE $OUT/load.predict --wtc-procs=1 --wtc-modes=simple \
        2000000 2>/dev/null >$OUT/load.out
    sed -n 's/.*sequential time \([0-9.]*\) s.*/\1/p' $OUT/load.out
}
hogs=
trap 'for h in $hogs; do kill $h 2>/dev/null; done' EXIT INT TERM
hogged() { # one prediction $h while two hogs share core $CORE; the report in $OUT/load.hog.out
    hogs=
    for i in 1 2; do
        timeout 100 taskset -c $CORE yes >/dev/null &
        hogs="$hogs $!"
    done
    sleep 0.2
    t0=$(date +%s.%N)
    h=$(seq1)
    t1=$(date +%s.%N)
    cp $OUT/load.out $OUT/load.hog.out
    for p in $hogs; do kill $p 2>/dev/null; wait $p 2>/dev/null; done
    hogs=
    sleep 0.2
    wall=$(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }')
}
attempt() { # lone and hogged predictions interleaved: L H L H L H L
    lone=$(seq1); hog=
    for i in 1 2 3; do
        hogged
        hog="$hog $h"
        lone="$lone $(seq1)"
    done
    # the hogged predictions' median against the range [lo, hi] of the four lone ones:
    # its distance from the range in per cent of the range's nearer end (0 inside it)
    e=$(echo "$hog | $lone" | awk '{
            n = 0; m = 0
            for (i = 1; i <= NF; i++) {
                if ($i == "|") { m = 1; continue }
                if ($i + 0 <= 0) exit 2
                if (!m) h[++n] = $i + 0
                else { if (lo == "" || $i < lo) lo = $i + 0; if ($i > hi) hi = $i + 0 }
            }
            if (n != 3 || lo == "") exit 2
            med = h[1] + h[2] + h[3] - (h[1] < h[2] ? (h[1] < h[3] ? h[1] : h[3]) : (h[2] < h[3] ? h[2] : h[3])) \
                - (h[1] > h[2] ? (h[1] > h[3] ? h[1] : h[3]) : (h[2] > h[3] ? h[2] : h[3]))
            a = med < lo ? 100 * (med / lo - 1) : med > hi ? 100 * (med / hi - 1) : 0
            printf "%+.1f%%", a; exit !(a <= 30 && a >= -25) }')
}
ok=0
for try in 1 2; do
    attempt && { ok=1; break; }
done
alone=$(echo $lone | cut -d' ' -f1); after=$(echo $lone | cut -d' ' -f4)
h1=$(echo $hog | cut -d' ' -f1); h2=$(echo $hog | cut -d' ' -f3)
[ -n "$alone" ] && [ -n "$after" ] && [ -n "$h1" ] && [ -n "$h2" ] ||
    { bad "no prediction ('$alone' '$h1' '$h2' '$after')"; exit 1; }
grep -q 'interrupted by another process' $OUT/load.hog.out \
    && pass "sharing a core with two hogs: $(grep -o '[0-9]* timed pieces* of work' $OUT/load.hog.out) by CPU time" \
    || bad "sharing a core with two hogs for ${wall} s, yet nothing reported interrupted"
[ $ok = 1 ] \
    && pass "with hogs$hog s (median $e outside the lone range; predicting took ${wall} s) vs alone $lone s (attempt $try)" \
    || bad "with hogs$hog s (median $e outside the lone range; predicting took ${wall} s) vs alone $lone s (limits +30 % and -25 %)"
exit $fail
