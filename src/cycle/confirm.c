// SPDX-License-Identifier: GPL-2.0-only
/*
 * cycle: confirmation runs before a weak report is mailed (confirm.h),
 * the kind "confirm" (act/kind.h). The cycle's ingest holds such a
 * report (hold.c); each run's confirm step asks the
 * scheduler for the next look's runs of both commits, then lets the
 * sequential decision over all runs (seq_params_confirm(): the held runs
 * are look 0) decide: mailed as confirmed, recorded as not reproduced,
 * the next look's runs asked for, or at the deadline mailed marked
 * unconfirmed or dropped. A decided confirmation's runs feed the noise
 * learned for its testcase, machine and metric (act/learned.h), which
 * sizes the first look of the next ones (hold.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/ingest/group.h"
#include "perfbot/cycle/confirm.h"
#include "perfbot/state/requests.h"
#include "perfbot/state/seen.h"
#include "perfbot/compare/evidence.h"
#include "perfbot/compare/sequential.h"
#include "perfbot/util/id.h"
#include "perfbot/util/log.h"
#include "perfbot/ingest/manifest.h"
#include "perfbot/send/outbox.h"
#include "perfbot/compose/reportmail.h"
#include "perfbot/judge/runs.h"
#include "perfbot/act/kind.h"
#include "perfbot/act/followup.h"
#include "perfbot/act/learned.h"
#include "perfbot/act/scheduler.h"
#include "perfbot/render/context.h"
#include "perfbot/render/evidence_view.h"
#include "perfbot/render/template.h"
#include "perfbot/util/workers.h"
#include "steps.h"	/* and cycle/report.h */

/*
 * One held report on its way through the workers (util/workers.h): its
 * manifest read from the state in order (start), its inputs loaded and
 * compared, the verdict of the new runs and the mail it leads to made
 * by a worker, which touches no state (work), then what the state says
 * and the farm answers done in order (finish, one_confirm()).
 */
struct held {
	struct request *row;	/* a later look changes it */
	struct manifest m;
	struct report_inputs in;
	char *name, *text, *dir;
	int parsed;		/* 'm' holds the manifest */
	int loaded;		/* 'in' holds its inputs */
	struct pb_err why;	/* when it did not load */
	/* what the worker could tell ahead */
	int decided;		/* decide() ran: 0, or -1 with 'derr' */
	enum verdict v;
	long more;		/* the decision asks for the next look: new
				 * runs a side in all, else 0 */
	double noise_cv;	/* the decided runs' noise, for the learned
				 * noise (0: none) */
	long noise_df;
	struct strbuf line;
	struct pb_err derr;
	const char *mail_status;	/* the mail made for it, or NULL */
	int mail_rc;		/* report_make(): 0, or -1 with 'merr' */
	struct report r;
	struct composed c;
	struct pb_err merr;
};

/* The manifest as kept in the state, parsed: in order, before work. */
static int held_read(struct state *st, const struct config *cfg,
		     struct held *h, struct pb_err *err)
{
	if (state_manifest_text(st, h->row->report_id, &h->name, &h->text,
				&h->dir, err))
		return -1;
	if (!h->text)
		return pb_fail(err, EX_DATAERR, "report '%s': its manifest was "
			       "not kept", h->row->report_id);
	if (manifest_parse(&h->m, h->name, h->dir, h->text,
			   manifest_kept_len(h->text), err))
		return -1;
	h->parsed = 1;
	return manifest_resolve(&h->m, cfg, err);
}

/* Its inputs over all runs: by a worker. */
static int held_load(const struct config *cfg, const struct inputs_opts *io,
		     struct held *h, struct pb_err *err)
{
	if (!h->parsed)
		return -1;	/* 'why' says why */
	if (report_inputs_load_opts(&h->in, &h->m, cfg, io, err))
		return -1;
	h->loaded = 1;
	return 0;
}

static void held_release(struct held *h)
{
	if (h->loaded)
		report_inputs_release(&h->in);
	manifest_release(&h->m);
	free(h->name);
	free(h->text);
	free(h->dir);
	sb_release(&h->line);
	report_release(&h->r);
	composed_release(&h->c);
	memset(h, 0, sizeof(*h));
}

