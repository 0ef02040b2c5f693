/*
 * Pipelined broadcast fragment (pipeline.h).
 *
 * A rank's round j posts the receive of segment j and the sends of segment
 * j - 1 together, so a segment goes on while the next arrives; the round
 * then waits for both, which is what keeps the ranks in step (the model's
 * one step per round).  Messages between two ranks match in order, so the
 * rounds of a parent and a child need not line up: the child's receive of
 * segment j meets the parent's j-th send to it whenever both are posted.
 */
#include "pipeline.h"

#include "../../patterns/pipeline.h"
#include "../../patterns/ring.h"
#include "ring.h"

int64_t pipeline_segment(const struct sched_params *p) { return ring_segment(p); }

double pipeline_cost(const struct sched_params *p, const struct cost_params *m, int depth,
                     int children)
{
    if (p->size <= 1)
        return 0;
    const int64_t seg = pipeline_segment(p), k = ring_nsegments(p->count, seg);
    const double s = (double)(p->count < seg ? p->count : seg);
    const double steps = (double)pipe_steps(k > 1 ? k : 1, depth);
    return steps * (m->alpha + (children + 1) * m->o + children * s * m->beta);
}

void pipeline_bcast(struct schedule *s, int parent, const int *children, int n_children,
                    int64_t n, int64_t seg)
{
    const int64_t k = ring_nsegments(n, seg);
    for (int64_t j = 0; j <= k; j++) {
        if (parent >= 0 && j < k)
            sched_recv(s, parent, BUF_RECV, j * seg, ring_segment_len(n, seg, j));
        const int64_t out = parent >= 0 ? j - 1 : j;
        for (int c = 0; c < n_children && out >= 0 && out < k; c++)
            sched_send(s, children[c], BUF_RECV, out * seg, ring_segment_len(n, seg, out));
        sched_round(s);
    }
}
