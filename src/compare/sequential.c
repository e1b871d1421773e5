// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare: the group-sequential decision (sequential.h): the default
 * design and its looks, and one decision a look on Welch's t of the runs
 * so far (the design's bounds: seqdesign.c).
 */
#include <math.h>
#include <string.h>

#include "perfbot/compare/sequential.h"

static const char *const why_few = "fewer than 2 runs on a side";

void seq_params_default(struct seq_params *p)
{
	memset(p, 0, sizeof(*p));
	p->alpha = 0.01;
	p->power = 0.96;
	p->shift = 0.05;
	p->cv = 0.02;
	p->direction = 1;
	p->alpha_shape = -2;
	p->beta_shape = -1;
	p->nlooks = seq_looks(3, 8, p->looks, SEQ_MAX_LOOKS);
}

/* Looks from 'first' to 'cap', each about 'ratio' times the one before. */
static size_t looks_by(long first, long cap, double ratio, long *looks,
		       size_t max)
{
	size_t k = 0;
	long n = first;

	if (first < SEQ_MIN_RUNS || cap < first || max < 1)
		return 0;
	while (k + 1 < max && n < cap) {
		long next = (long)ceil((double)n * ratio - 0.5);

		looks[k++] = n;
		n = next < n + 2 ? n + 2 : next;
		/* no look just short of the cap: go to the cap */
		if (n + 2 > cap)
			n = cap;
	}
	looks[k++] = cap;
	return k;
}

size_t seq_looks(long first, long cap, long *looks, size_t max)
{
	return looks_by(first, cap, 1.6, looks, max);
}

void seq_params_confirm(struct seq_params *p, long initial, long cap,
			double spent0)
{
	seq_params_confirm_from(p, initial + SEQ_CONFIRM_FIRST, cap, spent0);
}

void seq_params_confirm_from(struct seq_params *p, long first, long cap,
			     double spent0)
{
	seq_params_default(p);
	p->alpha = SEQ_CONFIRM_ALPHA - (spent0 > 0 ? spent0 : 0);
	if (first < SEQ_MIN_RUNS)
		first = SEQ_MIN_RUNS;
	if (cap > SEQ_MAX_RUNS)
		cap = SEQ_MAX_RUNS;
	p->nlooks = looks_by(first, cap > first ? cap : first,
			     SEQ_CONFIRM_RATIO, p->looks, SEQ_MAX_LOOKS);
}

double seq_retest_alpha(size_t earlier)
{
	return ldexp(SEQ_RETEST_ALPHA, earlier < 60 ? -(int)earlier : -60);
}

void seq_params_retest(struct seq_params *p, long first, long cap,
		       size_t earlier, double reported, double cv)
{
	seq_params_default(p);
	p->alpha = seq_retest_alpha(earlier);
	p->direction = !isfinite(reported) || reported == 0 ? 0 :
		reported < 0 ? -1 : 1;
	p->shift = p->direction ? SEQ_RETEST_SHARE * fabs(reported) :
		SEQ_RETEST_SHIFT;
	if (!(p->shift < 1e6))
		p->shift = SEQ_RETEST_SHIFT;
	p->cv = isfinite(cv) && cv > 0 && cv < 1e6 ? cv : SEQ_RETEST_CV;
	if (first < SEQ_MIN_RUNS)
		first = SEQ_MIN_RUNS;
	if (first > SEQ_MAX_RUNS)
		first = SEQ_MAX_RUNS;
	if (cap > SEQ_MAX_RUNS)
		cap = SEQ_MAX_RUNS;
	p->nlooks = seq_looks(first, cap > first ? cap : first, p->looks,
			      SEQ_MAX_LOOKS);
}

double seq_alpha_spent(const struct seq_design *d, size_t look)
{
	double a;

	if (!d->nlooks)
		return 0;
	look = look < d->nlooks ? look : d->nlooks - 1;
	a = d->look[look].alpha_spent;
	return d->par.direction ? a : 2 * a;
}

/* The look that 'n' runs a side reach; nlooks when none. */
static size_t look_of(const struct seq_design *d, size_t n)
{
	size_t k = d->nlooks;

	while (k > 0 && (size_t)d->look[k - 1].n > n)
		k--;
	return k ? k - 1 : d->nlooks;
}

static double mean_of(const double *v, size_t n)
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += v[i];
	return n ? s / (double)n : 0;
}

/* MORE: the runs each side lacks for look 'k'. */
static void ask_more(const struct seq_design *d, size_t k,
		     struct seq_decision *out)
{
	int s;

	out->answer = SEQ_MORE;
	out->look = k;
	out->last = k + 1 == d->nlooks;
	for (s = 0; s < 2; s++)
		out->more[s] = d->look[k].n > (long)out->n[s] ?
			d->look[k].n - (long)out->n[s] : 0;
}

/* The repeated confidence interval: diff +- t_upper se, as % of base. */
static void interval(const struct welch *w, double mb, double tq,
		     struct change_ci *ci)
{
	double lo = 100 * (w->diff - tq * w->se) / mb;
	double hi = 100 * (w->diff + tq * w->se) / mb;

