/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_MIME_H
#define PERFBOT_MIME_H

#include <stddef.h>
#include <gmime/gmime.h>

#include "perfbot/parse/reply.h"
#include "perfbot/util/strbuf.h"

/* The MIME side of reply parsing (src/parse/): the tree of a mail. */

#define REPLY_TEXT_MAX ((size_t)4 * REPLY_MAX_BYTES)	/* UTF-8 may grow */

/* 'data' read as one message (headers first); NULL when GMime cannot. */
GMimeMessage *mime_parse(const char *data, size_t len);

/* A Message-ID without <>: printable ASCII, no blank, at most 998 bytes. */
int mime_id_ok(const char *id);

/* Nonzero from a visitor stops the walk. */
typedef int (*mime_visit_fn)(GMimeObject *o, void *ctx);

/*
 * Depth-first, in order, at most REPLY_MAX_DEPTH deep from 'depth'.
 * Encrypted parts are opaque; of a signed part only the signed content
 * counts; attached messages are not entered. The first nonzero of 'fn'.
 */
int mime_walk(GMimeObject *o, int depth, mime_visit_fn fn, void *ctx);

/* 1 when 'o' has the content type type/subtype. */
int mime_is_type(GMimeObject *o, const char *type, const char *subtype);

/* Append the decoded content of 'part' to 'out'; -1 when 'out' is full. */
int mime_part_bytes(GMimePart *part, struct strbuf *out);

/*
 * The part that is the reply's text: the first text/plain that is not an
 * attachment, else the first text/html ('*html' 1); NULL when none.
 */
GMimePart *mime_text_part(GMimeMessage *msg, int *html);

/*
 * The patches attached to 'msg' (attach.c): every part but its text
 * (mime_text_part()) that is text/x-patch or text/x-diff, or text/plain
 * or application/octet-stream named *.patch or *.diff or holding a
 * unified diff, in order, put into r->patch in place of a pasted one
 * when there is any. -1 when out of memory.
 */
int mime_patches(GMimeMessage *msg, struct reply *r);

/*
 * Append the reply's text, before quotes are cut, to 'text': the first
 * text/plain that is not an attachment, else the first text/html as text;
 * in UTF-8 with LF line ends, other control characters '?'. Nothing when
 * there is neither; -1 when out of memory.
 */
int mime_text(GMimeMessage *msg, struct strbuf *text);

#endif
