// SPDX-License-Identifier: GPL-2.0-only
/*
 * judge: the evidence of one comparison row (evidence.h): the tests of
 * stats.c on its per-run samples, as JSON for 'compare --json' and the
 * template context, and as the plain "evidence:" line of a report;
 * confirm.c prints its p values the same way.
 */
#include <math.h>

#include "perfbot/compare/evidence.h"

int evidence_of_row(const struct cmp_row *row, struct evidence *ev)
{
	return stats_evidence(row->v[BASE], row->n[BASE], row->v[HEAD],
			      row->n[HEAD], ev);
}

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

int evidence_format_p(double p, struct strbuf *out)
{
	return sb_addf(out, p < 1e-4 ? "%.2g" : "%.4f", p);
}

