#!/bin/sh
# driver_libdir.sh - where wtcc finds lib/wtc: beside itself, or $WTC_LIBDIR; a missing
# directory or library is a clear error with status 2 (SPEC 3).
# Run from the repository root after 'make'. WTCC=path overrides bin/wtcc.
WTCC=${WTCC:-$PWD/bin/wtcc}
LIB=$(dirname "$WTCC")/../lib/wtc
SRC=$PWD/samples/fib.wtc
T=$(mktemp -d "${TMPDIR:-/tmp}/wtcc-test.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
failed=0
fail() { echo "FAIL: $*"; failed=1; }
cp "$SRC" "$T/fib.wtc" && cp -r "$LIB" "$T/my lib" && cd "$T" || exit 1

WTC_LIBDIR="$T/my lib" timeout 120 "$WTCC" -v fib.wtc -o prog 2>err ||
    fail "WTC_LIBDIR override failed: $(cat err)"
grep -q "my lib'*/[a-z]*/libwtcrt_mpi.a" err || fail "WTC_LIBDIR not used: $(cat err)"
[ -x prog ] || fail "no prog with WTC_LIBDIR"

WTC_LIBDIR="$T/none" timeout 60 "$WTCC" fib.wtc -o p2 2>err
st=$?
[ $st = 2 ] || fail "WTC_LIBDIR=nonexistent: status $st, expected 2"
grep -q 'wtcc: error: .*none' err || fail "WTC_LIBDIR=nonexistent: message: $(cat err)"

rm "$T/my lib/libwtcrt_sim.a"
WTC_LIBDIR="$T/my lib" timeout 60 "$WTCC" fib.wtc -o p3 2>err
st=$?
[ $st = 2 ] || fail "missing libwtcrt_sim.a: status $st, expected 2"
grep -q 'wtcc: error: .*libwtcrt_sim.a' err || fail "missing library: message: $(cat err)"
WTC_LIBDIR="$T/my lib" timeout 120 "$WTCC" --no-predict fib.wtc -o p4 2>err ||
    fail "--no-predict needs no libwtcrt_sim.a: $(cat err)"
[ ! -e p2 ] && [ ! -e p3 ] || fail "a failed run created an output"

[ $failed = 0 ] && echo "PASS: driver_libdir"
exit $failed
