// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfbot/cli.h"
#include "perfbot/clicommon.h"
#include "perfbot/fileio.h"
#include "perfbot/log.h"
#include "perfbot/mail.h"
#include "perfbot/manifest.h"
#include "perfbot/outbox.h"
#include "perfbot/poll.h"
#include "perfbot/report.h"
#include "perfbot/reportmail.h"
#include "perfbot/retest.h"
#include "perfbot/sources.h"
#include "perfbot/state.h"

#define DEFAULT_STATE "var/perfbot.db"

struct run_opts {
	int dry_run;
	int quiet;
	const char *config;
};

struct cycle {
	struct config cfg;
	struct state st;
	int have_state;
	int dry_run;
	time_t now;
	struct strbuf mbox;	/* --dry-run output */
	const char *cmd;	/* "run" or "send", for the summary */
	long queued, skipped, bad;
	int poll_failed;
};

static int parse(int argc, char **argv, struct run_opts *o)
{
	static const struct option longopts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "config", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == 'n')
			o->dry_run = 1;
		else if (c == 'q')
			o->quiet = 1;
		else if (c == 'c')
			o->config = optarg;
		else
			return -1;
	}
	return optind == argc ? 0 : -1;
}

/* mkdir -p of the state file's directory. */
static int make_parent(const char *path, struct pb_err *err)
{
	char *dir = path_dirname(path), *p;
	int rc = 0;

	if (!dir)
		return pb_fail(err, EX_OSERR, "out of memory");
	for (p = dir + 1; *p && !rc; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) && errno != EEXIST)
			rc = -1;
		*p = '/';
	}
	if (!rc && mkdir(dir, 0700) && errno != EEXIST)
		rc = -1;
	if (rc)
		pb_fail(err, EX_CANTCREAT, "%s: %s", dir, strerror(errno));
	free(dir);
	return rc;
}

/*
 * The state: created and locked for a real cycle; for --dry-run only
 * read, and only when it exists.
 */
static int open_state(struct cycle *cy, struct pb_err *err)
{
	const char *path = cfg_str(&cy->cfg, "state", DEFAULT_STATE);

	if (cy->dry_run) {
		if (access(path, F_OK))
			return 0;
		if (state_open(&cy->st, path, STATE_READ, err))
			return -1;
		cy->have_state = 1;
		return 0;
	}
	if (make_parent(path, err) ||
	    state_open(&cy->st, path, STATE_LOCKED, err))
		return -1;
	cy->have_state = 1;
	return state_lock(&cy->st, err);
}

static int seen(struct cycle *cy, const char *id, struct pb_err *err)
{
	return cy->have_state ? state_seen(&cy->st, id, err) : 0;
}

/* Queue a report's mail, or print it for --dry-run. */
static int queue_report(struct cycle *cy, const struct report *r,
			const struct manifest_text *mt, struct pb_err *err)
{
	struct strbuf msg = STRBUF_INIT;
	struct outbox_mail m = { 0 };
	char *sender = NULL, *rcpts = NULL;
	int rc = report_mail(r, &cy->cfg, &msg, &sender, &rcpts, err);

	if (!rc && cy->dry_run) {
		rc = mbox_append(&cy->mbox, sender, r->date, sb_str(&msg),
				 msg.len);
	} else if (!rc) {
		m.id = r->id;
		m.kind = "report";
		m.message_id = r->message_id;
		m.sender = sender;
		m.recipients = rcpts;
		m.message = msg.buf;
		m.len = msg.len;
		rc = state_queue_report(&cy->st, &m, mt->name, mt->text,
					mt->dir, r->subject, cy->now, err);
		if (!rc)
			log_info("queued report '%s': %s", r->id, r->subject);
	}
	cy->queued += !rc;
	free(sender);
	free(rcpts);
	sb_release(&msg);
	return rc;
}

