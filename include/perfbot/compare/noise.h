/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_NOISE_H
#define PERFBOT_NOISE_H

#include <stddef.h>

#include "perfbot/compare/sequential.h"
#include "perfbot/util/err.h"

/*
 * Learned noise: what the past runs of a testcase, machine and metric
 * say about its noise, and the sequential design that follows from it (a
 * noisy benchmark gets more runs, a quiet one fewer).
 *
 * Each "cell" (one testcase, machine and metric) brings the pooled CV of
 * its past runs (the pooled standard deviation over the groups of runs
 * of one commit, divided by the mean) and its degrees of freedom (runs
 * minus groups). The prior over all cells is fitted by the empirical
 * Bayes method of Smyth's limma (2004): the log variances, corrected for
 * their own sampling spread, give a typical CV s0 and prior degrees of
 * freedom d0 (how much the cells agree). A cell's noise is then the
 * moderated (d0 s0^2 + d s^2) / (d0 + d): a cell with few past runs
 * leans on the others, one with many speaks for itself. The design
 * assumes the upper quartile of that estimate's posterior (scaled
 * inverse chi-square with d0 + d degrees of freedom), so that noise that
 * is little known gets a design with more runs.
 */

#define NOISE_MAX_CELLS 10000000
#define NOISE_PLAN_QUANTILE 0.75

/* What the state keeps for a testcase, machine and metric. */
struct noise_cell {
	double cv;	/* pooled sd / mean of the past runs, > 0 */
	long df;	/* its degrees of freedom; 0: no past runs */
};

struct noise_prior {
	double cv;	/* s0, the typical CV */
	double df;	/* d0; INFINITY when the cells agree beyond their
			 * sampling spread, 0 with a single cell */
	size_t cells;	/* cells that took part (cv > 0, df >= 1) */
};

/*
 * Fit the prior to 'n' cells. Cells without a usable CV (not finite, 0,
 * or df < 1) are left out. Returns 0, or -1 with 'err' (EX_DATAERR) when
 * no cell is usable or n > NOISE_MAX_CELLS.
 */
int noise_prior_fit(const struct noise_cell *cells, size_t n,
		    struct noise_prior *prior, struct pb_err *err);

/*
 * The moderated CV of 'cell' (NULL: a cell never seen, the prior's own);
 * '*df', when not NULL, receives its degrees of freedom d0 + d.
 */
double noise_cv(const struct noise_prior *prior,
		const struct noise_cell *cell, double *df);

/* The design's noise: the upper NOISE_PLAN_QUANTILE of the posterior. */
double noise_design_cv(const struct noise_prior *prior,
		       const struct noise_cell *cell);

/*
 * Fixed-sample runs a side for a one-sided t-test at 'alpha' with
 * 'power' on 'shift' at 'cv' (the normal formula with Guenther's
 * correction, z_alpha^2 / 4).
 */
double noise_fixed_runs(double alpha, double power, double shift,
			double cv);

/*
 * The design for a comparison of 'cell' (NULL: never seen): 'p' comes
 * in with alpha, power, direction and the spending shapes set (as
 * seq_params_default() sets them) and goes out with
 *   cv     noise_design_cv();
 *   shift  'shift', or the smallest shift that 'cap' runs a side can
 *          decide (1.2 times the fixed-sample runs) when that is larger;
 *   looks  from the first look, 0.45 times the fixed-sample runs for
 *          that shift but at least 'least' (the runs a developer asked
 *          for, or 3 for the noise filter), to 'cap' (seq_looks()).
 * Returns 0, or -1 with 'err' when least < SEQ_MIN_RUNS, cap < least or
 * cap > SEQ_MAX_RUNS, or 'shift' is not positive.
 */
int noise_plan(const struct noise_prior *prior,
	       const struct noise_cell *cell, double shift, long least,
	       long cap, struct seq_params *p, struct pb_err *err);

/*
 * The runs a side the first look of design 'p' (its alpha, power,
 * direction and shift) should reach at the noise learned for 'cell'
 * (NULL: never seen), as noise_plan() places it: PLAN_FIRST (0.45)
 * times the fixed-sample runs at noise_design_cv(), but within 'least'
 * (the runs asked for at least) and 'cap'. So a quiet benchmark's first
 * look asks fewer runs and a noisy one's more, in one round trip.
 */
long noise_first_look(const struct noise_prior *prior,
		      const struct noise_cell *cell, const struct seq_params *p,
		      long least, long cap);

/*
 * A confirmation's first look (design 'p' of seq_params_confirm(), held
 * on 'fewer' runs a side): noise_first_look() from the policy's own
 * first look (p->looks[0]) up, or from one new run a side up when the
 * learned noise is quieter than the design assumes (p->cv); within
 * 'cap'. So the noise the design was made for keeps its looks.
 */
long noise_first_confirm(const struct noise_prior *prior,
			 const struct noise_cell *cell,
			 const struct seq_params *p, long fewer, long cap);

#endif
