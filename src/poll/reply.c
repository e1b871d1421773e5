// SPDX-License-Identifier: GPL-2.0-only
/*
 * The reply parser: raw bytes of one mail -> headers that matter, the
 * reply's own text, the commands in it. GMime does MIME, transfer
 * encodings and RFC 2047; this file does the rest (charsets with
 * replacement, HTML to text, format=flowed, quote and signature removal),
 * every step bounded and tolerant of garbage.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <gmime/gmime.h>

#include "perfbot/reply.h"
#include "perfbot/strbuf.h"

#define MAX_ID 998		/* RFC 5322 line length */
#define MAX_ADDR 320
#define MAX_HEADERS_PART ((size_t)1 << 20)	/* text/rfc822-headers */
#define TEXT_MAX ((size_t)4 * REPLY_MAX_BYTES)	/* UTF-8 may grow */
#define MAX_QUOTE_MARKS 32	/* '>' written for nested blockquotes */
#define MAX_ATTRIBUTION 400	/* bytes of a "... wrote:" line */
#define UTF8_REPLACEMENT "\xef\xbf\xbd"

static GMimeParserOptions *parser_options;

static void gmime_once(void)
{
	static const char *fallback[] = { "utf-8", "windows-1252", NULL };

	if (parser_options)
		return;
	g_mime_init();
	/* Kept for the life of the process: parsed headers refer to it. */
	parser_options = g_mime_parser_options_new();
	g_mime_parser_options_set_fallback_charsets(parser_options, fallback);
}

static GMimeMessage *parse_message(const char *data, size_t len)
{
	GMimeStream *st = g_mime_stream_mem_new_with_buffer(data, len);
	GMimeParser *p = g_mime_parser_new_with_stream(st);
	GMimeMessage *msg;

	g_mime_parser_set_format(p, GMIME_FORMAT_MESSAGE);
	msg = g_mime_parser_construct_message(p, parser_options);
	g_object_unref(p);
	g_object_unref(st);
	return msg;
}

/* ------------------------------------------------------------------ */
/* Header values                                                       */

static int is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' ||
	       ch == '\v' || ch == '\f';
}

/*
 * A bounded, valid UTF-8, one-line copy: an RFC 2047 word may decode to
 * CR or LF, which must never reach a header the bot writes. NULL only
 * when 's' is NULL or memory ran out.
 */
