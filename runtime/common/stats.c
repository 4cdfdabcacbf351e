/* common/stats.c - the --wtc-stats table and the --wtc-trace Chrome trace-event JSON
   (SPEC 4.3). Plain C, shared by both runtimes. */
#include <errno.h>
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

/* Prints per-rank rows, then the average over the ranks that were workers. */
void wtcrt_stats_print(FILE *f, const wtcrt_stats *s, int nranks, const char *title)
{
    wtcrt_stats avg;
    int nw = 0;
    char who[16];
    memset(&avg, 0, sizeof avg);
    fprintf(f, "wtc stats: %s\n", title);
    fprintf(f, "%-6s %-6s %9s %9s %9s %9s %9s %9s %8s %8s %8s %11s %7s %7s\n", "rank", "role",
            "compute", "wait-mst", "wait-chld", "idle", "mst-busy", "mst-idle", "calls-in",
            "calls-out", "msgs", "bytes", "granted", "refused");
    for (int r = 0; r < nranks; r++) {
        snprintf(who, sizeof who, "%d", r);
        stats_row(f, who, role_name(&s[r]), &s[r]);
        if (s[r].master && !s[r].worker)
            continue;
        nw++;
        for (int k = 0; k < WTCRT_NSTATES; k++)
            avg.t[k] += s[r].t[k];
        avg.calls_run += s[r].calls_run;
        avg.calls_sent += s[r].calls_sent;
        avg.msgs += s[r].msgs;
        avg.bytes += s[r].bytes;
        avg.granted += s[r].granted;
        avg.refused += s[r].refused;
    }
    if (nw > 0) {
        for (int k = 0; k < WTCRT_NSTATES; k++)
            avg.t[k] /= nw;
        avg.calls_run /= nw;
        avg.calls_sent /= nw;
        avg.msgs /= nw;
        avg.bytes /= nw;
        avg.granted /= nw;
        avg.refused /= nw;
        stats_row(f, "avg", "worker", &avg);
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
}

/* Writes the JSON document to an open file. */
static void trace_body(FILE *f, int nranks, wtcrt_event *const *ev, const long *nev,
                       const wtcrt_stats *s)
{
    fprintf(f, "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n");
    fprintf(f, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"tid\":0,"
               "\"args\":{\"name\":\"wtc program\"}}");
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

/* The temporary file beside path that the trace is written to first; 0 or -1. */
static int trace_tmp(const char *path, char *tmp, size_t tmpsz)
{
    if (snprintf(tmp, tmpsz, "%s.tmp%ld", path, (long)getpid()) >= (int)tmpsz) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return 0;
}

int wtcrt_trace_check(const char *path)
{
    char tmp[4096];
    struct stat st;
    FILE *f;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        return -1;
    }
    if (trace_tmp(path, tmp, sizeof tmp) < 0 || !(f = fopen(tmp, "w")))
        return -1;
    fclose(f);
    remove(tmp);
    return 0;
}

/* Writes the trace to a temporary file beside path, then renames it into place. */
int wtcrt_trace_write(const char *path, int nranks, wtcrt_event *const *ev,
                      const long *nev, const wtcrt_stats *s)
{
    char tmp[4096];
    FILE *f;
    int err;
    if (trace_tmp(path, tmp, sizeof tmp) < 0 || !(f = fopen(tmp, "w")))
        return -1;
    trace_body(f, nranks, ev, nev, s);
    err = ferror(f);
    if (fclose(f) != 0 || err) {
        remove(tmp);
        if (!errno)
            errno = EIO;
        return -1;
    }
    if (rename(tmp, path) != 0) {
        err = errno;
        remove(tmp);
        errno = err;
        return -1;
    }
    return 0;
}
