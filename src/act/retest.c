// SPDX-License-Identifier: GPL-2.0-only
/*
 * act: retests. The act step of "retest [N]x" submits the runs and
 * records the request with the thread of the mail that asked; each later
 * run follows up the retests whose runs have landed (or whose deadline
 * passed) with an answer in that thread.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/compose/answer.h"
#include "perfbot/render/chart.h"
#include "perfbot/act/dispatch.h"
#include "perfbot/act/followup.h"
#include "perfbot/act/kind.h"
#include "perfbot/util/log.h"
#include "perfbot/render/report.h"
#include "perfbot/act/retest.h"
#include "perfbot/judge/runs.h"
#include "perfbot/act/scheduler.h"
#include "perfbot/render/context.h"
#include "perfbot/render/evidence_view.h"
#include "perfbot/compare/stats.h"
#include "perfbot/compare/table.h"

/* The farm's request of one side: its runs added to the side's root. */
static void side_request(struct sched_request *rq, const char *rid,
			 const struct report_inputs *in,
			 const struct manifest_side *side, int s, int runs,
			 const char *thread)
{
	*rq = (struct sched_request){
		.request_id = rid, .job = in->root[s].job.name,
		.commit = manifest_side_sha(side), .result_root = side->result_root,
		.runs = runs, .thread = thread, .kind = "retest",
	};
}

/* What the farm is asked and the state keeps; q->refused when the
 * report cannot be loaded (q->why). */
static void prepare_ask(struct state *st, const struct config *cfg,
			const struct answer_thread *r, const char *report_id,
			const char *request_id, int runs, struct manifest *m,
			struct report_inputs *in, struct kind_asking *q)
{
	struct pb_err e = { 0, "" };

	if (followup_manifest(st, cfg, report_id, m, &e) ||
	    report_inputs_load(in, m, cfg, &e)) {
		snprintf(q->why, sizeof(q->why), "%s", e.msg);
		q->refused = 1;
		return;
	}
	/* a confirmed report whose key metric the filter hides */
	if (!in->verdict.headline && in->key_metric)
		judge_force(&in->cmp, in->rules, in->key_metric, &in->verdict);
	q->rq.thread = followup_thread_json(r, in);
	q->rq.base_runs = (long)in->root[BASE].runs;
	q->rq.head_runs = (long)in->root[HEAD].runs;
	side_request(&q->farm[0], request_id, in, &m->base, BASE, runs,
		     r->message_id);
	side_request(&q->farm[1], request_id, in, &m->head, HEAD, runs,
		     r->message_id);
	q->nfarm = 2;
}

int retest_request(struct state *st, const struct config *cfg,
		   const struct answer_thread *r, const char *report_id,
		   const char *request_id, int runs, time_t now,
		   const char **tmpl, json_t **ctx, struct pb_err *err)
{
	struct kind_asking q;
	struct report_inputs in;
	struct manifest m;
	struct ctx c;
	int refused, rc = -1;

	memset(&m, 0, sizeof(m));
	memset(&in, 0, sizeof(in));
	*ctx = NULL;
	kind_asking_init(&q, &kind_retest);
	q.rq = (struct request_new){
		.request_id = request_id, .kind = "retest",
		.report_id = report_id, .runs = runs,
		.requested_by = r->from_addr,
		.reply_message_id = r->message_id,
		.deadline = now + cfg->scheduler.deadline,
	};
	prepare_ask(st, cfg, r, report_id, request_id, runs, &m, &in, &q);
	if (kind_ask(st, cfg, &kind_retest, &q, now, err))
		goto out;
	refused = q.out != KIND_QUEUED;
	/* the farm's words and paths are for the log and the state only */
	ctx_init(&c, "retest");
	if (!refused) {
		ctx_int(&c, "runs", runs);
		ctx_str(&c, "request_id", request_id);
		followup_commits_ctx(&c, &m);
	}
	*tmpl = refused ? kind_retest.tmpl.rejected : kind_retest.tmpl.ack;
	rc = ctx_finish(&c, ctx, err);
out:
	free((char *)q.rq.thread);
	kind_asking_release(&q);
	report_inputs_release(&in);
	manifest_release(&m);
	return rc;
}

static json_t *chart_of(const struct cmp_row *row)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *s;

	if (chart_render(row->name, row->v[BASE], row->n[BASE], row->v[HEAD],
			 row->n[HEAD], 80, 20, &sb, NULL))
		sb_reset(&sb);
	else
		chart_legend(&sb);
	s = json_string(sb_str(&sb));
	sb_release(&sb);
	return s;
}

/* JSON has no infinity: two constant samples give t = +-inf. */
static void finite_ctx(struct ctx *c, const char *key, double v)
{
	if (isfinite(v))
		ctx_real(c, key, v);
	else
		ctx_take(c, key, json_null());
}

/*
 * The verdict of the headline metric, decided on the new runs alone
 * ('fresh': the same metric compared over the runs that landed after the
 * request): the runs that made the report were selected for looking
 * different, so counting them again would favour "stable".
 */
