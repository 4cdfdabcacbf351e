/* mpi/par.c - par frames, spawning, TASK/RESULT marshalling, task frames and the
   wait loop shared by the modes (doc/runtime.md). */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "wtcrt.h"


_Static_assert(sizeof(long) == 8, "buffer counts travel as 8-byte longs");

/* ---- frames ----------------------------------------------------------------------- */

/* Opens the next frame of this rank's stack (frames are reused, never freed). */
wtc_par *wtcrt_frame_push(wtcrt_rt *rt, wtc_ctx ctx)
{
    wtc_par *p;
    if (rt->nframes == rt->capframes) {
        int cap = rt->capframes ? 2 * rt->capframes : 64;
        wtc_par **f = realloc(rt->frames, (size_t)cap * sizeof *f);
        if (!f)
            wtcrt_die(rt, "out of memory");
        memset(f + rt->capframes, 0, (size_t)(cap - rt->capframes) * sizeof *f);
        rt->frames = f;
        rt->capframes = cap;
    }
    if (!(p = rt->frames[rt->nframes]) &&
        !(p = rt->frames[rt->nframes] = calloc(1, sizeof *p)))
        wtcrt_die(rt, "out of memory");
    p->level = rt->nframes++;
    p->region = 0;
    p->ctx = ctx;
    p->nch = 0;
    p->used = 0;
    p->mem = NULL;
    p->memsize = 0;
    p->call = -1;
    p->base = 0;
    p->outstanding = 0;
    p->closing = 0;
    p->nextc = p->end = 0;
    p->spawning = 0;
    wtcrt_merge_reset(p);
    wtcrt_keep_reset(&p->keep);
    return p;
}

/* Reserves n bytes (16-aligned) in the frame's arena; returns the offset. */
static size_t arena_alloc(wtcrt_rt *rt, wtc_par *p, size_t n)
{
    size_t off = p->used;
    if (off + ALIGN16(n) > p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 1024;
        while (cap < off + ALIGN16(n))
            cap *= 2;
        if (!(p->arena = realloc(p->arena, cap)))
            wtcrt_die(rt, "out of memory");
        p->cap = cap;
    }
    p->used += ALIGN16(n);
    return off;
}

/* memcpy for the arguments of a spawn and the return value of a child: most are a few
   words, for which a call of the C library's memcpy (its size not known here) costs more
   than the copy (fib without a cut-off: 7 % of its run in memmove). */
static inline void copy_small(void *dst, const void *src, size_t n)
{
    if (n == 8)
        memcpy(dst, src, 8);
    else if (n == 4)
        memcpy(dst, src, 4);
    else if (n == 16)
        memcpy(dst, src, 16);
    else if (n)
        memcpy(dst, src, n);
}

static void hand_back(wtcrt_rt *rt, int lo, int hi);

/* The fast path (wtc_abi.h): after a par run inline, the next WTCRT_FAST_RUN - 1 pars
   and children (cond true, this rank alone) run inline without calling here, unless
   wtc_fast.left is reset first; so a poll and a look at the pending count come at
   least every WTCRT_FAST_RUN of them (fib 40 without a cut-off: the calls of
   wtc_par_open were 23 % of a rank's time). */
#define WTCRT_FAST_RUN 32u
struct wtc_fast wtc_fast;

/* The pars the fast path ran inline since the last look, into the statistics. */
static unsigned fast_take(wtcrt_rt *rt)
{
    unsigned k = wtc_fast.pars;
    wtc_fast.pars = 0;
    rt->st.pars_inline += k;
    return k;
}

void wtcrt_fast_stop(wtcrt_rt *rt)
{
    fast_take(rt);
    wtc_fast.left = 0;
}

/* k more pars (cond true) into the rank's grain (wtcp_grain), in a mode that inlines. */
static void count_pars(wtcrt_rt *rt, unsigned k)
{
    if (wtcp_grain_add(rt->ops->mode, &rt->grain, k))
        wtcp_grain_mark(&rt->grain, wtcrt_now());
}

/* The poll on the compute path, at a par and before a child run inline: thieves are
   answered, grants taken in. */
static void poll_here(wtcrt_rt *rt)
{
    if (rt->ops->poll && !wtcrt_poll_none(rt))
        rt->ops->poll(rt);
}

/* Opens a frame for the children of a par to come (wtc_par_open, wtc_par_next). */
static wtc_par *open_frame(wtcrt_rt *rt, wtc_ctx ctx)
{
    wtc_par *p;
    rt->st.pars_framed++;
    ctx.frame = rt->nframes;
    p = wtcrt_frame_push(rt, ctx);
    p->call = rt->ncalls - 1;
    /* below a par run inline, a frame's call is not the innermost the runtime started
       (check_child: the spawning call's buffers are those of a call it does not see) */
    if (p->call >= 0 && rt->calls[p->call].inlined && ctx.depth > rt->calls[p->call].depth)
        p->call = -1;
    return p;
}

static wtc_par *par_open(wtcrt_rt *rt, wtc_ctx ctx, int cond)
{
    unsigned k = fast_take(rt);
    if (!rt->in_region)
        return NULL;
    count_pars(rt, k); /* those of the fast path, whatever this par does */
    poll_here(rt); /* at every par, below the cut-off too */
    if (!cond || rt->nranks == 1) {
        hand_back(rt, ctx.lo, ctx.hi);
        return NULL;
    }
    if (rt->ops->mode->ranges && ctx.hi - ctx.lo <= 1)
        return NULL;
    count_pars(rt, 1);
    if (wtcp_par_inline(rt->ops->mode, rt->npending, &rt->grain, ctx.lo, ctx.hi)) {
        if (rt->ncalls > 0)
            rt->calls[rt->ncalls - 1].inlined = 1;
        rt->st.pars_inline++;
        wtc_fast.left = WTCRT_FAST_RUN;
        return WTC_INLINE;
    }
    wtc_fast.left = 0;
    return open_frame(rt, ctx);
}

static wtc_par *par_next(wtcrt_rt *rt, wtc_ctx ctx)
{
    count_pars(rt, fast_take(rt));
    poll_here(rt);
    if (!wtcp_par_convert(rt->npending)) {
        wtc_fast.left = WTCRT_FAST_RUN;
        return WTC_INLINE;
    }
    wtc_fast.left = 0;
    return open_frame(rt, ctx);
}

wtc_par *wtc_par_open(wtc_ctx ctx, int cond, const wtc_site *site)
{
    wtcrt_rt *rt = &wtcrt_this_rank; /* entered from generated code (wtc_abi.h) */
    wtc_par *p;
    (void)site; /* the predictor's advice uses it */
    wtcrt_enter(rt);
    p = par_open(rt, ctx, cond);
    wtcrt_leave(rt);
    return p;
}

wtc_par *wtc_par_next(wtc_ctx ctx)
{
    wtcrt_rt *rt = &wtcrt_this_rank; /* entered from generated code (wtc_abi.h) */
    wtc_par *p;
    wtcrt_enter(rt);
    p = par_next(rt, ctx);
    wtcrt_leave(rt);
    return p;
}

/* A call the runtime starts on this rank (its buffers bound those of the children it
   spawns: check_child) / its end. */
