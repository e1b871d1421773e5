// SPDX-License-Identifier: GPL-2.0-only
/*
 * parse: the reply parser's entry point. Raw bytes of one mail -> the
 * headers that matter (ids, From, envelope, subject, robot marks), the
 * reply's own text, the commands in it. The parts: mime.c (the MIME tree,
 * charsets), html.c and flowed.c (to plain text), quote.c (the reply's own
 * lines, its commands), robots.c (bounces, list mail, when never to
 * answer). Every step is bounded and tolerant of garbage.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <gmime/gmime.h>

#include "perfbot/util/gmime.h"
#include "mime.h"
#include "quote.h"
#include "perfbot/parse/reply.h"
#include "robots.h"
#include "perfbot/util/strbuf.h"
#include "perfbot/util/text.h"

#define MAX_ADDR 320

/*
 * A bounded, valid UTF-8, one-line copy: an RFC 2047 word may decode to
 * CR or LF, which must never reach a header the bot writes. NULL only
 * when 's' is NULL or memory ran out.
 */
static char *one_line(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	if (!s || utf8_make_valid(&sb, s, strnlen(s, REPLY_MAX_HEADER))) {
		sb_release(&sb);
		return NULL;
	}
	text_scrub_sb(&sb, TEXT_CTRL_SPACE | TEXT_TRIM);
	return sb_detach(&sb, NULL);
}

/* 0 and NULL in *dst when absent or empty, -1 when out of memory. */
static int set_line(char **dst, const char *s)
{
	if (!s)
		return 0;
	*dst = one_line(s);
	if (!*dst)
		return -1;
	if (!**dst) {
		free(*dst);
		*dst = NULL;
	}
	return 0;
}

static int set_id(char **dst, const char *id)
{
	if (!mime_id_ok(id))
		return 0;
	*dst = strdup(id);
	return *dst ? 0 : -1;
}

static int read_refs(GMimeObject *obj, struct reply *r)
{
	const char *v = g_mime_object_get_header(obj, "References");
	GMimeReferences *refs = v ? g_mime_references_parse(gmime_parser_options(), v) : NULL;
	int i, n, rc = 0;
	char *id;

	if (!refs)
		return 0;
	n = g_mime_references_length(refs);
	if (n > REPLY_MAX_REFS)
		n = REPLY_MAX_REFS;
	r->references = n > 0 ? calloc((size_t)n, sizeof(char *)) : NULL;
	if (n > 0 && !r->references)
		rc = -1;
	for (i = 0; !rc && i < n; i++) {
		id = NULL;
		rc = set_id(&id, g_mime_references_get_message_id(refs, i));
		if (id)
			r->references[r->nrefs++] = id;
	}
	g_mime_references_free(refs);
	return rc;
}

static int read_in_reply_to(GMimeObject *obj, struct reply *r)
{
	const char *v = g_mime_object_get_header(obj, "In-Reply-To");
	GMimeReferences *refs = v ? g_mime_references_parse(gmime_parser_options(), v) : NULL;
	int rc = 0;

	if (!refs)
		return 0;
	if (g_mime_references_length(refs) > 0)
		rc = set_id(&r->in_reply_to,
			    g_mime_references_get_message_id(refs, 0));
	g_mime_references_free(refs);
	return rc;
}

static InternetAddressMailbox *first_mailbox(InternetAddressList *l, int depth)
{
	InternetAddress *a;

	if (!l || depth > 2 || internet_address_list_length(l) < 1)
		return NULL;
	a = internet_address_list_get_address(l, 0);
	if (INTERNET_ADDRESS_IS_GROUP(a))
		return first_mailbox(internet_address_group_get_members(
			INTERNET_ADDRESS_GROUP(a)), depth + 1);
	return INTERNET_ADDRESS_IS_MAILBOX(a) ? INTERNET_ADDRESS_MAILBOX(a) : NULL;
}

/* The addr-spec lowercased, or nothing when it is not one. */
static int set_addr(char **dst, InternetAddressMailbox *mb)
{
	const char *a = mb ? internet_address_mailbox_get_addr(mb) : NULL;
	size_t i, n = a ? strnlen(a, MAX_ADDR + 1) : 0;

	if (n == 0 || n > MAX_ADDR || !utf8_valid(a, n))
		return 0;
	for (i = 0; i < n; i++)
		if ((unsigned char)a[i] <= 0x20 || a[i] == 0x7f ||
		    strchr("<>,;\"", a[i]))
			return 0;
	*dst = strdup(a);
	if (!*dst)
		return -1;
	for (i = 0; i < n; i++)
		if ((*dst)[i] >= 'A' && (*dst)[i] <= 'Z')
			(*dst)[i] = (char)((*dst)[i] - 'A' + 'a');
	return 0;
}

static int read_from(GMimeMessage *msg, struct reply *r)
{
	InternetAddressMailbox *mb = first_mailbox(g_mime_message_get_from(msg), 0);
	InternetAddressMailbox *rt = first_mailbox(
		g_mime_message_get_reply_to(msg), 0);

	if (set_addr(&r->from_addr, mb) || set_addr(&r->reply_to_addr, rt))
		return -1;
	if (mb && set_line(&r->from_name,
			   internet_address_get_name(INTERNET_ADDRESS(mb))))
		return -1;
	return 0;
}

