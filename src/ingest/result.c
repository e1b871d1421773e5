// SPDX-License-Identifier: GPL-2.0-only
/*
 * ingest: one result root (result.h), a directory or an http(s) URL: its
 * matrix.json (parsed by matrix.c) and job.yaml, the metrics indexed by
 * name for compare; loaded for the judge's report inputs and 'perfbot
 * compare'.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfbot/util/fileio.h"
#include "perfbot/ingest/fetch.h"
#include "perfbot/ingest/result.h"
#include "perfbot/util/workers.h"
#include "matrix_internal.h"
#include "rootcache_internal.h"

static int check_job(struct result_root *rr, struct pb_err *err)
{
	static const char *const required[] = { "testcase", "tbox_group" };
	size_t i;

	if (!ynode_is(rr->job.root, Y_MAP))
		return pb_fail(err, EX_DATAERR, "%s: not a mapping",
			       rr->job.name);
	for (i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		if (!result_root_job_str(rr, required[i]))
			return pb_fail(err, EX_DATAERR, "%s: no '%s'",
				       rr->job.name, required[i]);
	return 0;
}

/* job.yaml from its text, which is kept (it is attached to reports). */
static int parse_job(struct result_root *rr, const char *name,
		     struct strbuf *text, struct pb_err *err)
{
	if (yaml_load_str(name, sb_str(text), text->len, &rr->job, err))
		return -1;
	rr->job_text = sb_detach(text, NULL);
	if (!rr->job_text)
		return pb_fail(err, EX_OSERR, "out of memory");
	return check_job(rr, err);
}

static int load_job(struct result_root *rr, const char *path,
		    struct pb_err *err)
{
	struct strbuf text = STRBUF_INIT;
	int rc = file_read(path, RESULT_MAX_JOB_BYTES, 1, &text, err) ||
		 parse_job(rr, path, &text, err);

	sb_release(&text);
	return rc ? -1 : 0;
}

/* GET '<url>/<name>' into 'out'. */
static int fetch(const char *url, const char *name, size_t max,
		 struct strbuf *out, struct pb_err *err)
{
	struct strbuf full = STRBUF_INIT;
	struct http_answer a;
	int rc;

	sb_init(out, max);
	if (sb_addf(&full, "%s%s%s", url, url[strlen(url) - 1] == '/' ?
		    "" : "/", name)) {
		sb_release(&full);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	rc = fetch_get(full.buf, NULL, NULL, NULL, out, &a, err);
	if (!rc && a.status != 200)
		rc = pb_fail(err, a.status == 404 ? EX_NOINPUT : EX_UNAVAILABLE,
			     "%s: HTTP status %ld", full.buf, a.status);
	http_answer_release(&a);
	sb_release(&full);
	return rc;
}

/* A result root served over HTTP(S): URL/matrix.json and URL/job.yaml. */
static int load_remote(struct result_root *rr, const char *url,
		       struct pb_err *err)
{
	struct strbuf matrix, job;
	struct strbuf name = STRBUF_INIT;
	int rc;

	rc = fetch(url, "matrix.json", RESULT_MAX_MATRIX_BYTES, &matrix, err);
	if (!rc && sb_addf(&name, "%s/matrix.json", url))
		rc = pb_fail(err, EX_OSERR, "out of memory");
	if (!rc) {
		rc = result_root_parse_matrix(rr, sb_str(&name),
					      sb_str(&matrix), matrix.len, err);
	}
	sb_release(&matrix);
	if (!rc) {
		rc = fetch(url, "job.yaml", RESULT_MAX_JOB_BYTES, &job, err);
		sb_reset(&name);
		if (!rc && sb_addf(&name, "%s/job.yaml", url))
			rc = pb_fail(err, EX_OSERR, "out of memory");
		if (!rc)
			rc = parse_job(rr, sb_str(&name), &job, err);
		sb_release(&job);
	}
	sb_release(&name);
	return rc ? -1 : 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * 'dir'/job.yaml, else the job.yaml of the first run directory that has
 * one (a name starting with a digit, in byte order, as Ruby's Dir.glob
 * sorts): lkp-tests' job_file.
 */
static char *job_path(const char *dir)
{
	char *job = path_join(dir, "job.yaml"), **names = NULL, *best = NULL;
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	DIR *d;

	if (!job || !access(job, F_OK) || !(d = opendir(dir)))
		return job;
	while ((de = readdir(d))) {
		char **nn;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			if (!(nn = realloc(names, cap * sizeof(*nn))))
				break;
			names = nn;
		}
		if (!(names[n] = strdup(de->d_name)))
			break;
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n && !best; i++) {
		char *sub = path_join(dir, names[i]);

		best = sub ? path_join(sub, "job.yaml") : NULL;
		if (best && access(best, F_OK)) {
			free(best);
			best = NULL;
		}
		free(sub);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (!best)
		return job;
	free(job);
	return best;
}

int result_root_load(struct result_root *rr, const char *dir,
		     struct pb_err *err)
{
	struct file_map map;
	char *matrix = NULL, *job = NULL;
	int rc = -1;

