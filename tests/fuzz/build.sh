#!/bin/sh
# build.sh - build the fuzz target tests/fuzz/fuzz_parse.c (the parser and the code
# generator, without the driver) into tests/out/fuzz/.
#
#   sh tests/fuzz/build.sh            plain cc: fuzz_parse (a main over files or stdin)
#   sh tests/fuzz/build.sh libfuzzer  clang + libFuzzer, ASan, UBSan: fuzz_parse_libfuzzer
#   sh tests/fuzz/build.sh afl        AFL++ (afl-clang-fast, or $AFL_CC): fuzz_parse_afl
set -e
cd "$(dirname "$0")/../.."
KIND=${1:-plain}
B=tests/out/fuzz/build-$KIND
mkdir -p "$B"
case $KIND in
    plain) CC=${CC:-cc}; FLAGS="-O1 -g"; OUT=fuzz_parse ;;
    libfuzzer) CC=${CLANG:-clang}; OUT=fuzz_parse_libfuzzer
        FLAGS="-O1 -g -fsanitize=fuzzer,address,undefined -fno-omit-frame-pointer -DWTC_LIBFUZZER" ;;
    afl) CC=${AFL_CC:-afl-clang-fast}; FLAGS="-O1 -g"; OUT=fuzz_parse_afl ;;
    *) echo "usage: sh tests/fuzz/build.sh [plain|libfuzzer|afl]" >&2; exit 2 ;;
esac
# up to date? (rebuild if any source is newer than the binary)
if [ -x "tests/out/fuzz/$OUT" ] && [ -z "$(find parser codegen tests/fuzz/fuzz_parse.c \
        -newer "tests/out/fuzz/$OUT" -type f 2>/dev/null)" ]; then
    exit 0
fi
bison -Wall -Werror --defines="$B/grammar.tab.h" -o "$B/grammar.tab.c" parser/grammar.y
flex -o "$B/lexer.yy.c" parser/lexer.l
INC="-Iparser -Icodegen -Iruntime -I$B"
# shellcheck disable=SC2086  # FLAGS is a word list
$CC -std=gnu11 $FLAGS -w $INC -c -o "$B/grammar.tab.o" "$B/grammar.tab.c"
# shellcheck disable=SC2086
$CC -std=gnu11 $FLAGS -w $INC -c -o "$B/lexer.yy.o" "$B/lexer.yy.c"
# shellcheck disable=SC2086
$CC -std=gnu11 $FLAGS -Wall -Wextra -Werror $INC -o "tests/out/fuzz/$OUT" parser/*.c codegen/*.c \
    tests/fuzz/fuzz_parse.c "$B/grammar.tab.o" "$B/lexer.yy.o" -lm -pthread
