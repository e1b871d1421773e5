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
			sides[s]->result_root, runs, thread,
		};

		if (scheduler_submit(cfg, &rq, &out, why, wl, err))
			return -1;
	}
	return out == SCHED_ACCEPTED ? 0 : 1;
}

static json_t *sides_ctx(const struct manifest *m)
{
	return json_pack("{s:{s:s, s:s%}, s:{s:s, s:s%}}",
			 "base", "sha", m->base.commit, "short", m->base.commit,
			 strlen(m->base.commit) < 10 ? strlen(m->base.commit) : 10,
			 "head", "sha", m->head.commit, "short", m->head.commit,
			 strlen(m->head.commit) < 10 ? strlen(m->head.commit) : 10);
}

int retest_request(struct state *st, const struct config *cfg,
		   const struct answer_thread *r, const char *report_id,
		   const char *request_id, int runs, time_t now,
		   const char **tmpl, json_t **ctx, struct pb_err *err)
{
	struct retest_request rq = { request_id, report_id, runs,
				     r->from_addr, r->message_id, NULL,
				     "rejected", 0, 0, 0, NULL };
	struct pb_err why_err = { 0, "" };
	struct report_inputs in;
	struct manifest m;
	char why[256] = "";
	int rc;

	memset(&m, 0, sizeof(m));
	memset(&in, 0, sizeof(in));
	rc = load_manifest(st, report_id, &m, &why_err);
	if (!rc)
		rc = report_inputs_load(&in, &m, cfg, &why_err);
	/* a confirmed report whose key metric the filter hides */
	if (!rc && !in.verdict.headline && in.key_metric)
		judge_force(&in.cmp, in.rules, in.key_metric, &in.verdict);
	if (!rc) {
		rq.thread = thread_json(r, &in);
		rq.base_runs = (long)in.root[BASE].runs;
		rq.head_runs = (long)in.root[HEAD].runs;
		rc = submit_both(cfg, &m, &in, request_id, runs, r->message_id,
				 why, sizeof(why), &why_err);
	}
	if (rc < 0)
		snprintf(why, sizeof(why), "%s", why_err.msg);
	rq.status = rc ? "rejected" : "queued";
	rq.detail = rc ? why : NULL;
	rq.deadline = now + cfg->scheduler.deadline;
	if (state_retest_add(st, &rq, now, err))
		rc = -2;
	else if (!rc)
		*ctx = json_pack("{s:i, s:s, s:o}", "runs", runs, "request_id",
				 request_id, "commits", sides_ctx(&m));
	else	/* the farm's words and paths are for the log and the state */
		*ctx = json_pack("{s:s}", "why", "the benchmark farm did not "
				 "take the request; the operator has the "
				 "details");
	*tmpl = rc ? "retest-rejected" : "retest-ack";
	if (rc)
		log_warn("retest '%s' of '%s' rejected: %s", request_id,
			 report_id, why);
	free((char *)rq.thread);
	report_inputs_release(&in);
	manifest_release(&m);
	return rc == -2 || (rc == 0 && !*ctx) ? -1 : 0;
}

