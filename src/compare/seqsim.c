// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare: the simulation of a decision rule (seqsim.h): seeded draws of
 * two sides of known truth, fed to the rule batch by batch as it asks.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/compare/seqsim.h"
#include "perfbot/util/prng.h"

#define SIM_MEAN 100.0
#define SIM_MAX_TRIALS 10000000L

void seq_rule_design(void *ctx, const double *base, size_t nb,
		     const double *head, size_t nh, struct seq_decision *out)
{
	seq_decide(ctx, base, nb, head, nh, out);
}

static double noise(struct prng *r, enum seq_noise kind)
{
	return kind == SEQ_NOISE_T3 ? prng_student_unit(r, 3) :
		prng_normal(r);
}

/* 'k' more runs of a side of mean 'mean', up to 'cap' in all. */
static void draw(struct prng *r, const struct seq_world *w, double mean,
		 double *v, size_t *n, long k)
{
	for (; k > 0 && *n < (size_t)w->cap; k--)
		v[(*n)++] = mean + w->cv * SIM_MEAN * noise(r, w->noise);
}

/* One trial; its answer and the runs a side it took go into 'oc'. */
static void trial(seq_rule_fn rule, void *ctx,
		  const struct seq_world *w, struct prng *r, double *v[2],
		  struct seq_oc *oc)
{
	double mean[2] = { SIM_MEAN, SIM_MEAN * (1 + w->shift) };
	struct seq_decision dec;
	size_t n[2] = { 0, 0 }, used;
	int s;

	for (;;) {
		rule(ctx, v[0], n[0], v[1], n[1], &dec);
		if (dec.answer != SEQ_MORE)
			break;
		if ((dec.more[0] <= 0 && dec.more[1] <= 0) ||
		    n[0] + (size_t)dec.more[0] > (size_t)w->cap ||
		    n[1] + (size_t)dec.more[1] > (size_t)w->cap) {
			dec.answer = SEQ_INCONCLUSIVE;
			break;
		}
		for (s = 0; s < 2; s++)
			draw(r, w, mean[s], v[s], &n[s], dec.more[s]);
	}
	oc->changed += dec.answer == SEQ_CHANGED;
	oc->not_changed += dec.answer == SEQ_NOT_CHANGED;
	oc->inconclusive += dec.answer == SEQ_INCONCLUSIVE;
	used = n[0] > n[1] ? n[0] : n[1];
	oc->runs += (double)used;
	oc->runs_max = (long)used > oc->runs_max ? (long)used : oc->runs_max;
}

int seq_simulate(seq_rule_fn rule, void *ctx,
		 const struct seq_world *w, struct seq_oc *oc,
		 struct pb_err *err)
{
	struct prng r;
	double *v[2] = { NULL, NULL };
	long t;
	int rc = -1;

	memset(oc, 0, sizeof(*oc));
	if (!(w->cv > 0 && w->cv < 1e3) || !(fabs(w->shift) < 1e3) ||
	    w->trials < 1 || w->trials > SIM_MAX_TRIALS ||
	    w->cap < SEQ_MIN_RUNS || w->cap > SEQ_MAX_RUNS)
		return pb_fail(err, EX_DATAERR, "simulation: cv %g, shift %g, "
			       "%ld trials, cap %ld: out of range", w->cv,
			       w->shift, w->trials, w->cap);
	v[0] = malloc((size_t)w->cap * sizeof(double));
	v[1] = malloc((size_t)w->cap * sizeof(double));
	if (!v[0] || !v[1]) {
		pb_fail(err, EX_OSERR, "simulation: out of memory");
		goto out;
	}
	prng_seed(&r, w->seed);
	for (t = 0; t < w->trials; t++)
		trial(rule, ctx, w, &r, v, oc);
	oc->trials = w->trials;
	oc->runs /= (double)w->trials;
	rc = 0;
out:
	free(v[0]);
	free(v[1]);
	return rc;
}

double seq_oc_share(const struct seq_oc *oc, long count)
{
	return oc->trials ? (double)count / (double)oc->trials : 0;
}
