/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_WEB_MASK_H
#define PERFBOT_WEB_MASK_H

#include <stddef.h>

#include "perfbot/util/addr.h"
#include "perfbot/util/strbuf.h"

/*
 * What of a text from outside (a mail, a manifest, a result root) the web
 * archive may show. Every text goes through web_text() before it reaches
 * a page's context: its control characters (but newlines and tabs) are
 * replaced, invalid UTF-8 repaired, and every mail address hidden but
 * the allowed ones (a report's own recipients, when web.show_addresses
 * is on). An address is an addr-spec (local@domain, as broadly as mail
 * allows), or one of the 'known' strings (every address of the thread,
 * whatever its form); one inside an http(s) URL is left alone (archive
 * links hold Message-IDs, which look like addresses), and so is one
 * that is a Message-ID of the 'ids' (the reports': 'dup: <ID>' names
 * one). HTML escaping is the templates' (the engine's HTML mode); this
 * is what comes before it.
 */

struct web_mask {
	struct addrlist allowed;	/* bare addresses shown as they are */
	struct addrlist known;		/* strings hidden wherever they are */
	const char *hidden;		/* what a hidden address becomes */
	const char *const *ids;		/* Message-IDs shown (borrowed) */
	size_t nids;
};

void web_mask_init(struct web_mask *m, const char *hidden);
void web_mask_release(struct web_mask *m);

/*
 * Add the bare address of every mailbox of 'mailboxes' ("Name <a>, b@x",
 * or a JSON list of such strings) to 'allowed' or to 'known'; 0, or -1
 * when out of memory.
 */
int web_mask_allow(struct web_mask *m, const char *mailboxes);
int web_mask_know(struct web_mask *m, const char *mailboxes);

/*
 * The Message-IDs (bare, sorted by web_ids_sort()) shown wherever they
 * are; borrowed: they must outlive 'm'.
 */
void web_mask_ids(struct web_mask *m, const char *const *ids, size_t n);

/* Sort 'ids' as web_mask_ids() wants them (case aside, as addresses). */
void web_ids_sort(const char **ids, size_t n);

/* Append s[0..n) as the archive may show it; -1 when 'out' is full. */
int web_text(const struct web_mask *m, const char *s, size_t n,
	     struct strbuf *out);

/* web_text() of the C string 's' ("" for NULL), newly allocated. */
char *web_text_dup(const struct web_mask *m, const char *s);

/*
 * 's' with its controls replaced but nothing hidden, newly allocated:
 * for Message-IDs, which look like addresses.
 */
char *web_plain_dup(const char *s);

/*
 * 'url' when a link may point there: an absolute http:// or https://
 * URL with a host, without blanks, controls, quotes or angle brackets;
 * else NULL (the link is dropped: never javascript: or data:).
 */
const char *web_url(const char *url);

#endif
