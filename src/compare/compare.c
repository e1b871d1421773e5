// SPDX-License-Identifier: GPL-2.0-only
/*
 * LKP's comparison, rule by rule (lkp-tests lib/stats.rb StatCompare and
 * _get_changed_stats, lib/compare.rb calc_stat_change), with LKP's Ruby
 * arithmetic: Array#sum adds Integers exactly and Floats with
 * Kahan-Babuska compensation, the variance is (1.0 / n) * sum, and the
 * class of a value (Integer or Float, as written in matrix.json) is kept
 * because one rule (perf-profile) looks at it.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/compare.h"
#include "perfbot/pattern.h"
#include "perfbot/strbuf.h"

/* LKP replaces a base mean of 0 by this, so +5e+105% shows up. */
#define BASE_ZERO 1e-100
#define MAX_RATIO 5.0
#define MARGIN_SHIFT 5
#define MAX_MARGIN 3
#define INCOMPLETE_RUN "last_state.is_incomplete_run"
#define PERF_PROFILE "perf-profile."

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

void cmp_stats_compute_list(const struct cmp_list *l, struct cmp_stats *st)
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

static void sort_small(double *a, size_t n)
{
	size_t i, j;
	double x;

	for (i = 1; i < n; i++) {
		x = a[i];
		for (j = i; j > 0 && a[j - 1] > x; j--)
			a[j] = a[j - 1];
		a[j] = x;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * LKP's StatSummary: sorted, leading -1 values ("empty data point")
 * dropped, min(n >> 5, max_margin) values trimmed at each end; min, upper
 * median ("mean") and max of what is left; with 'want_class', whether
 * the median is an Integer.
 */
struct summary {
	double min, mid, max;
	int mid_int;
	int empty;
};

/* A value with its Ruby class, for the median's class. */
struct val {
	double v;
	unsigned char isint;
};

static int cmp_val(const void *a, const void *b)
{
	double x = ((const struct val *)a)->v, y = ((const struct val *)b)->v;

	return (x > y) - (x < y);
}

/* The class of the element at 'at' of the sorted list (equal values in
 * their order for short lists, as an insertion sort leaves them). */
static int median_class(const struct cmp_list *l, size_t at)
{
	struct val stack[32] = { { 0, 0 } }, *a = stack, x;
	size_t i, j;
	int cls = 0;

	if (!l->isint || at >= l->n)
		return 0;
	if (l->n > 32 && !(a = malloc(l->n * sizeof(*a))))
		return 0;
	for (i = 0; i < l->n; i++) {
		a[i].v = l->v[i];
		a[i].isint = l->isint[i];
	}
	if (l->n > 32)
		qsort(a, l->n, sizeof(*a), cmp_val);
	else
		for (i = 1; i < l->n; i++) {
			x = a[i];
			for (j = i; j > 0 && a[j - 1].v > x.v; j--)
				a[j] = a[j - 1];
			a[j] = x;
		}
	cls = a[at].isint;
	if (a != stack)
		free(a);
	return cls;
}

static void summarize(const struct cmp_list *l, size_t max_margin,
		      int want_class, double *tmp, struct summary *s)
{
	size_t margin = l->n >> MARGIN_SHIFT, start = 0, m, len;

	if (margin > max_margin)
		margin = max_margin;
	memcpy(tmp, l->v, l->n * sizeof(*tmp));
	if (l->n <= 32)
		sort_small(tmp, l->n);
	else
		qsort(tmp, l->n, sizeof(*tmp), cmp_double);
	while (start < l->n && tmp[start] == -1)
		start++;
	m = l->n - start;
	len = m >= 2 * margin + 1 ? m - 2 * margin : 0;
	memset(s, 0, sizeof(*s));
	s->empty = len == 0;
	if (s->empty)
		return;
	s->min = tmp[start + margin];
	s->mid = tmp[start + margin + len / 2];
	s->max = tmp[start + margin + len - 1];
	if (want_class)
		s->mid_int = median_class(l, start + margin + len / 2);
}

/* The base has a metric of family 'fam' (LKP's monitored_by_b?). */
static int base_has_family(struct comparison *c, const char *fam, size_t len)
{
	const struct result_root *b = c->root[BASE];
	size_t i;
	int has = 0;

	for (i = 0; i < c->nfam; i++)
		if (c->fam[i].len == len && !memcmp(c->fam[i].fam, fam, len))
			return c->fam[i].has;
	for (i = 0; i < b->nmetrics && !has; i++)
		has = !strncmp(b->metrics[i].name, fam, len) &&
		      (b->metrics[i].name[len] == '.' ||
		       !b->metrics[i].name[len]);
	if (c->nfam < sizeof(c->fam) / sizeof(c->fam[0])) {
		c->fam[c->nfam].fam = fam;
		c->fam[c->nfam].len = len;
		c->fam[c->nfam++].has = has;
	}
	return has;
}

static int ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && !memcmp(s + n - k, suffix, k);
}

/* Some base metric matches /^STAT_BASE\.(error|warn|fail)$/. */
static int base_has_failure_of(const struct comparison *c, const char *base,
			       size_t len)
{
	static const char *const kinds[] = { ".error", ".warn", ".fail" };
	const struct result_root *b = c->root[BASE];
	struct strbuf sb = STRBUF_INIT;
	struct patlist *pl;
	size_t i;
	int hit = 0;

	for (i = 0; i < 3 && !hit; i++) {
		sb_reset(&sb);
		hit = !sb_add(&sb, base, len) && !sb_adds(&sb, kinds[i]) &&
		      result_root_find(b, sb.buf);
	}
	sb_reset(&sb);
	pl = hit ? NULL : patlist_new(PAT_SEARCH);
	if (pl && !sb_adds(&sb, "^") && !sb_add(&sb, base, len) &&
	    !sb_adds(&sb, "\\.(error|warn|fail)$") &&
	    !patlist_add(pl, sb.buf, "stat base", 0, NULL))
		for (i = 0; i < b->nmetrics && !hit; i++)
			hit = patlist_any(pl, b->metrics[i].name,
					  strlen(b->metrics[i].name));
	patlist_free(pl);
	sb_release(&sb);
	return hit;
}

/* LKP's skip_function_stat?: a .fail needs its .pass and vice versa. */
static int unpaired(const struct comparison *c, const struct rules *r,
		    const char *name)
{
	size_t n = strlen(name), base = n;
	struct strbuf sb = STRBUF_INIT;
	int skip = 0;

	if (rules_family(r, FAM_UNPAIRED, name))
		return 0;
	while (base > 0 && name[base - 1] != '.')
		base--;
	base = base ? base - 1 : n;	/* k.sub(/\.[^.]*$/, '') */
	if (ends_with(name, n, ".error") || ends_with(name, n, ".warn") ||
	    ends_with(name, n, ".fail")) {
		skip = sb_add(&sb, name, base) || sb_adds(&sb, ".pass") ||
		       !result_root_find(c->root[BASE], sb.buf);
		sb_release(&sb);
	} else if (ends_with(name, n, ".pass")) {
		skip = !base_has_failure_of(c, name, base);
	}
	return skip;
}

struct pass {
	int incomplete;		/* the first of two passes */
	int complete;		/* use the complete runs */
};

static const struct cmp_list *pass_list(const struct cmp_row *row,
					const struct pass *p, int side)
{
	return p->complete ? &row->complete[side] : &row->all[side];
}

/* LKP's skip_stat? and the "newly added monitor" check of process. */
static const char *skipped(struct comparison *c, const struct cmp_row *row,
			   const struct rules *r, const struct pass *p)
{
	size_t fam;

	if (row->strings)
		return "string values";
	if (p->incomplete && !rules_family(r, FAM_INCOMPLETE_RUN, row->name))
		return "runs did not complete";
	if (p->complete && !strcmp(row->name, INCOMPLETE_RUN))
		return "runs did not complete";
	if (!rules_is_reportable(r, row->name))
		return "not reported (stat-denylist)";
	if (row->failure && unpaired(c, r, row->name))
		return "no matching pass/fail metric in base";
	if (!row->failure && pass_list(row, p, BASE)->n < 3 &&
	    pass_list(row, p, HEAD)->n < 3)
		return "fewer than 3 runs";
	if (row->in_base || row->failure)
		return NULL;
	fam = rules_family(r, FAM_MONITORED, row->name);
	if (fam && base_has_family(c, row->name, fam))
		return NULL;
	return "not in base";
}

static int separated(const struct summary *a, const struct summary *b)
{
	return (b->min > a->mid && b->mid > a->max) ||
	       (a->min > b->mid && a->mid > b->max);
}

/* changed_stats? and skip_small_change? (a = head, b = base). */
static const char *judge_change(const struct cmp_row *row,
				const struct rules *r, const struct summary *a,
				const struct summary *b)
{
	long pp = rules_perf_profile(r);
	int is_pp = pp && !strncmp(row->name, PERF_PROFILE,
				   strlen(PERF_PROFILE));
	const struct summary *high = a->mid > b->mid ? a : b;
	const struct summary *low = a->mid > b->mid ? b : a;
	double max = a->max > b->max ? a->max : b->max;
	double ratio = low->mid > 0 ? high->mid / low->mid : MAX_RATIO;

	if (is_pp && a->mid_int)
		return a->mid > (double)pp || b->mid > (double)pp ? NULL :
			"perf-profile below the threshold";
	if (row->failure ? a->max == b->max : !separated(a, b))
		return "not separated";
	if (is_pp)
		return NULL;
	if (ratio > MAX_RATIO)
		ratio = MAX_RATIO;
	if (!(ratio > 1.01))
		return "ratio within 1%";
	if (!(ratio > 1.05) && !rules_is_perf(r, row->name))
		return "ratio within 5%";
	if (!rules_threshold_ok(r, row->name, max, high->mid - low->mid))
		return "below threshold";
	return NULL;
}

static const char *filter_pass(struct comparison *c, const struct cmp_row *row,
			       const struct rules *r, const struct pass *p,
			       double *tmp)
{
	const struct cmp_list *lb = pass_list(row, p, BASE);
	const struct cmp_list *la = pass_list(row, p, HEAD);
	size_t margin = row->failure ? 0 : MAX_MARGIN;
	struct summary a, b;
	const char *why = skipped(c, row, r, p);

	if (why)
		return why;
	summarize(lb, margin, 0, tmp, &b);
	if (lb->n <= 3 && margin > 1)
		margin = 1;
	summarize(la, margin, !strncmp(row->name, PERF_PROFILE,
				       strlen(PERF_PROFILE)), tmp, &a);
	if (a.empty || b.empty)
		return "no values";
	return judge_change(row, r, &a, &b);
}

/* Sets row->shown and row->dropped: one pass, or two with incomplete runs. */
static void cmp_filter(struct comparison *c, struct cmp_row *row,
		       const struct rules *r)
{
	struct pass all = { c->incomplete, 0 }, complete = { 0, 1 };
	size_t most = c->all_runs[BASE] > c->all_runs[HEAD] ?
		c->all_runs[BASE] : c->all_runs[HEAD];
	double stack[64], *tmp = stack;

	if (most > 64 && !(tmp = malloc(most * sizeof(*tmp)))) {
		row->shown = 0;
		row->dropped = "out of memory";
		return;
	}
	row->dropped = filter_pass(c, row, r, &all, tmp);
	if (row->dropped && c->incomplete && c->runs[BASE] && c->runs[HEAD])
		row->dropped = filter_pass(c, row, r, &complete, tmp);
	row->shown = row->dropped == NULL;
	if (tmp != stack)
		free(tmp);
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
		n += flag->v[k] != 1;
	c->runs[side] = n;
	c->cpool[side] = malloc((rr->nmetrics * n + 1) * sizeof(double));
	c->cints[side] = malloc(rr->nmetrics * n + 1);
	if (!c->cpool[side] || !c->cints[side])
		return -1;
	if (rr->exact_pool &&
	    !(c->cexact[side] = calloc(rr->nmetrics * n + 1, sizeof(int64_t))))
		return -1;
	for (i = 0; i < rr->nmetrics; i++) {
		double *dv = c->cpool[side] + i * n;
		unsigned char *di = c->cints[side] + i * n;
		size_t m = 0;

		for (k = 0; k < rr->runs; k++)
			if (flag->v[k] != 1) {
				if (c->cexact[side] && rr->metrics[i].exact)
					c->cexact[side][i * n + m] =
						rr->metrics[i].exact[k];
				dv[m] = rr->metrics[i].v[k];
				di[m++] = rr->metrics[i].isint[k];
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
	row->all[side].v = m ? m->v : c->zeros;
	row->all[side].isint = m ? m->isint : c->ones;
	row->all[side].exact = m ? m->exact : NULL;
	row->all[side].n = rr->runs;
	row->complete[side] = row->all[side];
	row->complete[side].n = n;
	if (m && c->cpool[side]) {
		row->complete[side].v = c->cpool[side] + index * n;
		row->complete[side].isint = c->cints[side] + index * n;
		row->complete[side].exact = m->exact ?
			c->cexact[side] + index * n : NULL;
	}
}

static void set_row(struct comparison *c, const char *name,
		    const struct metric *b, const struct metric *h)
{
	struct cmp_row *row = &c->rows[c->nrows++];

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

int compare_roots(struct comparison *c, const struct result_root *base,
		  const struct result_root *head, const struct rules *rules,
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
	c->rows = calloc(base->nmetrics + head_only + 1, sizeof(*c->rows));
	if (!c->zeros || !c->ones || !c->rows ||
	    complete_runs(c, BASE, base) || complete_runs(c, HEAD, head)) {
		comparison_release(c);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	memset(c->ones, 1, max_runs + 1);
	for (i = 0; i < base->nmetrics; i++)
		set_row(c, base->metrics[i].name, &base->metrics[i],
			match(base, i, head));
	for (i = 0; i < head->nmetrics; i++)
		if (!match(head, i, base))
			set_row(c, head->metrics[i].name, NULL,
				&head->metrics[i]);
	for (i = 0; i < c->nrows; i++) {
		fill_row(c, &c->rows[i], rules);
		c->nshown += c->rows[i].shown;
	}
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
