#!/bin/sh
# Sampled leaves timed through a slow stretch of the host (doc/predictor.md section 2,
# "Slow stretches of the host"): tests/unit/sim_retime.wtc is a farm of 20000 equal
# leaves that do their work twice during the first W ms after the first leaf began. W
# is set to cover the first two timings of the sampled leaves (4.5 times one pass, from a
# prediction without the slowdown); the later passes must bring the leaves' total back
# to what the prediction without it gave. With two passes only (each leaf the mean of
# its two timings, as before) the total came out 1.7-2 times too long. A farm whose
# leaves all run keeps two passes: more would cost over a quarter of the leaves' time.
. tests/unit/sim_common.inc
[ -x bin/wtcc ] || { bad "bin/wtcc missing: run make"; exit 1; }
P=$OUT/retime
bin/wtcc ${SIM_CFLAGS:-} tests/unit/sim_retime.wtc -o $P >$OUT/retime.build 2>&1 \
    || { bad "build: $(cat $OUT/retime.build)"; exit 1; }
# pred W N: one prediction of N leaves with a slow stretch of W ms into $OUT/retime.W.out;
# prints the leaves' total
pred() {
    WTC_TEST_SLOW_MS=$1 timeout 120 $P.predict --wtc-modes=simple --wtc-procs=1 $2 \
        >$OUT/retime.$1.out 2>/dev/null
    sed -n 's/^leaf tasks: .*; total \([0-9.]*\) s.*/\1/p' $OUT/retime.$1.out
}
# the first pass's total from a report's "timed up to N times: A s and B s" line
first_pass() {
    sed -n 's/.*timed up to [0-9]* times: \([0-9.]*\) s and .*/\1/p' $OUT/retime.$1.out
}
# The host's own slow stretches can fall into either prediction (its first pass then
# sets W wrongly, or the extra passes' budget runs out): up to 3 tries, each from a new
# prediction without the slowdown. The code before the extra passes fails every try.
for try in 1 2 3; do
    base=$(pred 0 20000)
    p=$(first_pass 0)
    if [ -z "$base" ] || [ -z "$p" ]; then
        why="no leaf total or no extra passes without a slowdown: $(cat $OUT/retime.0.out)"
        continue
    fi
    W=$(echo "$p" | awk '{ printf "%.0f", 4500 * $1 }')
    slow=$(pred "$W" 20000)
    p1=$(first_pass "$W")
    # the disturbance must have happened (the first pass about twice as long), else this
    # checks nothing
    if ! echo "${p1:-0} $p" | awk '$1 > 0 && $2 > 0 && $1 >= 1.6 * $2 { exit 0 } { exit 1 }'; then
        why="a slow stretch of $W ms did not slow the first pass, or no pass after the second: $(grep timed $OUT/retime.$W.out)"
        continue
    fi
    if ! echo "$slow $base" | awk '$1 > 0 && $2 > 0 && $1 / $2 < 1.1 && $2 / $1 < 1.1 { exit 0 } { exit 1 }'; then
        why="leaves through a slow stretch: $slow s against $base s (over 10 % apart): $(grep timed $OUT/retime.$W.out)"
        continue
    fi
    why=
    break
done
if [ -z "$why" ]; then
    pass "without a slowdown: leaves $base s, first pass $p s ($(grep -o 'timed up to [0-9]* times' $OUT/retime.0.out))"
    pass "a slow stretch of $W ms: first pass $p1 s against $p s"
    pass "leaves through a slow stretch: $slow s against $base s (try $try)"
else
    bad "$why (3 tries)"
fi
# every leaf runs (1000 of them, under 0.1 s): two passes, no more
small=$(pred 0 1000)
grep -q 'timed twice' $OUT/retime.0.out \
    && pass "all 1000 leaves run: timed twice ($small s)" \
    || bad "all 1000 leaves run: $(grep -E 'leaf tasks|timed' $OUT/retime.0.out)"
exit $fail
