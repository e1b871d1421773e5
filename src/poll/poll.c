// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "perfbot/answer.h"
#include "perfbot/imap.h"
#include "perfbot/log.h"
#include "perfbot/mail.h"
#include "perfbot/poll.h"
#include "perfbot/reply.h"
#include "perfbot/retest.h"
#include "perfbot/sender.h"
#include "perfbot/strmap.h"

#define POLL_MAX_MESSAGES 5000
#define DEFAULT_MAX_BYTES (10 << 20)
#define DAY (24 * 3600)

struct poll_ctx {
	struct state *st;
	const struct config *cfg;
	time_t now;
	struct imap *im;
	const char *mailbox;
	unsigned long uidvalidity;
	char *own;		/* the bot's own address */
	struct poll_stats *ps;
	char why[160];		/* outcome text built for one mail */
	int rekey;		/* record under the mailbox position, so that
				 * another copy of the mail is still read */
};

/* A key for a mail without a Message-ID: its place in the mailbox. */
static void synthetic_id(const struct poll_ctx *cx, uint32_t uid, char *buf,
			 size_t n)
{
	snprintf(buf, n, "uid-%lu-%u@%s", cx->uidvalidity, (unsigned)uid,
		 cx->mailbox);
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
	if (!rc)
		log_info("mail <%s>%s%s: %s", msgid, r && r->from_addr ?
			 " from " : "", r && r->from_addr ? r->from_addr : "",
			 outcome);
	return rc;
}

/* ---- authorization ---- */

static int allowed_by_config(const struct config *cfg, const char *addr)
{
	json_t *allow = cfg_list(cfg, "commands.allow"), *v;
	size_t i, n = strlen(addr), k;
	const char *a;

	json_array_foreach(allow, i, v) {
		a = json_string_value(v);
		k = a ? strlen(a) : 0;
		if (!k)
			continue;
		if (a[0] == '@' && n > k && !strcasecmp(addr + n - k, a))
			return 1;
		if (!strcasecmp(addr, a))
			return 1;
	}
	return 0;
}

static int among(const char *json_list, const char *addr)
{
	json_t *l = json_loads(json_list, 0, NULL), *v;
	size_t i;
	int found = 0;

	json_array_foreach(l, i, v)
		if (json_is_string(v) && !strcasecmp(json_string_value(v), addr))
			found = 1;
	json_decref(l);
	return found;
}

/* commands.allow, the report's author and recipients. */
static int may_command(const struct poll_ctx *cx, const struct reply *r,
		       const struct thread_report *tr)
{
	return allowed_by_config(cx->cfg, r->from_addr) ||
	       (tr && among(tr->recipients, r->from_addr));
}

/* ---- acting on commands ---- */

struct act_ctx {
	struct poll_ctx *cx;
	const struct reply *r;
	const struct thread_report *tr;
	json_t *pieces;
};

typedef int (*act_fn)(struct act_ctx *a, const struct mail_command *c,
		      struct pb_err *err);

static int piece(struct act_ctx *a, const char *tmpl, json_t *ctx,
		 struct pb_err *err)
{
	char *text = NULL;
	int rc;

	json_object_set_new(ctx, "bot_name", json_string(
		cfg_str(a->cx->cfg, "identity.name", "perfbot")));
	rc = answer_piece(a->cx->cfg, tmpl, ctx, &text, err);
	if (!rc)
		json_array_append_new(a->pieces, json_string(text));
	free(text);
	json_decref(ctx);
	return rc;
}

static json_t *command_list(void)
{
	json_t *l = json_array();
	size_t i;

	for (i = 0; i < command_count; i++)
		json_array_append_new(l, json_pack("{s:s, s:s}", "usage",
			command_table[i].usage, "summary",
			command_table[i].summary));
	return l;
}

static int act_help(struct act_ctx *a, const struct mail_command *c,
		    struct pb_err *err)
{
	(void)c;
	return piece(a, "help", json_pack("{s:o, s:i}", "commands",
					  command_list(), "max_runs",
					  (int)cfg_long(a->cx->cfg,
							"limits.max_runs", 20)),
		     err);
}

static int act_unknown(struct act_ctx *a, const struct mail_command *c,
		       struct pb_err *err)
{
	return piece(a, "unknown", json_pack("{s:s, s:o}", "line", c->line,
					     "commands", command_list()),
		     err);
}

