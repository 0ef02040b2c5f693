/*
 * Rails allreduce (node-aware, short vectors across nodes): the node
 * reduces through its shared segment, then the nodes combine in
 * ceil(log_K N) rounds in which each of the node's first K-1 ranks (its
 * rails) exchanges the node's partial with one other node at once, where
 * node_leader's single leader per node takes a flat algorithm's lg N
 * rounds.  The same step between nodes as the agreements' node
 * dissemination (common/node_dissemination.c), for any operation: groups
 * instead of dissemination, so every contribution is combined once.
 *
 * Per chunk (patterns/node_reduce.h, uses 0 .. T of the segment's slots):
 *   0. every rank copies its chunk into its input area and combines all
 *      of the node's, in rank order, into its own copy of the node's
 *      partial (one flag hand-off, as node_leader on one node);
 *   t. round t = 0 .. T-1 (patterns/node_groups.h, radix K): the node's
 *      level-(t+1) group merges k <= K level-t groups; rail j-1 (local
 *      rank j-1, j = 1 .. k-1) receives the partial of group (a - j) mod
 *      k into its input area of the round's slot, and sends the node's
 *      partial to the nodes of group (a + j) mod k it serves, then says
 *      READY; every rank of the node waits for the k-1 READY and combines
 *      the k partials in group order (its own partial from its private
 *      copy) into its private copy.  Every node of the group computes the
 *      same expression: the same bits everywhere.  The groups of a level
 *      differ by at most one in size, so any N works without folding.
 *   A rail first waits until every rank of the node is done with the
 *   slot's previous use (two uses back), as every writer into a slot does.
 * Chunks whose slices are a cache line or more (patterns/node_reduce.h,
 * node_rails_split: 64 L bytes and up) are combined in slices, step 0 and
 * every round alike: local rank li combines slice li of the operands into
 * the slot's output area and says REDUCED; once every rank of the node
 * has, each copies the whole into its private copy.  Each element is
 * still combined by one expression in the same order (the same bits as
 * unsplit, on every rank), a rank combines 1/L of the vector where it
 * combined all of it, for one more hand-off a use; the REDUCED wait of
 * one use makes the reuse wait of the next redundant (a rank says REDUCED
 * only after it is done with the slot's last use), so a split round has
 * none.
 * After the last round every rank holds the result in its receive buffer
 * (the private copies alternate between it and scratch).  K-1 <= R, the
 * fewest ranks on a node; K is the call's radix (COLIBRI_RADIX), else the
 * one the cost model finds fastest (select.c scans 2 .. R+1), else R+1.
 *
 * Non-commutative operations: the node's inputs in rank order, then the
 * groups in node order, which is rank order when every node holds
 * consecutive ranks (the catalog says so).
 *
 * Memory traffic per rank and vector byte (cost_node_traffic): step 0 as
 * node_leader on one node, 4 local, L-1 streamed, L-1 reduced; each round
 * 2 local (its own partial read, the new one written), k-1 dirty (what a
 * rail received) and k-1 reduced.  Split: step 0 3 + 1/L local, (L-1)/L
 * streamed, (L-1)/L dirty (the others' slices), (L-1)/L reduced; each
 * round 1 + 2/L local, (k-1)/L + (L-1)/L dirty, (k-1)/L reduced; twice
 * the hand-offs.
 *
 * Cost (COST_FORMULA below; N nodes of at most L ranks, n bytes, round t
 * merging k_t groups, its busiest rail sending s_t messages (1 where the
 * groups are the same size), b a byte crossing cores, s a flag hand-off):
 * (T+1) s + (L+1) n b + (L-1) n g + sum_t (a + (1 + s_t) o + (k_t-1) n b_net
 * + (1.5 (k_t-1) + 1) n b + (k_t-1) n g), per chunk of c bytes for the
 * latency terms; the node's port sends (k_t-1) n per round.  Split (f =
 * 1/L): 2 (T+1) s + (4 - 2 f) n b + (L-1) f n g + sum_t (a + (1 + s_t) o +
 * (k_t-1) n b_net + (2 + 1.5 (k_t-1) f - 0.5 f) n b + (k_t-1) f n g).
 */
#include "../common/node_rails.h"

COST_FORMULA(allreduce, node_rails,
             "(T+1) s + (L+1) n b + (L-1) n g + sum_t(a + (1+s_t) o + (k_t-1) n b_net + (1.5 "
             "(k_t-1) + 1) n b + (k_t-1) n g); T = ceil(log_K N), K-1 <= R rails, round t merging "
             "k_t <= K groups of nodes, s_t messages on its busiest rail; slices of 64 B and up "
             "(f = 1/L): 2 (T+1) s + (4-2f) n b + (L-1) f n g + sum_t(a + (1+s_t) o + (k_t-1) n "
             "b_net + (2 + 1.5 (k_t-1) f - 0.5 f) n b + (k_t-1) f n g)");

int allreduce_node_rails_build(const struct sched_params *p, struct schedule *s)
{
    return node_rails_schedule(p, s, BUF_RECV);
}

double allreduce_node_rails_cost(const struct sched_params *p, const struct cost_params *m)
{
    return node_rails_cost(p, m);
}
