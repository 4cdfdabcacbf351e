/* diag.c - gcc-style diagnostics and the source-file cache behind them.
 *
 * A diagnostic is "file:line:col: error: message", then the original source line and a
 * caret under the column. The line comes from the file named by the location (read
 * once and kept), so what is shown is what the user wrote, not the preprocessed text. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "lex.h"

static int nerrors, nwarnings;
static void (*exit_hook)(void);

/* ---- source cache --------------------------------------------------------- */

typedef struct SrcFile {
    struct SrcFile *next;
    char *name;
    char *text;   /* NULL when the file could not be read */
    long len;
    int *lines;   /* byte offset of each line start */
    int nlines;
} SrcFile;

static SrcFile *src_files;

/* A source file larger than this is not shown in diagnostics (a line marker may name
   any file: "#line 1 \"/dev/zero\"" or a 2 GB file must not stall the compiler). */
#define DIAG_MAX_SOURCE (256L << 20)

/* Open 'name' for reading if it is a regular file of a size we show. O_NONBLOCK: a FIFO
   named by a line marker is refused at once instead of waiting for a writer. */
static FILE *open_source(const char *name)
{
    struct stat st;
    int fd = open(name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    FILE *f = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= DIAG_MAX_SOURCE)
        f = fdopen(fd, "rb");
    if (!f)
        close(fd);
    return f;
}

/* Read a whole file (bounded by DIAG_MAX_SOURCE); NULL if it cannot be read. */
static char *read_file(const char *name, long *len)
{
    FILE *f = open_source(name);
    if (!f)
        return NULL;
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n > (size_t)DIAG_MAX_SOURCE) { /* it grew since fstat */
            free(buf);
            buf = NULL;
            break;
        }
        if (n == cap) {
            cap *= 2;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    fclose(f);
    *len = (long)n;
    return buf;
}

/* Index the line starts of a cached file. */
static void index_lines(SrcFile *sf)
{
    int cap = 1024;
    sf->lines = malloc(cap * sizeof(int));
    sf->nlines = 0;
    sf->lines[sf->nlines++] = 0;
    for (long i = 0; i < sf->len; i++) {
        if (sf->text[i] == '\n') {
            if (sf->nlines == cap) {
                cap *= 2;
                sf->lines = realloc(sf->lines, cap * sizeof(int));
            }
            sf->lines[sf->nlines++] = (int)(i + 1);
        }
    }
}

/* The cache entry for 'file', loading it on first use. */
static SrcFile *src_get(const char *file)
{
    for (SrcFile *sf = src_files; sf; sf = sf->next)
        if (strcmp(sf->name, file) == 0)
            return sf;
    SrcFile *sf = calloc(1, sizeof *sf);
    sf->name = strdup(file);
    if (file[0] != '<')
        sf->text = read_file(file, &sf->len);
    if (sf->text)
        index_lines(sf);
    sf->next = src_files;
    src_files = sf;
    return sf;
}

const char *diag_source_line(const char *file, int line, int *len)
{
    if (!file || line < 1)
        return NULL;
    SrcFile *sf = src_get(file);
    if (!sf->text || line > sf->nlines)
        return NULL;
    int start = sf->lines[line - 1];
    int end = line < sf->nlines ? sf->lines[line] - 1 : (int)sf->len;
    if (end > start && sf->text[end - 1] == '\r')
        end--;
    *len = end - start;
    return sf->text + start;
}

/* ---- printing ------------------------------------------------------------- */

/* How much of a long source line is shown: a window around the column. */
#define DIAG_LINE_WINDOW 160

/* Print the source line of 'loc' and a caret under its column; a line longer than the
   window is cut to the part around the column, with "..." where text was left out. */
static void print_caret(Loc loc)
{
    int len;
    const char *s = diag_source_line(loc.file, loc.line, &len);
    if (!s)
        return;
    int col = loc.col < 1 ? 1 : loc.col;
    int from = 0, to = len;
    if (len > DIAG_LINE_WINDOW) {
        from = col - 1 - DIAG_LINE_WINDOW / 2;
        from = from < 0 ? 0 : from > len - DIAG_LINE_WINDOW ? len - DIAG_LINE_WINDOW : from;
        to = from + DIAG_LINE_WINDOW;
    }
    const char *pre = from > 0 ? "..." : "";
    fprintf(stderr, "%s%.*s%s\n", pre, to - from, s + from, to < len ? "..." : "");
    fputs(pre, stderr);
    for (int i = from; i < col - 1; i++)
        fputc(i < len && s[i] == '\t' ? '\t' : ' ', stderr);
    fputs("^\n", stderr);
}

/* The common part of every located diagnostic. */
static void vreport(Loc loc, const char *kind, const char *fmt, va_list ap)
{
    if (loc.file)
        fprintf(stderr, "%s:%d:%d: %s: ", loc.file, loc.line, loc.col, kind);
    else
        fprintf(stderr, "wtcc: %s: ", kind);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    print_caret(loc);
}

/* Stop the run once the error budget is spent. */
static void check_limit(void)
{
    if (nerrors < DIAG_MAX_ERRORS)
        return;
    fprintf(stderr, "wtcc: error: too many errors, stopping\n");
    fflush(stderr);
    if (exit_hook)
        exit_hook();
    exit(1);
}

void diag_error(Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(loc, "error", fmt, ap);
    va_end(ap);
    nerrors++;
    check_limit();
}

void diag_warning(Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(loc, "warning", fmt, ap);
    va_end(ap);
    nwarnings++;
}

void diag_note(Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(loc, "note", fmt, ap);
    va_end(ap);
}

void diag_fatal_noloc(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "wtcc: error: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    nerrors++;
}

void diag_reset(void)
{
    nerrors = nwarnings = 0;
}

int diag_error_count(void)
{
    return nerrors;
}

int diag_warning_count(void)
{
    return nwarnings;
}

void diag_set_exit_hook(void (*hook)(void))
{
    exit_hook = hook;
}
