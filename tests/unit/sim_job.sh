#!/bin/sh
# The job's own costs in the predictor (doc/predictor.md section 4, "The job"):
# t_launch, t_start, t_end of the machine file. tests/unit/sim_job.wtc spins SETUP s in
# main, then opens a region of two 0.1 s children. With launch 10 ms, MPI's start 50 ms,
# end 20 ms at every P >= 2 against the same file without them, replaying one recording:
#   SETUP 0:    MPI is up 50 ms into the region: rank 0 runs its child at once, the other
#               child starts at 50 ms (its TASK held: doc/runtime.md "A region held
#               while MPI starts"), so +30 ms outside the regions and +50 ms inside;
#   SETUP 0.2:  main covers the start: +30 ms, the regions unchanged;
#   <mpi.h>:    MPI starts before main: +80 ms whatever SETUP;
#   two nodes:  (ranks_per_node = 1) MPI starts before main too: +80 ms, regions unchanged;
#   P = 1:      no MPI, nothing added;
#   and main touching 40 MiB (10240 pages) with t_page_shared = t_page_free = 1 us a
#   page: +20.5 ms at P = 2 on one node (main's pages lie in the node's shared heap),
#   nothing with one rank a node or intra_copy = 1 (no shared heap); main's pages,
#   taken as touched before its first region, delay that region and cover MPI's start.
. tests/unit/sim_common.inc
[ -x bin/wtcc ] || { bad "bin/wtcc ${SIM_CFLAGS:-} missing: run make"; exit 1; }
bin/wtcc ${SIM_CFLAGS:-} tests/unit/sim_job.wtc -o $OUT/job >$OUT/job.build 2>&1 &&
    bin/wtcc ${SIM_CFLAGS:-} -DWITH_MPI tests/unit/sim_job.wtc -o $OUT/jobmpi >>$OUT/job.build 2>&1 ||
    { bad "build: $(cat $OUT/job.build)"; exit 1; }
sim_conf $OUT/job_no.conf job-no cores=4
sim_conf $OUT/job_yes.conf job-yes cores=4 t_launch=0.01 t_start=0.05 t_end=0.02
# record PROG SETUP [MB [FIRST]]: a profile of PROG run with SETUP, every leaf timed
record() {
    p=$1 s=$2
    shift 2
    timeout 120 $OUT/$p.predict --wtc-procs=2 --wtc-sample=all --wtc-save-profile=$OUT/$p.$s.prof \
        $s "$@" >$OUT/$p.$s.out 2>&1 || { bad "recording $p $s: $(tail -3 $OUT/$p.$s.out)"; exit 1; }
}
# pred PROG SETUP CONF P MODE COLUMN: one csv column of the replay (5 predicted_s, 16 regions_s)
pred() {
    timeout 60 $OUT/$1.predict --wtc-profile=$OUT/$1.$2.prof --wtc-machine=$3 --wtc-procs=$4 \
        --wtc-modes=$5 --wtc-masters=1 --wtc-format=csv 2>/dev/null | awk -F, -v c=$6 'NR == 2 { print $c }'
}
# diff_in PROG SETUP P MODE COLUMN LO HI WHAT: the column with the job's costs minus without,
# in ms, within [LO, HI]
diff_in() {
    a=$(pred $1 $2 $OUT/job_no.conf $3 $4 $5)
    b=$(pred $1 $2 $OUT/job_yes.conf $3 $4 $5)
    d=$(awk -v a="${a:-x}" -v b="${b:-x}" 'BEGIN { if (a + 0 <= 0 || b + 0 <= 0) print "x"; else printf "%.2f", 1e3 * (b - a) }')
    awk -v d="$d" -v lo=$6 -v hi=$7 'BEGIN { exit !(d != "x" && d + 0 >= lo && d + 0 <= hi) }' \
        && pass "$8: $a -> $b s (+$d ms)" || bad "$8: $a -> $b s (+$d ms, expected $6 to $7)"
}
record job 0
record job 0.2
record jobmpi 0.2
for mode in steal simple; do
    diff_in job 0 2 $mode 5 78 82 "$mode P=2, region at once: predicted_s +30 ms + 50 ms held"
    diff_in job 0 2 $mode 16 48 52 "$mode P=2, region at once: regions_s +50 ms"
