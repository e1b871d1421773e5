// SPDX-License-Identifier: GPL-2.0-only
/*
 * act: retests, the command and the kind (kind.h). "retest [N]x" is
 * parsed, checked and acted on here (an entry of dispatch.c's table):
 * the act step submits the runs and records the request with the
 * thread of the mail that asked and the retest's sequential design (retest_plan.c:
 * seq_params_retest(), N a side first, up to limits.max_runs); each later
 * run decides the retests whose runs have landed on their new runs: an
 * answer in that thread, or the next look's runs asked of the farm under
 * the look's own request id (the kind's answer()); a passed deadline is
 * answered too.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/compose/answer.h"
#include "perfbot/render/chart.h"
#include "perfbot/act/dispatch.h"
#include "perfbot/state/inbox.h"
#include "perfbot/util/id.h"
#include "perfbot/act/followup.h"
#include "perfbot/act/kind.h"
#include "perfbot/act/learned.h"
#include "perfbot/util/log.h"
#include "perfbot/render/report.h"
#include "perfbot/act/retest.h"
#include "perfbot/judge/runs.h"
#include "perfbot/act/scheduler.h"
#include "perfbot/render/context.h"
#include "perfbot/render/evidence_view.h"
#include "perfbot/compare/sequential.h"
#include "perfbot/compare/stats.h"
#include "perfbot/compare/table.h"
#include "perfbot/render/seq_view.h"

#include "retest_internal.h"

void retest_side_request(struct sched_request *rq, const char *rid,
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
			const char *request_id, struct manifest *m,
			struct report_inputs *in, struct kind_asking *q,
			struct retest_plan *pl)
{
	struct pb_err e = { 0, "" };
	const struct cmp_row *h;

	if (followup_manifest(st, cfg, report_id, m, &e) ||
	    report_inputs_load(in, m, cfg, &e)) {
		snprintf(q->why, sizeof(q->why), "%s", e.msg);
		q->refused = 1;
		return;
	}
	/* a confirmed report whose key metric the filter hides */
	if (!in->verdict.headline && in->key_metric)
		judge_force(&in->cmp, in->rules, in->key_metric, &in->verdict);
	h = in->verdict.headline;
	pl->reported = h ? h->change / 100 : 0;
	if (h)
		retest_plan_noise(st, in, h->name, seq_runs_cv(h->v[BASE],
				  h->n[BASE], h->v[HEAD], h->n[HEAD]),
				  (long)(h->n[BASE] + h->n[HEAD]) - 2, pl);
	q->rq.thread = followup_thread_json(r, in);
	if (!q->rq.thread || retest_plan_keep((char **)&q->rq.thread, pl)) {
		snprintf(q->why, sizeof(q->why), "out of memory");
		q->refused = 1;
		return;
	}
	q->rq.base_runs = (long)in->root[BASE].runs;
	q->rq.head_runs = (long)in->root[HEAD].runs;
	/* the first look: N, or more when the learned noise calls for it */
	q->rq.runs = pl->first;
	retest_side_request(&q->farm[0], request_id, in, &m->base, BASE,
			    (int)pl->first, r->message_id);
	retest_side_request(&q->farm[1], request_id, in, &m->head, HEAD,
			    (int)pl->first, r->message_id);
	q->nfarm = 2;
}

