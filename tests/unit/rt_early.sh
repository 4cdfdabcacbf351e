#!/bin/sh
# Rank 0 runs main's first lines while MPI starts in a thread (doc/runtime.md
# "Start-up"): the program's output and exit status are those of a plain C program
# however main begins - printing, sleeping while MPI starts, fork()ing a child that
# exits, calling exit() or returning before any region - at -n 1 (no MPI) to 4, and
# with WTC_START_EARLY=0 (MPI started before main). The options are still checked
# against the job's size before main runs, and a job MPI sees as one process although
# hydra's variables say more is stopped with the launcher's message, either way. A
# program that includes <mpi.h> may call MPI in main: MPI starts before main on every
# rank, at -n 1 and without mpiexec too.
. "$(dirname "$0")/rt_lib.inc"

prog=$RT_OUT/rt_early
rt_wtcc rt_early "$prog"

N=5000
# expect LABEL WANT_RC HOW: stdout is exactly what the program prints for HOW
expect() {
    label=$1 want_rc=$2 how=$3
    {
        [ "$how" = fork ] && echo child
        i=0
        while [ $i -lt $N ]; do echo "line $i"; i=$((i + 1)); done
        case $how in
        exit | noregion) ;;
        *)
            echo "fib 6765"
            echo "buffering full"
            while [ $i -lt $((2 * N)) ]; do echo "line $i"; i=$((i + 1)); done
            ;;
        esac
    } >"$RT_OUT/early.want"
    if [ "$RT_RC" != "$want_rc" ]; then
        rt_fail "$label" "exit status $RT_RC, want $want_rc"
    elif ! cmp -s "$RT_OUT/early.want" "$RT_STDOUT"; then
        rt_fail "$label" "stdout differs: $(diff "$RT_OUT/early.want" "$RT_STDOUT" | head -n 3 | tr '\n' ' ')"
    else
        rt_pass "$label"
    fi
}

for np in 1 2 3 4; do
    for how in region slow fork; do
        rt_run $np "$prog" $N $how
        expect "$how at -n $np" 0 $how
    done
    rt_run $np "$prog" $N exit
    expect "exit(3) before any region at -n $np" 3 exit
    rt_run $np "$prog" $N noregion
    expect "return 4 without any region at -n $np" 4 noregion
done
for how in slow exit; do
    WTC_START_EARLY=0 rt_run 3 "$prog" $N $how
    expect "WTC_START_EARLY=0, $how at -n 3" "$([ $how = exit ] && echo 3 || echo 0)" $how
done

# the options are checked against hydra's job size before main runs: nothing printed
rt_run 3 "$prog" $N slow --wtc-mode=dynamic --wtc-masters=3
if [ "$RT_RC" = 2 ] && [ ! -s "$RT_STDOUT" ] &&
    grep -q "^wtc: error: --wtc-masters=3 needs at least 4 ranks (running on 3)" "$RT_STDERR"; then
    rt_pass "--wtc-masters=3 at -n 3: refused before main, status 2"
else
    rt_fail "--wtc-masters=3 at -n 3" "status $RT_RC, stdout $(wc -c <"$RT_STDOUT") bytes"
fi

# a program that includes <mpi.h> (and only such a program) tells the runtime so
mprog=$RT_OUT/rt_calls_mpi
if $RT_WTCC --no-predict tests/unit/rt_calls_mpi.wtc -o "$mprog" >"$RT_STDERR" 2>&1 &&
    [ "$($RT_WTCC -E tests/unit/rt_calls_mpi.wtc -o - | grep -c '^const int wtc_calls_mpi = 1;')" = 1 ] &&
    [ "$($RT_WTCC -E tests/unit/rt_early.wtc -o - | grep -c 'wtc_calls_mpi')" = 0 ]; then
    rt_pass "wtc_calls_mpi defined for a program with <mpi.h>, not for one without"
else
    rt_fail "wtc_calls_mpi in the generated code"
