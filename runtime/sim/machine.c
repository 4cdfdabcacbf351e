/* sim/machine.c - machine files (SPEC 5.1) and the extended LogGPS costs (SPEC 5.4).
 *
 * A machine file is "key = value" lines with '#' comments. The parser is strict on
 * purpose: a typo in a key would otherwise silently predict for the wrong machine. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sim.h"
#include "wtcrt.h"

/* The shipped presets, compiled in so that prog.predict works without lib/wtc. Keep
   them byte-identical to the files in machines/ (tests/unit/sim_machine.sh checks). */
static const char preset_ethernet[] =
    "# MPICH 1.2 over 100 Mb/s Ethernet, Pentium III 1 GHz cluster (2004).\n"
    "# Extended LogGPS parameters of Mizutani's thesis, table 3.2; all times in seconds.\n"
    "#   o_s = 12.1 + 0.182 P + 0.0708 k us,   o_r = 12.1 + 0.182 P + 0.0722 k us\n"
    "name = ethernet-mpich-2004\n"
    "L = 50e-6\n"
    "G = 0.0268e-6\n"
    "o_sa = 12.1e-6\n"
    "o_sb = 0.182e-6\n"
    "O_s = 0.0708e-6\n"
    "o_ra = 12.1e-6\n"
    "o_rb = 0.182e-6\n"
    "O_r = 0.0722e-6\n"
    "# MPICH ch_p4's eager limit\n"
    "S = 131072\n"
    "# a master's time to answer one request (the thesis' 148 us)\n"
    "t_m = 148e-6\n"
    "cpu_ratio = 1\n"
    "# beyond the thesis: the wtcc runtime's waiting (a yield phase, then sleep; across\n"
    "# hosts no doorbell rings, a sleeper polls every 100 us: half of that on average),\n"
    "# its cost per child, and no slow-down of ranks computing side by side (one per node)\n"
    "w_yield = 10e-6\n"
    "w_wake = 50e-6\n"
    "t_child = 0.5e-6\n"
    "contention = 0\n"
    "# one rank per node: each node's Ethernet port sends and receives one message at a time\n"
    "# t_poll absent (0): across nodes each poll of a worker asks MPI (two MPI_Iprobe), a\n"
    "# cost not published (MPICH over shared memory: 0.04 us; SimGrid SMPI: 1.4 us)\n"
    "ranks_per_node = 1\n";

static const char preset_loopback[] =
    "# A guess for MPICH 4 (ch4, shared memory) with every rank on one host, for when\n"
    "# this host has not been calibrated (run: mpiexec -n P bin/wtc-calibrate -o FILE).\n"
    "# All times in seconds.\n"
    "name = loopback-default\n"
    "L = 0.5e-6\n"
    "G = 0.2e-9\n"
    "o_sa = 0.4e-6\n"
    "o_sb = 0.01e-6\n"
    "O_s = 0.1e-9\n"
    "o_ra = 0.4e-6\n"
    "o_rb = 0.01e-6\n"
    "O_r = 0.1e-9\n"
    "S = 65536\n"
    "t_m = 2e-6\n"
    "cpu_ratio = 1\n"
    "# the wtcc runtime's waiting: yields for w_yield (100 us with a core per rank), then\n"
    "# sleeps on the doorbell, which a sender rings: w_wake to wake up; t_child: the\n"
    "# runtime's cost of one child;\n"
    "# computing ranks slow each other by contention\n"
    "w_yield = 100e-6\n"
    "w_wake = 10e-6\n"
    "t_child = 0.15e-6\n"
    "contention = 0.1\n"
    "# one host: this host's cores (ranks beyond them share the cores)\n"
    "cores = host\n";

