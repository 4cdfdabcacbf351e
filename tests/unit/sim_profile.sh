#!/bin/sh
# Profiles and cut-off depths (doc/predictor.md "Profiles", "--wtc-depth", "--wtc-auto"):
# a prediction from a saved profile is the direct prediction (same report, timing lines
# aside); another program's, another version's and damaged profiles are refused with one
# clear line; --wtc-depth replaces cond: (never evaluated) in the predictor and the
# program, the predictor sweeps it from one recording (sim_cut.c: worked numbers); the
# program's --wtc-auto runs the best setting of the profile's table for its P.
. tests/unit/sim_common.inc
[ -x bin/wtcc ] || { bad "bin/wtcc ${SIM_CFLAGS:-} missing: run make"; exit 1; }
D=$OUT/profile
rm -rf $D && mkdir -p $D

cc $CFLAGS -Iruntime -Iruntime/common -Iruntime/sim -o $D/sim_cut tests/unit/sim_cut.c $LIB -lm \
    || { bad "build sim_cut"; exit 1; }
$D/sim_cut > $D/cut.txt && pass "sim_tree_cut: worked numbers ($(grep -c PASS $D/cut.txt) checks)" \
    || bad "sim_tree_cut: $(grep FAIL $D/cut.txt | head -3)"

for p in samples/nqueens.wtc samples/fib.wtc tests/unit/sim_depth.wtc \
    tests/unit/sim_depth_direct.wtc; do
    b=$(basename $p .wtc)
    bin/wtcc ${SIM_CFLAGS:-} $p -o $D/$b >$D/$b.build 2>&1 || { bad "build $p: $(cat $D/$b.build)"; exit 1; }
done
notime() { grep -v '^simulator: \|^prediction took '; }

# 1. save, then predict from the profile: the same report (table and csv, depths too)
opts="--wtc-procs=1,2,4,8 --wtc-depth=1,2,3"
timeout 120 $D/nqueens.predict $opts --wtc-save-profile=$D/nq.prof 11 >$D/direct.txt 2>$D/e.txt
rc=$?
[ $rc = 0 ] && [ -s $D/nq.prof ] && pass "--wtc-save-profile writes $(wc -c <$D/nq.prof) bytes" \
    || bad "save: status $rc: $(cat $D/e.txt)"
ls $D | grep -q 'tmp' && bad "a temporary file is left: $(ls $D)"
timeout 60 $D/nqueens.predict $opts --wtc-profile=$D/nq.prof >$D/from.txt 2>$D/e.txt
rc=$?
if [ $rc = 0 ] && [ "$(notime <$D/direct.txt)" = "$(notime <$D/from.txt)" ] &&
    grep -q '^prediction took .*reading the profile' $D/from.txt; then
    pass "--wtc-profile: the same report as the direct prediction ($(wc -l <$D/from.txt) lines)"
else
    bad "--wtc-profile differs (status $rc): $(diff $D/direct.txt $D/from.txt | head -5)"
fi
grep -q '^best: .*, depth [123]: ' $D/from.txt && pass "the best setting names its depth" \
    || bad "best line: $(grep '^best' $D/from.txt)"
timeout 60 $D/nqueens.predict $opts --wtc-profile=$D/nq.prof --wtc-format=csv >$D/a.csv 2>/dev/null
timeout 60 $D/nqueens.predict $opts --wtc-profile=$D/nq.prof --wtc-format=csv >$D/b.csv 2>/dev/null
head -1 $D/a.csv | grep -q ',regions_s,runs,spread,depth$' && cmp -s $D/a.csv $D/b.csv &&
    [ "$(cut -d, -f19 $D/a.csv | sort -u | tr '\n' ' ')" = "1 2 3 depth " ] \
    && pass "CSV: a depth column, every depth, deterministic from a profile" \
    || bad "CSV: $(head -2 $D/a.csv)"
# read back without --wtc-depth, a profile recorded with one is predicted at its depth
# (3, the recording's), not as the program's cond: (re-saving it dropped the depth from
# the --wtc-auto table, and --wtc-auto then ran the cond:; a helper's bug hunt)
timeout 60 $D/nqueens.predict --wtc-procs=2,4 --wtc-profile=$D/nq.prof \
    --wtc-save-profile=$D/nq2.prof >$D/o.txt 2>$D/e.txt
