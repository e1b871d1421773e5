// SPDX-License-Identifier: GPL-2.0-only
/*
 * route: the step after parsing. Decides what a reply is (a bounce, a
 * robot's or the bot's own mail, one with nothing to do, or commands) and
 * which report its thread is about, from the parsed mail and the bot's
 * own mails in the state; it changes nothing.
 */
#include <stdio.h>
#include <string.h>

#include "perfbot/act/route.h"

int route_lookup(struct state *st, const char *in_reply_to,
		 const char *const *refs, size_t nrefs,
		 struct thread_report *tr, int *found, struct pb_err *err)
{
	const char *ids[REPLY_MAX_REFS + 1];
	size_t n = 0, i;

	if (in_reply_to)
		ids[n++] = in_reply_to;
	for (i = nrefs; i > 0 && n < REPLY_MAX_REFS + 1; i--)
		ids[n++] = refs[i - 1];
	return state_route(st, ids, n, tr, found, err);
}

static int bounce(struct state *st, const struct reply *r, struct route *rt,
		  struct pb_err *err)
{
	const char *ids[1] = { r->dsn_message_id };

	rt->kind = ROUTE_BOUNCE;
	if (r->dsn_message_id &&
	    state_route(st, ids, 1, &rt->tr, &rt->found, err))
		return -1;
	snprintf(rt->outcome, sizeof(rt->outcome), "%s", rt->found ?
		 "bounce: recorded against the report" :
		 "bounce: of no mail of the bot");
	return 0;
}

int route_reply(struct state *st, const struct reply *r, const char *own,
		struct route *rt, struct pb_err *err)
{
	const char *mine[1] = { own }, *why = NULL;

	memset(rt, 0, sizeof(*rt));
	if (r->is_dsn)
		return bounce(st, r, rt, err);
	if (reply_must_not_answer(r, mine, own ? 1 : 0, &why)) {
		rt->kind = ROUTE_ROBOT;
		snprintf(rt->outcome, sizeof(rt->outcome), "ignored: %s",
			 why ? why : "robot mail");
	} else if (!r->message_id) {
		rt->kind = ROUTE_NO_ID;
		snprintf(rt->outcome, sizeof(rt->outcome),
			 "ignored: no Message-ID");
	} else if (!r->ncmds) {
		rt->kind = ROUTE_NO_COMMANDS;
		snprintf(rt->outcome, sizeof(rt->outcome), "no commands");
	} else {
		if (route_lookup(st, r->in_reply_to,
				 (const char *const *)r->references, r->nrefs,
				 &rt->tr, &rt->found, err))
			return -1;
		rt->kind = rt->found ? ROUTE_REPORT : ROUTE_NO_REPORT;
	}
	return 0;
}

void route_release(struct route *rt)
{
	thread_report_release(&rt->tr);
	memset(rt, 0, sizeof(*rt));
}

void route_thread(const struct reply *r, const struct thread_report *tr,
		  struct answer_thread *t)
{
	t->message_id = r->message_id;
	t->in_reply_to = r->in_reply_to;
	t->references = (const char *const *)r->references;
	t->nrefs = r->nrefs;
	t->subject = r->subject;
	t->from_addr = r->from_addr;
	t->from_name = r->from_name;
	t->report = tr;
}
