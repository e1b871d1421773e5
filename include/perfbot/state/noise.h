/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STATE_NOISE_H
#define PERFBOT_STATE_NOISE_H

#include <stddef.h>
#include <time.h>

#include "perfbot/state/state.h"

/*
 * Learned noise (record stage, src/state/noise.c; issue 32 item 5): per
 * testcase, machine (tbox_group) and metric, the pooled CV of the runs
 * perfbot has judged (each group of runs of one commit about its own
 * mean) and its degrees of freedom, for the empirical-Bayes prior of
 * compare/noise.h. Like bisections.c, SQLite's alone for now.
 */

struct state_noise {
	char *testcase, *machine, *metric;	/* malloc'd */
	double cv;	/* pooled sd / mean, > 0 */
	long df;	/* runs minus groups, > 0 */
	time_t updated;
};
void state_noise_free(struct state_noise *v, size_t n);

/*
 * Pool 'cv' on 'df' degrees of freedom into the cell (testcase, machine,
 * metric): its CV becomes sqrt((df0 cv0^2 + df cv^2) / (df0 + df)).
 * A CV that is not finite and positive, or df < 1, is left out (0).
 */
int state_noise_add(struct state *st, const char *testcase,
		    const char *machine, const char *metric, double cv,
		    long df, time_t now, struct pb_err *err);

/*
 * Every cell, for the prior, and the one of (testcase, machine, metric):
 * '*at' its index in '*out', or n when there is none ('at' may be NULL).
 * Free with state_noise_free().
 */
int state_noise_all(struct state *st, const char *testcase,
		    const char *machine, const char *metric,
		    struct state_noise **out, size_t *n, size_t *at,
		    struct pb_err *err);

#endif
