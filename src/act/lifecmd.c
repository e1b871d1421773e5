// SPDX-License-Identifier: GPL-2.0-only
/*
 * act: the mail commands on a report's record (lifecmd.h): their
 * arguments, the record they act on (the thread's report, or the line of
 * a reminder), the transition through the state machine of
 * act/regression.c, and the answer's piece (templates/record.txt).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "perfbot/act/authorize.h"
#include "perfbot/act/lifecmd.h"
#include "perfbot/act/regression.h"
#include "perfbot/compose/identity.h"
#include "perfbot/ingest/trailers.h"
#include "perfbot/state/records.h"

#define DUP_DEPTH 16		/* a chain of duplicates followed so far */
#define SUBJECT_MATCHES 4	/* reports of one subject looked at */

/* ---- the arguments ---- */

static const char *skip_ws(const char *p)
{
	while (*p && isspace((unsigned char)*p))
		p++;
	return p;
}

/* "fix: [<N>] TITLE|SHA": the colon is part of the word. */
int lifecmd_parse_fix(const char *args, struct mail_command *c)
{
	if (!c->colon || command_parse_ref(&args, &c->remind_line))
		return -1;
	command_keep_arg(c, args);
	return c->arg[0] ? 0 : -1;
}

int lifecmd_parse_dup(const char *args, struct mail_command *c)
{
	return lifecmd_parse_fix(args, c);
}

/* unfix, undup, reopen: nothing but a line of a reminder. */
int lifecmd_parse_bare(const char *args, struct mail_command *c)
{
	if (c->colon || command_parse_ref(&args, &c->remind_line))
		return -1;
	return *skip_ws(args) ? -1 : 0;
}

/*
 * "invalid [<N>] [REASON]": a reason only after "invalid:" or the prefix,
 * so that a line of prose ("Invalid argument") is no command.
 */
int lifecmd_parse_invalid(const char *args, struct mail_command *c)
{
	if (command_parse_ref(&args, &c->remind_line))
		return -1;
	args = skip_ws(args);
	if (*args && !c->colon && !c->prefixed)
		return -1;
	command_keep_arg(c, args);
	return 0;
}

/* "set [<N>] no-reminders [<N>]", and the same after "unset". */
int lifecmd_parse_set(const char *args, struct mail_command *c)
{
	static const char word[] = "no-reminders";

	if (c->colon || command_parse_ref(&args, &c->remind_line))
		return -1;
	if (strncasecmp(args, word, sizeof(word) - 1))
		return -1;
	args = skip_ws(args + sizeof(word) - 1);
	if (!c->remind_line && command_parse_ref(&args, &c->remind_line))
		return -1;
	if (*skip_ws(args))
		return -1;
	command_keep_arg(c, word);
	return 0;
}

int lifecmd_check(const struct mail_command *c,
		  const struct command_limits *l, char *why, size_t whylen)
{
	(void)l;
	if ((c->kind == CMD_FIX || c->kind == CMD_DUP) && !c->arg[0]) {
		snprintf(why, whylen, "%s: it needs what it names",
			 c->kind == CMD_FIX ? "fix" : "dup");
		return -1;
	}
	return 0;
}

/* ---- the report a command acts on ---- */

static int piece_invalid(struct act_ctx *a, const struct mail_command *c,
			 const char *why, struct pb_err *err)
{
	struct ctx x;

	ctx_init(&x, "answer");
	ctx_str(&x, "line", c->line);
	ctx_str(&x, "why", why);
	return answers_piece_of(a, "invalid", &x, err);
}

/* The sender may command the report whose recipients are 'rcpts'. */
static int may_command(const struct act_ctx *a, const char *rcpts)
{
	struct addrlist l;
	const char *why;
	int yes = 0;

	if (authorize_allowed(a->cfg, a->t->from_addr))
		return 1;
	addrlist_init(&l);
	if (rcpts && !addrlist_from_json(&l, rcpts, &why))
		yes = addrlist_has(&l, a->t->from_addr);
	addrlist_release(&l);
	return yes;
}

