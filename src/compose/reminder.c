// SPDX-License-Identifier: GPL-2.0-only
/*
 * compose: the reminder of the regressions still open (reminder.h), a
 * mail of its own to reminders.to, rendered from its templates.
 */
#include <stdlib.h>
#include <string.h>

#include "perfbot/compose/identity.h"
#include "perfbot/compose/reminder.h"
#include "perfbot/compose/values.h"
#include "perfbot/render/template.h"
#include "perfbot/util/text.h"

/* The subject: one line, no control characters. */
static char *subject_of(const struct config *cfg, json_t *ctx,
			struct pb_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	char *s = NULL;

	if (!template_render(cfg, "reminder-subject", ctx, &sb, err)) {
		while (sb.len && (sb.buf[sb.len - 1] == '\n' ||
				  sb.buf[sb.len - 1] == ' '))
			sb_setlen(&sb, sb.len - 1);
		s = sb_detach(&sb, NULL);
		if (!s)
			pb_fail(err, EX_OSERR, "out of memory");
		else
			text_scrub_line(s);
	}
	sb_release(&sb);
	return s;
}

int reminder_render(const struct config *cfg, struct ctx *c,
		    struct reminder_text *t, struct pb_err *err)
{
	struct strbuf body = STRBUF_INIT;
	json_t *ctx = NULL;
	int rc = -1;

	memset(t, 0, sizeof(*t));
	if (ctx_finish(c, &ctx, err) || values_scrub(ctx, err))
		goto out;
	t->subject = subject_of(cfg, ctx, err);
	if (!t->subject || template_render(cfg, "reminder", ctx, &body, err))
		goto out;
	if (!(t->body = sb_detach(&body, NULL)))
		rc = pb_fail(err, EX_OSERR, "reminder: out of memory");
	else
		rc = 0;
out:
	sb_release(&body);
	json_decref(ctx);
	return rc;
}

void reminder_text_release(struct reminder_text *t)
{
	free(t->subject);
	free(t->body);
	memset(t, 0, sizeof(*t));
}

int reminder_compose(const struct config *cfg, const char *id,
		     const struct reminder_text *t, time_t now, int draw,
		     struct composed *c, struct pb_err *err)
{
	struct addrlist to;
	struct mail m = { 0 };
	size_t i;
	int rc = -1;

	composed_init(c);
	addrlist_init(&to);
	c->kind = "reminder";
	c->date = now;
	c->id = strdup(id);
	c->sender = identity_sender(cfg);
	c->message_id = c->id ? identity_message_id(cfg, c->id, now, draw) :
		NULL;
	for (i = 0; i < cfg->reminders.to.n; i++)
		if (addrlist_add(&to, cfg->reminders.to.v[i]))
			goto oom;
	if (!c->id || !c->sender || !c->message_id ||
	    mail_envelope(&to, NULL, &c->rcpts))
		goto oom;
	if (!(c->subject = strdup(t->subject)))
		goto oom;
	m.from = cfg->identity.from;
	m.to = &to;
	m.subject = c->subject;
	m.body = t->body;
	m.message_id = c->message_id;
	m.date = now;
	m.auto_submitted = "auto-generated";
	rc = mail_compose(&m, &c->msg, err);
	goto out;
oom:
	pb_fail(err, EX_OSERR, "reminder: out of memory");
out:
	addrlist_release(&to);
	return rc;
}
