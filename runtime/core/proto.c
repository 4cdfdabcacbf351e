/* proto.c - the protocol core (proto.h): the decisions of every mode, once. */
#include <stdlib.h>
#include <string.h>
#include "wtc_abi.h"
#include "proto.h"

/* ---- modes ---------------------------------------------------------------------- */

const wtcp_mode wtcp_simple = { WTC_MODE_SIMPLE, "simple", 0, 1, 0, 0, 0, 0, 0, 0, 0 };
const wtcp_mode wtcp_dynamic = { WTC_MODE_DYNAMIC, "dynamic", 1, 0, 1, 1, 0, 1, 1, 0, 1 };
const wtcp_mode wtcp_steal = { WTC_MODE_STEAL, "steal", 0, 0, 1, 1, 1, 1, 1, 1, 1 };

static const wtcp_mode *const modes[] = { &wtcp_simple, &wtcp_dynamic, &wtcp_steal };
#define NMODES ((int)(sizeof modes / sizeof modes[0]))

const wtcp_mode *wtcp_unseeded(const wtcp_mode *mode)
{
    static wtcp_mode rows[NMODES]; /* each a copy of its mode's row, seeds off */
    for (int i = 0; i < NMODES; i++)
        if (modes[i] == mode) {
            rows[i] = *mode;
            rows[i].seeds = 0;
            return &rows[i];
        }
    return mode;
}

const wtcp_mode *wtcp_mode_get(int id)
{
    for (int i = 0; i < NMODES; i++)
        if (modes[i]->id == id)
            return modes[i];
    return NULL;
}

const wtcp_mode *wtcp_mode_named(const char *name)
{
    for (int i = 0; i < NMODES; i++)
        if (!strcmp(modes[i]->name, name))
            return modes[i];
    return NULL;
}

const char *wtcp_mode_list(void)
{
    return "simple, dynamic or steal";
}

/* ---- roles ---------------------------------------------------------------------- */

int wtcp_masters(const wtcp_mode *mode, int P, int want, int *reduced)
{
    *reduced = 0;
    if (!mode->masters || P < 2)
        return 0;
    if (want < 1)
        want = 1;
    if (want > P - 1) {
        *reduced = 1;
        want = P - 1;
    }
    return want;
}

wtcp_roles wtcp_roles_make(const wtcp_mode *mode, int P, int masters)
{
    wtcp_roles r = { P, mode->masters ? masters : 0, 0 };
    r.W = P - r.M;
    return r;
}

int wtcp_is_master(wtcp_roles r, int rank)
{
    return rank >= r.W;
}

int wtcp_master_of(wtcp_roles r, int w)
{
    return r.W + (int)((long long)w * r.M / r.W);
}

/* floor(w*M/W) = me  <=>  me*W <= w*M < (me+1)*W: w from ceil(me*W/M) to before
   ceil((me+1)*W/M) (a master's grants read it at every request) */
void wtcp_managed(wtcp_roles r, int master, int *lo, int *hi)
{
    long long me = master - r.W;
    *lo = (int)((me * r.W + r.M - 1) / r.M);
    *hi = (int)(((me + 1) * r.W + r.M - 1) / r.M);
    if (*hi > r.W)
        *hi = r.W;
}

/* ---- simple mode ---------------------------------------------------------------- */

int wtcp_split_count(int k, int n)
{
    return k < n ? k : n;
}

int wtcp_split_first(int j, int k, int s)
{
    return (int)(((long long)j * k + s - 1) / s);
}

int wtcp_split_lo(int lo, int n, int j, int s)
{
    return lo + (int)((long long)j * n / s);
}

int wtcp_root_ranks(const wtcp_mode *mode, wtcp_roles r)
{
    return mode->ranges || mode->seeds ? r.W : 1;
}

int wtcp_seed_count(const wtcp_mode *mode, int k, int n)
{
    return mode->seeds && n > 1 && k > 0 ? wtcp_split_count(k, n) : 1;
}

