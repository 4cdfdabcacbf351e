#!/bin/sh
# --wtc-depth=LIST records each depth but the deepest by a run of its own (runtime/sim/
# record.c record_apart; doc/predictor.md section 10): recording to the deepest depth
# times every call above it, and that time would slow a shallower cut-off's leaf tasks
# (fib 32 to depth 20: its depth-2 rows 7 times too slow). The program reads its size
# from standard input, which each run must read from its start.
. tests/unit/sim_common.inc
D=$OUT/sim_apart
mkdir -p $D
bin/wtcc ${SIM_CFLAGS:-} tests/unit/sim_apart.wtc -o $D/ap >/dev/null 2>&1 || { bad "build"; exit 1; }
echo 27 >$D/in.txt
pred() { timeout 120 $D/ap.predict --wtc-modes=simple --wtc-procs=1,4 "$@"; }
# rows of a CSV report: procs, messages, bytes per depth (simple mode: the tree's)
rows() { awk -F, -v d=$1 'NR > 1 && $NF == d { print $2, $14, $15 }' $2; }
p1() { awk -v d=$1 '$1 == "simple" && $2 == 1 && $NF == d { print $5 }' $2; }

# 1. the list: depth 2 recorded apart, read the same input (its rows are those of
#    --wtc-depth=2 alone; a run that read nothing would have no region, and a run that
#    failed is said on stderr), and it carries no recording costs of depth 16's 228 k
#    calls
pred --wtc-depth=2,16 <$D/in.txt >$D/list.txt 2>$D/e.txt; rc=$?
pred --wtc-depth=2,16 --wtc-format=csv <$D/in.txt >$D/list.csv 2>>$D/e.txt
pred --wtc-depth=2 --wtc-format=csv <$D/in.txt >$D/two.csv 2>>$D/e.txt
pred --wtc-depth=16 --wtc-format=csv <$D/in.txt >$D/sixteen.csv 2>>$D/e.txt
if [ $rc = 0 ] && grep -q '^  (depth 2 of --wtc-depth was recorded by a run of its own, not cut from this recording' \
        $D/list.txt && [ ! -s $D/e.txt ]; then
    pass "--wtc-depth=2,16: depth 2 recorded by a run of its own, said in the report"
else
    bad "--wtc-depth=2,16: status $rc: $(grep -A1 '^recorded' $D/list.txt) $(cat $D/e.txt)"
fi
l2=$(rows 2 $D/list.csv) a2=$(rows 2 $D/two.csv) l16=$(rows 16 $D/list.csv) a16=$(rows 16 $D/sixteen.csv)
[ -n "$l2" ] && [ "$l2" = "$a2" ] && [ "$l16" = "$a16" ] && grep -q '^simple,4,' $D/two.csv \
    && pass "each depth's messages and bytes are its own recording's ($(echo $l2 | tr '\n' ' '))" \
    || bad "rows: list depth 2 '$l2' alone '$a2'; list depth 16 '$l16' alone '$a16'"
# the sequential time of depth 2 (P = 1) is its own recording's, not depth 16's: cut
# from the deep recording the two were the same number (the pipe case below). Which is
# the larger is not asserted: depth 16's recording costs (0.0055 s against 0.0011 s when
# this was written) are now within this VM's noise of depth 2's (0.0007-0.0037 s).
t2=$(p1 2 $D/list.txt) t16=$(p1 16 $D/list.txt)
awk -v a="$t2" -v b="$t16" 'BEGIN { exit !(a > 0 && b > 0 && a != b) }' \
    && pass "depth 2's sequential time $t2 s is its own recording's (depth 16's $t16 s)" \
    || bad "depth 2's sequential time '$t2' s against depth 16's '$t16' s"

pred --wtc-depth=2,16 --wtc-format=json <$D/in.txt >$D/list.json 2>/dev/null
grep -q '^  "depths_recorded_apart": \[2\],$' $D/list.json \
    && pass "the JSON report names the depths recorded apart" \
    || bad "JSON: $(grep depths_recorded_apart $D/list.json)"

# --wtc-vary's table names the depth of each value's best
pred --wtc-depth=2,16 --wtc-vary=L:1e-6,1e-4 <$D/in.txt >$D/vary.txt 2>/dev/null
grep -q ' speedup  depth$' $D/vary.txt && [ "$(grep -cE ' (2|16)$' $D/vary.txt)" = 2 ] \
    && pass "--wtc-vary with --wtc-depth: a depth column" \
    || bad "--wtc-vary table: $(grep -A3 'what-if' $D/vary.txt)"

