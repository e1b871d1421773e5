// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/fileio.h"
#include "perfbot/result.h"

enum list_kind { LIST_NUMBERS, LIST_STRINGS };

/* Classify a metric's value list; -1 with a message when it is neither. */
static int classify(const char *file, const char *name, json_t *list,
		    enum list_kind *kind, struct pb_err *err)
{
	size_t i, strings = 0;
	json_t *v;

	if (!json_is_array(list))
		return pb_fail(err, EX_DATAERR,
			       "%s: metric '%.200s': not a list of values",
			       file, name);
	json_array_foreach(list, i, v) {
		if (json_is_string(v)) {
			strings++;
		} else if (!json_is_number(v)) {
			return pb_fail(err, EX_DATAERR,
				       "%s: metric '%.200s': run %zu: "
				       "not a number", file, name, i + 1);
		} else if (fabs(json_number_value(v)) > 1e300) {
			return pb_fail(err, EX_DATAERR,
				       "%s: metric '%.200s': run %zu: "
				       "value out of range", file, name, i + 1);
		}
	}
	if (strings && strings != json_array_size(list))
		return pb_fail(err, EX_DATAERR,
			       "%s: metric '%.200s': mixes numbers and strings",
			       file, name);
	*kind = strings ? LIST_STRINGS : LIST_NUMBERS;
	return 0;
}

static int count_runs(const char *file, json_t *root, size_t *runs,
		      struct pb_err *err)
{
	json_t *src = json_object_get(root, "stats_source");
	const char *key;
	json_t *val;

	*runs = 0;
	if (json_is_array(src)) {
		*runs = json_array_size(src);
	} else {
		json_object_foreach(root, key, val)
			if (json_is_array(val) && json_array_size(val) > *runs)
				*runs = json_array_size(val);
	}
	if (*runs == 0)
		return pb_fail(err, EX_DATAERR, "%s: no runs", file);
	if (*runs > RESULT_MAX_RUNS)
		return pb_fail(err, EX_DATAERR,
			       "%s: %zu runs, more than the limit of %d", file,
			       *runs, RESULT_MAX_RUNS);
	return 0;
}

static int add_metric(struct result_root *rr, const char *file,
		      const char *name, json_t *list, struct pb_err *err)
{
	struct metric *m = &rr->metrics[rr->nmetrics];
	size_t i, n = json_array_size(list);

	if (n > rr->runs)
		return pb_fail(err, EX_DATAERR,
			       "%s: metric '%.200s' has %zu values but the "
			       "result root has %zu runs", file, name, n,
			       rr->runs);
	if (strlen(name) > RESULT_MAX_NAME || !*name)
		return pb_fail(err, EX_DATAERR,
			       "%s: metric name of %zu bytes", file,
			       strlen(name));
	m->name = strdup(name);
	m->v = calloc(rr->runs, sizeof(double));
	if (!m->name || !m->v) {
		free(m->name);
		free(m->v);
		return pb_fail(err, EX_OSERR, "%s: out of memory", file);
	}
	for (i = 0; i < n; i++)
		m->v[i] = json_number_value(json_array_get(list, i));
	if (strmap_put(&rr->index, m->name, rr->nmetrics)) {
		free(m->name);
		free(m->v);
		return pb_fail(err, EX_OSERR, "%s: out of memory", file);
	}
	rr->nmetrics++;
	return 0;
}

static int fill_metrics(struct result_root *rr, const char *file,
			json_t *root, struct pb_err *err)
{
	enum list_kind kind = LIST_NUMBERS;
	const char *key;
	json_t *val;

	if (json_object_size(root) > RESULT_MAX_METRICS)
		return pb_fail(err, EX_DATAERR,
			       "%s: %zu metrics, more than the limit of %d",
			       file, json_object_size(root),
			       RESULT_MAX_METRICS);
	rr->metrics = calloc(json_object_size(root) + 1,
			     sizeof(*rr->metrics));
	if (!rr->metrics)
		return pb_fail(err, EX_OSERR, "%s: out of memory", file);
	json_object_foreach(root, key, val) {
		if (classify(file, key, val, &kind, err))
			return -1;
		if (kind == LIST_STRINGS)
			continue;
		if (add_metric(rr, file, key, val, err))
			return -1;
	}
	if (!rr->nmetrics)
		return pb_fail(err, EX_DATAERR, "%s: no metrics", file);
	return 0;
}

int result_root_parse_matrix(struct result_root *rr, const char *name,
			     const char *text, size_t len, struct pb_err *err)
{
	json_error_t jerr;
	json_t *root;
	int rc;

	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		return pb_fail(err, EX_DATAERR, "%s:%d: %s", name, jerr.line,
			       jerr.text);
	if (!json_is_object(root)) {
		json_decref(root);
		return pb_fail(err, EX_DATAERR,
			       "%s: not an object of metric lists", name);
	}
	rc = count_runs(name, root, &rr->runs, err);
	if (!rc)
		rc = fill_metrics(rr, name, root, err);
	json_decref(root);
	return rc;
}

static int load_job(struct result_root *rr, const char *path,
		    struct pb_err *err)
{
	static const char *const required[] = { "testcase", "tbox_group" };
	size_t i;

	if (yaml_load_file(path, RESULT_MAX_JOB_BYTES, &rr->job, err))
		return -1;
	if (!json_is_object(rr->job.root))
		return pb_fail(err, EX_DATAERR, "%s: not a mapping", path);
	for (i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		if (!result_root_job_str(rr, required[i]))
			return pb_fail(err, EX_DATAERR, "%s: no '%s'", path,
				       required[i]);
	return 0;
}

int result_root_load(struct result_root *rr, const char *dir,
		     struct pb_err *err)
{
	struct strbuf text = STRBUF_INIT;
	char *matrix = NULL, *job = NULL;
	int rc = -1;

	memset(rr, 0, sizeof(*rr));
	rr->dir = strdup(dir);
	matrix = path_join(dir, "matrix.json");
	job = path_join(dir, "job.yaml");
	if (!rr->dir || !matrix || !job) {
		pb_fail(err, EX_OSERR, "out of memory");
		goto out;
	}
	if (file_read(matrix, RESULT_MAX_MATRIX_BYTES, 1, &text, err))
		goto out;
	if (result_root_parse_matrix(rr, matrix, sb_str(&text), text.len,
				     err))
		goto out;
	rc = load_job(rr, job, err);
out:
	sb_release(&text);
	free(matrix);
	free(job);
	if (rc)
		result_root_release(rr);
	return rc;
}

void result_root_release(struct result_root *rr)
{
	size_t i;

	for (i = 0; i < rr->nmetrics; i++) {
		free(rr->metrics[i].name);
		free(rr->metrics[i].v);
	}
	free(rr->metrics);
	free(rr->dir);
	strmap_release(&rr->index);
	ydoc_release(&rr->job);
	memset(rr, 0, sizeof(*rr));
}

const struct metric *result_root_find(const struct result_root *rr,
				      const char *name)
{
	size_t i;

	if (strmap_get(&rr->index, name, &i))
		return NULL;
	return &rr->metrics[i];
}

const char *result_root_job_str(const struct result_root *rr,
				const char *key)
{
	return json_string_value(json_object_get(rr->job.root, key));
}