rc=$?
[ $rc = 0 ] && grep -q '^best: .*, depth 3: ' $D/o.txt && [ "$(grep -c '^best 2 .* 3 ' $D/nq2.prof)" = 1 ] \
    && ! grep -q '^best .* -1 ' $D/nq2.prof \
    && pass "a profile recorded to depth 3, read back without --wtc-depth: predicted and saved at depth 3" \
    || bad "a re-saved profile's depth: status $rc: $(grep '^best' $D/o.txt $D/nq2.prof | head -4)"
# a depth deeper than the recording cannot be cut from it
timeout 60 $D/nqueens.predict --wtc-depth=5 --wtc-profile=$D/nq.prof >/dev/null 2>$D/e.txt
rc=$?
[ $rc = 2 ] && grep -q 'wtc-depth=5: the recording (to depth 3) was cut above' $D/e.txt \
    && pass "a depth beyond the recording is refused" || bad "depth 5: status $rc: $(cat $D/e.txt)"
ok=1
for l in ,1 1, 1,,2 -1 x 1,2x; do
    timeout 60 $D/nqueens.predict --wtc-depth=$l --wtc-procs=2 11 >/dev/null 2>$D/e.txt
    [ $? = 2 ] && grep -q "bad list '$l'" $D/e.txt || { ok=0; bad "--wtc-depth=$l: $(cat $D/e.txt)"; }
done
[ $ok = 1 ] && pass "bad --wtc-depth lists refused (,1 1, 1,,2 -1 x 1,2x)"
# recording options and program arguments do not go with a profile
timeout 60 $D/nqueens.predict --wtc-profile=$D/nq.prof 11 >/dev/null 2>$D/e.txt
[ $? = 2 ] && grep -q 'program arguments' $D/e.txt && pass "arguments with --wtc-profile refused" \
    || bad "arguments with --wtc-profile: $(cat $D/e.txt)"

# 2. 100 k tasks: fib 41 is 114,627 calls; reading its profile takes well under 1 s
timeout 300 $D/fib.predict --wtc-procs=1,2,4 --wtc-save-profile=$D/fib.prof 41 >$D/fd.txt 2>/dev/null
timeout 60 $D/fib.predict --wtc-procs=1,2,4 --wtc-profile=$D/fib.prof >$D/fp.txt 2>/dev/null
calls=$(sed -n 's/^recorded: .* \([0-9]*\) calls.*/\1/p' $D/fp.txt)
rd=$(sed -n 's/.*(reading the profile \([0-9.]*\) s.*/\1/p' $D/fp.txt)
if [ "${calls:-0}" -gt 100000 ] && [ "$(notime <$D/fd.txt)" = "$(notime <$D/fp.txt)" ] &&
    awk -v r="$rd" 'BEGIN { exit !(r != "" && r < 1) }'; then
    pass "fib 41 ($calls calls): read in $rd s, the same report"
else
    bad "fib 41 profile: $calls calls, read in '$rd' s: $(diff $D/fd.txt $D/fp.txt | head -3)"
fi

# 3. refused profiles: one line on stderr, status 2, never a crash
refused() { # label, file, pattern
    timeout 60 $D/nqueens.predict --wtc-procs=2 --wtc-profile=$2 >$D/o.txt 2>$D/e.txt
    rc=$?
    if [ $rc = 2 ] && [ "$(wc -l <$D/e.txt)" = 1 ] && grep -q "$3" $D/e.txt && [ ! -s $D/o.txt ]
    then pass "$1: $(cut -c1-90 $D/e.txt)"
    else bad "$1: status $rc: $(cat $D/e.txt)"; fi
}
refused "another program's profile" $D/fib.prof 'profile of another program (fib.wtc'
v=$(sed -n '1s/^wtc-profile \([0-9]*\)$/\1/p' $D/nq.prof)
sed "1s/ $v\$/ $((v - 1))/" $D/nq.prof >$D/vold.prof
refused "an older version" $D/vold.prof "format version $((v - 1)), this runtime reads version $v"
head -c 5000 $D/nq.prof >$D/cut.prof
refused "a truncated file" $D/cut.prof 'damaged profile (truncated'
head -c $(($(wc -c <$D/nq.prof) - 3)) $D/nq.prof >$D/cut2.prof
refused "a file cut in its last line" $D/cut2.prof 'damaged profile'
size=$(wc -c <$D/nq.prof)
for at in 200 $((size / 2)) $((size - 40)); do
    cp $D/nq.prof $D/flip.prof
    printf '\377' | dd of=$D/flip.prof bs=1 seek=$at conv=notrunc 2>/dev/null
    refused "a flipped byte at $at of $size" $D/flip.prof 'damaged profile'
