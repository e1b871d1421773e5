// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench-seq: the sequential decision (issue 32) beside today's fixed
 * rule, by simulation (seqsim.h): comparisons of known truth (normal
 * noise of CV 1%, 2%, 5%; a true shift of 0%, 2%, 5%, 10%) decided on
 * new runs alone, as a confirmation decides them:
 *   - fixed: today's confirmation, confirm.total_runs (16) less the 3
 *     initial runs, 13 new runs a side, confirmed when confirm_verdict()
 *     says stable (Welch's p < 0.01 the reported way, Mann-Whitney
 *     agreeing);
 *   - default: seq_params_default() (3, 5, 8 runs a side, alpha 1%,
 *     power 96% on 5% at CV 2%), whatever the noise;
 *   - planned: noise_plan() from the true CV as if learned, for a 5%
 *     shift, 3 to 13 runs a side.
 * Then 'retest 4x' on a report of a 5% change: today's verdict on 4 new
 * runs a side against the sequential rule as retests use it
 * (seq_params_retest(): from 4 up to limits.max_runs, 20), on a true 5%
 * change and on none, when the design's assumptions are wrong (t3 noise,
 * more noise, a reported change larger than the true one), and for the
 * report's second retest (half the alpha). Last, the first look sized by
 * the learned noise (issue 32 item 5) against the policy's own, for a
 * confirmation and 'retest 4x' of a quiet and a noisy benchmark.
 *   bench-seq [TRIALS [SEED]]   (20,000 a cell; the retest rows 5x more)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/compare/compare.h"
#include "perfbot/compare/noise.h"
#include "perfbot/compare/seqsim.h"
#include "perfbot/judge/trigger.h"

#define CONFIRM_NEW 13		/* confirm.total_runs 16 less 3 initial */
#define RETEST_RUNS 4
#define MAX_RUNS 20		/* limits.max_runs */

static long trials = 20000;
static unsigned long long seed = 32;

/* Today's rule: 'runs' new runs a side, then confirm_verdict(). */
struct fixed {
	long runs;
};

static void fixed_rule(void *ctx, const double *base, size_t nb,
		       const double *head, size_t nh,
		       struct seq_decision *out)
{
	const struct fixed *f = ctx;
	struct cmp_row row;
	double mb = 0, mh = 0;
	enum verdict v;
	size_t i;

	memset(out, 0, sizeof(*out));
	if ((long)nb < f->runs || (long)nh < f->runs) {
		out->answer = SEQ_MORE;
		out->more[0] = f->runs - (long)nb;
		out->more[1] = f->runs - (long)nh;
		return;
	}
	for (i = 0; i < nb; i++)
		mb += base[i] / (double)nb;
	for (i = 0; i < nh; i++)
		mh += head[i] / (double)nh;
	memset(&row, 0, sizeof(row));
	row.v[BASE] = base;
	row.v[HEAD] = head;
	row.n[BASE] = nb;
	row.n[HEAD] = nh;
	row.change = 100 * (mh - mb) / mb;
	/* the report said "up": the simulated shifts are upward */
	v = confirm_verdict(&row, 1);
	out->answer = v == VERDICT_STABLE ? SEQ_CHANGED :
		v == VERDICT_NOT_REPRODUCED ? SEQ_NOT_CHANGED :
		SEQ_INCONCLUSIVE;
}

static void run(seq_rule_fn rule, void *ctx, double cv, double shift,
		enum seq_noise noise, long n, struct seq_oc *oc)
{
	struct seq_world w = { cv, shift, noise, n, seed, SEQ_MAX_RUNS };
	struct pb_err err = { 0, "" };

	if (seq_simulate(rule, ctx, &w, oc, &err)) {
		fprintf(stderr, "bench-seq: %s\n", err.msg);
		exit(70);
	}
}

static double pct(const struct seq_oc *oc, long k)
{
	return 100 * seq_oc_share(oc, k);
}

static void design_or_die(struct seq_design *d, const struct seq_params *p)
{
	struct pb_err err = { 0, "" };

	if (seq_design_init(d, p, &err)) {
		fprintf(stderr, "bench-seq: %s\n", err.msg);
		exit(70);
	}
}

static void print_looks(const struct seq_design *d)
{
	size_t k;

	for (k = 0; k < d->nlooks; k++)
		printf("%s%ld", k ? "," : "", d->look[k].n);
}

/* The planned design for a cell of known CV (as if learned well). */
static void planned(struct seq_design *d, double cv)
{
	struct noise_prior prior = { cv, INFINITY, 1 };
	struct seq_params p;
	struct pb_err err = { 0, "" };

	seq_params_default(&p);
	if (noise_plan(&prior, NULL, 0.05, 3, CONFIRM_NEW, &p, &err)) {
		fprintf(stderr, "bench-seq: %s\n", err.msg);
		exit(70);
	}
	design_or_die(d, &p);
}