/* The look's runs on both commits, as the farm is asked for them. */
static void ask_of(struct held *h, struct kind_asking *q)
{
	const struct manifest_side *sides[2] = { &h->m.base, &h->m.head };
	const long held[2] = { h->row->base_runs, h->row->head_runs };
	int s;

	q->rq.request_id = h->row->request_id;
	q->rq.report_id = h->row->report_id;
	for (s = BASE; s <= HEAD; s++) {
		/* what the look lacks on this side (a later look: the runs
		 * landed so far counted) */
		long lack = held[s] + h->row->runs - (long)h->in.root[s].runs;

		q->farm[s] = (struct sched_request){
			.request_id = h->row->request_id,
			.job = h->in.root[s].job.name,
			.commit = manifest_side_sha(sides[s]),
			.result_root = sides[s]->result_root,
			.runs = (int)(lack > 0 ? lack : 1), .kind = "confirm",
		};
	}
	q->nfarm = 2;
}

static int landed(const struct held *h)
{
	const struct request *c = h->row;

	return (long)h->in.root[BASE].runs >= c->base_runs + c->runs &&
	       (long)h->in.root[HEAD].runs >= c->head_runs + c->runs;
}

/*
 * The report over all runs with 'line' under its evidence, and its mail,
 * from the manifest alone (no Message-ID checked yet): into h->r and
 * h->c, 0 or -1 with 'err'.
 */
static int make_mail(const struct config *cfg, const struct inputs_opts *io,
		     struct held *h, const char *line, time_t now,
		     struct pb_err *err)
{
	struct report_opts o = { NULL, now, line, h->row->metric, 0, io, 0, 0,
				 NULL, 0 };

	report_release(&h->r);
	composed_release(&h->c);
	if (report_make(&h->r, &h->m, cfg, &o, err))
		return -1;
	if (!h->r.worth)
		return pb_fail(err, EX_DATAERR, "report '%s': nothing to "
			       "report over all runs", h->row->report_id);
	json_decref(h->r.ctx);	/* for 'report --context' only */
	h->r.ctx = NULL;
	return report_compose(&h->r, cfg, &h->c, err);
}

/*
 * Queue the report over all runs with its new status: the mail a worker
 * made for this status, else made here; with a Message-ID the state
 * does not hold (drawn again, and made again, when it does).
 */
static int mail_it(struct state *st, const struct config *cfg,
		   struct held *h, const char *line, const char *status,
		   time_t now, struct pb_err *err)
{
	struct report_opts o = { NULL, now, line, h->row->metric, 0, 0, 0, 0,
				 NULL, 0 };
	struct composed *c = &h->c;
	int rc;

	if (h->mail_status && !strcmp(h->mail_status, status) &&
	    !strcmp(sb_str(&h->line), line))
		rc = h->mail_rc ? (*err = h->merr, -1) : 0;
	else
		rc = make_mail(cfg, NULL, h, line, now, err);
	if (!rc && report_redraw_taken(&h->r, &h->m, cfg, &o, st, err))
		return -1;
	if (!rc && o.draw) {	/* drawn again: its mail too */
		composed_release(c);
		rc = report_compose(&h->r, cfg, c, err);
	}
	if (!rc) {
		c->manifest = h->name;
		c->manifest_text = h->text;
		c->manifest_dir = h->dir;
		rc = state_begin(st, err);
		if (!rc && (outbox_queue(st, c, now, err) ||
			    state_confirm_set(st, h->row, strcmp(status,
					      "confirmed") ? "expired" : "done",
					      status, line, now, err))) {
			state_rollback(st);
			rc = -1;
		} else if (!rc) {
			rc = state_commit(st, err);
		}
	}
	if (!rc)
		log_info("queued report '%s' (%s): %s", h->r.id, status,
			 h->r.subject);
	return rc;
}

/* Render one line of templates/<name>.txt, without its newline. */
static int line_of(const struct config *cfg, const char *name,
		   struct ctx *c, struct strbuf *line, struct pb_err *err)
{
	json_t *j;
	int rc;

	if (ctx_finish(c, &j, err))
		return -1;
	rc = template_render(cfg, name, j, line, err);
	json_decref(j);
	while (!rc && line->len && line->buf[line->len - 1] == '\n')
		sb_setlen(line, line->len - 1);
	return rc;
}

/*
 * The sequential decision over all runs ('*v'; '*more' the new runs a
 * side in all the next look needs, else 0), and the line that tells it
 * (templates/confirmation.txt; empty when the metric is not among the
 * runs).
 */
