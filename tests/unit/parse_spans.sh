#!/bin/sh
# parse_spans.sh - the byte spans the code generator copies (function definition parts,
# clauses, par header keywords, statements, calls) must be exact: compare the text they
# cover with tests/parse/NAME.spans.expected.
. tests/unit/parse_lib.inc
for exp in tests/parse/*.spans.expected; do
    name=$(basename "$exp" .spans.expected)
    pp "$name.wtc" || { fail "$name: preprocessing failed"; continue; }
    out=tests/out/parse/$name.spans
    (cd tests/parse && ../../$PD --spans --user "$name.wtc" "../out/parse/$name.wtc.i") > "$out" 2>&1
    [ -n "$REGEN" ] && cp "$out" "$exp"
    if ! diff -u "$exp" "$out" > "$out.diff"; then fail "$name: spans differ"; head -40 "$out.diff"
    else pass "$name spans"; fi
done
[ $FAILS -eq 0 ]
