/*
 * The node-aware data-movement schedules (bcast node_leader, barrier
 * node_leader, allgather node_rails, gather and scatter node_leader) run on real bytes by the loopback
 * runner (loopback.h) with the reduction segment's slots and flags, every
 * rank of odd layouts together: one rank per node, uneven 5-2-7,
 * round-robin, one node of 2 to 128 ranks, 3 x 4, 16 x 16; chunks from
 * one byte (so that a call takes many uses of the slots and reuses them),
 * three calls in a row on the same segment with no barrier between them;
 * every root of the bcast, in place or not for the allgather, the flat
 * algorithms between nodes that the selector may choose.  Each run checks
 * every received byte, message sizes, deadlock, and for the barrier that
 * no rank leaves before it has heard (directly, or through flags and
 * others' messages) from every rank.
 *
 * The slots' protocol, which calls of different collectives on one
 * communicator share, holds in every rank's schedule: its DONE in every
 * use, a wait before its first flag of the first two uses (a barrier
 * without either hung on real ranks).
 *
 * Removing any one flag wait from one rank's schedule (one that can hold
 * something back within the run: not a wait for a use before the call's
 * first, nor for the rank's own flag) must fail one of those checks, in
 * the runner's sweeps, with the rank stepped first and the rank whose
 * flag it waits for last, or with that rank starved (it moves only when
 * no other can).
 *
 * Dry runs at 256 ranks (16 x 16): no message inside a node; the bcast's
 * node ports carry the buffer once into every node but the root's; the
 * allgather's carry (p - L) b in and L (N-1) b out, the least there is,
 * in one round of ceil((N-1)/G) messages each way per rail.
 */
#include "flag_waits.h"
#include "node_layouts.h"
#include "loopback.h"
#include "../lib/check.h"

#include "coll/algorithm.h"
#include "patterns/node_segment.h"

#define N_LAYOUTS 9
static const char *const layout_names[N_LAYOUTS] = {
    "5x1", "5-2-7", "round-robin 4x3", "1x2", "1x7", "3x4", "2x2", "1x128", "16x16"};
static int layout_sizes[N_LAYOUTS];
static struct layout_mem lay[N_LAYOUTS];

static void make_layouts(void)
{
    int uneven[14] = {0, 0, 0, 0, 0, 5, 5, 7, 7, 7, 7, 7, 7, 7};
    even_layout(&lay[0], 5, 1, 0);
    make_layout(&lay[1], 14, uneven);
    even_layout(&lay[2], 4, 3, 1);
    even_layout(&lay[3], 1, 2, 0);
    even_layout(&lay[4], 1, 7, 0);
    even_layout(&lay[5], 3, 4, 0);
    even_layout(&lay[6], 2, 2, 0);
    even_layout(&lay[7], 1, 128, 0);
    even_layout(&lay[8], 16, 16, 0);
    for (int k = 0; k < N_LAYOUTS; k++)
        layout_sizes[k] = lay[k].l.node_start[lay[k].l.n_nodes];
}

static const char *describe(const struct lb_case *c, const char *layout)
{
    static char buf[256];
    snprintf(buf, sizeof buf, "%s %s over %s, layout %s p=%d bytes=%lld root=%d chunk=%lld%s",
             colibri_coll_name(c->alg->coll), c->alg->name, c->inner ? c->inner->name : "-",
             layout, c->p, (long long)c->block, c->root, (long long)c->node_chunk,
             c->in_place ? " in-place" : "");
    return buf;
}

static bool run(const struct lb_case *c, const char *layout, struct sched_cost *costs)
{
    char err[256];
    const int rc = lb_run(c, costs, err, sizeof err);
    return check(rc == 0, "%s: %s", describe(c, layout), err);
}

/* The flat algorithms of `coll` a leader may run between nodes. */
static int inners(colibri_coll coll, const struct algorithm **out, int max)
{
    int n = 0;
    for (int i = 0; i < catalog_count && n < max; i++)
        if (catalog[i].coll == coll && !(catalog[i].restrictions & R_NODE_AWARE))
            out[n++] = &catalog[i];
    return n;
}

