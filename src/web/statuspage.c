// SPDX-License-Identifier: GPL-2.0-only
/*
 * web: status.html (statuspage.h), the parts of 'perfbot status' as a
 * page (the runs on landed fixes and the confirmations over picked from
 * its every request): each row's values as the page may show them, times
 * as dates, links to the reports that have a page, whether a part has
 * rows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/act/bisect.h"
#include "perfbot/render/evidence_view.h"
#include "perfbot/state/status.h"
#include "perfbot/web/mask.h"
#include "perfbot/web/reportpage.h"
#include "perfbot/web/statuspage.h"

static int is_time(const char *col)
{
	static const char *const names[] = { "next_attempt", "created",
		"deadline", "sent_at", "received", "seen", "changed", "decided",
		"at", "updated", NULL };
	size_t i;

	for (i = 0; names[i]; i++)
		if (!strcmp(col, names[i]))
			return 1;
	return 0;
}

/* One value of a row: a date, a number, a text with its addresses hidden. */
static void value(struct ctx *c, const char *col, const struct status_value *v,
		  const struct web_mask *m)
{
	char buf[32];
	char *s;

	if (v->type == STATUS_INT && is_time(col) && v->i > 0)
		ctx_date(c, col, (time_t)v->i);
	else if (v->type == STATUS_INT)
		ctx_int(c, col, v->i);
	else if (v->type == STATUS_REAL) {	/* a probability: 0.9993 */
		snprintf(buf, sizeof(buf), "%.4f", v->r);
		ctx_str(c, col, buf);
	}
	else if (v->type == STATUS_TEXT && !strcmp(col, "reported_change"))
		ctx_percent(c, col, strtod(v->s, NULL));
	else if (v->type == STATUS_TEXT) {
		s = web_text_dup(m, v->s);
		if (s)
			ctx_str(c, col, s);
		else
			c->oom = 1;
		free(s);
	} else {
		ctx_opt(c, col, NULL);
	}
}

/* A text value of row 'r', or NULL. */
static const char *text_of(const struct status_part *p, size_t r,
			   const char *col)
{
	const struct status_value *v = status_cell(p, r, col);

	return v && v->type == STATUS_TEXT ? v->s : NULL;
}

/*
 * The page of the report a row is about, when it has one: its
 * report_id's, or for a mail of the outbox its id when it is a report.
 */
static void report_href(struct ctx *c, const struct status_part *p, size_t r)
{
	const char *kind = text_of(p, r, "kind");
	const char *id = text_of(p, r, "report_id");
	char *href;

	if (!id && kind && !strcmp(kind, "report"))
		id = text_of(p, r, "id");
	href = id ? web_report_path(id) : NULL;
	ctx_opt(c, "href", href);
	free(href);
}

/*
 * The parts of the page: each a part of the status, or the rows of one
 * kind of its "requests" (every request of every kind, in flight first,
 * then the newest ended): all of them, or those that are over.
 */
static const struct page_part {
	const char *name;	/* the template's list, and has_<name> */
	const char *from;	/* the status part */
	const char *kind;	/* of "requests": this kind only */
	int over;		/* of "requests": only those not in flight */
} page_parts[] = {
	{ "queued", "queued", NULL, 0 },
	{ "failed", "failed", NULL, 0 },
	{ "regressions", "regressions", NULL, 0 },
	{ "retests", "retests", NULL, 0 },
	{ "tests", "tests", NULL, 0 },
	{ "confirmations", "confirmations", NULL, 0 },
	{ "confirmations_over", "requests", "confirm", 1 },
	{ "verifies", "requests", "verify", 0 },
	{ "bisections", "bisections", NULL, 0 },
	{ "mailbox", "mailbox", NULL, 0 },
};

static int in_flight(const char *status)
{
	return status && (!strcmp(status, "asking") ||
			  !strcmp(status, "queued"));
}

static int keep(const struct page_part *pp, const struct status_part *p,
		size_t r)
{
	const char *kind = text_of(p, r, "kind");

	if (!pp->kind)
		return 1;
	return kind && !strcmp(kind, pp->kind) &&
		(!pp->over || !in_flight(text_of(p, r, "status")));
}

/* A part's rows, and has_<name> (a part without rows says so). */
static void part(struct ctx *parent, const struct page_part *pp,
		 const struct status_part *p, const struct web_mask *m)
{
	json_t *list = ctx_list(parent, pp->name);
	char has[64];
	struct ctx c;
	size_t r, i, n = 0;

	for (r = 0; p && r < p->nrows; r++) {
		if (!keep(pp, p, r))
			continue;
		ctx_init(&c, parent->family);
		for (i = 0; i < p->ncols; i++)
			value(&c, p->cols[i], &p->cells[r * p->ncols + i], m);
		report_href(&c, p, r);
		ctx_append(parent, list, &c);
		n++;
	}
	snprintf(has, sizeof(has), "has_%s", pp->name);
	ctx_bool(parent, has, n > 0);
}

static void outbox(struct ctx *parent, const struct status_counts *ob)
{
	struct ctx c;

	ctx_init(&c, parent->family);
	ctx_int(&c, "queued", ob->queued);
	ctx_int(&c, "sent", ob->sent);
	ctx_int(&c, "failed", ob->failed);
	ctx_int(&c, "sent_last_hour", ob->sent_last_hour);
	ctx_child(parent, "outbox", &c);
}

int web_status(const struct web_site *s, struct state *st,
	       struct strbuf *out, struct pb_err *err)
{
	json_t *ctx = NULL;
	struct status so;
	struct web_mask m;
	struct ctx c;
	size_t i;
	int rc = -1;

	if (state_status(st, s->now, &so, err))
		return -1;
	if (bisect_status_add(st, &so, err)) {
		status_release(&so);
		return -1;
	}
	web_mask_init(&m, s->hidden);	/* no address is shown */
	ctx_init(&c, "web status");
	ctx_page(&c, s, "");
	ctx_date(&c, "now", s->now);
	outbox(&c, &so.outbox);
	for (i = 0; i < sizeof(page_parts) / sizeof(page_parts[0]); i++)
		part(&c, &page_parts[i], status_part(&so, page_parts[i].from),
		     &m);
	if (!ctx_finish(&c, &ctx, err))
		rc = web_render(s, "status.html", ctx, out, err);
	json_decref(ctx);
	status_release(&so);
	web_mask_release(&m);
	return rc;
}