static int decide(const struct config *cfg, const struct confirm_config *cc,
		  struct held *h, enum verdict *v, long *more,
		  struct strbuf *line, struct pb_err *err)
{
	const size_t from[2] = { 0, 0 };
	const struct request *cr = h->row;
	const struct cmp_row *row;
	struct seq_decision dec;
	struct seq_design d;
	struct evidence ev;
	struct runs_new rn;
	struct ctx c;
	int rc = 0;

	*v = VERDICT_INCONCLUSIVE;
	*more = 0;
	if (confirm_design(&cc->policy, cr->base_runs, cr->head_runs,
			   cr->reported_change, followup_first_read(cr->thread,
			   "confirm", 0), &d, err))
		return -1;
	if (runs_compare_new(&rn, &h->in.root[BASE], &h->in.root[HEAD], from,
			     h->in.rules, err)) {
		pb_err_clear(err);
		return 0;
	}
	row = comparison_find(&rn.cmp, cr->metric);
	if (row && !evidence_of_row(row, &ev)) {
		seq_decide(&d, row->v[BASE], row->n[BASE], row->v[HEAD],
			   row->n[HEAD], &dec);
		if (dec.answer == SEQ_MORE) {
			/* the next look's new runs a side in all, counted
			 * from the fewer side's held ones */
			long fewer = cr->base_runs < cr->head_runs ?
				cr->base_runs : cr->head_runs;
			long n = d.look[dec.look].n - fewer;

			*more = n > cr->runs ? n : cr->runs + 1;
			runs_new_release(&rn);
			return 0;
		}
		*v = dec.answer == SEQ_CHANGED ? VERDICT_STABLE :
			VERDICT_NOT_REPRODUCED;
		/* every run of both commits, each about its own mean */
		h->noise_cv = seq_runs_cv(row->v[BASE], row->n[BASE],
					  row->v[HEAD], row->n[HEAD]);
		h->noise_df = (long)(row->n[BASE] + row->n[HEAD]) - 2;
		ctx_init(&c, "confirmation");
		ctx_bool(&c, "confirmed", *v == VERDICT_STABLE);
		ctx_int(&c, "base_more", (long)row->n[BASE] - cr->base_runs);
		ctx_int(&c, "head_more", (long)row->n[HEAD] - cr->head_runs);
		ctx_str(&c, "metric", row->name);
		ctx_percent(&c, "change", row->change);
		ctx_evidence(&c, "tests", &ev);
		rc = line_of(cfg, "confirmation", &c, line, err);
	}
	runs_new_release(&rn);
	return rc;
}

enum give_up_why { GIVE_UP_UNREADABLE, GIVE_UP_REFUSED, GIVE_UP_LATE };

/* The deadline passed (or the farm refused): the policy decides. */
static int give_up(struct state *st, const struct config *cfg,
		   const struct confirm_config *cc, struct held *h,
		   enum give_up_why why, time_t now, struct confirm_stats *cs,
		   struct pb_err *err)
{
	struct strbuf line = STRBUF_INIT;
	struct ctx c;
	int rc;

	ctx_init(&c, "confirmation");
	ctx_int(&c, "runs", h->row->runs);
	ctx_bool(&c, "unreadable", why == GIVE_UP_UNREADABLE);
	ctx_bool(&c, "refused", why == GIVE_UP_REFUSED);
	ctx_bool(&c, "late", why == GIVE_UP_LATE);
	if (line_of(cfg, "unconfirmed", &c, &line, err)) {
		sb_release(&line);
		return -1;
	}
	if (cc->mail_on_deadline && h->loaded)
		rc = mail_it(st, cfg, h, sb_str(&line), "unconfirmed", now,
			     err);
	else
		rc = state_confirm_set(st, h->row, "expired", NULL,
				       sb_str(&line), now, err);
	cs->expired += !rc;
	log_info("confirmation of '%s': %s", h->row->report_id, sb_str(&line));
	sb_release(&line);
	return rc;
}

