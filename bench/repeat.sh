#!/bin/sh
# bench/repeat.sh - do two predictions in a row of the same program agree? (issue 8
# item 4: within 3 %)
#
#   sh bench/repeat.sh [program ...]     (default: every samples/*.wtc)
#
# Builds each program with bin/wtcc, runs its predictor REPEAT_RUNS times in a row (default
# 2; each run records the program afresh, as a user's second try does) on REPEAT_MACHINE
# (default the shipped ethernet-mpich-2004 preset, every P from 1 to 128), and compares
# every pair of runs row by row: the mean and the largest difference of predicted_s
# (|a - b| / the smaller), which row it was, and how many rows differ by more than 3 %.
# With REPEAT_SPEEDS=0 the same runs are also predicted from their saved profiles on a
# copy of the machine with speed_spread = 0, the ranks at their recorded speeds (the
# predictor before 2026-11-30's draws of the ranks' speeds, doc/predictor.md 3): the
# figures side by side separate what the recording moved from what the draws absorb.
# Sizes: bench/sizes.inc (programs of 0.2-1 s; REPEAT_SMALL=1: its small ones).
# Programs are named as for bench/validate. Run from the repository root after make.
set -u
OUT=tests/out/repeat
RUNS=${REPEAT_RUNS:-2}
MACHINE=${REPEAT_MACHINE:-ethernet-mpich-2004}
TO=${REPEAT_TIMEOUT:-600}
mkdir -p "$OUT"
[ -x bin/wtcc ] || { echo "repeat: run make first" >&2; exit 2; }
command -v python3 >/dev/null || { echo "repeat: needs python3" >&2; exit 2; }
. bench/sizes.inc
[ $# -gt 0 ] || set -- samples/*.wtc
SIZE=
[ "${REPEAT_SMALL:-0}" = 1 ] && SIZE=small

# the machine with speed_spread = 0 (REPEAT_SPEEDS=0)
if [ "${REPEAT_SPEEDS:-1}" = 0 ]; then
    if [ -f "$MACHINE" ]; then src=$MACHINE; else src=lib/wtc/machines/${MACHINE%.conf}.conf; fi
    [ -f "$src" ] || { echo "repeat: no machine file $src for REPEAT_SPEEDS=0" >&2; exit 2; }
    sed '/^speed_spread/d; s/^name *=.*/name = repeat-same-speeds/' "$src" >"$OUT/same.conf"
    echo 'speed_spread = 0' >>"$OUT/same.conf"
fi

compare() { # compare LABEL CSV...: every pair of reports, row by row
    python3 - "$@" <<'EOF'
import csv, itertools, sys
label, files = sys.argv[1], sys.argv[2:]
def rows(f):
    return {(r["mode"], r["procs"], r["masters"], r["batch"]): float(r["predicted_s"])
            for r in csv.DictReader(open(f))}
reports = [rows(f) for f in files]
for (i, a), (j, b) in itertools.combinations(enumerate(reports), 2):
    d = sorted((abs(a[k] - b[k]) / min(a[k], b[k]) * 100, k) for k in a if k in b and min(a[k], b[k]) > 0)
    if not d:
        print(f"  {label} {i + 1}-{j + 1}: no rows in common"); continue
    big, k = d[-1]
    where = f"{k[0]} P={k[1]}" + (f" M={k[2]}" if k[0] == "dynamic" else "")
    over = sum(1 for x, _ in d if x > 3)
    print(f"  {label} {i + 1}-{j + 1}: {len(d)} rows, mean {sum(x for x, _ in d) / len(d):.1f} %, "
          f"largest {big:.1f} % ({where}), over 3 %: {over}")
EOF
}

for src in "$@"; do
    case $src in */*) ;; *) src=samples/$src.wtc ;; esac
    [ -f "$src" ] || { echo "repeat: no program $src" >&2; continue; }
    name=$(basename "$src" .wtc)
    # shellcheck disable=SC2046
    bin/wtcc -O2 $(bench_flags "$src" 2>/dev/null) "$src" -o "$OUT/$name" >"$OUT/$name.build" 2>&1 ||
        { echo "$name: build failed (see $OUT/$name.build)"; continue; }
    args=$(bench_args "$src" $SIZE)
    echo "$name $args (machine $MACHINE, $RUNS predictions in a row):"
    csvs= same=
    k=1
    while [ "$k" -le "$RUNS" ]; do
        # shellcheck disable=SC2086
        if ! timeout "$TO" "$OUT/$name.predict" --wtc-machine="$MACHINE" --wtc-format=csv \
            --wtc-save-profile="$OUT/$name.$k.prof" $args >"$OUT/$name.$k.csv" 2>"$OUT/$name.$k.err"; then
            echo "  prediction $k failed: $(tail -2 "$OUT/$name.$k.err")"
            continue 2
        fi
        csvs="$csvs $OUT/$name.$k.csv"
        if [ "${REPEAT_SPEEDS:-1}" = 0 ]; then
            timeout "$TO" "$OUT/$name.predict" --wtc-profile="$OUT/$name.$k.prof" \
                --wtc-machine="$OUT/same.conf" --wtc-format=csv >"$OUT/$name.$k.same.csv" 2>/dev/null &&
                same="$same $OUT/$name.$k.same.csv"
        fi
        k=$((k + 1))
    done
    # shellcheck disable=SC2086
    compare "drawn speeds" $csvs
    # shellcheck disable=SC2086
    [ -n "$same" ] && compare "same speeds " $same
done