int wtcp_hands_back(const wtcp_mode *mode, int lo, int hi)
{
    return mode->masters && mode->seeds && hi - lo > 1;
}

/* An array v of n elements of 'size' bytes with room for *cap: v itself while there is
   room for one more, else v grown (twice the room, at least 8; *cap updated), NULL when
   out of memory (v stays as it was). */
static void *room_for_one(void *v, int n, int *cap, size_t size)
{
    int c = *cap ? 2 * *cap : 8;
    void *w;
    if (n < *cap)
        return v;
    if ((w = realloc(v, (size_t)c * size)))
        *cap = c;
    return w;
}

int wtcp_seeds_add(wtcp_seeds *s, int to)
{
    int *v = room_for_one(s->v, s->n, &s->cap, sizeof *v);
    if (!v)
        return -1;
    s->v = v;
    s->v[s->n++] = to;
    return 0;
}

int wtcp_seeds_remove(wtcp_seeds *s, int to)
{
    for (int i = 0; i < s->n; i++)
        if (s->v[i] == to) {
            s->v[i] = s->v[--s->n];
            return 0;
        }
    return -1;
}

int wtcp_may_give(const wtcp_seeds *s, int thief, int had_seed)
{
    if (had_seed)
        return 1;
    for (int i = 0; i < s->n; i++)
        if (s->v[i] == thief)
            return 0;
    return 1;
}

/* ---- which pending children leave a rank ------------------------------------------ */

int wtcp_give_frame(const wtcp_frames *f)
{
    for (int l = 0; l < f->n; l++)
        if (f->closing(f->ctx, l) && f->pending(f->ctx, l) > 0)
            return l;
    return -1;
}

int wtcp_group_size(const wtcp_mode *mode, int pending, int batch)
{
    int g;
    if (pending < 1)
        return 0;
    if (mode->id == WTC_MODE_DYNAMIC && batch > 0)
        g = batch; /* the thesis's groups of T */
    else {
        g = pending - pending / 2;
        if (batch > 0 && g > batch)
            g = batch;
    }
    return g < pending ? g : pending;
}

int wtcp_groups_wanted(const wtcp_mode *mode, int pending, int batch)
{
    int T = batch < 1 ? 1 : batch;
    if (pending < 1)
        return 0;
    if (mode->id == WTC_MODE_STEAL) /* a thief takes one group per STEAL */
        return 1;
    return (int)(((long long)pending + T - 1) / T);
}

int wtcp_help_frame(const wtcp_frames *f, int level, int helping, int help_max)
{
    if (helping >= help_max)
        return -1;
    for (int l = level - 1; l >= 0; l--)
        if (f->closing(f->ctx, l) && f->pending(f->ctx, l) > 0)
            return l;
    return -1;
}

/* ---- dynamic mode: standing requests ------------------------------------------------ */

int wtcp_may_nest(int nest)
{
    return nest < WTCP_NEST_MAX;
}

int wtcp_ask(int pending, int batch, int idle_seen, int *want)
{
    if (*want == 0 && pending > 0 && idle_seen != 0)
        return *want = wtcp_groups_wanted(&wtcp_dynamic, pending, batch);
    if (*want > 0 && pending == 0)
        return *want = 0;
    return -1;
}

int wtcp_unasked(int W, const int *seen, const int *refused, int idle, int *out)
{
    int n = 0;
    for (int x = 0; x < W && n < idle; x++)
        if (seen[x] > 0 && refused[x] != seen[x])
            out[n++] = x;
    return n;
}

void wtcp_granted(int *want, int count)
{
    *want = *want > count ? *want - count : 0;
}

int wtcp_grant_pick(wtcp_roles r, int master, int who, int want, unsigned char *idle,
                    int *ranks)
{
    int lo, hi, g = 0;
    wtcp_managed(r, master, &lo, &hi);
    for (int w = lo; w < hi && g < want; w++)
        if (idle[w] && w != who) {
            idle[w] = 0;
            ranks[g++] = w;
        }
    return g;
}

