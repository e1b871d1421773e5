/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_COMPARE_H
#define PERFBOT_COMPARE_H

#include <stddef.h>
#include <jansson.h>

#include "perfbot/err.h"
#include "perfbot/result.h"
#include "perfbot/rules.h"

/*
 * The comparison of two result roots, metric by metric, with the exact
 * statistics of LKP's ncompare and its noise filter
 * (shared/reference/lkp-compare.md).
 */

enum { BASE = 0, HEAD = 1 };

struct cmp_stats {
	double mean;
	double stddev;		/* population standard deviation */
	double pct_stddev;	/* 100 * stddev / mean */
	int has_stddev;		/* at least 2 values */
	double fails;		/* failure metrics: sum of the per-run values */
};

struct cmp_row {
	const char *name;
	const double *v[2];	/* per-run samples, BASE and HEAD */
	size_t n[2];
	struct cmp_stats st[2];
	int failure;		/* a failure metric (its own block) */
	int absolute;		/* change is head - base, not a percentage */
	int in_base;
	double change;		/* relative (%) or absolute change of means */
	double reproduction;	/* failure metrics: %reproduction */
	int shown;		/* passes the noise filter */
	const char *dropped;	/* the rule that dropped it, when not shown */
};

struct comparison {
	struct cmp_row *rows;	/* base order, then head-only metrics */
	size_t nrows;
	size_t nshown;
	size_t runs[2];
	double *zeros;		/* samples of a metric missing on one side */
};

/*
 * Compare 'base' with 'head'. 'testcase' names the benchmark whose own
 * metrics count as perf metrics. Never fails on data (the roots were
 * checked when loaded); -1 only when memory runs out.
 */
int compare_roots(struct comparison *c, const struct result_root *base,
		  const struct result_root *head, const struct rules *rules,
		  const char *testcase, struct pb_err *err);
void comparison_release(struct comparison *c);

/* The row of metric 'name', or NULL. */
const struct cmp_row *comparison_find(const struct comparison *c,
				      const char *name);

/* Statistics of one side (exposed for the tests and the retest report). */
void cmp_stats_compute(const double *v, size_t n, struct cmp_stats *st);

/*
 * The noise filter alone: sets row->shown and row->dropped from the
 * samples and the rules (exposed so each rule can be tested).
 */
void cmp_filter(struct cmp_row *row, const struct rules *rules,
		const char *testcase);

/*
 * Every number of the comparison as JSON: the rows shown (all rows when
 * 'all', each with the rule that dropped it), their per-run samples,
 * means, standard deviations and changes.
 */
json_t *comparison_to_json(const struct comparison *c, int all);

#endif
