/* spawn.c - running the external tools (cpp, mpicc, cc) without a shell.
 *
 * posix_spawnp with an argv, never system(): file names with spaces or quotes work and
 * nothing is interpreted by /bin/sh.
 */
#define _GNU_SOURCE /* pipe2 */
#include "driver.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

volatile int drv_child_pid;
volatile int drv_side_pid;
static bool verbose;

/* -v: print every command before running it. */
void drv_set_verbose(bool on)
{
    verbose = on;
}

/* Print one argument so that a shell would read it back unchanged. */
static void print_quoted(const char *a, FILE *f)
{
    if (*a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                        "0123456789-_./=+,:%@") == strlen(a)) {
        fputs(a, f);
        return;
    }
    fputc('\'', f);
    for (; *a; a++) {
        if (*a == '\'')
            fputs("'\\''", f);
        else
            fputc(*a, f);
    }
    fputc('\'', f);
}

/* The -v line: " cmd arg arg ...", like gcc -v. */
static void print_command(const StrList *argv)
{
    fputc(' ', stderr);
    for (int i = 0; i < argv->len; i++) {
        if (i)
            fputc(' ', stderr);
        print_quoted(argv->items[i], stderr);
    }
    fputc('\n', stderr);
    fflush(stderr);
}

/* Before a tool starts: its -v line, and our buffered output out first. */
static void announce(const StrList *argv)
{
    if (verbose)
        print_command(argv);
    fflush(stdout);
    fflush(stderr);
}

/* Each tool runs in a process group of its own, so that stopping it stops what it
   started too: gcc's cc1 and as, or a wrapper script's compiler. Killing gcc alone let
   its cc1 write its .s into TMPDIR after gcc had removed its temporaries (a SIGTERM
   while the predictor compiled beside the program, under AddressSanitizer). Its standard
   input is /dev/null: no tool reads it (every input is a named regular file), and a
   group other than the terminal's would be stopped reading a terminal. */
static int spawn_tool(pid_t *pid, const StrList *argv, posix_spawn_file_actions_t *fa)
{
    posix_spawn_file_actions_addopen(fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&at, 0);
    int err = posix_spawnp(pid, argv->items[0], fa, &at, (char *const *)argv->items, environ);
    posix_spawnattr_destroy(&at);
    return err;
}

void drv_stop_tool(int pid, int sig)
{
    if (pid > 0)
        kill(-pid, sig); /* its group: spawn_tool */
}

/* Read everything from 'fd' into r->out until end of file. */
static void read_all(int fd, ToolResult *r)
{
    size_t cap = 65536, len = 0;
    char *buf = drv_xmalloc(cap);
    for (;;) {
        if (len + 1 == cap) {
            char *bigger = drv_xmalloc(cap * 2);
            memcpy(bigger, buf, len);
            buf = bigger; /* never freed, on purpose */
            cap *= 2;
        }
        ssize_t n = read(fd, buf + len, cap - 1 - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        len += (size_t)n;
    }
    buf[len] = '\0';
    r->out = buf;
    r->out_len = len;
}

/* Wait for 'pid' and fill in the status or the killing signal. */
static void wait_child(pid_t pid, ToolResult *r)
{
    int ws;
    while (waitpid(pid, &ws, 0) < 0) {
        if (errno != EINTR) {
            r->status = -1;
            return;
        }
    }
    if (pid == drv_child_pid)
        drv_child_pid = 0;
    else
        drv_side_pid = 0;
    if (WIFEXITED(ws))
        r->status = WEXITSTATUS(ws);
    else {
        r->status = -1;
        r->signal = WIFSIGNALED(ws) ? WTERMSIG(ws) : 0;
    }
}

/* Run argv[0] (searched in PATH) without a shell; capture one stream into memory. */
ToolResult drv_run(const StrList *argv, int capture)
{
    ToolResult r = {0};
    announce(argv);
    int fds[2] = {-1, -1};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    if (capture != CAPTURE_NONE) {
        if (pipe2(fds, O_CLOEXEC) != 0) {
            r.status = -1;
            r.spawn_errno = errno;
            return r;
        }
        posix_spawn_file_actions_adddup2(&fa, fds[1], capture == CAPTURE_STDOUT ? 1 : 2);
    }
    pid_t pid;
    int err = spawn_tool(&pid, argv, &fa);
    posix_spawn_file_actions_destroy(&fa);
    if (fds[1] >= 0)
        close(fds[1]);
    if (err) {
        if (fds[0] >= 0)
            close(fds[0]);
        r.status = -1;
        r.spawn_errno = err;
        return r;
    }
    drv_child_pid = pid;
    if (fds[0] >= 0) {
        read_all(fds[0], &r);
        close(fds[0]);
    }
    wait_child(pid, &r);
    return r;
}

/* Start argv[0] beside the tool drv_run runs, its stderr into 'err_file'; r->status and
   r->spawn_errno say whether it started. Returns its pid, or 0. */
int drv_start(const StrList *argv, const char *err_file, ToolResult *r)
{
    *r = (ToolResult){0};
    announce(argv);
    int fd = open(err_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        r->status = -1;
        r->spawn_errno = errno;
        return 0;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd, 2);
    pid_t pid;
    int err = spawn_tool(&pid, argv, &fa);
    posix_spawn_file_actions_destroy(&fa);
    close(fd);
    if (err) {
        r->status = -1;
        r->spawn_errno = err;
        return 0;
    }
    drv_side_pid = pid;
    return pid;
}

/* Wait for a tool drv_start started (stop it first if 'stop'); its stderr into r->out. */
void drv_finish(int pid, const char *err_file, bool stop, ToolResult *r)
{
    if (pid <= 0)
        return;
    if (stop)
        drv_stop_tool(pid, SIGTERM);
    wait_child(pid, r);
    int fd = open(err_file, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        read_all(fd, r);
        close(fd);
    }
}

/* Explain a tool that could not be started or crashed; returns DRV_MISUSE. */
int drv_tool_failed(const char *what, const StrList *argv, const ToolResult *r)
{
    const char *tool = argv->items[0];
    if (r->spawn_errno) {
        drv_error("cannot run '%s' (%s): %s", tool, what, strerror(r->spawn_errno));
        const char *base = strrchr(tool, '/') ? strrchr(tool, '/') + 1 : tool;
        if (r->spawn_errno == ENOENT && strcmp(base, "smpicc") == 0)
            drv_note("smpicc is SimGrid's (SMPI): on Debian 'apt-get install "
                     "libsimgrid-dev simgrid', then 'make' in the wtcc tree builds its "
                     "runtime (bench/smpi/run.sh does both)");
        else if (r->spawn_errno == ENOENT)
            drv_note("install it (on Debian: 'make deps' in the wtcc tree installs mpich "
                     "and libmpich-dev) or choose another one with --cc= / --host-cc=");
    } else if (r->signal)
        drv_error("'%s' (%s) was killed by signal %d (%s)", tool, what, r->signal,
                  strsignal(r->signal));
    else
        drv_error("'%s' (%s) failed with exit status %d", tool, what, r->status);
    return DRV_MISUSE;
}
