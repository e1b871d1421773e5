// SPDX-License-Identifier: GPL-2.0-only
/*
 * judge: the statistics behind the evidence (stats.h): Welch's t-test,
 * the Mann-Whitney U test (exact or the normal approximation), the 95%
 * confidence interval of the %change, the t and incomplete beta functions
 * under them, and the verdict on new runs for retests and confirmations.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/compare/stats.h"

#define CF_MAX_ITER 300
#define CF_EPS 1e-15
#define CF_TINY 1e-300

static const char *const why_few = "fewer than 2 runs on a side";
static const char *const why_nonfinite = "values that are not finite";
static const char *const why_same = "both samples are the same constant";
static const char *const why_constant = "both samples are constant";
static const char *const why_zero = "the base mean is 0";

/* Mean and sample variance; 0 when both are finite. */
static int mean_var(const double *v, size_t n, double *mean, double *var)
{
	double s = 0, q = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += v[i];
	*mean = s / (double)n;
	for (i = 0; i < n; i++)
		q += (v[i] - *mean) * (v[i] - *mean);
	*var = q / (double)(n - 1);
	return isfinite(*mean) && isfinite(*var) ? 0 : -1;
}

/* Continued fraction of I_x(a, b), evaluated by the modified Lentz method. */
static double beta_cf(double a, double b, double x)
{
	double c = 1, d = 1 - (a + b) * x / (a + 1), h, num, del;
	int m;

	d = fabs(d) < CF_TINY ? 1 / CF_TINY : 1 / d;
	h = d;
	for (m = 1; m <= CF_MAX_ITER; m++) {
		/* even step: m (b - m) x / ((a + 2m - 1)(a + 2m)) */
		num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + num * d;
		c = 1 + num / c;
		d = fabs(d) < CF_TINY ? 1 / CF_TINY : 1 / d;
		c = fabs(c) < CF_TINY ? CF_TINY : c;
		h *= d * c;
		/* odd step: -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)) */
		num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + num * d;
		c = 1 + num / c;
		d = fabs(d) < CF_TINY ? 1 / CF_TINY : 1 / d;
		c = fabs(c) < CF_TINY ? CF_TINY : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < CF_EPS)
			break;
	}
	return h;
}

double stats_betai(double a, double b, double x)
{
	double front;
	int sign;	/* lgamma_r: lgamma() sets a global, shared by threads */

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma_r(a + b, &sign) - lgamma_r(a, &sign) -
		    lgamma_r(b, &sign) + a * log(x) + b * log1p(-x));
	/* the fraction converges fast on this side of the mean */
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

/* The two-sided tail P(|T| >= |t|). */
static double t_two_sided(double t, double df)
{
	return stats_betai(df / 2, 0.5, df / (df + t * t));
}

double stats_t_cdf(double t, double df)
{
	double tail;

	if (isinf(t))
		return t > 0 ? 1 : 0;
	tail = 0.5 * t_two_sided(t, df);
	return t >= 0 ? 1 - tail : tail;
}

/* The density of Student's t. */
static double t_pdf(double t, double df)
{
	int sign;

	return exp(lgamma_r((df + 1) / 2, &sign) - lgamma_r(df / 2, &sign) -
		   0.5 * log(df * M_PI) - (df + 1) / 2 * log1p(t * t / df));
}

/*
 * Newton's method on the lower tail (where the tail is exact), kept
 * inside a bracket that halves whenever a step would leave it; it starts
 * from the normal quantile with the first terms of the Cornish-Fisher
 * expansion and ends where a step no longer moves the value.
 */