	memset(rr, 0, sizeof(*rr));
	rr->dir = strdup(dir);
	if (rr->dir && (!strncmp(dir, "http://", 7) ||
			!strncmp(dir, "https://", 8))) {
		rc = load_remote(rr, dir, err);
		if (rc)
			result_root_release(rr);
		return rc;
	}
	matrix = path_join(dir, "matrix.json");
	job = job_path(dir);
	if (!rr->dir || !matrix || !job) {
		pb_fail(err, EX_OSERR, "out of memory");
		goto out;
	}
	if (file_map(matrix, RESULT_MAX_MATRIX_BYTES, &map, err))
		goto out;
	if (memchr(map.data, '\0', map.len))
		rc = pb_fail(err, EX_DATAERR, "%s: holds a NUL byte", matrix);
	else
		rc = matrix_parse(rr, matrix, map.data, map.len, 1, err);
	file_unmap(&map);
	if (rc)
		goto out;
	rc = load_job(rr, job, err);
out:
	free(matrix);
	free(job);
	if (rc)
		result_root_release(rr);
	return rc;
}

struct loader {
	struct result_root *rr;
	const char *dir;
	struct pb_err err;
	int rc;
	struct workers_aside aside;
};

static void load_one(void *p)
{
	struct loader *l = p;

	l->rc = result_root_load(l->rr, l->dir, &l->err);
}

int result_root_load_all(struct result_root *rr, const char *const *dirs,
			 size_t n, struct pb_err *err)
{
	struct loader l[RESULT_MAX_PARALLEL];
	size_t i;
	int rc = 0;

	if (n > RESULT_MAX_PARALLEL)
		return pb_fail(err, EX_SOFTWARE, "%zu result roots at once; at "
			       "most %d", n, RESULT_MAX_PARALLEL);
	memset(l, 0, sizeof(l));
	for (i = 0; i < n; i++) {
		l[i].rr = &rr[i];
		l[i].dir = dirs[i];
		memset(&rr[i], 0, sizeof(rr[i]));
		/* the first here, the others each beside it */
		if (i)
			workers_aside_start(&l[i].aside, load_one, &l[i]);
	}
	if (n)
		load_one(&l[0]);
	for (i = 0; i < n; i++) {
		workers_aside_wait(&l[i].aside);
		if (l[i].rc && !rc) {
			*err = l[i].err;
			rc = -1;
		}
	}
	for (i = 0; rc && i < n; i++)
		result_root_release(&rr[i]);
	return rc;
}

void result_root_release(struct result_root *rr)
{
	if (rr->shared) {
		root_entry_put(rr->shared);
		memset(rr, 0, sizeof(*rr));
		return;
	}
	free(rr->metrics);
	free(rr->name_pool);
	free(rr->value_pool);
	free(rr->int_pool);
	free(rr->exact_pool);
	free(rr->dir);
	free(rr->job_text);
	strmap_release(&rr->index);
	ydoc_release(&rr->job);
	memset(rr, 0, sizeof(*rr));
}

/* Each metric's values are a slice of their own: fewer runs is a count. */
void result_root_keep_runs(struct result_root *rr, size_t n)
{
	if (n && n < rr->runs)
		rr->runs = n;
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
	return ynode_str(ymap_get(rr->job.root, key));
}
