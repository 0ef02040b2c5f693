/* Direct exchange of alltoall(v) blocks (see exchange.h). */
#include "exchange.h"

#include "../../patterns/ring.h"

/* Block j's bytes and offset: alltoallv's arrays, or alltoall's uniform
 * blocks of p->count bytes at j * count. */
static int64_t scount(const struct sched_params *p, int j)
{
    return p->scounts ? p->scounts[j] : p->count;
}

static int64_t sdispl(const struct sched_params *p, int j)
{
    return p->sdispls ? p->sdispls[j] : j * p->count;
}

static int64_t rcount(const struct sched_params *p, int j)
{
    return p->rcounts ? p->rcounts[j] : p->count;
}

static int64_t rdispl(const struct sched_params *p, int j)
{
    return p->rdispls ? p->rdispls[j] : j * p->count;
}

/* Round of shift i (1..p-1). */
static int round_of(int i, int window) { return (i - 1) / window; }

static bool staged(const struct sched_params *p, int i, int window)
{
    return p->in_place && round_of(p->size - i, window) <= round_of(i, window);
}

int exchange_build(const struct sched_params *p, struct schedule *s, int window)
{
    const int size = p->size, rank = p->rank;
    if (window < 1)
        window = 1;
    int64_t tmp = 0;
    for (int i = 1; i < size; i++)
        if (staged(p, i, window)) {
            int to = ring_shift(rank, size, i);
            sched_copy(s, BUF_SEND, sdispl(p, to), BUF_TMP, tmp, scount(p, to));
            tmp += scount(p, to);
        }
    sched_need_tmp(s, BUF_TMP, tmp);
    sched_round(s);

    tmp = 0; /* staged blocks are sent in the order they were staged */
    for (int i = 1; i < size; i++) {
        int to = ring_shift(rank, size, i), from = ring_shift(rank, size, -i);
        if (staged(p, i, window)) {
            sched_send(s, to, BUF_TMP, tmp, scount(p, to));
            tmp += scount(p, to);
        } else {
            sched_send(s, to, BUF_SEND, sdispl(p, to), scount(p, to));
        }
        sched_recv(s, from, BUF_RECV, rdispl(p, from), rcount(p, from));
        if (i % window == 0 && i < size - 1)
            sched_round(s);
    }
    /* The own block, after the last round's waits (in place it is there). */
    if (!p->in_place)
        sched_copy(s, BUF_SEND, sdispl(p, rank), BUF_RECV, rdispl(p, rank), scount(p, rank));
    sched_round(s);
    return s->oom ? -1 : 0;
}

double exchange_cost(const struct sched_params *p, const struct cost_params *m, int window)
{
    int rounds = p->size > 1 ? (p->size - 2) / window + 1 : 0;
    /* the busiest rank's bytes: its agreed volume, else p - 1 largest blocks */
    const double bytes = p->volume_max > 0 ? (double)p->volume_max
                                           : (double)(p->size - 1) * (double)p->count;
    return rounds * m->alpha + (p->size - 1) * 2 * m->o + bytes * m->beta * cost_link_share(p);
}
