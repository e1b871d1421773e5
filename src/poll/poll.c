// SPDX-License-Identifier: GPL-2.0-only
/*
 * poll: the mailbox loop. Fetches the mails that arrived since the last
 * poll, and for each, in one transaction: parse it, route it
 * (act/route.c), authorize its sender (act/authorize.c), act on its
 * commands and queue the answer (act/dispatch.c), record it and move the
 * mailbox position; a mail that cannot be handled is recorded as failed
 * and passed over. Then the server is told (\Seen, or moved to
 * imap.processed_mailbox).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/act/authorize.h"
#include "perfbot/act/dispatch.h"
#include "perfbot/poll/imap.h"
#include "perfbot/util/log.h"
#include "perfbot/compose/mail.h"
#include "perfbot/poll/poll.h"
#include "perfbot/parse/reply.h"
#include "perfbot/act/route.h"
#include "perfbot/util/text.h"
#include "perfbot/state/inbox.h"

#define POLL_MAX_MESSAGES 5000
#define STUCK_TRIES 3		/* downloads of one mail that fail in a row */

struct poll_ctx {
	struct state *st;
	const struct config *cfg;
	time_t now;
	struct imap *im;
	const char *mailbox;
	unsigned long uidvalidity;
	struct route_self self;	/* how the bot knows its own mail */
	struct poll_stats *ps;
	char why[160];		/* outcome text built for one mail */
	int rekey;		/* record under the mailbox position, so that
				 * another copy of the mail is still read */
	int said;		/* the error line said it: no record line */
};

/* A key for a mail without a Message-ID: its place in the mailbox. */
static void synthetic_id(const struct poll_ctx *cx, uint32_t uid, char *buf,
			 size_t n)
{
	snprintf(buf, n, "uid-%lu-%u@%s", cx->uidvalidity, (unsigned)uid,
		 cx->mailbox);
}

/* The log's " (retest 4x, unfix)": the commands of 'r', one line. */
static void said_cmds(const struct reply *r, char *buf, size_t len)
{
	struct strbuf sb;
	size_t i;
	int rc = 0;

	sb_init(&sb, len > 16 ? len - 16 : 1);
	buf[0] = '\0';
	for (i = 0; r && i < r->ncmds && !rc; i++)
		rc = sb_adds(&sb, i ? ", " : " (") ||
		     text_scrub_add(&sb, r->cmds[i].line,
				    strlen(r->cmds[i].line),
				    TEXT_UNICODE | TEXT_CTRL_SPACE);
	if (sb.len)
		snprintf(buf, len, "%s%s)", sb_str(&sb), rc ? ", ..." : "");
	sb_release(&sb);
}

static int record(struct poll_ctx *cx, const char *msgid, uint32_t uid,
		  const struct reply *r, const char *report_id,
		  const char *outcome, struct pb_err *err)
{
	struct inbox_entry e = {
		msgid, cx->uidvalidity, uid, r ? r->from_addr : NULL,
		report_id, outcome, NULL,
	};
	json_t *cmds = json_array();
	size_t i;
	int rc;

	for (i = 0; r && cmds && i < r->ncmds; i++)
		json_array_append_new(cmds, json_string(r->cmds[i].line));
	e.commands = cmds && json_array_size(cmds) ?
		json_dumps(cmds, JSON_COMPACT) : NULL;
	rc = state_inbox_record(cx->st, &e, cx->now, err);
	free((char *)e.commands);
	json_decref(cmds);
	if (!rc && !cx->said) {
		char cmdl[200];

		said_cmds(r, cmdl, sizeof(cmdl));
		log_info("mail <%s>%s%s: %s%s", msgid, r && r->from_addr ?
			 " from " : "", r && r->from_addr ? r->from_addr : "",
			 outcome, cmdl);
	}
	return rc;
}

/* ---- one mail ---- */

static void count(struct poll_stats *ps, const struct auth *au)
{
	if (au->verdict == AUTH_IGNORE)
		ps->ignored++;
	else if (au->verdict == AUTH_REFUSE)
		ps->refused++;
	else
		ps->answered++;
}

/* Route, authorize, act; '*outcome' says what happened, for the record. */
static int decide(struct poll_ctx *cx, const struct reply *r,
		  struct route *rt, const char **outcome, struct pb_err *err)
{
	struct auth au;

	if (route_reply(cx->st, r, &cx->self, rt, err))
		return -1;
	if (rt->kind == ROUTE_BOUNCE && rt->found)
		log_warn("report '%s' bounced: %s", rt->tr.report_id,
			 r->subject ? r->subject : "");
	if (rt->kind == ROUTE_LOST)
		log_warn("<%s> from %s answers a mail of the bot's that the "
			 "state does not know (a new or reset state?): not "
			 "answered", r->message_id, r->from_addr ?
			 r->from_addr : "?");
	if (rt->kind != ROUTE_REPORT && rt->kind != ROUTE_NO_REPORT &&
	    rt->kind != ROUTE_REMINDER) {
		*outcome = rt->outcome;
		cx->ps->ignored++;
		return 0;
	}
	if ((rt->kind == ROUTE_REMINDER ?
	     authorize_reminder(cx->st, cx->cfg, cx->now, r, rt->reminder_id,
				&au, err) :
	     authorize(cx->st, cx->cfg, cx->now, r, rt->kind == ROUTE_REPORT ?
		       &rt->tr : NULL, &au, err)) ||
	    dispatch_reply(cx->st, cx->cfg, cx->now, r, rt, &au, err))
		return -1;
	/* acting may have changed the outcome (a repeated request) */
	snprintf(cx->why, sizeof(cx->why), "%s", au.outcome);
	*outcome = cx->why;
	cx->rekey = au.rekey;
	count(cx->ps, &au);
	return 0;
}