int retest_request(struct state *st, const struct config *cfg,
		   const struct answer_thread *r, const char *report_id,
		   const char *request_id, int runs, time_t now,
		   const char **tmpl, struct ctx *c, struct pb_err *err)
{
	struct retest_plan pl = { .first = runs, .cap = runs, .cv = NAN,
				  .id = request_id };
	struct retest_also also = { NULL, NULL, 0, 0 };
	struct kind_asking q;
	struct report_inputs in;
	struct seq_design d;
	struct manifest m;
	int refused, rc = -1;

	memset(&m, 0, sizeof(m));
	memset(&in, 0, sizeof(in));
	/* the farm's words and paths are for the log and the state only */
	ctx_init(c, "retest");
	if (cfg->limits.max_runs > runs)
		pl.cap = cfg->limits.max_runs;
	if (retest_plan_earlier(st, report_id, &pl.earlier, err)) {
		ctx_release(c);
		return -1;
	}
	kind_asking_init(&q, &kind_retest);
	q.rq = (struct request_new){
		.request_id = request_id, .kind = "retest",
		.report_id = report_id, .runs = runs,
		.requested_by = r->from_addr,
		.reply_message_id = r->message_id,
		.deadline = now + cfg->scheduler.deadline,
	};
	prepare_ask(st, cfg, r, report_id, request_id, &m, &in, &q, &pl);
	/* the report's other tests: as many runs as its first look */
	retest_also_ask(st, cfg, report_id, request_id, (int)pl.first,
			r->message_id, &also, &q);
	if (kind_ask(st, cfg, &kind_retest, &q, now, err))
		goto out;
	refused = q.out != KIND_QUEUED;
	if (!refused) {
		ctx_int(c, "runs", pl.first);
		/* "you asked for N": only when the noise asked more */
		if (pl.first > runs)
			ctx_int(c, "asked", runs);
		else
			ctx_bool(c, "asked", 0);
		/* a number is true even when 0 */
		if (also.loaded)
			ctx_int(c, "also", (long long)also.loaded);
		else
			ctx_bool(c, "also", 0);
		ctx_str(c, "request_id", request_id);
		followup_commits_ctx(c, &m);
		if (!retest_plan_design(&pl, &d, err))
			ctx_seq(c, "seq", &d, NULL);
		pb_err_clear(err);
		/* a number is true even when 0 */
		if (pl.learned)
			ctx_int(c, "learned", pl.learned);
		else
			ctx_bool(c, "learned", 0);
	}
	*tmpl = refused ? kind_retest.tmpl.rejected : kind_retest.tmpl.ack;
	rc = 0;
out:
	if (rc)
		ctx_release(c);
	free((char *)q.rq.thread);
	kind_asking_release(&q);
	retest_also_release(&also);
	report_inputs_release(&in);
	manifest_release(&m);
	return rc;
}

/* ------------------------------------------------------------------ */
/* The command: "retest [N]x"                                          */

int retest_parse(const char *args, struct mail_command *c)
{
	return c->colon ? -1 : command_parse_count(args, &c->runs);
}

int retest_check(const struct mail_command *c,
		 const struct command_limits *l, char *why, size_t whylen)
{
	if (c->runs == 0 || (c->runs >= 2 && c->runs <= l->max_runs))
		return 0;
	/* one new run a side can be shown, but no test can be made on it */
	snprintf(why, whylen, "retest: N must be between 2 and %d%s",
		 l->max_runs, c->runs == 1 ? " (one more run a side cannot be "
		 "tested)" : "");
	return -1;
}

/*
 * A retest asked while one is open: answered once per open retest (a
 * loop, or an impatient list, must not make one answer per mail), with
 * the open one's status.
 */
static int act_repeat(struct act_ctx *a, const char *report_id,
		      const struct request_tally *t, struct pb_err *err)
{
	long told;
	struct ctx x;

	if (state_inbox_count_report(a->st, report_id, t->open_since,
				     DISPATCH_OUT_REPEAT, &told, err))
		return -1;
	if (told) {
		a->silenced++;
		return 0;
	}
	a->repeats++;
	ctx_init(&x, "answer");
	ctx_str(&x, "status", t->open_status);
	return answers_piece_of(a, "retest-busy", &x, err);
}

/* Stable per (mail, command): a retried poll asks for the same retest. */
int retest_act(struct act_ctx *a, const struct mail_command *c, size_t index,
	       struct pb_err *err)
{
	const struct thread_report *tr = a->t->report;
	int runs = c->runs ? c->runs : (int)a->cfg->limits.default_runs;
	struct request_tally t;
	struct request *mine = NULL;
	struct kind_limits l;
	char *rid = NULL;
	const char *tmpl = NULL;
	struct ctx x;
	int rc, resume;

