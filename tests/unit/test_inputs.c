// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/judge/inputs.c: a report's inputs loaded, compared
 * and judged (seed 004: the testcase, its headline, the host's
 * description, the verdict), and every way loading them fails (the
 * metric rules, either result root, the head's job, the testcase table
 * missing or not a mapping), each with its error and 'in' still safe to
 * release. Run from the repository root.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfbot/judge/inputs.h"
#include "perfbot/util/log.h"

#include "testutil.h"

#define SHIPPED "config/perfbot.yaml"
#define ICL2 "128 threads 2 sockets Intel(R) Xeon(R) Gold 6338 CPU @ " \
	"2.00GHz (Ice Lake) with 256G memory"

struct fx {
	char dir[64];
	char seed[PATH_MAX + 32];	/* the absolute fixtures/seeds/004 */
	struct config cfg;
	int loaded;
	struct manifest m;
	int have_m;
	struct report_inputs in;
	struct pb_err err;
	enum log_level level;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_inputs");
	char cwd[PATH_MAX];

	if (!f || !getcwd(cwd, sizeof(cwd)))
		return -1;
	snprintf(f->seed, sizeof(f->seed), "%s/fixtures/seeds/004", cwd);
	f->level = log_get_level();
	log_set_level(LOG_QUIET);	/* the host warning */
	if (config_load(&f->cfg, SHIPPED, &f->err)) {
		fprintf(stderr, "%s\n", f->err.msg);
		return -1;
	}
	f->loaded = 1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	report_inputs_release(&f->in);
	if (f->have_m)
		manifest_release(&f->m);
	if (f->loaded)
		config_release(&f->cfg);
	log_set_level(f->level);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

/* A manifest of seed 004 with its roots 'base' and 'head' and 'extra'. */
static void manifest(struct fx *f, const char *base, const char *head,
		     const char *extra)
{
	struct strbuf sb = STRBUF_INIT;
	char path[256];

	assert_int_equal(sb_addf(&sb, "base: { commit: 262b2fa99cbe02a715ce2"
				 "3981c2c30685ccf3a93, subject: \"pipe: a\", "
				 "result_root: \"%s\" }\nhead: { commit: f017"
				 "b0a4951fac8f150232661b2cc0b67e0c57f0, "
				 "subject: \"pipe: b\", result_root: \"%s\" "
				 "}\n%s", base, head, extra ? extra : ""), 0);
	tu_path(path, sizeof(path), f->dir, "manifest.yaml");
	tu_write(path, sb_str(&sb), 0644);
	sb_release(&sb);
	if (f->have_m)
		manifest_release(&f->m);
	f->have_m = 0;
	if (manifest_load(&f->m, path, &f->err))
		fail_msg("%s", f->err.msg);
	f->have_m = 1;
}

static void seed_manifest(struct fx *f, const char *extra)
{
	char base[PATH_MAX + 64], head[PATH_MAX + 64];

	snprintf(base, sizeof(base), "%s/base", f->seed);
	snprintf(head, sizeof(head), "%s/head", f->seed);
	manifest(f, base, head, extra);
}

static void config(struct fx *f, const char *yaml)
{
	char path[256];

	tu_load_config(&f->cfg, &f->loaded, tu_path(path, sizeof(path), f->dir,
						    "perfbot.yaml"),
		       yaml, &f->err);
}

static int load(struct fx *f)
{
	report_inputs_release(&f->in);
	memset(&f->err, 0, sizeof(f->err));
	return report_inputs_load(&f->in, &f->m, &f->cfg, &f->err);
}

/* Loading fails with 'code' and a message holding 'what'. */
static void fails(struct fx *f, int code, const char *what)
{
	assert_int_equal(load(f), -1);
	assert_int_equal(f->err.code, code);
	if (!strstr(f->err.msg, what))
		fail_msg("'%s' does not say '%s'", f->err.msg, what);
	report_inputs_release(&f->in);
	/* and twice is harmless: release leaves nothing behind */
	memset(&f->in, 0, sizeof(f->in));
}

static void t_seed(void **state)
{
	struct fx *f = *state;

	seed_manifest(f, NULL);
	if (load(f))
		fail_msg("%s", f->err.msg);
	assert_string_equal(f->in.testcase, "hackbench");
	assert_string_equal(f->in.machine, ICL2);
	assert_string_equal(f->in.key_metric, "hackbench.throughput");
	assert_non_null(f->in.rules);
	assert_true(f->in.cmp.nrows > 0);
	assert_true(f->in.cmp.runs[0] > 0 && f->in.cmp.runs[1] > 0);
	assert_non_null(f->in.verdict.headline);
	assert_string_equal(f->in.verdict.headline->name,
			    "hackbench.throughput");
	assert_int_equal(f->in.verdict.regression, 0);
	assert_string_equal(f->in.job.tbox_group, "lkp-icl-2sp2");
	assert_non_null(report_inputs_testcase(&f->in, "description"));
	assert_non_null(strstr(report_inputs_testcase(&f->in, "url"),
			       "hackbench"));
	assert_null(report_inputs_testcase(&f->in, "no-such-field"));
}

/*
 * With a cache: the rules and testcases are loaded once and shared
 * (released with the cache, not with the inputs); runs[] keeps the first
 * runs of each side only.
 */
static void t_cache_and_runs(void **state)
{
	struct fx *f = *state;
	struct inputs_cache cache;
	struct inputs_opts o = { NULL, { 0, 0 }, NULL };
	struct report_inputs a, b;
	size_t all[2];

	seed_manifest(f, NULL);
	inputs_cache_init(&cache);
	o.cache = &cache;
	assert_int_equal(report_inputs_load_opts(&a, &f->m, &f->cfg, &o,
						 &f->err), 0);
	all[0] = a.root[0].runs;
	all[1] = a.root[1].runs;
	assert_true(all[0] > 2 && all[1] > 2);
	o.runs[0] = 2;
	o.runs[1] = all[1] + 5;		/* more than there are: all */
	assert_int_equal(report_inputs_load_opts(&b, &f->m, &f->cfg, &o,
						 &f->err), 0);
	assert_ptr_equal(a.rules, b.rules);
	assert_int_equal(cache.nrules, 1);
	assert_true(cache.have_testcases);
	assert_int_equal(b.root[0].runs, 2);
	assert_int_equal(b.root[1].runs, all[1]);
	assert_int_equal(b.cmp.runs[0], 2);
	assert_string_equal(b.testcase, "hackbench");
	report_inputs_release(&a);
	report_inputs_release(&b);
	assert_non_null(cache.rules[0].rules);	/* still the cache's */
	inputs_cache_release(&cache);
	inputs_cache_release(&cache);
	assert_int_equal(cache.nrules, 0);
}

/*
 * The testcase table's headline candidates: one that names no metric is
 * passed over (LKP's choice stands); a list is tried in order with the
 * job's parameters put in ('{ipc}' is 'pipe'; '{nosuch}' drops the
 * candidate); the manifest's 'headline' comes before the table's.
 */
static void t_testcase_table(void **state)
{
	struct fx *f = *state;

	tu_put(f->dir, "testcases.yaml", "hackbench:\n  headline: no.such."
	       "metric\n  description: mine\n", 0644);
	config(f, "data:\n  testcases: testcases.yaml\n");
	seed_manifest(f, NULL);
	assert_int_equal(load(f), 0);
	assert_string_equal(f->in.key_metric, "hackbench.throughput");
	assert_string_equal(f->in.verdict.headline->name,
			    "hackbench.throughput");
	assert_string_equal(report_inputs_testcase(&f->in, "description"),
			    "mine");
	tu_put(f->dir, "testcases.yaml", "hackbench:\n  headline: ['hack"
	       "bench.{nosuch}', 'hackbench.{ipc}', 'hackbench.throughput_"
	       "(avg|{ipc})', 'hackbench.throughput']\n", 0644);
	config(f, "data:\n  testcases: testcases.yaml\n");
	assert_int_equal(load(f), 0);
	assert_int_equal(f->in.ncands, 3);
	assert_string_equal(f->in.cands[1], "^(hackbench.throughput_(avg|"
			    "pipe))$");
	assert_string_equal(f->in.verdict.headline->name,
			    "hackbench.throughput_avg");
	/* the manifest's own headline first */
	seed_manifest(f, "headline: hackbench.throughput_best\n");
	assert_int_equal(load(f), 0);
	assert_string_equal(f->in.verdict.headline->name,
			    "hackbench.throughput_best");
	/* a testcase the table does not know: LKP's choice */
	tu_put(f->dir, "testcases.yaml", "other: { headline: x }\n", 0644);
	config(f, "data:\n  testcases: testcases.yaml\n");
	seed_manifest(f, NULL);
	assert_int_equal(load(f), 0);
	assert_string_equal(f->in.key_metric, "hackbench.throughput");
	assert_null(report_inputs_testcase(&f->in, "description"));
	/* a candidate that is no regular expression */
	tu_put(f->dir, "testcases.yaml", "hackbench: { headline: 'a(' }\n",
	       0644);
	config(f, "data:\n  testcases: testcases.yaml\n");
	fails(f, EX_CONFIG, "headline 'a(' is no valid regular expression");
}

/* No host file: the tbox_group stands for the machine. */
static void t_host_missing(void **state)
{
	struct fx *f = *state;

	config(f, "data:\n  hosts: .\n");
	seed_manifest(f, NULL);
	assert_int_equal(load(f), 0);
	assert_string_equal(f->in.machine, "lkp-icl-2sp2");
}

static void t_rules_missing(void **state)
{
	struct fx *f = *state;

	seed_manifest(f, "metrics: no-such-metrics.yaml\n");
	fails(f, EX_NOINPUT, "no-such-metrics.yaml");
	config(f, "data:\n  metrics: /nonexistent/metrics.yaml\n");
	seed_manifest(f, NULL);
	fails(f, EX_NOINPUT, "/nonexistent/metrics.yaml");
}

static void t_root_missing(void **state)
{
	struct fx *f = *state;
	char head[PATH_MAX + 64];

	snprintf(head, sizeof(head), "%s/head", f->seed);
	manifest(f, "/nonexistent/base", head, NULL);
	fails(f, EX_NOINPUT, "/nonexistent/base");
	manifest(f, head, "/nonexistent/head", NULL);
	fails(f, EX_NOINPUT, "/nonexistent/head");
}

/* A head with results but no job.yaml: no job to describe. */
static void t_job_missing(void **state)
{
	struct fx *f = *state;
	char base[PATH_MAX + 64], path[256];
	struct strbuf m;

	snprintf(base, sizeof(base), "%s/base", f->seed);
	assert_int_equal(mkdir(tu_path(path, sizeof(path), f->dir, "head"),
			       0700), 0);
	tu_read_text("fixtures/seeds/004/head/matrix.json", &m);
	tu_put(f->dir, "head/matrix.json", sb_str(&m), 0644);
	sb_release(&m);
	manifest(f, base, path, NULL);
	assert_int_equal(load(f), -1);
	assert_int_not_equal(f->err.code, 0);
	assert_non_null(strstr(f->err.msg, "job.yaml"));
	report_inputs_release(&f->in);
	memset(&f->in, 0, sizeof(f->in));
}

static void t_testcases_bad(void **state)
{
	struct fx *f = *state;

	tu_put(f->dir, "testcases.yaml", "- hackbench\n- other\n", 0644);
	config(f, "data:\n  testcases: testcases.yaml\n");
	seed_manifest(f, NULL);
	fails(f, EX_CONFIG, "testcases.yaml: not a mapping");
	config(f, "data:\n  testcases: gone.yaml\n");
	fails(f, EX_NOINPUT, "gone.yaml");
	tu_put(f->dir, "testcases.yaml", "hackbench: [\n", 0644);
	config(f, "data:\n  testcases: testcases.yaml\n");
	assert_int_equal(load(f), -1);
	assert_non_null(strstr(f->err.msg, "testcases.yaml"));
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(t_seed),
		T(t_cache_and_runs),
		T(t_testcase_table),
		T(t_host_missing),
		T(t_rules_missing),
		T(t_root_missing),
		T(t_job_missing),
		T(t_testcases_bad),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
