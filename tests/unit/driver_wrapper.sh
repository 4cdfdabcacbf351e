#!/bin/sh
# driver_wrapper.sh - the MPI wrapper asked once what it runs (wtc/wrapper.c, doc/wtcc.md
# "The MPI wrapper's commands"): a wrapper script that answers -show is asked twice
# ("-show -E @wtcc-arguments@", "-show @wtcc-arguments@") and what it said is run
# directly, with every flag it adds; a script whose -show fails, prints a quote, or
# holds the placeholder twice, and a compiled wrapper (never asked), run themselves four
# times, as before. Each build's program prints the WRAPPED its flags defined: 7 from
# the -show line, 8 from the wrapper itself.
# Run from the repository root after 'make'. WTCC=path overrides bin/wtcc.
. "$PWD/tests/unit/driver_lib.inc"
cd "$T" || exit 1
cat > w.wtc <<'C'
#include <stdio.h>
int main(void) { printf("%d\n", WRAPPED); return 0; }
C

# wrapper NAME SHOW: a script logging its arguments to NAME.log; with -show it runs the
# shell text SHOW (the arguments after -show in "$@"), otherwise mpicc with -DWRAPPED=8
wrapper() {
    { printf '#!/bin/sh\necho "$*" >> "%s/%s.log"\n' "$T" "$1"
      printf 'if [ "$1" = -show ]; then shift; %s; fi\n' "$2"
      printf 'exec mpicc "$@" -DWRAPPED=8\n'; } > "$1"
    chmod +x "$1"
}

# build NAME WANT CALLS [SHOWS]: wtcc --cc=./NAME builds w.wtc; the program prints WANT,
# the wrapper ran CALLS times, SHOWS of them with -show
build() {
    rm -f "$1.log" prog
    if ! timeout 120 "$WTCC" --no-predict --cc="$T/$1" w.wtc -o prog 2>err; then
        fail "$1: wtcc failed: $(head -5 err)"
        return
    fi
    got=$(timeout 60 ./prog 2>&1)
    calls=$(wc -l < "$1.log") shows=$(grep -c '^-show' "$1.log")
    [ "$got" = "$2" ] || fail "$1: the program printed '$got', want $2"
    [ "$calls" = "$3" ] && [ "$shows" = "${4:-0}" ] ||
        fail "$1: the wrapper ran $calls times, $shows with -show; want $3, ${4:-0}: $(cat "$1.log")"
}

if mpicc -show -E @x@ 2>/dev/null | grep -q ' @x@' && head -c 2 "$(command -v mpicc)" | grep -q '#!'
then
    # a script that answers -show: asked twice, its line run (7)
    wrapper good 'echo "$(mpicc -show "$@") -DWRAPPED=7"; exit 0'
    build good 7 2 2
    # -v shows both: the question and the commands run
    timeout 120 "$WTCC" -v --no-predict --cc="$T/good" w.wtc -o prog 2>err
    grep -q "^ $T/good -show -E @wtcc-arguments@$" err && grep -q "^ $T/good -show @wtcc-arguments@$" err &&
        grep -q "^ [^ ]* -E .*w.wtc .*-DWRAPPED=7$" err ||
        fail "-v: the -show questions and the direct commands: $(cat err)"
    # a line a shell would have read otherwise, the placeholder twice: not used
    wrapper quote 'echo "$(mpicc -show "$@") -DWRAPPED=\"7\""; exit 0'
    build quote 8 6 2
    wrapper twice 'echo "$(mpicc -show "$@") @wtcc-arguments@ -DWRAPPED=7"; exit 0'
    build twice 8 6 2
else
    echo "SKIP: driver_wrapper: mpicc is not a script answering -show: the direct cases not run"
fi
# -show unknown to the wrapper: it fails, the wrapper runs itself
wrapper noshow 'echo "noshow: unknown option -show" >&2; exit 1'
build noshow 8 6 2
# a compiled wrapper is never asked (Open MPI's --showme drops its flags when given
# other options; and a binary costs nothing to run)
cat > bin.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv)
{
    FILE *f = fopen("binwrap.log", "a");
    char **a = calloc(argc + 2, sizeof *a);
    for (int i = 1; i < argc; i++)
        fprintf(f, "%s%s", argv[i], i + 1 < argc ? " " : "\n");
    fclose(f);
    a[0] = "mpicc";
    for (int i = 1; i < argc; i++)
        a[i] = argv[i];
    a[argc] = "-DWRAPPED=8";
    execvp("mpicc", a);
    return 127;
}
C
if cc -O1 bin.c -o binwrap 2>err; then build binwrap 8 4
else fail "cannot build the compiled wrapper: $(cat err)"; fi

[ $failed = 0 ] && echo "PASS: driver_wrapper"
exit $failed
