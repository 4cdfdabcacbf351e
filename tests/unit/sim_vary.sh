#!/bin/sh
# What-if sweeps (doc/predictor.md section 6.1): --wtc-vary=KEY:V1,V2,... predicts with
# each value of a machine key from one recording; the table gives the best setting per
# value, CSV and JSON every setting with a column per key; bad keys and values stop
# with a clear message and status 2.
. tests/unit/sim_common.inc
# the default machine, whatever 'make calibrate' left in lib/wtc/machines/host.conf
# (its figures are what these checks expect)
MACHINE=--wtc-machine=ethernet-mpich-2004
[ -x bin/wtcc ] || { bad "bin/wtcc missing: run make"; exit 1; }
P=$OUT/vary_nq
bin/wtcc ${SIM_CFLAGS:-} samples/nqueens.wtc -o $P >$OUT/vary.build 2>&1 \
    || { bad "build nqueens: $(cat $OUT/vary.build)"; exit 1; }
one="--wtc-modes=simple --wtc-procs=4 --wtc-sample=all"

# the table: one row per value, in order, the best setting moving from P = 4 (a fast
# network) to P = 1 (100 ms latency); the program ran (and printed its TIME line on
# stderr) once for the three values
out=$(timeout 120 $P.predict $MACHINE --wtc-vary=L:1e-6,1e-4,0.1 --wtc-procs=1,4 --wtc-sample=all 11 \
      2>$OUT/vary.err)
rows=$(echo "$out" | awk '/^what-if/ { on = 1; getline; next }
                          on && $1 ~ /^[0-9]/ { printf "%s/%s ", $1, $3 }')
case "$rows" in
"1e-06/4 0.0001/"[14]" 0.1/1 ") pass "table: one row per value of L, best P: $rows" ;;
*) bad "table rows: '$rows'" ;;
esac
echo "$out" | sed -n '/^what-if/,/^$/p'
echo "$out" | grep -q "per value of L (the machine's: 5e-05)" \
    && pass "table: names the machine's own value" || bad "no machine value in the header"
n=$(grep -c '^TIME nqueens' $OUT/vary.err)
[ "$n" = 1 ] && pass "the program is recorded once for three values" \
    || bad "the program ran $n times"

# CSV: a column L; the time grows with L; each row is what a machine file with that L
# predicts (another recording: within 10 %, a latency of 1 s dominates at P = 4)
csv=$(timeout 120 $P.predict $MACHINE --wtc-vary=L:1e-6,1e-4,1 $one --wtc-format=csv 9 2>/dev/null)
echo "$csv" | head -1 | grep -q '^L,mode,procs,masters,batch,predicted_s,speedup,' \
    && pass "csv: the header starts with the key's column" || bad "csv header: $(echo "$csv" | head -1)"
echo "$csv" | awk -F, 'NR > 1 { t[NR] = $6; n++ } END { exit !(n == 3 && t[2] < t[3] && t[3] < t[4]) }' \
    && pass "csv: three rows, the predicted time grows with L" || bad "csv: $csv"
sed 's/^L = .*/L = 1/' machines/ethernet-mpich-2004.conf > $OUT/vary_L.conf
ref=$(timeout 120 $P.predict --wtc-machine=$OUT/vary_L.conf $one --wtc-format=csv 9 2>/dev/null |
      awk -F, 'NR == 2 { print $5 }')
got=$(echo "$csv" | awk -F, '$1 == 1 { print $6 }')
echo "$got $ref" | awk '{ exit !($1 > 0 && $2 > 0 && $1 / $2 < 1.1 && $2 / $1 < 1.1) }' \
    && pass "L = 1 in the sweep: $got s, with a machine file: $ref s" \
    || bad "L = 1 in the sweep: '$got' s, with a machine file: '$ref' s"

# a key the file leaves out follows its source in a sweep as in a file: without L_intra
# (two ranks a node) a swept L is the file's L for the ranks of a node too. From one
# profile, so both predict the same recording: equal to the last digit.
sed 's/^ranks_per_node = .*/ranks_per_node = 2/' machines/ethernet-mpich-2004.conf \
    > $OUT/vary_rpn.conf
