// SPDX-License-Identifier: GPL-2.0-only
/*
 * judge: a bisection as JSON and back (bisect.h), so that it outlives a
 * cron run: its parameters, where it is, and every point with its runs.
 * Doubles are written with 17 significant digits (jansson's default),
 * which read back bit for bit.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "perfbot/judge/bisect.h"
#include "bisect_internal.h"

#define BISECT_JSON_MAX ((size_t)64 << 20)	/* bytes of the text */
#define BISECT_JSON_VERSION 1

static json_t *point_json(const struct bisect_point *pt)
{
	json_t *runs = json_array(), *o;
	size_t i;

	if (!runs)
		return NULL;
	for (i = 0; i < pt->nruns; i++)
		if (json_array_append_new(runs, json_real(pt->runs[i]))) {
			json_decref(runs);
			return NULL;
		}
	o = json_pack("{s:s, s:i, s:s, s:b, s:o}", "sha", pt->sha, "marks",
		      (int)pt->marks, "tag", pt->tag, "skipped", pt->skipped,
		      "runs", runs);
	return o;
}

static json_t *log_json(const struct bisect *b)
{
	json_t *log = json_array();
	size_t i;

	for (i = 0; log && i < b->nlog; i++)
		if (json_array_append_new(log, json_pack("[I, I, I]",
			(json_int_t)b->log[i].at, (json_int_t)b->log[i].n,
			(json_int_t)b->log[i].round))) {
			json_decref(log);
			return NULL;
		}
	return log;
}

char *bisect_to_json(const struct bisect *b)
{
	json_t *root, *points = json_array(), *log = log_json(b);
	char *text = NULL;
	size_t i;

	if (!points || !log) {
		json_decref(points);
		json_decref(log);
		return NULL;
	}
	for (i = 0; b->p && i <= b->n; i++)
		if (json_array_append_new(points, point_json(&b->p[i]))) {
			json_decref(points);
			json_decref(log);
			return NULL;
		}
	root = json_pack("{s:i, s:s, s:{s:f, s:I, s:I, s:i, s:i, s:i}, "
			 "s:I, s:I, s:s, s:I, s:i, s:o, s:o}",
			 "version", BISECT_JSON_VERSION, "metric", b->metric,
			 "params", "confidence", b->par.confidence,
			 "max_runs", (json_int_t)b->par.max_runs,
			 "max_rounds", (json_int_t)b->par.max_rounds,
			 "per_round", b->par.per_round,
			 "runs_each", b->par.runs_each,
			 "direction", b->par.direction,
			 "runs", (json_int_t)b->runs,
			 "rounds", (json_int_t)b->rounds,
			 "phase", bisect_phase_name(b->phase),
			 "culprit", (json_int_t)b->culprit, "why", b->why,
			 "points", points, "log", log);
	if (root)
		text = json_dumps(root, JSON_COMPACT);
	json_decref(root);
	return text;
}

static int is_sha(const char *s)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return i == GIT_SHA_HEX - 1;
}

static int point_from(struct bisect *b, size_t at, json_t *o,
		      struct pb_err *err)
{
	struct bisect_point *pt = &b->p[at];
	const char *sha, *tag;
	json_t *runs, *v;
	int marks, skipped;
	size_t i;

