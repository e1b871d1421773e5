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
#include "perfbot/act/regression.h"
#include "perfbot/act/scheduler.h"
#include "perfbot/act/track.h"
#include "perfbot/act/verify.h"
#include "perfbot/util/id.h"
#include "perfbot/util/log.h"

/* ------------------------------------------------------------------ */
/* Asking                                                              */

/*
 * The report's job handed to the farm on the fix: 'out' SCHED_REJECTED
 * with 'why' when anything on the way fails; '*said' 1 when the farm
 * wrote why it cannot (result_root/error: the follow-up quotes it).
 */
static void submit(struct state *st, const struct config *cfg,
		   const struct record *r, const char *rid, const char *dir,
		   enum sched_outcome *out, int *said, char *why, size_t wl)
{
	struct pb_err e = { 0, "" };
	struct manifest m = { 0 };
	struct report_inputs in = { 0 };
	struct strbuf text = STRBUF_INIT;
	struct sched_request rq;

	*out = SCHED_REJECTED;
	*said = 0;
	if (followup_manifest(st, cfg, r->report_id, &m, &e) ||
	    report_inputs_load(&in, &m, cfg, &e))
		goto fail;
	rq = (struct sched_request){ rid, in.root[HEAD].job.name,
				     r->fix_commit, dir,
				     (int)cfg->limits.default_runs,
				     r->message_id, "verify", NULL, NULL,
				     NULL };
	if (scheduler_submit(cfg, &rq, out, why, wl, &e))
		goto fail;
	if (*out != SCHED_ACCEPTED &&
	    !scheduler_farm_error(dir, &text, said, &e) && *said)
		*out = SCHED_ACCEPTED;	/* its words come in the follow-up */
	goto out;
fail:
	*out = SCHED_REJECTED;
	snprintf(why, wl, "%s", e.msg);
out:
	sb_release(&text);
	report_inputs_release(&in);
	manifest_release(&m);
}

int verify_ask(struct state *st, const struct config *cfg, struct record *r,
	       time_t now, int *asked, struct pb_err *err)
{
	struct pb_err e = { 0, "" };
	struct request_new rq;
	enum sched_outcome out = SCHED_REJECTED;
	char why[256] = "", *rid, *dir = NULL;
	int said = 0, rc;

	*asked = 0;
	if (!r->fix_commit)
		return pb_fail(err, EX_SOFTWARE, "verify: report '%s' has no "
			       "fix", r->report_id);
	rid = id_verify_request(r->report_id, r->fix_commit);
	if (!rid)
		return pb_fail(err, EX_OSERR, "out of memory");
	if (scheduler_results_dir(cfg, rid, &dir, &e))
		snprintf(why, sizeof(why), "%s", e.msg);
	else
		submit(st, cfg, r, rid, dir, &out, &said, why, sizeof(why));
	*asked = out == SCHED_ACCEPTED;
	if (!*asked)
		log_warn("verify '%s' of '%s' rejected: %s", rid, r->report_id,
			 why);
	rq = (struct request_new){
		.request_id = rid, .kind = "verify",
		.report_id = r->report_id, .runs = cfg->limits.default_runs,
		.status = *asked ? "queued" : "rejected",
		.detail = *asked ? NULL : why,
		.deadline = now + cfg->scheduler.deadline,
		.result_root = dir ? dir : "", .commit = r->fix_commit,
	};
	rc = state_request_add(st, &rq, now, err);
	if (!rc) {
		free(r->verify_request);
		r->verify_request = rid;
		rid = NULL;
	}
	free(rid);
	free(dir);
	return rc;
}

/* ------------------------------------------------------------------ */
/* The follow-up                                                       */

/* A run's report, loaded again. */
struct verify_fu {
	struct record r;
	struct manifest m;
	struct report_inputs in;
	struct result_root fix;
	struct strbuf said;
};

