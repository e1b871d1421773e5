// SPDX-License-Identifier: GPL-2.0-only
/*
 * compose: one mail as RFC 5322 bytes (GMime), the mbox a --dry-run
 * prints, the envelope of a mail, and the composed mail the outbox
 * stores.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gmime/gmime.h>

#include "perfbot/util/gmime.h"
#include "perfbot/util/id.h"
#include "perfbot/compose/mail.h"
#include "perfbot/util/text.h"

#define MAX_HEADER_VALUE 4096

/* A header-safe copy: one line, bounded. */
static char *clean(const char *s)
{
	char *c = strndup(s ? s : "", MAX_HEADER_VALUE);

	if (c)
		text_scrub_line(c);
	return c;
}

static int add_addresses(GMimeMessage *msg, GMimeAddressType type,
			 const char *const *v, size_t n, struct pb_err *err)
{
	InternetAddressList *dst = g_mime_message_get_addresses(msg, type);
	InternetAddressList *parsed;
	size_t i;
	char *c;

	for (i = 0; i < n; i++) {
		c = clean(v[i]);
		parsed = c ? internet_address_list_parse(NULL, c) : NULL;
		if (!parsed || internet_address_list_length(parsed) < 1) {
			if (parsed)
				g_object_unref(parsed);
			pb_fail(err, EX_DATAERR, "'%.200s': not a mail address",
				c ? c : "");
			free(c);
			return -1;
		}
		internet_address_list_append(dst, parsed);
		g_object_unref(parsed);
		free(c);
	}
	return 0;
}

static void set_header(GMimeObject *obj, const char *name, const char *value)
{
	char *c = clean(value);

	if (c && *c)
		g_mime_object_set_header(obj, name, c, "utf-8");
	free(c);
}

/* 8bit while every line fits SMTP's 998 octets, else quoted-printable. */
static GMimeContentEncoding best_encoding(const char *data, size_t len)
{
	size_t i, line = 0;

	for (i = 0; i < len; i++) {
		if (data[i] == '\0' || data[i] == '\r')
			return GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE;
		line = data[i] == '\n' ? 0 : line + 1;
		if (line > 998)
			return GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE;
	}
	return GMIME_CONTENT_ENCODING_8BIT;
}

static GMimePart *text_part(const char *data, size_t len,
			    const char *content_type, const char *filename)
{
	GMimePart *part = g_mime_part_new_with_type("text", "plain");
	GMimeStream *stream = g_mime_stream_mem_new_with_buffer(data, len);
	GMimeDataWrapper *w = g_mime_data_wrapper_new_with_stream(
		stream, GMIME_CONTENT_ENCODING_DEFAULT);
	GMimeContentType *ct = g_mime_content_type_parse(NULL, content_type);

	g_mime_object_set_content_type(GMIME_OBJECT(part), ct);
	g_mime_object_set_content_type_parameter(GMIME_OBJECT(part),
						 "charset", "utf-8");
	g_mime_part_set_content(part, w);
	g_mime_part_set_content_encoding(part, best_encoding(data, len));
	if (filename) {
		g_mime_object_set_disposition(GMIME_OBJECT(part), "attachment");
		g_mime_part_set_filename(part, filename);
	} else {
		g_mime_object_set_disposition(GMIME_OBJECT(part), "inline");
	}
	g_object_unref(ct);
	g_object_unref(w);
	g_object_unref(stream);
	return part;
}

#define BOUNDARY_TRIES 8
/* Does 'b' occur anywhere in the body or an attachment? */
static int boundary_used(const struct mail *m, const char *b)
{
	size_t i, bl = strlen(b);

	if (memmem(m->body, strlen(m->body), b, bl))
		return 1;
	for (i = 0; i < m->natt; i++)
		if (memmem(m->att[i].data, m->att[i].len, b, bl) ||
		    (m->att[i].filename && strstr(m->att[i].filename, b)))
			return 1;
	return 0;
}

static int pick_boundary(const struct mail *m, char *buf, size_t n,
			 struct pb_err *err)
{
	int try;

	for (try = 0; try < BOUNDARY_TRIES; try++) {
		/* unpredictable, or reproducible: see id_boundary() */
		if (id_boundary(m->message_id, try, buf, n))
			return pb_fail(err, EX_OSERR, "mail: getrandom: %s",
				       strerror(errno));
		if (!boundary_used(m, buf))
			return 0;
	}
	return pb_fail(err, EX_DATAERR, "mail: the content holds every "
		       "MIME boundary tried");
}

static GMimeObject *body_of(const struct mail *m, struct pb_err *err)
{
	char boundary[48];
	GMimeMultipart *mp;
	GMimePart *p;
	size_t i;

	if (m->natt && pick_boundary(m, boundary, sizeof(boundary), err))
		return NULL;
	p = text_part(m->body, strlen(m->body), "text/plain", NULL);
	if (!m->natt)
		return GMIME_OBJECT(p);
	mp = g_mime_multipart_new_with_subtype("mixed");
	g_mime_multipart_set_boundary(mp, boundary);
	g_mime_multipart_add(mp, GMIME_OBJECT(p));
	g_object_unref(p);
	for (i = 0; i < m->natt; i++) {
		p = text_part(m->att[i].data, m->att[i].len,
			      m->att[i].content_type, m->att[i].filename);
		g_mime_multipart_add(mp, GMIME_OBJECT(p));
		g_object_unref(p);
	}
	return GMIME_OBJECT(mp);
}