static void test_bcast(void)
{
    const struct algorithm *a = lb_alg(COLIBRI_BCAST, "node_leader"), *in[8];
    const int n_in = inners(COLIBRI_BCAST, in, 8);
    const long long before = check_failed;
    int runs = 0;
    for (int k = 0; k < N_LAYOUTS; k++) {
        const int p = layout_sizes[k];
        const int roots[4] = {0, p - 1, p / 2, p > 3 ? 3 : 0};
        const int64_t chunks[] = {1, 3, 64};
        for (int x = 0; x < (p > 64 ? 1 : n_in); x++)
            for (int ri = 0; ri < (p > 64 ? 2 : 4); ri++)
                for (unsigned ci = 0; ci < 3; ci++)
                    for (int64_t n = 0; n <= 200; n = n ? n * 4 + 1 : 1) {
                        if (p > 64 && (n > 5 || ci < 2))
                            continue;
                        struct lb_case c = {.alg = a, .p = p, .block = n, .root = roots[ri],
                                            .layout = &lay[k].l, .node_chunk = chunks[ci],
                                            .inner = in[x], .calls = 3};
                        run(&c, layout_names[k], NULL);
                        runs++;
                    }
    }
    printf("%-10s %-12s %s (%d runs of 3 calls)\n", "bcast", a->name,
           check_failed == before ? "ok" : "FAILED", runs);
}

static void test_barrier(void)
{
    const struct algorithm *a = lb_alg(COLIBRI_BARRIER, "node_leader"), *in[8];
    const int n_in = inners(COLIBRI_BARRIER, in, 8);
    const long long before = check_failed;
    int runs = 0;
    for (int k = 0; k < N_LAYOUTS; k++)
        for (int x = 0; x < n_in; x++)
            for (int radix = 0; radix <= 3; radix++) {
                struct lb_case c = {.alg = a, .p = layout_sizes[k], .radix = radix,
                                    .layout = &lay[k].l, .node_chunk = 1, .inner = in[x],
                                    .calls = 3};
                run(&c, layout_names[k], NULL);
                runs++;
            }
    printf("%-10s %-12s %s (%d runs of 3 calls)\n", "barrier", a->name,
           check_failed == before ? "ok" : "FAILED", runs);
}

static void test_allgather(void)
{
    const struct algorithm *a = lb_alg(COLIBRI_ALLGATHER, "node_rails");
    const long long before = check_failed;
    int runs = 0;
    for (int k = 0; k < N_LAYOUTS; k++) {
        const int p = layout_sizes[k];
        const int Lmax = node_max_ranks(lay[k].l.n_nodes, lay[k].l.node_start);
        /* pieces of 1 byte, of 2, and whole blocks */
        const int64_t chunks[] = {(p + Lmax) / (Lmax + 1), (2 * p + Lmax) / (Lmax + 1), 1000};
        for (unsigned ci = 0; ci < 3; ci++)
            for (int ip = 0; ip < 2; ip++)
                for (int64_t b = 0; b <= 17; b = b ? b * 3 + 2 : 1) {
                    if (p > 64 && b > 5)
                        continue;
                    struct lb_case c = {.alg = a, .p = p, .block = b, .in_place = ip,
                                        .layout = &lay[k].l, .node_chunk = chunks[ci],
                                        .calls = 3};
                    if (node_gather_piece(c.node_chunk, Lmax, p) < 1) {
                        check(false, "layout %s chunk %lld: no piece", layout_names[k],
                              (long long)c.node_chunk);
                        continue;
                    }
                    run(&c, layout_names[k], NULL);
                    runs++;
                }
    }
    printf("%-10s %-12s %s (%d runs of 3 calls)\n", "allgather", a->name,
           check_failed == before ? "ok" : "FAILED", runs);
}

/* Allgatherv's block sizes for a case: equal, uneven with empty blocks,
 * one long block among short ones, all empty. */
#define V_PATTERNS 4
static void v_counts(int pattern, int p, int64_t b, int64_t *n)
{
    for (int j = 0; j < p; j++)
        n[j] = pattern == 0   ? b
               : pattern == 1 ? (j % 4 == 1 ? 0 : (j * 7 + 3) % (b + 2))
               : pattern == 2 ? (j == p / 2 ? 3 * b + 2 : 1)
                              : 0;
}

