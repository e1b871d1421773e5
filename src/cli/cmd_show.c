// SPDX-License-Identifier: GPL-2.0-only
/*
 * 'perfbot show REPORT': one report's life, read only: its record and
 * every transition of it, the mails read in its thread with their
 * commands and outcomes, the answers sent, its retests, its confirmation
 * and the run on its landed fix; as text or JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "perfbot/cli/cli.h"
#include "perfbot/cli/clicommon.h"
#include "perfbot/compose/identity.h"
#include "perfbot/state/archive.h"
#include "perfbot/state/bisections.h"
#include "perfbot/state/noise.h"
#include "perfbot/state/records.h"
#include "perfbot/state/requests.h"
#include "perfbot/state/state.h"
#include "perfbot/state/status.h"
#include "perfbot/util/log.h"
#include "perfbot/util/text.h"

#include "showbisect.h"

struct cli_show_opts {
	int json;
	const char *config;
	int quiet, verbose;
};

static const struct cli_opt show_opts[] = {
	CLI_OPT_FLAG("json", struct cli_show_opts, json,
		     "print it as one JSON object (times in Unix seconds)"),
	CLI_OPT_CONFIG(struct cli_show_opts),
	CLI_OPT_QUIET(struct cli_show_opts),
	CLI_OPT_VERBOSE(struct cli_show_opts),
	CLI_OPT_END,
};

const struct cli_spec show_spec = {
	"show", "REPORT", 1, 1,
	"one report's life: its record, history, thread and runs",
	"REPORT is the report's id or its Message-ID (with or without <>). "
	"Reads the state (never writes it): the report's status (open, fix "
	"named, fix landed, fixed, not fixed, invalid, duplicate) and what it "
	"rests on, every transition with who or what made it and when, the "
	"mails read in its thread with their commands and what was done, the "
	"answers sent, and every run asked of the farm for it (retests, "
	"tests, its confirmation, the run on its landed fix), finished ones "
	"too, with their status (asking, queued, done, failed, expired, "
	"rejected, dropped) and verdict.",
	show_opts, sizeof(struct cli_show_opts),
};

/* Everything 'show' prints, read from the state. */
struct life {
	struct record r;
	struct record_event *ev;
	size_t nev;
	struct archive_thread t;
	struct request *rq;	/* every request of every kind */
	size_t nrq;
	struct state_noise *noise;	/* learned: the headline's cells */
	size_t nnoise;
	char *link;
	struct bisection_row *bs;	/* its bisections (issue 33) */
	size_t nbs;
};

static void life_release(struct life *l)
{
	record_release(&l->r);
	record_events_free(l->ev, l->nev);
	archive_thread_release(&l->t);
	request_rows_free(l->rq, l->nrq);
	bisection_rows_free(l->bs, l->nbs);
	state_noise_free(l->noise, l->nnoise);
	free(l->link);
	memset(l, 0, sizeof(*l));
}

/* The noise learned for the report's headline metric (state/noise.h). */
static int noise_load(struct state *st, struct life *l, struct pb_err *err)
{
	size_t i, k = 0;

	if (state_noise_all(st, NULL, NULL, NULL, &l->noise, &l->nnoise, NULL,
			    err))
		return -1;
	for (i = 0; i < l->nnoise; i++) {
		struct state_noise c = l->noise[i];

		if (l->r.metric && !strcmp(c.metric, l->r.metric)) {
			l->noise[i] = l->noise[k];
			l->noise[k++] = c;
		}
	}
	for (i = k; i < l->nnoise; i++) {
		free(l->noise[i].testcase);
		free(l->noise[i].machine);
		free(l->noise[i].metric);
	}
	l->nnoise = k;
	return 0;
}

/*
 * A report known only by its requests (held for confirmation and never
 * mailed): its id, no record, "not mailed".
 */
static int unmailed(struct record *r, const char *id, struct pb_err *err)
{
	r->report_id = strdup(id);
	r->status = strdup("not mailed");
	r->mail_status = strdup("never mailed");
	r->regression = -1;
	if (r->report_id && r->status && r->mail_status)
		return 0;
	return pb_fail(err, EX_OSERR, "out of memory");
}

