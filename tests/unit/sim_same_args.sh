#!/bin/sh
# Sampling: a leaf task not run whose arguments equal those of leaf tasks that ran takes
# their mean time instead of an interpolation in allocation order (runtime/sim/record.c
# same_args; doc/predictor.md section 2). fib's leaf tasks are fib(20) and fib(19),
# 1.6x apart, interleaved: every leaf not run is one of the two run many times.
. tests/unit/sim_common.inc
bin/wtcc ${SIM_CFLAGS:-} samples/fib.wtc -o $OUT/safib >/dev/null 2>&1 || { bad "build fib"; exit 1; }
# fib 39: 0.1-0.2 s of leaves, above the size that runs every leaf (0.1 s), so sampled
out=$(timeout 120 $OUT/safib.predict --wtc-procs=1,64 --wtc-modes=simple 39 2>&1); rc=$?
[ $rc = 0 ] || bad "fib.predict: status $rc"
line=$(echo "$out" | grep '^leaf tasks: ran ')
ran=$(echo "$line" | sed -n 's/^leaf tasks: ran \([0-9]*\) of \([0-9]*\) .*/\1/p')
all=$(echo "$line" | sed -n 's/^leaf tasks: ran \([0-9]*\) of \([0-9]*\) .*/\2/p')
same=$(echo "$out" | sed -n 's/^  (\([0-9]*\) of the others took the time of leaf tasks that ran with the same arguments)$/\1/p')
echo "$line"
# both kinds ran (a sample of hundreds from an interleaving): every other leaf matches
[ -n "$ran" ] && [ -n "$same" ] && [ "$((ran + same))" = "$all" ] \
    && pass "fib 39: $same of the $((all - ran)) leaf tasks not run took a run one's time" \
    || bad "fib 39: ran '$ran' of '$all', same arguments '$same'"
json=$(timeout 120 $OUT/safib.predict --wtc-procs=1 --wtc-modes=simple --wtc-format=json 39 2>/dev/null)
# (another recording: its sample may be another size)
echo "$json" | sed -n 's/.*"leaf_tasks": \([0-9]*\), "executed": \([0-9]*\), "same_args": \([0-9]*\),.*/\1 \2 \3/p' |
    awk '{ exit !($3 > 0 && $2 + $3 == $1) }' \
    && pass "the JSON report says so: $(echo "$json" | grep -o '"same_args": [0-9]*')" \
    || bad "JSON: $(echo "$json" | grep -o '"sampling": {[^}]*}')"
exit $fail
