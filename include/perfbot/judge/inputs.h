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
#include "perfbot/ingest/rootcache.h"
#include "perfbot/util/yaml.h"

/*
 * The judge stage of a report: everything a report is made from, loaded
 * and compared, and judged. The metric rules (the manifest's own, else
 * the configured ones), both result roots, the job, the comparison and
 * its judgement, and the testcase and host tables. Reports are rendered
 * from it; retest follow-ups and confirmations load it again to compare
 * over all runs.
 */
#define INPUTS_MAX_CANDIDATES 16
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
	const char *key_metric;	/* the stat the judgement follows (a row's
				 * name; shown or not), or NULL */
	char *cands[INPUTS_MAX_CANDIDATES];	/* the operator's headline
						 * candidates, expanded */
	size_t ncands;
	int rules_borrowed;	/* rules are a cache's, */
	int testcases_borrowed;	/* and so are the testcases */
};

/*
 * What a caller that loads the inputs of many reports keeps between them
 * (the web archive builds thousands): each metric table used, and the
 * testcase table, read once. Its rules are used by one thread at a time.
 */
#define INPUTS_CACHE_RULES 8
struct inputs_cache {
	struct {
		char *path;
		struct rules *rules;
	} rules[INPUTS_CACHE_RULES];
	size_t nrules;
	struct ydoc testcases;
	int have_testcases;
};

void inputs_cache_init(struct inputs_cache *c);
/* Safe on a zeroed cache, and twice. */
void inputs_cache_release(struct inputs_cache *c);

struct inputs_opts {
	struct inputs_cache *cache;	/* NULL: every table read afresh */
	size_t runs[2];		/* not 0: only the first runs[s] runs of side
				 * s count (the runs a report was made from) */
	struct root_cache *roots;	/* NULL: both roots read afresh, each
					 * in a thread; else from this cache
					 * (ingest/rootcache.h), shared by
					 * threads */
};

/*
 * 'n' options, each with a cache of its own (inputs_cache_init()) and
 * all reading their roots through 'roots' (may be NULL): one for each
 * thread of a run of util/workers.h, since a cache's rules are used by
 * one thread at a time. NULL when memory runs out.
 */
struct inputs_opts *inputs_opts_new(size_t n, struct root_cache *roots);
/* Free them and their caches; NULL is fine. */
void inputs_opts_free(struct inputs_opts *io, size_t n);

/*
 * Load, compare and judge the inputs of manifest 'm'. On failure 'in' is
 * still released with report_inputs_release().
 */
int report_inputs_load(struct report_inputs *in, const struct manifest *m,
		       const struct config *cfg, struct pb_err *err);
/* report_inputs_load() with options; 'o' may be NULL. */
int report_inputs_load_opts(struct report_inputs *in,
			    const struct manifest *m, const struct config *cfg,
			    const struct inputs_opts *o, struct pb_err *err);
void report_inputs_release(struct report_inputs *in);

/*
 * Field 'key' ("description", "url", "headline", "direction") of the
 * testcase in config/testcases.yaml, or NULL.
 */
const char *report_inputs_testcase(const struct report_inputs *in,
				   const char *key);

#endif