static void verdict_ctx(struct ctx *c, const struct cmp_row *all,
			const struct cmp_row *fresh, double reported,
			const char **verdict)
{
	/* LKP's filter needs 3 runs on a side: below that the tests decide */
	int blind = fresh->n[BASE] < 3 && fresh->n[HEAD] < 3;
	struct evidence ev;
	enum verdict v;

	if (stats_evidence(fresh->v[BASE], fresh->n[BASE], fresh->v[HEAD],
			   fresh->n[HEAD], &ev))
		c->oom = 1;
	v = stats_verdict(&ev, fresh->shown || blind, reported, fresh->change);
	*verdict = stats_verdict_name(v);
	ctx_str(c, "verdict", *verdict);
	ctx_percent(c, "change", fresh->change);
	ctx_percent(c, "change_all", all->change);
	ctx_percent(c, "reported", reported);
	ctx_evidence(c, "tests", &ev);
	finite_ctx(c, "t", ev.w.t);
	finite_ctx(c, "df", ev.w.df);
	ctx_bool(c, "shown", fresh->shown);
	ctx_bool(c, "filter_blind", blind);
	ctx_bool(c, "stable", v == VERDICT_STABLE);
	ctx_bool(c, "not_reproduced", v == VERDICT_NOT_REPRODUCED);
	ctx_bool(c, "inconclusive", v == VERDICT_INCONCLUSIVE);
	ctx_int(c, "new_base_n", (long long)fresh->n[BASE]);
	ctx_int(c, "new_head_n", (long long)fresh->n[HEAD]);
}

static json_t *result_ctx(const struct request *row,
			  const struct report_inputs *in,
			  const struct manifest *m,
			  const struct followup_asker *a,
			  const char **verdict, struct pb_err *err)
{
	const char *metric = followup_metric(a);
	double reported = followup_reported(a);
	const struct cmp_row *h = metric ? comparison_find(&in->cmp, metric) :
		NULL, *fresh;
	size_t from[2] = { (size_t)row->base_runs, (size_t)row->head_runs };
	struct strbuf table = STRBUF_INIT;
	struct runs_new rn;
	json_t *ctx;
	struct ctx c;

	if (!h)
		h = in->verdict.headline;
	if (!h || runs_compare_new(&rn, &in->root[BASE], &in->root[HEAD], from,
				   in->rules, err))
		return NULL;
	fresh = comparison_find(&rn.cmp, h->name);
	if (!fresh) {
		runs_new_release(&rn);
		return NULL;
	}
	ctx_init(&c, "retest");
	if (report_table_text(in, m, &table))
		c.oom = 1;
	verdict_ctx(&c, h, fresh, reported, verdict);
	ctx_int(&c, "runs", row->runs);
	ctx_str(&c, "request_id", row->request_id);
	followup_commits_ctx(&c, m);
	ctx_str(&c, "metric", h->name);
	followup_samples_ctx(&c, "base_samples", h->name, h->v[BASE],
			     h->n[BASE]);
	followup_samples_ctx(&c, "head_samples", h->name, h->v[HEAD],
			     h->n[HEAD]);
	ctx_int(&c, "base_n", (long long)h->n[BASE]);
	ctx_int(&c, "head_n", (long long)h->n[HEAD]);
	ctx_str(&c, "table", sb_str(&table));
	ctx_take(&c, "chart", chart_of(h));
	sb_release(&table);
	runs_new_release(&rn);
	return ctx_finish(&c, &ctx, err) ? NULL : ctx;
}

/* The runs that are there when the deadline has passed. */
static json_t *expired_ctx(const struct request *row,
			   const struct report_inputs *in, struct pb_err *err)
{
	struct ctx c;
	json_t *o;

	ctx_init(&c, "retest");
	ctx_str(&c, "request_id", row->request_id);
	ctx_int(&c, "runs", row->runs);
	ctx_int(&c, "base_n", (long long)in->root[BASE].runs);
	ctx_int(&c, "head_n", (long long)in->root[HEAD].runs);
	return ctx_finish(&c, &o, err) ? NULL : o;
}

static json_t *retest_verdict(struct kind_fu *f, const struct config *cfg,
			      const char **verdict, struct pb_err *err)
{
	(void)cfg;
	return result_ctx(f->row, &f->in, &f->m, &f->a, verdict, err);
}

static json_t *retest_ended(const struct kind_fu *f,
			    const struct config *cfg, struct pb_err *err)
{
	(void)cfg;
	return expired_ctx(f->row, &f->in, err);
}

static void retest_limits(const struct config *cfg, struct kind_limits *l)
{
	l->per_report = cfg->limits.retests_per_report;
	l->runs = cfg->limits.default_runs;
	l->max_runs = cfg->limits.max_runs;
}

const struct kind kind_retest = {
	.name = "retest",
	.placeholders = kind_run_placeholders,
	.adds_runs = 1,
	.phase = KIND_AT_FOLLOWUP,
	.tmpl = { .ack = "retest-ack", .rejected = "retest-rejected",
		  .result = "retest-result", .expired = "retest-expired" },
	.stats_name = "retests", .stats_fields = "dxw",
	.limits = retest_limits,
	.verdict = retest_verdict,
	.ended = retest_ended,
};
