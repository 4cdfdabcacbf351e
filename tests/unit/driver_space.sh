#!/bin/sh
# driver_space.sh - file and directory names with spaces and quotes (no shell anywhere),
# and the default output name (the source's base name, in the current directory).
# Run from the repository root after 'make'. WTCC=path overrides bin/wtcc.
. "$PWD/tests/unit/driver_lib.inc"
D="$T/my dir's"
mkdir "$D" "$T/out dir" && cp "$SRC" "$D/fi b.wtc" && cd "$T/out dir" || exit 1

timeout 120 "$WTCC" "$D/fi b.wtc" -o "$T/out dir/my prog" 2>err || fail "wtcc failed: $(cat err)"
[ -x "my prog" ] && [ -x "my prog.predict" ] || fail "outputs missing: $(ls -A)"
out=$(timeout 60 "./my prog" 22 2>/dev/null)
[ "$out" = "fib(22) = 17711 OK" ] || fail "./'my prog' 22 printed '$out'"

timeout 120 "$WTCC" "$D/fi b.wtc" 2>err || fail "wtcc (default -o) failed: $(cat err)"
[ -x "fi b" ] && [ -x "fi b.predict" ] || fail "default output is not './fi b': $(ls -A)"
[ ! -e "$D/fi b" ] || fail "default output went beside the source"

[ $failed = 0 ] && echo "PASS: driver_space"
exit $failed
