// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli: a report's bisections in 'perfbot show' (showbisect.h, issue 33):
 * where each is (phase, rounds and runs against their budgets), its
 * likeliest candidates with their probabilities and runs, its culprit or
 * why it ended inconclusive.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/judge/bisect.h"

#include "showbisect.h"

/* 's' on one line, its control characters never reaching the terminal. */
static void put(const char *s)
{
	for (; s && *s; s++)
		putchar((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s);
}

/* Each bisection as bisect_view() says it, with its id and times. */
json_t *show_bisections_json(const struct bisection_row *bs, size_t n,
			     size_t top)
{
	json_t *a = json_array(), *v;
	struct pb_err e = { 0, "" };
	struct bisect b = { 0 };
	size_t i;

	for (i = 0; a && i < n; i++) {
		const struct bisection_row *r = &bs[i];

		v = bisect_from_json(&b, r->state, &e) ? json_pack("{s:s}",
			"error", e.msg) : bisect_view(&b, top);
		bisect_release(&b);
		if (!v || json_object_set_new(v, "id", json_string(r->bisect_id))
		    || json_object_set_new(v, "created",
					   json_integer((json_int_t)r->created))
		    || json_object_set_new(v, "updated",
					   json_integer((json_int_t)r->updated))
		    || json_array_append_new(a, v)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* One bisection's lines: where it is, and its likeliest candidates. */
static void print_bisection(json_t *v)
{
	const char *why = json_string_value(json_object_get(v, "why"));
	const char *culprit = json_string_value(json_object_get(v, "culprit"));
	json_t *c;
	size_t i;

	fputs("  ", stdout);
	put(json_string_value(json_object_get(v, "id")));
	if (json_object_get(v, "error")) {
		fputs(": unreadable: ", stdout);
		put(json_string_value(json_object_get(v, "error")));
		putchar('\n');
		return;
	}
	printf(": %s, round %lld of %lld, %lld runs of %lld, %lld "
	       "candidates, ", json_string_value(json_object_get(v, "phase")),
	       json_integer_value(json_object_get(v, "rounds")),
	       json_integer_value(json_object_get(v, "max_rounds")),
	       json_integer_value(json_object_get(v, "runs")),
	       json_integer_value(json_object_get(v, "max_runs")),
	       json_integer_value(json_object_get(v, "candidates")));
	put(json_string_value(json_object_get(v, "metric")));
	if (culprit)
		printf("; culprit %.12s", culprit);
	if (why) {
		fputs("; inconclusive: ", stdout);
		put(why);
	}
	putchar('\n');
	json_array_foreach(json_object_get(v, "top"), i, c)
		printf("    %.12s P = %.4f, %lld runs%s\n",
		       json_string_value(json_object_get(c, "sha")),
		       json_real_value(json_object_get(c, "p")),
		       json_integer_value(json_object_get(c, "runs")),
		       json_is_true(json_object_get(c, "skipped")) ?
		       ", did not build" : "");
}

void show_bisections_print(const struct bisection_row *bs, size_t n)
{
	json_t *a, *v;
	size_t i;

	if (!n)
		return;
	a = show_bisections_json(bs, n, SHOW_TOP_TEXT);
	printf("bisections: %zu\n", n);
	json_array_foreach(a, i, v)
		print_bisection(v);
	json_decref(a);
}