/*
 * The record 'c' acts on into 'r': 0, 1 when it cannot (its piece added:
 * no such line, not the sender's), -1 when the state fails.
 */
static int target(struct act_ctx *a, const struct mail_command *c,
		  struct record *r, struct pb_err *err)
{
	char *id = NULL, why[160];
	int found = 0, rc;

	if (a->t->report && c->remind_line)
		return piece_invalid(a, c, "a line number (<N>) is for "
				     "replies to a reminder", err) ? -1 : 1;
	if (a->t->report)
		return state_record_get(a->st, a->t->report->report_id, r,
					&found, err) ? -1 : found ? 0 :
			piece_invalid(a, c, "its report is gone", err) ? -1 : 1;
	if (!a->reminder_id || !c->remind_line)
		return piece_invalid(a, c, "name the line of the reminder "
				     "it is about, as in \"invalid <2>\"",
				     err) ? -1 : 1;
	if (state_reminder_line(a->st, a->reminder_id, c->remind_line, &id,
				err))
		return -1;
	rc = id ? state_record_get(a->st, id, r, &found, err) : 0;
	free(id);
	if (rc)
		return -1;
	snprintf(why, sizeof(why), found ? "you are not among the "
		 "recipients of the report of line <%d>" : "the reminder has "
		 "no line <%d>", c->remind_line);
	if (found && may_command(a, r->recipients))
		return 0;
	record_release(r);
	return piece_invalid(a, c, why, err) ? -1 : 1;
}

/* ---- dup: what it names ---- */

/* A report whose archive link or Message-ID 'key' is. */
static int by_link(struct state *st, const struct config *cfg,
		   const char *key, char **report_id, struct pb_err *err)
{
	struct record *all = NULL;
	struct report_key k = { 0 };
	size_t i, n = 0;
	char *url;
	int rc = 0;

	*report_id = NULL;
	if (state_records(st, NULL, 0, &all, &n, err))
		return -1;
	for (i = 0; i < n && !*report_id && !rc; i++) {
		url = identity_closes_url(cfg, all[i].report_id,
					  all[i].message_id);
		k.url = url;
		k.message_id = all[i].message_id;
		if (commit_names_report(key, strlen(key), &k) &&
		    !(*report_id = strdup(all[i].report_id)))
			rc = pb_fail(err, EX_OSERR, "out of memory");
		free(url);
	}
	records_free(all, n);
	return rc;
}

static int by_subject(struct state *st, const char *key, char **report_id,
		      char *why, size_t wl, struct pb_err *err)
{
	char *ids[SUBJECT_MATCHES];
	size_t n = 0, i;

	if (!strncasecmp(key, "Re: ", 4))
		key += 4;
	if (state_record_by_subject(st, key, ids, SUBJECT_MATCHES, &n, err))
		return -1;
	if (n == 1)
		*report_id = ids[0];
	else if (n > 1)
		snprintf(why, wl, "%zu reports have that subject: name one "
			 "by its Message-ID", n);
	for (i = n == 1 ? 1 : 0; i < n && i < SUBJECT_MATCHES; i++)
		free(ids[i]);
	return 0;
}

int lifecmd_find_report(struct state *st, const struct config *cfg,
			const char *key, char **report_id, char *why,
			size_t whylen, struct pb_err *err)
{
	*report_id = NULL;
	snprintf(why, whylen, "I know no report with that Message-ID, link "
		 "or subject");
	if (state_record_find(st, key, report_id, err))
		return -1;
	if (!*report_id && by_link(st, cfg, key, report_id, err))
		return -1;
	if (!*report_id && by_subject(st, key, report_id, why, whylen, err))
		return -1;
	return 0;
}

