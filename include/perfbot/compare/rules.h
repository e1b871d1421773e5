/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_RULES_H
#define PERFBOT_RULES_H

#include "perfbot/util/err.h"

/*
 * The metric tables of config/metrics.yaml: LKP's rule data (lkp-tests'
 * etc/ and programs/, the commit is recorded in the file) plus perfbot's
 * directions and number formats. Each list is matched as LKP matches the
 * file it comes from (see the comments in config/metrics.yaml); an
 * "era" file may name a 'base' rules file and replace some of its keys.
 */

struct rules;

/*
 * How the table prints numbers (the 'format' mapping). The defaults are
 * today's LKP; older LKP versions, whose reports perfbot must match too,
 * differ only in these values.
 */
struct table_format {
	double float_below;	/* |mean| below this: %.2f */
	double exp_above;	/* |mean| above this: %.4g; between: integer */
	int zero_as_int;	/* a mean of exactly 0 prints as "0" */
	double stddev_above;	/* show +-N% when %stddev exceeds this;
				 * negative: whenever there are 2 runs */
	int stddev_zero_mean;	/* a zero mean shows its raw stddev (LKP
				 * does not divide by it); else blank */
	int change_decimals;	/* relative change: %.Nf */
	int change_sign;	/* '+' on positive changes */
	double change_blank_below; /* |change| below this prints blank */
	double change_exp_above; /* |change| above this: %.2g */
	int absolute_exponent;	/* absolute changes as %.0e, else %+.1f */
};

/* Metric families named in the rules (each "<family>." prefixes). */
enum rules_family {
	FAM_INCOMPLETE_RUN,	/* compared on all runs too (first pass) */
	FAM_UNPAIRED,		/* failures shown without a .pass partner */
	FAM_MONITORED,		/* head-only metrics shown when the base has
				 * the family */
	FAM_COUNT
};

/*
 * Load 'path'; errors name the file and line (EX_CONFIG). The regexes
 * among the patterns are compiled when first needed: rules_check() with
 * 'all' compiles and checks every one (perfbot check), without it says
 * whether one needed so far is bad (every comparison ends with that).
 */
int rules_load(struct rules **out, const char *path, struct pb_err *err);
int rules_check(const struct rules *r, int all, struct pb_err *err);
void rules_free(struct rules *r);

/* A failure ("function") metric: etc/failure or etc/pass. */
int rules_is_failure(const struct rules *r, const char *name);
/* Shown at all: allow-listed, report-allow-listed or not deny-listed. */
int rules_is_reportable(const struct rules *r, const char *name);
/* A "perf metric": needs a 1% change where others need 5%. */
int rules_is_perf(const struct rules *r, const char *name);
/* Change printed as head - base. */
int rules_is_absolute(const struct rules *r, const char *name);
/* In family 'f': the family's length (its name without the dot), else 0. */
size_t rules_family(const struct rules *r, enum rules_family f,
		    const char *name);

/*
 * LKP's reasonable_perf_change?: the first threshold whose key matches
 * the whole name decides, else the first matching fallback; 'max' is the
 * largest value of both sides, 'delta' the difference of the medians.
 */
int rules_threshold_ok(const struct rules *r, const char *name, double max,
		       double delta);

/* The perf-profile option of LKP's comparison (an Integer), 0 when off. */
long rules_perf_profile(const struct rules *r);

/* The number formats (defaults when the file has no 'format'). */
const struct table_format *rules_format(const struct rules *r);

/*
 * +1 when higher is better, -1 when lower is better, 0 when unknown: the
 * sign LKP's KPI index gives (lib/stats.rb kpi_stat_direction: the
 * index-perf lists, then the index-latency ones), else perfbot's own
 * 'direction' list.
 */
int rules_direction(const struct rules *r, const char *name);

/*
 * Where a stat stands in LKP's KPI index (etc/index-perf.yaml and
 * index-perf-all.yaml, then etc/index-latency.yaml and
 * index-latency-all.yaml, each entry matching the whole name): the
 * order in which the headline is chosen.
 */
#define KPI_NO_WEIGHT (-255)	/* lib/stats.rb: "less than any weight" */
struct kpi_rank {
	int indexed;	/* in one of the lists */
	int latency;	/* in an index-latency list (and no index-perf one) */
	long weight;	/* the index-perf weight as LKP's to_i, else
			 * KPI_NO_WEIGHT */
	int primary;	/* in index-perf.yaml or index-latency.yaml itself,
			 * not only in an -all list */
	long pos;	/* the entry's place in its list */
	int direction;	/* the sign of the entry's value, 0 when none */
};
void rules_kpi_rank(const struct rules *r, const char *name,
		    struct kpi_rank *k);

/*
 * LKP's kpi_stat?: a stat of a benchmark program of lkp-tests (its
 * 'job_program_options', not a monitor), neither '<program>.time.*' nor
 * on 'kpi_denylist'.
 */
int rules_is_kpi(const struct rules *r, const char *name);

/*
 * lkp-tests' programs as a job's axes need them (lib/job.rb Job#axes,
 * compare/axes.h): 1 when 'name' is a workload program (a setup, run or
 * daemon script of programs/), with the options it reads in '*opts' (may
 * be NULL); whether 'name' is a monitor; the options of the wrapper
 * every job runs in (bin/run-test, bin/run-daemon), NULL past the last.
 */
int rules_job_program(const struct rules *r, const char *name,
		      const char *const **opts, size_t *n);
int rules_job_monitor(const struct rules *r, const char *name);
const char *rules_job_wrapper_option(const struct rules *r, size_t i);

#endif
