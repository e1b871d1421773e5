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
#include <unistd.h>

#include "perfbot/act/followup.h"
#include "perfbot/act/scheduler.h"
#include "perfbot/act/test.h"
#include "perfbot/compare/evidence.h"
#include "perfbot/compare/ncompare.h"
#include "perfbot/compare/stats.h"
#include "perfbot/compare/table.h"
#include "perfbot/render/evidence_view.h"
#include "perfbot/util/fileio.h"
#include "perfbot/util/log.h"

#include "test_internal.h"

/* How a test ends (followup_finish_fn). */
static int finish_test(struct state *st, const char *request_id,
		       const char *status, const char *detail, time_t now,
		       struct pb_err *err)
{
	return state_test_finish(st, request_id, status, detail, now, err);
}

/* What the verdict rests on: the metric in each comparison. */
struct verdict_of {
	const struct cmp_row *b2h, *b2t;	/* base to head, to tested */
	const struct cmp_row *h2t;		/* head to tested */
	struct evidence vs_base, vs_head;
	enum fix_verdict v;
};

static int judge_test(struct verdict_of *vo, const struct ncomparison *nc,
		      const struct comparison *h2t, const char *metric,
		      double reported)
{
	vo->b2h = comparison_find(&nc->pair[0], metric);
	vo->b2t = comparison_find(&nc->pair[1], metric);
	vo->h2t = comparison_find(h2t, metric);
	if (!vo->b2h || !vo->b2t || !vo->h2t)
		return -1;
	if (evidence_of_row(vo->b2t, &vo->vs_base) ||
	    evidence_of_row(vo->h2t, &vo->vs_head))
		return -1;
	vo->v = vo->b2t->present[HEAD] ?
		stats_fix_verdict(&vo->vs_base, vo->b2t->change, &vo->vs_head,
				  vo->h2t->change, reported) :
		FIX_INCONCLUSIVE;
	return 0;
}

/* The tested root's commit as its job.yaml says, else the one asked. */
static const char *tested_commit(const struct result_root *rr,
				 const struct test_row *row)
{
	const char *c = result_root_job_str(rr, "commit");
	size_t n = c ? strspn(c, "0123456789abcdefABCDEF") : 0;

	return c && !c[n] && n >= 7 && n <= 64 ? c : row->commit;
}

/* LKP's table of the three commits, each against the base. */
static int table_of(const struct ncomparison *nc,
		    const struct report_inputs *in, const struct manifest *m,
		    const struct result_root *tested,
		    const struct test_row *row, struct strbuf *out)
{
	const char *subject = result_root_job_str(tested, "subject");
	struct table_head h = {
		in->axes.keys, in->axes.values,
		{ m->base.commit, m->head.commit, tested_commit(tested, row) },
		{ m->base.subject, m->head.subject, subject ? subject : "" },
		3,
	};

	return table_render_n(nc, &h, rules_format(in->rules), 0, out);
}

/* What the sides of an evidence line are (templates/evidence.txt). */
static void sides_ctx(struct ctx *parent, const char *key, int commit_base)
{
	struct ctx c;

	ctx_init(&c, parent->family);
	ctx_bool(&c, "test_side", 1);
	ctx_bool(&c, "commit_base", commit_base);
	ctx_child(parent, key, &c);
}

static void verdict_ctx(struct ctx *c, const struct verdict_of *vo,
			const struct config *cfg, const struct test_row *row)
{
	long more = row->runs * 2;

	if (more > cfg->limits.max_runs)
		more = cfg->limits.max_runs;
	ctx_str(c, "verdict", stats_fix_verdict_name(vo->v));
	ctx_bool(c, "fixed", vo->v == FIX_FIXED);
	ctx_bool(c, "partly_fixed", vo->v == FIX_PARTLY);
	ctx_bool(c, "not_fixed", vo->v == FIX_NOT_FIXED);
	ctx_bool(c, "inconclusive", vo->v == FIX_INCONCLUSIVE);
	ctx_bool(c, "metric_missing", !vo->b2t->present[HEAD]);
	ctx_percent(c, "change_base", vo->b2t->change);
	ctx_percent(c, "change_head", vo->h2t->change);
	/* the table's: all runs of both, as the answer shows them */
	ctx_percent(c, "reported", vo->b2h->change);
	ctx_evidence(c, "vs_base", &vo->vs_base);
	ctx_evidence(c, "vs_head", &vo->vs_head);
	sides_ctx(c, "sides_base", 0);
	sides_ctx(c, "sides_head", 1);
	ctx_int(c, "more_runs", more > row->runs ? more : row->runs);
	ctx_opt(c, "tested_by", vo->v == FIX_FIXED ? cfg->identity.from :
		NULL);
}

/* The answer to a complete test; NULL with 'err' when it cannot be made. */
static json_t *result_ctx(const struct test_row *row,
			  const struct report_inputs *in,
			  const struct manifest *m,
			  const struct followup_asker *a,
			  const struct result_root *tested,
			  const struct config *cfg, const char **verdict,
			  struct pb_err *err)
{
	const struct result_root *roots[3] = { &in->root[BASE],
					       &in->root[HEAD], tested };
	const char *metric = followup_metric(a);
	double reported = followup_reported(a);
	struct strbuf table = STRBUF_INIT;
	struct ncomparison nc = { 0 };
	struct comparison h2t = { 0 };
	struct verdict_of vo;
	json_t *out = NULL;
	struct ctx c;

