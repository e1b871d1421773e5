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
	char *axes_keys;	/* LKP's axes line: sorted keys joined by '/' */
	char *axes_values;	/* their values in the same order */
};

int job_info_init(struct job_info *ji, const struct result_root *rr,
		  struct pb_err *err);
void job_info_release(struct job_info *ji);

#endif