void wtcrt_call_push(wtcrt_rt *rt, const wtc_fn *fn, const void *args, int depth)
{
    if (rt->ncalls == rt->capcalls) {
        int cap = rt->capcalls ? 2 * rt->capcalls : 64;
        struct wtcrt_call *c = realloc(rt->calls, (size_t)cap * sizeof *c);
        if (!c)
            wtcrt_die(rt, "out of memory");
        rt->calls = c;
        rt->capcalls = cap;
    }
    rt->calls[rt->ncalls].fn = fn;
    rt->calls[rt->ncalls].seeded = 0;
    rt->calls[rt->ncalls].depth = depth;
    rt->calls[rt->ncalls].inlined = 0;
    rt->calls[rt->ncalls++].args = args;
}

void wtcrt_call_pop(wtcrt_rt *rt)
{
    rt->ncalls--;
}

/* Child i's element counts against the buffers of the call that spawns it: a count
   that reaches past them stops the program (common/check.c). Checked before every
   TASK (a wtcc --check build checks every spawn in the generated code). */
static void check_child(wtcrt_rt *rt, const wtc_par *p, int i)
{
    const struct wtcrt_call *c;
    if (p->call < 0)
        return;
    c = &rt->calls[p->call];
    wtcrt_check_inside(c->fn, c->args, p->ch[i].fn, WTCRT_ARGS(p, i), NULL);
}

void wtc_spawn(wtc_par *p, const wtc_fn *fn, const void *args, void *dest, int dest_kind,
               unsigned long dest_size)
{
    wtcrt_rt *rt = &wtcrt_this_rank; /* entered from generated code (wtc_abi.h) */
    wtcrt_child *c;
    wtcrt_enter(rt);
    if (p->nch == p->capch) {
        p->capch = p->capch ? 2 * p->capch : 16;
        if (!(p->ch = realloc(p->ch, (size_t)p->capch * sizeof *p->ch)))
            wtcrt_die(rt, "out of memory");
    }
    if (dest_size > WTCRT_DEST_MAX)
        wtcrt_die(rt, "%s: a return value of %lu bytes", fn->name, dest_size);
    c = &p->ch[p->nch++];
    c->fn = fn;
    c->args_off = arena_alloc(rt, p, wtcrt_slot_bytes(fn));
    copy_small(p->arena + c->args_off, args, fn->args_size);
    c->dest = dest_size ? dest : NULL;
    c->dest_kind = (short)dest_kind;
    c->dest_size = (unsigned)dest_size;
    c->remote = 0;
    c->shared = 0;
    /* thieves while the body spawns (steal mode; no mode at all in wtc-calibrate) */
    if (rt->ops && rt->ops->spawn_poll && wtcp_spawn_poll_due(rt->ops->mode, p->nch) &&
        !wtcrt_poll_none(rt))
        rt->ops->spawn_poll(rt, p);
    wtcrt_leave(rt);
}

void wtc_keep(wtc_par *p, const wtc_fn *fn, void *args, int b)
{
    wtcrt_rt *rt = &wtcrt_this_rank; /* entered from generated code (wtc_abi.h) */
    wtcrt_enter(rt);
    if (wtcrt_keep_buf(&p->keep, fn, args, b) < 0)
        wtcrt_die(rt, "out of memory copying an argument of %s", fn->name);
    wtcrt_leave(rt);
}

/* Runs child i of frame p here, in place, owning the ranks [lo, hi) (simple and steal
   mode; a rank alone: wtcrt_run_local); stores its return
   value (a value of the destination's own kind and size is copied here, anything else
   converted). */
void wtcrt_run_local_range(wtcrt_rt *rt, wtc_par *p, int i, int lo, int hi)
{
    const wtcrt_child *ch = &p->ch[i]; /* p->ch is stable while the child runs */
    const wtc_fn *fn = ch->fn;
    void *args = WTCRT_ARGS(p, i), *ret = WTCRT_RET(p, i);
    wtc_ctx c;
    c.depth = p->ctx.depth + 1;
    c.lo = lo;
    c.hi = hi;
    c.frame = rt->nframes;
    wtcrt_call_push(rt, fn, args, c.depth);
    wtcrt_leave(rt);
    fn->run_par(c, args, ret);
    wtcrt_enter(rt);
    hand_back(rt, lo, hi);
    wtcrt_call_pop(rt);
    if (!ch->dest)
        return;
    if (ch->dest_kind == fn->ret_kind && ch->dest_size == fn->ret_size)
        copy_small(ch->dest, ret, fn->ret_size);
    else
        wtcrt_kind_store(ch->dest, ch->dest_kind, ch->dest_size, ret, fn->ret_kind,
                         fn->ret_size);
}

/* Runs child i here, owning this rank only (dynamic mode, wtc-calibrate). */
void wtcrt_run_local(wtcrt_rt *rt, wtc_par *p, int i)
{
    wtcrt_run_local_range(rt, p, i, rt->rank, rt->rank + 1);
}

/* ---- TASK and RESULT -------------------------------------------------------------- */

/* The most buffers a function of children first..first+count-1 of p has. */
static int max_bufs(const wtc_par *p, int first, int count)
{
    int maxb = 0;
    for (int i = first; i < first + count; i++)
        if (p->ch[i].fn->nbufs > maxb)
            maxb = p->ch[i].fn->nbufs;
    return maxb;
}

/* Buffer b is in a child's mask of buffers that go by address (buffers 0-7 only). */
static inline int by_address(unsigned mask, int b)
{
    return b < 8 && (mask >> b & 1);
}

/* Whether buffers b and c of a child overlap in its caller's memory. */
static int bufs_overlap(const wtc_fn *fn, const void *args, const long *counts, int b, int c)
{
    unsigned long nb = wtcrt_buf_bytes(fn, b, counts[b]), nc = wtcrt_buf_bytes(fn, c, counts[c]);
    uintptr_t pb = (uintptr_t)wtcrt_buf_ptr(fn, args, b), pc = (uintptr_t)wtcrt_buf_ptr(fn, args, c);
    return nb && nc && pb < pc + nc && pc < pb + nb;
}

/* Which buffers of a child (args, counts) for rank dest go by address: those of 8 first
   that would travel by reference and lie in the shared heap of dest's host (bit b), and
   that no buffer sent as a copy overlaps: a small out: view inside a big in: view went
   as a copy beside the big one by address, and the callee no longer saw one array (it
   read its own writes back through the big view as the caller's old values; a helper's
   bug hunt). Such a group goes as copies, which the receiver joins into one region
   (alias_regions). */
static unsigned shared_mask(int dest, const wtc_fn *fn, const void *args, const long *counts)
{
    unsigned mask = 0;
    int again = 1;
    if (!wtcrt_shheap_on())
        return 0;
    for (int b = 0; b < fn->nbufs && b < 8; b++) {
        unsigned long nb = wtcrt_buf_bytes(fn, b, counts[b]);
        if (wtcrt_buf_by_ref(nb) && wtcrt_shheap_shares(dest, wtcrt_buf_ptr(fn, args, b), nb))
            mask |= 1u << b;
    }
    while (again && mask) { /* until no buffer by address overlaps one copied */
        again = 0;
        for (int b = 0; b < fn->nbufs && b < 8; b++)
            for (int c = 0; c < fn->nbufs && mask >> b & 1; c++)
                if (!by_address(mask, c) && bufs_overlap(fn, args, counts, b, c)) {
                    mask &= ~(1u << b);
                    again = 1;
                }
    }
    return mask;
}

/* A child about to leave whose buffer is NULL with elements: its copy there would not
   be NULL (the callee's test of it would differ from C's), and what comes back could
   not be stored; an error before anything crashes (a segmentation fault in the RESULT
   before). At -n 1, and where the call runs here, the program runs as C does. */