static void verify_fu_release(struct verify_fu *f)
{
	record_release(&f->r);
	report_inputs_release(&f->in);
	manifest_release(&f->m);
	result_root_release(&f->fix);
	sb_release(&f->said);
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
 * (when 'from', its status before, is not NULL: the transition
 * "verified" 'detail') and the row's end.
 */
static int finish(struct state *st, const struct config *cfg,
		  struct verify_fu *f, const struct request *row,
		  const char *tmpl, json_t *ctx, const char *from,
		  const char *status, const char *detail, time_t now,
		  struct pb_err *err)
{
	struct record_event ev = { 0, (char *)"verified", (char *)from,
				   f->r.status, (char *)"verify",
				   (char *)detail, row->request_id };
	char tag[160];
	int rc;

	snprintf(tag, sizeof(tag), "verify:%s", row->request_id);
	if (state_begin(st, err)) {
		json_decref(ctx);
		return -1;
	}
	rc = track_answer(st, cfg, &f->r, tmpl, ctx, tag, now, err) ||
	     (from && state_record_put(st, &f->r, &ev, now, err)) ||
	     followup_request_end(st, row->request_id, status, detail, now,
				  err);
	if (rc) {
		state_rollback(st);
		return -1;
	}
	return state_commit(st, err);
}

/* The headline the record keeps, else the report's as judged now. */
static void headline(const struct verify_fu *f, const char **metric,
		     double *reported)
{
	const struct cmp_row *h = f->in.verdict.headline;

	*metric = f->r.metric;
	*reported = f->r.change;
	if (!*metric && h) {
		*metric = h->name;
		*reported = h->change;
	}
}

/* A complete run: the table, the runs and the verdict. */
static int answer_done(struct state *st, const struct config *cfg,
		       const struct request *row, struct verify_fu *f,
		       time_t now, struct pb_err *err)
{
	struct fixrun fr = { &f->in, &f->m, &f->fix, NULL, 0, row->commit,
			     f->r.fix_summary, row->runs,
			     cfg->limits.max_runs, 1 };
	struct reg_change ch = { REG_EV_VERIFIED, NULL, NULL, NULL, NULL,
				 0 };
	struct pb_err why = { 0, "" };
	const char *word;
	char *from;
	enum fix_verdict v = FIX_INCONCLUSIVE;
	json_t *ctx = NULL;
	struct ctx c;
	int rc;

	headline(f, &fr.metric, &fr.reported);
	ctx_init(&c, "answer");
	if (fixrun_ctx(&c, &fr, &v, &why)) {
		ctx_release(&c);
		return pb_fail(err, EX_SOFTWARE, "verify '%s': cannot build "
			       "its answer: %s", row->request_id, why.msg);
	}
	/* the record moves (partly fixed is not fixed, regression.c) */
	word = stats_fix_verdict_name(v);
	from = strdup(f->r.status);
	ch.arg = word;
	if (!from || regression_next(&f->r, &ch, why.msg,
				     sizeof(why.msg)) < 0) {
		ctx_release(&c);
		free(from);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	fix_ctx(&c, row, &f->r);
	ctx_str(&c, "status", f->r.status);
	rc = ctx_finish(&c, &ctx, err) ? -1 :
		finish(st, cfg, f, row, "verify-result", ctx, from, "done",
		       word, now, err);
	free(from);
	if (!rc)
		log_info("verify '%s' of '%s': %s (%s)", row->request_id,
			 row->report_id, word, f->r.status);
	return rc;
}

/* The farm's reason, or the deadline passed: the record stays. */
static int answer_end(struct state *st, const struct config *cfg,
		      const struct request *row, struct verify_fu *f,
		      const char *tmpl, const char *status, long landed,
		      time_t now, struct pb_err *err)
{
	json_t *ctx = NULL;
	struct ctx c;

	ctx_init(&c, "answer");
	fix_ctx(&c, row, &f->r);
	ctx_int(&c, "tested_n", landed);
	fixrun_said_ctx(&c, &f->said);
	ctx_str(&c, "status", f->r.status);
	if (ctx_finish(&c, &ctx, err))
		return -1;
	return finish(st, cfg, f, row, tmpl, ctx, NULL, status,
		      !strcmp(status, "failed") ? sb_str(&f->said) :
		      "deadline passed", now, err);
}

/* The record this run is still for: 'fix landed', on this request. */
static int still_for(const struct record *r, const struct request *row)
{
	return regression_status_of(r->status) == REG_FIX_LANDED &&
	       r->verify_request && !strcmp(r->verify_request,
					    row->request_id);
}

/* Load what the answer needs; 1 when it cannot be had (yet). */
static int load(struct state *st, const struct config *cfg,
		const struct request *row, struct verify_fu *f, time_t now,
		struct verify_stats *vs, struct pb_err *err)
{
	struct pb_err e = { 0, "" };

	if (!followup_manifest(st, cfg, row->report_id, &f->m, &e) &&
	    !report_inputs_load(&f->in, &f->m, cfg, &e))
		return 0;
	log_warn("verify '%s': %s", row->request_id, e.msg);
	/* gone for good: give up at the deadline, quietly */
	if (now <= row->deadline)
		return 1;
	vs->expired++;
	return state_request_set(st, row->request_id, "expired", NULL, e.msg,
				 now, err) ? -1 : 1;
}

static int one_run(struct state *st, const struct config *cfg,
		   const struct request *row, time_t now,
		   struct verify_stats *vs, struct pb_err *err)
{
	struct verify_fu f;
	long landed = 0;
	int rc, found = 0, ready = 0;

	memset(&f, 0, sizeof(f));
	sb_init(&f.said, SCHED_ERROR_BYTES + 64);
	rc = state_record_get(st, row->report_id, &f.r, &found, err);
	if (!rc && (!found || !still_for(&f.r, row))) {
		vs->dropped++;
		rc = state_request_set(st, row->request_id, "dropped", NULL,
				       found ? f.r.status : "no report", now,
				       err);
		goto out;
	}
	if (!rc)
		rc = load(st, cfg, row, &f, now, vs, err);
	if (!rc && scheduler_farm_error(row->result_root, &f.said, &found,
					err))
		rc = -1;
	if (rc) {
		rc = rc < 0 ? -1 : 0;
		goto out;
	}
	if (!found)
		fixrun_root(row->result_root, row->runs, row->request_id,
			    &f.fix, &ready, &landed);
	if (found) {
		rc = answer_end(st, cfg, row, &f, "verify-failed", "failed", 0,
				now, err);
		vs->failed += !rc;
	} else if (ready) {
		rc = answer_done(st, cfg, row, &f, now, err);
		vs->done += !rc;
	} else if (now > row->deadline) {
		rc = answer_end(st, cfg, row, &f, "verify-expired", "expired",
				landed, now, err);
		vs->expired += !rc;
	} else {
		vs->waiting++;
	}
out:
	verify_fu_release(&f);
	return rc;
}

int verify_followups(struct state *st, const struct config *cfg, time_t now,
		     struct verify_stats *vs, struct pb_err *err)
{
	struct request *rows = NULL;
	size_t i, n = 0;
	int rc = 0;

	memset(vs, 0, sizeof(*vs));
	if (state_requests_open(st, "verify", &rows, &n, err))
		return -1;
	for (i = 0; i < n && !rc; i++)
		rc = one_run(st, cfg, &rows[i], now, vs, err);
	request_rows_free(rows, n);
	return rc;
}