fi
for np in 0 1 2 3; do
    RT_RC=0
    if [ $np = 0 ]; then
        timeout "$RT_TIMEOUT" "$mprog" >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
    else
        rt_run $np "$mprog"
    fi
    printf 'MPI started before main: yes\nfib 75025, MPI_Wtime ok\n' >"$RT_OUT/early.want"
    if [ "$RT_RC" = 0 ] && cmp -s "$RT_OUT/early.want" "$RT_STDOUT"; then
        rt_pass "MPI called in main before any region, $([ $np = 0 ] && echo 'no mpiexec' || echo "-n $np")"
    else
        rt_fail "MPI called in main before any region, -n $np" "status $RT_RC, stdout $(head -c 80 "$RT_STDOUT")"
    fi
done

# a program written as an MPI program: its own MPI_Init (or MPI_Init_thread) and
# MPI_Finalize around the regions (runtime/mpi/user_mpi.c); MPICH stopped it at MPI_Init
printf 'init ok, rank 0, sized\nfib 75025\nfinalize ok\nfib 6765\n' >"$RT_OUT/user_init.want"
for variant in init thread; do
    uprog=$RT_OUT/rt_user_$variant
    call=MPI_Init$([ $variant = thread ] && echo _thread)
    if ! $RT_WTCC --no-predict $([ $variant = thread ] && echo -DTHREAD) \
        tests/unit/rt_user_init.wtc -o "$uprog" >"$RT_STDERR" 2>&1; then
        rt_fail "rt_user_init.wtc ($variant) does not build" "$(head -c 200 "$RT_STDERR")"
        continue
    fi
    for np in 0 1 3; do
        RT_RC=0
        if [ $np = 0 ]; then
            timeout "$RT_TIMEOUT" "$uprog" >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
        else
            rt_run $np "$uprog"
        fi
        if [ "$RT_RC" = 0 ] && cmp -s "$RT_OUT/user_init.want" "$RT_STDOUT"; then
            rt_pass "the program's own $call and MPI_Finalize, $([ $np = 0 ] && echo 'no mpiexec' || echo "-n $np")"
        else
            rt_fail "the program's own $call and MPI_Finalize, -n $np" "status $RT_RC, stdout $(head -c 80 "$RT_STDOUT")"
        fi
    done
done

# hydra's variables without hydra (a launcher MPICH cannot talk to): MPI starts alone,
# and the start says so and stops the program, status 2, as before main
for early in 1 0; do
    RT_RC=0
    PMI_RANK=0 PMI_SIZE=2 WTC_START_EARLY=$early timeout "$RT_TIMEOUT" "$prog" 3 region \
        >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
    if [ "$RT_RC" = 2 ] && grep -q "^wtc: error: started as one of 2 processes (PMI_SIZE=2)" "$RT_STDERR" &&
        ! grep -q "^fib" "$RT_STDOUT" && ! grep -qi "finaliz" "$RT_STDERR"; then
        rt_pass "PMI_SIZE=2 without its launcher, WTC_START_EARLY=$early: refused, status 2"
    else
        rt_fail "PMI_SIZE=2 without its launcher, WTC_START_EARLY=$early" "status $RT_RC"
    fi
done

# WTC_DECISIONS naming a directory: every rank finds it with the options' checks and the
# job stops together, status 2, with one line. Before 2026-11-27 rank 0 alone failed
# before MPI started and ranks 1 and 2 waited for it until the timeout; until 2026-12-01
# it then aborted, and the other ranks printed MPICH's failed-start stacks and left a file
# in /dev/shm (a helper's bug hunt)
mkdir -p "$RT_OUT/early_dir"
RT_RC=0
WTC_DECISIONS=$RT_OUT/early_dir timeout 30 mpiexec -n 3 "$prog" 3 region \
    >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
if [ "$RT_RC" = 2 ] && grep -q "^wtc: error: WTC_DECISIONS=.*: cannot open it" "$RT_STDERR" &&
    ! grep -q "Fatal error" "$RT_STDERR"; then
    rt_pass "WTC_DECISIONS that cannot be written: the job stops together, status 2, with the message"
else
    rt_fail "WTC_DECISIONS a directory" "status $RT_RC (124: hung): $(head -3 "$RT_STDERR")"
fi
rt_summary