static int life_load(struct state *st, const struct config *cfg,
		     const char *key, struct life *l, struct pb_err *err)
{
	char *id = NULL;
	int found = 0, rc;

	memset(l, 0, sizeof(*l));
	if (state_record_find(st, key, &id, err))
		return -1;
	if (!id)
		return pb_fail(err, EX_NOINPUT, "show: '%s': no such report "
			       "(give its id or Message-ID, as 'perfbot "
			       "status' shows them)", key);
	rc = state_record_get(st, id, &l->r, &found, err) ||
	     (!found && unmailed(&l->r, id, err)) ||
	     state_record_events(st, id, &l->ev, &l->nev, err) ||
	     state_archive_thread(st, id, &l->t, &found, err) ||
	     state_requests_of(st, id, NULL, &l->rq, &l->nrq, err) ||
	     state_bisections(st, id, 0, &l->bs, &l->nbs, err) ||
	     noise_load(st, l, err);
	free(id);
	if (!rc)
		l->link = identity_closes_url(cfg, l->r.report_id,
					      l->r.message_id);
	return rc ? -1 : 0;
}

/* ---- JSON ---- */

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *time_or_null(time_t t)
{
	return t ? json_integer((json_int_t)t) : json_null();
}

static json_t *record_json(const struct life *l)
{
	const struct record *r = &l->r;

	return json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o,"
			 " s:o, s:o, s:b, s:I}", "status", r->status,
			 "metric", str_or_null(r->metric), "change",
			 r->metric ? json_real(r->change) : json_null(),
			 "regression", r->regression < 0 ? json_null() :
			 json_boolean(r->regression), "fix_named",
			 str_or_null(r->fix_named), "fix_commit",
			 str_or_null(r->fix_commit), "fix_summary",
			 str_or_null(r->fix_summary), "fix_branch",
			 str_or_null(r->fix_branch), "fix_date",
			 time_or_null(r->fix_date), "dup_of",
			 str_or_null(r->dup_of), "reason",
			 str_or_null(r->reason), "verdict",
			 str_or_null(r->verdict), "no_reminders",
			 r->no_reminders, "changed", (json_int_t)r->changed);
}