done
# a held first region of 1 ms ends only once MPI is up (wtcrt_mpi_ready), so the next
# region starts after it too (simple mode ended it at 1 ms: +30 ms)
record job 0.00 0 small
for mode in simple steal; do
    diff_in job 0.00 2 $mode 5 78 82 "$mode P=2, a 1 ms region at once, then one of 0.2 s: predicted_s +80 ms"
done
diff_in job 0 3 dynamic 5 78 82 "dynamic P=3 (1 master), region at once: predicted_s +80 ms"
diff_in job 0.2 2 steal 5 29.5 30.5 "steal P=2, 0.2 s of main first: predicted_s +30 ms"
diff_in job 0.2 2 steal 16 -0.5 0.5 "steal P=2, 0.2 s of main first: regions_s unchanged"
diff_in jobmpi 0.2 2 steal 5 79.5 80.5 "<mpi.h>: MPI starts before main, predicted_s +80 ms"
# ranks on several nodes: MPI starts before main (doc/runtime.md "Start-up"), so the
# region that opens at once is not held: +80 ms in all, the regions unchanged
sim_conf $OUT/job_no.conf job-no cores=4 ranks_per_node=1
sim_conf $OUT/job_yes.conf job-yes cores=4 ranks_per_node=1 t_launch=0.01 t_start=0.05 t_end=0.02
for mode in steal simple; do
    diff_in job 0 2 $mode 5 79.5 80.5 "$mode P=2 on two nodes, region at once: MPI starts before main, predicted_s +80 ms"
    diff_in job 0 2 $mode 16 -0.5 0.5 "$mode P=2 on two nodes, region at once: regions_s unchanged"
done
timeout 60 $OUT/job.predict --wtc-profile=$OUT/job.0.prof --wtc-machine=$OUT/job_yes.conf \
    --wtc-procs=2 >$OUT/job_nodes.txt 2>&1
grep -q "^the job (P >= 2): launch 10.0 + 0.00 P ms, MPI's start 50.0 + 0.00 P ms beside main and its first region (before main at P > 1: the ranks span nodes), end 20.0 + 0.00 P ms; in predicted_s" $OUT/job_nodes.txt \
    && pass "the report says MPI starts before main across nodes" || bad "report, two nodes: $(grep -i 'the job' $OUT/job_nodes.txt)"
sim_conf $OUT/job_no.conf job-no cores=4
sim_conf $OUT/job_yes.conf job-yes cores=4 t_launch=0.01 t_start=0.05 t_end=0.02
diff_in job 0 1 steal 5 -0.01 0.01 "P=1 runs without MPI: nothing added"
# the shared heap's pages: the job's costs of the files above kept, page costs added
record job 0.3 40
for v in "cores=4" "cores=4 ranks_per_node=1" "cores=4 intra_copy=1"; do
    # shellcheck disable=SC2086
    sim_conf $OUT/job_no.conf job-no t_launch=0.01 t_start=0.05 t_end=0.02 $v
    # shellcheck disable=SC2086
    sim_conf $OUT/job_yes.conf job-yes t_launch=0.01 t_start=0.05 t_end=0.02 $v \
        t_page_shared=1e-6 t_page_free=1e-6
    case $v in *=1) lo=-0.01 hi=0.01 ;; *) lo=20.4 hi=21.5 ;; esac
    diff_in job 0.3 2 steal 5 $lo $hi "40 MiB touched by main, $v: predicted_s"
done
diff_in job 0.3 1 steal 5 -0.01 0.01 "40 MiB touched by main, P=1: nothing added"
# the report names the pages' cost only where it is added (the last file: intra_copy = 1)
timeout 60 $OUT/job.predict --wtc-profile=$OUT/job.0.3.prof --wtc-machine=$OUT/job_yes.conf \
    --wtc-procs=2 2>/dev/null | grep -q "shared heap" && bad "intra_copy = 1: the report names the heap's pages" ||
    pass "intra_copy = 1: the report does not name the heap's pages"
