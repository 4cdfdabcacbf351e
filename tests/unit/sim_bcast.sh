#!/bin/sh
# The region start as a collective (doc/predictor.md "The region start"): at P = 64 a
# REGION_BEGIN carrying a 1 MiB global snapshot (sim_bcast.wtc: a region that does
# nothing else) costs about ceil(log2 64) = 6 copies' time, not 63.
#
# The machine (written below): one rank per node, L = 10 us, G = 2 ns/byte, o = 1 us
# per message, a sleeping rank wakes in 20 us; a copy of the k = 1 MiB + 64 bytes
# (snapshot, four ints, header) takes G k = 2.097 ms on a port. Worked bounds for the
# region's time R (the prediction less main's own time):
#   tree: every rank has the snapshot after h = 6 rounds, each one copy on the sender's
#         port, L, o_s, o_r and a wake-up; then the TASKs go down 6 levels and the
#         RESULTs come up 6, header messages of L + o_s + o_r + a wake-up each; the
#         leaves compute nothing:  h G k <= R <= h (G k + L + 2o + w) + 2h (L + 2o + w)
#         (12.58 .. 13.16 ms);
#   flat (WTC_BCAST=flat): rank 0's port carries 63 copies: R >= 63 G k (132.1 ms).
# Simple mode eager (S above the message) and rendezvous (S = 64 KiB: the senders wait
# for their copies to be taken, doc/runtime.md); dynamic and steal rendezvous only, for
# the lower bound and the tree's gain (their roots run the little work themselves, so
# with eager copies rank 0 never waits for the region start).
. tests/unit/sim_common.inc
[ -x bin/wtcc ] || { bad "bin/wtcc missing: run make"; exit 1; }
x=$OUT/bcast
bin/wtcc ${SIM_CFLAGS:-} tests/unit/sim_bcast.wtc -o $x >$x.build 2>&1 \
    || { bad "build: $(head -3 $x.build)"; exit 1; }
unset WTC_BCAST
for S in 1e15 65536; do
    cat >$x.conf <<CONF
name = bcast-test
L = 10e-6
G = 2e-9
o_sa = 1e-6
o_sb = 0
O_s = 0
o_ra = 1e-6
o_rb = 0
O_r = 0
S = $S
t_m = 1e-6
cpu_ratio = 1
w_yield = 100e-6
w_wake = 20e-6
t_child = 0.15e-6
contention = 0
ranks_per_node = 1
L_intra = 0.35e-6
G_intra = 0.125e-9
CONF
    for route in rule flat; do
        if [ $route = flat ]; then e="WTC_BCAST=flat"; else e="WTC_BCAST_UNSET=1"; fi
        env $e timeout 120 $x.predict --wtc-procs=64 --wtc-modes=simple,dynamic,steal \
            --wtc-masters=1 --wtc-machine=$x.conf >$x.$route.out 2>$x.err \
            || { bad "S = $S, $route: the predictor failed: $(head -3 $x.err)"; continue; }
    done
    # main's own time as each run recorded it (two recordings: 1-2 ms apart on a busy
    # host, enough to move the flat figure below its bound)
    main=$(sed -n "s/.*main's own time \([0-9.e-]*\) s.*/\1/p" $x.rule.out)
    mainf=$(sed -n "s/.*main's own time \([0-9.e-]*\) s.*/\1/p" $x.flat.out)
    modes="simple dynamic steal"
    [ $S = 65536 ] || modes=simple
    for mode in $modes; do
        tree=$(awk -v m=$mode '$1 == m && $2 == 64 { print $5; exit }' $x.rule.out)
        flat=$(awk -v m=$mode '$1 == m && $2 == 64 { print $5; exit }' $x.flat.out)
        [ -n "$tree" ] && [ -n "$flat" ] && [ -n "$main" ] && [ -n "$mainf" ] \
            || { bad "S = $S $mode: no P = 64 row or no main time"; continue; }
        echo "$tree $flat $main $mode $mainf" | awk '
            { k = 1048576 + 16 + 48; Gk = 2e-9 * k; L = 10e-6; o = 1e-6; w = 20e-6; h = 6
              rt = $1 - $3; rf = $2 - $5
              lo = h * Gk; hi = h * (Gk + L + 2 * o + w) + 2 * h * (L + 2 * o + w)
              ok = rt >= lo * 0.999 && rf >= 63 * Gk * 0.999 && rt < rf / 5
              if ($4 == "simple") ok = ok && rt <= hi
              printf "region %.3f ms by the tree (bounds %.2f .. %.2f), %.3f ms flat (>= %.1f)\n",
                     rt * 1e3, lo * 1e3, hi * 1e3, rf * 1e3, 63 * Gk * 1e3
              exit !ok }' >$x.verdict
        if [ $? -eq 0 ]; then
            pass "S = $S $mode P = 64: $(cat $x.verdict)"
        else
            bad "S = $S $mode P = 64: $(cat $x.verdict)"
        fi
    done
done
exit $fail
