// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sequential decision: the looks; parameters out of range refused;
 * the bounds against independent computations (a single look is the
 * fixed test; two looks against the bivariate normal integral, computed
 * here by a plain trapezoid); the decisions on hand-made runs (clear
 * changes, none, the wrong way, both ways, constant samples, values that
 * are not finite, runs between and past the looks, noisier runs than
 * assumed); and the seeded Monte Carlo of issue 32: over normal and t3
 * noise, the type I error of the default design at or below its alpha
 * within the Monte Carlo error, its power at or above its target, the
 * runs it takes, and 'retest 4x' run on to 20 runs a side.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "perfbot/compare/seqsim.h"
#include "perfbot/compare/sequential.h"
#include "perfbot/util/prng.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
/* Monte Carlo trials a case: keeps the file under a few seconds, also
 * under AddressSanitizer, and the error of a 1% rate at 0.045% */
#define TRIALS 50000

static void looks_are(const long *got, size_t n, const long *want,
		      size_t nwant)
{
	size_t i;

	assert_int_equal(n, nwant);
	for (i = 0; i < n; i++)
		assert_int_equal(got[i], want[i]);
}

static void t_looks(void **state)
{
	static const long a[] = { 3, 5, 8 }, b[] = { 3, 5, 8, 13, 20 };
	static const long c[] = { 4, 6, 10, 16, 20 }, d[] = { 7 };
	static const long e[] = { 3, 20 };
	long l[SEQ_MAX_LOOKS];

	(void)state;
	looks_are(l, seq_looks(3, 8, l, SEQ_MAX_LOOKS), a, N(a));
	looks_are(l, seq_looks(3, 20, l, SEQ_MAX_LOOKS), b, N(b));
	looks_are(l, seq_looks(4, 20, l, SEQ_MAX_LOOKS), c, N(c));
	looks_are(l, seq_looks(7, 7, l, SEQ_MAX_LOOKS), d, N(d));
	looks_are(l, seq_looks(3, 20, l, 2), e, N(e));
	assert_int_equal(seq_looks(1, 8, l, SEQ_MAX_LOOKS), 0);
	assert_int_equal(seq_looks(9, 8, l, SEQ_MAX_LOOKS), 0);
	assert_int_equal(seq_looks(3, 8, l, 0), 0);
}

static void refused(const struct seq_params *p, const char *what)
{
	struct seq_design d;
	struct pb_err err = { 0, "" };

	assert_int_equal(seq_design_init(&d, p, &err), -1);
	assert_int_equal(err.code, EX_DATAERR);
	assert_non_null(strstr(err.msg, what));
	assert_int_equal(d.nlooks, 0);
}

/* A parameter out of range: where it is, its type, the value, and the
 * word the refusal must hold. */
struct bad_param {
	size_t off;
	char type;	/* 'd' double, 'i' int, 'z' size_t, 'l' long */
	double v;
	const char *what;
};

static void t_params_refused(void **state)
{
	static const struct bad_param bad[] = {
		{ offsetof(struct seq_params, alpha), 'd', 0, "alpha" },
		{ offsetof(struct seq_params, alpha), 'd', NAN, "alpha" },
		{ offsetof(struct seq_params, power), 'd', 0.005, "power" },
		{ offsetof(struct seq_params, cv), 'd', -1, "cv" },
		{ offsetof(struct seq_params, shift), 'd', INFINITY, "shift" },
		{ offsetof(struct seq_params, direction), 'i', 2, "direction" },
		{ offsetof(struct seq_params, beta_shape), 'd', 41, "shape" },
		{ offsetof(struct seq_params, nlooks), 'z', 0, "looks" },
		{ offsetof(struct seq_params, looks[1]), 'l', 3,
		  "not increasing" },
		{ offsetof(struct seq_params, looks[0]), 'l', 1,
		  "not increasing" },
		{ offsetof(struct seq_params, looks[2]), 'l', SEQ_MAX_RUNS + 1,
		  "not increasing" },
	};
	struct seq_params p;
	size_t i;

	(void)state;
	for (i = 0; i < N(bad); i++) {
		char *at;

		seq_params_default(&p);
		at = (char *)&p + bad[i].off;
		if (bad[i].type == 'd')
			*(double *)(void *)at = bad[i].v;
		else if (bad[i].type == 'i')
			*(int *)(void *)at = (int)bad[i].v;
		else if (bad[i].type == 'z')
			*(size_t *)(void *)at = (size_t)bad[i].v;
		else
			*(long *)(void *)at = (long)bad[i].v;
		refused(&p, bad[i].what);
	}
}

