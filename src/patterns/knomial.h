/*
 * Recursive multiplying (k-ary butterfly) over p ranks with mixed radix.
 *
 * q = j * k^m is the largest number of that form <= p (k^m <= p < k^(m+1),
 * j = floor(p / k^m) in 1..k-1).  The q participants are numbered in mixed
 * radix: m digits of radix k, then (when j > 1) one digit of radix j.  Round
 * i exchanges with the ranks that differ only in digit i, lowest digit
 * first, so after round i a rank holds the data of an aligned, contiguous
 * interval of ranks (rank order survives, for non-commutative operations).
 * The rem = p - q < k^m <= q extra ranks fold pairwise onto their neighbours
 * beforehand, as in fold.h but onto q instead of a power of two.
 *
 * Pure functions, no MPI: unit tests call them directly.
 */
#ifndef COLIBRI_PATTERN_KNOMIAL_H
#define COLIBRI_PATTERN_KNOMIAL_H

struct kn_plan {
    int k, m, j;  /* radix k for m rounds, then radix j (j > 1 adds a round) */
    int q, rem;   /* participants, folded-out ranks */
};

static inline void kn_make_plan(int p, int k, struct kn_plan *pl)
{
    int km = 1;
    pl->k = k;
    pl->m = 0;
    while (km <= p / k) {
        km *= k;
        pl->m++;
    }
    pl->j = p / km;
    pl->q = pl->j * km;
    pl->rem = p - pl->q;
}

static inline int kn_rounds(const struct kn_plan *pl) { return pl->m + (pl->j > 1); }

/* Radix of round i; *stride: distance between the ranks it joins. */
static inline int kn_round(const struct kn_plan *pl, int i, int *stride)
{
    *stride = 1;
    for (int e = 0; e < i; e++)
        *stride *= pl->k;
    return i < pl->m ? pl->k : pl->j;
}

#endif
