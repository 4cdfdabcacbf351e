#!/bin/sh
# rt_launcher.sh - a program started by another MPI's mpiexec stops with a message
# naming the right one (doc/runtime.md "Another MPI's mpiexec"). Such a launcher starts
# P copies that each see MPI say "one process": without the check each ran the whole
# program, printing its output P times, exit status 0. The other launcher is faked by
# its job-size variable (no second MPI needed); the check must not fire when the
# launcher of the program's own MPI says 1, nor on normal runs.
# Run from the repository root after 'make'.
. "$PWD/tests/unit/driver_lib.inc"
info=$(sh tools/mpi-info.sh mpicc) || { echo "FAIL: tools/mpi-info.sh mpicc"; exit 1; }
impl=${info%% *} mpiexec_right=${info#* }
# the job-size variable of the other MPI's launcher, and of this one's
if [ "$impl" = openmpi ]; then other=PMI_SIZE own=OMPI_COMM_WORLD_SIZE
else other=OMPI_COMM_WORLD_SIZE own=PMI_SIZE; fi
cd "$T" && timeout 120 "$WTCC" --no-predict "$SRC" -o fib 2>err ||
    { echo "FAIL: wtcc: $(cat err)"; exit 1; }
expect_ok() { # label: the run printed fib's answer once and exited 0
    [ "$st" = 0 ] && [ "$(grep -c '^fib(20) = 6765 OK$' out)" = 1 ] ||
        fail "$1: status $st, stdout: $(cat out) stderr: $(cat err)"
    grep -q 'wtc: error' err && fail "$1: the check fired: $(cat err)"
}

# another MPI's launcher said 2 (and this process is its rank 1)
env $other=2 OMPI_COMM_WORLD_RANK=1 PMI_RANK=1 timeout 60 ./fib 20 >out 2>err
st=$?
[ $st = 2 ] || fail "$other=2: status $st, expected 2"
[ -s out ] && fail "$other=2: the program ran: $(cat out)"
grep -q "^wtc: error: started as one of 2 processes ($other=2), but .*, the MPI this program was built with, sees a job of one" err ||
    fail "$other=2: message: $(cat err)"
grep -qF "wtc: note: start it with $mpiexec_right -n 2" err ||
    fail "$other=2: the right mpiexec ($mpiexec_right) not named: $(cat err)"

# srun started 3 copies without wiring them to MPI (Slurm's step size, no MPI launcher)
WTC_ALONE=0 SLURM_STEP_NUM_TASKS=3 timeout 60 ./fib 20 >out 2>err
st=$?
[ $st = 2 ] && grep -q "one of 3 processes (SLURM_STEP_NUM_TASKS=3).*: srun started it" err ||
    fail "SLURM_STEP_NUM_TASKS=3: status $st: $(cat err)"

# must not fire: the own launcher says 1 (alone, and with MPI started), a stray variable
# of another launcher or Slurm's daemon count under it, normal runs
env $own=1 timeout 60 ./fib 20 >out 2>err; st=$?; expect_ok "$own=1"
WTC_ALONE=0 timeout 60 mpiexec -n 1 ./fib 20 >out 2>err; st=$?; expect_ok "WTC_ALONE=0 -n 1"
env WTC_ALONE=0 $other=3 SLURM_STEP_NUM_TASKS=2 timeout 60 mpiexec -n 1 ./fib 20 >out 2>err
st=$?; expect_ok "-n 1 with a stray $other=3"
timeout 60 mpiexec -n 2 ./fib 20 >out 2>err; st=$?; expect_ok "-n 2"
timeout 60 ./fib 20 >out 2>err; st=$?; expect_ok "no launcher"

[ $failed = 0 ] && echo "PASS: rt_launcher"
exit $failed
