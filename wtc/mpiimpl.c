/* mpiimpl.c - which MPI runtime a program links (doc/wtcc.md "One runtime per MPI").
 *
 * A runtime archive is built for one MPI implementation: MPICH's MPI_Comm is an int,
 * Open MPI's a pointer, so linking the wrong one fails or, worse, runs wrong. lib/wtc
 * holds one per implementation, lib/wtc/<impl>/libwtcrt_mpi.a; the wrapper's own
 * preprocessor tells which <impl> it is, reading include/wtc_mpi_impl.h (the one place
 * that tells MPIs apart, also used by the Makefile) with -DWTC_MPI_IMPL_PRINT.
 */
#include "driver.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The implementation name in the probe's output ("WTC_MPI_IMPL_IS <name>"), or NULL. */
static char *impl_in(const char *out)
{
    static const char key[] = "WTC_MPI_IMPL_IS ";
    const char *s = out ? strstr(out, key) : NULL;
    if (!s)
        return NULL;
    s += sizeof key - 1;
    size_t n = strcspn(s, " \t\r\n");
    if (n == 0)
        return NULL;
    char *name = drv_format("%.*s", (int)n, s);
    return name;
}

/* The implementation of the wrapper o->mpicc, or NULL after an error message. */
static char *wrapper_impl(const DrvOptions *o, const char *libdir, int *st)
{
    StrList cmd = {0};
    drv_wrap_begin(&cmd, o, WRAP_PREPROCESS);
    sl_push(&cmd, "-P");
    sl_push(&cmd, "-DWTC_MPI_IMPL_PRINT");
    sl_append(&cmd, &o->cpp_flags); /* the user's -I may be where mpi.h is */
    sl_push(&cmd, "-x");
    sl_push(&cmd, "c");
    sl_push(&cmd, drv_format("%s/include/wtc_mpi_impl.h", libdir));
    drv_wrap_end(&cmd, o, WRAP_PREPROCESS);
    ToolResult r = drv_run(&cmd, CAPTURE_STDOUT);
    if (r.spawn_errno || r.signal) {
        *st = drv_tool_failed("asked which MPI it is", &cmd, &r);
        free(r.out);
        return NULL;
    }
    char *impl = r.status == 0 ? impl_in(r.out) : NULL;
    free(r.out); /* the preprocessed header: read, no longer needed */
    if (!impl) {
        drv_error("cannot tell which MPI '%s' compiles for: its preprocessor does not "
                  "find <mpi.h>", o->mpicc);
        drv_note("--cc= must name an MPI compiler wrapper (mpicc, mpicc.mpich, "
                 "mpicc.openmpi ...)");
        *st = DRV_MISUSE;
    }
    return impl;
}

/* The implementations lib/wtc has a runtime for, as "a, b", or "none". */
static char *runtimes_present(const char *libdir)
{
    DIR *d = opendir(libdir);
    char *list = NULL;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.' ||
            access(drv_format("%s/%s/libwtcrt_mpi.a", libdir, e->d_name), R_OK) != 0)
            continue;
        list = list ? drv_format("%s, %s", list, e->d_name) : drv_strdup(e->d_name);
    }
    if (d)
        closedir(d);
    return list ? list : "none";
}

/* The MPI runtime archive for o->mpicc, or NULL after an error message (*st set);
   *impl_out: the implementation's name. */
const char *drv_mpi_runtime(const DrvOptions *o, const char *libdir, const char **impl_out,
                            int *st)
{
    char *impl = wrapper_impl(o, libdir, st);
    if (!impl)
        return NULL;
    *impl_out = impl;
    char *lib = drv_format("%s/%s/libwtcrt_mpi.a", libdir, impl);
    if (access(lib, R_OK) == 0)
        return lib;
    int err = errno;
    drv_error("no wtcc runtime for the MPI of '%s' (%s): '%s': %s", o->mpicc, impl, lib,
              strerror(err));
    drv_note("this wtcc has runtimes for: %s; build one for '%s' with "
             "'make MPI_OTHERS=%s' in the wtcc tree", runtimes_present(libdir), o->mpicc,
             o->mpicc);
    *st = DRV_MISUSE;
    return NULL;
}