static int handle(struct poll_ctx *cx, const struct imap_msg *m,
		  struct pb_err *err)
{
	struct reply_opts o = { "#perfbot", command_lookup };
	struct route rt = { 0 };
	const char *outcome = cx->why;
	struct pb_err perr = { 0, "" };
	struct reply r;
	char synth[160];
	const char *mid;
	int rc = 0, parsed = 0, seen;

	memset(&r, 0, sizeof(r));
	/* recorded as failed once, and passed over */
	snprintf(cx->why, sizeof(cx->why), "failed: larger than "
		 "imap.max_message_bytes (%ld bytes): %lu bytes",
		 cx->cfg->imap.max_message_bytes, (unsigned long)m->size);
	if (!m->data) {
		log_warn("mail UID %u: %s", (unsigned)m->uid, cx->why + 8);
		cx->ps->failed++;
		cx->ps->fail_code = EX_DATAERR;
	}
	synthetic_id(cx, m->uid, synth, sizeof(synth));
	if (m->data && reply_parse(m->data, m->len, &o, &r, &perr))
		outcome = "ignored: unreadable mail";
	else if (m->data)
		parsed = 1;
	mid = r.message_id ? r.message_id : synth;
	cx->rekey = 0;
	if (state_inbox_seen(cx->st, mid, &seen, err))
		rc = -1;
	else if (seen)
		log_info("mail <%s>: handled before", mid);
	else if (parsed)
		rc = decide(cx, &r, &rt, &outcome, err);
	if (!rc && !seen)
		rc = record(cx, cx->rekey ? synth : mid, m->uid, parsed ? &r :
			    NULL, rt.tr.report_id, outcome, err);
	route_release(&rt);
	reply_release(&r);
	return rc;
}

/* ---- the poll ---- */

/* One mail: record and answer in one transaction, then tell the server. */
/* Handle, record and move the position past 'uid', all or nothing. */
static int handle_tx(struct poll_ctx *cx, const struct imap_msg *m,
		     struct pb_err *err)
{
	if (state_begin(cx->st, err))
		return -1;
	if (handle(cx, m, err) ||
	    state_mailbox_set(cx->st, cx->mailbox, cx->uidvalidity, m->uid,
			      err) ||
	    state_mark_add(cx->st, cx->mailbox, cx->uidvalidity, m->uid,
			   err)) {
		state_rollback(cx->st);
		return -1;
	}
	return state_commit(cx->st, err);
}

/*
 * A mail that cannot be handled (an address GMime refuses, a broken
 * template) is recorded as failed and passed over, so that it does not
 * block every later reply; only the state failing stops the poll.
 */
static int give_up(struct poll_ctx *cx, const struct imap_msg *m,
		   struct pb_err *err)
{
	char synth[160], outcome[PB_ERR_MAX + 16];
	int rc;

	log_error("mail UID %u: %s", (unsigned)m->uid, err->msg);
	if (err->code == EX_IOERR)
		return -1;
	cx->ps->failed++;
	cx->ps->fail_code = err->code ? err->code : EX_SOFTWARE;
	synthetic_id(cx, m->uid, synth, sizeof(synth));
	snprintf(outcome, sizeof(outcome), "failed: %s", err->msg);
	cx->said = 1;	/* one line for one failure (the error above) */
	rc = state_begin(cx->st, err) ||
	     record(cx, synth, m->uid, NULL, NULL, outcome, err) ||
	     state_mailbox_set(cx->st, cx->mailbox, cx->uidvalidity, m->uid,
			       err) ||
	     state_mark_add(cx->st, cx->mailbox, cx->uidvalidity, m->uid,
			    err);
	cx->said = 0;
	if (rc) {
		state_rollback(cx->st);
		return -1;
	}
	return state_commit(cx->st, err);
}

/* Tell the server a recorded mail was handled, and forget the mark. */
static void mark(struct poll_ctx *cx, uint32_t uid)
{
	struct pb_err err = { 0, "" };

	/* a failure only leaves it for the next poll */
	if (imap_done(cx->im, uid, cx->cfg->imap.processed_mailbox, &err) ||
	    state_mark_done(cx->st, cx->mailbox, cx->uidvalidity, uid, &err))
		log_warn("%s", err.msg);
}

/*
 * A mail that could not be downloaded: the session is over. After
 * STUCK_TRIES such polls in a row it is recorded as failed and passed
 * over, so that it does not hold back the replies after it.
 */
