/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_JUDGE_H
#define PERFBOT_JUDGE_H

#include "perfbot/compare/compare.h"
#include "perfbot/compare/rules.h"

/*
 * Judging a comparison: the headline metric and whether its change is a
 * regression, an improvement or, when no direction is known, only a
 * change. The headline is the stat LKP would follow (lib/stats.rb): a
 * KPI stat (rules_is_kpi) the noise filter shows, the first in LKP's
 * order (rules_kpi_rank: index-perf weight, index-latency, the entry's
 * place); the operator's candidates, when one names a metric of the
 * comparison, come first. A comparison with no such metric shown is not
 * worth a mail.
 */

struct judgement {
	const struct cmp_row *headline;	/* NULL: nothing worth a mail */
	const struct cmp_row *key;	/* the stat followed, shown or not
					 * (NULL: none): the confirmation
					 * candidate */
	int direction;			/* +1 higher is better, -1 lower, 0
					 * unknown */
	int regression;			/* 1 regression, else 0 */
	int unknown;			/* no direction: a change, neither */
};

/*
 * The operator's headline candidates, in order: POSIX EREs matched
 * against the whole metric name (the job's parameters already put in),
 * and their direction (0: the rules'). 'o' may be NULL.
 */
struct judge_opts {
	const char *const *candidates;
	size_t ncandidates;
	int direction;
};

/* Returns 0, with j->headline NULL when nothing is worth reporting. */
int judge(const struct comparison *c, const struct rules *rules,
	  const struct judge_opts *o, struct judgement *j);

/*
 * The headline forced to 'metric' although the noise filter hides it:
 * for a report whose change confirmation runs have confirmed. Headline
 * NULL when the metric is missing or not a relative change.
 */
int judge_force(const struct comparison *c, const struct rules *rules,
		const char *metric, struct judgement *j);

#endif
