/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_SEQSIM_H
#define PERFBOT_SEQSIM_H

#include <stddef.h>
#include <stdint.h>

#include "perfbot/compare/sequential.h"
#include "perfbot/util/err.h"

/*
 * How a decision rule behaves, by simulation: a seeded Monte Carlo of
 * comparisons whose truth is known (a base mean of 100, the head's
 * shifted by 'shift', both with noise of standard deviation 'cv' x 100,
 * normal or Student's t3 scaled to that deviation). Each trial starts
 * with no runs, asks the rule, draws the runs it asks for (MORE) and asks
 * again until it answers. For the unit test of the design, the
 * benchmark (make bench) and the figures of README.
 */

enum seq_noise { SEQ_NOISE_NORMAL, SEQ_NOISE_T3 };

struct seq_world {
	double cv;		/* the true noise: sd / mean, > 0 */
	double shift;		/* the true relative change of the head */
	enum seq_noise noise;
	long trials;		/* 1 to 10,000,000 */
	uint64_t seed;
	long cap;		/* runs a side a trial may reach, 2 to
				 * SEQ_MAX_RUNS: a rule asking past it is
				 * counted inconclusive there */
};

/* What the rule answered, over the trials. */
struct seq_oc {
	long trials, changed, not_changed, inconclusive;
	double runs;		/* mean runs a side when it answered */
	long runs_max;
};

/* A rule: answers as seq_decide() does; 'ctx' is its own (a rule may
 * keep counts there). */
typedef void (*seq_rule_fn)(void *ctx, const double *base, size_t nb,
			    const double *head, size_t nh,
			    struct seq_decision *out);

/* seq_decide() as a rule; 'ctx' is a struct seq_design. */
void seq_rule_design(void *ctx, const double *base, size_t nb,
		     const double *head, size_t nh, struct seq_decision *out);

/*
 * Run the trials. Returns 0, or -1 with 'err' on a world out of range
 * (EX_DATAERR) or no memory (EX_OSERR).
 */
int seq_simulate(seq_rule_fn rule, void *ctx,
		 const struct seq_world *w, struct seq_oc *oc,
		 struct pb_err *err);

/* Shares of the trials, 0 when there were none. */
double seq_oc_share(const struct seq_oc *oc, long count);

#endif