done
sed 's/^0x/1x/' $D/nq.prof >$D/digit.prof
refused "altered numbers" $D/digit.prof 'damaged profile (checksum'
: >$D/empty.prof
refused "an empty file" $D/empty.prof 'not a wtc profile'
refused "a missing file" $D/none.prof 'cannot open'
head -1 $D/nq.prof >$D/first.prof
refused "its first line alone (was: not a wtc profile)" $D/first.prof 'damaged profile (truncated'

# 4. --wtc-depth replaces cond: the predictor records 1+2+4+8 calls above depth 4, 16
#    leaf tasks, and the counting cond: is never evaluated
timeout 60 $D/sim_depth.predict --wtc-procs=2 --wtc-sample=all >$D/o.txt 2>$D/e.txt
grep -q 'evals 511' $D/e.txt && pass "without --wtc-depth the cond: runs (511 times)" \
    || bad "cond: evaluations: $(cat $D/e.txt)"
timeout 60 $D/sim_depth.predict --wtc-procs=2 --wtc-depth=3 --wtc-sample=all >$D/o.txt 2>$D/e.txt
grep -q 'evals 0' $D/e.txt && grep -q '^recorded: 1 parallel region, 31 calls, 16 leaf tasks' $D/o.txt \
    && pass "predictor --wtc-depth=3: cond: never evaluated, 31 calls, 16 leaf tasks" \
    || bad "predictor --wtc-depth=3: $(cat $D/e.txt) $(grep recorded $D/o.txt)"
# the program: depth 0 sends nothing away, depth 2 does; cond: never evaluated
calls_out() { awk '$1 == "0" && $2 == "worker" { print $10 }' $D/e.txt; }
timeout 60 mpiexec -n 2 $D/sim_depth --wtc-depth=0 --wtc-stats >$D/o.txt 2>$D/e.txt
c0=$(calls_out); e0=$(grep -c 'evals 0' $D/e.txt)
timeout 60 mpiexec -n 2 $D/sim_depth --wtc-depth=2 --wtc-stats >$D/o.txt 2>$D/e.txt
c2=$(calls_out); e2=$(grep -c 'evals 0' $D/e.txt)
[ "$c0" = 0 ] && [ "${c2:-0}" -gt 0 ] && [ "$e0$e2" = 11 ] && [ "$(cat $D/o.txt)" = 1024 ] \
    && pass "program --wtc-depth: 0 calls sent at depth 0, $c2 at depth 2, cond: never evaluated" \
    || bad "program --wtc-depth: calls out $c0 / $c2, evals-0 lines $e0 $e2"
# a direct call between recursive functions goes one level down: sort's merge opens its
# par at its caller's depth + 1. Each depth cut from one recording to depth 4 is what
# recording at that depth gives (simple mode: the messages and bytes are the tree's).
# A profile is cut: a run with a list records its shallower depths apart
# (tests/unit/sim_apart.sh)
rows() { awk -F, -v d=$1 'NR > 1 && $NF == d { print $1, $2, $14, $15 }' $D/o.txt; }
timeout 60 $D/sim_depth_direct.predict --wtc-modes=simple --wtc-procs=4,8 --wtc-depth=4 \
    --wtc-save-profile=$D/direct4.prof >/dev/null 2>$D/e.txt
timeout 60 $D/sim_depth_direct.predict --wtc-modes=simple --wtc-procs=4,8 --wtc-depth=1,2,3,4 \
    --wtc-profile=$D/direct4.prof --wtc-format=csv >$D/o.txt 2>>$D/e.txt
rc=$?
cut=$(for d in 1 2 3 4; do echo "$d: $(rows $d)"; done)
direct=$(for d in 1 2 3 4; do
    timeout 60 $D/sim_depth_direct.predict --wtc-modes=simple --wtc-procs=4,8 --wtc-depth=$d \
        --wtc-format=csv >$D/o.txt 2>/dev/null
    echo "$d: $(rows $d)"; done)
