#!/bin/sh
# Runs of the program differ (doc/predictor.md section 3, "Runs of the program"): a
# setting of a mode whose decisions follow the timing (dynamic, steal) with two or more
# workers is simulated --wtc-runs times (default 7), each rank in each run (draw) at
# its own speed within the machine's speed_spread (default 3 %), and a steal setting
# with three or more workers also with other victims; its row's time is their mean, its
# other figures the run's nearest the mean; CSV and JSON give the count and the spread,
# the table a paragraph under it.
# One run where nothing is drawn (simple; speed_spread = 0 and at most one victim) or
# where the decision log is open (draw 0: the runtime's sequence, the recorded speeds).
# The draws run on threads and the result is the same every time; --wtc-trace shows
# the run nearest the mean.
. tests/unit/sim_common.inc
[ -x bin/wtcc ] || { bad "bin/wtcc ${SIM_CFLAGS:-} missing: run make"; exit 1; }
bin/wtcc ${SIM_CFLAGS:-} samples/nqueens.wtc -o $OUT/runs_nq >$OUT/runs_nq.build 2>&1 \
    || { bad "build: $(cat $OUT/runs_nq.build)"; exit 1; }
timeout 120 $OUT/runs_nq.predict --wtc-procs=2 --wtc-modes=steal \
    --wtc-save-profile=$OUT/runs_nq.prof 11 >$OUT/runs_rec.txt 2>&1 \
    || { bad "recording: $(tail -3 $OUT/runs_rec.txt)"; exit 1; }
pred() { # pred FORMAT [options]: the profile replayed at P = 2 and 16, simple and steal
    f=$1
    shift
    timeout 120 $OUT/runs_nq.predict --wtc-profile=$OUT/runs_nq.prof --wtc-procs=2,16 \
        --wtc-modes=simple,steal --wtc-machine=ethernet-10g-mpich --wtc-format="$f" "$@" \
        2>$OUT/runs_err.txt
}
col() { # col NAME: the column of that name in the CSV on stdin, as "mode P value" lines
    awk -F, -v n="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; next }
                       { print $1, $2, $c }'
}

pred csv >$OUT/runs_a.csv
pred csv >$OUT/runs_b.csv
# runs: 1 for simple; a drawn row 7, or 3 where the first three came within 1 % (so a
# row of 7 runs spreads more than 1 %, one of 3 at most 1 %)
runs=$(col runs <$OUT/runs_a.csv | tr '\n' ' ')
rs=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "runs") r = i; if ($i == "spread") p = i }; next }
              { print $1, $2, $r, $p }' $OUT/runs_a.csv)
echo "$rs" | awk '$1 == "simple" && $3 != 1 { bad = 1 }
                  $1 == "steal" && !(($3 == 7 && $4 > 0.01) || ($3 == 3 && $4 <= 0.01)) { bad = 1 }
                  END { exit bad }' && case "$runs" in *"steal 16 7 "*) true ;; *) false ;; esac \
    && pass "runs: 1 for simple, 7 for steal at P = 16 (victims, speeds), 7 or 3 by their spread ($runs)" \
    || bad "runs column: '$rs' ($(cat $OUT/runs_err.txt | head -3))"
spread=$(col spread <$OUT/runs_a.csv | awk '$1 == "steal" { printf "%s ", $3 }')
zero=$(col spread <$OUT/runs_a.csv | awk '$1 == "simple" { s += $3 } END { print s + 0 }')
awk -v s="$spread" -v z="$zero" 'BEGIN { split(s, v, " "); exit !(v[1] > 0 && v[2] > 0 && z == 0) }' \
    && pass "spread: $spread at steal P = 2 and 16 (the draws differ), 0 in simple mode" \
    || bad "spread: '$spread' at steal P = 2 and 16, $zero in simple mode"