static const char preset_10g[] =
    "# 10 Gb/s Ethernet, MPI over kernel TCP (MPICH family), one rank per node.\n"
    "# Published ping-pong (OSU 5.6.1, 10 runs, AWS c5n.18xlarge, TCP, whose one flow is\n"
    "# capped at 10 Gb/s; github.com/JiaweiZhuang/aws-mpi-benchmark,\n"
    "# notebooks/pt2pt_summary.ipynb): osu_latency 0 B 34.7 us (Intel MPI 2019 over TCP,\n"
    "# MPICH-based), osu_bw 1177 MB/s; MPICH 3.3 osu_bibw 2343 MB/s = 2 x 1172 (full\n"
    "# duplex). Our split of the 34.7 us: o_s = o_r = 5 us (the socket calls), L = 24.7 us.\n"
    "# All times in seconds.\n"
    "name = ethernet-10g-mpich\n"
    "L = 24.7e-6\n"
    "G = 0.85e-9\n"
    "o_sa = 5e-6\n"
    "o_sb = 0.01e-6\n"
    "O_s = 0.1e-9\n"
    "o_ra = 5e-6\n"
    "o_rb = 0.01e-6\n"
    "O_r = 0.1e-9\n"
    "# MPICH's eager limit over TCP\n"
    "S = 65536\n"
    "t_m = 10e-6\n"
    "cpu_ratio = 1\n"
    "# the wtcc runtime: across nodes no doorbell rings, a sleeper polls every 100 us\n"
    "w_yield = 100e-6\n"
    "w_wake = 50e-6\n"
    "t_child = 0.15e-6\n"
    "contention = 0\n"
    "# t_poll absent (0): across nodes each poll of a worker asks MPI (two MPI_Iprobe), a\n"
    "# cost not published (MPICH over shared memory: 0.04 us; SimGrid SMPI: 1.4 us)\n"
    "ranks_per_node = 1\n"
    "# for ranks_per_node > 1: shared memory, 0.35 us (osu_latency over libfabric shm,\n"
    "# github.com/ofiwg/libfabric pull 8680) and 4 MiB in ~0.52 ms (MPICH ch4 shm, inter-NUMA,\n"
    "# github.com/pmodels/mpich pull 7150): 0.125 ns/B\n"
    "L_intra = 0.35e-6\n"
    "G_intra = 0.125e-9\n";

static const char preset_25g[] =
    "# 25 Gb/s Ethernet, Open MPI over kernel TCP, one rank per node.\n"
    "# The link: iperf3 over 24 Gb/s between two AWS c5.18xlarge (25 Gb/s) instances\n"
    "# (github.com/open-mpi/ompi issue 6521, Open MPI 4.0.0): G = 1 / 3 GB/s. The kernel's TCP\n"
    "# path, not the link, sets the latency: as in ethernet-10g-mpich (osu_latency 34.7 us,\n"
    "# github.com/JiaweiZhuang/aws-mpi-benchmark), split o_s = o_r = 5 us, L = 24.7 us.\n"
    "# All times in seconds.\n"
    "name = ethernet-25g-openmpi\n"
    "L = 24.7e-6\n"
    "G = 0.333e-9\n"
    "o_sa = 5e-6\n"
    "o_sb = 0.01e-6\n"
    "O_s = 0.1e-9\n"
    "o_ra = 5e-6\n"
    "o_rb = 0.01e-6\n"
    "O_r = 0.1e-9\n"
    "# Open MPI's TCP eager limit (btl_tcp_eager_limit)\n"
    "S = 65536\n"
    "t_m = 10e-6\n"
    "cpu_ratio = 1\n"
    "# the wtcc runtime: across nodes no doorbell rings, a sleeper polls every 100 us\n"
    "w_yield = 100e-6\n"
    "w_wake = 50e-6\n"
    "t_child = 0.15e-6\n"
    "contention = 0\n"
    "# t_poll absent (0): across nodes each poll of a worker asks MPI (two MPI_Iprobe), a\n"
    "# cost not published (MPICH over shared memory: 0.04 us; SimGrid SMPI: 1.4 us)\n"
    "ranks_per_node = 1\n"
    "# for ranks_per_node > 1: shared memory, 0.35 us (osu_latency over libfabric shm,\n"
    "# github.com/ofiwg/libfabric pull 8680) and 4 MiB in ~0.52 ms (MPICH ch4 shm, inter-NUMA,\n"
    "# github.com/pmodels/mpich pull 7150): 0.125 ns/B\n"
    "L_intra = 0.35e-6\n"
    "G_intra = 0.125e-9\n";