/* Ask the farm for the look's runs: 'queued' once it has them. */
static int ask_now(struct state *st, const struct config *cfg,
		   const struct confirm_config *cc, struct held *h,
		   time_t now, struct confirm_stats *cs, struct pb_err *err)
{
	struct kind_asking q;
	int rc;

	kind_asking_init(&q, &kind_confirm);
	ask_of(h, &q);
	rc = kind_ask(st, cfg, &kind_confirm, &q, now, err);
	if (!rc && q.out == KIND_AWAY) {	/* ask again later */
		log_warn("confirmation of '%s': %s", h->row->report_id,
			 q.why);
		cs->failed++;
	} else if (!rc && q.out != KIND_QUEUED) {
		rc = give_up(st, cfg, cc, h, GIVE_UP_REFUSED, now, cs, err);
	} else if (!rc) {
		cs->asked++;	/* the runs are looked for from the next run on */
	}
	kind_asking_release(&q);
	return rc;
}

/*
 * The decision asks for the next look: the row asks again, under the
 * look's own request id (the farm runs each once), recorded before the
 * farm is asked, as at the hold.
 */
static int next_look(struct state *st, const struct config *cfg,
		     const struct confirm_config *cc, struct held *h,
		     time_t now, struct confirm_stats *cs, struct pb_err *err)
{
	struct request *row = h->row;
	char *rid = id_confirm_look(row->report_id, h->more);

	if (!rid)
		return pb_fail(err, EX_OSERR, "out of memory");
	if (state_confirm_more(st, row->report_id, rid, h->more, err)) {
		free(rid);
		return -1;
	}
	log_info("confirmation of '%s': undecided at %ld new runs a side, "
		 "asking for %ld in all", row->report_id, row->runs, h->more);
	free(row->request_id);
	row->request_id = rid;
	row->runs = h->more;
	return ask_now(st, cfg, cc, h, now, cs, err);
}

static int one_confirm(struct state *st, const struct config *cfg,
		       const struct confirm_config *cc, struct held *h,
		       time_t now, struct confirm_stats *cs, struct pb_err *err)
{
	int rc = 0;

	if (!h->loaded) {
		log_warn("confirmation of '%s': %s", h->row->report_id,
			 h->why.msg);
		return now > h->row->deadline ?
			give_up(st, cfg, cc, h, GIVE_UP_UNREADABLE, now, cs,
				err) : 0;
	}
	if (!strcmp(h->row->status, "asking"))
		return ask_now(st, cfg, cc, h, now, cs, err);
	if (!landed(h)) {
		cs->waiting += now <= h->row->deadline;
		return now > h->row->deadline ?
			give_up(st, cfg, cc, h, GIVE_UP_LATE, now, cs,
				err) : 0;
	}
	if (h->decided < 0) {
		*err = h->derr;
		return -1;
	}
	if (h->more)
		return next_look(st, cfg, cc, h, now, cs, err);
	if (h->v == VERDICT_STABLE) {
		rc = mail_it(st, cfg, h, sb_str(&h->line), "confirmed", now,
			     err);
		cs->confirmed += !rc;
	} else {
		rc = state_confirm_set(st, h->row, "done", "not reproduced",
				       h->line.len ? sb_str(&h->line) :
				       "no verdict on the new runs", now, err);
		cs->not_reproduced += !rc;
		log_info("confirmation of '%s': %s", h->row->report_id,
			 sb_str(&h->line));
	}
	/* the runs' noise, learned for later designs, as a retest's */
	if (!rc && h->noise_df > 0)
		rc = learned_keep(st, h->in.job.testcase, h->in.job.tbox_group,
				  h->row->metric, h->noise_cv, h->noise_df, now,
				  err);
	return rc;
}

/* The held reports of one confirm step, and each worker's tables. */
struct confirm_run {
	struct state *st;
	const struct config *cfg;
	struct confirm_config cc;
	time_t now;
	struct request *rows;
	struct held *slot;
	struct inputs_opts *io;		/* one per worker */
	struct confirm_stats *cs;
};

/* In order: the manifest kept with the report (what fails is told in
 * its turn: a confirmation that cannot load waits, or gives up). */
static int confirm_start(void *arg, size_t i, size_t slot,
			 struct pb_err *err)
{
	struct confirm_run *cr = arg;
	struct held *h = &cr->slot[slot];

	(void)err;
	memset(h, 0, sizeof(*h));
	h->row = &cr->rows[i];
	sb_init(&h->line, 0);
	held_read(cr->st, cr->cfg, h, &h->why);
	return 0;
}

/*
 * A worker: the inputs over all runs, and when the row says what comes
 * next without asking the farm, the verdict of the new runs and the mail
 * (confirmed, or unconfirmed at the deadline).
 */
