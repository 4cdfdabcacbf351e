#!/bin/sh
# doc_refs.sh - every pointer into the documentation leads somewhere.
# timing: none
# Code, tests, scripts and the documents themselves point readers at a section as
#   doc/runtime.md "Answers from inside a leaf"     (a heading, or a **bold lead-in**)
#   doc/predictor.md §8.1                           (a numbered heading)
# and the same for bench/*.md. Each such pointer must name a file that exists and a
# section in it: a heading whose text (numbers and backquotes aside, any case) begins
# with the quoted words or contains them, or a paragraph that begins with them in bold.
# A pointer may be wrapped after the file's name. A section renamed or moved without its
# pointers fails here, naming each stale one.
# Run from the repository root.
ROOT=$PWD
. "$ROOT/tests/unit/doc_lib.inc"

# the tracked text files
tracked_files "$T/files"
grep -E '\.(c|h|inc|sh|wtc|md|y|l|conf|xml|txt|in)$|(^|/)Makefile$|^\.ci/' "$T/files" > "$T/text"

# every pointer: FILE<TAB>REF<TAB>WHERE
# (a pointer may be wrapped: the file's name ends a line, the section begins the next
# after the comment's or list's marks)
(cd "$ROOT" && tr '\n' '\0' < "$T/text" | xargs -0 grep -HnoE \
    '(doc|bench)/[A-Za-z0-9_/.-]+\.md,? +("[^"]+"|§ ?[0-9]+(\.[0-9]+)?)' 2>/dev/null
 tr '\n' '\0' < "$T/text" | xargs -0 awk '
    prev != "" && match($0, /^[ \t*#\/>-]*("[^"]+"|§ ?[0-9]+(\.[0-9]+)?)/) {
        s = substr($0, RSTART, RLENGTH); sub(/^[ \t*#\/>-]*/, "", s)
        print FILENAME ":" FNR ":" prev " " s
    }
    { prev = ""
      if (match($0, /(doc|bench)\/[A-Za-z0-9_\/.-]+\.md,?[ \t]*$/)) {
          prev = substr($0, RSTART, RLENGTH); sub(/,?[ \t]*$/, "", prev) } }') |
    awk '{
        i = index($0, ":"); f = substr($0, 1, i - 1); r = substr($0, i + 1)
        j = index(r, ":"); l = substr(r, 1, j - 1); m = substr(r, j + 1)
        k = index(m, ".md"); d = substr(m, 1, k + 2); ref = substr(m, k + 3)
        sub(/^,? +/, "", ref)
        print d "\t" ref "\t" f ":" l
    }' > "$T/refs"
n=$(wc -l < "$T/refs")
[ "$n" -ge 100 ] || fail "only $n pointers found: is the pattern still right?"

# the sections of a document, once each: its headings, lower case, numbers and
# backquotes gone; and the numbers of its numbered headings
cache() {
    c=$T/sec.$(printf %s "$1" | tr '/' '_')
    [ -f "$c.h" ] && return
    grep -E '^#+ ' "$ROOT/$1" | sed -E 's/^#+ +//; s/`//g; s/^[0-9]+(\.[0-9]+)*\.? +//' |
        tr 'A-Z' 'a-z' > "$c.h"
    grep -E '^#+ +[0-9]+(\.[0-9]+)*\.? ' "$ROOT/$1" |
        sed -E 's/^#+ +([0-9]+(\.[0-9]+)*)\.? .*/\1/' > "$c.n"
}

# check REFS: one line per stale pointer
check() {
    while IFS="$(printf '\t')" read -r doc ref where; do
        if [ ! -f "$ROOT/$doc" ]; then
            echo "$where: $doc does not exist ($doc $ref)"
            continue
        fi
        cache "$doc"
        case $ref in
        §*)
            num=$(printf %s "$ref" | sed -E 's/^§ ?//')
            grep -qxF "$num" "$c.n" || echo "$where: $doc has no section $num ($doc $ref)"
            ;;
        *)
            want=$(printf %s "$ref" | sed -E 's/^"//; s/"$//; s/`//g' | tr 'A-Z' 'a-z')
            grep -qF -- "$want" "$c.h" || grep -qiF -- "**$want" "$ROOT/$doc" ||
                grep -qiF -- "**\`$want" "$ROOT/$doc" ||
                echo "$where: $doc has no section \"$want\""
            ;;
        esac
    done < "$1"
}

# the checker itself: a made-up file, number and section are each caught, a real one not
printf '%s\t%s\tself:1\n' doc/predictor.md '§99' doc/runtime.md '"No such section here"' \
    doc/nosuch.md '"Ranks and roles"' doc/runtime.md '"Ranks and roles"' \
    doc/predictor.md '§8.1' doc/runtime.md '"The filler"' > "$T/fake"
check "$T/fake" > "$T/fake.out"
[ "$(wc -l < "$T/fake.out")" = 3 ] || fail "checker on made-up pointers: $(cat "$T/fake.out")"

check "$T/refs" > "$T/stale"
while IFS= read -r l; do fail "$l"; done < "$T/stale"
[ $failed = 0 ] || { echo "doc_refs: $(wc -l < "$T/stale") of $n pointers stale"; exit 1; }
echo "doc_refs: ok ($n pointers)"
