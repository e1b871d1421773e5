// SPDX-License-Identifier: GPL-2.0-only
/*
 * act: the bisections as a part of 'perfbot status' (act/bisect.h, issue
 * 33): one typed row each, as the state's own parts are, so that the
 * text, the JSON and the web's status page show them with the code that
 * shows the others.
 */
#include <stdlib.h>
#include <string.h>

#include "perfbot/act/bisect.h"
#include "perfbot/judge/bisect.h"
#include "perfbot/state/bisections.h"

/* The columns, in the order shown. */
enum {
	COL_ID, COL_REPORT, COL_PHASE, COL_METRIC, COL_CANDIDATES, COL_ROUNDS,
	COL_RUNS, COL_MAX_RUNS, COL_TOP, COL_TOP_P, COL_CULPRIT, COL_WHY,
	COL_UPDATED, NCOLS
};
static const char *const cols[NCOLS] = {
	"id", "report_id", "phase", "metric", "candidates", "rounds", "runs",
	"max_runs", "top", "top_p", "culprit", "why", "updated",
};

/* -1 when out of memory; a NULL 's' is a null value. */
static int text(struct status_value *v, const char *s)
{
	v->type = s ? STATUS_TEXT : STATUS_NULL;
	v->s = s ? strdup(s) : NULL;
	return s && !v->s ? -1 : 0;
}

static void number(struct status_value *v, long long i)
{
	v->type = STATUS_INT;
	v->i = i;
}

/* What a bisection's state says, or why it cannot be read. */
static int row(const struct bisection_row *r, struct status_value *v)
{
	struct pb_err e = { 0, "" };
	struct bisect b = { 0 };
	size_t top;
	int rc;

	number(&v[COL_UPDATED], (long long)r->updated);
	if (text(&v[COL_ID], r->bisect_id) ||
	    text(&v[COL_REPORT], r->report_id))
		return -1;
	if (bisect_from_json(&b, r->state, &e))
		return text(&v[COL_PHASE], "unreadable") ||
			text(&v[COL_WHY], e.msg);
	bisect_posterior(&b);
	top = bisect_top(&b);
	number(&v[COL_CANDIDATES], (long long)b.n);
	number(&v[COL_ROUNDS], b.rounds);
	number(&v[COL_RUNS], b.runs);
	number(&v[COL_MAX_RUNS], b.par.max_runs);
	if (top && b.post) {
		v[COL_TOP_P].type = STATUS_REAL;
		v[COL_TOP_P].r = b.post[top];
	}
	rc = text(&v[COL_PHASE], bisect_phase_name(b.phase)) ||
		text(&v[COL_METRIC], b.metric) ||
		text(&v[COL_TOP], top ? b.p[top].sha : NULL) ||
		text(&v[COL_CULPRIT], b.phase == BISECT_CULPRIT ?
		     b.p[b.culprit].sha : NULL) ||
		text(&v[COL_WHY], b.phase == BISECT_INCONCLUSIVE ?
		     bisect_why_text(b.why) : NULL);
	bisect_release(&b);
	return rc ? -1 : 0;
}

/* The part's names and room for 'n' rows, every value null. */
static int part_init(struct status_part *p, size_t n)
{
	size_t i;

	memset(p, 0, sizeof(*p));
	p->name = "bisections";
	p->cols = calloc(NCOLS, sizeof(*p->cols));
	p->cells = calloc(n ? n * NCOLS : 1, sizeof(*p->cells));
	if (!p->cols || !p->cells)
		return -1;
	p->ncols = NCOLS;
	for (i = 0; i < NCOLS; i++)
		if (!(p->cols[i] = strdup(cols[i])))
			return -1;
	return 0;
}

int bisect_status_add(struct state *st, struct status *so,
		      struct pb_err *err)
{
	struct bisection_row *rows = NULL;
	struct status_part *parts, *p;
	size_t i, n = 0;
	int rc = -1;

	if (state_bisections(st, NULL, 0, &rows, &n, err))
		return -1;
	parts = realloc(so->parts, (so->nparts + 1) * sizeof(*parts));
	if (!parts)
		goto oom;
	so->parts = parts;
	p = &parts[so->nparts++];	/* freed by status_release() */
	if (part_init(p, n))
		goto oom;
	for (i = 0; i < n; i++, p->nrows++)
		if (row(&rows[i], &p->cells[i * NCOLS])) {
			p->nrows++;	/* its strings freed with it */
			goto oom;
		}
	rc = 0;
	goto out;
oom:
	pb_fail(err, EX_OSERR, "out of memory");
out:
	bisection_rows_free(rows, n);
	return rc;
}
