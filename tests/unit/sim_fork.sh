#!/bin/sh
# A program that forks while the predictor records it (tests/unit/sim_fork.wtc): one
# report, the parent's, and each child ends with its own status. Every child wrote a
# report of its own into the predictor's stdout (five for tests/run/fork.wtc), with a
# note that the program called exit(7), and ended with status 0, so the parent saw
# another program than plain C's (the sixth bug hunt).
. tests/unit/sim_common.inc
[ -x bin/wtcc ] || { bad "bin/wtcc missing: run make"; exit 1; }
bin/wtcc ${SIM_CFLAGS:-} tests/unit/sim_fork.wtc -o $OUT/sim_fork >$OUT/sim_fork.build 2>&1 \
    || { bad "build: $(cat $OUT/sim_fork.build)"; exit 1; }
timeout 60 $OUT/sim_fork.predict --wtc-procs=1,2 >$OUT/fork.o 2>$OUT/fork.e
rc=$?
n=$(grep -c '^best: ' $OUT/fork.o)
[ $rc = 0 ] && [ "$n" = 1 ] && ! grep -q 'called exit' $OUT/fork.e &&
    grep -q '^recorded: 2 parallel regions' $OUT/fork.o \
    && pass "one report, the parent's (its two regions), status 0" \
    || bad "status $rc, $n reports, $(grep '^recorded' $OUT/fork.o | head -2), $(head -3 $OUT/fork.e)"
grep -q '^children: status 7 5 9$' $OUT/fork.e \
    && pass "the children's statuses: exit(7), return 5 from main, exit(9) after a call" \
    || bad "the children's statuses: $(grep children $OUT/fork.e)"
exit $fail