static json_t *history_json(const struct life *l)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < l->nev; i++) {
		const struct record_event *e = &l->ev[i];

		if (json_array_append_new(a, json_pack(
			"{s:I, s:s, s:s, s:s, s:o, s:o, s:o}", "at",
			(json_int_t)e->at, "event", e->event, "from", e->from,
			"to", e->to, "by", str_or_null(e->by), "detail",
			str_or_null(e->detail), "source",
			str_or_null(e->source)))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *thread_json(const struct life *l)
{
	json_t *a = json_array(), *cmds;
	size_t i;

	for (i = 0; a && i < l->t.nreplies; i++) {
		const struct archive_reply *m = &l->t.replies[i];

		cmds = m->commands ? json_loads(m->commands, 0, NULL) : NULL;
		if (json_array_append_new(a, json_pack(
			"{s:I, s:s, s:o, s:s, s:o}", "received",
			(json_int_t)m->received, "message_id",
			m->message_id ? m->message_id : "", "sender",
			str_or_null(m->sender), "outcome",
			m->outcome ? m->outcome : "", "commands",
			cmds ? cmds : json_array()))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *answers_json(const struct life *l)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < l->t.nanswers; i++) {
		const struct archive_mail *m = &l->t.answers[i];

		if (json_array_append_new(a, json_pack(
			"{s:s, s:s, s:s, s:I, s:o}", "id", m->id ? m->id : "",
			"message_id", m->message_id ? m->message_id : "",
			"status", m->status ? m->status : "", "created",
			(json_int_t)m->created, "sent_at",
			time_or_null(m->sent_at)))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* Every request, whatever its kind, in one shape. */
static json_t *requests_json(const struct life *l)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < l->nrq; i++) {
		const struct request *r = &l->rq[i];

		if (json_array_append_new(a, json_pack(
			"{s:s, s:s, s:s, s:o, s:o, s:I, s:o, s:o, s:o, s:o, "
			"s:o, s:I, s:o}", "request_id", r->request_id,
			"kind", r->kind, "status", r->status, "verdict",
			str_or_null(r->verdict), "detail",
			str_or_null(r->detail), "runs", (json_int_t)r->runs,
			"requested_by", str_or_null(r->requested_by), "form",
			str_or_null(r->form), "commit", str_or_null(r->commit),
			"repo", str_or_null(r->repo), "ref",
			str_or_null(r->ref), "created", (json_int_t)r->created,
			"decided", time_or_null(r->decided)))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *noise_json(const struct life *l)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < l->nnoise; i++)
		if (json_array_append_new(a, json_pack(
			"{s:s, s:s, s:s, s:f, s:I}", "testcase",
			l->noise[i].testcase, "machine", l->noise[i].machine,
			"metric", l->noise[i].metric, "cv", l->noise[i].cv,
			"df", (json_int_t)l->noise[i].df))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static json_t *life_json(const struct life *l)
{
	const struct record *r = &l->r;

	return json_pack("{s:{s:s, s:o, s:o, s:o, s:I, s:o, s:o}, s:o, s:o, "
			 "s:o, s:o, s:o, s:o}", "report", "id", r->report_id,
			 "message_id", str_or_null(r->message_id), "subject",
			 str_or_null(r->subject), "mail_status",
			 str_or_null(r->mail_status), "created",
			 (json_int_t)r->mailed, "sent_at",
			 time_or_null(l->t.report.sent_at), "link",
			 str_or_null(l->link), "record", record_json(l),
			 "history", history_json(l), "thread", thread_json(l),
			 "answers", answers_json(l), "requests",
			 requests_json(l), "noise", noise_json(l));
}

/* ---- text ---- */

/* 's' on one line, its control characters never reaching the terminal. */
static void put(const char *s)
{
	char *c = strdup(s ? s : "");

	if (!c)
		return;
	text_scrub_line(c);
	fputs(c, stdout);
	free(c);
}

static void when(time_t t, time_t now)
{
	char buf[96];

	if (!t) {
		fputs("never", stdout);
		return;
	}
	status_when(t, now, buf, sizeof(buf));
	fputs(buf, stdout);
}

static void print_record(const struct life *l, time_t now)
{
	const struct record *r = &l->r;

	fputs("report: ", stdout);
	put(r->report_id);
	fputs(" <", stdout);
	put(r->message_id);
	fputs(">\n  subject: ", stdout);
	put(r->subject);
	fputs("\n  mailed: ", stdout);
	when(r->mailed, now);
	printf(" (%s)\n", r->mail_status ? r->mail_status : "?");
	if (r->metric) {
		fputs("  headline: ", stdout);
		put(r->metric);
		printf(" %+.1f%%%s\n", r->change, r->regression == 0 ?
		       " (an improvement)" : "");
	}
	if (l->link) {
		fputs("  link: ", stdout);
		put(l->link);
		putchar('\n');
	}
	printf("status: %s, since ", r->status);
	when(r->changed, now);
	putchar('\n');
	if (r->fix_named) {
		fputs("  fix named: ", stdout);
		put(r->fix_named);
		putchar('\n');
	}
	if (r->fix_commit) {
		printf("  fix landed: %.40s (\"", r->fix_commit);
		put(r->fix_summary);
		fputs("\") on ", stdout);
		put(r->fix_branch);
		fputs(", committed ", stdout);
		when(r->fix_date, now);
		putchar('\n');
	}
	if (r->verdict)
		printf("  verified: %s\n", r->verdict);
	if (r->dup_of) {
		fputs("  duplicate of: ", stdout);
		put(r->dup_of);
		putchar('\n');
	}
	if (r->reason) {
		fputs("  invalid: ", stdout);
		put(r->reason);
		putchar('\n');
	}
	printf("  reminders: %s\n", r->no_reminders ? "no" : "yes");
}

static void print_history(const struct life *l, time_t now)
{
	size_t i;

	printf("history: %zu\n", l->nev);
	for (i = 0; i < l->nev; i++) {
		const struct record_event *e = &l->ev[i];

		fputs("  ", stdout);
		when(e->at, now);
		printf(": %s -> %s: ", e->from, e->to);
		put(e->event);
		if (e->detail) {
			fputs(" ", stdout);
			put(e->detail);
		}
		fputs(", by ", stdout);
		put(e->by);
		if (e->source) {
			fputs(" (", stdout);
			put(e->source);
			putchar(')');
		}
		putchar('\n');
	}
}

static void print_thread(const struct life *l, time_t now)
{
	size_t i;

	printf("thread: %zu\n", l->t.nreplies);
	for (i = 0; i < l->t.nreplies; i++) {
		const struct archive_reply *m = &l->t.replies[i];

		fputs("  ", stdout);
		when(m->received, now);
		fputs(" from ", stdout);
		put(m->sender ? m->sender : "?");
		fputs(": ", stdout);
		put(m->outcome);
		if (m->commands) {
			fputs(": ", stdout);
			put(m->commands);
		}
		putchar('\n');
	}
	printf("answers: %zu\n", l->t.nanswers);
	for (i = 0; i < l->t.nanswers; i++) {
		const struct archive_mail *m = &l->t.answers[i];

		fputs("  ", stdout);
		when(m->created, now);
		fputs(" <", stdout);
		put(m->message_id);
		printf(">: %s\n", m->status ? m->status : "?");
	}
}

/*
 * "  2026-12-01 09:00:00 UTC (3 h ago): retest rt-..., 4x, done: stable,
 * asked by dev@...": every request, of every kind, oldest first.
 */
static void print_runs(const struct life *l, time_t now)
{
	size_t i;

	printf("requests: %zu\n", l->nrq);
	for (i = 0; i < l->nrq; i++) {
		const struct request *r = &l->rq[i];

		fputs("  ", stdout);
		when(r->created, now);
		fputs(": ", stdout);
		put(r->kind);
		fputc(' ', stdout);
		put(r->request_id);
		if (r->commit && *r->commit)
			printf(" (%.12s)", r->commit);
		printf(", %ldx, ", r->runs);
		put(r->status);
		if (r->verdict) {
			fputs(": ", stdout);
			put(r->verdict);
		}
		if (r->detail && (!r->verdict || strcmp(r->detail,
							  r->verdict))) {
			fputs(r->verdict ? " (" : ": ", stdout);
			put(r->detail);
			fputs(r->verdict ? ")" : "", stdout);
		}
		if (r->requested_by) {
			fputs(", asked by ", stdout);
			put(r->requested_by);
		}
		putchar('\n');
	}
}

/* The noise learned for the headline: what a retest's design assumes. */
static void print_noise(const struct life *l)
{
	size_t i;

	if (!l->r.metric)
		return;
	fputs("noise of ", stdout);
	put(l->r.metric);
	fputs(l->nnoise ? ":\n" : ": none learned yet\n", stdout);
	for (i = 0; i < l->nnoise; i++) {
		fputs("  ", stdout);
		put(l->noise[i].testcase);
		fputs(" on ", stdout);
		put(l->noise[i].machine);
		printf(": CV %.2f%% on %ld degrees of freedom\n",
		       100 * l->noise[i].cv, l->noise[i].df);
	}
}

static int print(const struct life *l, int json, time_t now,
		 struct pb_err *err)
{
	json_t *o;
	int rc;

	if (!json) {
		print_record(l, now);
		print_history(l, now);
		print_thread(l, now);
		print_runs(l, now);
		print_noise(l);
		show_bisections_print(l->bs, l->nbs);
		return fflush(stdout) ? pb_fail(err, EX_IOERR, "stdout: write "
						"failed") : 0;
	}
	o = life_json(l);
	if (!o || json_object_set_new(o, "bisections",
				      show_bisections_json(l->bs, l->nbs,
							   SHOW_TOP_JSON))) {
		json_decref(o);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	rc = json_dumpf(o, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
	fputc('\n', stdout);
	json_decref(o);
	return rc || fflush(stdout) ? pb_fail(err, EX_IOERR, "stdout: write "
					      "failed") : 0;
}

int cmd_show(int argc, char **argv)
{
	struct pb_err err = { 0, "" };
	struct state *st = NULL;
	struct cli_show_opts o;
	struct cli_args a;
	struct config cfg;
	struct life l;
	char *path = NULL;
	int rc = cli_parse(&show_spec, argc, argv, &o, &a);

	if (rc)
		return rc > 0 ? 0 : EX_USAGE;
	cli_apply_log(o.quiet, o.verbose, 0);
	memset(&l, 0, sizeof(l));
	if (cli_load_config(&cfg, o.config, 1, &err) ||
	    cli_state_secret(&cfg, &err))
		return cli_fail(&err);
	path = cli_state_path(&cfg);
	if (!path)
		rc = pb_fail(&err, EX_CONFIG, "state: not set, and no $HOME "
			     "for the default place");
	else if (state_missing(path))
		rc = pb_fail(&err, EX_NOINPUT, "%s: not created yet: nothing "
			     "has run", path);
	else
		rc = state_open(&st, path, STATE_READ, &err) ||
		     life_load(st, &cfg, a.arg[0], &l, &err) ||
		     print(&l, o.json, cli_now(), &err);
	life_release(&l);
	state_close(st);
	free(path);
	config_release(&cfg);
	return rc ? cli_fail(&err) : 0;
}