static void design(struct seq_design *d, const struct seq_params *p)
{
	struct pb_err err = { 0, "" };

	assert_int_equal(seq_design_init(d, p, &err), 0);
}

/* One look is the fixed-sample test: all alpha and beta at once. */
static void t_single_look(void **state)
{
	struct seq_params p;
	struct seq_design d;
	const struct seq_look *l = &d.look[0];

	(void)state;
	seq_params_default(&p);
	p.nlooks = 1;
	p.looks[0] = 4;
	design(&d, &p);
	assert_int_equal(d.nlooks, 1);
	assert_true(fabs(l->p_upper - p.alpha) < 1e-9);
	assert_true(fabs(l->alpha_spent - p.alpha) < 1e-15);
	assert_true(fabs(l->t_upper + stats_t_quantile(p.alpha, l->df)) <
		    1e-6);
	/* 4 runs: Welch's df between 3 and 6, 5 on average */
	assert_true(l->df > 4.9 && l->df < 5.1);
	/* 4 runs do not close the design at CV 2%: the futility bound is
	 * where beta falls under the shift, below the efficacy bound */
	assert_true(l->t_lower < l->t_upper);
	assert_true(fabs(l->drift - 2.5 * sqrt(2)) < 1e-12);
	assert_true(fabs(l->z1_lower - l->drift -
			 stats_norm_quantile(1 - p.power)) < 1e-6);
	/* on the normal scale: alpha and power of a one-sided z test */
	assert_true(fabs(d.alpha - p.alpha) < 1e-6);
	assert_true(d.power < p.power);
	assert_true(fabs(d.runs0 - 4) < 1e-9 && fabs(d.runs1 - 4) < 1e-9);
}

/*
 * P(Z1 in (lo1, hi1), Z2 beyond c2) for two looks of a Brownian motion
 * with drift theta at informations i1 < i2: Z2 given Z1 = z is normal,
 * mean r z + theta (sqrt(i2) - r sqrt(i1)), variance 1 - r^2, r =
 * sqrt(i1 / i2). A trapezoid of 200,000 steps, independent of the
 * design's Simpson grids.
 */
static double two_looks(double i1, double i2, double theta, double lo1,
			double hi1, double c2, int above)
{
	double r = sqrt(i1 / i2), sd = sqrt(1 - r * r), s = 0, h;
	double m1 = theta * sqrt(i1);
	int k, steps = 200000;

	lo1 = fmax(lo1, m1 - 12);
	hi1 = fmin(hi1, m1 + 12);
	h = (hi1 - lo1) / steps;
	for (k = 0; k <= steps; k++) {
		double z = lo1 + h * k, w = k == 0 || k == steps ? 0.5 : 1;
		double mean = r * z + theta * (sqrt(i2) - r * sqrt(i1));
		double tail = stats_norm_cdf((c2 - mean) / sd);

		s += w * exp(-(z - m1) * (z - m1) / 2) / sqrt(2 * M_PI) *
			(above ? 1 - tail : tail);
	}
	return s * h;
}

static void t_two_looks_integration(void **state)
{
	struct seq_params p;
	struct seq_design d;
	const struct seq_look *a = &d.look[0], *b = &d.look[1];
	double theta, got;

	(void)state;
	seq_params_default(&p);
	p.nlooks = 2;
	p.looks[0] = 4;
	p.looks[1] = 6;
	design(&d, &p);
	assert_int_equal(d.nlooks, 2);
	theta = p.shift / p.cv;
	/* alpha at look 1: non-binding, no futility bound below */
	got = two_looks(2, 3, 0, -INFINITY, a->z0_upper, b->z0_upper, 1);
	assert_true(fabs(got - (b->alpha_spent - a->alpha_spent)) < 1e-6);
	assert_true(fabs(1 - stats_norm_cdf(a->z0_upper) - a->alpha_spent) <
		    1e-9);
	/* beta at look 1: under the shift, between look 0's bounds */
	got = two_looks(2, 3, theta, a->z1_lower, a->z1_upper, b->z1_lower,
			0);
	if (b->t_lower < b->t_upper)
		assert_true(fabs(got - (b->beta_spent - a->beta_spent)) <
			    1e-6);
	else	/* the bounds met: less than the share is left below */
		assert_true(got <= b->beta_spent - a->beta_spent + 1e-6);
	/* the spending: Hwang-Shih-DeCani -2 at 4/6, -1 for beta */
	assert_true(fabs(a->alpha_spent - p.alpha * -expm1(2.0 * 4 / 6) /
			 -expm1(2.0)) < 1e-12);
	assert_true(fabs(a->beta_spent - (1 - p.power) * -expm1(1.0 * 4 / 6) /
			 -expm1(1.0)) < 1e-12);
}

