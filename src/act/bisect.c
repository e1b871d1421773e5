// SPDX-License-Identifier: GPL-2.0-only
/*
 * act: the rounds driver of a bisection through the farm (act/bisect.h,
 * issue 33): a bisection started from a range report, each cycle its due
 * round's landed runs read into it and the next round asked in one farm
 * round trip, its state kept in the bisections table and its runs as
 * requests of kind "bisect".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/act/bisect.h"
#include "perfbot/act/fixrun.h"
#include "perfbot/act/kind.h"
#include "perfbot/act/scheduler.h"
#include "perfbot/ingest/bisect_range.h"
#include "perfbot/ingest/result.h"
#include "perfbot/state/bisections.h"
#include "perfbot/state/requests.h"
#include "perfbot/util/log.h"
#include "perfbot/util/strbuf.h"

#define BISECT_KIND "bisect"

char *bisect_id_of(const char *report_id)
{
	struct strbuf sb = STRBUF_INIT;

	if (sb_addf(&sb, "bisect-%s", report_id)) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb, NULL);
}

static void params_of(const struct config *cfg, int direction,
		      struct bisect_params *p)
{
	bisect_params_default(p);
	p->confidence = cfg->bisect.confidence;
	p->max_runs = cfg->bisect.max_runs;
	p->max_rounds = cfg->bisect.max_rounds;
	p->direction = direction;
}

/* ------------------------------------------------------------------ */
/* Landing: the due round's requests read                              */

/* A commit that gave no runs is skipped when it can be. */
static void skip(struct bisect *b, long at, struct bisect_round *out)
{
	struct pb_err e = { 0, "" };

	if (at > 0 && !bisect_skip(b, (size_t)at, &e))
		out->skipped++;
}

/* The farm's runs of request 'rq' into point 'at': 1 when they are in. */
static int take(struct bisect *b, long at, const struct request *rq,
		struct pb_err *err)
{
	struct result_root rr;
	const struct metric *m;
	long landed = 0;
	int ready = 0, rc;

	fixrun_root(rq->result_root, (int)rq->runs, rq->request_id, &rr,
		    &ready, &landed);
	if (!ready) {
		result_root_release(&rr);
		return 0;
	}
	m = result_root_find(&rr, b->metric);
	rc = m ? bisect_add_runs(b, (size_t)at, metric_values(&rr, m),
				 rr.runs, err) :
		pb_fail(err, EX_DATAERR, "%s: no metric '%s'",
			rq->result_root, b->metric);
	result_root_release(&rr);
	return rc ? -1 : 1;
}

static int land_one(struct state *st, struct bisect *b,
		    const struct request *rq, time_t now,
		    struct bisect_round *out, struct pb_err *err)
{
	struct strbuf said = STRBUF_INIT;
	struct pb_err e = { 0, "" };
	long at = rq->commit ? bisect_find(b, rq->commit) : -1;
	int found = 0, rc = 0, got;

	if (at < 0)
		return state_request_set(st, rq->request_id, "dropped", NULL,
					 "no commit of its bisection", now,
					 err);
	if (scheduler_farm_error(rq->result_root, &said, &found, &e))
		found = 1;	/* unreadable: no runs will come either */
	if (found) {
		skip(b, at, out);
		rc = state_request_set(st, rq->request_id, "failed", NULL,
				       said.len ? sb_str(&said) : e.msg, now,
				       err);
	} else if ((got = take(b, at, rq, &e)) != 0) {
		if (got < 0)
			skip(b, at, out);
		out->landed += got > 0;
		rc = state_request_set(st, rq->request_id, got > 0 ? "done" :
				       "failed", NULL, got > 0 ? NULL : e.msg,
				       now, err);
	} else if (now > rq->deadline) {
		skip(b, at, out);
		rc = state_request_set(st, rq->request_id, "expired", NULL,
				       NULL, now, err);
	} else {
		out->waiting++;
	}
	sb_release(&said);
	return rc;
}

static int land(struct state *st, struct bisect *b, const char *id,
		time_t now, struct bisect_round *out, struct pb_err *err)
{
	struct request *rows = NULL;
	size_t i, n = 0;
	int rc = 0;

	if (state_requests_of(st, id, BISECT_KIND, &rows, &n, err))
		return -1;
	for (i = 0; i < n && !rc; i++)
		if (!strcmp(rows[i].status, "asking") ||
		    !strcmp(rows[i].status, "queued"))
			rc = land_one(st, b, &rows[i], now, out, err);
	request_rows_free(rows, n);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Asking: the next round in one round trip                            */

/* The request of round 'round' for 'sha': idempotent across a crash. */
static char *request_id(const char *id, long round, const char *sha)
{
	struct strbuf sb = STRBUF_INIT;

	if (sb_addf(&sb, "%s-%ld-%.12s", id, round, sha)) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb, NULL);
}

/*
 * A farm that refuses a commit at once (exit 65) may have written why
 * into its result root (a build that fails): that is a skip, read when
 * the round lands, not a refusal of the bisection.
 */
