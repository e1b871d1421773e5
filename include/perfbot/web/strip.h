/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_WEB_STRIP_H
#define PERFBOT_WEB_STRIP_H

#include <stddef.h>

#include "perfbot/compare/compare.h"
#include "perfbot/render/context.h"

/*
 * The strip plot of one metric (templates/web/strip.html draws it as
 * SVG): every run a dot, the parent's runs left and the commit's right,
 * each side's mean a bar, the range of the values on the axis. Here the
 * geometry is computed and every number formatted; the markup and its
 * words are the template's.
 *
 *   index, metric, width, height, axis_x, top, bottom, max, min,
 *   max_value, min_value,
 *   sides: [{ base | head, label_x, label_y,
 *             dots: [{ cx, cy, value }], mean: { x1, x2, y, value } }]
 *
 * max and min are the ticks' labels (strip_tick_label()), the
 * *_value's the exact values.
 */

#define STRIP_WIDTH 300
#define STRIP_HEIGHT 160

/*
 * The strip of 'row' (its shown samples), added to 'list' (of 'c') as
 * plot 'index'; 'name' is the metric's name as the page shows it.
 */
void ctx_strip(struct ctx *c, json_t *list, const struct cmp_row *row,
	       const char *name, size_t index);

/*
 * A tick's label as a reader takes it in: 'v' to 'digits' (3 to 15)
 * significant digits with an SI prefix, trailing zeros dropped ("19.4M",
 * "1.2k", "449", "350m", "-2.5" and the micro sign); past the prefixes
 * (1e21 and up, below 1e-18) in e-notation to 3 digits. Up to 5
 * digits it is at most 8 characters ("-12.345k"), 10 in e-notation.
 */
void strip_tick_label(double v, int digits, char *buf, size_t len);

#endif
