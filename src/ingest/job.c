// SPDX-License-Identifier: GPL-2.0-only
/*
 * ingest: what a result root's job.yaml says about the test (job.h): the
 * testcase, machine, rootfs, kconfig, compiler and parameters, and LKP's
 * axes line; for the judge's report inputs and 'perfbot compare'.
 */
#include <stdlib.h>
#include <string.h>

#include "perfbot/ingest/job.h"
#include "perfbot/util/strbuf.h"

#define JOB_MAX_PARAMS 256

static const char *const identity_keys[] = {
	"testcase", "tbox_group", "rootfs", "kconfig", "compiler", "commit",
	"subject",
};

static int is_identity(const char *key)
{
	size_t i;

	for (i = 0; i < sizeof(identity_keys) / sizeof(identity_keys[0]); i++)
		if (!strcmp(key, identity_keys[i]))
			return 1;
	return 0;
}

static int add_param(struct job_info *ji, const char *key,
		     const struct ynode *val, const char *path,
		     struct pb_err *err)
{
	if (!ynode_is(val, Y_STR))
		return 0;
	if (ji->nparams == JOB_MAX_PARAMS)
		return pb_fail(err, EX_DATAERR,
			       "%s: more than %d parameters", path,
			       JOB_MAX_PARAMS);
	ji->params[ji->nparams].key = key;
	ji->params[ji->nparams].value = val->str;
	ji->nparams++;
	return 0;
}

/* The plain top-level values and those of a mapping, in file order. */
static int collect(struct job_info *ji, const struct ynode *root,
		   const char *path, struct pb_err *err)
{
	const struct ynode *val;
	size_t i, j;

	for (i = 0; ynode_is(root, Y_MAP) && i < root->n; i++) {
		val = root->items[i];
		if (is_identity(root->keys[i]))
			continue;
		if (!ynode_is(val, Y_MAP)) {
			if (add_param(ji, root->keys[i], val, path, err))
				return -1;
			continue;
		}
		for (j = 0; j < val->n; j++)
			if (add_param(ji, val->keys[j], val->items[j], path,
				      err))
				return -1;
	}
	return 0;
}

/* LKP orders the axes as "key=value" strings: "fs2" sorts before "fs". */
static int axis_cmp(const void *a, const void *b)
{
	const char *x = ((const struct job_param *)a)->key;
	const char *y = ((const struct job_param *)b)->key;

	while (*x && *x == *y) {
		x++;
		y++;
	}
	return (unsigned char)(*x ? *x : '=') - (unsigned char)(*y ? *y : '=');
}

static int build_axes(struct job_info *ji, struct pb_err *err)
{
	const struct job_param extra[] = {
		{ "tbox_group", ji->tbox_group }, { "testcase", ji->testcase },
		{ "rootfs", ji->rootfs }, { "kconfig", ji->kconfig },
		{ "compiler", ji->compiler },
	};
	size_t i, n = 0, next = sizeof(extra) / sizeof(extra[0]);
	struct strbuf keys = STRBUF_INIT, vals = STRBUF_INIT;
	struct job_param *ax = calloc(ji->nparams + next, sizeof(*ax));
	int rc = 0;

	if (!ax)
		return pb_fail(err, EX_OSERR, "out of memory");
	for (i = 0; i < ji->nparams; i++)
		ax[n++] = ji->params[i];
	for (i = 0; i < next; i++)
		if (*extra[i].value)
			ax[n++] = extra[i];
	qsort(ax, n, sizeof(*ax), axis_cmp);
	for (i = 0; i < n; i++) {
		rc |= sb_addf(&keys, "%s%s", i ? "/" : "", ax[i].key);
		rc |= sb_addf(&vals, "%s%s", i ? "/" : "", ax[i].value);
	}
	free(ax);
	ji->axes_keys = sb_detach(&keys, NULL);
	ji->axes_values = sb_detach(&vals, NULL);
	if (rc || !ji->axes_keys || !ji->axes_values)
		return pb_fail(err, EX_OSERR, "out of memory");
	return 0;
}

static const char *str_or_empty(const struct result_root *rr, const char *k)
{
	const char *s = result_root_job_str(rr, k);

	return s ? s : "";
}

int job_info_init(struct job_info *ji, const struct result_root *rr,
		  struct pb_err *err)
{
	memset(ji, 0, sizeof(*ji));
	ji->testcase = str_or_empty(rr, "testcase");
	ji->tbox_group = str_or_empty(rr, "tbox_group");
	ji->rootfs = str_or_empty(rr, "rootfs");
	ji->kconfig = str_or_empty(rr, "kconfig");
	ji->compiler = str_or_empty(rr, "compiler");
	ji->params = calloc(JOB_MAX_PARAMS, sizeof(*ji->params));
	if (!ji->params)
		return pb_fail(err, EX_OSERR, "out of memory");
	if (collect(ji, rr->job.root, rr->job.name, err) ||
	    build_axes(ji, err)) {
		job_info_release(ji);
		return -1;
	}
	return 0;
}

void job_info_release(struct job_info *ji)
{
	free(ji->params);
	free(ji->axes_keys);
	free(ji->axes_values);
	memset(ji, 0, sizeof(*ji));
}