/* The default design: 3, 5, 8 runs a side, closed at 8. */
static void t_default_design(void **state)
{
	struct seq_params p;
	struct seq_design d;
	size_t k;

	(void)state;
	seq_params_default(&p);
	design(&d, &p);
	assert_int_equal(d.nlooks, 3);
	for (k = 0; k < d.nlooks; k++) {
		assert_true(d.look[k].t_lower <= d.look[k].t_upper);
		assert_true(d.look[k].p_lower >= d.look[k].p_upper);
		if (k)
			assert_true(d.look[k].alpha_spent >
				    d.look[k - 1].alpha_spent);
	}
	assert_true(d.look[2].t_lower == d.look[2].t_upper);
	assert_true(fabs(d.look[2].alpha_spent - p.alpha) < 1e-15);
	/* the integration's own figures: within the targets */
	assert_true(d.alpha <= p.alpha && d.alpha > 0.5 * p.alpha);
	assert_true(d.power >= 0.96 && d.power < 1);
	assert_true(d.runs0 < 4 && d.runs1 < 6.5);
	assert_true(seq_alpha_spent(&d, 0) == d.look[0].alpha_spent);
	assert_true(seq_alpha_spent(&d, 99) == d.look[2].alpha_spent);
	/* 3 to 20 runs: the design stops at the looks whose bounds meet,
	 * and spends all its alpha there */
	p.nlooks = seq_looks(3, 20, p.looks, SEQ_MAX_LOOKS);
	design(&d, &p);
	assert_int_equal(d.nlooks, 3);
	assert_true(fabs(d.look[2].alpha_spent - p.alpha) < 1e-15);
}

/*
 * Carrying alpha: a second design given what the first left spends no
 * more; both together stay within the first budget.
 */
static void t_carried_alpha(void **state)
{
	struct seq_params p;
	struct seq_design first, second;
	double spent;

	(void)state;
	seq_params_default(&p);
	design(&first, &p);
	spent = seq_alpha_spent(&first, 1);
	assert_true(spent > 0 && spent < p.alpha);
	p.alpha -= spent;
	design(&second, &p);
	assert_true(spent + seq_alpha_spent(&second, 99) <= 0.01 + 1e-15);
	/* less alpha: a higher efficacy bound at every look */
	assert_true(second.look[0].t_upper > first.look[0].t_upper);
}

/* The fixture of the tests below: the default design and its answers. */
struct fx {
	struct seq_params p;
	struct seq_design d;
	struct seq_decision dec;
	struct seq_oc oc;
};

static int setup(void **state)
{
	static struct fx f;
	struct pb_err err = { 0, "" };

	memset(&f, 0, sizeof(f));
	seq_params_default(&f.p);
	if (seq_design_init(&f.d, &f.p, &err))
		return -1;
	*state = &f;
	return 0;
}

/* The design again, after a test changed its parameters. */
static void redesign(struct fx *f)
{
	design(&f->d, &f->p);
}

static void decide(const struct seq_design *d, const double *b, size_t nb,
		   const double *h, size_t nh, struct seq_decision *out)
{
	struct seq_decision again;

	seq_decide(d, b, nb, h, nh, out);
	/* nothing is kept between calls */
	seq_decide(d, b, nb, h, nh, &again);
	assert_int_equal(out->answer, again.answer);
	assert_true(out->p == again.p || (isnan(out->p) && isnan(again.p)));
}

static const double base3[] = { 100.0, 101.5, 98.5 };
static const double up20[] = { 120.0, 121.5, 118.5 };
static const double same3[] = { 100.4, 98.9, 100.6 };

