// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench-sim: how often perfbot mails a change that is not there, and
 * how often it mails one that is. For each cell (normal noise of CV 1%,
 * 2%, 5%; 3, 4, 8 initial runs a side; a true shift of 0%, 2%, 5%, 10%)
 * it generates result roots (matrix.json text, parsed by perfbot's
 * reader) and drives perfbot's own decisions on them: the comparison and
 * noise filter (compare_roots), the headline (judge), the trigger
 * (trigger_weak: mail now, or ask for confirmation runs), the
 * confirmation on the new runs alone (runs_compare_new, confirm_verdict),
 * and, for a mailed report, a "retest 4x" verdict on its new runs.
 * Beside the fixed confirmation it runs the sequential confirmation of
 * issue 32 (seq_params_confirm(): the held runs are look 0, then 6, 8,
 * 11, 16 runs a side in all for 3 held ones, as the decision asks for
 * them, in the reported direction, on all the runs) on runs drawn from
 * a generator of its own, so that the fixed columns stay as they were.
 *   bench-sim [TRIALS [METRICS.yaml]]   (1000, config/metrics.yaml)
 * Prints one row per cell: the share mailed with confirmation (and with
 * the noise filter alone, as before), the runs spent a side (mean and
 * maximum), the retest verdicts of the mailed reports, and the
 * sequential confirmation's share mailed and runs a side.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"
#include "perfbot/config/config.h"
#include "perfbot/compare/compare.h"
#include "perfbot/judge/judge.h"
#include "perfbot/compare/rules.h"
#include "perfbot/judge/runs.h"
#include "perfbot/util/strbuf.h"
#include "perfbot/judge/trigger.h"
#include "perfbot/compare/sequential.h"
#include "perfbot/util/prng.h"

#define METRIC "hackbench.throughput"
#define TESTCASE "hackbench"
#define BASE_MEAN 100000.0
#define MAX_VALUES 64
#define RETEST_RUNS 4

static unsigned long long rng_state = 0x9e3779b97f4a7c15ULL;

static double uniform(void)
{
	/* xorshift64*: plenty for a simulation, and the same every run */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return ((rng_state * 2685821657736338717ULL) >> 11) * 0x1.0p-53;
}

static double normal(void)
{
	double u = uniform(), v = uniform();

	return sqrt(-2 * log(u > 0 ? u : 0x1.0p-53)) * cos(2 * M_PI * v);
}

struct side {
	double v[MAX_VALUES];
	size_t n;
	double mean, sd;
	struct result_root rr;
};

static void draw(struct side *s, size_t k)
{
	size_t i;

	for (i = 0; i < k && s->n < MAX_VALUES; i++)
		s->v[s->n++] = s->mean + s->sd * normal();
}

/* The side as perfbot reads it: matrix.json text through its parser. */
static int load(struct side *s)
{
	struct strbuf sb = STRBUF_INIT;
	struct pb_err err = { 0, "" };
	size_t i;
	int rc;

	MUST(sb_adds(&sb, "{\"" METRIC "\": ["));
	for (i = 0; i < s->n; i++)
		MUST(sb_addf(&sb, "%s%.17g", i ? ", " : "", s->v[i]));
	MUST(sb_adds(&sb, "]}"));
	result_root_release(&s->rr);
	rc = result_root_parse_matrix(&s->rr, "sim", sb.buf, sb.len, &err);
	if (rc)
		fprintf(stderr, "bench-sim: %s\n", err.msg);
	sb_release(&sb);
	return rc;
}

struct cell {
	long trials, filter, mailed, direct, confirmed;
	long runs_sum, runs_max;
	long rt_stable, rt_notrep, rt_inconcl;
	long seq_mailed, seq_runs_sum, seq_runs_max;
};

/* The sequential confirmation's designs (by held runs; up, down) and
 * generator. */
static struct seq_design seq_design[MAX_VALUES][2];
static int seq_made[MAX_VALUES][2];
static struct prng seq_rng;

static const struct seq_design *seq_design_for(const struct confirm_policy *p,
					       size_t n, int down)
{
	struct pb_err err = { 0, "" };
	struct seq_params sp;

	if (!seq_made[n][down]) {
		/* with min_runs, look 0 may mail at once: its alpha */
		seq_params_confirm(&sp, (long)n, p->total_runs,
				   (long)n >= p->min_runs ?
				   TRIGGER_P_STRONG / 2 : 0);
		sp.direction = down ? -1 : 1;
		if (seq_design_init(&seq_design[n][down], &sp, &err)) {
			fprintf(stderr, "bench-sim: %s\n", err.msg);
			exit(70);
		}
		seq_made[n][down] = 1;
	}
	return &seq_design[n][down];
}

