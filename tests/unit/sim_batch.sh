#!/bin/sh
# Batch advice (doc/predictor.md section 6.2): for a farm of tiny tasks (Mandelbrot) the
# predictor recommends a larger --wtc-batch in a note at the farm's par, and its figure
# is what a prediction with that batch gives; with --wtc-batch given, no batch note (the
# table has the batches).
. tests/unit/sim_common.inc
# the default machine, whatever 'make calibrate' left in lib/wtc/machines/host.conf
# (its figures are what these checks expect)
MACHINE=--wtc-machine=ethernet-mpich-2004
[ -x bin/wtcc ] || { bad "bin/wtcc missing: run make"; exit 1; }
for s in mandel fib; do
    bin/wtcc ${SIM_CFLAGS:-} samples/$s.wtc -o $OUT/batch_$s >$OUT/batch_$s.build 2>&1 \
        || { bad "build $s: $(cat $OUT/batch_$s.build)"; exit 1; }
done
# P = 8: one master saturates with one-pixel groups (with standing requests P = 4 gains
# only 10-20 % from batching on the 2004 preset, within the recording's run-to-run spread)
opts="--wtc-procs=1,8 --wtc-masters=1 --wtc-sample=all"
prof=$OUT/batch_mandel.prof
rm -f $prof
out=$(timeout 120 $OUT/batch_mandel.predict $MACHINE $opts --wtc-save-profile=$prof 256 256 2>/dev/null)
# the note names the farm's par (samples/mandel.wtc:74:5, "par p = 0 to W * H - 1")
line=$(echo "$out" | grep 'note: batch: --wtc-batch=')
T=$(echo "$line" | sed -n 's/.*--wtc-batch=\([0-9]*\) (.* is predicted \([0-9.]*\) s against \([0-9.]*\) s.*/\1/p')
tb=$(echo "$line" | sed -n 's/.* is predicted \([0-9.]*\) s against.*/\1/p')
P=$(echo "$line" | sed -n 's/.*(dynamic, P = \([0-9]*\), M = 1, batch half).*/\1/p')
if [ -n "$T" ] && [ -n "$P" ]; then
    echo "$line" | grep -q '^samples/mandel.wtc:74:5: note: batch: .* faster' \
        && pass "mandel: recommends --wtc-batch=$T at P = $P ($tb s) at the farm's par" \
        || bad "mandel: the note is not at the par: '$line'"
    # the same figure from the table when that batch is asked for, from the same
    # recording (the profile; two recordings of this 30 ms farm differed by 12 % under
    # make check once the seeds left the figure to the leaves' times): within 1 %
    cT=$(timeout 120 $OUT/batch_mandel.predict $MACHINE --wtc-procs=$P --wtc-masters=1 --wtc-modes=dynamic \
        --wtc-batch=$T --wtc-profile=$prof --wtc-format=csv 2>/dev/null |
        awk -F, -v T=$T '$4 == T { print $5 }')
    echo "$cT $tb" | awk '{ exit !($1 > 0 && $1 / $2 < 1.01 && $2 / $1 < 1.01) }' \
        && pass "--wtc-batch=$T at P = $P: $cT s, as advised" \
        || bad "--wtc-batch=$T at P = $P: $cT s, advice said $tb s"
else
    bad "mandel: no batch note: '$(echo "$out" | sed -n '/^advice at source/,/^$/p')'"
fi
# no batch to tune: the region's seeds cut the farm into one block per worker (doc/
# runtime.md "dynamic mode", item 0), and the batch only shapes the grants after them,
# so the default (half the pending children a grant) is within 35 % of one pixel per
# task and of 64: 10-23 % above the better of them, recording to recording (before
# seeds one master saturated: 0.28 s with one pixel, 0.13 s with 64, against 0.08-0.09
# s now: 2.2x). All three from the one recording above (the default came out 25.2 %
# above batch 64 once, predicted from another recording than the batches)
csv=$(timeout 120 $OUT/batch_mandel.predict $MACHINE --wtc-procs=8 --wtc-masters=1 --wtc-modes=dynamic \
    --wtc-profile=$prof --wtc-format=csv 2>/dev/null)
c0=$(echo "$csv" | awk -F, '$2 == 8 { print $5 }')
csv=$(timeout 120 $OUT/batch_mandel.predict $MACHINE --wtc-procs=8 --wtc-masters=1 --wtc-modes=dynamic \
    --wtc-batch=1,64 --wtc-profile=$prof --wtc-format=csv 2>/dev/null)
c1=$(echo "$csv" | awk -F, '$2 == 8 && $4 == 1 { print $5 }')
c64=$(echo "$csv" | awk -F, '$2 == 8 && $4 == 64 { print $5 }')
echo "$c0 $c1 $c64" | awk '{ b = $2 < $3 ? $2 : $3; exit !($1 > 0 && b > 0 && $1 < 1.35 * b) }' \
    && pass "mandel at P = 8: default batch $c0 s, batch 1 $c1 s, batch 64 $c64 s" \
    || bad "mandel at P = 8: default batch $c0 s, more than 35 % above batch 1 $c1 s or 64 $c64 s"
echo "$out" | grep -q 'none: too little work per task' \
    && pass "mandel: no number of masters keeps up with one-pixel tasks at P = 8" \
    || bad "mandel: the masters-per-depth table: $(echo "$out" | grep -A2 'by cut-off depth')"
# fib (two children per par): with standing requests the batch still sets how many
# workers a REQ asks for (ceil(pending / T), pending summed over the nested frames), so
# a small gain may be advised on the 2004 preset (batch 4: 6-12 %); a batch note, if
# any, names fib's par (samples/fib.wtc:23:5)
out=$(timeout 120 $OUT/batch_fib.predict $MACHINE $opts 27 2>/dev/null)
notes=$(echo "$out" | grep 'note: batch:')
if [ -z "$notes" ]; then
    echo "$out" | grep -q '^advice at source lines' && pass "fib: no batch note" \
        || bad "fib: no advice section"
else
    echo "$notes" | grep -vq '^samples/fib.wtc:23:5: note: batch: --wtc-batch=[0-9]* ' \
        && bad "fib: $notes" || pass "fib: batch note at the par ($notes)"
fi
out=$(timeout 120 $OUT/batch_mandel.predict $MACHINE $opts --wtc-batch=1,64 256 256 2>/dev/null)
# (a note may still compare the table's best batch with the source's default)
echo "$out" | grep -q 'note: batch:.* at the best dynamic setting' \
    && bad "--wtc-batch given, yet batches were tried" \
    || pass "--wtc-batch given: no batches tried beyond the table"
exit $fail