	if (!tr)	/* a reminder's thread: several reports */
		return answers_not_here(a, c, "retest", err);
	kind_limits_of(&kind_retest, a->cfg, &l);
	rid = id_retest_request(a->t->message_id, index);
	if (!rid)
		return pb_fail(err, EX_OSERR, "out of memory");
	if (state_request_get(a->st, rid, &mine, err) ||
	    state_request_tally(a->st, "retest", tr->report_id, NULL, 0, &t,
				err)) {
		request_rows_free(mine, mine ? 1 : 0);
		free(rid);
		return -1;
	}
	/* this very mail asked it before: a run killed while asking */
	resume = mine && !strcmp(mine->status, "asking");
	if (resume)
		runs = (int)mine->runs;
	if (!resume && t.open_status) {
		rc = act_repeat(a, tr->report_id, &t, err);
	} else if (!resume && t.of_report >= l.per_report) {
		ctx_init(&x, "answer");
		ctx_int(&x, "limit", l.per_report);
		rc = answers_piece_of(a, "retest-limit", &x, err);
	} else {
		rc = retest_request(a->st, a->cfg, a->t, tr->report_id, rid,
				    runs, a->now, &tmpl, &x, err) ||
		     answers_piece_of(a, tmpl, &x, err);
		if (rc && !err->code)
			pb_fail(err, EX_OSERR, "out of memory");
	}
	request_rows_free(mine, mine ? 1 : 0);
	request_tally_release(&t);
	free(rid);
	return rc ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* The follow-up: the kind                                             */

static void chart_ctx(struct ctx *c, const struct cmp_row *row)
{
	struct strbuf sb = STRBUF_INIT;

	if (chart_render(row->name, row->v[BASE], row->n[BASE], row->v[HEAD],
			 row->n[HEAD], 80, 20, &sb, NULL))
		sb_reset(&sb);
	else
		chart_legend(&sb);
	ctx_str(c, "chart", sb_str(&sb));
	sb_release(&sb);
}

/* A retest's own, beside its follow-up (kind_fu): its design. */
struct retest_own {
	struct retest_plan pl;
	struct seq_design d;
	int designed;	/* d made: only when a look landed or is asked */
	long more;	/* undecided: the next look's runs a side in all */
	const char *metric;	/* decided on: its new runs' noise, kept */
	double cv;
	long df;
};

/*
 * The verdict of the headline metric, decided on the new runs alone
 * ('fresh': the same metric compared over the runs that landed after the
 * request) by the retest's sequential design: the runs that made the
 * report were selected for looking different, so counting them again
 * would favour "stable". "stable" when the efficacy bound is crossed,
 * "not reproduced" when the futility bound is, else "inconclusive"
 * (at the design's last look, or the farm did not take the next one).
 */
static void verdict_ctx(struct ctx *c, const struct cmp_row *all,
			const struct cmp_row *fresh, double reported,
			const struct seq_design *d,
			const struct seq_decision *dec, const char **verdict)
{
	enum verdict v = dec->answer == SEQ_CHANGED ? VERDICT_STABLE :
		dec->answer == SEQ_NOT_CHANGED ? VERDICT_NOT_REPRODUCED :
		VERDICT_INCONCLUSIVE;

	*verdict = stats_verdict_name(v);
	ctx_str(c, "verdict", *verdict);
	ctx_percent(c, "change", fresh->change);
	ctx_percent(c, "change_all", all->change);
	ctx_percent(c, "reported", reported);
	ctx_seq(c, "seq", d, dec);
	ctx_bool(c, "stable", v == VERDICT_STABLE);
	ctx_bool(c, "not_reproduced", v == VERDICT_NOT_REPRODUCED);
	ctx_bool(c, "inconclusive", v == VERDICT_INCONCLUSIVE);
	/* built for the next look: used only when the farm does not take
	 * it */
	ctx_bool(c, "refused", dec->answer == SEQ_MORE);
	ctx_int(c, "new_base_n", (long long)fresh->n[BASE]);
	ctx_int(c, "new_head_n", (long long)fresh->n[HEAD]);
}

/*
 * The decision on the new runs and the answer's context; undecided,
 * own->more is the next look's runs a side in all (the context is then
 * the answer should the farm not take them).
 */
static int result_ctx(struct kind_fu *f, struct retest_own *own,
		      const struct config *cfg, const char **verdict,
		      struct ctx *c, struct pb_err *err)
{
	const struct request *row = f->row;
	const struct report_inputs *in = &f->in;
	const char *metric = followup_metric(&f->a);
	double reported = followup_reported(&f->a);
	const struct cmp_row *h = metric ? comparison_find(&in->cmp, metric) :
		NULL, *fresh;
	size_t from[2] = { (size_t)row->base_runs, (size_t)row->head_runs };
	struct strbuf table = STRBUF_INIT;
	struct seq_decision dec;
	struct runs_new rn;