static const char preset_100g[] =
    "# 100 Gb/s Ethernet with OS bypass (AWS EFA over libfabric), Intel MPI 2019 (MPICH-based),\n"
    "# one rank per node. Published ping-pong (OSU 5.6.1, 10 runs, AWS c5n.18xlarge;\n"
    "# github.com/JiaweiZhuang/aws-mpi-benchmark, notebooks/pt2pt_summary.ipynb):\n"
    "# osu_latency 0 B 16.1 us, 8 KiB 22.5 us, 16 KiB 59.7 us (the eager limit is between),\n"
    "# osu_bw 9146 MB/s at 1 MiB. Our split of the 16.1 us: o_s = o_r = 2 us, L = 12.1 us.\n"
    "# All times in seconds.\n"
    "name = ethernet-100g-efa\n"
    "L = 12.1e-6\n"
    "G = 0.109e-9\n"
    "o_sa = 2e-6\n"
    "o_sb = 0.01e-6\n"
    "O_s = 0.05e-9\n"
    "o_ra = 2e-6\n"
    "o_rb = 0.01e-6\n"
    "O_r = 0.05e-9\n"
    "S = 8192\n"
    "t_m = 4e-6\n"
    "cpu_ratio = 1\n"
    "# the wtcc runtime: across nodes no doorbell rings, a sleeper polls every 100 us\n"
    "w_yield = 100e-6\n"
    "w_wake = 50e-6\n"
    "t_child = 0.15e-6\n"
    "contention = 0\n"
    "# t_poll absent (0): across nodes each poll of a worker asks MPI (two MPI_Iprobe), a\n"
    "# cost not published (MPICH over shared memory: 0.04 us; SimGrid SMPI: 1.4 us)\n"
    "ranks_per_node = 1\n"
    "# for ranks_per_node > 1: shared memory, 0.35 us (osu_latency over libfabric shm,\n"
    "# github.com/ofiwg/libfabric pull 8680) and 4 MiB in ~0.52 ms (MPICH ch4 shm, inter-NUMA,\n"
    "# github.com/pmodels/mpich pull 7150): 0.125 ns/B\n"
    "L_intra = 0.35e-6\n"
    "G_intra = 0.125e-9\n";

static const char preset_hdr[] =
    "# InfiniBand HDR (200 Gb/s), Open MPI with UCX (NVIDIA HPC-X), one rank per node.\n"
    "# Published figures of Azure HBv3 (HDR, non-blocking fat tree; \"HBv3-series VM\n"
    "# performance\", learn.microsoft.com / docs.azure.cn): MPI latency 1.2 us (1 byte,\n"
    "# osu_latency), 192 Gb/s one way (osu_bw; the page writes GB/s, which an HDR link cannot\n"
    "# carry): G = 1 / 24 GB/s. Our split of the 1.2 us: o_s = o_r = 0.2 us, L = 0.8 us.\n"
    "# All times in seconds.\n"
    "name = infiniband-hdr-openmpi\n"
    "L = 0.8e-6\n"
    "G = 0.0417e-9\n"
    "o_sa = 0.2e-6\n"
    "o_sb = 0.001e-6\n"
    "O_s = 0.02e-9\n"
    "o_ra = 0.2e-6\n"
    "o_rb = 0.001e-6\n"
    "O_r = 0.02e-9\n"
    "# UCX switches to rendezvous around 8-16 KiB\n"
    "S = 16384\n"
    "t_m = 0.5e-6\n"
    "cpu_ratio = 1\n"
    "# the wtcc runtime: across nodes no doorbell rings, a sleeper polls every 100 us\n"
    "w_yield = 100e-6\n"
    "w_wake = 50e-6\n"
    "t_child = 0.15e-6\n"
    "contention = 0\n"
    "# t_poll absent (0): across nodes each poll of a worker asks MPI (two MPI_Iprobe), a\n"
    "# cost not published (MPICH over shared memory: 0.04 us; SimGrid SMPI: 1.4 us)\n"
    "ranks_per_node = 1\n"
    "# for ranks_per_node > 1: shared memory, 0.35 us (osu_latency over libfabric shm,\n"
    "# github.com/ofiwg/libfabric pull 8680) and 4 MiB in ~0.52 ms (MPICH ch4 shm, inter-NUMA,\n"
    "# github.com/pmodels/mpich pull 7150): 0.125 ns/B\n"
    "L_intra = 0.35e-6\n"
    "G_intra = 0.125e-9\n";

