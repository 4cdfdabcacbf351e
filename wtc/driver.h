/* driver.h - the wtcc driver: options, tool runs, temporary files, the lib/wtc lookup.
 *
 * The driver runs the pipeline of SPEC 3:
 *   cpp (the MPI wrapper with -E) -> parse_translation_unit -> cg_generate
 *   -> the MPI program (wrapper + <impl>/libwtcrt_mpi.a, the runtime of its MPI) -> the predictor (host cc + libwtcrt_sim.a)
 * and installs the outputs atomically. Like the rest of the compiler it never frees
 * memory: it is a short-lived process.
 */
#ifndef WTC_DRIVER_H
#define WTC_DRIVER_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>

/* Exit statuses (SPEC 3). */
enum { DRV_OK = 0, DRV_INPUT_ERROR = 1, DRV_MISUSE = 2 };

/* A growable NULL-terminated list of strings (an argv under construction). */
typedef struct StrList {
    const char **items; /* always NULL-terminated */
    int len, cap;
} StrList;

/* Everything the command line says. */
typedef struct DrvOptions {
    const char *input;      /* the .wtc file, as given */
    const char *output;     /* -o, or NULL for the default */
    const char *mpicc;      /* --cc=, default "mpicc" */
    const char *host_cc;    /* --host-cc=, default "cc": builds the predictor */
    StrList cpp_flags;      /* -I -D -U, in order: preprocessor and C compiler */
    StrList link_flags;     /* -L -l -Wl,, in order: the link */
    StrList opt_flags;      /* -O* -g* -W* -w: the C compiler */
    bool have_opt_level;    /* an -O* was given (else -O2) */
    int mode_override;      /* 0, WTC_MODE_SIMPLE, WTC_MODE_DYNAMIC or WTC_MODE_STEAL */
    int masters_override;   /* --mode=dynamic:M, else 0 */
    bool emit_c;            /* -E / --emit-c */
    bool no_predict;        /* --no-predict */
    bool check;             /* --check: every call's element counts checked */
    bool verbose;           /* -v */
    bool keep_temps;        /* --keep-temps */
    bool dump_ast;          /* --dump-ast */
} DrvOptions;

/* A line of the user's source: its file as line markers name it, and its number. */
typedef struct DrvPlace {
    const char *file;
    int line;
} DrvPlace;

/* Where everything lives for this run. */
typedef struct Paths {
    const char *libdir;
    const char *output;    /* the program (or the C file with -E; "-" = stdout) */
    const char *generated; /* the generated C in the temporary directory */
    const char **user_files; /* the names the user's source came under (its line
                                markers, system headers not): the C compiler's errors
                                there are the user's (build.c) */
    int nuser_files;
    DrvPlace *rewritten;     /* the user's lines the generated C re-prints with other
                                text: the C compiler's columns there are not the user's */
    int nrewritten;
} Paths;

/* ---- util.c ---- */
void drv_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void drv_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *drv_xmalloc(size_t n);
char *drv_strdup(const char *s);
char *drv_format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void sl_push(StrList *l, const char *s);
void sl_append(StrList *l, const StrList *from);
bool drv_has_suffix(const char *s, const char *suffix);
char *drv_dirname(const char *path);
char *drv_basename(const char *path);

/* ---- options.c ---- */
/* Parse argv into *o. Returns -1 to go on, or an exit status (--help, --version, misuse). */
int drv_parse_options(int argc, char **argv, DrvOptions *o);
/* The output file: -o, else the input's base name without .wtc (in the current directory). */
const char *drv_output_path(const DrvOptions *o);