# the ranks' speeds are the machine's: speed_spread = 0 draws victims only, as before
# (steal P = 2 and dynamic one run); dynamic mode is drawn with the default
sed '/^speed_spread/d' lib/wtc/machines/ethernet-10g-mpich.conf >$OUT/runs_same.conf
echo 'speed_spread = 0' >>$OUT/runs_same.conf
dyn() { # dyn MACHINE [options]: dynamic P = 16, 1 master: "runs predicted_s spread"
    m=$1
    shift
    timeout 120 $OUT/runs_nq.predict --wtc-profile=$OUT/runs_nq.prof --wtc-procs=16 \
        --wtc-modes=dynamic --wtc-masters=1 --wtc-machine=$m --wtc-format=csv "$@" \
        2>>$OUT/runs_err.txt | awk -F, 'NR == 2 { print $17, $5, $18 }'
}
same=$(pred csv --wtc-machine=$OUT/runs_same.conf | col runs | tr '\n' ' ')
case "$same" in "simple 2 1 simple 16 1 steal 2 1 steal 16 "[37]" ") true ;; *) false ;; esac \
    && pass "speed_spread = 0: $same" || bad "speed_spread = 0: runs '$same'"
d7=$(dyn ethernet-10g-mpich)
d1=$(dyn $OUT/runs_same.conf)
d0=$(dyn ethernet-10g-mpich --wtc-runs=1)
set -- $d7 $d1 $d0
{ [ "${1:-}" = 7 ] || [ "${1:-}" = 3 ]; } && [ "${4:-}" = 1 ] && [ "${7:-}" = 1 ] &&
    [ "${5:-}" = "${8:-}" ] && awk -v s="${3:-0}" 'BEGIN { exit !(s > 0) }' \
    && pass "dynamic P = 16: $1 runs, spread $3; one run with speed_spread = 0, the same as draw 0 ($5 s)" \
    || bad "dynamic P = 16: default '$d7', speed_spread = 0 '$d1', --wtc-runs=1 '$d0'"
cmp -s $OUT/runs_a.csv $OUT/runs_b.csv \
    && pass "the same report twice from a profile (draws on threads)" \
    || bad "two reports differ: $(diff $OUT/runs_a.csv $OUT/runs_b.csv | head -4)"

# the mean lies between the fastest and the slowest, and so does draw 0 (--wtc-runs=1)
pred json >$OUT/runs.json
one=$(pred csv --wtc-runs=1 | col predicted_s | awk '$1 == "steal" && $2 == 16 { print $3 }')
python3 - "$OUT/runs.json" "${one:-0}" <<'EOF' && pass "fastest <= mean <= slowest, draw 0 ($one s) among them" || bad "JSON: $(head -c 300 $OUT/runs.json)"
import json, sys
d = json.load(open(sys.argv[1]))
s = [x for x in d["settings"] if x["mode"] == "steal" and x["procs"] == 16][0]
one = float(sys.argv[2])
ok = s["runs"] == 7 and s["fastest_s"] <= s["predicted_s"] <= s["slowest_s"] \
     and s["fastest_s"] < s["slowest_s"] and s["fastest_s"] <= one <= s["slowest_s"]
sys.exit(0 if ok else 1)
EOF
# with two runs the row is their mean, not either run (a median of two would be the
# faster): draw 0 is one of them, and fastest + slowest = 2 x the row
pred json --wtc-runs=2 >$OUT/runs2.json
python3 - "$OUT/runs2.json" "${one:-0}" <<'EOF' && pass "--wtc-runs=2: the row is the two runs' mean" || bad "--wtc-runs=2: $(head -c 300 $OUT/runs2.json)"
import json, sys
d = json.load(open(sys.argv[1]))
s = [x for x in d["settings"] if x["mode"] == "steal" and x["procs"] == 16][0]
one, lo, hi, t = float(sys.argv[2]), s["fastest_s"], s["slowest_s"], s["predicted_s"]
near = lambda a, b: abs(a - b) <= 1e-6 * max(abs(a), abs(b))
ok = s["runs"] == 2 and lo < hi and near(lo + hi, 2 * t) and (near(one, lo) or near(one, hi))
sys.exit(0 if ok else 1)
EOF
three=$(pred csv --wtc-runs=3 | col runs | awk '$1 == "steal" && $2 == 16 { print $3 }')
[ "$three" = 3 ] && pass "--wtc-runs=3: 3 runs" || bad "--wtc-runs=3: runs '$three'"

