// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/judge/bisect.c, bisect_json.c and bisectsim.c: a
 * seeded Monte Carlo of whole bisections (accuracy, runs, round trips;
 * no culprit named where there is no change), a skipped commit before
 * the culprit, the inconclusive verdicts (budget, rounds, a head that
 * moved the other way), the JSON form read back bit for bit and refused
 * when malformed, and the inputs refused.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/judge/bisect.h"
#include "perfbot/judge/bisectsim.h"
#include "perfbot/util/prng.h"

#define BASE "0000000000000000000000000000000000000000"

struct fx {
	struct bisect b;
	struct bisect_range r;
	struct seq_design d;
	struct bisect_params par;
	struct prng g;
	struct pb_err err;
	size_t culprit;
	unsigned char fails[64];
};

/* A range of 'n' candidates (shas 1..n) and the default parameters. */
static struct fx *fx_new(size_t n, size_t culprit)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct seq_params sp;
	size_t i;

	assert_non_null(f);
	f->r.n = n;
	f->r.c = calloc(n, sizeof(*f->r.c));
	assert_non_null(f->r.c);
	for (i = 0; i < n; i++)
		snprintf(f->r.c[i].sha, GIT_SHA_HEX, "%040zx", i + 1);
	bisect_params_default(&f->par);
	bisect_sandwich_params(&sp, f->par.direction);
	assert_int_equal(seq_design_init(&f->d, &sp, &f->err), 0);
	prng_seed(&f->g, 33);
	f->culprit = culprit;
	return f;
}

static void fx_free(struct fx *f)
{
	bisect_release(&f->b);
	free(f->r.c);
	free(f);
}

/* A run of point 'at': 100 or 95 (the culprit and after), CV 2%. */
static double run_at(struct fx *f, size_t at)
{
	return (at >= f->culprit ? 95 : 100) + 2 * prng_normal(&f->g);
}

static void start(struct fx *f, long nend)
{
	double base[10], head[10];
	long i;

	for (i = 0; i < nend; i++) {
		base[i] = run_at(f, 0);
		head[i] = run_at(f, f->r.n);
	}
	assert_int_equal(bisect_init(&f->b, &f->par, "hackbench.throughput",
				     BASE, base, (size_t)nend, &f->r, head,
				     (size_t)nend, &f->err), 0);
}

/* Answer rounds as the farm would until the end; the last step. */
static void drive(struct fx *f, struct bisect_step *st)
{
	size_t a;
	long i;

	for (;;) {
		assert_int_equal(bisect_next(&f->b, &f->d, st, &f->err), 0);
		if (st->phase != BISECT_SEARCH && st->phase != BISECT_VERIFY)
			return;
		assert_true(st->nask > 0);
		for (a = 0; a < st->nask; a++) {
			size_t at = st->ask[a].at;

			if (at < 64 && f->fails[at]) {
				assert_int_equal(bisect_skip(&f->b, at,
							     &f->err), 0);
				continue;
			}
			for (i = 0; i < st->ask[a].runs; i++) {
				double v = run_at(f, at);

				assert_int_equal(bisect_add_runs(&f->b, at, &v,
								 1, &f->err),
						 0);
			}
		}
	}
}

