/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_COMPARE_INTERNAL_H
#define PERFBOT_COMPARE_INTERNAL_H

/*
 * Shared by the two files of the comparison only: compare.c builds the
 * rows and their statistics, compare_filter.c applies LKP's noise filter
 * to each.
 */

#include "perfbot/compare/compare.h"
#include "perfbot/compare/rules.h"

#define INCOMPLETE_RUN "last_state.is_incomplete_run"

/*
 * LKP's noise filter on one filled row: sets row->shown and
 * row->dropped (the rule that dropped it). One pass, or two when a side
 * has incomplete runs.
 */
void cmp_filter(struct comparison *c, struct cmp_row *row,
		const struct rules *r);

#endif