static void t_decide_clear(void **state)
{
	struct fx *f = *state;

	decide(&f->d, base3, 3, up20, 3, &f->dec);
	assert_int_equal(f->dec.answer, SEQ_CHANGED);
	assert_int_equal(f->dec.look, 0);
	assert_false(f->dec.last);
	assert_true(fabs(f->dec.change - 20) < 1e-9);
	assert_true(f->dec.p <= f->d.look[0].p_upper);
	assert_true(f->dec.t >= f->dec.t_upper);
	assert_true(f->dec.ci.ok && f->dec.ci.lo < 20 && f->dec.ci.hi > 20);
	assert_true(f->dec.ci.lo > 0);
	assert_int_equal(f->dec.way, 1);
	assert_true(f->dec.alpha_spent == f->d.look[0].alpha_spent);
	/* no change at all: not changed at the first look */
	decide(&f->d, base3, 3, same3, 3, &f->dec);
	assert_int_equal(f->dec.answer, SEQ_NOT_CHANGED);
	assert_true(f->dec.p > f->d.look[0].p_lower);
	assert_true(f->dec.t < f->dec.t_lower);
	assert_true(f->dec.ci.lo < 0 && f->dec.ci.hi > 0);
	/* a clear change the other way is "not changed" the way tested */
	decide(&f->d, up20, 3, base3, 3, &f->dec);
	assert_int_equal(f->dec.answer, SEQ_NOT_CHANGED);
	f->p.direction = -1;
	redesign(f);
	decide(&f->d, up20, 3, base3, 3, &f->dec);
	assert_int_equal(f->dec.answer, SEQ_CHANGED);
	assert_int_equal(f->dec.way, -1);
	/* either way: changed both ways, the way seen */
	f->p.direction = 0;
	redesign(f);
	decide(&f->d, up20, 3, base3, 3, &f->dec);
	assert_int_equal(f->dec.answer, SEQ_CHANGED);
	assert_int_equal(f->dec.way, -1);
	decide(&f->d, base3, 3, up20, 3, &f->dec);
	assert_int_equal(f->dec.answer, SEQ_CHANGED);
	assert_int_equal(f->dec.way, 1);
	assert_true(fabs(seq_alpha_spent(&f->d, 99) - f->p.alpha) < 1e-15);
}

static void t_decide_more(void **state)
{
	struct fx *f = *state;
	static const double b5[] = { 100, 102, 98, 101, 99 };
	static const double h5[] = { 103, 104.5, 101, 102.5, 102.2 };

	decide(&f->d, NULL, 0, NULL, 0, &f->dec);
	assert_int_equal(f->dec.answer, SEQ_MORE);
	assert_int_equal(f->dec.more[0], 3);
	assert_int_equal(f->dec.more[1], 3);
	/* the sides apart: each is told what it lacks */
	decide(&f->d, b5, 2, h5, 3, &f->dec);
	assert_int_equal(f->dec.answer, SEQ_MORE);
	assert_int_equal(f->dec.look, 0);
	assert_int_equal(f->dec.more[0], 1);
	assert_int_equal(f->dec.more[1], 0);
	/* +3% at 3 runs, CV 1.5%: between the bounds, on to 5 */
	decide(&f->d, b5, 3, h5, 3, &f->dec);
	assert_int_equal(f->dec.answer, SEQ_MORE);
	assert_int_equal(f->dec.look, 1);
	assert_int_equal(f->dec.more[0], 2);
	assert_int_equal(f->dec.more[1], 2);
	assert_true(f->dec.p < f->d.look[0].p_lower);
	assert_true(f->dec.p > f->d.look[0].p_upper);
	assert_true(f->dec.t > f->dec.t_lower && f->dec.t < f->dec.t_upper);
	/* 4 and 5 runs are judged at the look of 3, asking the rest */
	decide(&f->d, b5, 4, h5, 5, &f->dec);
	assert_int_equal(f->dec.n[0], 4);
	assert_int_equal(f->dec.n[1], 5);
	if (f->dec.answer == SEQ_MORE) {
		assert_int_equal(f->dec.more[0], 1);
		assert_int_equal(f->dec.more[1], 0);
	}
	assert_string_equal(seq_answer_name(SEQ_MORE), "more runs");
	assert_string_equal(seq_answer_name(SEQ_NOT_CHANGED), "not changed");
}

static void t_decide_degenerate(void **state)
{
	struct fx *f = *state;
	static const double c100[] = { 100, 100, 100 };
	static const double c110[] = { 110, 110, 110 };
	static const double bad[] = { 100, NAN, 101 };

	decide(&f->d, c100, 3, c110, 3, &f->dec);
	assert_int_equal(f->dec.answer, SEQ_CHANGED);
	decide(&f->d, c110, 3, c100, 3, &f->dec);
	assert_int_equal(f->dec.answer, SEQ_NOT_CHANGED);
	decide(&f->d, c100, 3, c100, 3, &f->dec);
	assert_int_equal(f->dec.answer, SEQ_NOT_CHANGED);
	decide(&f->d, c100, 3, bad, 3, &f->dec);
	assert_int_equal(f->dec.answer, SEQ_INCONCLUSIVE);
	assert_non_null(f->dec.why);
	assert_non_null(strstr(f->dec.why, "finite"));
	assert_false(f->dec.ci.ok);
	/* a design with no looks (never initialised) decides nothing */
	memset(&f->d, 0, sizeof(f->d));
	decide(&f->d, c100, 3, c110, 3, &f->dec);
	assert_int_equal(f->dec.answer, SEQ_INCONCLUSIVE);
}

