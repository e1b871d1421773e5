/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_ANSWER_H
#define PERFBOT_ANSWER_H

#include <time.h>
#include <jansson.h>

#include "perfbot/config/config.h"
#include "perfbot/parse/reply.h"
#include "perfbot/render/context.h"
#include "perfbot/compose/mail.h"
#include "perfbot/state/state.h"
#include "perfbot/state/inbox.h"

/*
 * The bot's answers in a thread (compose). Each piece of an answer (an
 * acknowledged retest, the help text, a refusal...) is rendered from its
 * template in templates/; the pieces are put together by
 * templates/answer.txt into a mail for the same outbox as the reports
 * (act/answers.c queues it): "Re: <subject>" (never "Re: Re:"),
 * In-Reply-To their Message-ID, References their chain plus their id, To
 * the sender, Cc the report's recipients (recipients.max_cc at most),
 * Auto-Submitted: auto-replied.
 */

/*
 * Render templates/<name>.txt with 'ctx' into a newly allocated string;
 * the values of 'ctx' are scrubbed first, in place (compose/values.h).
 */
int answer_piece(const struct config *cfg, const char *name, json_t *ctx,
		 char **out, struct pb_err *err);
/* The same with the context built in 'c' (released whatever happens). */
int answer_piece_of(const struct config *cfg, const char *name,
		    struct ctx *c, char **out, struct pb_err *err);

/*
 * The rendered pieces of one answer, in their order; each string is the
 * list's own. answer_pieces_add() copies 'text', leaving out (0) a text
 * that is not UTF-8, which no template context can hold; -1 when out of
 * memory. answer_pieces_release() leaves it empty, as ANSWER_PIECES_INIT.
 */
struct answer_pieces {
	char **v;
	size_t n;
};
#define ANSWER_PIECES_INIT { NULL, 0 }
int answer_pieces_add(struct answer_pieces *p, const char *text);
void answer_pieces_release(struct answer_pieces *p);

/*
 * The mail an answer answers, and its thread: built from a parsed reply
 * (act/route.c) or from what a retest kept of the mail that asked
 * (act/retest.c). Nothing is owned: every pointer is the caller's.
 */
struct answer_thread {
	const char *message_id;	/* the mail answered, without <> */
	const char *in_reply_to;	/* its In-Reply-To, or NULL */
	const char *const *references;	/* its References, the oldest first */
	size_t nrefs;
	const char *subject;	/* its subject, or NULL */
	const char *from_addr;	/* the sender to answer (addr-spec) */
	const char *from_name;	/* their display name, or NULL */
	const struct thread_report *report;	/* of the thread, or NULL */
};

/*
 * Compose the answer to 't' made of 'pieces',
 * copied to the recipients of t->report when there is one, into 'c'
 * (composed_release() it after, whatever the outcome). The answer's id
 * derives from the Message-ID it answers and 'tag' ("" for the immediate
 * answer, the retest request id for its follow-up), so that the outbox
 * never takes it twice; 'draw' > 0 gives it another Message-ID (when the
 * state holds the first: identity.h).
 */
int answer_compose(const struct config *cfg, const struct answer_thread *t,
		   const char *tag, const struct answer_pieces *pieces,
		   time_t now, int draw, struct composed *c,
		   struct pb_err *err);


#endif
