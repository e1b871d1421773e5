// SPDX-License-Identifier: GPL-2.0-only
/*
 * route: the step after parsing. Decides what a reply is (a bounce, a
 * robot's or the bot's own mail, also relayed back to it, one with
 * nothing to do, or commands) and
 * which report its thread is about, from the parsed mail and the bot's
 * own mails in the state; it changes nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/act/route.h"
#include "perfbot/compose/identity.h"
#include "perfbot/state/records.h"
#include "perfbot/state/outbox.h"
#include "perfbot/state/inbox.h"
#include "perfbot/util/id.h"
#include "perfbot/util/log.h"
#include "perfbot/util/strbuf.h"

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

/*
 * The lines of 'text' under its first "-- " line, each without its
 * trailing blanks, at most REPLY_MAX_SIGNATURE: how parse/quote.c keeps
 * a reply's signature. NULL when there is none or out of memory.
 */
static char *signature_lines(const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = strstr(text, "\n-- \n");
	size_t n, k = 0;

	p = !strncmp(text, "-- \n", 4) ? text + 4 : p ? p + 5 : NULL;
	for (; p && *p && k < REPLY_MAX_SIGNATURE; k++) {
		size_t line = strcspn(p, "\n");

		for (n = line; n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t');
		     n--)
			;
		if (sb_add(&sb, p, n) || sb_addc(&sb, '\n')) {
			sb_release(&sb);
			return NULL;
		}
		p += line + (p[line] == '\n');
	}
	if (!sb.len) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb, NULL);
}

/* The first word of an answer ("Hi"), as templates/answer.txt opens. */
static int greeting_of(const struct config *cfg, char **out,
		       struct pb_err *err)
{
	struct ctx c;
	char *text = NULL;
	size_t n;
	int rc;

	*out = NULL;
	ctx_init(&c, "answer");
	ctx_strings(&c, "pieces", NULL, 0);
	ctx_str(&c, "sender", "");
	ctx_opt(&c, "sender_name", NULL);
	ctx_opt(&c, "report_subject", NULL);
	ctx_str(&c, "bot_name", cfg->identity.name);
	rc = answer_piece_of(cfg, "answer", &c, &text, err);
	n = text ? strcspn(text, " ,\n") : 0;
	if (!rc && n && !(*out = strndup(text, n)))
		rc = pb_fail(err, EX_OSERR, "out of memory");
	free(text);
	return rc;
}

/*
 * The bot's text as its templates render it. A template that cannot be
 * rendered only leaves the text unknown: each answer then fails on its
 * own and is recorded so (poll.c), and the poll goes on.
 */
static void own_text_init(struct route_self *self, const struct config *cfg)
{
	struct pb_err e = { 0, "" };
	char *text = NULL;
	struct ctx c;

	ctx_init(&c, "answer");
	ctx_str(&c, "bot_name", cfg->identity.name);
	if (!answer_piece_of(cfg, "signature", &c, &text, &e))
		self->signature = signature_lines(text);
	free(text);
	if (self->signature && greeting_of(cfg, &self->greeting, &e)) {
		free(self->signature);
		self->signature = NULL;
	}
	if (!self->greeting)
		log_warn("the bot's own answers cannot be told by their text: "
			 "%s", e.msg[0] ? e.msg : "out of memory");
}

int route_self_init(struct route_self *self, const struct config *cfg,
		    struct pb_err *err)
{
	memset(self, 0, sizeof(*self));
	self->id_domain = cfg->identity.message_id_domain;
	self->addr = identity_sender(cfg);
	if (!self->addr)
		return pb_fail(err, EX_OSERR, "out of memory");
	own_text_init(self, cfg);
	return 0;
}

void route_self_release(struct route_self *self)
{
	free(self->addr);
	free(self->signature);
	free(self->greeting);
	memset(self, 0, sizeof(*self));
}

