/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_INPUTS_H
#define PERFBOT_INPUTS_H

#include "perfbot/compare/compare.h"
#include "perfbot/config/config.h"
#include "perfbot/util/err.h"
#include "perfbot/compare/axes.h"
#include "perfbot/ingest/job.h"
#include "perfbot/judge/judge.h"
#include "perfbot/ingest/manifest.h"
#include "perfbot/util/yaml.h"

/*
 * The judge stage of a report: everything a report is made from, loaded
 * and compared, and judged. The metric rules (the manifest's own, else
 * the configured ones), both result roots, the job, the comparison and
 * its judgement, and the testcase and host tables. Reports are rendered
 * from it; retest follow-ups and confirmations load it again to compare
 * over all runs.
 */
struct report_inputs {
	struct rules *rules;
	struct result_root root[2];
	struct comparison cmp;
	struct job_info job;
	struct job_axes axes;	/* LKP's axes of the head's job */
	struct judgement verdict;
	struct ydoc testcases;
	struct ydoc host;
	const char *testcase;
	const char *machine;	/* the host's description, or tbox_group */
	const char *key_metric;	/* the testcase's headline, or NULL */
};

/*
 * Load, compare and judge the inputs of manifest 'm'. On failure 'in' is
 * still released with report_inputs_release().
 */
int report_inputs_load(struct report_inputs *in, const struct manifest *m,
		       const struct config *cfg, struct pb_err *err);
void report_inputs_release(struct report_inputs *in);

/*
 * Field 'key' ("description", "url", "headline", "direction") of the
 * testcase in config/testcases.yaml, or NULL.
 */
const char *report_inputs_testcase(const struct report_inputs *in,
				   const char *key);

#endif
