// SPDX-License-Identifier: GPL-2.0-only
/*
 * judge: a comparison's headline metric (the testcase's key metric when
 * the filter shows it, else the biggest shown benchmark change with a
 * known direction), called a regression or an improvement, or nothing
 * worth a mail; judge_force() for a change new runs have confirmed.
 */
#include <math.h>
#include <string.h>

#include "perfbot/judge/judge.h"

static int is_benchmark_metric(const char *name, const char *testcase)
{
	size_t n = testcase ? strlen(testcase) : 0;

	return n && !strncmp(name, testcase, n) && name[n] == '.';
}

/* The shown benchmark metric with a direction that changed the most. */
static const struct cmp_row *most_changed(const struct comparison *c,
					  const struct rules *rules,
					  const char *testcase)
{
	const struct cmp_row *best = NULL;
	size_t i;

	for (i = 0; i < c->nrows; i++) {
		const struct cmp_row *r = &c->rows[i];

		if (!r->shown || r->failure || r->absolute ||
		    !is_benchmark_metric(r->name, testcase) ||
		    !rules_direction(rules, r->name))
			continue;
		if (!best || fabs(r->change) > fabs(best->change))
			best = r;
	}
	return best;
}

/* 'row' heads the report; an unknown direction counts as "higher is
 * better". */
static void set_headline(struct judgement *j, const struct cmp_row *row)
{
	if (!j->direction)
		j->direction = 1;
	j->headline = row;
	j->regression = row->change * j->direction < 0;
}

int judge(const struct comparison *c, const struct rules *rules,
	  const char *testcase, const char *key_metric, int key_direction,
	  struct judgement *j)
{
	const struct cmp_row *row = key_metric ?
		comparison_find(c, key_metric) : NULL;

	memset(j, 0, sizeof(*j));
	if (row && row->shown && !row->failure) {
		j->direction = key_direction ? key_direction :
			rules_direction(rules, row->name);
	} else {
		row = most_changed(c, rules, testcase);
		if (!row)
			return 0;
		j->direction = rules_direction(rules, row->name);
	}
	set_headline(j, row);
	return 0;
}

int judge_force(const struct comparison *c, const struct rules *rules,
		const char *metric, struct judgement *j)
{
	const struct cmp_row *row = comparison_find(c, metric);

	memset(j, 0, sizeof(*j));
	if (!row || row->failure || row->absolute || !isfinite(row->change))
		return 0;
	j->direction = rules_direction(rules, row->name);
	set_headline(j, row);
	return 0;
}
