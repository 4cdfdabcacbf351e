#!/bin/sh
# A job's start-up makes as few collectives as it can, each nonblocking and waited for
# with yields (doc/runtime.md "Start-up"): with more ranks than cores a blocking one
# costs a scheduler time slice (4-8 ms at -n 3 on 2 cores, MPICH's spinning
# collectives), and on a cluster each costs log P latencies. With the doorbell:
# MPI_Comm_idup, one MPI_Iallgather of the hosts and one MPI_Iallreduce that agrees every
# rank mapped the segment and doubles as the start barrier; without it (WTC_DOORBELL=0):
# MPI_Comm_idup, the MPI_Iallgather (it carries the program's fingerprint too: every
# rank must run one program) and an MPI_Ibarrier. The doorbell must still work: a computing rank asks
# MPI (MPI_Iprobe) only when its mail flag is up, so rank 0 probes far less than without
# it. No shared-memory segment of the job is left behind. With MPICH and every rank on
# this host, MPI_Init runs with HWLOC_COMPONENTS=-linuxio,-pci,-x86,GPUS (no I/O device,
# CPUID or GPU discovery) and UCX_TLS=self,sysv,cma (no network transports, one FIFO
# transport; self,sm where UCX has no cma: UCX warns of a transport named that is not
# there, and none may warn), and over ch4:ucx with MPIR_CVAR_NOLOCAL=1 (local ranks
# talk through UCX's shared memory, no MPICH shared-memory start-up) and, in a program
# that does not include <mpi.h>, HWLOC_COMPONENTS=no_os,stop (no topology: nothing
# reads it then), all removed after it; a user's own values are left as they are.
# hwloc's x86 and GPU components are off in every job (a job hydra says spans nodes
# too), the rest only on one node. Rank 0 of a job hydra started on one node starts MPI
# in a thread while main begins (MPI_Init_thread there), the other ranks in their main
# thread (MPI_Init); over ch4:ucx rank 0 first turns UCX's memory events off (else
# MPI_Init moves the program break while main allocates). WTC_START_EARLY=0, a job
# across nodes and UCX_MEM_EVENTS=yes from the user start it before main.
. "$(dirname "$0")/rt_lib.inc"

prog=$RT_OUT/start
shim=$RT_OUT/start_count.so
$RT_WTCC --no-predict tests/unit/rt_start.wtc -o "$prog" >"$RT_STDERR" 2>&1 \
    || { rt_fail "build rt_start.wtc"; exit 1; }
mpicc -shared -fPIC -O2 tests/unit/rt_start_count.c -o "$shim" >"$RT_STDERR" 2>&1 \
    || { rt_fail "build rt_start_count.c"; exit 1; }
impl=$(sh tools/mpi-info.sh mpicc) || { rt_fail "tools/mpi-info.sh mpicc"; exit 1; }
impl=${impl%% *}
# UCX's cma is there where Yama's ptrace_scope, if any, is 0 or 1 (and the process may
# call process_vm_writev: the shim refuses it with WTC_TEST_NO_CMA)
case $(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null) in
'' | 0 | 1) tls=self,sysv,cma ;;
*) tls=self,sm ;;
esac
if [ "$impl" = mpich ]; then
    gpus=-x86,-cuda,-nvml,-opencl,-rsmi,-levelzero,-gl
    io_off="-linuxio,-pci,$gpus (unset)" ucx_off="$tls (unset)" gpus_off="$gpus (unset)"
else
    io_off="(unset) (unset)" ucx_off="(unset) (unset)" gpus_off="(unset) (unset)"
fi
segs() { ls /dev/shm 2>/dev/null | grep '^wtcrt\.' | sort; }
before=$(segs)

