// SPDX-License-Identifier: GPL-2.0-only
/*
 * parse: mail from robots. What marks a bounce (a DSN, or a mail
 * system's plain text returning a mail, and the Message-ID of the mail it
 * returns), an auto-reply that does not say so, list mail and a null
 * sender, and the rules (RFC 3834 and loop safety) under which the bot
 * never answers a mail.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <gmime/gmime.h>

#include "mime.h"
#include "perfbot/parse/reply.h"
#include "perfbot/util/addr.h"
#include "robots.h"
#include "perfbot/util/text.h"

#define MAX_HEADERS_PART ((size_t)1 << 20)	/* text/rfc822-headers */

/* Return-Path: <> (spaces allowed) or an empty one. */
int robots_null_sender(GMimeObject *obj)
{
	GMimeHeaderList *hl = g_mime_object_get_header_list(obj);
	GMimeHeader *h = hl ? g_mime_header_list_get_header(hl, "Return-Path") : NULL;
	const char *v;
	size_t n = 0;
	char kept[3];

	if (!h)
		return 0;
	for (v = g_mime_header_get_value(h); v && *v && n < sizeof(kept); v++)
		if (!text_is_space(*v))
			kept[n++] = *v;
	return n == 0 || (n == 2 && kept[0] == '<' && kept[1] == '>');
}

int robots_via_list(GMimeObject *obj)
{
	return g_mime_object_get_header(obj, "List-Id") ||
	       g_mime_object_get_header(obj, "X-Mailing-List") ||
	       g_mime_object_get_header(obj, "Mailing-List");
}

int robots_list_mail(GMimeObject *obj)
{
	const char *p = g_mime_object_get_header(obj, "Precedence");
	size_t n;

	if (g_mime_object_get_header(obj, "List-Id"))
		return 1;
	if (!p)
		return 0;
	while (text_is_space(*p))
		p++;
	for (n = 0; p[n] && !text_is_space(p[n]); n++)
		;
	return n == 4 && (!strncasecmp(p, "bulk", 4) ||
			  !strncasecmp(p, "list", 4));
}

/* 's' starts with 'prefix', ASCII case ignored, blanks before it skipped. */
static int starts_ci(const char *s, const char *prefix)
{
	while (s && text_is_space(*s))
		s++;
	return s && !strncasecmp(s, prefix, strlen(prefix));
}

static int starts_any(const char *s, const char *const *prefixes)
{
	for (; *prefixes; prefixes++)
		if (starts_ci(s, *prefixes))
			return 1;
	return 0;
}

/* How vacation and out-of-office responders start their subjects. */
static const char *const auto_subjects[] = {
	"Automatic reply:", "Auto reply:", "Autoreply:", "Auto-reply:",
	"Auto Response:", "Autoresponse:", "Auto:", "Out of Office",
	"Out of the office", "OOO:", "Abwesend:", "Abwesenheit",
	"Automatische Antwort:", "Automatisch antwoord:", "Afwezig:",
	"R\xc3\xa9ponse automatique", "Absent:", "Absence:",
	"Respuesta autom\xc3\xa1tica:", "Fuera de la oficina",
	"Risposta automatica:", "Fuori sede", "Resposta autom\xc3\xa1tica:",
	"Ausente:", "Automatisk svar:", "Autosvar:",
	"Automaattinen vastaus:", "Odpowied\xc5\xba automatyczna:",
	"Automatick\xc3\xa1 odpov\xc4\x9b\xc4\x8f:",
	"\xd0\x90\xd0\xb2\xd1\x82\xd0\xbe\xd0\xbc\xd0\xb0\xd1\x82"
	"\xd0\xb8\xd1\x87\xd0\xb5\xd1\x81\xd0\xba\xd0\xb8\xd0\xb9 "
	"\xd0\xbe\xd1\x82\xd0\xb2\xd0\xb5\xd1\x82",	/* Автоматический ответ */
	"\xd0\x90\xd0\xb2\xd1\x82\xd0\xbe\xd0\xbe\xd1\x82\xd0\xb2"
	"\xd0\xb5\xd1\x82",				/* Автоответ */
	"\xe8\x87\xaa\xe5\x8a\xa8\xe5\x9b\x9e\xe5\xa4\x8d",	/* 自动回复 */
	"\xe8\x87\xaa\xe5\x8b\x95\xe5\x9b\x9e\xe8\xa6\x86",	/* 自動回覆 */
	"\xe8\x87\xaa\xe5\x8b\x95\xe5\xbf\x9c\xe7\xad\x94",	/* 自動応答 */
	"\xec\x9e\x90\xeb\x8f\x99 \xed\x9a\x8c\xec\x8b\xa0",	/* 자동 회신 */
	NULL,
};

