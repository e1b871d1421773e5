/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_MAIL_H
#define PERFBOT_MAIL_H

#include <stddef.h>
#include <time.h>

#include "perfbot/util/addr.h"
#include "perfbot/util/err.h"
#include "perfbot/util/strbuf.h"

/*
 * Composing a mail (compose) with GMime: headers (RFC 2047 encoded and
 * folded by GMime), a text/plain UTF-8 body that is inline and 8bit or
 * quoted-printable as its lines require, and attachments. Every header
 * value passes through text_scrub_line() first, so a CR or LF in a subject,
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
	const struct addrlist *to;	/* "Name <addr>" strings, or NULL */
	const struct addrlist *cc;
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

/*
 * The envelope recipients of a mail: the bare address of every mailbox
 * in the strings of 'to' and 'cc' (either may be NULL; a string may be a
 * list, "Name <addr>, b@x"), each address once, appended to 'out'.
 */
int mail_envelope(const struct addrlist *to, const struct addrlist *cc,
		  struct addrlist *out);

/*
 * A mail ready for the outbox, as compose hands it over: the bytes and
 * what the state keeps beside them (its ids, the envelope, the subject
 * for listings, a report's headline for its record). report_compose() and the answers fill one;
 * outbox_queue() stores it. Every string is owned (composed_release()
 * frees it) but the three of the manifest, which the one who queues a
 * report sets so that retests and confirmations can build it again.
 */
struct composed {
	const char *kind;	/* "report", "answer" */
	char *id;		/* the report's id, or the answer's own */
	char *report_id;	/* the report an answer is about, or NULL */
	char *message_id;	/* without angle brackets */
	char *subject;
	time_t date;
	char *sender;		/* envelope MAIL FROM, a bare address */
	struct addrlist rcpts;	/* envelope RCPT TO, bare addresses */
	struct strbuf msg;	/* RFC 5322, LF line ends */
	const char *manifest;	/* a report's manifest: its name, */
	const char *manifest_text;	/* text */
	const char *manifest_dir;	/* and directory, or NULL */
	char *metric;		/* a report's headline, for its record */
	double change;		/* its %change */
	int regression;		/* 1, 0 for an improvement, -1 for a
				 * change of no known direction */
};

void composed_init(struct composed *c);
void composed_release(struct composed *c);

#endif