# 2. standard input that cannot be read again (a pipe): every depth is cut from the
#    deepest recording, as before, with a note
cat $D/in.txt | pred --wtc-depth=2,16 >$D/pipe.txt 2>$D/e.txt; rc=$?
t2=$(p1 2 $D/pipe.txt) t16=$(p1 16 $D/pipe.txt)
[ $rc = 0 ] && grep -q "note: the program's standard input (a pipe, .*) cannot be read again" $D/e.txt &&
    ! grep -q 'recorded by a run of its own' $D/pipe.txt && [ -n "$t2" ] && [ "$t2" = "$t16" ] \
    && pass "input from a pipe: cut from the deepest recording (P = 1 $t2 s at both), with a note" \
    || bad "pipe: status $rc, P = 1 '$t2' / '$t16': $(cat $D/e.txt)"

# standard input that starts inside a file: each run reads it from there (a second
# recording read the file from its start: 5 where 27 was meant; a helper's bug hunt);
# the runs leave nothing in TMPDIR
printf '5\n27\n' >$D/in2.txt
mkdir -p $D/tmp && rm -rf $D/tmp/*
{ read -r skip; TMPDIR=$D/tmp pred --wtc-depth=2,16 --wtc-format=csv >$D/mid.csv 2>$D/e.txt; } <$D/in2.txt
# (fib 5 and fib 27 send the same messages at this cut: their sequential times differ)
seq1() { awk -F, -v d=$1 'NR > 1 && $2 == 1 && $NF == d { print $5 }' $2; }
m2=$(seq1 2 $D/mid.csv) a2=$(seq1 2 $D/two.csv)
awk -v m="$m2" -v a="$a2" 'BEGIN { exit !(m > 0.3 * a && a > 0.3 * m) }' && [ ! -s $D/e.txt ] &&
    [ -z "$(ls -A $D/tmp)" ] \
    && pass "input read from its second line: each run reads 27 there ($m2 s, alone $a2 s); TMPDIR left empty" \
    || bad "input from inside a file: depth 2 sequential $m2 s against $a2 s; $(cat $D/e.txt) $(ls -A $D/tmp)"

# a run that cannot be made (no directory for its profile): cut, with a warning
TMPDIR=$D/none pred --wtc-depth=2,16 <$D/in.txt >$D/nodir.txt 2>$D/e.txt; rc=$?
t2=$(p1 2 $D/nodir.txt) t16=$(p1 16 $D/nodir.txt)
[ $rc = 0 ] && grep -q "warning: cannot make a directory for the recordings of --wtc-depth" $D/e.txt &&
    [ "$(wc -l <$D/e.txt)" = 1 ] && [ -n "$t2" ] && [ "$t2" = "$t16" ] \
    && pass "no directory for the runs: cut from the deepest recording, with a warning" \
    || bad "no directory: status $rc, P = 1 '$t2' / '$t16': $(cat $D/e.txt)"

# 3. a profile holds the recordings apart beside the deepest: read with the list, the
#    same report; read with a depth it does not hold apart, that depth is cut
notime() { grep -v '^simulator: \|^prediction took '; }
pred --wtc-depth=2,16 --wtc-save-profile=$D/ap.prof <$D/in.txt >$D/saved.txt 2>$D/e.txt
pred --wtc-depth=2,16 --wtc-profile=$D/ap.prof >$D/prof.txt 2>>$D/e.txt; rc=$?
[ $rc = 0 ] && [ ! -s $D/e.txt ] && [ "$(notime <$D/saved.txt)" = "$(notime <$D/prof.txt)" ] &&
    grep -q 'depth 2 of --wtc-depth was recorded by a run of its own' $D/prof.txt &&
    [ "$(grep -c '^depth ' $D/ap.prof)" = 1 ] \
    && pass "a profile holds depth 2's recording apart: read back, the same report" \
    || bad "profile: status $rc: $(diff $D/saved.txt $D/prof.txt | head -5) $(cat $D/e.txt)"
pred --wtc-depth=3,16 --wtc-profile=$D/ap.prof >$D/prof.txt 2>$D/e.txt; rc=$?
[ $rc = 0 ] && [ "$(p1 3 $D/prof.txt)" = "$(p1 16 $D/prof.txt)" ] &&
    ! grep -q 'recorded by a run of its own' $D/prof.txt \
    && pass "a depth the profile has not apart (3) is cut from the deepest" \
    || bad "profile, depth 3: status $rc: $(cat $D/e.txt)"
exit $fail
