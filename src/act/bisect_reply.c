// SPDX-License-Identifier: GPL-2.0-only
/*
 * act: the 'bisect' mail command (act/bisect.h, issue 33) and its
 * answer: in a report's thread it starts the bisection of the report's
 * range (base..head of its kept manifest, the headline metric followed)
 * and says so; once the bisection is done (the cycle's follow-up step
 * moves it on), the thread is answered with the culprit or the range it
 * is in. The request that asked is a row of kind "bisect" whose id is
 * the bisection's and whose report is the thread's, holding the thread.
 */
#include <stdlib.h>
#include <string.h>

#include "perfbot/act/answers.h"
#include "perfbot/act/bisect.h"
#include "perfbot/act/followup.h"
#include "perfbot/ingest/gittree.h"
#include "perfbot/render/report.h"
#include "perfbot/state/bisections.h"
#include "perfbot/state/requests.h"
#include "perfbot/util/fileio.h"
#include "perfbot/util/log.h"

#define BISECT_DAY (24 * 3600)

int bisect_cmd_parse(const char *args, struct mail_command *c)
{
	return c->colon || *args ? -1 : 0;
}

int bisect_cmd_check(const struct mail_command *c,
		     const struct command_limits *l, char *why, size_t whylen)
{
	(void)c;
	(void)l;
	(void)why;
	(void)whylen;
	return 0;
}

/* A bisection not started: why, as templates/bisect-refused.txt says. */
static int refuse(struct act_ctx *a, const struct mail_command *c,
		  const char *why, const char *detail, struct pb_err *err)
{
	struct ctx x;

	ctx_init(&x, "answer");
	ctx_str(&x, "line", c->line);
	ctx_bool(&x, why, 1);
	ctx_opt(&x, "detail", detail);
	ctx_int(&x, "bisects_per_sender_per_day",
		a->cfg->limits.bisects_per_sender_per_day);
	return answers_piece_of(a, "bisect-refused", &x, err) ? -1 : 1;
}

/*
 * The bisections the sender asked for in the last day, of any report
 * (the asker's request of each: the rounds' are nobody's); as many as
 * limits.bisects_per_sender_per_day refuse another, as a test's do.
 */
static int over_limit(struct act_ctx *a, int *over, struct pb_err *err)
{
	struct request_tally t;

	if (state_request_tally(a->st, "bisect", a->t->report->report_id,
				a->t->from_addr, a->now - BISECT_DAY, &t, err))
		return -1;
	*over = t.of_sender >= a->cfg->limits.bisects_per_sender_per_day;
	request_tally_release(&t);
	return 0;
}

/* The report's range and headline as a bisection starts from them. */
static int start(struct act_ctx *a, const struct manifest *m,
		 const struct cmp_row *h, char base[GIT_SHA_HEX],
		 char head[GIT_SHA_HEX], struct pb_err *err)
{
	struct gittree *t = NULL;
	struct bisect_start s;
	char *job = path_join(m->base.result_root, "job.yaml");
	int found = 0, rc = -1;

	if (!job)
		return pb_fail(err, EX_OSERR, "out of memory");
	if (gittree_open(&t, a->cfg->tracking.repo, err) ||
	    gittree_resolve(t, m->base.commit, base, &found, err))
		goto out;
	if (found && gittree_resolve(t, m->head.commit, head, &found, err))
		goto out;
	if (!found) {
		pb_fail(err, EX_DATAERR, "the report's commits are not both "
			"in the tracked tree");
		goto out;
	}
	s = (struct bisect_start){
		.report_id = a->t->report->report_id,
		.manifest = m->doc.name,
		.job = job,
		.metric = h->name,
		.direction = bisect_direction(h->v[BASE], h->n[BASE],
					      h->v[HEAD], h->n[HEAD]),
		.base = base, .head = head,
		.base_runs = h->v[BASE], .head_runs = h->v[HEAD],
		.nbase = h->n[BASE], .nhead = h->n[HEAD],
	};
	rc = bisect_act_start(a->st, a->cfg, t, &s, a->now, err);
out:
	gittree_close(t);
	free(job);
	return rc;
}

/* The request that asked, holding the thread to answer in. */
static int record(struct act_ctx *a, const char *id, const char *head,
		  const char *metric, const char *thread, struct pb_err *err)
{
	struct request_new rq = {
		.request_id = id, .kind = "bisect",
		.report_id = a->t->report->report_id,
		.runs = a->cfg->bisect.max_runs, .status = "queued",
		.deadline = a->now + a->cfg->bisect.max_rounds *
			a->cfg->scheduler.deadline,
		.requested_by = a->t->from_addr,
		.reply_message_id = a->t->message_id, .thread = thread,
		.commit = head, .metric = metric,
	};

	return state_request_add(a->st, &rq, a->now, err);
}

static int ack(struct act_ctx *a, const struct manifest *m, const char *id,
	       const char *metric, struct pb_err *err)
{
	struct ctx x;

	ctx_init(&x, "answer");
	ctx_str(&x, "request_id", id);
	ctx_str(&x, "metric", metric);
	followup_commits_ctx(&x, m);
	return answers_piece_of(a, "bisect-ack", &x, err);
}

