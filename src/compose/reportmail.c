// SPDX-License-Identifier: GPL-2.0-only
/*
 * compose: a rendered report (render/report.c) as the mail the outbox
 * stores, with its attachments and envelope.
 */
#include <stdlib.h>
#include <string.h>

#include "perfbot/util/addr.h"
#include "perfbot/compose/mail.h"
#include "perfbot/compose/reportmail.h"
#include "perfbot/render/template.h"


/*
 * What the mail attaches (report.attachments): unset, nothing when the
 * report links its materials (as the modern robot sends one text/plain
 * part), else all.
 */
static enum cfg_attachments attachments(const struct report *r,
					const struct config *cfg)
{
	return config_attachments(cfg, json_is_string(json_object_get(r->ctx,
							"materials_url")));
}

static int compose_bytes(const struct report *r, const struct config *cfg,
			 struct strbuf *out, struct pb_err *err)
{
	struct strbuf job = STRBUF_INIT, repro = STRBUF_INIT;
	struct attachment att[3];
	struct mail m = {
		.from = r->from, .to = &r->to, .cc = &r->cc,
		.subject = r->subject, .body = r->body,
		.message_id = r->message_id, .date = r->date,
		.in_reply_to = r->in_reply_to, .references = r->references,
		.auto_submitted = "auto-generated", .report_id = r->id,
		.att = att,
	};
	enum cfg_attachments what = attachments(r, cfg);
	int rc = -1;

	if (what == CFG_ATTACH_NONE)
		return mail_compose(&m, out, err);
	if ((sb_adds(&job, r->job_yaml) &&
	     pb_fail(err, EX_OSERR, "out of memory")) ||
	    template_render(cfg, "reproduce", r->ctx, &repro, err))
		goto out;
	att[m.natt++] = (struct attachment){ "job.yaml", "text/plain",
					     sb_str(&job), job.len };
	att[m.natt++] = (struct attachment){ "reproduce", "text/plain",
					     sb_str(&repro), repro.len };
	if (r->kconfig && what == CFG_ATTACH_ALL)
		att[m.natt++] = (struct attachment){ "config", "text/plain",
						     r->kconfig,
						     r->kconfig_len };
	rc = mail_compose(&m, out, err);
out:
	sb_release(&job);
	sb_release(&repro);
	return rc;
}

int report_compose(const struct report *r, const struct config *cfg,
		   struct composed *c, struct pb_err *err)
{
	composed_init(c);
	c->kind = "report";
	c->date = r->date;
	if (compose_bytes(r, cfg, &c->msg, err))
		return -1;
	c->id = strdup(r->id);
	c->message_id = strdup(r->message_id);
	c->subject = strdup(r->subject);
	c->metric = r->metric ? strdup(r->metric) : NULL;
	c->change = r->change;
	c->regression = r->regression;
	if (!c->id || !c->message_id || !c->subject ||
	    (r->metric && !c->metric) ||
	    mail_envelope(&r->to, &r->cc, &c->rcpts))
		return pb_fail(err, EX_OSERR, "out of memory");
	c->sender = addr_spec(r->from);
	if (!c->sender || !c->rcpts.n)
		return pb_fail(err, EX_DATAERR, "report '%s': no usable sender "
			       "or recipient address", r->id);
	return 0;
}
