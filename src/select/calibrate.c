/* Fitting the cost model to measured times (see calibrate.h). */
#include "calibrate.h"

double calibrate_line(const struct calib_sample *s, int n, double *a, double *b)
{
    double sw = 0, sx = 0, st = 0, sxx = 0, sxt = 0;
    for (int i = 0; i < n; i++) {
        const double w = s[i].t > 0 ? 1 / (s[i].t * s[i].t) : 0;
        sw += w, sx += w * s[i].x, st += w * s[i].t;
        sxx += w * s[i].x * s[i].x, sxt += w * s[i].x * s[i].t;
    }
    const double det = sw * sxx - sx * sx;
    *b = det > 0 ? (sw * sxt - sx * st) / det : 0;
    *a = sw > 0 ? (st - *b * sx) / sw : 0;
    double r = 0;
    for (int i = 0; i < n; i++)
        if (s[i].t > 0) {
            const double e = (*a + *b * s[i].x - s[i].t) / s[i].t;
            r += e * e;
        }
    return r;
}

/* A step must cut the residual by this factor to count: noise alone makes
 * two lines fit a little better than one. */
#define STEP_GAIN 4.0

void calibrate_p2p(const struct calib_sample *s, int n, struct p2p_fit *fit)
{
    double a, b;
    const double one = calibrate_line(s, n, &a, &b);
    *fit = (struct p2p_fit){a, b, 0};
    double best = one / STEP_GAIN;
    /* every split leaving at least two samples on each side, unless one
     * line fits within 0.1% */
    for (int k = 2; k + 2 <= n && one > 1e-6 * n; k++) {
        double a1, b1, a2, b2;
        const double r = calibrate_line(s, k, &a1, &b1) + calibrate_line(s + k, n - k, &a2, &b2);
        if (r < best) {
            best = r;
            *fit = (struct p2p_fit){a1, b2, (long long)s[k - 1].x};
        }
    }
    /* a fit may go below zero on noisy data; the model needs positive figures */
    fit->alpha = fit->alpha > 0 ? fit->alpha : 1e-9;
    fit->beta = fit->beta > 0 ? fit->beta : 1e-12;
}