double stats_t_quantile(double p, double df)
{
	double q = p < 0.5 ? p : 1 - p, lo = -1e300, hi = 0, t, z, step;
	int i;

	if (p <= 0 || p >= 1)
		return p <= 0 ? -INFINITY : INFINITY;
	if (p == 0.5)
		return 0;
	z = stats_norm_quantile(q);
	t = z + (z * z * z + z) / (4 * df);
	t = t < 0 && isfinite(t) ? t : z;
	for (i = 0; i < 200; i++) {
		double f = stats_t_cdf(t, df) - q;

		if (f > 0)
			hi = t;
		else
			lo = t;
		step = f / t_pdf(t, df);
		if (!isfinite(step) || t - step <= lo || t - step >= hi)
			step = t - (lo > -1e300 ? lo + (hi - lo) / 2 : 2 * t);
		t -= step;
		if (fabs(step) <= 1e-15 * fabs(t) || hi - lo <= 1e-15 * -lo)
			break;
	}
	return p < 0.5 ? t : -t;
}

double stats_norm_cdf(double z)
{
	return 0.5 * erfc(-z / M_SQRT2);
}

/*
 * The lower tail's rational start (Abramowitz and Stegun 26.2.23, good
 * to 4.5e-4), then Halley steps on erfc, which keeps the tail exact.
 */
double stats_norm_quantile(double p)
{
	double q = p < 0.5 ? p : 1 - p, t, z;
	int i;

	if (p <= 0 || p >= 1)
		return p <= 0 ? -INFINITY : INFINITY;
	t = sqrt(-2 * log(q));
	z = -(t - (2.515517 + 0.802853 * t + 0.010328 * t * t) /
	      (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t));
	for (i = 0; i < 3; i++) {
		double e = (stats_norm_cdf(z) - q) /
			(exp(-z * z / 2) / sqrt(2 * M_PI));

		z -= e / (1 + z * e / 2);
	}
	return p < 0.5 ? z : -z;
}

static int refuse(struct welch *w, const char *why)
{
	w->ok = 0;
	w->p = 1;
	w->t = w->df = 0;
	w->why = why;
	return 0;
}

int stats_welch(const double *base, size_t nb, const double *head,
		size_t nh, struct welch *w)
{
	double mb, vb, mh, vh, qb, qh, scale, tol;

	memset(w, 0, sizeof(*w));
	if (nb < 2 || nh < 2)
		return refuse(w, why_few);
	if (mean_var(base, nb, &mb, &vb) || mean_var(head, nh, &mh, &vh))
		return refuse(w, why_nonfinite);
	w->diff = mh - mb;
	/* rounding in a mean is no spread: constant within a tolerance */
	scale = fmax(fabs(mb), fabs(mh));
	tol = STATS_REL_TOL * scale;
	if (sqrt(vb) <= tol && sqrt(vh) <= tol) {
		w->constant = 1;
		w->same = fabs(w->diff) <= tol;
		if (w->same)
			w->diff = 0;
		return refuse(w, w->same ? why_same : why_constant);
	}
	qb = vb / (double)nb;
	qh = vh / (double)nh;
	w->se = sqrt(qb + qh);
	w->t = w->diff / w->se;
	w->df = (qb + qh) * (qb + qh) /
		(qb * qb / (double)(nb - 1) + qh * qh / (double)(nh - 1));
	if (!isfinite(w->se) || !isfinite(w->t) || !isfinite(w->df) ||
	    w->se == 0)
		return refuse(w, why_nonfinite);
	w->p = t_two_sided(w->t, w->df);
	w->ok = isfinite(w->p);
	if (!w->ok)
		return refuse(w, why_nonfinite);
	return 0;
}

/*
 * The interval of log(head mean / base mean) by the delta method (each
 * side's squared standard error over its squared mean, Welch's degrees
 * of freedom on those), as a %change: 100 (e^x - 1) never reaches
 * -100%, as a ratio of positive means cannot. 0 when it is not finite.
 */
static int log_ratio_ci(double mb, double vb, size_t nb, double mh,
			double vh, size_t nh, double level,
			struct change_ci *ci)
{
	double qb = vb / ((double)nb * mb * mb);
	double qh = vh / ((double)nh * mh * mh);
	double se = sqrt(qb + qh), df, q, l;

