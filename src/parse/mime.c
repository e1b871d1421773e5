// SPDX-License-Identifier: GPL-2.0-only
/*
 * parse: the MIME side of a reply. GMime reads the message (transfer
 * encodings, RFC 2047); this file walks the MIME tree, picks the part that
 * is the reply's text and brings it to UTF-8 with LF line ends (charsets
 * with replacement), then to plain text (HTML, format=flowed).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <gmime/gmime.h>

#include "perfbot/util/gmime.h"
#include "flowed.h"
#include "html.h"
#include "mime.h"
#include "perfbot/parse/reply.h"
#include "perfbot/util/text.h"

#define MAX_ID 998		/* RFC 5322 line length */

static GMimeMessage *parse_message(const char *data, size_t len)
{
	GMimeStream *st = g_mime_stream_mem_new_with_buffer(data, len);
	GMimeParser *p = g_mime_parser_new_with_stream(st);
	GMimeMessage *msg;

	g_mime_parser_set_format(p, GMIME_FORMAT_MESSAGE);
	msg = g_mime_parser_construct_message(p, gmime_parser_options());
	g_object_unref(p);
	g_object_unref(st);
	return msg;
}

GMimeMessage *mime_parse(const char *data, size_t len)
{
	gmime_once();
	return parse_message(data, len);
}

/* An id is printable ASCII without spaces or brackets, else it is dropped. */
int mime_id_ok(const char *id)
{
	size_t i, n = id ? strnlen(id, MAX_ID + 1) : 0;

	if (n == 0 || n > MAX_ID)
		return 0;
	for (i = 0; i < n; i++)
		if ((unsigned char)id[i] <= 0x20 || (unsigned char)id[i] >= 0x7f ||
		    id[i] == '<' || id[i] == '>')
			return 0;
	return 1;
}

/* ------------------------------------------------------------------ */
/* The MIME tree                                                       */

/*
 * Depth-first, in order, at most REPLY_MAX_DEPTH deep. Encrypted parts
 * are opaque; of a signed part only the signed content counts; attached
 * messages (message/rfc822) are not entered: they are not the reply.
 */
int mime_walk(GMimeObject *o, int depth, mime_visit_fn fn, void *ctx)
{
	GMimeMultipart *mp;
	int i, n, rc;

	if (!o || depth > REPLY_MAX_DEPTH)
		return 0;
	rc = fn(o, ctx);
	if (rc || !GMIME_IS_MULTIPART(o) || GMIME_IS_MULTIPART_ENCRYPTED(o))
		return rc;
	mp = GMIME_MULTIPART(o);
	n = g_mime_multipart_get_count(mp);
	if (GMIME_IS_MULTIPART_SIGNED(o) && n > 1)
		n = 1;
	for (i = 0; i < n && !rc; i++)
		rc = mime_walk(g_mime_multipart_get_part(mp, i), depth + 1, fn,
			       ctx);
	return rc;
}

int mime_is_type(GMimeObject *o, const char *type, const char *subtype)
{
	GMimeContentType *ct = g_mime_object_get_content_type(o);

	return ct && g_mime_content_type_is_type(ct, type, subtype);
}

/* The decoded content of a leaf part (transfer encoding undone). */
int mime_part_bytes(GMimePart *part, struct strbuf *out)
{
	GMimeDataWrapper *w = g_mime_part_get_content(part);
	GMimeStream *mem;
	GByteArray *ba;
	int rc = 0;

	if (!w)
		return 0;
	mem = g_mime_stream_mem_new();
	if (g_mime_data_wrapper_write_to_stream(w, mem) >= 0) {
		ba = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
		rc = sb_add(out, ba->data, ba->len);
	}
	g_object_unref(mem);
	return rc;
}

struct find {
	const char *subtype;
	GMimePart *found;
};

static int visit_text(GMimeObject *o, void *ctx)
{
	struct find *f = ctx;

	if (!GMIME_IS_PART(o) || !mime_is_type(o, "text", f->subtype) ||
	    g_mime_part_is_attachment(GMIME_PART(o)))
		return 0;
	f->found = GMIME_PART(o);
	return 1;
}

static GMimePart *find_text(GMimeObject *top, const char *subtype)
{
	struct find f = { subtype, NULL };

	mime_walk(top, 0, visit_text, &f);
	return f.found;
}
/* ------------------------------------------------------------------ */
/* Charsets                                                            */

/* Every byte that does not convert becomes U+FFFD; never fails on input. */
static int iconv_all(iconv_t cd, const char *in, size_t len,
		     struct strbuf *out)
{
	char chunk[4096], *ip = (char *)in, *op;
	size_t ileft = len, oleft, rc;
	int e;

