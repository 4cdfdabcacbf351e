/* common/profile.c - what both runtimes know of a profile file (doc/predictor.md,
 * "Profiles"): its frame (version line, program fingerprint, checksum line) and the
 * table of best settings per P that --wtc-auto reads. The predictor writes and reads
 * the rest (sim/profile.c). Plain C, no MPI. */
#include <errno.h>
#include <unistd.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wtcrt.h"

/* FNV-1a, 64 bits, continued from h. */
static unsigned long long fnv(unsigned long long h, const void *p, size_t n)
{
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

unsigned long long wtcrt_checksum(const void *p, size_t n)
{
    return fnv(0xcbf29ce484222325ULL, p, n);
}

/* What a recording depends on in the program: the ABI, the source name, and every
   recursive function's name, sizes and buffers. Another program, or the same one
   after a change of its recursive functions' signatures, gets another value. */
unsigned long long wtcrt_program_fingerprint(const wtc_program *prog)
{
    unsigned long long h = wtcrt_checksum("wtc", 3);
    int v = WTC_ABI_VERSION;
    h = fnv(h, &v, sizeof v);
    h = fnv(h, prog->source, strlen(prog->source) + 1);
    for (int i = 0; i < prog->nfns; i++) {
        const wtc_fn *f = prog->fns[i];
        long x[5] = { f->has_par, (long)f->args_size, (long)f->ret_size, f->nbufs, f->mode };
        h = fnv(h, f->name, strlen(f->name) + 1);
        h = fnv(h, x, sizeof x);
        for (int b = 0; b < f->nbufs; b++) {
            long y[3] = { (long)f->bufs[b].elem_size, f->bufs[b].in, f->bufs[b].out };
            h = fnv(h, y, sizeof y);
        }
    }
    return h;
}

FILE *wtcrt_open_regular(const char *path, const char *what, char *err, size_t errsz)
{
    struct stat st;
    FILE *f;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errsz, "%s: cannot open%s%s: %s", path, what ? " " : "", what ? what : "",
                 strerror(errno));
        return NULL;
    }
    int known = fstat(fd, &st) == 0;
    if (!known || !S_ISREG(st.st_mode)) {
        int dir = known && S_ISDIR(st.st_mode);
        if (what)
            snprintf(err, errsz, "%s: not a %s (not a regular file%s)", path, what,
                     dir ? ": a directory" : "");
        else
            snprintf(err, errsz, "%s: not a regular file%s", path, dir ? " (a directory)" : "");
        close(fd);
        return NULL;
    }
    if (!(f = fdopen(fd, "rb"))) {
        snprintf(err, errsz, "%s: cannot open%s%s: %s", path, what ? " " : "", what ? what : "",
                 strerror(errno));
        close(fd);
    }
    return f;
}

char *wtcrt_read_file(const char *path, size_t *len, char *err, size_t errsz)
{
    /* a regular file only, opened without waiting: a FIFO named by mistake hung the
       predictor and every rank of --wtc-auto until killed (a helper's bug hunt) */
    FILE *f = wtcrt_open_regular(path, NULL, err, errsz);
    char *buf = NULL;
    size_t cap = 0, n = 0;
    if (!f)
        return NULL;
    for (;;) {
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap = cap ? 2 * cap : 1 << 16);
            if (!nb) {
                free(buf);
                fclose(f);
                snprintf(err, errsz, "%s: out of memory", path);
                return NULL;
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        snprintf(err, errsz, "%s: read error", path);
        fclose(f);
        free(buf);
        return NULL;
    }
    fclose(f);
    buf[n] = 0;
    *len = n;
    return buf;
}

/* Checks the frame of a profile held in text[0..len): the version line, the checksum
   line at the end (a truncated or altered file fails here), the program's fingerprint.
   Returns the start of the body (after the program line), or NULL with err set. */
const char *wtcrt_profile_open(const char *path, char *text, size_t len,
                               const wtc_program *prog, char *err, size_t errsz)
{
    char *end, *body, name[512];
    unsigned long long sum, fp;
    int ver = 0;
    if (strncmp(text, WTCRT_PROFILE_MAGIC " ", sizeof WTCRT_PROFILE_MAGIC) != 0) {
        snprintf(err, errsz, "%s: not a wtc profile (it does not start with '"
                 WTCRT_PROFILE_MAGIC "')", path);
        return NULL;
    }
    if (len < 16) { /* its first line alone was called "not a wtc profile" */
        snprintf(err, errsz, "%s: damaged profile (truncated: no 'end' line)", path);
        return NULL;
    }
    if (sscanf(text + sizeof WTCRT_PROFILE_MAGIC, "%d", &ver) != 1 ||
        ver != WTCRT_PROFILE_VERSION) {
        snprintf(err, errsz, "%s: profile format version %d, this runtime reads version %d "
                 "(save the profile again with this prog.predict)", path, ver,
                 WTCRT_PROFILE_VERSION);
        return NULL;
    }
    /* the last line: "end <checksum of every byte before it>" */
    end = text + len - 1;
    if (*end == '\n')
        while (end > text && end[-1] != '\n')
            end--;
    if (text[len - 1] != '\n' || memchr(text, 0, len) || strncmp(end, "end ", 4) != 0) {
        snprintf(err, errsz, "%s: damaged profile (truncated: no 'end' line)", path);
        return NULL;
    }
    end--; /* the newline before the end line */
    if (sscanf(end + 5, "%llx", &sum) != 1 || sum != wtcrt_checksum(text, (size_t)(end + 1 - text))) {
        snprintf(err, errsz, "%s: damaged profile (checksum mismatch: the file was changed "
                 "or cut short)", path);
        return NULL;
    }
    end[1] = 0; /* the body ends before the end line */
    body = strchr(text, '\n') + 1;
    if (sscanf(body, "program %llx %511[^\n]", &fp, name) != 2) {
        snprintf(err, errsz, "%s: damaged profile (no program line)", path);
        return NULL;
    }
    if (fp != wtcrt_program_fingerprint(prog) || strcmp(name, prog->source) != 0) {
        snprintf(err, errsz, "%s: profile of another program (%s, fingerprint %016llx), not "
                 "of this %s (%016llx): record it again with this program's prog.predict",
                 path, name, fp, prog->source, wtcrt_program_fingerprint(prog));
        return NULL;
    }
    return strchr(body, '\n') + 1;
}