/* allgatherv node_rails: every layout, the four patterns of block sizes,
 * packed or reversed with gaps, in place or not, pieces of 1 and 2 bytes
 * (many uses of the slots: the longest block needs the most) and whole
 * blocks.  And the pure piece arithmetic. */
static void test_allgatherv(void)
{
    const struct algorithm *a = lb_alg(COLIBRI_ALLGATHERV, "node_rails");
    const long long before = check_failed;
    int runs = 0;
    check(node_v_piece_len(10, 0, 4) == 4 && node_v_piece_len(10, 2, 4) == 2 &&
              node_v_piece_len(10, 3, 4) == 0 && node_v_piece_len(0, 0, 4) == 0 &&
              node_v_uses(0, 4) == 1 && node_v_uses(4, 4) == 1 && node_v_uses(5, 4) == 2 &&
              node_v_uses(9, 1) == 9,
          "allgatherv pieces and uses");
    int64_t *n = malloc(256 * sizeof *n);
    for (int k = 0; k < N_LAYOUTS && n; k++) {
        const int p = layout_sizes[k];
        const int Lmax = node_max_ranks(lay[k].l.n_nodes, lay[k].l.node_start);
        const int64_t chunks[] = {(p + Lmax) / (Lmax + 1), (2 * p + Lmax) / (Lmax + 1), 1000};
        for (int pat = 0; pat < V_PATTERNS; pat++)
            for (unsigned ci = 0; ci < 3; ci++)
                for (int ip = 0; ip < 2; ip++)
                    for (int dl = 0; dl < 2; dl++)
                        for (int64_t b = 1; b <= 17; b = b * 3 + 2) {
                            if ((p > 64 && (b > 5 || dl)) || (pat == 3 && b > 1))
                                continue;
                            v_counts(pat, p, b, n);
                            struct lb_case c = {.alg = a, .p = p, .counts = n, .in_place = ip,
                                                .displs = dl ? LB_REVERSED : LB_PACKED,
                                                .layout = &lay[k].l, .node_chunk = chunks[ci],
                                                .calls = 3};
                            if (!run(&c, layout_names[k], NULL))
                                fprintf(stderr, "  (pattern %d, block %lld)\n", pat, (long long)b);
                            runs++;
                        }
    }
    free(n);
    printf("%-10s %-12s %s (%d runs of 3 calls)\n", "allgatherv", a->name,
           check_failed == before ? "ok" : "FAILED", runs);
}

/* gather and scatter node_leader: every layout, four roots, in place or
 * not at the root, pieces of 1 and 2 bytes (many uses of the slots) and
 * whole blocks. */
static void test_rooted(colibri_coll coll)
{
    const struct algorithm *a = lb_alg(coll, "node_leader"), *in[9] = {NULL};
    /* none (one message per leader) and every flat one between leaders
     * (on nodes of equal size) */
    const int n_in = 1 + inners(coll, in + 1, 8);
    const long long before = check_failed;
    int runs = 0;
    for (int k = 0; k < N_LAYOUTS; k++) {
        const int p = layout_sizes[k];
        const int Lmax = node_max_ranks(lay[k].l.n_nodes, lay[k].l.node_start);
        const int roots[4] = {0, p - 1, p / 2, p > 3 ? 3 : 0};
        const int64_t chunks[] = {(p + Lmax) / (Lmax + 1), (2 * p + Lmax) / (Lmax + 1), 1000};
        for (int x = 0; x < n_in; x++)
            for (int ri = 0; ri < (p > 64 ? 2 : 4); ri++)
                for (unsigned ci = 0; ci < 3; ci++)
                    for (int ip = 0; ip < 2; ip++)
                        for (int64_t b = 0; b <= 17; b = b ? b * 3 + 2 : 1) {
                            if (p > 64 && (b > 5 || x > 1))
                                continue;
                            struct lb_case c = {.alg = a, .p = p, .block = b, .root = roots[ri],
                                                .in_place = ip, .layout = &lay[k].l,
                                                .node_chunk = chunks[ci], .inner = in[x],
                                                .calls = 3};
                            run(&c, layout_names[k], NULL);
                            runs++;
                        }
    }
    printf("%-10s %-12s %s (%d runs of 3 calls)\n", colibri_coll_name(coll), a->name,
           check_failed == before ? "ok" : "FAILED", runs);
}

