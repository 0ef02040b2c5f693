/* Schedule construction and dry-run accounting (no MPI). */
#include <stdlib.h>
#include <string.h>

#include "schedule.h"

void sched_init(struct schedule *s) { memset(s, 0, sizeof *s); }

void sched_free(struct schedule *s)
{
    if (s->free_state)
        s->free_state(s->state);
    free(s->ops);
    free(s->rounds);
    sched_init(s);
}

void sched_reset(struct schedule *s)
{
    s->n_ops = s->n_rounds = s->open_first = 0;
    s->tmp_count[0] = s->tmp_count[1] = 0;
    s->shm_bytes = 0;
    s->max_round_msgs = 0;
    s->oom = false;
    if (s->free_state)
        s->free_state(s->state);
    s->resume = NULL;
    s->truncated = false;
    s->state = NULL;
    s->free_state = NULL;
}

int64_t sched_bytes(const struct schedule *s)
{
    return (int64_t)s->cap_ops * (int64_t)sizeof *s->ops +
           (int64_t)s->cap_rounds * (int64_t)sizeof *s->rounds;
}

void sched_trim(struct schedule *s)
{
    if (s->n_ops > 0 && s->n_ops < s->cap_ops) {
        struct sched_op *ops = realloc(s->ops, s->n_ops * sizeof *ops);
        if (ops)
            s->ops = ops, s->cap_ops = s->n_ops;
    }
    if (s->n_rounds > 0 && s->n_rounds < s->cap_rounds) {
        struct sched_round *rounds = realloc(s->rounds, s->n_rounds * sizeof *rounds);
        if (rounds)
            s->rounds = rounds, s->cap_rounds = s->n_rounds;
    }
}

static struct sched_op *push_op(struct schedule *s)
{
    if (s->n_ops == s->cap_ops) {
        uint32_t cap = s->cap_ops ? 2 * s->cap_ops : 32;
        struct sched_op *ops = realloc(s->ops, cap * sizeof *ops);
        if (!ops) {
            s->oom = true;
            return NULL;
        }
        s->ops = ops;
        s->cap_ops = cap;
    }
    return &s->ops[s->n_ops++];
}

static void add(struct schedule *s, uint8_t kind, int peer, int src, int64_t src_off, int dst,
                int64_t dst_off, int64_t count, unsigned flags)
{
    if (count <= 0 && !(flags & SOP_SYNC))
        return;
    struct sched_op *op = push_op(s);
    if (!op)
        return;
    op->kind = kind;
    op->peer = peer;
    op->src_buf = (uint8_t)src;
    op->dst_buf = (uint8_t)dst;
    op->src_off = src_off;
    op->dst_off = dst_off;
    op->count = count;
    op->flags = (uint8_t)flags;
}

void sched_slot_reach(struct schedule *s, int64_t elems)
{
    if (elems > s->shm_slot_span)
        s->shm_slot_span = elems;
}

void sched_send(struct schedule *s, int peer, int buf, int64_t off, int64_t count)
{
    add(s, SOP_SEND, peer, buf, off, buf, off, count, 0);
}

void sched_recv(struct schedule *s, int peer, int buf, int64_t off, int64_t count)
{
    add(s, SOP_RECV, peer, buf, off, buf, off, count, 0);
}

void sched_send_bytes(struct schedule *s, int peer, int buf, int64_t off, int64_t bytes)
{
    add(s, SOP_SEND, peer, buf, off, buf, off, bytes, SOP_BYTES);
}

uint32_t sched_recv_upto(struct schedule *s, int peer, int buf, int64_t off, int64_t max_bytes)
{
    add(s, SOP_RECV, peer, buf, off, buf, off, max_bytes, SOP_BYTES | SOP_UPTO);
    return s->n_ops - 1;
}

void sched_signal(struct schedule *s, int peer)
{
    add(s, SOP_SEND, peer, BUF_TMP, 0, BUF_TMP, 0, 0, SOP_SYNC);
}

void sched_await(struct schedule *s, int peer)
{
    add(s, SOP_RECV, peer, BUF_TMP, 0, BUF_TMP, 0, 0, SOP_SYNC);
}

/* The slot bits of use u (SOP_SLOT_SHIFT): u mod NODE_SLOTS, plus one so
 * that 0 means "not slot-relative". */
static unsigned slot_bits(int u)
{
    return (((unsigned)u % NODE_SLOTS) + 1u) << SOP_SLOT_SHIFT;
}

void sched_flag_set(struct schedule *s, int u, int flag)
{
    add(s, SOP_FLAG_SET, -1, BUF_SHM, 0, BUF_SHM, flag, u, SOP_SYNC | slot_bits(u));
}

