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
#include "perfbot/act/scheduler.h"
#include "perfbot/act/test.h"
#include "perfbot/util/log.h"

#include "test_internal.h"

/* The answer to a complete test; NULL with 'err' when it cannot be made. */
static json_t *result_ctx(const struct request *row,
			  const struct report_inputs *in,
			  const struct manifest *m,
			  const struct followup_asker *a,
			  const struct result_root *tested,
			  const struct config *cfg, const char **verdict,
			  struct pb_err *err)
{
	struct fixrun f = { in, m, tested, followup_metric(a),
			    followup_reported(a), row->commit, NULL, row->runs,
			    cfg->limits.max_runs, 0 };
	enum fix_verdict v;
	json_t *out = NULL;
	struct ctx c;

	ctx_init(&c, "test");
	if (fixrun_ctx(&c, &f, &v, err)) {
		ctx_release(&c);
		return NULL;
	}
	*verdict = stats_fix_verdict_name(v);
	ctx_str(&c, "request_id", row->request_id);
	ctx_int(&c, "runs", row->runs);
	test_form_ctx(&c, row->form, row->repo, row->ref);
	ctx_opt(&c, "tested_by", v == FIX_FIXED ? cfg->identity.from : NULL);
	if (ctx_finish(&c, &out, err))
		out = NULL;
	return out;
}

/* The other endings: the farm's reason, or the deadline passed. */
static json_t *end_ctx(const struct request *row, const struct manifest *m,
		       const struct strbuf *said, long landed,
		       struct pb_err *err)
{
	struct ctx c;
	json_t *o;

	ctx_init(&c, "test");
	ctx_str(&c, "request_id", row->request_id);
	ctx_int(&c, "runs", row->runs);
	ctx_int(&c, "tested_n", landed);
	test_form_ctx(&c, row->form, row->repo, row->ref);
	followup_commits_ctx(&c, m);
	if (said)
		fixrun_said_ctx(&c, said);
	return ctx_finish(&c, &o, err) ? NULL : o;
}

/* The report of a test, its manifest and thread, loaded again. */
struct test_fu {
	struct followup_asker a;
	struct report_inputs in;
	struct manifest m;
	struct result_root tested;
	struct strbuf said;
	json_t *ctx;
};

static void test_fu_release(struct test_fu *f)
{
	json_decref(f->ctx);
	followup_asker_release(&f->a);
	report_inputs_release(&f->in);
	manifest_release(&f->m);
	result_root_release(&f->tested);
	sb_release(&f->said);
}

/* Answer a complete test; 0, or -1 with 'err'. */
static int answer_done(struct state *st, const struct config *cfg,
		       const struct request *row, struct test_fu *f,
		       time_t now, struct test_stats *ts, struct pb_err *err)
{
	struct pb_err why = { 0, "" };
	const char *verdict = NULL;
	int rc;

	f->ctx = result_ctx(row, &f->in, &f->m, &f->a, &f->tested, cfg,
			    &verdict, &why);
	if (!f->ctx)
		return pb_fail(err, EX_SOFTWARE, "test '%s': cannot build its "
			       "answer: %s", row->request_id, why.msg);
	rc = followup_answer(st, cfg, &f->a, row->request_id, "test-result",
			     f->ctx, followup_request_end, "done", verdict, now, err);
	ts->done += !rc;
	if (!rc)
		log_info("test '%s' of '%s': %s", row->request_id,
			 row->report_id, verdict);
	return rc;
}

static int one_test(struct state *st, const struct config *cfg,
		    const struct request *row, time_t now,
		    struct test_stats *ts, struct pb_err *err)
{
	struct test_fu f;
	long landed = 0;
	int rc = 0, ready = 0, found = 0;

	memset(&f, 0, sizeof(f));
	sb_init(&f.said, SCHED_ERROR_BYTES + 64);
	pb_err_clear(err);
	if (followup_asker_load(&f.a, st, row->thread) ||
	    followup_manifest(st, cfg, row->report_id, &f.m, err) ||
	    report_inputs_load(&f.in, &f.m, cfg, err)) {
		log_warn("test '%s': %s", row->request_id,
			 err->msg[0] ? err->msg : "its thread is unreadable");
		/* gone for good: give up at the deadline, quietly */
		if (now > row->deadline)
			rc = state_request_set(st, row->request_id, "expired",
					       NULL, err->msg[0] ? err->msg :
					       "unreadable", now, err);
		ts->expired += now > row->deadline && !rc;
		goto out;	/* else try again next run */
	}
	if (scheduler_farm_error(row->result_root, &f.said, &found, err)) {
		rc = -1;
		goto out;
	}
	if (!found)
		fixrun_root(row->result_root, row->runs, row->request_id,
			    &f.tested, &ready, &landed);
	if (found) {
		f.ctx = end_ctx(row, &f.m, &f.said, 0, err);
		rc = !f.ctx ? -1 : followup_answer(st, cfg, &f.a,
			row->request_id, "test-failed", f.ctx, followup_request_end,
			"failed", sb_str(&f.said), now, err);
		ts->failed += !rc;
	} else if (ready) {
		rc = answer_done(st, cfg, row, &f, now, ts, err);
	} else if (now > row->deadline) {
		f.ctx = end_ctx(row, &f.m, NULL, landed, err);
		rc = !f.ctx ? -1 : followup_answer(st, cfg, &f.a,
			row->request_id, "test-expired", f.ctx, followup_request_end,
			"expired", "deadline passed", now, err);
		ts->expired += !rc;
	} else {
		ts->waiting++;
	}
out:
	test_fu_release(&f);
	return rc;
}

int test_followups(struct state *st, const struct config *cfg, time_t now,
		   struct test_stats *ts, struct pb_err *err)
{
	struct request *rows = NULL;
	size_t i, n = 0;
	int rc = 0;

	memset(ts, 0, sizeof(*ts));
	if (state_requests_open(st, "test", &rows, &n, err))
		return -1;
	for (i = 0; i < n && !rc; i++)
		rc = one_test(st, cfg, &rows[i], now, ts, err);
	request_rows_free(rows, n);
	return rc;
}
