#!/bin/sh
# The MPI runtime's state is passed explicitly (issue 10; doc/runtime.md "Where the
# decisions live"): every function of runtime/mpi takes 'wtcrt_rt *rt' as its first
# parameter, and the one instance, wtcrt_this_rank, is named only where the outside
# world enters the runtime, each such function once, at its top:
#     wtcrt_rt *rt = &wtcrt_this_rank;
# Fails when the instance is named anywhere else in the project's C (runtime, tools,
# benchmarks, tests), when an allowed place names it twice or not at all (the list
# below is stale), or when a '#define rt' (the old alias that hid it from grep) is back.
# The checker first proves on a scratch file that it finds both kinds of violation.
set -u
cd "$(dirname "$0")/../.." || exit 1
out=tests/out/rt_state
rm -rf "$out" && mkdir -p "$out"
INST=wtcrt_this_rank
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }

# file:function (or "file scope") | why it may name the instance
ALLOWED='runtime/common/wtcrt.h:file scope|its declaration
runtime/mpi/transport.c:file scope|its definition
runtime/mpi/transport.c:wtc_start|ABI: main starts the runtime here (MPI start, options; on_exit gets the state as its argument)
runtime/mpi/transport.c:wtcrt_check_fail|common/check.c, shared with the simulator, stops the program through it
runtime/mpi/par.c:wtc_par_open|ABI: generated code opens a par
runtime/mpi/par.c:wtc_par_next|ABI: generated code asks before the next child of a par run inline
runtime/mpi/par.c:wtc_spawn|ABI: generated code spawns a child
runtime/mpi/par.c:wtc_keep|ABI: generated code keeps an argument copy
runtime/mpi/par.c:wtc_par_close|ABI: generated code closes a par
runtime/mpi/region.c:wtc_call|ABI: main calls a recursive function
runtime/mpi/region.c:wtc_region_open|ABI: main opens a par region
runtime/mpi/share.c:wtc_share|ABI: generated code shares a better bound (and its solution)
runtime/mpi/share.c:wtc_share_poll|ABI: generated code takes in the bounds that came
runtime/mpi/user_mpi.c:wtc_mpi_finalize|the program calls MPI_Finalize (renamed by a macro): has the runtime ended MPI?'

# The C files to look at (generated and built files excluded).
c_files() {
    find "$@" \( -path ./tests/out -o -path ./build -o -path ./lib -o -path ./.git \) -prune \
        -o \( -name '*.c' -o -name '*.h' \) -type f -print | sed 's|^\./||' | sort
}

# Every line naming the instance, as "file:function:line" (function: the definition
# the line is in; "file scope" for a line at column 0 or outside any function).
places() {
    for f in "$@"; do
        awk -v inst="$INST" '
            /^[A-Za-z_].*\(/ && !/;[[:space:]]*$/ {
                fn = $0; sub(/\(.*/, "", fn); sub(/.*[ *]/, "", fn)
            }
            /^}/ { fn = ""; next }
            $0 ~ "(^|[^A-Za-z0-9_])" inst "([^A-Za-z0-9_]|$)" {
                where = ($0 ~ /^[^ \t]/ || fn == "") ? "file scope" : fn
                print FILENAME ":" where ":" $0
            }' "$f"
    done
}

# Prints every violation in the given files; the number of them is the line count.
violations() {
    allowed=$(printf '%s\n' "$ALLOWED" | cut -d'|' -f1)
    places "$@" | while IFS= read -r p; do
        key=$(printf '%s' "$p" | cut -d: -f1,2)
        line=$(printf '%s' "$p" | cut -d: -f3-)
        if ! printf '%s\n' "$allowed" | grep -qxF "$key"; then
            echo "names $INST outside the entry points: $p"
        elif [ "${key##*:}" != "file scope" ] &&
            ! printf '%s' "$line" | grep -qE "^    wtcrt_rt \*rt = &$INST;"; then
            echo "entry point names it other than as 'wtcrt_rt *rt = &$INST;': $p"
        fi
    done
    grep -nE '^[[:space:]]*#[[:space:]]*define[[:space:]]+rt([[:space:](]|$)' "$@" /dev/null |
        sed 's/^/#define rt is back: /'
}

# 1. the checker finds what it must (a scratch file with one of each violation)
cat > "$out/bad.c" <<'EOF'
#define rt wtcrt_this_rank
static int f(void)
{
    return wtcrt_this_rank.rank;
}
EOF
violations "$out/bad.c" > "$out/bad.out"
if [ "$(grep -c '^#define rt is back' "$out/bad.out")" = 1 ] &&
    grep -q ':file scope:#define rt' "$out/bad.out" && grep -q ':f:    return' "$out/bad.out" &&
    [ "$(wc -l < "$out/bad.out")" = 3 ]; then
    ok "checker finds '#define rt', the instance in it, and a use in a function"
else
    bad "checker on $out/bad.c:"; sed 's/^/    /' "$out/bad.out"
fi

# 2. the project's C: no violation
files=$(c_files .)
violations $files > "$out/violations"
if [ -s "$out/violations" ]; then
    bad "the state is reached outside the entry points:"
    sed 's/^/    /' "$out/violations"
else
    ok "no '#define rt'; $INST named only at the entry points ($(printf '%s\n' "$files" | wc -l) files)"
fi

# 3. every entry point of the list names it exactly once (the list is current)
places $files | cut -d: -f1,2 | sort | uniq -c > "$out/counts"
printf '%s\n' "$ALLOWED" | while IFS='|' read -r key why; do
    n=$(awk -v k="$key" '{ c = $1; sub(/^ *[0-9]+ /, ""); if ($0 == k) print c }' "$out/counts")
    if [ "${n:-0}" = 1 ]; then echo "ok   $key ($why)"
    else echo "FAIL $key names $INST ${n:-0} times, want once: update the list"; fi
done > "$out/entries"
cat "$out/entries"
passed=$((passed + $(grep -c '^ok' "$out/entries")))
failed=$((failed + $(grep -c '^FAIL' "$out/entries")))

# 4. every function of wtc_abi.h that runtime/mpi defines is in the list: the runtime
#    is entered there and nowhere else
for fn in $(sed -n 's/^[a-z_ ]*[ *]\(wtc_[a-z_]*\)(.*/\1/p' runtime/wtc_abi.h); do
    grep -qE "^[a-z_ ]*[ *]$fn\(" runtime/mpi/*.c || continue
    if printf '%s\n' "$ALLOWED" | grep -q "^runtime/mpi/[a-z]*\.c:$fn|"; then
        ok "ABI function $fn is an entry point of the list"
    else
        bad "ABI function $fn is defined in runtime/mpi but not in the list"
    fi
done

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