static void null_views(wtcrt_rt *rt, const wtc_fn *fn, const void *args, const long *counts)
{
    for (int b = 0; b < fn->nbufs; b++)
        if (counts[b] > 0 && !wtcrt_buf_ptr(fn, args, b))
            wtcrt_die(rt, "a call of %s has %s %s[%s] NULL with %ld element%s, and it is to "
                      "run on another processor: give an optional buffer a count of 0 "
                      "when it is NULL (%s[%s ? %s : 0], doc/language.md)", fn->name,
                      fn->bufs[b].in ? "in:" : "out:", fn->bufs[b].name, fn->bufs[b].count,
                      counts[b], counts[b] == 1 ? "" : "s", fn->bufs[b].name,
                      fn->bufs[b].name, fn->bufs[b].count);
}

/* Decides how children first..first+count-1 of p travel to rank dest, each checked
   (check_child): the buffers that go by address (p->ch[i].shared) and those sent
   merged (their twin made: wtcrt_merged); returns the payload bytes their TASK copies
   (its buffers by reference left out; out: buffers sent merged, below 64 KiB, in).
   counts: room for their element counts. */
static size_t task_bytes(wtcrt_rt *rt, wtc_par *p, int first, int count, int dest,
                         long *counts)
{
    size_t n = 0;
    for (int i = first; i < first + count; i++) {
        const wtc_fn *fn = p->ch[i].fn;
        const unsigned char *args = WTCRT_ARGS(p, i);
        unsigned shared, merge;
        check_child(rt, p, i);
        fn->counts(args, counts);
        null_views(rt, fn, args, counts);
        n += wtcrt_task_child_copied(fn, counts);
        shared = shared_mask(dest, fn, args, counts);
        merge = wtcrt_child_merge(rt, p, i, shared, counts);
        p->ch[i].shared = (unsigned char)shared;
        wtcrt_new_twin(rt, p, i, merge, counts);
        for (int b = 0; b < fn->nbufs && merge; b++) {
            unsigned long nb = wtcrt_buf_bytes(fn, b, counts[b]);
            if (merge >> b & 1 && !fn->bufs[b].in && !wtcrt_buf_by_ref(nb))
                n += nb;
        }
    }
    return n;
}

/* Packs child i of p into m at q as task_bytes decided (function id and the masks of
   buffers that go by address and merged, args, counts, in: buffers, the big ones by
   reference or by address); returns the end. */
static unsigned char *pack_child(wtcrt_rt *rt, wtcrt_msg *m, wtc_par *p, int i,
                                 unsigned char *q, long *counts)
{
    const wtc_fn *fn = p->ch[i].fn;
    const unsigned char *args = WTCRT_ARGS(p, i);
    int pre[2] = { fn->id, 0 };
    unsigned shared = p->ch[i].shared, merge = wtcrt_merged(p, i); /* task_bytes */
    unsigned char *twin = merge ? p->tw[i].orig : NULL;
    fn->counts(args, counts);
    pre[1] = (int)(shared | merge << 8);
    memcpy(q, pre, sizeof pre);
    memcpy(q + sizeof pre, args, fn->args_size);
    q += sizeof pre + fn->args_size;
    memcpy(q, counts, 8ul * (unsigned long)fn->nbufs);
    q += 8ul * (unsigned long)fn->nbufs;
    for (int b = 0; b < fn->nbufs; b++) {
        unsigned long nb = wtcrt_buf_bytes(fn, b, counts[b]);
        if (!(fn->bufs[b].in || merge >> b & 1) || !nb)
            continue;
        if (by_address((unsigned)pre[1], b)) {
            rt->st.bytes_shared += (long long)nb;
            continue;
        }
        if (merge >> b & 1) { /* the twin first, then what it holds leaves */
            memcpy(twin, wtcrt_buf_ptr(fn, args, b), nb);
            if (wtcrt_buf_by_ref(nb)) {
                wtcrt_msg_seg(rt, m, m->len, twin, nb);
            } else {
                memcpy(q, twin, nb);
                q += nb;
            }
            twin += nb;
        } else if (wtcrt_buf_by_ref(nb)) { /* after the packed part (m->len: task_bytes) */
            wtcrt_msg_seg(rt, m, m->len, wtcrt_buf_ptr(fn, args, b), nb);
        } else {
            memcpy(q, wtcrt_buf_ptr(fn, args, b), nb);
            q += nb;
        }
    }
    return q;
}

/* The header of a TASK of children first..first+count-1 of p, owning [lo, hi). */
static void task_hdr(wtcrt_msg *m, const wtc_par *p, int first, int count, int lo, int hi,
                     int seed)
{
    wtcrt_hdr *h = WTCRT_HDR(m);
    h->fn = p->ch[first].fn->id;
    h->depth = p->ctx.depth + 1;
    h->lo = lo;
    h->hi = hi;
    h->frame = p->level;
    h->first = first;
    h->count = count;
    h->want = p->base + first; /* the index in the original par (decision log) */
    h->hops = seed;
}

/* Sends children first..first+count-1 of p in one TASK; [lo, hi) is their range. */
static void send_task(wtcrt_rt *rt, wtc_par *p, int dest, int first, int count, int lo,
                      int hi, int seed)
{
    unsigned char *q;
    wtcrt_msg *m;
    long cnt[64], *counts;
    int maxb = max_bufs(p, first, count);
    counts = maxb <= 64 ? cnt : malloc((size_t)maxb * sizeof *counts);
    if (!counts)
        wtcrt_die(rt, "out of memory");
    m = wtcrt_msg_new(rt, task_bytes(rt, p, first, count, dest, counts));
    q = WTCRT_PAYLOAD(m);
    for (int i = first; i < first + count; i++) {
        q = pack_child(rt, m, p, i, q, counts);
        p->ch[i].remote = 1;
    }
    if (counts != cnt)
        free(counts);
    task_hdr(m, p, first, count, lo, hi, seed);
    p->outstanding++;
    rt->st.calls_sent += count;
    if (wtcp_log_file())
        fprintf(wtcp_log_file(), "%s %d %d %d -> %d\n", seed ? "seed" : "send",
                p->ctx.depth + 1, p->base + first, count, dest);
    wtcrt_send_task_msg(rt, dest, m);
}

void wtcrt_send_task(wtcrt_rt *rt, wtc_par *p, int dest, int first, int count, int lo,
                     int hi)
{
    send_task(rt, p, dest, first, count, lo, hi, 0);
}

/* A par whose call owns several ranks (the region's root owns every worker) and has
   not spread them yet, in a mode that seeds (steal, dynamic): the core's split
   (wtcp_seed_count), one seed per sub-range but the first, whose children stay pending
   here (p->end is the first seeded child); *lo, *hi get the ranks sub-range 0's
   children own (this rank alone when nothing is spread). Returns the sub-ranges. */
int wtcrt_seed(wtcrt_rt *rt, wtc_par *p, int *lo, int *hi)
{
    int k = p->nch - p->nextc, n = p->ctx.hi - p->ctx.lo, s;
    *lo = rt->rank;
    *hi = rt->rank + 1;
    if (n <= 1 || (p->call >= 0 && rt->calls[p->call].seeded))
        return 1;
    if (p->call >= 0) /* a call spreads its ranks at its first par only */
        rt->calls[p->call].seeded = 1;
    s = wtcp_seed_count(rt->ops->mode, k, n);
    wtcrt_send_split(rt, p, s, 1);
    if (s > 1) {
        wtcrt_sync_tasks(rt);
        wtcrt_pending_end(rt, p, p->nextc + wtcp_split_first(1, k, s));
    }
    *lo = p->ctx.lo;
    *hi = wtcp_split_lo(p->ctx.lo, n, 1, s);
    return s;
}