	df = (qb + qh) * (qb + qh) /
		(qb * qb / (double)(nb - 1) + qh * qh / (double)(nh - 1));
	if (!(se > 0) || !isfinite(df))
		return 0;
	q = stats_t_quantile(0.5 + level / 2, df);
	l = log(mh / mb);
	ci->lo = 100 * expm1(l - q * se);
	ci->hi = 100 * expm1(l + q * se);
	return isfinite(ci->lo) && isfinite(ci->hi);
}

int stats_change_ci(const double *base, size_t nb, const double *head,
		    size_t nh, double level, struct change_ci *ci)
{
	struct welch w;
	double mb, vb, mh, vh, q, lo, hi;

	memset(ci, 0, sizeof(*ci));
	stats_welch(base, nb, head, nh, &w);
	if (!w.ok) {
		ci->why = w.why;
		return 0;
	}
	mean_var(base, nb, &mb, &vb);
	mean_var(head, nh, &mh, &vh);
	/* a base mean lost in its own rounding is 0 too */
	if (fabs(mb) <= STATS_REL_TOL * fabs(mb + w.diff) || mb == 0) {
		ci->why = why_zero;
		return 0;
	}
	if (mb > 0 && mh > 0) {
		ci->ok = log_ratio_ci(mb, vb, nb, mh, vh, nh, level, ci);
	} else {
		/* a sign on either side: the %change divides by the signed
		 * base mean, linearly, and may pass -100% */
		q = stats_t_quantile(0.5 + level / 2, w.df);
		lo = 100 * (w.diff - q * w.se) / mb;
		hi = 100 * (w.diff + q * w.se) / mb;
		ci->lo = fmin(lo, hi);
		ci->hi = fmax(lo, hi);
		ci->ok = isfinite(ci->lo) && isfinite(ci->hi);
	}
	if (!ci->ok) {
		ci->lo = ci->hi = 0;
		ci->why = why_nonfinite;
	}
	return 0;
}

/*
 * Wilson and Hilferty: (X / df)^(1/3) is close to normal with mean
 * 1 - 2 / (9 df) and variance 2 / (9 df); within 1% from 2 degrees of
 * freedom on in the tails used here.
 */
double stats_chi2_quantile(double p, double df)
{
	double h = 2 / (9 * df);
	double b = 1 - h + stats_norm_quantile(p) * sqrt(h);

	if (!(df > 0) || p <= 0)
		return p <= 0 || !(df > 0) ? 0 : INFINITY;
	if (p >= 1)
		return INFINITY;
	b = b > 0.05 ? b : 0.05;
	return df * b * b * b;
}

struct obs {
	double v;
	int head;
};

static int cmp_obs(const void *a, const void *b)
{
	double x = ((const struct obs *)a)->v, y = ((const struct obs *)b)->v;

	return (x > y) - (x < y);
}

/*
 * The observations sorted; ties get their midrank. Ranks are kept
 * doubled ('r2', integers even for midranks) so that the exact
 * distribution can be counted over integers.
 */
struct ranks {
	struct obs *o;
	size_t n;
	long r2_head;		/* doubled rank sum of the head */
	double ties;		/* sum of t^3 - t over the tie groups */
	int has_ties;
};

static int rank(const double *base, size_t nb, const double *head,
		size_t nh, struct ranks *rk)
{
	size_t n = nb + nh, i, j, k;

	memset(rk, 0, sizeof(*rk));
	rk->o = malloc(n * sizeof(*rk->o));
	if (!rk->o)
		return -1;
	rk->n = n;
	for (i = 0; i < nb; i++)
		rk->o[i] = (struct obs){ base[i], 0 };
	for (i = 0; i < nh; i++)
		rk->o[nb + i] = (struct obs){ head[i], 1 };
	qsort(rk->o, n, sizeof(*rk->o), cmp_obs);
	for (i = 0; i < n; i = j) {
		double t;

		for (j = i + 1; j < n && rk->o[j].v == rk->o[i].v; j++)
			;
		t = (double)(j - i);
		for (k = i; k < j; k++)
			if (rk->o[k].head)
				rk->r2_head += (long)(i + 1 + j); /* 2 x midrank */
		rk->ties += t * t * t - t;
		rk->has_ties |= j - i > 1;
	}
	return 0;
}

