/* util.c - small helpers of the driver: messages, allocation, string lists, paths. */
#include "driver.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char program_name[] = "wtcc";

/* "wtcc: error: message" on stderr, like gcc's errors without a location. */
void drv_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: error: ", program_name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* "wtcc: note: message": a hint following an error. */
void drv_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: note: ", program_name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* malloc that never returns NULL (out of memory is not recoverable here). */
void *drv_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "%s: error: out of memory\n", program_name);
        exit(DRV_MISUSE);
    }
    return p;
}

/* strdup that never returns NULL. */
char *drv_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(drv_xmalloc(n), s, n);
}

/* printf into a fresh string. */
char *drv_format(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = drv_xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

/* Append one string; the list stays NULL-terminated so it can be an argv. */
void sl_push(StrList *l, const char *s)
{
    if (l->len + 2 > l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        const char **items = drv_xmalloc(sizeof *items * (size_t)cap);
        if (l->len)
            memcpy(items, l->items, sizeof *items * (size_t)l->len);
        l->items = items; /* the old array is not freed, on purpose (see driver.h) */
        l->cap = cap;
    }
    l->items[l->len++] = s;
    l->items[l->len] = NULL;
}

/* Append every string of 'from'. */
void sl_append(StrList *l, const StrList *from)
{
    for (int i = 0; i < from->len; i++)
        sl_push(l, from->items[i]);
}

/* Does 's' end with 'suffix'? */
bool drv_has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The directory part of 'path' ("." when it has none), like dirname(1). */
char *drv_dirname(const char *path)
{
    char *d = drv_strdup(path);
    size_t n = strlen(d);
    while (n > 1 && d[n - 1] == '/')
        d[--n] = '\0';
    char *slash = strrchr(d, '/');
    if (!slash)
        return drv_strdup(".");
    if (slash == d)
        return drv_strdup("/");
    *slash = '\0';
    return d;
}

/* The last component of 'path', like basename(1) (trailing slashes ignored). */
char *drv_basename(const char *path)
{
    char *d = drv_strdup(path);
    size_t n = strlen(d);
    while (n > 1 && d[n - 1] == '/')
        d[--n] = '\0';
    char *slash = strrchr(d, '/');
    return slash && slash[1] ? slash + 1 : d;
}