/*
 * The report 'id' duplicates in the end (a duplicate of a duplicate is
 * one of the first's), into '*root'; 1 when the chain comes back to
 * 'self' (a loop), with 'why'.
 */
static int dup_root(struct state *st, const char *self, char **root,
		    struct pb_err *err)
{
	struct record r;
	int found, depth;

	for (depth = 0; depth < DUP_DEPTH; depth++) {
		if (!strcmp(*root, self))
			return 1;
		if (state_record_get(st, *root, &r, &found, err))
			return -1;
		if (!found || !r.dup_of || strcmp(r.status, "duplicate")) {
			record_release(&r);
			return 0;
		}
		free(*root);
		*root = r.dup_of;
		r.dup_of = NULL;
		record_release(&r);
	}
	return 0;
}

/* ---- acting ---- */

static const enum reg_event event_of[] = {
	[CMD_FIX] = REG_EV_FIX, [CMD_UNFIX] = REG_EV_UNFIX,
	[CMD_DUP] = REG_EV_DUP, [CMD_UNDUP] = REG_EV_UNDUP,
	[CMD_INVALID] = REG_EV_INVALID, [CMD_REOPEN] = REG_EV_REOPEN,
	[CMD_SET] = REG_EV_NO_REMINDERS, [CMD_UNSET] = REG_EV_REMINDERS,
};

/*
 * What 'fix:' names: a sha in lower case, with its title when given in
 * git's reference form ('sha ("TITLE")': both are looked for in the
 * tracked tree, so that a patch applied again under another sha is
 * found by its title), or the title as written.
 */
static void fix_arg(const char *arg, char *out, size_t n)
{
	const char *title;
	size_t k, tn, i;

	if (!commit_ref(arg, &k, &title, &tn)) {
		snprintf(out, n, "%s", arg);
		return;
	}
	for (i = 0; i < k && i + 1 < n; i++)
		out[i] = (char)tolower((unsigned char)arg[i]);
	out[i] = '\0';
	if (title)
		snprintf(out + i, n - i, " (\"%.*s\")", (int)tn, title);
}

void lifecmd_fix_shown(const char *fix_named, char *buf, size_t n)
{
	const char *title;
	size_t k, tn;

	if (commit_ref(fix_named, &k, &title, &tn) && title)
		snprintf(buf, n, "%s", fix_named);
	else
		snprintf(buf, n, "\"%s\"", fix_named);
}

/* The piece that says what the command did. */
static int said(struct act_ctx *a, const struct mail_command *c,
		const struct record *r, int same, const char *dup_subject,
		struct pb_err *err)
{
	char shown[CMD_ARG_MAX + 8];
	struct ctx x;

	ctx_init(&x, "answer");
	ctx_bool(&x, "same", same);
	ctx_bool(&x, "fix", c->kind == CMD_FIX);
	ctx_bool(&x, "unfix", c->kind == CMD_UNFIX);
	ctx_bool(&x, "dup", c->kind == CMD_DUP);
	ctx_bool(&x, "undup", c->kind == CMD_UNDUP);
	ctx_bool(&x, "invalid", c->kind == CMD_INVALID);
	ctx_bool(&x, "reopen", c->kind == CMD_REOPEN);
	ctx_bool(&x, "no_reminders", c->kind == CMD_SET);
	ctx_bool(&x, "reminders", c->kind == CMD_UNSET);
	ctx_str(&x, "status", r->status);
	if (r->fix_named) {
		lifecmd_fix_shown(r->fix_named, shown, sizeof(shown));
		ctx_str(&x, "fix_named", shown);
	} else {
		ctx_opt(&x, "fix_named", NULL);
	}
	ctx_opt(&x, "dup_subject", dup_subject);
	ctx_opt(&x, "dup_of", r->dup_of);
	ctx_opt(&x, "reason", r->reason);
	ctx_bool(&x, "tracking", a->cfg->tracking.repo != NULL);
	ctx_bool(&x, "quiet", r->no_reminders);
	ctx_bool(&x, "line_of_reminder", c->remind_line != 0);
	ctx_int(&x, "ref", c->remind_line);
	ctx_opt(&x, "subject", c->remind_line ? r->subject : NULL);
	return answers_piece_of(a, "record", &x, err);
}

