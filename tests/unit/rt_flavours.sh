#!/bin/sh
# The MPI runtime compiles without a warning in every flavour it is built in, not only
# in this host's: runtime/mpi/wtc_mpi_impl.h tells SimGrid's SMPI (SMPI_H), Open MPI
# (OMPI_MAJOR_VERSION) and MPICH apart by their <mpi.h>, and code only one flavour calls
# is left unused in the others (SMPI's flavour stopped building on 2026-11-29 with two
# functions it does not call, and Open MPI's with one; CI has neither). Every runtime
# source is compiled with this host's mpicc and the Makefile's warnings (-Werror) as
# each flavour: the flavour's macro given by hand, so its branches are taken with this
# host's <mpi.h> (what each MPI itself declares is checked where it is installed: make
# builds lib/wtc/smpi when smpicc is there, make check-openmpi).
#   SMPI, Open MPI and this host's MPI: every file without a warning
#   a function only one flavour calls, in a copy of a runtime file: the others warn
#     (the check can fail)
. "$(dirname "$0")/rt_lib.inc"

flags="-std=gnu11 -O2 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror
 -DWTCRT_MPI -Iruntime -Iruntime/common -Iruntime/core -Iruntime/mpi"
srcs=$(ls runtime/common/*.c runtime/core/*.c runtime/mpi/*.c)

# the compiler mpicc runs (its -show with a placeholder, as wtcc asks it: wtc/wrapper.c),
# else mpicc itself: MPICH's script costs ~0.1 s a call here, 69 calls
MPICC_RUN="mpicc -c" MPICC_TAIL=
show=$(mpicc -show -c @src@ 2>/dev/null)
case "$show" in
    *\'* | *\"* | *\\* | *\$*) ;;
    *" @src@"*) MPICC_RUN=${show%% @src@*} MPICC_TAIL=${show#* @src@} ;;
esac

# compile_as N DEFINE: every source compiled as that flavour; the sources that failed
# into $RT_OUT/flavour.N (their messages into $RT_OUT/flavour.N.err)
compile_as() {
    : >"$RT_OUT/flavour.$1"
    for f in $srcs; do
        # shellcheck disable=SC2086
        if ! $MPICC_RUN $flags $2 -o /dev/null "$f" $MPICC_TAIL >"$RT_OUT/flavour.$1.out" 2>&1; then
            echo "$f" >>"$RT_OUT/flavour.$1"
            cp "$RT_OUT/flavour.$1.out" "$RT_OUT/flavour.$1.err"
        fi
    done
}
# report N LABEL
report() {
    if [ ! -s "$RT_OUT/flavour.$1" ]; then
        rt_pass "$2: $(echo $srcs | wc -w) files without a warning"
    else
        cp "$RT_OUT/flavour.$1.err" "$RT_STDERR"
        rt_fail "$2" "warnings or errors in $(tr '\n' ' ' <"$RT_OUT/flavour.$1")"
    fi
}
# the three flavours side by side (each compile is one process: two cores)
compile_as 1 -DSMPI_H=1 &
compile_as 2 -DOMPI_MAJOR_VERSION=5 &
compile_as 3 ""
wait
report 1 "SimGrid SMPI"
report 2 "Open MPI"
report 3 "this host's MPI"

# the check can fail: a static function only the SMPI flavour calls
probe=$RT_OUT/flavour_probe.c
{
    cat runtime/mpi/bell.c
    printf '%s\n' 'static int only_smpi(void) { return 1; }' \
        '#ifdef WTC_MPI_SMPI' 'int wtcrt_flavour_probe(void);' \
        'int wtcrt_flavour_probe(void) { return only_smpi(); }' '#endif'
} >"$probe"
# shellcheck disable=SC2086
if $MPICC_RUN $flags -DOMPI_MAJOR_VERSION=5 -o /dev/null "$probe" $MPICC_TAIL >"$RT_STDERR" 2>&1; then
    rt_fail "a function only SMPI calls" "the Open MPI flavour compiled it without a warning"
elif ! grep -q "only_smpi" "$RT_STDERR"; then
    rt_fail "a function only SMPI calls" "failed for another reason"
else
    rt_pass "a function only SMPI calls: the Open MPI flavour warns (-Werror)"
fi
rm -f "$probe"
rt_summary
