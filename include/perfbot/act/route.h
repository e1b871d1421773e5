/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_ROUTE_H
#define PERFBOT_ROUTE_H

#include "perfbot/compose/answer.h"
#include "perfbot/config/config.h"
#include "perfbot/parse/reply.h"
#include "perfbot/state/state.h"
#include "perfbot/state/inbox.h"

/*
 * route: what a parsed reply is, before anybody is asked whether it may
 * command: a bounce (of a mail of the bot, or not), a mail the bot must
 * never answer (RFC 3834, robots, its own, also when relayed back to it),
 * one without a Message-ID or
 * without commands, or commands in a thread whose report is found (or
 * not) through the bot's own mails in its References, or in the thread
 * of a reminder (whose lines name the reports).
 */

enum route_kind {
	ROUTE_BOUNCE,		/* a DSN; 'found' when of a mail of the bot */
	ROUTE_ROBOT,		/* must never be answered */
	ROUTE_NO_ID,		/* no Message-ID to answer to */
	ROUTE_NO_COMMANDS,
	ROUTE_NO_REPORT,	/* commands, in a thread of no report */
	ROUTE_LOST,		/* commands in a thread of a mail of the
				 * bot's shape the state does not know */
	ROUTE_REPORT,		/* commands in the thread of report 'tr' */
	ROUTE_REMINDER,		/* commands in the thread of a reminder */
};

struct route {
	enum route_kind kind;
	int found;		/* ROUTE_BOUNCE: 'tr' is the bounced report */
	struct thread_report tr;	/* ROUTE_REPORT, or a found bounce */
	char outcome[160];	/* for the record, but for ROUTE_NO_REPORT,
				 * ROUTE_REPORT and ROUTE_REMINDER
				 * (authorize decides) */
	char *reminder_id;	/* ROUTE_REMINDER: its id (records.h) */
};

/*
 * How the bot knows a mail of its own that came back (a list that
 * rewrote From and dropped Auto-Submitted relays the bot's answer to it):
 * its From address, the Message-IDs it mints (identity.message_id_domain,
 * and the outbox), and its text: an answer's greeting (templates/
 * answer.txt) over the lines of its signature (templates/signature.txt
 * under its "-- ").
 */
struct route_self {
	char *addr;		/* the bot's From address, or NULL */
	const char *id_domain;	/* identity.message_id_domain, or NULL */
	char *signature;	/* the rendered signature's lines, or NULL */
	char *greeting;		/* the first word of its answers ("Hi") */
};

/*
 * Fill 'self' from 'cfg' (route_self_release() after, in both cases); a
 * template that cannot be rendered leaves the text unknown (a warning),
 * -1 only when out of memory.
 */
int route_self_init(struct route_self *self, const struct config *cfg,
		    struct pb_err *err);
void route_self_release(struct route_self *self);

/*
 * Route 'r'; 'self' (may be NULL) is how the bot knows its own mail:
 * From its address, a Message-ID of its shape on its domain or in its
 * outbox, or a text that opens as its answers do over a signature that
 * starts with its own is the bot's own, never answered. Only the state is read. 0, or -1 when the state fails;
 * route_release() after in both cases.
 */
int route_reply(struct state *st, const struct reply *r,
		const struct route_self *self, struct route *rt,
		struct pb_err *err);
void route_release(struct route *rt);

/*
 * The report of the thread of a mail with this In-Reply-To and these
 * References (the oldest first; 'in_reply_to' may be NULL), looked up
 * the closest first; 0 with '*found' 0 when none is the bot's.
 */
int route_lookup(struct state *st, const char *in_reply_to,
		 const char *const *refs, size_t nrefs,
		 struct thread_report *tr, int *found, struct pb_err *err);

/* The thread to answer 'r' in; 'tr' (may be NULL) is its report. */
void route_thread(const struct reply *r, const struct thread_report *tr,
		  struct answer_thread *t);

#endif
