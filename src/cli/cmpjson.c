// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli: a comparison as JSON (cmpjson.h) for 'perfbot compare --json':
 * per row both sides' samples, means, spreads and the change, the rule
 * that dropped it, and for a shown row the judge's evidence (Welch,
 * Mann-Whitney, confidence interval).
 */
#include <math.h>

#include "perfbot/cli/cmpjson.h"
#include "perfbot/compare/evidence.h"
#include "perfbot/render/evidence_view.h"

static json_t *samples(const double *v, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < n; i++)
		json_array_append_new(a, json_real(v[i]));
	return a;
}

static json_t *side(const struct cmp_row *row, int s)
{
	struct cmp_stats all, *st = &all;

	cmp_row_stats(row, s, &all);
	return json_pack("{s:f, s:o, s:o, s:o, s:I}", "mean", st->mean,
			 "stddev", st->has_stddev ? json_real(st->stddev) :
				json_null(),
			 "pct_stddev", st->has_stddev ?
				json_real(st->pct_stddev) : json_null(),
			 "samples", samples(row->v[s], row->n[s]),
			 "runs", (json_int_t)row->n[s]);
}

/* The tests of a shown metric: welch, mann_whitney, ci95, each with
 * its numbers or the reason no test was possible. */
static int evidence_add(json_t *o, const struct cmp_row *row)
{
	struct evidence ev;
	json_t *e;

	if (evidence_of_row(row, &ev) || !(e = evidence_json(&ev))) {
		json_decref(o);
		return -1;
	}
	json_object_set(o, "welch", json_object_get(e, "welch"));
	json_object_set(o, "mann_whitney", json_object_get(e, "mann_whitney"));
	json_object_set(o, "ci95", json_object_get(e, "ci95"));
	json_decref(e);
	return 0;
}

static json_t *row_json(const struct cmp_row *row)
{
	json_t *o = json_pack("{s:s, s:o, s:o, s:b}", "metric", row->name,
			      "base", side(row, BASE), "head",
			      side(row, HEAD), "shown", row->shown);

	if (!o)
		return NULL;
	if (row->failure) {
		json_object_set_new(o, "failure", json_true());
		json_object_set_new(o, "fails", json_pack("[f,f]",
			row->st[BASE].fails, row->st[HEAD].fails));
		json_object_set_new(o, "reproduction",
				    json_real(row->reproduction));
	} else {
		json_object_set_new(o, row->absolute ? "change_absolute" :
				    "change_percent",
				    isfinite(row->change) ?
				    json_real(row->change) : json_null());
	}
	if (row->dropped)
		json_object_set_new(o, "dropped", json_string(row->dropped));
	if (row->shown && evidence_add(o, row))
		return NULL;
	return o;
}

json_t *comparison_to_json(const struct comparison *c, int all)
{
	json_t *rows = json_array(), *o;
	size_t i;

	for (i = 0; rows && i < c->nrows; i++)
		if (all || c->rows[i].shown)
			json_array_append_new(rows, row_json(&c->rows[i]));
	o = json_pack("{s:I, s:I, s:I, s:I, s:o}",
		      "base_runs", (json_int_t)c->runs[BASE],
		      "head_runs", (json_int_t)c->runs[HEAD],
		      "metrics", (json_int_t)c->nmetrics,
		      "shown", (json_int_t)c->nshown, "rows", rows);
	return o;
}
