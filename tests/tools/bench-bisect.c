// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench-bisect: the probabilistic bisection (issue 33, bisectsim.h)
 * beside a fixed-runs bisection, by simulation: 1,000-commit ranges with
 * one culprit, a 5% shift at CV 2%, 5% of the commits failing to build,
 * 10 runs known at each end.
 *   - bayesian: bisect_params_default() (3 commits a round, 2 runs each,
 *     P >= 0.999, 80 runs, 12 rounds) and the sandwich by
 *     seq_params_default() turned the way of the change;
 *   - fixed: LKP's way, a binary search running 3 runs a step, a commit
 *     bad when its mean is nearer the head's than the base's; a commit
 *     that fails to build costs its round trip and the next one nearest
 *     the middle is tried (git bisect skip).
 * Figures: the exact culprit named, a wrong one named, inconclusive (and
 * of those, how many gave a range holding the culprit), mean runs and
 * round trips beside their maximum. Then the bayesian one when the
 * world is not the one assumed (other noise, smaller shifts).
 *   bench-bisect [TRIALS [SEED]]   (2,000)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/judge/bisectsim.h"
#include "perfbot/util/prng.h"

#define FIXED_RUNS 3

static long trials = 2000;
static unsigned long long seed = 33;

static void die(const struct pb_err *err)
{
	fprintf(stderr, "bench-bisect: %s\n", err->msg);
	exit(70);
}

static double mean_draws(struct prng *g, double mu, double sd, long n)
{
	double s = 0;
	long i;

	for (i = 0; i < n; i++)
		s += mu + sd * prng_normal(g);
	return s / (double)n;
}

/* The untested commit nearest the middle of (lo, hi) that may build. */
static long pick(const unsigned char *tried, long lo, long hi)
{
	long mid = lo + (hi - lo) / 2, d;

	for (d = 0; d < hi - lo; d++) {
		if (mid + d < hi && !tried[mid + d])
			return mid + d;
		if (mid - d > lo && !tried[mid - d])
			return mid - d;
	}
	return -1;
}

/* One fixed-runs bisection; 1 exact, 0 wrong, -1 no commit left. */
static int fixed_one(struct prng *g, const struct bisect_world *w,
		     unsigned char *tried, long *runs, long *rounds)
{
	long n = w->commits, culprit, lo = 0, hi = n, k;
	double sd = 100 * w->cv, bad = 100 * (1 - w->shift), good, badm;

	culprit = 1 + (long)(prng_uniform(g) * (double)n);
	if (culprit > n)
		culprit = n;
	good = mean_draws(g, 100, sd, w->end_runs);
	badm = mean_draws(g, bad, sd, w->end_runs);
	memset(tried, 0, (size_t)n + 1);
	*runs = *rounds = 0;
	while (hi - lo > 1) {
		double m;

		if ((k = pick(tried, lo, hi)) < 0)
			return -1;
		tried[k] = 1;
		++*rounds;
		if (k != culprit && prng_uniform(g) < w->fail)
			continue;	/* did not build */
		*runs += FIXED_RUNS;
		m = mean_draws(g, k >= culprit ? bad : 100, sd, FIXED_RUNS);
		if (fabs(m - badm) < fabs(m - good))
			hi = k;
		else
			lo = k;
	}
	return hi == culprit;
}

static void fixed(const struct bisect_world *w)
{
	unsigned char *tried = calloc((size_t)w->commits + 1, 1);
	long i, exact = 0, wrong = 0, none = 0, runs, rounds, rmax = 0,
		tmax = 0;
	double sruns = 0, srounds = 0;
	struct prng g;

	if (!tried) {
		fprintf(stderr, "bench-bisect: out of memory\n");
		exit(70);
	}
	prng_seed(&g, w->seed);
	for (i = 0; i < w->trials; i++) {
		int r = fixed_one(&g, w, tried, &runs, &rounds);

		exact += r == 1;
		wrong += r == 0;
		none += r < 0;
		sruns += (double)runs;
		srounds += (double)rounds;
		rmax = runs > rmax ? runs : rmax;
		tmax = rounds > tmax ? rounds : tmax;
	}
	printf("  %-28s %6.2f%% %6.2f%% %6.2f%% %6s %6.1f (%3ld) %6.1f (%2ld)\n",
	       "fixed, 3 runs a step", 100.0 * (double)exact / (double)w->trials,
	       100.0 * (double)wrong / (double)w->trials,
	       100.0 * (double)none / (double)w->trials, "-",
	       sruns / (double)w->trials, rmax, srounds / (double)w->trials,
	       tmax);
	free(tried);
}

