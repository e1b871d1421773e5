/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_REMINDER_H
#define PERFBOT_REMINDER_H

#include <time.h>
#include <jansson.h>

#include "perfbot/config/config.h"
#include "perfbot/compose/mail.h"

/*
 * The reminder (compose): the mail that lists the regressions still
 * open, a thread of its own, to reminders.to. Its body is
 * templates/reminder.txt and its subject templates/reminder-subject.txt,
 * both with 'ctx' (act/remind.c builds it); "auto-generated", kind
 * "reminder", id 'id' (its Message-ID drawn from it; 'draw' > 0 another
 * one, as identity.h). 'c' (composed_release() it after, whatever the
 * outcome) gets the bytes, the envelope and the ids.
 */
int reminder_compose(const struct config *cfg, const char *id, json_t *ctx,
		     time_t now, int draw, struct composed *c,
		     struct pb_err *err);

#endif
