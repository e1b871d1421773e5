/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the unit tests of the life of a report share (test_records.c,
 * test_lifecmd.c, test_track.c, test_remind.c), header-only (testutil.h's
 * rules): a fixture with a temporary directory, a configuration and a
 * state; reports queued in it with their records as outbox_queue()
 * queues them; replies parsed and acted on as the poll does (route,
 * authorize, dispatch); the mails queued read back; a git repository made
 * with the git command (tests only: perfbot itself runs no git). Run
 * from the repository root.
 */
#ifndef PERFBOT_TESTLIFE_H
#define PERFBOT_TESTLIFE_H

#include "perfbot/act/authorize.h"
#include "perfbot/act/dispatch.h"
#include "perfbot/act/route.h"
#include "perfbot/parse/reply.h"
#include "perfbot/state/records.h"
#include "perfbot/state/requests.h"
#include "perfbot/state/state.h"
#include "perfbot/state/outbox.h"
#include "perfbot/state/inbox.h"

#include "testutil.h"
#include "teststate.h"

#define TL_T0 1739548080	/* 2025-02-14 15:48:00 UTC */
#define TL_DAY (24 * 3600)
#define TL_BOT "perfbot@example.test"
#define TL_ARCHIVE "https://lore.example.test/perf/"

struct tl {
	char dir[64];
	char path[PATH_MAX];	/* <dir>/perfbot.yaml */
	char db[PATH_MAX];	/* <dir>/state.db */
	char repo[PATH_MAX];	/* <dir>/repo */
	struct config cfg;
	int loaded;
	struct state *st;
	struct outbox_mail *out;
	size_t nout;
	struct pb_err err;
};

/* The identity every life test uses, then 'extra' (YAML). */
static inline void tl_config(struct tl *t, const char *extra)
{
	char yaml[8192];

	snprintf(yaml, sizeof(yaml),
		 "identity:\n"
		 "  from: \"perfbot <" TL_BOT ">\"\n"
		 "  message_id_domain: example.test\n"
		 "  archive_url: \"" TL_ARCHIVE "{message_id}\"\n"
		 "commands:\n"
		 "  allow: [\"carol@example.test\"]\n"
		 "%s", extra ? extra : "");
	tu_load_config(&t->cfg, &t->loaded, t->path, yaml, &t->err);
}

static inline struct tl *tl_new(const char *tag)
{
	struct tl *t = TU_NEW_FX(struct tl, tag);

	if (!t)
		return NULL;
	tu_path(t->path, sizeof(t->path), t->dir, "perfbot.yaml");
	tu_path(t->db, sizeof(t->db), t->dir, "state.db");
	tu_path(t->repo, sizeof(t->repo), t->dir, "repo");
	tl_config(t, NULL);
	if (tu_state_open(&t->st, t->db, STATE_WRITE, &t->err)) {
		fprintf(stderr, "setup: %s\n", t->err.msg);
		return NULL;
	}
	return t;
}

static inline void tl_free(struct tl *t)
{
	if (!t)
		return;
	outbox_free(t->out, t->nout);
	state_close(t->st);
	if (t->loaded)
		config_release(&t->cfg);
	tu_rmtree(t->dir);
	free(t);
}

/* The Message-ID of report 'id': "<id>@example.test". */
static inline const char *tl_msgid(const char *id, char *buf, size_t n)
{
	snprintf(buf, n, "%s@example.test", id);
	return buf;
}

/* Mark the queued mail 'id' sent at 'when'. */
static inline void tl_sent(struct tl *t, const char *id, time_t when)
{
	struct outbox_mail *v = NULL;
	size_t n = 0, i;
	int rc = -1;

	if (state_queued(t->st, &v, &n, &t->err))
		fail_msg("state_queued: %s", t->err.msg);
	for (i = 0; i < n; i++)
		if (!strcmp(v[i].id, id))
			rc = state_sent(t->st, v[i].rowid, when, &t->err);
	outbox_free(v, n);
	if (rc)
		fail_msg("tl_sent '%s': %s", id, t->err.msg);
}

/*
 * Report 'id' queued at 'when', sent, to 'rcpts' (a JSON list), its
 * headline 'metric' (NULL: a report of before the records, no row).
 */
static inline void tl_report(struct tl *t, const char *id,
			     const char *subject, const char *rcpts,
			     time_t when, const char *metric, double change,
			     int regression)
{
	static const char msg[] = "Subject: x\n\nreport\n";
	struct outbox_mail m = { 0 };
	char msgid[256];

	m.id = (char *)id;
	m.kind = "report";
	m.message_id = (char *)tl_msgid(id, msgid, sizeof(msgid));
	m.sender = TL_BOT;
	m.recipients = (char *)rcpts;
	m.message = (char *)msg;
	m.len = sizeof(msg) - 1;
	if (state_queue(t->st, &m, NULL, NULL, NULL, subject, when, &t->err) ||
	    (metric && state_record_open(t->st, id, metric, change, regression,
					 when, &t->err)))
		fail_msg("tl_report: %s", t->err.msg);
	tl_sent(t, id, when);
}

/* The record of 'id' (record_release() after). */
static inline void tl_record(struct tl *t, const char *id, struct record *r)
{
	int found = 0;

	if (state_record_get(t->st, id, r, &found, &t->err) || !found)
		fail_msg("record '%s': %s", id, found ? t->err.msg :
			 "no such report");
}

static inline void tl_status_is(struct tl *t, const char *id,
				const char *want)
{
	struct record r;

	tl_record(t, id, &r);
	if (strcmp(r.status, want))
		fail_msg("record '%s' is '%s', not '%s'", id, r.status, want);
	record_release(&r);
}

