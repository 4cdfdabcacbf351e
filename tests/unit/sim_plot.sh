#!/bin/sh
# prog.predict --wtc-plot=FILE.svg (doc/predictor.md, "Plots"): the SVG is rendered by a
# real renderer (rsvg-convert, Debian's librsvg2-bin, installed by tools/ensure-deps.sh
# check, as 'make check' does) into a PNG of the right size that is neither empty nor a
# blot, with the series' colours in it; the SVG carries the title, machine, axes, ticks,
# legend and the best point; one P alone still makes a plot; an unwritable path fails.
. tests/unit/sim_common.inc
if ! command -v rsvg-convert >/dev/null 2>&1; then
    sh tools/ensure-deps.sh check >/dev/null 2>&1
    if ! command -v rsvg-convert >/dev/null 2>&1; then
        echo "[SKIP] rsvg-convert missing and could not be installed (tools/ensure-deps.sh check)"
        exit 0
    fi
fi
F=$OUT/plot_fib
bin/wtcc ${SIM_CFLAGS:-} samples/fib.wtc -o $F || { bad "wtcc fib.wtc"; exit 1; }
rm -f $OUT/plot.svg $OUT/plot.png
timeout 120 $F.predict --wtc-machine=ethernet-10g-mpich --wtc-plot=$OUT/plot.svg 27 \
    >$OUT/plot.out 2>$OUT/plot.err; rc=$?
[ $rc = 0 ] && [ -s $OUT/plot.svg ] && pass "--wtc-plot wrote an SVG" || bad "status $rc: $(cat $OUT/plot.err)"
ls $OUT/plot.svg.tmp* >/dev/null 2>&1 && bad "temporary file left" || pass "no temporary file left"

# what the picture says
has() { grep -q -- "$1" $OUT/plot.svg && pass "$2" || bad "$2: no '$1' in the SVG"; }
has '>fib.wtc: predicted speed-up<' "title with the program's name"
has 'on machine ethernet-10g-mpich' "subtitle with the machine"
has '>processors P (log scale)<' "x axis label"
has '>speed-up (sequential time / predicted time)<' "y axis label"
has '>simple<' "legend: simple"
has '>dynamic, 1 master<' "legend: dynamic, 1 master"
has '>dynamic, 8 masters<' "legend: dynamic, 8 masters"
has '>steal<' "legend: steal"
has '>ideal (speed-up = P)<' "legend: the ideal line"
for p in 1 2 4 8 16 32 64 128; do
    grep -q "text-anchor=\"middle\">$p</text>" $OUT/plot.svg || bad "no x tick $p"
done
pass "x ticks 1 ... 128"
# the best point is the report's best setting
best=$(grep '^best:' $OUT/plot.out | sed 's/^best: \([a-z]*\), \([0-9]*\) procs.*/\1 mode, \2 ranks/')
grep -q ">best: $best" $OUT/plot.svg && pass "the best point marked: $best" \
    || bad "best point: want '$best', $(grep -o '>best: [^<]*' $OUT/plot.svg)"

# rendered: an 860x540 PNG, 3-40 % of it not white, the first series' blue in it
rsvg-convert -o $OUT/plot.png $OUT/plot.svg 2>$OUT/rsvg.err && [ -s $OUT/plot.png ] \
    && pass "rsvg-convert renders it" || bad "rsvg-convert: $(cat $OUT/rsvg.err)"
png_stats() { # file: "width height non-white% blue-pixels"
    python3 - "$1" <<'EOF'
import struct, sys, zlib
d = open(sys.argv[1], 'rb').read()
assert d[:8] == b'\x89PNG\r\n\x1a\n'
pos, idat, w = 8, b'', 0
while pos < len(d):
    n, t = struct.unpack('>I4s', d[pos:pos + 8])
    body = d[pos + 8:pos + 8 + n]
    if t == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
    elif t == b'IDAT':
        idat += body
    pos += 12 + n
bpp = {2: 3, 6: 4}[ctype]
raw, stride, prev, rows = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line)
    prev = line
nonwhite = blue = 0
for line in rows:
    for x in range(0, stride, bpp):
        r, g, b = line[x], line[x + 1], line[x + 2]
        alpha = line[x + 3] if bpp == 4 else 255
        if alpha > 0 and (r, g, b) != (255, 255, 255):
            nonwhite += 1
        if abs(r - 0x1f) < 20 and abs(g - 0x77) < 20 and abs(b - 0xb4) < 20:
            blue += 1
print(w, h, round(100.0 * nonwhite / (w * h), 1), blue)
EOF
}
if command -v python3 >/dev/null 2>&1; then
    set -- $(png_stats $OUT/plot.png)
    if [ "$1" = 860 ] && [ "$2" = 540 ] &&
        awk -v p="$3" -v b="$4" 'BEGIN { exit !(p >= 3 && p <= 40 && b >= 200) }'; then
        pass "PNG ${1}x$2, $3 % not white, $4 pixels of the simple line's blue"
    else
        bad "PNG: size ${1:-?}x${2:-?}, ${3:-?} % not white, ${4:-?} blue pixels"
    fi
else
    echo "[SKIP] pixel count (no python3); PNG size $(wc -c < $OUT/plot.png) bytes"
fi

# one P: still axes and a point (a range around it)
timeout 120 $F.predict --wtc-procs=4 --wtc-modes=simple --wtc-plot=$OUT/one.svg 25 >/dev/null 2>&1; rc=$?
if [ $rc = 0 ] && rsvg-convert -o $OUT/one.png $OUT/one.svg && grep -q '<circle' $OUT/one.svg &&
    ! grep -q 'nan\|inf' $OUT/one.svg; then
    pass "a single P makes a plot"
else
    bad "single P: status $rc"
fi
# an unwritable path: a message and status 2 before the run
timeout 120 $F.predict --wtc-procs=1,2 --wtc-plot=/nonexistent/dir/p.svg 25 >$OUT/o.txt 2>$OUT/e.txt; rc=$?
[ $rc = 2 ] && grep -q -- '--wtc-plot=/nonexistent/dir/p.svg: cannot write it' $OUT/e.txt && ! grep -q '^best:' $OUT/o.txt \
    && pass "unwritable plot: status 2 before the run" || bad "unwritable plot: status $rc"
exit $fail
