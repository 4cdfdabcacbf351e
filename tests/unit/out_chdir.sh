#!/bin/sh
# A program that chdir()s before its region (tests/unit/out_chdir.wtc): the files that
# relative paths in the options name are the directory's it started in, where they were
# checked before the run. The program's --wtc-trace, the predictor's --wtc-trace,
# --wtc-plot, --wtc-save-profile and WTC_DECISIONS went into the directory the program
# changed to, and the predictor read its --wtc-machine again after the run, there: "no
# machine file", status 2, the run wasted; a second recording (siblings of equal sizes
# differed) ran the program again in the directory it had changed to, where its
# chdir(argv[1]) failed and it returned at once: "0 parallel regions", status 0; and
# the second recording's
# arguments were the strings the program had cut with strtok ("1,0" became "1", and
# the program returned at once again) (the sixth bug hunt).
set -u
cd "$(dirname "$0")/../.." || exit 1
out=tests/out/out_chdir
rm -rf "$out" && mkdir -p "$out/away"
fail=0
pass() { echo "[PASS] $*"; }
bad() { echo "[FAIL] $*"; fail=1; }
bin/wtcc tests/unit/out_chdir.wtc -o "$out/prog" > "$out/build.log" 2>&1 ||
    { bad "build: $(head -3 "$out/build.log")"; exit 1; }
cp lib/wtc/machines/ethernet-10g-mpich.conf "$out/my.conf"
cd "$out" || exit 1

for np in 1 2; do
    timeout -k 5 60 mpiexec -n $np ./prog away --wtc-trace=t$np.json > stdout 2> stderr
    rc=$?
    [ $rc = 0 ] && [ "$(cat stdout)" = 610 ] && [ -s t$np.json ] && [ ! -e away/t$np.json ] &&
        pass "-n $np: --wtc-trace=t$np.json in the start directory" ||
        bad "-n $np: status $rc, start dir: $(ls t$np.json 2>&1), away: $(ls away), $(head -2 stderr)"
done

WTC_DECISIONS=p.log timeout -k 5 60 ./prog.predict away --wtc-procs=2 --wtc-modes=steal \
    --wtc-machine=my.conf --wtc-trace=p.json --wtc-plot=p.svg --wtc-save-profile=p.prof \
    > stdout 2> stderr
rc=$?
[ $rc = 0 ] && grep -q '^best: ' stdout && grep -q 'ethernet-10g-mpich (my.conf)' stdout &&
    [ -s p.json ] && [ -s p.svg ] && [ -s p.prof ] && [ -s p.log ] && [ -z "$(ls away)" ] &&
    pass "predictor: its machine file read before the run, trace, plot, profile in the start directory" ||
    bad "predictor: status $rc, start dir: $(ls p.* 2>&1 | tr '\n' ' '), away: $(ls away), $(head -2 stderr)"
timeout -k 5 120 ./prog.predict away 1,0 --wtc-procs=1,2 --wtc-modes=simple > stdout 2> stderr
rc=$?
[ $rc = 0 ] && grep -q 'recording again' stderr && grep -q '^recorded: 2 parallel regions' stdout &&
    pass "predictor: a second recording starts in the start directory, with the arguments given" ||
    bad "predictor, recorded again: status $rc, $(grep '^recorded' stdout), $(head -2 stderr)"
exit $fail
