#!/bin/sh
# parse_build.sh - build tests/out/parse_dump (the parser alone + a dump driver).
#   SAN="-fsanitize=address,undefined" sh tests/unit/parse_build.sh   for a sanitized build
#   OUT=name to choose the binary's name (default parse_dump)
set -e
cd "$(dirname "$0")/../.."
OUT=${OUT:-parse_dump}
B=tests/out/parsebuild${SAN:+-san}
mkdir -p "$B" tests/out
# up to date? (the sources are few: rebuild if any is newer than the binary)
if [ -x "tests/out/$OUT" ] && [ -z "$(find parser tests/unit/parse_dump.c -newer "tests/out/$OUT" -type f 2>/dev/null)" ]; then
    exit 0
fi
bison -Wall -Werror --defines="$B/grammar.tab.h" -o "$B/grammar.tab.c" parser/grammar.y
flex -o "$B/lexer.yy.c" parser/lexer.l
CC=${CC:-cc}
WARN="-Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror"
$CC -std=gnu11 -O1 -g $SAN -Wall -Werror -Wno-unused-function -Iparser -I"$B" -c -o "$B/grammar.tab.o" "$B/grammar.tab.c"
$CC -std=gnu11 -O1 -g $SAN -Wall -Werror -Wno-unused-function -Iparser -I"$B" -c -o "$B/lexer.yy.o" "$B/lexer.yy.c"
$CC -std=gnu11 -O1 -g $SAN $WARN -Iparser -I"$B" -o "tests/out/$OUT" \
    parser/ast.c parser/type.c parser/symtab.c parser/diag.c parser/hints.c parser/deep.c tests/unit/parse_dump.c \
    "$B/grammar.tab.o" "$B/lexer.yy.o" -lm -pthread
