/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_ACT_LEARNED_H
#define PERFBOT_ACT_LEARNED_H

#include <time.h>

#include "perfbot/compare/noise.h"
#include "perfbot/compare/sequential.h"
#include "perfbot/state/state.h"
#include "perfbot/util/err.h"

/*
 * act: the learned noise as the requests that decide by the sequential
 * rule use it (src/act/learned.c; issue 32 item 5): a retest's and a
 * confirmation's design read the noise of their testcase, machine and
 * metric (state/noise.h) under the empirical-Bayes prior of every cell
 * (compare/noise.h), and size their first look by it; each decided
 * comparison's new runs feed it back.
 */

struct learned {
	int fitted;		/* 'prior' holds the prior of every cell */
	struct noise_prior prior;
	struct noise_cell cell;	/* the cell's, pooled with the own runs
				 * (cv 0: neither) */
	long df;		/* the cell's degrees of freedom in the
				 * state; 0: nothing learned for it */
};

/*
 * The learned noise of 'testcase', 'machine' and 'metric' (any NULL:
 * none) into 'out', its cell pooled with the own runs' 'cv' on 'df'
 * (cv 0: none). A state that cannot say is logged and read as nothing
 * learned.
 */
void learned_noise(struct state *st, const char *testcase,
		   const char *machine, const char *metric, double cv,
		   long df, struct learned *out);

/* The noise the design assumes: noise_design_cv(), or 'dflt' unfitted. */
double learned_design_cv(const struct learned *l, double dflt);

/*
 * The first look of design 'p' at the learned noise (noise_first_look(),
 * within 'least'..'cap'), or 'least' when nothing is learned for the
 * cell.
 */
long learned_first_look(const struct learned *l, const struct seq_params *p,
			long least, long cap);

/*
 * A confirmation's first look (noise_first_confirm()), or the policy's
 * own (p->looks[0]) when nothing is learned for the cell.
 */
long learned_first_confirm(const struct learned *l,
			   const struct seq_params *p, long fewer, long cap);

/* The new runs' noise ('cv' on 'df') pooled into the state's cell. */
int learned_keep(struct state *st, const char *testcase, const char *machine,
		 const char *metric, double cv, long df, time_t now,
		 struct pb_err *err);

#endif