# run NP DOORBELL [VAR=VALUE]: the program in steal mode under the shim, with VAR set
# in each rank's environment; sets RT_RC, RT_STDERR
run() {
    RT_RC=0
    WTC_DOORBELL=$2 timeout "$RT_TIMEOUT" mpiexec -n "$1" env LD_PRELOAD="$PWD/$shim" \
        ${3:+"$3"} "${PROG:-$prog}" --wtc-mode=steal >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
}
# starts: the distinct start lists of all ranks; probes: rank 0's MPI_Iprobe count
starts() { sed -n 's/^rank [0-9]* start: *//p' "$RT_STDERR" | sort -u; }
probes() { awk '$1 == "rank" && $2 == "0" && $3 == "probes" { print $4 }' "$RT_STDERR"; }
# hwloc: the distinct "at MPI_Init, at the end" values of HWLOC_COMPONENTS of all ranks
hwloc() { sed -n 's/^rank [0-9]* hwloc //p' "$RT_STDERR" | sort -u; }
ucx() { sed -n 's/^rank [0-9]* ucx //p' "$RT_STDERR" | sort -u; }
nolocal() { sed -n 's/^rank [0-9]* nolocal //p' "$RT_STDERR" | sort -u; }
# memev0 / memevrest: whether UCX's memory events were on at MPI_Init on rank 0 / the
# other ranks (1, 0; - where the shim had no UCX headers)
memev0() { sed -n 's/^rank 0 memev //p' "$RT_STDERR"; }
memevrest() { sed -n 's/^rank [1-9][0-9]* memev //p' "$RT_STDERR" | sort -u; }
# how0_want: how rank 0 of the last run (one node, UCX_MEM_EVENTS unset) must start MPI:
# in its thread over ch4:ucx where UCX's headers were there to build with (the shim saw
# them too: memev0 not -), else before main
how0_want() {
    if grep -q '^rank 0 ch4:ucx yes$' "$RT_STDERR" && [ "$(memev0)" != - ]; then
        echo "MPI_Init_thread thread"
    else
        echo "MPI_Init main"
    fi
}
# how0 / howrest: how rank 0 / the other ranks started MPI ("CALL main|thread")
how0() { sed -n 's/^rank 0 how //p' "$RT_STDERR"; }
howrest() { sed -n 's/^rank [1-9][0-9]* how //p' "$RT_STDERR" | sort -u; }
# nolocal_want: what MPIR_CVAR_NOLOCAL must be at MPI_Init and after (the shim says
# whether the library is MPICH over ch4:ucx)
nolocal_want() {
    if [ "$impl" = mpich ] && grep -q '^rank 0 ch4:ucx yes$' "$RT_STDERR"; then
        echo "1 (unset)"
    else
        echo "(unset) (unset)"
    fi
}
# hwloc_want: what HWLOC_COMPONENTS must be at MPI_Init and after, in a program that
# does not include <mpi.h>: no topology where MPICH's shared memory is off
hwloc_want() {
    if [ "$impl" = mpich ] && grep -q '^rank 0 ch4:ucx yes$' "$RT_STDERR"; then
        echo "no_os,stop (unset)"
    else
        echo "$io_off"
    fi
}