/*
 * 1 when the reply is an answer of the bot's: it opens as the bot's
 * answers open ("Hi ...,") and its signature starts with the lines of
 * the bot's own (a list may add its footer). A developer's reply with
 * the bot's answer appended without any mark opens with their own words.
 */
static int own_text(const struct reply *r, const struct route_self *self)
{
	size_t n = self->signature ? strlen(self->signature) : 0;
	size_t g = self->greeting ? strlen(self->greeting) : 0;

	return r->signature && n && !strncmp(r->signature, self->signature, n) &&
	       g && r->text && !strncmp(r->text, self->greeting, g) &&
	       (r->text[g] == ' ' || r->text[g] == ',');
}

/* The bot's own mail come back: why, or NULL. */
static const char *own_mail(struct state *st, const struct reply *r,
			    const struct route_self *self, struct pb_err *err)
{
	int sent = 0;

	if (!self)
		return NULL;
	if (r->message_id && id_is_ours(r->message_id, self->id_domain))
		return "ignored: the bot's own mail (its Message-ID)";
	if (r->message_id && state_outbox_has(st, r->message_id, &sent, err))
		return "";
	if (sent)
		return "ignored: the bot's own mail (its Message-ID)";
	if (own_text(r, self))
		return "ignored: the bot's own text (its signature)";
	return NULL;
}

/*
 * 1 when the thread holds a Message-ID of the bot's shape: a mail of the
 * bot's that the state does not know (a new or reset state on an old
 * mailbox), which "no report" would wrongly deny.
 */
static int own_thread(const struct reply *r, const struct route_self *self)
{
	size_t i;

	if (!self)
		return 0;
	if (r->in_reply_to && id_is_ours(r->in_reply_to, self->id_domain))
		return 1;
	for (i = 0; i < r->nrefs; i++)
		if (id_is_ours(r->references[i], self->id_domain))
			return 1;
	return 0;
}

/* A thread of no report may be a reminder's: In-Reply-To, References. */
static int reminder_of(struct state *st, const struct reply *r,
		       struct route *rt, struct pb_err *err)
{
	const char *ids[REPLY_MAX_REFS + 1];
	size_t n = 0, i;

	if (r->in_reply_to)
		ids[n++] = r->in_reply_to;
	for (i = r->nrefs; i > 0 && n < REPLY_MAX_REFS + 1; i--)
		ids[n++] = r->references[i - 1];
	return state_route_reminder(st, ids, n, &rt->reminder_id, err);
}

int route_reply(struct state *st, const struct reply *r,
		const struct route_self *self, struct route *rt,
		struct pb_err *err)
{
	const char *mine[1] = { self ? self->addr : NULL }, *why = NULL;

	memset(rt, 0, sizeof(*rt));
	if (r->is_dsn)
		return bounce(st, r, rt, err);
	if (reply_must_not_answer(r, mine, mine[0] ? 1 : 0, &why)) {
		rt->kind = ROUTE_ROBOT;
		snprintf(rt->outcome, sizeof(rt->outcome), "ignored: %s",
			 why ? why : "robot mail");
	} else if ((why = own_mail(st, r, self, err))) {
		if (!*why)
			return -1;
		rt->kind = ROUTE_ROBOT;
		snprintf(rt->outcome, sizeof(rt->outcome), "%s", why);
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
				 &rt->tr, &rt->found, err) ||
		    (!rt->found && reminder_of(st, r, rt, err)))
			return -1;
		rt->kind = rt->found ? ROUTE_REPORT : rt->reminder_id ?
			ROUTE_REMINDER : ROUTE_NO_REPORT;
		if (rt->kind == ROUTE_NO_REPORT && own_thread(r, self)) {
			rt->kind = ROUTE_LOST;
			snprintf(rt->outcome, sizeof(rt->outcome), "ignored: a "
				 "thread of the bot's mail the state does not "
				 "know");
		}
	}
	return 0;
}

void route_release(struct route *rt)
{
	thread_report_release(&rt->tr);
	free(rt->reminder_id);
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
