// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/ingest/job.c: what a job.yaml says about the test
 * (identity, parameters in file order, nested mappings flattened, lists
 * ignored) and LKP's axes line, whose keys sort as "key=value" strings.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/ingest/job.h"
#include "perfbot/util/strbuf.h"

/*
 * The job of fixtures/seeds/000 (fsmark on lkp-icl-2sp6), laid out as LKP
 * writes job.yaml: testcase options nested under the testcase's name,
 * lists and the commit beside the parameters.
 */
static const char seed000_job[] =
	"testcase: fsmark\n"
	"iterations: 1x\n"
	"nr_threads: 1t\n"
	"disk: 1HDD\n"
	"fs: btrfs\n"
	"fs2: nfsv4\n"
	"fsmark:\n"
	"  filesize: 4K\n"
	"  test_size: 40M\n"
	"  sync_method: fsyncBeforeClose\n"
	"  nr_files_per_directory: 1fpd\n"
	"cpufreq_governor: performance\n"
	"ucode: '0xd000331'\n"
	"tbox_group: lkp-icl-2sp6\n"
	"mount_points:\n"
	"  - /fs/sda1\n"
	"kconfig: x86_64-rhel-8.3\n"
	"commit: 70bed0d5447e08702c7595d26c88ca37e8eb88b4\n"
	"subject: 'block: add a bdev_write_cache helper'\n"
	"rootfs: debian-10.4-x86_64-20200603.cgz\n"
	"compiler: gcc-11\n";

struct fx {
	struct result_root rr;
	struct job_info ji;
	struct pb_err err;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	job_info_release(&f->ji);
	result_root_release(&f->rr);
	free(f);
	return 0;
}

/* A result root whose job.yaml is 'text' (no matrix needed here). */
static void load_job(struct fx *f, const char *text)
{
	if (yaml_load_str("job.yaml", text, strlen(text), &f->rr.job, &f->err))
		fail_msg("bad test YAML: %s", f->err.msg);
	if (job_info_init(&f->ji, &f->rr, &f->err))
		fail_msg("job_info_init: %s", f->err.msg);
}

static void assert_param(const struct job_info *ji, size_t i,
			 const char *key, const char *value)
{
	assert_true(i < ji->nparams);
	assert_string_equal(ji->params[i].key, key);
	assert_string_equal(ji->params[i].value, value);
}

static void t_identity(void **state)
{
	struct fx *f = *state;

	load_job(f, seed000_job);
	assert_string_equal(f->ji.testcase, "fsmark");
	assert_string_equal(f->ji.tbox_group, "lkp-icl-2sp6");
	assert_string_equal(f->ji.rootfs, "debian-10.4-x86_64-20200603.cgz");
	assert_string_equal(f->ji.kconfig, "x86_64-rhel-8.3");
	assert_string_equal(f->ji.compiler, "gcc-11");
}

static void t_params_in_file_order(void **state)
{
	struct fx *f = *state;

	load_job(f, seed000_job);
	/* The order of the "with following parameters:" block of seed 000. */
	assert_int_equal(f->ji.nparams, 11);
	assert_param(&f->ji, 0, "iterations", "1x");
	assert_param(&f->ji, 1, "nr_threads", "1t");
	assert_param(&f->ji, 2, "disk", "1HDD");
	assert_param(&f->ji, 3, "fs", "btrfs");
	assert_param(&f->ji, 4, "fs2", "nfsv4");
	assert_param(&f->ji, 5, "filesize", "4K");
	assert_param(&f->ji, 6, "test_size", "40M");
	assert_param(&f->ji, 7, "sync_method", "fsyncBeforeClose");
	assert_param(&f->ji, 8, "nr_files_per_directory", "1fpd");
	assert_param(&f->ji, 9, "cpufreq_governor", "performance");
	assert_param(&f->ji, 10, "ucode", "0xd000331");
}

static void t_identity_keys_excluded(void **state)
{
	static const char *const identity[] = {
		"testcase", "tbox_group", "rootfs", "kconfig", "compiler",
		"commit", "subject",
	};
	struct fx *f = *state;
	size_t i, j;

	load_job(f, seed000_job);
	for (i = 0; i < f->ji.nparams; i++)
		for (j = 0; j < sizeof(identity) / sizeof(identity[0]); j++)
			if (!strcmp(f->ji.params[i].key, identity[j]))
				fail_msg("'%s' is a parameter", identity[j]);
	/* Neither commit nor subject reaches the axes. */
	assert_null(strstr(f->ji.axes_keys, "commit"));
	assert_null(strstr(f->ji.axes_keys, "subject"));
	assert_null(strstr(f->ji.axes_values, "70bed0d5"));
}

static void t_lists_and_nulls_ignored(void **state)
{
	struct fx *f = *state;

	load_job(f, "testcase: t\ntbox_group: g\nlist: [a, b]\nblock:\n"
		 "  - c\nempty:\nopt:\n  inner_list: [x]\n  deeper:\n"
		 "    k: v\n  kept: yes\n  nothing:\nlast: 1\n");
	assert_int_equal(f->ji.nparams, 2);
	assert_param(&f->ji, 0, "kept", "yes");
	assert_param(&f->ji, 1, "last", "1");
	assert_string_equal(f->ji.axes_keys, "kept/last/tbox_group/testcase");
	assert_string_equal(f->ji.axes_values, "yes/1/g/t");
}

