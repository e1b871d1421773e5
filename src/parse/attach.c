// SPDX-License-Identifier: GPL-2.0-only
/*
 * parse: the patches attached to a reply (mime.h, mime_patches()). A
 * developer attaches a fix as text/x-patch or text/x-diff (mutt, git
 * send-email), as text/plain or application/octet-stream named *.patch
 * or *.diff (most webmail), or as a text file holding a diff: each is
 * taken as it is, byte for byte (a patch is applied to files, so no
 * charset is converted), CRLF line ends made LF when every line has
 * one. An attached message (message/rfc822) is not entered: it is not
 * the sender's.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <gmime/gmime.h>

#include "lines.h"
#include "mime.h"
#include "perfbot/parse/reply.h"

struct collect {
	GMimeObject *text;	/* the reply's own text part */
	struct strbuf sb;	/* the patches, one after the other */
	struct reply_patch p;
	int oom;
};

/* The types that are a patch whatever their name. */
static int patch_type(GMimeObject *o)
{
	return mime_is_type(o, "text", "x-patch") ||
	       mime_is_type(o, "text", "x-diff") ||
	       mime_is_type(o, "application", "x-patch") ||
	       mime_is_type(o, "application", "x-diff");
}

/* The types that are one when named so or holding a diff. */
static int maybe_type(GMimeObject *o)
{
	return mime_is_type(o, "text", "plain") ||
	       mime_is_type(o, "application", "octet-stream");
}

static int patch_name(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	return (n > 6 && !strcasecmp(name + n - 6, ".patch")) ||
	       (n > 5 && !strcasecmp(name + n - 5, ".diff"));
}

/* A unified diff: a "+++ " file line and a hunk. */
static int holds_diff(const struct strbuf *b)
{
	const char *s = sb_str(b);

	return (!strncmp(s, "+++ ", 4) || strstr(s, "\n+++ ")) &&
	       patch_hunks(s, b->len) > 0;
}

/* CRLF line ends, every one of them, made LF. */
static void crlf_to_lf(struct strbuf *b)
{
	size_t i, k, lf = 0, crlf = 0;

	for (i = 0; i < b->len; i++)
		if (b->buf[i] == '\n') {
			lf++;
			crlf += i > 0 && b->buf[i - 1] == '\r';
		}
	if (!lf || crlf != lf)
		return;
	for (i = k = 0; i < b->len; i++)
		if (!(b->buf[i] == '\r' && i + 1 < b->len &&
		      b->buf[i + 1] == '\n'))
			b->buf[k++] = b->buf[i];
	b->len = k;
	b->buf[k] = '\0';
}

/* A NUL, or a control byte no patch of text holds. */
static int binary(const struct strbuf *b)
{
	size_t i;
	unsigned char c;

	for (i = 0; i < b->len; i++) {
		c = (unsigned char)b->buf[i];
		if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' &&
		     c != '\f') || c == 0x7f)
			return 1;
	}
	return 0;
}

static void take(struct collect *c, GMimePart *part, struct strbuf *b)
{
	const char *name = g_mime_part_get_filename(part);

	crlf_to_lf(b);
	c->p.parts++;
	if (binary(b)) {
		c->p.binary = 1;
		return;
	}
	c->p.hunks += patch_hunks(sb_str(b), b->len);
	if (name && !c->p.name && !(c->p.name = strdup(name)))
		c->oom = 1;
	/* the line end before a MIME boundary is the boundary's */
	if (sb_add(&c->sb, sb_str(b), b->len) ||
	    (c->sb.len && c->sb.buf[c->sb.len - 1] != '\n' &&
	     sb_addc(&c->sb, '\n')))
		c->oom = 1;
}

static int visit(GMimeObject *o, void *ctx)
{
	struct collect *c = ctx;
	struct strbuf b;
	GMimePart *part;
	int sure;

	if (!GMIME_IS_PART(o) || o == c->text ||
	    !((sure = patch_type(o)) || maybe_type(o)))
		return 0;
	part = GMIME_PART(o);
	sure |= patch_name(g_mime_part_get_filename(part));
	sb_init(&b, REPLY_MAX_BYTES);
	if (mime_part_bytes(part, &b))
		c->oom = 1;	/* no larger than the mail: memory */
	else if (sure || holds_diff(&b))
		take(c, part, &b);
	sb_release(&b);
	return c->oom;
}

int mime_patches(GMimeMessage *msg, struct reply *r)
{
	struct collect c;
	GMimePart *text;
	int html;

	memset(&c, 0, sizeof(c));
	text = mime_text_part(msg, &html);
	c.text = text ? GMIME_OBJECT(text) : NULL;
	sb_init(&c.sb, REPLY_MAX_BYTES);
	mime_walk(g_mime_message_get_mime_part(msg), 0, visit, &c);
	if (!c.oom && c.p.parts) {
		if (c.sb.len && !(c.p.text = sb_detach(&c.sb, &c.p.len)))
			c.oom = 1;
		free(r->patch.text);
		free(r->patch.name);
		r->patch = c.p;
		memset(&c.p, 0, sizeof(c.p));
	}
	free(c.p.name);
	sb_release(&c.sb);
	return c.oom ? -1 : 0;
}
