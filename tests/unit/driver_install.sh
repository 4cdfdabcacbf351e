#!/bin/sh
# driver_install.sh - after 'make install PREFIX=<tmp>', the installed wtcc finds its own
# runtime (PREFIX/lib/wtc) and builds a sample that runs in both modes and predicts.
# Run from the repository root after 'make'.
. "$PWD/tests/unit/driver_lib.inc"

make -s install PREFIX="$T/prefix" >"$T/log" 2>&1 || { cat "$T/log"; echo "FAIL: make install"; exit 1; }
[ -x "$T/prefix/bin/wtcc" ] || fail "no PREFIX/bin/wtcc"
[ -f "$T/prefix/lib/wtc/include/wtc_abi.h" ] || fail "no PREFIX/lib/wtc/include/wtc_abi.h"
mkdir "$T/w" && cp samples/fib.wtc "$T/w/" && cd "$T/w" || exit 1

unset WTC_LIBDIR
timeout 120 "$T/prefix/bin/wtcc" -v fib.wtc 2>err || fail "installed wtcc failed: $(cat err)"
grep -q "$T/prefix/lib/wtc" err || fail "installed wtcc did not use PREFIX/lib/wtc: $(cat err)"
out=$(timeout 120 mpiexec -n 2 ./fib 24 2>/dev/null)
[ "$out" = "fib(24) = 46368 OK" ] || fail "mpiexec -n 2 ./fib 24 printed '$out'"
out=$(timeout 120 mpiexec -n 3 ./fib 24 --wtc-mode=dynamic 2>/dev/null)
[ "$out" = "fib(24) = 46368 OK" ] || fail "dynamic: mpiexec -n 3 ./fib 24 printed '$out'"
timeout 120 ./fib.predict --wtc-procs=1,2,4 24 >pred 2>&1 || fail "fib.predict failed: $(cat pred)"

# a symlink to the installed wtcc finds the runtime through realpath
ln -s "$T/prefix/bin/wtcc" "$T/wtcc-link"
timeout 120 "$T/wtcc-link" fib.wtc -o linked 2>err || fail "wtcc via a symlink failed: $(cat err)"

[ $failed = 0 ] && echo "PASS: driver_install"
exit $failed
