/*
 * patterns/node_segment.h (SLOAVx's shared-segment layout) on every
 * placement of p = 1..7 ranks on nodes and random placements up to p = 40,
 * with random block sizes (zeros included).  For every node, checked
 * against the definitions:
 *  - the metadata area comes first, node_meta_bytes long;
 *  - every block the node sends lies in the send area, and together they
 *    tile it exactly; every block it receives from another node lies in
 *    the receive area and they tile it; the segment ends there;
 *  - each node-aggregated block (node_seg_blocks) is exactly the union of
 *    the node's blocks for that node; the node's own is empty;
 *  - what node n's aggregated block for node m holds lines up byte for
 *    byte with where node m expects it in its receive area (the leaders'
 *    exchange moves it in one piece);
 *  - local_off of a rank is where its node-mates wrote their blocks to it;
 *  - in front of each aggregated block for or from another node, its
 *    header (part of the tiling), and node_seg_sizes is the node's largest block
 *    and the most and fewest bytes one of its ranks exchanges.
 * And the rails and flags, for N = 1..80 nodes of at least R = 1..20 ranks
 * and every request g = 0..24: G = min(g or as many as fit, R, N-1); the
 * rails' distances partition 1..N-1 (each distance on exactly one rail,
 * the one node_seg_rail_of names), their counts differ by at most one;
 * what rail i of node n sends at distance j, rail i of node n+j receives
 * from n at the same distance; flag indices are distinct and fill
 * [0, node_seg_flags(L)).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patterns/node_segment.h"
#include "patterns/nodes.h"
#include "../lib/check.h"


enum { P = 40 };
static int node_of[P], local_index[P], node_start[P + 1], node_ranks[P];
static int64_t C[P][P]; /* bytes rank s sends to rank d */
static int64_t meta[P][P * 2 * P];
static int64_t send_at[P], recv_at[P], end[P];
static int64_t send_off[P][P][P], local_off[P][P][P], recv_off[P][P][P]; /* [node][li][rank] */
static int64_t bso[P][P], bsl[P][P], bro[P][P], brl[P][P];                /* [node][m] */

/* Marks [off, off+len) in `used`; false when it overlaps a marked byte or
 * leaves [lo, hi). */
static bool mark(unsigned char *used, int64_t lo, int64_t hi, int64_t off, int64_t len)
{
    if (off < lo || off + len > hi)
        return false;
    for (int64_t b = off; b < off + len; b++) {
        if (used[b - lo])
            return false;
        used[b - lo] = 1;
    }
    return true;
}

