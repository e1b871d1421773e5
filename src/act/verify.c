// SPDX-License-Identifier: GPL-2.0-only
/*
 * act: a landed fix verified by a run (verify.h): the farm asked for the
 * report's job on the fixing commit when the fix lands, and the answer
 * in the report's thread when the runs are in (the table and verdict of
 * fixrun.h), the record moved by the state machine of regression.c in
 * the transaction that queues it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/act/fixrun.h"
#include "perfbot/act/followup.h"
#include "perfbot/act/kind.h"
#include "perfbot/act/regression.h"
#include "perfbot/act/scheduler.h"
#include "perfbot/act/track.h"
#include "perfbot/act/verify.h"
#include "perfbot/util/id.h"
#include "perfbot/util/log.h"

/* ------------------------------------------------------------------ */
/* Asking                                                              */

/*
 * The report's job handed to the farm on the fix, into q (q->refused
 * with q->why when the report cannot be loaded).
 */
static void prepare_ask(struct state *st, const struct config *cfg,
			const struct record *r, const char *rid,
			const char *dir, struct manifest *m,
			struct report_inputs *in, struct kind_asking *q)
{
	struct pb_err e = { 0, "" };

	if (followup_manifest(st, cfg, r->report_id, m, &e) ||
	    report_inputs_load(in, m, cfg, &e)) {
		snprintf(q->why, sizeof(q->why), "%s", e.msg);
		q->refused = 1;
		return;
	}
	q->farm[0] = (struct sched_request){
		.request_id = rid,
		.job = in->root[HEAD].job.name,
		.commit = r->fix_commit,
		.result_root = dir,
		.runs = (int)cfg->limits.default_runs,
		.thread = r->message_id,
		.kind = "verify",
	};
	q->nfarm = 1;
}

int verify_ask(struct state *st, const struct config *cfg, struct record *r,
	       time_t now, int *asked, struct pb_err *err)
{
	struct pb_err e = { 0, "" };
	struct manifest m = { 0 };
	struct report_inputs in = { 0 };
	struct kind_asking q;
	char *rid, *dir = NULL;
	int rc;

	*asked = 0;
	if (!r->fix_commit)
		return pb_fail(err, EX_SOFTWARE, "verify: report '%s' has no "
			       "fix", r->report_id);
	rid = id_verify_request(r->report_id, r->fix_commit);
	if (!rid)
		return pb_fail(err, EX_OSERR, "out of memory");
	kind_asking_init(&q, &kind_verify);
	if (scheduler_results_dir(cfg, rid, &dir, &e)) {
		snprintf(q.why, sizeof(q.why), "%s", e.msg);
		q.refused = 1;
	} else {
		prepare_ask(st, cfg, r, rid, dir, &m, &in, &q);
	}
	q.rq = (struct request_new){
		.request_id = rid, .kind = "verify",
		.report_id = r->report_id, .runs = cfg->limits.default_runs,
		.deadline = now + cfg->scheduler.deadline,
		.result_root = dir ? dir : "", .commit = r->fix_commit,
	};
	rc = kind_ask(st, cfg, &kind_verify, &q, now, err);
	*asked = q.out == KIND_QUEUED || q.out == KIND_SAID;
	if (!rc) {
		free(r->verify_request);
		r->verify_request = rid;
		rid = NULL;
	}
	kind_asking_release(&q);
	report_inputs_release(&in);
	manifest_release(&m);
	free(rid);
	free(dir);
	return rc;
}

/* ------------------------------------------------------------------ */
/* The follow-up                                                       */

/* What a run's follow-up keeps of its own: the record, as it moves. */
struct verify_own {
	struct record r;
	char *from;		/* its status before the verdict moved it */
};

static struct verify_own *own_of(const struct kind_fu *f)
{
	return f->own;
}

static void verify_release(struct kind_fu *f)
{
	struct verify_own *o = own_of(f);

	if (!o)
		return;
	record_release(&o->r);
	free(o->from);
	free(o);
	f->own = NULL;
}

/* What every answer of a run says of the fix. */
static void fix_ctx(struct ctx *c, const struct request *row,
		    const struct record *r)
{
	const char *sha = r->fix_commit ? r->fix_commit : row->commit;

	ctx_str(c, "request_id", row->request_id);
	ctx_int(c, "runs", row->runs);
	ctx_str(c, "sha", sha);
	ctx_strn(c, "short", sha, strnlen(sha, 12));
	ctx_str(c, "summary", r->fix_summary ? r->fix_summary : "");
	ctx_str(c, "branch", r->fix_branch ? r->fix_branch : "");
}

/*
 * The end of a run, one transaction: the answer 'tmpl' with 'ctx'
 * (taken) in the report's thread, the record as the verdict left it
 * (on "done": the transition "verified" 'detail') and the row's end.
 */
