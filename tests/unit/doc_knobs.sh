#!/bin/sh
# doc_knobs.sh - every knob the code reads is documented somewhere a user looks.
# timing: none
# From the sources, not from a build:
#   * every WTC_* environment variable: a C string literal that is exactly "WTC_NAME"
#     (getenv("WTC_X"), and the helpers that take the name: env_value, env_checked,
#     wtcrt_env_off, #define ..._ENV "WTC_X") in the C sources, and every $WTC_NAME or
#     ${WTC_NAME...} a shell script of the tree reads (tests/run.sh, bench/, calibrate/);
#   * every --wtc-NAME of the launch options' table (runtime/common/opts.c) and of the
#     predictor's (runtime/sim/options.c), and every long option of wtcc
#     (wtc/options.c);
#   * every machine-file key (runtime/sim/machine.c's keys[]).
# Each variable and launch or predictor option must appear in README.md, doc/*.md or
# bench/README.md, unless the allow-list below names it with its reason; each option
# also in its own --help / --wtc-help text; each machine key in doc/predictor.md §5.
# A new undocumented knob fails here, naming it.
# Run from the repository root.
ROOT=$PWD
. "$ROOT/tests/unit/doc_lib.inc"

# Not user knobs, so not in the docs: each with why.
ALLOW='
WTC_PREDICT_APART
WTC_PREDICT_REPLICAS_DIFFERED
WTC_TEST_NO_CMA
WTC_TEST_SLOW_MS
WTC_UNIT_BITS
'
# WTC_PREDICT_APART, WTC_PREDICT_REPLICAS_DIFFERED: set by the predictor for the run of
#   itself it starts (runtime/sim/record.c: record_apart, record_again), never by a user.
# WTC_TEST_NO_CMA: tests/unit/rt_start_count.c's shim refuses process_vm_writev with it
#   (tests/unit/rt_start.sh).
# WTC_TEST_SLOW_MS: tests/unit/sim_retime.wtc's slow first leaves
#   (tests/unit/sim_retime.sh).
# WTC_UNIT_BITS: not a variable; a macro of runtime/wtc_abi.h that codegen/marshal.c
#   writes into generated code as a string.

# the tracked files
tracked_files "$T/files"
grep -E '\.(c|h|wtc|y|l)$' "$T/files" > "$T/csrc"
# shell scripts: *.sh, *.inc of the scripts, and the extensionless ones under bench/
# (bench/bench, bench/validate, ...) and .ci/; not this file (its patterns name none)
grep -E '\.sh$|^(bench|tests)/.*\.inc$|^bench/[^./]+$|^\.ci/' "$T/files" |
    grep -vx 'tests/unit/doc_knobs.sh' > "$T/shsrc"

# the documents
docs=$(grep -xE 'README\.md|doc/[^/]+\.md|bench/README\.md' "$T/files" | tr '\n' ' ')
[ -n "$docs" ] || { echo "FAIL: no documents found"; exit 1; }
(cd "$ROOT" && cat $docs) > "$T/docs"

# ---- environment variables ----------------------------------------------------------
(cd "$ROOT" && tr '\n' '\0' < "$T/csrc" | xargs -0 grep -ohE '"WTC_[A-Z0-9_]+"' |
    tr -d '"'
 tr '\n' '\0' < "$T/shsrc" | xargs -0 grep -ohE '\$\{?WTC_[A-Z0-9_]+' |
    sed 's/^\$[{]*//') | sort -u > "$T/vars"
nv=$(wc -l < "$T/vars")
# today about 40: far fewer means the patterns stopped finding them
[ "$nv" -ge 30 ] || fail "only $nv WTC_ variables found: are the patterns still right?"
for must in WTC_LIBDIR WTC_DOORBELL WTC_BENCH_RUNS WTC_TEST_FILTER; do
    grep -qx "$must" "$T/vars" ||
        fail "the extraction misses $must: is the pattern still right?"
