/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_WEB_CMPVIEW_H
#define PERFBOT_WEB_CMPVIEW_H

#include "perfbot/judge/inputs.h"
#include "perfbot/render/context.h"
#include "perfbot/web/mask.h"

/*
 * A report's comparison as its page shows it: the rows of the mail's
 * table (the failure block, then the performance block; the metrics the
 * noise filter shows), each cell made by the formatters of the table the
 * mail prints (compare/table.h), so that every number is the mail's; the
 * headline marked; each shown metric's tests and its strip plot.
 *
 *   runs { base, head }, has_fail_rows,
 *   fail_rows [{ index, metric, headline, base_fails, reproduction,
 *                head_fails }],
 *   rows [{ index, metric, headline, base_mean, base_stddev, change,
 *           head_mean, head_stddev }],
 *   headline { index, metric, change, regression, improvement, tests }
 *            or null,
 *   evidence [{ index, metric, headline, tests }], strips [strip.h]
 */
void ctx_comparison(struct ctx *c, const char *key,
		    const struct report_inputs *in, const struct web_mask *m);

#endif
