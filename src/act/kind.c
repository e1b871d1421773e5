// SPDX-License-Identifier: GPL-2.0-only
/*
 * act: what every kind of farm request shares (kind.h): the one ask
 * path (recorded, the farm asked, the request moved on) and the one
 * follow-up of the open requests (their thread and manifest read in
 * order, their runs looked for and their answer built by workers, the
 * answer queued with the request's end in order).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/act/fixrun.h"
#include "perfbot/act/kind.h"
#include "perfbot/util/log.h"
#include "perfbot/util/workers.h"

const char *const kind_run_placeholders[] = {
	"kind", "result_root", "commit", "runs", "job", "request_id", NULL,
};

/* ------------------------------------------------------------------ */
/* Asking                                                              */

void kind_asking_init(struct kind_asking *q, const struct kind *k)
{
	memset(q, 0, sizeof(*q));
	q->rq.kind = k->name;
	sb_init(&q->said, SCHED_ERROR_BYTES + 64);
}

void kind_asking_release(struct kind_asking *q)
{
	sb_release(&q->said);
}

/* Each of q->farm in order; a refusal stops. */
static void submit(const struct config *cfg, struct kind_asking *q)
{
	struct pb_err e = { 0, "" };
	enum sched_outcome out = SCHED_ACCEPTED;
	size_t i;
	int found = 0;

	q->out = q->refused ? KIND_REJECTED : KIND_QUEUED;
	if (q->refused || !q->nfarm)
		return;		/* q->why says why, or nothing is asked */
	for (i = 0; i < q->nfarm && out == SCHED_ACCEPTED; i++) {
		if (scheduler_submit(cfg, &q->farm[i], &out, q->why,
				     sizeof(q->why), &e)) {
			snprintf(q->why, sizeof(q->why), "%s", e.msg);
			q->out = KIND_AWAY;
			return;
		}
	}
	q->out = out == SCHED_ACCEPTED ? KIND_QUEUED : KIND_REJECTED;
	if (out == SCHED_ACCEPTED)
		return;
	/* a farm that tells at once why it cannot (a new root's) */
	if (q->rq.result_root && *q->rq.result_root &&
	    !scheduler_farm_error(q->rq.result_root, &q->said, &found, &e) &&
	    found)
		q->out = KIND_SAID;
}

/* The status and detail the outcome leaves. */
static void outcome_status(const struct kind *k, const struct kind_asking *q,
			   const char **status, const char **detail)
{
	*status = "rejected";
	*detail = q->why;
	if (q->out == KIND_QUEUED || (q->out == KIND_SAID && k->said_later)) {
		*status = "queued";
		*detail = NULL;
	} else if (q->out == KIND_SAID) {
		*status = "failed";
		*detail = sb_str(&q->said);
	}
}

int kind_ask(struct state *st, const struct config *cfg,
	     const struct kind *k, struct kind_asking *q, time_t now,
	     struct pb_err *err)
{
	const char *status, *detail;

	q->rq.kind = k->name;
	if (k->adds_runs && !k->held && !q->refused &&
	    state_request_hold(st, &q->rq, now, err))
		return -1;
	submit(cfg, q);
	if (k->held)
		return q->out == KIND_QUEUED ?
			state_request_set(st, q->rq.request_id, "queued",
					  NULL, NULL, now, err) : 0;
	outcome_status(k, q, &status, &detail);
	if (!strcmp(status, "rejected"))
		log_warn("%s '%s' of '%s' rejected: %s", k->name,
			 q->rq.request_id, q->rq.report_id, q->why);
	if (k->adds_runs && !q->refused)
		return state_request_set(st, q->rq.request_id, status, NULL,
					 detail, now, err);
	q->rq.status = status;
	q->rq.detail = detail;
	return state_request_add(st, &q->rq, now, err);
}

void kind_limits_of(const struct kind *k, const struct config *cfg,
		    struct kind_limits *l)
{
	memset(l, 0, sizeof(*l));
	if (k->limits)
		k->limits(cfg, l);
}

/* ------------------------------------------------------------------ */
/* The follow-up                                                       */

static void fu_release(struct kind_fu *f)
{
	if (f->k && f->k->release)
		f->k->release(f);
	ctx_release(&f->ctx);
	followup_asker_release(&f->a);
	report_inputs_release(&f->in);
	manifest_release(&f->m);
	followup_also_release(f->also, f->nalso);
	result_root_release(&f->tested);
	sb_release(&f->said);
	memset(f, 0, sizeof(*f));
}

/* 1 when both of the report's roots hold the runs asked for. */
static int added_landed(const struct request *row,
			const struct report_inputs *in)
{
	return (long)in->root[BASE].runs >= row->base_runs + row->runs &&
	       (long)in->root[HEAD].runs >= row->head_runs + row->runs;
}