static void confirmation_table(struct seq_design *dflt)
{
	static const double cvs[] = { 0.01, 0.02, 0.05 };
	static const double shifts[] = { 0, 0.02, 0.05, 0.10 };
	struct fixed fx = { CONFIRM_NEW };
	size_t a, b;

	printf("| CV | shift | fixed: changed | default: changed / not / "
	       "inconclusive | runs a side (mean/max) | planned: looks, shift "
	       "| changed / not / inconclusive | runs a side (mean/max) |\n"
	       "| --- | --- | --- | --- | --- | --- | --- | --- |\n");
	for (a = 0; a < 3; a++) {
		struct seq_design pl;

		planned(&pl, cvs[a]);
		for (b = 0; b < 4; b++) {
			struct seq_oc f, s, q;

			run(fixed_rule, &fx, cvs[a], shifts[b],
			    SEQ_NOISE_NORMAL, trials, &f);
			run(seq_rule_design, dflt, cvs[a], shifts[b],
			    SEQ_NOISE_NORMAL, trials, &s);
			run(seq_rule_design, &pl, cvs[a], shifts[b],
			    SEQ_NOISE_NORMAL, trials, &q);
			printf("| %.0f%% | %.0f%% | %.2f%% | %.2f%% / %.2f%% / "
			       "%.2f%% | %.2f / %ld | ", cvs[a] * 100,
			       shifts[b] * 100, pct(&f, f.changed),
			       pct(&s, s.changed), pct(&s, s.not_changed),
			       pct(&s, s.inconclusive), s.runs, s.runs_max);
			print_looks(&pl);
			printf(", %.1f%% | %.2f%% / %.2f%% / %.2f%% | %.2f / "
			       "%ld |\n", pl.par.shift * 100,
			       pct(&q, q.changed), pct(&q, q.not_changed),
			       pct(&q, q.inconclusive), q.runs, q.runs_max);
			fflush(stdout);
		}
	}
}

struct retest_case {
	const char *what;
	double cv, shift, reported;
	enum seq_noise noise;
	size_t earlier;		/* retests of the report before this one */
};

static void retest_table(void)
{
	static const struct retest_case cases[] = {
		{ "5% change, CV 2%", 0.02, 0.05, 0.05, SEQ_NOISE_NORMAL, 0 },
		{ "no change, CV 2%", 0.02, 0, 0.05, SEQ_NOISE_NORMAL, 0 },
		{ "5% change, CV 2%, t3 noise", 0.02, 0.05, 0.05,
		  SEQ_NOISE_T3, 0 },
		{ "no change, CV 2%, t3 noise", 0.02, 0, 0.05, SEQ_NOISE_T3,
		  0 },
		{ "5% change, CV 3% (2% assumed)", 0.03, 0.05, 0.05,
		  SEQ_NOISE_NORMAL, 0 },
		{ "5% change, CV 2%, reported 7%", 0.02, 0.05, 0.07,
		  SEQ_NOISE_NORMAL, 0 },
		{ "5% change, CV 2%, reported 10%", 0.02, 0.05, 0.10,
		  SEQ_NOISE_NORMAL, 0 },
		{ "5% change, CV 2%, the second retest", 0.02, 0.05, 0.05,
		  SEQ_NOISE_NORMAL, 1 },
		{ "no change, CV 2%, the second retest", 0.02, 0, 0.05,
		  SEQ_NOISE_NORMAL, 1 },
	};
	struct fixed fx = { RETEST_RUNS };
	long n = 5 * trials;
	size_t i;

	printf("\n'retest 4x' of a report of a 5%% change (reported "
	       "direction up), %ld trials a row: today (4 new runs a side, "
	       "confirm_verdict) and the sequential rule (seq_params_retest(): "
	       "4 up to %d runs a side, alpha 1%% (the second retest 0.5%%), "
	       "power 96%% on %.0f%% of the reported change at CV 2%%)\n\n"
	       "| case | today: stable / not reproduced / inconclusive | "
	       "sequential: looks | stable / not reproduced / inconclusive | "
	       "runs a side (mean/max) |\n| --- | --- | --- | --- | --- |\n",
	       n, MAX_RUNS, 100 * SEQ_RETEST_SHARE);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct retest_case *c = &cases[i];
		struct seq_params p;
		struct seq_design d;
		struct seq_oc f, s;

		seq_params_retest(&p, RETEST_RUNS, MAX_RUNS, c->earlier,
				  c->reported, 0.02);
		design_or_die(&d, &p);
		run(fixed_rule, &fx, c->cv, c->shift, c->noise, n, &f);
		run(seq_rule_design, &d, c->cv, c->shift, c->noise, n, &s);
		printf("| %s | %.2f%% / %.2f%% / %.2f%% | ", c->what,
		       pct(&f, f.changed), pct(&f, f.not_changed),
		       pct(&f, f.inconclusive));
		print_looks(&d);
		printf(" | %.2f%% / %.2f%% / %.2f%% | %.2f / %ld |\n",
		       pct(&s, s.changed), pct(&s, s.not_changed),
		       pct(&s, s.inconclusive), s.runs, s.runs_max);
		fflush(stdout);
	}
}

/* seq_decide() as a rule, counting the looks it asks for (round trips). */
struct counted {
	const struct seq_design *d;
	long asked;
};

