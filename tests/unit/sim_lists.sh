#!/bin/sh
# timing: none
# prog.predict's lists are read whole, however long: --wtc-modes was copied into 64
# bytes and --wtc-depth into 512, so what followed was dropped without a word (a list of
# 68 characters ending in ',steal' simulated no steal mode; '1,1,...,1,3' of 513
# characters simulated depth 1 alone: a helper's bug hunt). A bad list of numbers is
# named whole, with where it went wrong.
. tests/unit/sim_common.inc
sim_nq sim_lists
run() {
    timeout 60 $D/nq.predict --wtc-procs=2 --wtc-runs=1 --wtc-format=csv "$@" 8 >$D/o.txt 2>$D/e.txt
}
m=dynamic,dynamic,dynamic,dynamic,dynamic,dynamic,dynamic,simple,steal
run --wtc-modes=$m
rc=$?
[ $rc = 0 ] && [ "$(awk -F, 'NR > 1 { print $1 }' $D/o.txt | sort -u | tr '\n' ' ')" = \
    "dynamic simple steal " ] && pass "--wtc-modes of ${#m} characters: all three modes" \
    || bad "--wtc-modes=$m: status $rc: $(cut -d, -f1 $D/o.txt | sort -u | tr '\n' ' ') $(head -2 $D/e.txt)"
run --wtc-modes=$m,bogus
rc=$?
[ $rc = 2 ] && grep -q "unknown mode 'bogus'" $D/e.txt && pass "a bad mode after ${#m} characters: refused" \
    || bad "--wtc-modes=$m,bogus: status $rc: $(head -2 $D/e.txt)"
d=$(awk 'BEGIN { for (i = 0; i < 256; i++) printf "1,"; printf "3" }')
run --wtc-modes=simple --wtc-depth=$d
rc=$?
[ $rc = 0 ] && [ "$(awk -F, 'NR > 1 { print $NF }' $D/o.txt | sort -u | tr '\n' ' ')" = "1 3 " ] \
    && pass "--wtc-depth of ${#d} characters: depths 1 and 3" \
    || bad "--wtc-depth=1,...,3: status $rc: depths $(awk -F, 'NR > 1 { print $NF }' $D/o.txt | tr '\n' ' ') $(head -2 $D/e.txt)"
run --wtc-modes=simple --wtc-depth=${d}x
rc=$?
[ $rc = 2 ] && grep -q "bad list" $D/e.txt && pass "a bad depth after ${#d} characters: refused" \
    || bad "--wtc-depth=1,...,3x: status $rc: $(head -2 $D/e.txt)"
# a bad list is named whole, and where it went wrong after its start ('1,,2' named
# ',2' alone)
run --wtc-procs=1,,2; rc=$?
[ $rc = 2 ] && grep -q "bad list '1,,2' at ',2' (" $D/e.txt && pass "--wtc-procs=1,,2: named whole, at ',2'" \
    || bad "--wtc-procs=1,,2: status $rc, $(head -2 $D/e.txt)"
run --wtc-masters=2,; rc=$?
[ $rc = 2 ] && grep -q "bad list '2,' at its end (" $D/e.txt && pass "--wtc-masters=2,: named whole, at its end" \
    || bad "--wtc-masters=2,: status $rc, $(head -2 $D/e.txt)"
exit $fail