static void bayes(const char *name, const struct bisect_params *par,
		  const struct bisect_world *w)
{
	struct seq_params sp;
	struct seq_design d;
	struct bisect_oc oc;
	struct pb_err err = { 0, "" };
	char in[16] = "-";
	double t;

	bisect_sandwich_params(&sp, par->direction);
	if (seq_design_init(&d, &sp, &err) ||
	    bisect_simulate(par, &d, w, &oc, &err))
		die(&err);
	t = (double)oc.trials;
	if (oc.inconclusive)
		snprintf(in, sizeof(in), "%.1f%%", 100.0 *
			 (double)oc.covered / (double)oc.inconclusive);
	printf("  %-28s %6.2f%% %6.2f%% %6.2f%% %6s %6.1f (%3ld) %6.1f (%2ld)\n",
	       name, 100.0 * (double)oc.exact / t, 100.0 * (double)oc.wrong / t,
	       100.0 * (double)oc.inconclusive / t, in, oc.runs, oc.runs_max,
	       oc.rounds, oc.rounds_max);
}

static void header(void)
{
	printf("  %-28s %7s %7s %7s %6s %12s %11s\n", "", "exact", "wrong",
	       "inconcl", "(in)", "runs (max)", "trips (max)");
}

int main(int argc, char **argv)
{
	struct bisect_world w = { 1000, 0.05, 0.02, 0.05, 10, 0, 0, 0 };
	struct bisect_params par;
	char name[64];

	if (argc > 1)
		trials = strtol(argv[1], NULL, 10);
	if (argc > 2)
		seed = strtoull(argv[2], NULL, 10);
	if (trials < 1 || trials > 10000000) {
		fprintf(stderr, "usage: bench-bisect [TRIALS [SEED]]\n");
		return 64;
	}
	w.trials = trials;
	w.seed = seed;
	bisect_params_default(&par);
	printf("== bisection (issue 33): %ld commits, one culprit, %.0f%% "
	       "shift at CV %.0f%%, %.0f%% fail to build, %ld runs at each "
	       "end; %ld trials\n", w.commits, 100 * w.shift, 100 * w.cv,
	       100 * w.fail, w.end_runs, w.trials);
	header();
	snprintf(name, sizeof(name), "bayesian %dx%d, P >= %g",
		 par.per_round, par.runs_each, par.confidence);
	bayes(name, &par, &w);
	fixed(&w);
	printf("  aim: exact >= 99%%, wrong <= 0.5%%, runs <= 45 and round "
	       "trips <= 8 on average\n");
	printf("== the bayesian one in other worlds (the sandwich's design "
	       "unchanged)\n");
	header();
	w.cv = 0.01;
	bayes("CV 1%", &par, &w);
	w.cv = 0.03;
	bayes("CV 3%", &par, &w);
	w.cv = 0.02;
	w.shift = 0.03;
	bayes("shift 3%", &par, &w);
	w.shift = 0.10;
	bayes("shift 10%", &par, &w);
	w.shift = 0.05;
	w.heavy = 1;
	bayes("t3 noise", &par, &w);
	w.heavy = 0;
	w.fail = 0.20;
	bayes("20% fail to build", &par, &w);
	w.fail = 0.05;
	w.commits = 10000;
	bayes("10,000 commits", &par, &w);
	return 0;
}
