#!/bin/sh
# driver_smpi.sh - wtcc --cc=smpicc (SimGrid SMPI, doc/wtcc.md "SimGrid SMPI").
# Without SimGrid: a missing smpicc is a clear error (status 2, a note saying how to get
# it); a wrapper whose <mpi.h> is SMPI's is told apart (impl 'smpi') and, without an
# SMPI runtime, refused with the usual note. With smpicc, smpirun and lib/wtc/smpi: a
# sample built with --cc=smpicc runs under smpirun on the bench's platform (its <config>
# holds the SMPI settings) in the three modes with the right output, in steal mode at
# P = 8 and 16 too, the runtime's barrier holds every rank until the last one came
# (wtcrt_ibarrier), dynamic mode's end under smpi/async-small-thresh takes what has
# come before it tests that barrier, its predictor (host cc) links and runs, and the
# calibrator built for SMPI measures the platform's latency and bandwidth and counts a
# loop spinning beside it as about one core; shared bounds
# (tests/unit/share.wtc) hold in the three modes at P = 5, and the fast bins of the C
# library are off under SMPI (mpi/single.c smpi_heap). That part is
# skipped with a message when SimGrid is absent (bench/smpi/run.sh installs it).
# Run from the repository root after 'make'. WTCC=path overrides bin/wtcc.
. "$PWD/tests/unit/driver_lib.inc"
ROOT=$PWD
cp "$SRC" "$T/fib.wtc" && cd "$T" && mkdir -p nobin fake/smpi || exit 1

# 1. no smpicc on the PATH
PATH="$T/nobin:/usr/bin:/bin" timeout 120 "$WTCC" --cc="$T/nobin/smpicc" fib.wtc -o o1 2>err
st=$?
[ $st = 2 ] || fail "missing smpicc: status $st, expected 2: $(cat err)"
grep -q "wtcc: error: cannot run '.*smpicc' (the preprocessor)" err ||
    fail "missing smpicc: message: $(cat err)"
grep -q "note: smpicc is SimGrid's (SMPI): on Debian 'apt-get install libsimgrid-dev simgrid'" err ||
    fail "missing smpicc: no note on where to get it: $(cat err)"
[ ! -e o1 ] || fail "missing smpicc: an output was written"

# 2. a wrapper with SMPI's <mpi.h> (a fake: smpi/smpi.h defines SMPI_H) is 'smpi'
printf '#include <smpi/smpi.h>\n' > fake/mpi.h
printf '#define SMPI_H\n' > fake/smpi/smpi.h
printf '#!/bin/sh\nexec cc -I"%s/fake" "$@"\n' "$T" > fake-smpicc && chmod +x fake-smpicc
impl=$(sh "$ROOT/tools/mpi-info.sh" "$T/fake-smpicc" | cut -d' ' -f1)
[ "$impl" = smpi ] || fail "tools/mpi-info.sh: an SMPI wrapper is '$impl', expected smpi"
if [ ! -e "$(dirname "$WTCC")/../lib/wtc/smpi/libwtcrt_mpi.a" ]; then
    timeout 120 "$WTCC" --cc="$T/fake-smpicc" fib.wtc -o o2 2>err
    st=$?
    [ $st = 2 ] || fail "SMPI without its runtime: status $st, expected 2: $(cat err)"
    grep -q "no wtcc runtime for the MPI of '.*fake-smpicc' (smpi)" err ||
        fail "SMPI without its runtime: message: $(cat err)"
fi

# 3. the real thing
if ! command -v smpicc >/dev/null 2>&1 || ! command -v smpirun >/dev/null 2>&1; then
    echo "SKIP: driver_smpi: SimGrid (smpicc, smpirun) not installed: part 3 not run"
elif [ ! -e "$(dirname "$WTCC")/../lib/wtc/smpi/libwtcrt_mpi.a" ]; then
    fail "smpicc is installed but lib/wtc/smpi/libwtcrt_mpi.a is not built ('make')"
