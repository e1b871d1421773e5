/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_ROBOTS_H
#define PERFBOT_ROBOTS_H

#include <gmime/gmime.h>

#include "perfbot/parse/reply.h"

/*
 * Mail from robots (src/parse/): what marks a bounce, list mail, a null
 * sender. reply_must_not_answer() (reply.h) is defined here too.
 */

/* Return-Path: <> (spaces allowed) or an empty one. */
int robots_null_sender(GMimeObject *obj);

/* List-Id, X-Mailing-List (vger) or Mailing-List (ezmlm). */
int robots_via_list(GMimeObject *obj);

/* List-Id, or Precedence: bulk or list. */
int robots_list_mail(GMimeObject *obj);

/* Sets r->is_dsn and, for a DSN, r->dsn_message_id when one is found. */
void robots_read_dsn(GMimeMessage *msg, struct reply *r);

/*
 * Sets r->auto_reply when the mail is an auto-reply that does not say so
 * with Auto-Submitted; r->subject, r->in_reply_to and r->references are
 * read already.
 */
void robots_read_auto(GMimeObject *obj, struct reply *r);

/*
 * For a mail that is no DSN: sets r->is_dsn (and r->dsn_message_id when
 * its text[0..len) names the returned mail's) when a mail system returns
 * a mail in plain text; r->from_addr, r->null_sender, r->subject are
 * read already.
 */
void robots_read_plain_bounce(const char *text, size_t len,
			      struct reply *r);

#endif
