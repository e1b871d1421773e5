/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_WEB_PAGE_H
#define PERFBOT_WEB_PAGE_H

#include <time.h>

#include <jansson.h>

#include "perfbot/config/config.h"
#include "perfbot/render/context.h"
#include "perfbot/state/archive.h"
#include "perfbot/util/err.h"
#include "perfbot/util/strbuf.h"

/*
 * The pages of the web archive are the files of templates/web/, Mustache
 * rendered in HTML mode (every {{value}} escaped; partials beside them,
 * named NAME.html), from contexts built with render/context.h. What
 * every page shares is here: where the templates are, the word a hidden address
 * becomes, the key that changes when anything every page depends on
 * changes (the templates, the settings, the metric and testcase tables,
 * perfbot's version), and the common parts of a context.
 */

struct web_site {
	const struct config *cfg;
	char *dir;		/* <templates.dir>/web */
	char *hidden;		/* templates/web/hidden.txt, rendered */
	char *domain;		/* of the ids: identity.message_id_domain,
				 * else the From's domain */
	unsigned long long key;
	time_t now;
	const char **ids;	/* the reports' Message-IDs (borrowed from
				 * the rows of web_site_ids()), sorted */
	size_t nids;
};

int web_site_init(struct web_site *s, const struct config *cfg, time_t now,
		  struct pb_err *err);
/*
 * The Message-IDs of the reports 'rows' (borrowed: they must outlive
 * 's'), which the pages show though they look like addresses
 * (mask.h). 0, or -1 when out of memory.
 */
int web_site_ids(struct web_site *s, const struct archive_report *rows,
		 size_t n, struct pb_err *err);

/* Safe on a zeroed site, after a failed init, and twice. */
void web_site_release(struct web_site *s);

/*
 * Render templates/web/<name> ("report.html", "feed.atom") with 'ctx'
 * (borrowed), appending to 'out'. A missing value renders as nothing; a
 * missing partial is an error.
 */
int web_render(const struct web_site *s, const char *name, json_t *ctx,
	       struct strbuf *out, struct pb_err *err);

/* A file of templates/web/ as it is (style.css). */
int web_asset(const struct web_site *s, const char *name, struct strbuf *out,
	      struct pb_err *err);

/*
 * What every page's context has: 'root' (the way back to the site's top
 * from the page: "" or "../"), bot_name, version.
 */
void ctx_page(struct ctx *c, const struct web_site *s, const char *root);

/*
 * For 'perfbot check': every template of templates/web/ parses, and the
 * partials it reaches with an empty context are there. '*dir' (newly
 * allocated) is where they are, '*count' how many were checked; -1 with
 * the first problem.
 */
int web_check_templates(const struct config *cfg, char **dir, int *count,
			struct pb_err *err);

/* {"text": "2025-02-14 15:48 UTC", "iso": "2025-02-14T15:48:00Z"} */
void ctx_date(struct ctx *c, const char *key, time_t t);

#endif
