#!/bin/sh
# A job of one rank under hydra says goodbye to its launcher (runtime/mpi/single.c,
# doc/runtime.md "A job of one rank"). Such a job never starts MPI; hydra's mpiexec
# writes to its proxy after the launch (what it read of standard input, EOF too), and a
# process that ended first let the proxy leave before that write: mpiexec died of
# SIGPIPE, status 141, the job's output lost (CI: run/mutual -n 1; 13 runs in 100 of
# this test's loaded check before the goodbye). Checked here:
#   1. against a fake proxy (perl, a socket pair on PMI_FD): the PMI-1 lines init,
#      barrier_in, finalize in that order, sent after the program's output is out, on
#      the way out of an error (status 2) too; none without hydra's MPI_LOCALNRANKS, none
#      into a PMI_FD that is not a socket, and a proxy that has gone costs nothing;
#   2. under the real mpiexec -n 1 with both cores busy and mpiexec niced: every run
#      status 0 with its whole output.
. "$(dirname "$0")/rt_lib.inc"

B=$RT_OUT/goodbye
$RT_WTCC --no-predict tests/run/mutual.wtc -o "$B" >"$RT_STDERR" 2>&1 ||
    { rt_fail "build tests/run/mutual.wtc"; rt_summary; exit 1; }
WANT=$(cat tests/run/mutual.out)

