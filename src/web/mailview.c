// SPDX-License-Identifier: GPL-2.0-only
/*
 * web: a mail the bot sent, read back with GMime for its page
 * (mailview.h): the headers a reader looks at and the text part, every
 * address masked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/util/gmime.h"
#include "perfbot/util/text.h"
#include "perfbot/web/mailview.h"

static GMimeMessage *parse(const char *msg, size_t len)
{
	GMimeStream *st = g_mime_stream_mem_new_with_buffer(msg, len);
	GMimeParser *p = g_mime_parser_new_with_stream(st);
	GMimeMessage *m;

	g_mime_parser_set_format(p, GMIME_FORMAT_MESSAGE);
	m = g_mime_parser_construct_message(p, gmime_parser_options());
	g_object_unref(p);
	g_object_unref(st);
	return m;
}

/*
 * A header shown: masked text, or only scrubbed for an id ('m' NULL),
 * which looks like an address and is none. 0, or -1 when out of memory.
 */
static int add(struct mail_view *v, const char *name, const char *value,
	       const struct web_mask *m)
{
	char *s;

	if (!value || !*value || v->nhdr == MAIL_VIEW_HEADERS)
		return 0;
	s = m ? web_text_dup(m, value) : web_plain_dup(value);
	if (!s)
		return -1;
	v->hdr[v->nhdr].name = name;
	v->hdr[v->nhdr++].value = s;
	return 0;
}

static int add_list(struct mail_view *v, const char *name,
		    InternetAddressList *l, const struct web_mask *m)
{
	char *s;
	int rc;

	if (!l || !internet_address_list_length(l))
		return 0;
	s = internet_address_list_to_string(l, NULL, FALSE);
	rc = add(v, name, s, m);
	g_free(s);
	return rc;
}

static int add_id(struct mail_view *v, const char *name, const char *id)
{
	char buf[1024];

	if (!id || !*id)
		return 0;
	snprintf(buf, sizeof(buf), "%s%s%s", *id == '<' ? "" : "<", id,
		 *id == '<' ? "" : ">");
	return add(v, name, buf, NULL);
}

static int headers(struct mail_view *v, GMimeMessage *msg,
		   const struct web_mask *m)
{
	GMimeObject *o = GMIME_OBJECT(msg);

	return add(v, "Date", g_mime_object_get_header(o, "Date"), m) ||
	       add_list(v, "From", g_mime_message_get_from(msg), m) ||
	       add_list(v, "To", g_mime_message_get_to(msg), m) ||
	       add_list(v, "Cc", g_mime_message_get_cc(msg), m) ||
	       add(v, "Subject", g_mime_message_get_subject(msg), m) ||
	       add_id(v, "Message-ID", g_mime_message_get_message_id(msg)) ||
	       add_id(v, "In-Reply-To",
		      g_mime_object_get_header(o, "In-Reply-To")) ? -1 : 0;
}

/* The first text/plain part that is no attachment. */
static GMimeTextPart *text_part(GMimeObject *o)
{
	GMimeContentType *ct;
	GMimeTextPart *t;
	int i, n;

	if (GMIME_IS_MULTIPART(o)) {
		n = g_mime_multipart_get_count(GMIME_MULTIPART(o));
		for (i = 0; i < n; i++) {
			t = text_part(g_mime_multipart_get_part(
				GMIME_MULTIPART(o), i));
			if (t)
				return t;
		}
		return NULL;
	}
	ct = g_mime_object_get_content_type(o);
	if (!GMIME_IS_TEXT_PART(o) || !ct ||
	    !g_mime_content_type_is_type(ct, "text", "plain") ||
	    g_mime_part_is_attachment(GMIME_PART(o)))
		return NULL;
	return GMIME_TEXT_PART(o);
}

static int body(struct mail_view *v, GMimeMessage *msg,
		const struct web_mask *m)
{
	GMimeObject *top = g_mime_message_get_mime_part(msg);
	GMimeTextPart *t = top ? text_part(top) : NULL;
	char *text = t ? g_mime_text_part_get_text(t) : NULL;

	v->text = web_text_dup(m, text ? text : "");
	g_free(text);
	return v->text ? 0 : -1;
}

int mail_view_parse(struct mail_view *v, const char *msg, size_t len,
		    const struct web_mask *m, struct pb_err *err)
{
	GMimeMessage *parsed;
	int rc;

	memset(v, 0, sizeof(*v));
	gmime_once();
	parsed = parse(msg, len);
	if (!parsed)
		return pb_fail(err, EX_DATAERR, "a mail of the outbox is not "
			       "one");
	rc = headers(v, parsed, m) || body(v, parsed, m);
	g_object_unref(parsed);
	if (rc) {
		mail_view_release(v);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	return 0;
}

void mail_view_release(struct mail_view *v)
{
	size_t i;

	for (i = 0; i < v->nhdr; i++)
		free(v->hdr[i].value);
	free(v->text);
	memset(v, 0, sizeof(*v));
}

void ctx_mail_view(struct ctx *parent, const char *key,
		   const struct mail_view *v)
{
	struct ctx c, h;
	json_t *list;
	size_t i;

	ctx_init(&c, parent->family);
	list = ctx_list(&c, "headers");
	for (i = 0; i < v->nhdr; i++) {
		ctx_init(&h, parent->family);
		ctx_str(&h, "name", v->hdr[i].name);
		ctx_str(&h, "value", v->hdr[i].value);
		ctx_append(&c, list, &h);
	}
	ctx_str(&c, "text", v->text);
	ctx_child(parent, key, &c);
}