/* The innermost call of this rank, owning [lo, hi), gives its ranks up unspread (a par
   with cond false, or its return): where the mode hands them back (wtcp_hands_back),
   each rank but this one, once per call. */
static void hand_back(wtcrt_rt *rt, int lo, int hi)
{
    struct wtcrt_call *c;
    if (hi - lo <= 1 || rt->ncalls < 1 || !wtcp_hands_back(rt->ops->mode, lo, hi))
        return; /* (the range first: every child comes here, in a region or not) */
    c = &rt->calls[rt->ncalls - 1];
    if (c->seeded)
        return;
    c->seeded = 1;
    for (int r = lo; r < hi; r++)
        if (r != rt->rank) {
            wtcp_log_back(r);
            rt->ops->hand_back(rt, r);
        }
}

/* Simple mode's split (the seeds of steal and dynamic mode: 'seed', marked in the TASK
   and its RESULT): p's children cut into s sub-ranges of the ranks its call owns (the
   core's wtcp_split_*), one TASK for each sub-range j > 0 to its first rank, owning it. */
void wtcrt_send_split(wtcrt_rt *rt, wtc_par *p, int s, int seed)
{
    int k = p->nch - p->nextc, lo = p->ctx.lo, n = p->ctx.hi - p->ctx.lo;
    for (int j = 1; j < s; j++) {
        int c0 = p->nextc + wtcp_split_first(j, k, s);
        int c1 = p->nextc + wtcp_split_first(j + 1, k, s);
        int to = wtcp_split_lo(lo, n, j, s);
        send_task(rt, p, to, c0, c1 - c0, to, wtcp_split_lo(lo, n, j + 1, s), seed);
    }
}

/* The open frame a RESULT is for, its children checked. */
static wtc_par *result_frame(wtcrt_rt *rt, const wtcrt_hdr *h)
{
    wtc_par *p;
    if (h->frame < 0 || h->frame >= rt->nframes)
        wtcrt_die(rt, "RESULT for frame %d, %d open", h->frame, rt->nframes);
    p = rt->frames[h->frame];
    if (h->first < 0 || h->count < 1 || h->first + h->count > p->nch)
        wtcrt_die(rt, "RESULT for children %d+%d of a par with %d", h->first, h->count,
                  p->nch);
    for (int i = h->first; i < h->first + h->count; i++)
        if (!p->ch[i].remote)
            wtcrt_die(rt, "unexpected RESULT for child %d", i);
    return p;
}

/* The layout of RESULT m as its sender packed it (result_child): adds each out: buffer
   sent by reference to m->segs with its destination, the child's buffer here, so that
   the transport receives it there; returns the payload bytes in m's own buffer. */
static size_t result_layout(wtcrt_rt *rt, wtc_par *p, const wtcrt_hdr *h, wtcrt_msg *m)
{
    size_t at = 0;
    long cnt[64];
    for (int i = h->first; i < h->first + h->count; i++) {
        const wtc_fn *fn = p->ch[i].fn;
        long *counts = fn->nbufs <= 64 ? cnt : malloc((size_t)fn->nbufs * sizeof *counts);
        const unsigned char *args = WTCRT_ARGS(p, i);
        if (!counts)
            wtcrt_die(rt, "out of memory");
        fn->counts(args, counts);
        unsigned merge = wtcrt_merged(p, i);
        at += fn->ret_size;
        for (int b = 0; b < fn->nbufs; b++) {
            unsigned long nb = wtcrt_buf_bytes(fn, b, counts[b]);
            if (!fn->bufs[b].out || !nb || by_address(p->ch[i].shared, b))
                continue;
            if (!wtcrt_buf_by_ref(nb) || merge >> b & 1) /* merged: from m's buffer */
                at += nb;
            else
                wtcrt_msg_seg(rt, m, WTCRT_HDR_SIZE + at, wtcrt_buf_ptr(fn, args, b), nb);
        }
        if (counts != cnt)
            free(counts);
    }
    return at;
}

/* The transport has the first piece of RESULT m, and more are coming: sets m->segs to
   the out: buffers sent by reference, each to be received straight into the child's
   buffer here (no copy, no new memory), and m->len to the bytes of m's own buffer;
   checks that they add up to the total the sender announced. */
void wtcrt_result_place(wtcrt_rt *rt, wtcrt_msg *m)
{
    const wtcrt_hdr *h = WTCRT_HDR(m);
    wtc_par *p = result_frame(rt, h);
    size_t own = result_layout(rt, p, h, m), total = own;
    for (int i = 0; i < m->nsegs; i++)
        total += m->segs[i].len;
    if ((long long)total != h->nbytes)
        wtcrt_die(rt, "RESULT of %lld bytes from rank %d, %zu expected", h->nbytes, m->src,
                  total);
    m->len = WTCRT_HDR_SIZE + own;
}

/* The next n bytes of RESULT m at *q (advanced past them), which must be there. */
static const unsigned char *result_take(wtcrt_rt *rt, const wtcrt_msg *m,
                                        const unsigned char **q, size_t n)
{
    const unsigned char *at = *q;
    if ((size_t)(m->buf + m->len - at) < n)
        wtcrt_die(rt, "RESULT of %zu bytes from rank %d does not fit its children", m->len,
                  m->src);
    *q += n;
    return at;
}

/* A RESULT for one of this rank's open frames: stores return values and out: data (the
   out: buffers sent by reference are in place already: wtcrt_result_place). */
void wtcrt_store_result(wtcrt_rt *rt, wtcrt_msg *m)
{
    const wtcrt_hdr *h = WTCRT_HDR(m);
    const unsigned char *q = WTCRT_PAYLOAD(m), *ret;
    wtc_par *p = result_frame(rt, h);
    long cnt[64];
    for (int i = h->first; i < h->first + h->count; i++) {
        wtcrt_child *c = &p->ch[i];
        const wtc_fn *fn = c->fn;
        long *counts = fn->nbufs <= 64 ? cnt : malloc((size_t)fn->nbufs * sizeof *counts);
        const unsigned char *args = WTCRT_ARGS(p, i);
        if (!counts)
            wtcrt_die(rt, "out of memory");
        fn->counts(args, counts);
        ret = result_take(rt, m, &q, fn->ret_size);
        memcpy(WTCRT_RET(p, i), ret, fn->ret_size); /* a task frame sends it on */
        unsigned merge = wtcrt_merged(p, i);
        size_t at = 0;
        for (int b = 0; b < fn->nbufs; b++) {
            unsigned long nb = wtcrt_buf_bytes(fn, b, counts[b]);
            if (merge >> b & 1) { /* only what the child changed */
                wtcrt_merge_into(rt, fn, b, wtcrt_buf_ptr(fn, args, b),
                                 result_take(rt, m, &q, nb), p->tw[i].orig + at, nb);
                at += nb;
            } else if (fn->bufs[b].out && nb && !wtcrt_buf_by_ref(nb) &&
                       !by_address(c->shared, b)) {
                memcpy(wtcrt_buf_ptr(fn, args, b), result_take(rt, m, &q, nb), nb);
            }
        }
        if (merge)
            wtcrt_twin_done(p, i);
        /* the return value last, as C assigns it after the call: 'a[k] = f(a + k, n)'
           keeps what f returned, not what f wrote to a[k] through its out: buffer */
        if (c->dest)
            wtcrt_kind_store(c->dest, c->dest_kind, c->dest_size, ret, fn->ret_kind,
                             fn->ret_size);
        if (counts != cnt)
            free(counts);
        c->remote = 0;
        c->shared = 0;
    }
    if (q != m->buf + m->len)
        wtcrt_die(rt, "RESULT of %zu bytes from rank %d does not fit its children", m->len,
                  m->src);
    p->outstanding--;
}

