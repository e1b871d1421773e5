/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_IMAP_H
#define PERFBOT_IMAP_H

#include <stddef.h>
#include <stdint.h>

#include "perfbot/config/config.h"
#include "perfbot/util/err.h"
#include "perfbot/util/strbuf.h"

/*
 * Reading the bot's mailbox with libetpan: imap:// with STARTTLS required
 * (default), imaps://, or plain imap:// when tls is "none". libetpan does
 * not check certificates, so the server's chain is verified with GnuTLS
 * (against imap.ca_file or the system store, and the host name) right
 * after the handshake and before the password is sent. Messages are
 * fetched by UID with BODY.PEEK[] so fetching never marks them read.
 */

struct imap;

struct imap_msg {
	uint32_t uid;
	char *data;	/* NULL when larger than the cap ('size' tells) */
	size_t len;
	uint32_t size;	/* RFC822.SIZE */
};

/* Connect, verify, log in and select imap.mailbox. */
int imap_open(struct imap **out, const struct config *cfg,
	      struct pb_err *err);
void imap_close(struct imap *im);

uint32_t imap_uidvalidity(const struct imap *im);

/*
 * The UIDs above 'after' (at most 'max', lowest first): UID SEARCH, so
 * the cost does not grow with the messages already handled.
 */
int imap_new_uids(struct imap *im, uint32_t after, size_t max,
		  uint32_t **uids, size_t *n, struct pb_err *err);

/*
 * Fetch one message's bytes; one larger than 'cap' comes back with
 * data NULL (and is not downloaded).
 */
int imap_fetch(struct imap *im, uint32_t uid, size_t cap,
	       struct imap_msg *msg, struct pb_err *err);
void imap_msg_release(struct imap_msg *msg);

/* Mark handled: \Seen, or move to 'mailbox' when it is not empty. */
int imap_done(struct imap *im, uint32_t uid, const char *mailbox,
	      struct pb_err *err);

/*
 * For 'perfbot check --connect', after imap_open(): one line appended to
 * 'out' naming the TLS mode, the login, the mailbox (messages,
 * UIDVALIDITY, UIDNEXT) and the server's capabilities.
 */
int imap_probe(struct imap *im, const struct config *cfg,
	       struct strbuf *out, struct pb_err *err);

#endif