int wtcp_rest_route(wtcp_roles r, int master, int who, int rest, int hops, int *dest,
                    int *fwd_hops)
{
    int home = wtcp_master_of(r, who);
    if (rest <= 0)
        return WTCP_REST_NONE;
    if (hops < r.M - 1) { /* the ring: every master once */
        *dest = r.W + (master - r.W + 1) % r.M;
        *fwd_hops = hops + 1;
        return WTCP_REST_FWD;
    }
    if (home == master)
        return WTCP_REST_STAND;
    *dest = home; /* back home, where it stands */
    *fwd_hops = r.M;
    return WTCP_REST_FWD;
}

int wtcp_fwd_stands(wtcp_roles r, int hops)
{
    return hops >= r.M;
}

int wtcp_oldest_standing(int lo, int hi, const int *standing, const long long *stamp)
{
    int who = -1;
    for (int w = lo; w < hi; w++)
        if (standing[w] > 0 && (who < 0 || stamp[w] < stamp[who]))
            who = w;
    return who;
}

/* ---- steal mode ------------------------------------------------------------------- */

int wtcp_victim(unsigned long long *rng, int P, int self)
{
    unsigned long long x = *rng;
    int v;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *rng = x;
    v = (int)(((x * 0x2545F4914F6CDD1DULL) >> 33) % (unsigned long long)(P - 1));
    return v >= self ? v + 1 : v;
}

unsigned long long wtcp_victim_seed(int rank, unsigned draw)
{
    unsigned long long z = 0x9E3779B97F4A7C15ULL * (unsigned long long)(rank + 1) ^
                           0xD1B54A32D192ED03ULL * draw;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return z ? z : 1;
}

int wtcp_parks(int settled, int fails, int P)
{
    int z = 0;
    while (z < 31 && (1 << z) < P)
        z++; /* ceil(log2 P) */
    return settled && fails >= z;
}

int wtcp_park_add(wtcp_parked *p, int thief, int had_seed)
{
    struct wtcp_park *v = room_for_one(p->v, p->n, &p->cap, sizeof *v);
    if (!v)
        return -1;
    p->v = v;
    p->v[p->n].thief = thief;
    p->v[p->n++].had_seed = had_seed != 0;
    return 0;
}

int wtcp_park_next(const wtcp_parked *p, const wtcp_seeds *s)
{
    for (int i = 0; i < p->n; i++)
        if (wtcp_may_give(s, p->v[i].thief, p->v[i].had_seed))
            return i;
    return -1;
}

void wtcp_park_drop(wtcp_parked *p, int i)
{
    for (p->n--; i < p->n; i++)
        p->v[i] = p->v[i + 1];
}

double wtcp_steal_pause(int fails, double rtt, double cap, int by_rtt)
{
    double d;
    if (fails < 1)
        return 0;
    rtt = wtcp_peek_rtt(rtt);
    d = rtt * (double)(1u << (fails < 21 ? fails - 1 : 20));
    if (by_rtt && cap > WTCP_PAUSE_RTTS * rtt)
        cap = WTCP_PAUSE_RTTS * rtt;
    return d < cap ? d : cap;
}

int wtcp_sleep_max_us(int bell_all)
{
    return bell_all ? 1000 : 100;
}

int wtcp_pause_cap_us(int bell_all, int oversubscribed)
{
    return wtcp_sleep_max_us(bell_all && oversubscribed);
}

/* ---- the job's start ------------------------------------------------------------------ */

int wtcp_start_kind(int calls_mpi, int nshared, int one_node)
{
    if (calls_mpi || !one_node)
        return WTCP_START_FIRST;
    return nshared ? WTCP_START_WAIT : WTCP_START_HOLD;
}