static int verify_answer(struct state *st, const struct config *cfg,
			 struct kind_fu *f, const char *tmpl, struct ctx *c,
			 const char *status, const char *detail, time_t now,
			 struct pb_err *err)
{
	struct verify_own *o = own_of(f);
	const struct request *row = f->row;
	const char *from = strcmp(status, "done") ? NULL : o->from;
	struct record_event ev = { 0, (char *)"verified", (char *)from,
				   o->r.status, (char *)"verify",
				   (char *)detail, row->request_id };
	char tag[160];
	int rc;

	snprintf(tag, sizeof(tag), "verify:%s", row->request_id);
	if (state_begin(st, err)) {
		ctx_release(c);
		return -1;
	}
	rc = track_answer(st, cfg, &o->r, tmpl, c, tag, now, err) ||
	     (from && state_record_put(st, &o->r, &ev, now, err)) ||
	     followup_request_end(st, row->request_id, status, detail, now,
				  err);
	if (rc) {
		state_rollback(st);
		return -1;
	}
	rc = state_commit(st, err);
	if (!rc && from)
		log_info("verify '%s' of '%s': %s (%s)", row->request_id,
			 row->report_id, detail, o->r.status);
	return rc;
}

/* The headline the record keeps, else the report's as judged now. */
static void headline(const struct kind_fu *f, const char **metric,
		     double *reported)
{
	const struct cmp_row *h = f->in.verdict.headline;
	const struct verify_own *o = own_of(f);

	*metric = o->r.metric;
	*reported = o->r.change;
	if (!*metric && h) {
		*metric = h->name;
		*reported = h->change;
	}
}

/* A complete run: the table, the runs and the verdict (the record moved). */
static int verify_verdict(struct kind_fu *f, const struct config *cfg,
			  const char **verdict, struct ctx *c,
			  struct pb_err *err)
{
	struct verify_own *o = own_of(f);
	const struct request *row = f->row;
	struct fixrun fr = { &f->in, &f->m, &f->tested, NULL, 0, row->commit,
			     o->r.fix_summary, (int)row->runs,
			     cfg->limits.max_runs, 1 };
	struct reg_change ch = { REG_EV_VERIFIED, NULL, NULL, NULL, NULL,
				 0 };
	enum fix_verdict v = FIX_INCONCLUSIVE;

	headline(f, &fr.metric, &fr.reported);
	ctx_init(c, "answer");
	if (fixrun_ctx(c, &fr, &v, err)) {
		ctx_release(c);
		return -1;
	}
	/* the record moves (partly fixed is not fixed, regression.c) */
	*verdict = stats_fix_verdict_name(v);
	o->from = strdup(o->r.status);
	ch.arg = *verdict;
	if (!o->from || regression_next(&o->r, &ch, err->msg,
					sizeof(err->msg)) < 0) {
		ctx_release(c);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	fix_ctx(c, row, &o->r);
	ctx_str(c, "status", o->r.status);
	return 0;
}

/* The farm's reason, or the deadline passed: the record stays. */
static int verify_ended(const struct kind_fu *f, const struct config *cfg,
			struct ctx *c, struct pb_err *err)
{
	const struct verify_own *o = own_of(f);

	(void)cfg;
	(void)err;
	ctx_init(c, "answer");
	fix_ctx(c, f->row, &o->r);
	ctx_int(c, "tested_n", f->end == KIND_FAILED ? 0 : f->landed);
	fixrun_said_ctx(c, &f->said);
	ctx_str(c, "status", o->r.status);
	return 0;
}

/* The record this run is still for: 'fix landed', on this request. */
static int still_for(const struct record *r, const struct request *row)
{
	return regression_status_of(r->status) == REG_FIX_LANDED &&
	       r->verify_request && !strcmp(r->verify_request,
					    row->request_id);
}

/* In order: the record; a run whose record moved on is dropped (1). */
static int verify_start(struct state *st, struct kind_fu *f, time_t now,
			struct pb_err *err)
{
	struct verify_own *o = calloc(1, sizeof(*o));
	int found = 0;

	if (!o)
		return pb_fail(err, EX_OSERR, "out of memory");
	f->own = o;
	if (state_record_get(st, f->row->report_id, &o->r, &found, err))
		return -1;
	if (found && still_for(&o->r, f->row))
		return 0;
	return state_request_set(st, f->row->request_id, "dropped", NULL,
				 found ? o->r.status : "no report", now,
				 err) ? -1 : 1;
}

const struct kind kind_verify = {
	.name = "verify",
	.placeholders = kind_run_placeholders,
	.said_later = 1,
	.phase = KIND_AT_FOLLOWUP,
	.tmpl = { .failed = "verify-failed", .result = "verify-result",
		  .expired = "verify-expired" },
	.stats_name = "runs on fixes", .stats_fields = "dfxrw",
	.start = verify_start,
	.verdict = verify_verdict,
	.ended = verify_ended,
	.answer = verify_answer,
	.release = verify_release,
};
