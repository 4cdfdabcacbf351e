/* The transport's pieces (doc/runtime.md "Messages over 2 GiB"), against the runtime's
   internal calls: rank 0 sends messages of several sizes with WTC_MSG_CHUNK set; rank 1
   looks at the first piece with a plain MPI_Probe (it must be at most the chunk: the
   message really travels in pieces), then receives it with wtcrt_recv and checks its
   length and every byte. A message of one piece, one of exactly two, and one whose last
   piece is short; two messages back to back with the same tag must not mix. Then two
   messages with parts sent by reference (wtcrt_msg_seg: doc/runtime.md "Big buffers
   travel where they lie"), in the middle of the stream and as all of it after the
   header: the receiver gets the same contiguous bytes.
   Prints "pieces OK" on rank 1 (and nothing else). The runtime state is this test's
   own: the transport takes it as a parameter. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wtcrt.h"

#define TAG (WTCRT_TAG_ODD - 1) /* a kind no runtime message has (BOUND is 13) */

static unsigned char byte_at(size_t i, int salt)
{
    return (unsigned char)((i * 2654435761u >> 7) + (unsigned)salt);
}

static wtcrt_msg *make(wtcrt_rt *rt, size_t payload, int salt)
{
    wtcrt_msg *m = wtcrt_msg_new(rt, payload);
    for (size_t i = 0; i < payload; i++)
        WTCRT_PAYLOAD(m)[i] = byte_at(i, salt);
    WTCRT_HDR(m)->want = salt;
    return m;
}

/* A message whose payload is byte_at(i, salt) for i < payload, with the parts [s[j],
   s[j] + len[j]) (in order, not overlapping) sent by reference from *whole (kept by
   the caller until the sends complete) and the rest packed. */
static wtcrt_msg *make_segs(wtcrt_rt *rt, size_t payload, int salt, const size_t *s,
                            const size_t *len, int nseg, unsigned char **whole)
{
    size_t own = payload, at = 0, from = 0;
    wtcrt_msg *m;
    *whole = malloc(payload ? payload : 1);
    for (size_t i = 0; i < payload; i++)
        (*whole)[i] = byte_at(i, salt);
    for (int j = 0; j < nseg; j++)
        own -= len[j];
    m = wtcrt_msg_new(rt, own);
    for (int j = 0; j < nseg; j++) {
        memcpy(WTCRT_PAYLOAD(m) + at, *whole + from, s[j] - from);
        at += s[j] - from;
        wtcrt_msg_seg(rt, m, WTCRT_HDR_SIZE + at, *whole + s[j], len[j]);
        from = s[j] + len[j];
    }
    memcpy(WTCRT_PAYLOAD(m) + at, *whole + from, payload - from);
    WTCRT_HDR(m)->want = salt;
    return m;
}

static int check(wtcrt_rt *rt, size_t payload, int salt, long chunk)
{
    MPI_Status st;
    int n;
    wtcrt_msg *m;
    MPI_Probe(0, TAG, rt->comm, &st);
    MPI_Get_count(&st, MPI_BYTE, &n);
    if (n > chunk || (salt < 5 && WTCRT_HDR_SIZE + payload > (size_t)chunk && n != chunk)) {
        printf("first piece of %d bytes, chunk %ld\n", n, chunk);
        return 1;
    }
    m = wtcrt_recv(rt, 0, TAG);
    if (m->len != WTCRT_HDR_SIZE + payload || WTCRT_HDR(m)->want != salt) {
        printf("message of %zu bytes (salt %d), want %zu (salt %d)\n", m->len,
               WTCRT_HDR(m)->want, WTCRT_HDR_SIZE + payload, salt);
        return 1;
    }
    for (size_t i = 0; i < payload; i++)
        if (WTCRT_PAYLOAD(m)[i] != byte_at(i, salt)) {
            printf("byte %zu of message %d wrong\n", i, salt);
            return 1;
        }
    wtcrt_msg_free(rt, m);
    return 0;
}

int main(int argc, char **argv)
{
    const char *s = getenv("WTC_MSG_CHUNK");
    long chunk = s ? atol(s) : 0;
    size_t sizes[5];
    int bad = 0;
    static wtcrt_rt state;
    wtcrt_rt *rt = &state;
    MPI_Init(&argc, &argv);
    rt->comm = MPI_COMM_WORLD;
    MPI_Comm_rank(MPI_COMM_WORLD, &rt->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &rt->nranks);
    if (chunk < WTCRT_HDR_SIZE || rt->nranks != 2) {
        fprintf(stderr, "pieces: needs -n 2 and WTC_MSG_CHUNK >= %d\n", WTCRT_HDR_SIZE);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    sizes[0] = (size_t)chunk - WTCRT_HDR_SIZE;         /* one piece */
    sizes[1] = 2 * (size_t)chunk - WTCRT_HDR_SIZE;     /* exactly two */
    sizes[2] = 37 * (size_t)chunk + 11;                /* a short last piece */
    sizes[3] = 1;
    sizes[4] = 5 * (size_t)chunk;
    size_t seg_payload[2] = { 3 * (size_t)chunk + 100, (size_t)chunk + 10 };
    size_t seg_at[2][2] = { { 5, 2 * (size_t)chunk + 20 }, { 0, 0 } };
    size_t seg_len[2][2] = { { (size_t)chunk + 3, (size_t)chunk / 2 + 1 },
                             { (size_t)chunk + 10, 0 } };
    int seg_n[2] = { 2, 1 };
    unsigned char *whole[2] = { NULL, NULL };
    for (int k = 0; k < 5; k++) {
        if (rt->rank == 0)
            wtcrt_send(rt, 1, TAG, make(rt, sizes[k], k));
    }
    for (int k = 0; k < 2; k++) {
        if (rt->rank == 0)
            wtcrt_send(rt, 1, TAG, make_segs(rt, seg_payload[k], 5 + k, seg_at[k],
                                             seg_len[k], seg_n[k], &whole[k]));
    }
    if (rt->rank == 0) {
        wtcrt_flush_sends(rt);
    } else {
        for (int k = 0; k < 5 && !bad; k++)
            bad = check(rt, sizes[k], k, chunk);
        for (int k = 0; k < 2 && !bad; k++)
            bad = check(rt, seg_payload[k], 5 + k, chunk);
    }
    free(whole[0]);
    free(whole[1]);
    if (rt->rank == 1 && !bad)
        printf("pieces OK\n");
    MPI_Finalize();
    return bad;
}
