/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_REPORTMAIL_H
#define PERFBOT_REPORTMAIL_H

#include "perfbot/config/config.h"
#include "perfbot/compose/mail.h"
#include "perfbot/render/report.h"
#include "perfbot/util/strbuf.h"

/*
 * A report as the mail that is sent (compose): the body inline, then
 * job.yaml, the 'reproduce' script (templates/reproduce.txt) and the
 * kernel config when the manifest names one, as attachments;
 * "auto-generated", the report id header. 'c' (composed_init() not
 * needed; composed_release() it after, whatever the outcome) gets the
 * bytes, the envelope and the ids, ready for outbox_queue() or an mbox.
 */
int report_compose(const struct report *r, const struct config *cfg,
		   struct composed *c, struct pb_err *err);

#endif
