// SPDX-License-Identifier: GPL-2.0-only
/*
 * render: the tests of a change as template values (evidence_view.h),
 * for the sentences of templates/evidence.txt, retest-result.txt,
 * decided.txt and confirmation.txt.
 */
#include <stdio.h>

#include "perfbot/compare/evidence.h"
#include "perfbot/render/evidence_view.h"
#include "perfbot/util/rbfmt.h"

/* A p value as reports print it (evidence_format_p). */
static void p_value(struct ctx *c, const char *key, int ok, double p)
{
	struct strbuf sb = STRBUF_INIT;

	if (!ok)
		ctx_opt(c, key, NULL);
	else if (evidence_format_p(p, &sb))
		c->oom = 1;
	else
		ctx_str(c, key, sb_str(&sb));
	sb_release(&sb);
}

/* As the table and the subject print it: Ruby's digits (rbfmt.h). */
void ctx_percent(struct ctx *c, const char *key, double v)
{
	struct strbuf sb = STRBUF_INIT;

	if (rb_format(&sb, "%+.1f", v) || sb_addc(&sb, '%'))
		c->oom = 1;
	else
		ctx_str(c, key, sb_str(&sb));
	sb_release(&sb);
}

static void welch_ctx(struct ctx *parent, const struct welch *w)
{
	struct ctx c;

	ctx_init(&c, parent->family);
	ctx_bool(&c, "ok", w->ok);
	p_value(&c, "p", w->ok, w->p);
	ctx_opt(&c, "why", w->ok ? NULL : w->why);
	ctx_child(parent, "welch", &c);
}

/*
 * 'agrees': it decided the way the verdicts need (p < 0.05); 'cannot':
 * so few runs cannot reach 0.05 (3 a side: its least p is 0.1), so
 * Welch's test alone decided (stats_verdict()), and no sentence may say
 * that it agreed.
 */
static void mw_ctx(struct ctx *parent, const struct mann_whitney *m,
		   const size_t n[2])
{
	double least = stats_mw_min_p(n[0], n[1]);
	struct ctx c;

	ctx_init(&c, parent->family);
	ctx_bool(&c, "ok", m->ok);
	p_value(&c, "p", m->ok, m->p);
	ctx_bool(&c, "agrees", m->ok && m->p < 0.05);
	ctx_bool(&c, "cannot", least >= 0.05);
	p_value(&c, "least_p", 1, least);
	ctx_bool(&c, "exact", m->ok && m->exact);
	ctx_opt(&c, "why", m->ok ? NULL : m->why);
	ctx_child(parent, "mann_whitney", &c);
}

static void ci_ctx(struct ctx *parent, const struct evidence *ev)
{
	const struct change_ci *ci = &ev->ci;
	struct ctx c;

	ctx_init(&c, parent->family);
	ctx_bool(&c, "ok", ci->ok);
	if (ci->ok) {
		ctx_percent(&c, "low", ci->lo);
		ctx_percent(&c, "high", ci->hi);
	}
	ctx_opt(&c, "why", ci->ok ? NULL : ci->why);
	ctx_opt(&c, "why_own", ci->ok || ci->why == ev->w.why ? NULL :
		ci->why);
	ctx_child(parent, "ci", &c);
}

void ctx_evidence(struct ctx *parent, const char *key,
		  const struct evidence *ev)
{
	struct ctx c;

	ctx_init(&c, parent->family);
	ctx_int(&c, "base_n", (long long)ev->n[0]);
	ctx_int(&c, "head_n", (long long)ev->n[1]);
	ctx_bool(&c, "per_side", ev->n[0] == ev->n[1]);
	ctx_bool(&c, "one", ev->n[0] == 1);
	welch_ctx(&c, &ev->w);
	mw_ctx(&c, &ev->mw, ev->n);
	ci_ctx(&c, ev);
	ctx_child(parent, key, &c);
}

/* ---- the tests with their numbers ---- */

static json_t *no_test(const char *why)
{
	return json_pack("{s:s}", "no_test", why ? why : "no test possible");
}

json_t *evidence_json(const struct evidence *ev)
{
	const struct welch *w = &ev->w;
	const struct mann_whitney *m = &ev->mw;
	const struct change_ci *ci = &ev->ci;

	return json_pack("{s:{s:I, s:I}, s:o, s:o, s:o}", "runs",
			 "base", (json_int_t)ev->n[0], "head",
			 (json_int_t)ev->n[1],
			 "welch", w->ok ? json_pack("{s:f, s:f, s:f}", "t", w->t,
						    "df", w->df, "p", w->p) :
				no_test(w->why),
			 "mann_whitney", m->ok ? json_pack("{s:f, s:f, s:b}",
					"u", m->u, "p", m->p, "exact",
					m->exact) : no_test(m->why),
			 "ci95", ci->ok ? json_pack("{s:f, s:f}", "low",
					ci->lo, "high", ci->hi) :
				no_test(ci->why));
}
