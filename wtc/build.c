/* build.c - the C compiler runs: the MPI program, the predictor, and their installation.
 *
 *   4. program:     <mpicc> -E ... <name>.c -o <name>.c.i (SMPI: -DSMPI_HELPERS_H), then
 *                   <mpicc> -std=gnu11 -Wall ... <name>.c.i <lib>/<impl>/libwtcrt_mpi.a -lm
 *                   (<impl>: the wrapper's MPI, mpiimpl.c)
 *   5. predictor:   <host cc> -DWTC_PREDICT=1 ... <name>.c <lib>/libwtcrt_sim.a -lm (beside 4)
 *   6. install:     rename the temporaries beside the outputs onto prog.predict, prog
 *
 * The predictor is built with the plain host compiler, not the MPI wrapper, so that it is
 * a serial program needing no MPI library at run time (SPEC 5). The generated C is
 * already preprocessed (mpi.h, if the user included it, is expanded in it), so only
 * <lib>/include is needed on the include path; a program that calls MPI itself cannot
 * have a predictor (--no-predict).
 *
 * SimGrid's smpicc force-includes <smpi/smpi_helpers.h> (macros that send malloc, exit,
 * clock_gettime, sleep ... of the user's code to SMPI's simulated ones). Step 1 applied
 * it already; a second time on the preprocessed text its macros would rewrite the system
 * headers' declarations, so step 4 defines its include guard. The predictor's text thus
 * calls smpi_clock_gettime & co.: libwtcrt_sim.a forwards them to the C library
 * (runtime/sim/smpi_names.c).
 *
 * The compilers' messages are passed through. The exit status says whose fault a failure
 * is: 1 when the messages point at a line of the user's (the generated C carries its line
 * markers: the .wtc, a name a #line gave it, its own headers) or name a function the
 * user never defined; 2, with a sentence saying so,
 * for a failed tool, a missing library, or a wtcc bug (an error in generated code).
 */
#include "driver.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The program's allocation calls go through the runtime (runtime/common/heapwrap.c):
   its big blocks lie in the host's shared heap (runtime/mpi/heap.c); with wtcc --check
   (and in the predictor only then) every heap block is recorded too. */
#define HEAP_WRAP "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=reallocarray," \
                  "--wrap=free,--wrap=aligned_alloc,--wrap=memalign,--wrap=posix_memalign," \
                  "--wrap=getline,--wrap=getdelim,--wrap=__getdelim,--wrap=malloc_usable_size"
#define CHECK_HEAP "-Wl,--defsym=wtcrt_heap_checked=1"
/* The program's choice of stdout's buffering, which MPI_Init overrules, is kept and
   applied again after it (runtime/mpi/single.c) */
#define STDIO_WRAP "-Wl,--wrap=setvbuf,--wrap=setbuf,--wrap=setbuffer,--wrap=setlinebuf"

void drv_push_opt_flags(StrList *cmd, const DrvOptions *o, int kind)
{
    if (!o->have_opt_level)
        sl_push(cmd, "-O2");
    for (int i = 0; i < o->opt_flags.len; i++) {
        const char *f = o->opt_flags.items[i];
        /* not -g to a preprocessor: -g3 makes it write every macro's #define, gcc's
           built-in ones too, which the compile then saw redefined (a helper's bug hunt:
           warnings, and nothing built with -Werror) */
        if (kind != OPT_COMPILE && f[1] == 'g')
            continue;
        if (kind == OPT_GENERATED && (f[1] == 'W' || f[1] == 'w' || f[1] == 'p'))
            continue;
        sl_push(cmd, f);
    }
}

/* The flags both builds share: the ABI header's directory, -I -D -U, -O (default -O2), -g.
   Code layout (doc/wtcc.md, "Code layout"; the user's -falign-*, later, win): functions
   aligned to 32 bytes and loops to 64, so that where a hot loop falls within its cache
   lines no longer depends on what precedes it (quicksort ran 0.227-0.246 s as its code
   moved by 32-byte steps, 0.225 s at every step with the loops aligned). Both builds
   use them, so the predictor times the same code the program runs. */
