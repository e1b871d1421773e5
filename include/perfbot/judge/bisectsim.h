/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_BISECTSIM_H
#define PERFBOT_BISECTSIM_H

#include <stdint.h>

#include "perfbot/judge/bisect.h"

/*
 * How the bisection behaves, by simulation: a seeded Monte Carlo of
 * ranges whose truth is known. A range of 'commits' candidates (the head
 * the last) has one culprit, uniform over the candidates; the good
 * commits run at a mean of 100, the culprit and after at 100 (1 +
 * direction x shift), with normal noise of standard deviation cv x 100;
 * each other candidate but the head fails to build with 'fail' chance.
 * The base and head start with 'end_runs' runs. For the unit test, the
 * benchmark (make bench-bisect) and the figures of doc/bisect.md.
 */

struct bisect_world {
	long commits;		/* 1..BISECT_RANGE_MAX */
	double shift;		/* the true relative change, >= 0 */
	double cv;		/* > 0 */
	double fail;		/* [0, 1) */
	long end_runs;		/* runs at base and head, 1..1000 */
	long trials;		/* 1..10,000,000 */
	uint64_t seed;
	int heavy;		/* 1: Student's t3 noise of that deviation
				 * (outliers the model does not expect) */
};

/* What the bisections ended with, over the trials. */
struct bisect_oc {
	long trials, exact, wrong, inconclusive;
	long covered;		/* inconclusive with the culprit in range */
	double runs, rounds;	/* means: runs asked, farm round trips */
	long runs_max, rounds_max;
};

/*
 * Run the trials with 'par' and the sandwich's design 'd'. Returns 0, or
 * -1 with 'err' on a world or parameters out of range (EX_DATAERR) or no
 * memory (EX_OSERR).
 */
int bisect_simulate(const struct bisect_params *par,
		    const struct seq_design *d, const struct bisect_world *w,
		    struct bisect_oc *oc, struct pb_err *err);

#endif
