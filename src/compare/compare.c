// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/compare.h"

/* LKP replaces a base mean of 0 by this, so +5e+105% shows up. */
#define BASE_ZERO 1e-100
#define MAX_RATIO 5.0

void cmp_stats_compute(const double *v, size_t n, struct cmp_stats *st)
{
	double sum = 0, sq = 0;
	size_t i;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < n; i++)
		sum += v[i];
	st->fails = sum;
	st->mean = n ? sum / (double)n : 0;
	if (n < 2)
		return;
	for (i = 0; i < n; i++)
		sq += (v[i] - st->mean) * (v[i] - st->mean);
	st->stddev = sqrt(sq / (double)n);
	st->has_stddev = 1;
	st->pct_stddev = st->mean != 0 ? 100 * st->stddev / st->mean : 0;
}

static void sort_small(double *v, size_t n)
{
	size_t i, j;
	double x;

	for (i = 1; i < n; i++) {
		x = v[i];
		for (j = i; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* min, upper median and max of the sorted list trimmed by 'margin'. */
struct spread {
	double min, mid, max;
};

static void spread_of(const double *v, size_t n, size_t margin, double *tmp,
		      struct spread *s)
{
	size_t len;

	memcpy(tmp, v, n * sizeof(*v));
	if (n <= 32)
		sort_small(tmp, n);
	else
		qsort(tmp, n, sizeof(*tmp), cmp_double);
	if (2 * margin >= n)
		margin = 0;
	len = n - 2 * margin;
	s->min = tmp[margin];
	s->mid = tmp[margin + len / 2];
	s->max = tmp[margin + len - 1];
}

static size_t margin_of(size_t n)
{
	size_t m = n >> 5;

	return m < 3 ? m : 3;
}

static int separated(const struct spread *a, const struct spread *b)
{
	return (b->min > a->mid && b->mid > a->max) ||
	       (a->min > b->mid && a->mid > b->max);
}

/* Rule 4: the change must not be small (a = head, b = base). */
static const char *small_change(const struct cmp_row *row,
				const struct rules *rules,
				const char *testcase, const struct spread *a,
				const struct spread *b)
{
	double high = a->mid > b->mid ? a->mid : b->mid;
	double low = a->mid > b->mid ? b->mid : a->mid;
	double max = a->max > b->max ? a->max : b->max;
	double ratio = low <= 0 ? MAX_RATIO : high / low;

	if (ratio > MAX_RATIO)
		ratio = MAX_RATIO;
	if (!rules_skips_ratio(rules, row->name)) {
		if (!(ratio > 1.01))
			return "ratio within 1%";
		if (!(ratio > 1.05) &&
		    !rules_is_perf(rules, row->name, testcase))
			return "ratio within 5%";
	}
	if (!rules_threshold_ok(rules, row->name, max, high - low))
		return "below threshold";
	return NULL;
}

void cmp_filter(struct cmp_row *row, const struct rules *rules,
		const char *testcase)
{
	size_t nb = row->n[BASE], na = row->n[HEAD];
	size_t mb = margin_of(nb), ma = margin_of(na);
	double tmp_stack[64], *tmp = tmp_stack;
	struct spread a, b;

	row->shown = 0;
	row->dropped = NULL;
	if (!row->failure && nb < 3 && na < 3) {
		row->dropped = "fewer than 3 runs";
		return;
	}
	if (!row->failure && !row->in_base) {
		row->dropped = "not in base";
		return;
	}
	if ((nb > na ? nb : na) > 64)
		tmp = malloc((nb > na ? nb : na) * sizeof(*tmp));
	if (!tmp) {
		row->dropped = "out of memory";
		return;
	}
	if (row->failure)
		mb = ma = 0;
	else if (nb <= 3 && ma > 1)
		ma = 1;
	spread_of(row->v[BASE], nb, mb, tmp, &b);
	spread_of(row->v[HEAD], na, ma, tmp, &a);
	if (tmp != tmp_stack)
		free(tmp);
	if (row->failure)
		row->dropped = a.max != b.max ? NULL : "not separated";
	else if (!separated(&a, &b))
		row->dropped = "not separated";
	else
		row->dropped = small_change(row, rules, testcase, &a, &b);
	row->shown = row->dropped == NULL;
}

static void fill_row(struct cmp_row *row, const struct rules *rules,
		     const char *testcase)
{
	double base_mean;
	int s;

	for (s = BASE; s <= HEAD; s++)
		cmp_stats_compute(row->v[s], row->n[s], &row->st[s]);
	row->failure = rules_is_failure(rules, row->name);
	row->absolute = rules_is_absolute(rules, row->name);
	base_mean = row->st[BASE].mean == 0 ? BASE_ZERO : row->st[BASE].mean;
	if (row->absolute)
		row->change = row->st[HEAD].mean - row->st[BASE].mean;
	else
		row->change = 100 * (row->st[HEAD].mean - base_mean) /
			      base_mean;
	row->reproduction =
		100 * (row->st[HEAD].fails / (double)row->n[HEAD] -
		       row->st[BASE].fails / (double)row->n[BASE]);
	cmp_filter(row, rules, testcase);
}

static void set_row(struct comparison *c, const char *name,
		    const struct metric *b, const struct metric *h)
{
	struct cmp_row *row = &c->rows[c->nrows++];

	memset(row, 0, sizeof(*row));
	row->name = name;
	row->in_base = b != NULL;
	row->v[BASE] = b ? b->v : c->zeros;
	row->v[HEAD] = h ? h->v : c->zeros;
	row->n[BASE] = c->runs[BASE];
	row->n[HEAD] = c->runs[HEAD];
}

/* The metric of 'other' named like metrics[i] of 'rr': most result roots
 * list their metrics in the same order, so try the same place first. */
static const struct metric *match(const struct result_root *rr, size_t i,
				  const struct result_root *other)
{
	const char *name = rr->metrics[i].name;

	if (i < other->nmetrics && !strcmp(other->metrics[i].name, name))
		return &other->metrics[i];
	return result_root_find(other, name);
}

int compare_roots(struct comparison *c, const struct result_root *base,
		  const struct result_root *head, const struct rules *rules,
		  const char *testcase, struct pb_err *err)
{
	size_t i, max_runs, head_only = 0;

	memset(c, 0, sizeof(*c));
	c->runs[BASE] = base->runs;
	c->runs[HEAD] = head->runs;
	max_runs = base->runs > head->runs ? base->runs : head->runs;
	for (i = 0; i < head->nmetrics; i++)
		head_only += !match(head, i, base);
	c->zeros = calloc(max_runs, sizeof(double));
	c->rows = calloc(base->nmetrics + head_only + 1, sizeof(*c->rows));
	if (!c->zeros || !c->rows) {
		comparison_release(c);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	for (i = 0; i < base->nmetrics; i++)
		set_row(c, base->metrics[i].name, &base->metrics[i],
			match(base, i, head));
	for (i = 0; i < head->nmetrics; i++)
		if (!match(head, i, base))
			set_row(c, head->metrics[i].name, NULL,
				&head->metrics[i]);
	for (i = 0; i < c->nrows; i++) {
		fill_row(&c->rows[i], rules, testcase);
		c->nshown += c->rows[i].shown;
	}
	return 0;
}

void comparison_release(struct comparison *c)
{
	free(c->rows);
	free(c->zeros);
	memset(c, 0, sizeof(*c));
}

const struct cmp_row *comparison_find(const struct comparison *c,
				      const char *name)
{
	size_t i;

	for (i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i].name, name))
			return &c->rows[i];
	return NULL;
}