	if (!metric && in->verdict.headline)
		metric = in->verdict.headline->name;
	if (!metric) {
		pb_fail(err, EX_DATAERR, "the report has no headline metric");
		return NULL;
	}
	if (ncompare_roots(&nc, roots, 3, in->rules, err) ||
	    compare_roots(&h2t, &in->root[HEAD], tested, in->rules, err))
		goto out;
	if (judge_test(&vo, &nc, &h2t, metric, reported)) {
		pb_fail(err, EX_DATAERR, "no '%s' to judge", metric);
		goto out;
	}
	*verdict = stats_fix_verdict_name(vo.v);
	ctx_init(&c, "test");
	if (table_of(&nc, in, m, tested, row, &table))
		c.oom = 1;
	ctx_str(&c, "request_id", row->request_id);
	ctx_int(&c, "runs", row->runs);
	test_form_ctx(&c, row->form, row->repo, row->ref);
	followup_commits_ctx(&c, m);
	ctx_str(&c, "tested_sha", tested_commit(tested, row));
	ctx_str(&c, "metric", metric);
	followup_samples_ctx(&c, "base_samples", metric, vo.b2h->v[BASE],
			     vo.b2h->n[BASE]);
	followup_samples_ctx(&c, "head_samples", metric, vo.b2h->v[HEAD],
			     vo.b2h->n[HEAD]);
	followup_samples_ctx(&c, "tested_samples", metric, vo.b2t->v[HEAD],
			     vo.b2t->n[HEAD]);
	ctx_int(&c, "base_n", (long long)vo.b2h->n[BASE]);
	ctx_int(&c, "head_n", (long long)vo.b2h->n[HEAD]);
	ctx_int(&c, "tested_n", (long long)vo.b2t->n[HEAD]);
	verdict_ctx(&c, &vo, cfg, row);
	ctx_str(&c, "table", sb_str(&table));
	if (ctx_finish(&c, &out, err))
		out = NULL;
out:
	sb_release(&table);
	comparison_release(&h2t);
	ncomparison_release(&nc);
	return out;
}

/* The other endings: the farm's reason, or the deadline passed. */
static json_t *end_ctx(const struct test_row *row, const struct manifest *m,
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
		test_said_ctx(&c, said);
	return ctx_finish(&c, &o, err) ? NULL : o;
}

/*
 * The tested result root when it is complete ('*ready' 1: its
 * matrix.json holds every run asked for); how many runs it has in
 * '*landed'. One not yet there, or not readable yet, is waited for.
 */
static void tested_load(const struct test_row *row, struct result_root *rr,
			int *ready, long *landed)
{
	struct pb_err e = { 0, "" };
	char *matrix = path_join(row->result_root, "matrix.json");

	*ready = 0;
	*landed = 0;
	memset(rr, 0, sizeof(*rr));
	if (!matrix || access(matrix, F_OK)) {
		free(matrix);
		return;
	}
	free(matrix);
	if (result_root_load(rr, row->result_root, &e)) {
		log_debug("test '%s': %s", row->request_id, e.msg);
		return;
	}
	*landed = (long)rr->runs;
	*ready = (long)rr->runs >= row->runs;
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
		       const struct test_row *row, struct test_fu *f,
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
			     f->ctx, finish_test, "done", verdict, now, err);
	ts->done += !rc;
	if (!rc)
		log_info("test '%s' of '%s': %s", row->request_id,
			 row->report_id, verdict);
	return rc;
}

static int one_test(struct state *st, const struct config *cfg,
		    const struct test_row *row, time_t now,
		    struct test_stats *ts, struct pb_err *err)
{
	struct test_fu f;
	long landed = 0;
	int rc = 0, ready = 0, found = 0;

	memset(&f, 0, sizeof(f));
	sb_init(&f.said, SCHED_ERROR_BYTES + 64);
	pb_err_clear(err);
	if (followup_asker_load(&f.a, st, row->thread) ||
	    followup_manifest(st, row->report_id, &f.m, err) ||
	    report_inputs_load(&f.in, &f.m, cfg, err)) {
		log_warn("test '%s': %s", row->request_id,
			 err->msg[0] ? err->msg : "its thread is unreadable");
		/* gone for good: give up at the deadline, quietly */
		if (now > row->deadline)
			rc = state_test_finish(st, row->request_id, "expired",
					       err->msg[0] ? err->msg :
					       "unreadable", now, err);
		ts->expired += now > row->deadline && !rc;
		goto out;	/* else try again next run */
	}
	if (scheduler_farm_error(row->result_root, &f.said, &found, err)) {
		rc = -1;
		goto out;
	}
	if (!found)
		tested_load(row, &f.tested, &ready, &landed);
	if (found) {
		f.ctx = end_ctx(row, &f.m, &f.said, 0, err);
		rc = !f.ctx ? -1 : followup_answer(st, cfg, &f.a,
			row->request_id, "test-failed", f.ctx, finish_test,
			"failed", sb_str(&f.said), now, err);
		ts->failed += !rc;
	} else if (ready) {
		rc = answer_done(st, cfg, row, &f, now, ts, err);
	} else if (now > row->deadline) {
		f.ctx = end_ctx(row, &f.m, NULL, landed, err);
		rc = !f.ctx ? -1 : followup_answer(st, cfg, &f.a,
			row->request_id, "test-expired", f.ctx, finish_test,
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
	struct test_row *rows = NULL;
	size_t i, n = 0;
	int rc = 0;

	memset(ts, 0, sizeof(*ts));
	if (state_tests_queued(st, &rows, &n, err))
		return -1;
	for (i = 0; i < n && !rc; i++)
		rc = one_test(st, cfg, &rows[i], now, ts, err);
	test_rows_free(rows, n);
	return rc;
}
