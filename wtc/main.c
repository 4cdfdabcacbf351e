/* main.c - wtcc, the Work-Time C compiler driver (SPEC 3).
 *
 *   1. preprocess:  <mpicc> -E -std=gnu11 -D__WTCC__=1 -I<lib>/include <-I -D -U> -x c file.wtc
 *   2. parse:       parse_translation_unit          (parser/)
 *   3. generate:    cg_generate -> <tmp>/<name>.c    (codegen/)
 *   4-6. build the program and the predictor, install them       (build.c)
 * or, with -E, copy the generated C to stdout / -o.
 */
#include "driver.h"
#include "version.h"
#include "ast.h"
#include "codegen.h"
#include "diag.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Can 'path' be read as a regular file? Prints the error when not. O_NONBLOCK: opening
   a FIFO would otherwise wait for a writer, and the preprocessor would wait again. */
static bool check_input(const char *path)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0 || fstat(fd, &st) != 0) {
        drv_error("cannot open '%s': %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return false;
    }
    close(fd);
    if (S_ISDIR(st.st_mode)) {
        drv_error("'%s' is a directory", path);
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        drv_error("'%s' is not a regular file", path);
        return false;
    }
    return true;
}

/* The output must go into an existing, writable directory and not overwrite the input. */
static bool check_output(const char *out, const char *in, bool emit_c)
{
    if (strcmp(out, "-") == 0) {
        if (emit_c)
            return true;
        drv_error("cannot write a program to standard output (use -E for the C code)");
        return false;
    }
    char *dir = drv_dirname(out);
    struct stat st, sin;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        drv_error("cannot write '%s': directory '%s' does not exist", out, dir);
        return false;
    }
    if (stat(out, &st) == 0 && S_ISDIR(st.st_mode)) {
        drv_error("cannot write '%s': it is a directory", out);
        return false;
    }
    if (drv_has_suffix(out, "/")) { /* 'nodir/' was called a directory */
        drv_error("cannot write '%s': a file name cannot end in '/'", out);
        return false;
    }
    if (stat(out, &st) == 0 && stat(in, &sin) == 0 && st.st_dev == sin.st_dev &&
        st.st_ino == sin.st_ino) {
        drv_error("output file '%s' is the input file", out);
        return false;
    }
    return true;
}

/* Does lib/wtc hold 'name'? Prints the error when not. */
static bool check_lib_file(const char *libdir, const char *name)
{
    char *p = drv_format("%s/%s", libdir, name);
    if (access(p, R_OK) == 0)
        return true;
    drv_error("the wtcc runtime file '%s' is missing: %s", p, strerror(errno));
    drv_note("rebuild wtcc ('make'), reinstall it, or fix WTC_LIBDIR");
    return false;
}

/* Every runtime file this run needs is present. */
static bool check_libdir(const char *libdir, const DrvOptions *o)
{
    if (!check_lib_file(libdir, "include/wtc_abi.h"))
        return false;
    if (o->emit_c || o->dump_ast)
        return true;
    /* the MPI runtime is found by the wrapper's MPI, once the input is known good
       (drv_mpi_runtime) */
    return o->no_predict || check_lib_file(libdir, "libwtcrt_sim.a");
}

/* Step 1: the preprocessed text of the input, or NULL (status in *st). */
static char *preprocess(const DrvOptions *o, const Paths *p, int *len, int *st)
{
    StrList cmd = {0};
    drv_wrap_begin(&cmd, o, WRAP_PREPROCESS);
    sl_push(&cmd, "-std=gnu11");
    sl_push(&cmd, "-D__WTCC__=1");
    sl_push(&cmd, drv_format("-I%s/include", p->libdir));
    sl_append(&cmd, &o->cpp_flags);
    drv_push_opt_flags(&cmd, o, OPT_PREPROCESS); /* as gcc would: -O defines __OPTIMIZE__ */
    sl_push(&cmd, "-x"); /* gcc would take an unknown suffix for a linker input */
    sl_push(&cmd, "c");
    sl_push(&cmd, o->input);
    drv_wrap_end(&cmd, o, WRAP_PREPROCESS);
    ToolResult r = drv_run(&cmd, CAPTURE_STDOUT);
    if (r.spawn_errno || r.signal) {
        *st = drv_tool_failed("the preprocessor", &cmd, &r);
        return NULL;
    }
    if (r.status != 0) {
        /* cpp printed its file:line: messages; a compiler that printed nothing (--cc=false,
           a broken wrapper) left the user with no word at all (a helper's bug hunt) */
        drv_error("preprocessing %s with '%s' failed (status %d)", o->input, o->mpicc,
                  r.status);
        *st = DRV_INPUT_ERROR;
        return NULL;
    }
    if (r.out_len > INT_MAX / 2) {
        drv_error("'%s' is too large after preprocessing", o->input);
        *st = DRV_MISUSE;
        return NULL;
    }
    *len = (int)r.out_len;
    return r.out;
}

/* Step 3: write the generated C into p->generated; note in p the user's lines it
   re-prints with other text (for the C compiler's messages, tidy.c). Returns an exit
   status. */