static void counted_rule(void *ctx, const double *base, size_t nb,
			 const double *head, size_t nh,
			 struct seq_decision *out)
{
	struct counted *c = ctx;

	seq_rule_design((void *)c->d, base, nb, head, nh, out);
	c->asked += out->answer == SEQ_MORE;
}

/* A confirmation's design held on 3 runs a side, its first look 'first'
 * (0: the policy's own), cap 16 (confirm.total_runs), reported up. */
static void confirm_of(struct seq_design *d, long first)
{
	struct seq_params p;

	if (first)
		seq_params_confirm_from(&p, first, 16, 0);
	else
		seq_params_confirm(&p, 3, 16, 0);
	p.direction = 1;
	design_or_die(d, &p);
}

/*
 * Issue 32 item 5: the first look sized by the learned noise
 * (noise_first_look(), the noise as if learned well: the prior at the
 * true CV), against the policy's own first look, for a quiet (CV 1%)
 * and a noisy (CV 5%) benchmark; and 'retest 4x' the same way (its N the
 * least). Runs a side in all and farm round trips per comparison.
 */
static void learned_table(void)
{
	static const double cvs[] = { 0.01, 0.02, 0.05 };
	static const double shifts[] = { 0, 0.05 };
	size_t a, b, r;

	printf("\nThe first look sized by the learned noise (issue 32 item 5), "
	       "%ld trials a row: a confirmation held on 3 runs a side (cap "
	       "16) and 'retest 4x' (cap %d), before (the policy's first look, "
	       "N) and after (noise_first_look() at the CV learned)\n\n"
	       "| request | CV | shift | before: looks | changed / not | runs "
	       "a side | round trips | after: looks | changed / not | runs a "
	       "side | round trips |\n| --- | --- | --- | --- | --- | --- | "
	       "--- | --- | --- | --- | --- |\n", trials, MAX_RUNS);
	for (r = 0; r < 2; r++)
		for (a = 0; a < 3; a++)
			for (b = 0; b < 2; b++) {
				struct noise_prior prior = { cvs[a], INFINITY, 1 };
				struct noise_cell cell = { cvs[a], 1000 };
				struct seq_design d[2];
				struct seq_params p;
				struct seq_oc oc[2];
				long first;
				int k;

				if (r == 0) {
					confirm_of(&d[0], 0);
					first = noise_first_confirm(&prior,
						&cell, &d[0].par, 3, 16);
					confirm_of(&d[1], first);
				} else {
					seq_params_retest(&p, RETEST_RUNS,
						MAX_RUNS, 0, 0.05, cvs[a]);
					design_or_die(&d[0], &p);
					first = noise_first_look(&prior, &cell,
						&p, RETEST_RUNS, MAX_RUNS);
					seq_params_retest(&p, first, MAX_RUNS, 0,
							  0.05, cvs[a]);
					design_or_die(&d[1], &p);
				}
				printf("| %s | %.0f%% | %.0f%% ", r ?
				       "retest 4x" : "confirmation",
				       cvs[a] * 100, shifts[b] * 100);
				for (k = 0; k < 2; k++) {
					struct counted c = { &d[k], 0 };

					run(counted_rule, &c, cvs[a], shifts[b],
					    SEQ_NOISE_NORMAL, trials, &oc[k]);
					printf("| ");
					print_looks(&d[k]);
					printf(" | %.1f%% / %.1f%% | %.2f | %.2f ",
					       pct(&oc[k], oc[k].changed),
					       pct(&oc[k], oc[k].not_changed),
					       oc[k].runs,
					       (double)c.asked / (double)trials);
				}
				printf("|\n");
				fflush(stdout);
			}
}

int main(int argc, char **argv)
{
	struct seq_params p;
	struct seq_design d;

	if (argc > 1)
		trials = strtol(argv[1], NULL, 10);
	if (argc > 2)
		seed = strtoull(argv[2], NULL, 10);
	if (trials < 100 || trials > 1000000) {
		fprintf(stderr, "usage: bench-seq [TRIALS [SEED]]\n");
		return 64;
	}
	seq_params_default(&p);
	design_or_die(&d, &p);
	printf("== the sequential decision (issue 32), simulated: %ld trials "
	       "a cell, seed %llu\n", trials, seed);
	printf("default design: alpha %g one-sided, power %g on %g%% at CV "
	       "%g%%, looks ", p.alpha, p.power, p.shift * 100, p.cv * 100);
	print_looks(&d);
	printf(" (spending %g / %g); by integration: alpha %.2f%%, power "
	       "%.2f%%, runs a side %.2f (no change) / %.2f (shift)\n",
	       p.alpha_shape, p.beta_shape, d.alpha * 100, d.power * 100,
	       d.runs0, d.runs1);
	printf("fixed: today's confirmation, %d new runs a side; planned: "
	       "noise_plan() with the CV known, 5%% wanted, 3 to %d runs a "
	       "side. 'changed' at shift 0 is alpha.\n\n", CONFIRM_NEW,
	       CONFIRM_NEW);
	confirmation_table(&d);
	retest_table();
	learned_table();
	return 0;
}
