/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_WEB_FEED_H
#define PERFBOT_WEB_FEED_H

#include "perfbot/web/lists.h"

/*
 * feed.atom (templates/web/feed.atom, Atom 1.0): the newest
 * web.feed_entries reports of the 'n' entries (newest first). Each
 * entry's id is its mail's Message-ID as a mid: URI (RFC 2392), which
 * never changes; its link is web.base_url and its page, or the page
 * alone (relative to the feed) without a base URL; the feed's id is
 * web.base_url's feed.atom, else a tag: URI of the Message-IDs' domain
 * and the first report's day. Every address is hidden.
 */
int web_feed(const struct web_site *s, const struct web_entry *e, size_t n,
	     struct strbuf *out, struct pb_err *err);

#endif
