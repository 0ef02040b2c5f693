/*
 * Calibration: the cost model's machine parameters (coll/algorithm.h's
 * cost_params, the tuning file's `model` line) fitted to measured times.
 * Pure arithmetic, no MPI: colibri-tune measures, these fit, and
 * tests/unit/test_calibrate.c checks that synthetic measurements give back
 * the parameters they were made from.
 */
#ifndef COLIBRI_CALIBRATE_H
#define COLIBRI_CALIBRATE_H

struct calib_sample {
    double x; /* bytes (or messages) */
    double t; /* seconds */
};

/* The least-squares line t = a + b x through samples, each weighted by
 * 1/t^2 (relative error: the times span decades); returns the weighted
 * sum of squared relative residuals. */
double calibrate_line(const struct calib_sample *s, int n, double *a, double *b);

/* Point-to-point times by message size, ascending: one line t = a + b n,
 * or, when a step fits much better (a protocol switch: Open MPI's and
 * MPICH's eager limit, after which a message waits for the receiver's
 * answer), one line below and one above it.  alpha: the short-message
 * latency (the lower line's intercept), beta: the long-message time per
 * byte (the upper line's slope, where bandwidth matters), eager: the
 * largest size of the lower line (0 when no step was found). */
struct p2p_fit {
    double alpha, beta;
    long long eager;
};
void calibrate_p2p(const struct calib_sample *s, int n, struct p2p_fit *fit);

#endif
