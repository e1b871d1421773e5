/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_CLI_CMPJSON_H
#define PERFBOT_CLI_CMPJSON_H

#include <jansson.h>

#include "perfbot/compare/compare.h"

/*
 * cli: a comparison as 'perfbot compare --json' prints it (cmpjson.c;
 * the comparison itself is typed, compare/compare.h): every number of
 * it, the rows shown (all rows when 'all', each with the rule that
 * dropped it), their per-run samples, means, standard deviations and
 * changes, and for a shown row its tests (render/evidence_view.h's
 * evidence_json()). NULL when memory ran out.
 */
json_t *comparison_to_json(const struct comparison *c, int all);

#endif