static const struct { const char *name, *text; } presets[] = {
    { "ethernet-mpich-2004", preset_ethernet },
    { "loopback-default", preset_loopback },
    { "ethernet-10g-mpich", preset_10g },
    { "ethernet-25g-openmpi", preset_25g },
    { "ethernet-100g-efa", preset_100g },
    { "infiniband-hdr-openmpi", preset_hdr },
};

void sim_machine_preset_names(char *buf, size_t size)
{
    size_t n = 0;
    if (size)
        buf[0] = 0;
    for (size_t i = 0; i < sizeof presets / sizeof presets[0] && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "", presets[i].name);
}

const char *sim_machine_preset(const char *name)
{
    size_t n = strlen(name);
    if (n > 5 && strcmp(name + n - 5, ".conf") == 0)
        n -= 5;
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
        if (strlen(presets[i].name) == n && strncmp(presets[i].name, name, n) == 0)
            return presets[i].text;
    return NULL;
}

/* The keys, in file order, with where each lives in sim_machine and the range a real
   machine can have (a value outside it is a typo or a unit slip: 1e308 s/B printed inf
   predictions, cpu_ratio = 1e-300 300-digit times). */
enum { K_NAME, K_L, K_G, K_OSA, K_OSB, K_OS, K_ORA, K_ORB, K_OR, K_S, K_TM, K_CPU,
       K_WY, K_WW, K_TC, K_CONT, K_CORES, K_WYO, K_RPN, K_LI, K_GI, K_PROCS, K_TP, K_ORR,
       K_OSU, K_GU, K_ORU, K_TTC, K_TTCF, K_IC, K_LW, K_NDB, K_JL, K_JLP, K_JS, K_JSP,
       K_JE, K_JEP, K_PS, K_PF, K_PM, K_TPK, K_TST, K_SPD, K_N };
