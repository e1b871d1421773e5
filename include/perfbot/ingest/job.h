/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_JOB_H
#define PERFBOT_JOB_H

#include <stddef.h>

#include "perfbot/util/err.h"
#include "perfbot/ingest/result.h"

/*
 * What a job.yaml says about the test: the testcase, the machine
 * (tbox_group), rootfs, kconfig and compiler, and the parameters. Every
 * other top-level key with a plain value is a parameter, in file order; a
 * mapping (LKP nests a testcase's options under its name) contributes its
 * plain values in order; lists are not parameters.
 */

struct job_param {
	const char *key;
	const char *value;
};

struct job_info {
	const char *testcase;
	const char *tbox_group;
	const char *rootfs;	/* "" when absent, likewise below */
	const char *kconfig;
	const char *compiler;
	struct job_param *params;
	size_t nparams;
	/*
	 * Every parameter and the fixed keys, sorted and joined by '/': what
	 * a report's id is derived from when its manifest names none, kept
	 * as it always was so that no report gets a new id (and is mailed
	 * again). LKP's axes line is compare/axes.h's.
	 */
	char *axes_keys;
	char *axes_values;
};

int job_info_init(struct job_info *ji, const struct result_root *rr,
		  struct pb_err *err);
void job_info_release(struct job_info *ji);

#endif
