#!/bin/sh
# driver_atomic.sh - outputs are replaced atomically and temporary files never survive:
# not after success, not after an input error (the old program stays), not after SIGTERM.
# Run from the repository root after 'make'. WTCC=path overrides bin/wtcc.
. "$PWD/tests/unit/driver_lib.inc"
mkdir "$T/tmp" "$T/w"
export TMPDIR="$T/tmp" # wtcc's private directory goes here: it must be empty afterwards

cat >"$T/w/fib.wtc" <<'WTC'
#include <stdio.h>
#include <stdlib.h>

recursive long fib(int n)
cond: n > 10;
{
    long r[2];
    if (n < 2)
        return n;
    par i = 0 to 1 do
        r[i] = fib(n - 1 - i);
    return r[0] + r[1];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 20;
    printf("fib(%d) = %ld\n", n, fib(n));
    return 0;
}
WTC
cd "$T/w" || exit 1

# success: prog and prog.predict, nothing else
timeout 120 "$WTCC" fib.wtc -o prog || fail "compiling fib.wtc failed"
[ -x prog ] && [ -x prog.predict ] || fail "prog or prog.predict missing"
[ "$(ls -A | tr '\n' ' ')" = "fib.wtc prog prog.predict " ] || fail "left behind: $(ls -A)"
[ -z "$(ls -A "$TMPDIR")" ] || fail "temporary files left: $(ls -A "$TMPDIR")"
out=$(timeout 120 ./prog 15)
[ "$out" = "fib(15) = 610" ] || fail "./prog 15 printed '$out'"

# -o /dev/null is written into, never replaced (and no /dev/null.predict appears)
timeout 120 "$WTCC" fib.wtc -o /dev/null || fail "-o /dev/null failed"
[ -c /dev/null ] || fail "-o /dev/null replaced the device!"
[ ! -e /dev/null.predict ] || fail "-o /dev/null created /dev/null.predict"

# an input error: status 1, the old prog and prog.predict stay untouched
cp prog prog.old
cp prog.predict predict.old
sed 's/^int main/int broken = ;\nint main/' fib.wtc >bad.wtc
timeout 120 "$WTCC" bad.wtc -o prog 2>err
st=$?
[ $st = 1 ] || fail "input error: status $st, expected 1"
grep -q 'bad.wtc:[0-9]*:' err || fail "input error: no bad.wtc:line: message in: $(cat err)"
cmp -s prog prog.old || fail "input error replaced prog"
cmp -s prog.predict predict.old || fail "input error replaced prog.predict"
rm -f err
[ "$(ls -A | tr '\n' ' ')" = "bad.wtc fib.wtc predict.old prog prog.old prog.predict " ] ||
    fail "input error left behind: $(ls -A)"
[ -z "$(ls -A "$TMPDIR")" ] || fail "input error: temporary files left: $(ls -A "$TMPDIR")"

# SIGTERM while the C compiler runs: no half-written output, no temporary files
cat >"$T/slowcc" <<'SH'
#!/bin/sh
case " $* " in *" -E "*) exec mpicc "$@";; esac
exec sleep 30
SH
chmod +x "$T/slowcc"
"$WTCC" --cc="$T/slowcc" fib.wtc -o sig &
pid=$!
sleep 2
kill -TERM $pid
wait $pid
st=$?
[ $st -gt 128 ] || fail "SIGTERM: status $st, expected death by signal"
[ ! -e sig ] || fail "SIGTERM left 'sig'"
ls -A | grep -q wtcc && fail "SIGTERM left a temporary output: $(ls -A)"
[ -z "$(ls -A "$TMPDIR")" ] || fail "SIGTERM: temporary files left: $(ls -A "$TMPDIR")"

# the predictor compiles beside the program (wtc/build.c): a program that fails to build
# stops it (wtcc does not wait for it), and SIGTERM stops both, leaving nothing behind
# running PID: the process exists and is not a zombie (an orphan killed with wtcc waits
# for whoever adopts it to reap it: CI's init reaped one late, and kill -0 saw it)
running() {
    [ -n "$1" ] && [ -r "/proc/$1/stat" ] && [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" != Z ]
}
cat >"$T/slowhost" <<'SH'
#!/bin/sh
echo $$ > "$(dirname "$0")/slowhost.pid"
exec sleep 30
SH
chmod +x "$T/slowhost"
printf 'int main(void) { return no_such_function(); }\n' > undef.wtc
t0=$(date +%s)
"$WTCC" --host-cc="$T/slowhost" undef.wtc -o undef 2>err
st=$? t=$(($(date +%s) - t0))
[ $st = 1 ] && [ $t -lt 20 ] || fail "a failed program with a slow predictor: status $st after $t s"
[ ! -e undef ] && [ ! -e undef.predict ] || fail "a failed program left an output: $(ls -A)"
running "$(cat "$T/slowhost.pid" 2>/dev/null)" && fail "the predictor's compiler still runs"
rm -f "$T/slowhost.pid"
"$WTCC" --host-cc="$T/slowhost" fib.wtc -o sig2 &
pid=$!
i=0
while [ ! -s "$T/slowhost.pid" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM $pid
wait $pid
st=$?
[ $st -gt 128 ] || fail "SIGTERM beside the predictor: status $st, expected death by signal"
i=0
while running "$(cat "$T/slowhost.pid" 2>/dev/null)" && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
running "$(cat "$T/slowhost.pid" 2>/dev/null)" && fail "SIGTERM: the predictor's compiler still runs"
[ ! -e sig2 ] && [ ! -e sig2.predict ] || fail "SIGTERM beside the predictor left an output"
ls -A | grep -q wtcc && fail "SIGTERM beside the predictor left a temporary output: $(ls -A)"
[ -z "$(ls -A "$TMPDIR")" ] || fail "SIGTERM beside the predictor: temporary files left: $(ls -A "$TMPDIR")"

[ $failed = 0 ] && echo "PASS: driver_atomic"
exit $failed
