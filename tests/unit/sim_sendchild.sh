#!/bin/sh
# The sender's cost per child of a TASK (doc/predictor.md section 3, "Per child"):
# t_pack_child before the TASK leaves, t_store_child when its RESULT is stored.
# sim_sendchild.wtc is a farm of 2000 equal children; at P = 2 in simple mode rank 0
# sends children 1000-1999 to rank 1 in one TASK and runs the others. At 1 us each,
# one recording replayed: packing 1000 children delays rank 1's start by 1 ms (rank 0
# runs its own after the send: both end 1 ms later), storing 1000 results adds 1 ms at
# the end: +2 ms with both, +1 ms with either; at P = 1 nothing is sent.
. tests/unit/sim_common.inc
sim_conf $OUT/sc_0.conf none
sim_conf $OUT/sc_p.conf pack t_pack_child=1e-6
sim_conf $OUT/sc_s.conf store t_store_child=1e-6
sim_conf $OUT/sc_ps.conf both t_pack_child=1e-6 t_store_child=1e-6
sim_record sim_sendchild 2
t() { sim_regions $OUT/sim_sendchild $OUT/sim_sendchild.prof $OUT/$1 $2 simple; }
more() { # WHAT BASE NEW LO HI: NEW - BASE in ms within [LO, HI]
    d=$(awk -v a="${2:-x}" -v b="${3:-x}" 'BEGIN { if (a + 0 <= 0 || b + 0 <= 0) print "x"; else printf "%.3f", 1e3 * (b - a) }')
    awk -v d="$d" -v lo=$4 -v hi=$5 'BEGIN { exit !(d != "x" && d + 0 >= lo && d + 0 <= hi) }' \
        && pass "$1: $2 -> $3 s (+$d ms)" || bad "$1: $2 -> $3 s (+$d ms, expected $4 to $5)"
}
a=$(t sc_0.conf 2)
more "t_pack_child 1 us, 1000 children sent: rank 1 starts 1 ms later" "$a" "$(t sc_p.conf 2)" 0.95 1.05
more "t_store_child 1 us, 1000 results stored" "$a" "$(t sc_s.conf 2)" 0.95 1.05
more "both" "$a" "$(t sc_ps.conf 2)" 1.95 2.05
more "P = 1: nothing sent" "$(t sc_0.conf 1)" "$(t sc_ps.conf 1)" -0.001 0.001
exit $fail
