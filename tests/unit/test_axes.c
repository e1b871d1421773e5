// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/compare/axes.c: a job's axes as lkp-tests'
 * Job#axes takes them (lib/job.rb at bbbc29c49): the fixed axes and
 * LKP's defaults, the keys the job's programs read (not a monitor's, not
 * a mapping, null or false), plain scalars as Ruby's YAML reads them
 * (every expected string below is what ruby 3.1 printed, and every axes
 * set what Job#axes of lkp-tests bbbc29c49 gave for the same job), and
 * the robot's order of the keys.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/compare/axes.h"
#include "perfbot/compare/rules.h"
#include "perfbot/util/fileio.h"

struct fx {
	struct rules *rules;
	struct ydoc doc;
	struct job_axes ax;
	struct pb_err err;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f || rules_load(&f->rules, "config/metrics.yaml", &f->err))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	job_axes_release(&f->ax);
	ydoc_release(&f->doc);
	rules_free(f->rules);
	free(f);
	return 0;
}

static void axes_of(struct fx *f, const char *yaml)
{
	job_axes_release(&f->ax);
	ydoc_release(&f->doc);
	if (yaml_load_str("job.yaml", yaml, strlen(yaml), &f->doc, &f->err))
		fail_msg("yaml: %s", f->err.msg);
	if (job_axes_of(&f->ax, &f->doc, f->rules, &f->err))
		fail_msg("axes: %s", f->err.msg);
}

/* Ruby's YAML: 'k: TEXT' and then to_s. */
static void ruby(const char *text, const char *want, int truthy)
{
	struct strbuf yaml = STRBUF_INIT, got = STRBUF_INIT;
	struct pb_err err = { 0, "" };
	struct ydoc d;
	int t = -1;

	assert_int_equal(sb_addf(&yaml, "k: %s\n", text), 0);
	assert_int_equal(yaml_load_str("t", yaml.buf, yaml.len, &d, &err), 0);
	assert_int_equal(axes_ruby_scalar(ymap_get(d.root, "k"), &got, &t), 0);
	if (strcmp(sb_str(&got), want) || t != truthy)
		fail_msg("'%s': got '%s' (%d), want '%s' (%d)", text,
			 sb_str(&got), t, want, truthy);
	ydoc_release(&d);
	sb_release(&yaml);
	sb_release(&got);
}

static void t_ruby_scalars(void **state)
{
	(void)state;
	ruby("4", "4", 1);
	ruby("0x1f", "31", 1);
	ruby("017", "15", 1);
	ruby("0b11", "3", 1);
	ruby("1,000", "1000", 1);
	ruby("1_000", "1000", 1);
	ruby("1.5", "1.5", 1);
	ruby("1.", "1.0", 1);
	ruby(".5", "0.5", 1);
	ruby("1e3", "1e3", 1);
	ruby("1.0e+3", "1000.0", 1);
	ruby("100000000000000000.0", "1.0e+17", 1);
	ruby("0.0001", "0.0001", 1);
	ruby("0.00001", "1.0e-05", 1);
	ruby("1.23456789012345678", "1.2345678901234567", 1);
	ruby("12345678901234567.0", "1.2345678901234568e+16", 1);
	ruby("3.0", "3.0", 1);
	ruby("yes", "true", 1);
	ruby("ON", "true", 1);
	ruby("No", "false", 0);
	ruby("off", "false", 0);
	ruby("y", "y", 1);
	ruby("08", "08", 1);
	ruby("-0", "0", 1);
	ruby("+5", "5", 1);
	ruby("~", "", 0);
	ruby("'0x1f'", "0x1f", 1);
	ruby("\"off\"", "off", 1);
	ruby("800%", "800%", 1);
}

