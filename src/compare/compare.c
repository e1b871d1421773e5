// SPDX-License-Identifier: GPL-2.0-only
/*
 * LKP's comparison of two result roots, metric by metric: the rows, the
 * statistics and the change of each (lkp-tests lib/compare.rb
 * calc_stat_change; the noise filter is compare_filter.c), with LKP's Ruby
 * arithmetic: Array#sum adds Integers exactly and Floats with
 * Kahan-Babuska compensation, the variance is (1.0 / n) * sum, and the
 * class of a value (Integer or Float, as written in matrix.json) is kept
 * because one rule (perf-profile) looks at it.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/compare/compare.h"
#include "compare_internal.h"

/* LKP replaces a base mean of 0 by this, so +5e+105% shows up. */
#define BASE_ZERO 1e-100

/*
 * Ruby's Array#sum over numbers: Integers exactly, then Kahan-Babuska
 * from the first Float on. 'isum' gets the exact sum when every value
 * is an Integer (then 1 is returned in 'all_int').
 */
static double ruby_sum(const struct cmp_list *l, __int128 *isum,
		       int *all_int)
{
	const double *v = l->v;
	size_t i = 0, n = l->n;
	__int128 exact = 0;
	double f, c = 0, x, t;

	for (; i < n && l->isint && l->isint[i]; i++)
		exact += l->exact ? l->exact[i] : (int64_t)v[i];
	*isum = exact;
	*all_int = i == n;
	f = (double)exact;
	for (; i < n; i++) {
		x = v[i];
		if (isnan(f))
			continue;
		if (isnan(x) || isinf(x)) {
			f = isinf(x) && isinf(f) && signbit(x) != signbit(f) ?
				NAN : x;
			continue;
		}
		if (isinf(f))
			continue;
		t = f + x;
		if (fabs(f) >= fabs(x))
			c += (f - t) + x;
		else
			c += (x - t) + f;
		f = t;
	}
	return f + c;
}

/* The sum (Ruby's) and the mean: what the filter and the change need. */
static void stats_mean(const struct cmp_list *l, struct cmp_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->fails = ruby_sum(l, &st->ifails, &st->fails_exact);
	st->mean = l->n ? st->fails / (double)l->n : 0;
}

static void cmp_stats_compute_list(const struct cmp_list *l,
				   struct cmp_stats *st)
{
	const double *v = l->v;
	size_t i, n = l->n;
	double sq = 0;

	stats_mean(l, st);
	if (n < 2)
		return;
	for (i = 0; i < n; i++) {
		double d = v[i] - st->mean;

		sq += d * d;	/* Ruby's Float#** 2 is dx * dx */
	}
	st->stddev = sqrt((1.0 / (double)n) * sq);
	st->has_stddev = 1;
	st->pct_stddev = st->mean != 0 ? 100 * st->stddev / st->mean :
		st->stddev;
}

void cmp_stats_compute_typed(const double *v, const unsigned char *isint,
			     size_t n, struct cmp_stats *st)
{
	struct cmp_list l = { v, isint, NULL, n };

	cmp_stats_compute_list(&l, st);
}

void cmp_stats_compute(const double *v, size_t n, struct cmp_stats *st)
{
	cmp_stats_compute_typed(v, NULL, n, st);
}

static const struct cmp_list *shown_list(const struct cmp_row *row, int s)
{
	return row->failure ? &row->all[s] : &row->complete[s];
}

void cmp_row_stats(const struct cmp_row *row, int side, struct cmp_stats *st)
{
	cmp_stats_compute_list(shown_list(row, side), st);
	if (!row->present[side])	/* LKP: no list, no stddev */
		st->has_stddev = 0;
}

