// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfbot/cli.h"
#include "perfbot/clicommon.h"
#include "perfbot/confirm.h"
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
#include "perfbot/status.h"

struct cycle {
	struct config cfg;
	struct state st;
	int have_state;
	int dry_run;
	time_t now;
	struct strbuf mbox;	/* --dry-run output */
	struct confirm_config confirm;
	const char *cmd;	/* "run" or "send", for the summary */
	long queued, skipped, bad;
	int poll_failed;
};

#define CYCLE_DETAILS \
	"Needs a configuration file (--config FILE, $PERFBOT_CONFIG, " \
	"$XDG_CONFIG_HOME/perfbot/perfbot.yaml or /etc/perfbot/perfbot.yaml)" \
	"; exits 78 naming the places looked in when there is none. " \
	"Logs go to stderr, time-stamped when it is not a terminal; " \
	"--quiet prints nothing unless a mail failed or was deferred, or an " \
	"error happened."

static const struct cli_opt run_opts[] = {
	{ "dry-run", NULL, "send nothing, change no state: print every mail "
	  "that would go out as an mbox" },
	CLI_OPT_CONFIG,
	CLI_OPT_QUIET,
	CLI_OPT_VERBOSE,
	{ NULL, NULL, NULL },
};

static const struct cli_opt send_opts[] = {
	{ "now", NULL, "try every queued mail now, ignoring its backoff once" },
	CLI_OPT_CONFIG,
	CLI_OPT_QUIET,
	CLI_OPT_VERBOSE,
	{ NULL, NULL, NULL },
};

static const struct cli_opt plain_opts[] = {
	CLI_OPT_CONFIG,
	CLI_OPT_QUIET,
	CLI_OPT_VERBOSE,
	{ NULL, NULL, NULL },
};

const struct cli_spec run_spec = {
	"run", "", 0, 0,
	"one cron cycle: ingest, queue and send reports, read replies",
	"Ingests the new manifests of every source, queues the reports worth "
	"a mail, reads the replies and answers them, follows up finished "
	"retests and sends what is due.\n" CYCLE_DETAILS,
	run_opts,
};

const struct cli_spec send_spec = {
	"send", "", 0, 0, "send what is queued",
	"Sends every queued mail whose next attempt is due (--now: all of "
	"them).\n" CYCLE_DETAILS,
	send_opts,
};

const struct cli_spec poll_spec = {
	"poll", "", 0, 0,
	"read replies by IMAP, answer commands, send the answers",
	CYCLE_DETAILS, plain_opts,
};

const struct cli_spec retest_spec = {
	"retest", "", 0, 0,
	"answer the retests whose runs have landed, send the answers",
	CYCLE_DETAILS, plain_opts,
};

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
	char *path = cli_state_path(&cy->cfg);
	int rc = -1;

	if (!path)
		return pb_fail(err, EX_CONFIG, "state: not set, and no $HOME "
			       "for the default place");
	log_debug("state '%s'", path);
	if (cy->dry_run) {
		rc = 0;
		if (access(path, F_OK) == 0) {
			rc = state_open(&cy->st, path, STATE_READ, err);
			cy->have_state = !rc;
		}
	} else if (!make_parent(path, err) &&
		   !state_open(&cy->st, path, STATE_LOCKED, err)) {
		cy->have_state = 1;	/* locked before SQLite opened it */
		rc = state_lock(&cy->st, err);
	}
	free(path);
	return rc;
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
	struct report_opts ro = { NULL, cy->now, NULL, NULL };
	struct report r;
	int rc = 0, s;

	if (report_build(&r, m, &cy->cfg, &ro, err))
		return 1;	/* bad input: reported, the run goes on */
	s = r.id ? seen(cy, r.id, err) : 0;
	if (s < 0)
		rc = -1;
	else if (s > 0)
		rc = 0;
	else if (confirm_wanted(&cy->confirm, &r) && cy->dry_run)
		log_info("report '%s' would be held for confirmation runs",
			 r.id);
	else if (confirm_wanted(&cy->confirm, &r))
		rc = confirm_hold(&cy->st, &cy->confirm, &r, mt, cy->now, err);
	else if (!r.worth && !cy->dry_run)
		rc = state_skip(&cy->st, r.id ? r.id : name, name,
				"no change passes the noise filter", cy->now,
				err);
	else
		rc = r.worth ? queue_report(cy, &r, mt, err) : 0;
	cy->skipped += s == 0 && !r.worth && !confirm_wanted(&cy->confirm, &r);
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

/* Why queued mail did not go: the next attempt and the last error. */
static void tell_waiting(struct cycle *cy, long queued)
{
	struct status_next nx;
	char when[64];

	if (!queued || state_next_attempt(&cy->st, &nx, NULL))
		return;
	if (nx.when > cy->now) {
		status_when(nx.when, cy->now, when, sizeof(when));
		log_info("%s: %ld mail%s waiting; next attempt %s%s%s "
			 "('perfbot send --now' tries at once)", cy->cmd,
			 queued, queued == 1 ? "" : "s", when,
			 nx.last_error ? " after: " : "",
			 nx.last_error ? nx.last_error : "");
	}
	status_next_release(&nx);
}

static int deliver(struct cycle *cy, int now, struct send_stats *ss,
		   struct pb_err *err)
{
	long queued = 0, failed = 0, reset = 0;
	int rc = 0;

