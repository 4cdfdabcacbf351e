#!/bin/sh
# timing: none
# Two outputs of one run that name one file, or an output that is a file the run reads,
# are refused before the run, status 2, the file untouched: --wtc-trace=F --wtc-plot=F
# kept the plot alone, --wtc-trace=P --wtc-profile=P replaced the profile by a trace, and
# the program's --wtc-trace=P --wtc-auto=P did the same, all with status 0 (a helper's
# bug hunt). --wtc-save-profile may write the profile it reads; /dev/null twice is fine.
. tests/unit/sim_common.inc
sim_nq sim_one_file
timeout 60 $D/nq.predict --wtc-procs=1,2 --wtc-save-profile=$D/nq.prof 8 >/dev/null 2>$D/e.txt \
    || { bad "recording: $(cat $D/e.txt)"; exit 1; }
sim_conf $D/m.conf tiny
one="--wtc-procs=2 --wtc-modes=simple"
refused() { # label, file that must stay as it was (or not be made), command...
    label=$1 keep=$2
    shift 2
    [ -e $keep ] && cp $keep $D/before || rm -f $D/before
    "$@" >$D/o.txt 2>$D/e.txt
    rc=$?
    if [ $rc = 2 ] && [ ! -s $D/o.txt ] && grep -q 'name one file' $D/e.txt &&
        { [ -e $D/before ] && cmp -s $D/before $keep || { [ ! -e $D/before ] && [ ! -e $keep ]; }; }
    then pass "$label: refused"
    else bad "$label: status $rc: $(head -c 200 $D/e.txt)"; fi
}
refused "--wtc-trace and --wtc-plot into one new file" $D/x.out \
    timeout 60 $D/nq.predict $one --wtc-trace=$D/x.out --wtc-plot=$D/./x.out 8
touch $D/y.out
refused "--wtc-trace and --wtc-save-profile into one file" $D/y.out \
    timeout 60 $D/nq.predict $one --wtc-trace=$D/y.out --wtc-save-profile=$D/../sim_one_file/y.out 8
refused "WTC_DECISIONS and --wtc-plot into one file" $D/y.out \
    env WTC_DECISIONS=$D/y.out timeout 60 $D/nq.predict $one --wtc-plot=$D/y.out 8
refused "--wtc-trace onto the profile read" $D/nq.prof \
    timeout 60 $D/nq.predict $one --wtc-trace=$D/nq.prof --wtc-profile=$D/nq.prof
ln -s nq.prof $D/link.prof
refused "--wtc-plot onto a link to the profile read" $D/nq.prof \
    timeout 60 $D/nq.predict $one --wtc-plot=$D/link.prof --wtc-profile=$D/nq.prof
refused "--wtc-save-profile onto the machine file" $D/m.conf \
    timeout 60 $D/nq.predict $one --wtc-machine=$D/m.conf --wtc-save-profile=$D/m.conf 8
refused "the program's --wtc-trace onto its --wtc-auto profile" $D/nq.prof \
    timeout 60 $D/nq --wtc-auto=$D/nq.prof --wtc-trace=$D/nq.prof 8
timeout 60 $D/nq.predict $one --wtc-profile=$D/nq.prof --wtc-save-profile=$D/nq.prof >$D/o.txt 2>$D/e.txt
rc=$?
[ $rc = 0 ] && grep -q '^best 2 ' $D/nq.prof && pass "--wtc-save-profile onto the profile read: saved again" \
    || bad "--wtc-save-profile onto --wtc-profile: status $rc: $(head -c 200 $D/e.txt)"
timeout 60 $D/nq.predict $one --wtc-trace=/dev/null --wtc-plot=/dev/null 8 >$D/o.txt 2>$D/e.txt
rc=$?
[ $rc = 0 ] && grep -q '^best: ' $D/o.txt && pass "--wtc-trace and --wtc-plot both into /dev/null" \
    || bad "/dev/null twice: status $rc: $(head -c 200 $D/e.txt)"
exit $fail
