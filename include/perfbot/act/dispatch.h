/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_DISPATCH_H
#define PERFBOT_DISPATCH_H

#include <stddef.h>
#include <time.h>
#include <jansson.h>

#include "perfbot/compose/answer.h"
#include "perfbot/act/answers.h"
#include "perfbot/act/authorize.h"
#include "perfbot/parse/commands.h"
#include "perfbot/config/config.h"
#include "perfbot/parse/reply.h"
#include "perfbot/render/context.h"
#include "perfbot/act/route.h"
#include "perfbot/state/state.h"

/*
 * act: the one table of mail commands, { name, parse, check, act }
 * (doc/style.md). parse reads the arguments (called by the syntax step,
 * parse/commands.c, so prose is never a command); check holds them
 * against the limits in force, touching nothing; act does the command
 * and adds its piece to the answer. A line the syntax step marked
 * CMD_UNKNOWN is in no table entry: it is answered with the commands
 * the table has.
 */

struct command_limits {
	int max_runs;		/* retest N must be 1..max_runs */
};

/*
 * The outcomes recorded for a mail that repeats a request while a
 * retest of the report is open: answered (once per open retest, to the
 * sender alone), or not answered again.
 */
#define DISPATCH_OUT_REPEAT "answered: a repeat while a retest is open"
#define DISPATCH_OUT_SILENCED "ignored: a repeat while a retest is open " \
	"(answered once already)"

/*
 * The commands, one value each (mail_command.kind; the grammar's
 * CMD_UNKNOWN, parse/commands.h, is none of them).
 */
enum cmd_kind {
	CMD_RETEST = CMD_UNKNOWN + 1, CMD_HELP, CMD_TEST, CMD_FIX, CMD_UNFIX,
	CMD_DUP, CMD_UNDUP, CMD_INVALID, CMD_REOPEN, CMD_SET, CMD_UNSET,
	CMD_BISECT
};

struct command_def {
	const char *name;	/* first word, matched case-insensitively */
	enum cmd_kind kind;
	const char *usage;	/* "retest [N]x", for the help answer; one
				 * that starts "NAME: " takes its text after
				 * the ':' ("fix:" alone nearly is it) */
	const char *summary;	/* one line, for the help answer */
	/* 0 when 'args' (trimmed, NUL-terminated) are valid, else -1. */
	int (*parse)(const char *args, struct mail_command *c);
	/* 0 when 'c' is within 'l', else -1 and a reason in 'why'. */
	int (*check)(const struct mail_command *c,
		     const struct command_limits *l, char *why, size_t whylen);
	/*
	 * Do command number 'index' of the mail: 0 done, 1 answered but
	 * not done (a refusal: the answer goes to the sender alone), or -1
	 * with 'err'.
	 */
	int (*act)(struct act_ctx *a, const struct mail_command *c,
		   size_t index, struct pb_err *err);
};

extern const struct command_def command_table[];
extern const size_t command_count;

/* The table entry of 'kind', NULL for CMD_UNKNOWN. */
const struct command_def *command_by_kind(int kind);

/* The entry named 'name' ('len' bytes, any case), or NULL. */
const struct command_def *command_by_name(const char *name, size_t len);

/* The table as the syntax step reads it (parse/commands.h, reply_opts). */
int command_lookup(const char *word, size_t len, struct command_word *w);

/*
 * The check step: 0 when 'c' may be done under 'l', else -1 with a short
 * reason in 'why' ("retest: N must be between 1 and 20"). CMD_UNKNOWN
 * always fails ("unknown command '...'").
 */
int command_check(const struct mail_command *c, const struct command_limits *l,
		  char *why, size_t whylen);

/*
 * Check, then act on, each of the 'n' commands up to
 * limits.commands_per_mail ('seen' were found in all: past the limit the
 * answer says how many were ignored). A command that fails its check is
 * answered with the reason; only rendering or the state failing is -1.
 */
int dispatch_commands(struct act_ctx *a, const struct mail_command *cmds,
		      size_t n, size_t seen, struct pb_err *err);

/*
 * Act on reply 'r' as routed ('rt') and authorized ('au'): when the
 * sender is to be told (au->tell), queue the answer in its thread (tag
 * ""): what acting on its commands said (AUTH_COMMAND), that the thread
 * is of no report (AUTH_NOREPORT), or a refusal, to the sender alone
 * (AUTH_REFUSE). A repeated request while a retest of the report is open
 * is answered once per open retest, to the sender alone when the answer
 * says nothing else; au->outcome then becomes DISPATCH_OUT_REPEAT, or,
 * when nothing was left to say, DISPATCH_OUT_SILENCED (au->tell 0,
 * au->verdict AUTH_IGNORE).
 */
int dispatch_reply(struct state *st, const struct config *cfg, time_t now,
		   const struct reply *r, const struct route *rt,
		   struct auth *au, struct pb_err *err);

#endif