/*
 * Runs of both sides drawn as the design in the reported direction asks
 * for them, decided on all runs, the held ones first: the runs a side in
 * all, and whether the report is mailed (changed).
 */
static long seq_confirm(const struct confirm_policy *p,
			const struct side sd[2], double reported, int *mail)
{
	const struct seq_design *d = seq_design_for(p, sd[BASE].n,
						    reported < 0);
	double v[2][MAX_VALUES];
	size_t n[2] = { sd[BASE].n, sd[HEAD].n };
	struct seq_decision dec;
	int s;

	memcpy(v[BASE], sd[BASE].v, n[BASE] * sizeof(double));
	memcpy(v[HEAD], sd[HEAD].v, n[HEAD] * sizeof(double));
	for (;;) {
		seq_decide(d, v[BASE], n[BASE], v[HEAD], n[HEAD], &dec);
		if (dec.answer != SEQ_MORE)
			break;
		for (s = BASE; s <= HEAD; s++) {
			long k;

			for (k = 0; k < dec.more[s] && n[s] < MAX_VALUES; k++)
				v[s][n[s]++] = sd[s].mean +
					sd[s].sd * prng_normal(&seq_rng);
		}
	}
	*mail = dec.answer == SEQ_CHANGED;
	return (long)(n[BASE] > n[HEAD] ? n[BASE] : n[HEAD]);
}

/* The verdict on 'k' new runs of both sides after the first 'from'. */
static enum verdict fresh_verdict(struct side sd[2], const size_t from[2],
				  const struct rules *rules, double reported)
{
	struct pb_err err = { 0, "" };
	struct runs_new rn;
	const struct cmp_row *row;
	enum verdict v = VERDICT_INCONCLUSIVE;

	if (load(&sd[BASE]) || load(&sd[HEAD]) ||
	    runs_compare_new(&rn, &sd[BASE].rr, &sd[HEAD].rr, from, rules,
			     &err))
		return v;
	row = comparison_find(&rn.cmp, METRIC);
	if (row)
		v = confirm_verdict(row, reported);
	runs_new_release(&rn);
	return v;
}

static void retest(struct side sd[2], const struct rules *rules,
		   double reported, struct cell *c)
{
	size_t from[2] = { sd[BASE].n, sd[HEAD].n };
	enum verdict v;

	draw(&sd[BASE], RETEST_RUNS);
	draw(&sd[HEAD], RETEST_RUNS);
	v = fresh_verdict(sd, from, rules, reported);
	c->rt_stable += v == VERDICT_STABLE;
	c->rt_notrep += v == VERDICT_NOT_REPRODUCED;
	c->rt_inconcl += v == VERDICT_INCONCLUSIVE;
}

static int trial(const struct confirm_policy *p, const struct rules *rules,
		 double cv, size_t n, double shift, struct cell *c)
{
	struct side sd[2];
	struct comparison cmp;
	struct judgement j;
	const struct cmp_row *key, *h;
	enum trigger_action act;
	struct evidence ev;
	struct pb_err err = { 0, "" };
	double reported = 0;
	int mail = 0, seq_mail = 0, s;
	long spent = (long)n, seq_spent = (long)n;

	memset(sd, 0, sizeof(sd));
	memset(&ev, 0, sizeof(ev));
	sd[BASE].mean = BASE_MEAN;
	sd[HEAD].mean = BASE_MEAN * (1 + shift);
	for (s = BASE; s <= HEAD; s++) {
		sd[s].sd = cv * BASE_MEAN;
		draw(&sd[s], n);
		if (load(&sd[s]))
			return -1;
	}
	if (compare_roots(&cmp, &sd[BASE].rr, &sd[HEAD].rr, rules, &err) ||
	    judge(&cmp, rules, TESTCASE, METRIC, 0, &j)) {
		fprintf(stderr, "bench-sim: %s\n", err.msg);
		return -1;
	}
	key = comparison_find(&cmp, METRIC);
	c->filter += j.headline != NULL;
	h = j.headline ? j.headline : key;
	if (h)
		stats_evidence(h->v[BASE], h->n[BASE], h->v[HEAD], h->n[HEAD],
			       &ev);
	act = trigger_action(p, j.headline != NULL,
			     !j.headline && trigger_candidate(key), &ev);
	if (act == TRIGGER_MAIL) {
		mail = seq_mail = 1;
		c->direct++;
	} else if (act == TRIGGER_CONFIRM) {
		seq_spent = seq_confirm(p, sd, h->change, &seq_mail);
		size_t from[2] = { n, n };
		long more = confirm_runs(p, n);

		reported = h->change;
		draw(&sd[BASE], (size_t)more);
		draw(&sd[HEAD], (size_t)more);
		spent += more;
		mail = fresh_verdict(sd, from, rules, reported) ==
			VERDICT_STABLE;
		c->confirmed += mail;
	}
	if (mail)
		reported = h->change;
	comparison_release(&cmp);
	c->trials++;
	c->mailed += mail;
	c->runs_sum += spent;
	c->runs_max = spent > c->runs_max ? spent : c->runs_max;
	c->seq_mailed += seq_mail;
	c->seq_runs_sum += seq_spent;
	c->seq_runs_max = seq_spent > c->seq_runs_max ? seq_spent :
		c->seq_runs_max;
	if (mail)
		retest(sd, rules, reported, c);
	for (s = BASE; s <= HEAD; s++)
		result_root_release(&sd[s].rr);
	return 0;
}