static int judge_manifest(struct cycle *cy, const struct manifest *m,
			  const struct manifest_text *mt, struct pb_err *err)
{
	const char *name = mt->name;
	struct report_opts ro = { NULL, cy->now };
	struct report r;
	int rc, s;

	if (report_build(&r, m, &cy->cfg, &ro, err))
		return 1;	/* bad input: reported, the run goes on */
	s = r.id ? seen(cy, r.id, err) : 0;
	if (s < 0)
		rc = -1;
	else if (s > 0)
		rc = 0;
	else if (!r.worth && !cy->dry_run)
		rc = state_skip(&cy->st, r.id ? r.id : name, name,
				"no change passes the noise filter", cy->now,
				err);
	else
		rc = r.worth ? queue_report(cy, &r, mt, err) : 0;
	cy->skipped += s == 0 && !r.worth;
	report_release(&r);
	return rc;
}

/* 0 done, 1 bad input (reported), -1 state trouble (stop). */
static int one_manifest(struct cycle *cy, const struct manifest_text *mt)
{
	struct pb_err err = { 0, "" };
	struct manifest m;
	int rc, s;

	if (manifest_parse(&m, mt->name, mt->dir, mt->text, mt->len, &err)) {
		log_error("%s", err.msg);
		cy->bad++;
		return 1;
	}
	if (mt->remote && manifest_check_remote(&m, &err)) {
		log_error("%s", err.msg);
		manifest_release(&m);
		cy->bad++;
		return 1;
	}
	s = m.id ? seen(cy, m.id, &err) : 0;
	rc = s < 0 ? -1 : s > 0 ? 0 : judge_manifest(cy, &m, mt, &err);
	if (rc) {
		log_error("%s", err.msg);
		cy->bad += rc > 0;
	}
	manifest_release(&m);
	return rc;
}

static int ingest(struct cycle *cy, struct pb_err *err)
{
	struct source_batch b;
	size_t i;
	int rc = 0;

	if (sources_collect(&cy->cfg, cy->have_state ? &cy->st : NULL,
			    !cy->dry_run, &b, err))
		return -1;
	cy->bad += b.errors;
	for (i = 0; i < b.n && rc >= 0; i++)
		rc = one_manifest(cy, &b.m[i]);
	sources_release(&b);
	return rc < 0 ? pb_fail(err, EX_IOERR, "run: stopped: the state "
				"could not be written") : 0;
}

/* --dry-run: what is already queued would go out too. */
static int print_queued(struct cycle *cy, struct pb_err *err)
{
	struct outbox_mail *q = NULL;
	size_t i, n = 0;
	int rc = 0;

	if (cy->have_state && state_queued(&cy->st, &q, &n, err))
		return -1;
	for (i = 0; i < n && !rc; i++)
		rc = mbox_append(&cy->mbox, q[i].sender, cy->now, q[i].message,
				 q[i].len);
	outbox_free(q, n);
	if (!rc && fwrite(sb_str(&cy->mbox), 1, cy->mbox.len, stdout) !=
	    cy->mbox.len)
		rc = pb_fail(err, EX_IOERR, "stdout: write failed");
	return rc;
}

static int deliver(struct cycle *cy, struct send_stats *ss,
		   struct pb_err *err)
{
	long queued = 0, failed = 0;
	int rc = outbox_deliver(&cy->st, &cy->cfg, cy->now, 1, ss, err);

	if (state_counts(&cy->st, &queued, &failed, NULL) == 0)
		log_error("%s: %ld sent, %ld queued, %ld failed", cy->cmd,
			  ss->sent, queued, ss->failed);
	return rc;
}

/* Read the replies; a mail server that is away only delays them. */
static int poll_step(struct cycle *cy, struct pb_err *err)
{
	struct poll_stats ps;

	if (!cfg_str(&cy->cfg, "imap.url", NULL))
		return 0;
	/* a poll that fails still lets the queued mail go out */
	if (poll_mailbox(&cy->st, &cy->cfg, cy->now, &ps, err)) {
		log_error("%s", err->msg);
		cy->poll_failed = err->code ? err->code : EX_SOFTWARE;
		pb_err_clear(err);
	}
	if (ps.failed && !cy->poll_failed)
		cy->poll_failed = ps.fail_code;
	log_info("poll: %ld fetched, %ld answered, %ld refused, %ld ignored, "
		 "%ld failed", ps.fetched, ps.answered, ps.refused, ps.ignored,
		 ps.failed);
	return 0;
}

