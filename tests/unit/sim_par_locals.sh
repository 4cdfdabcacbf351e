#!/bin/sh
# The predictor records the tree a par body's own arrays lead to (doc/language.md,
# "Variables declared in a par body"): the copies wtc_keep makes at the spawn point reach
# the recorded children. Program: tests/unit/sim_par_locals.wtc (8 queens: 568 leaf
# tasks, the safe placements of 5 queens; without the copies the children all saw the
# last board).
. tests/unit/sim_common.inc
[ -x bin/wtcc ] || { bad "bin/wtcc missing: run make"; exit 1; }
bin/wtcc ${SIM_CFLAGS:-} tests/unit/sim_par_locals.wtc -o $OUT/par_locals >$OUT/par_locals.build 2>&1 \
    || { bad "build: $(cat $OUT/par_locals.build)"; exit 1; }
out=$(timeout 60 $OUT/par_locals)
[ "$out" = 92 ] && pass "the program prints 92" || bad "the program printed '$out'"
for sample in all 5; do
    json=$(timeout 120 $OUT/par_locals.predict --wtc-procs=1,2 --wtc-sample=$sample \
           --wtc-format=json 2>$OUT/par_locals.err)
    rc=$?
    [ $rc = 0 ] || bad "predict --wtc-sample=$sample: status $rc: $(cat $OUT/par_locals.err)"
    leaves=$(echo "$json" | sed -n 's/.*"sampling": {"leaf_tasks": \([0-9]*\).*/\1/p')
    [ "$leaves" = 568 ] && pass "--wtc-sample=$sample: 568 leaf tasks recorded" \
        || bad "--wtc-sample=$sample: $leaves leaf tasks recorded, want 568"
done
exit $fail
