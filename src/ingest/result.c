// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "perfbot/fileio.h"
#include "perfbot/result.h"

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
	struct file_map map;
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
	if (file_map(matrix, RESULT_MAX_MATRIX_BYTES, &map, err))
		goto out;
	if (memchr(map.data, '\0', map.len))
		rc = pb_fail(err, EX_DATAERR, "%s: holds a NUL byte", matrix);
	else
		rc = result_root_parse_matrix(rr, matrix, map.data, map.len,
					      err);
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

void result_root_release(struct result_root *rr)
{
	free(rr->metrics);
	free(rr->name_pool);
	free(rr->value_pool);
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