static char *one_line(const char *s)
{
	gchar *v;
	char *p, *start, *out;
	size_t n;

	if (!s)
		return NULL;
	v = g_utf8_make_valid(s, (gssize)strnlen(s, REPLY_MAX_HEADER));
	for (p = v; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	for (start = v; *start == ' '; start++)
		;
	n = strlen(start);
	while (n > 0 && start[n - 1] == ' ')
		n--;
	out = strndup(start, n);
	g_free(v);
	return out;
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

/* An id is printable ASCII without spaces or brackets, else it is dropped. */
static int id_ok(const char *id)
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

static int set_id(char **dst, const char *id)
{
	if (!id_ok(id))
		return 0;
	*dst = strdup(id);
	return *dst ? 0 : -1;
}

static int read_refs(GMimeObject *obj, struct reply *r)
{
	const char *v = g_mime_object_get_header(obj, "References");
	GMimeReferences *refs = v ? g_mime_references_parse(parser_options, v) : NULL;
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
	GMimeReferences *refs = v ? g_mime_references_parse(parser_options, v) : NULL;
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

	if (n == 0 || n > MAX_ADDR || !g_utf8_validate(a, (gssize)n, NULL))
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

/* Return-Path: <> (spaces allowed) or an empty one. */
static int null_path(GMimeObject *obj)
{
	GMimeHeaderList *hl = g_mime_object_get_header_list(obj);
	GMimeHeader *h = hl ? g_mime_header_list_get_header(hl, "Return-Path") : NULL;
	const char *v;
	size_t n = 0;
	char kept[3];

	if (!h)
		return 0;
	for (v = g_mime_header_get_value(h); v && *v && n < sizeof(kept); v++)
		if (!is_space(*v))
			kept[n++] = *v;
	return n == 0 || (n == 2 && kept[0] == '<' && kept[1] == '>');
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
	l = internet_address_list_parse(parser_options, v);
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

static int is_list_mail(GMimeObject *obj)
{
	const char *p = g_mime_object_get_header(obj, "Precedence");
	size_t n;

	if (g_mime_object_get_header(obj, "List-Id"))
		return 1;
	if (!p)
		return 0;
	while (is_space(*p))
		p++;
	for (n = 0; p[n] && !is_space(p[n]); n++)
		;
	return n == 4 && (!strncasecmp(p, "bulk", 4) ||
			  !strncasecmp(p, "list", 4));
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
	r->null_sender = null_path(obj);
	r->list_mail = is_list_mail(obj);
	return read_return_path(obj, r) || read_auth_results(obj, r) ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* The MIME tree                                                       */

/* Nonzero from a visitor stops the walk. */
typedef int (*visit_fn)(GMimeObject *o, void *ctx);

/*
 * Depth-first, in order, at most REPLY_MAX_DEPTH deep. Encrypted parts
 * are opaque; of a signed part only the signed content counts; attached
 * messages (message/rfc822) are not entered: they are not the reply.
 */
static int walk(GMimeObject *o, int depth, visit_fn fn, void *ctx)
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
		rc = walk(g_mime_multipart_get_part(mp, i), depth + 1, fn, ctx);
	return rc;
}

static int is_type(GMimeObject *o, const char *type, const char *subtype)
{
	GMimeContentType *ct = g_mime_object_get_content_type(o);

	return ct && g_mime_content_type_is_type(ct, type, subtype);
}

static int visit_dsn(GMimeObject *o, void *ctx)
{
	GMimeContentType *ct = g_mime_object_get_content_type(o);
	const char *rt;

	(void)ctx;
	if (is_type(o, "message", "delivery-status") ||
	    is_type(o, "message", "global-delivery-status"))
		return 1;
	if (!ct || !is_type(o, "multipart", "report"))
		return 0;
	rt = g_mime_content_type_get_parameter(ct, "report-type");
	return rt && (!g_ascii_strcasecmp(rt, "delivery-status") ||
		      !g_ascii_strcasecmp(rt, "global-delivery-status"));
}

/* The decoded content of a leaf part (transfer encoding undone). */
static int part_bytes(GMimePart *part, struct strbuf *out)
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

static void keep_id(char **dst, GMimeMessage *m)
{
	if (m && id_ok(g_mime_message_get_message_id(m)))
		*dst = strdup(g_mime_message_get_message_id(m));
}

/* Returned headers (text/rfc822-headers and kin) are parsed as a message. */
static void headers_id(GMimePart *part, char **dst)
{
	struct strbuf sb;
	GMimeMessage *m = NULL;

	sb_init(&sb, MAX_HEADERS_PART);
	if (!part_bytes(part, &sb) && !sb_adds(&sb, "\n\n"))
		m = parse_message(sb.buf, sb.len);
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
	else if (GMIME_IS_PART(o) && (is_type(o, "text", "rfc822-headers") ||
				      is_type(o, "message", "rfc822-headers") ||
				      is_type(o, "message", "global-headers")))
		headers_id(GMIME_PART(o), id);
	return *id != NULL;
}

static void read_dsn(GMimeMessage *msg, struct reply *r)
{
	GMimeObject *top = g_mime_message_get_mime_part(msg);

	r->is_dsn = walk(top, 0, visit_dsn, NULL);
	if (r->is_dsn)
		walk(top, 0, visit_dsn_id, &r->dsn_message_id);
}

struct find {
	const char *subtype;
	GMimePart *found;
};

static int visit_text(GMimeObject *o, void *ctx)
{
	struct find *f = ctx;

	if (!GMIME_IS_PART(o) || !is_type(o, "text", f->subtype) ||
	    g_mime_part_is_attachment(GMIME_PART(o)))
		return 0;
	f->found = GMIME_PART(o);
	return 1;
}

static GMimePart *find_text(GMimeObject *top, const char *subtype)
{
	struct find f = { subtype, NULL };

	walk(top, 0, visit_text, &f);
	return f.found;
}

/* ------------------------------------------------------------------ */
/* Charsets                                                            */

static int add_replacement(struct strbuf *out)
{
	return sb_adds(out, UTF8_REPLACEMENT);
}

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
		if (add_replacement(out))
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
	gchar *v = g_utf8_make_valid(in, (gssize)len);
	int rc = sb_adds(out, v);

	g_free(v);
	return rc;
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
		return g_utf8_validate(in, (gssize)len, NULL) ?
			sb_add(out, in, len) :
			convert_from("windows-1252", in, len, out);
	if (charset_is(canon, latin1))
		return convert_from("windows-1252", in, len, out);
	return convert_from(canon, in, len, out);
}

/* LF line ends; other control characters become '?'. */
static void normalize(struct strbuf *sb)
{
	size_t i, j = 0;
	char ch;

	for (i = 0; i < sb->len; i++) {
		ch = sb->buf[i];
		if (ch == '\r') {
			if (i + 1 < sb->len && sb->buf[i + 1] == '\n')
				continue;
			ch = '\n';
		} else if (((unsigned char)ch < 0x20 && ch != '\n' && ch != '\t') ||
			   ch == 0x7f) {
			ch = '?';
		}
		sb->buf[j++] = ch;
	}
	sb_setlen(sb, j);
}

/* ------------------------------------------------------------------ */
/* HTML to text                                                        */

/*
 * Text inside <blockquote> comes out with a '>' per level, so that the
 * quote and attribution rules of plain text drop it like any quote.
 */
struct html {
	struct strbuf *out;
	int quote;		/* <blockquote> depth */
	int pre;		/* inside <pre>: whitespace kept */
	int bol;		/* at the beginning of an output line */
	int space;		/* whitespace seen, not yet written */
	int err;
};

static void h_put(struct html *h, const char *s, size_t n)
{
	if (h->bol) {
		if (h->quote > 0) {
			h->err |= sb_addn(h->out, '>', h->quote > MAX_QUOTE_MARKS ?
					  (size_t)MAX_QUOTE_MARKS : (size_t)h->quote);
			h->err |= sb_addc(h->out, ' ');
		}
		h->bol = 0;
	} else if (h->space) {
		h->err |= sb_addc(h->out, ' ');
	}
	h->space = 0;
	h->err |= sb_add(h->out, s, n);
}

static void h_newline(struct html *h)
{
	h->err |= sb_addc(h->out, '\n');
	h->bol = 1;
	h->space = 0;
}

static void h_break(struct html *h)
{
	if (!h->bol)
		h_newline(h);
}

static void h_space(struct html *h, char ch)
{
	if (h->pre && ch == '\n')
		h_newline(h);
	else if (h->pre)
		h_put(h, " ", 1);
	else
		h->space = 1;
}

static void h_codepoint(struct html *h, unsigned long cp)
{
	char u[8];
	int n;

	if (cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || cp == 0xa0) {
		h_space(h, cp == '\n' ? '\n' : ' ');
		return;
	}
	if (cp == 0 || cp < 0x20 || cp == 0x7f || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		cp = 0xfffd;
	n = g_unichar_to_utf8((gunichar)cp, u);
	h_put(h, u, (size_t)n);
}

static int numeric_entity(const char *s, size_t n, unsigned long *cp)
{
	int hex = n > 0 && (s[0] == 'x' || s[0] == 'X');
	size_t i = hex ? 1 : 0;
	unsigned long v = 0;

	if (i >= n)
		return -1;
	for (; i < n; i++) {
		int d = g_ascii_xdigit_value(s[i]);

		if (d < 0 || (!hex && d > 9))
			return -1;
		v = v * (hex ? 16 : 10) + (unsigned long)d;
		if (v > 0x10ffff)
			v = 0x110000;
	}
	*cp = v;
	return 0;
}

/* 's' starts with '&'; returns the bytes used. */
static size_t h_entity(struct html *h, const char *s, size_t n)
{
	static const struct { const char *name; unsigned long cp; } named[] = {
		{ "amp", '&' }, { "lt", '<' }, { "gt", '>' }, { "quot", '"' },
		{ "apos", '\'' }, { "nbsp", 0xa0 },
	};
	const char *semi = memchr(s, ';', n < 12 ? n : 12);
	size_t len, i;
	unsigned long cp;

	if (!semi)
		goto literal;
	len = (size_t)(semi - s) - 1;
	if (len > 0 && s[1] == '#') {
		if (numeric_entity(s + 2, len - 1, &cp))
			goto literal;
		h_codepoint(h, cp);
		return len + 2;
	}
	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (strlen(named[i].name) == len &&
		    !strncasecmp(s + 1, named[i].name, len)) {
			h_codepoint(h, named[i].cp);
			return len + 2;
		}
literal:
	h_put(h, "&", 1);
	return 1;
}

static void h_text(struct html *h, const char *s, size_t n)
{
	size_t i = 0, j;

	while (i < n) {
		if (s[i] == '&') {
			i += h_entity(h, s + i, n - i);
		} else if (is_space(s[i])) {
			h_space(h, s[i]);
			i++;
		} else {
			for (j = i; j < n && s[j] != '&' && !is_space(s[j]); j++)
				;
			h_put(h, s + i, j - i);
			i = j;
		}
	}
}

/* Where "</name" starts, case-insensitively, or 'n'. */
static size_t find_close(const char *s, size_t n, const char *name)
{
	size_t len = strlen(name), i = 0;
	const char *lt;

	while (i < n && (lt = memchr(s + i, '<', n - i))) {
		i = (size_t)(lt - s);
		if (n - i >= len + 2 && s[i + 1] == '/' &&
		    !strncasecmp(s + i + 2, name, len))
			return i;
		i++;
	}
	return n;
}

/* Past the '>' closing the tag at 's'; quoted attribute values skipped. */
static size_t tag_end(const char *s, size_t n)
{
	size_t i;
	char q = 0, prev = 0;

	for (i = 1; i < n; i++) {
		if (q) {
			if (s[i] == q)
				q = 0;
		} else if ((s[i] == '"' || s[i] == '\'') && prev == '=') {
			q = s[i];
		} else if (s[i] == '>') {
			return i + 1;
		}
		if (!is_space(s[i]))
			prev = s[i];
	}
	return n;
}

static int name_is(const char *name, size_t len, const char *const *set)
{
	for (; *set; set++)
		if (strlen(*set) == len && !strncasecmp(name, *set, len))
			return 1;
	return 0;
}

/* A tag's effect on the text; 'close' for </name>. */
static void h_element(struct html *h, const char *name, size_t len, int close)
{
	static const char *const blocks[] = { "p", "div", "li", "tr", "table",
		"ul", "ol", "dl", "dt", "dd", "h1", "h2", "h3", "h4", "h5",
		"h6", "hr", "center", "address", NULL };
	static const char *const cells[] = { "td", "th", NULL };

	if (len == 2 && !strncasecmp(name, "br", 2)) {
		h_newline(h);
	} else if (len == 10 && !strncasecmp(name, "blockquote", 10)) {
		h_break(h);
		h->quote += close ? (h->quote > 0 ? -1 : 0) : 1;
	} else if (len == 3 && !strncasecmp(name, "pre", 3)) {
		h_break(h);
		h->pre = !close;
	} else if (name_is(name, len, blocks)) {
		h_break(h);
	} else if (name_is(name, len, cells)) {
		h->space = 1;
	}
}

/* 's' starts with '<'; returns the bytes used. */
static size_t h_tag(struct html *h, const char *s, size_t n)
{
	/* Not <head>: without its end tag it would hide the whole body. */
	static const char *const hidden[] = { "script", "style", "title",
		NULL };
	size_t i, len, end;
	const char *gt;
	int close;

	if (n >= 4 && !memcmp(s, "<!--", 4)) {
		gt = memmem(s + 4, n - 4, "-->", 3);
		return gt ? (size_t)(gt - s) + 3 : n;
	}
	close = n > 1 && s[1] == '/';
	i = 1 + (size_t)close;
	for (len = 0; i + len < n && g_ascii_isalnum(s[i + len]); len++)
		;
	if (len == 0 && !(n > 1 && (s[1] == '!' || s[1] == '?'))) {
		h_put(h, "<", 1);
		return 1;
	}
	end = tag_end(s, n);
	if (!close && name_is(s + i, len, hidden)) {
		char name[8];

		memcpy(name, s + i, len);
		name[len] = '\0';
		end += find_close(s + end, n - end, name);
		return end + (end < n ? tag_end(s + end, n - end) : 0);
	}
	h_element(h, s + i, len, close);
	return end;
}

static int html_to_text(const char *s, size_t n, struct strbuf *out)
{
	struct html h = { out, 0, 0, 1, 0, 0 };
	const char *lt;
	size_t i = 0, j;

	while (i < n && !h.err) {
		if (s[i] == '<') {
			i += h_tag(&h, s + i, n - i);
			continue;
		}
		lt = memchr(s + i, '<', n - i);
		j = lt ? (size_t)(lt - s) : n;
		h_text(&h, s + i, j - i);
		i = j;
	}
	h_break(&h);
	return h.err ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* format=flowed (RFC 3676)                                            */

struct flowed {
	struct strbuf *out;
	int delsp;
	int open;		/* a flowed paragraph is being joined */
	size_t depth;		/* its quote depth */
	int err;
};

static void flowed_line(struct flowed *f, const char *s, size_t len)
{
	size_t depth = 0;
	int soft;

	while (depth < len && s[depth] == '>')
		depth++;
	s += depth;
	len -= depth;
	if (len > 0 && s[0] == ' ')	/* space-stuffing */
		s++, len--;
	soft = len > 0 && s[len - 1] == ' ' && !(len == 3 && !memcmp(s, "-- ", 3));
	if (f->open && depth != f->depth) {
		f->err |= sb_addc(f->out, '\n');
		f->open = 0;
	}
	if (!f->open && depth > 0) {
		f->err |= sb_addn(f->out, '>', depth);
		f->err |= sb_addc(f->out, ' ');
	}
	f->err |= sb_add(f->out, s, soft && f->delsp ? len - 1 : len);
	if (!soft)
		f->err |= sb_addc(f->out, '\n');
	f->open = soft;
	f->depth = depth;
}

static int unflow(const char *s, size_t n, int delsp, struct strbuf *out)
{
	struct flowed f = { out, delsp, 0, 0, 0 };
	const char *nl, *end = s + n;

	while (s < end && !f.err) {
		nl = memchr(s, '\n', (size_t)(end - s));
		flowed_line(&f, s, (size_t)((nl ? nl : end) - s));
		s = nl ? nl + 1 : end;
	}
	if (f.open)
		f.err |= sb_addc(out, '\n');
	return f.err ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* Lines: Outlook block, signature, quotes, attributions, commands     */

struct line {
	const char *s;
	size_t len;		/* without trailing blanks */
	unsigned char quoted;
	unsigned char drop;
	unsigned char patch;	/* part of an inline git format-patch */
};

static size_t split_lines(const char *text, size_t n, struct line **out)
{
	const char *p = text, *end = text + n, *nl;
	size_t count = 0, i;
	struct line *l;

	for (nl = p; nl < end && count < REPLY_MAX_LINES; count++) {
		nl = memchr(nl, '\n', (size_t)(end - nl));
		nl = nl ? nl + 1 : end;
	}
	*out = l = count ? calloc(count, sizeof(*l)) : NULL;
	if (!l)
		return 0;
	for (i = 0; i < count; i++) {
		nl = memchr(p, '\n', (size_t)(end - p));
		l[i].s = p;
		l[i].len = (size_t)((nl ? nl : end) - p);
		while (l[i].len > 0 && is_space(p[l[i].len - 1]))
			l[i].len--;
		p = nl ? nl + 1 : end;
	}
	return count;
}

static int blank(const struct line *l)
{
	size_t i;

	for (i = 0; i < l->len; i++)
		if (!is_space(l->s[i]))
			return 0;
	return 1;
}

static int starts_ci(const struct line *l, const char *prefix)
{
	size_t n = strlen(prefix);

	return l->len >= n && !strncasecmp(l->s, prefix, n);
}

static int ends_ci(const struct line *l, const char *suffix)
{
	size_t n = strlen(suffix);

	return l->len >= n && !strncasecmp(l->s + l->len - n, suffix, n);
}

/* "-----Original Message-----", any case, any run of dashes. */
static int outlook_separator(const struct line *l)
{
	const char *s = l->s, *e = l->s + l->len;
	size_t lead = 0, trail = 0;

	while (s < e && is_space(*s))
		s++;
	for (; s < e && *s == '-'; s++)
		lead++;
	for (; e > s && e[-1] == '-'; e--)
		trail++;
	while (s < e && is_space(*s))
		s++;
	while (e > s && is_space(e[-1]))
		e--;
	return lead >= 2 && trail >= 2 && e - s == 16 &&
	       !strncasecmp(s, "original message", 16);
}

/* "From: ...", also "*From:* ..." as Outlook writes bold in plain text. */
static int is_hdr(const struct line *l, const char *name)
{
	size_t i = 0, n = strlen(name);

	while (i < l->len && (is_space(l->s[i]) || l->s[i] == '*'))
		i++;
	if (l->len - i < n + 1 || strncasecmp(l->s + i, name, n))
		return 0;
	for (i += n; i < l->len && l->s[i] == '*'; i++)
		;
	return i < l->len && l->s[i] == ':';
}

/* The header names Outlook writes above a quoted original, by language. */
static const char *const hdr_from[] = { "From", "Von", "De", "Da", "Van",
					NULL };
static const char *const hdr_sent[] = { "Sent", "Date", "Gesendet",
					"Datum", "Envoy\xc3\xa9", "Enviado",
					"Inviato", "Verzonden", NULL };
static const char *const hdr_to[] = { "To", "Cc", "An", "\xc3\x80",
				      "A", "Para", "Aan", NULL };
static const char *const hdr_subject[] = { "Subject", "Betreff", "Objet",
					   "Asunto", "Oggetto", "Onderwerp",
					   NULL };

static int is_hdr_any(const struct line *l, const char *const *names)
{
	for (; *names; names++)
		if (is_hdr(l, *names))
			return 1;
	return 0;
}

/*
 * From: / Sent: (or Date:) / To: / Cc: / Subject: of a quoted original,
 * in English, German, French, Spanish, Italian or Dutch. Never inside an
 * inline patch, whose From:/Date:/Subject: look the same.
 */
static int outlook_block(const struct line *l, size_t i, size_t n)
{
	size_t j;

	if (i + 2 >= n || l[i].patch || !is_hdr_any(&l[i], hdr_from) ||
	    !is_hdr_any(&l[i + 1], hdr_sent))
		return 0;
	for (j = i + 2; j < n && j <= i + 5; j++) {
		if (is_hdr_any(&l[j], hdr_subject))
			return 1;
		if (!is_hdr_any(&l[j], hdr_to))
			return 0;
	}
	return 0;
}

static int underscores(const struct line *l)
{
	size_t i, n = 0;

	for (i = 0; i < l->len; i++) {
		if (l->s[i] == '_')
			n++;
		else if (!is_space(l->s[i]))
			return 0;
	}
	return n >= 10;
}

/* The line count left once Outlook's quoted original is cut. */
static size_t outlook_cut(const struct line *l, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++)
		if (!l[i].patch &&
		    (outlook_separator(&l[i]) || outlook_block(l, i, n)))
			break;
	if (i == n)
		return n;
	/* Outlook on the web rules the original off with underscores. */
	for (k = i; k > 0 && blank(&l[k - 1]); k--)
		;
	return k > 0 && underscores(&l[k - 1]) ? k - 1 : i;
}

static size_t signature_cut(const struct line *l, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		/* 'len' has trailing blanks trimmed: "-- " reads as "--". */
		if (!l[i].patch && l[i].len == 2 && !memcmp(l[i].s, "--", 2))
			break;
	}
	return i;
}

static void mark_quotes(struct line *l, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < l[i].len && (l[i].s[j] == ' ' || l[i].s[j] == '\t'); j++)
			;
		l[i].quoted = j < l[i].len && l[i].s[j] == '>';
	}
}

static const char *const attribution_verbs[] = {
	"wrote:", "\xc3\xa9" "crit :", "\xc3\xa9" "crit:", "schrieb:",
	"schrieb :", "escribi\xc3\xb3:", "ha scritto:", "schreef:",
	"napisa\xc5\x82:", "skrev:", "kirjoitti:", NULL,
};

static int attribution(const struct line *l)
{
	const char *const *v;

	if (l->len > MAX_ATTRIBUTION)
		return 0;
	for (v = attribution_verbs; *v; v++)
		if (ends_ci(l, *v))
			return 1;
	return 0;
}

/* How an attribution line opens: "On", "Am", "Le", "El", "Il", "Op". */
static int attribution_opening(const struct line *l)
{
	static const char *const open[] = { "On ", "Am ", "Le ", "El ",
					    "Il ", "Op ", "W dniu ", "Den ",
					    NULL };
	const char *const *o;

	for (o = open; *o; o++)
		if (starts_ci(l, *o))
			return 1;
	return 0;
}

static int contains_ci(const struct line *l, const char *word)
{
	size_t n = strlen(word), i;

	for (i = 0; i + n <= l->len; i++)
		if (!strncasecmp(l->s + i, word, n))
			return 1;
	return 0;
}

/*
 * Real attributions carry a date and a time or an address; prose that
 * starts "On ..." and ends "... wrote:" rarely has both.
 */
static int dated(const struct line *l)
{
	size_t i;
	int digit = 0, at = 0, time = 0;

	for (i = 0; i < l->len; i++) {
		digit |= l->s[i] >= '0' && l->s[i] <= '9';
		at |= l->s[i] == '@';
		time |= i > 0 && i + 2 < l->len && l->s[i] == ':' &&
			l->s[i - 1] >= '0' && l->s[i - 1] <= '9' &&
			l->s[i + 1] >= '0' && l->s[i + 1] <= '9';
	}
	return digit && (at || time);
}

/*
 * "<opening> ... <verb> ...:" on one line or wrapped over two ('b'): the
 * verb may stand before the name ("Am 15.03. schrieb Dev <d@x>:").
 */
static int loose_attribution(const struct line *a, const struct line *b)
{
	static const char *const verbs[] = {
		" wrote", " schrieb ", " schrieb:", "\xc3\xa9" "crit",
		" escribi\xc3\xb3", " ha scritto", " schreef", " napisa\xc5\x82",
		" skrev", " kirjoitti", NULL,
	};
	const struct line *last = b ? b : a;
	const char *const *v;

	if (a->len + (b ? b->len : 0) > MAX_ATTRIBUTION || !last->len ||
	    last->s[last->len - 1] != ':' || !dated(a))
		return 0;
	for (v = verbs; *v; v++)
		if (contains_ci(a, *v) || (b && (contains_ci(b, *v) ||
						 contains_ci(b, *v + 1))))
			return 1;
	return 0;
}

/*
 * A quoted original without '>' marks (mail clients that quote in HTML
 * only, then lose it): an attribution ("Am 1. Dez. 2026 um 10:00 schrieb
 * Dev <dev@x>:", maybe wrapped over two lines) followed by text that is
 * not quoted. The line count left once it is cut.
 */
static size_t unquoted_original_cut(const struct line *l, size_t n)
{
	size_t i, j, at;

	for (i = 0; i < n; i++) {
		if (l[i].patch || !attribution_opening(&l[i]))
			continue;
		at = loose_attribution(&l[i], NULL) ? i : i + 1 < n &&
			!blank(&l[i + 1]) && loose_attribution(&l[i], &l[i + 1])
			? i + 1 : n;
		if (at == n)
			continue;
		for (j = at + 1; j < n && blank(&l[j]); j++)
			;
		if (j < n && !l[j].quoted)
			return i;
	}
	return n;
}

/* "From <40 hex> Mon Sep 17 00:00:00 2001": git format-patch's first line */
static int patch_start(const struct line *l)
{
	size_t i;

	if (l->len != 5 + 40 + 1 + 24 || strncmp(l->s, "From ", 5) ||
	    memcmp(l->s + 46, "Mon Sep 17 00:00:00 2001", 24))
		return 0;
	for (i = 5; i < 45; i++)
		if (!strchr("0123456789abcdef", l->s[i]))
			return 0;
	return 1;
}

static int version_line(const struct line *l)
{
	size_t i;

	if (!l->len || l->s[0] < '0' || l->s[0] > '9')
		return 0;
	for (i = 0; i < l->len; i++)
		if (!strchr("0123456789.", l->s[i]) && l->s[i] != '-' &&
		    !(l->s[i] >= 'a' && l->s[i] <= 'z'))
			return 0;
	return 1;
}

/* A line a diff is made of (context lines may have lost their blank). */
static int diff_line(const struct line *l)
{
	static const char *const heads[] = { "diff ", "index ", "--- ",
					     "+++ ", "@@ ", "new file",
					     "deleted file", "similarity ",
					     "rename ", "old mode", "new mode",
					     "Binary files", "\\ No newline",
					     NULL };
	const char *const *h;

	if (l->s[0] == '+' || l->s[0] == '-' || l->s[0] == ' ')
		return 1;
	for (h = heads; *h; h++)
		if (starts_ci(l, *h))
			return 1;
	return 0;
}

/*
 * An inline `git format-patch`: from its "From <sha>" line to its "-- "
 * and version lines, or to the end of its diff. Its From:/Date:/Subject:
 * are not an Outlook original, its "-- " no signature, and nothing in it
 * is a command.
 */
static void mark_patches(struct line *l, size_t n)
{
	size_t i, j, end;
	int in_diff;

	for (i = 0; i < n; i++) {
		if (!patch_start(&l[i]))
			continue;
		end = n;
		in_diff = 0;
		for (j = i + 1; j < n; j++) {
			if (l[j].len == 2 && !memcmp(l[j].s, "--", 2) &&
			    j + 1 < n && version_line(&l[j + 1])) {
				end = j + 2;
				break;
			}
			if (starts_ci(&l[j], "diff --git "))
				in_diff = 1;
			else if (in_diff && !diff_line(&l[j]) &&
				 !(l[j].s[0] == '\n' && j + 1 < n &&
				   diff_line(&l[j + 1]))) {
				end = j;
				break;
			}
		}
		for (j = i; j < end; j++) {
			l[j].patch = 1;
			l[j].drop = 1;
		}
		i = end - 1;
	}
}

/* "On <date>, <name> wrote:" above a quote, maybe wrapped over two lines. */
static void mark_attributions(struct line *l, size_t n)
{
	size_t i, k;

	for (i = 1; i < n; i++) {
		if (!l[i].quoted || l[i - 1].quoted)
			continue;
		for (k = i; k > 0 && !l[k - 1].quoted && blank(&l[k - 1]); k--)
			;
		if (k == 0 || l[k - 1].quoted || !attribution(&l[k - 1]))
			continue;
		k--;
		l[k].drop = 1;
		if (k > 0 && !l[k - 1].quoted && !blank(&l[k - 1]) &&
		    starts_ci(&l[k - 1], "On ") && !starts_ci(&l[k], "On "))
			l[k - 1].drop = 1;
	}
}

/* The kept lines, runs of blank lines as one, none at either end. */
static int emit_text(const struct line *l, size_t n, struct strbuf *out)
{
	int gap = 0, rc = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (l[i].drop || l[i].quoted)
			continue;
		if (blank(&l[i])) {
			gap = out->len > 0;
			continue;
		}
		if (gap)
			rc |= sb_addc(out, '\n');
		gap = 0;
		rc |= sb_add(out, l[i].s, l[i].len);
		rc |= sb_addc(out, '\n');
	}
	return rc;
}

static void find_commands(const struct line *l, size_t n, const char *prefix,
			  struct reply *r)
{
	struct mail_command c;
	size_t i;

	for (i = 0; i < n; i++) {
		if (l[i].drop || l[i].quoted ||
		    !command_parse_line(l[i].s, l[i].len, prefix, &c))
			continue;
		r->ncmds_seen++;
		if (r->ncmds < REPLY_MAX_COMMANDS)
			r->cmds[r->ncmds++] = c;
	}
}

static int read_lines(const char *text, size_t len, const struct reply_opts *o,
		      struct reply *r)
{
	struct strbuf out;
	struct line *l = NULL;
	size_t n = split_lines(text, len, &l);

	if (len > 0 && n == 0)
		return -1;
	mark_patches(l, n);
	n = outlook_cut(l, n);
	n = signature_cut(l, n);
	mark_quotes(l, n);
	n = unquoted_original_cut(l, n);
	mark_attributions(l, n);
	sb_init(&out, TEXT_MAX);
	if (emit_text(l, n, &out) || !(r->text = sb_detach(&out, NULL))) {
		sb_release(&out);
		free(l);
		return -1;
	}
	find_commands(l, n, o ? o->prefix : NULL, r);
	free(l);
	return 0;
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

	sb_init(&raw, TEXT_MAX);
	rc = part_bytes(part, &raw);
	if (!rc)
		rc = to_utf8(sb_str(&raw), raw.len, charset_of(GMIME_OBJECT(part)),
			     utf);
	sb_release(&raw);
	normalize(utf);
	return rc;
}

/* The chosen part as plain text, before quotes are removed. */
static int part_text(GMimePart *part, int html, struct strbuf *text)
{
	GMimeObject *o = GMIME_OBJECT(part);
	struct strbuf utf;
	int rc;

	sb_init(&utf, TEXT_MAX);
	rc = part_utf8(part, &utf);
	if (!rc && html)
		rc = html_to_text(sb_str(&utf), utf.len, text);
	else if (!rc && param_is(o, "format", "flowed"))
		rc = unflow(sb_str(&utf), utf.len, param_is(o, "delsp", "yes"),
			    text);
	else if (!rc)
		rc = sb_add(text, sb_str(&utf), utf.len);
	sb_release(&utf);
	return rc;
}

/* The first text/plain that is not an attachment, else text/html. */
static int read_text(GMimeMessage *msg, const struct reply_opts *o,
		     struct reply *r, struct pb_err *err)
{
	GMimeObject *top = g_mime_message_get_mime_part(msg);
	GMimePart *part = find_text(top, "plain");
	struct strbuf text;
	int html = 0, rc = 0;

	if (!part) {
		part = find_text(top, "html");
		html = part != NULL;
	}
	sb_init(&text, TEXT_MAX);
	if (part)
		rc = part_text(part, html, &text);
	if (!rc)
		rc = read_lines(sb_str(&text), text.len, o, r);
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
	gmime_once();
	msg = parse_message(raw, len);
	if (!msg) {
		pb_fail(err, EX_DATAERR, "not a mail message");
		goto out;
	}
	if (read_headers(msg, r)) {
		pb_fail(err, EX_OSERR, "reply: out of memory");
		goto out;
	}
	read_dsn(msg, r);
	if (read_text(msg, o, r, err))
		goto out;
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
	memset(r, 0, sizeof(*r));
}

/* ------------------------------------------------------------------ */
/* Loop safety                                                         */

/* "no", maybe followed by parameters or a comment (RFC 3834 5.1). */
static int auto_submitted_no(const char *v)
{
	size_t n = 0;

	while (is_space(*v))
		v++;
	while (v[n] && !is_space(v[n]) && v[n] != ';' && v[n] != '(')
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
	for (i = 0; own && i < nown; i++)
		if (own[i] && !strcasecmp(r->from_addr, own[i]))
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