# the decision log is the runtime's sequence: one run, draw 0
dec=$(WTC_DECISIONS=$OUT/runs_dec.txt timeout 120 $OUT/runs_nq.predict \
      --wtc-profile=$OUT/runs_nq.prof --wtc-procs=16 --wtc-modes=steal \
      --wtc-machine=ethernet-10g-mpich --wtc-format=csv 2>/dev/null | col predicted_s |
      awk '{ print $3 }')
[ -n "$dec" ] && [ "$dec" = "$one" ] && [ -s $OUT/runs_dec.txt ] \
    && pass "with WTC_DECISIONS: one run, the runtime's sequence ($dec s)" \
    || bad "WTC_DECISIONS: '$dec' s against draw 0 '$one' s"

# --wtc-trace shows the run nearest the mean: its last event lies between the fastest
# and the slowest run, no further from the row's time than half their distance
timeout 120 $OUT/runs_nq.predict --wtc-profile=$OUT/runs_nq.prof --wtc-procs=16 \
    --wtc-modes=steal --wtc-machine=ethernet-10g-mpich --wtc-trace=$OUT/runs_trace.json \
    --wtc-format=json >$OUT/runs_t.json 2>/dev/null
python3 - "$OUT/runs_trace.json" "$OUT/runs_t.json" <<'EOF2' && pass "the trace is the run nearest the mean: it ends between the fastest and slowest runs, within half their distance of the row" || bad "trace end against the row: $(head -c 300 $OUT/runs_t.json)"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
end = max(e.get("ts", 0) for e in ev) * 1e-6
s = json.load(open(sys.argv[2]))["settings"][0]
t, lo, hi = s["predicted_s"], s["fastest_s"], s["slowest_s"]
eps = 1e-6 * max(1.0, end) + 1e-9
sys.exit(0 if lo < hi and lo - eps <= end <= hi + eps and abs(end - t) <= (hi - lo) / 2 + eps else 1)
EOF2

# the table says it under the rows (its words wrapped anywhere: where a row stopped at 3
# runs the paragraph says so, and "each rank runs" ended a line)
pred table >$OUT/runs_table.txt
grep -q '^(steal: each row the mean of 7 simulated runs' $OUT/runs_table.txt &&
    sed -n '/^(steal: each row/,/)$/p' $OUT/runs_table.txt | tr '\n' ' ' |
        grep -q 'P = 2 [0-9.]* %, *P = 16 [0-9.]* %) *$' &&
    sed -n '/^(steal: each row/,/)$/p' $OUT/runs_table.txt | tr '\n' ' ' | tr -s ' ' |
        grep -q 'each rank runs up to 3 % faster or slower' &&
    ! grep -q '^(simple' $OUT/runs_table.txt &&
    sed -n '/^(steal: each row/,/)$/p' $OUT/runs_table.txt | awk 'length > 88 { exit 1 }' \
    && pass "the table's paragraph: $(sed -n '/^(steal: each row/,/)$/p' $OUT/runs_table.txt | tr '\n' ' ')" \
    || bad "table: $(sed -n '/^mode/,/^best/p' $OUT/runs_table.txt)"

# bad values: a clear error and status 2
for v in 0 x 1001 ''; do
    timeout 20 $OUT/runs_nq.predict --wtc-profile=$OUT/runs_nq.prof --wtc-runs=$v \
        >/dev/null 2>$OUT/runs_bad.txt
    rc=$?
    [ $rc = 2 ] && grep -q -- '--wtc-runs' $OUT/runs_bad.txt \
        && pass "--wtc-runs=$v refused: $(head -1 $OUT/runs_bad.txt)" \
        || bad "--wtc-runs=$v: status $rc, $(head -1 $OUT/runs_bad.txt)"
done
exit $fail