static void confirm_work(void *arg, size_t worker, size_t slot)
{
	struct confirm_run *cr = arg;
	struct held *h = &cr->slot[slot];
	const struct inputs_opts *io = &cr->io[worker];
	struct ctx c;

	if (held_load(cr->cfg, io, h, &h->why) ||
	    !strcmp(h->row->status, "asking"))
		return;		/* the farm is asked first, in order */
	if (!landed(h)) {
		if (cr->now <= h->row->deadline || !cr->cc.mail_on_deadline)
			return;
		ctx_init(&c, "confirmation");
		ctx_int(&c, "runs", h->row->runs);
		ctx_bool(&c, "unreadable", 0);
		ctx_bool(&c, "refused", 0);
		ctx_bool(&c, "late", 1);
		if (line_of(cr->cfg, "unconfirmed", &c, &h->line, &h->merr))
			return;	/* give_up() says so */
		h->mail_status = "unconfirmed";
		h->mail_rc = make_mail(cr->cfg, io, h, sb_str(&h->line),
				       cr->now, &h->merr);
		return;
	}
	h->decided = decide(cr->cfg, &cr->cc, h, &h->v, &h->more, &h->line,
			    &h->derr) ? -1 : 1;
	if (h->decided > 0 && !h->more && h->v == VERDICT_STABLE) {
		h->mail_status = "confirmed";
		h->mail_rc = make_mail(cr->cfg, io, h, sb_str(&h->line),
				       cr->now, &h->merr);
	}
}

static int confirm_finish(void *arg, size_t i, size_t slot,
			  struct pb_err *err)
{
	struct confirm_run *cr = arg;
	struct held *h = &cr->slot[slot];
	int rc;

	(void)i;
	rc = one_confirm(cr->st, cr->cfg, &cr->cc, h, cr->now, cr->cs, err);
	held_release(h);
	return rc;
}

static void confirm_drop(void *arg, size_t slot)
{
	struct confirm_run *cr = arg;

	held_release(&cr->slot[slot]);
}

static const struct workers_ops confirm_ops = {
	confirm_start, confirm_work, confirm_finish, confirm_drop,
};

/*
 * The follow-up of the kind (act/kind.h): ask for what is held, decide
 * what has landed. The held reports are loaded, compared and their
 * mails made by e->jobs threads (util/workers.h), and the farm asked and
 * the state written in the order of the holds, so the outcome is that
 * of one job.
 */
static int confirm_follow(const struct kind_env *e, struct kind_stats *ks,
			  struct pb_err *err)
{
	struct confirm_stats cs = { 0 };
	struct confirm_run cr = { .st = e->st, .cfg = e->cfg, .now = e->now,
				  .cs = &cs };
	size_t n = 0;
	int rc = -1;

	(void)ks;
	if (confirm_config_load(e->cfg, &cr.cc, err) ||
	    state_requests_claim(e->st, "confirm", e->now, KIND_LEASE,
				 &cr.rows, &n, err))
		return -1;
	cr.slot = calloc(workers_slots(e->jobs), sizeof(*cr.slot));
	cr.io = inputs_opts_new(e->jobs, e->roots);
	if (!cr.slot || !cr.io)
		pb_fail(err, EX_OSERR, "out of memory");
	else
		rc = workers_run(&confirm_ops, &cr, n, e->jobs, err);
	inputs_opts_free(cr.io, e->jobs);
	free(cr.slot);
	state_requests_release(e->st, cr.rows, n);
	request_rows_free(cr.rows, n);
	if (!rc && (cs.asked || cs.confirmed || cs.not_reproduced ||
		    cs.expired || cs.waiting || cs.failed))
		log_info("confirmations: %ld asked, %ld confirmed, %ld not "
			 "reproduced, %ld expired, %ld waiting, %ld failed",
			 cs.asked, cs.confirmed, cs.not_reproduced, cs.expired,
			 cs.waiting, cs.failed);
	return rc;
}

static void confirm_limits(const struct config *cfg, struct kind_limits *l)
{
	l->runs = cfg->confirm.min_runs;
	l->max_runs = cfg->confirm.total_runs;
}

const struct kind kind_confirm = {
	.name = "confirm",
	.placeholders = kind_run_placeholders,
	.adds_runs = 1,
	.held = 1,
	.phase = KIND_AT_CONFIRM,
	.tmpl = { .result = "confirmation", .expired = "unconfirmed" },
	.limits = confirm_limits,
	.follow = confirm_follow,
};