/* A worker: where the request stands, and its answer's context. */
static void prepare(const struct config *cfg, const struct inputs_opts *io,
		    time_t now, struct kind_fu *f)
{
	const struct request *row = f->row;
	const struct kind *k = f->k;
	int found = 0, ready = 0;

	if (f->loaded || f->end == KIND_DROPPED)
		return;
	if (report_inputs_load_opts(&f->in, &f->m, cfg, io, &f->why)) {
		f->loaded = -1;
		return;
	}
	if (k->adds_runs) {
		ready = added_landed(row, &f->in);
	} else if (scheduler_farm_error(row->result_root, &f->said, &found,
					&f->cerr)) {
		f->end = KIND_FAILED;	/* no context: one() says why */
		return;
	} else if (!found) {
		fixrun_root(row->result_root, (int)row->runs,
			    row->request_id, &f->tested, &ready, &f->landed);
	}
	f->end = found ? KIND_FAILED : ready ? KIND_LANDED :
		now > row->deadline ? KIND_LATE : KIND_WAITING;
	if (f->end == KIND_LANDED)
		f->built = !k->verdict(f, cfg, &f->verdict, &f->ctx, &f->cerr);
	else if (f->end != KIND_WAITING)
		f->built = !k->ended(f, cfg, &f->ctx, &f->cerr);
}

/* Queue 'tmpl' with the context and end the request. */
static int answer(struct state *st, const struct config *cfg,
		  struct kind_fu *f, const char *tmpl, const char *status,
		  const char *detail, time_t now, struct pb_err *err)
{
	f->built = 0;	/* handed over: released there */
	if (f->k->answer)
		return f->k->answer(st, cfg, f, tmpl, &f->ctx, status, detail,
				    now, err);
	return followup_answer(st, cfg, &f->a, f->row->request_id, tmpl,
			       &f->ctx, followup_request_end, status, detail,
			       now, err);
}

/* What could not be loaded: tried again, given up at the deadline. */
static int unloaded(struct state *st, struct kind_fu *f, time_t now,
		    struct kind_stats *ks, struct pb_err *err)
{
	const struct request *row = f->row;
	const char *why = f->why.msg[0] ? f->why.msg :
		"its thread is unreadable";
	int rc = 0;

	log_warn("%s '%s': %s", f->k->name, row->request_id, why);
	/* gone for good: give up at the deadline, quietly */
	if (now > row->deadline)
		rc = state_request_set(st, row->request_id, "expired", NULL,
				       f->why.msg[0] ? f->why.msg :
				       "unreadable", now, err);
	ks->expired += now > row->deadline && !rc;
	return rc;	/* else try again next run */
}

/* In order, with the state: the request's answer and end. */
static int one(struct state *st, const struct config *cfg,
	       struct kind_fu *f, time_t now, struct kind_stats *ks,
	       struct pb_err *err)
{
	const struct kind *k = f->k;
	const struct request *row = f->row;
	int rc = 0;

	pb_err_clear(err);
	if (f->end == KIND_DROPPED)
		return 0;
	if (f->loaded < 0)
		return unloaded(st, f, now, ks, err);
	if (f->end != KIND_WAITING && !f->built) {
		if (f->end != KIND_LANDED) {
			*err = f->cerr;
			return -1;
		}
		return pb_fail(err, EX_SOFTWARE, "%s '%s': cannot build its "
			       "answer%s%s", k->name, row->request_id,
			       f->cerr.msg[0] ? ": " : "", f->cerr.msg);
	}
	switch (f->end) {
	case KIND_LANDED:
		rc = answer(st, cfg, f, k->tmpl.result, "done", f->verdict,
			    now, err);
		/* the kind's answer asked the farm for more runs instead */
		if (!rc && f->end == KIND_WAITING) {
			ks->waiting++;
			break;
		}
		ks->done += !rc;
		if (!rc && !k->answer)
			log_info("%s '%s' of '%s': %s", k->name,
				 row->request_id, row->report_id, f->verdict);
		break;
	case KIND_FAILED:
		rc = answer(st, cfg, f, k->tmpl.failed, "failed",
			    sb_str(&f->said), now, err);
		ks->failed += !rc;
		break;
	case KIND_LATE:
		rc = answer(st, cfg, f, k->tmpl.expired, "expired",
			    "deadline passed", now, err);
		ks->expired += !rc;
		break;
	default:
		if (k->resume && !strcmp(row->status, "asking"))
			rc = k->resume(st, cfg, f, now, err);
		ks->waiting++;
	}
	return rc;
}

