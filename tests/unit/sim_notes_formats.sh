#!/bin/sh
# Advice at source lines in every format (doc/predictor.md 6.2): the notes of the table
# are JSON's "notes" (same file:line:col, kind, seconds, gain and text), CSV's stderr
# (gcc's "file:line:col: note:" lines; stdout stays one CSV table) and JSON's stderr;
# a --wtc-vary sweep gives the notes of each value, naming it, and they are the notes
# of a plain prediction on a machine file with that value. One recording (a profile)
# for all, so every format sees the same figures.
. tests/unit/sim_common.inc
[ -x bin/wtcc ] || { bad "bin/wtcc ${SIM_CFLAGS:-} missing: run make"; exit 1; }
command -v python3 >/dev/null || { echo "[SKIP] python3 missing"; exit 0; }
D=$OUT/nf
mkdir -p $D
W=$D/nf.wtc
cp tests/unit/sim_notes.wtc $W
bin/wtcc ${SIM_CFLAGS:-} $W -o $D/nf >$D/build 2>&1 || { bad "build: $(cat $D/build)"; exit 1; }
# the 2004 preset with a slow runtime (20 us a child, as sim_notes.sh): the cut-off
# as written (every depth spawns) is too fine. L_intra given: a sweep sets L alone
# (6.1), a file without L_intra would take it from L
{ sed 's/^t_child = .*/t_child = 20e-6/' machines/ethernet-mpich-2004.conf
  echo "L_intra = 50e-6"; } > $D/m.conf
sel="--wtc-modes=dynamic,steal --wtc-procs=1,16 --wtc-machine=$D/m.conf"
timeout 120 $D/nf.predict $sel --wtc-sample=all --wtc-save-profile=$D/nf.prof 12 5000 \
    >/dev/null 2>$D/rec.err || { bad "record: $(cat $D/rec.err)"; exit 1; }
pred() { # output-file option... (from the profile; stderr to output-file.err)
    f=$1; shift
    timeout 120 $D/nf.predict --wtc-profile=$D/nf.prof "$@" >$f 2>$f.err \
        || bad "predict $*: status $?: $(cat $f.err)"
}
pred $D/table $sel
pred $D/json $sel --wtc-format=json
pred $D/csv $sel --wtc-format=csv
grep ': note: ' $D/table > $D/table.notes
n=$(wc -l < $D/table.notes)
grep -q "^$W:28:5: note: cut-off too fine: " $D/table.notes \
    && pass "table: $n notes, a cut-off note at $W:28:5" \
    || bad "table: no cut-off note at $W:28:5: $(sed -n '/^advice at source/,/^$/p' $D/table)"

# JSON: valid; each note's fields are what its text (the table's line) says
python3 -m json.tool $D/json >/dev/null && pass "json: valid (python3 -m json.tool)" \
    || bad "json: invalid: $(head -c 300 $D/json)"
cat > $D/check.py <<'EOF'
import json, sys
words = {"cutoff-fine": "cut-off too fine: ", "cutoff-coarse": "cut-off too coarse: ",
         "mode": "mode: ", "masters": "masters: ", "batch": "batch: "}
def check(notes, lines, ctx=""):
    """notes (JSON) against lines (the table's): same text, and fields the text says"""
    assert [x["text"] for x in notes] == lines, ([x["text"] for x in notes], lines)
    for x in notes:
        r, w, t = x["recommended"], x["replaced"], x["text"]
        head = "%s:%d:%d: note: %s%s" % (x["file"], x["line"], x["column"], ctx, words[x["kind"]])
        assert t.startswith(head), (head, t)
        assert " is predicted %.6f s" % r["predicted_s"] in t, t
        assert " against %.6f s " % w["predicted_s"] in t, t
        assert ": %.6f s (%.1f %%) faster" % (x["gain_s"], x["gain_pct"]) in t, t
        # JSON's figures have 9 digits
        assert abs(x["gain_s"] - (w["predicted_s"] - r["predicted_s"])) < 1e-8 * w["predicted_s"], x
        assert abs(x["gain_pct"] - 100 * x["gain_s"] / w["predicted_s"]) < 1e-3, x
        assert x["gain_pct"] >= 5, x
        for k in ("mode", "procs", "masters", "batch"):
            assert k in r and k in w, x
        if r["depth"] is not None:
            assert r["clause"].endswith("wtc_depth < %d" % r["depth"]) and r["clause"] in t, x
        if r["option"] is not None:
            assert r["option"] in t, x
if __name__ == "__main__":
    d = json.load(open(sys.argv[1]))
    lines = open(sys.argv[2]).read().splitlines()
    check(d["notes"], lines)
    assert d["notes_none"] is None, d["notes_none"]
    assert any(x["kind"] == "cutoff-fine" and x["recommended"]["depth"] > 0 for x in d["notes"])