/* dup: the report it names, into 'ch->arg' ('*root', malloc'd). */
static int dup_target(struct act_ctx *a, const struct mail_command *c,
		      const struct record *r, char **root, char **subject,
		      struct pb_err *err)
{
	char why[160];
	struct record t;
	int found, loop, itself;

	if (lifecmd_find_report(a->st, a->cfg, c->arg, root, why, sizeof(why),
				err))
		return -1;
	if (!*root)
		return piece_invalid(a, c, why, err) ? -1 : 1;
	itself = !strcmp(*root, r->report_id);
	loop = dup_root(a->st, r->report_id, root, err);
	if (loop < 0)
		return -1;
	if (loop)
		return piece_invalid(a, c, itself ? "a report cannot "
				     "duplicate itself" : "that report is a "
				     "duplicate of this one", err) ? -1 : 1;
	if (state_record_get(a->st, *root, &t, &found, err))
		return -1;
	*subject = found && t.subject ? strdup(t.subject) : NULL;
	record_release(&t);
	return 0;
}

/*
 * Write the transition and say so: 0, 1 when it was refused (the reason
 * said), -1 when the state or a template fails.
 */
static int transition(struct act_ctx *a, const struct mail_command *c,
		      struct record *r, const struct reg_change *ch,
		      const char *dup_subject, struct pb_err *err)
{
	struct record_event ev = { 0 };
	char why[160] = "";
	char *from = strdup(r->status);
	int rc;

	if (!from)
		return pb_fail(err, EX_OSERR, "out of memory");
	rc = regression_next(r, ch, why, sizeof(why));
	if (rc < 0 && !strcmp(why, "out of memory"))
		rc = pb_fail(err, EX_OSERR, "out of memory");
	else if (rc < 0)
		rc = piece_invalid(a, c, why, err) ? -1 : 1;
	else if (rc == 0) {
		ev.event = (char *)regression_event_name(ch->ev);
		ev.from = from;
		ev.to = r->status;
		ev.by = (char *)a->t->from_addr;
		ev.detail = (char *)ch->arg;
		ev.source = (char *)a->t->message_id;
		rc = state_record_put(a->st, r, &ev, a->now, err) ||
		     said(a, c, r, 0, dup_subject, err) ? -1 : 0;
	} else {
		rc = said(a, c, r, 1, dup_subject, err) ? -1 : 0;
	}
	free(from);
	return rc;
}

int lifecmd_act(struct act_ctx *a, const struct mail_command *c,
		size_t index, struct pb_err *err)
{
	struct reg_change ch = { REG_EV_FIX, NULL, NULL, NULL, NULL, 0 };
	char *root = NULL, *subject = NULL, fix[CMD_ARG_MAX];
	struct record r;
	int rc;

	(void)index;
	memset(&r, 0, sizeof(r));
	rc = target(a, c, &r, err);
	if (rc)
		return rc;
	ch.ev = event_of[c->kind];
	if (c->kind == CMD_FIX) {
		fix_arg(c->arg, fix, sizeof(fix));
		ch.arg = fix;
	} else if (c->kind == CMD_INVALID) {
		ch.arg = c->arg[0] ? c->arg : NULL;
	} else if (c->kind == CMD_DUP) {
		rc = dup_target(a, c, &r, &root, &subject, err);
		ch.arg = root;
	}
	if (!rc)
		rc = transition(a, c, &r, &ch, subject, err);
	free(root);
	free(subject);
	record_release(&r);
	/* a refusal (1) is answered to the sender alone: dispatch.h */
	return rc < 0 ? -1 : rc;
}