/* The slots' protocol, which calls of different collectives on one
 * communicator share: every rank sets its DONE in every use of its run
 * (a later writer of the slot waits for it), sets only its own flags,
 * names flags of its node's slot, and waits before its first set of a
 * use. */
static void test_protocol(void)
{
    const struct algorithm *algs[5] = {lb_alg(COLIBRI_BCAST, "node_leader"),
                                       lb_alg(COLIBRI_BARRIER, "node_leader"),
                                       lb_alg(COLIBRI_ALLGATHER, "node_rails"),
                                       lb_alg(COLIBRI_GATHER, "node_leader"),
                                       lb_alg(COLIBRI_SCATTER, "node_leader")};
    const struct algorithm *bin = lb_alg(COLIBRI_BCAST, "binomial");
    const struct algorithm *dis = lb_alg(COLIBRI_BARRIER, "dissemination");
    const long long before = check_failed;
    for (int k = 0; k < N_LAYOUTS; k++) {
        const struct node_layout *l = &lay[k].l;
        const int p = layout_sizes[k];
        for (int a = 0; a < 5; a++)
            for (int r = 0; r < p; r++) {
                struct sched_params sp = {.rank = r, .size = p, .root = p / 2, .count = 7,
                                          .elem_size = 1, .layout = l, .node_chunk = p + 2,
                                          .inner = a == 0 ? bin->build : dis->build};
                struct schedule s;
                sched_init(&s);
                if (!check(algs[a]->build(&sp, &s) == 0, "%s builds", algs[a]->name))
                    continue;
                const int li = l->local_index[r];
                const int L = l->node_start[l->node_of[r] + 1] - l->node_start[l->node_of[r]];
                int64_t done = 0;
                /* a wait since the last use's first set, before this
                 * use's first set (next: the use whose first set is due) */
                bool waited = false;
                int64_t next = 0;
                for (uint32_t i = 0; i < s.n_ops; i++) {
                    const struct sched_op *op = &s.ops[i];
                    const int64_t f = op->kind == SOP_FLAG_SET ? op->dst_off : op->src_off;
                    if (op->kind != SOP_FLAG_SET && op->kind != SOP_FLAG_WAIT)
                        continue;
                    check(f >= 0 && f < node_slot_flags(L) && (op->flags & SOP_SLOT_MASK),
                          "%s rank %d: flag %lld outside its slot", algs[a]->name, r,
                          (long long)f);
                    /* uses 0 and 1, whose slots an earlier call used
                     * last, start with a wait (for this rank's own earlier
                     * use of the slot, or for a rank that waited for
                     * it): an outstanding nonblocking call of its own on
                     * the slot would otherwise store a lower epoch over
                     * this use's flags afterwards (within a call, the
                     * uses of a slot follow one another anyway) */
                    waited |= op->kind == SOP_FLAG_WAIT;
                    if (op->kind == SOP_FLAG_SET && op->count == next) {
                        check(next >= NODE_SLOTS || waited,
                              "%s layout %s rank %d: use %lld starts with a set", algs[a]->name,
                              layout_names[k], r, (long long)next);
                        waited = false, next++;
                    }
                    if (op->kind == SOP_FLAG_SET) {
                        check(f / NODE_FLAG_KINDS == li, "%s rank %d sets another's flag",
                              algs[a]->name, r);
                        /* DONE of uses 0, 1, 2, ... in order */
                        if (f == node_flag(li, NODE_DONE) && op->count == done)
                            done++;
                    }
                }
                check(done == s.shm_epochs && s.shm_epochs > 0,
                      "%s layout %s rank %d: DONE in %lld of its %lld uses", algs[a]->name,
                      layout_names[k], r, (long long)done, (long long)s.shm_epochs);
                sched_free(&s);
            }
    }
    printf("%-10s %-12s %s\n", "protocol", "node-aware",
           check_failed == before ? "ok (every use ends with every rank's DONE)" : "FAILED");
}

