// SPDX-License-Identifier: GPL-2.0-only
/*
 * act: the one table of mail commands and its loop over a mail's
 * commands. Each command is parsed (from parse/commands.c), checked
 * against the limits, then done, by the functions of its own file
 * (retest.c, test.c, lifecmd.c; help and an unknown line here); what it
 * says becomes one piece of the answer queued in the thread
 * (answers.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "perfbot/act/bisect.h"
#include "perfbot/act/dispatch.h"
#include "perfbot/act/lifecmd.h"
#include "perfbot/act/route.h"
#include "perfbot/act/retest.h"
#include "perfbot/act/test.h"


/* ---- help, and a line that is no command ---- */

static int parse_help(const char *args, struct mail_command *c)
{
	c->runs = 0;
	return *args || c->colon ? -1 : 0;
}

static int check_none(const struct mail_command *c,
		      const struct command_limits *l, char *why, size_t whylen)
{
	(void)c;
	(void)l;
	(void)why;
	(void)whylen;
	return 0;
}

/* The table's commands, for the help and unknown answers. */
static void command_list(struct ctx *x)
{
	struct ctx c;
	size_t i;

	ctx_list(x, "commands");
	for (i = 0; i < command_count; i++) {
		ctx_init(&c, "answer");
		ctx_str(&c, "usage", command_table[i].usage);
		ctx_str(&c, "summary", command_table[i].summary);
		ctx_add(x, "commands", &c);
	}
}

static int act_help(struct act_ctx *a, const struct mail_command *c,
		    size_t index, struct pb_err *err)
{
	struct ctx x;

	(void)c;
	(void)index;
	ctx_init(&x, "answer");
	command_list(&x);
	ctx_int(&x, "max_runs", a->cfg->limits.max_runs);
	return answers_piece_of(a, "help", &x, err);
}

static int act_unknown(struct act_ctx *a, const struct mail_command *c,
		       struct pb_err *err)
{
	const struct command_def *def = c->near == CMD_NEAR_BARE ?
		command_by_name(c->arg, strlen(c->arg)) : NULL;
	struct ctx x;

	ctx_init(&x, "answer");
	if (c->near) {	/* the form meant: a name's usage, or the line */
		ctx_str(&x, "line", c->line);
		ctx_str(&x, "meant", def ? def->usage : c->arg);
		return answers_piece_of(a, "near", &x, err);
	}
	ctx_str(&x, "line", c->line);
	command_list(&x);
	return answers_piece_of(a, "unknown", &x, err);
}

/* ---- the table ---- */

const struct command_def command_table[] = {
	{ "retest", CMD_RETEST, "retest [N]x",
	  "rerun the job N more times on both commits", retest_parse,
	  retest_check, retest_act },
	{ "test", CMD_TEST, "test [REPO BRANCH | COMMIT] [N]x",
	  "run the job on your mail's patch, a tree or a commit",
	  test_parse, test_check, test_act },
	{ "fix", CMD_FIX, "fix: TITLE or SHA",
	  "name the commit that fixes the regression (its exact title, or "
	  "7 to 40 hex digits of its sha)", lifecmd_parse_fix, lifecmd_check,
	  lifecmd_act },
	{ "unfix", CMD_UNFIX, "unfix", "forget the fix named",
	  lifecmd_parse_bare, lifecmd_check, lifecmd_act },
	{ "dup", CMD_DUP, "dup: REPORT",
	  "a duplicate of another report (its Message-ID, archive link or "
	  "exact subject)", lifecmd_parse_dup, lifecmd_check, lifecmd_act },
	{ "undup", CMD_UNDUP, "undup", "not a duplicate after all",
	  lifecmd_parse_bare, lifecmd_check, lifecmd_act },
	{ "invalid", CMD_INVALID, "invalid: REASON",
	  "not a regression (the reason is optional)", lifecmd_parse_invalid,
	  lifecmd_check, lifecmd_act },
	{ "reopen", CMD_REOPEN, "reopen", "open it again",
	  lifecmd_parse_bare, lifecmd_check, lifecmd_act },
	{ "set", CMD_SET, "set no-reminders",
	  "leave it out of the reminders", lifecmd_parse_set, lifecmd_check,
	  lifecmd_act },
	{ "unset", CMD_UNSET, "unset no-reminders",
	  "list it in the reminders again", lifecmd_parse_set, lifecmd_check,
	  lifecmd_act },
	{ "bisect", CMD_BISECT, "bisect",
	  "find the commit of the report's range that caused the change, "
	  "through the farm", bisect_cmd_parse, bisect_cmd_check,
	  bisect_cmd_act },
	{ "help", CMD_HELP, "help", "list the commands", parse_help,
	  check_none, act_help },
};

const size_t command_count = sizeof(command_table) / sizeof(command_table[0]);

const struct command_def *command_by_kind(int kind)
{
	size_t i;

	for (i = 0; i < command_count; i++)
		if ((int)command_table[i].kind == kind)
			return &command_table[i];
	return NULL;
}

const struct command_def *command_by_name(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < command_count; i++)
		if (strlen(command_table[i].name) == len &&
		    !strncasecmp(command_table[i].name, name, len))
			return &command_table[i];
	return NULL;
}