/*
 * Exact two-sided p: every choice of the head's m places among the N
 * observations is equally likely; dp[k][s] counts the choices of k places
 * among the tie groups seen so far whose doubled rank sum is s, a group of
 * t ties with doubled midrank d adding C(t, c) ways of c places worth c d.
 */
static int exact_p(const struct ranks *rk, size_t m, double *p)
{
	size_t n = rk->n, w = n * (n + 1) + 1, i, j, k, c, seen = 0, top = 0;
	double *dp = calloc((m + 1) * w, sizeof(double)), le = 0, ge = 0;
	double all = 0;
	long s;

	if (!dp)
		return -1;
	dp[0] = 1;
	for (i = 0; i < n; i = j) {
		size_t t, d;
		double binom[STATS_MW_EXACT_MAX * 2 + 1];

		for (j = i + 1; j < n && rk->o[j].v == rk->o[i].v; j++)
			;
		t = j - i;
		d = i + 1 + j;
		binom[0] = 1;
		for (c = 1; c <= t && c <= m; c++)
			binom[c] = binom[c - 1] * (double)(t - c + 1) / (double)c;
		/* descending k: a target k + c is never read again as a source */
		for (k = (seen < m ? seen : m) + 1; k-- > 0;)
			for (s = (long)top; s >= 0; s--) {
				double v = dp[k * w + (size_t)s];

				if (v == 0)
					continue;
				for (c = 1; c <= t && k + c <= m; c++)
					if ((size_t)s + c * d < w)
						dp[(k + c) * w + (size_t)s + c * d]
							+= v * binom[c];
			}
		seen += t;
		top += t * d;	/* no sum can be larger yet */
		top = top < w - 1 ? top : w - 1;
	}
	for (s = 0; s < (long)w; s++) {
		double v = dp[m * w + (size_t)s];

		all += v;
		le += s <= rk->r2_head ? v : 0;
		ge += s >= rk->r2_head ? v : 0;
	}
	free(dp);
	*p = all > 0 ? fmin(1, 2 * fmin(le, ge) / all) : 1;
	return 0;
}

int stats_mann_whitney(const double *base, size_t nb, const double *head,
		       size_t nh, struct mann_whitney *m)
{
	double n = (double)(nb + nh), mu, var, z;
	struct ranks rk;
	size_t i;
	int rc = 0;

	memset(m, 0, sizeof(*m));
	m->p = 1;
	if (nb < 2 || nh < 2) {
		m->why = why_few;
		return 0;
	}
	for (i = 0; i < nb + nh; i++)
		if (!isfinite(i < nb ? base[i] : head[i - nb])) {
			m->why = why_nonfinite;
			return 0;
		}
	if (rank(base, nb, head, nh, &rk))
		return -1;
	m->u = (double)rk.r2_head / 2 - (double)nh * (double)(nh + 1) / 2;
	m->ok = 1;
	if (nb <= STATS_MW_EXACT_MAX && nh <= STATS_MW_EXACT_MAX) {
		m->exact = 1;
		rc = exact_p(&rk, nh, &m->p);
		goto out;
	}
	mu = (double)nb * (double)nh / 2;
	var = (double)nb * (double)nh / 12 *
	      ((n + 1) - rk.ties / (n * (n - 1)));
	if (var <= 0)
		goto out;	/* all tied: p = 1 */
	z = fabs(m->u - mu) - 0.5;
	z = z < 0 ? 0 : z / sqrt(var);
	m->p = erfc(z / sqrt(2));
out:
	free(rk.o);
	return rc;
}

