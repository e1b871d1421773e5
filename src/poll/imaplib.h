/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_IMAPLIB_H
#define PERFBOT_IMAPLIB_H

/*
 * The IMAP session over libetpan (imaplib.c), for the child process of
 * imapchild.c only: the functions of imap.h, done in the library. A port
 * that speaks the other kind of TLS is EX_CONFIG naming imap.url; a body
 * is asked for with at most 'cap' + 1 bytes and one that comes larger is
 * returned without data, its size the bytes that came.
 */

#include "perfbot/poll/imap.h"

struct imaplib;

int imaplib_open(struct imaplib **out, const struct config *cfg,
		 struct pb_err *err);
void imaplib_close(struct imaplib *im);
uint32_t imaplib_uidvalidity(const struct imaplib *im);
int imaplib_new_uids(struct imaplib *im, uint32_t after, size_t max,
		     uint32_t **uids, size_t *n, struct pb_err *err);
int imaplib_fetch(struct imaplib *im, uint32_t uid, size_t cap,
		  struct imap_msg *msg, struct pb_err *err);
int imaplib_done(struct imaplib *im, uint32_t uid, const char *mailbox,
		 struct pb_err *err);
/* 'mailbox' exists, or is created (*created 1). */
int imaplib_ensure(struct imaplib *im, const char *mailbox, int *created,
		   struct pb_err *err);
int imaplib_probe(struct imaplib *im, const struct config *cfg,
		  struct strbuf *out, struct pb_err *err);

#endif
