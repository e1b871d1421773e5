// SPDX-License-Identifier: GPL-2.0-only
/*
 * web: where a report is in its life (life.h), decided in one function
 * from what the state holds, and given to the templates as flags.
 */
#include <string.h>

#include "perfbot/act/regression.h"
#include "perfbot/web/life.h"

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
		l->state = LIFE_TESTED;
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
	static const char *const names[] = { "tested", "confirmed",
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
