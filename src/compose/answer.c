// SPDX-License-Identifier: GPL-2.0-only
/*
 * compose: the bot's answers in a thread, put together from pieces
 * rendered from templates, as composed mails ready for the outbox.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "perfbot/compose/answer.h"
#include "perfbot/util/id.h"
#include "perfbot/compose/identity.h"
#include "perfbot/compose/mail.h"
#include "perfbot/compose/recipients.h"
#include "perfbot/render/template.h"
#include "perfbot/compose/thread.h"
#include "perfbot/compose/values.h"
#include "perfbot/state/inbox.h"
#include "perfbot/util/text.h"

int answer_piece(const struct config *cfg, const char *name, json_t *ctx,
		 char **out, struct pb_err *err)
{
	struct strbuf sb = STRBUF_INIT;

	*out = NULL;
	/* here every value of an answer enters the mail */
	if (values_scrub(ctx, err) ||
	    template_render(cfg, name, ctx, &sb, err)) {
		sb_release(&sb);
		return -1;
	}
	*out = sb_detach(&sb, NULL);
	return *out ? 0 : pb_fail(err, EX_OSERR, "out of memory");
}

int answer_piece_of(const struct config *cfg, const char *name,
		    struct ctx *c, char **out, struct pb_err *err)
{
	json_t *ctx = NULL;
	int rc;

	*out = NULL;
	if (ctx_finish(c, &ctx, err))
		return -1;
	rc = answer_piece(cfg, name, ctx, out, err);
	json_decref(ctx);
	return rc;
}

int answer_pieces_add(struct answer_pieces *p, const char *text)
{
	char **v, *s;

	if (!utf8_valid(text, strlen(text)))
		return 0;
	v = realloc(p->v, (p->n + 1) * sizeof(*v));
	if (!v)
		return -1;
	p->v = v;
	if (!(s = strdup(text)))
		return -1;
	p->v[p->n++] = s;
	return 0;
}

void answer_pieces_release(struct answer_pieces *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
	p->v = NULL;
	p->n = 0;
}

/*
 * References: their chain (a reply without References has In-Reply-To
 * for it, and the report above it) and their Message-ID; the thread's
 * root and the report's id stay however long the chain.
 */
static char *references(const struct answer_thread *r,
			const struct thread_report *tr)
{
	const char *chain[REPLY_MAX_REFS + 2];
	const char *report = tr ? tr->message_id : NULL;
	size_t n = 0, i;

	if (report)
		chain[n++] = report;
	for (i = 0; i < r->nrefs && n < REPLY_MAX_REFS + 1; i++)
		chain[n++] = r->references[i];
	if (!r->nrefs && r->in_reply_to)
		chain[n++] = r->in_reply_to;
	/* the report heads the chain only where the chain lacks it */
	if (report && thread_has(chain + 1, n - 1, report))
		return thread_references(chain + 1, n - 1, report,
					 r->message_id);
	return thread_references(chain, n, report, r->message_id);
}

static char *body_of(const struct config *cfg, const struct answer_thread *r,
		     const struct thread_report *tr,
		     const struct answer_pieces *pieces, struct pb_err *err)
{
	json_t *list = json_array(), *ctx;
	char *body = NULL;
	size_t i;

	for (i = 0; list && i < pieces->n; i++)
		if (json_array_append_new(list, json_string(pieces->v[i]))) {
			json_decref(list);
			list = NULL;
		}
	ctx = !list ? NULL : json_pack("{s:o, s:s, s:o, s:o, s:s}", "pieces",
				list, "sender", r->from_addr,
				"sender_name", r->from_name ?
				json_string(r->from_name) : json_null(),
				"report_subject", tr ? json_string(tr->subject) :
				json_null(), "bot_name", cfg->identity.name);
	if (!ctx)
		pb_fail(err, EX_OSERR, "out of memory");
	else
		answer_piece(cfg, "answer", ctx, &body, err);
	json_decref(ctx);
	return body;
}

struct answer_parts {
	char *refs, *in_reply_to, *body;
	struct addrlist to, cc;
};

static void parts_release(struct answer_parts *a)
{
	free(a->refs);
	free(a->in_reply_to);
	free(a->body);
	addrlist_release(&a->to);
	addrlist_release(&a->cc);
}

/* The ids, the envelope and the headers of the answer. */
static int build(struct answer_parts *a, struct composed *c,
		 const struct config *cfg, const struct answer_thread *r,
		 const struct thread_report *tr, const char *tag, time_t now,
		 int draw, struct pb_err *err)
{
	struct strbuf irt = STRBUF_INIT;

	c->kind = "answer";
	c->date = now;
	c->sender = identity_sender(cfg);
	c->id = id_answer(r->message_id, tag);
	c->message_id = c->id ? identity_message_id(cfg, c->id, now, draw) :
		NULL;
	c->report_id = tr && tr->report_id ? strdup(tr->report_id) : NULL;
	c->subject = thread_subject(r->subject ? r->subject :
				    tr ? tr->subject : "");
	a->refs = references(r, tr);
	if (!sb_addf(&irt, "<%s>", r->message_id))
		a->in_reply_to = sb_detach(&irt, NULL);
	sb_release(&irt);
	if (!c->sender || !c->message_id || !c->subject || !a->refs ||
	    !a->in_reply_to || (tr && tr->report_id && !c->report_id) ||
	    recipients_answer(cfg, r->from_name, r->from_addr,
			      tr ? tr->recipients : NULL, c->sender, &a->to,
			      &a->cc) ||
	    mail_envelope(&a->to, &a->cc, &c->rcpts) || !c->rcpts.n)
		return pb_fail(err, EX_OSERR, "answer: out of memory");
	return 0;
}

int answer_compose(const struct config *cfg, const struct answer_thread *r,
		   const char *tag, const struct answer_pieces *pieces,
		   time_t now, int draw, struct composed *c,
		   struct pb_err *err)
{
	const struct thread_report *tr = r->report;
	struct answer_parts a = { 0 };
	struct mail mail = { 0 };
	int rc;

	composed_init(c);
	rc = build(&a, c, cfg, r, tr, tag ? tag : "", now, draw, err);
	if (!rc && !(a.body = body_of(cfg, r, tr, pieces, err)))
		rc = -1;
	if (!rc) {
		mail.from = cfg->identity.from;
		mail.to = &a.to;
		mail.cc = &a.cc;
		mail.subject = c->subject;
		mail.body = a.body;
		mail.message_id = c->message_id;
		mail.date = now;
		mail.in_reply_to = a.in_reply_to;
		mail.references = a.refs;
		mail.auto_submitted = "auto-replied";
		mail.report_id = c->report_id;
		rc = mail_compose(&mail, &c->msg, err);
	}
	parts_release(&a);
	return rc;
}
