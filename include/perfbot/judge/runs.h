/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_RUNS_H
#define PERFBOT_RUNS_H

#include "perfbot/compare/compare.h"
#include "perfbot/ingest/result.h"

/*
 * Judging new runs on their own: the runs that made a report look
 * different were selected for it, so a retest or a confirmation decides
 * on the runs that came after them only. runs_cut() gives a result root
 * that holds only the runs from 'from' on; runs_compare_new() compares
 * two such cuts with the ordinary comparison (compare_roots: statistics
 * and noise filter).
 */

/*
 * 'cut' gets runs from..rr->runs-1 of every metric of 'rr' (its names
 * point into 'rr', which must outlive it); release with
 * result_root_release(). EX_DATAERR when no run is that new.
 */
int runs_cut(struct result_root *cut, const struct result_root *rr,
	     size_t from, struct pb_err *err);

struct runs_new {
	struct result_root cut[2];
	struct comparison cmp;
};

/* Compare the runs from from[BASE] and from[HEAD] on. */
int runs_compare_new(struct runs_new *rn, const struct result_root *base,
		     const struct result_root *head, const size_t from[2],
		     const struct rules *rules, struct pb_err *err);
void runs_new_release(struct runs_new *rn);

#endif
