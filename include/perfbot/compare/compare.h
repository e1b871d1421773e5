/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_COMPARE_H
#define PERFBOT_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "perfbot/util/err.h"
#include "perfbot/ingest/result.h"
#include "perfbot/compare/rules.h"

/*
 * The comparison of two result roots, metric by metric, with the exact
 * arithmetic of LKP's ncompare and its noise filter
 * (doc/lkp-compare.md): runs that did not complete
 * (last_state.is_incomplete_run) are removed from performance metrics,
 * and with such runs the filter looks twice (all runs, for the
 * incomplete-run families; complete runs, for everything).
 */

enum { BASE = 0, HEAD = 1 };

struct cmp_stats {
	double mean;		/* Ruby's Array#sum / n */
	double stddev;		/* population standard deviation */
	double pct_stddev;	/* 100 * stddev / mean; stddev when mean is 0 */
	int has_stddev;		/* at least 2 values */
	double fails;		/* failure metrics: sum of the per-run values */
	int fails_exact;	/* every value an Integer: 'ifails' is the sum */
	__int128 ifails;
};

/* A side's list for one view of the runs. */
struct cmp_list {
	const double *v;
	const unsigned char *isint;	/* 1: an Integer in JSON */
	const int64_t *exact;		/* NULL, or the Integers exactly */
	size_t n;
};

struct cmp_row {
	const char *name;
	const double *v[2];	/* shown samples, BASE and HEAD: every run for
				 * failure metrics, complete runs otherwise */
	size_t n[2];
	/* st[]: mean and fails only; the spread is cmp_row_stats()'s, for
	 * the rows that are printed */
	struct cmp_list all[2];		/* every run (0-padded) */
	struct cmp_list complete[2];	/* runs that completed */
	int present[2];		/* the side has the metric */
	struct cmp_stats st[2];
	int failure;		/* a failure metric (its own block) */
	int absolute;		/* change is head - base, not a percentage */
	int in_base;
	int strings;		/* a list of strings on a side: never shown */
	double change;		/* relative (%) or absolute change of means */
	double reproduction;	/* failure metrics: %reproduction */
	int shown;		/* passes the noise filter */
	const char *dropped;	/* the rule that dropped it, when not shown */
};

struct comparison {
	struct cmp_row *rows;	/* base order, then head-only metrics */
	size_t nrows;
	size_t nshown;
	size_t nmetrics;	/* rows compared: nrows, unless only the
				 * shown ones were kept */
	size_t runs[2];		/* runs that completed */
	size_t all_runs[2];	/* every run (fail:runs) */
	int incomplete;		/* a side has last_state.is_incomplete_run */
	const struct result_root *root[2];
	double *zeros;		/* samples of a metric missing on one side */
	unsigned char *ones;	/* ... which are Integers */
	double *cpool[2];	/* complete runs of a side with incomplete */
	unsigned char *cints[2];
	int64_t *cexact[2];
	struct { const char *fam; size_t len; int has; } fam[4];
	size_t nfam;		/* families the base was checked for */
};

/*
 * Compare 'base' with 'head'. Never fails on data (the roots were
 * checked when loaded); -1 only when memory runs out.
 */
int compare_roots(struct comparison *c, const struct result_root *base,
		  const struct result_root *head, const struct rules *rules,
		  struct pb_err *err);
/*
 * The same with a row also for each name of 'more' that neither root has
 * (zeros on both sides, never shown): the pairs of a comparison of more
 * than two roots (ncompare.h) get the same rows that way.
 */
int compare_roots_with(struct comparison *c, const struct result_root *base,
		       const struct result_root *head,
		       const char *const *more, size_t nmore,
		       const struct rules *rules, struct pb_err *err);
/*
 * compare_roots_with() keeping only the rows the noise filter shows
 * (nrows == nshown; nmetrics counts them all): for a caller that prints
 * the filtered view and nothing else, since the rows of every metric of
 * 200,000 take 70 MB. comparison_find() then finds shown rows only.
 */
int compare_roots_shown(struct comparison *c, const struct result_root *base,
			const struct result_root *head,
			const struct rules *rules, struct pb_err *err);
void comparison_release(struct comparison *c);

/* The row of metric 'name', or NULL. */
const struct cmp_row *comparison_find(const struct comparison *c,
				      const char *name);

/*
 * Statistics of one side, as LKP computes them ('isint' may be NULL:
 * every value a Float).
 */
void cmp_stats_compute(const double *v, size_t n, struct cmp_stats *st);
void cmp_stats_compute_typed(const double *v, const unsigned char *isint,
			     size_t n, struct cmp_stats *st);

/* Every statistic of one side of 'row' (the spread included). */
void cmp_row_stats(const struct cmp_row *row, int side, struct cmp_stats *st);

#endif
