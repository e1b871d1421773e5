// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare: the evidence of one comparison row (evidence.h): the tests of
 * stats.c on its per-run samples (their JSON is render/evidence_view.c's),
 * and p as the reports print it; confirm.c prints its p values the same
 * way.
 */
#include <math.h>

#include "perfbot/compare/evidence.h"

int evidence_of_row(const struct cmp_row *row, struct evidence *ev)
{
	return stats_evidence(row->v[BASE], row->n[BASE], row->v[HEAD],
			      row->n[HEAD], ev);
}

int evidence_format_p(double p, struct strbuf *out)
{
	return sb_addf(out, p < 1e-4 ? "%.2g" : "%.4f", p);
}

