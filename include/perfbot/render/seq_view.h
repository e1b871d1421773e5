/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_SEQ_VIEW_H
#define PERFBOT_SEQ_VIEW_H

#include "perfbot/compare/sequential.h"
#include "perfbot/render/context.h"

/*
 * A sequential design and its decision (sequential.h) as the answers
 * word them (templates/retest-ack.txt, retest-result.txt,
 * seq-decided.txt): under 'key'
 *
 *   first, cap     the runs a side asked for and the most the design may
 *                  reach; looks ("4, 6, 10"), more_max (cap - first),
 *                  may_add (cap > first)
 *   alpha          "1%"; carried (below SEQ_RETEST_ALPHA: earlier
 *                  retests of the report spent the rest)
 *   way            "up", "down" or "either way"; shift ("+3.8%", the
 *                  shift designed for, signed the way tested); cv
 *                  ("2.0%", the noise assumed)
 * and, with a decision ('dec' not NULL):
 *   n              runs a side it was decided on (the fewer side's);
 *                  added (n - first); early (it stopped before the
 *                  design's last look); last; changed, not_changed
 *                  (the efficacy or the futility bound crossed)
 *   p              Welch's one-sided p the way tested; p_upper the
 *                  look's efficacy bound ("stable" at or below it),
 *                  p_lower its futility bound ("not reproduced" above)
 *   runs_cv, noisy the runs' pooled CV; above the noise gate
 *   ci             { ok, low, high, level ("98%"), why }: the repeated
 *                  confidence interval of the change
 *   constant       both sides' runs all alike (no t)
 *   why            when no test was possible
 */
void ctx_seq(struct ctx *parent, const char *key, const struct seq_design *d,
	     const struct seq_decision *dec);

#endif