# The probe counts come from runs that start MPI before main (WTC_START_EARLY=0): with
# the start in a thread, rank 0 runs fib's region while the others start (a region
# held, doc/runtime.md "Start-up") and then mostly waits for their RESULTs, and a wait
# asks MPI whatever the doorbell says; what is compared here is the polls of a rank
# computing beside the others.
for np in 2 3 5; do
    WTC_START_EARLY=0 run "$np" 0
    ok0=$RT_RC out0=$(cat "$RT_STDOUT") start0=$(starts) p0=$(probes)
    WTC_START_EARLY=0 run "$np" 1
    p1=$(probes)
    run "$np" 1
    ok1=$RT_RC out1=$(cat "$RT_STDOUT") start1=$(starts) hw1=$(hwloc) hw_want=$(hwloc_want) ucx1=$(ucx)
    nl1=$(nolocal) nl_want=$(nolocal_want) h0=$(how0) hr=$(howrest)
    me0=$(memev0) mer=$(memevrest)
    if [ "$ok0$ok1" != 00 ] || [ "$out0" != 46368 ] || [ "$out1" != 46368 ]; then
        rt_fail "-n $np: status $ok0/$ok1, output '$out0'/'$out1' (want 46368)"
    elif [ "$start1" != "Comm_idup Iallgather Iallreduce" ]; then
        rt_fail "-n $np doorbell: start-up collectives '$start1'"
    elif [ "$hw1" != "$hw_want" ]; then
        rt_fail "-n $np: HWLOC_COMPONENTS at MPI_Init and after: '$hw1' (want '$hw_want')"
    elif [ "$ucx1" != "$ucx_off" ]; then
        rt_fail "-n $np: UCX_TLS at MPI_Init and after: '$ucx1' (want '$ucx_off')"
    elif grep -q 'UCX.*WARN' "$RT_STDERR"; then
        rt_fail "-n $np: UCX warned: $(grep -m1 'UCX.*WARN' "$RT_STDERR")"
    elif [ "$impl" = mpich ] && { [ "$h0" != "$(how0_want)" ] || [ "$hr" != "MPI_Init main" ]; }; then
        rt_fail "-n $np: MPI started on rank 0 by '$h0', on the others by '$hr' (want '$(how0_want)', 'MPI_Init main')"
    elif [ "$impl" = mpich ] && [ "$me0" != - ] && grep -q '^rank 0 ch4:ucx yes$' "$RT_STDERR" &&
        { [ "$me0" != 0 ] || [ "$mer" != 1 ]; }; then
        rt_fail "-n $np: UCX's memory events at MPI_Init: rank 0 '$me0', the others '$mer' (want 0, 1)"
    elif [ "$nl1" != "$nl_want" ]; then
        rt_fail "-n $np: MPIR_CVAR_NOLOCAL at MPI_Init and after: '$nl1' (want '$nl_want')"
    elif [ "$start0" != "Comm_idup Iallgather Ibarrier" ]; then
        rt_fail "-n $np WTC_DOORBELL=0: start-up collectives '$start0'"
    # half at most: with it rank 0 probed 10-250 times against 5800-8900 without, and
    # once 1788 against 7205 on a loaded host (waits ask MPI whatever the doorbell
    # says, and a loaded host makes rank 0 wait more); a broken doorbell probes as often
    elif [ -z "$p0" ] || [ -z "$p1" ] || [ $((p1 * 2)) -ge "$p0" ]; then
        rt_fail "-n $np: rank 0 probed ${p1:-?} times with the doorbell, ${p0:-?} without"
    else
        rt_pass "-n $np: start-up '$start1' (no doorbell: '$start0'); rank 0 probed $p1 times ($p0 without); HWLOC_COMPONENTS '$hw1', UCX_TLS '$ucx1', MPIR_CVAR_NOLOCAL '$nl1'"
    fi
done

# WTC_START_EARLY=0: every rank starts MPI before main
WTC_START_EARLY=0 run 3 1
h0=$(how0) hr=$(howrest)
if [ "$RT_RC" = 0 ] && [ "$(cat "$RT_STDOUT")" = 46368 ] && [ "$h0" = "MPI_Init main" ] &&
    [ "$hr" = "MPI_Init main" ] && [ "$(starts)" = "Comm_idup Iallgather Iallreduce" ]; then
    rt_pass "WTC_START_EARLY=0: every rank calls MPI_Init in its main thread"
else
    rt_fail "WTC_START_EARLY=0: status $RT_RC, rank 0 '$h0', others '$hr', start-up '$(starts)'"
fi

# env_kept LABEL HW UCX NL: the last run printed 46368 with status 0, and its ranks saw
# HWLOC_COMPONENTS, UCX_TLS and MPIR_CVAR_NOLOCAL as HW, UCX and NL ("at MPI_Init, at
# the end" of every rank)
env_kept() {
    hw=$(hwloc) u=$(ucx) nl=$(nolocal)
    if [ "$RT_RC" = 0 ] && [ "$(cat "$RT_STDOUT")" = 46368 ] && [ "$hw" = "$2" ] &&
        [ "$u" = "$3" ] && [ "$nl" = "$4" ]; then
        rt_pass "$1: HWLOC_COMPONENTS '$hw', UCX_TLS '$u', MPIR_CVAR_NOLOCAL '$nl'"
    else
        rt_fail "$1: status $RT_RC, at MPI_Init and after: HWLOC_COMPONENTS '$hw' (want '$2'), UCX_TLS '$u' (want '$3'), MPIR_CVAR_NOLOCAL '$nl' (want '$4')"
    fi
}