/* ---- spawn.c ---- */
/* The outcome of running one tool. */
typedef struct ToolResult {
    int status;        /* exit status, or -1 when it could not be started / was killed */
    int signal;        /* the signal that killed it, or 0 */
    int spawn_errno;   /* why it could not be started, or 0 */
    char *out;         /* captured stdout or stderr (NUL-terminated), or NULL */
    size_t out_len;
} ToolResult;
enum { CAPTURE_NONE, CAPTURE_STDOUT, CAPTURE_STDERR };
/* The tool running now (0 = none), so a signal handler can stop it. */
extern volatile int drv_child_pid;
void drv_set_verbose(bool on);
/* The tool drv_start runs beside it (0 = none). */
extern volatile int drv_side_pid;
/* Run argv[0] (searched in PATH) without a shell; capture one stream into memory. */
ToolResult drv_run(const StrList *argv, int capture);
/* Start argv[0] in the background, its stderr into err_file; returns its pid, or 0 (r
   says why). drv_finish waits for it (SIGTERM first if 'stop') and reads err_file into
   r->out. */
int drv_start(const StrList *argv, const char *err_file, ToolResult *r);
/* Send 'sig' to a tool drv_run or drv_start runs, and to what it started (its process
   group; safe in a signal handler); pid <= 0: nothing. */
void drv_stop_tool(int pid, int sig);
void drv_finish(int pid, const char *err_file, bool stop, ToolResult *r);
/* Explain a tool that could not be started or crashed; returns DRV_MISUSE. */
int drv_tool_failed(const char *what, const StrList *argv, const ToolResult *r);

/* ---- temps.c ---- */
/* Create the private temporary directory and install the signal / diag exit hooks. */
void tmp_init(bool keep);
/* A path inside the temporary directory (registered for removal). */
char *tmp_path(const char *name);
/* Does 'path' exist as something other than a regular file (e.g. /dev/null)? */
bool tmp_is_special(const char *path);
/* A fresh, registered temporary file in the directory of 'target' (for an atomic rename). */
char *tmp_beside(const char *target);
/* Rename the registered temporary 'tmp' onto 'target' with mode 'mode' & ~umask. */
bool tmp_commit(const char *tmp, const char *target, unsigned mode);
/* Remove every registered file and the temporary directory (idempotent). */
void tmp_cleanup(void);

/* ---- build.c ---- */
/* Which of the user's -O -g -W -f -m flags a run of the C compiler takes. */
enum {
    OPT_COMPILE,     /* all of them */
    OPT_PREPROCESS,  /* step 1, the user's source: all but -g */
    OPT_GENERATED    /* step 4a, the generated C preprocessed again: -O -f -m only (no
                        warning can be the user's there) */
};
/* The user's flags of opt_flags that 'kind' takes, -O2 first when no -O was given. */
void drv_push_opt_flags(StrList *cmd, const DrvOptions *o, int kind);
/* Steps 4-6: build the program and the predictor, then rename them onto the outputs. */
int drv_build_and_install(const DrvOptions *o, const Paths *p);

/* ---- tidy.c ---- */
/* Print the C compiler's messages (in[0..len)) with the clones' internal names replaced
   by the user's, the columns at p's rewritten lines dropped, and repeated messages
   dropped. */
void drv_tidy_messages(const char *in, size_t len, const Paths *p, FILE *out);

/* ---- libdir.c ---- */
/* The lib/wtc directory: $WTC_LIBDIR, else <dir of this executable>/../lib/wtc. */
const char *drv_find_libdir(void);

/* ---- wrapper.c ---- */
/* A command of the MPI wrapper o->mpicc: drv_wrap_begin pushes what runs first (the
   wrapper, with -E for WRAP_PREPROCESS; or what the wrapper's -show said it runs), the
   caller its arguments, drv_wrap_end what the wrapper adds after them. */
enum { WRAP_PREPROCESS, WRAP_LINK };
void drv_wrap_begin(StrList *cmd, const DrvOptions *o, int kind);
void drv_wrap_end(StrList *cmd, const DrvOptions *o, int kind);

/* ---- mpiimpl.c ---- */
/* The MPI runtime archive for o->mpicc's implementation: <libdir>/<impl>/libwtcrt_mpi.a.
   NULL after an error message, with the exit status in *st; *impl: the implementation's
   name (mpich, openmpi, smpi ...). */
const char *drv_mpi_runtime(const DrvOptions *o, const char *libdir, const char **impl,
                            int *st);

#endif
