/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_AXES_H
#define PERFBOT_AXES_H

#include <stddef.h>

#include "perfbot/compare/rules.h"
#include "perfbot/ingest/job.h"
#include "perfbot/util/strbuf.h"
#include "perfbot/util/yaml.h"

/*
 * A job's axes as LKP's compare takes them (lkp-tests lib/job.rb
 * Job#axes, the table header's two lines): tbox_group, testcase, rootfs,
 * kconfig and compiler (with LKP's defaults for the last two, rootfs cut
 * to its file name), then every key of the job, at any depth, that is a
 * workload program or an option of one the job runs (config/metrics.yaml
 * job_program_options, job_wrapper_options), but those under a monitor
 * and those whose value is a mapping, null or false; plain scalars read
 * as Ruby's YAML reads them ("0x1f" is 31, "off" is false). 'commit', the
 * compared axis, is left out. The keys are sorted as the robot's reports
 * print them (as if each were followed by '='), values in the same
 * order; 'params' are the keys that came from the job's programs, in the
 * job's order, for a report's "parameters:" (their keys point into the
 * job's document, which must outlive them).
 */
struct job_axes {
	char *keys;		/* "compiler/cpufreq_governor/..." */
	char *values;		/* "gcc-12/performance/..." */
	struct job_param *params;	/* values owned */
	size_t nparams;
};

/* The axes of job.yaml 'job' (its root a mapping, or NULL: no job). */
int job_axes_of(struct job_axes *ax, const struct ydoc *job,
		const struct rules *r, struct pb_err *err);
void job_axes_release(struct job_axes *ax);

/*
 * A plain or quoted YAML scalar as Ruby's YAML reads it and to_s prints
 * it (appended to 'out'); '*truthy' 0 for null and false. For the tests.
 */
int axes_ruby_scalar(const struct ynode *v, struct strbuf *out,
		     int *truthy);

#endif