/* One child of a received TASK, unpacked into local memory. */
typedef struct task_child {
    const wtc_fn *fn;
    unsigned char *args, *ret;
    long *counts;
    unsigned shared; /* the buffers left where they lie (by address; pack_child) */
    unsigned merge;  /* out: buffers sent with their data, to be merged (wtcrt_child_merge) */
} task_child;

/* Whether buffer b of a child comes with data in its TASK: an in: buffer, or an out:
   buffer sent merged. */
static inline int comes_in(const wtc_fn *fn, unsigned merge, int b)
{
    return fn->bufs[b].in || (merge >> b & 1);
}

/* A TASK's byte stream: for each child its function id, args, counts and in: buffers
   below 64 KiB (the packed part), then every buffer sent by reference, in the same order
   (pack_child). */

/* Buffers of one child that overlap in its sender's memory (one array passed to two
   pointer parameters) get one region here, so that what the callee writes through one
   it reads through the other, as in C; apart, the last one sent back won ("2 1" for
   "2 2"). From the packed args (the sender's pointers, args) and counts: lead[b], the
   first buffer of b's region (b when alone; -1 by address or empty); lo[l] and hi[l],
   leader l's region in the sender's addresses (64 entries each). The buffers of a
   function of more than 64 are taken apart (lead -1). */
static void alias_regions(const wtc_fn *fn, const unsigned char *args, const long *counts,
                          unsigned shared, int *lead, uintptr_t *lo, uintptr_t *hi)
{
    int nb = fn->nbufs, again = 1;
    if (nb > 64) {
        for (int b = 0; b < 64; b++)
            lead[b] = -1;
        return;
    }
    for (int b = 0; b < nb; b++) {
        unsigned long n = wtcrt_buf_bytes(fn, b, counts[b]);
        void *ptr;
        memcpy(&ptr, args + fn->bufs[b].offset, sizeof ptr);
        lead[b] = by_address(shared, b) || !n ? -1 : b;
        lo[b] = (uintptr_t)ptr;
        hi[b] = lo[b] + n;
    }
    while (again) { /* join regions until none overlaps another */
        again = 0;
        for (int b = 1; b < nb && !again; b++)
            for (int c = 0; c < b && lead[b] == b && !again; c++)
                if (lead[c] == c && lo[b] < hi[c] && lo[c] < hi[b]) {
                    lo[c] = lo[b] < lo[c] ? lo[b] : lo[c];
                    hi[c] = hi[b] > hi[c] ? hi[b] : hi[c];
                    for (int x = b; x < nb; x++)
                        if (lead[x] == b)
                            lead[x] = c;
                    again = 1;
                }
    }
}

/* Pass 1 of the unpack for the child at q (before end): checks its function and that
   its packed bytes are there, sets tc->fn, adds its local size to *total and its bytes
   by reference to *big; returns its packed bytes, 0 if they are not all before end.
   Counts are read with memcpy: the payload is not aligned. */
static size_t child_bytes(wtcrt_rt *rt, const unsigned char *q, const unsigned char *end,
                          task_child *tc, size_t *total, size_t *big)
{
    int pre[2];
    const wtc_fn *fn;
    size_t bytes;
    if (end - q < (ptrdiff_t)sizeof pre)
        return 0;
    memcpy(pre, q, sizeof pre);
    if (pre[0] < 0 || pre[0] >= rt->prog->nfns)
        wtcrt_die(rt, "TASK for unknown function %d", pre[0]);
    fn = tc->fn = rt->prog->fns[pre[0]];
    tc->shared = (unsigned)pre[1] & 0xffu;
    tc->merge = (unsigned)pre[1] >> 8;
    if (tc->shared >> (fn->nbufs < 8 ? fn->nbufs : 8))
        wtcrt_die(rt, "TASK for %s with buffers by address it does not have", fn->name);
    for (int b = 0; b < WTCRT_MERGE_BUFS; b++)
        if (tc->merge >> b & 1 && (b >= fn->nbufs || !fn->bufs[b].out))
            wtcrt_die(rt, "TASK for %s merging a buffer that is not out:", fn->name);
    bytes = WTCRT_CHILD_PREFIX + fn->args_size + 8ul * (unsigned long)fn->nbufs;
    if ((size_t)(end - q) < bytes)
        return 0;
    *total += wtcrt_slot_bytes(fn) + ALIGN16(8ul * (unsigned long)fn->nbufs);
    long cnt[64];
    int lead[64];
    uintptr_t lo[64], hi[64];
    if (fn->nbufs <= 64)
        memcpy(cnt, q + WTCRT_CHILD_PREFIX + fn->args_size, 8ul * (unsigned long)fn->nbufs);
    alias_regions(fn, q + WTCRT_CHILD_PREFIX, cnt, tc->shared, lead, lo, hi);
    for (int b = 0; b < fn->nbufs; b++) {
        long cb;
        unsigned long nb;
        memcpy(&cb, q + WTCRT_CHILD_PREFIX + fn->args_size + 8ul * (unsigned long)b, 8);
        nb = wtcrt_buf_bytes(fn, b, cb);
        if (by_address(tc->shared, b)) {
            const unsigned char *a = q + WTCRT_CHILD_PREFIX;
            void *ptr;
            memcpy(&ptr, a + fn->bufs[b].offset, sizeof ptr);
            if (!wtcrt_shheap_has(ptr, nb))
                wtcrt_die(rt, "TASK for %s: buffer %s by address, not in the shared heap",
                          fn->name, fn->bufs[b].name);
            continue; /* used where it lies: no memory here, nothing in the TASK */
        }
        if (b >= 64 || lead[b] < 0)
            *total += ALIGN16(nb);
        else if (lead[b] == b) /* the region of the buffers that overlap b */
            *total += ALIGN16(hi[b] - lo[b]);
        if (comes_in(fn, tc->merge, b) && wtcrt_buf_by_ref(nb))
            *big += nb;
        else if (comes_in(fn, tc->merge, b))
            bytes += nb;
    }
    return (size_t)(end - q) < bytes ? 0 : bytes;
}

/* Pass 1 over the packed part of TASK m, [payload, end): the children's functions
   into tc, *total their local size, *big their bytes by reference; returns the end of
   the packed part, NULL if it goes past end. */
static const unsigned char *task_plan(wtcrt_rt *rt, const wtcrt_msg *m,
                                      const unsigned char *end, task_child *tc,
                                      size_t *total, size_t *big)
{
    const unsigned char *q = WTCRT_PAYLOAD(m);
    *total = *big = 0;
    for (int i = 0; i < WTCRT_HDR(m)->count; i++) {
        size_t n = child_bytes(rt, q, end, &tc[i], total, big);
        if (!n)
            return NULL;
        q += n;
    }
    return q;
}

/* Where a received child's empty view (a count of 0, a pointer not NULL) points: the
   start of EMPTY_VIEW_BYTES mapped with no access, so a callee that uses elements its
   count does not give it (a count too small: 'out: a[n > 1 ? n : 0]' with a leaf that
   writes a[0]) faults at the first one, as a leaf on the caller's rank would not,
   instead of writing into the next buffer's memory while its results were lost in
   silence (simple -n 2 printed "7 0" for "7 7"). Mapped once per process; NULL (the
   old place, the receive memory) if that fails. */
