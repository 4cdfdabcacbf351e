#!/bin/sh
# C compiler messages about code in recursive functions (wtc/tidy.c): each function is
# compiled as two clones, yet every message must appear once, under the user's names.
. tests/unit/driver_lib.inc
cat > "$T/bad.wtc" <<'WTC'
#include <stdio.h>
static int helper(int x) { return x + not_declared_either; }
recursive long f(int n)
cond: n > 10;
{
    long r[2];
    if (n < 2)
        return undefined_var;
    par i = 0 to 1 do
        r[i] = f(n - 1 - i);
    return r[0] + r[1] + "x";
}
recursive long g(int n)
cond: n > 10;
{
    long r[2];
    if (n < 2)
        return n + missing_in_g;
    par i = 0 to 1 do
        r[i] = g(n - 1 - i);
    return r[0] + r[1];
}
int main(void) { printf("%ld %ld %d\n", f(20), g(20), helper(1)); return 0; }
WTC
"$WTCC" "$T/bad.wtc" -o "$T/bad" 2> "$T/err"
st=$?
[ $st = 1 ] || fail "status $st, expected 1"
[ -e "$T/bad" ] && fail "an output file was left"
count() { grep -c -e "$1" "$T/err"; }
[ "$(count "undefined_var. undeclared")" = 1 ] || fail "f's error shown $(count "undefined_var. undeclared") times, expected once"
[ "$(count "missing_in_g. undeclared")" = 1 ] || fail "g's error shown $(count "missing_in_g. undeclared") times"
[ "$(count "not_declared_either. undeclared")" = 1 ] || fail "helper's error shown $(count "not_declared_either. undeclared") times"
[ "$(count "makes integer from pointer")" = 1 ] || fail "f's warning shown $(count "makes integer from pointer") times"
[ "$(count "In function .f.:")" = 1 ] || fail "f's header shown $(count "In function .f.:") times"
[ "$(count "In function .g.:")" = 1 ] || fail "g's header shown $(count "In function .g.:") times"
[ "$(count "In function .helper.:")" -ge 1 ] || fail "helper's header missing"
grep -q "__wtc" "$T/err" && fail "internal names in the messages: $(grep -o '__wtc[a-z_]*' "$T/err" | sort -u | tr '\n' ' ')"
# g's message comes under g's header, after f's
awk '/In function [^a-z]*f[^a-z]*:$/ { f = NR } /In function [^a-z]*g[^a-z]*:$/ { g = NR }
     /missing_in_g/ { m = NR }
     END { exit !(f < g && g < m) }' "$T/err" || fail "g's message is not under g's header"
# the excerpt under a message stays with it
grep -A2 "undefined_var. undeclared" "$T/err" | grep -q "return undefined_var;" \
    || fail "the source excerpt under f's error is missing"
# main is compiled as __wtc_user_main
printf '#include <stdio.h>\nint main(void) { int x = not_in_main; return x; }\n' > "$T/m.wtc"
"$WTCC" "$T/m.wtc" -o "$T/m" 2>> "$T/err"
grep -q "In function .main.:" "$T/err" || fail "main's header does not say main"
grep -q "__wtc" "$T/err" && fail "main's messages name $(grep -o '__wtc[a-z_]*' "$T/err" | sort -u)"
# a prototype of the user's that conflicts with the definition: once, at the definition
# (gcc said it twice, the second time at a line 4 below, past the end of this file)
printf 'long h(int n);\n\nrecursive long h(long n)\n{\n    return n;\n}\nint main(void) { return (int)h(3); }\n' > "$T/p.wtc"
"$WTCC" "$T/p.wtc" -o "$T/p" 2> "$T/perr"
[ "$(grep -c "error: conflicting types" "$T/perr")" = 1 ] \
    || fail "conflicting types shown $(grep -c "error: conflicting types" "$T/perr") times, expected once"
grep -q "p.wtc:3:\([0-9]*:\)\{0,1\} error: conflicting types" "$T/perr" \
    || fail "conflicting types not at the definition (line 3): $(grep 'conflicting' "$T/perr")"
cat "$T/perr" >> "$T/err"
# an error at a name a #line gave the user's file is the user's (status 1, no "wtcc
# bug"): only errors at the .wtc's own name were (a helper's bug hunt: status 2)
printf '#include <stdio.h>\n#line 500 "other.c"\nint main(void) { return undeclared; }\n' > "$T/l.wtc"
"$WTCC" "$T/l.wtc" -o "$T/l" 2> "$T/lerr"
st=$?
[ $st = 1 ] && grep -q "^other.c:500:\([0-9]*:\)\{0,1\} error: " "$T/lerr" && ! grep -q "wtcc bug" "$T/lerr" \
    || fail "#line 500 \"other.c\": status $st, '$(cat "$T/lerr")'"
# while an error in the generated code's own lines is still a wtcc bug (status 2), even
# where a #line named the user's text as the generated file is named (<tmp>/lc.c): the
# -D breaks the generated code's first statement, __asm__(...), at no line of the user's
printf '#line 1 "lc.c"\nint main(void) { return 0; }\n' > "$T/lc.wtc"
"$WTCC" -D__asm__=int "$T/lc.wtc" -o "$T/lc" 2> "$T/lerr"
st=$?
[ $st = 2 ] && grep -q "this is a wtcc bug" "$T/lerr" \
    || fail "an error in the generated lines: status $st, '$(cat "$T/lerr")'"