	memset(c, 0, sizeof(*c));
	if (!h)
		h = in->verdict.headline;
	if (!h)
		return pb_fail(err, EX_DATAERR, "no headline to retest");
	if (runs_compare_new(&rn, &in->root[BASE], &in->root[HEAD], from,
			     in->rules, err))
		return -1;
	fresh = comparison_find(&rn.cmp, h->name);
	if (!fresh) {
		runs_new_release(&rn);
		return pb_fail(err, EX_DATAERR, "no new runs of %s", h->name);
	}
	seq_decide(&own->d, fresh->v[BASE], fresh->n[BASE], fresh->v[HEAD],
		   fresh->n[HEAD], &dec);
	own->metric = h->name;
	own->cv = dec.cv;
	own->df = (long)(fresh->n[BASE] + fresh->n[HEAD]) - 2;
	if (dec.answer == SEQ_MORE)
		own->more = own->d.look[dec.look].n > row->runs ?
			own->d.look[dec.look].n : row->runs + 1;
	ctx_init(c, "retest");
	if (report_table_text(in, &f->m, &table))
		c->oom = 1;
	verdict_ctx(c, h, fresh, reported, &own->d, &dec, verdict);
	ctx_int(c, "runs", row->runs);
	ctx_str(c, "request_id", row->request_id);
	followup_commits_ctx(c, &f->m);
	ctx_str(c, "metric", h->name);
	followup_samples_ctx(c, "base_samples", h->name, h->v[BASE],
			     h->n[BASE]);
	followup_samples_ctx(c, "head_samples", h->name, h->v[HEAD],
			     h->n[HEAD]);
	ctx_int(c, "base_n", (long long)h->n[BASE]);
	ctx_int(c, "head_n", (long long)h->n[HEAD]);
	ctx_str(c, "table", sb_str(&table));
	chart_ctx(c, h);
	retest_also_ctx(c, f, cfg);
	sb_release(&table);
	runs_new_release(&rn);
	return 0;
}

/* The runs that are there when the deadline has passed. */
static void expired_ctx(struct ctx *c, const struct request *row,
			const struct report_inputs *in)
{
	ctx_init(c, "retest");
	ctx_str(c, "request_id", row->request_id);
	ctx_int(c, "runs", row->runs);
	ctx_int(c, "base_n", (long long)in->root[BASE].runs);
	ctx_int(c, "head_n", (long long)in->root[HEAD].runs);
}

/*
 * In order, with the state: the thread that asked (the kind has its own
 * answer(), so kind_follow() leaves it to the kind) and the plan kept
 * with it. Its design (milliseconds) is made only when a look landed or
 * is asked again: a cycle walks every retest waiting for the farm.
 */
static int retest_start(struct state *st, struct kind_fu *f, time_t now,
			struct pb_err *err)
{
	struct retest_own *own = calloc(1, sizeof(*own));

	(void)now;
	(void)err;
	f->own = own;
	if (!own || followup_asker_load(&f->a, st, f->row->thread) ||
	    retest_plan_read(&own->pl, f->row))
		f->loaded = -1;
	return 0;
}

/* A worker's: a design that cannot be made is the thread's trouble, as
 * an unreadable thread is (tried again, given up at the deadline). */
static int retest_verdict(struct kind_fu *f, const struct config *cfg,
			  const char **verdict, struct ctx *c,
			  struct pb_err *err)
{
	struct retest_own *own = f->own;

	if (retest_plan_design_once(&own->pl, &own->d, &own->designed,
				    &f->why)) {
		f->loaded = -1;
		return -1;
	}
	return result_ctx(f, own, cfg, verdict, c, err);
}

static int retest_ended(const struct kind_fu *f, const struct config *cfg,
			struct ctx *c, struct pb_err *err)
{
	(void)cfg;
	(void)err;
	expired_ctx(c, f->row, &f->in);
	return 0;
}

/*
 * The look of the request 'f->row' asked of the farm: 'adds' more runs
 * a side under its id, 'queued' when the farm took them; 1 when it
 * refused or is away.
 */
static int ask_look(struct state *st, const struct config *cfg,
		    struct kind_fu *f, long adds, time_t now,
		    struct pb_err *err)
{
	const struct request *row = f->row;
	enum sched_outcome out = SCHED_ACCEPTED;
	struct sched_request rq;
	char why[256] = "";
	int s;