/* Every mail queued, read back (kept in 't'); how many. */
static inline size_t tl_queued(struct tl *t)
{
	outbox_free(t->out, t->nout);
	t->out = NULL;
	t->nout = 0;
	if (state_queued(t->st, &t->out, &t->nout, &t->err))
		fail_msg("state_queued: %s", t->err.msg);
	return t->nout;
}

/* The queued mail whose bytes hold 'text', or NULL. */
static inline const struct outbox_mail *tl_mail_with(struct tl *t,
						     const char *text)
{
	size_t i;

	tl_queued(t);
	for (i = 0; i < t->nout; i++)
		if (strstr(t->out[i].message, text))
			return &t->out[i];
	return NULL;
}

/*
 * The mail 'msgid' from 'from' ("Name <addr>") in reply to 'irt' (a
 * Message-ID) saying 'body', acted on at 'now' as the poll acts on it, in
 * one transaction: routed, authorized, answered, recorded. Its outcome
 * into 'outcome'.
 */
static inline void tl_mail(struct tl *t, const char *msgid, const char *from,
			   const char *irt, const char *body, time_t now,
			   char *outcome, size_t n)
{
	struct reply_opts o = { "#perfbot", command_lookup };
	struct inbox_entry e = { 0 };
	struct route rt = { 0 };
	struct reply r;
	struct auth au;
	char raw[8192], addr[256];
	const char *lt = strchr(from, '<');
	int len, rc;

	memset(&r, 0, sizeof(r));
	snprintf(addr, sizeof(addr), "%s", lt ? lt + 1 : from);
	addr[strcspn(addr, ">")] = '\0';
	len = snprintf(raw, sizeof(raw), "From: %s\nTo: " TL_BOT "\n"
		       "Return-Path: <%s>\nSubject: Re: a report\n"
		       "Message-ID: <%s>\nIn-Reply-To: <%s>\nReferences: <%s>"
		       "\n\n%s\n", from, addr, msgid, irt, irt, body);
	if (len < 0 || (size_t)len >= sizeof(raw))
		fail_msg("tl_mail: too long");
	if (reply_parse(raw, (size_t)len, &o, &r, &t->err))
		fail_msg("reply_parse: %s", t->err.msg);
	if (state_begin(t->st, &t->err))
		fail_msg("begin: %s", t->err.msg);
	rc = route_reply(t->st, &r, NULL, &rt, &t->err);
	if (!rc && (rt.kind == ROUTE_REPORT || rt.kind == ROUTE_NO_REPORT ||
		    rt.kind == ROUTE_REMINDER)) {
		rc = (rt.kind == ROUTE_REMINDER ?
		      authorize_reminder(t->st, &t->cfg, now, &r,
					 rt.reminder_id, &au, &t->err) :
		      authorize(t->st, &t->cfg, now, &r, rt.kind ==
				ROUTE_REPORT ? &rt.tr : NULL, &au, &t->err)) ||
		     dispatch_reply(t->st, &t->cfg, now, &r, &rt, &au,
				    &t->err);
		snprintf(outcome, n, "%s", au.outcome);
	} else if (!rc) {
		snprintf(outcome, n, "%s", rt.outcome);
	}
	e.message_id = msgid;
	e.sender = r.from_addr;
	e.report_id = rt.tr.report_id;
	e.outcome = outcome;
	if (rc || state_inbox_record(t->st, &e, now, &t->err) ||
	    state_commit(t->st, &t->err)) {
		state_rollback(t->st);
		fail_msg("tl_mail: %s", t->err.msg);
	}
	route_release(&rt);
	reply_release(&r);
}

/* Run 'cmd' in the shell (the tests' git), or fail the test. */
static inline void tl_sh(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static inline void tl_sh(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(cmd))
		fail_msg("tl_sh: too long");
	if (system(cmd))
		fail_msg("'%s' failed", cmd);
}

/*
 * A repository at t->repo with one commit on 'master', made by the git
 * command with fixed names and dates (GIT_COMMITTER_DATE 'when').
 */
#define TL_GIT "GIT_CONFIG_NOSYSTEM=1 HOME=/nonexistent " \
	"GIT_AUTHOR_NAME=Dev GIT_AUTHOR_EMAIL=dev@example.test " \
	"GIT_COMMITTER_NAME=Dev GIT_COMMITTER_EMAIL=dev@example.test git -C "

static inline void tl_git_init(struct tl *t, time_t when)
{
	tl_sh("git init -q -b master %s && GIT_COMMITTER_DATE=@%ld " TL_GIT
	      "%s commit -q --allow-empty -m first --date=@%ld", t->repo,
	      (long)when, t->repo, (long)when);
}

/* A commit on the checked-out branch with message 'msg', at 'when'. */
static inline void tl_commit(struct tl *t, const char *msg, time_t when)
{
	char file[PATH_MAX];

	tu_path(file, sizeof(file), t->dir, "msg.txt");
	tu_write(file, msg, 0644);
	tl_sh("GIT_COMMITTER_DATE=@%ld " TL_GIT "%s commit -q --allow-empty "
	      "-F %s --date=@%ld", (long)when, t->repo, file, (long)when);
}

/* The sha of 'rev' in t->repo into 'sha' (41 bytes). */
static inline void tl_rev(struct tl *t, const char *rev, char *sha)
{
	char cmd[PATH_MAX + 64];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "git -C %s rev-parse %s", t->repo, rev);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(sha, 41, p));
	pclose(p);
	sha[40] = '\0';
}

#endif