static void t_monte_carlo(void **state)
{
	struct bisect_world w = { 300, 0.05, 0.02, 0.05, 10, 300, 7, 0 };
	struct bisect_params par;
	struct seq_params sp;
	struct seq_design d;
	struct bisect_oc oc, again;
	struct pb_err err = { 0, "" };

	(void)state;
	bisect_params_default(&par);
	bisect_sandwich_params(&sp, par.direction);
	assert_int_equal(seq_design_init(&d, &sp, &err), 0);
	assert_int_equal(bisect_simulate(&par, &d, &w, &oc, &err), 0);
	assert_int_equal(oc.trials, 300);
	assert_int_equal(oc.exact + oc.wrong + oc.inconclusive, 300);
	/* 99.7% over 2,000 in the benchmark: 3 of 300 would be far out */
	assert_true(oc.exact >= 294);
	assert_true(oc.wrong <= 1);
	assert_true(oc.runs <= 45);
	assert_true(oc.rounds <= 8);
	assert_true(oc.runs_max <= par.max_runs);
	assert_true(oc.rounds_max <= par.max_rounds);
	/* the same seed, the same bisections */
	assert_int_equal(bisect_simulate(&par, &d, &w, &again, &err), 0);
	assert_int_equal(again.exact, oc.exact);
	assert_true(again.runs == oc.runs);
	/* outliers the model does not expect: still no wrong culprit */
	w.heavy = 1;
	w.trials = 100;
	assert_int_equal(bisect_simulate(&par, &d, &w, &oc, &err), 0);
	assert_true(oc.exact >= 90);
	assert_true(oc.wrong <= 1);
	w.heavy = 0;
	/* a smaller shift than the runs can see: inconclusive, not wrong */
	w.shift = 0.02;
	w.trials = 100;
	assert_int_equal(bisect_simulate(&par, &d, &w, &oc, &err), 0);
	assert_true(oc.inconclusive >= 50);
	assert_true(oc.wrong <= 2);
	assert_true(oc.covered >= oc.inconclusive * 9 / 10);
	/* no change at all: no culprit named */
	w.shift = 0;
	par.direction = 0;
	bisect_sandwich_params(&sp, 0);
	assert_int_equal(seq_design_init(&d, &sp, &err), 0);
	assert_int_equal(bisect_simulate(&par, &d, &w, &oc, &err), 0);
	assert_true(oc.exact + oc.wrong <= 2);
	/* a world out of range */
	w.commits = 0;
	assert_int_equal(bisect_simulate(&par, &d, &w, &oc, &err), -1);
	assert_int_equal(err.code, EX_DATAERR);
}