/* ---- a missing wait must show ---- */

static const struct algorithm *drop_base;
static int drop_rank = -1, drop_wait = -1;

static int dropped_build(const struct sched_params *p, struct schedule *s)
{
    const int rc = drop_base->build(p, s);
    if (rc != 0 || p->rank != drop_rank)
        return rc;
    return flag_wait_drop(s, drop_wait);
}

/* Every wait of every rank of case c (its algorithm the real one) removed
 * in turn: the run must fail (in the runner's sweeps, with the rank first
 * and the owner of the flag last, or with that owner starved).  Returns how many were tried; *caught how
 * many failed. */
static int drop_each(struct lb_case c, const char *layout, int *caught)
{
    const struct node_layout *l = c.layout;
    const int p = c.p;
    int tried = 0;
    drop_base = c.alg;
    const struct algorithm dropped = {"dropped", c.alg->coll, c.alg->restrictions,
                                      dropped_build, c.alg->cost, "", false};
    for (int r = 0; r < p; r++) {
        struct sched_params sp = {.rank = r, .size = p, .root = c.root, .count = c.block,
                                  .elem_size = 1, .in_place = c.in_place, .radix = c.radix,
                                  .layout = l, .node_chunk = c.node_chunk,
                                  .inner = c.inner ? c.inner->build : NULL};
        int64_t v[2 * 16]; /* allgatherv: the blocks' bytes and places (p <= 16 here) */
        if (c.alg->coll == COLIBRI_ALLGATHERV) {
            lb_layout(&c, r, false, v, v + p);
            sp.rcounts = v, sp.rdispls = v + p;
            sp.count = sp.volume_max = 0;
            for (int j = 0; j < p; j++) {
                sp.count += v[j];
                sp.volume_max = v[j] > sp.volume_max ? v[j] : sp.volume_max;
            }
        }
        struct schedule s;
        sched_init(&s);
        c.alg->build(&sp, &s);
        struct sched_cost sc;
        sched_cost(&s, 1, &sc);
        for (int w = 0; w < sc.flag_waits; w++) {
            int owner;
            if (!wait_matters(&s, w, &owner) || owner == l->local_index[r])
                continue;
            drop_rank = r, drop_wait = w, tried++;
            const int y = l->node_ranks[l->node_start[l->node_of[r]] + owner];
            int *order = malloc((size_t)p * sizeof *order), o = 0;
            order[o++] = r;
            for (int q = 0; q < p; q++)
                if (q != r && q != y)
                    order[o++] = q;
            order[o++] = y;
            bool found = false;
            char err[256];
            for (int way = 0; way < 3 && !found; way++) {
                struct lb_case d = c;
                d.alg = &dropped;
                d.order = way ? order : NULL;
                d.starve = way == 2, d.slow = y;
                found = lb_run(&d, NULL, err, sizeof err) != 0;
            }
            free(order);
            *caught += found;
            check(found, "%s: rank %d runs without its wait %d (for local rank %d)",
                  describe(&c, layout), r, w, owner);
        }
        sched_free(&s);
    }
    drop_rank = drop_wait = -1;
    return tried;
}