static void fill_row(struct comparison *c, struct cmp_row *row,
		     const struct rules *r)
{
	double base_mean;
	int s;

	row->failure = rules_is_failure(r, row->name);
	row->absolute = rules_is_absolute(r, row->name);
	for (s = BASE; s <= HEAD; s++) {
		const struct cmp_list *l = shown_list(row, s);

		row->v[s] = l->v;
		row->n[s] = l->n;
		stats_mean(l, &row->st[s]);
	}
	base_mean = row->st[BASE].mean == 0 ? BASE_ZERO : row->st[BASE].mean;
	if (row->absolute)
		row->change = row->st[HEAD].mean - row->st[BASE].mean;
	else
		row->change = 100.0 * (row->st[HEAD].mean - base_mean) /
			      base_mean;
	row->reproduction =
		100 * (row->st[HEAD].fails / (double)c->all_runs[HEAD] -
		       row->st[BASE].fails / (double)c->all_runs[BASE]);
	cmp_filter(c, row, r);
}

/*
 * The runs of 'rr' that completed: without last_state.is_incomplete_run
 * all of them (the pool itself); else every list copied without the runs
 * whose flag is 1.
 */
static int complete_runs(struct comparison *c, int side,
			 const struct result_root *rr)
{
	const struct metric *flag = result_root_find(rr, INCOMPLETE_RUN);
	size_t i, k, n = 0;

	c->runs[side] = rr->runs;
	if (!flag || flag->strings)
		return 0;
	c->incomplete = 1;
	for (k = 0; k < rr->runs; k++)
		n += metric_values(rr, flag)[k] != 1;
	c->runs[side] = n;
	c->cpool[side] = malloc((rr->nmetrics * n + 1) * sizeof(double));
	c->cints[side] = malloc(rr->nmetrics * n + 1);
	if (!c->cpool[side] || !c->cints[side])
		return -1;
	if (rr->exact_pool &&
	    !(c->cexact[side] = calloc(rr->nmetrics * n + 1, sizeof(int64_t))))
		return -1;
	for (i = 0; i < rr->nmetrics; i++) {
		const struct metric *mi = &rr->metrics[i];
		const double *fv = metric_values(rr, flag),
			*v = metric_values(rr, mi);
		const unsigned char *isint = metric_ints(rr, mi);
		const int64_t *exact = metric_exact(rr, mi);
		double *dv = c->cpool[side] + i * n;
		unsigned char *di = c->cints[side] + i * n;
		size_t m = 0;

		for (k = 0; k < rr->runs; k++)
			if (fv[k] != 1) {
				if (c->cexact[side] && exact)
					c->cexact[side][i * n + m] = exact[k];
				dv[m] = v[k];
				di[m++] = isint[k];
			}
	}
	return 0;
}

static void set_side(struct comparison *c, struct cmp_row *row, int side,
		     const struct metric *m, size_t index)
{
	const struct result_root *rr = c->root[side];
	size_t n = c->runs[side];

	row->present[side] = m != NULL;
	if (m && m->strings)
		row->strings = 1;
	row->all[side].v = m ? metric_values(rr, m) : c->zeros;
	row->all[side].isint = m ? metric_ints(rr, m) : c->ones;
	row->all[side].exact = m ? metric_exact(rr, m) : NULL;
	row->all[side].n = rr->runs;
	row->complete[side] = row->all[side];
	row->complete[side].n = n;
	if (m && c->cpool[side]) {
		row->complete[side].v = c->cpool[side] + index * n;
		row->complete[side].isint = c->cints[side] + index * n;
		row->complete[side].exact = row->all[side].exact ?
			c->cexact[side] + index * n : NULL;
	}
}

