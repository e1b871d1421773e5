// SPDX-License-Identifier: GPL-2.0-only
/*
 * parse: mail from robots. What marks a bounce (a DSN and the Message-ID
 * of the mail it returns), list mail and a null sender, and the rules
 * (RFC 3834 and loop safety) under which the bot never answers a mail.
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

	if ((n == 13 && !strncasecmp(addr, "mailer-daemon", 13)) ||
	    (n == 10 && !strncasecmp(addr, "postmaster", 10)))
		return "sent by a mailer daemon or postmaster";
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
