/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_WEB_MAILVIEW_H
#define PERFBOT_WEB_MAILVIEW_H

#include <stddef.h>

#include "perfbot/render/context.h"
#include "perfbot/util/err.h"
#include "perfbot/web/mask.h"

/*
 * A mail the bot sent, as its page shows it: the headers a reader looks
 * at (Date, From, To, Cc, Subject, Message-ID, In-Reply-To), decoded,
 * and its text part (the report or answer itself, not the attachments),
 * every text through web_text() (the addresses masked; the ids are only
 * scrubbed).
 */

#define MAIL_VIEW_HEADERS 8

struct mail_view_header {
	const char *name;	/* "To" */
	char *value;
};

struct mail_view {
	struct mail_view_header hdr[MAIL_VIEW_HEADERS];
	size_t nhdr;
	char *text;		/* the text part, "" when it has none */
};

/*
 * Read 'msg' ('len' bytes, as the outbox keeps it) into 'v': 0, or -1
 * (EX_DATAERR: not a mail; EX_OSERR) with 'v' released.
 */
int mail_view_parse(struct mail_view *v, const char *msg, size_t len,
		    const struct web_mask *m, struct pb_err *err);
/* Safe on a zeroed view, and twice. */
void mail_view_release(struct mail_view *v);

/* {"headers": [{"name", "value"}], "text"} under 'key'. */
void ctx_mail_view(struct ctx *c, const char *key, const struct mail_view *v);

#endif
