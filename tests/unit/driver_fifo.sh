#!/bin/sh
# Inputs that are not regular files must be refused at once, never waited on: a FIFO
# as the source, a line marker naming a FIFO or /dev/zero (the diagnostic shows the
# named file's line), a FIFO as the predictor's machine file.
. tests/unit/driver_lib.inc
mkfifo "$T/fifo.wtc" "$T/machine.conf" || { echo "cannot mkfifo"; exit 1; }

timeout 20 "$WTCC" "$T/fifo.wtc" -o "$T/f" 2> "$T/err1"
st=$?
[ $st = 2 ] || fail "FIFO input: status $st, expected 2"
grep -q "is not a regular file" "$T/err1" || fail "FIFO input: $(head -2 "$T/err1")"

# the error is on line 1 of the named file; only the message may be shown, not its line
for target in "$T/machine.conf" /dev/zero; do
    printf '#line 1 "%s"\nint x = ;\nint main(void) { return 0; }\n' "$target" > "$T/marker.wtc"
    timeout 20 "$WTCC" "$T/marker.wtc" -o "$T/m" 2> "$T/err2"
    st=$?
    [ $st = 1 ] || fail "#line \"$target\": status $st, expected 1"
    grep -q "^$target:1:9: error: syntax error" "$T/err2" || fail "#line \"$target\": $(head -2 "$T/err2")"
done

"$WTCC" "$SRC" -o "$T/fib" 2> "$T/err3" || fail "cannot build fib: $(head -3 "$T/err3")"
timeout 20 "$T/fib.predict" --wtc-machine="$T/machine.conf" > /dev/null 2> "$T/err4"
st=$?
[ $st = 2 ] || fail "FIFO machine file: status $st, expected 2"
grep -q "not a regular file" "$T/err4" || fail "FIFO machine file: $(head -2 "$T/err4")"
exit $failed
