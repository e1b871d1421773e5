// SPDX-License-Identifier: GPL-2.0-only
/*
 * compose: the bot's identity in its mails (From, name, Reported-by,
 * Message-IDs and archive links: identity.archive_url's {report_id} and
 * {message_id}), for reports and answers alike.
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

/* Append 'id', percent-encoding what may not stand in a path segment. */
static int add_escaped(struct strbuf *sb, const char *id)
{
	static const char keep[] = "-._~!$&'()*+,;=:@";
	int rc = 0;

	for (; !rc && *id; id++)
		rc = isalnum((unsigned char)*id) || strchr(keep, *id) ?
			sb_addc(sb, *id) :
			sb_addf(sb, "%%%02X", (unsigned char)*id);
	return rc;
}

/* What a placeholder of an archive URL stands for. */
struct placeholder {
	const char *name;	/* "{message_id}" */
	const char *value;	/* NULL: the placeholder is left as it is */
	int escape;		/* percent-encode the value */
};

/* The placeholder at 'p', or NULL. */
static const struct placeholder *placeholder_at(const char *p,
						const struct placeholder *ph,
						size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ph[i].value && !strncmp(p, ph[i].name, strlen(ph[i].name)))
			return &ph[i];
	return NULL;
}

/* 'tmpl' with each of the 'n' placeholders replaced by its value. */
static char *url_with(const char *tmpl, const struct placeholder *ph,
		      size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	const struct placeholder *at;
	int rc = 0;

	if (!tmpl)
		return NULL;
	while (*tmpl && !rc) {
		at = *tmpl == '{' ? placeholder_at(tmpl, ph, n) : NULL;
		if (!at) {
			rc = sb_addc(&sb, *tmpl++);
			continue;
		}
		rc = at->escape ? add_escaped(&sb, at->value) :
			sb_adds(&sb, at->value);
		tmpl += strlen(at->name);
	}
	if (rc) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb, NULL);
}

/*
 * {report_id} is the name of the report's page in the web archive
 * (id_file_name(): "r/{report_id}.html" there), {message_id} the id as
 * it is.
 */
char *identity_closes_url(const struct config *cfg, const char *report_id,
			  const char *message_id)
{
	char *page = report_id ? id_file_name(report_id) : NULL;
	struct placeholder ph[2] = {
		{ "{message_id}", message_id, 0 },
		{ "{report_id}", page, 0 },
	};
	char *url;

	if (report_id && !page)
		return NULL;
	url = url_with(cfg->identity.archive_url, ph, 2);
	free(page);
	return url;
}

char *identity_patch_link(const struct config *cfg, const char *link,
			  const char *message_id)
{
	if (link)
		return strdup(link);
	struct placeholder ph = { "{message_id}", message_id, 1 };

	return url_with(cfg->identity.patch_archive_url, &ph, 1);
}