static int generate(TranslationUnit *tu, const DrvOptions *o, Paths *p)
{
    FILE *f = fopen(p->generated, "w");
    if (!f) {
        drv_error("cannot create '%s': %s", p->generated, strerror(errno));
        return DRV_MISUSE;
    }
    CgOptions cg = {o->mode_override, o->masters_override, o->check};
    int nerr = cg_generate(tu, &cg, f);
    bool write_failed = ferror(f) != 0;
    if (fclose(f) != 0 || write_failed) {
        drv_error("cannot write '%s': %s", p->generated, strerror(errno));
        return DRV_MISUSE;
    }
    if (nerr || diag_error_count())
        return DRV_INPUT_ERROR;
    const Loc *lines;
    p->nrewritten = cg_rewritten_lines(&lines);
    p->rewritten = drv_xmalloc(sizeof *p->rewritten * (size_t)(p->nrewritten + 1));
    for (int i = 0; i < p->nrewritten; i++)
        p->rewritten[i] = (DrvPlace){lines[i].file, lines[i].line};
    return DRV_OK;
}

/* Copy the file 'from' to the open stream 'to'. */
static bool copy_file(const char *from, FILE *to)
{
    FILE *in = fopen(from, "r");
    if (!in)
        return false;
    char buf[65536];
    size_t n;
    bool ok = true;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        ok = ok && fwrite(buf, 1, n, to) == n;
    ok = ok && !ferror(in);
    fclose(in);
    return ok;
}

/* -E: the generated C goes to stdout or, atomically, to -o. Returns an exit status. */
static int emit_c(const Paths *p)
{
    if (strcmp(p->output, "-") == 0) {
        if (!copy_file(p->generated, stdout) || fflush(stdout) != 0) {
            drv_error("cannot write the generated C to standard output: %s", strerror(errno));
            return DRV_MISUSE;
        }
        return DRV_OK;
    }
    char *tmp = tmp_beside(p->output);
    FILE *f = tmp ? fopen(tmp, "w") : NULL;
    if (!f) {
        drv_error("cannot write '%s': %s", p->output, strerror(errno));
        return DRV_MISUSE;
    }
    bool ok = copy_file(p->generated, f);
    if (fclose(f) != 0 || !ok) {
        drv_error("cannot write '%s': %s", p->output, strerror(errno));
        return DRV_MISUSE;
    }
    return tmp_commit(tmp, p->output, 0666) ? DRV_OK : DRV_MISUSE;
}

/* The file name of the generated C in the temporary directory: <name>.c. */
static const char *generated_name(const char *input)
{
    char *base = drv_basename(input);
    base[strlen(base) - 4] = '\0'; /* the input ends in .wtc (checked by the options) */
    return drv_format("%s.c", base);
}

/* Steps 1-3 then 4-6 (or -E, or --dump-ast). Returns the exit status. */
static int compile(const DrvOptions *o, Paths *p)
{
    int len = 0, st = DRV_OK;
    char *text = preprocess(o, p, &len, &st);
    if (!text)
        return st;
    TranslationUnit *tu = parse_translation_unit(o->input, text, len);
    if (o->dump_ast) {
        ast_dump(tu, stdout);
        return tu->nerrors ? DRV_INPUT_ERROR : DRV_OK;
    }
    if (tu->nerrors)
        return DRV_INPUT_ERROR;
    p->generated = tmp_path(generated_name(o->input));
    p->user_files = tu->files;
    p->nuser_files = tu->nfiles;
    st = generate(tu, o, p);
    if (st != DRV_OK)
        return st;
    return o->emit_c ? emit_c(p) : drv_build_and_install(o, p);
}

typedef struct Job {
    const DrvOptions *o;
    Paths *p;
} Job;

static int compile_job(void *job)
{
    Job *j = job;
    return compile(j->o, j->p);
}

/* -v: the version and the runtime directory, like gcc -v's first lines. */
static void print_banner(const Paths *p)
{
    fprintf(stderr, "wtcc %s\nruntime directory: %s\n", WTC_VERSION, p->libdir);
}

/* wtcc allocates and never frees: it exits after one compilation, as gcc does. Under
   AddressSanitizer (make asan) LeakSanitizer would report every such block once the
   compiling thread has ended, so leak detection is off for wtcc itself. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "detect_leaks=0";
}

int main(int argc, char **argv)
{
    DrvOptions o;
    int st = drv_parse_options(argc, argv, &o);
    if (st >= 0)
        return st;
    drv_set_verbose(o.verbose);
    Paths p = {0};
    p.output = o.dump_ast ? "-" : drv_output_path(&o);
    if (!check_input(o.input) || (!o.dump_ast && !check_output(p.output, o.input, o.emit_c)))
        return DRV_MISUSE;
    p.libdir = drv_find_libdir();
    if (!p.libdir || !check_libdir(p.libdir, &o))
        return DRV_MISUSE;
    if (o.verbose)
        print_banner(&p);
    tmp_init(o.keep_temps);
    diag_set_exit_hook(tmp_cleanup);
    Job job = {&o, &p};
    st = ast_run_deep(compile_job, &job); /* walks of deep trees need a deep stack */
    tmp_cleanup();
    return st;
}