	memset(ci, 0, sizeof(*ci));
	if (!isfinite(lo) || !isfinite(hi) || mb == 0) {
		ci->why = mb == 0 ? "the base mean is 0" :
			"values that are not finite";
		return;
	}
	ci->lo = fmin(lo, hi);
	ci->hi = fmax(lo, hi);
	ci->ok = 1;
}

/* Two constant samples: changed when they differ the way tested. */
static void constant(const struct seq_design *d, const struct welch *w,
		     struct seq_decision *out)
{
	int way = d->par.direction ? d->par.direction : w->diff > 0 ? 1 : -1;

	out->way = way;
	out->answer = !w->same && w->diff * way > 0 ? SEQ_CHANGED :
		SEQ_NOT_CHANGED;
	out->p = out->answer == SEQ_CHANGED ? 0 : 1;
	out->ci.why = w->why;
}

double seq_runs_cv(const double *base, size_t nb, const double *head,
		   size_t nh)
{
	double mb = mean_of(base, nb), mh = mean_of(head, nh), q = 0;
	size_t i;

	if (nb + nh < 3 || !nb || !nh || mb == 0)
		return NAN;
	for (i = 0; i < nb; i++)
		q += (base[i] - mb) * (base[i] - mb);
	for (i = 0; i < nh; i++)
		q += (head[i] - mh) * (head[i] - mh);
	return sqrt(q / (double)(nb + nh - 2)) / fabs(mb);
}

/*
 * Below the futility bound: "not changed", unless the runs are noisier
 * than the design assumed beyond chance (their CV above the upper
 * SEQ_NOISE_GATE quantile of a sample CV at the design's): the bound
 * was set for the noise assumed and would then say "not changed" of a
 * real change too often. The design is non-binding, so going on costs
 * no alpha: more runs, or at the last look "inconclusive".
 */
static void futile(const struct seq_design *d, struct seq_decision *out)
{
	double df = (double)(out->n[0] + out->n[1] - 2);
	double gate = d->par.cv * sqrt(stats_chi2_quantile(SEQ_NOISE_GATE,
							   df) / df);

	out->answer = SEQ_NOT_CHANGED;
	if (out->cv <= gate)
		return;
	out->noisy = 1;
	if (out->last) {
		out->answer = SEQ_INCONCLUSIVE;
		out->why = "the runs are noisier than the design assumed";
	} else {
		ask_more(d, out->look + 1, out);
	}
}

void seq_decide(const struct seq_design *d, const double *base, size_t nb,
		const double *head, size_t nh, struct seq_decision *out)
{
	const struct seq_look *l;
	struct welch w;
	double mb, tdir;
	size_t k;

	memset(out, 0, sizeof(*out));
	out->n[0] = nb;
	out->n[1] = nh;
	out->t_lower = -INFINITY;
	k = look_of(d, nb < nh ? nb : nh);
	if (!d->nlooks) {
		out->answer = SEQ_INCONCLUSIVE;
		out->why = "no design";
		return;
	}
	if (k == d->nlooks) {
		ask_more(d, 0, out);
		return;
	}
	l = &d->look[k];
	out->look = k;
	out->last = k + 1 == d->nlooks;
	out->alpha_spent = seq_alpha_spent(d, k);
	stats_welch(base, nb, head, nh, &w);
	mb = mean_of(base, nb);
	out->change = mb != 0 ? 100 * w.diff / mb : 0;
	if (!w.ok && w.constant) {
		constant(d, &w, out);
		return;
	}
	if (!w.ok) {
		out->answer = SEQ_INCONCLUSIVE;
		out->why = w.why ? w.why : why_few;
		out->ci.why = out->why;
		return;
	}
	out->t = w.t;
	out->df = w.df;
	out->way = d->par.direction ? d->par.direction : w.t >= 0 ? 1 : -1;
	tdir = w.t * out->way;
	/* the upper tail of t, exact far out */
	out->p = stats_t_cdf(-tdir, w.df);
	out->t_upper = isinf(l->t_upper) ? INFINITY :
		-stats_t_quantile(l->p_upper, w.df);
	out->t_lower = isinf(l->t_lower) ? -INFINITY :
		-stats_t_quantile(l->p_lower, w.df);
	interval(&w, mb, out->t_upper, &out->ci);
	out->cv = seq_runs_cv(base, nb, head, nh);
	if (out->p <= l->p_upper)
		out->answer = SEQ_CHANGED;
	else if (out->p > l->p_lower || l->t_lower >= l->t_upper)
		futile(d, out);
	else if (out->last)
		out->answer = SEQ_INCONCLUSIVE;
	else
		ask_more(d, k + 1, out);
}

const char *seq_answer_name(enum seq_answer a)
{
	switch (a) {
	case SEQ_MORE:
		return "more runs";
	case SEQ_CHANGED:
		return "changed";
	case SEQ_NOT_CHANGED:
		return "not changed";
	default:
		return "inconclusive";
	}
}
