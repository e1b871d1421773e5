// SPDX-License-Identifier: GPL-2.0-only
/*
 * LKP's noise filter, rule by rule (lkp-tests lib/stats.rb StatCompare and
 * _get_changed_stats): which metrics are skipped (skip_stat?, unpaired
 * pass/fail metrics, families not in the base), the trimmed summary of
 * each side (StatSummary), and whether the change is separated and large
 * enough to show (changed_stats?, skip_small_change?).
 */
#include <stdlib.h>
#include <string.h>

#include "pattern.h"
#include "perfbot/util/strbuf.h"
#include "compare_internal.h"

#define MAX_RATIO 5.0
#define MARGIN_SHIFT 5
#define MAX_MARGIN 3
#define PERF_PROFILE "perf-profile."

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
	if (!row->present[BASE] && !row->present[HEAD])
		return "in neither root";
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
void cmp_filter(struct comparison *c, struct cmp_row *row,
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
