/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_REMINDER_H
#define PERFBOT_REMINDER_H

#include <time.h>
#include <jansson.h>

#include "perfbot/config/config.h"
#include "perfbot/compose/mail.h"
#include "perfbot/render/context.h"

/*
 * The reminder (compose): the mail that lists the regressions still
 * open, a thread of its own, to reminders.to. Its body is
 * templates/reminder.txt and its subject templates/reminder-subject.txt,
 * both rendered once by reminder_render() from the context act/remind.c
 * builds (released whatever happens; reminder_text_release() after in
 * both cases). reminder_compose() makes the mail of 't':
 * "auto-generated", kind "reminder", id 'id' (its Message-ID drawn from
 * it; 'draw' > 0 another one, as identity.h). 'c' (composed_release() it
 * after, whatever the outcome) gets the bytes, the envelope and the ids.
 */
struct reminder_text {
	char *subject;		/* one line, no control characters */
	char *body;
};
int reminder_render(const struct config *cfg, struct ctx *c,
		    struct reminder_text *t, struct pb_err *err);
void reminder_text_release(struct reminder_text *t);
int reminder_compose(const struct config *cfg, const char *id,
		     const struct reminder_text *t, time_t now, int draw,
		     struct composed *c, struct pb_err *err);

#endif
