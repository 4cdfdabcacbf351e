#!/bin/sh
# driver_cli.sh - wtcc's command line: --help, --version and every kind of misuse (SPEC 3).
# Run from the repository root after 'make'. WTCC=path overrides bin/wtcc.
. "$PWD/tests/unit/driver_lib.inc"

# expect STATUS PATTERN-IN-STDERR -- wtcc arguments...
expect() {
    want=$1 pat=$2; shift 3
    (cd "$T" && timeout 60 "$WTCC" "$@") >"$T/out" 2>"$T/err"
    got=$?
    [ "$got" = "$want" ] || fail "wtcc $*: status $got, expected $want"
    [ -z "$pat" ] || grep -q -- "$pat" "$T/err" || fail "wtcc $*: no '$pat' in: $(cat "$T/err")"
}

printf 'int main(void) { return 0; }\n' >"$T/ok.wtc"
cp "$T/ok.wtc" "$T/ok.c"

expect 0 "" -- --help
grep -q '^Usage: wtcc' "$T/out" || fail "--help: no usage line on stdout"
grep -q -- '--mode=simple|dynamic|dynamic:M|steal' "$T/out" || fail "--help: no steal mode"
expect 0 "" -- --version
grep -qx 'wtcc [0-9][0-9.]*' "$T/out" || fail "--version printed '$(cat "$T/out")'"

expect 2 "wtcc: error: unrecognized command-line option '--frobnicate'" -- --frobnicate ok.wtc
expect 2 "wtcc: error: unrecognized command-line option '-q'" -- -q ok.wtc
expect 2 "wtcc: error: no input file" --
expect 2 "wtcc: error: no input file" -- -O2
expect 2 "wtcc: error: cannot open 'missing.wtc'" -- missing.wtc
expect 2 "wtcc: error: two input files" -- ok.wtc ok.wtc
expect 2 "wtcc: error: input file 'ok.c' does not end in .wtc" -- ok.c
expect 2 "wtcc: error: missing argument to '-o'" -- ok.wtc -o
expect 2 "wtcc: error: invalid '--mode=dynamic:0'" -- --mode=dynamic:0 ok.wtc
expect 2 "wtcc: error: invalid '--mode=fast'" -- --mode=fast ok.wtc
expect 2 "or --mode=steal)" -- --mode=fast ok.wtc
expect 2 "wtcc: error: invalid '--mode=steal:2' (mode steal has no masters" -- --mode=steal:2 ok.wtc
expect 2 "wtcc: error: invalid '--mode=simple:2'" -- --mode=simple:2 ok.wtc
expect 2 "wtcc: error: output file 'ok.wtc' is the input file" -- -E ok.wtc -o ok.wtc
expect 2 "wtcc: error: cannot run 'no-such-mpicc'" -- --cc=no-such-mpicc ok.wtc

# --mode=steal is taken: the program descriptor carries WTC_MODE_STEAL (3), no masters
expect 0 "" -- -E --mode=steal ok.wtc
grep -q '__wtc_main_entry, 3, 0, 0, __wtc_shared, 0 };' "$T/out" || fail "--mode=steal: no mode 3 in the program"
# --check: the program says so (its last field), every clone checks its calls
expect 0 "" -- -E --check ok.wtc
grep -q '__wtc_main_entry, 0, 0, 1, __wtc_shared, 0 };' "$T/out" || fail "--check: no check flag in the program"
rm -f "$T/out" "$T/err"

# -o into a directory that does not exist: status 2, nothing created anywhere
expect 2 "a file name cannot end in '/'" -- ok.wtc -o nodir/
expect 2 "does not exist" -- ok.wtc -o nodir/prog
[ ! -e "$T/nodir" ] || fail "-o nodir/prog created nodir"
[ "$(ls -A "$T" | sort | tr '\n' ' ')" = "err ok.c ok.wtc out " ] ||
    fail "-o nodir/prog left files: $(ls -A "$T")"

# a file whose name starts with '-', after "--": built (the C compiler took it for an
# option, "no input files", status 1; the sixth bug hunt)
cp "$T/ok.wtc" "$T/-dash.wtc"
expect 0 "" -- -- -dash.wtc
[ -x "$T/-dash" ] && [ -x "$T/-dash.predict" ] || fail "-- -dash.wtc: no -dash, -dash.predict"
rm -f "$T/-dash.wtc" "$T/-dash" "$T/-dash.predict"

[ $failed = 0 ] && echo "PASS: driver_cli"
exit $failed
