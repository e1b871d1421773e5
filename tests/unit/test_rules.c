// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the metric rule tables (src/compare/rules.c): the shipped
 * config/metrics.yaml, whole-name matching, thresholds and fallbacks, the
 * 'format' mapping and every error a rules file can hold, each naming the
 * file and the line. Tests run from the repository root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfbot/util/fileio.h"
#include "perfbot/compare/rules.h"

#include "testutil.h"

#define METRICS "config/metrics.yaml"

/* A temporary directory holding one rules file, removed in teardown. */
struct fixture {
	char dir[64];
	char *path;		/* dir/rules.yaml */
	struct rules *r;	/* loaded by the test, freed in teardown */
};

static int setup(void **state)
{
	struct fixture *f = TU_NEW_FX(struct fixture, "test_rules");

	if (!f)
		return -1;
	f->path = path_join(f->dir, "rules.yaml");
	if (!f->path) {
		tu_rmtree(f->dir);
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	rules_free(f->r);
	tu_rmtree(f->dir);
	free(f->path);
	free(f);
	return 0;
}

/* Load 'text' as a rules file; the test fails when it does not load. */
static const struct rules *load_text(struct fixture *f, const char *text)
{
	tu_load_rules(&f->r, f->path, text);
	return f->r;
}

static const struct rules *load_shipped(struct fixture *f)
{
	struct pb_err err = { 0, "" };

	if (rules_load(&f->r, METRICS, &err))
		fail_msg("rules_load %s: %s", METRICS, err.msg);
	return f->r;
}

/*
 * 'text' must fail to load with EX_CONFIG and exactly the message
 * "<path>:<line>: <want>".
 */
static void check_error(struct fixture *f, const char *text, int line,
			const char *want)
{
	struct pb_err err = { 0, "" };
	char expect[PB_ERR_MAX];
	struct rules *r = NULL;

	tu_write(f->path, text, 0600);
	assert_int_equal(rules_load(&r, f->path, &err), -1);
	assert_null(r);
	snprintf(expect, sizeof(expect), "%s:%d: %s", f->path, line, want);
	assert_string_equal(err.msg, expect);
	assert_int_equal(err.code, EX_CONFIG);
}

/* ---- the shipped tables (lkp-tests bbbc29c49) ---- */

static void t_shipped_loads(void **state)
{
	const struct rules *r = load_shipped(*state);

	assert_non_null(r);
	assert_int_equal(rules_perf_profile(r), 5);
}

/* etc/failure and etc/pass, matched as /^PATTERN/. */
static void t_shipped_failure(void **state)
{
	const struct rules *r = load_shipped(*state);

	assert_true(rules_is_failure(r, "dmesg.WARNING:at_foo"));
	assert_true(rules_is_failure(r, "kmsg.xfs_error"));
	assert_true(rules_is_failure(r, "last_state.is_incomplete_run"));
	assert_true(rules_is_failure(r, "stderr.has_stderr"));
	assert_true(rules_is_failure(r, "ltp.syscalls.fail"));
	assert_true(rules_is_failure(r, "xfstests.generic.001.error"));
	assert_true(rules_is_failure(r, "kernel-selftests.x.warn"));
	/* .+\.(error|warn|fail)[^_]*$: more after the word, but no '_' */
	assert_true(rules_is_failure(r, "ltp.syscalls.failures"));
	assert_false(rules_is_failure(r, "ltp.syscalls.fail_count"));
	assert_true(rules_is_failure(r, "ltp.case_0.pass"));
	assert_true(rules_is_failure(r, "foo.killed_by_signal"));
	assert_false(rules_is_failure(r, "hackbench.throughput"));
	/* anchored at the start only: 'dmesg.*' also matches 'dmesg' */
	assert_false(rules_is_failure(r, "xdmesg.foo"));
	assert_true(rules_is_failure(r, "dmesg"));
	/* .time., .timestamp: and .bootstage: are never failures */
	assert_false(rules_is_failure(r, "dmesg.timestamp:last"));
	assert_false(rules_is_failure(r, "kmsg.bootstage:x"));
	assert_false(rules_is_failure(r, "ltp.time.fail"));
}

/* etc/stat-denylist hides, etc/stat-allowlist and report-allowlist show. */
static void t_shipped_reportable(void **state)
{
	const struct rules *r = load_shipped(*state);

	assert_false(rules_is_reportable(r, "interrupts.CPU0.LOC"));
	assert_false(rules_is_reportable(r, "softirqs.CPU0.RCU"));
	assert_false(rules_is_reportable(r, "slabinfo.kmalloc-64.num_objs"));
	assert_false(rules_is_reportable(r, "buddyinfo.Node.0.zone.DMA.1"));
	assert_false(rules_is_reportable(r, "pagetypeinfo.x"));
	assert_false(rules_is_reportable(r, "diskstats.sda.reads"));
	assert_false(rules_is_reportable(r, "zoneinfo.x"));
	assert_false(rules_is_reportable(r, "aim7.jti"));
	assert_false(rules_is_reportable(r, "dmesg.boot_failures"));
	/* anywhere in the name */
	assert_false(rules_is_reportable(r, "dmesg.x_Modules_linked_in"));
	/* the Ruby spelling '{#:#}': a literal brace */
	assert_false(rules_is_reportable(r, "kmsg.foo{#:#}bar"));
	/* deny-listed but report-allow-listed */
	assert_true(rules_is_reportable(r, "perf-profile.self.cycles-pp.x"));
	assert_true(rules_is_reportable(r, "perf-stat.i.cycles"));
	assert_true(rules_is_reportable(r, "proc-vmstat.pgfault"));
	assert_true(rules_is_reportable(r, "meminfo.Active"));
	assert_true(rules_is_reportable(r, "lock_stat.x.contentions"));
	assert_true(rules_is_reportable(r, "iostat.sda.util"));
	assert_true(rules_is_reportable(r, "time.elapsed_time"));
	/* allow-listed */
	assert_true(rules_is_reportable(r, "stress-ng.foo.fail"));
	/* neither */
	assert_true(rules_is_reportable(r, "hackbench.throughput"));
}

/*
 * Perf metrics: etc/perf-metrics-prefixes, the benchmark programs of
 * lkp-tests, etc/perf-metrics-patterns.
 */
static void t_shipped_perf(void **state)
{
	const struct rules *r = load_shipped(*state);

	assert_true(rules_is_perf(r, "perf-stat.i.cycles"));
	assert_true(rules_is_perf(r, "vmstat.cpu.us"));
	assert_true(rules_is_perf(r, "vmstat.system.in"));
	assert_true(rules_is_perf(r, "proc-vmstat.pgfault"));
	assert_true(rules_is_perf(r, "iostat.sda.util"));
	assert_true(rules_is_perf(r, "turbostat.Bzy_MHz"));
	assert_false(rules_is_perf(r, "turbostat.Avg_MHz"));
	assert_false(rules_is_perf(r, "mpstat.cpu.all.soft%"));
	assert_false(rules_is_perf(r, "meminfo.Active"));
	assert_false(rules_is_perf(r, "xperf-stat.i.cycles"));
	/* programs */
	assert_true(rules_is_perf(r, "hackbench.throughput"));
	assert_true(rules_is_perf(r, "will-it-scale.per_thread_ops"));
	assert_true(rules_is_perf(r, "fio.write_bw_MBps"));
	assert_false(rules_is_perf(r, "hackbenchx.throughput"));
	assert_false(rules_is_perf(r, "hackbench"));
	/* functional tests are no benchmarks */
	assert_false(rules_is_perf(r, "ltp.foo"));
	/* ^(.*\.)?time..* and ^lock_stat..*..contentions */
	assert_true(rules_is_perf(r, "time.elapsed_time"));
	assert_true(rules_is_perf(r, "boot-time.dhcp"));
	assert_true(rules_is_perf(r, "foo.time.user_time"));
	assert_false(rules_is_perf(r, "uptime.idle"));
	assert_true(rules_is_perf(r, "lock_stat.&rq->lock.contentions"));
	assert_false(rules_is_perf(r, "lock_stat.x.holdtime-total"));
}

/* lib/compare.rb's /^perf-profile/ and /%$/. */
static void t_shipped_absolute(void **state)
{
	const struct rules *r = load_shipped(*state);

	assert_true(rules_is_absolute(r, "perf-profile.calltrace.cycles-pp.x"));
	assert_true(rules_is_absolute(r, "perf-profile.self.cycles-pp.bar"));
	assert_true(rules_is_absolute(r, "mpstat.cpu.all.soft%"));
	assert_true(rules_is_absolute(r, "fio.latency_100us%"));
	assert_false(rules_is_absolute(r, "hackbench.throughput"));
	assert_false(rules_is_absolute(r, "fio.write_clat_90%_us"));
}

static void t_shipped_families(void **state)
{
	const struct rules *r = load_shipped(*state);

	assert_int_equal(rules_family(r, FAM_INCOMPLETE_RUN, "dmesg.x"), 5);
	assert_int_equal(rules_family(r, FAM_INCOMPLETE_RUN, "kmsg.x"), 0);
	assert_int_equal(rules_family(r, FAM_UNPAIRED, "kmsg.x"), 4);
	assert_int_equal(rules_family(r, FAM_UNPAIRED, "ltp.x.fail"), 0);
	assert_int_equal(rules_family(r, FAM_MONITORED, "lock_stat.a.b"), 9);
	assert_int_equal(rules_family(r, FAM_MONITORED,
				      "perf-profile.self.x"), 12);
	assert_int_equal(rules_family(r, FAM_MONITORED, "perf-profilex"), 0);
}

static void t_shipped_direction(void **state)
{
	const struct rules *r = load_shipped(*state);

	assert_int_equal(rules_direction(r, "hackbench.throughput"), 1);
	assert_int_equal(rules_direction(r, "fsmark.files_per_sec"), 1);
	assert_int_equal(rules_direction(r, "aim7.jobs-per-min"), 1);
	assert_int_equal(rules_direction(r, "stress-ng.chown.ops_per_sec"), 1);
	assert_int_equal(rules_direction(r, "fio.write_bw_MBps"), 1);
	assert_int_equal(rules_direction(r, "fio.write_iops"), 1);
	assert_int_equal(rules_direction(r, "fio.write_clat_mean_us"), -1);
	assert_int_equal(rules_direction(r, "aim7.time.elapsed_time"), -1);
	assert_int_equal(rules_direction(r, "will-it-scale.latency"), -1);
	/* index-perf-all.yaml names it, perfbot's own list does not */
	assert_int_equal(rules_direction(r, "vm-scalability.median"), 1);
	assert_int_equal(rules_direction(r, "fsmark.app_overhead"), -1);
	assert_int_equal(rules_direction(r, "lmbench3.TCP.latency"), -1);
	assert_int_equal(rules_direction(r, "vm-scalability.free_time"), 0);
	assert_int_equal(rules_direction(r, "meminfo.Active"), 0);
}

/* LKP's KPI index (etc/index-*.yaml) and kpi_stat?. */
static void t_shipped_kpi(void **state)
{
	const struct rules *r = load_shipped(*state);
	struct kpi_rank k;

	rules_kpi_rank(r, "fio.write_iops", &k);
	assert_true(k.indexed && k.primary && !k.latency);
	assert_int_equal(k.weight, 1);
	assert_int_equal(k.pos, 8);	/* index-perf.yaml's 9th entry */
	rules_kpi_rank(r, "stress-ng.metamix.ops_per_sec", &k);
	assert_true(k.indexed && !k.primary && k.weight == 1);
	rules_kpi_rank(r, "nepim.x.kbps_in", &k);
	assert_int_equal(k.weight, 0);	/* 0.5, and LKP's to_i */
	assert_int_equal(k.direction, 1);
	rules_kpi_rank(r, "sysbench-fileio.latency_max_ms", &k);
	assert_true(k.indexed && k.latency && k.direction == -1);
	assert_int_equal(k.weight, KPI_NO_WEIGHT);
	rules_kpi_rank(r, "stress-ng.metamix.ops", &k);
	assert_false(k.indexed);
	assert_int_equal(k.weight, KPI_NO_WEIGHT);
	assert_true(rules_is_kpi(r, "filebench.sum_operations/s"));
	assert_true(rules_is_kpi(r, "netperf.workload"));
	assert_false(rules_is_kpi(r, "filebench.time.elapsed_time"));
	assert_false(rules_is_kpi(r, "kbuild.time.elapsed_time"));
	assert_false(rules_is_kpi(r, "perf-stat.i.ipc"));
	assert_false(rules_is_kpi(r, "proc-vmstat.nr_active_anon"));
	assert_false(rules_is_kpi(r, "vm-scalability.stddev"));
	assert_false(rules_is_kpi(r, "unixbench.incomplete_result"));
	assert_false(rules_is_kpi(r, "nodot"));
}

/* etc/perf-metrics-threshold.yaml, keys anchored as /^KEY$/. */
static void t_shipped_thresholds(void **state)
{
	const struct rules *r = load_shipped(*state);

	/* interrupts.*: 100 (integer): max < 100 or delta < 50 is noise */
	assert_false(rules_threshold_ok(r, "interrupts.CPU0.LOC", 99, 90));
	assert_false(rules_threshold_ok(r, "interrupts.CPU0.LOC", 500, 49));
	assert_true(rules_threshold_ok(r, "interrupts.CPU0.LOC", 500, 50));
	/* .*.time.elapsed_time.*: 10; needs one character before 'time' */
	assert_false(rules_threshold_ok(r, "aim7.time.elapsed_time", 9, 8));
	assert_false(rules_threshold_ok(r, "aim7.time.elapsed_time.max", 20,
					4.9));
	assert_true(rules_threshold_ok(r, "aim7.time.elapsed_time", 20, 5));
	assert_true(rules_threshold_ok(r, "time.elapsed_time", 9, 8));
	/* .*.time.voluntary_context_switches: 1000 */
	assert_false(rules_threshold_ok(
		r, "fio.time.voluntary_context_switches", 999, 999));
	assert_true(rules_threshold_ok(
		r, "fio.time.voluntary_context_switches", 1000, 500));
	/* .*vmstat.*nr_.*: 100 */
	assert_false(rules_threshold_ok(r, "numa-vmstat.node0.nr_foo", 80, 70));
	assert_false(rules_threshold_ok(r, "proc-vmstat.nr_dirty", 5000, 49));
	assert_true(rules_threshold_ok(r, "proc-vmstat.nr_dirty", 5000, 50));
	/* iostat.*.util: 10 */
	assert_false(rules_threshold_ok(r, "iostat.sda.util", 9.5, 9));
	assert_true(rules_threshold_ok(r, "iostat.sda.util", 12, 6));
	/* perf-c2c.HITM.total: 3000 */
	assert_false(rules_threshold_ok(r, "perf-c2c.HITM.total", 2999, 2000));
	assert_false(rules_threshold_ok(r, "perf-c2c.HITM.total", 9000, 1499));
	assert_true(rules_threshold_ok(r, "perf-c2c.HITM.total", 9000, 1500));
	/* a Float key (2.00): only the max rule */
	assert_true(rules_threshold_ok(r, "perf-profile.x", 5, 0));
	assert_false(rules_threshold_ok(r, "perf-profile.x", 0.9, 0.8));
}

/* The fallbacks of lib/stats.rb reasonable_perf_change?. */
static void t_shipped_fallbacks(void **state)
{
	const struct rules *r = load_shipped(*state);

	/* ^iostat: max > 1 */
	assert_false(rules_threshold_ok(r, "iostat.sda.foo", 1, 0.9));
	assert_true(rules_threshold_ok(r, "iostat.sda.foo", 1.5, 0.1));
	/* ^slabinfo, ^buddyinfo, ^pagetypeinfo: delta > 100 */
	assert_false(rules_threshold_ok(r, "slabinfo.x", 1e6, 100));
	assert_true(rules_threshold_ok(r, "buddyinfo.x", 0, 101));
	/* ^proc-vmstat and meminfo anywhere: max > 1000 */
	assert_false(rules_threshold_ok(r, "proc-vmstat.pgfault", 1000, 900));
	assert_true(rules_threshold_ok(r, "proc-vmstat.pgfault", 1001, 1));
	assert_false(rules_threshold_ok(r, "meminfo.Active", 1000, 900));
	assert_false(rules_threshold_ok(r, "numa-meminfo.node0.Active", 999,
					900));
	assert_true(rules_threshold_ok(r, "numa-meminfo.node0.Active", 1001,
				       1));
	/* ^lock_stat: delta > 1000 with 'time' in the name, else 10000 */
	assert_false(rules_threshold_ok(r, "lock_stat.a.waittime-max", 1e9,
					1000));
	assert_true(rules_threshold_ok(r, "lock_stat.a.waittime-max", 0, 1001));
	assert_false(rules_threshold_ok(r, "lock_stat.a.bounces", 1e9, 10000));
	assert_true(rules_threshold_ok(r, "lock_stat.a.bounces", 0, 10001));
	/* ^softirqs: max > 10000 (interrupts.* meets its threshold first) */
	assert_false(rules_threshold_ok(r, "softirqs.CPU0.RCU", 10000, 9000));
	assert_true(rules_threshold_ok(r, "softirqs.CPU0.RCU", 10001, 1));
	/* no threshold and no fallback: always large enough */
	assert_true(rules_threshold_ok(r, "hackbench.throughput", 0.001, 0));
}

static void t_shipped_format_defaults(void **state)
{
	const struct rules *r = load_shipped(*state);
	const struct table_format *f = rules_format(r);

	assert_true(f->float_below == 1000);
	assert_true(f->exp_above == 100000000);
	assert_int_equal(f->zero_as_int, 0);
	assert_true(f->stddev_above == 2);
	assert_int_equal(f->change_decimals, 1);
	assert_int_equal(f->change_sign, 1);
	assert_true(f->change_blank_below == 0);
	assert_true(f->change_exp_above == 100000);
	assert_int_equal(f->absolute_exponent, 0);
}

/* ---- matching ---- */

/* /^PATTERN$/ as Ruby builds it: 'a|b' is (^a)|(b$), not ^(a|b)$. */
static void t_whole_name_alternation(void **state)
{
	const struct rules *r = load_text(*state,
		"thresholds:\n  - { match: 'foo|bar', value: 10 }\n");

	assert_false(rules_threshold_ok(r, "foo", 1, 1));
	assert_false(rules_threshold_ok(r, "bar", 1, 1));
	assert_false(rules_threshold_ok(r, "foox", 1, 1));
	assert_false(rules_threshold_ok(r, "xbar", 1, 1));
	assert_true(rules_threshold_ok(r, "xfoo", 1, 1));
}

/* An empty list is allowed; no list means no match. */
static void t_empty_lists(void **state)
{
	const struct rules *r = load_text(*state, "failure: []\n");

	assert_false(rules_is_failure(r, "dmesg.foo"));
	assert_false(rules_is_perf(r, "perf-stat.x"));
	assert_false(rules_is_absolute(r, "x%"));
	assert_true(rules_is_reportable(r, "interrupts.x"));
	assert_true(rules_threshold_ok(r, "interrupts.x", 0, 0));
	assert_int_equal(rules_direction(r, "x.throughput"), 0);
	assert_int_equal(rules_perf_profile(r), 0);
}

/* Entries are tried in order: the first matching threshold decides. */
static void t_first_threshold_wins(void **state)
{
	const struct rules *r = load_text(*state,
		"thresholds:\n"
		"  - { match: 'foo\\.special', value: 1 }\n"
		"  - { match: 'foo\\..*', value: 1000 }\n");

	assert_true(rules_threshold_ok(r, "foo.special", 200, 100));
	assert_false(rules_threshold_ok(r, "foo.other", 200, 100));
	assert_true(rules_threshold_ok(r, "foo.other", 2000, 600));
}

/* A matching threshold wins over a matching fallback, in both senses. */
static void t_threshold_before_fallback(void **state)
{
	const struct rules *r = load_text(*state,
		"thresholds:\n"
		"  - { match: 'interrupts\\..*', value: 100 }\n"
		"fallbacks:\n"
		"  - { match: '^interrupts|^softirqs', max_above: 10000 }\n");

	/* the fallback alone would drop max 5000; the threshold keeps it */
	assert_true(rules_threshold_ok(r, "interrupts.CPU0.LOC", 5000, 4800));
	/* the fallback alone would keep max 20000; the threshold drops it */
	assert_false(rules_threshold_ok(r, "interrupts.CPU0.LOC", 20000, 10));
	/* no threshold: the fallback applies */
	assert_false(rules_threshold_ok(r, "interruptsX", 5000, 4800));
	assert_true(rules_threshold_ok(r, "interruptsX", 20000, 10));
	assert_false(rules_threshold_ok(r, "softirqs.NET_RX", 10000, 5000));
}

/*
 * A whole-number threshold adds the delta rule with Ruby's Integer
 * division (v / 2: 15 / 2 is 7); "100.0" or 99.5 do not.
 */
static void t_threshold_integer_or_not(void **state)
{
	const struct rules *r = load_text(*state,
		"thresholds:\n"
		"  - { match: 'int', value: 100 }\n"
		"  - { match: 'odd', value: 15 }\n"
		"  - { match: 'dec', value: 100.0 }\n"
		"  - { match: 'half', value: 99.5 }\n");

	assert_false(rules_threshold_ok(r, "int", 140, 40));
	assert_true(rules_threshold_ok(r, "int", 150, 50));
	assert_false(rules_threshold_ok(r, "int", 99, 99));
	assert_true(rules_threshold_ok(r, "odd", 20, 7));
	assert_false(rules_threshold_ok(r, "odd", 20, 6.9));
	assert_true(rules_threshold_ok(r, "dec", 140, 40));
	assert_true(rules_threshold_ok(r, "dec", 100, 0));
	assert_false(rules_threshold_ok(r, "dec", 99.9, 99));
	assert_true(rules_threshold_ok(r, "half", 99.5, 0));
	assert_false(rules_threshold_ok(r, "half", 99.4, 99));
}

/* Fallbacks bound either the max or the delta, strictly. */
static void t_fallback_kinds(void **state)
{
	const struct rules *r = load_text(*state,
		"fallbacks:\n"
		"  - { match: '^m', max_above: 10 }\n"
		"  - { match: '^d', delta_above: 10 }\n");

	assert_false(rules_threshold_ok(r, "m.x", 10, 100));
	assert_true(rules_threshold_ok(r, "m.x", 11, 0));
	assert_false(rules_threshold_ok(r, "d.x", 1000, 10));
	assert_true(rules_threshold_ok(r, "d.x", 0, 11));
	assert_true(rules_threshold_ok(r, "x.m", 0, 0));
}

static void t_direction_values(void **state)
{
	const struct rules *r = load_text(*state,
		"direction:\n"
		"  - { match: 'up\\..*', value: 1 }\n"
		"  - { match: 'down\\..*', value: -1 }\n"
		"  - { match: '.*', value: 1 }\n");

	assert_int_equal(rules_direction(r, "up.x"), 1);
	assert_int_equal(rules_direction(r, "down.x"), -1);
	assert_int_equal(rules_direction(r, "other"), 1);
}

/* An era file names a base and replaces whole keys of it. */
static void t_base_file(void **state)
{
	struct fixture *f = *state;
	char *base = path_join(f->dir, "base.yaml");
	const struct rules *r;

	tu_write(base, "absolute: ['^perf-profile', '%$']\n"
		 "perf_prefixes: [perf-stat.]\nformat:\n  change_sign: false\n",
		 0600);
	r = load_text(f, "base: base.yaml\nabsolute: ['^latency_stats\\.']\n"
		      "format:\n  zero_as_int: true\n");
	assert_true(rules_is_absolute(r, "latency_stats.max"));
	assert_false(rules_is_absolute(r, "fio.latency_20us%"));
	assert_true(rules_is_perf(r, "perf-stat.x"));
	assert_int_equal(rules_format(r)->zero_as_int, 1);
	assert_int_equal(rules_format(r)->change_sign, 0);
	free(base);
}

/* ---- the 'format' mapping ---- */

static void t_format_mapping(void **state)
{
	const struct rules *r = load_text(*state,
		"format:\n"
		"  float_below: 100\n"
		"  exp_above: 1e6\n"
		"  zero_as_int: true\n"
		"  stddev_above: -1\n"
		"  change_decimals: 0\n"
		"  change_sign: false\n"
		"  change_blank_below: 1\n"
		"  change_exp_above: 10000\n"
		"  absolute_exponent: yes\n");
	const struct table_format *f = rules_format(r);

	assert_true(f->float_below == 100);
	assert_true(f->exp_above == 1e6);
	assert_int_equal(f->zero_as_int, 1);
	assert_true(f->stddev_above == -1);
	assert_int_equal(f->change_decimals, 0);
	assert_int_equal(f->change_sign, 0);
	assert_true(f->change_blank_below == 1);
	assert_true(f->change_exp_above == 10000);
	assert_int_equal(f->absolute_exponent, 1);
}

/* A partial mapping changes only the keys it names. */
static void t_format_partial(void **state)
{
	const struct rules *r = load_text(*state,
		"format:\n  zero_as_int: on\n");
	const struct table_format *f = rules_format(r);

	assert_int_equal(f->zero_as_int, 1);
	assert_true(f->float_below == 1000);
	assert_true(f->exp_above == 100000000);
	assert_true(f->stddev_above == 2);
	assert_int_equal(f->change_decimals, 1);
	assert_int_equal(f->change_sign, 1);
	assert_true(f->change_blank_below == 0);
	assert_true(f->change_exp_above == 100000);
	assert_int_equal(f->absolute_exponent, 0);
}

/* ---- errors, each with file:line ---- */

static void t_err_unknown_key(void **state)
{
	check_error(*state,
		    "perf_prefixes:\n  - 'perf-stat.'\nbogus: [x]\n", 3,
		    "unknown key 'bogus'");
}

static void t_err_unknown_format_key(void **state)
{
	check_error(*state,
		    "format:\n  zero_as_int: true\n  zero_as_nothing: 1\n", 3,
		    "unknown key 'format.zero_as_nothing'");
}

static void t_err_format_not_mapping(void **state)
{
	check_error(*state, "failure: []\nformat: [1, 2]\n", 2,
		    "'format' must be a mapping");
}

static void t_err_format_values(void **state)
{
	check_error(*state, "format:\n  zero_as_int: maybe\n", 2,
		    "'zero_as_int' must be true or false");
	check_error(*state, "format:\n  change_decimals: 4\n", 2,
		    "'change_decimals' must be a whole number from 0 to 3");
	check_error(*state, "format:\n  float_below: lots\n", 2,
		    "'float_below' must be a number");
}

/*
 * A bad regex is found when it is first needed, or by rules_check(all),
 * with its file and line.
 */
static void bad_regex(struct fixture *f, const char *text, int line,
		      const char *want, const char *name)
{
	struct pb_err err = { 0, "" };
	char expect[PB_ERR_MAX];
	const struct rules *r = load_text(f, text);

	snprintf(expect, sizeof(expect), "%s:%d: %s", f->path, line, want);
	assert_int_equal(rules_check(r, 0, &err), 0);
	/* meeting it: no match, and the check says why */
	assert_true(rules_is_reportable(r, name));
	assert_true(rules_threshold_ok(r, name, 0, 0));
	assert_int_equal(rules_check(r, 0, &err), -1);
	assert_string_equal(err.msg, expect);
	assert_int_equal(err.code, EX_CONFIG);
	rules_free(f->r);
	f->r = NULL;
	r = load_text(f, text);
	assert_int_equal(rules_check(r, 1, &err), -1);
	assert_string_equal(err.msg, expect);
}

static void t_err_bad_regex(void **state)
{
	bad_regex(*state,
		  "stat_denylist:\n  - 'perf-stat\\..*'\n  - 'foo(['\n", 3,
		  "bad pattern 'foo(['", "foo(x");
	rules_free(((struct fixture *)*state)->r);
	((struct fixture *)*state)->r = NULL;
	bad_regex(*state,
		  "thresholds:\n  - { match: 'a' , value: 1 }\n"
		  "  - { match: 'b[', value: 1 }\n", 3,
		  "bad pattern 'b['", "b[x");
}

static void t_err_entry_shape(void **state)
{
	/* no value */
	check_error(*state, "thresholds:\n  - { match: 'a' }\n", 2,
		    "'thresholds' entries are { match: PATTERN, value: NUMBER }");
	/* an extra key */
	check_error(*state,
		    "fallbacks:\n  - { match: 'a', max_above: 1 }\n"
		    "  - { match: 'b', max_above: 1, why: x }\n", 3,
		    "'fallbacks' entries are { match: PATTERN, "
		    "max_above|delta_above: NUMBER }");
	/* a list instead of a string */
	check_error(*state, "failure:\n  - [a, b]\n", 2,
		    "'failure' entries are strings");
	/* value is not a number */
	check_error(*state, "thresholds:\n  - { match: 'a', value: ten }\n",
		    2, "'value' must be a number");
}

/*
 * An empty entry ("-" alone, or "~") is a bad entry too, and the message
 * names its line like every other error: a null item is a node with its
 * own line.
 */
static void t_err_empty_entry(void **state)
{
	check_error(*state, "failure:\n  - a\n  -\n  - b\n", 3,
		    "'failure' entries are strings");
}

static void t_err_list_not_list(void **state)
{
	check_error(*state, "failure: []\nthresholds: 5\n", 2,
		    "'thresholds' must be a list");
	check_error(*state, "failure: []\nabsolute: { a: b }\n", 2,
		    "'absolute' must be a list");
}

static void t_err_direction(void **state)
{
	check_error(*state,
		    "direction:\n  - { match: 'a', value: 1 }\n"
		    "  - { match: 'b', value: 2 }\n", 3,
		    "a direction is 1 or -1");
	check_error(*state, "direction:\n  - { match: 'a', value: 0 }\n", 2,
		    "a direction is 1 or -1");
	check_error(*state, "direction:\n  - { match: 'a', value: -0.5 }\n",
		    2, "a direction is 1 or -1");
}

static void t_err_not_mapping(void **state)
{
	struct fixture *f = *state;
	struct pb_err err = { 0, "" };
	char expect[PB_ERR_MAX];

	tu_write(f->path, "- a\n- b\n", 0600);
	assert_int_equal(rules_load(&f->r, f->path, &err), -1);
	assert_null(f->r);
	snprintf(expect, sizeof(expect), "%s: not a mapping", f->path);
	assert_string_equal(err.msg, expect);
	assert_int_equal(err.code, EX_CONFIG);
}

/* Broken YAML is a configuration error too, and names the file. */
static void t_err_bad_yaml(void **state)
{
	struct fixture *f = *state;
	struct pb_err err = { 0, "" };

	tu_write(f->path, "failure: [a\n", 0600);
	assert_int_equal(rules_load(&f->r, f->path, &err), -1);
	assert_null(f->r);
	assert_int_equal(err.code, EX_CONFIG);
	assert_memory_equal(err.msg, f->path, strlen(f->path));
}

static void t_err_missing_file(void **state)
{
	struct fixture *f = *state;
	struct pb_err err = { 0, "" };

	assert_int_equal(rules_load(&f->r, f->path, &err), -1);
	assert_null(f->r);
	assert_int_not_equal(err.code, 0);
	assert_non_null(strstr(err.msg, f->path));
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(t_shipped_loads),
		T(t_shipped_failure),
		T(t_shipped_reportable),
		T(t_shipped_perf),
		T(t_shipped_absolute),
		T(t_shipped_families),
		T(t_shipped_direction),
		T(t_shipped_kpi),
		T(t_shipped_thresholds),
		T(t_shipped_fallbacks),
		T(t_shipped_format_defaults),
		T(t_whole_name_alternation),
		T(t_empty_lists),
		T(t_first_threshold_wins),
		T(t_threshold_before_fallback),
		T(t_threshold_integer_or_not),
		T(t_fallback_kinds),
		T(t_direction_values),
		T(t_base_file),
		T(t_format_mapping),
		T(t_format_partial),
		T(t_err_unknown_key),
		T(t_err_unknown_format_key),
		T(t_err_format_not_mapping),
		T(t_err_format_values),
		T(t_err_bad_regex),
		T(t_err_entry_shape),
		T(t_err_empty_entry),
		T(t_err_list_not_list),
		T(t_err_direction),
		T(t_err_not_mapping),
		T(t_err_bad_yaml),
		T(t_err_missing_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
