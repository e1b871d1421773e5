// SPDX-License-Identifier: GPL-2.0-only
/*
 * compose: a template context's values made fit for a mail (values.h):
 * one line each, no control character, but for perfbot's own blocks.
 */
#include <stdlib.h>
#include <string.h>

#include "perfbot/compose/values.h"
#include "perfbot/util/text.h"

/* Beyond this the context is not one perfbot built: refused. */
#define VALUES_DEPTH 32

/*
 * The blocks of lines perfbot lays out itself: comparison tables
 * (compare/table.c), charts and their legend (render/chart.c), the
 * evidence lines (render/report.c), the box of a report's other tests
 * (render/also.c, each of its values made one line) and an answer's rendered pieces
 * (templates/answer.txt). Their values from outside (metric names) were
 * checked when they were read.
 */
static const char *const blocks[] = {
	"table", "chart", "chart_legend", "evidence_text", "pieces",
	"also_box",
};

#define LINE_RULE (TEXT_UNICODE | TEXT_CTRL_SPACE)
#define BLOCK_RULE (LINE_RULE | TEXT_KEEP_LF)

int values_block(const char *key)
{
	size_t i;

	for (i = 0; key && i < sizeof(blocks) / sizeof(blocks[0]); i++)
		if (!strcmp(key, blocks[i]))
			return 1;
	return 0;
}

static int scrub_string(json_t *v, unsigned rule, struct pb_err *err)
{
	const char *s = json_string_value(v);
	size_t n = json_string_length(v), k;
	char *buf;
	int rc;

	if (text_scrub_at(s, n, rule) == n)
		return 0;
	buf = malloc(n + 1);
	if (!buf)
		return pb_fail(err, EX_OSERR, "mail values: out of memory");
	k = text_scrub_to(buf, n + 1, s, n, rule);
	rc = json_string_setn(v, buf, k);
	free(buf);
	return rc ? pb_fail(err, EX_OSERR, "mail values: out of memory") : 0;
}

static int scrub(json_t *v, unsigned rule, int depth, struct pb_err *err)
{
	const char *key;
	json_t *x;
	size_t i;

	if (depth > VALUES_DEPTH)
		return pb_fail(err, EX_SOFTWARE, "mail values: nested more "
			       "than %d deep", VALUES_DEPTH);
	if (json_is_string(v))
		return scrub_string(v, rule, err);
	if (json_is_array(v)) {
		json_array_foreach(v, i, x)
			if (scrub(x, rule, depth + 1, err))
				return -1;
		return 0;
	}
	json_object_foreach(v, key, x)	/* nothing else holds text */
		if (scrub(x, values_block(key) ? BLOCK_RULE : LINE_RULE,
			  depth + 1, err))
			return -1;
	return 0;
}

int values_scrub(json_t *ctx, struct pb_err *err)
{
	return ctx ? scrub(ctx, LINE_RULE, 0, err) : 0;
}