sed 's/^L = .*/L = 0.002/' $OUT/vary_rpn.conf > $OUT/vary_rpn_L.conf
timeout 120 $P.predict --wtc-machine=$OUT/vary_rpn.conf --wtc-procs=1 \
    --wtc-save-profile=$OUT/vary.prof 9 >/dev/null 2>&1
both="--wtc-profile=$OUT/vary.prof --wtc-modes=dynamic,steal --wtc-procs=4,8 --wtc-format=csv"
got=$(timeout 120 $P.predict $both --wtc-machine=$OUT/vary_rpn.conf --wtc-vary=L:0.002 \
      2>/dev/null | awk -F, 'NR > 1 { printf "%s ", $7 }')
ref=$(timeout 120 $P.predict $both --wtc-machine=$OUT/vary_rpn_L.conf 2>/dev/null |
      awk -F, 'NR > 1 { printf "%s ", $6 }')
[ -n "$got" ] && [ "$got" = "$ref" ] \
    && pass "L = 0.002 swept on a file without L_intra = a file with that L: $got" \
    || bad "L swept without L_intra: '$got', a file with that L: '$ref'"

# two keys: every pair, both columns; a faster CPU is faster when L is small
csv=$(timeout 120 $P.predict $MACHINE --wtc-vary=L:1e-6,1e-2 --wtc-vary=cpu_ratio:1,4 $one \
      --wtc-format=csv 9 2>/dev/null)
echo "$csv" | awk -F, 'NR == 1 { ok = ($1 == "L" && $2 == "cpu_ratio") }
    NR > 1 { n++; t[$1 "/" $2] = $7 }
    END { exit !(ok && n == 4 && t["1e-06/4"] < t["1e-06/1"]) }' \
    && pass "two keys: four rows, columns L and cpu_ratio" || bad "two keys: $csv"

# JSON: one prediction per value, each with its value and best
if command -v python3 >/dev/null; then
    timeout 120 $P.predict $MACHINE --wtc-vary=t_m:1e-6,1e-3 --wtc-procs=1,4 --wtc-format=json 9 \
        2>/dev/null > $OUT/vary.json
    python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
p = d["predictions"]
assert d["vary"] == ["t_m"] and [x["t_m"] for x in p] == [1e-6, 1e-3], p
assert all(x["best"]["predicted_s"] > 0 and len(x["settings"]) > 1 for x in p)' $OUT/vary.json \
        && pass "json: a prediction per value" || bad "json: $(head -c 300 $OUT/vary.json)"
fi

# errors: status 2, one line naming the problem (the unknown key lists the keys)
err() { # expected-text option...
    want=$1; shift
    timeout 20 $P.predict $MACHINE "$@" 9 >/dev/null 2>$OUT/vary.e; rc=$?
    [ $rc = 2 ] && grep -q -- "$want" $OUT/vary.e && ! grep -q '^TIME' $OUT/vary.e \
        && pass "$*: status 2, '$want'" || bad "$*: status $rc: $(cat $OUT/vary.e)"
}
err "unknown machine key 'Lx' (L, G, o_sa, o_sb, O_s," --wtc-vary=Lx:1
err "t_start, t_start_p, t_end, t_end_p, t_page_shared, t_page_free, t_page_map, t_pack_child, t_store_child, speed_spread)" --wtc-vary=Lx:1 # the list ends with every key (a 256-byte buffer cut it)
err "unknown machine key 'name'" --wtc-vary=name:x
err "key 'cpu_ratio' = 0 is outside 1e-06 to 1e+06" --wtc-vary=cpu_ratio:1,0
err "bad number '-2' for key 'L'" --wtc-vary=L:1,-2
err "an empty value in 'L:1e-6,,2e-6'" --wtc-vary=L:1e-6,,2e-6
err "an empty value in 'L:1e-6,'" --wtc-vary=L:1e-6,
err "an empty value in 'L:,1e-6'" --wtc-vary=L:,1e-6
err "key 'L' given twice" --wtc-vary=L:1 --wtc-vary=L:2
err "at most 2 keys" --wtc-vary=L:1 --wtc-vary=G:1e-9 --wtc-vary=S:1
err "expected KEY:V1,V2" --wtc-vary=L
err "key 'L' = 2 is outside 0 to 1 s" --wtc-vary=L:2
err "draws the time against one --wtc-vary key, and 2 are given" --wtc-vary=L:1 --wtc-vary=G:1e-9 --wtc-plot=$OUT/v.svg
err "cannot be combined with --wtc-vary" --wtc-vary=L:1 --wtc-procs=2 --wtc-modes=simple --wtc-trace=$OUT/v.json
# a busier master (t_m, doc/predictor.md section 3): dynamic mode with one master at
# P = 16 slows as t_m grows past its o_r + o_s (24 us on the 2004 preset at P = 16,
# 35 us at 128; t_m there 148 us), and a t_m below them changes nothing: the
# simulated master pays the larger of the two a request
csv=$(timeout 120 $P.predict $MACHINE --wtc-vary=t_m:1e-6,1e-5,1e-3,1e-2 --wtc-modes=dynamic \
      --wtc-procs=16 --wtc-masters=1 --wtc-runs=1 --wtc-format=csv 11 2>/dev/null)