/* How replies start their subjects ("Re:", "AW:", "SV:", "回复:" ...). */
static const char *const reply_subjects[] = {
	"Re:", "Re :", "Re[", "Re(", "Aw:", "Sv:", "Vs:", "Antw:", "Odp:",
	"R:", "Rif:", "Ynt:", "Res:", "Ref:", "R\xc3\xa9" "f:", "Svar:",
	"\xe5\x9b\x9e\xe5\xa4\x8d", "\xe7\xad\x94\xe5\xa4\x8d",
	"\xe5\x9b\x9e\xe8\xa6\x86", "\xd0\x9e\xd1\x82\xd0\xb2:",
	NULL,
};

/* The first word of header 'name', lowercased into 'buf', or "". */
static const char *header_word(GMimeObject *obj, const char *name, char *buf,
			       size_t n)
{
	const char *v = g_mime_object_get_header(obj, name);
	size_t k = 0;

	while (v && text_is_space(*v))
		v++;
	for (; v && *v && !text_is_space(*v) && *v != ';' && k + 1 < n; v++)
		buf[k++] = *v >= 'A' && *v <= 'Z' ? (char)(*v + 32) : *v;
	buf[k] = '\0';
	return buf;
}

/*
 * Auto-replies that do not say so with Auto-Submitted (RFC 3834 asks it;
 * many responders do not), by the marks procmail's and Exim's vacation
 * rules look for: the responders' own headers, Precedence: auto_reply,
 * an out-of-office subject, or Precedence junk, bulk or list on a mail
 * that has no reply's shape (no In-Reply-To or References, or a subject
 * that is no "Re:"). Precedence alone never marks a normal reply: a
 * developer's reply through a list carries Precedence: list or bulk.
 */
void robots_read_auto(GMimeObject *obj, struct reply *r)
{
	static const char *const marks[] = { "X-Autoreply", "X-Autorespond",
		"X-Autoresponder", "X-Auto-Reply", "X-Vacation",
		"X-MS-Exchange-Inbox-Rules-Loop", NULL };
	const char *const *m;
	char w[32], no[8];
	int normal;

	for (m = marks; *m; m++)
		if (g_mime_object_get_header(obj, *m) &&
		    strcmp(header_word(obj, *m, no, sizeof(no)), "no")) {
			r->auto_reply = *m;
			return;
		}
	header_word(obj, "Precedence", w, sizeof(w));
	if (!strcmp(w, "auto_reply") || !strcmp(w, "auto-reply")) {
		r->auto_reply = "Precedence: auto_reply";
		return;
	}
	if (r->subject && starts_any(r->subject, auto_subjects)) {
		r->auto_reply = "an out-of-office subject";
		return;
	}
	normal = (r->in_reply_to || r->nrefs) && r->subject &&
		 starts_any(r->subject, reply_subjects);
	if (!normal && (!strcmp(w, "junk") || !strcmp(w, "bulk") ||
			!strcmp(w, "list")))
		r->auto_reply = "Precedence without a reply's shape";
}

static int visit_dsn(GMimeObject *o, void *ctx)
{
	GMimeContentType *ct = g_mime_object_get_content_type(o);
	const char *rt;

	(void)ctx;
	if (mime_is_type(o, "message", "delivery-status") ||
	    mime_is_type(o, "message", "global-delivery-status"))
		return 1;
	if (!ct || !mime_is_type(o, "multipart", "report"))
		return 0;
	rt = g_mime_content_type_get_parameter(ct, "report-type");
	return rt && (!g_ascii_strcasecmp(rt, "delivery-status") ||
		      !g_ascii_strcasecmp(rt, "global-delivery-status"));
}


static void keep_id(char **dst, GMimeMessage *m)
{
	if (m && mime_id_ok(g_mime_message_get_message_id(m)))
		*dst = strdup(g_mime_message_get_message_id(m));
}

/* Returned headers (text/rfc822-headers and kin) are parsed as a message. */
static void headers_id(GMimePart *part, char **dst)
{
	struct strbuf sb;
	GMimeMessage *m = NULL;

	sb_init(&sb, MAX_HEADERS_PART);
	if (!mime_part_bytes(part, &sb) && !sb_adds(&sb, "\n\n"))
		m = mime_parse(sb.buf, sb.len);
	sb_release(&sb);
	keep_id(dst, m);
	if (m)
		g_object_unref(m);
}

/* The first returned message or headers carrying a Message-ID. */
static int visit_dsn_id(GMimeObject *o, void *ctx)
{
	char **id = ctx;

	if (GMIME_IS_MESSAGE_PART(o))
		keep_id(id, g_mime_message_part_get_message(GMIME_MESSAGE_PART(o)));
	else if (GMIME_IS_PART(o) && (mime_is_type(o, "text", "rfc822-headers") ||
				      mime_is_type(o, "message", "rfc822-headers") ||
				      mime_is_type(o, "message", "global-headers")))
		headers_id(GMIME_PART(o), id);
	return *id != NULL;
}

