// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare: learned noise (noise.h): the empirical-Bayes prior over the
 * pooled CVs of past runs, a cell's moderated CV, and the sequential
 * design that noise calls for.
 */
#include <math.h>
#include <string.h>

#include "perfbot/compare/noise.h"

/* Where the plan puts the first look and the last, in fixed-sample runs. */
#define PLAN_FIRST 0.45
#define PLAN_LAST 1.2

/* psi(x), x > 0: the recurrence up to 6, then the asymptotic series. */
static double digamma(double x)
{
	double r = 0, f;

	for (; x < 6; x += 1)
		r -= 1 / x;
	f = 1 / (x * x);
	return r + log(x) - 0.5 / x -
		f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 -
						      f * (1.0 / 240))));
}

/* psi'(x), x > 0, the same way. */
static double trigamma(double x)
{
	double r = 0, f;

	for (; x < 6; x += 1)
		r += 1 / (x * x);
	f = 1 / (x * x);
	return r + 1 / x + f / 2 +
		f / x * (1.0 / 6 - f * (1.0 / 30 - f * (1.0 / 42 -
							f * (1.0 / 30))));
}

/* y with psi'(y) = v, v > 0: psi' falls, so halve log y's interval. */
static double trigamma_inverse(double v)
{
	double lo = log(1e-8), hi = log(1e8);
	int i;

	for (i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		if (trigamma(exp(mid)) > v)
			lo = mid;
		else
			hi = mid;
	}
	return exp((lo + hi) / 2);
}

static int usable(const struct noise_cell *c)
{
	return isfinite(c->cv) && c->cv > 0 && c->df >= 1;
}

/*
 * e = log s^2 - psi(d/2) + log(d/2) has mean log s0^2 - psi(d0/2) +
 * log(d0/2) and variance psi'(d/2) + psi'(d0/2) (limma's fitFDist by
 * moments): the spread of e beyond the sampling's own is d0's.
 */
int noise_prior_fit(const struct noise_cell *cells, size_t n,
		    struct noise_prior *prior, struct pb_err *err)
{
	double mean = 0, ss = 0, tri = 0, extra;
	size_t i, k = 0;

	memset(prior, 0, sizeof(*prior));
	if (n > NOISE_MAX_CELLS)
		return pb_fail(err, EX_DATAERR, "noise: %zu cells: more than "
			       "%d", n, NOISE_MAX_CELLS);
	for (i = 0; i < n; i++) {
		double half = (double)cells[i].df / 2, e, dev;

		if (!usable(&cells[i]))
			continue;
		e = 2 * log(cells[i].cv) - digamma(half) + log(half);
		k++;
		dev = e - mean;
		mean += dev / (double)k;
		ss += dev * (e - mean);
		tri += trigamma(half);
	}
	if (!k)
		return pb_fail(err, EX_DATAERR, "noise: no cell with a CV "
			       "above 0 and a degree of freedom");
	prior->cells = k;
	if (k == 1) {
		for (i = 0; !usable(&cells[i]); i++)
			;
		prior->cv = cells[i].cv;
		return 0;
	}
	extra = ss / (double)(k - 1) - tri / (double)k;
	if (extra <= 0) {
		prior->df = INFINITY;
		prior->cv = exp(mean / 2);
		return 0;
	}
	prior->df = 2 * trigamma_inverse(extra);
	prior->cv = exp((mean + digamma(prior->df / 2) -
			 log(prior->df / 2)) / 2);
	return 0;
}

double noise_cv(const struct noise_prior *prior,
		const struct noise_cell *cell, double *df)
{
	double d0 = prior->df, d = cell && usable(cell) ? (double)cell->df : 0;
	double s2;

	if (df)
		*df = d0 + d;
	if (isinf(d0) || d == 0)
		return prior->cv;
	s2 = (d0 * prior->cv * prior->cv + d * cell->cv * cell->cv) / (d0 + d);
	return sqrt(s2);
}

