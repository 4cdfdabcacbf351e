/* sim_bcast_tree.c - for tests/unit/sim_bcast_tree.sh: the core's broadcast tree and
 * its rule (runtime/core/proto.c, doc/runtime.md "The region start"), which both
 * executors follow. For P = 1 .. 200: every rank but 0 has one parent and receives
 * exactly once, the children lists match the parents, the subtree of a rank is a
 * contiguous range, and when each rank sends one copy per round (its children in their
 * order) the last rank has it after exactly ceil(log2 P) rounds. Then the rule at worked
 * points, and the flat route. Prints "bcast tree OK" or what is wrong. */
#include <stdio.h>
#include <stdlib.h>
#include "proto.h"

#define PMAX 200

static int failures;

static void bad(const char *what, int P, int r)
{
    if (failures++ < 10)
        printf("P = %d, rank %d: %s\n", P, r, what);
}

static int ceil_log2(int P)
{
    int h = 0;
    while ((1 << h) < P)
        h++;
    return h;
}

/* The tree of P ranks: parents, receptions, rounds, ranges. */
static void check_tree(int P)
{
    int got[PMAX], round[PMAX], size[PMAX], kids[32], order[PMAX], n = 0, last = 0;
    for (int r = 0; r < P; r++)
        got[r] = 0, round[r] = -1, size[r] = 1;
    if (wtcp_bcast_parent(0, P) != -1)
        bad("rank 0 has a parent", P, 0);
    round[0] = 0;
    order[n++] = 0;
    /* breadth first from rank 0: child i of a rank of round t receives in round t+1+i */
    for (int q = 0; q < n; q++) {
        int r = order[q], k = wtcp_bcast_children(r, P, kids);
        for (int i = 0; i < k; i++) {
            int c = kids[i];
            if (c <= 0 || c >= P) {
                bad("a child out of range", P, r);
                continue;
            }
            if (got[c]++) {
                bad("a rank receives twice", P, c);
                continue;
            }
            if (wtcp_bcast_parent(c, P) != r)
                bad("a child whose parent is another rank", P, c);
            if (i > 0 && c >= kids[i - 1])
                bad("children not sent the biggest subtree first", P, r);
            round[c] = round[r] + 1 + i;
            if (round[c] > last)
                last = round[c];
            order[n++] = c;
        }
    }
    for (int r = 1; r < P; r++)
        if (got[r] != 1)
            bad("a rank never receives", P, r);
    if (last != ceil_log2(P))
        bad("the last rank does not receive in round ceil(log2 P)", P, last);
    /* subtrees: the ranks below r are r+1 .. r+size-1 (a contiguous range) */
    for (int q = n - 1; q > 0; q--)
        size[wtcp_bcast_parent(order[q], P)] += size[order[q]];
    for (int r = 1; r < P; r++) {
        int p = wtcp_bcast_parent(r, P), k = wtcp_bcast_children(p, P, kids), end = p + size[p];
        for (int i = 0; i < k; i++)
            if (kids[i] == r && (i > 0 ? kids[i - 1] : end) != r + size[r])
                bad("a subtree that is not a contiguous range", P, r);
    }
    if (size[0] != P)
        bad("the tree does not hold every rank", P, 0);
}

/* The flat route: rank 0 to every rank, in rank order; nobody else sends. */
static void check_flat(int P)
{
    static int kids[PMAX];
    int k = wtcp_bcast_to(0, P, 0, kids);
    if (k != P - 1)
        bad("flat: rank 0 does not send to every other rank", P, 0);
    for (int i = 0; i < k; i++)
        if (kids[i] != i + 1)
            bad("flat: not in rank order", P, i + 1);
    for (int r = 1; r < P; r++)
        if (wtcp_bcast_to(r, P, 0, kids) != 0 || wtcp_bcast_from(r, P, 0) != 0)
            bad("flat: a rank other than 0 sends, or receives from another", P, r);
}

/* The rule: (P-1-h)(bytes + SEND) >= (h-1) WAKE, never below 4 ranks. */
static void check_rule(void)
{
    struct { int P; long long bytes; int tree; } t[] = {
        { 2, 1LL << 30, 0 }, { 3, 1LL << 30, 0 },  /* the tree is rank 0 sending to each */
        { 4, 256 * 1024, 1 }, { 4, 200 * 1024, 0 }, /* 1 (b + 4096) >= 262144 */
        { 8, 128 * 1024, 1 }, { 8, 96 * 1024, 0 },  /* 4 (b + 4096) >= 524288 */
        { 64, 1 << 20, 1 }, { 64, 32 * 1024, 1 }, { 64, 16 * 1024, 0 }, { 64, 64, 0 },
        { 256, 4096, 1 }, { 256, 2048, 0 },         /* 247 (b + 4096) >= 1835008 */
        { 1024, 16, 1 },                            /* 1013 * 4112 >= 2359296 */
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (wtcp_bcast_tree(t[i].P, t[i].bytes) != t[i].tree) {
            char why[96];
            snprintf(why, sizeof why, "rule: %lld bytes should go %s", t[i].bytes,
                     t[i].tree ? "by the tree" : "flat");
            bad(why, t[i].P, 0);
        }
}

int main(void)
{
    unsetenv("WTC_BCAST");
    for (int P = 1; P <= PMAX; P++) {
        check_tree(P);
        check_flat(P);
    }
    check_rule();
    if (failures) {
        printf("%d failures\n", failures);
        return 1;
    }
    printf("bcast tree OK\n");
    return 0;
}