static void t_skip(void **state)
{
	struct fx *f = fx_new(40, 21);
	struct bisect_step st;
	double v = 100;
	size_t k;

	(void)state;
	assert_int_equal(bisect_judged(&f->b, 0), 0);
	/* the culprit's parent and the commit before it do not build */
	f->fails[19] = f->fails[20] = 1;
	start(f, 10);
	drive(f, &st);
	assert_int_equal(st.phase, BISECT_CULPRIT);
	assert_int_equal(st.v.culprit, 21);
	assert_true(st.v.p >= 0.999);
	assert_int_equal(st.v.seq.answer, SEQ_CHANGED);
	/*
	 * Until 20 and 19 are asked (and fail), the runs cannot tell them
	 * from 21: the parent is the nearest that built.
	 */
	assert_true(f->b.p[20].skipped && f->b.p[19].skipped);
	assert_int_equal(st.v.parent, 18);
	assert_int_equal(st.v.skipped_before, 2);
	assert_true(f->b.post[20] == 0);
	for (k = 1; k <= f->b.n; k++)
		if (f->b.p[k].skipped)
			assert_true(f->b.post[k] == 0);
	/* what may not be skipped, and what a skipped commit refuses */
	assert_int_equal(bisect_skip(&f->b, 0, &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_int_equal(bisect_skip(&f->b, 40, &f->err), -1);
	assert_int_equal(bisect_skip(&f->b, 21, &f->err), -1);
	assert_non_null(strstr(f->err.msg, "has runs"));
	assert_int_equal(bisect_skip(&f->b, 39, &f->err), 0);
	assert_int_equal(bisect_add_runs(&f->b, 39, &v, 1, &f->err), -1);
	assert_non_null(strstr(f->err.msg, "did not build"));
	/* the charts' good and bad samples */
	assert_int_equal(bisect_judged(&f->b, 0), -1);
	assert_int_equal(bisect_judged(&f->b, 18), -1);
	assert_int_equal(bisect_judged(&f->b, 19), 0);
	assert_int_equal(bisect_judged(&f->b, 21), 1);
	assert_int_equal(bisect_judged(&f->b, 40), 1);
	assert_int_equal(bisect_judged(&f->b, 41), 0);
	/* once done, always the same answer */
	assert_int_equal(bisect_next(&f->b, &f->d, &st, &f->err), 0);
	assert_int_equal(st.phase, BISECT_CULPRIT);
	assert_int_equal(st.v.culprit, 21);
	fx_free(f);
}

/* A skip drives the posterior of the skipped commit to 0 at once. */
static void t_skip_posterior(void **state)
{
	struct fx *f = fx_new(4, 3);
	double total = 0;
	size_t k;

	(void)state;
	start(f, 10);
	bisect_posterior(&f->b);
	for (k = 1; k <= 4; k++)
		assert_true(fabs(f->b.post[k] - 0.25) < 0.25);
	assert_int_equal(bisect_skip(&f->b, 2, &f->err), 0);
	bisect_posterior(&f->b);
	assert_true(f->b.post[2] == 0);
	for (k = 1; k <= 4; k++)
		total += f->b.post[k];
	assert_true(fabs(total - 1) < 1e-12);
	/* commit 2 good and 3 bad, clearly: 3 holds nearly everything */
	for (k = 0; k < 4; k++) {
		double good = 100 + (k % 2 ? 0.5 : -0.5), bad = good - 5;

		assert_int_equal(bisect_add_runs(&f->b, 1, &good, 1, &f->err),
				 0);
		assert_int_equal(bisect_add_runs(&f->b, 3, &bad, 1, &f->err),
				 0);
	}
	bisect_posterior(&f->b);
	assert_int_equal(bisect_top(&f->b), 3);
	assert_true(f->b.post[3] > 0.99);
	fx_free(f);
}

static void t_inconclusive(void **state)
{
	struct fx *f = fx_new(60, 37);
	struct bisect_step st;

	(void)state;
	/* the budget: two rounds' runs */
	f->par.max_runs = 12;
	start(f, 10);
	drive(f, &st);
	assert_int_equal(st.phase, BISECT_INCONCLUSIVE);
	assert_string_equal(st.v.why, "the run budget ran out");
	assert_true(st.v.lo < 37 && 37 <= st.v.hi);
	assert_int_equal(st.v.ncommits, st.v.hi - st.v.lo);
	assert_true(st.v.ncommits > 1);
	assert_true(f->b.runs <= 12);
	fx_free(f);
	/* the round limit */
	f = fx_new(60, 37);
	f->par.max_rounds = 1;
	start(f, 10);
	drive(f, &st);
	assert_int_equal(st.phase, BISECT_INCONCLUSIVE);
	assert_string_equal(st.v.why, "the round limit was reached");
	assert_int_equal(f->b.rounds, 1);
	fx_free(f);
	/* the head moved the other way than the report says */
	f = fx_new(60, 37);
	f->par.direction = 1;
	start(f, 10);
	assert_int_equal(bisect_next(&f->b, &f->d, &st, &f->err), -1);
	assert_int_equal(f->err.code, EX_SOFTWARE);
	{
		struct seq_params sp;

		bisect_sandwich_params(&sp, 1);
		assert_int_equal(seq_design_init(&f->d, &sp, &f->err), 0);
	}
	assert_int_equal(bisect_next(&f->b, &f->d, &st, &f->err), 0);
	assert_int_equal(st.phase, BISECT_INCONCLUSIVE);
	assert_int_equal(f->b.why, BISECT_WHY_WAY);
	assert_int_equal(f->b.rounds, 0);
	fx_free(f);
}

/* A done bisection's verdict without the sandwich: what the report says. */
static void t_verdict_of(void **state)
{
	struct fx *f = fx_new(40, 21);
	struct bisect_verdict v;
	struct bisect_step st;

	(void)state;
	f->fails[20] = 1;
	start(f, 10);
	assert_int_equal(bisect_verdict_of(&f->b, &v, &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_string_equal(f->err.msg, "bisect: not done (search)");
	drive(f, &st);
	assert_int_equal(st.phase, BISECT_CULPRIT);
	assert_int_equal(bisect_verdict_of(&f->b, &v, &f->err), 0);
	assert_int_equal(v.culprit, st.v.culprit);
	assert_int_equal(v.parent, st.v.parent);
	assert_true(v.p == st.v.p);
	assert_int_equal(v.skipped_before, st.v.skipped_before);
	fx_free(f);
	f = fx_new(60, 37);
	f->par.max_runs = 12;
	start(f, 10);
	drive(f, &st);
	assert_int_equal(bisect_verdict_of(&f->b, &v, &f->err), 0);
	assert_int_equal(v.lo, st.v.lo);
	assert_int_equal(v.hi, st.v.hi);
	assert_int_equal(v.ncommits, st.v.ncommits);
	assert_string_equal(v.why, "the run budget ran out");
	fx_free(f);
}

static void t_json(void **state)
{
	struct fx *f = fx_new(30, 12);
	struct bisect back = { 0 };
	struct bisect_step st, st2;
	char *text, *again;
	size_t a, k;

	(void)state;
	f->fails[5] = f->fails[6] = f->fails[7] = 1;
	f->r.c[3].marks = BISECT_MERGE;
	snprintf(f->r.c[3].tag, BISECT_TAG_MAX, "v6.13");
	start(f, 10);
	/* two rounds answered, the third asked */
	for (k = 0; k < 2; k++) {
		assert_int_equal(bisect_next(&f->b, &f->d, &st, &f->err), 0);
		for (a = 0; a < st.nask; a++) {
			double v[2] = { run_at(f, st.ask[a].at),
				run_at(f, st.ask[a].at) };

			assert_int_equal(bisect_add_runs(&f->b, st.ask[a].at, v,
							 2, &f->err), 0);
		}
	}
	assert_int_equal(bisect_skip(&f->b, 6, &f->err), 0);
	text = bisect_to_json(&f->b);
	assert_non_null(text);
	assert_int_equal(bisect_from_json(&back, text, &f->err), 0);
	again = bisect_to_json(&back);
	assert_string_equal(again, text);
	assert_int_equal(back.n, 30);
	assert_int_equal(back.runs, f->b.runs);
	assert_int_equal(back.rounds, 2);
	assert_true(back.p[6].skipped);
	/* the order the runs came in: the ends first, then by round */
	assert_int_equal(back.nlog, f->b.nlog);
	assert_int_equal(back.log[0].at, 0);
	assert_int_equal(back.log[0].n, 10);
	assert_int_equal(back.log[1].at, 30);
	assert_int_equal(back.log[1].round, 0);
	for (k = 2; k < back.nlog; k++) {
		assert_int_equal(back.log[k].at, f->b.log[k].at);
		assert_int_equal(back.log[k].n, 2);
		assert_true(back.log[k].round >= 1 && back.log[k].round <= 2);
		assert_true(back.log[k].round >= back.log[k - 1].round);
	}
	assert_int_equal(back.p[4].marks, BISECT_MERGE);
	assert_string_equal(back.p[4].tag, "v6.13");
	assert_string_equal(back.metric, "hackbench.throughput");
	for (k = 0; k <= 30; k++) {
		assert_int_equal(back.p[k].nruns, f->b.p[k].nruns);
		if (back.p[k].nruns)
			assert_memory_equal(back.p[k].runs, f->b.p[k].runs,
					    back.p[k].nruns * sizeof(double));
	}
	/* the same next round from either */
	assert_int_equal(bisect_next(&f->b, &f->d, &st, &f->err), 0);
	assert_int_equal(bisect_next(&back, &f->d, &st2, &f->err), 0);
	assert_int_equal(st.nask, st2.nask);
	for (a = 0; a < st.nask; a++) {
		assert_int_equal(st.ask[a].at, st2.ask[a].at);
		assert_int_equal(st.ask[a].runs, st2.ask[a].runs);
	}
	free(again);
	free(text);
	bisect_release(&back);
	bisect_release(&back);
	fx_free(f);
}

static void t_json_refused(void **state)
{
	struct fx *f = fx_new(3, 2);
	struct bisect back = { 0 };
	static const struct {
		const char *from, *to;
	} bad[] = {
		{ "\"version\":1", "\"version\":2" },
		{ "\"metric\":", "\"metrix\":" },
		{ "\"confidence\":0.999", "\"confidence\":1.5" },
		{ "\"max_runs\":80", "\"max_runs\":-3" },
		{ "\"phase\":\"search\"", "\"phase\":\"done\"" },
		{ "\"culprit\":0", "\"culprit\":9" },
		/* done, naming the base: its parent would be before it */
		{ "\"phase\":\"search\"", "\"phase\":\"culprit\"" },
		{ "\"why\":0", "\"why\":99" },
		{ "0000000000000000000000000000000000000000",
		  "000000000000000000000000000000000000000G" },
		{ "\"runs\":[", "\"runs\":[\"x\"," },
		{ "\"skipped\":false", "\"skipped\":true" },
		/* the log: more runs than the point has, fewer, a round
		 * that was not, not a batch */
		{ "\"log\":[[0,3,0]", "\"log\":[[0,4,0]" },
		{ "\"log\":[[0,3,0]", "\"log\":[[0,2,0]" },
		{ "\"log\":[[0,3,0]", "\"log\":[[0,3,1]" },
		{ "\"log\":[[0,3,0]", "\"log\":[[0,3]" },
	};
	char *text, *p, buf[8192];
	size_t i;

	(void)state;
	start(f, 3);
	text = bisect_to_json(&f->b);
	assert_non_null(text);
	assert_true(strlen(text) < sizeof(buf) - 64);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		p = strstr(text, bad[i].from);
		assert_non_null(p);
		snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(p - text), text,
			 bad[i].to, p + strlen(bad[i].from));
		assert_int_equal(bisect_from_json(&back, buf, &f->err), -1);
		assert_int_equal(f->err.code, EX_DATAERR);
		assert_null(back.p);
	}
	assert_int_equal(bisect_from_json(&back, "{", &f->err), -1);
	assert_int_equal(bisect_from_json(&back, "[]", &f->err), -1);
	assert_int_equal(bisect_from_json(&back, text, &f->err), 0);
	free(text);
	bisect_release(&back);
	fx_free(f);
}

static void t_init_refused(void **state)
{
	struct fx *f = fx_new(3, 2);
	double runs[2] = { 100, 101 }, nan_run[2] = { 100, NAN };
	char metric[BISECT_METRIC_MAX + 1];

	(void)state;
	f->par.confidence = 1;
	assert_int_equal(bisect_init(&f->b, &f->par, "m", BASE, runs, 2,
				     &f->r, runs, 2, &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_non_null(strstr(f->err.msg, "confidence"));
	bisect_params_default(&f->par);
	f->par.per_round = BISECT_MAX_ASK + 1;
	assert_int_equal(bisect_init(&f->b, &f->par, "m", BASE, runs, 2,
				     &f->r, runs, 2, &f->err), -1);
	bisect_params_default(&f->par);
	assert_int_equal(bisect_init(&f->b, &f->par, "m", BASE, runs, 1,
				     &f->r, runs, 1, &f->err), -1);
	assert_non_null(strstr(f->err.msg, "3 in all"));
	assert_int_equal(bisect_init(&f->b, &f->par, "m", BASE, nan_run, 2,
				     &f->r, runs, 2, &f->err), -1);
	assert_non_null(strstr(f->err.msg, "not a number"));
	assert_null(f->b.p);
	assert_int_equal(bisect_init(&f->b, &f->par, "m", "abc", runs, 2,
				     &f->r, runs, 2, &f->err), -1);
	memset(metric, 'm', sizeof(metric) - 1);
	metric[sizeof(metric) - 1] = '\0';
	assert_int_equal(bisect_init(&f->b, &f->par, metric, BASE, runs, 2,
				     &f->r, runs, 2, &f->err), -1);
	f->r.n = 0;
	assert_int_equal(bisect_init(&f->b, &f->par, "m", BASE, runs, 2,
				     &f->r, runs, 2, &f->err), -1);
	f->r.n = 3;
	assert_int_equal(bisect_init(&f->b, &f->par, "m", BASE, runs, 2,
				     &f->r, runs, 2, &f->err), 0);
	assert_int_equal(bisect_find(&f->b, BASE), 0);
	assert_int_equal(bisect_find(&f->b, f->r.c[2].sha), 3);
	assert_int_equal(bisect_find(&f->b, "nonesuch"), -1);
	assert_int_equal(bisect_add_runs(&f->b, 4, runs, 1, &f->err), -1);
	assert_string_equal(bisect_phase_name(BISECT_VERIFY), "verify");
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_monte_carlo),
		cmocka_unit_test(t_skip),
		cmocka_unit_test(t_skip_posterior),
		cmocka_unit_test(t_inconclusive),
		cmocka_unit_test(t_verdict_of),
		cmocka_unit_test(t_json),
		cmocka_unit_test(t_json_refused),
		cmocka_unit_test(t_init_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
