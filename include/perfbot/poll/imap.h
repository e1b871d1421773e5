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
 *
 * The library runs in a child process (imapchild.c), so that a crash or
 * a hang in it, whatever the server sends, never takes perfbot down: the
 * child passes each answer back checked and size-bounded (imapwire.h),
 * every operation is bounded by imap.timeout (the open, which connects,
 * logs in and selects, by four times it) and the whole session by ten
 * times it; past that, or when the child dies, the operation fails with
 * one error (EX_TEMPFAIL for a timeout, EX_PROTOCOL for a crash) and the
 * session is over. Nothing the library prints reaches perfbot's output.
 */

struct imap;

struct imap_msg {
	uint32_t uid;
	char *data;	/* NULL when larger than the cap ('size' tells) */
	size_t len;
	uint32_t size;	/* RFC822.SIZE, or the bytes that came past the cap */
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
 * data NULL: it is not downloaded when RFC822.SIZE says so, and never
 * more than 'cap' + 1 bytes of it are asked for when the size lies.
 */
int imap_fetch(struct imap *im, uint32_t uid, size_t cap,
	       struct imap_msg *msg, struct pb_err *err);
void imap_msg_release(struct imap_msg *msg);

/* Mark handled: \Seen, or move to 'mailbox' when it is not empty. */
int imap_done(struct imap *im, uint32_t uid, const char *mailbox,
	      struct pb_err *err);

/* 'mailbox' exists on the server, or is created ('*created' 1). */
int imap_ensure(struct imap *im, const char *mailbox, int *created,
		struct pb_err *err);

/*
 * For 'perfbot check --connect', after imap_open(): one line appended to
 * 'out' naming the TLS mode, the login, the mailbox (messages,
 * UIDVALIDITY, UIDNEXT) and the server's capabilities.
 */
int imap_probe(struct imap *im, const struct config *cfg,
	       struct strbuf *out, struct pb_err *err);

#endif
