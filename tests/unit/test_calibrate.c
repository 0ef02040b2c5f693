/*
 * Calibration (src/select/calibrate.c) on synthetic measurements: times
 * made from known parameters, with deterministic multiplicative noise, give
 * those parameters back.  No MPI.
 */
#include <math.h>
#include <stdio.h>

#include "select/calibrate.h"

#include "../lib/check.h"
#include "../lib/xorshift.h"
#define CHECK(cond, ...) \
    do { if (check_count(cond)) check_at(__FILE__, __LINE__, __VA_ARGS__); } while (0)

/* 1 + a uniform draw in [-noise, noise] */
static double jitter(double noise)
{
    return 1 + noise * (2.0 * (double)(next() % 1000001) / 1e6 - 1);
}

static bool near(double got, double want, double rel)
{
    return fabs(got - want) <= rel * fabs(want);
}

/* Ping-pong times, 8 B to 4 MiB: eager below `eager` (alpha, beta_e), a
 * rendezvous above it (alpha_r, beta). */
static int p2p(struct calib_sample *s, double alpha, double beta_e, long long eager,
               double alpha_r, double beta, double noise)
{
    int n = 0;
    for (long long x = 8; x <= 4 << 20; x *= 2, n++) {
        s[n].x = (double)x;
        s[n].t = (x <= eager ? alpha + beta_e * x : alpha_r + beta * x) * jitter(noise);
    }
    return n;
}

int main(void)
{
    struct calib_sample s[64];
    struct p2p_fit f;
    rng = 18;
    const double noises[] = {0, 0.02, 0.05};
    for (int k = 0; k < 3; k++) {
        const double e = noises[k];
        /* on one node, Open MPI-like: 0.4 us, 6 GB/s eager up to 4 KiB, then
         * a handshake (+1.5 us) at 12 GB/s */
        int n = p2p(s, 4e-7, 1.6e-10, 4096, 1.9e-6, 8e-11, e);
        calibrate_p2p(s, n, &f);
        CHECK(f.eager == 4096, "noise %.2f: eager %lld, want 4096", e, f.eager);
        CHECK(near(f.alpha, 4e-7, 0.1), "noise %.2f: alpha %g, want 4e-7", e, f.alpha);
        CHECK(near(f.beta, 8e-11, 0.1), "noise %.2f: beta %g, want 8e-11", e, f.beta);
        /* across nodes: 2 us, 10 GB/s, eager up to 64 KiB, +4 us after */
        n = p2p(s, 2e-6, 1e-10, 65536, 6e-6, 1e-10, e);
        calibrate_p2p(s, n, &f);
        CHECK(f.eager == 65536, "noise %.2f: eager %lld, want 65536", e, f.eager);
        CHECK(near(f.alpha, 2e-6, 0.1) && near(f.beta, 1e-10, 0.1),
              "noise %.2f: alpha %g beta %g, want 2e-6 1e-10", e, f.alpha, f.beta);
        /* no protocol switch: one line, no eager limit claimed */
        n = p2p(s, 1e-6, 2e-10, 1ll << 40, 0, 0, e);
        calibrate_p2p(s, n, &f);
        CHECK(f.eager == 0 && near(f.alpha, 1e-6, 0.1) && near(f.beta, 2e-10, 0.1),
              "noise %.2f: one line: eager %lld alpha %g beta %g", e, f.eager, f.alpha, f.beta);
        /* gamma (a reduction kernel) and the overhead per message: lines */
        n = 0;
        for (double x = 65536; x <= 16 << 20; x *= 2, n++)
            s[n].x = x, s[n].t = (2e-6 + 2.5e-11 * x) * jitter(e);
        double a, b;
        calibrate_line(s, n, &a, &b);
        CHECK(near(b, 2.5e-11, 0.05), "noise %.2f: gamma %g, want 2.5e-11", e, b);
        n = 0;
        for (int m = 1; m <= 64; m *= 2, n++)
            s[n].x = m, s[n].t = (1e-6 + 9e-8 * m) * jitter(e);
        calibrate_line(s, n, &a, &b);
        CHECK(near(b, 9e-8, 0.15) && near(a, 1e-6, 0.15), "noise %.2f: o %g alpha %g", e, b, a);
    }
    return check_summary();
}
