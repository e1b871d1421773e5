// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare: the sequential design's bounds (sequential.h): numerical
 * integration of the looks' joint normal law, the t and noncentral t
 * laws that carry the t bounds onto it, and the choice of looks.
 */
#include <math.h>
#include <string.h>

#include "perfbot/compare/sequential.h"

/*
 * The integration: Simpson's rule on GRID_PTS points over the part of a
 * look's continuation region within GRID_SPAN standard deviations of the
 * mean: 2 x 96 intervals keep the crossing probabilities within 1e-7 of
 * finer grids. Bounds are found by halving to BOUND_TOL; a design of
 * five looks takes a few tens of milliseconds.
 */
#define GRID_M 96
#define GRID_PTS (2 * GRID_M + 1)
#define GRID_SPAN 10.0
#define BOUND_MAX 40.0
#define BISECT_STEPS 100
#define BOUND_TOL 1e-10

/* The sub-density of a look's statistic on its continuation region,
 * kept as Simpson weight x density at each point. */
struct grid {
	size_t n;
	double info;
	double z[GRID_PTS], w[GRID_PTS];
};

/* Before the first look: all the mass at 0, no information. */
static void grid_start(struct grid *g)
{
	g->n = 1;
	g->info = 0;
	g->z[0] = 0;
	g->w[0] = 1;
}

/* The standardised increment to the next look from the point 'u'. */
static double increment(const struct grid *g, double u, double info,
			double mu, double z)
{
	double d = info - g->info;

	return (z * sqrt(info) - u * sqrt(g->info) - mu * d) / sqrt(d);
}

/* P(the next look's statistic >= c) over the paths still going. */
static double tail_up(const struct grid *g, double info, double mu,
		      double c)
{
	double s = 0;
	size_t j;

	for (j = 0; j < g->n; j++)
		s += g->w[j] * stats_norm_cdf(-increment(g, g->z[j], info,
							 mu, c));
	return s;
}

/* P(the next look's statistic < f) over the paths still going. */
static double tail_down(const struct grid *g, double info, double mu,
			double f)
{
	double s = 0;
	size_t j;

	for (j = 0; j < g->n; j++)
		s += g->w[j] * stats_norm_cdf(increment(g, g->z[j], info, mu,
							f));
	return s;
}

/* The next look's sub-density on [lo, hi] (cut to the span). */
static void grid_step(struct grid *next, const struct grid *g, double info,
		      double mu, double lo, double hi)
{
	double mean = mu * sqrt(info), h, d = info - g->info;
	size_t i, j;

	lo = fmax(lo, mean - GRID_SPAN);
	hi = fmin(hi, mean + GRID_SPAN);
	next->info = info;
	next->n = 0;
	if (!(hi > lo))
		return;
	h = (hi - lo) / (2 * GRID_M);
	for (i = 0; i < GRID_PTS; i++) {
		double z = lo + h * (double)i, s = 0;
		double simpson = i == 0 || i == GRID_PTS - 1 ? 1 : i % 2 ? 4 : 2;

		for (j = 0; j < g->n; j++) {
			double x = increment(g, g->z[j], info, mu, z);

			s += g->w[j] * exp(-x * x / 2);
		}
		next->z[i] = z;
		next->w[i] = s * sqrt(info / d) / sqrt(2 * M_PI) * simpson *
			h / 3;
	}
	next->n = GRID_PTS;
}