static void set_row(struct comparison *c, const char *name,
		    const struct metric *b, const struct metric *h)
{
	struct cmp_row *row = &c->rows[c->nrows];

	memset(row, 0, sizeof(*row));
	row->name = name;
	row->in_base = b != NULL;
	set_side(c, row, BASE, b, b ? (size_t)(b - c->root[BASE]->metrics) : 0);
	set_side(c, row, HEAD, h, h ? (size_t)(h - c->root[HEAD]->metrics) : 0);
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

/*
 * Row c->nrows filled and judged; kept (counted in nrows) unless only
 * the shown rows are, and it is not one.
 */
static void add_row(struct comparison *c, const char *name,
		    const struct metric *b, const struct metric *h,
		    const struct rules *r, int shown_only)
{
	struct cmp_row *row = &c->rows[c->nrows];

	set_row(c, name, b, h);
	fill_row(c, row, r);
	c->nshown += row->shown;
	c->nmetrics++;
	c->nrows += row->shown || !shown_only;
}

static int compare_build(struct comparison *c, const struct result_root *base,
			 const struct result_root *head,
			 const char *const *more, size_t nmore,
			 const struct rules *rules, int shown_only,
			 struct pb_err *err);

int compare_roots(struct comparison *c, const struct result_root *base,
		  const struct result_root *head, const struct rules *rules,
		  struct pb_err *err)
{
	return compare_build(c, base, head, NULL, 0, rules, 0, err);
}

int compare_roots_shown(struct comparison *c, const struct result_root *base,
			const struct result_root *head,
			const struct rules *rules, struct pb_err *err)
{
	return compare_build(c, base, head, NULL, 0, rules, 1, err);
}

int compare_roots_with(struct comparison *c, const struct result_root *base,
		       const struct result_root *head,
		       const char *const *more, size_t nmore,
		       const struct rules *rules, struct pb_err *err)
{
	return compare_build(c, base, head, more, nmore, rules, 0, err);
}

/* Names of 'more' that neither side has: rows of their own. */
static size_t count_more(const struct result_root *base,
			 const struct result_root *head,
			 const char *const *more, size_t nmore)
{
	size_t i, n = 0;

	for (i = 0; i < nmore; i++)
		n += !result_root_find(base, more[i]) &&
		     !result_root_find(head, more[i]);
	return n;
}

/* The rows are allocated for every metric but only those kept are
 * written, so the pages of the others are never touched. */
static int compare_build(struct comparison *c, const struct result_root *base,
			 const struct result_root *head,
			 const char *const *more, size_t nmore,
			 const struct rules *rules, int shown_only,
			 struct pb_err *err)
{
	size_t i, max_runs, head_only = 0;

	memset(c, 0, sizeof(*c));
	c->root[BASE] = base;
	c->root[HEAD] = head;
	c->all_runs[BASE] = base->runs;
	c->all_runs[HEAD] = head->runs;
	max_runs = base->runs > head->runs ? base->runs : head->runs;
	for (i = 0; i < head->nmetrics; i++)
		head_only += !match(head, i, base);
	c->zeros = calloc(max_runs + 1, sizeof(double));
	c->ones = malloc(max_runs + 1);
	c->rows = calloc(base->nmetrics + head_only +
			 count_more(base, head, more, nmore) + 1,
			 sizeof(*c->rows));
	if (!c->zeros || !c->ones || !c->rows ||
	    complete_runs(c, BASE, base) || complete_runs(c, HEAD, head)) {
		comparison_release(c);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	memset(c->ones, 1, max_runs + 1);
	for (i = 0; i < base->nmetrics; i++)
		add_row(c, base->metrics[i].name, &base->metrics[i],
			match(base, i, head), rules, shown_only);
	for (i = 0; i < head->nmetrics; i++)
		if (!match(head, i, base))
			add_row(c, head->metrics[i].name, NULL,
				&head->metrics[i], rules, shown_only);
	for (i = 0; i < nmore; i++)
		if (!result_root_find(base, more[i]) &&
		    !result_root_find(head, more[i]))
			add_row(c, more[i], NULL, NULL, rules, shown_only);
	if (rules_check(rules, 0, err)) {	/* a bad regex met on the way */
		comparison_release(c);
		return -1;
	}
	return 0;
}

void comparison_release(struct comparison *c)
{
	free(c->rows);
	free(c->zeros);
	free(c->ones);
	free(c->cpool[BASE]);
	free(c->cpool[HEAD]);
	free(c->cints[BASE]);
	free(c->cints[HEAD]);
	free(c->cexact[BASE]);
	free(c->cexact[HEAD]);
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
