/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_LIFECMD_H
#define PERFBOT_LIFECMD_H

#include <stddef.h>

#include "perfbot/act/dispatch.h"

/*
 * act: the mail commands on a report's record (act/regression.h), the
 * entries of the one command table of act/dispatch.c:
 *
 *   fix: TITLE | SHA        the commit that fixes it (its exact title, or
 *                           7 to 40 hex digits of its sha)
 *   unfix                   forget the fix
 *   dup: REPORT             a duplicate of another report (its
 *                           Message-ID, archive link or exact subject)
 *   undup                   no duplicate after all
 *   invalid [REASON]        not a regression (the reason only after a
 *                           ':' or the "#perfbot" prefix, so that prose
 *                           such as "Invalid argument" is no command)
 *   reopen                  open again (fixed, invalid, duplicate)
 *   set no-reminders | unset no-reminders
 *
 * In the report's thread each acts on its report; in a reply to a
 * reminder each names a line of it ("invalid <2>", "set <2>
 * no-reminders"), and the sender must be one who may command that line's
 * report (its recipients, commands.allow). Each transition is written
 * with who asked and the mail's Message-ID, in the transaction that
 * records the mail and queues its answer, which says the new status.
 */

int lifecmd_parse_fix(const char *args, struct mail_command *c);
int lifecmd_parse_dup(const char *args, struct mail_command *c);
int lifecmd_parse_bare(const char *args, struct mail_command *c);
int lifecmd_parse_invalid(const char *args, struct mail_command *c);
int lifecmd_parse_set(const char *args, struct mail_command *c);

int lifecmd_check(const struct mail_command *c,
		  const struct command_limits *l, char *why, size_t whylen);

int lifecmd_act(struct act_ctx *a, const struct mail_command *c,
		size_t index, struct pb_err *err);

/*
 * A fix named as answers and reminders show it, into 'buf': git's
 * reference form as it is (0123abcdef99 ("mm: fix it")), anything else
 * in quotes ("mm: fix it").
 */
void lifecmd_fix_shown(const char *fix_named, char *buf, size_t n);

/*
 * The report 'key' names, as 'dup:' takes it: a report id, its
 * Message-ID (with or without <>), its archive link (identity.archive_url,
 * or any link with the Message-ID as a path segment) or its exact
 * subject (a "Re: " before it ignored). '*report_id' malloc'd, NULL when
 * none; then 'why' says so (none, or several with that subject).
 */
int lifecmd_find_report(struct state *st, const struct config *cfg,
			const char *key, char **report_id, char *why,
			size_t whylen, struct pb_err *err);

#endif