/* A job as LKP writes one: every other scalar is no axis. */
static void t_program_options(void **state)
{
	struct fx *f = *state;

	axes_of(f, "suite: hackbench\ntestcase: hackbench\n"
		"category: benchmark\nhackbench:\n  nr_threads: 800%\n"
		"  iterations: 4\n  mode: threads\n  ipc: pipe\n"
		"job_origin: hackbench.yaml\nkmsg:\n"
		"perf-profile:\n  debug_mode: 0\n  mode: x\n"
		"cpufreq_governor: performance\nsanity-check:\n"
		"queue: ktest-cyclic\ntestbox: lkp-icl-2sp2-3\n"
		"tbox_group: lkp-icl-2sp2\nid: 1234\nLKP_SERVER: 10.0.0.1\n"
		"ucode: '0xd0003a5'\nrootfs: debian-12-x86_64-20240206.cgz\n"
		"kconfig: x86_64-rhel-9.4\ncompiler: gcc-12\n"
		"commit: f017b0a4951fac8f150232661b2cc0b67e0c57f0\n"
		"kernel: /pkg/linux/vmlinuz\nresult_root: /result/x/1\n"
		"enqueue_time: 2025-01-21 10:26:42.051144426 +08:00\n");
	assert_string_equal(f->ax.keys, "compiler/cpufreq_governor/ipc/"
			    "iterations/kconfig/mode/nr_threads/rootfs/"
			    "tbox_group/testcase");
	assert_string_equal(f->ax.values, "gcc-12/performance/pipe/4/"
			    "x86_64-rhel-9.4/threads/800%/"
			    "debian-12-x86_64-20240206.cgz/lkp-icl-2sp2/"
			    "hackbench");
	/* the parameters in the job's order; a monitor's 'mode' is none */
	assert_int_equal(f->ax.nparams, 5);
	assert_string_equal(f->ax.params[0].key, "nr_threads");
	assert_string_equal(f->ax.params[2].key, "mode");
	assert_string_equal(f->ax.params[2].value, "threads");
	assert_string_equal(f->ax.params[4].key, "cpufreq_governor");
}

/* LKP's defaults, rootfs cut to its file, false and null left out. */
static void t_defaults(void **state)
{
	struct fx *f = *state;

	axes_of(f, "testcase: fsmark\ntbox_group: t\nfsmark:\n"
		"  nr_threads: 1t\ndisk: 1HDD\nfs: off\nfs2:\n"
		"rootfs: /osimage/debian/deb.cgz\n");
	assert_string_equal(f->ax.keys, "compiler/disk/nr_threads/rootfs/"
			    "tbox_group/testcase");
	assert_string_equal(f->ax.values, "gcc-7/1HDD/1t/deb.cgz/t/fsmark");
	/* a later false value leaves the earlier one as it was (Ruby) */
	axes_of(f, "testcase: fsmark\nfsmark:\n  fs: btrfs\nfs: off\n");
	assert_string_equal(f->ax.keys, "compiler/fs/rootfs/testcase");
	axes_of(f, "testcase: hwinfo\ntbox_group: t\n");
	assert_string_equal(f->ax.keys, "tbox_group/testcase");
	axes_of(f, "testcase: x\n");
	assert_string_equal(f->ax.keys, "compiler/rootfs/testcase");
	assert_string_equal(f->ax.values, "gcc-7/debian-x86_64.cgz/x");
}

/* "fs2" before "fs": keys compared as if followed by '='. */
static void t_robot_order(void **state)
{
	struct fx *f = *state;

	axes_of(f, "testcase: fsmark\nfs2: nfsv4\nfs: btrfs\ncompiler: c\n"
		"rootfs: r\n");
	assert_string_equal(f->ax.keys, "compiler/fs2/fs/rootfs/testcase");
	assert_string_equal(f->ax.values, "c/nfsv4/btrfs/r/fsmark");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_ruby_scalars),
		cmocka_unit_test_setup_teardown(t_program_options, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_defaults, setup, teardown),
		cmocka_unit_test_setup_teardown(t_robot_order, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
