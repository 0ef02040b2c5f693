/*
 * The xorshift64 generator (Marsaglia 2003) the tests draw their random
 * inputs from: one stream per test process, seeded by assigning `rng`.
 */
#ifndef COLIBRI_TEST_XORSHIFT_H
#define COLIBRI_TEST_XORSHIFT_H

#include <stdint.h>

static uint64_t rng = 88172645463325252ull;

static inline uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

#endif