p8=$(echo "$cut" | grep -c '^simple 8 \|: simple 8 ')
if [ $rc = 0 ] && [ "$cut" = "$direct" ] && [ "$p8" = 4 ] &&
    [ "$(echo "$cut" | sed -n 's/.*simple 8 //p' | sort -u | wc -l)" = 4 ]; then
    pass "--wtc-depth=1,2,3,4 cut from a profile of depth 4 with a direct call: each cut equals its own recording"
else
    bad "--wtc-depth with a direct call: status $rc $(head -2 $D/e.txt); cut: $cut; direct: $direct"
fi

# 5. --wtc-auto: the best setting of the table for this P, one line on stderr
timeout 120 $D/nqueens.predict --wtc-procs=1,2,3 --wtc-depth=1,2,3 --wtc-format=csv \
    --wtc-save-profile=$D/auto.prof 12 >$D/auto.csv 2>/dev/null
for np in 2 3; do
    best=$(awk -F, -v P=$np '$2 == P && (b == "" || $5 < t) { t = $5; b = $1 " " $NF }
        END { print b }' $D/auto.csv)
    timeout 60 mpiexec -n $np $D/nqueens --wtc-auto=$D/auto.prof 12 >$D/o.txt 2>$D/e.txt
    rc=$?
    got=$(sed -n 's/^wtc: auto from .*, P = [0-9]*: --wtc-mode=\([a-z]*\).* --wtc-depth=\([0-9]*\), predicted.*/\1 \2/p' $D/e.txt)
    [ $rc = 0 ] && [ "$got" = "$best" ] && [ "$(grep -c '^wtc: auto' $D/e.txt)" = 1 ] &&
        grep -q '= 14200 OK' $D/o.txt \
        && pass "--wtc-auto at -n $np runs the table's best ($got)" \
        || bad "--wtc-auto at -n $np: status $rc, chose '$got', best '$best': $(cat $D/e.txt)"
done
# another machine's table without running the program: read, predict, save again
timeout 60 $D/nqueens.predict --wtc-procs=2 --wtc-depth=1,2,3 --wtc-machine=loopback-default \
    --wtc-profile=$D/auto.prof --wtc-save-profile=$D/loop.prof >/dev/null 2>$D/e.txt
timeout 60 mpiexec -n 2 $D/nqueens --wtc-auto=$D/loop.prof --wtc-machine=loopback-default 12 \
    >$D/o.txt 2>$D/e.txt
[ $? = 0 ] && grep -q '^wtc: auto from .*(machine loopback-default), P = 2' $D/e.txt &&
    grep -q '= 14200 OK' $D/o.txt \
    && pass "a profile saved again for another machine: --wtc-auto --wtc-machine=loopback-default" \
    || bad "re-saved profile: $(cat $D/e.txt)"
autobad() { # label, np, pattern, options...
    label=$1 np=$2 pat=$3; shift 3
    timeout 60 mpiexec -n $np $D/nqueens "$@" 12 >$D/o.txt 2>$D/e.txt
    rc=$?
    [ $rc != 0 ] && [ $rc != 124 ] && [ "$(grep -c 'wtc: error' $D/e.txt)" = 1 ] &&
        grep -q "$pat" $D/e.txt && [ ! -s $D/o.txt ] \
        && pass "--wtc-auto refused, $label: $(grep 'wtc: error' $D/e.txt | cut -c1-80)" \
        || bad "--wtc-auto, $label: status $rc: $(cat $D/e.txt)"
}
autobad "a P not in its table" 4 'no setting for P = 4 (it has P = 1, 2, 3' --wtc-auto=$D/auto.prof
autobad "another machine" 2 "computed for machine" --wtc-auto=$D/auto.prof --wtc-machine=other
autobad "with --wtc-mode" 2 "give none of them" --wtc-auto=$D/auto.prof --wtc-mode=steal
autobad "a damaged profile" 2 "damaged profile" --wtc-auto=$D/flip.prof
autobad "another program's" 2 "another program" --wtc-auto=$D/fib.prof
autobad "--wtc-machine alone" 2 "needs --wtc-auto" --wtc-machine=x
autobad "--wtc-depth=-1" 2 "expected an integer from 0 to 100000" --wtc-depth=-1
autobad "--wtc-depth=100001" 2 "expected an integer from 0 to 100000" --wtc-depth=100001
# a table edited by hand, its checksum made again (profile_resum.c): values that
# prog.predict never writes are refused (mode 'bogus' ran as simple, a batch of -5 went
# through, a depth of 99999999999 became 1215752191); the unedited file re-summed works
cc $CFLAGS -Iruntime -Iruntime/common -o $D/resum tests/unit/profile_resum.c $LIB -lm \
    || bad "build profile_resum"
cp $D/auto.prof $D/same.prof && $D/resum $D/same.prof
timeout 60 mpiexec -n 2 $D/nqueens --wtc-auto=$D/same.prof 12 >$D/o.txt 2>$D/e.txt \
    && grep -q '^wtc: auto from' $D/e.txt && pass "a profile re-summed unedited still works" \
    || bad "re-summed profile: $(cat $D/e.txt)"
for edit in 's/^best 2 [a-z]*/best 2 bogus/' 's/^\(best 2 [a-z]* [0-9]*\) [0-9]*/\1 -5/' \
    's/^\(best 2 [a-z]* [0-9]* [0-9]*\) [-0-9]*/\1 99999999999/' 's/^best 2 /best 0 /'; do
    sed "$edit" $D/auto.prof >$D/edit.prof && $D/resum $D/edit.prof
    cmp -s $D/auto.prof $D/edit.prof && { bad "edit '$edit' changed nothing"; continue; }
    autobad "an edited table ($edit)" 2 "damaged profile (auto table line" --wtc-auto=$D/edit.prof
done
# the same for the recording: a negative or not-a-number time (predicted -1 s, nan s)
# a node's depth out of range (2147483647 crashed the report, -100 wrote outside an
# array; a helper's bug hunt): the line after "nodes N" is the first node
for edit in 's/^main_time .*/main_time -0x1p+20/' 's/^main_time .*/main_time nan/' \
    '/^nodes /{n;s/^\([^ ]* [^ ]* [^ ]*\) [-0-9]*/\1 2147483647/}' \
    '/^nodes /{n;s/^\([^ ]* [^ ]* [^ ]*\) [-0-9]*/\1 -100/}'; do
    sed "$edit" $D/auto.prof >$D/edit.prof && $D/resum $D/edit.prof
    timeout 20 $D/nqueens.predict --wtc-profile=$D/edit.prof >$D/o.txt 2>$D/e.txt; rc=$?
    [ $rc = 2 ] && [ ! -s $D/o.txt ] && grep -q 'damaged profile' $D/e.txt \
        && pass "--wtc-profile, an edited recording ($edit): refused" \
        || bad "--wtc-profile, $edit: status $rc: $(head -c 200 $D/e.txt)"
done
# the sampling and checks lines and the recorded depth, each value out of the range a
# recording gives it: a leaf time of nan ("total nan s", JSON "leaf_time_s": nan), a leaf
# count of -5, a time of -1, a first timing of -1 (a spread of -100 %), recorded_depth
# -5 or 5 were all predicted with status 0 (a helper's bug hunt). 'F N V' sets field N
# of line F (after its keyword) to V
field() { awk -v F=$1 -v N=$2 -v V=$3 '$1 == F && !done { $(N + 1) = V; done = 1 } { print }'; }
cp $D/auto.prof $D/nqueens.prof
for e in "sampling 3 nan" "sampling 3 -0x1p+0" "sampling 1 -5" "sampling 2 99999999" \
    "sampling 4 0x1p+0" "sampling 6 3" "sampling 8 inf" "sampling 9 4294967296" \
    "sampling 13 -1" "sampling 17 -0x1p+0" "checks 1 -0x1p+0" "checks 2 nan" "checks 3 -1" \
    "checks 6 0x1p+1" "checks 8 7" "checks 9 -0x1p+0" "recorded_depth 1 -5" \
    "recorded_depth 1 5" "fib recorded_depth 1 -5" "fib recorded_depth 1 5"; do
    set -- $e
    prog=nqueens
    [ $1 = fib ] && prog=fib && shift # fib.prof: recorded with its cond: (-1), no apart
    field "$@" <$D/$prog.prof >$D/edit.prof && $D/resum $D/edit.prof
    cmp -s $D/$prog.prof $D/edit.prof && { bad "edit '$e' changed nothing"; continue; }
    timeout 60 $D/$prog.predict --wtc-profile=$D/edit.prof >$D/o.txt 2>$D/e.txt; rc=$?
    [ $rc = 2 ] && [ ! -s $D/o.txt ] && grep -q 'damaged profile' $D/e.txt \
        && pass "--wtc-profile, an edited sampling figure ($e): refused" \
        || bad "--wtc-profile, $e: status $rc: $(head -c 200 $D/e.txt)"
done
# a recording whose every time is 0 (in range) would print a speed-up of 0 s / 0 s:
# no NaN or inf reaches the report, the setting is named on stderr, status 2
awk '/^main_time/ { $2 = "0x0p+0" } /^(nodes|pars) / { k = $1; n = $2; print; next }
     n > 0 { $1 = "0x0p+0"; if (k == "pars") $6 = "0x0p+0"; n-- } { print }' \
    $D/auto.prof >$D/edit.prof && $D/resum $D/edit.prof
timeout 20 $D/nqueens.predict --wtc-profile=$D/edit.prof >$D/o.txt 2>$D/e.txt; rc=$?
[ $rc = 2 ] && ! grep -qi 'nan\|inf' $D/o.txt && grep -q 'no finite prediction' $D/e.txt \
    && pass "every time 0: $(cat $D/e.txt)" \
    || bad "every time 0: status $rc: $(grep -i 'nan\|inf' $D/o.txt | head -2)" \
        "$(head -c 200 $D/e.txt)"
# a FIFO named as the profile is refused at once (it hung every rank until killed)
rm -f $D/fifo.prof && mkfifo $D/fifo.prof
autobad "a FIFO" 2 "fifo.prof: not a regular file" --wtc-auto=$D/fifo.prof
timeout 20 $D/nqueens.predict --wtc-profile=$D/fifo.prof >/dev/null 2>$D/e.txt; rc=$?
[ $rc = 2 ] && grep -q "fifo.prof: not a regular file" $D/e.txt \
    && pass "--wtc-profile=FIFO refused at once" || bad "--wtc-profile=FIFO: status $rc: $(cat $D/e.txt)"
# --wtc-save-profile: checked before the program runs, and not with --wtc-vary (its
# table of best settings is one machine's: with it the table was never filled, saved
# as garbage with status 0, and --wtc-auto then read P = 32735)
timeout 20 $D/nqueens.predict --wtc-save-profile=$D/missing.dir/x.prof 11 >$D/o.txt 2>$D/e.txt; rc=$?
[ $rc = 2 ] && [ ! -s $D/o.txt ] && grep -q "save-profile=.*cannot write it" $D/e.txt \
    && pass "--wtc-save-profile into a missing directory: refused before the run" \
    || bad "--wtc-save-profile, bad path: status $rc, $(wc -c <$D/o.txt) bytes of report"
rm -f $D/vary.prof
timeout 60 $D/nqueens.predict --wtc-vary=L:1e-6,1e-5 --wtc-save-profile=$D/vary.prof 11 >/dev/null 2>$D/e.txt; rc=$?
[ $rc = 2 ] && [ ! -e $D/vary.prof ] && grep -q "cannot be combined with --wtc-vary" $D/e.txt \
    && pass "--wtc-save-profile with --wtc-vary refused, nothing written" \
    || bad "--wtc-save-profile with --wtc-vary: status $rc: $(cat $D/e.txt)"
# a run that started no region (fib 99: its usage message, status 2) saves a profile of
# no nodes, which reads back (it was refused as damaged: the sixth bug hunt)
timeout 60 $D/fib.predict --wtc-procs=1,2 --wtc-save-profile=$D/none.prof 99 >/dev/null 2>&1
timeout 60 $D/fib.predict --wtc-profile=$D/none.prof >$D/o.txt 2>$D/e.txt; rc=$?
[ $rc = 0 ] && grep -q '^recorded: 0 parallel regions' $D/o.txt && grep -q '^best: ' $D/o.txt \
    && pass "a profile of no region reads back" \
    || bad "a profile of no region: status $rc: $(head -2 $D/e.txt)"
exit $fail