#define EMPTY_VIEW_BYTES (1ul << 20)

static void *empty_view(void)
{
    static void *_Atomic view;
    void *v = atomic_load_explicit(&view, memory_order_acquire), *none = NULL;
    if (v)
        return v;
    v = mmap(NULL, EMPTY_VIEW_BYTES, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
             -1, 0);
    if (v == MAP_FAILED)
        return NULL;
    if (!atomic_compare_exchange_strong(&view, &none, v)) {
        munmap(v, EMPTY_VIEW_BYTES); /* another thread's came first */
        return none;
    }
    return v;
}

/* What pass 2 copies (child_unpack): the packed part, the buffers by reference (from
   *tail, the stream after the packed part), or neither (both are in place already:
   the pointers are set again all the same); PLACE: each buffer by reference becomes a
   segment of m to be received straight into place (wtcrt_task_place). */
enum { COPY_PACKED = 1, COPY_BIG = 2, PLACE_BIG = 4 };

/* Pass 2 for the child at q: lays its args, return value, counts and buffers out at
   mem + *off, copies what 'how' says, points the args at the local buffers; returns
   the next child's q. */
static const unsigned char *child_unpack(wtcrt_rt *rt, wtcrt_msg *m, const unsigned char *q,
                                         const unsigned char **tail, task_child *tc,
                                         unsigned char *mem, size_t *off, int how)
{
    const wtc_fn *fn = tc->fn;
    const unsigned char *sent; /* the packed args: the sender's pointers */
    unsigned char *region[64];
    int lead[64];
    uintptr_t lo[64], hi[64];
    q += WTCRT_CHILD_PREFIX;
    sent = q;
    tc->args = mem + *off;
    tc->ret = mem + *off + wtcrt_ret_off(fn);
    *off += wtcrt_slot_bytes(fn);
    tc->counts = (long *)(void *)(mem + *off);
    *off += ALIGN16(8ul * (unsigned long)fn->nbufs);
    if (how & COPY_PACKED) {
        memcpy(tc->args, q, fn->args_size);
        memcpy(tc->counts, q + fn->args_size, 8ul * (unsigned long)fn->nbufs);
    }
    alias_regions(fn, sent, tc->counts, tc->shared, lead, lo, hi);
    q += fn->args_size + 8ul * (unsigned long)fn->nbufs;
    for (int b = 0; b < fn->nbufs; b++) {
        unsigned long nb = wtcrt_buf_bytes(fn, b, tc->counts[b]);
        unsigned char *at = mem + *off;
        int shared_region = 0;
        void *ptr, *guard; /* the sender's; an empty view's place here */
        if (by_address(tc->shared, b))
            continue; /* the args point at it already (child_bytes checked where) */
        memcpy(&ptr, sent + fn->bufs[b].offset, sizeof ptr);
        if (b < 64 && lead[b] >= 0) { /* its region, shared with the buffers it overlaps */
            if (lead[b] == b) {
                size_t len = hi[b] - lo[b];
                region[b] = mem + *off;
                if (len != nb && (how & COPY_PACKED))
                    memset(region[b], 0, len); /* then each one's data, in order */
                if (len != nb && !(how & PLACE_BIG)) /* one block for the count checks */
                    wtcrt_unpacked_add(region[b], len);
                *off += ALIGN16(len);
            }
            at = region[lead[b]] + ((uintptr_t)ptr - lo[lead[b]]);
            shared_region = hi[lead[b]] - lo[lead[b]] != nb || lead[b] != b;
        } else {
            *off += ALIGN16(nb);
        }
        wtcrt_buf_set(fn, tc->args, b, at);
        if (!(how & PLACE_BIG) && !shared_region)
            wtcrt_unpacked_add(at, nb);
        if (comes_in(fn, tc->merge, b) && nb && wtcrt_buf_by_ref(nb)) {
            if (how & COPY_BIG)
                memcpy(at, *tail, nb);
            if (how & PLACE_BIG)
                wtcrt_msg_seg(rt, m, m->len, at, nb);
            *tail += nb;
        } else if (comes_in(fn, tc->merge, b) && nb) {
            if (how & COPY_PACKED)
                memcpy(at, q, nb);
            q += nb;
        } else if (nb && (how & COPY_PACKED) && !shared_region) {
            /* out: only: what the callee leaves unwritten comes back as 0
               (doc/language.md), not as a former TASK's bytes of this memory (a shared
               region is zeroed whole, then the others' data go in) */
            memset(at, 0, nb);
        }
        if (!nb && !ptr) /* an empty view: NULL stays NULL (an optional buffer's
                            'if (p)'), any other pointer points at this rank's memory */
            wtcrt_buf_set(fn, tc->args, b, NULL);
        else if (!nb && !shared_region && (guard = empty_view()) != NULL)
            /* where nothing may be touched: a count of 0 the callee reads or writes
               past faults here instead of using the next buffer's memory, its results
               silently lost */
            wtcrt_buf_set(fn, tc->args, b, guard);
    }
    return q;
}

/* The transport has the first piece of TASK m (got bytes) and more are coming: when
   that piece is the whole packed part, unpacks it now into the children's memory and
   makes each buffer by reference a segment of m, received straight into its place
   there (no receive buffer, no copy: m->len becomes got). Otherwise (pieces smaller
   than the packed part: WTC_MSG_CHUNK, or over 1 GiB of it) nothing: the TASK arrives
   whole and is unpacked from it. task_unpack finishes either. */
void wtcrt_task_place(wtcrt_rt *rt, wtcrt_msg *m, size_t got)
{
    const wtcrt_hdr *h = WTCRT_HDR(m);
    task_child one, *tc;
    size_t total, big, off = 0;
    const unsigned char *q, *tail;
    unsigned char *mem;
    if (h->count < 1)
        return; /* task_unpack says what is wrong */
    tc = h->count == 1 ? &one : malloc((size_t)h->count * sizeof *tc);
    if (!tc)
        wtcrt_die(rt, "out of memory");
    q = task_plan(rt, m, m->buf + got, tc, &total, &big);
    if (q != m->buf + got || (long long)(got - WTCRT_HDR_SIZE + big) != h->nbytes) {
        if (tc != &one)
            free(tc);
        return;
    }
    mem = wtcrt_task_mem(rt, total);
    m->len = got;
    q = tail = WTCRT_PAYLOAD(m);
    for (int i = 0; i < h->count; i++)
        q = child_unpack(rt, m, q, &tail, &tc[i], mem, &off, COPY_PACKED | PLACE_BIG);
    m->placed = mem;
    m->placed_size = total;
    if (tc != &one)
        free(tc);
}

/* The memory of the received TASKs in use on this rank (nested: a few at most), from
   task_unpack to task_mem_done, so that a callee's free() of an in: buffer its caller
   handed over leaves it alone. */
static struct {
    struct { const unsigned char *lo; size_t len; } *v;
    int n, cap;
} live;

static void live_add(wtcrt_rt *rt, const unsigned char *mem, size_t len)
{
    if (live.n == live.cap) {
        int cap = live.cap ? 2 * live.cap : 16;
        void *v = realloc(live.v, (size_t)cap * sizeof *live.v);
        if (!v)
            wtcrt_die(rt, "out of memory");
        live.v = v;
        live.cap = cap;
    }
    live.v[live.n].lo = mem;
    live.v[live.n++].len = len;
}

