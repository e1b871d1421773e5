/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_CLI_SHOWBISECT_H
#define PERFBOT_CLI_SHOWBISECT_H

#include <stddef.h>

#include <jansson.h>

#include "perfbot/state/bisections.h"

/*
 * cli: a report's bisections as 'perfbot show' says them (showbisect.c,
 * issue 33): each as bisect_view() has it with its id and times, the
 * 'top' likeliest candidates; as JSON (a new array, NULL when out of
 * memory) or as lines on stdout (nothing when there is none).
 */
#define SHOW_TOP_TEXT 5
#define SHOW_TOP_JSON 10

json_t *show_bisections_json(const struct bisection_row *bs, size_t n,
			     size_t top);
void show_bisections_print(const struct bisection_row *bs, size_t n);

#endif
