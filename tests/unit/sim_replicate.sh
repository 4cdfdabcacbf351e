#!/bin/sh
# Subtree replication and sampling accuracy on real samples (doc/predictor.md, sections
# 2 and 2.1): mergesort's and points' data-parallel trees are replicated and predicted
# within 10 % of --wtc-sample=all; n-queens (scalar arguments) is never replicated and
# its sampled sequential time is within 10 % of --wtc-sample=all; --wtc-replicate=off
# turns replication off. The fastest of 7 predictions on each side, run alternately (a shared host is noisy).
. tests/unit/sim_common.inc
[ -x bin/wtcc ] || { bad "bin/wtcc missing: run make"; exit 1; }
for s in msort points nqueens; do
    bin/wtcc ${SIM_CFLAGS:-} samples/$s.wtc -o $OUT/rep_$s >$OUT/rep_$s.build 2>&1 || { bad "build $s"; exit 1; }
done

# pair PROG ARGS... : the fastest predicted sequential times of 7 default and 7
# --wtc-sample=all predictions, run alternately so that a change of the host's load
# (a shared VM) moves both sides alike; the fastest, because load only adds time:
# "default all"
seq1() {
    p=$1; shift
    timeout 120 $OUT/rep_$p.predict --wtc-procs=1 --wtc-modes=simple "$@" 2>/dev/null |
        sed -n 's/.*sequential time \([0-9.]*\) s.*/\1/p'
}
pair() {
    p=$1; shift
    : >$OUT/rep_d.txt
    : >$OUT/rep_a.txt
    for i in 1 2 3 4 5 6 7; do
        seq1 $p "$@" >>$OUT/rep_d.txt
        seq1 $p --wtc-sample=all "$@" >>$OUT/rep_a.txt
    done
    echo "$(sort -g $OUT/rep_d.txt | sed -n 1p) $(sort -g $OUT/rep_a.txt | sed -n 1p)"
}

# within A B PCT : |A/B - 1| <= PCT %
within() { echo "$1 $2 $3" | awk '{ e = 100 * ($1 / $2 - 1); printf "%+.1f%%", e; exit !(e <= $3 && e >= -$3) }'; }

# 4M: at 2M only the root's par is big enough to replicate, and its child 1 runs as
# the witness (2.1), so nothing is copied
# (up to 3 recordings: one whose two siblings another process slowed by over 20 % is
# rightly not replicated, "siblings of equal sizes differed", about 1 in 25 on a busy VM)
for try in 1 2 3; do
    out=$(timeout 120 $OUT/rep_msort.predict --wtc-procs=1,2 4000000 2>&1)
    echo "$out" | grep -q '^replicated: [0-9]* subtrees' && break
done
echo "$out" | grep -q '^replicated: [0-9]* subtrees' && pass "msort: replicated ($(echo "$out" | grep '^replicated' | cut -c1-60)..., recording $try)" \
    || bad "msort: nothing replicated in 3 recordings: $(echo "$out" | grep -i 'not replicated\|differed' | head -2)"
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

# Limits: 10 % for sampling (n-queens), 20 % for replication (mergesort, points): a
# replicated prediction runs 1/16 of the work and multiplies it, so a disturbance of the
# host during that one subtree weighs 16 times (seen: +35 % once under load); the bugs
# this guards against were -42 % (mergesort merges on unsorted halves).
for case in "msort 4000000 20" "points 8000000 20" "nqueens 14 10"; do
    set -- $case
    r=$(pair $1 $2)
    d=${r% *}
    a=${r#* }
    # a load burst of the shared host can outlast one pair: a regression fails twice
    if ! within "$d" "$a" $3 >/dev/null; then
        r=$(pair $1 $2)
        d=${r% *}
        a=${r#* }
    fi
    e=$(within "$d" "$a" $3) && pass "$1 $2: default prediction $d s vs --wtc-sample=all $a s ($e)" \
        || bad "$1 $2: default prediction $d s vs --wtc-sample=all $a s ($e, limit $3%)"
done
exit $fail