static void test_dropped_waits(void)
{
    struct layout_mem sm[3];
    int uneven[9] = {0, 0, 0, 3, 3, 5, 5, 5, 5}; /* 3-2-4 */
    make_layout(&sm[0], 9, uneven);
    even_layout(&sm[1], 3, 3, 1);
    even_layout(&sm[2], 1, 5, 0);
    const char *names[3] = {"3-2-4", "round-robin 3x3", "1x5"};
    const int ps[3] = {9, 9, 5};
    const struct algorithm *bc = lb_alg(COLIBRI_BCAST, "node_leader");
    const struct algorithm *ba = lb_alg(COLIBRI_BARRIER, "node_leader");
    const struct algorithm *ag = lb_alg(COLIBRI_ALLGATHER, "node_rails");
    const struct algorithm *agv = lb_alg(COLIBRI_ALLGATHERV, "node_rails");
    const struct algorithm *bin = lb_alg(COLIBRI_BCAST, "binomial");
    const struct algorithm *dis = lb_alg(COLIBRI_BARRIER, "dissemination");
    const struct algorithm *ga = lb_alg(COLIBRI_GATHER, "node_leader");
    const struct algorithm *sc = lb_alg(COLIBRI_SCATTER, "node_leader");
    int tried[6] = {0}, caught[6] = {0};
    const long long before = check_failed;
    for (int k = 0; k < 3; k++) {
        const int p = ps[k];
        /* 5 chunks: a use reuses the slot of the use two before it */
        for (int root = 0; root < p; root += 4) {
            struct lb_case c = {.alg = bc, .p = p, .block = 9, .root = root,
                                .layout = &sm[k].l, .node_chunk = 2, .inner = bin};
            tried[0] += drop_each(c, names[k], &caught[0]);
        }
        struct lb_case c = {.alg = ba, .p = p, .layout = &sm[k].l, .node_chunk = 1,
                            .inner = dis};
        tried[1] += drop_each(c, names[k], &caught[1]);
        const int Lmax = node_max_ranks(sm[k].l.n_nodes, sm[k].l.node_start);
        for (int ip = 0; ip < 2; ip++) {
            /* pieces of one byte: 3 uses of the slots */
            struct lb_case g = {.alg = ag, .p = p, .block = 3, .in_place = ip,
                                .layout = &sm[k].l, .node_chunk = (p + Lmax) / (Lmax + 1)};
            tried[2] += drop_each(g, names[k], &caught[2]);
            /* allgatherv, reversed with gaps: blocks of 3 bytes in pieces
             * of one (3 uses), and uneven blocks of 1 to 5 bytes whole (one
             * use).  Every piece holds a byte: a rank's wait for another
             * whose piece of a use is empty guards the slot for the uses
             * after (this wait is what says that the other is done with
             * the use before), which the runner's orders do not expose */
            int64_t n[9];
            for (int j = 0; j < p; j++)
                n[j] = 3;
            struct lb_case gv = {.alg = agv, .p = p, .counts = n, .in_place = ip,
                                 .displs = LB_REVERSED, .layout = &sm[k].l,
                                 .node_chunk = (p + Lmax) / (Lmax + 1)};
            tried[5] += drop_each(gv, names[k], &caught[5]);
            int64_t w[9];
            for (int j = 0; j < p; j++)
                w[j] = 1 + (j * 3) % 5;
            gv.counts = w;
            gv.node_chunk = 64;
            tried[5] += drop_each(gv, names[k], &caught[5]);
            /* the same pieces for gather and scatter, two roots */
            for (int root = 0; root < p; root += p - 1)
                for (int x = 0; x < 2; x++) {
                    struct lb_case r = g;
                    r.root = root;
                    r.alg = ga;
                    r.inner = x ? lb_alg(COLIBRI_GATHER, "binomial") : NULL;
                    tried[3] += drop_each(r, names[k], &caught[3]);
                    r.alg = sc;
                    r.inner = x ? lb_alg(COLIBRI_SCATTER, "binomial") : NULL;
                    tried[4] += drop_each(r, names[k], &caught[4]);
                }
        }
    }
    for (int k = 0; k < 3; k++)
        free(sm[k].node_of);
    printf("%-10s %-12s %s (bcast %d of %d waits removed caught, barrier %d of %d, allgather "
           "%d of %d, allgatherv %d of %d, gather %d of %d, scatter %d of %d)\n",
           "waits", "node-aware", check_failed == before ? "ok" : "FAILED", caught[0], tried[0],
           caught[1], tried[1], caught[2], tried[2], caught[5], tried[5], caught[3], tried[3],
           caught[4], tried[4]);
    check(tried[3] > 0 && tried[4] > 0 && tried[5] > 0,
          "gather, scatter and allgatherv have waits that matter");
}

/* ---- dry runs at 256 ranks ---- */

