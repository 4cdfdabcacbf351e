#!/bin/sh
# parse_errors.sh - each tests/parse/err_*.wtc must fail with exactly the diagnostics in
# err_NAME.err (gcc style: file:line:col, source line, caret; several errors per run).
. tests/unit/parse_lib.inc
for src in tests/parse/err_*.wtc; do
    name=$(basename "$src" .wtc)
    pp "$name.wtc" || { fail "$name: preprocessing failed"; continue; }
    out=tests/out/parse/$name.err
    (cd tests/parse && ../../$PD --quiet --user "$name.wtc" "../out/parse/$name.wtc.i") > "$out" 2>&1
    rc=$?
    [ -n "$REGEN" ] && cp "$out" "tests/parse/$name.err"
    if [ $rc -ne 1 ]; then fail "$name: exit status $rc, expected 1"
    elif ! diff -u "tests/parse/$name.err" "$out" > "$out.diff"; then fail "$name: diagnostics differ"; head -40 "$out.diff"
    else pass "$name"; fi
done
[ $FAILS -eq 0 ]
