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
#include "perfbot/util/log.h"
#include "perfbot/render/report.h"
#include "perfbot/act/retest.h"
#include "perfbot/act/route.h"
#include "perfbot/judge/runs.h"
#include "perfbot/act/scheduler.h"
#include "perfbot/render/context.h"
#include "perfbot/render/evidence_view.h"
#include "perfbot/compare/stats.h"
#include "perfbot/compare/table.h"


/* The report's manifest as it was when the report was queued. */
static int load_manifest(struct state *st, const char *report_id,
			 struct manifest *m, struct pb_err *err)
{
	char *name = NULL, *text = NULL, *dir = NULL;
	int rc;

	if (state_manifest_text(st, report_id, &name, &text, &dir, err))
		return -1;
	if (!text)
		rc = pb_fail(err, EX_DATAERR, "report '%s': its manifest was "
			     "not kept", report_id);
	else
		rc = manifest_parse(m, name, dir, text, strlen(text), err);
	free(name);
	free(text);
	free(dir);
	return rc;
}

/* What an answer in the thread needs, and what the report said. */
static char *thread_json(const struct answer_thread *r,
			 const struct report_inputs *in)
{
	const struct cmp_row *h = in->verdict.headline;
	json_t *refs = json_array(), *o;
	size_t i;
	char *s;

	for (i = 0; i < r->nrefs; i++)
		json_array_append_new(refs, json_string(r->references[i]));
	o = json_pack("{s:s, s:s?, s:o, s:s, s:s, s:s?, s:s, s:f}",
		      "message_id", r->message_id, "in_reply_to",
		      r->in_reply_to, "references", refs, "subject",
		      r->subject ? r->subject : "", "from", r->from_addr,
		      "from_name", r->from_name, "metric", h ? h->name : "",
		      "reported_change", h ? h->change : 0.0);
	s = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	return s;
}

/* "commits": the short and full ids of both commits. */
static void sides_ctx(struct ctx *parent, const struct manifest *m)
{
	const struct manifest_side *side[2] = { &m->base, &m->head };
	static const char *const key[2] = { "base", "head" };
	struct ctx c, one;
	int i;

	ctx_init(&c, parent->family);
	for (i = BASE; i <= HEAD; i++) {
		const char *sha = side[i]->commit;

		ctx_init(&one, parent->family);
		ctx_str(&one, "sha", sha);
		ctx_strn(&one, "short", sha, strlen(sha) < 10 ? strlen(sha) :
			 10);
		ctx_child(&c, key[i], &one);
	}
	ctx_child(parent, "commits", &c);
}

static int submit_both(const struct config *cfg, const struct manifest *m,
		       const struct report_inputs *in, const char *rid,
		       int runs, const char *thread, char *why, size_t wl,
		       struct pb_err *err)
{
	const struct manifest_side *sides[2] = { &m->base, &m->head };
	enum sched_outcome out = SCHED_ACCEPTED;
	int s;

	for (s = BASE; s <= HEAD && out == SCHED_ACCEPTED; s++) {
		struct sched_request rq = {
			rid, in->root[s].job.name, sides[s]->commit,
			sides[s]->result_root, runs, thread, "retest", NULL,
			NULL, NULL,
		};

		if (scheduler_submit(cfg, &rq, &out, why, wl, err))
			return -1;
	}
	return out == SCHED_ACCEPTED ? 0 : 1;
}

/* Ask the farm: 0 taken, 1 refused or unreachable ('why' says why). */
static int ask_farm(struct state *st, const struct config *cfg,
		    const struct answer_thread *r, const char *report_id,
		    const char *request_id, int runs, struct manifest *m,
		    struct report_inputs *in, struct retest_request *rq,
		    char *why, size_t wl)
{
	struct pb_err e = { 0, "" };
	int rc;

	if (load_manifest(st, report_id, m, &e) ||
	    report_inputs_load(in, m, cfg, &e)) {
		snprintf(why, wl, "%s", e.msg);
		return 1;
	}
	/* a confirmed report whose key metric the filter hides */
	if (!in->verdict.headline && in->key_metric)
		judge_force(&in->cmp, in->rules, in->key_metric, &in->verdict);
	rq->thread = thread_json(r, in);
	rq->base_runs = (long)in->root[BASE].runs;
	rq->head_runs = (long)in->root[HEAD].runs;
	rc = submit_both(cfg, m, in, request_id, runs, r->message_id, why, wl,
			 &e);
	if (rc < 0)
		snprintf(why, wl, "%s", e.msg);
	return rc ? 1 : 0;
}