	for (s = BASE; s <= HEAD && out == SCHED_ACCEPTED; s++) {
		retest_side_request(&rq, row->request_id, &f->in,
			     s == BASE ? &f->m.base : &f->m.head, s, (int)adds,
			     f->a.r.message_id);
		if (scheduler_submit(cfg, &rq, &out, why, sizeof(why), err)) {
			snprintf(why, sizeof(why), "%.200s", err->msg);
			pb_err_clear(err);
			out = SCHED_REJECTED;
		}
	}
	if (out == SCHED_ACCEPTED)
		return state_request_set(st, row->request_id, "queued", NULL,
					 NULL, now, err);
	log_warn("retest '%s' of '%s': the next look was not taken: %s",
		 row->request_id, row->report_id, why);
	return 1;
}

/*
 * Undecided: the next look, own->more runs a side in all, recorded
 * 'asking' under its own request id, then asked of the farm (a run
 * killed between the two leaves it 'asking': retest_resume() asks it
 * again). 1 when it refused or is away (the retest is answered as it
 * stands).
 */
static int next_look(struct state *st, const struct config *cfg,
		     struct kind_fu *f, time_t now, struct pb_err *err)
{
	struct retest_own *own = f->own;
	struct request *row = (struct request *)f->row;
	struct strbuf id = STRBUF_INIT;

	if (sb_addf(&id, "%s-%ld", own->pl.id, own->more))
		return pb_fail(err, EX_OSERR, "out of memory");
	if (state_request_look(st, row->request_id, sb_str(&id), own->more,
			       now + cfg->scheduler.deadline, err)) {
		sb_release(&id);
		return -1;
	}
	free(row->request_id);
	row->request_id = sb_detach(&id, NULL);
	log_info("retest '%s' of '%s': undecided at %ld new runs a side, "
		 "asking for %ld in all", own->pl.id, row->report_id, row->runs,
		 own->more);
	row->runs = own->more;
	return ask_look(st, cfg, f, retest_look_adds(&own->d, own->more), now,
			err);
}

/*
 * A look recorded but not asked (a run killed between the two): asked
 * again, the runs it adds by the design; the farm keys it by its id. A
 * look the farm refuses now stays to its deadline.
 */
static int retest_resume(struct state *st, const struct config *cfg,
			 struct kind_fu *f, time_t now, struct pb_err *err)
{
	struct retest_own *own = f->own;

	if (!own)
		return 0;
	if (retest_plan_design_once(&own->pl, &own->d, &own->designed,
				    &f->why)) {
		log_warn("retest '%s' of '%s': %s", f->row->request_id,
			 f->row->report_id, f->why.msg);
		return 0;	/* stays to its deadline */
	}
	log_info("retest '%s' of '%s': asking the farm again for its look "
		 "of %ld runs a side", f->row->request_id, f->row->report_id,
		 f->row->runs);
	return ask_look(st, cfg, f, retest_look_adds(&own->d, f->row->runs),
			now, err) < 0 ? -1 : 0;
}

/* In order, with the state: the next look, or the answer and the end. */
static int retest_answer(struct state *st, const struct config *cfg,
			 struct kind_fu *f, const char *tmpl, struct ctx *c,
			 const char *status, const char *detail, time_t now,
			 struct pb_err *err)
{
	struct retest_own *own = f->own;
	int rc;

	if (f->end == KIND_LANDED && own && own->more) {
		rc = next_look(st, cfg, f, now, err);
		if (rc <= 0) {
			if (!rc)	/* waiting for the next look's runs */
				f->end = KIND_WAITING;
			ctx_release(c);
			return rc;
		}
	}
	/* the new runs' noise, learned for later designs, with the answer */
	rc = f->end == KIND_LANDED && own ?
		learned_keep(st, f->in.job.testcase, f->in.job.tbox_group,
			     own->metric, own->cv, own->df, now, err) : 0;
	if (!rc)
		rc = followup_answer(st, cfg, &f->a, f->row->request_id, tmpl,
				     c, followup_request_end, status, detail,
				     now, err);
	else
		ctx_release(c);
	if (!rc && f->end == KIND_LANDED)
		log_info("retest '%s' of '%s': %s", f->row->request_id,
			 f->row->report_id, f->verdict);
	return rc;
}

static void retest_release(struct kind_fu *f)
{
	struct retest_own *own = f->own;

	if (own)
		retest_plan_release(&own->pl);
	free(f->own);
	f->own = NULL;
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
	.also = 1,
	.phase = KIND_AT_FOLLOWUP,
	.tmpl = { .ack = "retest-ack", .rejected = "retest-rejected",
		  .result = "retest-result", .expired = "retest-expired" },
	.stats_name = "retests", .stats_fields = "dxw",
	.limits = retest_limits,
	.start = retest_start,
	.verdict = retest_verdict,
	.ended = retest_ended,
	.answer = retest_answer,
	.resume = retest_resume,
	.release = retest_release,
};
