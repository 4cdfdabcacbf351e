/* tidy.c - the C compiler's messages about the generated code, as the user wrote it.
 *
 * Every recursive function f is compiled twice, as the sequential clone __wtc_seq_f and
 * the parallel clone __wtc_par_f (doc/wtcc.md). An error in f's body therefore came
 * out twice, under names the user never wrote (and main is compiled as
 * __wtc_user_main). Here the clones' names become f again, __wtc_user_main main,
 * and a message (its first line and the source excerpt under it) that was already
 * shown is dropped; an "In function" header is printed before the first message
 * under it that is shown, unless it is the header printed last.
 *
 * On a line that the generated C re-prints with other text (a clone's header, a par,
 * a renamed call, main: the rewritten lines codegen notes), the C compiler counts its
 * columns in the generated text: 'unused z' came out at 3:72 in one clone and 3:79 in
 * the other, where the user wrote it at 3:40, twice because the columns differed. There
 * the column and the caret line under the excerpt are dropped ("file:3: warning: ..."),
 * which also makes the clones' two messages one.
 * Everything else passes through unchanged, in order. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"

/* Copy 'line' (n bytes) with every __wtc_seq_ / __wtc_par_ prefix of an identifier
   removed and __wtc_user_main back to main; returns a NUL-terminated copy. */
static char *rename_clones(const char *line, size_t n)
{
    char *q = drv_xmalloc(n + 1), *d = q;
    size_t i = 0;
    while (i < n) {
        /* the start of an identifier, not the middle of one */
        bool start = i == 0 || !(isalnum((unsigned char)line[i - 1]) || line[i - 1] == '_');
        if (start && n - i >= 15 && strncmp(line + i, "__wtc_user_main", 15) == 0) {
            i += 11; /* the user's main, renamed by wtcc (doc/wtcc.md) */
            continue;
        }
        if (n - i > 10 && (strncmp(line + i, "__wtc_seq_", 10) == 0 ||
                           strncmp(line + i, "__wtc_par_", 10) == 0) &&
            start) {
            i += 10;
            continue;
        }
        if (start && n - i > 11 && strncmp(line + i, "__wtc_call_", 11) == 0) {
            i += 11; /* a call of f from ordinary code (codegen/marshal.c) */
            continue;
        }
        *d++ = line[i++];
    }
    *d = '\0';
    return q;
}

/* "file: In function 'f':" (also "In member function", "At top level:") */
static bool is_header(const char *s)
{
    const char *c = strstr(s, ": In function ");
    return (c && s[strlen(s) - 1] == ':') || strstr(s, ": At top level:") != NULL;
}

/* A source excerpt or caret line under a message: "    7 |   code", "      |   ^~~" */
static bool is_excerpt(const char *s)
{
    while (*s == ' ' || (*s >= '0' && *s <= '9'))
        s++;
    return *s == '|' || *s == '+';
}

/* Is 'line' a message "file:N:col: ..." at a rewritten line? Then drop ":col" (in place)
   and return true. */
static bool drop_column(char *line, const Paths *p)
{
    for (int i = 0; i < p->nrewritten; i++) {
        const char *file = p->rewritten[i].file;
        size_t n = strlen(file);
        if (strncmp(line, file, n) != 0 || line[n] != ':' || !isdigit((unsigned char)line[n + 1]))
            continue;
        char *e;
        long no = strtol(line + n + 1, &e, 10);
        if (no != p->rewritten[i].line || *e != ':' || !isdigit((unsigned char)e[1]))
            continue;
        char *c = e + 1; /* the column: digits, then ':' */
        while (isdigit((unsigned char)*c))
            c++;
        if (*c != ':')
            continue;
        memmove(e, c, strlen(c) + 1);
        return true;
    }
    return false;
}

/* A caret or label line under an excerpt ("      |   ^~~"): no line number before '|'. */
static bool is_caret(const char *s)
{
    while (*s == ' ')
        s++;
    return *s == '|';
}

typedef struct Seen {
    char **v;
    size_t n, cap;
} Seen;

static bool seen_add(Seen *s, const char *text)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->v[i], text) == 0)
            return false;
    if (s->n == s->cap) {
        char **v = drv_xmalloc((s->cap ? 2 * s->cap : 16) * sizeof *v);
        if (s->n)
            memcpy(v, s->v, s->n * sizeof *v);
        free(s->v);
        s->v = v;
        s->cap = s->cap ? 2 * s->cap : 16;
    }
    s->v[s->n++] = drv_strdup(text);
    return true;
}

static void append(char **buf, size_t *len, size_t *cap, const char *s)
{
    size_t n = strlen(s);
    if (*len + n + 2 > *cap) {
        char *b = drv_xmalloc(2 * (*len + n + 2));
        if (*len)
            memcpy(b, *buf, *len);
        free(*buf);
        *buf = b;
        *cap = 2 * (*len + n + 2);
    }
    memcpy(*buf + *len, s, n);
    *len += n;
    (*buf)[(*len)++] = '\n';
    (*buf)[*len] = '\0';
}

void drv_tidy_messages(const char *in, size_t len, const Paths *p, FILE *out)
{
    bool no_column = false; /* the message being collected lost its column */
    Seen seen = {0};
    char *header = NULL;  /* the last "In function" line read */
    char *shown = NULL;   /* the last one printed */
    char *block = NULL;   /* the message being collected: its line and excerpt */
    size_t blen = 0, bcap = 0;
    size_t i = 0;
    for (;;) {
        const char *nl = i < len ? memchr(in + i, '\n', len - i) : NULL;
        size_t n = nl ? (size_t)(nl - (in + i)) : len - i;
        bool end = i >= len;
        char *line = end ? NULL : rename_clones(in + i, n);
        /* a message ends where a line is not an excerpt, or at the end of input */
        if (block && (end || !is_excerpt(line))) {
            if (seen_add(&seen, block)) {
                if (header && (!shown || strcmp(header, shown) != 0)) {
                    fprintf(out, "%s\n", header);
                    free(shown);
                    shown = drv_strdup(header);
                }
                fputs(block, out);
            }
            free(block);
            block = NULL;
            blen = bcap = 0;
        }
        if (end)
            break;
        if (is_header(line)) {
            free(header);
            header = line; /* printed before its function's first new message */
        } else {
            if (!block)
                no_column = drop_column(line, p);
            if (!(block && no_column && is_caret(line))) /* a caret at the wrong column */
                append(&block, &blen, &bcap, line);
            free(line);
        }
        i += n + (nl != NULL);
    }
    free(header);
    free(shown);
    for (size_t k = 0; k < seen.n; k++)
        free(seen.v[k]);
    free(seen.v);
}