int retest_request(struct state *st, const struct config *cfg,
		   const struct answer_thread *r, const char *report_id,
		   const char *request_id, int runs, time_t now,
		   const char **tmpl, json_t **ctx, struct pb_err *err)
{
	struct retest_request rq = { request_id, report_id, runs,
				     r->from_addr, r->message_id, NULL,
				     "rejected", 0, 0, 0, NULL };
	struct report_inputs in;
	struct manifest m;
	char why[256] = "";
	struct ctx c;
	int refused, rc = -1;

	memset(&m, 0, sizeof(m));
	memset(&in, 0, sizeof(in));
	*ctx = NULL;
	refused = ask_farm(st, cfg, r, report_id, request_id, runs, &m, &in,
			   &rq, why, sizeof(why));
	rq.status = refused ? "rejected" : "queued";
	rq.detail = refused ? why : NULL;
	rq.deadline = now + cfg->scheduler.deadline;
	if (state_retest_add(st, &rq, now, err))
		goto out;
	/* the farm's words and paths are for the log and the state only */
	ctx_init(&c, "retest");
	if (!refused) {
		ctx_int(&c, "runs", runs);
		ctx_str(&c, "request_id", request_id);
		sides_ctx(&c, &m);
	}
	*tmpl = refused ? "retest-rejected" : "retest-ack";
	if (refused)
		log_warn("retest '%s' of '%s' rejected: %s", request_id,
			 report_id, why);
	rc = ctx_finish(&c, ctx, err);
out:
	free((char *)rq.thread);
	report_inputs_release(&in);
	manifest_release(&m);
	return rc;
}

