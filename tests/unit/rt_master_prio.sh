#!/bin/sh
# A master on a host with more ranks than cores (doc/runtime.md "dynamic mode", a master
# beside its workers; runtime/mpi/dynamic.c dyn_master): its regions run on a thread of
# the lowest priority (SCHED_IDLE), so that a message to it does not take a computing
# worker's core.
#   -n (cores + 1), dynamic, 1 master: correct; --wtc-stats says the master ran so
#     (its "master:" line), and while the job runs the master rank has a thread whose
#     scheduling class ps shows as IDL. The predictor's table for the same setting on
#     a machine of this host's cores says the same of its master.
#   -n 2 (on 2 cores or more: no more ranks than cores): no such line, no IDL thread.
#   WTC_DOORBELL=0 (the rank count of the host is not known): none either.
#   The predictor on two nodes of 3 ranks and 2 cores (P = 6, 2 masters on the second):
#   none, as the runtime does not lower a master whose workers are on other hosts.
. "$(dirname "$0")/rt_lib.inc"

# a name of this run's own (ps matches threads by it): another copy of the suite on the
# host runs its own master_prio
name=mprio$$
prog=$RT_OUT/$name
$RT_WTCC tests/unit/rt_regions.wtc -o "$prog" >"$RT_STDERR" 2>&1 ||
    { rt_fail "build rt_regions.wtc"; rt_summary; exit 1; }
cores=$(nproc)
over=$((cores + 1))

# idl_seen NP [ENV...]: runs the program (many regions, dynamic) in the background and
# polls ps for a thread of it in class IDL (40 regions of 40 ms of leaves) while it runs; sets RT_RC, IDL (1 / 0)
idl_seen() {
    np=$1
    shift
    IDL=0
    env "$@" timeout 120 mpiexec -n "$np" "$prog" 40 --wtc-mode=dynamic --wtc-masters=1 \
        --wtc-stats >"$RT_STDOUT" 2>"$RT_STDERR" &
    pid=$!
    for _ in $(seq 40); do
        if ps -eLo cls=,comm= | grep -q "^ *IDL  *$name\$"; then
            IDL=1
            break
        fi
        kill -0 $pid 2>/dev/null || break
        sleep 0.05
    done
    wait $pid
    RT_RC=$?
}
ok_run() { [ "$RT_RC" = 0 ] && grep -q ' of 40 regions ran on rank 0 alone$' "$RT_STDOUT"; }
line() { grep -c "^master: rank $((np - 1)) ran on a thread of the lowest priority" "$RT_STDERR"; }

idl_seen $over
if ! ok_run; then
    rt_fail "-n $over on $cores cores" "status $RT_RC, output '$(head -c 200 "$RT_STDOUT")' '$(head -c 300 "$RT_STDERR")'"
elif [ "$(line)" != 1 ] || [ $IDL != 1 ]; then
    rt_fail "-n $over on $cores cores" "stats line $(line) (want 1), IDL thread seen $IDL (want 1)"
else
    rt_pass "-n $over on $cores cores: the master ran on a SCHED_IDLE thread (stats line, ps)"
fi

if [ "$cores" -ge 2 ]; then
    idl_seen 2
    if ok_run && [ "$(line)" = 0 ] && [ $IDL = 0 ]; then
        rt_pass "-n 2 on $cores cores: the master runs as every rank does"
    else
        rt_fail "-n 2 on $cores cores" "status $RT_RC, stats line $(line), IDL thread seen $IDL (want neither)"
    fi
fi

idl_seen $over WTC_DOORBELL=0
if ok_run && [ "$(line)" = 0 ] && [ $IDL = 0 ]; then
    rt_pass "-n $over, WTC_DOORBELL=0: the master runs as every rank does (ranks per host not known)"
else
    rt_fail "-n $over, WTC_DOORBELL=0" "status $RT_RC, stats line $(line), IDL thread seen $IDL (want neither)"
fi

# the predictor, on a machine of this host's cores (one node): the same line
sed -e "s/^name = .*/name = prio-test/" -e "s/^cores = .*/cores = $cores/" \
    lib/wtc/machines/loopback-default.conf >"$RT_OUT/prio.conf"
"$prog.predict" --wtc-machine="$RT_OUT/prio.conf" --wtc-procs=$over --wtc-modes=dynamic \
    --wtc-masters=1 --wtc-stats 40 >"$RT_OUT/prio.pout" 2>&1
if grep -q "^master: rank $cores ran on a thread of the lowest priority" "$RT_OUT/prio.pout"; then
    rt_pass "the predictor at P = $over on $cores cores says the same of its master"
else
    rt_fail "the predictor" "no 'master:' line in: $(grep -A3 'wtc stats' "$RT_OUT/prio.pout" | head -c 400)"
fi
# ... but not on two nodes (3 ranks each, 2 cores: the masters' node is oversubscribed),
# where a master serves workers whose idleness frees no core of its node
sed -e "s/^name = .*/name = prio-nodes/" -e "s/^cores = .*/cores = 2/" \
    lib/wtc/machines/loopback-default.conf >"$RT_OUT/nodes.conf"
echo 'ranks_per_node = 3' >>"$RT_OUT/nodes.conf"
"$prog.predict" --wtc-machine="$RT_OUT/nodes.conf" --wtc-procs=6 --wtc-modes=dynamic \
    --wtc-masters=2 --wtc-stats 40 >"$RT_OUT/nodes.pout" 2>&1
if grep -q "^wtc stats" "$RT_OUT/nodes.pout" && ! grep -q "^master: rank" "$RT_OUT/nodes.pout"; then
    rt_pass "the predictor on two nodes (P = 6, 3 ranks per node of 2 cores): the masters run as every rank does"
else
    rt_fail "the predictor on two nodes" "$(grep -A9 'wtc stats' "$RT_OUT/nodes.pout" | grep -v '^[0-9m]' | head -c 400)"
fi
rm -f "$prog" "$prog.predict"
rt_summary