/* Retests whose runs have landed get their follow-up. */
static int followup_step(struct cycle *cy, struct pb_err *err)
{
	struct retest_stats rs;

	if (retest_followups(&cy->st, &cy->cfg, cy->now, &rs, err))
		return -1;
	if (rs.done || rs.expired || rs.waiting)
		log_info("retests: %ld answered, %ld expired, %ld waiting",
			 rs.done, rs.expired, rs.waiting);
	return 0;
}

static int cycle_start(struct cycle *cy, const char *cmd,
		       const struct run_opts *o, struct pb_err *err)
{
	memset(cy, 0, sizeof(*cy));
	cy->cmd = cmd;
	cy->dry_run = o->dry_run;
	cy->now = cli_now();
	sb_init(&cy->mbox, 0);
	log_set_level(o->quiet ? LOG_WARN : LOG_INFO);
	if (cli_load_config(&cy->cfg, o->config, err))
		return -1;
	return open_state(cy, err);
}

static void cycle_end(struct cycle *cy)
{
	if (cy->have_state)
		state_close(&cy->st);
	config_release(&cy->cfg);
	sb_release(&cy->mbox);
}

static int exit_code(const struct cycle *cy, const struct send_stats *ss)
{
	if (cy->bad)
		return EX_DATAERR;
	if (cy->poll_failed)
		return cy->poll_failed;
	return ss->deferred ? EX_TEMPFAIL : 0;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o = { 0, 0, NULL };
	struct send_stats ss = { 0, 0, 0 };
	struct pb_err err = { 0, "" };
	struct cycle cy;
	int rc;

	if (cli_wants_help(argc, argv, "run"))
		return 0;
	if (parse(argc, argv, &o))
		return cli_usage("run");
	rc = cycle_start(&cy, "run", &o, &err) || ingest(&cy, &err);
	if (!rc && cy.dry_run)
		rc = print_queued(&cy, &err);
	else if (!rc)
		rc = poll_step(&cy, &err) || followup_step(&cy, &err) ||
		     deliver(&cy, &ss, &err);
	if (!rc)
		rc = exit_code(&cy, &ss);
	else
		rc = cli_fail(&err);
	cycle_end(&cy);
	return rc;
}

int cmd_send(int argc, char **argv)
{
	struct run_opts o = { 0, 0, NULL };
	struct send_stats ss = { 0, 0, 0 };
	struct pb_err err = { 0, "" };
	struct cycle cy;
	int rc;

	if (cli_wants_help(argc, argv, "send"))
		return 0;
	if (parse(argc, argv, &o) || o.dry_run)
		return cli_usage("send");
	rc = cycle_start(&cy, "send", &o, &err) || deliver(&cy, &ss, &err);
	rc = rc ? cli_fail(&err) : exit_code(&cy, &ss);
	cycle_end(&cy);
	return rc;
}

int cmd_poll(int argc, char **argv)
{
	struct run_opts o = { 0, 0, NULL };
	struct send_stats ss = { 0, 0, 0 };
	struct pb_err err = { 0, "" };
	struct cycle cy;
	int rc;

	if (cli_wants_help(argc, argv, "poll"))
		return 0;
	if (parse(argc, argv, &o) || o.dry_run)
		return cli_usage("poll");
	rc = cycle_start(&cy, "poll", &o, &err);
	if (!rc && !cfg_str(&cy.cfg, "imap.url", NULL))
		rc = pb_fail(&err, EX_CONFIG, "imap.url: not configured");
	if (!rc)
		rc = poll_step(&cy, &err) || deliver(&cy, &ss, &err);
	rc = rc ? cli_fail(&err) : exit_code(&cy, &ss);
	cycle_end(&cy);
	return rc;
}

int cmd_retest(int argc, char **argv)
{
	struct run_opts o = { 0, 0, NULL };
	struct send_stats ss = { 0, 0, 0 };
	struct pb_err err = { 0, "" };
	struct cycle cy;
	int rc;

	if (cli_wants_help(argc, argv, "retest"))
		return 0;
	if (parse(argc, argv, &o) || o.dry_run)
		return cli_usage("retest");
	rc = cycle_start(&cy, "retest", &o, &err) ||
	     followup_step(&cy, &err) || deliver(&cy, &ss, &err);
	rc = rc ? cli_fail(&err) : exit_code(&cy, &ss);
	cycle_end(&cy);
	return rc;
}
