/* sim/resource.c - a resource of a few identical units (a node's cores, one direction
 * of its network port) whose use is booked as the simulated ranks run ahead.
 *
 * Ranks run ahead of each other (sim/engine.c), so bookings do not come in time order:
 * a rank may book [10, 20) before another books from 5. A booking therefore fills the
 * free time from its start on, in pieces if it must (packets of several messages
 * interleave on a link; the kernel time-shares a core), and never moves earlier
 * bookings. The profile is a step function, the number of units in use; the part
 * before the simulation's clock (the last event popped) can no longer be booked and
 * is dropped. */
#include <stdlib.h>
#include <string.h>
#include "engine.h"

void eng_res_init(eng_res *r, int units)
{
    memset(r, 0, sizeof *r);
    r->units = units;
    r->cap = 16;
    r->t = eng_xrealloc(NULL, (size_t)r->cap * sizeof *r->t);
    r->b = eng_xrealloc(NULL, (size_t)r->cap * sizeof *r->b);
    r->t[0] = -1e300; /* one free segment for all time */
    r->b[0] = 0;
    r->n = 1;
}

void eng_res_free(eng_res *r)
{
    free(r->t);
    free(r->b);
    memset(r, 0, sizeof *r);
}

/* Inserts a breakpoint at x with b units in use at index i (lo <= i <= n). */
static void insert(eng_res *r, int i, double x, int b)
{
    if (r->n == r->cap) {
        r->cap *= 2;
        r->t = eng_xrealloc(r->t, (size_t)r->cap * sizeof *r->t);
        r->b = eng_xrealloc(r->b, (size_t)r->cap * sizeof *r->b);
    }
    if (i < r->n) {
        memmove(r->t + i + 1, r->t + i, (size_t)(r->n - i) * sizeof *r->t);
        memmove(r->b + i + 1, r->b + i, (size_t)(r->n - i) * sizeof *r->b);
    }
    r->t[i] = x;
    r->b[i] = b;
    r->n++;
}

/* Drops the segments that end by 'now' (nothing can be booked before it any more). */
static void prune(eng_res *r, double now)
{
    int k = r->lo;
    while (k + 1 < r->n && r->t[k + 1] <= now)
        k++;
    r->lo = k;
    if (r->lo > 64 && r->lo > r->n / 2) {
        r->n -= r->lo;
        memmove(r->t, r->t + r->lo, (size_t)r->n * sizeof *r->t);
        memmove(r->b, r->b + r->lo, (size_t)r->n * sizeof *r->b);
        r->lo = 0;
    }
}

/* The segment holding time x: the last i with t[i] <= x (binary search). */
static int find(const eng_res *r, double x)
{
    int a = r->lo, z = r->n - 1;
    while (a < z) {
        int mid = (a + z + 1) / 2;
        if (r->t[mid] <= x)
            a = mid;
        else
            z = mid - 1;
    }
    return a;
}

/* Merges neighbours with the same use in [from, to] (indices before the merge). */
static void merge(eng_res *r, int from, int to)
{
    int w = from < r->lo ? r->lo : from, end = to < r->n - 1 ? to : r->n - 1;
    for (int i = w + 1; i <= end; i++)
        if (r->b[i] != r->b[w]) {
            w++;
            r->t[w] = r->t[i];
            r->b[w] = r->b[i];
        }
    if (w < end) {
        int gone = end - w;
        memmove(r->t + w + 1, r->t + end + 1, (size_t)(r->n - end - 1) * sizeof *r->t);
        memmove(r->b + w + 1, r->b + end + 1, (size_t)(r->n - end - 1) * sizeof *r->b);
        r->n -= gone;
    }
}

/* The usual case, a booking after all others (a rank's own sends come in its clock's
   order): extend the last booking when it ends at t0, else append one. */
static double book_tail(eng_res *r, double t0, double d)
{
    int last = r->n - 1;
    if (t0 == r->t[last] && last > r->lo && r->b[last - 1] == 1)
        r->t[last] = t0 + d;
    else if (t0 == r->t[last]) {
        r->b[last] = 1;
        insert(r, r->n, t0 + d, 0);
    } else {
        insert(r, r->n, t0, 1);
        insert(r, r->n, t0 + d, 0);
    }
    return t0 + d;
}

double eng_res_book(eng_res *r, double now, double t0, double d, int force)
{
    int i, first;
    double left = d;
    if (d <= 0 || (r->units <= 0 && !force)) /* nothing to share */
        return t0 + (d > 0 ? d : 0);
    prune(r, now);
    if (t0 >= r->t[r->n - 1] && r->units > 0) /* in the free time after every booking */
        return book_tail(r, t0, d);
    if (t0 < r->t[r->lo]) /* before what is kept (should not happen): free time */
        insert(r, r->lo, t0, 0);
    i = find(r, t0);
    if (r->t[i] < t0) {
        insert(r, i + 1, t0, r->b[i]);
        i++;
    }
    first = i;
    for (;; i++) {
        double end = i + 1 < r->n ? r->t[i + 1] : 1e300;
        if (r->b[i] >= r->units && !force)
            continue;
        if (end - r->t[i] > left) { /* ends inside this segment */
            double x = r->t[i] + left;
            insert(r, i + 1, x, r->b[i]);
            r->b[i]++;
            merge(r, first - 1, i + 2);
            return x;
        }
        r->b[i]++;
        left -= end - r->t[i];
        if (left <= 0) {
            merge(r, first - 1, i + 1);
            return end;
        }
    }
}
