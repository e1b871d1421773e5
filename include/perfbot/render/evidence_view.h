/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_EVIDENCE_VIEW_H
#define PERFBOT_EVIDENCE_VIEW_H

#include "perfbot/compare/stats.h"
#include "perfbot/render/context.h"

/*
 * The tests of a change (stats.h) as the templates word them: the
 * values, formatted as the mails print numbers, and the reasons a test
 * could not be made. The sentences themselves are in templates/
 * (evidence.txt, the line under a report's headline; retest-result.txt;
 * confirmation.txt):
 *
 *   base_n, head_n, per_side (the same runs a side), one (one run)
 *   welch         { ok, p ("0.0012", "3e-11"), why }
 *   mann_whitney  { ok, p, exact, why, agrees (p < 0.05), cannot (so
 *                   few runs cannot reach 0.05: Welch alone decides),
 *                   least_p (the least p these runs allow) }
 *   ci            { ok, low, high ("-12.3%"), why, why_own (the reason
 *                   when it is not Welch's, else null) }
 */
void ctx_evidence(struct ctx *c, const char *key, const struct evidence *ev);

/*
 * The tests with their numbers, for the report's context and 'compare
 * --json' (NULL when memory ran out):
 * {"runs": {"base": N, "head": N},
 *  "welch": {"t", "df", "p"} | {"no_test": reason},
 *  "mann_whitney": {"u", "p", "exact"} | {"no_test": reason},
 *  "ci95": {"low", "high"} | {"no_test": reason}}   (ci95 in % of the base)
 */
json_t *evidence_json(const struct evidence *ev);

/*
 * A change as the answers print it ("+10.1%"): "%+.1f" with Ruby's
 * digits, as the report's table and subject round it, so that a number
 * quoted from a report reads as the report printed it.
 */
void ctx_percent(struct ctx *c, const char *key, double v);

#endif
