#!/bin/sh
# prog.predict end to end: tests/abi/fib_msort.c (in the shape of generated code)
# linked against libwtcrt_sim.a; options, formats, errors, suppressed user output.
. tests/unit/sim_common.inc
P=$OUT/fib_msort.predict
cc -std=gnu11 -O2 -g -Wall ${SIM_CFLAGS:-} -Iruntime -Iruntime/common -Iruntime/sim -o $P tests/abi/fib_msort.c $LIB -lm || exit 1

out=$(timeout 120 $P 25 200000 2>$OUT/err.txt); rc=$?
[ $rc = 0 ] && pass "fib_msort.predict runs (status 0)" || bad "status $rc: $(cat $OUT/err.txt)"
echo "$out" | sed -n '1,3p'
echo "$out" | grep -q '^best: ' && pass "prints the best setting" || bad "no best setting"
echo "$out" | grep -q '^advice' && pass "prints advice" || bad "no advice"
echo "$out" | grep -q 'million messages/s' && pass "prints simulator speed" || bad "no speed"
echo "$out" | grep 'million messages/s'
echo "$out" | grep -q 'fib(25)\|sorted\|farm total' && bad "user output not suppressed" \
    || pass "the program's own output is suppressed"
# 8 P values: simple 8; dynamic 25 (masters 1,2,4,8, those >= P reduced to P-1 as the
# runtime does, each setting once: P=1: 1, P=2: M=1, P=4: 1,2,3, P=8: 1,2,4,7, then 4
# each); steal 8 (no masters, no batch list)
n=$(echo "$out" | grep -c '^\(simple\|dynamic\|steal\) ')
[ "$n" = 41 ] && pass "41 settings by default" || bad "$n settings, want 41"
echo "$out" | grep -q '^(masters reduced to P - 1.*: 2, 4, 8 at P = 2: 1; 4, 8 at P = 4: 3; 8 at P = 8: 7)$' \
    && pass "says which masters were reduced" || bad "no note on reduced masters"
# sanity: P = 1 has speedup 1.00, every predicted time positive
echo "$out" | awk '/^(simple|dynamic|steal) +1 /{ if ($6 != "1.00") bad=1 }
    /^(simple|dynamic|steal) /{ if ($5 <= 0) bad=1 } END { exit bad }' \
    && pass "P=1 has speedup 1, all times positive" || bad "insane table"
st=$(timeout 120 $P --wtc-modes=steal --wtc-procs=1,2,4 --wtc-masters=1,2 --wtc-batch=1,4 \
     --wtc-format=csv 25 100000)
[ "$(echo "$st" | grep -c '^steal,')" = 3 ] && echo "$st" | grep -q '^steal,4,0,0,' \
    && pass "steal: one row per P (masters and batch 0: they do not apply)" \
    || bad "steal rows: $st"
timeout 20 env WTC_DECISIONS=$OUT/dec.txt $P --wtc-procs=2,4 --wtc-modes=simple 10 1000 \
    >/dev/null 2>$OUT/e.txt
grep -q 'WTC_DECISIONS ignored: it logs one setting, and 2 were asked' $OUT/e.txt \
    && [ ! -e $OUT/dec.txt ] && pass "WTC_DECISIONS: refused for several settings" \
    || bad "WTC_DECISIONS with two settings: $(cat $OUT/e.txt)"
timeout 20 env WTC_DECISIONS=$OUT/dec.txt $P --wtc-procs=4 --wtc-modes=simple 10 1000 \
    >/dev/null 2>$OUT/e.txt
grep -q '^send [0-9-]* [0-9]* [0-9]* -> [123]$' $OUT/dec.txt \
    && pass "WTC_DECISIONS: $(wc -l <$OUT/dec.txt) TASK lines, e.g. '$(head -1 $OUT/dec.txt)'" \
    || bad "WTC_DECISIONS for one setting: $(head -3 $OUT/dec.txt) $(cat $OUT/e.txt)"
rm -f $OUT/dec.txt

help=$(timeout 20 $P --wtc-help 25 200000 2>&1); rc=$?
[ $rc = 0 ] && echo "$help" | grep -q '^usage: ./prog.predict' && echo "$help" | grep -q -- '--wtc-replicate' \
    && ! echo "$help" | grep -q '^best:' && pass "--wtc-help: the options, status 0, no prediction" \
    || bad "--wtc-help: status $rc: $(echo "$help" | head -3)"

csv=$(timeout 120 $P --wtc-format=csv --wtc-procs=1,2,4 --wtc-masters=1 --wtc-batch=1,4 25 100000)
echo "$csv" | head -1 | grep -q '^mode,procs,masters,batch,predicted_s,speedup' \
    && pass "csv header" || bad "csv header: $(echo "$csv" | head -1)"
n=$(echo "$csv" | wc -l)
[ "$n" = 12 ] && pass "csv: header + 11 rows (simple 3, dynamic 5, steal 3)" || bad "csv has $n lines"

if command -v python3 >/dev/null; then
    timeout 120 $P --wtc-format=json --wtc-procs=1,8 --wtc-masters=1,2,4,8,9 25 100000 | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["settings"] and d["best"]["predicted_s"] > 0 and "sampling" in d
assert [x["mode"] for x in d["settings"]].count("steal") == 2 and "steals" in d["settings"][0]
assert d["masters_reduced"] == "8, 9 at P = 8: 7"
' && pass "json parses" || bad "json"
fi

all=$(timeout 120 $P --wtc-sample=all --wtc-procs=1,2 25 100000)
echo "$all" | grep -q 'leaf tasks: all [0-9]* ran' && pass "--wtc-sample=all runs every task" \
    || bad "--wtc-sample=all: $(echo "$all" | sed -n 3p)"
