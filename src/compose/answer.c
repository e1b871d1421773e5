// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "perfbot/answer.h"
#include "perfbot/fileio.h"
#include "perfbot/mail.h"
#include "perfbot/report.h"
#include "perfbot/strmap.h"

#define DEFAULT_MAX_CC 10
#define DEFAULT_FROM "perfbot <perfbot@localhost>"

int answer_piece(const struct config *cfg, const char *name, json_t *ctx,
		 char **out, struct pb_err *err)
{
	struct strbuf sb = STRBUF_INIT;

	*out = NULL;
	if (template_render(cfg, name, ctx, &sb, err)) {
		sb_release(&sb);
		return -1;
	}
	*out = sb_detach(&sb, NULL);
	return *out ? 0 : pb_fail(err, EX_OSERR, "out of memory");
}

/* Skip "Re:", "RE :", "Re[2]:", "Aw:" prefixes and blanks. */
static const char *strip_re(const char *s)
{
	const char *p;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (strncasecmp(s, "re", 2) && strncasecmp(s, "aw", 2))
			return s;
		p = s + 2;
		if (*p == '[') {
			while (isdigit((unsigned char)*++p))
				;
			if (*p++ != ']')
				return s;
		}
		while (*p == ' ')
			p++;
		if (*p != ':')
			return s;
		s = p + 1;
	}
}

char *answer_subject(const char *subject)
{
	struct strbuf sb = STRBUF_INIT;

	if (sb_addf(&sb, "Re: %s", strip_re(subject ? subject : ""))) {
		sb_release(&sb);
		return NULL;
	}
	text_one_line(sb.buf);
	return sb_detach(&sb, NULL);
}

static int listed(const char *const *v, size_t n, const char *id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], id))
			return 1;
	return 0;
}

char *thread_references(const char *const *refs, size_t n, const char *keep,
			const char *id)
{
	unsigned char *pick = calloc(n + 1, 1);
	size_t i, k = 1, bytes = strlen(id) + 2;
	struct strbuf sb = STRBUF_INIT;

	if (!pick)
		return NULL;
	/* the root and 'keep' first, then the newest, each id once */
	for (i = 0; i < n; i++) {
		int dup = !strcmp(refs[i], id) || listed(refs, i, refs[i]);

		if (!dup && (i == 0 || (keep && !strcmp(refs[i], keep))) &&
		    k < THREAD_MAX_REFS) {
			pick[i] = 1;
			k++;
			bytes += strlen(refs[i]) + 3;
		}
	}
	for (i = n; i > 0 && k < THREAD_MAX_REFS; i--) {
		const char *r = refs[i - 1];

		if (pick[i - 1] || !strcmp(r, id) || listed(refs, i - 1, r))
			continue;
		if (bytes + strlen(r) + 3 > THREAD_MAX_REFS_BYTES)
			break;
		bytes += strlen(r) + 3;
		pick[i - 1] = 1;
		k++;
	}
	for (i = 0; i < n; i++)	/* in the thread's order */
		if (pick[i])
			sb_addf(&sb, "%s<%s>", sb.len ? " " : "", refs[i]);
	sb_addf(&sb, "%s<%s>", sb.len ? " " : "", id);
	free(pick);
	return sb_detach(&sb, NULL);
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
	if (report && listed(chain + 1, n - 1, report))
		return thread_references(chain + 1, n - 1, report,
					 r->message_id);
	return thread_references(chain, n, report, r->message_id);
}

static json_t *addressees(const struct answer_thread *r)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *to;

	const char *c;

	if (r->from_name && *r->from_name) {
		sb_addc(&sb, '"');
		for (c = r->from_name; *c; c++)	/* no quoting games */
			sb_addc(&sb, *c == '"' || *c == '\\' ? '\'' : *c);
		sb_addf(&sb, "\" <%s>", r->from_addr);
	} else {
		sb_adds(&sb, r->from_addr);
	}
	to = json_pack("[s]", sb_str(&sb));
	sb_release(&sb);
	return to;
}

/* The report's recipients but the sender and the bot, capped. */
static json_t *copies(const struct config *cfg,
		      const struct answer_thread *r,
		      const struct thread_report *tr, const char *own)
{
	json_t *all = tr ? json_loads(tr->recipients, 0, NULL) : NULL;
	json_t *cc = json_array(), *v;
	long max = cfg_long(cfg, "recipients.max_cc", DEFAULT_MAX_CC);
	size_t i;

	json_array_foreach(all, i, v) {
		const char *a = json_string_value(v);

		if (!a || (long)json_array_size(cc) >= max ||
		    !strcasecmp(a, r->from_addr) || (own && !strcasecmp(a, own)))
			continue;
		json_array_append_new(cc, json_string(a));
	}
	json_decref(all);
	return cc;
}