	if (now) {
		rc = state_retry_now(&cy->st, cy->now, &reset, err);
		if (!rc)
			log_info("%s: %ld queued mail%s tried now", cy->cmd,
				 reset, reset == 1 ? "" : "s");
	}
	if (!rc)
		rc = outbox_deliver(&cy->st, &cy->cfg, cy->now, 1, ss, err);
	if (state_counts(&cy->st, &queued, &failed, NULL) == 0) {
		/* --quiet: silent unless a mail failed or is held back */
		if (ss->failed || ss->deferred)
			log_warn("%s: %ld sent, %ld queued, %ld failed",
				 cy->cmd, ss->sent, queued, ss->failed);
		else
			log_info("%s: %ld sent, %ld queued, %ld failed",
				 cy->cmd, ss->sent, queued, ss->failed);
		if (!rc && !ss->deferred)
			tell_waiting(cy, queued);
	}
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

/* Held reports: ask for their runs, decide on those that landed. */
static int confirm_run(struct cycle *cy, struct pb_err *err)
{
	struct confirm_stats cs;

	if (confirm_step(&cy->st, &cy->cfg, cy->now, &cs, err))
		return -1;
	if (cs.asked || cs.confirmed || cs.not_reproduced || cs.expired ||
	    cs.waiting || cs.failed)
		log_info("confirmations: %ld asked, %ld confirmed, %ld not "
			 "reproduced, %ld expired, %ld waiting, %ld failed",
			 cs.asked, cs.confirmed, cs.not_reproduced, cs.expired,
			 cs.waiting, cs.failed);
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

static int cycle_start(struct cycle *cy, const struct cli_args *a,
		       struct pb_err *err)
{
	memset(cy, 0, sizeof(*cy));
	cy->cmd = a->spec->name;
	cy->dry_run = cli_flag(a, "dry-run");
	cy->now = cli_now();
	sb_init(&cy->mbox, 0);
	cli_apply_log(a, 1);
	if (cli_load_config(&cy->cfg, cli_value(a, "config"), 1, err) ||
	    confirm_config_load(&cy->cfg, &cy->confirm, err))
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

/* Parse: 0 and *done 0 to go on; else *done and the exit code. */
static int start(const struct cli_spec *spec, int argc, char **argv,
		 struct cli_args *a, int *done)
{
	int rc = cli_parse(spec, argc, argv, a);

	*done = rc != 0;
	return rc < 0 ? EX_USAGE : 0;
}

int cmd_run(int argc, char **argv)
{
	struct send_stats ss = { 0, 0, 0 };
	struct pb_err err = { 0, "" };
	struct cli_args a;
	struct cycle cy;
	int rc, done;

	rc = start(&run_spec, argc, argv, &a, &done);
	if (done)
		return rc;
	rc = cycle_start(&cy, &a, &err) || ingest(&cy, &err);
	if (!rc && cy.dry_run)
		rc = print_queued(&cy, &err);
	else if (!rc)
		rc = confirm_run(&cy, &err) || poll_step(&cy, &err) ||
		     followup_step(&cy, &err) || deliver(&cy, 0, &ss, &err);
	if (!rc)
		rc = exit_code(&cy, &ss);
	else
		rc = cli_fail(&err);
	cycle_end(&cy);
	return rc;
}

int cmd_send(int argc, char **argv)
{
	struct send_stats ss = { 0, 0, 0 };
	struct pb_err err = { 0, "" };
	struct cli_args a;
	struct cycle cy;
	int rc, done;

	rc = start(&send_spec, argc, argv, &a, &done);
	if (done)
		return rc;
	rc = cycle_start(&cy, &a, &err) ||
	     deliver(&cy, cli_flag(&a, "now"), &ss, &err);
	rc = rc ? cli_fail(&err) : exit_code(&cy, &ss);
	cycle_end(&cy);
	return rc;
}

int cmd_poll(int argc, char **argv)
{
	struct send_stats ss = { 0, 0, 0 };
	struct pb_err err = { 0, "" };
	struct cli_args a;
	struct cycle cy;
	int rc, done;

	rc = start(&poll_spec, argc, argv, &a, &done);
	if (done)
		return rc;
	rc = cycle_start(&cy, &a, &err);
	if (!rc && !cfg_str(&cy.cfg, "imap.url", NULL))
		rc = pb_fail(&err, EX_CONFIG, "imap.url: not configured");
	if (!rc)
		rc = poll_step(&cy, &err) || deliver(&cy, 0, &ss, &err);
	rc = rc ? cli_fail(&err) : exit_code(&cy, &ss);
	cycle_end(&cy);
	return rc;
}

int cmd_retest(int argc, char **argv)
{
	struct send_stats ss = { 0, 0, 0 };
	struct pb_err err = { 0, "" };
	struct cli_args a;
	struct cycle cy;
	int rc, done;

	rc = start(&retest_spec, argc, argv, &a, &done);
	if (done)
		return rc;
	rc = cycle_start(&cy, &a, &err) ||
	     followup_step(&cy, &err) || deliver(&cy, 0, &ss, &err);
	rc = rc ? cli_fail(&err) : exit_code(&cy, &ss);
	cycle_end(&cy);
	return rc;
}