/* A received TASK's memory is done with (its RESULT takes it over, or frees it). */
static void task_mem_done(const unsigned char *mem, size_t len)
{
    wtcrt_unpacked_forget(mem, len);
    for (int i = live.n - 1; i >= 0; i--)
        if (live.v[i].lo == mem) {
            live.v[i] = live.v[--live.n];
            return;
        }
}

int wtcrt_task_memory_has(const void *p)
{
    const unsigned char *q = p;
    for (int i = 0; i < live.n; i++)
        if (q >= live.v[i].lo && q < live.v[i].lo + live.v[i].len)
            return 1;
    return 0;
}

/* Unpacks a TASK's children into one allocation (the one wtcrt_task_place made, if it
   did); returns it (to free). */
static unsigned char *task_unpack(wtcrt_rt *rt, wtcrt_msg *m, task_child *tc, size_t *size)
{
    const wtcrt_hdr *h = WTCRT_HDR(m);
    const unsigned char *end = m->buf + m->len, *q, *tail;
    size_t total, big, off = 0;
    unsigned char *mem;
    int how = COPY_PACKED | COPY_BIG;
    q = task_plan(rt, m, end, tc, &total, &big); /* pass 1: sizes, all checked */
    if (!q)
        wtcrt_die(rt, "truncated TASK (%zu bytes)", m->len);
    if (m->placed) {
        if (q != end || total != m->placed_size)
            wtcrt_die(rt, "TASK of %zu bytes does not fit its placed children", m->len);
        mem = m->placed;
        m->placed = NULL;
        how = 0;
    } else {
        if ((size_t)(end - q) != big)
            wtcrt_die(rt, "TASK of %zu bytes has %td bytes after its packed part, %zu "
                      "expected", m->len, end - q, big);
        mem = wtcrt_task_mem(rt, total);
    }
    *size = total;
    tail = q;
    q = WTCRT_PAYLOAD(m);
    for (int i = 0; i < h->count; i++) /* pass 2: copy, point the args at local buffers */
        q = child_unpack(rt, m, q, &tail, &tc[i], mem, &off, how);
    live_add(rt, mem, total);
    return mem;
}

/* Packs one child's part of a RESULT into m at q: its return value and out: buffers,
   the big ones by reference (they stay where they are until the send completes: the
   memory they lie in becomes m->owned). Returns the end. */
static unsigned char *result_child(wtcrt_rt *rt, wtcrt_msg *m, unsigned char *q,
                                   const wtc_fn *fn, const void *ret,
                                   const unsigned char *args, const long *counts,
                                   unsigned shared)
{
    memcpy(q, ret, fn->ret_size);
    q += fn->ret_size;
    for (int b = 0; b < fn->nbufs; b++) {
        unsigned long nb = wtcrt_buf_bytes(fn, b, counts[b]);
        if (!fn->bufs[b].out || !nb)
            continue;
        if (by_address(shared, b)) { /* written where the parent has it */
            rt->st.bytes_shared += (long long)nb;
            continue;
        }
        if (wtcrt_buf_by_ref(nb)) {
            wtcrt_msg_seg(rt, m, (size_t)(q - m->buf), wtcrt_buf_ptr(fn, args, b), nb);
        } else {
            memcpy(q, wtcrt_buf_ptr(fn, args, b), nb);
            q += nb;
        }
    }
    return q;
}

/* Packs the RESULT of a TASK's children and sends it to the parent; mem (their
   unpacked memory) is freed once it has left. */
static void task_reply(wtcrt_rt *rt, const wtcrt_hdr *th, int parent, task_child *tc,
                       unsigned char *mem)
{
    size_t n = 0;
    unsigned char *q;
    wtcrt_msg *m;
    for (int i = 0; i < th->count; i++)
        n += wtcrt_result_child_copied(tc[i].fn, tc[i].counts);
    m = wtcrt_msg_new(rt, n);
    q = WTCRT_PAYLOAD(m);
    for (int i = 0; i < th->count; i++)
        q = result_child(rt, m, q, tc[i].fn, tc[i].ret, tc[i].args, tc[i].counts,
                         tc[i].shared);
    *WTCRT_HDR(m) = *th;
    m->owned = mem;
    wtcrt_send(rt, parent, WTCRT_RESULT, m);
}

/* Runs the children of a received TASK one after the other, sends the RESULT. */
void wtcrt_run_task(wtcrt_rt *rt, wtcrt_msg *m)
{
    wtcrt_hdr h = *WTCRT_HDR(m);
    int parent = m->src, old;
    task_child one, *tc = h.count == 1 ? &one : malloc((size_t)h.count * sizeof *tc);
    unsigned char *mem;
    size_t memsize;
    if (h.count < 1 || !tc)
        wtcrt_die(rt, "bad TASK (%d children)", h.count);
    mem = task_unpack(rt, m, tc, &memsize);
    wtcrt_msg_free(rt, m);
    wtc_fast.left = 0; /* work from elsewhere: its pars decide afresh */
    old = wtcrt_set_state(rt, WTCRT_S_COMPUTE);
    for (int i = 0; i < h.count; i++) {
        wtc_ctx c = { h.depth, h.lo, h.hi, rt->nframes };
        if (!rt->ops->mode->ranges) {
            c.lo = rt->rank;
            c.hi = rt->rank + 1;
        }
        rt->open_views += (tc[i].shared | tc[i].merge) != 0;
        wtcrt_call_push(rt, tc[i].fn, tc[i].args, c.depth);
        wtcrt_leave(rt);
        tc[i].fn->run_par(c, tc[i].args, tc[i].ret);
        wtcrt_enter(rt);
        wtcrt_call_pop(rt);
        rt->open_views -= (tc[i].shared | tc[i].merge) != 0;
    }
    rt->st.calls_run += h.count;
    task_mem_done(mem, memsize);
    task_reply(rt, &h, parent, tc, mem);
    if (tc != &one)
        free(tc);
    wtcrt_set_state(rt, old);
}

/* ---- task frames: a received TASK's children as a par of this rank ----------------- */

/* Pushes a frame holding the children of TASK m (freed here), ready to close: in steal
   mode they can be stolen again, a part at a time, as any par's. */
wtc_par *wtcrt_task_frame(wtcrt_rt *rt, wtcrt_msg *m)
{
    const wtcrt_hdr h = *WTCRT_HDR(m);
    task_child one, *tc = h.count == 1 ? &one : malloc((size_t)h.count * sizeof *tc);
    wtc_ctx c = { h.depth - 1, rt->rank, rt->rank + 1, rt->nframes };
    wtc_par *p;
    if (h.count < 1 || !tc)
        wtcrt_die(rt, "bad TASK (%d children)", h.count);
    if (h.hops) { /* a seed: its children own the ranks it came with */
        c.lo = h.lo;
        c.hi = h.hi;
    }
    wtc_fast.left = 0; /* work from elsewhere: its pars decide afresh */
    p = wtcrt_frame_push(rt, c);
    p->base = h.want;
    p->mem = task_unpack(rt, m, tc, &p->memsize);
    wtcrt_msg_free(rt, m);
    if (p->capch < h.count) {
        p->capch = h.count;
        if (!(p->ch = realloc(p->ch, (size_t)p->capch * sizeof *p->ch)))
            wtcrt_die(rt, "out of memory");
    }
    p->ovl_any = 0;
    for (int i = 0; i < h.count; i++) {
        wtcrt_child *ch = &p->ch[i];
        if (tc[i].merge) /* sent on, they go merged again: the data with them */
            wtcrt_twin_of(rt, p, i)->merge = tc[i].merge;
        p->ovl_any |= (tc[i].shared | tc[i].merge) != 0; /* wtcrt_child_merge */
        ch->fn = tc[i].fn;
        ch->args_off = (size_t)(tc[i].args - p->mem);
        ch->dest = NULL;
        ch->dest_kind = 0;
        ch->dest_size = 0;
        ch->remote = 0;
        ch->shared = 0;
    }
    p->nch = h.count;
    rt->st.calls_run += h.count;
    if (tc != &one)
        free(tc);
    return p;
}

