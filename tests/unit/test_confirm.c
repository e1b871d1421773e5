// SPDX-License-Identifier: GPL-2.0-only
/*
 * The confirm: section: off by default, 'confirm: {enabled: true}' with
 * its defaults, the keys read, a bad on_deadline refused at load, unknown keys
 * refused by the config schema; and which reports are held.
 */
#include "testutil.h"

#include "perfbot/cycle/report.h"
#include "perfbot/cycle/confirm.h"

struct fx {
	char dir[PATH_MAX];
	char path[PATH_MAX];
	struct config cfg;
	int loaded;
	struct pb_err err;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f || !tu_tmpdir(f->dir, sizeof(f->dir), "pb-confirm"))
		return -1;
	tu_path(f->path, sizeof(f->path), f->dir, "perfbot.yaml");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	if (f->loaded)
		config_release(&f->cfg);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

static void t_defaults(void **state)
{
	struct fx *f = *state;
	struct confirm_config cc;

	tu_load_config(&f->cfg, &f->loaded, f->path, "state: x.db\n", &f->err);
	assert_int_equal(confirm_config_load(&f->cfg, &cc, &f->err), 0);
	assert_false(cc.policy.enabled);
	tu_load_config(&f->cfg, &f->loaded, f->path,
		       "confirm: {enabled: true}\n", &f->err);
	assert_int_equal(confirm_config_load(&f->cfg, &cc, &f->err), 0);
	assert_true(cc.policy.enabled && cc.mail_on_deadline);
	assert_int_equal(cc.policy.total_runs, 16);
	assert_int_equal(cc.policy.min_runs, 8);
	assert_int_equal(cc.deadline, 24 * 3600);
}

static void t_keys(void **state)
{
	struct fx *f = *state;
	struct confirm_config cc;

	tu_load_config(&f->cfg, &f->loaded, f->path,
		       "confirm:\n  enabled: true\n  total_runs: 12\n"
		       "  min_runs: 5\n  deadline: 3600\n  on_deadline: drop\n",
		       &f->err);
	assert_int_equal(confirm_config_load(&f->cfg, &cc, &f->err), 0);
	assert_true(cc.policy.total_runs == 12 && cc.policy.min_runs == 5 &&
		    cc.deadline == 3600 && !cc.mail_on_deadline);
	config_release(&f->cfg);
	f->loaded = 0;
	/* a word that is neither is refused when the file loads */
	tu_write(f->path, "confirm: {enabled: true, on_deadline: later}\n",
		 0600);
	assert_int_equal(config_load(&f->cfg, f->path, &f->err), -1);
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_non_null(strstr(f->err.msg, "'confirm.on_deadline': 'later' "
			       "is not one of mail, drop"));
	tu_write(f->path, "confirm: {enabled: true, runs: 3}\n", 0600);
	assert_int_equal(config_load(&f->cfg, f->path, &f->err), -1);
	assert_non_null(strstr(f->err.msg, "confirm.runs"));
}

static void t_wanted(void **state)
{
	struct confirm_config cc = { { 1, 16, 8 }, 3600, 1 };
	const double b[] = { 1000, 1010, 990 }, h[] = { 1100, 1110, 1090 };
	struct report r;

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_false(confirm_wanted(&cc, &r));	/* nothing to report */
	r.metric = "hackbench.throughput";
	r.worth = 1;
	stats_evidence(b, 3, h, 3, &r.evidence);
	assert_true(confirm_wanted(&cc, &r));	/* 3 runs: weak */
	cc.policy.enabled = 0;
	assert_false(confirm_wanted(&cc, &r));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_defaults, setup, teardown),
		cmocka_unit_test_setup_teardown(t_keys, setup, teardown),
		cmocka_unit_test(t_wanted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
