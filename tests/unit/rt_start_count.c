/* rt_start_count.c - an MPI profiling-interface shim for tests/unit/rt_start.sh (built
   as a shared object and preloaded): each rank prints at MPI_Finalize the collectives it
   called between MPI_Init and its first point-to-point send, how many MPI_Iprobe it
   called in all, HWLOC_COMPONENTS, UCX_TLS and MPIR_CVAR_NOLOCAL as MPI_Init saw them
   and as they are at the end, whether UCX's memory events were on at MPI_Init (1, 0, or
   - without UCX's headers), and whether the library is MPICH over ch4:ucx. With
   WTC_TEST_NO_CMA set, process_vm_writev fails as under a seccomp filter that refuses
   it: UCX then has no cma transport, and the runtime must not name it in UCX_TLS. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#if defined(__has_include)
#if __has_include(<ucm/api/ucm.h>)
#include <ucm/api/ucm.h>
#define HAVE_UCM 1
#endif
#endif

static char start[256], hwloc_init[128], ucx_init[128], nolocal_init[128], how[64];
static const char *memev = "-";
static int sent;
static long probes;

ssize_t process_vm_writev(pid_t pid, const struct iovec *l, unsigned long nl,
                          const struct iovec *r, unsigned long nr, unsigned long flags)
{
    if (getenv("WTC_TEST_NO_CMA")) {
        errno = EPERM;
        return -1;
    }
    return syscall(SYS_process_vm_writev, pid, l, nl, r, nr, flags);
}

static const char *env(const char *name)
{
    const char *s = getenv(name);
    return s ? s : "(unset)";
}

/* the environment MPI starts with, and who starts it */
static void record(const char *call)
{
    snprintf(hwloc_init, sizeof hwloc_init, "%s", env("HWLOC_COMPONENTS"));
    snprintf(ucx_init, sizeof ucx_init, "%s", env("UCX_TLS"));
    snprintf(nolocal_init, sizeof nolocal_init, "%s", env("MPIR_CVAR_NOLOCAL"));
#ifdef HAVE_UCM
    const ucm_global_config_t *opts = dlsym(RTLD_DEFAULT, "ucm_global_opts");
    if (opts)
        memev = opts->enable_events ? "1" : "0";
#endif
    snprintf(how, sizeof how, "%s %s", call,
             syscall(SYS_gettid) == getpid() ? "main" : "thread");
}

int MPI_Init(int *argc, char ***argv)
{
    record("MPI_Init");
    return PMPI_Init(argc, argv);
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    record("MPI_Init_thread");
    return PMPI_Init_thread(argc, argv, required, provided);
}

static void note(const char *name)
{
    if (!sent && strlen(start) + strlen(name) + 2 < sizeof start) {
        strcat(start, " ");
        strcat(start, name);
    }
}

int MPI_Comm_dup(MPI_Comm c, MPI_Comm *n)
{
    note("Comm_dup");
    return PMPI_Comm_dup(c, n);
}

int MPI_Comm_idup(MPI_Comm c, MPI_Comm *n, MPI_Request *r)
{
    note("Comm_idup");
    return PMPI_Comm_idup(c, n, r);
}

int MPI_Iallgather(const void *a, int b, MPI_Datatype c, void *d, int e, MPI_Datatype f,
                   MPI_Comm g, MPI_Request *r)
{
    note("Iallgather");
    return PMPI_Iallgather(a, b, c, d, e, f, g, r);
}

int MPI_Iallreduce(const void *a, void *b, int c, MPI_Datatype d, MPI_Op e, MPI_Comm f,
                   MPI_Request *r)
{
    note("Iallreduce");
    return PMPI_Iallreduce(a, b, c, d, e, f, r);
}

int MPI_Ibarrier(MPI_Comm c, MPI_Request *r)
{
    note("Ibarrier");
    return PMPI_Ibarrier(c, r);
}

int MPI_Allgather(const void *a, int b, MPI_Datatype c, void *d, int e, MPI_Datatype f,
                  MPI_Comm g)
{
    note("Allgather");
    return PMPI_Allgather(a, b, c, d, e, f, g);
}

int MPI_Allreduce(const void *a, void *b, int c, MPI_Datatype d, MPI_Op e, MPI_Comm f)
{
    note("Allreduce");
    return PMPI_Allreduce(a, b, c, d, e, f);
}

int MPI_Barrier(MPI_Comm c)
{
    note("Barrier");
    return PMPI_Barrier(c);
}

int MPI_Bcast(void *a, int b, MPI_Datatype c, int d, MPI_Comm e)
{
    note("Bcast");
    return PMPI_Bcast(a, b, c, d, e);
}

int MPI_Isend(const void *a, int b, MPI_Datatype c, int d, int e, MPI_Comm f, MPI_Request *g)
{
    sent = 1;
    return PMPI_Isend(a, b, c, d, e, f, g);
}

int MPI_Issend(const void *a, int b, MPI_Datatype c, int d, int e, MPI_Comm f, MPI_Request *g)
{
    sent = 1;
    return PMPI_Issend(a, b, c, d, e, f, g);
}

int MPI_Iprobe(int a, int b, MPI_Comm c, int *d, MPI_Status *e)
{
    probes++;
    return PMPI_Iprobe(a, b, c, d, e);
}

int MPI_Finalize(void)
{
    int r, len = 0;
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    PMPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Get_library_version(version, &len);
    fprintf(stderr, "rank %d start:%s\nrank %d probes %ld\nrank %d hwloc %s %s\n"
            "rank %d ucx %s %s\nrank %d nolocal %s %s\nrank %d memev %s\nrank %d ch4:ucx %s\n"
            "rank %d how %s\n",
            r, start, r,
            probes, r, hwloc_init, env("HWLOC_COMPONENTS"), r, ucx_init, env("UCX_TLS"), r,
            nolocal_init, env("MPIR_CVAR_NOLOCAL"), r, memev, r,
            strstr(version, "Device:\tch4:ucx") ? "yes" : "no", r, how);
    return PMPI_Finalize();
}