static void run(int p, const int *leader_of, unsigned *seed)
{
    const int n_nodes = node_layout_fill(p, leader_of, node_of, local_index, node_start, node_ranks);
    for (int s = 0; s < p; s++)
        for (int d = 0; d < p; d++) {
            *seed = *seed * 1103515245u + 12345u;
            C[s][d] = (*seed >> 16) % 4 == 0 ? 0 : (int64_t)((*seed >> 8) % 13);
        }
    struct node_seg g[P];
    for (int n = 0; n < n_nodes; n++) {
        const int nloc = node_start[n + 1] - node_start[n];
        for (int l = 0; l < nloc; l++) {
            const int r = node_ranks[node_start[n] + l];
            for (int x = 0; x < p; x++) {
                meta[n][l * 2 * p + x] = C[r][x];
                meta[n][l * 2 * p + p + x] = C[x][r];
            }
        }
        g[n] = (struct node_seg){meta[n], p, nloc, n, n_nodes, node_of, node_start, node_ranks};
        node_seg_areas(&g[n], &send_at[n], &recv_at[n], &end[n]);
        check(send_at[n] == node_meta_bytes(nloc, p) && node_meta_bytes(nloc, p) == 16 * nloc * p,
              "p=%d node %d: metadata area", p, n);
        for (int l = 0; l < nloc; l++)
            node_seg_offsets(&g[n], l, node_ranks[node_start[n] + l], send_at[n], recv_at[n],
                             send_off[n][l], local_off[n][l], recv_off[n][l]);
        node_seg_blocks(&g[n], send_at[n], recv_at[n], bso[n], bsl[n], bro[n], brl[n]);
    }
    for (int n = 0; n < n_nodes; n++) {
        const int nloc = node_start[n + 1] - node_start[n];
        unsigned char *used = calloc((size_t)(end[n] - send_at[n]) + 1, 1);
        bool tiles = true, mates = true;
        int64_t sent = 0, got = 0;
        for (int l = 0; l < nloc; l++) {
            const int r = node_ranks[node_start[n] + l];
            for (int d = 0; d < p; d++) {
                tiles &= mark(used, send_at[n], recv_at[n], send_off[n][l][d], C[r][d]);
                sent += C[r][d];
                if (node_of[d] == n) /* d's local_off[l] is where r wrote to d */
                    mates &= local_off[n][local_index[d]][l] == send_off[n][l][d];
            }
            for (int s = 0; s < p; s++)
                if (node_of[s] != n) {
                    tiles &= mark(used + (recv_at[n] - send_at[n]), recv_at[n], end[n],
                                  recv_off[n][l][s], C[s][r]);
                    got += C[s][r];
                }
        }
        /* and the header of each aggregated block for or from another node */
        for (int m = 0; m < n_nodes; m++)
            if (m != n) {
                tiles &= mark(used, send_at[n], recv_at[n], bso[n][m], NSEG_HEADER);
                tiles &= mark(used + (recv_at[n] - send_at[n]), recv_at[n], end[n], bro[n][m],
                              NSEG_HEADER);
                sent += NSEG_HEADER, got += NSEG_HEADER;
            }
        check(tiles && recv_at[n] - send_at[n] == sent && end[n] - recv_at[n] == got,
              "p=%d node %d: blocks do not tile the send and receive areas", p, n);
        check(mates, "p=%d node %d: local_off is not where node-mates wrote", p, n);
        free(used);
        /* aggregated blocks: the union of the node's blocks for node m */
        bool agg = true;
        for (int m = 0; m < n_nodes; m++) {
            int64_t len = 0, lo = INT64_MAX, hi = 0;
            for (int l = 0; l < nloc; l++)
                for (int q = node_start[m]; q < node_start[m + 1]; q++) {
                    const int d = node_ranks[q];
                    const int64_t c = C[node_ranks[node_start[n] + l]][d];
                    len += c;
                    if (c) {
                        lo = send_off[n][l][d] < lo ? send_off[n][l][d] : lo;
                        hi = send_off[n][l][d] + c > hi ? send_off[n][l][d] + c : hi;
                    }
                }
            agg &= m == n ? bsl[n][m] == 0
                          : bsl[n][m] == len + NSEG_HEADER &&
                                (len == 0 || (lo == bso[n][m] + NSEG_HEADER && hi == lo + len));
        }
        check(agg, "p=%d node %d: aggregated send blocks", p, n);
        /* the node's sizes: the largest block, the most and fewest bytes
         * one of its ranks exchanges with the others */
        int64_t v[NSEG_SIZES], big = 0, most = 0, fewest = INT64_MAX;
        node_seg_sizes(&g[n], v);
        for (int l = 0; l < nloc; l++) {
            const int r = node_ranks[node_start[n] + l];
            int64_t out = 0, in = 0;
            for (int x = 0; x < p; x++) {
                big = C[r][x] > big ? C[r][x] : big;
                big = C[x][r] > big ? C[x][r] : big;
                out += x != r ? C[r][x] : 0;
                in += x != r ? C[x][r] : 0;
            }
            const int64_t vol = out > in ? out : in;
            most = vol > most ? vol : most;
            fewest = vol < fewest ? vol : fewest;
        }
        check(v[0] == big && v[1] == most && v[2] == -fewest,
              "p=%d node %d: node sizes %lld %lld %lld, want %lld %lld %lld", p, n,
              (long long)v[0], (long long)v[1], (long long)-v[2], (long long)big, (long long)most,
              (long long)fewest);
    }
    /* node n's aggregated block for m lands where m expects each byte */
    bool lines_up = true;
    for (int n = 0; n < n_nodes; n++)
        for (int m = 0; m < n_nodes; m++) {
            if (m == n)
                continue;
            lines_up &= bsl[n][m] == brl[m][n];
            for (int ls = 0; ls < node_start[n + 1] - node_start[n]; ls++)
                for (int ld = 0; ld < node_start[m + 1] - node_start[m]; ld++) {
                    const int s = node_ranks[node_start[n] + ls], d = node_ranks[node_start[m] + ld];
                    if (C[s][d])
                        lines_up &= send_off[n][ls][d] - bso[n][m] == recv_off[m][ld][s] - bro[m][n];
                }
        }
    check(lines_up, "p=%d: aggregated blocks do not line up with the receivers' layout", p);
}

