/* options.c - the wtcc command line (SPEC 3): gcc-like flags plus the Work-Time C ones. */
#include "driver.h"
#include "version.h"
#include "../runtime/wtc_abi.h" /* WTC_MODE_*: the one ABI header */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage_text[] =
    "Usage: wtcc [options] file.wtc [-o prog]\n"
    "\n"
    "Compiles a Work-Time C program into an MPI program 'prog' and its performance\n"
    "predictor 'prog.predict'. Run the program with: mpiexec -n P ./prog [args]\n"
    "\n"
    "Options:\n"
    "  -o FILE              write the program to FILE (default: the source's base name\n"
    "                       without .wtc, in the current directory); the predictor\n"
    "                       goes to FILE.predict\n"
    "  --mode=simple|dynamic|dynamic:M|steal\n"
    "                       override every function's mode: (M masters, default 1;\n"
    "                       steal has no masters)\n"
    "  -E, --emit-c         write the generated C instead of building (to -o FILE,\n"
    "                       default standard output)\n"
    "  --no-predict         do not build prog.predict\n"
    "  --check              a checking build: every call of a recursive function\n"
    "                       checks its element counts against the heap block or\n"
    "                       array its pointers point into, on any number of\n"
    "                       processors (slower; doc/wtcc.md)\n"
    "  -I DIR, -D NAME[=V], -U NAME\n"
    "                       passed to the preprocessor and the C compiler\n"
    "  -L DIR, -l LIB       passed to the link\n"
    "  -O<level>, -g<...>, -W<warning>, -w, -pedantic, -f<option>, -m<option>\n"
    "                       passed to the C compiler (default -O2; C is -std=gnu11)\n"
    "  -Wl,<options>        passed to the link\n"
    "  --cc=WRAPPER         the MPI compiler wrapper (default mpicc; e.g. mpicc.openmpi:\n"
    "                       the runtime of its MPI is linked)\n"
    "  --host-cc=CC         the C compiler for the predictor, which needs no MPI\n"
    "                       (default cc)\n"
    "  -v                   print every command wtcc runs\n"
    "  --keep-temps         keep the temporary directory (its path is printed)\n"
    "  --dump-ast           print the syntax tree and stop\n"
    "  --help               print this text\n"
    "  --version            print the version\n"
    "\n"
    "Environment: WTC_LIBDIR overrides the runtime directory (default: ../lib/wtc\n"
    "relative to the wtcc executable).\n"
    "Exit status: 0 success, 1 error in the input, 2 misuse or a failed tool.\n";

/* A misuse of the command line: one message and a pointer to --help. */
static int misuse(const char *fmt, const char *arg)
{
    char *msg = drv_format(fmt, arg);
    drv_error("%s", msg);
    fprintf(stderr, "Try 'wtcc --help' for more information.\n");
    return DRV_MISUSE;
}

/* --mode=simple|dynamic|dynamic:M|steal -> the CgOptions overrides. Returns false if
   invalid (steal, like simple, takes no ":M": it has no masters). */
static bool parse_mode(const char *s, DrvOptions *o)
{
    if (strcmp(s, "simple") == 0 || strcmp(s, "steal") == 0) {
        o->mode_override = strcmp(s, "simple") == 0 ? WTC_MODE_SIMPLE : WTC_MODE_STEAL;
        o->masters_override = 0;
        return true;
    }
    if (strncmp(s, "dynamic", 7) != 0 || (s[7] != '\0' && s[7] != ':'))
        return false;
    o->mode_override = WTC_MODE_DYNAMIC;
    o->masters_override = 0;
    if (s[7] == '\0')
        return true;
    char *end;
    errno = 0;
    long m = strtol(s + 8, &end, 10);
    if (s[8] < '0' || s[8] > '9' || *end || errno || m < 1 || m > 1000000)
        return false;
    o->masters_override = (int)m;
    return true;
}

/* The value of an option written "-XVALUE" or "-X VALUE"; NULL when it is missing. */
static const char *option_value(int argc, char **argv, int *i)
{
    if (argv[*i][2])
        return argv[*i] + 2;
    if (*i + 1 < argc)
        return argv[++*i];
    return NULL;
}

/* -I -D -U -L -l -o: options that take a value. Returns -1, or an exit status. */
static int parse_valued(int argc, char **argv, int *i, DrvOptions *o)
{
    char letter = argv[*i][1];
    char name[3] = {'-', letter, '\0'};
    const char *v = option_value(argc, argv, i);
    if (!v || !*v)
        return misuse("missing argument to '%s'", name);
    switch (letter) {
    case 'o':
        if (o->output)
            return misuse("two output files given ('-o %s' and another)", v);
        o->output = v;
        break;
    case 'I': case 'D': case 'U':
        sl_push(&o->cpp_flags, drv_format("-%c%s", letter, v));
        break;
    default: /* 'L', 'l' */
        sl_push(&o->link_flags, drv_format("-%c%s", letter, v));
        break;
    }
    return -1;
}