/* The efficacy bound whose crossing probability is 'a'. */
static double solve_up(const struct grid *g, double info, double a)
{
	double lo = -BOUND_MAX, hi = BOUND_MAX;
	int i;

	if (a <= 0 || tail_up(g, info, 0, hi) >= a)
		return INFINITY;
	for (i = 0; i < BISECT_STEPS && hi - lo > BOUND_TOL; i++) {
		double mid = lo + (hi - lo) / 2;

		if (tail_up(g, info, 0, mid) > a)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

/* The futility bound whose crossing probability is 'b', at most 'c'. */
static double solve_down(const struct grid *g, double info, double mu,
			 double b, double c)
{
	double lo = -BOUND_MAX, hi = fmin(c, BOUND_MAX);
	int i;

	if (b <= 0 || tail_down(g, info, mu, lo) >= b)
		return -INFINITY;
	if (tail_down(g, info, mu, hi) <= b)
		return c;
	for (i = 0; i < BISECT_STEPS && hi - lo > BOUND_TOL; i++) {
		double mid = lo + (hi - lo) / 2;

		if (tail_down(g, info, mu, mid) < b)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Hwang-Shih-DeCani: the share of 'total' spent by the fraction t. */
static double spend(double total, double gamma, double t)
{
	if (t >= 1)
		return total;
	if (fabs(gamma) < 1e-9)
		return total * t;
	return total * -expm1(-gamma * t) / -expm1(-gamma);
}

/* The looks' information: n / 2 a side in units of the run's variance. */
static double info_of(long n)
{
	return (double)n / 2;
}

/*
 * The noncentral t with 'df' degrees of freedom and noncentrality
 * 'drift': T = (Z + drift) / (V / sqrt(df)), V the square root of a
 * chi-square, so P(T <= x) = E Phi(x V / sqrt(df) - drift): Simpson's
 * rule over V's density, 2 v^(df - 1) e^(-v^2 / 2) / (2^(df/2)
 * Gamma(df/2)), bounded for df >= 1, up to far in its tail.
 */
#define NCT_M 200

static double nct_cdf(double x, double df, double drift)
{
	double top = sqrt(df + 40 * sqrt(2 * df) + 60), h = top / (2 * NCT_M);
	double norm, s = 0;
	int sign, i;

	if (isinf(x))
		return x > 0 ? 1 : 0;
	norm = M_LN2 - df / 2 * M_LN2 - lgamma_r(df / 2, &sign);
	for (i = 1; i <= 2 * NCT_M; i++) {
		double v = h * i, w = i == 2 * NCT_M ? 1 : i % 2 ? 4 : 2;
		double f = exp(norm + (df - 1) * log(v) - v * v / 2);

		s += w * f * stats_norm_cdf(x * v / sqrt(df) - drift);
	}
	/* v = 0 adds only for df 1, where the density is 2 norm there */
	if (df == 1)
		s += exp(norm) * stats_norm_cdf(-drift);
	return s * h / 3;
}

/* The normal-scale bound z under the shift: P(T <= x) = Phi(z - drift). */
static double alt_z(double x, double df, double drift)
{
	if (isinf(x))
		return x;
	return drift + stats_norm_quantile(nct_cdf(x, df, drift));
}

/* Its inverse, by halving: the t bound of the normal-scale bound z. */
static double alt_t(double z, double df, double drift)
{
	double lo = -BOUND_MAX, hi = BOUND_MAX * 1e3, q;
	int i;

	if (isinf(z))
		return z;
	q = stats_norm_cdf(z - drift);
	for (i = 0; i < BISECT_STEPS && hi - lo > 1e-9 * (1 + fabs(lo)); i++) {
		double mid = lo + (hi - lo) / 2;

		if (nct_cdf(mid, df, drift) < q)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2;
}

/*
 * The mean of Welch's degrees of freedom with n runs a side of equal
 * variance: (n - 1) / (1 - 2 x (1 - x)) with x = s1^2 / (s1^2 + s2^2),
 * Beta((n - 1) / 2, (n - 1) / 2); x = sin^2(phi) takes the ends'
 * singularity out of the density, 2 (sin phi cos phi)^(n - 2) / B.
 */
static double welch_df_mean(long n)
{
	double a = (double)(n - 1) / 2, h = M_PI / 2 / (2 * NCT_M), s = 0;
	int sign, i;
	double lbeta = 2 * lgamma_r(a, &sign) - lgamma_r(2 * a, &sign);

	for (i = 0; i <= 2 * NCT_M; i++) {
		double phi = h * i, x = sin(phi) * sin(phi);
		double sc = sin(phi) * cos(phi), f, w = i == 0 ||
			i == 2 * NCT_M ? 1 : i % 2 ? 4 : 2;

		f = 2 * (sc > 0 ? exp((2 * a - 1) * log(sc) - lbeta) :
			 (n == 2 ? exp(-lbeta) : 0));
		s += w * f / (1 - 2 * x * (1 - x));
	}
	return (double)(n - 1) * s * h / 3;
}

/* The normal-scale bound under no change of t bound 'x' at 'df'. */
static double null_z(double x, double df)
{
	if (isinf(x))
		return x;
	return -stats_norm_quantile(stats_t_cdf(-x, df));
}

/*
 * Look k's bounds from the paths still going under no change ('null')
 * and under the shift ('alt'): the efficacy bound spends alpha under no
 * change, the futility bound beta under the shift.
 */
static void look_bounds(const struct seq_params *p, struct seq_look *l,
			const struct seq_look *prev, double t,
			const struct grid *null, const struct grid *alt)
{
	double theta = p->shift / p->cv, info = info_of(l->n);
	double a1 = p->direction ? p->alpha : p->alpha / 2;

	l->df = welch_df_mean(l->n);
	l->drift = theta * sqrt(info);
	l->alpha_spent = spend(a1, p->alpha_shape, t);
	l->beta_spent = spend(1 - p->power, p->beta_shape, t);
	l->z0_upper = solve_up(null, info, l->alpha_spent -
			       (prev ? prev->alpha_spent : 0));
	l->p_upper = stats_norm_cdf(-l->z0_upper);
	l->t_upper = isinf(l->z0_upper) ? INFINITY :
		-stats_t_quantile(l->p_upper, l->df);
	l->z1_upper = alt_z(l->t_upper, l->df, l->drift);
	l->z1_lower = solve_down(alt, info, theta, l->beta_spent -
				 (prev ? prev->beta_spent : 0), l->z1_upper);
	l->t_lower = l->z1_lower >= l->z1_upper ? l->t_upper :
		fmin(alt_t(l->z1_lower, l->df, l->drift), l->t_upper);
	l->p_lower = isinf(l->t_lower) ? 1 : l->t_lower >= l->t_upper ?
		l->p_upper : stats_t_cdf(-l->t_lower, l->df);
	l->z0_lower = null_z(l->t_lower, l->df);
}

/*
 * The bounds for looks 0 .. K-1 (K = nlooks), spending over the share of
 * the K-th look's runs. Returns the looks used: fewer than K when the
 * futility bound reaches the efficacy bound earlier.
 */
static size_t bounds(struct seq_design *d, size_t K, struct grid g[3])
{
	const struct seq_params *p = &d->par;
	double theta = p->shift / p->cv, nk = (double)p->looks[K - 1];
	struct grid *null = &g[0], *alt = &g[1], *tmp = &g[2];
	size_t k;

	grid_start(null);
	grid_start(alt);
	for (k = 0; k < K; k++) {
		struct seq_look *l = &d->look[k];
		double info = info_of(p->looks[k]);

		l->n = p->looks[k];
		look_bounds(p, l, k ? l - 1 : NULL, (double)l->n / nk, null,
			    alt);
		if (l->t_lower >= l->t_upper)
			return k + 1;
		grid_step(tmp, null, info, 0, -INFINITY, l->z0_upper);
		*null = *tmp;
		grid_step(tmp, alt, info, theta, l->z1_lower, l->z1_upper);
		*alt = *tmp;
	}
	return K;
}

/*
 * The operating characteristics, the futility bound obeyed: P(changed)
 * and the expected runs a side under no change ('alt' 0) or the shift.
 */
static void characteristics(const struct seq_design *d, int alt,
			    struct grid g[3], double *up, double *runs)
{
	struct grid *cur = &g[0], *tmp = &g[2];
	double mu = alt ? d->par.shift / d->par.cv : 0, going = 1;
	size_t k;

	*up = *runs = 0;
	grid_start(cur);
	for (k = 0; k < d->nlooks; k++) {
		const struct seq_look *l = &d->look[k];
		double info = info_of(l->n);
		double hi = alt ? l->z1_upper : l->z0_upper;
		double lo = alt ? l->z1_lower : l->z0_lower;
		double u = tail_up(cur, info, mu, hi);
		double dn = tail_down(cur, info, mu, lo);

		*up += u;
		*runs += (double)l->n * (k + 1 == d->nlooks ? going : u + dn);
		going -= u + dn;
		grid_step(tmp, cur, info, mu, lo, hi);
		*cur = *tmp;
	}
}

static int check_params(const struct seq_params *p, struct pb_err *err)
{
	size_t k;

	if (!(p->alpha > 0 && p->alpha < 0.5))
		return pb_fail(err, EX_DATAERR, "sequential design: alpha "
			       "%g: not in (0, 0.5)", p->alpha);
	if (!(p->power > p->alpha && p->power < 1))
		return pb_fail(err, EX_DATAERR, "sequential design: power "
			       "%g: not in (alpha, 1)", p->power);
	if (!(p->shift > 0 && p->shift < 1e6) || !(p->cv > 0 && p->cv < 1e6))
		return pb_fail(err, EX_DATAERR, "sequential design: shift %g, "
			       "cv %g: not positive", p->shift, p->cv);
	if (p->direction < -1 || p->direction > 1)
		return pb_fail(err, EX_DATAERR, "sequential design: direction "
			       "%d: not -1, 0 or 1", p->direction);
	if (!(fabs(p->alpha_shape) <= 40) || !(fabs(p->beta_shape) <= 40))
		return pb_fail(err, EX_DATAERR, "sequential design: spending "
			       "shape not in [-40, 40]");
	if (p->nlooks < 1 || p->nlooks > SEQ_MAX_LOOKS)
		return pb_fail(err, EX_DATAERR, "sequential design: %zu looks: "
			       "not 1 to %d", p->nlooks, SEQ_MAX_LOOKS);
	for (k = 0; k < p->nlooks; k++)
		if (p->looks[k] < (k ? p->looks[k - 1] + 1 : SEQ_MIN_RUNS) ||
		    p->looks[k] > SEQ_MAX_RUNS)
			return pb_fail(err, EX_DATAERR, "sequential design: "
				       "look %zu of %ld runs: not increasing "
				       "from %d to %d", k + 1, p->looks[k],
				       SEQ_MIN_RUNS, SEQ_MAX_RUNS);
	return 0;
}

int seq_design_init(struct seq_design *d, const struct seq_params *p,
		    struct pb_err *err)
{
	struct grid g[3];
	size_t k;

	memset(d, 0, sizeof(*d));
	d->par = *p;
	if (check_params(p, err))
		return -1;
	/*
	 * The first looks whose design closes (its bounds meet by its last
	 * look): a design whose bounds meet before its last look would leave
	 * alpha and beta unspent there.
	 */
	for (k = 1; k <= p->nlooks; k++) {
		const struct seq_look *last;

		d->nlooks = bounds(d, k, g);
		last = &d->look[d->nlooks - 1];
		if (last->t_lower >= last->t_upper)
			break;
	}
	if (k > p->nlooks)
		d->nlooks = bounds(d, p->nlooks, g);
	characteristics(d, 0, g, &d->alpha, &d->runs0);
	characteristics(d, 1, g, &d->power, &d->runs1);
	if (!p->direction)
		d->alpha *= 2;
	return 0;
}