	while (ileft > 0) {
		op = chunk;
		oleft = sizeof(chunk);
		rc = iconv(cd, &ip, &ileft, &op, &oleft);
		e = errno;
		if (sb_add(out, chunk, sizeof(chunk) - oleft))
			return -1;
		if (rc != (size_t)-1 || e == E2BIG)
			continue;
		if (sb_adds(out, TEXT_REPLACEMENT))
			return -1;
		ip++;
		ileft--;
		iconv(cd, NULL, NULL, NULL, NULL);
	}
	op = chunk;
	oleft = sizeof(chunk);
	iconv(cd, NULL, NULL, &op, &oleft);
	return sb_add(out, chunk, sizeof(chunk) - oleft);
}

static int utf8_copy(const char *in, size_t len, struct strbuf *out)
{
	return utf8_make_valid(out, in, len);
}

static int convert_from(const char *charset, const char *in, size_t len,
			struct strbuf *out)
{
	iconv_t cd = g_mime_iconv_open("UTF-8", charset);
	int rc;

	if (cd == (iconv_t)-1)
		return utf8_copy(in, len, out);
	rc = iconv_all(cd, in, len, out);
	g_mime_iconv_close(cd);
	return rc;
}

static int charset_is(const char *canon, const char *const *names)
{
	for (; *names; names++)
		if (!g_ascii_strcasecmp(canon, *names))
			return 1;
	return 0;
}

/*
 * To UTF-8. Undeclared or ASCII text that is not valid UTF-8 is read as
 * windows-1252 (old mailers), and so is "iso-8859-1", of which it is the
 * superset every mail reader assumes.
 */
static int to_utf8(const char *in, size_t len, const char *charset,
		   struct strbuf *out)
{
	static const char *const utf8[] = { "utf-8", "utf8", NULL };
	static const char *const ascii[] = { "us-ascii", "ascii",
		"ansi_x3.4-1968", NULL };
	static const char *const latin1[] = { "iso-8859-1", "iso8859-1",
		"latin1", NULL };
	const char *canon = charset ? g_mime_charset_canon_name(charset) : NULL;

	if (canon && charset_is(canon, utf8))
		return utf8_copy(in, len, out);
	if (!canon || charset_is(canon, ascii))
		/* a NUL is no UTF-8 text: it reads as windows-1252 too */
		return utf8_valid(in, len) && !memchr(in, '\0', len) ?
			sb_add(out, in, len) :
			convert_from("windows-1252", in, len, out);
	if (charset_is(canon, latin1))
		return convert_from("windows-1252", in, len, out);
	return convert_from(canon, in, len, out);
}

/* ------------------------------------------------------------------ */
/* The body                                                            */

static int param_is(GMimeObject *o, const char *name, const char *value)
{
	GMimeContentType *ct = g_mime_object_get_content_type(o);
	const char *v = ct ? g_mime_content_type_get_parameter(ct, name) : NULL;

	return v && !g_ascii_strcasecmp(v, value);
}

static const char *charset_of(GMimeObject *o)
{
	GMimeContentType *ct = g_mime_object_get_content_type(o);

	return ct ? g_mime_content_type_get_parameter(ct, "charset") : NULL;
}

/* Decoded, in UTF-8, LF line ends, control characters replaced. */
static int part_utf8(GMimePart *part, struct strbuf *utf)
{
	struct strbuf raw;
	int rc;

	sb_init(&raw, REPLY_TEXT_MAX);
	rc = mime_part_bytes(part, &raw);
	if (!rc)
		rc = to_utf8(sb_str(&raw), raw.len, charset_of(GMIME_OBJECT(part)),
			     utf);
	sb_release(&raw);
	/* LF line ends; other control characters become '?' */
	text_scrub_sb(utf, TEXT_KEEP_TAB | TEXT_KEEP_LF | TEXT_CRLF_LF);
	return rc;
}

/* The chosen part as plain text, before quotes are removed. */
static int part_text(GMimePart *part, int html, struct strbuf *text)
{
	GMimeObject *o = GMIME_OBJECT(part);
	struct strbuf utf;
	int rc;

	sb_init(&utf, REPLY_TEXT_MAX);
	rc = part_utf8(part, &utf);
	if (!rc && html)
		rc = html_to_text(sb_str(&utf), utf.len, text);
	else if (!rc && param_is(o, "format", "flowed"))
		rc = flowed_unflow(sb_str(&utf), utf.len,
				   param_is(o, "delsp", "yes"), text);
	else if (!rc)
		rc = sb_add(text, sb_str(&utf), utf.len);
	sb_release(&utf);
	return rc;
}

GMimePart *mime_text_part(GMimeMessage *msg, int *html)
{
	GMimeObject *top = g_mime_message_get_mime_part(msg);
	GMimePart *part = find_text(top, "plain");

	*html = 0;
	if (!part) {
		part = find_text(top, "html");
		*html = part != NULL;
	}
	return part;
}

/* The first text/plain that is not an attachment, else text/html. */
int mime_text(GMimeMessage *msg, struct strbuf *text)
{
	int html;
	GMimePart *part = mime_text_part(msg, &html);

	return part ? part_text(part, html, text) : 0;
}
