/* wrapper.c - the MPI wrapper's commands, asked once per build (doc/wtcc.md "The MPI
 * wrapper's commands").
 *
 * A build runs the wrapper four times (the user's source preprocessed, the MPI probe, the
 * generated C preprocessed, the compile and link). MPICH's mpicc, and the wrappers made
 * from it (MVAPICH, Intel MPI's mpicc), is a shell script that forks `expr` for each of
 * its arguments: about 6 ms an argument on the CI's machines, a third of a second per
 * build for 42 arguments. Such a script tells with -show what it would run, so it is
 * asked twice, with a placeholder for the arguments ("-show -E @" and "-show @"), and
 * its answer is run directly.
 *
 * Only where the answer is certain: the wrapper must be a script ("#!": a compiled
 * wrapper, Open MPI's, costs nothing to run, and its --showme leaves out its flags when
 * it is given other options), -show must succeed and print one line holding the
 * placeholder once as a word and nothing a shell would have interpreted (quotes,
 * backslashes, $, globs...). Otherwise the wrapper itself is run, as before.
 */
#include "driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PLACEHOLDER "@wtcc-arguments@"

/* What the wrapper runs for one kind of command: head + the caller's arguments + tail;
   resolved = 0 not asked yet, 1 asked and usable, -1 the wrapper runs itself. */
typedef struct Template {
    int resolved;
    StrList head, tail;
} Template;

static Template templates[2];

/* The wrapper's file in PATH (or as given with a '/'), or NULL. */
static char *find_in_path(const char *name)
{
    if (strchr(name, '/'))
        return access(name, X_OK) == 0 ? drv_strdup(name) : NULL;
    const char *path = getenv("PATH");
    if (!path)
        return NULL;
    for (const char *p = path;; ) {
        size_t n = strcspn(p, ":");
        char *f = n ? drv_format("%.*s/%s", (int)n, p, name) : drv_strdup(name);
        if (access(f, X_OK) == 0)
            return f;
        if (!p[n])
            return NULL;
        p += n + 1;
    }
}

/* Does the file start with "#!" (a script)? */
static bool is_script(const char *file)
{
    char magic[2];
    FILE *f = fopen(file, "rb");
    if (!f)
        return false;
    bool yes = fread(magic, 1, 2, f) == 2 && magic[0] == '#' && magic[1] == '!';
    fclose(f);
    return yes;
}

/* Split the -show line into t's head and tail; false where it is not certain. */
static bool parse_show(const char *out, Template *t)
{
    size_t len = strlen(out);
    while (len && (out[len - 1] == '\n' || out[len - 1] == '\r'))
        len--;
    char *line = drv_format("%.*s", (int)len, out);
    /* one line, nothing a shell would have read otherwise */
    if (strpbrk(line, "\n\r'\"\\$`;|&<>(){}*?[]~!#") || !*line)
        return false;
    int seen = 0;
    char *save;
    for (char *w = strtok_r(line, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        if (strcmp(w, PLACEHOLDER) == 0)
            seen++;
        else
            sl_push(seen ? &t->tail : &t->head, w);
    }
    /* the placeholder once, after the compiler's name */
    return seen == 1 && t->head.len > 0 && strcmp(t->head.items[0], "-E") != 0;
}

/* Ask the wrapper what it runs for 'kind' (once). */
static Template *resolve(const DrvOptions *o, int kind)
{
    Template *t = &templates[kind];
    if (t->resolved)
        return t;
    t->resolved = -1;
    char *file = find_in_path(o->mpicc);
    if (!file || !is_script(file))
        return t;
    StrList cmd = {0};
    sl_push(&cmd, o->mpicc);
    sl_push(&cmd, "-show");
    if (kind == WRAP_PREPROCESS)
        sl_push(&cmd, "-E");
    sl_push(&cmd, PLACEHOLDER);
    ToolResult r = drv_run(&cmd, CAPTURE_STDOUT);
    Template got = {0};
    if (r.status == 0 && !r.spawn_errno && !r.signal && r.out && parse_show(r.out, &got)) {
        /* the preprocessing template must still preprocess */
        bool ok = kind != WRAP_PREPROCESS;
        for (int i = 0; i < got.head.len && !ok; i++)
            ok = strcmp(got.head.items[i], "-E") == 0;
        if (ok) {
            *t = got;
            t->resolved = 1;
        }
    }
    free(r.out);
    return t;
}

void drv_wrap_begin(StrList *cmd, const DrvOptions *o, int kind)
{
    Template *t = resolve(o, kind);
    if (t->resolved > 0) {
        sl_append(cmd, &t->head);
        return;
    }
    sl_push(cmd, o->mpicc);
    if (kind == WRAP_PREPROCESS)
        sl_push(cmd, "-E");
}

void drv_wrap_end(StrList *cmd, const DrvOptions *o, int kind)
{
    Template *t = resolve(o, kind);
    if (t->resolved > 0)
        sl_append(cmd, &t->tail);
}
