#!/bin/sh
# Dynamic mode's seeds and hand-backs (doc/runtime.md "dynamic mode", item 0): the root
# owns every worker and seeds them down the tree; a call that owns several ranks and
# cannot spread them hands the others back to their masters, which count them busy
# until then. A rank never handed back (nor seeded) would never be granted; one handed
# back twice, or also seeded, would be counted idle while it works. rt_back.wtc's tree
# (N = 5, CUT = 2) is too uneven to reach every rank: with 7 workers (-n 8, one master)
# ranks 2, 4 and 6 must be handed back (two pars with cond false, one call that returns
# before its par), with 6 workers (-n 8, two masters) ranks 2 and 5; every other worker
# but rank 0 gets a seed. Every run prints the right sum at -n 1-5, 8 and 16.
. "$(dirname "$0")/rt_lib.inc"

prog=$RT_OUT/back
$RT_WTCC -O2 --no-predict tests/unit/rt_back.wtc -o "$prog" >"$RT_STDERR" 2>&1 \
    || { rt_fail "build rt_back.wtc"; exit 1; }
RT_TIMEOUT=60
log=$RT_OUT/back.log
# check NP MASTERS BACKS SEEDED: the run is OK, hands back exactly BACKS and seeds SEEDED
check() {
    rm -f "$log" "$log".*
    WTC_DECISIONS=$log rt_run "$1" "$prog" 5 2 --wtc-mode=dynamic --wtc-masters="$2"
    if [ "$RT_RC" != 0 ] || [ "$(cut -d' ' -f2 "$RT_STDOUT")" != OK ]; then
        rt_fail "-n $1, $2 master(s)" "status $RT_RC, output '$(head -c 80 "$RT_STDOUT")'"
        return
    fi
    backs=$(cat "$log" "$log".* 2>/dev/null | awk '$1 == "back" { print $2 }' | sort -n | tr '\n' ' ')
    seeded=$(cat "$log" "$log".* 2>/dev/null | awk '$1 == "seed" { print $NF }' | sort -n | tr '\n' ' ')
    if [ "$backs" != "$3" ]; then
        rt_fail "-n $1, $2 master(s)" "ranks handed back '$backs', expected '$3'"
    elif [ "$seeded" != "$4" ]; then
        rt_fail "-n $1, $2 master(s)" "ranks seeded '$seeded', expected '$4'"
    else
        rt_pass "-n $1, $2 master(s): ranks $4seeded, $3handed back, sum OK"
    fi
}
check 8 1 "2 4 6 " "1 3 5 "
check 8 2 "2 5 " "1 3 4 "
# every size: the sum (a heavier leaf, two masters where there is room)
for np in 1 2 3 4 5 8 16; do
    m=1; [ "$np" -ge 5 ] && m=2
    rt_run "$np" "$prog" 18 12 2000 --wtc-mode=dynamic --wtc-masters=$m
    if [ "$RT_RC" = 0 ] && [ "$(cut -d' ' -f2 "$RT_STDOUT")" = OK ]; then
        rt_pass "tree(18), cut 12, dynamic -n $np, $m master(s): sum OK"
    else
        rt_fail "tree(18), cut 12, dynamic -n $np, $m master(s)" "status $RT_RC, output '$(head -c 80 "$RT_STDOUT")'"
    fi
done
rt_summary