/*
 * The noise gate: runs far noisier than the design assumed are not
 * called "not changed" at a look that could go on (MORE), nor at the
 * last (INCONCLUSIVE); runs as noisy as assumed are.
 */
static void t_decide_noisy(void **state)
{
	struct fx *f = *state;
	static const double b[] = { 100, 110, 90, 105, 95, 108, 92, 101 };
	static const double h[] = { 101, 89, 111, 96, 104, 93, 107, 99 };

	decide(&f->d, b, 3, h, 3, &f->dec);
	assert_true(f->dec.p > f->d.look[0].p_lower);
	assert_true(f->dec.cv > 0.05);
	assert_int_equal(f->dec.answer, SEQ_MORE);
	assert_true(f->dec.noisy);
	decide(&f->d, b, 8, h, 8, &f->dec);
	assert_int_equal(f->dec.answer, SEQ_INCONCLUSIVE);
	assert_true(f->dec.noisy && f->dec.last);
	assert_non_null(strstr(f->dec.why, "noisier"));
	/* the same runs, a design for that noise (the same shift in
	 * standard deviations): not changed */
	f->p.cv = 0.08;
	f->p.shift = 0.2;
	redesign(f);
	decide(&f->d, b, 8, h, 8, &f->dec);
	assert_int_equal(f->dec.answer, SEQ_NOT_CHANGED);
	assert_false(f->dec.noisy);
}

/*
 * At the last look of a design that does not close (a shift too small
 * for the runs), runs between the bounds are inconclusive.
 */
static void t_decide_inconclusive_at_cap(void **state)
{
	struct fx *f = *state;
	struct prng r;
	double b[8], h[8];
	int i, t, seen = 0;

	seq_params_default(&f->p);
	f->p.shift = 0.02;
	redesign(f);
	assert_int_equal(f->d.nlooks, 3);
	assert_true(f->d.look[2].t_lower < f->d.look[2].t_upper);
	prng_seed(&r, 11);
	for (t = 0; t < 2000 && !seen; t++) {
		for (i = 0; i < 8; i++) {
			b[i] = 100 + 2 * prng_normal(&r);
			h[i] = 101 + 2 * prng_normal(&r);
		}
		decide(&f->d, b, 8, h, 8, &f->dec);
		if (f->dec.answer == SEQ_INCONCLUSIVE) {
			assert_true(f->dec.last && !f->dec.noisy);
			assert_null(f->dec.why);
			assert_true(f->dec.p > f->d.look[2].p_upper &&
				    f->dec.p <= f->d.look[2].p_lower);
			seen = 1;
		}
	}
	assert_true(seen);
}

/* Every answer follows the rule the header states, on random runs. */
static void t_decide_rule(void **state)
{
	struct fx *f = *state;
	struct prng r;
	double b[8], h[8];
	int i, t;

	prng_seed(&r, 12);
	for (t = 0; t < 3000; t++) {
		size_t n = 3 + (size_t)(t % 6), k = n >= 8 ? 2 : n >= 5;
		const struct seq_look *l = &f->d.look[k];

		for (i = 0; i < 8; i++) {
			b[i] = 100 + 2 * prng_normal(&r);
			h[i] = 102 + 2 * prng_normal(&r);
		}
		decide(&f->d, b, n, h, n, &f->dec);
		assert_int_equal(f->dec.last, f->dec.look + 1 == f->d.nlooks);
		if (f->dec.p <= l->p_upper)
			assert_int_equal(f->dec.answer, SEQ_CHANGED);
		else if (f->dec.noisy)
			assert_int_equal(f->dec.answer, k == 2 ?
					 SEQ_INCONCLUSIVE : SEQ_MORE);
		else if (f->dec.p > l->p_lower || l->t_lower >= l->t_upper)
			assert_int_equal(f->dec.answer, SEQ_NOT_CHANGED);
		else
			assert_int_equal(f->dec.answer, SEQ_MORE);
		assert_int_equal(f->dec.look,
				 f->dec.answer == SEQ_MORE ? k + 1 : k);
	}
}