/*
 * The envelope sender the delivering server recorded (the first
 * Return-Path, the one on top), lowercased; nothing when absent or null.
 */
static int read_return_path(GMimeObject *obj, struct reply *r)
{
	const char *v = g_mime_object_get_header(obj, "Return-Path");
	InternetAddressList *l;
	int rc;

	if (!v || r->null_sender)
		return 0;
	l = internet_address_list_parse(gmime_parser_options(), v);
	rc = set_addr(&r->envelope_addr, first_mailbox(l, 0));
	if (l)
		g_object_unref(l);
	return rc;
}

/* Every Authentication-Results header, one line each, in order. */
static int read_auth_results(GMimeObject *obj, struct reply *r)
{
	GMimeHeaderList *hl = g_mime_object_get_header_list(obj);
	int i, n = hl ? g_mime_header_list_get_count(hl) : 0;

	for (i = 0; i < n && r->nauth < REPLY_MAX_AUTH; i++) {
		GMimeHeader *h = g_mime_header_list_get_header_at(hl, i);

		if (strcasecmp(g_mime_header_get_name(h),
			       "Authentication-Results"))
			continue;
		r->auth_results[r->nauth] = one_line(g_mime_header_get_value(h));
		if (!r->auth_results[r->nauth])
			return -1;
		r->nauth++;
	}
	return 0;
}

static int read_headers(GMimeMessage *msg, struct reply *r)
{
	GMimeObject *obj = GMIME_OBJECT(msg);
	const char *as;

	if (set_id(&r->message_id, g_mime_message_get_message_id(msg)) ||
	    read_in_reply_to(obj, r) || read_refs(obj, r) ||
	    read_from(msg, r) ||
	    set_line(&r->subject, g_mime_message_get_subject(msg)))
		return -1;
	/* An empty Auto-Submitted still counts as present. */
	as = g_mime_object_get_header(obj, "Auto-Submitted");
	if (as && !(r->auto_submitted = one_line(as)))
		return -1;
	r->null_sender = robots_null_sender(obj);
	r->list_mail = robots_list_mail(obj);
	r->via_list = robots_via_list(obj);
	robots_read_auto(obj, r);
	return read_return_path(obj, r) || read_auth_results(obj, r) ? -1 : 0;
}

/* The reply's text and commands, quotes and signature cut. */
static int read_text(GMimeMessage *msg, const struct reply_opts *o,
		     struct reply *r, struct pb_err *err)
{
	struct strbuf text;
	int rc;

	sb_init(&text, REPLY_TEXT_MAX);
	rc = mime_text(msg, &text);
	if (!rc)
		robots_read_plain_bounce(sb_str(&text), text.len, r);
	if (!rc)
		rc = quote_read(sb_str(&text), text.len, o, r);
	sb_release(&text);
	return rc ? pb_fail(err, EX_OSERR, "reply: out of memory") : 0;
}

/* A message saved from an mbox starts with a "From " separator line. */
static void skip_mbox_line(const char **raw, size_t *len)
{
	const char *nl;

	if (*len < 6 || memcmp(*raw, "From ", 5) || (*raw)[5] == ':')
		return;
	nl = memchr(*raw, '\n', *len);
	if (!nl)
		return;
	*len -= (size_t)(nl + 1 - *raw);
	*raw = nl + 1;
}

int reply_parse(const char *raw, size_t len, const struct reply_opts *o,
		struct reply *r, struct pb_err *err)
{
	GMimeMessage *msg = NULL;
	int rc = -1;

	memset(r, 0, sizeof(*r));
	if (len > REPLY_MAX_BYTES)
		return pb_fail(err, EX_DATAERR, "message larger than %d bytes",
			       REPLY_MAX_BYTES);
	skip_mbox_line(&raw, &len);
	if (len == 0)
		return pb_fail(err, EX_DATAERR, "empty message");
	msg = mime_parse(raw, len);
	if (!msg) {
		pb_fail(err, EX_DATAERR, "not a mail message");
		goto out;
	}
	if (read_headers(msg, r)) {
		pb_fail(err, EX_OSERR, "reply: out of memory");
		goto out;
	}
	robots_read_dsn(msg, r);
	if (read_text(msg, o, r, err))
		goto out;
	if (mime_patches(msg, r)) {
		pb_fail(err, EX_OSERR, "reply: out of memory");
		goto out;
	}
	rc = 0;
out:
	if (msg)
		g_object_unref(msg);
	if (rc)
		reply_release(r);
	return rc;
}

void reply_release(struct reply *r)
{
	size_t i;

	free(r->message_id);
	free(r->in_reply_to);
	for (i = 0; i < r->nrefs; i++)
		free(r->references[i]);
	free(r->references);
	free(r->from_addr);
	free(r->from_name);
	free(r->reply_to_addr);
	free(r->envelope_addr);
	for (i = 0; i < r->nauth; i++)
		free(r->auth_results[i]);
	free(r->subject);
	free(r->auto_submitted);
	free(r->dsn_message_id);
	free(r->text);
	free(r->signature);
	free(r->patch.text);
	free(r->patch.name);
	memset(r, 0, sizeof(*r));
}
