// SPDX-License-Identifier: GPL-2.0-only
/*
 * act: the noop kind, the tests' (kind.h): a request that asks the farm
 * for nothing (no run, so it has landed as soon as it is asked) and is
 * answered in the thread that asked by templates.dir's noop.txt, which
 * perfbot does not ship. No mail command makes one; it is the proof
 * that a kind is one file and one row of the table (cycle/cycle.c).
 */
#include "perfbot/act/kind.h"
#include "perfbot/render/context.h"

/* Its one answer: the request and the report's commits. */
static int noop_ended(const struct kind_fu *f, const struct config *cfg,
		      struct ctx *c, struct pb_err *err)
{
	(void)cfg;
	(void)err;
	ctx_init(c, "noop");
	ctx_str(c, "request_id", f->row->request_id);
	followup_commits_ctx(c, &f->m);
	return 0;
}

static int noop_verdict(struct kind_fu *f, const struct config *cfg,
			const char **verdict, struct ctx *c, struct pb_err *err)
{
	*verdict = "noop";
	return noop_ended(f, cfg, c, err);
}

static const char *const noop_placeholders[] = { NULL };

const struct kind kind_noop = {
	.name = "noop",
	.placeholders = noop_placeholders,
	.adds_runs = 1,		/* none: landed at once */
	.phase = KIND_AT_FOLLOWUP,
	.tmpl = { .result = "noop", .expired = "noop" },
	.stats_name = "noops", .stats_fields = "dw",
	.verdict = noop_verdict,
	.ended = noop_ended,
};