struct mc {
	double cv, shift;
	enum seq_noise noise;
};

static void simulate(struct seq_design *d, const struct mc *m,
		     uint64_t seed, struct seq_oc *oc)
{
	struct seq_world w = { m->cv, m->shift, m->noise, TRIALS, seed,
			       SEQ_MAX_RUNS };
	struct pb_err err = { 0, "" };

	assert_int_equal(seq_simulate(seq_rule_design, d, &w, oc, &err), 0);
	assert_int_equal(oc->trials, TRIALS);
}

/* The shares of the trials of the last simulation. */
static double share(const struct fx *f, long count)
{
	return seq_oc_share(&f->oc, count);
}

static double changed(const struct fx *f)
{
	return share(f, f->oc.changed);
}

/* 3 standard errors of a share p over the trials */
static double mc_error(double p)
{
	return 3 * sqrt(p * (1 - p) / TRIALS);
}

/*
 * Issue 32's check of the default design (3, 5, 8 runs a side; alpha
 * 1%, power 96% on 5% at CV 2%): alpha at or below 1% within the Monte
 * Carlo error under normal and t3 noise; power at or above 96% under
 * normal noise. Under t3 noise of the same deviation Welch's t loses a
 * little: the power is checked at 95% there (measured 95.3%).
 */
static void t_monte_carlo_default(void **state)
{
	struct fx *f = *state;
	static const struct mc none = { 0.02, 0, SEQ_NOISE_NORMAL };
	static const struct mc shift = { 0.02, 0.05, SEQ_NOISE_NORMAL };
	static const struct mc none3 = { 0.02, 0, SEQ_NOISE_T3 };
	static const struct mc shift3 = { 0.02, 0.05, SEQ_NOISE_T3 };

	simulate(&f->d, &none, 1, &f->oc);
	assert_true(changed(f) <= 0.01 + mc_error(0.01));
	assert_true(f->oc.runs < 4.1);
	assert_true(f->oc.runs_max == 8);
	simulate(&f->d, &shift, 2, &f->oc);
	assert_true(changed(f) >= 0.96 - mc_error(0.96));
	assert_true(f->oc.runs < 6.5);
	simulate(&f->d, &none3, 3, &f->oc);
	assert_true(changed(f) <= 0.01 + mc_error(0.01));
	simulate(&f->d, &shift3, 4, &f->oc);
	assert_true(changed(f) >= 0.95 - mc_error(0.95));
}

/* The other directions: down, and either way. */
static void t_monte_carlo_directions(void **state)
{
	struct fx *f = *state;
	static const struct mc down = { 0.02, -0.05, SEQ_NOISE_NORMAL };
	static const struct mc up = { 0.02, 0.05, SEQ_NOISE_NORMAL };
	static const struct mc none = { 0.02, 0, SEQ_NOISE_NORMAL };

	seq_params_default(&f->p);
	f->p.direction = -1;
	redesign(f);
	simulate(&f->d, &down, 5, &f->oc);
	assert_true(changed(f) >= 0.96 - mc_error(0.96));
	simulate(&f->d, &up, 6, &f->oc);
	assert_true(changed(f) < 0.001);
	/* either way at the same alpha, half of it a side: 8 runs no
	 * longer reach 96% (the integration says 93.6%); the simulation
	 * agrees with it */
	f->p.direction = 0;
	redesign(f);
	assert_true(f->d.power > 0.92 && f->d.power < 0.96);
	simulate(&f->d, &none, 7, &f->oc);
	assert_true(changed(f) <= 0.01 + mc_error(0.01));
	simulate(&f->d, &down, 8, &f->oc);
	assert_true(fabs(changed(f) - f->d.power) < 0.015);
}

/*
 * 'retest 4x' of a report of a 5% change at CV 2%, run on up to 20 runs
 * a side by seq_params_retest(): "not reproduced" at most 5% of the time
 * when the change is real, "stable" at most 1% when there is none
 * (issue 32's targets), under normal and t3
 * noise; a second retest of the report spends half the alpha.
 */
