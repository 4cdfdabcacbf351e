/* mpi/merge.c - overlapping out: views (doc/runtime.md "Overlapping out: views").

   Children of one par may write disjoint elements of one array through views that
   overlap: the columns of a matrix with a leading dimension (out: m[(rows - 1) * ld +
   w]), the quadrants of Cilk's lu and rectmul. A child that runs elsewhere on a copy
   sends back its whole view, and the elements between its own rows, its siblings', would
   overwrite what they wrote. So a child whose out: view overlaps another child's out:
   view (or any child sent while its par's body still spawns: its later siblings are not
   known yet) is sent with those buffers marked (bits 8-31 of its TASK prefix, mpi/par.c
   pack_child); it gets their data even where they are out: only, this rank keeps their
   values as they left (a twin), and its RESULT is merged: only the places that differ
   from the twin are stored. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wtcrt.h"

typedef struct out_ext {
    const unsigned char *lo, *hi;
    int child, b;
} out_ext;

static int ext_cmp(const void *x, const void *y)
{
    const out_ext *a = x, *b = y;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* The element counts of child i of p into cnt (64 longs), or a new array (to free). */
static long *child_counts(wtcrt_rt *rt, const wtc_par *p, int i, long *cnt)
{
    const wtc_fn *fn = p->ch[i].fn;
    long *counts = fn->nbufs <= 64 ? cnt : malloc((size_t)fn->nbufs * sizeof *counts);
    if (!counts)
        wtcrt_die(rt, "out of memory");
    fn->counts(WTCRT_ARGS(p, i), counts);
    return counts;
}

static void ovl_mark(wtc_par *p, const out_ext *e)
{
    p->ovl[e->child] |= e->b < WTCRT_MERGE_BUFS ? 1u << e->b : 1u << 31;
}

/* p->ovl for every child of p: the out: buffers whose bytes overlap another out:
   buffer's (sorted by start, each overlaps the one reaching furthest before it);
   bit 31: one beyond the first WTCRT_MERGE_BUFS. */
static void overlap_table(wtcrt_rt *rt, wtc_par *p)
{
    out_ext *e = NULL;
    int n = 0, cap = 0, far = -1;
    long cnt[64];
    if (p->ovl_cap < p->nch) {
        free(p->ovl);
        if (!(p->ovl = malloc((size_t)p->capch * sizeof *p->ovl)))
            wtcrt_die(rt, "out of memory");
        p->ovl_cap = p->capch;
    }
    memset(p->ovl, 0, (size_t)p->nch * sizeof *p->ovl);
    for (int i = 0; i < p->nch; i++) {
        const wtc_fn *fn = p->ch[i].fn;
        long *counts = NULL;
        for (int b = 0; b < fn->nbufs; b++) {
            unsigned long nb;
            if (!fn->bufs[b].out)
                continue;
            if (!counts)
                counts = child_counts(rt, p, i, cnt);
            if (!(nb = wtcrt_buf_bytes(fn, b, counts[b])))
                continue;
            if (n == cap) {
                cap = cap ? 2 * cap : 64;
                if (!(e = realloc(e, (size_t)cap * sizeof *e)))
                    wtcrt_die(rt, "out of memory");
            }
            e[n].lo = wtcrt_buf_ptr(fn, WTCRT_ARGS(p, i), b);
            e[n].hi = e[n].lo + nb;
            e[n].child = i;
            e[n++].b = b;
        }
        if (counts && counts != cnt)
            free(counts);
    }
    if (n > 1)
        qsort(e, (size_t)n, sizeof *e, ext_cmp);
    p->ovl_any = 0;
    for (int k = 0; k < n; k++) {
        if (far >= 0 && e[k].lo < e[far].hi) {
            ovl_mark(p, &e[k]);
            ovl_mark(p, &e[far]);
            p->ovl_any = 1;
        }
        if (far < 0 || e[k].hi > e[far].hi)
            far = k;
    }
    free(e);
    p->ovl_n = p->nch;
}

/* Whether a frame below p on this rank may have a child running beside p's call that
   writes where p's children's views reach: one whose children's out: views overlap, or
   whose body still spawns. A task frame's children work on copies of their own (the
   frames above it reach nothing else), except the buffers that came by address: they
   are the parent's memory, where the children's siblings on other ranks write too;
   and those that came merged: their gaps hold the values they left with, which the
   merge at the parent takes for unchanged, so a grandchild must not give back other
   values there (an out:-only copy starts zeroed) (ovl_any of a task frame: some child
   came so; rt->open_views for the children of a TASK run without a frame,
   wtcrt_run_task). */