#define K_REQUIRED K_CORES /* the keys from K_CORES on are optional */
static const struct {
    const char *name;
    double lo, hi;    /* the physical range, both ends included */
    int integer;      /* a count */
    const char *unit; /* for the message */
} keys[K_N] = {
    { "name", 0, 0, 0, "" },
    { "L", 0, 1, 0, "s" },
    { "G", 0, 1e-3, 0, "s per byte" },
    { "o_sa", 0, 1, 0, "s" },
    { "o_sb", 0, 0.1, 0, "s per rank" },
    { "O_s", 0, 1e-3, 0, "s per byte" },
    { "o_ra", 0, 1, 0, "s" },
    { "o_rb", 0, 0.1, 0, "s per rank" },
    { "O_r", 0, 1e-3, 0, "s per byte" },
    { "S", 0, 1e15, 0, "bytes" },
    { "t_m", 0, 10, 0, "s" },
    { "cpu_ratio", 1e-6, 1e6, 0, "" },
    { "w_yield", 0, 10, 0, "s" },
    { "w_wake", 0, 10, 0, "s" },
    { "t_child", 0, 1, 0, "s" },
    { "contention", 0, 100, 0, "" },
    { "cores", 1, 1e6, 1, "" }, /* 0 was taken as absent, silently */
    { "w_yield_over", 0, 10, 0, "s" },
    { "ranks_per_node", 1, 1e6, 1, "" },
    { "L_intra", 0, 1, 0, "s" },
    { "G_intra", 0, 1e-3, 0, "s per byte" },
    { "procs", 1, 1e7, 1, "" },
    { "t_poll", 0, 1, 0, "s" },
    { "O_r_result", 0, 1e-3, 0, "s per byte" },
    { "O_s_reuse", 0, 1e-3, 0, "s per byte" },
    { "G_reuse", 0, 1e-3, 0, "s per byte" },
    { "O_r_reuse", 0, 1e-3, 0, "s per byte" },
    { "t_task_child", 0, 1, 0, "s" },
    { "t_task_child_fresh", 0, 1, 0, "s" },
    { "intra_copy", 0, 1, 1, "" },
    { "leaf_wait", 0, 1, 1, "" },
    { "no_doorbell", 0, 1, 1, "" },
    { "t_launch", 0, 100, 0, "s" },
    { "t_launch_p", 0, 1, 0, "s per rank" },
    { "t_start", 0, 100, 0, "s" },
    { "t_start_p", 0, 1, 0, "s per rank" },
    { "t_end", 0, 100, 0, "s" },
    { "t_end_p", 0, 1, 0, "s per rank" },
    { "t_page_shared", 0, 1e-3, 0, "s per page" },
    { "t_page_free", 0, 1e-3, 0, "s per page" },
    { "t_page_map", 0, 1e-3, 0, "s per page" },
    { "t_pack_child", 0, 1, 0, "s" },
    { "t_store_child", 0, 1, 0, "s" },
    { "speed_spread", 0, 0.5, 0, "(a fraction)" },
};

static double *key_slot(sim_machine *m, int k)
{
    double *slots[K_N] = { NULL, &m->L, &m->G, &m->o_sa, &m->o_sb, &m->O_s, &m->o_ra,
                           &m->o_rb, &m->O_r, &m->S, &m->t_m, &m->cpu_ratio,
                           &m->w_yield, &m->w_wake, &m->t_child, &m->contention,
                           &m->cores, &m->w_yield_over, &m->ranks_per_node, &m->L_intra,
                           &m->G_intra, &m->procs, &m->t_poll, &m->O_r_result,
                           &m->O_s_reuse, &m->G_reuse, &m->O_r_reuse, &m->t_task_child,
                           &m->t_task_child_fresh, &m->intra_copy, &m->leaf_wait,
                           &m->no_doorbell, &m->t_launch, &m->t_launch_p, &m->t_start,
                           &m->t_start_p, &m->t_end, &m->t_end_p, &m->t_page_shared,
                           &m->t_page_free, &m->t_page_map, &m->t_pack_child,
                           &m->t_store_child, &m->speed_spread };
    return slots[k];
}

/* The key whose value optional key k takes when a machine file leaves k out (0: none,
   k has a default of its own). */
static int source_of(int k)
{
    static const int src[K_N] = { [K_WYO] = K_WY, [K_LI] = K_L,   [K_GI] = K_G,
                                  [K_ORR] = K_OR, [K_OSU] = K_OS, [K_GU] = K_G,
                                  [K_ORU] = K_OR, [K_TTCF] = K_TTC };
    return src[k];
}

static int fail(char *err, size_t errsz, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Formats an error message and returns -1. */
static int fail(char *err, size_t errsz, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errsz)
        vsnprintf(err, errsz, fmt, ap);
    va_end(ap);
    return -1;
}

/* Trims spaces at both ends of s in place. */
static char *trim(char *s)
{
    char *e;
    while (isspace((unsigned char)*s))
        s++;
    e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = 0;
    return s;
}

/* The value of number key k: a finite number within the key's physical range (a count
   for counts). The one check of a value, for machine files and --wtc-vary. */
