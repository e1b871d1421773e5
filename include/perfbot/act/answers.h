/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_ACT_ANSWERS_H
#define PERFBOT_ACT_ANSWERS_H

#include <stddef.h>
#include <time.h>

#include "perfbot/compose/answer.h"
#include "perfbot/compose/reminder.h"
#include "perfbot/config/config.h"
#include "perfbot/parse/commands.h"
#include "perfbot/parse/reply.h"
#include "perfbot/render/context.h"
#include "perfbot/state/state.h"

/*
 * act: the answer service (answers.c), below the commands: every answer
 * perfbot queues in a thread, a command's, a follow-up's, a record's or
 * a reminder's, is its pieces (each rendered from its template with the
 * bot's name) composed into one mail and queued by answers_queue(), the
 * one entry point, which draws another Message-ID while the state holds
 * the one drawn. The commands (dispatch.c's table, test.c, lifecmd.c)
 * add their pieces to the struct act_ctx of the mail they act on; the
 * answers of one piece (a follow-up, a record's move) are answers_one().
 */

/* What acting on one mail needs, and the answer's pieces it adds to. */
struct act_ctx {
	struct state *st;
	const struct config *cfg;
	time_t now;
	const struct answer_thread *t;	/* the mail answered, its report */
	struct answer_pieces pieces;	/* the rendered pieces */
	size_t repeats;		/* pieces that answer a repeated request
				 * while a retest is open */
	size_t silenced;	/* such requests left unanswered: the open
				 * retest's repeat was answered already */
	int acted;		/* a known command was done */
	const struct reply_patch *patch;	/* the mail's patch, for
						 * "test"; NULL: none */
	size_t tests;		/* tests asked by this mail so far */
	const char *reminder_id;	/* the thread is a reminder's (its
					 * lines name the records), or NULL */
};

/*
 * Render templates/<tmpl>.txt with the context being built in 'c' (the
 * template context is all a command or a follow-up hands over; released
 * whatever happens: a value missing from it is the error) and the bot's
 * name, and add it to a->pieces.
 */
int answers_piece_of(struct act_ctx *a, const char *tmpl, struct ctx *c,
		     struct pb_err *err);

/*
 * The answer to a command of one report ('word': "retest", "test") in a
 * thread of several (a reminder's): "answer the report itself", as a
 * refusal (1; -1 when rendering fails).
 */
int answers_not_here(struct act_ctx *a, const struct mail_command *c,
		     const char *word, struct pb_err *err);

/* What is queued: an answer in thread 't', or a reminder (a thread of
 * its own). */
struct answer_mail {
	const struct answer_thread *t;	/* NULL: the reminder 'reminder_id' */
	const char *tag;	/* the answer's: "" for the immediate one */
	const struct answer_pieces *pieces;	/* its pieces (not taken) */
	const char *reminder_id;
	const struct reminder_text *reminder;	/* rendered */
};

/*
 * The one entry point: compose 'm' (compose/answer.h, reminder.h) and
 * queue it in the outbox, with another Message-ID while the state holds
 * the one drawn (ID_DRAWS at most). Opens no transaction.
 */
int answers_queue(struct state *st, const struct config *cfg,
		  const struct answer_mail *m, time_t now, struct pb_err *err);

/* An answer of one piece, 'tmpl' with 'c' (released), in thread 't'. */
int answers_one(struct state *st, const struct config *cfg,
		const struct answer_thread *t, const char *tag,
		const char *tmpl, struct ctx *c, time_t now,
		struct pb_err *err);

#endif