static void t_monte_carlo_retest(void **state)
{
	struct fx *f = *state;
	static const long want[] = { 4, 6, 10, 16, 20 };
	static const struct mc real = { 0.02, 0.05, SEQ_NOISE_NORMAL };
	static const struct mc none = { 0.02, 0, SEQ_NOISE_NORMAL };
	static const struct mc real3 = { 0.02, 0.05, SEQ_NOISE_T3 };
	static const struct mc none3 = { 0.02, 0, SEQ_NOISE_T3 };

	seq_params_retest(&f->p, 4, 20, 0, 0.05, 0.02);
	looks_are(f->p.looks, f->p.nlooks, want, 5);
	assert_true(f->p.alpha == SEQ_RETEST_ALPHA);
	assert_int_equal(f->p.direction, 1);
	assert_true(fabs(f->p.shift - 0.0375) < 1e-15);
	redesign(f);
	assert_int_equal(f->d.look[0].n, 4);
	simulate(&f->d, &real, 9, &f->oc);
	assert_true(share(f, f->oc.not_changed) <= 0.05);
	assert_true(changed(f) >= 0.96 - mc_error(0.96));
	simulate(&f->d, &none, 10, &f->oc);
	assert_true(changed(f) <= 0.01);
	simulate(&f->d, &real3, 14, &f->oc);
	assert_true(share(f, f->oc.not_changed) <= 0.05);
	simulate(&f->d, &none3, 15, &f->oc);
	assert_true(changed(f) <= 0.01);
	/* the second retest of the report: half the alpha */
	seq_params_retest(&f->p, 4, 20, 1, 0.05, 0.02);
	assert_true(f->p.alpha == SEQ_RETEST_ALPHA / 2);
	redesign(f);
	simulate(&f->d, &none, 16, &f->oc);
	assert_true(changed(f) <= 0.005 + mc_error(0.005));
	simulate(&f->d, &real, 17, &f->oc);
	assert_true(share(f, f->oc.not_changed) <= 0.05);
}

/*
 * The retest's parameters: the direction and shift from the reported
 * change, the defaults when there is none, the cap raised to the first
 * look, and the alpha halved by each earlier retest.
 */
static void t_retest_params(void **state)
{
	struct seq_params p;
	double sum = 0;
	size_t i;

	(void)state;
	seq_params_retest(&p, 3, 20, 0, -0.08, 0.04);
	assert_int_equal(p.direction, -1);
	assert_true(fabs(p.shift - 0.06) < 1e-15);
	assert_true(p.cv == 0.04);
	assert_int_equal(p.looks[0], 3);
	assert_int_equal(p.looks[p.nlooks - 1], 20);
	seq_params_retest(&p, 8, 5, 0, NAN, -1);
	assert_int_equal(p.direction, 0);
	assert_true(p.shift == SEQ_RETEST_SHIFT && p.cv == SEQ_RETEST_CV);
	assert_int_equal(p.nlooks, 1);
	assert_int_equal(p.looks[0], 8);
	seq_params_retest(&p, 1, 2000, 0, 0, 0);
	assert_int_equal(p.looks[0], SEQ_MIN_RUNS);
	assert_int_equal(p.looks[p.nlooks - 1], SEQ_MAX_RUNS);
	for (i = 0; i < 200; i++)
		sum += seq_retest_alpha(i);
	assert_true(sum <= 2 * SEQ_RETEST_ALPHA);
	assert_true(seq_retest_alpha(1000) > 0);
}

/*
 * A fix judged by the sequential rule on both comparisons (issue 32
 * item 4): a regression of -5% at CV 1% (8 runs a side), tested runs
 * back at the parent, half way back, or still at the commit; and a test
 * of 3 runs at CV 2%, where neither bound is reached: inconclusive
 * rather than a verdict the runs cannot carry.
 */