/* Stable per (mail, command): a retried poll asks for the same retest. */
static char *request_id(const struct reply *r, size_t index)
{
	struct strbuf key = STRBUF_INIT, id = STRBUF_INIT;

	sb_addf(&key, "%s#%zu", r->message_id, index);
	sb_addf(&id, "rt-%016llx", hash_fnv1a(sb_str(&key), key.len, 0));
	sb_release(&key);
	return sb_detach(&id, NULL);
}

static int act_retest(struct act_ctx *a, const struct mail_command *c,
		      struct pb_err *err)
{
	const struct config *cfg = a->cx->cfg;
	long n, cap = cfg_long(cfg, "limits.retests_per_report", 3);
	int runs = c->runs ? c->runs : (int)cfg_long(cfg,
						      "limits.default_runs", 4);
	char *open = NULL, *rid = NULL;
	const char *tmpl = NULL;
	json_t *ctx = NULL;
	int rc;

	if (state_retest_count(a->cx->st, a->tr->report_id, &n, &open, err))
		return -1;
	if (open) {
		rc = piece(a, "retest-busy", json_pack("{s:s}", "status", open),
			   err);
	} else if (n >= cap) {
		rc = piece(a, "retest-limit", json_pack("{s:i}", "limit",
							(int)cap), err);
	} else {
		rid = request_id(a->r, (size_t)(c - a->r->cmds));
		rc = !rid || retest_request(a->cx->st, cfg, a->r,
					    a->tr->report_id, rid, runs,
					    a->cx->now, &tmpl, &ctx, err) ||
		     !ctx || piece(a, tmpl, ctx, err);
		if (rc && !err->code)
			pb_fail(err, EX_OSERR, "out of memory");
	}
	free(open);
	free(rid);
	return rc ? -1 : 0;
}

static const struct command_act {
	enum cmd_kind kind;
	act_fn act;
} acts[] = {
	{ CMD_RETEST, act_retest },
	{ CMD_HELP, act_help },
	{ CMD_UNKNOWN, act_unknown },
};

/* Check, then act on, each command up to commands_per_mail. */
static int act_all(struct act_ctx *a, struct pb_err *err)
{
	struct command_limits lim = {
		(int)cfg_long(a->cx->cfg, "limits.max_runs", 20) };
	size_t i, k, max = (size_t)cfg_long(a->cx->cfg,
					    "limits.commands_per_mail", 3);
	char why[160];

	for (i = 0; i < a->r->ncmds && i < max; i++) {
		const struct mail_command *c = &a->r->cmds[i];

		if (c->kind != CMD_UNKNOWN &&
		    command_check(c, &lim, why, sizeof(why))) {
			if (piece(a, "invalid", json_pack("{s:s, s:s}", "line",
				  c->line, "why", why), err))
				return -1;
			continue;
		}
		for (k = 0; k < sizeof(acts) / sizeof(acts[0]); k++)
			if (acts[k].kind == c->kind && acts[k].act(a, c, err))
				return -1;
	}
	if (a->r->ncmds_seen > max)
		return piece(a, "too-many", json_pack("{s:i, s:i}", "limit",
			     (int)max, "ignored",
			     (int)(a->r->ncmds_seen - max)), err);
	return 0;
}

/* ---- one mail ---- */

/* Thread ids to look up, the closest first. */
static size_t thread_ids(const struct reply *r, const char **ids, size_t max)
{
	size_t n = 0, i;

	if (r->in_reply_to && n < max)
		ids[n++] = r->in_reply_to;
	for (i = r->nrefs; i > 0 && n < max; i--)
		ids[n++] = r->references[i - 1];
	return n;
}

static int answer(struct poll_ctx *cx, const struct reply *r,
		  const struct thread_report *tr, const char *tmpl,
		  struct pb_err *err)
{
	struct act_ctx a = { cx, r, tr, json_array() };
	int rc;

	rc = tmpl ? piece(&a, tmpl, json_object(), err) : act_all(&a, err);
	if (!rc)
		rc = answer_queue(cx->st, cx->cfg, r, tr, "", a.pieces,
				  cx->now, err);
	json_decref(a.pieces);
	return rc;
}

#define OUT_REFUSED "refused"
#define OUT_NOREPORT "answered: no report in this thread"
#define DEFAULT_REFUSALS_PER_DAY 50

/*
 * Refusals and "no report" answers go to strangers: at most one a day per
 * sender, and limits.refusals_per_day of them in all. 1 when one may go.
 */
static int stranger_budget(struct poll_ctx *cx, const struct reply *r,
			   const char *outcome, const char **why,
			   struct pb_err *err)
{
	long mine, a, b, cap = cfg_long(cx->cfg, "limits.refusals_per_day",
					DEFAULT_REFUSALS_PER_DAY);

