// SPDX-License-Identifier: GPL-2.0-only
/*
 * judge: a comparison's headline metric and verdict, chosen as LKP
 * chooses the stat a bisection follows (lkp-tests lib/stats.rb:
 * kpi_stat? for which stats count, sort_bisect_stats for their order,
 * kpi_stat_direction for which way is worse), unless the operator's
 * candidates (config/testcases.yaml, a manifest's 'headline') name one
 * the comparison has; judge_force() for a change new runs confirmed.
 */
#include <math.h>
#include <regex.h>
#include <string.h>

#include "perfbot/judge/judge.h"

/* A row that can head a report at all: a relative change. */
static int usable(const struct cmp_row *r)
{
	return !r->failure && !r->absolute && !r->strings &&
	       isfinite(r->change);
}

/*
 * LKP's order: the index-perf weight (KPI_NO_WEIGHT when none), the
 * index-latency stats before the stats of no index, then the entry of
 * index-perf.yaml itself before one only index-perf-all.yaml names, the
 * earlier entry first; LKP leaves equal weights unordered, perfbot takes
 * the larger change. > 0 when 'a' comes first.
 */
static int kpi_cmp(const struct cmp_row *a, const struct kpi_rank *ka,
		   const struct cmp_row *b, const struct kpi_rank *kb)
{
	if (ka->weight != kb->weight)
		return ka->weight > kb->weight ? 1 : -1;
	if (ka->latency != kb->latency)
		return ka->latency ? 1 : -1;
	if (ka->primary != kb->primary)
		return ka->primary ? 1 : -1;
	if (ka->indexed && kb->indexed && ka->pos != kb->pos)
		return ka->pos < kb->pos ? 1 : -1;
	if (fabs(a->change) != fabs(b->change))
		return fabs(a->change) > fabs(b->change) ? 1 : -1;
	return 0;
}

/* The KPI stat LKP puts first, among the shown rows only or all. */
static const struct cmp_row *lkp_first(const struct comparison *c,
				       const struct rules *rules,
				       int shown_only)
{
	const struct cmp_row *best = NULL;
	struct kpi_rank kbest = { 0 }, k;
	size_t i;

	for (i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];

		if ((shown_only && !r->shown) || !usable(r) ||
		    !rules_is_kpi(rules, r->name))
			continue;
		rules_kpi_rank(rules, r->name, &k);
		if (!best || kpi_cmp(r, &k, best, &kbest) > 0) {
			best = r;
			kbest = k;
		}
	}
	return best;
}

/*
 * The first row matching 'pattern' (a POSIX ERE for the whole name),
 * a shown one before a hidden one, the larger change first. A pattern
 * that does not compile matches nothing (inputs.c checked it).
 */
static const struct cmp_row *match_first(const struct comparison *c,
					 const char *pattern, int shown_only)
{
	const struct cmp_row *best = NULL;
	regex_t re;
	size_t i;

	if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB))
		return NULL;
	for (i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];

		if ((shown_only && !r->shown) || !usable(r) ||
		    regexec(&re, r->name, 0, NULL, 0))
			continue;
		if (!best || (r->shown && !best->shown) ||
		    (r->shown == best->shown &&
		     fabs(r->change) > fabs(best->change)))
			best = r;
	}
	regfree(&re);
	return best;
}

/* The operator's first candidate the comparison has (shown or not). */
static const struct cmp_row *candidate(const struct comparison *c,
				       const struct judge_opts *o,
				       int shown_only)
{
	const struct cmp_row *r;
	size_t i;

	for (i = 0; o && i < o->ncandidates; i++)
		if ((r = match_first(c, o->candidates[i], shown_only)))
			return r;
	return NULL;
}

/* 'row' heads the report; no known direction: a change, no verdict. */
static void set_headline(struct judgement *j, const struct cmp_row *row,
			 int direction)
{
	j->headline = row;
	j->direction = direction;
	j->unknown = !direction;
	j->regression = direction && row->change * direction < 0;
}

int judge(const struct comparison *c, const struct rules *rules,
	  const struct judge_opts *o, struct judgement *j)
{
	const struct cmp_row *row;
	int dir = 0;

	memset(j, 0, sizeof(*j));
	j->key = candidate(c, o, 0);
	if (!j->key)
		j->key = lkp_first(c, rules, 0);
	row = candidate(c, o, 1);
	if (row && o->direction)
		dir = o->direction;
	if (!row)
		row = lkp_first(c, rules, 1);
	if (!row)
		return 0;
	set_headline(j, row, dir ? dir : rules_direction(rules, row->name));
	return 0;
}

int judge_force(const struct comparison *c, const struct rules *rules,
		const char *metric, struct judgement *j)
{
	const struct cmp_row *row = comparison_find(c, metric);

	memset(j, 0, sizeof(*j));
	if (!row || !usable(row))
		return 0;
	j->key = row;
	set_headline(j, row, rules_direction(rules, row->name));
	return 0;
}