echo "$csv" | awk -F, 'NR > 1 { t[NR] = $6; n++ }
                       END { exit !(n == 4 && t[2] == t[3] && t[3] < t[4] && t[4] < t[5]) }' \
    && pass "t_m: below o_r + o_s nothing, above it a slower master: $(echo "$csv" |
            awk -F, 'NR > 1 { printf "%s %s  ", $1, $6 }')" \
    || bad "t_m: $csv"
# --wtc-plot with one key: the time against the value, a line per mode, log x over the
# wide range, the least time marked; rendered by a real SVG renderer when there is one
rm -f $OUT/vary.svg
out=$(timeout 120 $P.predict $MACHINE --wtc-vary=L:1e-2,1e-6,1e-4 --wtc-procs=1,4 --wtc-sample=all \
      --wtc-plot=$OUT/vary.svg 11 2>/dev/null)
# every value whose time, as the table prints it, is the least (two values may tie at
# the table's digits: 1e-6 and 1e-4 at P = 4 do on a quick host)
best=$(echo "$out" | awk '/^what-if/ { on = 1; getline; next }
                          on && $1 ~ /^[0-9]/ { print $1, $6 }' | sort -g -k2 |
       awk 'NR == 1 { t = $2 } $2 == t')
if [ -s $OUT/vary.svg ] && grep -q 'nqueens.wtc: predicted time against L' $OUT/vary.svg &&
   grep -q '>L (log scale)<' $OUT/vary.svg && grep -q '>predicted time (s)<' $OUT/vary.svg &&
   [ "$(grep -c '(its best setting)' $OUT/vary.svg)" = 3 ] && grep -q '>1e-05<' $OUT/vary.svg; then
    pass "plot: title, axes, a line per mode, ticks at powers of 10"
else
    bad "plot: $(head -c 400 $OUT/vary.svg 2>/dev/null)"
fi
bx=$(echo "$best" | awk '{ if (NR > 1) printf " or "; printf "%g", $1 }')
marked=no
for v in $(echo "$best" | awk '{ printf "%g\n", $1 }'); do
    grep -q ">best: L = $v: " $OUT/vary.svg && marked=$v
done
[ "$marked" != no ] && pass "plot: the least time marked (L = $marked; the table's least: $bx)" \
    || bad "plot best: want L = $bx, $(grep -o '>best: [^<]*' $OUT/vary.svg)"
if command -v rsvg-convert >/dev/null 2>&1; then
    rsvg-convert -o $OUT/vary.png $OUT/vary.svg 2>$OUT/vary.rsvg && [ -s $OUT/vary.png ] \
        && pass "plot: rsvg-convert renders it" || bad "rsvg-convert: $(cat $OUT/vary.rsvg)"
fi
exit $fail
