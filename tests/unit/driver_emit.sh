#!/bin/sh
# driver_emit.sh - wtcc -E / --emit-c: the generated C goes to stdout or atomically to -o,
# carries line information back to the .wtc file, and is deterministic (no timestamps).
# Run from the repository root after 'make'. WTCC=path overrides bin/wtcc.
. "$PWD/tests/unit/driver_lib.inc"
cp "$SRC" "$T/fib.wtc" && cd "$T" || exit 1

timeout 60 "$WTCC" -E fib.wtc >one.c || fail "-E to stdout failed"
sleep 1 # a timestamp in the output would now differ
timeout 60 "$WTCC" -E fib.wtc >two.c || fail "-E (second run) failed"
[ -s one.c ] || fail "-E wrote nothing"
cmp -s one.c two.c || fail "-E output differs between two runs (a timestamp?)"
grep -q '^#line [0-9]* "fib.wtc"\|^# [0-9]* "fib.wtc"' one.c ||
    fail "-E output has no #line / line marker naming fib.wtc"
[ ! -e fib ] || fail "-E built a program"

timeout 60 "$WTCC" -E fib.wtc -o x.c || fail "-E -o x.c failed"
cmp -s one.c x.c || fail "-E -o x.c differs from -E to stdout"
timeout 60 "$WTCC" --emit-c fib.wtc -o y.c || fail "--emit-c -o y.c failed"
cmp -s one.c y.c || fail "--emit-c differs from -E"

# the generated C compiles cleanly with -Wall (STYLE 8), given the runtime header
LIB=$(dirname "$WTCC")/../lib/wtc
mpicc -std=gnu11 -Wall -Werror -I"$LIB/include" -c x.c -o x.o 2>err ||
    fail "the generated C does not compile cleanly with -Wall: $(head -20 err)"
rm -f x.o err
[ "$(ls -A | tr '\n' ' ')" = "fib.wtc one.c two.c x.c y.c " ] || fail "left behind: $(ls -A)"

# an input error: status 1, nothing written, old x.c untouched
sed 's/^int main/int broken = ;\nint main/' fib.wtc >bad.wtc
timeout 60 "$WTCC" -E bad.wtc -o x.c 2>/dev/null
st=$?
[ $st = 1 ] || fail "-E on an input error: status $st, expected 1"
cmp -s one.c x.c || fail "-E on an input error changed x.c"
timeout 60 "$WTCC" -E bad.wtc >z.c 2>/dev/null
[ ! -s z.c ] || fail "-E on an input error wrote to stdout"

[ $failed = 0 ] && echo "PASS: driver_emit"
exit $failed
