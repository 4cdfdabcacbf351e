#!/bin/sh
# timing: none
# A profile's recording must be a tree (doc/predictor.md "Profiles": reading checks
# every index): edited by hand and its checksum made again (profile_resum.c), pars that
# share children, nodes that share a list of pars, a region rooted at a called node or
# at another region's root are refused as damaged, status 2. A file of 60 nodes, each
# spawning the next two, made a DAG of 10^12 calls: the predictor simulated it for hours
# (a helper's bug hunt).
. tests/unit/sim_common.inc
sim_nq profile_tree
cc $CFLAGS -Iruntime -Iruntime/common -o $D/resum tests/unit/profile_resum.c $LIB -lm \
    || { bad "build profile_resum"; exit 1; }
timeout 60 $D/nq.predict --wtc-procs=1,2 --wtc-save-profile=$D/nq.prof 8 >/dev/null 2>$D/e.txt \
    || { bad "recording: $(cat $D/e.txt)"; exit 1; }
predict() {
    timeout 20 $D/nq.predict --wtc-procs=1,2,4 --wtc-profile=$1 >$D/o.txt 2>$D/e.txt
}
cp $D/nq.prof $D/same.prof && $D/resum $D/same.prof
predict $D/same.prof && grep -q '^best: ' $D/o.txt && pass "the profile re-summed unedited is read" \
    || { bad "the unedited profile: $(cat $D/e.txt)"; exit 1; }
refused() { # label, awk program run over the profile
    awk "$2" $D/nq.prof >$D/edit.prof && $D/resum $D/edit.prof
    cmp -s $D/nq.prof $D/edit.prof && { bad "$1: the edit changed nothing"; return; }
    predict $D/edit.prof
    rc=$?
    [ $rc = 2 ] && [ ! -s $D/o.txt ] && grep -q 'damaged profile' $D/e.txt \
        && pass "$1: refused" || bad "$1: status $rc: $(head -c 200 $D/e.txt)"
}
# the line 'k' records after the keyword's line: node 0 is 'nodes' + 1, par 0 'pars' + 1
at='/^(nodes|pars|regions) / { k = $1; i = -1 } { i++ }'
refused "par 1 sharing a child with par 0" "$at"' k == "pars" && i == 2 { $2 = $2 - 1 } { print }'
refused "node 2 with node 1's list of pars" "$at"' k == "nodes" && i == 3 { $2 = 1 } { print }'
refused "a region rooted at a called node" "$at"' k == "regions" && i == 1 { $1 = 1 } { print }'
refused "two regions with one root" "$at"' k == "regions" && i == 0 { print "regions 2"; next }
    k == "regions" && i == 1 { print } { print }'
# 60 nodes, node i spawning i+1 and i+2: refused at once (was: hours of simulation)
awk '/^main_time/ { n = 60; print; print "main_faults 0"; print "nodes " n
        for (i = 0; i < n; i++) print "0x1p-20", i < n - 2 ? i : -1, i < n - 2 ? 0 : 1, i, 8, 8, 8, 8
        print "pars " n - 2
        for (i = 0; i < n - 2; i++) print "0x1p-20", i + 1, 2, 1, -1, "0x1p-30", 0, i
        print "regions 1"; print "0 16 0x1p-12 2 1"; skip = 1; next }
     /^sites / { skip = 0 } !skip { print }' $D/nq.prof >$D/dag.prof && $D/resum $D/dag.prof
predict $D/dag.prof
rc=$?
[ $rc = 2 ] && grep -q 'damaged profile' $D/e.txt \
    && pass "a DAG of 60 nodes and 10^12 paths: refused at once" \
    || bad "a DAG of 60 nodes: status $rc (124: still simulating after 20 s): $(head -c 200 $D/e.txt)"
exit $fail