static void t_fix_judge(void **state)
{
	static const double base[] = { 100, 101, 99, 100.5, 99.5, 100, 101,
				       99 };
	static const double head[] = { 95, 96, 94, 95.5, 94.5, 95, 96, 94 };
	static const double half[] = { 97.5, 98.5, 96.5, 98, 97, 97.5, 98.5,
				       96.5 };
	static const double b3[] = { 100, 102, 98 }, h3[] = { 95, 97, 93 };
	static const double t3[] = { 99, 101, 97 };
	struct seq_fix f;

	(void)state;
	seq_fix_judge(&f, base, 8, head, 8, base, 8, -0.05, 0.01);
	assert_int_equal(f.v, FIX_FIXED);
	assert_int_equal(f.dec[SEQ_FIX_BACK].answer, SEQ_CHANGED);
	assert_int_equal(f.dec[SEQ_FIX_AWAY].answer, SEQ_NOT_CHANGED);
	seq_fix_judge(&f, base, 8, head, 8, half, 8, -0.05, 0.01);
	assert_int_equal(f.v, FIX_PARTLY);
	seq_fix_judge(&f, base, 8, head, 8, head, 8, -0.05, 0.01);
	assert_int_equal(f.v, FIX_NOT_FIXED);
	assert_int_equal(f.dec[SEQ_FIX_BACK].answer, SEQ_NOT_CHANGED);
	/* the way back is up for a regression down: a test further down
	 * is not back */
	assert_int_equal(f.d[SEQ_FIX_BACK].par.direction, 1);
	seq_fix_judge(&f, b3, 3, h3, 3, t3, 3, -0.05, 0.02);
	assert_int_equal(f.v, FIX_INCONCLUSIVE);
	assert_int_equal(f.dec[SEQ_FIX_AWAY].answer, SEQ_INCONCLUSIVE);
	/* no reported change, or one run: nothing to judge */
	seq_fix_judge(&f, base, 8, head, 8, base, 8, 0, 0.01);
	assert_int_equal(f.v, FIX_INCONCLUSIVE);
	assert_false(f.ok[SEQ_FIX_AWAY]);
	seq_fix_judge(&f, base, 8, head, 8, base, 1, -0.05, 0.01);
	assert_int_equal(f.v, FIX_INCONCLUSIVE);
	assert_false(f.ok[SEQ_FIX_BACK]);
}

/*
 * The confirmation's design for a report held with 3 runs a side and
 * confirm.total_runs 16: looks at 6, 8, 11, 16 runs a side in all. The
 * held runs were chosen for looking changed, but only by a futility
 * stop at look 0, so the design alone (from no runs, as here) bounds
 * its alpha: at or below SEQ_CONFIRM_ALPHA within the Monte Carlo error
 * under normal and t3 noise, power at or above 96% on 5% at CV 2%, and
 * at most 3 runs a side of 8 new on average under a change.
 */
static void t_monte_carlo_confirm(void **state)
{
	struct fx *f = *state;
	static const long want[] = { 6, 8, 11, 16 };
	static const struct mc none = { 0.02, 0, SEQ_NOISE_NORMAL };
	static const struct mc shift = { 0.02, 0.05, SEQ_NOISE_NORMAL };
	static const struct mc none3 = { 0.02, 0, SEQ_NOISE_T3 };

	seq_params_confirm(&f->p, 3, 16, 0);
	looks_are(f->p.looks, f->p.nlooks, want, 4);
	assert_true(f->p.alpha == SEQ_CONFIRM_ALPHA);
	redesign(f);
	simulate(&f->d, &none, 11, &f->oc);
	assert_true(changed(f) <= SEQ_CONFIRM_ALPHA +
		    mc_error(SEQ_CONFIRM_ALPHA));
	simulate(&f->d, &none3, 12, &f->oc);
	assert_true(changed(f) <= SEQ_CONFIRM_ALPHA +
		    mc_error(SEQ_CONFIRM_ALPHA));
	simulate(&f->d, &shift, 13, &f->oc);
	assert_true(changed(f) >= 0.96 - mc_error(0.96));
	assert_true(f->oc.runs < 8);
	/* look 0 that may mail at once: its alpha comes off */
	seq_params_confirm(&f->p, 8, 16, 0.0005);
	assert_true(fabs(f->p.alpha - 0.0045) < 1e-12);
	assert_int_equal(f->p.looks[0], 11);
	/* a cap below the first look: the first look */
	seq_params_confirm(&f->p, 3, 4, 0);
	assert_int_equal(f->p.nlooks, 1);
	assert_int_equal(f->p.looks[0], 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_looks),
		cmocka_unit_test(t_params_refused),
		cmocka_unit_test(t_single_look),
		cmocka_unit_test(t_two_looks_integration),
		cmocka_unit_test(t_default_design),
		cmocka_unit_test(t_carried_alpha),
		cmocka_unit_test_setup(t_decide_clear, setup),
		cmocka_unit_test_setup(t_decide_more, setup),
		cmocka_unit_test_setup(t_decide_degenerate, setup),
		cmocka_unit_test_setup(t_decide_noisy, setup),
		cmocka_unit_test_setup(t_decide_inconclusive_at_cap, setup),
		cmocka_unit_test_setup(t_decide_rule, setup),
		cmocka_unit_test_setup(t_monte_carlo_default, setup),
		cmocka_unit_test_setup(t_monte_carlo_directions, setup),
		cmocka_unit_test_setup(t_monte_carlo_retest, setup),
		cmocka_unit_test(t_retest_params),
		cmocka_unit_test(t_fix_judge),
		cmocka_unit_test_setup(t_monte_carlo_confirm, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