sim_conf $OUT/job_h.conf job-h cores=4 t_page_shared=1e-6 t_page_free=1e-6
timeout 60 $OUT/job.predict --wtc-profile=$OUT/job.0.3.prof --wtc-machine=$OUT/job_h.conf \
    --wtc-procs=2 2>/dev/null | grep -q "^the shared heap (P >= 2, ranks sharing a node): main touched [0-9]* pages first, 10\.[0-9] ms more in main and 10\.[0-9] ms more at the end" &&
    pass "one node: the report names the heap's pages" || bad "one node: no report line on the heap's pages"
# main's pages delay its first region: 40 MiB at 10 us a page (102 ms) cover MPI's
# start of 50 ms, so the region is not held (it was: +20-50 ms, the pages' time counted
# beside the start and again after it)
record job 0.0 40
sim_conf $OUT/job_no.conf job-no cores=4 t_page_shared=1e-5
sim_conf $OUT/job_yes.conf job-yes cores=4 t_page_shared=1e-5 t_start=0.05
diff_in job 0.0 2 steal 16 -0.5 0.5 "40 MiB in main at once, pages cover MPI's start: regions_s unchanged"
diff_in job 0.0 2 steal 5 -0.5 0.5 "40 MiB in main at once, pages cover MPI's start: predicted_s unchanged"
sim_conf $OUT/job_no.conf job-no cores=4
sim_conf $OUT/job_yes.conf job-yes cores=4 t_launch=0.01 t_start=0.05 t_end=0.02
# the JSON's job_s and the report's line
j=$(timeout 60 $OUT/jobmpi.predict --wtc-profile=$OUT/jobmpi.0.2.prof --wtc-machine=$OUT/job_yes.conf \
    --wtc-procs=2 --wtc-modes=steal --wtc-format=json 2>/dev/null | sed -n 's/.*"procs": 2,.*"job_s": \([^,]*\),.*/\1/p')
awk -v j="${j:-x}" 'BEGIN { exit !(j + 0 > 0.0799 && j + 0 < 0.0801) }' \
    && pass "json job_s: $j s (launch, start before main, end)" || bad "json job_s: '$j'"
timeout 60 $OUT/job.predict --wtc-profile=$OUT/job.0.prof --wtc-machine=$OUT/job_yes.conf \
    --wtc-procs=2 >$OUT/job_yes.txt 2>&1
grep -q "^the job (P >= 2): launch 10.0 + 0.00 P ms, MPI's start 50.0 + 0.00 P ms beside main and its first region, end 20.0 + 0.00 P ms; in predicted_s" $OUT/job_yes.txt \
    && pass "the report says what the job adds" || bad "report: $(grep -i 'the job' $OUT/job_yes.txt)"
timeout 60 $OUT/job.predict --wtc-profile=$OUT/job.0.prof --wtc-machine=$OUT/job_no.conf \
    --wtc-procs=2 >$OUT/job_no.txt 2>&1
grep -q "^the job's launch, MPI's start and its end are not in predicted_s (the machine file has no t_launch, t_start, t_end: make calibrate)" \
    $OUT/job_no.txt && pass "without the keys the report says they are left out" \
    || bad "report without the keys: $(grep -i 'the job' $OUT/job_no.txt)"
# a value out of range is refused like any other key's
sim_conf $OUT/job_bad.conf job-bad t_start=200
timeout 60 $OUT/job.predict --wtc-profile=$OUT/job.0.prof --wtc-machine=$OUT/job_bad.conf \
    >$OUT/job_bad.txt 2>&1; rc=$?
[ $rc = 2 ] && grep -q "key 't_start' = 200 is outside 0 to 100 s" $OUT/job_bad.txt \
    && pass "t_start = 200 refused (status 2)" || bad "t_start = 200: status $rc, $(tail -1 $OUT/job_bad.txt)"
exit $fail
