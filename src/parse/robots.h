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

#endif
