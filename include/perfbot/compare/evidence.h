/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_EVIDENCE_H
#define PERFBOT_EVIDENCE_H

#include "perfbot/compare/compare.h"
#include "perfbot/compare/stats.h"
#include "perfbot/util/strbuf.h"

/*
 * How strong the evidence for a metric's change is, as the reader sees
 * it: the tests of stats.h on a comparison row (as JSON for 'compare
 * --json' and the template context: render/evidence_view.h's
 * evidence_json()); the words of the line under a
 * report's headline are templates/evidence.txt's (render/evidence_view.h).
 * A test that cannot be made gives its reason, never a number.
 */

/* The evidence of 'row' (its per-run samples); -1 when memory ran out. */
int evidence_of_row(const struct cmp_row *row, struct evidence *ev);

/* p as reports print it: 4 decimals, 2 significant digits below 1e-4. */
int evidence_format_p(double p, struct strbuf *out);

#endif
