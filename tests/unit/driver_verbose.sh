#!/bin/sh
# driver_verbose.sh - wtcc -v prints every command it runs (preprocessor, the MPI program,
# the predictor), and the pass-through options reach them (SPEC 3).
# Run from the repository root after 'make'. WTCC=path overrides bin/wtcc.
. "$PWD/tests/unit/driver_lib.inc"
cp "$SRC" "$T/fib.wtc" && cd "$T" && mkdir inc libs || exit 1

timeout 120 "$WTCC" -v -I inc -DFOO=1 -UBAR -Llibs -O1 -g --mode=dynamic:2 fib.wtc \
    -o prog -lm 2>err || fail "wtcc -v failed: $(cat err)"
has() { grep -q -- "$1" err || fail "-v: no '$1' in: $(cat err)"; }
has '^wtcc [0-9]'
has "^ [^ ]* .*-E .*-D__WTCC__=1.*-Iinc -DFOO=1 -UBAR .*fib.wtc"
has "^ [^ ]* .*-Wall .*-Iinc -DFOO=1 -UBAR .*-O1 -g .*libwtcrt_mpi.a -Wl,--wrap=malloc,.* -Llibs -lm"
has '^ [^ ]*cc .*-DWTC_PREDICT=1 .*libwtcrt_sim.a -Llibs -lm'
[ -x prog ] && [ -x prog.predict ] || fail "prog or prog.predict missing"

timeout 120 "$WTCC" fib.wtc -o quiet 2>err || fail "wtcc failed: $(cat err)"
grep -q 'mpicc' err && fail "without -v, commands were printed: $(cat err)"

timeout 120 "$WTCC" -v --no-predict fib.wtc -o np 2>err || fail "--no-predict failed"
grep -q 'libwtcrt_sim.a' err && fail "--no-predict still built the predictor"
[ -x np ] && [ ! -e np.predict ] || fail "--no-predict: wrong outputs: $(ls)"

[ $failed = 0 ] && echo "PASS: driver_verbose"
exit $failed