/* The head of a profile's 'auto' section. */
typedef struct auto_head {
    int n;                      /* its lines */
    char mname[256], spec[256]; /* the machine's name and how it was named */
    const char *lines;          /* the newline before its first line (NULL: none) */
} auto_head;

/* Reads the head of the 'auto' section of body s into ah, and checks that it was made
   for 'machine' when one is given; 0, or -1 with a message in err. */
static int read_auto_head(const char *path, const char *s, const char *machine,
                          auto_head *ah, char *err, size_t errsz)
{
    const char *sec;
    if (!(sec = strstr(s, "\nauto ")) ||
        sscanf(sec + 6, "%d %255[^\n]", &ah->n, ah->mname) != 2) {
        snprintf(err, errsz, "%s: the profile has no table of best settings (save it with "
                 "prog.predict --wtc-save-profile=FILE --wtc-procs=LIST)", path);
        return -1;
    }
    s = strchr(sec + 1, '\n');
    if (s && sscanf(s + 1, "spec %255[^\n]", ah->spec) == 1)
        s = strchr(s + 1, '\n');
    ah->lines = s;
    if (machine && strcmp(machine, ah->mname) != 0 && strcmp(machine, ah->spec) != 0) {
        snprintf(err, errsz, "%s: its table was computed for machine '%s', not '%s' (make "
                 "one: prog.predict --wtc-profile=%s --wtc-machine=%s --wtc-save-profile=NEW)",
                 path, ah->mname, machine, path, machine);
        return -1;
    }
    return 0;
}

/* The table has no line for P: says which P it has (at most the first 16). */
static void no_setting(const char *path, int P, const int *havep, int nhave, char *err,
                       size_t errsz)
{
    int l = snprintf(err, errsz, "%s: its table has no setting for P = %d (it has P =", path, P);
    for (int i = 0; i < nhave && l < (int)errsz - 16; i++)
        l += snprintf(err + l, errsz - l, "%s %d", i ? "," : "", havep[i]);
    snprintf(err + l, errsz - l, "; save it again with --wtc-procs=...,%d)", P);
}

/* The line of the 'auto' table for P into a (the last such line); 0, or -1 with a
   message in err when a line is damaged or none is for P. */
static int read_auto_lines(const char *path, const auto_head *ah, int P, wtcrt_auto *a,
                           char *err, size_t errsz)
{
    const char *s = ah->lines;
    int found = 0, havep[16], nhave = 0;
    for (int i = 0; i < ah->n && s; i++, s = strchr(s + 1, '\n')) {
        char mode[32];
        long procs, masters, batch, depth;
        wtcrt_auto x;
        /* every value in the range prog.predict writes (a file edited by hand and its
           checksum made again ran mode 'bogus' as simple, a batch of -5, a depth of
           99999999999 as 1215752191, a P of 0: a helper's bug hunt) */
        if (sscanf(s + 1, "best %ld %31s %ld %ld %ld %lf", &procs, mode, &masters, &batch,
                   &depth, &x.predicted) != 6 ||
            procs < 1 || procs > 10000000 || masters < 0 || masters >= procs + (procs == 1) ||
            batch < 0 || batch > 100000 || depth < -1 || depth > 100000 ||
            !(x.predicted >= 0 && x.predicted < 1e15) ||
            (strcmp(mode, "simple") != 0 && strcmp(mode, "dynamic") != 0 &&
             strcmp(mode, "steal") != 0)) {
            snprintf(err, errsz, "%s: damaged profile (auto table line %d)", path, i + 1);
            return -1;
        }
        x.procs = (int)procs;
        x.masters = (int)masters;
        x.batch = (int)batch;
        x.depth = (int)depth;
        x.mode = strcmp(mode, "dynamic") == 0 ? WTC_MODE_DYNAMIC
                 : strcmp(mode, "steal") == 0 ? WTC_MODE_STEAL : WTC_MODE_SIMPLE;
        if (nhave < 16)
            havep[nhave++] = x.procs;
        if (x.procs == P) {
            *a = x;
            snprintf(a->machine, sizeof a->machine, "%s", ah->mname);
            found = 1;
        }
    }
    if (!found) {
        no_setting(path, P, havep, nhave, err, errsz);
        return -1;
    }
    return 0;
}

/* The 'auto' section: "auto <n> <machine name>", "spec <how it was named>", then n
   lines "best P mode masters batch depth predicted_s". */
int wtcrt_profile_auto(const char *path, const wtc_program *prog, int P, const char *machine,
                       wtcrt_auto *a, char *err, size_t errsz)
{
    size_t len;
    char *text = wtcrt_read_file(path, &len, err, errsz);
    const char *s;
    auto_head ah = { 0, "", "", NULL };
    int rc = -1;
    if (!text)
        return -1;
    if ((s = wtcrt_profile_open(path, text, len, prog, err, errsz)) &&
        read_auto_head(path, s, machine, &ah, err, errsz) == 0)
        rc = read_auto_lines(path, &ah, P, a, err, errsz);
    free(text);
    return rc;
}