static int parse_value(const char *val, int k, double *v)
{
    char *end;
    if (k == K_CORES && strcmp(val, "host") == 0) {
        /* a machine that is this host (the loopback preset): the cores of the host the
           predictor runs on, as wtc-calibrate writes them */
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        *v = n > 0 ? (double)n : 1;
        return 0;
    }
    errno = 0;
    *v = strtod(val, &end);
    if (!*val || *end || (errno && errno != ERANGE) || !isfinite(*v) || *v < 0)
        return -1;
    if (*v < keys[k].lo || *v > keys[k].hi || (keys[k].integer && *v != floor(*v)))
        return -1;
    return 0;
}

/* What is wrong with a value that parse_value refused. */
static const char *value_error(const char *val, int k)
{
    static char buf[256];
    char *end;
    double v;
    errno = 0;
    v = strtod(val, &end);
    if (!*val || *end || (errno && errno != ERANGE) || !isfinite(v) || v < 0)
        snprintf(buf, sizeof buf, "bad number '%.100s' for key '%s'", val, keys[k].name);
    else
        snprintf(buf, sizeof buf, "key '%s' = %.100s is outside %s%g to %g%s%s", keys[k].name,
                 val, keys[k].integer ? "the whole numbers " : "", keys[k].lo, keys[k].hi,
                 *keys[k].unit ? " " : "", keys[k].unit);
    return buf;
}

/* key = value on one line (comment already removed). */
static int parse_line(char *line, const char *file, int lineno, sim_machine *m,
                      int *seen, char *err, size_t errsz)
{
    char *eq = strchr(line, '='), *key, *val;
    int k;
    double v;
    if (!eq)
        return fail(err, errsz, "%s:%d: expected 'key = value'", file, lineno);
    *eq = 0;
    key = trim(line);
    val = trim(eq + 1);
    for (k = 0; k < K_N && strcmp(key, keys[k].name) != 0; k++)
        ;
    if (k == K_N)
        return fail(err, errsz, "%s:%d: unknown key '%s'", file, lineno, key);
    if (seen[k])
        return fail(err, errsz, "%s:%d: key '%s' given twice", file, lineno, key);
    seen[k] = lineno;
    if (k == K_NAME) {
        if (!*val)
            return fail(err, errsz, "%s:%d: empty value for key 'name'", file, lineno);
        snprintf(m->name, sizeof m->name, "%s", val);
        return 0;
    }
    if (parse_value(val, k, &v) < 0)
        return fail(err, errsz, "%s:%d: %s", file, lineno, value_error(val, k));
    *key_slot(m, k) = v;
    return 0;
}

int sim_machine_parse(const char *text, const char *file, sim_machine *m, char *err,
                      size_t errsz)
{
    int seen[K_N] = { 0 }, lineno = 0;
    const char *p = text;
    memset(m, 0, sizeof *m);
    if (strncmp(p, "\xef\xbb\xbf", 3) == 0)
        p += 3; /* a UTF-8 byte order mark (editors on Windows): "unknown key 'name'" */
    while (*p) {
        /* a line ends at LF, CRLF or CR (files from Windows and old Macs) */
        size_t len = strcspn(p, "\r\n");
        char buf[1024], *line;
        lineno++;
        if (len >= sizeof buf)
            return fail(err, errsz, "%s:%d: line too long", file, lineno);
        memcpy(buf, p, len);
        buf[len] = 0;
        if (strchr(buf, '#'))
            *strchr(buf, '#') = 0;
        line = trim(buf);
        if (*line && parse_line(line, file, lineno, m, seen, err, errsz) < 0)
            return -1;
        p += len;
        if (*p == '\r' && p[1] == '\n')
            p++;
        if (*p)
            p++;
    }
    for (int k = 0; k < K_REQUIRED; k++)
        if (!seen[k])
            return fail(err, errsz, "%s: missing key '%s'", file, keys[k].name);
    m->follows = 0;
    if (!seen[K_SPD])
        m->speed_spread = SIM_SPEED_SPREAD;
    for (int k = 1; k < K_N; k++)
        if (!seen[k] && source_of(k) > 0) {
            m->follows |= 1ull << k;
            *key_slot(m, k) = *key_slot(m, source_of(k));
        }
    snprintf(m->source, sizeof m->source, "%s", file);
    return 0;
}

