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
 *   sides: [{ base | head, label_x, label_y,
 *             dots: [{ cx, cy, value }], mean: { x1, x2, y, value } }]
 */

#define STRIP_WIDTH 300
#define STRIP_HEIGHT 160

/*
 * The strip of 'row' (its shown samples), added to 'list' (of 'c') as
 * plot 'index'; 'name' is the metric's name as the page shows it.
 */
void ctx_strip(struct ctx *c, json_t *list, const struct cmp_row *row,
	       const char *name, size_t index);

#endif
