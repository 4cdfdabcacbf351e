#!/bin/sh
# parse_dumps.sh - the AST dump of each tests/parse/*.wtc that has a NAME.dump.expected
# file must match it (first line, which counts header items, excluded).
# Regenerate an expected file after checking the change:  REGEN=1 sh tests/unit/parse_dumps.sh
. tests/unit/parse_lib.inc
for exp in tests/parse/*.dump.expected; do
    name=$(basename "$exp" .dump.expected)
    pp "$name.wtc" || { fail "$name: preprocessing failed"; continue; }
    out=tests/out/parse/$name.dump
    (cd tests/parse && ../../$PD --user "$name.wtc" "../out/parse/$name.wtc.i") > "$out.full" 2> "$out.err"
    rc=$?
    tail -n +2 "$out.full" > "$out"
    [ -n "$REGEN" ] && cp "$out" "$exp"
    if [ $rc -ne 0 ]; then fail "$name: parse errors"; cat "$out.err"
    elif ! diff -u "$exp" "$out" > "$out.diff"; then fail "$name: dump differs"; head -40 "$out.diff"
    else pass "$name"; fi
done
[ $FAILS -eq 0 ]