done
printf '%s\n' $ALLOW > "$T/allow"
while read -r v; do
    grep -qx -- "$v" "$T/allow" && continue
    grep -qw -- "$v" "$T/docs" && continue
    where=$(cd "$ROOT" && cat "$T/csrc" "$T/shsrc" | tr '\n' '\0' |
        xargs -0 grep -lE "\"$v\"|\\\$\{?$v([^A-Z0-9_]|\$)" 2>/dev/null | head -3 |
        tr '\n' ' ')
    fail "environment variable $v (read in ${where% }) is named in no document" \
        "(README.md, doc/*.md, bench/README.md)"
done < "$T/vars"
# an allow-listed name that is no longer read should leave the list
for v in $ALLOW; do
    grep -qx "$v" "$T/vars" || fail "allow-listed $v is no longer in the sources: drop it"
done

# ---- options ------------------------------------------------------------------------
# usage FILE: the text of the usage string of FILE (the lines from '..._usage[] =' or
# 'usage_text[] =' to the first ';' at a line's end)
usage() {
    awk '/(_usage|usage_text)\[\] =/ { on = 1 } on { print } on && /;$/ { exit }' "$ROOT/$1"
}
# the option names of an option table: { "--wtc-NAME", ...
opts_of() {
    grep -oE '^ *\{ *"--wtc-[a-z-]+"' "$ROOT/$1" | sed -E 's/^ *\{ *"//; s/"$//' | sort -u
}
# has TEXTFILE OPTION: OPTION stands in it as a word (--wtc-mode is not --wtc-modes)
has() {
    grep -qE -- "$2([^a-z-]|\$)" "$1"
}
no=0
for table in runtime/common/opts.c runtime/sim/options.c; do
    opts_of "$table" > "$T/opts"
    usage "$table" > "$T/usage"
    n=$(wc -l < "$T/opts")
    [ "$n" -ge 9 ] || fail "$table: only $n --wtc- options found in its table"
    [ -s "$T/usage" ] || fail "$table: no usage text found"
    no=$((no + n))
    while read -r o; do
        has "$T/docs" "$o" || fail "$table: $o appears in no document"
        has "$T/usage" "$o" || fail "$table: $o is not in its --wtc-help text"
    done < "$T/opts"
done
# wtcc's long options: strcmp(a, "--X") and strncmp(a, "--X=", n) in wtc/options.c
grep -oE 'str(n)?cmp\(a, "--[a-z-]+' "$ROOT/wtc/options.c" | sed 's/.*"//' |
    sort -u > "$T/dopts"
usage wtc/options.c > "$T/usage"
n=$(wc -l < "$T/dopts")
[ "$n" -ge 9 ] || fail "wtc/options.c: only $n long options found"
no=$((no + n))
while read -r o; do
    has "$T/usage" "$o" || fail "wtc/options.c: $o is not in wtcc --help"
done < "$T/dopts"

# ---- machine-file keys --------------------------------------------------------------
awk '/keys\[K_N\] = \{/ { on = 1; next } on && /^\};/ { exit } on' \
    "$ROOT/runtime/sim/machine.c" | grep -oE '^ *\{ *"[A-Za-z_0-9]+"' |
    sed -E 's/^ *\{ *"//; s/"$//' > "$T/keys"
nk=$(wc -l < "$T/keys")
[ "$nk" -ge 40 ] || fail "runtime/sim/machine.c: only $nk machine keys found"
awk '/^## 5\./ { on = 1; next } on && /^## / { exit } on' "$ROOT/doc/predictor.md" \
    > "$T/sec5"
while read -r k; do
    grep -qw -- "$k" "$T/sec5" || fail "machine key $k is not in doc/predictor.md §5"
done < "$T/keys"

[ $failed = 0 ] || exit 1
echo "doc_knobs: ok ($nv variables, $(printf '%s\n' $ALLOW | wc -l) allowed undocumented," \
    "$no options, $nk machine keys)"
