/* Binomial-tree reduce and broadcast fragments (binomial.h). */
#include "binomial.h"

#include "../../patterns/binomial.h"

static int pos_of(const struct btree *t, int rank) { return binomial_relrank(rank, t->shift, t->p); }
static int rank_of(const struct btree *t, int pos) { return binomial_absrank(pos, t->shift, t->p); }

void binomial_reduce(struct schedule *s, const struct btree *t, int rank, int64_t n,
                     struct partial *pt, bool commutative, int scratch)
{
    const int x = pos_of(t, rank), levels = ceil_log2(t->p);
    for (int j = 0; j < levels; j++) {
        int peer;
        enum binomial_role role = binomial_step(x, j, t->root_pos, t->p, &peer);
        if (role == BINOMIAL_RECV) {
            partial_recv(s, pt, rank_of(t, peer), n, peer < x, commutative, scratch, 0);
            sched_round(s);
        } else if (role == BINOMIAL_SEND) {
            sched_send(s, rank_of(t, peer), partial_buf(pt), partial_off(pt), n);
            sched_round(s);
            return;
        }
    }
    partial_finish(s, pt, n);
}

void binomial_bcast(struct schedule *s, const struct btree *t, int rank, int buf, int64_t off,
                    int64_t n)
{
    const int x = pos_of(t, rank);
    int top = ceil_log2(t->p), peer;
    for (int j = 0; j < top; j++) {
        if (binomial_step(x, j, t->root_pos, t->p, &peer) == BINOMIAL_SEND) {
            sched_recv(s, rank_of(t, peer), buf, off, n);
            sched_round(s);
            top = j;
            break;
        }
    }
    /* Largest subtree first, so that it starts forwarding soonest. */
    for (int j = top - 1; j >= 0; j--) {
        if (binomial_step(x, j, t->root_pos, t->p, &peer) == BINOMIAL_RECV) {
            sched_send(s, rank_of(t, peer), buf, off, n);
            sched_round(s);
        }
    }
}

int reduce_tree_build(const struct sched_params *p, struct schedule *s, const struct btree *t)
{
    struct partial pt = p->rank == p->root
                            ? partial_make(BUF_SEND, 0, BUF_RECV, 0, p->in_place)
                            : partial_make(BUF_SEND, 0, BUF_TMP, 0, false);
    binomial_reduce(s, t, p->rank, p->count, &pt, p->commutative, BUF_TMP2);
    return s->oom ? -1 : 0;
}

double reduce_tree_cost(const struct sched_params *p, const struct cost_params *m)
{
    double nb = (double)p->count * (double)p->elem_size;
    return ceil_log2(p->size) * (m->alpha + nb * (m->beta + m->gamma));
}
