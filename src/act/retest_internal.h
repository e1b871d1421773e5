/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_RETEST_INTERNAL_H
#define PERFBOT_RETEST_INTERNAL_H

#include "perfbot/act/kind.h"
#include "perfbot/act/scheduler.h"
#include "perfbot/compare/sequential.h"
#include "perfbot/render/context.h"
#include "perfbot/judge/inputs.h"
#include "perfbot/state/requests.h"

/*
 * What retest.c and retest_plan.c share: the retest's sequential design
 * as kept with its thread (key "retest"), so that every look of it is
 * decided by the same one whatever the configuration becomes: N, the
 * cap, the report's retests before it, the reported change and the noise
 * of the report's runs, and the first look's request id (each later
 * look's is "<it>-<runs a side in all>").
 */
struct retest_plan {
	long first, cap, earlier;
	double reported, cv;	/* relative: 0.05 = 5% */
	const char *id;		/* the kept one (id_kept) or the row's */
	long learned;		/* the learned noise's df, 0: none (the
				 * acknowledgement's; not kept) */
	char *id_kept;		/* retest_plan_read()'s */
};

int retest_plan_design(const struct retest_plan *pl, struct seq_design *d,
		       struct pb_err *err);
/* The same, once: nothing when '*made' is 1 already, else sets it. */
int retest_plan_design_once(const struct retest_plan *pl,
			    struct seq_design *d, int *made,
			    struct pb_err *err);
/* Add 'pl' to the thread's JSON '*thread' (replaced); -1 out of memory. */
int retest_plan_keep(char **thread, const struct retest_plan *pl);
/*
 * The plan kept with 'row' (in its thread); a retest asked before
 * retests were sequential has none: a single look of its N runs. -1 out
 * of memory; retest_plan_release() after in both cases.
 */
int retest_plan_read(struct retest_plan *pl, const struct request *row);
void retest_plan_release(struct retest_plan *pl);
/* The report's retests before this one that the farm took. */
int retest_plan_earlier(struct state *st, const char *report_id,
			long *earlier, struct pb_err *err);
/*
 * The noise the design assumes (issue 32 item 5): with noise learned in
 * the state, the upper quartile of the moderated CV (act/learned.h) of
 * the report's testcase, machine and 'metric', its learned runs pooled
 * with the report's own ('cv' on 'df'), under the prior of every cell;
 * pl->learned the learned cell's df (0: none). Else the report's own.
 * With noise learned for the cell, pl->first (N) grows to the first look
 * that noise calls for (learned_first_look()), up to pl->cap.
 */
void retest_plan_noise(struct state *st, const struct report_inputs *in,
		       const char *metric, double cv, long df,
		       struct retest_plan *pl);
/* The runs a side a look of 'n' in all adds to the look before it. */
long retest_look_adds(const struct seq_design *d, long n);

/* The farm's request of one side: its runs added to the side's root. */
void retest_side_request(struct sched_request *rq, const char *rid,
			 const struct report_inputs *in,
			 const struct manifest_side *side, int s, int runs,
			 const char *thread);

/*
 * A grouped report's other comparisons (ingest/group.h) rerun with it
 * (retest_also.c): both sides of each asked under the same request,
 * after the report's own; one that cannot be read is left out, said in
 * the log.
 */
struct retest_also {
	struct manifest *m;
	struct report_inputs *in;
	size_t n, loaded;
};
void retest_also_ask(struct state *st, const struct config *cfg,
		     const char *report_id, const char *request_id, int runs,
		     const char *thread, struct retest_also *a,
		     struct kind_asking *q);
void retest_also_release(struct retest_also *a);
/* 'also' and 'also_box' of the answer: the others over all their runs. */
void retest_also_ctx(struct ctx *c, const struct kind_fu *f,
		     const struct config *cfg);

#endif