static int farm_said(const char *dir)
{
	struct strbuf said = STRBUF_INIT;
	struct pb_err e = { 0, "" };
	int found = 0;

	if (scheduler_farm_error(dir, &said, &found, &e))
		found = 0;
	sb_release(&said);
	return found;
}

static int ask_one(struct state *st, const struct config *cfg,
		   const struct bisection_row *row, struct bisect *b,
		   const struct bisect_ask *a, time_t now,
		   struct bisect_round *out, struct pb_err *err)
{
	const char *sha = b->p[a->at].sha;
	char *rid = request_id(row->bisect_id, b->rounds, sha), *dir = NULL;
	struct pb_err e = { 0, "" };
	enum sched_outcome how = SCHED_REJECTED;
	struct sched_request sr;
	struct request_new rq;
	char why[256] = "";
	int rc;

	if (!rid)
		return pb_fail(err, EX_OSERR, "out of memory");
	if (scheduler_results_dir(cfg, rid, &dir, &e)) {
		snprintf(why, sizeof(why), "%s", e.msg);
	} else {
		/* {repo}: the tracked tree the commit is in */
		sr = (struct sched_request){
			.request_id = rid,
			.job = row->job,
			.commit = sha,
			.result_root = dir,
			.runs = (int)a->runs,
			.kind = BISECT_KIND,
			.repo = cfg->tracking.repo,
		};
		if (scheduler_submit(cfg, &sr, &how, why, sizeof(why), &e))
			snprintf(why, sizeof(why), "%s", e.msg);
		else if (how != SCHED_ACCEPTED && farm_said(dir))
			how = SCHED_ACCEPTED;	/* a skip, when it lands */
	}
	if (how != SCHED_ACCEPTED) {
		log_warn("bisect request '%s' rejected: %s", rid, why);
		skip(b, (long)a->at, out);
	}
	out->asked += how == SCHED_ACCEPTED;
	rq = (struct request_new){
		.request_id = rid, .kind = BISECT_KIND,
		.report_id = row->bisect_id, .runs = a->runs,
		.status = how == SCHED_ACCEPTED ? "queued" : "rejected",
		.detail = how == SCHED_ACCEPTED ? NULL : why,
		.deadline = now + cfg->scheduler.deadline,
		.result_root = dir ? dir : "", .commit = sha,
		.metric = b->metric,
	};
	rc = state_request_add(st, &rq, now, err);
	free(rid);
	free(dir);
	return rc;
}

/* bisect_next() and its asks; the end when it says so. */
static int next_round(struct state *st, const struct config *cfg,
		      const struct bisection_row *row, struct bisect *b,
		      time_t now, struct bisect_round *out, struct pb_err *err)
{
	struct seq_params sp;
	struct seq_design d;
	struct bisect_step step;
	size_t i;

	bisect_sandwich_params(&sp, b->par.direction);
	if (seq_design_init(&d, &sp, err) || bisect_next(b, &d, &step, err))
		return -1;
	for (i = 0; i < step.nask; i++)
		if (ask_one(st, cfg, row, b, &step.ask[i], now, out, err))
			return -1;
	return 0;
}

static int save(struct state *st, const char *id, const struct bisect *b,
		time_t now, struct pb_err *err)
{
	char *json = bisect_to_json(b);
	int rc;

	if (!json)
		return pb_fail(err, EX_OSERR, "out of memory");
	rc = state_bisection_set(st, id, bisect_phase_name(b->phase), json,
				 now, err);
	free(json);
	return rc;
}

static int done(const struct bisect *b)
{
	return b->phase == BISECT_CULPRIT || b->phase == BISECT_INCONCLUSIVE;
}

/* The cycle of one loaded bisection, in the caller's transaction. */
static int round_of(struct state *st, const struct config *cfg,
		    const struct bisection_row *row, struct bisect *b,
		    time_t now, struct bisect_round *out, struct pb_err *err)
{
	if (!done(b) && land(st, b, row->bisect_id, now, out, err))
		return -1;
	if (!done(b) && !out->waiting && now > row->deadline)
		bisect_stop(b, BISECT_WHY_DEADLINE);
	if (!done(b) && !out->waiting &&
	    next_round(st, cfg, row, b, now, out, err))
		return -1;
	/* every ask refused: nothing will land to go on with */
	if (!done(b) && !out->waiting && !out->asked)
		bisect_stop(b, BISECT_WHY_FARM);
	out->phase = b->phase;
	out->round = b->rounds;
	return save(st, row->bisect_id, b, now, err);
}