void sched_flag_wait(struct schedule *s, int u, int flag, int64_t delta)
{
    add(s, SOP_FLAG_WAIT, -1, BUF_SHM, flag, BUF_SHM, 0, u + delta, SOP_SYNC | slot_bits(u));
}

void sched_copy_slot(struct schedule *s, int u, int src, int64_t src_off, int dst,
                     int64_t dst_off, int64_t count)
{
    add(s, SOP_COPY, -1, src, src_off, dst, dst_off, count, slot_bits(u));
}

void sched_copy_slot_flags(struct schedule *s, int u, int src, int64_t src_off, int dst,
                           int64_t dst_off, int64_t count, unsigned flags)
{
    add(s, SOP_COPY, -1, src, src_off, dst, dst_off, count, flags | slot_bits(u));
}

void sched_reduce_slot(struct schedule *s, int u, int src, int64_t src_off, int dst,
                       int64_t dst_off, int64_t count, unsigned flags)
{
    add(s, SOP_REDUCE, -1, src, src_off, dst, dst_off, count, flags | slot_bits(u));
}

void sched_send_slot(struct schedule *s, int u, int peer, int buf, int64_t off, int64_t count)
{
    add(s, SOP_SEND, peer, buf, off, buf, off, count, slot_bits(u));
}

void sched_recv_slot(struct schedule *s, int u, int peer, int buf, int64_t off, int64_t count)
{
    add(s, SOP_RECV, peer, buf, off, buf, off, count, slot_bits(u));
}

void sched_reduce(struct schedule *s, int src, int64_t src_off, int dst, int64_t dst_off,
                  int64_t count, unsigned flags)
{
    add(s, SOP_REDUCE, -1, src, src_off, dst, dst_off, count, flags);
}

void sched_copy(struct schedule *s, int src, int64_t src_off, int dst, int64_t dst_off,
                int64_t count)
{
    if (src == dst && src_off == dst_off)
        return;
    add(s, SOP_COPY, -1, src, src_off, dst, dst_off, count, 0);
}

void sched_round(struct schedule *s)
{
    if (s->n_ops == s->open_first)
        return;
    if (s->n_rounds == s->cap_rounds) {
        uint32_t cap = s->cap_rounds ? 2 * s->cap_rounds : 16;
        struct sched_round *r = realloc(s->rounds, cap * sizeof *r);
        if (!r) {
            s->oom = true;
            return;
        }
        s->rounds = r;
        s->cap_rounds = cap;
    }
    int64_t msgs = 0;
    for (uint32_t i = s->open_first; i < s->n_ops; i++)
        if (s->ops[i].kind == SOP_SEND || s->ops[i].kind == SOP_RECV)
            msgs += s->ops[i].count > 0 ? (s->ops[i].count + SCHED_CHUNK - 1) / SCHED_CHUNK : 1;
    if (msgs > s->max_round_msgs)
        s->max_round_msgs = msgs;
    s->rounds[s->n_rounds].first_op = s->open_first;
    s->rounds[s->n_rounds].n_ops = s->n_ops - s->open_first;
    s->n_rounds++;
    s->open_first = s->n_ops;
}

void sched_need_tmp(struct schedule *s, int buf, int64_t count)
{
    int i = buf - BUF_TMP;
    if (s->tmp_count[i] < count)
        s->tmp_count[i] = count;
}

void sched_cost(const struct schedule *s, size_t elem_size, struct sched_cost *c)
{
    memset(c, 0, sizeof *c);
    for (uint32_t r = 0; r < s->n_rounds; r++) {
        bool comm = false;
        const struct sched_round *rd = &s->rounds[r];
        for (uint32_t i = rd->first_op; i < rd->first_op + rd->n_ops; i++) {
            const struct sched_op *op = &s->ops[i];
            int64_t bytes = op->flags & SOP_BYTES ? op->count : op->count * (int64_t)elem_size;
            switch (op->kind) {
            case SOP_SEND:
                comm = true;
                c->msgs_sent++;
                c->bytes_sent += bytes;
                break;
            case SOP_RECV:
                comm = true;
                c->msgs_recvd++;
                c->bytes_recvd += bytes;
                break;
            case SOP_REDUCE:
                c->elems_reduced += op->count;
                if (op->src_buf == BUF_SHM || op->dst_buf == BUF_SHM)
                    c->shm_elems_reduced += op->count;
                break;
            case SOP_COPY:
                c->elems_copied += op->count;
                if (op->src_buf == BUF_SHM || op->dst_buf == BUF_SHM)
                    c->shm_elems_copied += op->count;
                break;
            case SOP_FLAG_SET:
                c->flag_sets++;
                break;
            case SOP_FLAG_WAIT:
                c->flag_waits++;
                break;
            }
        }
        c->rounds += comm;
    }
}