void robots_read_dsn(GMimeMessage *msg, struct reply *r)
{
	GMimeObject *top = g_mime_message_get_mime_part(msg);

	r->is_dsn = mime_walk(top, 0, visit_dsn, NULL);
	if (r->is_dsn)
		mime_walk(top, 0, visit_dsn_id, &r->dsn_message_id);
}

/* The local parts of the mail systems that return mail. */
static int bouncer(const char *addr)
{
	static const char *const names[] = { "mailer-daemon", "postmaster",
		"mail-daemon", "maildaemon", "mail-gateway", "mailgateway",
		"mail-gw", "mailgw", "smtp-gateway", NULL };
	const char *at = addr ? strrchr(addr, '@') : NULL;
	size_t n = at ? (size_t)(at - addr) : addr ? strlen(addr) : 0;
	const char *const *w;

	for (w = names; *w; w++)
		if (strlen(*w) == n && !strncasecmp(addr, *w, n))
			return 1;
	return 0;
}

/* The id of the first "Message-ID: <id>" line of 'text' (quoted or not). */
static char *returned_id(const char *text, size_t len)
{
	const char *p = text, *e = text + len, *nl, *lt, *gt;
	char id[1000];

	for (; p < e; p = nl ? nl + 1 : e) {
		nl = memchr(p, '\n', (size_t)(e - p));
		while (p < (nl ? nl : e) && (text_is_space(*p) || *p == '>' ||
					      *p == '|'))
			p++;
		if ((nl ? nl : e) - p < 12 || strncasecmp(p, "Message-ID:", 11))
			continue;
		lt = memchr(p, '<', (size_t)((nl ? nl : e) - p));
		gt = lt ? memchr(lt, '>', (size_t)((nl ? nl : e) - lt)) : NULL;
		if (!gt || (size_t)(gt - lt) >= sizeof(id))
			continue;
		snprintf(id, sizeof(id), "%.*s", (int)(gt - lt - 1), lt + 1);
		if (mime_id_ok(id))
			return strdup(id);
	}
	return NULL;
}

/*
 * A bounce that is no DSN: plain text from a mail system ("mail-gateway@",
 * MAILER-DAEMON, postmaster, or a null sender) that holds the mail it
 * returns, its Message-ID line among the text. The id kept is that one,
 * so the bounce is recorded against the bot's mail. (Such a sender with
 * no mail in its text is never answered either: reply_must_not_answer.)
 */
void robots_read_plain_bounce(const char *text, size_t len, struct reply *r)
{
	if (r->is_dsn || (!r->null_sender && !bouncer(r->from_addr)))
		return;
	r->dsn_message_id = returned_id(text, len);
	r->is_dsn = r->dsn_message_id != NULL;
}

/* "no", maybe followed by parameters or a comment (RFC 3834 5.1). */
static int auto_submitted_no(const char *v)
{
	size_t n = 0;

	while (text_is_space(*v))
		v++;
	while (v[n] && !text_is_space(v[n]) && v[n] != ';' && v[n] != '(')
		n++;
	return n == 2 && !strncasecmp(v, "no", 2);
}

static const char *robot_local_part(const char *addr)
{
	const char *at = strrchr(addr, '@');
	size_t n = at ? (size_t)(at - addr) : strlen(addr);

	static const char *const noreply[] = { "noreply", "no-reply",
		"no_reply", "donotreply", "do-not-reply", "do_not_reply", NULL };
	const char *const *w;

	if ((n == 13 && !strncasecmp(addr, "mailer-daemon", 13)) ||
	    (n == 10 && !strncasecmp(addr, "postmaster", 10)))
		return "sent by a mailer daemon or postmaster";
	if (bouncer(addr))
		return "sent by a mail system";
	for (w = noreply; *w; w++)
		if (strlen(*w) == n && !strncasecmp(addr, *w, n))
			return "sent by a no-reply address";
	if (n >= 8 && !strncasecmp(addr + n - 8, "-request", 8))
		return "sent by a list robot (-request)";
	if (n >= 6 && !strncasecmp(addr, "owner-", 6))
		return "sent by a list owner (owner-)";
	return NULL;
}

static const char *robot_reason(const struct reply *r, const char *const *own,
				size_t nown)
{
	const char *why;
	size_t i;

	if (r->auto_submitted && !auto_submitted_no(r->auto_submitted))
		return "auto-submitted mail";
	if (r->auto_reply)
		return "an auto-reply";
	if (r->null_sender)
		return "null return path";
	if (r->is_dsn)
		return "delivery status notification";
	if (!r->from_addr)
		return "no usable From address";
	why = robot_local_part(r->from_addr);
	if (why)
		return why;
	/* perfbot+anything@ is the bot's own too */
	for (i = 0; own && i < nown; i++)
		if (own[i] && addr_same_box(r->from_addr, own[i]))
			return "sent by the bot itself";
	return NULL;
}

int reply_must_not_answer(const struct reply *r, const char *const *own,
			  size_t nown, const char **why)
{
	const char *w = robot_reason(r, own, nown);

	if (why)
		*why = w;
	return w != NULL;
}
