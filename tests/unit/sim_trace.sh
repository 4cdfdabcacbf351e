#!/bin/sh
# The predicted timeline (doc/predictor.md, "Predicted timeline"): prog.predict
# --wtc-trace / --wtc-stats for one setting write the simulated run as the program's
# --wtc-trace / --wtc-stats show the real one. tests/unit/sim_trace.wtc at P = 2 in
# simple mode: both traces have the same lanes with the same states (rank 0: compute,
# wait children; rank 1: idle, compute); the per-rank table has min, max and avg rows
# in both; several settings are refused before the program runs.
. tests/unit/sim_common.inc
T=$OUT/sim_trace
bin/wtcc ${SIM_CFLAGS:-} tests/unit/sim_trace.wtc -o $T || { bad "wtcc sim_trace.wtc"; exit 1; }
rm -f $OUT/real.json $OUT/pred.json

# lane NAME: the distinct state names of each lane, "tid:name", sorted
lanes() {
    grep '"ph":"B"' "$1" | sed 's/.*"name":"\([^"]*\)".*"tid":\([0-9]*\).*/\2:\1/' | sort -u
}
# balanced and nested B/E on every lane, and WANT lanes
balanced() {
    awk -v want="$2" '/"ph":"[BE]"/ {
            match($0, /"tid":[0-9]+/); tid = substr($0, RSTART + 6, RLENGTH - 6)
            if ($0 ~ /"ph":"B"/) d[tid]++; else d[tid]--
            if (d[tid] < 0) bad = 1
            seen[tid] = 1 }
        END { n = 0; for (t in seen) { n++; if (d[t] != 0) bad = 1 }; exit (bad || n != want) }' "$1"
}

timeout 120 mpiexec -n 2 $T --wtc-mode=simple --wtc-trace=$OUT/real.json --wtc-stats \
    >/dev/null 2>$OUT/real.err; rc=$?
[ $rc = 0 ] && [ -s $OUT/real.json ] && pass "the program's trace at P = 2" || bad "real run: status $rc"
timeout 120 $T.predict --wtc-procs=2 --wtc-modes=simple --wtc-trace=$OUT/pred.json --wtc-stats \
    >$OUT/pred.out 2>$OUT/pred.err; rc=$?
[ $rc = 0 ] && [ -s $OUT/pred.json ] && pass "the predicted trace at P = 2" || bad "predict: status $rc: $(cat $OUT/pred.err)"

lanes $OUT/real.json > $OUT/real.lanes
lanes $OUT/pred.json > $OUT/pred.lanes
printf '0:compute\n0:wait children\n1:compute\n1:idle\n' > $OUT/want.lanes
if cmp -s $OUT/real.lanes $OUT/pred.lanes && cmp -s $OUT/pred.lanes $OUT/want.lanes; then
    pass "same lanes, same states: $(tr '\n' ' ' < $OUT/pred.lanes)"
else
    bad "lanes differ: real [$(tr '\n' ' ' < $OUT/real.lanes)] predicted [$(tr '\n' ' ' < $OUT/pred.lanes)]"
fi
grep -q '"thread_name".*"rank 1 (worker)"' $OUT/pred.json && grep -q '"thread_name".*"rank 1 (worker)"' $OUT/real.json \
    && pass "lanes named as the program's" || bad "lane names"
balanced $OUT/pred.json 2 && pass "balanced B/E on 2 lanes" || bad "unbalanced predicted trace"
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["traceEvents"]' $OUT/pred.json \
        && pass "the predicted trace parses as JSON" || bad "predicted trace is not JSON"
fi
# the lanes end at the predicted time of the table (microseconds vs seconds)
pt=$(awk '$1 == "simple" && $2 == 2 { print $5 }' $OUT/pred.out)
end=$(grep '"ph":"E"' $OUT/pred.json | sed 's/.*"ts":\([0-9.]*\).*/\1/' | sort -g | tail -1)
awk -v p="$pt" -v e="$end" 'BEGIN { exit !(p > 0 && e / 1e6 > p * 0.999 && e / 1e6 < p * 1.001) }' \
    && pass "the trace ends at the predicted time ($pt s)" || bad "trace ends at $end us, predicted $pt s"

