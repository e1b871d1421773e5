// SPDX-License-Identifier: GPL-2.0-only
/*
 * act: tests (test.h), the follow-up: each run answers the tests whose
 * result root is complete (LKP's table of the parent, the reported
 * commit and the test, the headline metric's runs, the fix verdict and
 * the tests of both comparisons), holds the farm's reason
 * (result_root/error), or whose deadline passed, in the thread of the
 * mail that asked.
 */
#include <stdlib.h>
#include <string.h>

#include "perfbot/act/fixrun.h"
#include "perfbot/act/followup.h"
#include "perfbot/act/kind.h"
#include "perfbot/act/scheduler.h"
#include "perfbot/act/test.h"
#include "perfbot/util/log.h"

#include "test_internal.h"

/* The answer to a complete test into 'c'; -1 with 'err' when it cannot
 * be made ('c' released). */
static int result_ctx(struct ctx *c, const struct request *row,
		      const struct report_inputs *in, const struct manifest *m,
		      const struct followup_asker *a,
		      const struct result_root *tested,
		      const struct config *cfg, const char **verdict,
		      struct pb_err *err)
{
	struct fixrun f = { in, m, tested, followup_metric(a),
			    followup_reported(a), row->commit, NULL, row->runs,
			    cfg->limits.max_runs, 0 };
	enum fix_verdict v;

	ctx_init(c, "test");
	if (fixrun_ctx(c, &f, &v, err)) {
		ctx_release(c);
		return -1;
	}
	*verdict = stats_fix_verdict_name(v);
	ctx_str(c, "request_id", row->request_id);
	ctx_int(c, "runs", row->runs);
	test_form_ctx(c, row->form, row->repo, row->ref);
	ctx_opt(c, "tested_by", v == FIX_FIXED ? cfg->identity.from : NULL);
	return 0;
}

/* The other endings: the farm's reason, or the deadline passed. */
static void end_ctx(struct ctx *c, const struct request *row,
		    const struct manifest *m, const struct strbuf *said,
		    long landed)
{
	ctx_init(c, "test");
	ctx_str(c, "request_id", row->request_id);
	ctx_int(c, "runs", row->runs);
	ctx_int(c, "tested_n", landed);
	test_form_ctx(c, row->form, row->repo, row->ref);
	followup_commits_ctx(c, m);
	if (said)
		fixrun_said_ctx(c, said);
}

static int test_verdict(struct kind_fu *f, const struct config *cfg,
			const char **verdict, struct ctx *c, struct pb_err *err)
{
	return result_ctx(c, f->row, &f->in, &f->m, &f->a, &f->tested, cfg,
			  verdict, err);
}

static int test_ended(const struct kind_fu *f, const struct config *cfg,
		      struct ctx *c, struct pb_err *err)
{
	(void)cfg;
	(void)err;
	end_ctx(c, f->row, &f->m, f->end == KIND_FAILED ? &f->said : NULL,
		f->end == KIND_FAILED ? 0 : f->landed);
	return 0;
}

static void test_limits(const struct config *cfg, struct kind_limits *l)
{
	l->per_report = cfg->limits.tests_per_report;
	l->per_sender_day = cfg->limits.tests_per_sender_per_day;
	l->runs = cfg->limits.default_runs;
	l->max_runs = cfg->limits.max_runs;
}

static const char *const test_placeholders[] = {
	"kind", "result_root", "commit", "repo", "ref", "patch", "runs",
	"job", "request_id", NULL,
};

const struct kind kind_test = {
	.name = "test",
	.placeholders = test_placeholders,
	.phase = KIND_AT_FOLLOWUP,
	.tmpl = { .ack = "test-ack", .rejected = "test-rejected",
		  .failed = "test-failed", .result = "test-result",
		  .expired = "test-expired" },
	.stats_name = "tests", .stats_fields = "dfxw",
	.limits = test_limits,
	.verdict = test_verdict,
	.ended = test_ended,
};
