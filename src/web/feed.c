// SPDX-License-Identifier: GPL-2.0-only
/*
 * web: feed.atom (feed.h), the newest reports as an Atom 1.0 feed whose
 * ids never change (the mails' Message-IDs).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/web/feed.h"
#include "perfbot/web/life.h"
#include "perfbot/web/mask.h"

/* web.base_url and 'path', or 'path' alone without a base. */
static char *absolute(const struct web_site *s, const char *path)
{
	const char *base = web_url(s->cfg->web.base_url);
	struct strbuf sb = STRBUF_INIT;
	int rc;

	if (!base)
		return strdup(path);
	rc = sb_adds(&sb, base) ||
	     (sb.len && sb.buf[sb.len - 1] != '/' && sb_addc(&sb, '/')) ||
	     sb_adds(&sb, path);
	if (rc) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb, NULL);
}

/* "mid:" and the Message-ID, percent-encoded where a URI needs it. */
static char *mid_uri(const char *id)
{
	static const char keep[] = "-._~!$&'()*+,;=:@";
	struct strbuf sb = STRBUF_INIT;
	int rc = sb_adds(&sb, "mid:");

	for (; !rc && *id; id++)
		rc = isalnum((unsigned char)*id) || strchr(keep, *id) ?
			sb_addc(&sb, *id) :
			sb_addf(&sb, "%%%02X", (unsigned char)*id);
	if (rc) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb, NULL);
}

static time_t when(const struct archive_report *r)
{
	return r->sent_at ? r->sent_at : r->created;
}

static void entry(struct ctx *parent, json_t *list, const struct web_site *s,
		  const struct web_entry *e, const struct web_mask *m)
{
	char *id = mid_uri(e->row->message_id), *href = absolute(s, e->path);
	char *title = web_text_dup(m, e->row->subject ? e->row->subject : "");
	const struct web_summary *sum = e->sum;
	int head = sum && sum->metric;
	struct web_life life;
	struct ctx c;

	ctx_init(&c, parent->family);
	ctx_str(&c, "id", id);
	ctx_str(&c, "href", href);
	ctx_str(&c, "title", title);
	ctx_date(&c, "updated", when(e->row));
	ctx_opt(&c, "testcase", sum ? sum->testcase : NULL);
	ctx_opt(&c, "metric", head ? sum->metric : NULL);
	ctx_opt(&c, "change", head ? sum->change : NULL);
	ctx_bool(&c, "regression", head && sum->regression);
	ctx_bool(&c, "improvement", head && !sum->regression);
	web_life_of(e->row, &life);
	ctx_life(&c, "life", &life);
	ctx_append(parent, list, &c);
	free(id);
	free(href);
	free(title);
}

/* The feed's own id: where it is served, else a tag: URI. */
static char *feed_id(const struct web_site *s, const struct web_entry *e,
		     size_t n)
{
	time_t first = n ? when(e[n - 1].row) : s->now;
	char day[16], *id;
	struct tm tm;
	size_t len;

	if (web_url(s->cfg->web.base_url))
		return absolute(s, "feed.atom");
	gmtime_r(&first, &tm);
	strftime(day, sizeof(day), "%Y-%m-%d", &tm);
	len = strlen(s->domain) + 32;
	id = malloc(len);
	if (id)
		snprintf(id, len, "tag:%s,%s:perfbot", s->domain, day);
	return id;
}

int web_feed(const struct web_site *s, const struct web_entry *e, size_t n,
	     struct strbuf *out, struct pb_err *err)
{
	size_t i, max = (size_t)s->cfg->web.feed_entries;
	char *id = feed_id(s, e, n), *self = absolute(s, "feed.atom");
	char *home = absolute(s, "index.html");
	struct web_mask m;
	json_t *list, *ctx = NULL;
	struct ctx c;
	int rc = -1;

	web_mask_init(&m, s->hidden);
	ctx_init(&c, "web feed");
	ctx_page(&c, s, "");
	ctx_str(&c, "id", id);
	ctx_str(&c, "self", self);
	ctx_str(&c, "home", home);
	ctx_bool(&c, "absolute", web_url(s->cfg->web.base_url) != NULL);
	ctx_date(&c, "updated", n ? when(e[0].row) : s->now);
	list = ctx_list(&c, "entries");
	for (i = 0; i < n && i < max; i++)
		entry(&c, list, s, &e[i], &m);
	if (!ctx_finish(&c, &ctx, err))
		rc = web_render(s, "feed.atom", ctx, out, err);
	json_decref(ctx);
	web_mask_release(&m);
	free(id);
	free(self);
	free(home);
	return rc;
}
