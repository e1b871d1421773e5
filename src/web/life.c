// SPDX-License-Identifier: GPL-2.0-only
/*
 * web: where a report is in its life (life.h), decided in one function
 * from what the state holds, and given to the templates as flags; what
 * its record's status rests on, for its page.
 */
#include <stdlib.h>
#include <string.h>

#include "perfbot/act/regression.h"
#include "perfbot/web/life.h"
#include "perfbot/web/page.h"
#include "perfbot/web/reportpage.h"

static int is(const char *s, const char *want)
{
	return s && !strcmp(s, want);
}

void web_life_of(const struct archive_report *r, struct web_life *l)
{
	int st;

	memset(l, 0, sizeof(*l));
	l->verdict = r->verdict;
	l->confirmed = is(r->confirm, "confirmed");
	if (r->retests_open)
		l->state = LIFE_RETESTING;
	else if (r->verdict)
		l->state = LIFE_RETESTED;
	else if (l->confirmed)
		l->state = LIFE_CONFIRMED;
	else if (is(r->confirm, "unconfirmed"))
		l->state = LIFE_UNCONFIRMED;
	else
		l->state = LIFE_MAILED;
	/* the record's word, once it is more than open */
	st = regression_status_of(r->record);
	l->record = st > REG_OPEN ? r->record : NULL;
	l->fix_verdict = l->record ? r->record_verdict : NULL;
	/* a change that a retest did not find again is no longer open */
	l->open = !is(r->verdict, "not reproduced") &&
		  (st < 0 || !regression_closed(st));
}

void ctx_life(struct ctx *parent, const char *key, const struct web_life *l)
{
	static const char *const names[] = { "mailed", "confirmed",
		"unconfirmed", "retesting", "retested" };
	struct ctx c;
	size_t i;

	ctx_init(&c, parent->family);
	ctx_str(&c, "state", names[l->state]);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		ctx_bool(&c, names[i], l->state == (enum web_life_state)i);
	ctx_opt(&c, "verdict", l->verdict);
	ctx_bool(&c, "was_confirmed", l->confirmed);
	ctx_opt(&c, "record", l->record);
	ctx_opt(&c, "fix_verdict", l->fix_verdict);
	ctx_bool(&c, "open", l->open);
	ctx_child(parent, key, &c);
}

/* 'v' through the mask under 'key' (null for NULL). */
static void text(struct ctx *c, const char *key, const char *v,
		 const struct web_mask *m)
{
	char *t = v ? web_text_dup(m, v) : NULL;

	if (v && !t)
		c->oom = 1;
	ctx_opt(c, key, t);
	free(t);
}

static void fix_ctx(struct ctx *parent, const struct record *r,
		    const struct web_mask *m)
{
	struct ctx c;

	ctx_init(&c, parent->family);
	text(&c, "sha", r->fix_commit, m);
	text(&c, "subject", r->fix_summary, m);
	text(&c, "branch", r->fix_branch, m);
	if (r->fix_date)
		ctx_date(&c, "date", r->fix_date);
	else
		ctx_opt(&c, "date", NULL);
	ctx_child(parent, "fix", &c);
}

static void dup_ctx(struct ctx *parent, const struct record *r,
		    const struct record *d, const struct web_mask *m)
{
	char *href = web_report_path(r->dup_of);
	struct ctx c;

	ctx_init(&c, parent->family);
	ctx_str(&c, "id", r->dup_of);
	if (!href)
		c.oom = 1;
	ctx_opt(&c, "href", href);
	text(&c, "subject", d ? d->subject : NULL, m);
	ctx_child(parent, "dup", &c);
	free(href);
}

void ctx_life_record(struct ctx *parent, const char *key,
		     const struct record *r, const struct record *d,
		     const struct web_mask *m)
{
	int st = regression_status_of(r->status);
	struct ctx c;

	ctx_init(&c, parent->family);
	text(&c, "fix_named", st == REG_FIX_NAMED ? r->fix_named : NULL, m);
	if (r->fix_commit && (st == REG_FIX_LANDED || st == REG_FIXED ||
			      st == REG_NOT_FIXED))
		fix_ctx(&c, r, m);
	else
		ctx_opt(&c, "fix", NULL);
	if (r->dup_of && st == REG_DUPLICATE)
		dup_ctx(&c, r, d, m);
	else
		ctx_opt(&c, "dup", NULL);
	text(&c, "reason", st == REG_INVALID ? r->reason : NULL, m);
	ctx_child(parent, key, &c);
}
