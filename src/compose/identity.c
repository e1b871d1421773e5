// SPDX-License-Identifier: GPL-2.0-only
/*
 * compose: the bot's identity in its mails (From, name, Reported-by,
 * Message-IDs and archive links), for reports and answers alike.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/util/addr.h"
#include "perfbot/util/id.h"
#include "perfbot/compose/identity.h"
#include "perfbot/util/strbuf.h"

char *identity_sender(const struct config *cfg)
{
	return addr_spec(cfg->identity.from);
}

char *identity_message_id(const struct config *cfg, const char *id,
			  time_t when, int draw)
{
	return id_message_id_draw(id, when, cfg->identity.message_id_domain,
				  draw);
}

/*
 * 'tmpl' with "{message_id}" replaced by 'id'; 'escape' percent-encodes
 * what may not stand in a URL path segment ('/', '?', '#', '%', ...).
 */
static char *url_with_id(const char *tmpl, const char *id, int escape)
{
	static const char keep[] = "-._~!$&'()*+,;=:@";
	struct strbuf sb = STRBUF_INIT;
	const char *p = tmpl ? strstr(tmpl, "{message_id}") : NULL;
	int rc;

	if (!tmpl)
		return NULL;
	if (!p)
		return strdup(tmpl);
	rc = sb_add(&sb, tmpl, (size_t)(p - tmpl));
	for (; !rc && *id; id++) {
		int plain = !escape || isalnum((unsigned char)*id) ||
			    strchr(keep, *id);

		rc = plain ? sb_addc(&sb, *id) :
			sb_addf(&sb, "%%%02X", (unsigned char)*id);
	}
	if (rc || sb_adds(&sb, p + strlen("{message_id}"))) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb, NULL);
}

char *identity_closes_url(const struct config *cfg, const char *message_id)
{
	return url_with_id(cfg->identity.archive_url,
			   message_id, 0);
}

char *identity_patch_link(const struct config *cfg, const char *link,
			  const char *message_id)
{
	if (link)
		return strdup(link);
	return url_with_id(cfg->identity.patch_archive_url,
			   message_id, 1);
}