EOF
python3 $D/check.py $D/json $D/table.notes \
    && pass "json: the $n notes are the table's (text, place, kind, seconds, gain)" \
    || bad "json notes differ from the table's"
cmp -s $D/json.err $D/table.notes && pass "json: the notes on stderr, as the table's lines" \
    || bad "json: stderr is not the table's notes: $(cat $D/json.err)"

# CSV: stdout is one table (as many fields on every line, no note); the notes on stderr
rows=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["settings"]))' $D/json)
awk -F, -v rows="$rows" 'NR == 1 { n = NF; ok = ($1 == "mode") } NF != n || /note:/ { ok = 0 }
         END { exit !(ok && NR == rows + 1) }' $D/csv \
    && pass "csv: stdout is the header and its $rows rows, nothing else" || bad "csv: $(cat $D/csv)"
cmp -s $D/csv.err $D/table.notes && pass "csv: the notes on stderr, as the table's lines" \
    || bad "csv: stderr is not the table's notes: $(cat $D/csv.err)"

# nothing to advise (cut at depth 4, simple mode): an empty array, and why, as the table
sed 's/^cond: d > 0;/cond: wtc_depth < 4;/; s/^mode: dynamic;/mode: simple;/' $W > $D/good.wtc
bin/wtcc ${SIM_CFLAGS:-} $D/good.wtc -o $D/good >/dev/null 2>&1 || bad "build the good variant"
good="--wtc-modes=simple --wtc-procs=1,2,4,8,16 --wtc-machine=$D/m.conf"
timeout 120 $D/good.predict $good --wtc-sample=all --wtc-save-profile=$D/good.prof 14 500 \
    >$D/good.table 2>/dev/null
timeout 120 $D/good.predict --wtc-profile=$D/good.prof $good --wtc-format=json \
    >$D/good.json 2>$D/good.err
why=$(sed -n 's/^advice at source lines: none (\(.*\))$/\1/p' $D/good.table)
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["notes"] == [] and d["notes_none"] == sys.argv[2] and sys.argv[2], d["notes_none"]' \
    $D/good.json "$why" && [ ! -s $D/good.err ] \
    && pass "json: no note: [] and why ($why)" \
    || bad "json without notes: $(grep notes $D/good.json) table: '$why' stderr: $(cat $D/good.err)"

# --wtc-vary: the notes of each value, naming it; those of L = 1e-4 are a plain
# prediction's on a machine file with L = 1e-4 (the same profile: the same figures)
pred $D/vary $sel --wtc-vary=L:1e-6,1e-4
sed -n '/^advice at source lines .*, for each value of L:$/,/^$/p' $D/vary \
    | grep ': note: ' > $D/vary.notes
sed 's/^L = .*/L = 1e-4/' $D/m.conf > $D/m4.conf
pred $D/table4 --wtc-modes=dynamic,steal --wtc-procs=1,16 --wtc-machine=$D/m4.conf
grep ': note: ' $D/table4 | sed 's/: note: /: note: L = 0.0001: /' > $D/table4.notes
grep -q ': note: L = 1e-06: ' $D/vary.notes && grep ': note: L = 0.0001: ' $D/vary.notes \
    | cmp -s - $D/table4.notes && [ -s $D/table4.notes ] \
    && pass "vary: notes for each value of L; L = 1e-4's are the plain prediction's at L = 1e-4" \
    || bad "vary notes: $(cat $D/vary.notes) --- plain at L = 1e-4: $(cat $D/table4.notes)"
pred $D/vary.json $sel --wtc-vary=L:1e-6,1e-4 --wtc-format=json
cat > $D/vcheck.py <<'EOF'
import json, sys
sys.path.insert(0, sys.argv[3])
from check import check
d = json.load(open(sys.argv[1]))
lines = open(sys.argv[2]).read().splitlines()
for p in d["predictions"]:
    ctx = "L = %g: " % p["L"]
    mine = [l for l in lines if ": note: " + ctx in l]
    check(p["notes"], mine, ctx)
    assert p["notes"] or p["notes_none"], p
assert sum(len(p["notes"]) for p in d["predictions"]) == len(lines)
EOF
python3 $D/vcheck.py $D/vary.json $D/vary.notes $D \
    && pass "vary json: each prediction's notes are the table's for its value" \
    || bad "vary json notes differ from the table's"
pred $D/vary.csv $sel --wtc-vary=L:1e-6,1e-4 --wtc-format=csv
[ -s $D/vary.notes ] && cmp -s $D/vary.csv.err $D/vary.notes && pass "vary csv: the notes of each value on stderr" \
    || bad "vary csv: stderr is not the sweep's notes: $(cat $D/vary.csv.err)"
exit $fail