int bisect_act_round(struct state *st, const struct config *cfg,
		     const char *bisect_id, time_t now,
		     struct bisect_round *out, struct pb_err *err)
{
	struct bisection_row *row = NULL;
	struct bisect b = { 0 };
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (state_bisection_get(st, bisect_id, &row, err))
		return -1;
	if (!row)
		return pb_fail(err, EX_DATAERR, "bisect: no bisection '%s'",
			       bisect_id);
	if (bisect_from_json(&b, row->state, err)) {
		pb_wrap(err, "bisection '%s'", bisect_id);
		goto out;
	}
	if (state_begin(st, err))
		goto out;
	rc = round_of(st, cfg, row, &b, now, out, err);
	if (rc || state_commit(st, err)) {
		state_rollback(st);
		rc = -1;
	}
out:
	bisect_release(&b);
	bisection_rows_free(row, 1);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Starting and following                                              */

static int record(struct state *st, const struct config *cfg,
		  const struct bisect_start *s, const char *id,
		  const struct bisect *b, time_t now, struct pb_err *err)
{
	char *json = bisect_to_json(b);
	int rc;

	if (!json)
		return pb_fail(err, EX_OSERR, "out of memory");
	rc = state_bisection_add(st, id, s->report_id,
				 bisect_phase_name(b->phase), json, s->job,
				 s->manifest, now + cfg->bisect.max_rounds *
				 cfg->scheduler.deadline, now, err);
	free(json);
	return rc;
}

int bisect_act_start(struct state *st, const struct config *cfg,
		     struct gittree *t, const struct bisect_start *s,
		     time_t now, struct pb_err *err)
{
	struct bisection_row *row = NULL;
	struct bisect_range r = { NULL, 0 };
	struct bisect_params par;
	struct bisect b = { 0 };
	char *id = bisect_id_of(s->report_id);
	int rc = -1;

	if (!id)
		return pb_fail(err, EX_OSERR, "out of memory");
	if (state_bisection_get(st, id, &row, err))
		goto out;
	if (row) {
		rc = 0;		/* started already: it goes on */
		goto out;
	}
	params_of(cfg, s->direction, &par);
	if (bisect_range_list(t, s->base, s->head, &r, err) ||
	    bisect_init(&b, &par, s->metric, s->base, s->base_runs, s->nbase,
			&r, s->head_runs, s->nhead, err) ||
	    record(st, cfg, s, id, &b, now, err))
		goto out;
	rc = 0;
out:
	bisection_rows_free(row, row ? 1 : 0);
	bisect_range_release(&r);
	bisect_release(&b);
	free(id);
	return rc;
}

int bisect_followups(struct state *st, const struct config *cfg,
		     time_t now, struct bisect_stats *bs,
		     struct pb_err *err)
{
	struct bisection_row *rows = NULL;
	struct bisect_round out;
	size_t i, n = 0;
	int rc = 0, mine;

	memset(bs, 0, sizeof(*bs));
	if (state_bisections(st, NULL, 1, &rows, &n, err))
		return -1;
	bs->open = n;
	for (i = 0; i < n && !rc; i++) {
		/* one instance's round at a time */
		if (state_bisection_claim(st, rows[i].bisect_id, now,
					  KIND_LEASE, &mine, err)) {
			rc = -1;
			break;
		}
		if (!mine) {
			log_debug("bisection '%s' is another instance's; "
				  "skipped", rows[i].bisect_id);
			continue;
		}
		rc = bisect_act_round(st, cfg, rows[i].bisect_id, now, &out,
				      err);
		if (state_bisection_release(st, rows[i].bisect_id,
					    rc ? NULL : err))
			rc = -1;
		bs->asked += out.asked;
		bs->landed += out.landed;
		bs->done += out.phase == BISECT_CULPRIT ||
			out.phase == BISECT_INCONCLUSIVE;
	}
	bisection_rows_free(rows, n);
	if (!rc && bisect_answers(st, cfg, now, &bs->answered, err))
		rc = -1;
	return rc;
}

/* ------------------------------------------------------------------ */
/* The kind: one row of the cycle's table                             */

/* The kind's own follow-up: every open bisection, then the answers. */
static int bisect_follow(const struct kind_env *e, struct kind_stats *ks,
			 struct pb_err *err)
{
	struct bisect_stats bs;

	if (bisect_followups(e->st, e->cfg, e->now, &bs, err))
		return -1;
	ks->done = (long)bs.answered;
	ks->waiting = (long)(bs.open - bs.done);
	if (bs.open || bs.answered)
		log_info("bisections: %zu open, %zu requests landed, %zu "
			 "asked, %zu done, %zu answered", bs.open, bs.landed,
			 bs.asked, bs.done, bs.answered);
	return 0;
}

/* {repo}: the tracked tree the commit is in; no ref, no patch. */
static const char *const bisect_placeholders[] = {
	"kind", "result_root", "commit", "runs", "job", "request_id", "repo",
	NULL,
};

const struct kind kind_bisect = {
	.name = BISECT_KIND,
	.placeholders = bisect_placeholders,
	.phase = KIND_AT_FOLLOWUP,
	.tmpl = { .ack = "bisect-ack", .result = "bisect-result" },
	.stats_name = "bisections", .stats_fields = "dw",
	.follow = bisect_follow,
};
