/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_JUDGE_H
#define PERFBOT_JUDGE_H

#include "perfbot/compare/compare.h"
#include "perfbot/compare/rules.h"

/*
 * Judging a comparison: the headline metric (the testcase's key metric
 * from config/testcases.yaml when the filter shows it, else the shown
 * benchmark metric with a known direction that changed most), its
 * direction, and whether the change is a regression or an improvement.
 * A comparison whose benchmark metrics show no change is not worth a mail.
 */

struct judgement {
	const struct cmp_row *headline;	/* NULL: nothing worth a mail */
	int direction;			/* +1 higher is better, -1 lower */
	int regression;			/* 1 regression, 0 improvement */
};

/*
 * 'key_metric' is the testcase's headline metric (NULL when unknown) and
 * 'key_direction' its direction when the testcase table gives one (0:
 * take it from the rules). Returns 0, with j->headline NULL when nothing
 * is worth reporting.
 */
int judge(const struct comparison *c, const struct rules *rules,
	  const char *testcase, const char *key_metric, int key_direction,
	  struct judgement *j);

/*
 * The headline forced to 'metric' although the noise filter hides it:
 * for a report whose change confirmation runs have confirmed. Headline
 * NULL when the metric is missing or not a relative change.
 */
int judge_force(const struct comparison *c, const struct rules *rules,
		const char *metric, struct judgement *j);

#endif
