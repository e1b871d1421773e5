/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_WEB_STATUSPAGE_H
#define PERFBOT_WEB_STATUSPAGE_H

#include "perfbot/state/state.h"
#include "perfbot/util/strbuf.h"
#include "perfbot/web/page.h"

/*
 * status.html (templates/web/status.html): what 'perfbot status' shows,
 * read from the state now (state/status.h): the outbox's counts, the
 * queued mail with its next attempt and last error, the failures with
 * their reasons, the regressions still followed with their fixes, the
 * retests, tests and confirmations (those state_status() lists), where
 * the last poll stopped; each part with has_<part>, so that one without
 * rows says so. Every address is hidden; the state's path is not shown.
 */
int web_status(const struct web_site *s, struct state *st,
	       struct strbuf *out, struct pb_err *err);

#endif