static void rails(void)
{
    for (int N = 1; N <= 80; N++)
        for (int R = 1; R <= 20; R++)
            for (int g = 0; g <= 24; g++) {
                const int G = node_seg_rails(g, R, N);
                int want = N - 1 < R ? N - 1 : R;
                if (g >= 1 && g < want)
                    want = g;
                if (!check(G == want, "N=%d R=%d g=%d: %d rails, want %d", N, R, g, G, want))
                    continue;
                int owner[81], total = 0, lo = N, hi = 0;
                bool ok = true;
                for (int j = 0; j < N; j++)
                    owner[j] = -1;
                for (int i = 0; i < G + 2; i++) { /* beyond G: no distance */
                    const int m = node_seg_rail_msgs(N, G, i);
                    ok &= i < G || m == 0;
                    if (i < G)
                        lo = m < lo ? m : lo, hi = m > hi ? m : hi;
                    total += m;
                    for (int t = 0; t < m; t++) {
                        const int j = node_seg_rail_dist(G, i, t);
                        ok &= j >= 1 && j < N && owner[j] < 0 && node_seg_rail_of(j, G) == i;
                        if (j >= 1 && j < N)
                            owner[j] = i;
                    }
                }
                for (int j = 1; j < N; j++)
                    ok &= owner[j] >= 0;
                ok &= total == N - 1 && (G == 0 || hi - lo <= 1);
                for (int n = 0; n < N; n++)
                    for (int j = 1; j < N; j++) {
                        const int m = node_seg_to(n, j, N);
                        ok &= m != n && node_seg_from(m, j, N) == n;
                    }
                check(ok, "N=%d R=%d g=%d: the rails do not partition the distances", N, R, g);
            }
    for (int L = 1; L <= 20; L++) {
        unsigned char seen[20 * NSEG_FLAG_KINDS] = {0};
        bool ok = node_seg_flags(L) == L * NSEG_FLAG_KINDS;
        for (int l = 0; l < L; l++)
            for (int f = 0; f < NSEG_FLAG_KINDS; f++) {
                const int x = node_seg_flag(l, (enum node_seg_flag)f);
                ok &= x >= 0 && x < node_seg_flags(L) && !seen[x];
                if (x >= 0 && x < node_seg_flags(L))
                    seen[x] = 1;
            }
        check(ok, "L=%d: flag indices", L);
    }
}

int main(void)
{
    unsigned seed = 7;
    rails();
    int leader_of[P];
    /* every placement of p <= 7 ranks: restricted growth strings */
    for (int p = 1; p <= 7; p++) {
        int a[8] = {0};
        for (;;) {
            int first[8];
            for (int r = 0, k = 0; r < p; r++) {
                if (a[r] == k)
                    first[k++] = r;
                leader_of[r] = first[a[r]];
            }
            run(p, leader_of, &seed);
            int r = p - 1;
            for (; r > 0; r--) {
                int mx = 0;
                for (int j = 0; j < r; j++)
                    mx = a[j] > mx ? a[j] : mx;
                if (a[r] <= mx) {
                    a[r]++;
                    break;
                }
                a[r] = 0;
            }
            if (r == 0)
                break;
        }
    }
    for (int p = 8; p <= P; p++)
        for (int trial = 0; trial < 20; trial++) {
            for (int r = 0; r < p; r++) {
                seed = seed * 1103515245u + 12345u;
                const int j = (int)((seed >> 16) % (unsigned)(r + 1));
                leader_of[r] = j == r ? r : leader_of[j];
            }
            run(p, leader_of, &seed);
        }
    return check_summary();
}