/* Start it, record who asked, say so: 0, 1 refused, -1 trouble. */
static int ask(struct act_ctx *a, const struct mail_command *c,
	       const char *id, struct pb_err *err)
{
	struct manifest m = { 0 };
	struct report_inputs in = { 0 };
	struct pb_err e = { 0, "" };
	char base[GIT_SHA_HEX], head[GIT_SHA_HEX], *thread = NULL;
	const struct cmp_row *h;
	int rc = -1;

	if (followup_manifest(a->st, a->cfg, a->t->report->report_id, &m, &e) ||
	    report_inputs_load(&in, &m, a->cfg, &e) ||
	    !(h = in.verdict.headline)) {
		rc = refuse(a, c, "no_range", e.msg[0] ? e.msg : NULL, err);
		goto out;
	}
	if (start(a, &m, h, base, head, &e)) {
		log_warn("bisect of '%s' not started: %s",
			 a->t->report->report_id, e.msg);
		rc = refuse(a, c, "no_range", e.msg, err);
		goto out;
	}
	thread = followup_thread_json(a->t, &in);
	if (!thread) {
		pb_fail(err, EX_OSERR, "out of memory");
		goto out;
	}
	if (!record(a, id, head, h->name, thread, err) &&
	    !ack(a, &m, id, h->name, err))
		rc = 0;
out:
	free(thread);
	report_inputs_release(&in);
	manifest_release(&m);
	return rc;
}

int bisect_cmd_act(struct act_ctx *a, const struct mail_command *c,
		   size_t index, struct pb_err *err)
{
	const struct thread_report *tr = a->t->report;
	struct bisection_row *row = NULL;
	char *id;
	int rc, over = 0;

	(void)index;
	if (!tr)	/* a reminder's thread: several reports */
		return answers_not_here(a, c, "bisect", err);
	if (!a->cfg->tracking.repo || !a->cfg->scheduler.results_dir ||
	    !a->cfg->scheduler.backend) {
		log_warn("bisect: tracking.repo, scheduler.backend and "
			 "scheduler.results_dir are needed to bisect");
		return refuse(a, c, "not_set_up", NULL, err);
	}
	if (!(id = bisect_id_of(tr->report_id)))
		return pb_fail(err, EX_OSERR, "out of memory");
	rc = state_bisection_get(a->st, id, &row, err);
	if (!rc && row)
		rc = refuse(a, c, "already", row->phase, err);
	else if (!rc && !(rc = over_limit(a, &over, err)) && over)
		rc = refuse(a, c, "limit_sender", NULL, err);
	else if (!rc)
		rc = ask(a, c, id, err);
	bisection_rows_free(row, row ? 1 : 0);
	free(id);
	return rc;
}

/* ------------------------------------------------------------------ */
/* The answer, once the bisection is done                              */

static int answer_one(struct state *st, const struct config *cfg,
		      const struct request *rq, const struct bisection_row *row,
		      time_t now, struct pb_err *err)
{
	struct followup_asker asker;
	struct bisect b = { 0 };
	struct bisect_verdict v;
	struct manifest m = { 0 };
	struct ctx x;
	int rc = -1;

	memset(&asker, 0, sizeof(asker));
	if (bisect_from_json(&b, row->state, err) ||
	    bisect_verdict_of(&b, &v, err) ||
	    followup_manifest(st, cfg, rq->report_id, &m, err))
		goto out;
	if (followup_asker_load(&asker, st, rq->thread)) {
		pb_fail(err, EX_DATAERR, "bisect '%s': its thread is "
			"unreadable", rq->request_id);
		goto out;
	}
	ctx_init(&x, "answer");
	ctx_str(&x, "request_id", rq->request_id);
	ctx_str(&x, "metric", b.metric);
	followup_commits_ctx(&x, &m);
	if (b.phase == BISECT_CULPRIT)
		ctx_str(&x, "culprit_sha", b.p[v.culprit].sha);
	else
		ctx_opt(&x, "culprit_sha", NULL);
	report_bisect_ctx(&x, &b, &v);
	rc = followup_answer(st, cfg, &asker, rq->request_id, "bisect-result",
			     &x, followup_request_end, "done",
			     bisect_phase_name(b.phase), now, err);
out:
	followup_asker_release(&asker);
	manifest_release(&m);
	bisect_release(&b);
	return rc;
}

int bisect_answers(struct state *st, const struct config *cfg, time_t now,
		   size_t *answered, struct pb_err *err)
{
	struct request *rows = NULL;
	struct bisection_row *row;
	size_t i, n = 0;
	int rc = 0;

	*answered = 0;
	if (state_requests_open(st, "bisect", &rows, &n, err))
		return -1;
	for (i = 0; i < n && !rc; i++) {
		/* the request that asked: its id is its bisection's */
		row = NULL;
		if (!rows[i].thread ||
		    state_bisection_get(st, rows[i].request_id, &row, err))
			rc = rows[i].thread ? -1 : 0;
		else if (row && (!strcmp(row->phase, "culprit") ||
				 !strcmp(row->phase, "inconclusive"))) {
			rc = answer_one(st, cfg, &rows[i], row, now, err);
			*answered += !rc;
		}
		bisection_rows_free(row, row ? 1 : 0);
	}
	request_rows_free(rows, n);
	return rc;
}