static void test_dry_runs(void)
{
    const struct layout_mem *m = &lay[8]; /* 16 x 16 */
    const struct node_layout *l = &m->l;
    const int N = l->n_nodes, L = 16, p = N * L;
    const int64_t n = 4096, chunk = 65536;
    const long long before = check_failed;
    double in_b[16] = {0}, out_b[16] = {0}, in_g[16] = {0}, out_g[16] = {0};
    int on_node = 0, rounds_g = 0;
    int64_t most_msgs = 0;
    const struct algorithm *bc = lb_alg(COLIBRI_BCAST, "node_leader");
    const struct algorithm *ag = lb_alg(COLIBRI_ALLGATHER, "node_rails");
    const struct algorithm *ba = lb_alg(COLIBRI_BARRIER, "node_leader");
    const struct algorithm *bin = lb_alg(COLIBRI_BCAST, "binomial");
    const struct algorithm *dis = lb_alg(COLIBRI_BARRIER, "dissemination");
    for (int r = 0; r < p; r++)
        for (int which = 0; which < 3; which++) {
            const struct algorithm *a = which == 0 ? bc : which == 1 ? ag : ba;
            struct sched_params sp = {.rank = r, .size = p, .root = 37, .count = n,
                                      .elem_size = 1, .layout = l, .node_chunk = chunk,
                                      .inner = which == 0 ? bin->build : dis->build};
            struct schedule s;
            sched_init(&s);
            if (!check(a->build(&sp, &s) == 0, "%s builds at 16x16", a->name))
                return;
            for (uint32_t i = 0; i < s.n_ops; i++) {
                const struct sched_op *op = &s.ops[i];
                if (op->kind != SOP_SEND && op->kind != SOP_RECV)
                    continue;
                on_node += l->node_of[op->peer] == l->node_of[r];
                double *to = op->kind == SOP_SEND ? (which == 1 ? out_g : out_b)
                                                  : (which == 1 ? in_g : in_b);
                if (which < 2)
                    to[l->node_of[r]] += (double)op->count;
            }
            if (which == 1) {
                struct sched_cost c;
                sched_cost(&s, 1, &c);
                rounds_g = c.rounds > rounds_g ? c.rounds : rounds_g;
                most_msgs = c.msgs_sent > most_msgs ? c.msgs_sent : most_msgs;
            }
            sched_free(&s);
        }
    check(on_node == 0, "16x16: %d messages inside a node", on_node);
    const int root_node = l->node_of[37];
    for (int x = 0; x < N; x++) {
        check(in_b[x] == (x == root_node ? 0 : n), "bcast: node %d's port takes %.0f bytes", x,
              in_b[x]);
        check(in_g[x] == (double)(p - L) * n && out_g[x] == (double)L * (N - 1) * n,
              "allgather: node %d's port takes %.0f and gives %.0f bytes", x, in_g[x], out_g[x]);
    }
    const int G = node_seg_rails(0, L, N);
    check(rounds_g == 1 && most_msgs == (N - 1 + G - 1) / G,
          "allgather: %d network rounds, %lld messages on the busiest rank", rounds_g,
          (long long)most_msgs);
    /* allgatherv, uneven blocks (some empty): node x's port takes the
     * blocks it does not hold and gives its own to each other node, in one
     * round; every use ends with every rank's DONE */
    {
        const struct algorithm *agv = lb_alg(COLIBRI_ALLGATHERV, "node_rails");
        int64_t cnt[256], dsp[256], total = 0, largest = 0;
        double held[16] = {0}, in_v[16] = {0}, out_v[16] = {0};
        for (int j = 0; j < p; j++) {
            cnt[j] = j % 5 == 2 ? 0 : (j * 37) % 300;
            dsp[j] = total, total += cnt[j];
            largest = cnt[j] > largest ? cnt[j] : largest;
            held[l->node_of[j]] += (double)cnt[j];
        }
        int rounds_v = 0, inside = 0;
        for (int r = 0; r < p; r++) {
            struct sched_params sp = {.rank = r, .size = p, .count = total, .volume_max = largest,
                                      .rcounts = cnt, .rdispls = dsp, .elem_size = 1,
                                      .layout = l, .node_chunk = chunk};
            struct schedule s;
            sched_init(&s);
            if (!check(agv->build(&sp, &s) == 0, "allgatherv node_rails builds at 16x16"))
                return;
            int64_t done = 0;
            for (uint32_t i = 0; i < s.n_ops; i++) {
                const struct sched_op *op = &s.ops[i];
                if (op->kind == SOP_FLAG_SET && op->dst_off == node_flag(l->local_index[r], NODE_DONE))
                    done++;
                if (op->kind != SOP_SEND && op->kind != SOP_RECV)
                    continue;
                inside += l->node_of[op->peer] == l->node_of[r];
                (op->kind == SOP_SEND ? out_v : in_v)[l->node_of[r]] += (double)op->count;
            }
            check(done == s.shm_epochs && done == 1, "allgatherv rank %d: DONE in %lld of %lld uses",
                  r, (long long)done, (long long)s.shm_epochs);
            struct sched_cost c;
            sched_cost(&s, 1, &c);
            rounds_v = c.rounds > rounds_v ? c.rounds : rounds_v;
            sched_free(&s);
        }
        check(inside == 0 && rounds_v == 1, "allgatherv: %d messages inside a node, %d rounds",
              inside, rounds_v);
        for (int x = 0; x < N; x++)
            check(in_v[x] == (double)total - held[x] && out_v[x] == held[x] * (N - 1),
                  "allgatherv: node %d's port takes %.0f and gives %.0f bytes (holds %.0f of %lld)",
                  x, in_v[x], out_v[x], held[x], (long long)total);
    }
    /* gather and scatter: one message per other node, to or from the
     * root, L b each: the root's node port (p - L) b, every other L b */
    for (int which = 0; which < 2; which++) {
        const struct algorithm *a = lb_alg(which ? COLIBRI_SCATTER : COLIBRI_GATHER, "node_leader");
        double port[16] = {0};
        int64_t root_msgs = 0, others = 0;
        for (int r = 0; r < p; r++) {
            struct sched_params sp = {
                .rank = r, .size = p, .root = 37, .count = n, .elem_size = 1, .layout = l,
                .node_chunk = chunk,
                .inner = lb_alg(which ? COLIBRI_SCATTER : COLIBRI_GATHER, "linear")->build};
            struct schedule s;
            sched_init(&s);
            if (!check(a->build(&sp, &s) == 0, "%s %s builds at 16x16",
                       colibri_coll_name(a->coll), a->name))
                return;
            for (uint32_t i = 0; i < s.n_ops; i++) {
                const struct sched_op *op = &s.ops[i];
                if (op->kind != SOP_SEND && op->kind != SOP_RECV)
                    continue;
                check(l->node_of[op->peer] != l->node_of[r], "%s: a message inside a node",
                      colibri_coll_name(a->coll));
                port[l->node_of[r]] += (double)op->count;
                if (r == 37)
                    root_msgs++;
                else
                    others++;
            }
            sched_free(&s);
        }
        const int64_t uses = node_chunks(n, node_gather_piece(chunk, L, p));
        check(root_msgs == (N - 1) * uses && others == (N - 1) * uses,
              "%s: the root %lld messages, the others %lld (%d nodes, %lld uses)",
              colibri_coll_name(a->coll), (long long)root_msgs, (long long)others, N,
              (long long)uses);
        for (int x = 0; x < N; x++)
            check(port[x] == (x == root_node ? (double)(p - L) * n : (double)L * n),
                  "%s: node %d's port carries %.0f bytes", colibri_coll_name(a->coll), x, port[x]);
    }
    printf("%-10s %-12s %s (16x16: no message inside a node; bcast n into each other node once; "
           "allgather 1 round, %lld messages per rail, allgatherv's ports its blocks once; gather "
           "and scatter one message per node and use)\n",
           "dry runs", "node-aware", check_failed == before ? "ok" : "FAILED",
           (long long)most_msgs);
}

int main(void)
{
    make_layouts();
    test_bcast();
    test_barrier();
    test_allgather();
    test_allgatherv();
    test_rooted(COLIBRI_GATHER);
    test_rooted(COLIBRI_SCATTER);
    test_protocol();
    test_dropped_waits();
    test_dry_runs();
    for (int k = 0; k < N_LAYOUTS; k++)
        free(lay[k].node_of);
    return check_summary();
}
