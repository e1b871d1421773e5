/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_WEB_STATUSPAGE_H
#define PERFBOT_WEB_STATUSPAGE_H

#include "perfbot/state/state.h"
#include "perfbot/util/strbuf.h"
#include "perfbot/web/page.h"

/*
 * status.html (templates/web/status.html): what 'perfbot status' shows,
 * read from the state now (state/status.h: each of its parts, so a part
 * it gains is shown too): the outbox's counts, the queued mail with its
 * next attempt and last error, the failures with their reasons, the
 * retests and confirmations in flight, where the last poll stopped. Every
 * address is hidden; the state's path is not shown.
 */
int web_status(const struct web_site *s, struct state *st,
	       struct strbuf *out, struct pb_err *err);

#endif
