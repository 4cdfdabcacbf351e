#!/bin/sh
# The answering thread in the simulator (doc/runtime.md "Answers from inside a leaf",
# Simulator notes 13): tests/unit/rt_answer.wtc at P = 2 in steal mode, a victim inside
# a leaf of 50 ms with five pending leaves: with the thread (the default) the thief gets
# three of them at once and the run takes about 3 leaves; with leaf_wait = 1 in the
# machine file (no thread, as under SMPI) the thief waits for the leaf first, about 4
# leaves (the MPI runtime: 0.30 s and 0.40 s with leaves of 100 ms); the leaves spin on
# the CPU clock (-50), which a loaded host does not shorten. The same for the
# GRANT in dynamic mode at P = 3 with one master. The per-rank table says who answered.
. tests/unit/sim_common.inc
[ -x bin/wtcc ] || { bad "bin/wtcc missing: run make"; exit 1; }
bin/wtcc ${SIM_CFLAGS:-} tests/unit/rt_answer.wtc -o $OUT/answer >$OUT/answer.build 2>&1 \
    || { bad "build: $(cat $OUT/answer.build)"; exit 1; }
# a core per rank (the preset without 'cores = host'), whatever this host has
sed '/^cores = /d' machines/loopback-default.conf > $OUT/answer-thread.conf
{ cat $OUT/answer-thread.conf; echo "leaf_wait = 1"; } > $OUT/answer-wait.conf
# one recording for every prediction below: two recordings of a loaded host differ (CI,
# a busy hour: 0.167 s with the thread and 0.178 s without, from two recordings)
timeout 120 $OUT/answer.predict --wtc-procs=2 --wtc-modes=steal \
    --wtc-save-profile=$OUT/answer.prof -50 >/dev/null 2>&1 || bad "recording failed"
# predicted MODE P MACHINE: the predicted seconds of that setting
predicted() {
    timeout 120 $OUT/answer.predict --wtc-procs=$2 --wtc-modes=$1 --wtc-masters=1 \
        --wtc-format=csv --wtc-machine=$3 --wtc-profile=$OUT/answer.prof 2>/dev/null |
        awk -F, -v m="$1" -v p="$2" '$1 == m && $2 == p { print $5; exit }'
}
for row in "steal 2" "dynamic 3"; do
    set -- $row
    a=$(predicted $1 $2 $OUT/answer-thread.conf)
    w=$(predicted $1 $2 $OUT/answer-wait.conf)
    if [ -z "$a" ] || [ -z "$w" ]; then
        bad "$1 P = $2: no prediction (thread '$a', leaf_wait '$w')"
    elif awk -v a="$a" -v w="$w" 'BEGIN { exit !(a > 0.12 && a < 0.2 && w > 0.18 && a < 0.85 * w) }'; then
        pass "$1 P = $2: $a s with the answering thread, $w s without (leaves of 50 ms)"
    else
        bad "$1 P = $2: $a s with the answering thread, $w s without (want about 0.15 and 0.2)"
    fi
done
timeout 120 $OUT/answer.predict --wtc-procs=2 --wtc-modes=steal --wtc-stats \
    --wtc-machine=$OUT/answer-thread.conf --wtc-profile=$OUT/answer.prof >$OUT/answer.stats 2>&1
grep -q '^leaf: rank 0 answered [1-9]' $OUT/answer.stats \
    && pass "stats: $(grep '^leaf: rank 0' $OUT/answer.stats)" \
    || bad "no 'leaf: rank 0 answered' line: $(grep -E '^(leaf|steal):' $OUT/answer.stats)"
exit $fail
