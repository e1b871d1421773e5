// SPDX-License-Identifier: GPL-2.0-only
/*
 * render: a sequential design and its decision as template values
 * (seq_view.h), for the retest's acknowledgement and answer.
 */
#include <stdio.h>

#include "perfbot/compare/evidence.h"
#include "perfbot/render/evidence_view.h"
#include "perfbot/render/seq_view.h"
#include "perfbot/util/rbfmt.h"

/* A share as a percentage, 2 significant digits: "1%", "0.5%". */
static void share_ctx(struct ctx *c, const char *key, double v)
{
	char buf[40];

	snprintf(buf, sizeof(buf), "%.2g%%", 100 * v);
	ctx_str(c, key, buf);
}

/* A noise as a percentage, one decimal: "2.0%". */
static void cv_ctx(struct ctx *c, const char *key, double v)
{
	struct strbuf sb = STRBUF_INIT;

	if (rb_format(&sb, "%.1f", 100 * v) || sb_addc(&sb, '%'))
		c->oom = 1;
	else
		ctx_str(c, key, sb_str(&sb));
	sb_release(&sb);
}

static void p_ctx(struct ctx *c, const char *key, double p)
{
	struct strbuf sb = STRBUF_INIT;

	if (evidence_format_p(p, &sb))
		c->oom = 1;
	else
		ctx_str(c, key, sb_str(&sb));
	sb_release(&sb);
}

static void design_ctx(struct ctx *c, const struct seq_design *d)
{
	const struct seq_params *p = &d->par;
	long first = d->nlooks ? d->look[0].n : 0;
	long cap = d->nlooks ? d->look[d->nlooks - 1].n : 0;
	char buf[SEQ_MAX_LOOKS * 12] = "";
	size_t k, at = 0;

	for (k = 0; k < d->nlooks && at < sizeof(buf); k++)
		at += (size_t)snprintf(buf + at, sizeof(buf) - at, "%s%ld",
				       k ? ", " : "", d->look[k].n);
	ctx_int(c, "first", first);
	ctx_int(c, "cap", cap);
	ctx_int(c, "more_max", cap - first);
	ctx_bool(c, "may_add", cap > first);
	ctx_str(c, "looks", buf);
	share_ctx(c, "alpha", p->alpha);
	ctx_bool(c, "carried", p->alpha < SEQ_RETEST_ALPHA * (1 - 1e-9));
	ctx_str(c, "way", p->direction > 0 ? "up" : p->direction < 0 ?
		"down" : "either way");
	ctx_percent(c, "shift", 100 * p->shift * (p->direction < 0 ? -1 : 1));
	cv_ctx(c, "cv", p->cv);
}

static void ci_ctx(struct ctx *parent, const struct seq_design *d,
		   const struct seq_decision *dec)
{
	struct ctx c;

	ctx_init(&c, parent->family);
	ctx_bool(&c, "ok", dec->ci.ok);
	if (dec->ci.ok) {
		ctx_percent(&c, "low", dec->ci.lo);
		ctx_percent(&c, "high", dec->ci.hi);
	}
	share_ctx(&c, "level", 1 - 2 * d->par.alpha);
	ctx_opt(&c, "why", dec->ci.ok ? NULL : dec->ci.why ? dec->ci.why :
		"no test was possible");
	ctx_child(parent, "ci", &c);
}

void ctx_seq(struct ctx *parent, const char *key, const struct seq_design *d,
	     const struct seq_decision *dec)
{
	const struct seq_look *l;
	struct ctx c;
	size_t n;

	ctx_init(&c, parent->family);
	design_ctx(&c, d);
	if (dec && d->nlooks) {
		l = &d->look[dec->look < d->nlooks ? dec->look :
			     d->nlooks - 1];
		n = dec->n[0] < dec->n[1] ? dec->n[0] : dec->n[1];
		ctx_int(&c, "n", (long long)n);
		/* a number is true even when 0: false when none added */
		if ((long)n > d->look[0].n)
			ctx_int(&c, "added", (long long)n - d->look[0].n);
		else
			ctx_bool(&c, "added", 0);
		ctx_bool(&c, "early", !dec->last &&
			 (dec->answer == SEQ_CHANGED ||
			  dec->answer == SEQ_NOT_CHANGED));
		ctx_bool(&c, "last", dec->last);
		ctx_bool(&c, "changed", dec->answer == SEQ_CHANGED);
		ctx_bool(&c, "not_changed", dec->answer == SEQ_NOT_CHANGED);
		/* seq_decide() sets no t for two constant samples */
		ctx_bool(&c, "constant", !dec->why && dec->df == 0 &&
			 dec->answer != SEQ_MORE);
		p_ctx(&c, "p", dec->p);
		p_ctx(&c, "p_upper", l->p_upper);
		p_ctx(&c, "p_lower", l->p_lower);
		cv_ctx(&c, "runs_cv", dec->cv);
		ctx_bool(&c, "noisy", dec->noisy);
		ci_ctx(&c, d, dec);
		ctx_opt(&c, "why", dec->why);
	}
	ctx_child(parent, key, &c);
}