	if (state_inbox_count_exact(cx->st, r->from_addr, cx->now - DAY,
				    outcome, &mine, err) ||
	    state_inbox_count_exact(cx->st, NULL, cx->now - DAY, OUT_REFUSED,
				    &a, err) ||
	    state_inbox_count_exact(cx->st, NULL, cx->now - DAY, OUT_NOREPORT,
				    &b, err))
		return -1;
	*why = mine ? "already told today" : a + b >= cap ?
		"limits.refusals_per_day reached" : NULL;
	return !*why;
}

/* A refusal goes to the sender alone, never to the report's list. */
static int refuse(struct poll_ctx *cx, const struct reply *r,
		  const struct thread_report *tr, const char **outcome,
		  struct pb_err *err)
{
	struct thread_report solo = *tr;
	const char *why;
	int ok = stranger_budget(cx, r, OUT_REFUSED, &why, err);

	if (ok < 0)
		return -1;
	cx->ps->refused++;
	if (!ok) {
		snprintf(cx->why, sizeof(cx->why), "refused (%s)", why);
		*outcome = cx->why;
		return 0;
	}
	*outcome = OUT_REFUSED;
	solo.recipients = "[]";
	return answer(cx, r, &solo, "refused", err);
}

static int no_report(struct poll_ctx *cx, const struct reply *r,
		     const char **outcome, struct pb_err *err)
{
	const char *why;
	int ok = stranger_budget(cx, r, OUT_NOREPORT, &why, err);

	if (ok < 0)
		return -1;
	if (!ok) {
		snprintf(cx->why, sizeof(cx->why), "ignored: no report in "
			 "this thread (%s)", why);
		*outcome = cx->why;
		cx->ps->ignored++;
		return 0;
	}
	*outcome = OUT_NOREPORT;
	cx->ps->answered++;
	return answer(cx, r, NULL, "noreport", err);
}

/*
 * Before anything is answered: the envelope sender and From agree (or
 * From is in commands.allow), and, when commands.authserv_id is set, the
 * operator's MTA vouches for From. A mail that fails is not answered and
 * is recorded under its mailbox position, so another copy of it (the one
 * sent straight to the bot, when this one came through a list that
 * rewrote the envelope) is still read.
 */
static int sender_ok(struct poll_ctx *cx, const struct reply *r,
		     const char **outcome)
{
	const char *id = cfg_str(cx->cfg, "commands.authserv_id", NULL);

	if (!allowed_by_config(cx->cfg, r->from_addr) && !sender_aligned(r)) {
		*outcome = "ignored: From and the envelope sender are in "
			   "different domains";
	} else if (id && *id && !sender_authenticated(r, id)) {
		snprintf(cx->why, sizeof(cx->why), "ignored: no passing "
			 "DKIM, DMARC or ARC result from '%.64s'", id);
		*outcome = cx->why;
	} else {
		return 1;
	}
	cx->rekey = 1;
	cx->ps->ignored++;
	return 0;
}

/* Route, authorize, limit and answer a mail that holds commands. */
static int commands(struct poll_ctx *cx, const struct reply *r,
		    const struct thread_report *tr, int found,
		    const char **outcome, struct pb_err *err)
{
	long n, cap = cfg_long(cx->cfg, "limits.per_sender_per_day", 20);

	if (!sender_ok(cx, r, outcome))
		return 0;
	if (state_inbox_count(cx->st, r->from_addr, cx->now - DAY, "answered",
			      &n, err))
		return -1;
	if (n >= cap) {
		*outcome = "ignored: limits.per_sender_per_day reached";
		cx->ps->ignored++;
		return 0;
	}
	if (!found)
		return no_report(cx, r, outcome, err);
	if (!may_command(cx, r, tr))
		return refuse(cx, r, tr, outcome, err);
	*outcome = "answered";
	cx->ps->answered++;
	return answer(cx, r, tr, NULL, err);
}

static int bounce(struct poll_ctx *cx, const struct reply *r,
		  struct thread_report *tr, const char **outcome,
		  struct pb_err *err)
{
	const char *ids[1] = { r->dsn_message_id };
	int found = 0;

	if (r->dsn_message_id &&
	    state_route(cx->st, ids, 1, tr, &found, err))
		return -1;
	*outcome = found ? "bounce: recorded against the report" :
		"bounce: of no mail of the bot";
	if (found)
		log_warn("report '%s' bounced: %s", tr->report_id,
			 r->subject ? r->subject : "");
	cx->ps->ignored++;
	return 0;
}

