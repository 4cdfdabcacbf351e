#!/bin/sh
# parse_robust.sh - no input may crash or hang the parser: empty input, binary garbage,
# token soup, nesting 100000 deep in every way, a 10 MB file. Each must end with exit
# status 0 or 1 within the time limit, with a clean message where one is expected, and
# the same under AddressSanitizer + UndefinedBehaviorSanitizer (skip: PARSE_NO_ASAN=1).
. tests/unit/parse_lib.inc
R=tests/out/parse/robust
mkdir -p $R
# inputs generated with perl (on every Debian system, unlike python)
perl - "$R" <<'PL'
use strict; use warnings;
my $d = $ARGV[0];
sub w { my ($name, $text) = @_; open(my $f, '>:raw', "$d/$name") or die "$name: $!"; print $f $text; close $f; }
my $N = 100000;
w('empty.wtc', '');
w('paren.wtc', 'int x = ' . ('(' x $N) . '1' . (')' x $N) . ";\n");
w('brace.wtc', 'void f(void) ' . ('{' x $N) . ('}' x $N) . "\n");
w('unclosed.wtc', 'void f(void) ' . ('{' x $N) . "\n");
w('neg.wtc', 'int x = ' . ('- ' x $N) . "1;\n");
w('plus.wtc', 'int x = 1' . (' + 1' x $N) . ";\n");
w('elif.wtc', 'void f(int a) { if (a) ; ' . ('else if (a) ; ' x $N) . "}\n");
w('ifs.wtc', 'void f(int a) { ' . ('if (a) ' x $N) . "; }\n");
w('star.wtc', 'int ' . ('*' x $N) . "p;\n");
w('array.wtc', 'int a' . ('[1]' x $N) . ";\n");
w('calls.wtc', 'int x = f' . ('()' x $N) . ";\n");
w('assign.wtc', 'void f(int a) { ' . ('a = ' x $N) . "1; }\n");
w('typedefs.wtc', "typedef int T0;\n" . join('', map { "typedef T$_ T" . ($_ + 1) . ";\n" } 0 .. $N - 1) . "T$N x;\n");
# the deepest trees accepted (lex.h: 10000 brackets, 100000 levels), far beyond what
# gcc takes in practice; every walk of them must fit the stack (parser/deep.c)
w('ok_deep.wtc', 'int x = ' . ('(' x 9900) . '1' . (')' x 9900) . ";\nint y = 1" . (' + 1' x 99000) . ";\n"
    . 'void f(int a) { if (a) ; ' . ('else if (a) ; ' x 24000) . "}\n");
srand(7);
w('garbage.wtc', join('', map { chr(int(rand(256))) } 1 .. 300000));
w('nuls.wtc', "int x;\n" . ("\0" x 100000));
my @soup = split //, "(){}[];,=+*x1 int struct if else par recursive in: \"'\n#";
w('soup.wtc', join('', map { $soup[int(rand(@soup))] } 1 .. 300000));
w('markers.wtc', ("# 1 \"x.h\" 1 3 4\n" x 1000) . "# 99999999999 \"\\\"q\\\\\" 2\nint ok;\n# 5\n" . ("#\n" x 10) . "int z;\n");
my ($i, $size, $big) = (0, 0, '');
while ($size < 10_000_000) {
    my $t = "int f$i(int *a, int n) { int s = 0; for (int i = 0; i < n; i++) { s += a[i] * $i; if (s > 100) s -= 7; } return s; }\n";
    $big .= $t; $size += length $t; $i++;
}
w('big.wtc', $big);
PL

# run BIN FILE LIMIT WANT: exit 0/1 within LIMIT seconds, no sanitizer report, and the
# diagnostics contain WANT (a fixed string; empty = exit 0 expected)
run() {
    bin=$1; f=$2; limit=$3; want=$4
    ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1 \
        timeout "$limit" "$bin" --quiet "$R/$f" > /dev/null 2> "$R/$f.err"
    rc=$?
    if [ $rc -gt 1 ]; then fail "$bin $f: exit status $rc"; tail -5 "$R/$f.err"; return; fi
    if grep -qE 'Sanitizer|runtime error' "$R/$f.err"; then fail "$bin $f: sanitizer report"; return; fi
    if [ -z "$want" ] && [ $rc -ne 0 ]; then fail "$bin $f: errors reported"; head -3 "$R/$f.err"; return; fi
    if [ -n "$want" ] && ! grep -qF -- "$want" "$R/$f.err"; then fail "$bin $f: no '$want'"; head -3 "$R/$f.err"; return; fi
    pass "$bin $f"
}

suite() {
    b=$1; t=$2
    run $b empty.wtc $t ""
    run $b paren.wtc $t "nesting too deep"
    run $b brace.wtc $t "nesting too deep"
    run $b unclosed.wtc $t "nesting too deep"
    run $b neg.wtc $t "nested too deeply"
    run $b plus.wtc $t "nested too deeply"
    run $b elif.wtc $t "nested too deeply"
    run $b ifs.wtc $t "nested too deeply"
    run $b star.wtc $t "declarator too complex"
    run $b array.wtc $t "declarator too complex"
    run $b calls.wtc $t "nested too deeply"
    run $b assign.wtc $t "nested too deeply"
    run $b typedefs.wtc $t ""
    run $b ok_deep.wtc $t ""
    run $b garbage.wtc $t "too many errors, stopping"
    run $b nuls.wtc $t "stray '\\0' in program"
    run $b soup.wtc $t "error"
    run $b markers.wtc $t ""
    run $b big.wtc $((t * 6)) ""
}

# the plain build's suite beside the sanitized one (each is one process at a time);
# its lines are printed, and its failures counted, when both have ended
(
    suite $PD 10
    # the dump itself must survive the deepest tree the parser accepts, on an 8 MB stack
    (ulimit -s 8192; "$PD" "$R/ok_deep.wtc" > /dev/null 2>&1) && pass "dump of a deep tree" || fail "dump of a deep tree"
) > "$R/plain.log" 2>&1 &
plain=$!
if [ -z "$PARSE_NO_ASAN" ]; then
    SAN="-fsanitize=address,undefined -fno-omit-frame-pointer" OUT=parse_dump_san \
        sh tests/unit/parse_build.sh || { fail "cannot build the sanitized parse_dump"; exit 1; }
    suite tests/out/parse_dump_san 30
    (ulimit -s 8192; ASAN_OPTIONS=detect_leaks=0 tests/out/parse_dump_san "$R/ok_deep.wtc" > /dev/null 2>&1) \
        && pass "sanitized dump of a deep tree" || fail "sanitized dump of a deep tree"
fi
wait $plain
cat "$R/plain.log"
FAILS=$((FAILS + $(grep -c '^FAIL: ' "$R/plain.log")))
[ $FAILS -eq 0 ]
