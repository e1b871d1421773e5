/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_FIXRUN_H
#define PERFBOT_FIXRUN_H

#include <time.h>

#include "perfbot/compare/stats.h"
#include "perfbot/ingest/manifest.h"
#include "perfbot/ingest/result.h"
#include "perfbot/judge/inputs.h"
#include "perfbot/render/context.h"
#include "perfbot/util/strbuf.h"

/*
 * act: a run of the report's job on a tree of its own, judged as a fix
 * (fixrun.c), for the answers of tests (test_result.c) and of the runs on
 * landed fixes (verify.c): the new result root waited for until it holds
 * every run asked for, and the context both answers show: LKP's table of
 * the parent, the reported commit and the tested tree (as 'perfbot
 * compare BASE HEAD TESTED' prints it), the headline metric's runs of the
 * three, and the verdict of seq_fix_judge() with the evidence of both
 * comparisons (the tested runs against the parent and against the
 * reported commit).
 */

/*
 * The result root 'dir' of a run of 'runs' runs ('what' names it in the
 * debug log): '*ready' 1 when its matrix.json holds them all (then 'rr'
 * is loaded: result_root_release() after, in every case), '*landed' how
 * many it has. One not there, or not readable yet, is waited for.
 */
void fixrun_root(const char *dir, int runs, const char *what,
		 struct result_root *rr, int *ready, long *landed);

/* What is judged. */
struct fixrun {
	const struct report_inputs *in;	/* the report's two result roots */
	const struct manifest *m;
	const struct result_root *tested;	/* complete (fixrun_root()) */
	const char *metric;	/* the report's headline, NULL: the inputs' */
	double reported;	/* its %change as reported */
	const char *commit;	/* what was asked for, when the tested root's
				 * job.yaml names no commit */
	const char *subject;	/* the tested column's, NULL: job.yaml's */
	int runs;		/* asked for */
	long max_runs;		/* limits.max_runs, for "test again" */
	int fix;		/* a landed fix: its evidence says "fix" */
};

/*
 * Add to 'c' (an answer's context): "metric", "commits" (base, head),
 * "tested_sha", "base_samples", "head_samples", "tested_samples" (for
 * templates/samples.txt), "base_n", "head_n", "tested_n", "table", and
 * the verdict: "verdict" (its word), "fixed", "partly_fixed",
 * "not_fixed", "inconclusive", "metric_missing" (the tested runs have
 * none of it), "change_base", "change_head", "reported", "vs_base",
 * "vs_head" (templates/evidence.txt), "sides_base", "sides_head",
 * "more_runs". The verdict into '*v'. -1 with 'err' when it cannot be
 * judged (no headline metric, a comparison that fails); 'c' is then as
 * it may be (release it).
 */
int fixrun_ctx(struct ctx *c, const struct fixrun *f, enum fix_verdict *v,
	       struct pb_err *err);

/* "said": the farm's words (result_root/error), a line each. */
void fixrun_said_ctx(struct ctx *x, const struct strbuf *said);

#endif