struct follow_run {
	const struct kind_env *e;
	const struct kind *k;
	struct request *rows;
	struct kind_fu *slot;
	struct inputs_opts *io;		/* one per worker */
	struct kind_stats *ks;
};

/* In order: the kind's start, the thread that asked, the manifest. */
static int follow_start(void *arg, size_t i, size_t slot, struct pb_err *err)
{
	struct follow_run *fr = arg;
	struct kind_fu *f = &fr->slot[slot];
	const struct kind *k = fr->k;
	int rc = 0;

	memset(f, 0, sizeof(*f));
	f->k = k;
	f->row = &fr->rows[i];
	sb_init(&f->said, SCHED_ERROR_BYTES + 64);
	if (k->start) {
		rc = k->start(fr->e->st, f, fr->e->now, err);
		if (rc < 0)
			return -1;
		if (rc > 0) {
			f->end = KIND_DROPPED;
			fr->ks->dropped++;
			return 0;
		}
	}
	if (!k->answer && followup_asker_load(&f->a, fr->e->st,
					      f->row->thread))
		f->loaded = -1;
	else if (followup_manifest(fr->e->st, fr->e->cfg, f->row->report_id,
				   &f->m, &f->why) ||
		 (k->also && followup_also(fr->e->st, fr->e->cfg,
					   f->row->report_id, &f->also,
					   &f->nalso, &f->why)))
		f->loaded = -1;
	return 0;
}

static void follow_work(void *arg, size_t worker, size_t slot)
{
	struct follow_run *fr = arg;

	prepare(fr->e->cfg, &fr->io[worker], fr->e->now, &fr->slot[slot]);
}

static int follow_finish(void *arg, size_t i, size_t slot,
			 struct pb_err *err)
{
	struct follow_run *fr = arg;
	struct kind_fu *f = &fr->slot[slot];
	int rc;

	(void)i;
	rc = one(fr->e->st, fr->e->cfg, f, fr->e->now, fr->ks, err);
	fu_release(f);
	return rc;
}

static void follow_drop(void *arg, size_t slot)
{
	struct follow_run *fr = arg;

	fu_release(&fr->slot[slot]);
}

static const struct workers_ops follow_ops = {
	follow_start, follow_work, follow_finish, follow_drop,
};

/* The kind's log line, its counts in the order of its letters. */
static void say_stats(const struct kind *k, const struct kind_stats *ks)
{
	static const char *const word[] = {
		"answered", "failed", "expired", "dropped", "waiting",
	};
	const long v[] = { ks->done, ks->failed, ks->expired, ks->dropped,
			   ks->waiting };
	char line[200];
	const char *p;
	size_t len;
	int any = 0;

	if (!k->stats_name || !k->stats_fields)
		return;
	len = (size_t)snprintf(line, sizeof(line), "%s:", k->stats_name);
	for (p = k->stats_fields; *p && len < sizeof(line); p++) {
		const char *at = strchr("dfxrw", *p);
		size_t w;

		if (!at)
			continue;
		w = (size_t)(at - "dfxrw");
		any |= v[w] != 0;
		len += (size_t)snprintf(line + len, sizeof(line) - len,
					"%s %ld %s", p == k->stats_fields ?
					"" : ",", v[w], word[w]);
	}
	if (any)
		log_info("%s", line);
}

int kind_follow(const struct kind_env *e, const struct kind *k,
		struct kind_stats *ks, struct pb_err *err)
{
	struct follow_run fr = { .e = e, .k = k, .ks = ks };
	size_t n = 0;
	int rc = -1;

	memset(ks, 0, sizeof(*ks));
	if (k->follow)
		return k->follow(e, ks, err);
	if (state_requests_claim(e->st, k->name, e->now, KIND_LEASE, &fr.rows,
				 &n, err))
		return -1;
	fr.slot = calloc(workers_slots(e->jobs), sizeof(*fr.slot));
	fr.io = inputs_opts_new(e->jobs, e->roots);
	if (!fr.slot || !fr.io)
		pb_fail(err, EX_OSERR, "out of memory");
	else
		rc = workers_run(&follow_ops, &fr, n, e->jobs, err);
	inputs_opts_free(fr.io, e->jobs);
	free(fr.slot);
	state_requests_release(e->st, fr.rows, n);
	request_rows_free(fr.rows, n);
	if (!rc)
		say_stats(k, ks);
	return rc;
}

int kind_followups(const struct kind_env *e, const struct kind *const *table,
		   size_t n, enum kind_phase phase, struct pb_err *err)
{
	struct kind_stats ks;
	size_t i;

	for (i = 0; i < n; i++)
		if (table[i]->phase == phase &&
		    kind_follow(e, table[i], &ks, err))
			return -1;
	return 0;
}