int command_lookup(const char *word, size_t len, struct command_word *w)
{
	const struct command_def *def = command_by_name(word, len);
	size_t n;

	if (!def)
		return -1;
	w->kind = def->kind;
	w->parse = def->parse;
	/* its usage writes its text after "NAME:" ("fix: TITLE or SHA") */
	n = strlen(def->name);
	w->near_bare = !strncmp(def->usage, def->name, n) &&
		def->usage[n] == ':';
	return 0;
}

int command_check(const struct mail_command *c, const struct command_limits *l,
		  char *why, size_t whylen)
{
	const struct command_def *def = command_by_kind(c->kind);

	if (!def) {
		snprintf(why, whylen, "unknown command '%s'", c->line);
		return -1;
	}
	return def->check(c, l, why, whylen);
}

/* ---- acting on a mail ---- */

int dispatch_commands(struct act_ctx *a, const struct mail_command *cmds,
		      size_t n, size_t seen, struct pb_err *err)
{
	struct command_limits lim = { (int)a->cfg->limits.max_runs };
	size_t i, max = (size_t)a->cfg->limits.commands_per_mail;
	const struct command_def *def;
	char why[160];
	struct ctx x;
	int rc;

	for (i = 0; i < n && i < max; i++) {
		const struct mail_command *c = &cmds[i];

		def = command_by_kind(c->kind);
		if (!def) {
			if (act_unknown(a, c, err))
				return -1;
		} else if (def->check(c, &lim, why, sizeof(why))) {
			ctx_init(&x, "answer");
			ctx_str(&x, "line", c->line);
			ctx_str(&x, "why", why);
			if (answers_piece_of(a, "invalid", &x, err))
				return -1;
		} else if ((rc = def->act(a, c, i, err)) < 0) {
			return -1;
		} else if (rc == 0) {
			a->acted = 1;
		}
	}
	if (seen <= max)
		return 0;
	ctx_init(&x, "answer");
	ctx_int(&x, "limit", (long long)max);
	ctx_int(&x, "ignored", (long long)(seen - max));
	return answers_piece_of(a, "too-many", &x, err);
}

/*
 * The answer: the one piece 'tmpl', or (NULL) what the commands said;
 * none when nothing is left to say. Only a command done for one of the
 * report's recipients is answered in front of the list ('list'), so that
 * another robot in the thread never gets the list into a loop; anything
 * else, and an answer that only says a retest is open already, goes to
 * the sender alone.
 */
static int answer(struct act_ctx *a, const struct reply *r, const char *tmpl,
		  int list, size_t *sent, struct pb_err *err)
{
	struct answer_thread solo_t = *a->t;
	struct thread_report solo;
	struct ctx none;
	size_t n;
	int rc;

	*sent = 0;
	answer_pieces_release(&a->pieces);
	if (tmpl) {
		ctx_init(&none, "answer");	/* nothing but the bot's name */
		rc = answers_piece_of(a, tmpl, &none, err);
	} else {
		rc = dispatch_commands(a, r->cmds, r->ncmds, r->ncmds_seen,
				       err);
	}
	n = a->pieces.n;
	if (a->t->report && (!(list && a->acted) || a->repeats == n)) {
		solo = *a->t->report;
		solo.recipients = "[]";
		solo_t.report = &solo;
	}
	if (!rc && n) {
		struct answer_mail m = { .t = &solo_t, .tag = "",
					 .pieces = &a->pieces };

		rc = answers_queue(a->st, a->cfg, &m, a->now, err);
	}
	*sent = rc ? 0 : n;
	answer_pieces_release(&a->pieces);
	return rc;
}

/* What a repeated request made of the answer ('sent' pieces), recorded. */
static void repeat_outcome(const struct act_ctx *a, size_t sent,
			   struct auth *au)
{
	if (a->repeats && sent)
		snprintf(au->outcome, sizeof(au->outcome), "%s",
			 DISPATCH_OUT_REPEAT);
	else if (a->silenced && !sent) {
		snprintf(au->outcome, sizeof(au->outcome), "%s",
			 DISPATCH_OUT_SILENCED);
		au->tell = 0;
		au->verdict = AUTH_IGNORE;
	}
}

int dispatch_reply(struct state *st, const struct config *cfg, time_t now,
		   const struct reply *r, const struct route *rt,
		   struct auth *au, struct pb_err *err)
{
	const struct thread_report *tr = rt->kind == ROUTE_REPORT ? &rt->tr :
		NULL;
	struct answer_thread t;
	struct act_ctx a = { .st = st, .cfg = cfg, .now = now, .t = &t,
			     .patch = &r->patch };
	size_t sent;
	int rc;

	if (!au->tell)
		return 0;
	a.reminder_id = rt->kind == ROUTE_REMINDER ? rt->reminder_id : NULL;
	route_thread(r, tr, &t);
	switch (au->verdict) {
	case AUTH_COMMAND:
		rc = answer(&a, r, NULL, au->recipient, &sent, err);
		if (!rc)
			repeat_outcome(&a, sent, au);
		return rc;
	case AUTH_NOREPORT:
		return answer(&a, r, "noreport", 0, &sent, err);
	case AUTH_REFUSE:
		/* a refusal goes to the sender alone, never to the list */
		return answer(&a, r, "refused", 0, &sent, err);
	default:
		return 0;
	}
}
