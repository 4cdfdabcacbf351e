/* bench/init_parts.c - where MPI's start goes: a library preloaded into each rank
 * (LD_PRELOAD) that times MPI_Init / MPI_Init_thread and MPI_Finalize, and inside them
 * the calls MPICH makes into hwloc (the node's topology) and UCX (its context, worker,
 * and one endpoint per peer). At exit each rank appends one line to the file named by
 * INIT_PARTS_OUT:
 *
 *   rank start init_begin init_end fin_begin fin_end hwloc ucp_init worker ep n_ep pmi n_pmi
 *
 * start, init_* and fin_* are wall-clock seconds (CLOCK_REALTIME, comparable between the
 * ranks of one host; start is this library's constructor, i.e. once the process is
 * loaded), the others seconds spent in those calls; pmi is the time spent reading the
 * launcher's answers on the PMI socket (hydra's PMI_FD: the key exchange and the
 * barriers that wait for the other ranks), n_pmi the number of reads. The line is written when
 * MPI_Finalize returns (a rank may leave with _exit). bench/init_parts.sh runs it.
 * Build: cc -O2 -shared -fPIC bench/init_parts.c -o init_parts.so -ldl */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/types.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void parts_write(void);
static double t_start, t_ib, t_ie, t_fb, t_fe, s_hwloc, s_ucp, s_worker, s_ep;
static long n_ep, n_pmi;
static double s_pmi;
static int pmi_fd = -1;

__attribute__((constructor)) static void parts_start(void)
{
    t_start = now();
    const char *fd = getenv("PMI_FD");
    if (fd)
        pmi_fd = atoi(fd);
}

static void *next(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "init_parts: no %s\n", name);
        abort();
    }
    return f;
}

/* TIMED(total, call): the call, its duration added to total */
#define TIMED(total, call)                                                                  \
    do {                                                                                    \
        double t0_ = now();                                                                 \
        r = call;                                                                           \
        total += now() - t0_;                                                               \
    } while (0)

int MPI_Init(int *argc, char ***argv);
int MPI_Init(int *argc, char ***argv)
{
    int (*f)(int *, char ***) = (int (*)(int *, char ***))next("MPI_Init");
    t_ib = now();
    int r = f(argc, argv);
    t_ie = now();
    return r;
}

int MPI_Init_thread(int *argc, char ***argv, int req, int *prov);
int MPI_Init_thread(int *argc, char ***argv, int req, int *prov)
{
    int (*f)(int *, char ***, int, int *) =
        (int (*)(int *, char ***, int, int *))next("MPI_Init_thread");
    t_ib = now();
    int r = f(argc, argv, req, prov);
    t_ie = now();
    return r;
}

int MPI_Finalize(void);
int MPI_Finalize(void)
{
    int (*f)(void) = (int (*)(void))next("MPI_Finalize");
    t_fb = now();
    int r = f();
    t_fe = now();
    parts_write();
    return r;
}

int hwloc_topology_load(void *topo);
int hwloc_topology_load(void *topo)
{
    int (*f)(void *) = (int (*)(void *))next("hwloc_topology_load");
    int r;
    TIMED(s_hwloc, f(topo));
    return r;
}

/* UCX's entries, by their ABI (pointers and an int status) */
int ucp_init_version(unsigned maj, unsigned min, const void *params, const void *config,
                     void **ctx);
int ucp_init_version(unsigned maj, unsigned min, const void *params, const void *config,
                     void **ctx)
{
    int (*f)(unsigned, unsigned, const void *, const void *, void **) =
        (int (*)(unsigned, unsigned, const void *, const void *, void **))next(
            "ucp_init_version");
    int r;
    TIMED(s_ucp, f(maj, min, params, config, ctx));
    return r;
}

int ucp_worker_create(void *ctx, const void *params, void **worker);
int ucp_worker_create(void *ctx, const void *params, void **worker)
{
    int (*f)(void *, const void *, void **) =
        (int (*)(void *, const void *, void **))next("ucp_worker_create");
    int r;
    TIMED(s_worker, f(ctx, params, worker));
    return r;
}

int ucp_ep_create(void *worker, const void *params, void **ep);
int ucp_ep_create(void *worker, const void *params, void **ep)
{
    int (*f)(void *, const void *, void **) =
        (int (*)(void *, const void *, void **))next("ucp_ep_create");
    int r;
    TIMED(s_ep, f(worker, params, ep));
    n_ep++;
    return r;
}

ssize_t read(int fd, void *buf, size_t n);
ssize_t read(int fd, void *buf, size_t n)
{
    static ssize_t (*f)(int, void *, size_t);
    if (!f)
        f = (ssize_t(*)(int, void *, size_t))next("read");
    if (fd != pmi_fd || pmi_fd < 0)
        return f(fd, buf, n);
    ssize_t r;
    TIMED(s_pmi, f(fd, buf, n));
    n_pmi++;
    return r;
}

static void parts_write(void)
{
    const char *out = getenv("INIT_PARTS_OUT");
    const char *rank = getenv("PMI_RANK");
    if (!out || t_ib == 0)
        return;
    FILE *f = fopen(out, "a");
    if (!f)
        return;
    fprintf(f, "%s %.6f %.6f %.6f %.6f %.6f %.6f %.6f %.6f %.6f %ld %.6f %ld\n",
            rank ? rank : "-", t_start, t_ib, t_ie, t_fb, t_fe, s_hwloc, s_ucp, s_worker, s_ep,
            n_ep, s_pmi, n_pmi);
    fclose(f);
}
