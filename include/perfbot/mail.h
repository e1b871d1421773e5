/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_MAIL_H
#define PERFBOT_MAIL_H

#include <stddef.h>
#include <time.h>
#include <jansson.h>

#include "perfbot/err.h"
#include "perfbot/strbuf.h"

/*
 * Composing a mail with GMime: headers (RFC 2047 encoded and folded by
 * GMime), a text/plain UTF-8 body that is inline and 8bit or
 * quoted-printable as its lines require, and attachments. Every header
 * value passes through text_one_line() first, so a CR or LF in a subject,
 * a name or an id can never start a header or the body.
 */

struct attachment {
	const char *filename;
	const char *content_type;	/* "text/plain" */
	const char *data;
	size_t len;
};

struct mail {
	const char *from;
	json_t *to;			/* arrays of "Name <addr>" strings */
	json_t *cc;
	const char *subject;
	const char *body;
	const char *message_id;		/* without angle brackets */
	time_t date;
	const char *in_reply_to;	/* with angle brackets, or NULL */
	const char *references;		/* space separated, or NULL */
	const char *auto_submitted;	/* "auto-generated", "auto-replied" */
	const char *report_id;		/* X-Perfbot-Report */
	const struct attachment *att;
	size_t natt;
};

/* The whole message (RFC 5322, CRLF-free: LF line ends) into 'out'. */
int mail_compose(const struct mail *m, struct strbuf *out,
		 struct pb_err *err);

/*
 * Append 'msg' to an mbox: the "From " separator line ('sender', 'date'),
 * the message with body lines that start with ">*From " quoted by one more
 * '>' (mboxrd), and a blank line.
 */
int mbox_append(struct strbuf *mbox, const char *sender, time_t date,
		const char *msg, size_t len);

/* The bare address of "Name <addr>" (newly allocated), or NULL. */
char *mail_addr_spec(const char *mailbox);

/*
 * The envelope recipients of a mail: the bare address of every mailbox
 * in the strings of 'to' and 'cc' (JSON lists of "Name <addr>, b@x"),
 * each address once, as a compact JSON list; NULL when there is none.
 */
char *mail_envelope(json_t *to, json_t *cc);

#endif