# the table: rows per rank, then min, max, avg, from the program's own printing code
for f in $OUT/real.err $OUT/pred.out; do
    if grep -qE '^0 +worker' $f && grep -qE '^1 +worker' $f && grep -qE '^min +worker' $f &&
        grep -qE '^max +worker' $f && grep -qE '^avg +worker' $f; then
        pass "--wtc-stats rows 0, 1, min, max, avg ($(basename $f))"
    else
        bad "--wtc-stats rows in $(basename $f)"
    fi
done
grep -q '^wtc stats: predicted run on .*simple mode, 2 ranks' $OUT/pred.out \
    && pass "the predicted table says which run it shows" || bad "predicted table title"
# each lane's states add up to the predicted time; rank 0 waits for its children
awk -v p="$pt" '/^[01] +worker/ { s = $3 + $4 + $5 + $6; if (s < p * 0.99 || s > p * 1.01) bad = 1
        if ($1 == 0 && $5 < p / 2) bad = 1 }
    END { exit bad }' $OUT/pred.out \
    && pass "per rank the states add up to the predicted time; rank 0 waits for rank 1" \
    || bad "predicted states: $(grep -E '^[01] +worker' $OUT/pred.out)"

# dynamic mode at P = 3 with one master: rank 2's lane is the master's, as in the program
timeout 120 $T.predict --wtc-procs=3 --wtc-modes=dynamic --wtc-masters=1 \
    --wtc-trace=$OUT/dyn.json 4000000 >$OUT/dyn.out 2>&1; rc=$?
if [ $rc = 0 ] && grep -q '"rank 2 (master)"' $OUT/dyn.json && grep -qE '^2 +master' $OUT/dyn.out && lanes $OUT/dyn.json | grep -q '^2:master idle$' &&
    lanes $OUT/dyn.json | grep -q '^2:master busy$' && balanced $OUT/dyn.json 3; then
    pass "dynamic P = 3: a master lane with master busy / master idle; --wtc-trace alone prints the table"
else
    bad "dynamic trace (status $rc): $(lanes $OUT/dyn.json | tr '\n' ' ')"
fi

# more than one setting: a clear error before the program runs, no file
rm -f $OUT/none.json
for opts in "--wtc-procs=2,4 --wtc-modes=simple" "--wtc-procs=4 --wtc-modes=dynamic" \
            "--wtc-procs=2"; do
    timeout 60 $T.predict $opts --wtc-trace=$OUT/none.json >$OUT/o.txt 2>$OUT/e.txt; rc=$?
    if [ $rc = 2 ] && grep -q 'shows one predicted run, and these options name [0-9]* settings' $OUT/e.txt &&
        [ ! -e $OUT/none.json ] && [ ! -s $OUT/o.txt ]; then
        pass "$opts: refused ($(grep -o 'name [0-9]* settings' $OUT/e.txt))"
    else
        bad "$opts: status $rc, $(cat $OUT/e.txt)"
    fi
done
timeout 60 $T.predict --wtc-procs=2,4 --wtc-stats >/dev/null 2>$OUT/e.txt; rc=$?
[ $rc = 2 ] && grep -q -- '--wtc-stats shows one predicted run' $OUT/e.txt \
    && pass "--wtc-stats with several settings refused" || bad "--wtc-stats several: status $rc"
# dynamic at P = 2: masters 1, 2, 4, 8 are all reduced to 1, one setting
timeout 60 $T.predict --wtc-procs=2 --wtc-modes=dynamic --wtc-stats 2000000 >$OUT/o.txt 2>&1; rc=$?
[ $rc = 0 ] && grep -qE '^1 +master' $OUT/o.txt \
    && pass "dynamic P = 2: the reduced masters make one setting" || bad "dynamic P = 2: status $rc"
# a trace that cannot be written: a message and status 2 before the run
timeout 60 $T.predict --wtc-procs=2 --wtc-modes=simple --wtc-trace=/nonexistent/dir/t.json \
    2000000 >$OUT/o.txt 2>$OUT/e.txt; rc=$?
[ $rc = 2 ] && grep -q -- '--wtc-trace=/nonexistent/dir/t.json: cannot write it' $OUT/e.txt && ! grep -q '^best:' $OUT/o.txt \
    && pass "unwritable trace: status 2 before the run" || bad "unwritable trace: status $rc"
exit $fail
