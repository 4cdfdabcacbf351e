#!/bin/sh
# Element counts evaluated at the spawn point (doc/language.md, the `in:` clause;
# doc/runtime.md "Counts are the spawn point's"): the predictor's payload sizes of
# tests/run/count_global.wtc, whose counts read a global that the par body changes in
# every iteration, are those of the spawn point's values
# (worked numbers: fill's RESULT carries (25 - i) ints, total's TASK 35 - 2i ints).
. tests/unit/sim_common.inc
[ -x bin/wtcc ] || { bad "bin/wtcc ${SIM_CFLAGS:-} missing: run make"; exit 1; }
D=$OUT/count_spawn
rm -rf $D && mkdir -p $D
bin/wtcc ${SIM_CFLAGS:-} tests/run/count_global.wtc -o $D/cg >$D/build 2>&1 || { bad "build: $(cat $D/build)"; exit 1; }
timeout 120 $D/cg.predict --wtc-save-profile=$D/cg.prof >$D/out.txt 2>$D/err.txt \
    || { bad "predict: $(cat $D/err.txt)"; exit 1; }
# the leaves in recording order: fill's 16 calls, then total's 16
got=$(awk '$1 == "nodes" { n = $2; next } n > 0 { n--; if ($3 == 1) print $5, $6 }' $D/cg.prof)
# args: fill {int *, int, int, long[1]} = 24 bytes, total {int *, int, long[1]} = 24
want=$(awk 'BEGIN { for (i = 0; i < 16; i++) print 8 + 24 + 8, 4 * (25 - i)
                    for (i = 0; i < 16; i++) print 8 + 24 + 8 + 4 * (35 - 2 * i), 8 }')
if [ "$got" = "$want" ]; then
    pass "payload sizes from the counts at the spawn points ($(echo "$got" | wc -l) calls)"
else
    bad "payload sizes (task result): $(echo "$got" | tr '\n' ' ' | cut -c1-200)"
fi
# only functions whose counts read more than scalar parameters carry them: count_expr's
# counts are over the parameters (no hidden member), globals.wtc's weigh reads 'width'
bin/wtcc ${SIM_CFLAGS:-} -E tests/run/count_expr.wtc >$D/expr.c 2>$D/e1 && bin/wtcc ${SIM_CFLAGS:-} -E tests/run/globals.wtc >$D/glob.c 2>$D/e2 \
    || { bad "wtcc -E: $(cat $D/e1 $D/e2)"; exit 1; }
if ! grep -q 'long __wtc_n\[' $D/expr.c &&
    grep -q 'typedef struct { int \*v; int lo; int n; long __wtc_n\[1\]; } __wtc_args_weigh;' $D/glob.c; then
    pass "counts kept in the args struct only where a count reads a global"
else
    bad "hidden counts: $(grep -h 'typedef struct.*__wtc_args' $D/expr.c $D/glob.c | head -4)"
fi
exit $fail
