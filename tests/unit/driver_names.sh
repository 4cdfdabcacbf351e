#!/bin/sh
# driver_names.sh - a source whose name holds a double quote or a backslash builds, runs
# and is predicted (the generated C wrote the name into a C string unescaped: it did not
# compile, the error pointing past the file's end; a helper's bug hunt), and the
# predictor's JSON, which carries the name, stays valid.
. "$PWD/tests/unit/driver_lib.inc"
cd "$T" || exit 1
for name in 'q"x' 'b\s'; do
    cp "$SRC" "$name.wtc"
    if ! timeout 120 "$WTCC" "$name.wtc" -o prog >build.txt 2>&1; then
        fail "$name.wtc: build: $(head -c 200 build.txt)"
        continue
    fi
    out=$(timeout 60 mpiexec -n 2 ./prog 15 2>/dev/null)
    [ "$out" = "fib(15) = 610 OK" ] || fail "$name.wtc: -n 2 printed '$out'"
    timeout 60 ./prog.predict --wtc-procs=1,2 --wtc-format=json 15 >p.json 2>/dev/null ||
        fail "$name.wtc: the predictor failed"
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import json,sys; sys.exit(json.load(open("p.json"))["program"] != sys.argv[1])' \
            "$name.wtc" 2>/dev/null || fail "$name.wtc: the JSON does not parse or name the source"
    else
        grep -q '"program": "' p.json || fail "$name.wtc: the JSON names no program"
    fi
done
[ $failed = 0 ] && echo "driver_names: ok"
exit $failed