	if (json_unpack(o, "{s:s, s:i, s:s, s:b, s:o}", "sha", &sha, "marks",
			&marks, "tag", &tag, "skipped", &skipped, "runs",
			&runs) || !json_is_array(runs))
		return pb_fail(err, EX_DATAERR, "bisect: points[%zu]: "
			       "malformed", at);
	if (!is_sha(sha) || marks < 0 || marks > 7 ||
	    strlen(tag) >= BISECT_TAG_MAX)
		return pb_fail(err, EX_DATAERR, "bisect: points[%zu]: a sha, "
			       "marks or tag out of range", at);
	memcpy(pt->sha, sha, GIT_SHA_HEX);
	memcpy(pt->tag, tag, strlen(tag) + 1);
	pt->marks = (unsigned)marks;
	json_array_foreach(runs, i, v) {
		double x = json_number_value(v);

		if (!json_is_number(v))
			return pb_fail(err, EX_DATAERR, "bisect: points[%zu]: "
				       "a run that is not a number", at);
		if (bisect_add_runs(b, at, &x, 1, err))
			return -1;
	}
	if (skipped && bisect_skip(b, at, err))
		return -1;
	if ((at == 0 || at == b->n) && !pt->nruns)
		return pb_fail(err, EX_DATAERR, "bisect: points[%zu]: an end "
			       "with no runs", at);
	return 0;
}

static int phase_of(const char *name, enum bisect_phase *ph)
{
	int i;

	for (i = BISECT_SEARCH; i <= BISECT_INCONCLUSIVE; i++)
		if (!strcmp(name, bisect_phase_name((enum bisect_phase)i))) {
			*ph = (enum bisect_phase)i;
			return 0;
		}
	return -1;
}

/*
 * The order the runs came in: batches of a point's next runs that add up
 * to each point's runs, in rounds that were.
 */
static int log_from(struct bisect *b, json_t *log, struct pb_err *err)
{
	json_int_t at, n, round;
	size_t *left = calloc(b->n + 1, sizeof(*left)), i;
	json_t *e;
	int rc = -1;

	if (!left)
		return pb_fail(err, EX_OSERR, "out of memory");
	for (i = 0; i <= b->n; i++)
		left[i] = b->p[i].nruns;
	b->nlog = 0;
	json_array_foreach(log, i, e) {
		if (json_unpack(e, "[I, I, I]", &at, &n, &round) || at < 0 ||
		    (size_t)at > b->n || n < 1 || (size_t)n > left[at] ||
		    round < 0 || round > b->rounds) {
			pb_fail(err, EX_DATAERR, "bisect: log[%zu]: malformed "
				"or out of range", i);
			goto out;
		}
		left[at] -= (size_t)n;
		if (bisect_log(b, (size_t)at, (size_t)n, (long)round, err))
			goto out;
	}
	for (i = 0; i <= b->n; i++)
		if (left[i]) {
			pb_fail(err, EX_DATAERR, "bisect: the log misses runs of "
				"points[%zu]", i);
			goto out;
		}
	rc = 0;
out:
	free(left);
	return rc;
}

static int root_from(struct bisect *b, json_t *root, struct pb_err *err)
{
	json_int_t max_runs, max_rounds, runs, rounds, culprit;
	const char *metric, *phase;
	json_t *points, *pt, *log;
	int version;
	size_t i;

	if (json_unpack(root, "{s:i, s:s, s:{s:F, s:I, s:I, s:i, s:i, s:i}, "
			"s:I, s:I, s:s, s:I, s:i, s:o, s:o}", "version", &version,
			"metric", &metric, "params", "confidence",
			&b->par.confidence, "max_runs", &max_runs,
			"max_rounds", &max_rounds, "per_round",
			&b->par.per_round, "runs_each", &b->par.runs_each,
			"direction", &b->par.direction, "runs", &runs,
			"rounds", &rounds, "phase", &phase, "culprit",
			&culprit, "why", &b->why, "points", &points, "log",
			&log) || !json_is_array(points) || !json_is_array(log))
		return pb_fail(err, EX_DATAERR, "bisect: a field is missing "
			       "or malformed");
	if (version != BISECT_JSON_VERSION)
		return pb_fail(err, EX_DATAERR, "bisect: version %d: not %d",
			       version, BISECT_JSON_VERSION);
	b->par.max_runs = max_runs < 0 || max_runs > 100000 ? -1 :
		(long)max_runs;
	b->par.max_rounds = max_rounds < 0 || max_rounds > 1000 ? -1 :
		(long)max_rounds;
	if (bisect_params_check(&b->par, err))
		return -1;
	if (strlen(metric) >= BISECT_METRIC_MAX || phase_of(phase, &b->phase)
	    || runs < 0 || runs > b->par.max_runs || rounds < 0 ||
	    rounds > b->par.max_rounds || b->why < 0 ||
	    b->why >= BISECT_WHY_COUNT)
		return pb_fail(err, EX_DATAERR, "bisect: the metric, phase, "
			       "runs, rounds or why out of range");
	memcpy(b->metric, metric, strlen(metric) + 1);
	b->runs = (long)runs;
	b->rounds = (long)rounds;
	if (json_array_size(points) < 2)
		return pb_fail(err, EX_DATAERR, "bisect: fewer than 2 points");
	if (bisect_alloc(b, json_array_size(points) - 1, err))
		return -1;
	/* a bisection verifying or done names a candidate, never the base */
	if (culprit < (b->phase == BISECT_VERIFY ||
		       b->phase == BISECT_CULPRIT) || (size_t)culprit > b->n)
		return pb_fail(err, EX_DATAERR, "bisect: culprit %lld: no such "
			       "point", (long long)culprit);
	b->culprit = (size_t)culprit;
	json_array_foreach(points, i, pt)
		if (point_from(b, i, pt, err))
			return -1;
	return log_from(b, log, err);
}

