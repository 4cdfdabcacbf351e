/* common/stats.c - the --wtc-stats table and the --wtc-trace Chrome trace-event JSON
   (SPEC 4.3). Plain C, shared by both runtimes. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "wtcrt.h"

const char *const wtcrt_state_names[WTCRT_NSTATES] = {
    "compute", "wait master", "wait children", "idle", "master busy", "master idle"
};

/* The role column of one rank. */
static const char *role_name(const wtcrt_stats *s)
{
    if (s->master && s->worker)
        return "both";
    return s->master ? "master" : "worker";
}

/* One row of the table; 'who' is the rank number or a label. */
static void stats_row(FILE *f, const char *who, const char *role, const wtcrt_stats *s)
{
    fprintf(f, "%-6s %-6s", who, role);
    for (int k = 0; k < WTCRT_NSTATES; k++)
        fprintf(f, " %9.4f", s->t[k]);
    fprintf(f, " %8lld %8lld %8lld %11lld %7lld %7lld\n", s->calls_run, s->calls_sent,
            s->msgs, s->bytes, s->granted, s->refused);
}

/* Adds (op 0), keeps the smaller (op 1) or the larger (op 2) of each field of x into a. */
static void stats_fold(wtcrt_stats *a, const wtcrt_stats *x, int op)
{
#define FOLD(v) (a->v = op == 0 ? a->v + x->v : op == 1 ? (x->v < a->v ? x->v : a->v) \
                                                      : (x->v > a->v ? x->v : a->v))
    for (int k = 0; k < WTCRT_NSTATES; k++)
        FOLD(t[k]);
    FOLD(calls_run);
    FOLD(calls_sent);
    FOLD(msgs);
    FOLD(bytes);
    FOLD(granted);
    FOLD(refused);
#undef FOLD
}

/* Prints per-rank rows, then the minimum, maximum and average over the ranks that were
   workers (the program's table and the predictor's, doc/predictor.md). */
void wtcrt_stats_print(FILE *f, const wtcrt_stats *s, int nranks, const char *title)
{
    wtcrt_stats sum, lo, hi;
    int nw = 0;
    char who[16];
    memset(&sum, 0, sizeof sum);
    lo = hi = sum;
    fprintf(f, "wtc stats: %s\n", title);
    fprintf(f, "%-6s %-6s %9s %9s %9s %9s %9s %9s %8s %8s %8s %11s %7s %7s\n", "rank", "role",
            "compute", "wait-mst", "wait-chld", "idle", "mst-busy", "mst-idle", "calls-in",
            "calls-out", "msgs", "bytes", "granted", "refused");
    for (int r = 0; r < nranks; r++) {
        snprintf(who, sizeof who, "%d", r);
        stats_row(f, who, role_name(&s[r]), &s[r]);
        if (s[r].master && !s[r].worker)
            continue;
        if (nw++ == 0)
            lo = hi = s[r];
        stats_fold(&sum, &s[r], 0);
        stats_fold(&lo, &s[r], 1);
        stats_fold(&hi, &s[r], 2);
    }
    if (nw > 0) {
        for (int k = 0; k < WTCRT_NSTATES; k++)
            sum.t[k] /= nw;
        sum.calls_run /= nw;
        sum.calls_sent /= nw;
        sum.msgs /= nw;
        sum.bytes /= nw;
        sum.granted /= nw;
        sum.refused /= nw;
        stats_row(f, "min", "worker", &lo);
        stats_row(f, "max", "worker", &hi);
        stats_row(f, "avg", "worker", &sum);
    }
    fprintf(f, "(seconds; calls-in: calls run for another rank; msgs/bytes: sent; "
               "granted/refused: masters count workers granted and requests left standing, "
               "workers count groups sent away and grants given back; "
               "steal mode: STEALs answered with work / with NOWORK)\n");
    for (int r = 0; r < nranks; r++)
        if (s[r].steals > 0)
            fprintf(f, "steal: rank %d sent %lld STEALs; answer after %.3f ms on average, "
                       "%.3f ms at most\n", r, s[r].steals, 1e3 * s[r].steal_wait / (double)s[r].steals,
                    1e3 * s[r].steal_wait_max);
    for (int r = 0; r < nranks; r++)
        if (s[r].steal_parks > 0)
            fprintf(f, "park: rank %d parked %lld of its STEALs (its victim kept them until "
                       "it had work or ran out of it)\n", r, s[r].steal_parks);
    for (int r = 0; r < nranks; r++)
        if (s[r].steal_peeks > 0)
            fprintf(f, "peek: rank %d did not ask %lld times a victim of its host that had "
                       "nothing pending\n", r, s[r].steal_peeks);
    for (int r = 0; r < nranks; r++)
        if (s[r].lowprio)
            fprintf(f, "master: rank %d ran on a thread of the lowest priority (SCHED_IDLE; "
                       "its host has more ranks than cores)\n", r);
    for (int r = 0; r < nranks; r++)
        if (s[r].leaf_answers > 0)
            fprintf(f, "leaf: rank %d answered %lld STEALs/GRANTs while it ran the "
                       "program's code (its answering thread)\n", r, s[r].leaf_answers);
    for (int r = 0; r < nranks; r++)
        if (s[r].pars_inline > 0)
            fprintf(f, "inline: rank %d ran %lld pars inline, %lld into a frame (spawned "
                       "while it had no pending children)\n", r, s[r].pars_inline,
                    s[r].pars_framed);
    for (int r = 0; r < nranks; r++)
        if (s[r].bytes_shared > 0)
            fprintf(f, "heap: rank %d left %.1f MB of buffers where they lie (ranks of its "
                       "host use them by address)\n", r, 1e-6 * (double)s[r].bytes_shared);
    for (int r = 0; r < nranks; r++)
        if (s[r].bounds_sent > 0 || s[r].bounds_taken > 0)
            fprintf(f, "bounds: rank %d found %lld better values (sent to every other rank), "
                       "received %lld, %lld of them better than its own\n", r,
                    s[r].bounds_sent, s[r].bounds_taken, s[r].bounds_better);
}