/* ---- the region start: rank 0's broadcasts ------------------------------------------ */

int wtcp_bcast_parent(int r, int P)
{
    int lo = 0, hi = P, parent = -1;
    if (r < 0 || r >= P)
        return -1;
    while (r != lo) { /* r is in [lo, hi): into the half it belongs to */
        int mid = lo + (hi - lo) / 2;
        if (r >= mid) {
            parent = lo;
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return parent;
}

int wtcp_bcast_children(int r, int P, int *kids)
{
    int lo = 0, hi = P, n = 0;
    if (r < 0 || r >= P)
        return 0;
    while (r != lo) { /* the range r is the first rank of */
        int mid = lo + (hi - lo) / 2;
        if (r >= mid)
            lo = mid;
        else
            hi = mid;
    }
    while (hi - lo > 1) { /* give away the upper half, keep the lower */
        int mid = lo + (hi - lo) / 2;
        kids[n++] = mid;
        hi = mid;
    }
    return n;
}

/* ceil(log2 P) for P >= 1. */
static int ceil_log2(int P)
{
    int h = 0;
    while ((1LL << h) < P)
        h++;
    return h;
}

int wtcp_bcast_tree(int P, long long bytes)
{
    int h = ceil_log2(P);
    const char *force = getenv("WTC_BCAST"); /* tests: "tree" or "flat" */
    if (force && !strcmp(force, "tree"))
        return P > 1;
    if (force && !strcmp(force, "flat"))
        return 0;
    if (P < 4) /* up to 3 ranks the tree is rank 0 sending to each */
        return 0;
    if (bytes < 0)
        bytes = 0;
    return (double)(P - 1 - h) * ((double)bytes + WTCP_BCAST_SEND_BYTES) >=
           (double)(h - 1) * WTCP_BCAST_WAKE_BYTES;
}

/* ---- the region end ------------------------------------------------------------------ */

int wtcp_end_tree(int P)
{
    return wtcp_bcast_tree(P, 0);
}

int wtcp_end_barrier(const wtcp_mode *mode, int P)
{
    return mode->end_barrier || wtcp_end_tree(P);
}

int wtcp_end_to(int r, int P, int *kids)
{
    return wtcp_bcast_to(r, P, wtcp_end_tree(P), kids);
}

int wtcp_end_from(int r, int P)
{
    return wtcp_bcast_from(r, P, wtcp_end_tree(P));
}

int wtcp_barrier_rounds(int P)
{
    return P > 1 ? ceil_log2(P) : 0;
}

int wtcp_barrier_local(int one_host_bell)
{
    return one_host_bell;
}

void wtcp_barrier_peers(int r, int P, int k, int *to, int *from)
{
    int d = (int)((1LL << k) % P);
    *to = (r + d) % P;
    *from = (r - d + P) % P;
}

int wtcp_bcast_from(int r, int P, int tree)
{
    if (r <= 0 || r >= P)
        return -1;
    return tree ? wtcp_bcast_parent(r, P) : 0;
}

int wtcp_bcast_to(int r, int P, int tree, int *kids)
{
    int n = 0;
    if (tree)
        return wtcp_bcast_children(r, P, kids);
    if (r == 0)
        for (int x = 1; x < P; x++)
            kids[n++] = x;
    return n;
}

/* ---- the decision log -------------------------------------------------------------- */

static FILE *log_file;

void wtcp_log_open(FILE *f)
{
    log_file = f;
}

FILE *wtcp_log_file(void)
{
    return log_file;
}

void wtcp_log_steal(int thief, int victim)
{
    if (log_file)
        fprintf(log_file, "steal %d -> %d\n", thief, victim);
}

void wtcp_log_peek(int thief, int victim)
{
    if (log_file)
        fprintf(log_file, "peek %d -> %d\n", thief, victim);
}

void wtcp_log_back(int r)
{
    if (log_file)
        fprintf(log_file, "back %d\n", r);
}