double noise_design_cv(const struct noise_prior *prior,
		       const struct noise_cell *cell)
{
	double df, cv = noise_cv(prior, cell, &df);

	if (isinf(df))
		return cv;
	if (df < 1)	/* nothing to go on: the prior as it is */
		return cv;
	return cv * sqrt(df / stats_chi2_quantile(1 - NOISE_PLAN_QUANTILE, df));
}

double noise_fixed_runs(double alpha, double power, double shift,
			double cv)
{
	double za = stats_norm_quantile(1 - alpha);
	double z = za + stats_norm_quantile(power);

	return 2 * (z * cv / shift) * (z * cv / shift) + za * za / 4;
}

/* The first look for 'n' fixed-sample runs a side: within least..cap. */
static long first_of(double n, long least, long cap)
{
	double first = ceil(PLAN_FIRST * n - 0.5);

	if (first > (double)least)
		least = first < (double)cap ? (long)first : cap;
	return least < cap ? least : cap;
}

int noise_plan(const struct noise_prior *prior,
	       const struct noise_cell *cell, double shift, long least,
	       long cap, struct seq_params *p, struct pb_err *err)
{
	double alpha = p->direction ? p->alpha : p->alpha / 2, za, n;

	if (least < SEQ_MIN_RUNS || cap < least || cap > SEQ_MAX_RUNS)
		return pb_fail(err, EX_DATAERR, "noise plan: runs from %ld "
			       "to %ld: not within %d to %d", least, cap,
			       SEQ_MIN_RUNS, SEQ_MAX_RUNS);
	if (!(shift > 0 && shift < 1e6) || !(p->alpha > 0 && p->alpha < 0.5) ||
	    !(p->power > p->alpha && p->power < 1))
		return pb_fail(err, EX_DATAERR, "noise plan: shift %g, alpha "
			       "%g, power %g: out of range", shift, p->alpha,
			       p->power);
	p->cv = noise_design_cv(prior, cell);
	p->shift = shift;
	n = noise_fixed_runs(alpha, p->power, shift, p->cv);
	za = stats_norm_quantile(1 - alpha);
	if (PLAN_LAST * n > (double)cap) {
		/* the smallest shift whose last look fits in the cap */
		double room = (double)cap / PLAN_LAST - za * za / 4;
		double z = za + stats_norm_quantile(p->power);

		p->shift = room > 0 ? z * p->cv * sqrt(2 / room) : INFINITY;
		n = (double)cap / PLAN_LAST;
	}
	if (!isfinite(p->shift) || !isfinite(p->cv) || p->cv <= 0)
		return pb_fail(err, EX_DATAERR, "noise plan: no shift can be "
			       "decided with %ld runs a side at CV %g", cap,
			       p->cv);
	p->nlooks = seq_looks(first_of(n, least, cap), cap, p->looks,
			      SEQ_MAX_LOOKS);
	return 0;
}

long noise_first_look(const struct noise_prior *prior,
		      const struct noise_cell *cell, const struct seq_params *p,
		      long least, long cap)
{
	double alpha = p->direction ? p->alpha : p->alpha / 2, n;

	if (cap < least)
		cap = least;
	if (!(p->shift > 0 && p->shift < 1e6) || !(alpha > 0 && alpha < 0.5) ||
	    !(p->power > p->alpha && p->power < 1))
		return least;
	n = noise_fixed_runs(alpha, p->power, p->shift,
			     noise_design_cv(prior, cell));
	return isfinite(n) ? first_of(n, least, cap) : cap;
}

long noise_first_confirm(const struct noise_prior *prior,
			 const struct noise_cell *cell,
			 const struct seq_params *p, long fewer, long cap)
{
	long least = noise_design_cv(prior, cell) < p->cv ? fewer + 1 :
		p->looks[0];

	return noise_first_look(prior, cell, p, least < SEQ_MIN_RUNS ?
				SEQ_MIN_RUNS : least, cap);
}