# fake MODE LOG OUT ENV... -- ARGS: runs $B with a fake proxy on PMI_FD. MODE answer:
# replies as hydra does; closed: its end is closed before the program starts; file:
# PMI_FD names a regular file (LOG). LOG gets the lines received, each followed by the
# number of lines the program's stdout (OUT) held when it came. Sets RT_RC.
fake() {
    f_mode=$1 f_log=$2 f_out=$3
    shift 3
    RT_RC=0
    timeout 60 perl - "$f_mode" "$f_log" "$f_out" "$B" "$@" 2>"$RT_STDERR" <<'PL' || RT_RC=$?
use strict; use warnings; use Socket;
my ($mode, $log, $out, $prog, @rest) = @ARGV;
my (@env, @args);
my $seen = 0;
for (@rest) { if ($_ eq '--') { $seen = 1; next } $seen ? push(@args, $_) : push(@env, $_) }
$^F = 1000; # the child's end stays open across exec
my ($mine, $theirs);
if ($mode eq 'file') {
    open($theirs, '>', $log) or die "$log: $!";
} else {
    socketpair($mine, $theirs, AF_UNIX, SOCK_STREAM, PF_UNSPEC) or die "socketpair: $!";
    open(my $l, '>', $log) or die "$log: $!"; close $l;
}
my $pid = fork() // die "fork: $!";
if ($pid == 0) {
    close $mine if $mine;
    open(STDOUT, '>', $out) or die "$out: $!";
    open(STDIN, '<', '/dev/null') or die;
    $ENV{PMI_FD} = fileno($theirs);
    $ENV{PMI_SIZE} = 1; $ENV{PMI_RANK} = 0;
    for (@env) { my ($k, $v) = split /=/, $_, 2; $ENV{$k} = $v }
    exec($prog, @args) or die "exec: $!";
}
close $theirs;
if ($mode eq 'answer') {
    my %reply = ('init' => "cmd=response_to_init pmi_version=1 pmi_subversion=1 rc=0\n",
                 'barrier_in' => "cmd=barrier_out\n", 'finalize' => "cmd=finalize_ack\n");
    while (my $line = <$mine>) {
        chomp $line;
        my ($cmd) = $line =~ /^cmd=(\S+)/;
        open(my $o, '<', $out) or die; my @lines = <$o>; close $o;
        open(my $l, '>>', $log) or die; print $l ($cmd // $line), " ", scalar(@lines), "\n"; close $l;
        syswrite($mine, $reply{$cmd // ''} // "cmd=unknown\n");
    }
} elsif ($mine) {
    close $mine;
}
waitpid($pid, 0);
exit($? & 127 ? 128 + ($? & 127) : $? >> 8);
PL
}

L=$RT_OUT/goodbye.log O=$RT_OUT/goodbye.out
n=$(printf '%s\n' "$WANT" | wc -l)

fake answer "$L" "$O" MPI_LOCALNRANKS=1 -- --wtc-mode=dynamic
got=$(tr '\n' ' ' <"$L")
if [ "$RT_RC" = 0 ] && [ "$(cat "$O")" = "$WANT" ] &&
    [ "$got" = "init $n barrier_in $n finalize $n " ]; then
    rt_pass "hydra's proxy gets init, barrier_in, finalize after the output ($got)"
else
    rt_fail "the goodbye" "status $RT_RC, lines received '$got', output $(head -c 200 "$O")"
fi

fake answer "$L" "$O" MPI_LOCALNRANKS=1 -- --wtc-mode=bogus
got=$(awk '{ printf "%s%s", (NR > 1 ? " " : ""), $1 }' "$L")
[ "$RT_RC" = 2 ] && [ "$got" = "init barrier_in finalize" ] &&
    rt_pass "an option error (status 2) says goodbye too" ||
    rt_fail "goodbye after an option error" "status $RT_RC, lines '$got'"

fake answer "$L" "$O" -- --wtc-mode=steal
[ "$RT_RC" = 0 ] && [ ! -s "$L" ] && [ "$(cat "$O")" = "$WANT" ] &&
    rt_pass "without hydra's MPI_LOCALNRANKS nothing is said on PMI_FD" ||
    rt_fail "no hydra" "status $RT_RC, lines '$(tr '\n' ' ' <"$L")'"

fake file "$L" "$O" MPI_LOCALNRANKS=1 -- --wtc-mode=simple
[ "$RT_RC" = 0 ] && [ ! -s "$L" ] && [ "$(cat "$O")" = "$WANT" ] &&
    rt_pass "a PMI_FD that is not a socket is left alone" ||
    rt_fail "PMI_FD a file" "status $RT_RC, the file holds '$(head -c 100 "$L")'"

fake closed "$L" "$O" MPI_LOCALNRANKS=1 -- --wtc-mode=dynamic
[ "$RT_RC" = 0 ] && [ "$(cat "$O")" = "$WANT" ] &&
    rt_pass "a proxy that has gone: status 0, no SIGPIPE" ||
    rt_fail "proxy gone" "status $RT_RC"

# 2. the real launcher, both cores busy, mpiexec niced so that its proxy runs ahead
bad=0 first=
i=0
# (timeout itself is the background job: killing it ends its loop, and the loops end
# by themselves in 120 s at the latest)
timeout 120 sh -c 'while :; do :; done' & b1=$!
timeout 120 sh -c 'while :; do :; done' & b2=$!
timeout 120 sh -c 'while :; do :; done' & b3=$!
while [ $i -lt 40 ]; do
    RT_RC=0
    timeout "$RT_TIMEOUT" nice -n 19 mpiexec -n 1 "$B" --wtc-mode=dynamic </dev/null \
        >"$RT_STDOUT" 2>"$RT_STDERR" || RT_RC=$?
    if [ "$RT_RC" != 0 ] || [ "$(cat "$RT_STDOUT")" != "$WANT" ]; then
        bad=$((bad + 1))
        [ -n "$first" ] || first="status $RT_RC, $(wc -l <"$RT_STDOUT") lines"
    fi
    i=$((i + 1))
done
kill $b1 $b2 $b3 2>/dev/null
wait 2>/dev/null
[ $bad = 0 ] && rt_pass "mpiexec -n 1 on busy cores: 40 runs, each status 0 with its output" ||
    rt_fail "mpiexec -n 1 on busy cores" "$bad runs of 40 failed, the first: $first"

rt_summary