static double pct(long a, long b)
{
	return b ? 100.0 * (double)a / (double)b : 0;
}

int main(int argc, char **argv)
{
	static const double cvs[] = { 0.01, 0.02, 0.05 };
	static const size_t ns[] = { 3, 4, 8 };
	static const double shifts[] = { 0, 0.02, 0.05, 0.10 };
	struct confirm_policy p = { 1, 0, 0 };
	struct config defaults;
	long trials = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	const char *metrics = argc > 2 ? argv[2] : "config/metrics.yaml";
	struct pb_err err = { 0, "" };
	struct rules *rules = NULL;
	size_t a, b, k;
	long t, extra[2] = { 0, 0 }, held = 0;

	prng_seed(&seq_rng, 32);
	/* the policy of confirm: {enabled: true} with its defaults */
	if (!config_load(&defaults, NULL, &err)) {
		p.total_runs = defaults.confirm.total_runs;
		p.min_runs = defaults.confirm.min_runs;
		config_release(&defaults);
	}
	if (!p.total_runs || trials < 1 || trials > 10000000 ||
	    rules_load(&rules, metrics, &err)) {
		fprintf(stderr, "bench-sim: %s\n", err.msg[0] ? err.msg :
			"usage: bench-sim [TRIALS [METRICS.yaml]]");
		return 64;
	}
	printf("confirmation: up to %ld runs a side in all (at least %d more) "
	       "when the headline has fewer than %ld runs a side or Welch's "
	       "p >= %g, or the filter hides the key metric but Welch's "
	       "p < %g; %ld trials a cell\n\n", p.total_runs,
	       CONFIRM_LEAST_RUNS, p.min_runs, TRIGGER_P_STRONG,
	       TRIGGER_P_CANDIDATE, trials);
	printf("| CV | runs | shift | mailed | filter alone | runs a side "
	       "(mean/max) | retest 4x: stable / not reproduced / "
	       "inconclusive | sequential: mailed | runs a side (mean/max) "
	       "|\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
	for (a = 0; a < 3; a++)
		for (b = 0; b < 3; b++)
			for (k = 0; k < 4; k++) {
				struct cell c;

				memset(&c, 0, sizeof(c));
				for (t = 0; t < trials; t++)
					if (trial(&p, rules, cvs[a], ns[b],
						  shifts[k], &c))
						return 70;
				printf("| %.0f%% | %zu | %.0f%% | %.1f%% | "
				       "%.1f%% | %.1f / %ld | %.0f%% / %.0f%% "
				       "/ %.0f%% | %.1f%% | %.1f / %ld |\n",
				       cvs[a] * 100, ns[b],
				       shifts[k] * 100, pct(c.mailed, c.trials),
				       pct(c.filter, c.trials),
				       (double)c.runs_sum / (double)c.trials,
				       c.runs_max, pct(c.rt_stable, c.mailed),
				       pct(c.rt_notrep, c.mailed),
				       pct(c.rt_inconcl, c.mailed),
				       pct(c.seq_mailed, c.trials),
				       (double)c.seq_runs_sum /
				       (double)c.trials, c.seq_runs_max);
				/* issue 32's loop: CV 2%, 3 runs, 0 and 5% */
				if (a == 1 && b == 0 && (k == 0 || k == 2)) {
					extra[0] += 2 * (c.runs_sum -
							 3 * c.trials);
					extra[1] += 2 * (c.seq_runs_sum -
							 3 * c.trials);
					held += c.trials;
				}
				fflush(stdout);
			}
	printf("\nextra runs asked per comparison, both sides, CV 2%%, 3 "
	       "runs, shifts 0 and 5%%: today %.1f, sequential %.1f\n",
	       (double)extra[0] / (double)held,
	       (double)extra[1] / (double)held);
	rules_free(rules);
	return 0;
}