int bisect_from_json(struct bisect *b, const char *json, struct pb_err *err)
{
	json_error_t jerr;
	json_t *root;
	int rc;

	bisect_release(b);
	if (strlen(json) > BISECT_JSON_MAX)
		return pb_fail(err, EX_DATAERR, "bisect: more than %zu bytes",
			       BISECT_JSON_MAX);
	root = json_loads(json, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		return pb_fail(err, EX_DATAERR, "bisect: line %d: %s",
			       jerr.line, jerr.text);
	rc = root_from(b, root, err);
	json_decref(root);
	if (rc)
		bisect_release(b);
	return rc;
}

/* The point of the 'k'th highest posterior not yet in 'taken'. */
static size_t next_top(const struct bisect *b, const size_t *taken,
		       size_t ntaken)
{
	size_t k, j, best = 0;

	for (k = 1; k <= b->n; k++) {
		for (j = 0; j < ntaken && taken[j] != k; j++)
			;
		if (j == ntaken && (!best || b->post[k] > b->post[best]))
			best = k;
	}
	return best;
}

json_t *bisect_view(struct bisect *b, size_t top)
{
	size_t taken[BISECT_VIEW_TOP], n = 0, k;
	json_t *list = json_array(), *o;

	if (!list || !b->p)
		goto fail;
	bisect_posterior(b);
	if (top > BISECT_VIEW_TOP)
		top = BISECT_VIEW_TOP;
	while (n < top && n < b->n && (k = next_top(b, taken, n))) {
		taken[n++] = k;
		if (json_array_append_new(list, json_pack("{s:s, s:f, s:I, s:b}",
			"sha", b->p[k].sha, "p", b->post[k], "runs",
			(json_int_t)b->p[k].nruns, "skipped", b->p[k].skipped)))
			goto fail;
	}
	o = json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:o}",
		      "metric", b->metric, "phase", bisect_phase_name(b->phase),
		      "candidates", (json_int_t)b->n, "rounds",
		      (json_int_t)b->rounds, "max_rounds",
		      (json_int_t)b->par.max_rounds, "runs", (json_int_t)b->runs,
		      "max_runs", (json_int_t)b->par.max_runs, "top", list,
		      "culprit", b->phase == BISECT_CULPRIT ?
		      json_string(b->p[b->culprit].sha) : json_null(),
		      "why", b->phase == BISECT_INCONCLUSIVE ?
		      json_string(bisect_why_text(b->why)) : json_null());
	return o;
fail:
	json_decref(list);
	return NULL;
}