/* Options spelled with two dashes. Returns -1, or an exit status. */
static int parse_long(const char *a, DrvOptions *o)
{
    if (strcmp(a, "--help") == 0) {
        fputs(usage_text, stdout);
        return DRV_OK;
    }
    if (strcmp(a, "--version") == 0) {
        printf("wtcc %s\n", WTC_VERSION);
        return DRV_OK;
    }
    if (strcmp(a, "--emit-c") == 0)
        o->emit_c = true;
    else if (strcmp(a, "--no-predict") == 0)
        o->no_predict = true;
    else if (strcmp(a, "--check") == 0)
        o->check = true;
    else if (strcmp(a, "--keep-temps") == 0)
        o->keep_temps = true;
    else if (strcmp(a, "--dump-ast") == 0)
        o->dump_ast = true;
    else if (strncmp(a, "--mode=", 7) == 0) {
        if (strncmp(a + 7, "steal:", 6) == 0)
            return misuse("invalid '%s' (mode steal has no masters: every processor "
                          "computes; write --mode=steal)", a);
        if (!parse_mode(a + 7, o))
            return misuse("invalid '%s' (expected --mode=simple, --mode=dynamic, "
                          "--mode=dynamic:M with M >= 1, or --mode=steal)", a);
    } else if (strncmp(a, "--cc=", 5) == 0 && a[5])
        o->mpicc = a + 5;
    else if (strncmp(a, "--host-cc=", 10) == 0 && a[10])
        o->host_cc = a + 10;
    else
        return misuse("unrecognized command-line option '%s'", a);
    return -1;
}

/* One option starting with '-'. Returns -1 to go on, or an exit status. */
static int parse_one(int argc, char **argv, int *i, DrvOptions *o)
{
    const char *a = argv[*i];
    if (a[1] == '-')
        return parse_long(a, o);
    if (strchr("oIDULl", a[1]))
        return parse_valued(argc, argv, i, o);
    if (a[1] == 'O') {
        sl_push(&o->opt_flags, a);
        o->have_opt_level = true;
    } else if (a[1] == 'g' || (a[1] == 'W' && strncmp(a, "-Wl,", 4) != 0) ||
               strcmp(a, "-w") == 0 || (a[1] == 'f' && a[2]) || (a[1] == 'm' && a[2]) ||
               strcmp(a, "-pedantic") == 0 || strcmp(a, "-pedantic-errors") == 0)
        sl_push(&o->opt_flags, a); /* -g*, warnings, -f*, -m*: the C compiler's business */
    else if (strncmp(a, "-std=", 5) == 0)
        return misuse("'%s': wtcc compiles Work-Time C as -std=gnu11 (C11 with the GNU "
                      "extensions that the generated code uses); give no -std", a);
    else if (strncmp(a, "-Wl,", 4) == 0 && a[4])
        sl_push(&o->link_flags, a);
    else if (strcmp(a, "-E") == 0)
        o->emit_c = true;
    else if (strcmp(a, "-v") == 0)
        o->verbose = true;
    else
        return misuse("unrecognized command-line option '%s'", a);
    return -1;
}

/* Record the input file; exactly one, ending in .wtc. Returns -1, or an exit status. */
static int set_input(const char *a, DrvOptions *o)
{
    if (o->input)
        return misuse("two input files ('%s'); wtcc compiles one file.wtc "
                      "per run", drv_format("%s' and '%s", o->input, a));
    if (!drv_has_suffix(a, ".wtc") || strlen(a) == 4 || drv_has_suffix(a, "/.wtc"))
        return misuse("input file '%s' does not end in .wtc (rename a C file to .wtc: "
                      "every C11 file is a Work-Time C file)", a);
    /* a name that starts with '-' (given after "--") reaches the tools as ./NAME: gcc
       took "-x c -dash.wtc" for an option ("no input files") */
    o->input = a[0] == '-' ? drv_format("./%s", a) : a;
    return -1;
}

/* Parse argv into *o. Returns -1 to go on, or an exit status (--help, --version, misuse). */
int drv_parse_options(int argc, char **argv, DrvOptions *o)
{
    memset(o, 0, sizeof *o);
    o->mpicc = "mpicc";
    o->host_cc = "cc";
    bool options_done = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int st;
        if (!options_done && strcmp(a, "--") == 0) {
            options_done = true; /* "--" ends the options: a file may start with '-' */
            continue;
        }
        if (!options_done && a[0] == '-' && a[1])
            st = parse_one(argc, argv, &i, o);
        else
            st = set_input(a, o);
        if (st >= 0)
            return st;
    }
    if (!o->input)
        return misuse("no input file%s", "");
    return -1;
}

/* The output file: -o, else the input's base name without .wtc (in the current directory). */
const char *drv_output_path(const DrvOptions *o)
{
    if (o->output)
        return o->output;
    if (o->emit_c)
        return "-";
    char *base = drv_basename(o->input);
    base[strlen(base) - 4] = '\0';
    return base;
}