else
    timeout 300 "$WTCC" --cc=smpicc fib.wtc -o fib 2>err ||
        fail "wtcc --cc=smpicc failed: $(cat err)"
    [ -s err ] && fail "wtcc --cc=smpicc printed: $(cat err)"
    for mode in simple dynamic steal; do
        timeout 120 smpirun -np 4 -platform "$ROOT/bench/smpi/cluster.xml" \
            ./fib 27 --wtc-mode=$mode >out 2>err
        st=$?
        [ $st = 0 ] || fail "smpirun -np 4 ($mode): status $st: $(tail -5 err)"
        # one rank ran main: the output once, as with mpiexec
        cmp -s out "$ROOT/samples/fib.out" ||
            fail "smpirun -np 4 ($mode): output $(cat out), expected $(cat "$ROOT/samples/fib.out")"
    done
    # shared bounds under SMPI (no doorbell: BOUNDs are taken at the polls only)
    timeout 300 "$WTCC" --cc=smpicc --no-predict "$ROOT/tests/unit/share.wtc" -o share 2>err ||
        fail "wtcc --cc=smpicc share.wtc failed: $(cat err)"
    for mode in simple dynamic steal; do
        timeout 120 smpirun -np 5 -platform "$ROOT/bench/smpi/cluster.xml" \
            ./share --wtc-mode=$mode >out 2>err
        st=$?
        [ $st = 0 ] && [ "$(cat out)" = "meet: 2, best 5000
shared bounds OK" ] || fail "smpirun -np 5 share ($mode): status $st, output $(cat out)"
    done
    # steal mode with many thieves: every thief once asked rank 0 (an unseeded victim
    # generator), which never finished at P >= 5; the simulated time stays near fib
    # 27's ~1 ms of computing (it took 0.4 s at P = 4 then)
    for P in 8 16; do
        timeout 60 smpirun -np $P -platform "$ROOT/bench/smpi/cluster.xml" \
            ./fib 27 --wtc-mode=steal >out 2>err
        st=$?
        t=$(awk '/^TIME /{ print $3 }' err)
        if [ $st != 0 ]; then
            fail "smpirun -np $P (steal): status $st$([ $st = 124 ] && echo ' (timeout 60 s)'): $(tail -3 err)"
        elif ! cmp -s out "$ROOT/samples/fib.out"; then
            fail "smpirun -np $P (steal): output $(cat out), expected $(cat "$ROOT/samples/fib.out")"
        elif ! awk -v t="${t:-x}" 'BEGIN { exit !(t + 0 > 0 && t + 0 < 0.05) }'; then
            fail "smpirun -np $P (steal): simulated time '${t:-none}' s, expected below 0.05 s"
        fi
    done
    # dynamic mode's end under smpi/async-small-thresh: the master takes the workers'
    # last REQs and IDLEs after it entered the end's sum; it tested the sum before each,
    # and an MPI_Test of it (an MPI_Iallreduce) costs SMPI 2(P-1) us: fib 32 at P = 64
    # took 0.045 s simulated, 0.014 s with the messages taken first (and 0.0045 s once
    # the control messages were no longer MPI_Issends, rendezvous in SMPI)
    timeout 300 "$WTCC" --cc=smpicc "$ROOT/samples/fib.wtc" -o fibd 2>err ||
        fail "wtcc --cc=smpicc samples/fib.wtc failed: $(cat err)"
    timeout 120 smpirun -np 64 -platform "$ROOT/bench/smpi/cluster.xml" \
        --cfg=smpi/async-small-thresh:65536 ./fibd 32 --wtc-mode=dynamic >out 2>err
    st=$?
    t=$(awk '/^TIME /{ print $3 }' err)
    if [ $st != 0 ]; then
        fail "smpirun -np 64 (dynamic, async-small): status $st: $(tail -3 err)"
    elif ! grep -q OK out; then
        fail "smpirun -np 64 (dynamic, async-small): output $(cat out)"
    elif ! awk -v t="${t:-x}" 'BEGIN { exit !(t + 0 > 0 && t + 0 < 0.025) }'; then
        fail "smpirun -np 64 (dynamic, async-small): simulated time '${t:-none}' s, expected below 0.025 s"
    fi
    # the end of a region's barrier (wtcrt_ibarrier) under SMPI: nobody leaves before the
    # last rank entered. SimGrid 3.32's MPI_Ibarrier lets ranks 2 and 3 go at 70 us while
    # rank 1 enters at 1 s; a STEAL to a rank that had left was never answered, and steal
    # mode hung in 1 run of 3 at P = 128.
    cat >ibar.c <<'EOF_C'
#include <stdio.h>
#include <unistd.h>
#include "wtcrt.h"
int main(int argc, char **argv)
{
    static wtcrt_rt rt; /* a state of its own, as tests/abi/pieces.c */
    int rank, done = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    rt.comm = MPI_COMM_WORLD;
    if (rank == 1)
        sleep(1); /* simulated */
    wtcrt_ibarrier(&rt, &req);
    while (!done) {
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (!done)
            usleep(10);
    }
    printf("%d %.6f\n", rank, MPI_Wtime());
    MPI_Finalize();
    return 0;
}
EOF_C
    if ! timeout 300 smpicc -DWTCRT_MPI -I"$ROOT/runtime" -I"$ROOT/runtime/common" \
        -I"$ROOT/runtime/core" -I"$ROOT/runtime/mpi" ibar.c \
        "$(dirname "$WTCC")/../lib/wtc/smpi/libwtcrt_mpi.a" -lm -o ibar >err 2>&1; then
        fail "smpicc of a wtcrt_ibarrier test failed: $(head -5 err)"
    elif ! timeout 60 smpirun -np 4 -platform "$ROOT/bench/smpi/cluster.xml" ./ibar \
        >out 2>err; then
        fail "smpirun of the wtcrt_ibarrier test failed: $(tail -3 err)"
    elif [ "$(awk '$2 + 0 >= 1 { n++ } END { print n + 0 }' out)" != 4 ]; then
        fail "wtcrt_ibarrier under SMPI: a rank left before rank 1 entered at 1 s:" \
            "$(sort out | tr '\n' ' ')"
    fi
    # the SMPI flavour turns the C library's fast bins off (mpi/single.c smpi_heap):
    # with them, a rank's request of 1 KiB or more coalesced every small block the
    # simulator had freed, and SMPI charged that rank 2-4 ms of computing. Freed small
    # blocks beyond the thread cache go to the fast bins natively (24 or so of 32 here),
    # to none under SMPI.
    cat >heap.wtc <<'EOF_C'
#include <stdio.h>
#include <stdlib.h>
/* glibc's <malloc.h>, which smpicc's malloc macros break */
struct mallinfo2 { size_t arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks,
                   uordblks, fordblks, keepcost; };
struct mallinfo2 mallinfo2(void);
int main(void)
{
    void *p[64];
    struct mallinfo2 mi;
    for (int i = 0; i < 64; i++)
        p[i] = malloc(24);
    for (int i = 0; i < 64; i += 2) /* every other one: no block joins its neighbour */
        free(p[i]);
    mi = mallinfo2();
    printf("fast %zu\n", mi.smblks);
    for (int i = 1; i < 64; i += 2)
        free(p[i]);
    return 0;
}
EOF_C
    if ! timeout 300 "$WTCC" --cc=smpicc --no-predict heap.wtc -o heap 2>err; then
        fail "wtcc --cc=smpicc heap.wtc failed: $(cat err)"
    elif ! timeout 300 "$WTCC" --no-predict heap.wtc -o heapn 2>err; then
        fail "wtcc heap.wtc failed: $(cat err)"
    elif ! timeout 60 smpirun -np 2 -platform "$ROOT/bench/smpi/cluster.xml" ./heap \
        >out 2>err; then
        fail "smpirun of heap.wtc failed: $(tail -3 err)"
    elif [ "$(cat out)" != "fast 0" ]; then
        fail "the SMPI flavour left the fast bins on: $(cat out), expected 'fast 0'"
    elif ! timeout 60 ./heapn >out 2>err ||
        ! awk '$1 == "fast" && $2 + 0 > 0 { ok = 1 } END { exit !ok }' out; then
        fail "natively heap.wtc should see small blocks in the fast bins: $(cat out)"
    fi
    # the calibrator under smpirun measures the platform: 50 us and 1 Gb/s (8 ns/B)
    # host to host in cluster.xml
    cal="$(dirname "$WTCC")/../lib/wtc/smpi/wtc-calibrate"
    if [ ! -x "$cal" ]; then
        fail "smpicc is installed but lib/wtc/smpi/wtc-calibrate is not built ('make')"
    elif ! timeout 300 smpirun -np 2 -platform "$ROOT/bench/smpi/cluster.xml" "$cal" \
        -o cal.conf --quick >out 2>err; then
        fail "wtc-calibrate under smpirun failed: $(tail -3 err)"
    elif ! awk '$1 == "L" { l = $3 } $1 == "G" { g = $3 }
                END { exit !(l > 40e-6 && l < 60e-6 && g > 7e-9 && g < 9.5e-9) }' cal.conf; then
        fail "wtc-calibrate under smpirun: L, G not the platform's 50 us, 8 ns/B:" \
            "$(grep -E '^(L|G) ' cal.conf | tr '\n' ' ')"
    fi
    # under SMPI the calibrator counts other processes with the real clocks and process
    # ids (calibrate/wtc_calibrate.c host_use): a shell loop spinning beside it is about
    # one core (1.01 here; half of one on a host of one core): the simulated ranks are one
    # process, counted once (once per rank, the loop came out at 0.21)
    if [ -x "$cal" ]; then
        timeout 300 sh -c 'while :; do :; done' &
        spin=$!
        timeout 300 smpirun -np 2 -platform "$ROOT/bench/smpi/cluster.xml" "$cal" \
            -o others.conf --quick >out 2>err
        st=$?
        kill $spin 2>/dev/null
        wait $spin 2>/dev/null
        # what the host ran before the loop (other jobs beside this test) is not the loop's
        used=$(sed -n 's/^# other processes on this host used \([0-9.]*\) cores.*/\1/p' others.conf)
        base=$(sed -n 's/^# other processes on this host used \([0-9.]*\) cores.*/\1/p' cal.conf)
        [ $st = 0 ] && grep -q 'WARNING: other processes on this host used' err &&
            awk -v u="${used:-x}" -v b="${base:-0}" \
                'BEGIN { exit !(u - b > 0.35 && u - b < 1.5) }' ||
            fail "wtc-calibrate under smpirun beside a spinning loop: status $st," \
                "'${used}' cores ('${base}' without it): $(grep WARNING err)"
    fi
    timeout 120 ./fib.predict --wtc-procs=1,4 --wtc-modes=simple \
        --wtc-machine="$ROOT/bench/smpi/smpi-1gbe.conf" 27 >pred 2>err ||
        fail "the predictor of an SMPI build failed: $(cat err)"
    grep -q "^simple  *4 " pred || fail "the predictor's table has no P=4 row: $(cat pred)"
fi

[ $failed = 0 ] && echo "PASS: driver_smpi"
exit $failed