/* The buffers of child i of task frame p (counts: its counts) that came by address in
   its TASK, so its RESULT leaves them out: those that do not lie in the TASK's unpacked
   memory (child_unpack put every other one there). */
static unsigned came_by_address(const wtc_par *p, int i, const long *counts)
{
    const wtc_fn *fn = p->ch[i].fn;
    const unsigned char *args = WTCRT_ARGS(p, i);
    unsigned mask = 0;
    for (int b = 0; b < fn->nbufs && b < 8; b++) {
        const unsigned char *ptr = wtcrt_buf_ptr(fn, args, b);
        if (wtcrt_buf_by_ref(wtcrt_buf_bytes(fn, b, counts[b])) &&
            (ptr < p->mem || ptr >= p->mem + p->memsize))
            mask |= 1u << b;
    }
    return mask;
}

/* Sends the RESULT of task frame p (every child done) to 'parent', the header of the
   TASK th saying where it goes; releases the unpacked TASK. */
void wtcrt_task_frame_reply(wtcrt_rt *rt, wtc_par *p, int parent, const wtcrt_hdr *th)
{
    size_t n = 0;
    long cnt[64], *counts;
    int maxb = max_bufs(p, 0, p->nch);
    unsigned char *q;
    wtcrt_msg *m;
    counts = maxb <= 64 ? cnt : malloc((size_t)maxb * sizeof *counts);
    if (!counts)
        wtcrt_die(rt, "out of memory");
    for (int i = 0; i < p->nch; i++) {
        p->ch[i].fn->counts(WTCRT_ARGS(p, i), counts);
        n += wtcrt_result_child_copied(p->ch[i].fn, counts);
    }
    m = wtcrt_msg_new(rt, n);
    q = WTCRT_PAYLOAD(m);
    for (int i = 0; i < p->nch; i++) {
        const unsigned char *args = WTCRT_ARGS(p, i);
        p->ch[i].fn->counts(args, counts);
        q = result_child(rt, m, q, p->ch[i].fn, WTCRT_RET(p, i), args, counts,
                         came_by_address(p, i, counts));
    }
    if (counts != cnt)
        free(counts);
    *WTCRT_HDR(m) = *th;
    task_mem_done(p->mem, p->memsize);
    m->owned = p->mem; /* freed once the RESULT has left */
    p->mem = NULL;
    wtcrt_send(rt, parent, WTCRT_RESULT, m);
}

/* Runs the children of TASK m (freed here) as a task frame closed by the mode's
   'close', nested on whatever this rank was doing, then sends their RESULT. */
void wtcrt_task_run(wtcrt_rt *rt, wtcrt_msg *m, void (*close)(wtcrt_rt *rt, wtc_par *p))
{
    int parent = m->src, old;
    wtcrt_hdr th = *WTCRT_HDR(m);
    wtc_par *p;
    rt->nest++;
    old = wtcrt_set_state(rt, WTCRT_S_COMPUTE);
    p = wtcrt_task_frame(rt, m);
    close(rt, p);
    wtcrt_task_frame_reply(rt, p, parent, &th);
    if (p->level != rt->nframes - 1)
        wtcrt_die(rt, "task frame closed out of order");
    rt->nframes--;
    wtcrt_set_state(rt, old);
    rt->nest--;
}

/* Sends the oldest group this rank can give (the core: the outermost closing frame
   with pending children, a group of the mode's size, its last children) to 'dest' in
   one TASK; returns how many children went (0: none pending). */
int wtcrt_give_oldest(wtcrt_rt *rt, const wtcp_mode *mode, int dest)
{
    wtcp_frames v = wtcrt_frames_view(rt);
    int l = wtcp_give_frame(&v), n, first;
    wtc_par *p;
    if (l < 0)
        return 0;
    p = rt->frames[l];
    n = wtcp_group_size(mode, p->end - p->nextc, rt->batch);
    wtcrt_pending_gone(rt, n);
    if (p->spawning) { /* the body still appends at the back: the front goes */
        first = p->nextc;
        p->nextc += n;
    } else {
        p->end -= n;
        first = p->end;
    }
    wtcrt_send_task(rt, p, dest, first, n, dest, dest + 1);
    return n;
}

/* Hands every message that has arrived to the mode's 'handle' (a compute-path poll). */
void wtcrt_poll(wtcrt_rt *rt, void (*handle)(wtcrt_rt *rt, wtcrt_msg *m))
{
    wtcrt_msg *m;
    if (wtcrt_poll_none(rt))
        return;
    while ((m = wtcrt_try_recv_quick(rt)))
        handle(rt, m);
}

/* Waits until p's children sent away have come back: hands every message that arrives
   to the mode's 'handle' (RESULTs are stored there, work granted or stolen runs there,
   nested); with nothing arrived, calls 'idle' (ask a victim, tell the master), then
   sleeps a step. rung: only a message can end the wait ('idle' sends once and then
   waits for answers), so it may sleep until the doorbell rings (wtcrt_backoff_rung);
   0: 'idle' must run again after a while (a thief asks the next victim). */
void wtcrt_await(wtcrt_rt *rt, wtc_par *p, void (*handle)(wtcrt_rt *rt, wtcrt_msg *m),
                 void (*idle)(wtcrt_rt *rt), int rung)
{
    int old, us = 0;
    if (!p->outstanding)
        return;
    wtcrt_mpi_ready(rt); /* held while MPI started: what is awaited went out then */
    old = wtcrt_set_state(rt, WTCRT_S_WAIT_CHILDREN);
    while (p->outstanding) {
        wtcrt_msg *m = wtcrt_try_recv(rt, MPI_ANY_SOURCE, MPI_ANY_TAG);
        if (m) {
            wtcrt_backoff_end(rt, &us);
            handle(rt, m);
            continue;
        }
        idle(rt);
        if (rung)
            wtcrt_backoff_rung(rt, &us);
        else
            wtcrt_backoff(rt, &us);
    }
    wtcrt_backoff_end(rt, &us);
    wtcrt_set_state(rt, old);
}

/* The core's view of this rank's frames (which frame gives work). */
static int view_pending(void *ctx, int level)
{
    const wtcrt_rt *rt = ctx;
    return rt->frames[level]->end - rt->frames[level]->nextc;
}

static int view_closing(void *ctx, int level)
{
    const wtcrt_rt *rt = ctx;
    return rt->frames[level]->closing || rt->frames[level]->spawning;
}

wtcp_frames wtcrt_frames_view(wtcrt_rt *rt)
{
    wtcp_frames f = { rt->nframes, view_pending, view_closing, rt };
    return f;
}

void wtc_par_close(wtc_par *p)
{
    wtcrt_rt *rt = &wtcrt_this_rank; /* entered from generated code (wtc_abi.h) */
    wtcrt_enter(rt);
    if (p->nch > 0)
        rt->ops->close(rt, p);
    if (p->level != rt->nframes - 1)
        wtcrt_die(rt, "par frames closed out of order");
    rt->nframes--;
    if (p->region)
        wtcrt_region_end(rt);
    wtcrt_leave(rt);
}
