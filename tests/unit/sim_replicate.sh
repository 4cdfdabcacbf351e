#!/bin/sh
# Subtree replication and sampling accuracy on real samples (doc/predictor.md, sections
# 2 and 2.1): mergesort's and points' data-parallel trees are replicated and predicted
# within 10 % of --wtc-sample=all; n-queens (scalar arguments) is never replicated and
# its sampled sequential time is within 10 % of --wtc-sample=all; --wtc-replicate=off
# turns replication off. Medians of 3 predictions on each side (a shared host is noisy).
. tests/unit/sim_common.inc
[ -x bin/wtcc ] || { bad "bin/wtcc missing: run make"; exit 1; }
for s in msort points nqueens; do
    bin/wtcc samples/$s.wtc -o $OUT/rep_$s >$OUT/rep_$s.build 2>&1 || { bad "build $s"; exit 1; }
done

# seq PROG OPTIONS... : the median predicted sequential time of 3 runs
seq3() {
    p=$1; shift
    for i in 1 2 3; do
        timeout 120 $OUT/rep_$p.predict --wtc-procs=1 --wtc-modes=simple "$@" 2>/dev/null |
            sed -n 's/.*sequential time \([0-9.]*\) s.*/\1/p'
    done | sort -g | sed -n 2p
}

# within A B PCT : |A/B - 1| <= PCT %
within() { echo "$1 $2 $3" | awk '{ e = 100 * ($1 / $2 - 1); printf "%+.1f%%", e; exit !(e <= $3 && e >= -$3) }'; }

out=$(timeout 120 $OUT/rep_msort.predict --wtc-procs=1,2 2000000 2>/dev/null)
echo "$out" | grep -q '^replicated: [0-9]* subtrees' && pass "msort: replicated ($(echo "$out" | grep '^replicated' | cut -c1-60)...)" \
    || bad "msort: nothing replicated"
echo "$out" | grep -q '^prediction took ' && pass "prints the prediction's own time" \
    || bad "no 'prediction took' line"
out=$(timeout 120 $OUT/rep_msort.predict --wtc-procs=1 --wtc-replicate=off 2000000 2>/dev/null)
echo "$out" | grep -q '^replicated' && bad "--wtc-replicate=off still replicates" \
    || pass "--wtc-replicate=off: no replication"
out=$(timeout 120 $OUT/rep_nqueens.predict --wtc-procs=1 12 2>/dev/null)
echo "$out" | grep -q '^replicated' && bad "nqueens (scalar arguments) replicated" \
    || pass "nqueens (scalar arguments): not replicated"
timeout 20 $OUT/rep_msort.predict --wtc-replicate=1 10 >/dev/null 2>$OUT/e.txt; rc=$?
[ $rc = 2 ] && grep -q 'replicate' $OUT/e.txt && pass "--wtc-replicate=1: error, status 2" \
    || bad "--wtc-replicate=1: status $rc"

for case in "msort 4000000" "points 8000000" "nqueens 13"; do
    set -- $case
    d=$(seq3 $1 $2)
    a=$(seq3 $1 --wtc-sample=all $2)
    e=$(within "$d" "$a" 10) && pass "$1 $2: default prediction $d s vs --wtc-sample=all $a s ($e)" \
        || bad "$1 $2: default prediction $d s vs --wtc-sample=all $a s ($e, limit 10%)"
done
exit $fail
