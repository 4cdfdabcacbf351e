#!/bin/sh
# exit(N) inside the program while the predictor records it (tests/unit/sim_exit.wtc):
# the report is written and the predictor ends with status 0, as after main's return,
# with a note naming N (it ended with N: a script took the program's status for the
# predictor's failure; a helper's bug hunt). exit(0): no note. The program's atexit
# handler prints: not into the report (it ended the report's JSON). main's return of a
# status other than 0 is noted as well, as a self-check's where recorded leaves returned 0.
. tests/unit/sim_common.inc
[ -x bin/wtcc ] || { bad "bin/wtcc missing: run make"; exit 1; }
bin/wtcc ${SIM_CFLAGS:-} tests/unit/sim_exit.wtc -o $OUT/sim_exit >$OUT/sim_exit.build 2>&1 \
    || { bad "build: $(cat $OUT/sim_exit.build)"; exit 1; }
timeout 60 $OUT/sim_exit.predict --wtc-procs=1,2 >$OUT/exit.o 2>$OUT/exit.e; rc=$?
[ $rc = 0 ] && grep -q '^best: ' $OUT/exit.o && grep -q 'note: the program called exit(7)' $OUT/exit.e \
    && pass "exit(7) inside the recursion: report, status 0, a note" \
    || bad "exit(7): status $rc, $(grep -c '^best' $OUT/exit.o) best lines, $(cat $OUT/exit.e | head -3)"
timeout 60 $OUT/sim_exit.predict --wtc-procs=1,2 0 >$OUT/exit.o 2>$OUT/exit.e; rc=$?
[ $rc = 0 ] && grep -q '^best: ' $OUT/exit.o && ! grep -q 'called exit' $OUT/exit.e \
    && pass "exit(0) inside the recursion: report, status 0, no note" \
    || bad "exit(0): status $rc: $(head -3 $OUT/exit.e)"
timeout 60 $OUT/sim_exit.predict --wtc-procs=1,2 --wtc-format=csv -1 >$OUT/exit.o 2>$OUT/exit.e; rc=$?
[ $rc = 0 ] && grep -q '^simple,2,' $OUT/exit.o && ! grep -q 'bye' $OUT/exit.o \
    && ! grep -q 'note: the program' $OUT/exit.e \
    && pass "main returns 0: the atexit handler's line is not in the report, no note" \
    || bad "atexit: status $rc, $(grep -c bye $OUT/exit.o) lines of the program in the report, $(head -2 $OUT/exit.e)"
# main returns 3 before any region (a usage error): nothing was sampled, so 3 is the
# program's own; the prediction is of that run, and a note says so (it was predicted
# with status 0 and no word: 'recorded: 0 parallel regions', a helper's bug hunt)
timeout 60 $OUT/sim_exit.predict --wtc-procs=1,2 -2 >$OUT/exit.o 2>$OUT/exit.e; rc=$?
[ $rc = 0 ] && grep -q '^best: ' $OUT/exit.o &&
    grep -q '^wtc predict: note: the program returned 3: the prediction is of the run that ended so$' $OUT/exit.e \
    && pass "main returns 3 before its work: report, status 0, a note naming 3" \
    || bad "main returns 3: status $rc, $(head -3 $OUT/exit.e)"
# n-queens' self-check (return 1 on a wrong count) fails when recorded: its leaves were
# captured, not run in place (each was then run from its capture for its time only), so
# the note says why; with --wtc-sample=all every leaf runs in place: no note. (Before,
# every sample's prediction said the program "returned 1: the prediction is of the run
# that ended so", since all its leaves had been timed.)
sim_nq exit_nq
timeout 60 $D/nq.predict 10 --wtc-procs=1,2 >$OUT/exit.o 2>$OUT/exit.e; rc=$?
[ $rc = 0 ] && grep -q '^best: ' $OUT/exit.o &&
    grep -q '^wtc predict: note: the program returned 1, as a self-check does when recorded: leaf tasks not run in place return 0' $OUT/exit.e \
    && pass "a self-check fails on captured leaves: the note says why" \
    || bad "n-queens' self-check: status $rc, $(grep note $OUT/exit.e)"
timeout 60 $D/nq.predict 10 --wtc-procs=1,2 --wtc-sample=all >$OUT/exit.o 2>$OUT/exit.e; rc=$?
[ $rc = 0 ] && grep -q '^best: ' $OUT/exit.o && ! grep -q 'note: the program' $OUT/exit.e \
    && pass "--wtc-sample=all: the self-check holds, no note" \
    || bad "n-queens --wtc-sample=all: status $rc, $(grep note $OUT/exit.e)"
exit $fail
