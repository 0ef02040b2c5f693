/*
 * patterns/nodes.h, node_leaders_predict: the layout of a derived group
 * predicted from its parent's layout must be the layout the group's own
 * exchange would give, i.e. node_layout_fill of the true leaders (the
 * lowest group rank on each host).  Parents of p = 1..128 ranks placed on
 * hosts in blocks, round robin, unevenly and at random; groups that are
 * the parent itself, reversed (a split with descending keys), a random
 * subset in random order (MPI_Comm_create), one rank, and empty.  Also a
 * parent rank out of range is refused.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patterns/nodes.h"

#include "../lib/check.h"


enum { P = 128 };

struct layout {
    int n_nodes, node_of[P], local_index[P], node_start[P + 1], node_ranks[P];
};

static void fill(struct layout *l, int size, const int *leader_of)
{
    l->n_nodes = node_layout_fill(size, leader_of, l->node_of, l->local_index, l->node_start,
                                  l->node_ranks);
}

/* The truth: leaders from the hosts of the group's members. */
static void true_leaders(int size, const int *host, const int *member, int *leader_of)
{
    for (int i = 0; i < size; i++) {
        leader_of[i] = i;
        for (int j = 0; j < i; j++)
            if (host[member[j]] == host[member[i]]) {
                leader_of[i] = j;
                break;
            }
    }
}

static int same(const struct layout *a, const struct layout *b, int size)
{
    return a->n_nodes == b->n_nodes &&
           !memcmp(a->node_of, b->node_of, (size_t)size * sizeof(int)) &&
           !memcmp(a->local_index, b->local_index, (size_t)size * sizeof(int)) &&
           !memcmp(a->node_start, b->node_start, (size_t)(a->n_nodes + 1) * sizeof(int)) &&
           !memcmp(a->node_ranks, b->node_ranks, (size_t)size * sizeof(int));
}

static void check_group(const char *what, int p, const int *host, const struct layout *parent,
                        int size, const int *member)
{
    int leader_of[P] = {0}, want[P] = {0}, first[P];
    struct layout got, truth;
    int rc = node_leaders_predict(size, member, p, parent->node_of, parent->n_nodes, first,
                                  leader_of);
    true_leaders(size, host, member, want);
    fill(&got, size, leader_of);
    fill(&truth, size, want);
    check(rc == 0 && !memcmp(leader_of, want, (size_t)size * sizeof(int)) &&
              same(&got, &truth, size),
          "%s: p=%d, group of %d", what, p, size);
}

int main(void)
{
    srand(6);
    for (int p = 1; p <= P; p++) {
        for (int placement = 0; placement < 4; placement++) {
            int host[P], nh = 1 + p / 4, leader_of[P];
            for (int r = 0; r < p; r++)
                host[r] = placement == 0   ? r / 4              /* blocks of 4 */
                          : placement == 1 ? r % nh             /* round robin */
                          : placement == 2 ? (r < p / 2 ? 0 : 1 + r % 3) /* uneven */
                                           : rand() % nh;       /* random */
            int all[P];
            for (int r = 0; r < p; r++)
                all[r] = r;
            struct layout parent;
            true_leaders(p, host, all, leader_of);
            fill(&parent, p, leader_of);

            check_group("the parent itself (dup)", p, host, &parent, p, all);
            int rev[P];
            for (int r = 0; r < p; r++)
                rev[r] = p - 1 - r;
            check_group("reversed (split, descending keys)", p, host, &parent, p, rev);
            for (int t = 0; t < 8; t++) {
                int sub[P], n = 0;
                for (int r = 0; r < p; r++)
                    if (rand() % 3)
                        sub[n++] = r;
                for (int i = n - 1; i > 0; i--) {
                    int j = rand() % (i + 1), x = sub[i];
                    sub[i] = sub[j], sub[j] = x;
                }
                check_group("random subset, random order (create)", p, host, &parent, n, sub);
            }
            int one = p / 2;
            check_group("one rank", p, host, &parent, 1, &one);
            check_group("empty", p, host, &parent, 0, all);

            int bad[2] = {0, p}, out[2], first[P];
            check(node_leaders_predict(2, bad, p, parent.node_of, parent.n_nodes, first, out) == -1,
                  "p=%d: parent rank %d out of range accepted", p, p);
        }
    }
    return check_summary();
}
