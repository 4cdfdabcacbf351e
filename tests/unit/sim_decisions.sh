#!/bin/sh
# One protocol, two executors (STYLE.md habit 11): in simple mode the TASKs that a real
# run sends (WTC_DECISIONS=FILE, written by the MPI runtime) are the TASKs that the
# predictor's simulation of its recording sends (WTC_DECISIONS for one setting), as
# sets of lines "send DEPTH FIRST COUNT -> RANK". The MPI runtime may write one file or
# one per rank (FILE.RANK); both are read. The REGION_BEGINs each rank sends ("begin
# FROM -> TO") are among the lines: rank 0 to every rank at -n 4 (a small snapshot goes
# flat), and the broadcast tree at -n 8 with WTC_BCAST=tree.
. tests/unit/sim_common.inc
[ -x bin/wtcc ] || { bad "bin/wtcc missing: run make"; exit 1; }
command -v mpiexec >/dev/null || { bad "mpiexec missing"; exit 1; }
for s in msort nqueens; do for np in 4 8; do
    x=$OUT/dec_$s$np
    route=; [ $np = 8 ] && route=tree
    args=$(cat samples/$s.args 2>/dev/null)
    bin/wtcc ${SIM_CFLAGS:-} samples/$s.wtc -o $x >$x.build 2>&1 \
        || { bad "build $s: $(head -3 $x.build)"; continue; }
    rm -f $x.real $x.real.* $x.sim
    # shellcheck disable=SC2086
    WTC_BCAST=$route WTC_DECISIONS=$x.real timeout 120 mpiexec -n $np $x --wtc-mode=simple \
        $args >$x.out 2>$x.err || { bad "$s: mpiexec -n $np failed: $(head -3 $x.err)"; continue; }
    # shellcheck disable=SC2086
    WTC_BCAST=$route WTC_DECISIONS=$x.sim timeout 120 $x.predict --wtc-procs=$np \
        --wtc-modes=simple $args \
        >$x.pout 2>$x.perr || { bad "$s: the predictor failed: $(head -3 $x.perr)"; continue; }
    cat $x.real $x.real.* 2>/dev/null | sort >$x.real.sorted
    sort $x.sim >$x.sim.sorted 2>/dev/null
    if [ ! -s $x.real.sorted ]; then
        bad "$s: the MPI runtime wrote no decision log to WTC_DECISIONS=$x.real" \
            "(runtime/mpi does not log yet?); the simulation logged $(wc -l <$x.sim.sorted) lines"
    elif [ ! -s $x.sim.sorted ]; then
        bad "$s: the simulation wrote no decision log"
    elif [ "$route" = tree ] && ! grep -q '^begin 4 -> 6$' $x.real.sorted; then
        bad "$s -n $np: WTC_BCAST=tree, but rank 4 passed no REGION_BEGIN on to rank 6"
    elif cmp -s $x.real.sorted $x.sim.sorted; then
        pass "$s -n $np simple${route:+ ($route)}: the run and its simulation take the same $(wc -l <$x.sim.sorted) decisions"
    else
        bad "$s -n $np simple${route:+ ($route)}: the run's decisions differ from the simulation's (< run, > simulation):"
        diff $x.real.sorted $x.sim.sorted | head -10
    fi
done; done
exit $fail