static int under_overlap(wtcrt_rt *rt, const wtc_par *p)
{
    if (p->mem)
        return 0;
    for (int l = p->level - 1; l >= 0; l--) {
        wtc_par *a = rt->frames[l];
        if (a->mem)
            return a->ovl_any;
        if (a->spawning)
            return 1;
        if (a->ovl_n != a->nch)
            overlap_table(rt, a);
        if (a->ovl_any)
            return 1;
    }
    return rt->open_views > 0;
}

/* The twin entry of child i of p, made when missing. */
wtcrt_twin *wtcrt_twin_of(wtcrt_rt *rt, wtc_par *p, int i)
{
    if (p->tw_cap <= i) {
        int cap = p->capch > i ? p->capch : i + 1;
        if (!(p->tw = realloc(p->tw, (size_t)cap * sizeof *p->tw)))
            wtcrt_die(rt, "out of memory");
        memset(p->tw + p->tw_cap, 0, (size_t)(cap - p->tw_cap) * sizeof *p->tw);
        p->tw_cap = cap;
    }
    p->tw_used = 1;
    return &p->tw[i];
}

/* The buffers of child i of p (counts) to send merged to a rank that gets the ones of
   'shared' by address: its out: buffers that overlap a sibling's; all of them while the
   body still spawns (later siblings are not known yet) or below a frame whose children
   overlap (a cousin may write between its rows: under_overlap); and those it came with
   merged (a task frame's child sent on). */
unsigned wtcrt_child_merge(wtcrt_rt *rt, wtc_par *p, int i, unsigned shared,
                           const long *counts)
{
    const wtc_fn *fn = p->ch[i].fn;
    unsigned m = 0;
    if (p->spawning || (p->mem && p->ovl_any) || under_overlap(rt, p)) {
        for (int b = 0; b < fn->nbufs && b < WTCRT_MERGE_BUFS; b++)
            if (fn->bufs[b].out && wtcrt_buf_bytes(fn, b, counts[b]))
                m |= 1u << b;
    } else if (!p->mem) { /* a task frame's children: copies of their own */
        if (p->ovl_n != p->nch)
            overlap_table(rt, p);
        m = p->ovl[i];
        if (m >> 31)
            wtcrt_die(rt, "%s: an out: buffer after the first %d overlaps a sibling's out: "
                      "buffer; its result cannot be merged", fn->name, WTCRT_MERGE_BUFS);
    }
    if (p->tw_used && i < p->tw_cap)
        m |= p->tw[i].merge;
    return m & ~shared;
}

/* Room for the bytes of child i's merged buffers (bits of 'merge') as they leave
   (pack_child fills it: the twin is what was sent, even where a sibling by address
   writes beside the view meanwhile); NULL when none. */
unsigned char *wtcrt_new_twin(wtcrt_rt *rt, wtc_par *p, int i, unsigned merge,
                              const long *counts)
{
    const wtc_fn *fn = p->ch[i].fn;
    wtcrt_twin *t;
    size_t n = 0;
    if (!merge)
        return NULL;
    t = wtcrt_twin_of(rt, p, i);
    for (int b = 0; b < fn->nbufs; b++)
        if (merge >> b & 1)
            n += wtcrt_buf_bytes(fn, b, counts[b]);
    free(t->orig);
    if (!(t->orig = malloc(n ? n : 1)))
        wtcrt_die(rt, "out of memory");
    t->merge = merge;
    return t->orig;
}

/* 0xff in each byte of x that is not zero. */
static inline unsigned long long byte_mask(unsigned long long x)
{
    x |= x >> 4;
    x |= x >> 2;
    x |= x >> 1;
    return (x & 0x0101010101010101ull) * 0xffu;
}

/* Stores the places of res (n bytes, places of 'unit' bytes: wtc_buf.unit) that differ
   from orig into dst: whole scalars, or bytes where the elements hold structs (two
   members of one struct are two places in C, and calls may write one each), or bits
   where a struct holds bit-fields (unit WTC_UNIT_BITS: fields that share a byte are set
   by different calls; merged by bytes, one call's fields came back 0 at -n 2-5, a
   helper's bug hunt); returns how many bytes of them dst held changed already, to
   another value (a sibling wrote them too: a race; the byte is taken whole from res,
   one call's value). A word of eight bytes that did not change costs a compare. */
