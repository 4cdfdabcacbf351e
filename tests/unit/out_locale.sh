#!/bin/sh
# A program that calls setlocale(LC_ALL, "") in a locale whose decimal point is a comma
# (de_DE, made with localedef into tests/out; tests/unit/out_locale.wtc): what the
# runtimes write after it ran keeps C's numbers. The predictor's JSON did not parse,
# its CSV had a comma in every number, its profile was "damaged" when read back, and
# the program's --wtc-trace JSON did not parse (the sixth bug hunt).
set -u
cd "$(dirname "$0")/../.." || exit 1
out=tests/out/out_locale
rm -rf "$out" && mkdir -p "$out/loc"
fail=0
pass() { echo "[PASS] $*"; }
bad() { echo "[FAIL] $*"; fail=1; }
command -v python3 >/dev/null || { echo "[SKIP] python3 missing"; exit 0; }
if ! localedef -i de_DE -f UTF-8 "$out/loc/de_DE.UTF-8" >/dev/null 2>&1; then
    echo "[SKIP] localedef cannot make de_DE.UTF-8 here"
    exit 0
fi
LOCPATH=$PWD/$out/loc LC_ALL=de_DE.UTF-8
export LOCPATH LC_ALL
json_ok() { python3 -c "import json, sys; json.load(open(sys.argv[1]))" "$1" 2>/dev/null; }
bin/wtcc tests/unit/out_locale.wtc -o "$out/prog" > "$out/build.log" 2>&1 ||
    { bad "build: $(head -3 "$out/build.log")"; exit 1; }
[ "$("$out/prog")" = "1,50 987" ] ||
    { echo "[SKIP] the program's locale did not take: $("$out/prog")"; exit 0; }

for np in 1 2; do
    timeout -k 5 60 mpiexec -n $np "$out/prog" --wtc-trace="$out/t$np.json" > "$out/stdout" \
        2> "$out/stderr"
    rc=$?
    [ $rc = 0 ] && json_ok "$out/t$np.json" && pass "-n $np: the program's trace parses" ||
        bad "-n $np: status $rc, trace: $(head -c 200 "$out/t$np.json"), $(head -2 "$out/stderr")"
done

P="$out/prog.predict --wtc-procs=2 --wtc-modes=steal"
timeout -k 5 60 $P --wtc-format=json --wtc-trace="$out/p.json" \
    --wtc-save-profile="$out/p.prof" > "$out/r.json" 2> "$out/stderr"
rc=$?
[ $rc = 0 ] && json_ok "$out/r.json" && json_ok "$out/p.json" &&
    pass "predictor: the JSON report and the trace parse" ||
    bad "predictor, JSON: status $rc, $(sed -n 3p "$out/r.json" | cut -c1-100), $(head -2 "$out/stderr")"
timeout -k 5 60 $P --wtc-format=csv > "$out/r.csv" 2> "$out/stderr"
rc=$?
[ $rc = 0 ] && awk -F, 'NR == 1 { n = NF } NR == 2 && NF == n && n == 18 { ok = 1 }
                        END { exit !ok }' "$out/r.csv" &&
    pass "predictor: CSV rows of 18 fields, as its header" ||
    bad "predictor, CSV: status $rc, $(sed -n 2p "$out/r.csv")"
timeout -k 5 60 "$out/prog.predict" --wtc-profile="$out/p.prof" > "$out/r.txt" 2> "$out/stderr"
rc=$?
[ $rc = 0 ] && grep -q '^best: ' "$out/r.txt" && pass "predictor: the profile reads back" ||
    bad "predictor, profile: status $rc, $(head -2 "$out/stderr")"
exit $fail
