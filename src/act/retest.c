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
#include "perfbot/util/log.h"
#include "perfbot/render/report.h"
#include "perfbot/act/retest.h"
#include "perfbot/judge/runs.h"
#include "perfbot/act/scheduler.h"
#include "perfbot/render/context.h"
#include "perfbot/render/evidence_view.h"
#include "perfbot/compare/stats.h"
#include "perfbot/compare/table.h"
#include "perfbot/util/workers.h"

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
			rid, in->root[s].job.name, manifest_side_sha(sides[s]),
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
		    struct report_inputs *in, struct request_new *rq,
		    char *why, size_t wl)
{
	struct pb_err e = { 0, "" };
	int rc;

	if (followup_manifest(st, cfg, report_id, m, &e) ||
	    report_inputs_load(in, m, cfg, &e)) {
		snprintf(why, wl, "%s", e.msg);
		return 1;
	}
	/* a confirmed report whose key metric the filter hides */
	if (!in->verdict.headline && in->key_metric)
		judge_force(&in->cmp, in->rules, in->key_metric, &in->verdict);
	rq->thread = followup_thread_json(r, in);
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
	struct request_new rq = {
		.request_id = request_id, .kind = "retest",
		.report_id = report_id, .runs = runs,
		.requested_by = r->from_addr,
		.reply_message_id = r->message_id,
	};
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
	if (state_request_add(st, &rq, now, err))
		goto out;
	/* the farm's words and paths are for the log and the state only */
	ctx_init(&c, "retest");
	if (!refused) {
		ctx_int(&c, "runs", runs);
		ctx_str(&c, "request_id", request_id);
		followup_commits_ctx(&c, &m);
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

/* 1 when both roots hold the runs asked for. */
static int landed(const struct request *row,
		  const struct report_inputs *in)
{
	return (long)in->root[BASE].runs >= row->base_runs + row->runs &&
	       (long)in->root[HEAD].runs >= row->head_runs + row->runs;
}

/*
 * One retest on its way through the workers (util/workers.h): the
 * report's manifest and the thread of the mail that asked read from the
 * state in order (start), the inputs over all runs and the answer's
 * context made by a worker, which touches no state (work), the answer
 * queued in order (finish).
 */
struct followup {
	const struct request *row;
	struct manifest m;
	struct report_inputs in;
	struct followup_asker a;
	int loaded;		/* thread, manifest and inputs: 0 or -1 */
	struct pb_err why;	/* why they did not load */
	int ready;		/* the runs landed */
	json_t *ctx;		/* the answer's context, or NULL */
	const char *verdict;
	struct pb_err cerr;	/* why there is no context */
};

static void followup_release(struct followup *f)
{
	json_decref(f->ctx);
	followup_asker_release(&f->a);
	report_inputs_release(&f->in);
	manifest_release(&f->m);
	memset(f, 0, sizeof(*f));
}

/* A worker: everything of the answer that the state has no part in. */
static void prepare(const struct config *cfg, const struct inputs_opts *io,
		    time_t now, struct followup *f)
{
	const struct request *row = f->row;

	if (f->loaded || report_inputs_load_opts(&f->in, &f->m, cfg, io,
						 &f->why)) {
		f->loaded = -1;
		return;
	}
	f->ready = landed(row, &f->in);
	if (f->ready)
		f->ctx = result_ctx(row, &f->in, &f->m, &f->a, &f->verdict,
				    &f->cerr);
	else if (now > row->deadline)
		f->ctx = expired_ctx(row, &f->in, &f->cerr);
}

static int one_retest(struct state *st, const struct config *cfg,
		      struct followup *f, time_t now,
		      struct retest_stats *rs, struct pb_err *err)
{
	const struct request *row = f->row;
	int rc = 0;

	pb_err_clear(err);
	if (f->loaded < 0) {
		*err = f->why;
		log_warn("retest '%s': %s", row->request_id,
			 err->msg[0] ? err->msg : "its thread is unreadable");
		/* gone for good: give up at the deadline, quietly */
		if (now > row->deadline)
			rc = state_request_set(st, row->request_id,
					       "expired", NULL, err->msg[0] ?
					       err->msg : "unreadable", now,
					       err);
		rs->expired += now > row->deadline && !rc;
		return rc;	/* else try again next run */
	}
	if (f->ready && !f->ctx) {
		rc = pb_fail(err, EX_SOFTWARE, "retest '%s': cannot build its "
			     "answer%s%s", row->request_id, f->cerr.msg[0] ?
			     ": " : "", f->cerr.msg);
	} else if (f->ready) {
		rc = followup_answer(st, cfg, &f->a, row->request_id,
				     "retest-result", f->ctx, followup_request_end,
				     "done", f->verdict, now, err);
		rs->done += !rc;
		log_info("retest '%s' of '%s': %s", row->request_id,
			 row->report_id, f->verdict);
	} else if (now > row->deadline) {
		rc = !f->ctx ? (*err = f->cerr, -1) :
			followup_answer(st, cfg, &f->a, row->request_id,
					"retest-expired", f->ctx,
					followup_request_end, "expired",
					"deadline passed", now, err);
		rs->expired += !rc;
	} else {
		rs->waiting++;
	}
	return rc;
}

struct followups {
	struct state *st;
	const struct config *cfg;
	time_t now;
	struct request *rows;
	struct followup *slot;
	struct inputs_opts *io;		/* one per worker */
	struct retest_stats *rs;
};

/* In order: the thread that asked and the report's manifest as queued. */
static int followup_start(void *arg, size_t i, size_t slot,
			  struct pb_err *err)
{
	struct followups *fs = arg;
	struct followup *f = &fs->slot[slot];

	(void)err;
	memset(f, 0, sizeof(*f));
	f->row = &fs->rows[i];
	f->loaded = followup_asker_load(&f->a, fs->st, f->row->thread) ||
		followup_manifest(fs->st, fs->cfg,
				  f->row->report_id, &f->m, &f->why) ?
		-1 : 0;
	return 0;
}

static void followup_work(void *arg, size_t worker, size_t slot)
{
	struct followups *fs = arg;

	prepare(fs->cfg, &fs->io[worker], fs->now, &fs->slot[slot]);
}

static int followup_finish(void *arg, size_t i, size_t slot,
			   struct pb_err *err)
{
	struct followups *fs = arg;
	struct followup *f = &fs->slot[slot];
	int rc;

	(void)i;
	rc = one_retest(fs->st, fs->cfg, f, fs->now, fs->rs, err);
	followup_release(f);
	return rc;
}

static void followup_drop(void *arg, size_t slot)
{
	struct followups *fs = arg;

	followup_release(&fs->slot[slot]);
}

static const struct workers_ops followup_ops = {
	followup_start, followup_work, followup_finish, followup_drop,
};

int retest_followups(struct state *st, const struct config *cfg,
		     time_t now, size_t jobs, struct root_cache *roots,
		     struct retest_stats *rs, struct pb_err *err)
{
	struct followups fs = { st, cfg, now, NULL, NULL, NULL, rs };
	size_t n = 0;
	int rc = -1;

	memset(rs, 0, sizeof(*rs));
	if (state_requests_open(st, "retest", &fs.rows, &n, err))
		return -1;
	fs.slot = calloc(workers_slots(jobs), sizeof(*fs.slot));
	fs.io = inputs_opts_new(jobs, roots);
	if (!fs.slot || !fs.io)
		pb_fail(err, EX_OSERR, "out of memory");
	else
		rc = workers_run(&followup_ops, &fs, n, jobs, err);
	inputs_opts_free(fs.io, jobs);
	free(fs.slot);
	request_rows_free(fs.rows, n);
	return rc;
}