static size_t merge_places(unsigned char *dst, const unsigned char *res,
                           const unsigned char *orig, size_t n, unsigned long unit)
{
    size_t both = 0, k = 0;
    int bits = unit == WTC_UNIT_BITS;
    if (unit > 1 && !bits) {
        for (; k + unit <= n; k += unit)
            if (memcmp(res + k, orig + k, unit)) {
                if (memcmp(dst + k, orig + k, unit) && memcmp(dst + k, res + k, unit))
                    both += unit;
                memcpy(dst + k, res + k, unit);
            }
        return both;
    }
    for (; k + 8 <= n; k += 8) {
        unsigned long long a, b, d, ch, race;
        memcpy(&a, res + k, 8);
        memcpy(&b, orig + k, 8);
        if (a == b)
            continue;
        memcpy(&d, dst + k, 8);
        if (bits) {
            ch = a ^ b; /* the bits this call changed */
            race = byte_mask(ch & (d ^ b) & (d ^ a));
        } else {
            ch = byte_mask(a ^ b);
            race = ch & byte_mask(d ^ b) & byte_mask(d ^ a);
        }
        if (race)
            both += (size_t)__builtin_popcountll(race) / 8;
        ch |= race;
        d = (d & ~ch) | (a & ch);
        memcpy(dst + k, &d, 8);
    }
    for (; k < n; k++)
        if (res[k] != orig[k]) {
            unsigned ch = bits ? (unsigned)(res[k] ^ orig[k]) : 0xffu;
            if (ch & (dst[k] ^ orig[k]) & (dst[k] ^ res[k])) {
                both++;
                ch = 0xff;
            }
            dst[k] = (unsigned char)((dst[k] & ~ch) | (res[k] & ch));
        }
    return both;
}

/* Says once per function on this rank that a merge found bytes two calls wrote. */
static void race_note(wtcrt_rt *rt, const wtc_fn *fn, int b, size_t both)
{
    static const wtc_fn *said[16];
    static int nsaid;
    for (int k = 0; k < nsaid; k++)
        if (said[k] == fn)
            return;
    if (nsaid < 16)
        said[nsaid++] = fn;
    fprintf(stderr, "wtc: warning: rank %d: two calls of %s in one par both wrote %zu "
            "byte%s of '%s' (a data race, as in C: which value stays depends on the order "
            "their results come back)\n", rt->rank, fn->name, both, both == 1 ? "" : "s",
            fn->bufs[b].name);
}

/* Child i's RESULT is stored: its twin goes. */
void wtcrt_twin_done(wtc_par *p, int i)
{
    free(p->tw[i].orig);
    p->tw[i].orig = NULL;
    p->tw[i].merge = 0;
}

/* The frame opens again: no overlap known, every twin goes. */
void wtcrt_merge_reset(wtc_par *p)
{
    p->ovl_n = -1;
    p->ovl_any = 0;
    if (!p->tw_used)
        return;
    for (int i = 0; i < p->tw_cap; i++)
        free(p->tw[i].orig);
    memset(p->tw, 0, (size_t)p->tw_cap * sizeof *p->tw);
    p->tw_used = 0;
}

/* The merged buffers of child i of p whose RESULT is on its way (0: none). */
unsigned wtcrt_merged(const wtc_par *p, int i)
{
    return p->tw_used && i < p->tw_cap && p->tw[i].orig ? p->tw[i].merge : 0;
}

/* Stores what a merged child changed: the places of buffer b of fn (wtc_buf.unit) in res
   (n bytes, its RESULT's copy) that differ from orig (its twin) go into dst; says so
   when some of them were changed already (merge_places). */
void wtcrt_merge_into(wtcrt_rt *rt, const wtc_fn *fn, int b, unsigned char *dst,
                      const unsigned char *res, const unsigned char *orig, size_t n)
{
    unsigned long unit = fn->bufs[b].unit ? fn->bufs[b].unit : fn->bufs[b].elem_size;
    size_t both = merge_places(dst, res, orig, n, unit);
    if (both)
        race_note(rt, fn, b, both);
}