static int stuck(struct poll_ctx *cx, uint32_t uid, struct pb_err *err)
{
	struct pb_err serr = { 0, "" };
	struct imap_msg m = { uid, NULL, 0, 0 };
	long n = 0;

	if (state_mailbox_stuck(cx->st, cx->mailbox, cx->uidvalidity, uid, &n,
				&serr) || n < STUCK_TRIES)
		return -1;
	log_warn("mail UID %u: could not be downloaded %ld times: passed "
		 "over", (unsigned)uid, n);
	if (give_up(cx, &m, err))
		*err = serr.code ? serr : *err;
	return -1;
}

static int one(struct poll_ctx *cx, uint32_t uid, size_t cap,
	       struct pb_err *err)
{
	struct poll_stats before;
	struct imap_msg m;
	int rc;

	if (imap_fetch(cx->im, uid, cap, &m, err))
		return err->code == EX_OSERR ? -1 : stuck(cx, uid, err);
	cx->ps->fetched++;
	before = *cx->ps;
	rc = handle_tx(cx, &m, err);
	if (rc) {
		*cx->ps = before;	/* what it counted was rolled back */
		rc = give_up(cx, &m, err);
	}
	imap_msg_release(&m);
	if (rc)
		return -1;
	mark(cx, uid);
	return 0;
}

/* The marks a poll killed after its commits did not make. */
static int marks_left(struct poll_ctx *cx, struct pb_err *err)
{
	uint32_t *uids = NULL;
	size_t i, n = 0;

	if (state_marks(cx->st, cx->mailbox, cx->uidvalidity,
			POLL_MAX_MESSAGES, &uids, &n, err))
		return -1;
	if (n)
		log_info("'%s': %zu handled mail%s still to be marked",
			 cx->mailbox, n, n == 1 ? "" : "s");
	for (i = 0; i < n; i++)
		mark(cx, uids[i]);
	free(uids);
	return 0;
}

/* imap.processed_mailbox is there, or made (and said so). */
static int processed_box(struct poll_ctx *cx, struct pb_err *err)
{
	const char *box = cx->cfg->imap.processed_mailbox;
	int created = 0;

	if (!box)
		return 0;
	if (imap_ensure(cx->im, box, &created, err))
		return -1;
	if (created)
		log_info("imap.processed_mailbox '%s' did not exist: created",
			 box);
	return 0;
}

static int start(struct poll_ctx *cx, unsigned long *after,
		 struct pb_err *err)
{
	unsigned long v;

	if (imap_open(&cx->im, cx->cfg, err) ||
	    state_mailbox_get(cx->st, cx->mailbox, &v, after, err))
		return -1;
	cx->uidvalidity = imap_uidvalidity(cx->im);
	if (v != cx->uidvalidity) {
		if (v)
			log_warn("'%s': UIDVALIDITY changed (%lu -> %lu): "
				 "rescanning, known mails are skipped",
				 cx->mailbox, v, cx->uidvalidity);
		*after = 0;
	}
	return processed_box(cx, err) || marks_left(cx, err);
}

int poll_one(struct state *st, const struct config *cfg, time_t now,
	     const char *data, size_t len, unsigned long uidvalidity,
	     uint32_t uid, struct poll_stats *ps, struct pb_err *err)
{
	struct poll_ctx cx = { st, cfg, now, NULL, cfg->imap.mailbox,
			       uidvalidity, { NULL, NULL, NULL, NULL }, ps, "",
			       0, 0 };
	struct imap_msg m = { uid, (char *)data, len, (uint32_t)len };
	struct poll_stats before;
	int rc;

	memset(ps, 0, sizeof(*ps));
	if (route_self_init(&cx.self, cfg, err)) {
		route_self_release(&cx.self);
		return -1;
	}
	ps->fetched = 1;
	before = *ps;
	rc = handle_tx(&cx, &m, err);
	if (rc) {
		*ps = before;
		rc = give_up(&cx, &m, err);
	}
	route_self_release(&cx.self);
	return rc;
}

int poll_mailbox(struct state *st, const struct config *cfg, time_t now,
		 struct poll_stats *ps, struct pb_err *err)
{
	struct poll_ctx cx = { st, cfg, now, NULL,
			       cfg->imap.mailbox, 0, { NULL, NULL, NULL, NULL },
			       ps, "", 0, 0 };
	size_t cap = (size_t)cfg->imap.max_message_bytes;
	unsigned long after = 0;
	uint32_t *uids = NULL;
	size_t i, n = 0;
	int rc = -1;

	memset(ps, 0, sizeof(*ps));
	if (route_self_init(&cx.self, cfg, err) || start(&cx, &after, err) ||
	    imap_new_uids(cx.im, (uint32_t)after, POLL_MAX_MESSAGES, &uids,
			  &n, err))
		goto out;
	for (i = 0; i < n; i++)
		if (one(&cx, uids[i], cap, err))
			goto out;
	rc = 0;
out:
	free(uids);
	route_self_release(&cx.self);
	imap_close(cx.im);
	return rc;
}