static int set_identity(GMimeMessage *msg, const struct mail *m,
			struct pb_err *err)
{
	GDateTime *dt = g_date_time_new_from_unix_utc((gint64)m->date);
	char *subject = clean(m->subject), *id = clean(m->message_id);
	const char *from = m->from ? m->from : "";
	int rc = -1;

	if (!dt || !subject || !id) {
		pb_fail(err, EX_OSERR, "out of memory");
		goto out;
	}
	if (add_addresses(msg, GMIME_ADDRESS_TYPE_FROM, &from, 1, err) ||
	    (m->to && add_addresses(msg, GMIME_ADDRESS_TYPE_TO,
				    (const char *const *)m->to->v, m->to->n,
				    err)) ||
	    (m->cc && add_addresses(msg, GMIME_ADDRESS_TYPE_CC,
				    (const char *const *)m->cc->v, m->cc->n,
				    err)))
		goto out;
	g_mime_message_set_subject(msg, subject, "utf-8");
	g_mime_message_set_date(msg, dt);
	g_mime_message_set_message_id(msg, id);
	rc = 0;
out:
	if (dt)
		g_date_time_unref(dt);
	free(subject);
	free(id);
	return rc;
}

int mail_compose(const struct mail *m, struct strbuf *out,
		 struct pb_err *err)
{
	GMimeMessage *msg;
	GMimeObject *body;
	GMimeFormatOptions *fo;
	char *text;
	int rc = -1;

	gmime_once();
	msg = g_mime_message_new(TRUE);
	if (set_identity(msg, m, err))
		goto out;
	set_header(GMIME_OBJECT(msg), "In-Reply-To", m->in_reply_to);
	set_header(GMIME_OBJECT(msg), "References", m->references);
	set_header(GMIME_OBJECT(msg), "Auto-Submitted", m->auto_submitted);
	set_header(GMIME_OBJECT(msg), "X-Auto-Response-Suppress", "All");
	set_header(GMIME_OBJECT(msg), "X-Perfbot-Report", m->report_id);
	body = body_of(m, err);
	if (!body)
		goto out;
	g_mime_message_set_mime_part(msg, body);
	g_object_unref(body);
	fo = g_mime_format_options_clone(NULL);
	g_mime_format_options_set_newline_format(fo, GMIME_NEWLINE_FORMAT_UNIX);
	text = g_mime_object_to_string(GMIME_OBJECT(msg), fo);
	g_mime_format_options_free(fo);
	rc = text && !sb_adds(out, text) ? 0 :
		pb_fail(err, EX_OSERR, "mail: out of memory");
	g_free(text);
out:
	g_object_unref(msg);
	return rc;
}

static int from_line(const char *line, size_t len)
{
	size_t i = 0;

	while (i < len && line[i] == '>')
		i++;
	return len - i >= 5 && !memcmp(line + i, "From ", 5);
}

int mbox_append(struct strbuf *mbox, const char *sender, time_t date,
		const char *msg, size_t len)
{
	const char *p = msg, *end = msg + len, *nl;
	char stamp[32];
	struct tm tm;
	int rc;

	gmtime_r(&date, &tm);
	strftime(stamp, sizeof(stamp), "%a %b %e %H:%M:%S %Y", &tm);
	rc = sb_addf(mbox, "From %s %s\n", sender, stamp);
	while (!rc && p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (from_line(p, (size_t)(nl - p)))
			rc |= sb_addc(mbox, '>');
		rc |= sb_add(mbox, p, (size_t)(nl - p));
		rc |= sb_addc(mbox, '\n');
		p = nl + 1;
	}
	return rc | sb_addc(mbox, '\n');
}

int mail_envelope(const struct addrlist *to, const struct addrlist *cc,
		  struct addrlist *out)
{
	const struct addrlist *lists[2] = { to, cc };
	size_t i;
	int l, rc = 0;

	for (l = 0; l < 2; l++)
		for (i = 0; lists[l] && !rc && i < lists[l]->n; i++)
			rc = addrlist_add_specs(out, lists[l]->v[i]);
	return rc;
}

void composed_init(struct composed *c)
{
	memset(c, 0, sizeof(*c));
	addrlist_init(&c->rcpts);
	sb_init(&c->msg, SB_DEFAULT_MAX);
}

void composed_release(struct composed *c)
{
	free(c->id);
	free(c->report_id);
	free(c->message_id);
	free(c->subject);
	free(c->sender);
	free(c->metric);
	addrlist_release(&c->rcpts);
	sb_release(&c->msg);
	composed_init(c);
}
