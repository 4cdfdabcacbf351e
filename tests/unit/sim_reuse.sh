#!/bin/sh
# Buffers the C library reuses (doc/predictor.md §4; engine.c's reused): a rank pays the
# fresh per-byte costs (O_s, G, O_r) for a message larger than any it has freed, and the
# _reuse ones after that (glibc maps a buffer above its threshold fresh and raises the
# threshold to what it frees, up to 32 MiB). sim_reuse.wtc at P = 3 in simple mode:
# rank 0 sends two TASKs of 16 children with 64000-byte buffers each (copied: below the
# 64 KiB of a buffer sent by reference), 1,024,560 bytes; with O_s = 10 ns/B and
# O_s_reuse = 0.1 ns/B the second costs 10.14 ms less to pack, and the region ends that
# much sooner (rank 0 runs its own children after both sends). One recording (a profile), three machine files: without the
# _reuse keys (they follow O_s, G, O_r: no change), with O_s_reuse, and with
# O_s_reuse = O_s given (the same as without).
. tests/unit/sim_common.inc
sim_conf $OUT/reuse_a.conf fresh O_s=1e-8
sim_conf $OUT/reuse_b.conf reuse O_s=1e-8 O_s_reuse=1e-10
sim_conf $OUT/reuse_c.conf same O_s=1e-8 O_s_reuse=1e-8
sim_record sim_reuse 3
t() { sim_regions $OUT/sim_reuse $OUT/sim_reuse.prof $OUT/$1 3 simple; }
a=$(t reuse_a.conf) b=$(t reuse_b.conf) c=$(t reuse_c.conf)
[ -n "$a" ] && [ -n "$b" ] && [ -n "$c" ] || { bad "no predictions: '$a' '$b' '$c'"; exit 1; }
# the second TASK: 48 + 16 * (8 + 16 + 8 + 64000) bytes, (1e-8 - 1e-10) s a byte
echo "$a $b" | awk '{ d = $1 - $2; exit !(d > 0.0100 && d < 0.0103) }' \
    && pass "the second TASK of a size packs into reused memory: $a -> $b s" \
    || bad "O_s_reuse: $a s without, $b s with (want 10.14 ms less)"
[ "$a" = "$c" ] && pass "O_s_reuse = O_s changes nothing ($a s)" \
    || bad "O_s_reuse = O_s: $c s against $a s"
exit $fail