int stats_evidence(const double *base, size_t nb, const double *head,
		   size_t nh, struct evidence *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->n[0] = nb;
	ev->n[1] = nh;
	stats_welch(base, nb, head, nh, &ev->w);
	stats_change_ci(base, nb, head, nh, 0.95, &ev->ci);
	return stats_mann_whitney(base, nb, head, nh, &ev->mw) < 0 ? -1 : 0;
}

double stats_mw_min_p(size_t nb, size_t nh)
{
	double c = 1;
	size_t i;

	for (i = 1; i <= nb; i++)
		c = c * (double)(nh + i) / (double)i;
	return fmin(1, 2 / c);
}

enum verdict stats_verdict(const struct evidence *ev, int shown,
			   double reported_change, double change)
{
	const struct welch *w = &ev->w;
	int same_way = (reported_change > 0) == (change > 0) && change != 0;
	int mw_agrees = (ev->mw.ok && ev->mw.p < 0.05) ||
		stats_mw_min_p(ev->n[0], ev->n[1]) >= 0.05;

	if (!w->ok && w->constant)
		return !w->same && same_way ? VERDICT_STABLE :
			VERDICT_NOT_REPRODUCED;
	if (!w->ok)
		return VERDICT_INCONCLUSIVE;
	if (!same_way || w->p > 0.05)
		return VERDICT_NOT_REPRODUCED;
	if (shown && w->p < 0.01 && mw_agrees)
		return VERDICT_STABLE;
	return VERDICT_INCONCLUSIVE;
}

const char *stats_verdict_name(enum verdict v)
{
	switch (v) {
	case VERDICT_STABLE:
		return "stable";
	case VERDICT_NOT_REPRODUCED:
		return "not reproduced";
	default:
		return "inconclusive";
	}
}

/*
 * The tests say the samples differ the way 'way' (+1: up, -1: down) at
 * 'alpha' (Welch; the Mann-Whitney test agreeing as for a retest when
 * 'mw'); two constant samples differ when they are not the same.
 */
static int differs(const struct evidence *ev, double change, int way,
		   double alpha, int mw)
{
	int same_way = change != 0 && (change > 0) == (way > 0);
	int mw_agrees = (ev->mw.ok && ev->mw.p < 0.05) ||
		stats_mw_min_p(ev->n[0], ev->n[1]) >= 0.05;

	if (!ev->w.ok)
		return ev->w.constant && !ev->w.same && same_way;
	return same_way && ev->w.p < alpha && (!mw || mw_agrees);
}

/* The tests cannot tell the samples apart the way 'way'. */
static int not_away(const struct evidence *ev, double change, int way)
{
	if (!ev->w.ok)
		return ev->w.constant && (ev->w.same || !differs(ev, change,
								 way, 1, 0));
	return ev->w.p > 0.05 || change == 0 || (change > 0) != (way > 0);
}

enum fix_verdict stats_fix_verdict(const struct evidence *vs_base,
				   double change_base,
				   const struct evidence *vs_head,
				   double change_head, double reported)
{
	int way = reported > 0 ? 1 : -1;	/* the reported way */
	int back = differs(vs_head, change_head, -way, 0.01, 1);

	if (reported == 0)
		return FIX_INCONCLUSIVE;
	if (back && not_away(vs_base, change_base, way))
		return FIX_FIXED;
	if (back && differs(vs_base, change_base, way, 0.01, 0))
		return FIX_PARTLY;
	if (!back && not_away(vs_head, change_head, -way) &&
	    differs(vs_base, change_base, way, 0.01, 0))
		return FIX_NOT_FIXED;
	return FIX_INCONCLUSIVE;
}

const char *stats_fix_verdict_name(enum fix_verdict v)
{
	switch (v) {
	case FIX_FIXED:
		return "fixed";
	case FIX_PARTLY:
		return "partly fixed";
	case FIX_NOT_FIXED:
		return "not fixed";
	default:
		return "inconclusive";
	}
}