static char *body_of(const struct config *cfg,
		     const struct answer_thread *r,
		     const struct thread_report *tr, json_t *pieces,
		     struct pb_err *err)
{
	json_t *ctx = json_pack("{s:o, s:s, s:o, s:o, s:s}", "pieces",
				json_incref(pieces), "sender", r->from_addr,
				"sender_name", r->from_name ?
				json_string(r->from_name) : json_null(),
				"report_subject", tr ? json_string(tr->subject) :
				json_null(), "bot_name",
				cfg_str(cfg, "identity.name", "perfbot"));
	char *body = NULL;

	if (!ctx)
		pb_fail(err, EX_OSERR, "out of memory");
	else
		answer_piece(cfg, "answer", ctx, &body, err);
	json_decref(ctx);
	return body;
}

static char *answer_id(const struct answer_thread *r, const char *tag)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned long long h = hash_fnv1a(r->message_id,
					  strlen(r->message_id), 0);

	h = hash_fnv1a(tag, strlen(tag), h);
	sb_addf(&sb, "a-%016llx", h);
	return sb_detach(&sb, NULL);
}

struct answer_parts {
	char *id, *msgid, *subject, *refs, *in_reply_to, *body, *sender;
	char *rcpts;
	json_t *to, *cc;
	struct strbuf msg;
};

static void parts_release(struct answer_parts *a)
{
	free(a->id);
	free(a->msgid);
	free(a->subject);
	free(a->refs);
	free(a->in_reply_to);
	free(a->body);
	free(a->sender);
	free(a->rcpts);
	json_decref(a->to);
	json_decref(a->cc);
	sb_release(&a->msg);
}

static int build(struct answer_parts *a, const struct config *cfg,
		 const struct answer_thread *r, const struct thread_report *tr,
		 const char *tag, json_t *pieces, time_t now,
		 struct pb_err *err)
{
	const char *from = cfg_str(cfg, "identity.from", DEFAULT_FROM);
	struct strbuf irt = STRBUF_INIT;

	a->sender = mail_addr_spec(from);
	a->id = answer_id(r, tag);
	a->msgid = a->id ? report_message_id(a->id, now,
		cfg_str(cfg, "identity.message_id_domain", NULL)) : NULL;
	a->subject = answer_subject(r->subject ? r->subject :
				    tr ? tr->subject : "");
	a->refs = references(r, tr);
	sb_addf(&irt, "<%s>", r->message_id);
	a->in_reply_to = sb_detach(&irt, NULL);
	a->to = addressees(r);
	a->cc = copies(cfg, r, tr, a->sender);
	a->rcpts = mail_envelope(a->to, a->cc);
	if (!a->sender || !a->msgid || !a->subject || !a->refs ||
	    !a->in_reply_to || !a->to || !a->cc || !a->rcpts)
		return pb_fail(err, EX_OSERR, "answer: out of memory");
	a->body = body_of(cfg, r, tr, pieces, err);
	return a->body ? 0 : -1;
}

int answer_queue(struct state *st, const struct config *cfg,
		 const struct answer_thread *r, const char *tag,
		 json_t *pieces, time_t now, struct pb_err *err)
{
	const struct thread_report *tr = r->report;
	struct answer_parts a;
	struct outbox_mail m = { 0 };
	struct mail mail = { 0 };
	int rc;

	memset(&a, 0, sizeof(a));
	sb_init(&a.msg, 0);
	rc = build(&a, cfg, r, tr, tag ? tag : "", pieces, now, err);
	if (!rc) {
		mail.from = cfg_str(cfg, "identity.from", DEFAULT_FROM);
		mail.to = a.to;
		mail.cc = a.cc;
		mail.subject = a.subject;
		mail.body = a.body;
		mail.message_id = a.msgid;
		mail.date = now;
		mail.in_reply_to = a.in_reply_to;
		mail.references = a.refs;
		mail.auto_submitted = "auto-replied";
		mail.report_id = tr ? tr->report_id : NULL;
		rc = mail_compose(&mail, &a.msg, err);
	}
	if (!rc) {
		m.id = a.id;
		m.kind = "answer";
		m.report_id = tr ? tr->report_id : NULL;
		m.message_id = a.msgid;
		m.sender = a.sender;
		m.recipients = a.rcpts;
		m.message = a.msg.buf;
		m.len = a.msg.len;
		rc = state_queue(st, &m, NULL, a.subject, now, err);
	}
	parts_release(&a);
	return rc;
}
