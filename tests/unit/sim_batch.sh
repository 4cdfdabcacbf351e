#!/bin/sh
# Batch advice (doc/predictor.md section 6): for a farm of tiny tasks (Mandelbrot) the
# predictor recommends a larger --wtc-batch, and its figure is what a prediction with
# that batch gives; fib (two children per par) gets its advice line; with --wtc-batch
# given, no advice (the table has the batches).
. tests/unit/sim_common.inc
[ -x bin/wtcc ] || { bad "bin/wtcc missing: run make"; exit 1; }
for s in mandel fib; do
    bin/wtcc ${SIM_CFLAGS:-} samples/$s.wtc -o $OUT/batch_$s >$OUT/batch_$s.build 2>&1 \
        || { bad "build $s: $(cat $OUT/batch_$s.build)"; exit 1; }
done
# P = 8: one master saturates with one-pixel groups (with standing requests P = 4 gains
# only 10-20 % from batching on the 2004 preset, within the recording's run-to-run spread)
opts="--wtc-procs=1,8 --wtc-masters=1 --wtc-sample=all"
out=$(timeout 120 $OUT/batch_mandel.predict $opts 256 256 2>/dev/null)
line=$(echo "$out" | grep '^  batch, at the best dynamic setting')
T=$(echo "$line" | sed -n 's/.*--wtc-batch=\([0-9]*\) is predicted \([0-9.]*\) s against \([0-9.]*\) s.*/\1/p')
tb=$(echo "$line" | sed -n 's/.* is predicted \([0-9.]*\) s against.*/\1/p')
P=$(echo "$line" | sed -n 's/.*(P = \([0-9]*\), M = 1).*/\1/p')
if [ -n "$T" ] && [ -n "$P" ]; then
    pass "mandel: recommends --wtc-batch=$T at P = $P ($tb s)"
    # the same figure from the table when that batch is asked for (the recording
    # differs between runs: within 10 %)
    cT=$(timeout 120 $OUT/batch_mandel.predict --wtc-procs=$P --wtc-masters=1 --wtc-modes=dynamic \
        --wtc-batch=$T --wtc-sample=all --wtc-format=csv 256 256 2>/dev/null |
        awk -F, -v T=$T '$4 == T { print $5 }')
    echo "$cT $tb" | awk '{ exit !($1 > 0 && $1 / $2 < 1.1 && $2 / $1 < 1.1) }' \
        && pass "--wtc-batch=$T at P = $P: $cT s, as advised" \
        || bad "--wtc-batch=$T at P = $P: $cT s, advice said $tb s"
elif echo "$line" | grep -q 'the default batch (half) is within 5 % of the best'; then
    pass "mandel: the default batch (half) is within 5 % of the best at P = 8"
else
    bad "mandel: no batch line: '$line'"
fi
# the default (half the pending children a grant) beats one pixel per task on the farm
csv=$(timeout 120 $OUT/batch_mandel.predict --wtc-procs=8 --wtc-masters=1 --wtc-modes=dynamic \
    --wtc-sample=all --wtc-format=csv 256 256 2>/dev/null)
c0=$(echo "$csv" | awk -F, '$2 == 8 { print $5 }')
csv=$(timeout 120 $OUT/batch_mandel.predict --wtc-procs=8 --wtc-masters=1 --wtc-modes=dynamic \
    --wtc-batch=1 --wtc-sample=all --wtc-format=csv 256 256 2>/dev/null)
c1=$(echo "$csv" | awk -F, '$2 == 8 { print $5 }')
echo "$c0 $c1" | awk '{ exit !($1 > 0 && $1 < $2) }' \
    && pass "mandel at P = 8: default batch $c0 s, batch 1 $c1 s" \
    || bad "mandel at P = 8: default batch $c0 s is not faster than batch 1 $c1 s"
echo "$out" | grep -q 'none: too little work per task' \
    && pass "mandel: no number of masters keeps up with one-pixel tasks at P = 8" \
    || bad "mandel: the masters-per-depth table: $(echo "$out" | grep -A2 'by cut-off depth')"
# fib (two children per par): with standing requests the batch still sets how many
# workers a REQ asks for (ceil(pending / T), pending summed over the nested frames), so
# a small gain may be advised on the 2004 preset (batch 4: 6-12 %); only the line
# itself is checked: advice given, or batch 1 within 5 % of the best
out=$(timeout 120 $OUT/batch_fib.predict $opts 27 2>/dev/null)
echo "$out" | grep -Eq 'batch \(half\) is within 5 % of the best|--wtc-batch=[0-9]+ is predicted' \
    && pass "fib: batch advice ($(echo "$out" | grep 'batch, at' | sed 's/^ *//'))" \
    || bad "fib: $(echo "$out" | grep 'batch, at')"
out=$(timeout 120 $OUT/batch_mandel.predict $opts --wtc-batch=1,64 256 256 2>/dev/null)
echo "$out" | grep -q 'batch, at the best' && bad "--wtc-batch given, yet batch advice" \
    || pass "--wtc-batch given: no batch advice"
exit $fail
