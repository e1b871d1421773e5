/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_RETEST_H
#define PERFBOT_RETEST_H

#include <time.h>

#include "perfbot/config/config.h"
#include "perfbot/act/dispatch.h"
#include "perfbot/compose/answer.h"
#include "perfbot/render/context.h"
#include "perfbot/state/state.h"

/*
 * Retests: "retest 4x" asks the scheduler for 4 more runs of the report's
 * job on both commits and records the request (with the run counts of
 * that moment and a deadline); a later 'perfbot run' sees when both
 * result roots have the new runs, compares over all runs, tests the
 * headline metric (Welch, Mann-Whitney, 95% CI of the %change) and
 * answers in the thread with the per-run values, the updated table and
 * chart, and a verdict. A passed deadline gets a "did not finish" answer,
 * a rejected request an answer naming the reason. The request id is the
 * scheduler's idempotency key, so a crash between submitting and
 * recording never runs a retest twice. The kind (kind.h): kind_retest,
 * its follow-up kind.c's with retest.c's verdict.
 */

/*
 * The command "retest [N]x", an entry of the command table of
 * act/dispatch.c: its arguments (N, default limits.default_runs), its
 * check (2 to limits.max_runs) and its act (the limits.retests_per_report
 * limit; a repeat while one is open answered once; the request asked
 * under an id stable per mail and command, a run killed while asking
 * asking again with the counts it recorded).
 */
int retest_parse(const char *args, struct mail_command *c);
int retest_check(const struct mail_command *c,
		 const struct command_limits *l, char *why, size_t whylen);
int retest_act(struct act_ctx *a, const struct mail_command *c, size_t index,
	       struct pb_err *err);

/*
 * The act step: submit and record, asked by the mail of 't' (its thread
 * is kept for the follow-up). '*tmpl' and 'c' get the answer piece to
 * render (retest-ack, or retest-rejected with the reason): 'c' is being
 * built on 0, released on -1.
 */
int retest_request(struct state *st, const struct config *cfg,
		   const struct answer_thread *t, const char *report_id,
		   const char *request_id, int runs, time_t now,
		   const char **tmpl, struct ctx *c, struct pb_err *err);

#endif
