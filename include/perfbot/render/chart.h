/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_CHART_H
#define PERFBOT_CHART_H

/*
 * ASCII charts of per-run samples, drawn the way the 0-day reports show
 * them (gnuplot's dumb terminal): a centred title, y tick labels on the
 * left, a '+---+' frame with '++' tick marks on both borders, base samples
 * '*' joined by '.' dots and head samples 'O'.
 */

#include <stddef.h>

#include "perfbot/judge/bisect.h"
#include "perfbot/util/err.h"
#include "perfbot/util/strbuf.h"

/* Limits on the chart size and on the samples of one series. */
#define CHART_MIN_WIDTH 30
#define CHART_MIN_HEIGHT 8
#define CHART_MAX_WIDTH 200
#define CHART_MAX_HEIGHT 100
#define CHART_MAX_SAMPLES 10000
/* Samples beyond +-CHART_MAX_ABS are refused: the axis would overflow. */
#define CHART_MAX_ABS 1e306

/*
 * Render one chart of 'title' (the metric name) with the base (bisect-good)
 * samples and the head (bisect-bad) samples, appending lines terminated by
 * '\n' to 'out': the title centred over the frame on the first line, then
 * 'height' lines of plot area including the top and bottom frame lines
 * (the report uses 80 x 20). No line is longer than 'width' and none ends
 * in a space. Sample i of either series sits at x position i; NaN and
 * infinite samples are skipped (a skipped base sample breaks the dotted
 * line). Returns 0, or -1 with 'err' set and 'out' unchanged: EX_SOFTWARE
 * for a size outside CHART_MIN_* .. CHART_MAX_* or NULL arrays, EX_DATAERR
 * for no samples, no finite sample, more than CHART_MAX_SAMPLES in a series
 * or a value beyond CHART_MAX_ABS, EX_OSERR when out of memory or over the
 * cap of 'out'.
 */
int chart_render(const char *title, const double *base, size_t nbase,
		 const double *head, size_t nhead, int width, int height,
		 struct strbuf *out, struct pb_err *err);

/*
 * Append the two legend lines "[*] bisect-good sample" and "[O] bisect-bad
 * sample" that close the block of charts, starting in the first column as
 * in the 0-day reports. Returns 0, or -1 when 'out' is full (then 'out' is
 * unchanged).
 */
int chart_legend(struct strbuf *out);

/*
 * The samples of a bisection's chart (issue 33): every run of the
 * commits 'b' judged good (before the culprit: bisect-good samples) into
 * 'good' and of those judged bad (the culprit and after) into 'bad', each
 * in the order they were run (b->log), for chart_render()'s base and head
 * series. The arrays are malloc'ed (NULL when empty); the caller frees
 * them. EX_DATAERR when 'b' named no culprit or a series would pass
 * CHART_MAX_SAMPLES, EX_OSERR; the arrays are then NULL.
 */
int chart_bisect_samples(const struct bisect *b, double **good,
			 size_t *ngood, double **bad, size_t *nbad,
			 struct pb_err *err);

#endif