# a job hydra says spans nodes (each rank told it is the only one on its node): hwloc's
# GPU components are still off, UCX_TLS and MPIR_CVAR_NOLOCAL are left alone
run 3 1 MPI_LOCALNRANKS=1
env_kept "a job across nodes (MPI_LOCALNRANKS=1)" "$gpus_off" "(unset) (unset)" "(unset) (unset)"
# and rank 0 starts MPI before main, UCX's memory events on (RDMA networks need them)
if [ "$impl" = mpich ]; then
    if [ "$(how0)" = "MPI_Init main" ] && [ "$(memev0)" != 0 ]; then
        rt_pass "a job across nodes: rank 0 starts MPI before main, UCX's memory events '$(memev0)'"
    else
        rt_fail "a job across nodes: rank 0 started MPI by '$(how0)', UCX's memory events '$(memev0)' (want 'MPI_Init main', not 0)"
    fi
fi

# the user's UCX_MEM_EVENTS: on, rank 0 starts MPI before main (MPI_Init would move the
# program break while main allocates); off, in its start thread
if [ "$impl" = mpich ] && grep -q '^rank 0 ch4:ucx yes$' "$RT_STDERR"; then
    for ev in yes no; do
        run 3 1 UCX_MEM_EVENTS=$ev
        want_how="MPI_Init_thread thread" want_ev=0
        [ $ev = yes ] && want_how="MPI_Init main" want_ev=1
        if [ "$RT_RC" = 0 ] && [ "$(cat "$RT_STDOUT")" = 46368 ] && [ "$(how0)" = "$want_how" ] &&
            { [ "$(memev0)" = "$want_ev" ] || [ "$(memev0)" = - ]; }; then
            rt_pass "UCX_MEM_EVENTS=$ev: rank 0 starts MPI by '$want_how', UCX's memory events '$(memev0)'"
        else
            rt_fail "UCX_MEM_EVENTS=$ev: status $RT_RC, rank 0 started MPI by '$(how0)', UCX's memory events '$(memev0)' (want '$want_how', $want_ev)"
        fi
    done
fi

# no cma (process_vm_writev refused, as by a seccomp filter): UCX_TLS=self,sm, no warning
if [ "$impl" = mpich ]; then
    run 2 1 WTC_TEST_NO_CMA=1
    if grep -q 'UCX.*WARN' "$RT_STDERR"; then
        rt_fail "no cma: UCX warned: $(grep -m1 'UCX.*WARN' "$RT_STDERR")"
    else
        env_kept "no cma (process_vm_writev refused)" "$(hwloc_want)" \
            "self,sm (unset)" "$(nolocal_want)"
    fi
fi

# a program that includes <mpi.h> may ask MPICH about the hardware itself
# (MPI_Comm_split_type): it gets the topology, without I/O devices, x86 and GPUs
mprog=$RT_OUT/start_calls_mpi
if $RT_WTCC --no-predict tests/unit/rt_calls_mpi.wtc -o "$mprog" >"$RT_STDERR" 2>&1; then
    PROG=$mprog run 2 1
    hw=$(hwloc)
    if [ "$RT_RC" = 0 ] && grep -q '^fib 75025, MPI_Wtime ok$' "$RT_STDOUT" &&
        [ "$hw" = "$io_off" ]; then
        rt_pass "a program that includes <mpi.h>: HWLOC_COMPONENTS '$hw'"
    else
        rt_fail "a program that includes <mpi.h>: status $RT_RC, HWLOC_COMPONENTS '$hw' (want '$io_off')"
    fi
else
    rt_fail "build rt_calls_mpi.wtc"
fi

# the user's HWLOC_COMPONENTS, UCX_TLS and MPIR_CVAR_NOLOCAL are the user's
HWLOC_COMPONENTS=-linuxio UCX_TLS=self,sm,tcp MPIR_CVAR_NOLOCAL=0 run 2 1
env_kept "a user's HWLOC_COMPONENTS=-linuxio UCX_TLS=self,sm,tcp MPIR_CVAR_NOLOCAL=0 are kept" \
    "-linuxio -linuxio" "self,sm,tcp self,sm,tcp" "0 0"

# a segment of another job may come and go meanwhile: look twice
left=$(printf '%s\n' "$(segs)" | grep -vxF -e "$before" -e '' || true)
[ -n "$left" ] && { sleep 1; left=$(printf '%s\n' "$(segs)" | grep -vxF -e "$before" -e '' || true); }
if [ -z "$left" ]; then
    rt_pass "no shared-memory segment left behind"
else
    rt_fail "segments left in /dev/shm: $left"
fi
rm -f "$shim"
rt_summary