/* One commit's per-run values of 'metric' (templates/samples.txt). */
static void samples_ctx(struct ctx *parent, const char *key,
			const char *metric, const double *v, size_t n)
{
	json_t *values = json_array();
	char buf[40];
	struct ctx c, one;
	size_t i;

	for (i = 0; values && i < n; i++) {
		json_t *o;

		snprintf(buf, sizeof(buf), "%.15g", v[i]);
		ctx_init(&one, parent->family);
		ctx_str(&one, "value", buf);
		ctx_bool(&one, "last", i + 1 == n);
		if (ctx_finish(&one, &o, NULL) ||
		    json_array_append_new(values, o)) {
			json_decref(values);
			values = NULL;
		}
	}
	ctx_init(&c, parent->family);
	ctx_str(&c, "metric", metric);
	ctx_take(&c, "values", values);
	ctx_child(parent, key, &c);
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

/* The mail that asked, as the thread kept with the retest tells it. */
struct asker {
	struct answer_thread r;	/* its strings are in 't' */
	json_t *t;
	const char *refs[REPLY_MAX_REFS];
};

static const char *field(const json_t *t, const char *key)
{
	return json_string_value(json_object_get(t, key));
}

static int asker_load(struct asker *a, const char *thread)
{
	json_t *refs, *v;
	size_t i, n = 0;

	memset(a, 0, sizeof(*a));
	a->t = json_loads(thread ? thread : "", 0, NULL);
	if (!json_is_object(a->t))
		return -1;
	a->r.message_id = field(a->t, "message_id");
	a->r.subject = field(a->t, "subject");
	a->r.from_addr = field(a->t, "from");
	a->r.from_name = field(a->t, "from_name");
	a->r.in_reply_to = field(a->t, "in_reply_to");
	refs = json_object_get(a->t, "references");
	json_array_foreach(refs, i, v)
		if (i < REPLY_MAX_REFS)
			a->refs[n++] = json_string_value(v);
	a->r.references = a->refs;
	a->r.nrefs = n;
	return a->r.message_id && a->r.from_addr ? 0 : -1;
}

static json_t *result_ctx(const struct retest_row *row,
			  const struct report_inputs *in,
			  const struct manifest *m, const struct asker *a,
			  const char **verdict, struct pb_err *err)
{
	const char *metric = json_string_value(json_object_get(a->t,
								"metric"));
	double reported = json_real_value(json_object_get(a->t,
							  "reported_change"));
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
	sides_ctx(&c, m);
	ctx_str(&c, "metric", h->name);
	samples_ctx(&c, "base_samples", h->name, h->v[BASE], h->n[BASE]);
	samples_ctx(&c, "head_samples", h->name, h->v[HEAD], h->n[HEAD]);
	ctx_int(&c, "base_n", (long long)h->n[BASE]);
	ctx_int(&c, "head_n", (long long)h->n[HEAD]);
	ctx_str(&c, "table", sb_str(&table));
	ctx_take(&c, "chart", chart_of(h));
	sb_release(&table);
	runs_new_release(&rn);
	return ctx_finish(&c, &ctx, err) ? NULL : ctx;
}

/* The runs that are there when the deadline has passed. */
static json_t *expired_ctx(const struct retest_row *row,
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

/* Queue the follow-up and close the retest in one transaction. */
static int close_retest(struct state *st, const struct config *cfg,
			const struct retest_row *row, const struct asker *a,
			const char *tmpl, json_t *ctx, const char *status,
			const char *detail, time_t now, struct pb_err *err)
{
	struct act_ctx ac = { st, cfg, now, &a->r, json_array(), 0, 0, 0,
			      NULL };
	char tag[160];
	int rc;

	rc = dispatch_piece(&ac, tmpl, json_incref(ctx), err);
	snprintf(tag, sizeof(tag), "result:%s", row->request_id);
	rc = rc || state_begin(st, err);
	if (!rc && (dispatch_answer(st, cfg, &a->r, tag, ac.pieces, now, err) ||
		    state_retest_finish(st, row->request_id, status, detail,
					err))) {
		state_rollback(st);
		rc = -1;
	} else if (!rc) {
		rc = state_commit(st, err);
	}
	json_decref(ac.pieces);
	return rc;
}

/*
 * The report's thread facts (its recipients for the Cc), found as the
 * poll found them: In-Reply-To, then References, the closest first.
 */
static void thread_of(struct state *st, struct asker *a,
		      struct thread_report *tr)
{
	int found = 0;

	if (route_lookup(st, a->r.in_reply_to, a->r.references, a->r.nrefs,
			 tr, &found, NULL) || !found)
		memset(tr, 0, sizeof(*tr));
	a->r.report = tr->report_id ? tr : NULL;
}

/* 1 when both roots hold the runs asked for. */
static int landed(const struct retest_row *row,
		  const struct report_inputs *in)
{
	return (long)in->root[BASE].runs >= row->base_runs + row->runs &&
	       (long)in->root[HEAD].runs >= row->head_runs + row->runs;
}

static int one_retest(struct state *st, const struct config *cfg,
		      const struct retest_row *row, time_t now,
		      struct retest_stats *rs, struct pb_err *err)
{
	struct thread_report tr = { 0 };
	struct pb_err why = { 0, "" };
	struct report_inputs in;
	struct manifest m;
	struct asker a;
	const char *verdict = NULL;
	json_t *ctx = NULL;
	int rc = 0, ready;

	memset(&m, 0, sizeof(m));
	memset(&in, 0, sizeof(in));
	pb_err_clear(err);
	if (asker_load(&a, row->thread) ||
	    load_manifest(st, row->report_id, &m, err) ||
	    report_inputs_load(&in, &m, cfg, err)) {
		log_warn("retest '%s': %s", row->request_id,
			 err->msg[0] ? err->msg : "its thread is unreadable");
		/* gone for good: give up at the deadline, quietly */
		if (now > row->deadline)
			rc = state_retest_finish(st, row->request_id,
						 "expired", err->msg[0] ?
						 err->msg : "unreadable", err);
		rs->expired += now > row->deadline && !rc;
		goto out;	/* else try again next run */
	}
	thread_of(st, &a, &tr);
	ready = landed(row, &in);
	if (ready && !(ctx = result_ctx(row, &in, &m, &a, &verdict, &why))) {
		rc = pb_fail(err, EX_SOFTWARE, "retest '%s': cannot build its "
			     "answer%s%s", row->request_id, why.msg[0] ? ": " :
			     "", why.msg);
	} else if (ready) {
		rc = close_retest(st, cfg, row, &a, "retest-result", ctx,
				  "done", verdict, now, err);
		rs->done += !rc;
		log_info("retest '%s' of '%s': %s", row->request_id,
			 row->report_id, verdict);
	} else if (now > row->deadline) {
		ctx = expired_ctx(row, &in, err);
		rc = !ctx ? -1 : close_retest(st, cfg, row, &a, "retest-expired",
				  ctx, "expired", "deadline passed", now, err);
		rs->expired += !rc;
	} else {
		rs->waiting++;
	}
out:
	json_decref(ctx);
	json_decref(a.t);
	thread_report_release(&tr);
	report_inputs_release(&in);
	manifest_release(&m);
	return rc;
}

int retest_followups(struct state *st, const struct config *cfg,
		     time_t now, struct retest_stats *rs, struct pb_err *err)
{
	struct retest_row *rows = NULL;
	size_t i, n = 0;
	int rc = 0;

	memset(rs, 0, sizeof(*rs));
	if (state_retests_queued(st, &rows, &n, err))
		return -1;
	for (i = 0; i < n && !rc; i++)
		rc = one_retest(st, cfg, &rows[i], now, rs, err);
	retest_rows_free(rows, n);
	return rc;
}