static void push_compile_flags(StrList *cmd, const DrvOptions *o, const Paths *p)
{
    sl_push(cmd, "-std=gnu11");
    sl_push(cmd, "-falign-functions=32");
    sl_push(cmd, "-falign-loops=64");
    /* main is renamed by a macro (codegen/program.c): messages point at the user's
       line, not at the macro's definition in the generated file */
    sl_push(cmd, "-ftrack-macro-expansion=0");
    sl_push(cmd, drv_format("-I%s/include", p->libdir));
    sl_append(cmd, &o->cpp_flags);
    drv_push_opt_flags(cmd, o, OPT_COMPILE);
}

/* Is 'at' (within 'line') the name 'name' as a message's place: "name:12", at the start
   of the line or after a space (the linker's "ld: name:12:")? */
static bool names_place(const char *line, const char *at, const char *name)
{
    size_t n = strlen(name);
    return (at == line || at[-1] == ' ') && at[n] == ':' && at[n + 1] >= '0' &&
           at[n + 1] <= '9';
}

/* Does the C compiler's output blame the user's own source? The generated C carries the
   user's line markers, so an error there is at the .wtc or at a name a #line gave it
   ("#line 500 "other.c"") or at a header of the user's; not at the generated file. */
static bool blames_user_source(const char *msgs, const char *input, const Paths *p)
{
    char *save, *copy = drv_strdup(msgs);
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (!strstr(line, "error:") && !strstr(line, "undefined reference"))
            continue;
        for (int i = -1; i < p->nuser_files; i++) {
            const char *name = i < 0 ? input : p->user_files[i];
            for (const char *at = strstr(line, name); at; at = strstr(at + 1, name))
                if (names_place(line, at, name))
                    return true; /* "file.wtc:12:" on an error line */
        }
    }
    return false;
}

/* Kinds of undefined symbols in a failed link. */
enum { UNDEF_USER = 1, UNDEF_MPI = 2, UNDEF_WTC = 4 };

/* Which kinds of functions does the linker say are defined nowhere? */
static int undefined_symbols(const char *msgs)
{
    static const char key[] = "undefined reference to `";
    int kinds = 0;
    for (const char *at = strstr(msgs, key); at; at = strstr(at + 1, key)) {
        const char *sym = at + sizeof key - 1;
        /* wtc_mpi_init ...: the program's own MPI_Init ... renamed (codegen/program.c) */
        if (strncmp(sym, "wtc_mpi_", 8) == 0)
            kinds |= UNDEF_MPI;
        else if (strncmp(sym, "wtc_", 4) == 0 || strncmp(sym, "__wtc_", 6) == 0 ||
            strncmp(sym, "wtcrt_", 6) == 0)
            kinds |= UNDEF_WTC;
        else if (strncmp(sym, "MPI_", 4) == 0 || strncmp(sym, "PMPI_", 5) == 0)
            kinds |= UNDEF_MPI;
        else
            kinds |= UNDEF_USER;
    }
    return kinds;
}

/* A C compiler run failed: pass its messages through (done) and choose the exit status.
   Errors at the user's lines or functions the user never defined are input errors (1);
   everything else is a misuse or a wtcc problem (2), said in so many words. */
