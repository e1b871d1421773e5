/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_RULES_H
#define PERFBOT_RULES_H

#include "perfbot/err.h"

/*
 * The metric tables of config/metrics.yaml: which metrics are failure
 * metrics, which are "perf metrics", which change absolutely, the noise
 * thresholds and their fallbacks, and each metric's direction. Every
 * pattern is a POSIX extended regex matched against the whole name.
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
	int change_decimals;	/* relative change: %.Nf */
	int change_sign;	/* '+' on positive changes */
	double change_blank_below; /* |change| below this prints blank */
	double change_exp_above; /* |change| above this: %.2g */
	int absolute_exponent;	/* absolute changes as %.0e, else %+.1f */
};

/* Load and compile 'path'; errors name the file and line (EX_CONFIG). */
int rules_load(struct rules **out, const char *path, struct pb_err *err);
void rules_free(struct rules *r);

int rules_is_failure(const struct rules *r, const char *name);
/* A benchmark metric ("<testcase>.*") or one of the 'perf' patterns. */
int rules_is_perf(const struct rules *r, const char *name,
		  const char *testcase);
int rules_is_absolute(const struct rules *r, const char *name);
int rules_skips_ratio(const struct rules *r, const char *name);

/*
 * The threshold rule of the first matching 'thresholds' entry, else the
 * first matching 'fallbacks' entry: 1 when the change is large enough to
 * show, 0 when it is noise. 'max' is the largest value of both sides,
 * 'delta' the difference of the medians.
 */
int rules_threshold_ok(const struct rules *r, const char *name, double max,
		       double delta);

/* The number formats (defaults when the file has no 'format'). */
const struct table_format *rules_format(const struct rules *r);

/* +1 when higher is better, -1 when lower is better, 0 when unknown. */
int rules_direction(const struct rules *r, const char *name);

#endif