/* The characters of a JSON string (quotes, backslashes and controls escaped). */
static void json_chars(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", (unsigned)(unsigned char)*s);
        else
            fputc(*s, f);
    }
}

/* Writes the JSON document to an open file. */
static void trace_body(FILE *f, const char *name, int nranks, wtcrt_event *const *ev,
                       const long *nev, const wtcrt_stats *s)
{
    fprintf(f, "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n");
    fprintf(f, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"tid\":0,"
               "\"args\":{\"name\":\"");
    json_chars(f, name);
    fprintf(f, "\"}}");
    for (int r = 0; r < nranks; r++) {
        fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":%d,"
                   "\"args\":{\"name\":\"rank %d (%s)\"}}", r, r, role_name(&s[r]));
        fprintf(f, ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":0,\"tid\":%d,"
                   "\"args\":{\"sort_index\":%d}}", r, r);
        for (long i = 0; i < nev[r]; i++) {
            const wtcrt_event *e = &ev[r][i];
            int st = e->state >= 0 && e->state < WTCRT_NSTATES ? e->state : WTCRT_S_IDLE;
            fprintf(f, ",\n{\"name\":\"%s\",\"ph\":\"%c\",\"pid\":0,\"tid\":%d,\"ts\":%.3f}",
                    wtcrt_state_names[st], e->ph == 'E' ? 'E' : 'B', r, e->ts);
        }
    }
    fprintf(f, "\n]}\n");
}

/* The temporary file beside path that wtcrt_write_atomic writes first; 0 or -1. */
static int tmp_beside(const char *path, char *tmp, size_t tmpsz)
{
    if (snprintf(tmp, tmpsz, "%s.tmp%ld", path, (long)getpid()) >= (int)tmpsz) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return 0;
}

/* How an output named path is written: OUT_RENAME, through a temporary file renamed
   onto real (path, or the file a symbolic link to it names: the link stays a link);
   OUT_DIRECT, straight into path (a device, a FIFO, a dangling link: /dev/null stays a
   device, as with gcc -o /dev/null; renaming onto it made it a regular file, as root
   destroying /dev/null); -1 with errno for a directory. */
enum { OUT_RENAME, OUT_DIRECT };
static int out_target(const char *path, char *real, size_t realsz)
{
    struct stat st;
    char buf[PATH_MAX];
    if (lstat(path, &st) != 0 || S_ISREG(st.st_mode)) {
        snprintf(real, realsz, "%s", path);
        return OUT_RENAME;
    }
    if (S_ISLNK(st.st_mode)) {
        if (stat(path, &st) != 0 || !realpath(path, buf))
            return OUT_DIRECT;
        if (S_ISREG(st.st_mode)) {
            if (snprintf(real, realsz, "%s", buf) >= (int)realsz) {
                errno = ENAMETOOLONG;
                return -1;
            }
            return OUT_RENAME;
        }
    }
    if (S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        return -1;
    }
    return OUT_DIRECT;
}