static int compile_failed(const char *what, const StrList *cmd, const ToolResult *r,
                          const DrvOptions *o, const Paths *p)
{
    if (r->spawn_errno || r->signal)
        return drv_tool_failed(what, cmd, r);
    const char *msgs = r->out ? r->out : "";
    int undef = undefined_symbols(msgs);
    if (!*msgs) { /* nothing to point at: the compiler itself, not the generated code */
        drv_error("the C compiler '%s' failed on %s (status %d) without a message",
                  cmd->items[0], what, r->status);
        return DRV_MISUSE;
    }
    if (blames_user_source(msgs, o->input, p) || undef == UNDEF_USER)
        return DRV_INPUT_ERROR; /* the messages above point at the user's program */
    if (undef & UNDEF_WTC) {
        drv_error("the wtcc runtime does not define functions the generated code of %s "
                  "calls; rebuild or reinstall wtcc (a wtcc bug if that does not help)", what);
    } else if (undef & UNDEF_MPI) {
        drv_error("%s calls MPI functions that are not linked into it", what);
        drv_note("a program that calls MPI itself cannot have a predictor: use --no-predict");
    } else if (strstr(msgs, "collect2") || strstr(msgs, "ld:")) {
        drv_error("linking %s failed (see the messages above: a missing -l or -L?)", what);
    } else {
        drv_error("the C compiler failed on the generated code of %s; this is a wtcc bug",
                  what);
        drv_note("please report it with the output of 'wtcc -v --keep-temps ...'");
    }
    return DRV_MISUSE;
}

/* Did the tool really write 'path'? (A wrapper may exit 0 without doing anything.) */
static bool produced(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && st.st_size > 0;
}

/* The outcome r of a C compiler command that writes 'target': its messages shown to the
   user, and an exit status. */
static int compiler_done(const char *what, const StrList *cmd, const ToolResult *r,
                         const char *target, const DrvOptions *o, const Paths *p)
{
    if (r->out_len)
        drv_tidy_messages(r->out, r->out_len, p, stderr);
    if (r->status != 0)
        return compile_failed(what, cmd, r, o, p);
    if (produced(target))
        return DRV_OK;
    drv_error("'%s' exited successfully but did not write %s", cmd->items[0], what);
    return DRV_MISUSE;
}

/* Run one C compiler command whose stderr is shown to the user; it writes 'target'.
   Returns an exit status. */
static int run_compiler(const char *what, const StrList *cmd, const char *target,
                        const DrvOptions *o, const Paths *p)
{
    ToolResult r = drv_run(cmd, CAPTURE_STDERR);
    return compiler_done(what, cmd, &r, target, o, p);
}

/* Step 4a: the generated C preprocessed once more, into 'out' (a .i): its own directives
   (the ABI header, the macro that renames main) are expanded, and the compiler then takes
   the text as preprocessed, as it takes its own -save-temps: -Wpedantic warned "style of
   line directive is a GCC extension" at each of the line markers that carry the user's
   lines and the headers' system flags (and -pedantic-errors stopped the build). */
static int preprocess_generated(const DrvOptions *o, const Paths *p, const char *impl,
                                const char *out)
{
    StrList cmd = {0};
    drv_wrap_begin(&cmd, o, WRAP_PREPROCESS);
    if (strcmp(impl, "smpi") == 0)
        sl_push(&cmd, "-DSMPI_HELPERS_H=1"); /* applied in step 1 already (above) */
    sl_push(&cmd, "-std=gnu11");
    sl_push(&cmd, drv_format("-I%s/include", p->libdir));
    sl_append(&cmd, &o->cpp_flags);
    drv_push_opt_flags(&cmd, o, OPT_GENERATED);
    sl_push(&cmd, p->generated);
    sl_push(&cmd, "-o");
    sl_push(&cmd, out);
    drv_wrap_end(&cmd, o, WRAP_PREPROCESS);
    return run_compiler("the generated C", &cmd, out, o, p);
}

/* Step 4: the MPI program into 'tmp'. Warnings are on (-Wall) so the user sees them. */
static int build_program(const DrvOptions *o, const Paths *p, const char *tmp)
{
    int st = DRV_OK;
    const char *impl = NULL;
    const char *runtime = drv_mpi_runtime(o, p->libdir, &impl, &st);
    char *pre = tmp_path(drv_format("%s.i", strrchr(p->generated, '/') + 1));
    if (!runtime)
        return st;
    if ((st = preprocess_generated(o, p, impl, pre)) != DRV_OK)
        return st;
    StrList cmd = {0};
    drv_wrap_begin(&cmd, o, WRAP_LINK);
    sl_push(&cmd, "-Wall"); /* first, so the user's -Wno-... flags win */
    push_compile_flags(&cmd, o, p);
    sl_push(&cmd, pre);
    sl_push(&cmd, "-o");
    sl_push(&cmd, tmp);
    sl_push(&cmd, runtime);
    sl_push(&cmd, HEAP_WRAP);
    sl_push(&cmd, STDIO_WRAP);
    if (o->check)
        sl_push(&cmd, CHECK_HEAP);
    sl_append(&cmd, &o->link_flags);
    sl_push(&cmd, "-lm");
    drv_wrap_end(&cmd, o, WRAP_LINK);
    return run_compiler("the program", &cmd, tmp, o, p);
}

