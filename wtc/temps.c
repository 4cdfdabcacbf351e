/* temps.c - temporary files: removed on every exit path, outputs replaced atomically.
 *
 * Two kinds of temporary files:
 *  - the private directory (mkdtemp under $TMPDIR or /tmp) holding the generated C and
 *    other intermediates; --keep-temps keeps it for debugging;
 *  - one file beside each output (same directory, so rename(2) is atomic), into which
 *    the tool writes; it is renamed onto the output only when everything succeeded.
 * Both are removed by exit(), by diag's exit hook and by SIGINT/SIGTERM/SIGHUP/SIGPIPE.
 * The signal handler uses only async-signal-safe calls (kill, unlink, rmdir, raise).
 */
#include "driver.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TMP_MAX_FILES 32

static char *tmp_dir;                          /* NULL until tmp_init */
static bool keep_temps;
static const char *volatile registered[TMP_MAX_FILES]; /* NULL = free slot */
static volatile bool is_beside[TMP_MAX_FILES];  /* beside an output: removed even with keep */
static mode_t saved_umask;

/* Remember 'path' for removal; written slot by slot so a signal sees a consistent list. */
static void register_path(const char *path, bool beside)
{
    for (int i = 0; i < TMP_MAX_FILES; i++) {
        if (!registered[i]) {
            is_beside[i] = beside;
            registered[i] = path;
            return;
        }
    }
    drv_error("internal: too many temporary files");
    exit(DRV_MISUSE);
}

/* Forget 'path' (it became an output). */
static void unregister_path(const char *path)
{
    for (int i = 0; i < TMP_MAX_FILES; i++)
        if (registered[i] == path)
            registered[i] = NULL;
}

/* Remove every registered file and the temporary directory (idempotent). */
void tmp_cleanup(void)
{
    for (int i = 0; i < TMP_MAX_FILES; i++) {
        const char *p = registered[i];
        if (p && (is_beside[i] || !keep_temps)) {
            unlink(p);
            registered[i] = NULL;
        }
    }
    if (tmp_dir && !keep_temps)
        rmdir(tmp_dir);
}

/* SIGINT/SIGTERM/SIGHUP/SIGPIPE: stop the running tool, clean up, die of the signal. */
static void on_signal(int sig)
{
    int child = drv_child_pid, side = drv_side_pid;
    drv_stop_tool(child, sig == SIGPIPE ? SIGTERM : sig);
    drv_stop_tool(side, sig == SIGPIPE ? SIGTERM : sig);
    tmp_cleanup();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Install on_signal for the signals that end a compiler run. */
static void install_signal_handlers(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaddset(&sa.sa_mask, sigs[i]);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old;
        /* a signal ignored by our parent (nohup) stays ignored */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(sigs[i], &sa, NULL);
    }
}

/* Create the private temporary directory and install the signal and exit hooks. */
void tmp_init(bool keep)
{
    keep_temps = keep;
    saved_umask = umask(0);
    umask(saved_umask);
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    char *templ = drv_format("%s/wtcc-XXXXXX", base);
    install_signal_handlers();
    atexit(tmp_cleanup);
    if (!mkdtemp(templ)) {
        drv_error("cannot create a temporary directory in '%s': %s", base, strerror(errno));
        exit(DRV_MISUSE);
    }
    tmp_dir = templ;
    if (keep)
        drv_note("keeping temporary files in '%s'", tmp_dir);
}

/* A path inside the temporary directory (registered for removal). */
char *tmp_path(const char *name)
{
    char *p = drv_format("%s/%s", tmp_dir, name);
    register_path(p, false);
    return p;
}

/* Does 'path' exist as something other than a regular file (e.g. /dev/null)? */
bool tmp_is_special(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

/* A fresh, registered temporary file in the directory of 'target' (for an atomic rename).
   Returns NULL (errno set) when that directory cannot be written. A special 'target'
   (/dev/null) is written into, not replaced: then the temporary is a private one. */
char *tmp_beside(const char *target)
{
    static int nspecial;
    if (tmp_is_special(target))
        return tmp_path(drv_format("special-%d", nspecial++));
    char *dir = drv_dirname(target);
    char *p = drv_format("%s/.%s.wtcc-XXXXXX", dir, drv_basename(target));
    int fd = mkstemp(p);
    if (fd < 0)
        return NULL;
    close(fd);
    register_path(p, true);
    return p;
}

/* Copy the contents of 'tmp' into the special file 'target' (gcc -o /dev/null works). */
static bool copy_into(const char *tmp, const char *target)
{
    FILE *in = fopen(tmp, "rb"), *out = fopen(target, "wb");
    char buf[65536];
    size_t n;
    bool ok = in && out;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0)
        ok = fwrite(buf, 1, n, out) == n;
    ok = ok && (!in || !ferror(in));
    if (in)
        fclose(in);
    if (out && fclose(out) != 0)
        ok = false;
    if (!ok)
        drv_error("cannot write '%s': %s", target, strerror(errno));
    return ok;
}

/* Rename the registered temporary 'tmp' onto 'target' with mode 'mode' & ~umask
   (or copy it into 'target' when that is a special file such as /dev/null). */
bool tmp_commit(const char *tmp, const char *target, unsigned mode)
{
    if (tmp_is_special(target))
        return copy_into(tmp, target);
    if (chmod(tmp, (mode_t)mode & ~saved_umask) != 0 || rename(tmp, target) != 0) {
        drv_error("cannot write '%s': %s", target, strerror(errno));
        return false;
    }
    unregister_path(tmp);
    return true;
}
