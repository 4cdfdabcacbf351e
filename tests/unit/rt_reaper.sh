#!/bin/sh
# The shared heap's reaper (runtime/mpi/heap.c "the reaper", doc/runtime.md "Big
# buffers stay where they are on one host"): the last local rank to map the segment
# leaves a process (wtc-heapreap) that holds the segment's file and nothing else, so
# that the pages are released after the job instead of in its last rank's exit, and
# that ends once every local rank has ended. rt_reaper.wtc finds it from rank 0.
#   -n 2, 3 and 5 in each mode: the reaper holds the segment and one pidfd a local rank,
#     no other descriptor (mpiexec does not wait for it: no stdout, no PMI socket),
#     does not map the segment, and is gone within 5 s after mpiexec returns
#   a descriptor above the soft RLIMIT_NOFILE (stdout moved there): closed as well
#   WTC_HEAP_REAPER=0, WTC_SHARED_HEAP=0, under strace -f and -n 1: no reaper, the sum
#     right
. "$(dirname "$0")/rt_lib.inc"

prog=$RT_OUT/reaper
rt_wtcc rt_reaper "$prog"

# gone PID: 0 when process PID has ended within 5 s
gone() {
    i=0
    while [ -d "/proc/$1" ] && [ $i -lt 50 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    [ ! -d "/proc/$1" ]
}

for c in "2 steal" "3 simple" "3 dynamic" "5 steal"; do
    set -- $c
    rt_run $1 "$prog" --wtc-mode=$2
    label="$2 -n $1"
    pid=$(sed -n 's/^reaper \([0-9]*\)$/\1/p' "$RT_STDOUT")
    want="descriptors $(($1 + 1)): the segment and $1 pidfds
maps the segment 0
sum OK"
    if [ "$RT_RC" != 0 ] || [ -z "$pid" ] || [ "$(sed 1d "$RT_STDOUT")" != "$want" ]; then
        rt_fail "$label" "status $RT_RC, output '$(cat "$RT_STDOUT")'"
    elif ! gone "$pid"; then
        rt_fail "$label" "the reaper $pid still runs 5 s after the job"
    else
        rt_pass "$label: the reaper held the segment and $1 pidfds, and ended after the job"
    fi
done

# A descriptor above the soft RLIMIT_NOFILE (the job's stdout, moved there before a
# parent lowered the limit): the reaper closes it too, else a shell reading the job's
# output waits for the reaper's exit. fdhigh moves stdout to the hard limit's last
# descriptor (at most 4095), lowers the soft limit to that number and runs mpiexec.
cat >"$RT_OUT/fdhigh.c" <<'EOF'
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    struct rlimit rl;
    int fd;
    if (argc < 2 || getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 2;
    fd = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > 4096 ? 4095 : (int)rl.rlim_max - 1;
    if (fd < 511) {
        printf("skip\n");
        return 0;
    }
    rl.rlim_cur = (rlim_t)fd; /* descriptor fd lies at the soft limit, not below it */
    if (dup2(1, fd) != fd || setrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 2;
    execvp(argv[1], argv + 1);
    return 2;
}
EOF
if ! cc -o "$RT_OUT/fdhigh" "$RT_OUT/fdhigh.c" 2>"$RT_STDERR"; then
    rt_fail "a descriptor above the soft RLIMIT_NOFILE" "cannot build fdhigh.c"
else
    RT_RC=0
    timeout "$RT_TIMEOUT" "$RT_OUT/fdhigh" mpiexec -n 2 "$prog" >"$RT_STDOUT" \
        2>"$RT_STDERR" || RT_RC=$?
    if [ "$RT_RC" = 0 ] && [ "$(cat "$RT_STDOUT")" = skip ]; then
        rt_pass "a descriptor above the soft RLIMIT_NOFILE: skipped (hard limit below 512)"
    elif [ "$RT_RC" != 0 ] || [ "$(sed 1d "$RT_STDOUT")" != "descriptors 3: the segment and 2 pidfds
maps the segment 0
sum OK" ]; then
        rt_fail "a descriptor above the soft RLIMIT_NOFILE" \
            "status $RT_RC, output '$(cat "$RT_STDOUT")'"
    else
        rt_pass "a descriptor above the soft RLIMIT_NOFILE: the reaper closed it too"
    fi
fi

for v in WTC_HEAP_REAPER WTC_SHARED_HEAP; do
    RT_RC=0
    env $v=0 timeout "$RT_TIMEOUT" mpiexec -n 2 "$prog" >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
    rt_expect "$v=0, -n 2: no reaper" 0 "reaper none
sum OK"
done
# Under a tracer that follows forks (mpiexec -n 2 strace -f ./prog) no reaper: the tracer
# followed it and waited for it while it waited for every local rank, so a rank that died
# was never seen to end and the job hung until its timeout
if command -v strace >/dev/null && strace -f -qq -o /dev/null true 2>/dev/null; then
    RT_RC=0
    timeout "$RT_TIMEOUT" mpiexec -n 2 strace -f -qq -o /dev/null "$prog" >"$RT_STDOUT" \
        2>"$RT_STDERR" || RT_RC=$?
    rt_expect "under strace -f, -n 2: no reaper" 0 "reaper none
sum OK"
else
    echo "(no strace, or no ptrace here: the traced case is not run)"
fi
rt_run 1 "$prog"
rt_expect "-n 1: no shared heap, no reaper" 0 "reaper none
sum OK"
rt_summary