/* A C string literal holding 's' (for -DWTC_LIBDIR="..."). */
static char *c_string_literal(const char *s)
{
    char *q = drv_xmalloc(2 * strlen(s) + 3), *d = q;
    *d++ = '"';
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            *d++ = '\\';
        *d++ = *s;
    }
    *d++ = '"';
    *d = '\0';
    return q;
}

/* Step 5: the predictor's command (into 'tmp'): host cc, no MPI. Warnings off: step 4
   shows them. */
static void predictor_command(StrList *cmd_out, const DrvOptions *o, const Paths *p,
                              const char *tmp)
{
    StrList cmd = {0};
    sl_push(&cmd, o->host_cc);
    push_compile_flags(&cmd, o, p);
    sl_push(&cmd, "-w");
    sl_push(&cmd, "-DWTC_PREDICT=1");
    sl_push(&cmd, drv_format("-DWTC_LIBDIR=%s", c_string_literal(p->libdir)));
    sl_push(&cmd, p->generated);
    sl_push(&cmd, "-o");
    sl_push(&cmd, tmp);
    sl_push(&cmd, drv_format("%s/libwtcrt_sim.a", p->libdir));
    if (o->check) {
        sl_push(&cmd, HEAP_WRAP);
        sl_push(&cmd, CHECK_HEAP);
    }
    sl_append(&cmd, &o->link_flags);
    sl_push(&cmd, "-lm");
    *cmd_out = cmd;
}

/* A temporary file beside 'target', or NULL after an error message. */
static char *beside_or_error(const char *target)
{
    char *t = tmp_beside(target);
    if (!t)
        drv_error("cannot create a file in the directory of '%s': %s", target,
                  strerror(errno));
    return t;
}

/* Steps 4-6: build both executables, then rename them onto prog.predict and prog. */
int drv_build_and_install(const DrvOptions *o, const Paths *p)
{
    /* -o /dev/null: both outputs go into it (and nothing is created beside it) */
    char *predict = tmp_is_special(p->output) ? drv_strdup(p->output)
                                              : drv_format("%s.predict", p->output);
    char *tmp_prog = beside_or_error(p->output);
    char *tmp_pred = o->no_predict ? NULL : beside_or_error(predict);
    if (!tmp_prog || (!o->no_predict && !tmp_pred))
        return DRV_MISUSE;
    /* the predictor compiles beside the program (it needs only the generated C): a build
       takes the longer of the two, not their sum, where a second core is free; its
       messages come after the program's, as when they ran one after the other */
    StrList pcmd = {0};
    ToolResult pr = {0};
    char *perr = tmp_path("predictor.err");
    int ppid = 0;
    if (!o->no_predict) {
        predictor_command(&pcmd, o, p, tmp_pred);
        ppid = drv_start(&pcmd, perr, &pr);
    }
    int st = build_program(o, p, tmp_prog);
    drv_finish(ppid, perr, st != DRV_OK, &pr);
    if (st == DRV_OK && !o->no_predict)
        st = compiler_done("the predictor", &pcmd, &pr, tmp_pred, o, p);
    if (st != DRV_OK)
        return st;
    /* the predictor first: once the new prog is in place its predictor is too */
    if (tmp_pred && !tmp_commit(tmp_pred, predict, 0777))
        return DRV_MISUSE;
    return tmp_commit(tmp_prog, p->output, 0777) ? DRV_OK : DRV_MISUSE;
}
