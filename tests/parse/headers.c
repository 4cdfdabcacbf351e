/* headers.c - the front end must parse real system headers and tricky C11/GNU C.
   Preprocess with: mpicc -E -std=gnu11 headers.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <stdint.h>
#include <stdbool.h>
#include <time.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stddef.h>
#include <complex.h>
#include <signal.h>
#include <errno.h>
#include <limits.h>
#include <mpi.h>

/* typedef shadowing */
typedef int T;
void shadow(void)
{
    T T;
    T = 1;
    (void)T;
}
int use_t(T x) { T y = x; return y; }
int proto_only(T);
int proto_named(int T);
int after_proto(void) { T z = 3; return z; }

/* function pointers and complex declarators */
int (*fp)(int);
void (*signal_like(int sig, void (*handler)(int)))(int);
int (*arr_of_fp[4])(double, ...);
char *(*(*ptr_to_fn_returning_ptr_to_arr)(void))[8];
typedef void (*callback_t)(void *ctx, const char *msg);
static callback_t callbacks[3];
const int *const volatile cptr = 0;

/* structs, unions, bit-fields, anonymous members, forward refs */
struct node;
struct list { struct node *head; int count; };
struct node { struct node *next; struct list *owner; int value : 20; unsigned flags : 4; int : 0; };
struct packed_thing {
    union { int i; float f; };
    struct { short lo, hi; };
    char tag;
} __attribute__((packed));
union number { long l; double d; } gnum;
enum color { RED, GREEN = 5, BLUE, };
enum color favourite = BLUE;
typedef struct { double x, y; } point_t;

/* designated initializers and compound literals */
point_t origin = { .x = 0.0, .y = 0.0 };
int squares[10] = { [0] = 0, [1] = 1, [2 ... 4] = 4, [9] = 81 };
struct list lists[2] = { [1].count = 3, [0] = { .head = 0, .count = 1 } };
point_t *pp = &(point_t){ 1.0, 2.0 };
int sum_arr(void) { return ((int[]){1, 2, 3})[1]; }

/* statement expressions, typeof, _Generic, builtins */
#define MAX(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })
#define KIND(x) _Generic((x), int: 1, double: 2, default: 0)
int gen(void) { return KIND(1.0) + MAX(3, 4); }
size_t off = __builtin_offsetof(struct node, owner);
size_t off2 = offsetof(struct list, count);
int compat = __builtin_types_compatible_p(int, T);

/* K&R-free variadics */
int vsum(int n, ...)
{
    va_list ap;
    int s = 0;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        s += va_arg(ap, int);
    va_end(ap);
    return s;
}

/* C11 keywords */
_Static_assert(sizeof(int) >= 2, "int too small");
static _Thread_local int tls_counter;
__thread int gnu_tls;
_Alignas(16) char aligned_buf[64];
_Alignas(double) char aligned_buf2[8];
size_t al = _Alignof(long double) + __alignof__(int);
_Noreturn void die(void) { exit(1); }
_Atomic int atomic_counter;
_Atomic(long) atomic_long_counter;
atomic_int ai;
_Bool flag = true;
double _Complex zc = 1.0;
__int128 big;
unsigned __int128 ubig;
_Float128 f128;
__float128 gf128;
_Float64x f64x;
long long ll = 1LL << 40;
long double ld = 1.0L;
unsigned long ul = 10UL;
signed char sc = -1;

/* GNU statements and expressions */
int gnu_stuff(int x)
{
    __label__ out;
    static void *targets[] = { &&l1, &&l2 };
    int y = x ?: 7;
    double _Complex z = 1.0;
    double re = __real__ z, im = __imag__ z;
    switch (x) {
    case 1 ... 5:
        y++;
        break;
    default:
        break;
    }
    __asm__ __volatile__("" ::: "memory");
    asm("nop");
    goto *targets[x & 1];
l1:
    y += 1;
l2:
    y += (int)(re + im);
    goto out;
out:
    return y + __extension__ 0;
}

const char *msg = "string " "literal " "concatenation";
register int *rp asm("r12");
int asm_named(void) __asm__("asm_named_sym");

/* headers in use */
int main(void)
{
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    struct timespec ts = {0};
    MPI_Comm comm = MPI_COMM_WORLD;
    int rank = 0;
    (void)comm;
    atomic_fetch_add(&ai, 1);
    int loaded = atomic_load(&ai); /* __auto_type inside the macro */
    printf("%f %d %ld\n", sqrt(2.0), rank, (long)ts.tv_sec);
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
    return isnan(NAN) ? 0 : INT_MAX > loaded;
}