cat "$T/lerr" >> "$T/err"
# a message at a line the generated C re-prints (here the whole one-line function: the
# clones' headers, the par) came once per clone, at the generated text's columns (3:72
# and 3:79 for a z the user wrote at 3:40; a helper's bug hunt): now once, without a
# column; on a line copied as written the column stays
printf '#include <stdio.h>\nint main(void);\nrecursive int f(int n) { int r[2]; int z; if (n<2) return n; par i = 0 to 1 do r[i] = f(n-1-i); return r[0]+r[1]; }\nrecursive int g(int n)\n{\n    int w;\n    int r[2];\n    if (n < 2) return n;\n    par i = 0 to 1 do r[i] = g(n - 1 - i);\n    return r[0] + r[1];\n}\nint main(void) { printf("%%d\\n", f(10) + g(10)); return 0; }\n' > "$T/d.wtc"
"$WTCC" "$T/d.wtc" -o "$T/d" 2> "$T/derr" || fail "d.wtc: status $?: $(cat "$T/derr")"
[ "$(grep -c "unused variable .z." "$T/derr")" = 1 ] && grep -q "d.wtc:3: warning: unused variable .z." "$T/derr" \
    || fail "the unused z of a rewritten line: '$(grep "unused" "$T/derr")'"
[ "$(grep -c "unused variable .w." "$T/derr")" = 1 ] && grep -q "d.wtc:6:9: warning: unused variable .w." "$T/derr" \
    || fail "the unused w of a line as written: '$(grep "unused" "$T/derr")'"
grep -B1 "^ *| *^" "$T/derr" | grep -q "d.wtc:3:" && fail "a caret under the rewritten line: $(cat "$T/derr")"
cat "$T/derr" >> "$T/err"
# a compiler that fails without a word: wtcc says which one failed, and does not call it
# a wtcc bug (--cc=false gave status 1 and no message at all; a helper's bug hunt)
printf 'int main(void) { return 0; }\n' > "$T/ok.wtc"
"$WTCC" --cc=false "$T/ok.wtc" -o "$T/f1" 2> "$T/ferr"
st=$?
[ $st != 0 ] && grep -q "error: preprocessing .*ok.wtc with 'false' failed" "$T/ferr" \
    || fail "--cc=false: status $st, '$(cat "$T/ferr")'"
"$WTCC" --host-cc=false "$T/ok.wtc" -o "$T/f2" 2> "$T/ferr"
st=$?
[ $st = 2 ] && grep -q "error: the C compiler 'false' failed on .* without a message" "$T/ferr" &&
    ! grep -q "wtcc bug" "$T/ferr" \
    || fail "--host-cc=false: status $st, '$(cat "$T/ferr")'"
[ -e "$T/f1" ] || [ -e "$T/f2" ] && fail "a failed build left its output file"
cat "$T/ferr" >> "$T/err"
# -g3 builds without warnings: the preprocessing step wrote gcc's built-in macros as
# #defines, which the compile saw redefined (-Werror: no program; a helper's bug hunt)
"$WTCC" -g3 -Werror "$T/ok.wtc" -o "$T/g3" 2> "$T/gerr" \
    || fail "-g3 -Werror: status $?, '$(head -2 "$T/gerr")'"
grep -q "redefined" "$T/gerr" && fail "-g3: $(head -2 "$T/gerr")"
# -Wpedantic and -pedantic-errors on a program that is ISO C: not a word. The generated
# C's line markers gave "style of line directive is a GCC extension" at each (now the
# program compiles from a .i), and the spawns' result kinds "ISO C does not support
# '__int128' types" (now __extension__); -pedantic was an unknown option
for f in -Wpedantic "-pedantic -Werror" -pedantic-errors; do
    "$WTCC" $f samples/fib.wtc -o "$T/ped" 2> "$T/perr" && [ ! -s "$T/perr" ] && [ -x "$T/ped" ] \
        || fail "$f: status $?, '$(head -3 "$T/perr")'"
    rm -f "$T/ped" "$T/ped.predict"
done
# a pedantic warning of the user's own code is still shown, once
printf '#include <stdio.h>\nrecursive int f(int n)\n{\n    int r[2];\n    if (n < 2) return n;\n    par i = 0 to 1 do r[i] = f(n - 1 - i);\n    return r[0] + r[1];\n}\nint main(void) { int v[0]; (void)v; printf("%%d\\n", f(10)); return 0; }\n' > "$T/ped.wtc"
"$WTCC" -Wpedantic "$T/ped.wtc" -o "$T/ped" 2> "$T/perr" || fail "ped.wtc: status $?: $(cat "$T/perr")"
[ "$(grep -c 'ped.wtc:9:.*ISO C forbids zero-size array' "$T/perr")" = 1 ] \
    || fail "-Wpedantic, the user's zero-size array: '$(grep warning "$T/perr")'"
"$WTCC" -std=c11 "$T/ok.wtc" -o "$T/std" 2> "$T/perr"
[ $? = 2 ] && grep -q "'-std=c11': wtcc compiles Work-Time C as -std=gnu11" "$T/perr" \
    || fail "-std=c11: '$(cat "$T/perr")'"
if [ $failed = 1 ]; then
    echo "--- stderr:"
    cat "$T/err"
    exit 1
fi
echo "PASS: every message once, under the user's function names"
