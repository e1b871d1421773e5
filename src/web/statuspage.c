// SPDX-License-Identifier: GPL-2.0-only
/*
 * web: status.html (statuspage.h), the parts of 'perfbot status' as a
 * page: each row's values as the page may show them, times as dates,
 * links to the reports that have a page, whether a part has rows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/render/evidence_view.h"
#include "perfbot/state/status.h"
#include "perfbot/web/mask.h"
#include "perfbot/web/reportpage.h"
#include "perfbot/web/statuspage.h"
#include "perfbot/act/bisect.h"

static int is_time(const char *col)
{
	static const char *const names[] = { "next_attempt", "created",
		"deadline", "sent_at", "received", "seen", "changed", "decided",
		"at", NULL };
	size_t i;

	for (i = 0; names[i]; i++)
		if (!strcmp(col, names[i]))
			return 1;
	return 0;
}

/* One value of a row: a date, a number, a text with its addresses hidden. */
static void value(struct ctx *c, const char *col, json_t *v,
		  const struct web_mask *m)
{
	char *s;

	if (json_is_integer(v) && is_time(col) && json_integer_value(v) > 0)
		ctx_date(c, col, (time_t)json_integer_value(v));
	else if (json_is_integer(v))
		ctx_int(c, col, (long long)json_integer_value(v));
	else if (json_is_string(v) && !strcmp(col, "reported_change"))
		ctx_percent(c, col, strtod(json_string_value(v), NULL));
	else if (json_is_string(v)) {
		s = web_text_dup(m, json_string_value(v));
		if (s)
			ctx_str(c, col, s);
		else
			c->oom = 1;
		free(s);
	} else {
		ctx_opt(c, col, NULL);
	}
}

/*
 * The page of the report a row is about, when it has one: its
 * report_id's, or for a mail of the outbox its id when it is a report.
 */
static void report_href(struct ctx *c, json_t *row)
{
	const char *kind = json_string_value(json_object_get(row, "kind"));
	const char *id = json_string_value(json_object_get(row, "report_id"));
	char *href;

	if (!id && kind && !strcmp(kind, "report"))
		id = json_string_value(json_object_get(row, "id"));
	href = id ? web_report_path(id) : NULL;
	ctx_opt(c, "href", href);
	free(href);
}

/* Part 'name''s rows, and has_<name> (a part without rows says so). */
static void part(struct ctx *parent, const char *name, json_t *rows,
		 const struct web_mask *m)
{
	json_t *list = ctx_list(parent, name), *row, *v;
	char has[64];
	const char *col;
	struct ctx c;
	size_t i;

	json_array_foreach(rows, i, row) {
		ctx_init(&c, parent->family);
		json_object_foreach(row, col, v)
			value(&c, col, v, m);
		report_href(&c, row);
		ctx_append(parent, list, &c);
	}
	snprintf(has, sizeof(has), "has_%s", name);
	ctx_bool(parent, has, json_array_size(rows) > 0);
}

static void outbox(struct ctx *parent, json_t *ob)
{
	static const char *const keys[] = { "queued", "sent", "failed",
		"sent_last_hour", NULL };
	struct ctx c;
	size_t i;

	ctx_init(&c, parent->family);
	for (i = 0; keys[i]; i++)
		ctx_int(&c, keys[i], (long long)json_integer_value(
				json_object_get(ob, keys[i])));
	ctx_child(parent, "outbox", &c);
}

/* The bisections (issue 33), a part shown only when there are some. */
static int bisections(struct ctx *c, struct state *st,
		      const struct web_mask *m, struct pb_err *err)
{
	json_t *rows = NULL;

	if (bisect_status_rows(st, &rows, err))
		return -1;
	part(c, "bisections", rows, m);
	json_decref(rows);
	return 0;
}

int web_status(const struct web_site *s, struct state *st,
	       struct strbuf *out, struct pb_err *err)
{
	static const char *const parts[] = { "queued", "failed",
		"regressions", "retests", "tests", "confirmations", "mailbox",
		NULL };
	json_t *o = NULL, *ctx = NULL, *rows;
	struct web_mask m;
	struct ctx c;
	size_t i;
	int rc = -1;

	if (state_status(st, s->now, &o, err))
		return -1;
	web_mask_init(&m, s->hidden);	/* no address is shown */
	ctx_init(&c, "web status");
	ctx_page(&c, s, "");
	ctx_date(&c, "now", s->now);
	outbox(&c, json_object_get(o, "outbox"));
	for (i = 0; parts[i]; i++) {
		rows = json_object_get(o, parts[i]);
		part(&c, parts[i], json_is_array(rows) ? rows : NULL, &m);
	}
	if (bisections(&c, st, &m, err))
		goto out;
	if (!ctx_finish(&c, &ctx, err))
		rc = web_render(s, "status.html", ctx, out, err);
out:
	if (rc && !ctx)
		ctx_release(&c);
	json_decref(ctx);
	json_decref(o);
	web_mask_release(&m);
	return rc;
}
