// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/stats.h"

#define CF_MAX_ITER 300
#define CF_EPS 1e-15
#define CF_TINY 1e-300
#define EXACT_MAX 50	/* exact Mann-Whitney up to 50 per side */

static void mean_var(const double *v, size_t n, double *mean, double *var)
{
	double s = 0, q = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += v[i];
	*mean = s / (double)n;
	for (i = 0; i < n; i++)
		q += (v[i] - *mean) * (v[i] - *mean);
	*var = q / (double)(n - 1);	/* sample variance */
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

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	/* the fraction converges fast on this side of the mean */
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double stats_t_cdf(double t, double df)
{
	double tail;

	if (isinf(t))
		return t > 0 ? 1 : 0;
	tail = 0.5 * stats_betai(df / 2, 0.5, df / (df + t * t));
	return t >= 0 ? 1 - tail : tail;
}

double stats_t_quantile(double p, double df)
{
	double lo = -1e6, hi = 1e6, mid = 0;
	int i;

	if (p <= 0 || p >= 1)
		return p <= 0 ? -INFINITY : INFINITY;
	for (i = 0; i < 200; i++) {
		mid = (lo + hi) / 2;
		if (stats_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return mid;
}

int stats_welch(const double *base, size_t nb, const double *head,
		size_t nh, struct welch *w)
{
	double mb, vb, mh, vh, qb, qh;

	memset(w, 0, sizeof(*w));
	if (nb < 2 || nh < 2)
		return -1;
	mean_var(base, nb, &mb, &vb);
	mean_var(head, nh, &mh, &vh);
	qb = vb / (double)nb;
	qh = vh / (double)nh;
	w->diff = mh - mb;
	w->se = sqrt(qb + qh);
	if (w->se == 0) {	/* two constant samples */
		w->t = w->diff == 0 ? 0 : copysign(INFINITY, w->diff);
		w->df = (double)(nb + nh - 2);
		w->p = w->diff == 0 ? 1 : 0;
		return 0;
	}
	w->t = w->diff / w->se;
	w->df = (qb + qh) * (qb + qh) /
		(qb * qb / (double)(nb - 1) + qh * qh / (double)(nh - 1));
	w->p = stats_betai(w->df / 2, 0.5, w->df / (w->df + w->t * w->t));
	return 0;
}

int stats_change_ci(const double *base, size_t nb, const double *head,
		    size_t nh, double level, double *lo, double *hi)
{
	struct welch w;
	double mb = 0, q;
	size_t i;

	if (stats_welch(base, nb, head, nh, &w))
		return -1;
	for (i = 0; i < nb; i++)
		mb += base[i];
	mb /= (double)nb;
	if (mb == 0)
		return -1;
	q = w.se == 0 ? 0 : stats_t_quantile(0.5 + level / 2, w.df);
	*lo = 100 * (w.diff - q * w.se) / fabs(mb);
	*hi = 100 * (w.diff + q * w.se) / fabs(mb);
	return 0;
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

/* Rank sum of the head (midranks for ties) and the tie term sum(t^3-t). */
static int rank_sum(const double *base, size_t nb, const double *head,
		    size_t nh, double *r_head, double *ties)
{
	size_t n = nb + nh, i, j, k;
	struct obs *o = malloc(n * sizeof(*o));

	if (!o)
		return -1;
	for (i = 0; i < nb; i++)
		o[i] = (struct obs){ base[i], 0 };
	for (i = 0; i < nh; i++)
		o[nb + i] = (struct obs){ head[i], 1 };
	qsort(o, n, sizeof(*o), cmp_obs);
	*r_head = *ties = 0;
	for (i = 0; i < n; i = j) {
		double t, mid;

		for (j = i + 1; j < n && o[j].v == o[i].v; j++)
			;
		t = (double)(j - i);
		mid = (double)(i + 1 + j) / 2;	/* ranks i+1 .. j */
		for (k = i; k < j; k++)
			if (o[k].head)
				*r_head += mid;
		*ties += t * t * t - t;
	}
	free(o);
	return 0;
}

/*
 * Exact two-sided p: the head's rank sum over all C(N, m) equally likely
 * choices of its m ranks among 1..N, counted by dynamic programming.
 */
static int exact_p(size_t m, size_t n_all, double r_obs, double *p)
{
	size_t maxs = m * n_all, i, k, s, w = maxs + 1;
	double *dp = calloc((m + 1) * w, sizeof(double)), le = 0, ge = 0, all;

	if (!dp)
		return -1;
	dp[0] = 1;
	for (i = 1; i <= n_all; i++)
		for (k = i < m ? i : m; k >= 1; k--)
			for (s = maxs; s >= i; s--)
				dp[k * w + s] += dp[(k - 1) * w + s - i];
	all = 0;
	for (s = 0; s <= maxs; s++) {
		all += dp[m * w + s];
		if ((double)s <= r_obs + 1e-9)
			le += dp[m * w + s];
		if ((double)s >= r_obs - 1e-9)
			ge += dp[m * w + s];
	}
	free(dp);
	*p = 2 * (le < ge ? le : ge) / all;
	if (*p > 1)
		*p = 1;
	return 0;
}

int stats_mann_whitney(const double *base, size_t nb, const double *head,
		       size_t nh, struct mann_whitney *m)
{
	double r, ties, n = (double)(nb + nh), mu, var, z;

	memset(m, 0, sizeof(*m));
	if (nb < 2 || nh < 2 || rank_sum(base, nb, head, nh, &r, &ties))
		return -1;
	m->u = r - (double)nh * (double)(nh + 1) / 2;
	if (ties == 0 && nb <= EXACT_MAX && nh <= EXACT_MAX) {
		m->exact = 1;
		return exact_p(nh, nb + nh, r, &m->p);
	}
	mu = (double)nb * (double)nh / 2;
	var = (double)nb * (double)nh / 12 *
	      ((n + 1) - ties / (n * (n - 1)));
	if (var <= 0) {
		m->p = 1;
		return 0;
	}
	z = fabs(m->u - mu) - 0.5;
	z = z < 0 ? 0 : z / sqrt(var);
	m->p = erfc(z / sqrt(2));
	return 0;
}

enum verdict stats_verdict(int shown, double reported_change,
			   double change, double p)
{
	if ((reported_change > 0) != (change > 0) || change == 0 || p > 0.05)
		return VERDICT_NOT_REPRODUCED;
	if (shown && p < 0.01)
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