locale_t wtcrt_locale_c(void)
{
    static locale_t c; /* made once; a race makes two, one of them kept */
    if (!c)
        c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    return c ? uselocale(c) : (locale_t)0;
}

void wtcrt_locale_end(locale_t old)
{
    if (old)
        uselocale(old);
}

const char *wtcrt_path_from_start(const char *path)
{
    char cwd[PATH_MAX], *abs;
    size_t n;
    if (!path || path[0] == '/' || !getcwd(cwd, sizeof cwd))
        return path;
    n = strlen(cwd) + strlen(path) + 2;
    if (!(abs = malloc(n)))
        return path;
    snprintf(abs, n, "%s/%s", cwd, path);
    return abs;
}

int wtcrt_check_writable(const char *path)
{
    char tmp[PATH_MAX + 64], real[PATH_MAX];
    FILE *f;
    int how = out_target(path, real, sizeof real);
    if (how < 0)
        return -1;
    if (how == OUT_DIRECT)
        return access(path, W_OK) == 0 || errno == ENOENT ? 0 : -1; /* dangling: later */
    if (tmp_beside(real, tmp, sizeof tmp) < 0 || !(f = fopen(tmp, "w")))
        return -1;
    fclose(f);
    remove(tmp);
    return 0;
}

/* The directory of path (resolved) and its last name into buf: "" when the directory
   cannot be resolved. */
static void where_named(const char *path, char *buf, size_t size)
{
    char dir[PATH_MAX], real[PATH_MAX];
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    size_t n = slash ? (size_t)(slash - path) : 1;
    buf[0] = 0;
    if (n >= sizeof dir)
        return;
    if (slash)
        snprintf(dir, sizeof dir, "%.*s", n ? (int)n : 1, n ? path : "/");
    else
        snprintf(dir, sizeof dir, ".");
    if (realpath(dir, real))
        snprintf(buf, size, "%s/%s", real, base);
}

int wtcrt_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    char ra[2 * PATH_MAX], rb[2 * PATH_MAX];
    int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
    if (ea && eb)
        return S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (ea || eb)
        return 0;
    where_named(a, ra, sizeof ra);
    where_named(b, rb, sizeof rb);
    return ra[0] && strcmp(ra, rb) == 0;
}

/* Writes a file through body(f, ctx) into a temporary file beside path, then renames
   it into place: a reader never sees half a file (out_target: a device is written
   into). */
int wtcrt_write_atomic(const char *path, void (*body)(FILE *f, const void *ctx),
                       const void *ctx)
{
    char tmp[PATH_MAX + 64], real[PATH_MAX];
    FILE *f;
    int err, how = out_target(path, real, sizeof real), direct = how == OUT_DIRECT;
    if (how < 0 || (!direct && tmp_beside(real, tmp, sizeof tmp) < 0) ||
        !(f = fopen(direct ? path : tmp, "w")))
        return -1;
    errno = 0;
    body(f, ctx);
    err = ferror(f);
    if (!direct && (fflush(f) != 0 || fsync(fileno(f)) != 0))
        err = 1;
    if (fclose(f) != 0 || err) {
        err = errno ? errno : EIO;
        if (!direct)
            remove(tmp);
        errno = err;
        return -1;
    }
    if (!direct && rename(tmp, real) != 0) {
        err = errno;
        remove(tmp);
        errno = err;
        return -1;
    }
    return 0;
}

typedef struct trace_args {
    const char *name;
    int nranks;
    wtcrt_event *const *ev;
    const long *nev;
    const wtcrt_stats *s;
} trace_args;

static void trace_file(FILE *f, const void *ctx)
{
    const trace_args *a = ctx;
    trace_body(f, a->name, a->nranks, a->ev, a->nev, a->s);
}

int wtcrt_trace_write(const char *path, const char *name, int nranks,
                      wtcrt_event *const *ev, const long *nev, const wtcrt_stats *s)
{
    trace_args a = { name, nranks, ev, nev, s };
    return wtcrt_write_atomic(path, trace_file, &a);
}
