#!/bin/sh
# make demo (tools/demo.sh) ends with what the predictor is for: this host, calibrated
# in the demo with wtc-calibrate --quick, and a 10 Gb/s Ethernet cluster (the
# ethernet-10g-mpich preset) where parallelism pays, each with a plot; the summary names both
# best settings, and the cluster's uses more than one processor.
. tests/unit/sim_common.inc
D=tests/out/demo
rm -f $D/host.conf $D/host.svg $D/cluster.svg $D/host.txt $D/cluster.txt
timeout 280 sh tools/demo.sh >$OUT/demo.log 2>&1; rc=$?
[ $rc = 0 ] && pass "make demo's script passes" || { bad "demo: status $rc"; tail -20 $OUT/demo.log; exit 1; }
grep -q '^\$ timeout [0-9]* mpiexec -n 2 .*wtc-calibrate --quick .*-o host.conf' $OUT/demo.log &&
    grep -q '^name = this-host' $D/host.conf && pass "calibrates this host with --quick" \
    || bad "no quick calibration of this host"
grep -q '^wtc predict: msort.wtc on machine this-host (./host.conf)' $D/host.txt \
    && pass "predicts for this host with its calibration" || bad "host prediction"
grep -q '^wtc predict: msort.wtc on machine ethernet-10g-mpich' $D/cluster.txt \
    && pass "predicts for the ethernet-10g-mpich preset" || bad "cluster prediction"
cbest=$(grep '^best:' $D/cluster.txt)
echo "$cbest" | awk '{ p = $3; s = $NF; gsub(/\)/, "", s); exit !(p > 1 && s > 1.5) }' \
    && pass "on the cluster parallelism pays: $cbest" || bad "cluster best: $cbest"
grep -q "^  10 GbE cluster: *$cbest" $OUT/demo.log && grep -q '^  this host ([0-9?]* cores): *best:' $OUT/demo.log \
    && pass "the summary names both best settings" || bad "summary: $(tail -6 $OUT/demo.log)"
last=$(grep '^wtc predict: ' $OUT/demo.log | tail -1)
echo "$last" | grep -q 'on machine ethernet-10g-mpich' && pass "the last prediction is the cluster's" \
    || bad "the demo ends on: $last"
for f in host cluster; do
    if grep -q '<svg' $D/$f.svg && grep -q 'predicted speed-up' $D/$f.svg &&
        { ! command -v rsvg-convert >/dev/null 2>&1 || rsvg-convert -o $OUT/$f.png $D/$f.svg; }; then
        pass "$f.svg: a speed-up plot"
    else
        bad "$f.svg missing or not rendered"
    fi
done
exit $fail
