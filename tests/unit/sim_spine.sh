#!/bin/sh
# The predictor on a tree thousands of calls deep (tests/unit/sim_spine.wtc): it
# finishes in seconds, its table has every setting asked for. Before the simulator's
# pending-work test stopped at the first frame holding work, every simulated par walked
# all the frames below it: 3000 levels took 15-30 s (a helper's 4000-level tree 424 s).
# A chain 100 000 calls deep (tests/unit/sim_chain.wtc) with pending work at the bottom
# of the stack: once more every par walked the frames (40 000 levels took 15 s, 100 000
# would take 90 s); now the simulator counts the frames below the top holding work.
. tests/unit/sim_common.inc
[ -x bin/wtcc ] || { bad "bin/wtcc missing: run make"; exit 1; }
P=$OUT/sim_spine
bin/wtcc ${SIM_CFLAGS:-} tests/unit/sim_spine.wtc -o $P >$OUT/sim_spine.build 2>&1 \
    || { bad "build: $(cat $OUT/sim_spine.build)"; exit 1; }
t0=$(date +%s)
timeout 60 $P.predict --wtc-machine=ethernet-mpich-2004 --wtc-modes=simple,dynamic,steal \
    --wtc-procs=1,2,3,8 --wtc-masters=1 --wtc-format=csv 3000 > $OUT/sim_spine.csv \
    2> $OUT/sim_spine.err
st=$?
t1=$(date +%s)
[ $st = 0 ] && pass "predicted in $((t1 - t0)) s" \
    || bad "status $st after $((t1 - t0)) s: $(tail -3 $OUT/sim_spine.err)"
rows=$(awk -F, 'NR > 1 && $6 > 0' $OUT/sim_spine.csv | wc -l)
[ "$rows" -ge 10 ] && pass "$rows settings predicted" || bad "rows: $(cat $OUT/sim_spine.csv)"
C=$OUT/sim_chain
bin/wtcc ${SIM_CFLAGS:-} tests/unit/sim_chain.wtc -o $C >$OUT/sim_chain.build 2>&1 \
    || { bad "build: $(cat $OUT/sim_chain.build)"; exit 1; }
for m in simple dynamic steal; do
    t0=$(date +%s)
    timeout 30 $C.predict --wtc-machine=ethernet-mpich-2004 --wtc-modes=$m \
        --wtc-procs=2,3 --wtc-masters=1 --wtc-format=csv 100000 > $OUT/sim_chain.csv \
        2> $OUT/sim_chain.err
    st=$?
    t1=$(date +%s)
    rows=$(awk -F, -v m=$m 'NR > 1 && $1 == m && $6 > 0' $OUT/sim_chain.csv | wc -l)
    [ $st = 0 ] && [ "$rows" = 2 ] \
        && pass "$m: a chain 100 000 deep predicted in $((t1 - t0)) s (limit 30 s)" \
        || bad "$m: chain 100 000 deep: status $st after $((t1 - t0)) s, $rows rows: $(tail -3 $OUT/sim_chain.err)"
done
exit $fail