few=$(timeout 120 $P --wtc-sample=10 --wtc-procs=1,2 25 100000)
echo "$few" | grep -q 'leaf tasks: ran [0-9]* of' && pass "--wtc-sample=10 samples" || bad "sample=10"

for o in --wtc-procs=0 --wtc-procs=a --wtc-bogus=1 --wtc-format=xml --wtc-error=0 \
         --wtc-modes=fast --wtc-modes=steal, --wtc-modes=,simple --wtc-machine=/nonexistent.conf \
         --wtc-batch; do
    timeout 20 $P $o 10 1000 >$OUT/o.txt 2>$OUT/e.txt; rc=$?
    if [ $rc = 2 ] && [ ! -s $OUT/o.txt ] && [ "$(grep -c error $OUT/e.txt)" = 1 ]; then
        pass "$o: one error, status 2: $(head -1 $OUT/e.txt)"
    else
        bad "$o: status $rc"
    fi
done
# a value given twice is one setting (its rows came twice)
n=$(timeout 120 $P --wtc-procs=2,2,4 --wtc-modes=simple,simple --wtc-format=csv 10 1000 | grep -c '^simple,')
[ "$n" = 2 ] && pass "--wtc-procs=2,2,4 --wtc-modes=simple,simple: 2 rows" \
    || bad "duplicate values: $n rows"
printf 'name = x\nL = 1\nbogus = 2\n' > $OUT/bad.conf
timeout 20 $P --wtc-machine=$OUT/bad.conf 10 1000 >/dev/null 2>$OUT/e.txt; rc=$?
[ $rc = 2 ] && grep -q "bad.conf:3: unknown key 'bogus'" $OUT/e.txt \
    && pass "bad machine file: $(cat $OUT/e.txt)" || bad "bad machine file: status $rc"
timeout 20 $P --wtc-machine=loopback-default --wtc-procs=1,2 10 1000 | grep -q 'loopback-default' \
    && pass "--wtc-machine=NAME finds a preset" || bad "preset by name"
# a free round trip (the 2004 preset with L, o_sa and o_ra 0: a what-if of a zero-cost
# network) is predicted in steal mode: every steal row said "nan" with status 0, P = 1
# too, the JSON "predicted_s": nan, and --wtc-stats no table (a helper's bug hunt)
sed 's/^\(L\|o_sa\|o_ra\) = .*/\1 = 0/' machines/ethernet-mpich-2004.conf >$OUT/zero_rtt.conf
timeout 120 $P --wtc-procs=1,4 --wtc-modes=steal --wtc-machine=$OUT/zero_rtt.conf 25 20000 \
    >$OUT/o.txt 2>$OUT/e.txt; rc=$?
[ $rc = 0 ] && [ "$(grep -c '^steal ' $OUT/o.txt)" = 2 ] && ! grep -qi 'nan\|inf' $OUT/o.txt &&
    awk '/^steal /{ if (!($5 > 0)) bad = 1 } END { exit bad }' $OUT/o.txt \
    && pass "a free round trip, steal mode: finite predictions (P = 4:" \
        "$(awk '/^steal +4 /{ print $5 }' $OUT/o.txt) s)" \
    || bad "a free round trip: status $rc: $(grep '^steal ' $OUT/o.txt)" \
        "$(head -c 200 $OUT/e.txt)"
timeout 120 $P --wtc-procs=4 --wtc-modes=steal --wtc-machine=$OUT/zero_rtt.conf --wtc-stats \
    25 20000 >$OUT/o.txt 2>&1
grep -q '^0  *worker ' $OUT/o.txt && pass "a free round trip: --wtc-stats prints its table" \
    || bad "a free round trip, --wtc-stats: $(tail -3 $OUT/o.txt)"
if command -v python3 >/dev/null; then
    timeout 120 $P --wtc-format=json --wtc-procs=1,4 --wtc-modes=steal \
        --wtc-machine=$OUT/zero_rtt.conf 25 20000 | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert len(d["settings"]) == 2 and all(x["predicted_s"] > 0 for x in d["settings"])
' && pass "a free round trip: json parses" || bad "a free round trip: json"
fi
# options: an unknown one is named as unknown (with or without '='), a known one
# without its value says so, and after '--' nothing is the predictor's (the program's
# own arguments: fib_msort reads 25 and 20000, and a '--wtc-bogus' after the '--')
for o in --wtc-bogus --wtc-bogus=1; do
    timeout 20 $P $o 20 1000 >/dev/null 2>$OUT/e.txt; rc=$?
    [ $rc = 2 ] && grep -q "unknown option $(echo $o | cut -d= -f1)" $OUT/e.txt \
        && pass "$o: unknown option, status 2" || bad "$o: status $rc: $(cat $OUT/e.txt)"
done
timeout 20 $P --wtc-procs 20 1000 >/dev/null 2>$OUT/e.txt; rc=$?
[ $rc = 2 ] && grep -q -- "--wtc-procs: needs a value" $OUT/e.txt \
    && pass "--wtc-procs without a value: says so" || bad "--wtc-procs: status $rc: $(cat $OUT/e.txt)"
timeout 60 $P --wtc-procs=1,2 --wtc-format=csv -- 25 20000 --wtc-bogus >$OUT/o.txt 2>$OUT/e.txt; rc=$?
[ $rc = 0 ] && grep -q '^simple,2,' $OUT/o.txt \
    && pass "after '--' the arguments are the program's" || bad "'--': status $rc: $(cat $OUT/e.txt)"
exit $fail