/* "metric": [ v, v, ... ] as the seed's retest answer shows them. */
static json_t *sample_list(const char *metric, const double *v, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *s = NULL;
	size_t i;
	int rc = sb_addf(&sb, "\"%s\": [\n", metric);

	for (i = 0; i < n && !rc; i++)
		rc = sb_addf(&sb, "  %.15g%s\n", v[i], i + 1 < n ? "," : "");
	if (!rc && !sb_adds(&sb, "],"))
		s = json_string(sb_str(&sb));
	sb_release(&sb);
	return s;	/* NULL: the answer cannot be built */
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

static json_t *pct(double v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%+.1f%%", v);
	return json_string(buf);
}

/* JSON has no infinity: two constant samples give t = +-inf. */
static json_t *json_finite(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* "the 95% ... is -3.1% to -1.2%", or why there is none. */
static json_t *ci_text(const struct change_ci *ci)
{
	char buf[160];

	if (ci->ok)
		snprintf(buf, sizeof(buf), "the 95%% confidence interval of the "
			 "change is %+.1f%% to %+.1f%% (Welch, t-based)",
			 ci->lo, ci->hi);
	else
		snprintf(buf, sizeof(buf), "no confidence interval is possible "
			 "(%s)", ci->why);
	return json_string(buf);
}

/* "p = 0.0123", or "not possible (why)". */
static json_t *p_text(int ok, double p, const char *why)
{
	char buf[160];

	if (ok)
		snprintf(buf, sizeof(buf), p < 1e-4 ? "p = %.2g" : "p = %.4f",
			 p);
	else
		snprintf(buf, sizeof(buf), "not possible (%s)", why);
	return json_string(buf);
}

/*
 * The verdict of the headline metric, decided on the new runs alone
 * ('fresh': the same metric compared over the runs that landed after the
 * request): the runs that made the report were selected for looking
 * different, so counting them again would favour "stable".
 */
static json_t *verdict_ctx(const struct cmp_row *all,
			   const struct cmp_row *fresh, double reported,
			   const char **verdict)
{
	struct evidence ev;
	enum verdict v;

	stats_evidence(fresh->v[BASE], fresh->n[BASE], fresh->v[HEAD],
		       fresh->n[HEAD], &ev);
	v = stats_verdict(&ev, fresh->shown, reported, fresh->change);
	*verdict = stats_verdict_name(v);
	return json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o, "
			 "s:o, s:b, s:b, s:b, s:b, s:I, s:I}", "verdict",
			 *verdict, "change", pct(fresh->change), "change_all",
			 pct(all->change), "reported", pct(reported),
			 "ci", ci_text(&ev.ci),
			 "p_welch", p_text(ev.w.ok, ev.w.p, ev.w.why),
			 "p_mwu", p_text(ev.mw.ok, ev.mw.p, ev.mw.why),
			 "mwu_exact",
			 ev.mw.exact, "t", json_finite(ev.w.t), "df",
			 json_finite(ev.w.df), "shown", fresh->shown,
			 "stable", v == VERDICT_STABLE, "not_reproduced",
			 v == VERDICT_NOT_REPRODUCED, "inconclusive",
			 v == VERDICT_INCONCLUSIVE, "new_base_n",
			 (json_int_t)fresh->n[BASE], "new_head_n",
			 (json_int_t)fresh->n[HEAD]);
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
	report_table_text(in, m, &table);
	ctx = verdict_ctx(h, fresh, reported, verdict);
	json_object_update_missing_new(ctx, json_pack(
		"{s:i, s:s, s:o, s:s, s:o, s:o, s:I, s:I, s:s, s:o}",
		"runs", row->runs, "request_id", row->request_id,
		"commits", sides_ctx(m), "metric", h->name,
		"base_samples", sample_list(h->name, h->v[BASE], h->n[BASE]),
		"head_samples", sample_list(h->name, h->v[HEAD], h->n[HEAD]),
		"base_n", (json_int_t)h->n[BASE],
		"head_n", (json_int_t)h->n[HEAD], "table", sb_str(&table),
		"chart", chart_of(h)));
	sb_release(&table);
	runs_new_release(&rn);
	return ctx;
}

/* Queue the follow-up and close the retest in one transaction. */
static int close_retest(struct state *st, const struct config *cfg,
			const struct retest_row *row, const struct asker *a,
			const char *tmpl, json_t *ctx, const char *status,
			const char *detail, time_t now, struct pb_err *err)
{
	struct act_ctx ac = { st, cfg, now, &a->r, json_array() };
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
		ctx = json_pack("{s:s, s:i, s:I, s:I}", "request_id",
				row->request_id, "runs", row->runs, "base_n",
				(json_int_t)in.root[BASE].runs, "head_n",
				(json_int_t)in.root[HEAD].runs);
		rc = close_retest(st, cfg, row, &a, "retest-expired",
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