static void t_nested_mapping_flattened(void **state)
{
	struct fx *f = *state;

	load_job(f, "testcase: hackbench\ntbox_group: lkp-hsw-ep6\n"
		 "nr_threads: 800%\nhackbench:\n  mode: process\n"
		 "  ipc: pipe\nsecond:\n  z: 1\n");
	assert_int_equal(f->ji.nparams, 4);
	assert_param(&f->ji, 0, "nr_threads", "800%");
	assert_param(&f->ji, 1, "mode", "process");
	assert_param(&f->ji, 2, "ipc", "pipe");
	assert_param(&f->ji, 3, "z", "1");
}

static void t_axes_seed000(void **state)
{
	struct fx *f = *state;

	load_job(f, seed000_job);
	assert_string_equal(f->ji.axes_keys,
			    "compiler/cpufreq_governor/disk/filesize/fs2/fs/"
			    "iterations/kconfig/nr_files_per_directory/"
			    "nr_threads/rootfs/sync_method/tbox_group/"
			    "test_size/testcase/ucode");
	assert_string_equal(f->ji.axes_values,
			    "gcc-11/performance/1HDD/4K/nfsv4/btrfs/1x/"
			    "x86_64-rhel-8.3/1fpd/1t/"
			    "debian-10.4-x86_64-20200603.cgz/fsyncBeforeClose/"
			    "lkp-icl-2sp6/40M/fsmark/0xd000331");
}

static void t_axes_sort_as_key_equals(void **state)
{
	struct fx *f = *state;

	/*
	 * "key=" ordering: '=' (0x3d) sorts after '-', '.', digits and
	 * before letters and '_', so "fs2" < "fs", "x-y" < "x",
	 * "a" < "a_b" < "ab", "test_size" < "testcase".
	 */
	load_job(f, "testcase: t\ntbox_group: g\nfs: 1\nfs2: 2\nab: 3\n"
		 "a_b: 4\na: 5\nx: 6\nx-y: 7\nx.y: 8\ntest_size: 9\n"
		 "x9: 10\nB: 11\n");
	assert_string_equal(f->ji.axes_keys,
			    "B/a/a_b/ab/fs2/fs/tbox_group/test_size/testcase/"
			    "x-y/x.y/x9/x");
	assert_string_equal(f->ji.axes_values,
			    "11/5/4/3/2/1/g/9/t/7/8/10/6");
}

static void t_axes_absent_identity(void **state)
{
	struct fx *f = *state;

	load_job(f, "testcase: stream\ntbox_group: lkp-ivb-ep01\n"
		 "array_size: 50000000\n");
	assert_string_equal(f->ji.rootfs, "");
	assert_string_equal(f->ji.kconfig, "");
	assert_string_equal(f->ji.compiler, "");
	assert_string_equal(f->ji.axes_keys, "array_size/tbox_group/testcase");
	assert_string_equal(f->ji.axes_values, "50000000/lkp-ivb-ep01/stream");
}

static void t_axes_empty_value_kept(void **state)
{
	struct fx *f = *state;

	/* A parameter quoted empty is still a parameter. */
	load_job(f, "testcase: t\ntbox_group: g\nopt: ''\n");
	assert_int_equal(f->ji.nparams, 1);
	assert_param(&f->ji, 0, "opt", "");
	assert_string_equal(f->ji.axes_keys, "opt/tbox_group/testcase");
	assert_string_equal(f->ji.axes_values, "/g/t");
}

static void t_too_many_params(void **state)
{
	struct fx *f = *state;
	struct strbuf sb = STRBUF_INIT;
	int i;

	assert_int_equal(sb_adds(&sb, "testcase: t\ntbox_group: g\n"), 0);
	for (i = 0; i < 300; i++)
		assert_int_equal(sb_addf(&sb, "p%d: %d\n", i, i), 0);
	assert_int_equal(yaml_load_str("job.yaml", sb.buf, sb.len, &f->rr.job,
				       &f->err), 0);
	sb_release(&sb);
	assert_int_equal(job_info_init(&f->ji, &f->rr, &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_string_equal(f->err.msg, "job.yaml: more than 256 parameters");
	assert_null(f->ji.params);
	assert_null(f->ji.axes_keys);
}

static void t_many_params_at_limit(void **state)
{
	struct fx *f = *state;
	struct strbuf sb = STRBUF_INIT;
	int i;

	assert_int_equal(sb_adds(&sb, "testcase: t\ntbox_group: g\n"), 0);
	for (i = 0; i < 256; i++)
		assert_int_equal(sb_addf(&sb, "p%03d: %d\n", i, i), 0);
	load_job(f, sb_str(&sb));
	sb_release(&sb);
	assert_int_equal(f->ji.nparams, 256);
	assert_param(&f->ji, 255, "p255", "255");
	assert_memory_equal(f->ji.axes_keys, "p000/p001/", 10);
}

static void t_release_twice(void **state)
{
	struct fx *f = *state;

	load_job(f, seed000_job);
	job_info_release(&f->ji);
	assert_null(f->ji.params);
	assert_null(f->ji.axes_keys);
	assert_null(f->ji.axes_values);
	assert_int_equal(f->ji.nparams, 0);
	job_info_release(&f->ji);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(t_identity),
		T(t_params_in_file_order),
		T(t_identity_keys_excluded),
		T(t_lists_and_nulls_ignored),
		T(t_nested_mapping_flattened),
		T(t_axes_seed000),
		T(t_axes_sort_as_key_equals),
		T(t_axes_absent_identity),
		T(t_axes_empty_value_kept),
		T(t_too_many_params),
		T(t_many_params_at_limit),
		T(t_release_twice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