/* Decide and act; '*outcome' says what happened, for the record. */
static int decide(struct poll_ctx *cx, const struct reply *r,
		  struct thread_report *tr, const char **outcome,
		  struct pb_err *err)
{
	const char *own[1] = { cx->own }, *why = NULL;
	const char *ids[REPLY_MAX_REFS + 1];
	int found = 0;

	if (r->is_dsn)
		return bounce(cx, r, tr, outcome, err);
	if (reply_must_not_answer(r, own, cx->own ? 1 : 0, &why)) {
		snprintf(cx->why, sizeof(cx->why), "ignored: %s",
			 why ? why : "robot mail");
		*outcome = cx->why;
		goto ignored;
	}
	if (!r->message_id) {
		*outcome = "ignored: no Message-ID";
		goto ignored;
	}
	if (!r->ncmds) {
		*outcome = "no commands";
		goto ignored;
	}
	if (state_route(cx->st, ids, thread_ids(r, ids, REPLY_MAX_REFS + 1),
			tr, &found, err))
		return -1;
	return commands(cx, r, tr, found, outcome, err);
ignored:
	cx->ps->ignored++;
	return 0;
}

static int handle(struct poll_ctx *cx, const struct imap_msg *m,
		  struct pb_err *err)
{
	struct reply_opts o = { "#perfbot" };
	struct thread_report tr = { 0 };
	const char *outcome = "ignored: larger than imap.max_message_bytes";
	struct pb_err perr = { 0, "" };
	struct reply r;
	char synth[160];
	const char *mid;
	int rc = 0, parsed = 0, seen;

	memset(&r, 0, sizeof(r));
	synthetic_id(cx, m->uid, synth, sizeof(synth));
	if (m->data && reply_parse(m->data, m->len, &o, &r, &perr))
		outcome = "ignored: unreadable mail";
	else if (m->data)
		parsed = 1;
	mid = r.message_id ? r.message_id : synth;
	cx->rekey = 0;
	seen = state_inbox_seen(cx->st, mid, err);
	if (seen < 0)
		rc = -1;
	else if (seen)
		log_info("mail <%s>: handled before", mid);
	else if (parsed)
		rc = decide(cx, &r, &tr, &outcome, err);
	if (!rc && !seen)
		rc = record(cx, cx->rekey ? synth : mid, m->uid, parsed ? &r :
			    NULL, tr.report_id, outcome, err);
	thread_report_release(&tr);
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
	rc = state_begin(cx->st, err) ||
	     record(cx, synth, m->uid, NULL, NULL, outcome, err) ||
	     state_mailbox_set(cx->st, cx->mailbox, cx->uidvalidity, m->uid,
			       err);
	if (rc) {
		state_rollback(cx->st);
		return -1;
	}
	return state_commit(cx->st, err);
}

static int one(struct poll_ctx *cx, uint32_t uid, size_t cap,
	       struct pb_err *err)
{
	struct poll_stats before;
	struct imap_msg m;
	int rc;

	if (imap_fetch(cx->im, uid, cap, &m, err))
		return -1;
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
	/* handled and recorded: a failure here only leaves it unread */
	if (imap_done(cx->im, uid, cfg_str(cx->cfg, "imap.processed_mailbox",
					   ""), err))
		log_warn("%s", err->msg);
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
	return 0;
}

int poll_mailbox(struct state *st, const struct config *cfg, time_t now,
		 struct poll_stats *ps, struct pb_err *err)
{
	struct poll_ctx cx = { st, cfg, now, NULL,
			       cfg_str(cfg, "imap.mailbox", "INBOX"), 0, NULL,
			       ps, "", 0 };
	size_t cap = (size_t)cfg_long(cfg, "imap.max_message_bytes",
				      DEFAULT_MAX_BYTES);
	unsigned long after = 0;
	uint32_t *uids = NULL;
	size_t i, n = 0;
	int rc = -1;

	memset(ps, 0, sizeof(*ps));
	cx.own = mail_addr_spec(cfg_str(cfg, "identity.from",
					"perfbot@localhost"));
	if (start(&cx, &after, err) ||
	    imap_new_uids(cx.im, (uint32_t)after, POLL_MAX_MESSAGES, &uids,
			  &n, err))
		goto out;
	for (i = 0; i < n; i++)
		if (one(&cx, uids[i], cap, err))
			goto out;
	rc = 0;
out:
	free(uids);
	free(cx.own);
	imap_close(cx.im);
	return rc;
}
