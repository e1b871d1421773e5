/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_RULES_INTERNAL_H
#define PERFBOT_RULES_INTERNAL_H

/*
 * The metric rules' insides, shared by rules.c (loading, the metric
 * lists) and rules_jobs.c (lkp-tests' programs, for a job's axes) only.
 */

#include <stddef.h>

#include "pattern.h"
#include "perfbot/compare/rules.h"
#include "perfbot/util/strmap.h"

#define RULES_MAX_DEPTH 4	/* base: files within base: files */

enum entry { E_PLAIN, E_VALUE, E_BOUND, E_FAMILY, E_NAME };

enum { L_FAILURE, L_PASS, L_FAILURE_EXCLUDE, L_DENY, L_ALLOW,
	L_REPORT_ALLOW, L_PERF_PREFIXES, L_PERF_PROGRAMS, L_PERF_PATTERNS,
	L_ABSOLUTE, L_FAM_INCOMPLETE, L_FAM_UNPAIRED, L_FAM_MONITORED,
	L_THRESHOLDS, L_FALLBACKS, L_DIRECTION, L_JOB_OPTIONS, L_JOB_MONITORS,
	L_JOB_WRAPPER, L_INDEX_PERF, L_INDEX_PERF_ALL, L_INDEX_LATENCY,
	L_INDEX_LATENCY_ALL, L_KPI_DENY, L_COUNT };


/* What an entry of a list carries besides its pattern. */
struct value {
	double v;
	int integer;	/* written as a whole number (LKP: an Integer) */
	int on_delta;	/* fallbacks: bound on delta, else on max */
};

/* An entry as read, compiled once every file is loaded. */
struct entry_src {
	char *pattern;
	const char *file;	/* one of rules->files */
	int line;
	struct value val;
};

struct list {
	struct entry_src *src;
	size_t nsrc, capsrc;
	struct patlist *pl;
	struct value *val;
};

/* A workload program and the options it reads (job_program_options). */
struct program {
	char *name;		/* the entry's own string, split */
	const char **opt;
	size_t n;
};

struct rules {
	struct list l[L_COUNT];
	struct program *prog;		/* by name, in 'progs' */
	size_t nprog;
	const char **opts;		/* every program's options, in a row */
	struct strmap progs, monitors;
	char *files[RULES_MAX_DEPTH + 2];	/* the files read, for errors */
	int nfiles;
	long perf_profile;
	struct table_format fmt;
};

/* The index of the first entry of list 'list' matching 'name', or -1. */
long rules_first(const struct rules *r, int list, const char *name);

/* Index the programs and monitors once every file is loaded. */
int rules_index_programs(struct rules *r);

#endif
