/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_RESULT_H
#define PERFBOT_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "perfbot/util/err.h"
#include "perfbot/util/strmap.h"
#include "perfbot/util/yaml.h"

/*
 * One result root: the per-run samples of every metric of one commit
 * (matrix.json) and the job that produced them (job.yaml), as an LKP
 * result root lays them out.
 */

#define RESULT_MAX_MATRIX_BYTES ((size_t)256 << 20)
#define RESULT_MAX_JOB_BYTES ((size_t)1 << 20)
#define RESULT_MAX_METRICS 1000000
#define RESULT_MAX_RUNS 10000
#define RESULT_MAX_NAME 1024

/*
 * A metric: its name, and its row in the pools of its root, the values
 * of metric i at i * stride (metric_values() and the others below): 16
 * bytes, as a root may hold a million of them.
 */
#define METRIC_NO_EXACT UINT32_MAX
struct metric {
	const char *name;	/* in name_pool */
	uint32_t exact;		/* METRIC_NO_EXACT, or (when an integer is
				 * past 2^53, beyond a double) the row of
				 * exact_pool with every Integer exactly */
	uint32_t strings;	/* a list of strings: no values (LKP skips
				 * such metrics) */
};

struct root_entry;

struct result_root {
	char *dir;
	size_t runs;
	size_t stride;		/* values a metric has in the pools: runs,
				 * or more after result_root_keep_runs() */
	struct metric *metrics;	/* in matrix.json order */
	size_t nmetrics;
	struct strmap index;	/* name -> position in metrics */
	char *name_pool;
	double *value_pool;
	unsigned char *int_pool;
	int64_t *exact_pool;	/* the 'exact' lists, when any */
	struct ydoc job;	/* job.yaml; job.root is a mapping */
	char *job_text;		/* job.yaml as written */
	struct root_entry *shared;	/* NULL, or the cached root whose data
					 * this copy borrows (rootcache.h) */
};

/*
 * Load 'dir'/matrix.json and 'dir'/job.yaml. The number of runs is the
 * length of 'stats_source' when present, else the longest value list;
 * shorter lists are padded with 0 (a metric missing in some runs), longer
 * ones are an error. 'dir' may be an http(s):// URL: then URL/matrix.json
 * and URL/job.yaml are fetched; a directory without job.yaml uses the
 * job.yaml of its first numbered run directory, as lkp-tests does. A list holding strings is
 * kept as a metric without values ('strings'; LKP skips it); any
 * other non-number, an empty matrix, or a size beyond the RESULT_MAX_*
 * limits is EX_DATAERR; a missing file EX_NOINPUT.
 */
int result_root_load(struct result_root *rr, const char *dir,
		     struct pb_err *err);

/*
 * result_root_load() of dirs[0 .. n - 1] into rr[0 .. n - 1] (n at most
 * RESULT_MAX_PARALLEL), each in a thread of its own: two roots are read
 * in about the time of one on two cores. On failure the error is that of
 * the first root (in order) that failed, and every root is released.
 */
#define RESULT_MAX_PARALLEL 8
int result_root_load_all(struct result_root *rr, const char *const *dirs,
			 size_t n, struct pb_err *err);

/*
 * Parse a matrix.json text already in memory (used by tests and by HTTP
 * sources); 'name' names it in messages.
 */
int result_root_parse_matrix(struct result_root *rr, const char *name,
			     const char *text, size_t len, struct pb_err *err);

/* Free what 'rr' holds, or give back what it borrows; safe twice. */
void result_root_release(struct result_root *rr);

/*
 * Keep only the first 'n' runs of every metric (no change when it has no
 * more): the runs a report was made from, before a retest added some.
 */
void result_root_keep_runs(struct result_root *rr, size_t n);

/* The metric called 'name', or NULL. */
const struct metric *result_root_find(const struct result_root *rr,
				      const char *name);

/* Metric 'm' of 'rr': its 'runs' values, 0-padded. */
static inline const double *metric_values(const struct result_root *rr,
					  const struct metric *m)
{
	return rr->value_pool + (size_t)(m - rr->metrics) * rr->stride;
}

/* Per value: written as an integer (Ruby's Integer; the padding is one). */
static inline const unsigned char *metric_ints(const struct result_root *rr,
					       const struct metric *m)
{
	return rr->int_pool + (size_t)(m - rr->metrics) * rr->stride;
}

/* NULL, or every Integer exactly (when one is past 2^53). */
static inline const int64_t *metric_exact(const struct result_root *rr,
					  const struct metric *m)
{
	return m->exact == METRIC_NO_EXACT ? NULL :
		rr->exact_pool + (size_t)m->exact * rr->stride;
}

/* A job.yaml value as a string (NULL when absent or not a scalar). */
const char *result_root_job_str(const struct result_root *rr,
				const char *key);

#endif