int sim_machine_load(const char *path, sim_machine *m, char *err, size_t errsz)
{
    FILE *f = wtcrt_open_regular(path, "machine file", err, errsz);
    char *text;
    long n;
    int rc;
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    if (n < 0 || n > (1 << 20)) {
        fclose(f);
        return fail(err, errsz, "%s: not a machine file (size)", path);
    }
    text = malloc((size_t)n + 1);
    if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) {
        free(text);
        fclose(f);
        return fail(err, errsz, "%s: cannot read machine file", path);
    }
    text[n] = 0;
    fclose(f);
    if (memchr(text, 0, (size_t)n)) {
        free(text);
        return fail(err, errsz, "%s: not a machine file (binary)", path);
    }
    rc = sim_machine_parse(text, path, m, err, errsz);
    free(text);
    return rc;
}

/* The number keys, for messages: "L, G, o_sa, ...". */
const char *sim_machine_keys(void)
{
    static char buf[1024]; /* every key (256 cut the list at intra_copy) */
    int len = 0;
    for (int k = 1; k < K_N && len < (int)sizeof buf; k++)
        len += snprintf(buf + len, sizeof buf - len, "%s%s", k > 1 ? ", " : "", keys[k].name);
    return buf;
}

/* The index of number key 'key', K_N when there is none. */
static int number_key(const char *key)
{
    int k;
    for (k = 1; k < K_N && strcmp(key, keys[k].name) != 0; k++)
        ;
    return k;
}

double sim_machine_get(const sim_machine *m, const char *key)
{
    int k = number_key(key);
    return k < K_N ? *key_slot((sim_machine *)m, k) : NAN;
}

int sim_machine_set(sim_machine *m, const char *key, const char *val, char *err,
                    size_t errsz)
{
    int k = number_key(key);
    double v;
    if (k == K_N)
        return fail(err, errsz, "unknown machine key '%s' (%s)", key, sim_machine_keys());
    if (parse_value(val, k, &v) < 0)
        return fail(err, errsz, "%s", value_error(val, k));
    if (m) {
        *key_slot(m, k) = v;
        m->follows &= ~(1ull << k); /* set now: its own value from here on */
        for (int d = 1; d < K_N; d++) /* keys the file left to follow this one */
            if (source_of(d) == k && (m->follows & (1ull << d)))
                *key_slot(m, d) = v;
    }
    return 0;
}

void sim_machine_write(FILE *f, const sim_machine *m, const char *comment)
{
    if (comment)
        fprintf(f, "%s", comment);
    fprintf(f, "name = %s\n", m->name);
    for (int k = 1; k < K_N; k++)
        fprintf(f, "%s = %.6g\n", keys[k].name, *key_slot((sim_machine *)m, k));
}

/* ---- the extended LogGPS model ------------------------------------------------------ */

double sim_reuse_cost(double fresh, double reuse)
{
    return reuse > 0 ? reuse : fresh;
}

double sim_o_send(const sim_machine *m, int P, double k, int reuse)
{
    return m->o_sa + m->o_sb * P + (reuse ? sim_reuse_cost(m->O_s, m->O_s_reuse) : m->O_s) * k;
}

double sim_o_recv(const sim_machine *m, int P, double k, int result, int reuse)
{
    return m->o_ra + m->o_rb * P +
           (result ? m->O_r_result : reuse ? sim_reuse_cost(m->O_r, m->O_r_reuse) : m->O_r) * k;
}

int sim_shared_heap(const sim_machine *m, int P)
{
    return P > 1 && !m->intra_copy && m->ranks_per_node != 1;
}

int sim_ranks_per_node(const sim_machine *m, int P)
{
    return m->ranks_per_node >= 1 && m->ranks_per_node < P ? (int)m->ranks_per_node : P;
}
