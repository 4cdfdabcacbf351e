#!/bin/sh
# A program that closes its stdout at the end (fclose(stdout) to see its write errors)
# or prints with wprintf (stdout wide-oriented) while the predictor records it
# (tests/unit/sim_stdout.wtc): the report reaches standard output whole, status 0. It
# was written to the program's stdout stream: after fclose "cannot write the report:
# Bad file descriptor", status 2; after wprintf no report at all, status 0 (fprintf to
# a wide stream fails without an error flag). A program that closes every descriptor
# above 2 closes the predictor's copy of standard output: it had an empty report and
# status 0, now status 2 and a message. The sixth bug hunt.
. tests/unit/sim_common.inc
[ -x bin/wtcc ] || { bad "bin/wtcc missing: run make"; exit 1; }
bin/wtcc ${SIM_CFLAGS:-} tests/unit/sim_stdout.wtc -o $OUT/sim_stdout >$OUT/sim_stdout.build 2>&1 \
    || { bad "build: $(cat $OUT/sim_stdout.build)"; exit 1; }
for how in close wide; do
    timeout 60 $OUT/sim_stdout.predict --wtc-procs=1,2 $how >$OUT/stdout.o 2>$OUT/stdout.e
    rc=$?
    [ $rc = 0 ] && grep -q '^best: ' $OUT/stdout.o && grep -q '^prediction took' $OUT/stdout.o \
        && pass "stdout $how by the program: the whole report, status 0" \
        || bad "stdout $how by the program: status $rc, $(grep -c . $OUT/stdout.o) lines of report, $(head -3 $OUT/stdout.e)"
    timeout 60 $OUT/sim_stdout.predict --wtc-procs=1,2 --wtc-format=json $how >$OUT/stdout.o \
        2>$OUT/stdout.e
    rc=$?
    [ $rc = 0 ] && tail -n 1 $OUT/stdout.o | grep -q '^}$' \
        && pass "stdout $how by the program: the JSON report, status 0" \
        || bad "stdout $how, JSON: status $rc, last line '$(tail -n 1 $OUT/stdout.o)'"
done
timeout 60 $OUT/sim_stdout.predict --wtc-procs=2 closefds >$OUT/stdout.o 2>$OUT/stdout.e
rc=$?
[ $rc = 2 ] && grep -q 'the program closed the predictor.s copy of standard output' $OUT/stdout.e \
    && pass "the program closed every descriptor above 2: no report, status 2, said" \
    || bad "closefds: status $rc, $(grep -c . $OUT/stdout.o) lines of report, $(head -3 $OUT/stdout.e)"
timeout 60 $OUT/sim_stdout.predict --wtc-procs=2 close >/dev/full 2>$OUT/stdout.e
rc=$?
[ $rc = 2 ] && grep -q 'cannot write the report' $OUT/stdout.e \
    && pass "a report that cannot be written: status 2, said" \
    || bad "report to /dev/full: status $rc, $(head -3 $OUT/stdout.e)"
exit $fail
