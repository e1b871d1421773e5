// SPDX-License-Identifier: GPL-2.0-only
/*
 * genroots: write a base/head pair of result roots for benchmarks:
 * genroots DIR METRICS RUNS. Deterministic (fixed LCG seed). About 1% of
 * the metrics change by 10-50%, the rest are noise around the same mean,
 * and the testcase is hackbench so that the report has a headline.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "perfbot/util/fileio.h"
#include "perfbot/util/strbuf.h"
#include "perfbot/util/yaml.h"

static unsigned long long state = 0x9e3779b97f4a7c15ULL;

static double uniform(void)
{
	state = state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(state >> 11) / 9007199254740992.0;
}

/* The same value for the same metric on both sides. */
static double metric_mean(long m)
{
	unsigned long long x = (unsigned long long)m * 0x9e3779b97f4a7c15ULL;

	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 29;
	return 10 + 1e6 * (double)(x >> 11) / 9007199254740992.0 *
		(double)((x >> 3) & 0xff) / 255.0;
}

static const char *const prefixes[] = {
	"perf-stat.ps.", "proc-vmstat.", "sched_debug.cpu.", "meminfo.",
	"perf-sched.wait_time.avg.ms.", "interrupts.CPU", "softirqs.CPU",
	"perf-profile.children.cycles-pp.",
};

static int write_side(const char *dir, int side, long metrics, long runs)
{
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;
	struct pb_err err;
	long m, r;
	int rc = 0;

	rc |= sb_adds(&sb, "{\"stats_source\": [");
	for (r = 0; r < runs; r++)
		rc |= sb_addf(&sb, "%s\"run%ld\"", r ? ", " : "", r);
	rc |= sb_adds(&sb, "],\n\"hackbench.throughput\": [");
	for (r = 0; r < runs; r++)
		rc |= sb_addf(&sb, "%s%.2f", r ? ", " : "",
			      (side ? 1.1e6 : 1.0e6) * (1 + 0.01 * uniform()));
	rc |= sb_adds(&sb, "]");
	for (m = 0; m < metrics - 1 && !rc; m++) {
		double mean = metric_mean(m);
		int changed = m % 97 == 0;

		if (side && changed)
			mean *= 1.1 + 0.4 * uniform();
		rc |= sb_addf(&sb, ",\n\"%s%ld\": [", prefixes[m % 8], m);
		for (r = 0; r < runs; r++)
			rc |= sb_addf(&sb, "%s%.2f", r ? ", " : "",
				      mean * (0.97 + 0.06 * uniform()));
		rc |= sb_adds(&sb, "]");
	}
	rc |= sb_adds(&sb, "\n}\n");
	rc |= sb_addf(&path, "%s/%s", dir, side ? "head" : "base");
	mkdir(sb_str(&path), 0755);
	rc |= sb_adds(&path, "/matrix.json");
	if (rc || file_write_atomic(sb_str(&path), sb.buf, sb.len, 0644, &err))
		rc = -1;
	sb_release(&sb);
	sb_release(&path);
	return rc;
}

static int write_job(const char *dir, int side)
{
	static const char *const sha[2] = {
		"262b2fa99cbe02a7d1d2a3e4f5a6b7c8d9e0f1a2",
		"f017b0a4951fac8f150232661b2cc0b67e0c57f0",
	};
	struct strbuf sb = STRBUF_INIT, path = STRBUF_INIT;
	struct pb_err err;
	int rc = 0;

	rc |= sb_addf(&sb, "testcase: hackbench\ntbox_group: lkp-icl-2sp2\n"
		      "rootfs: debian-12-x86_64-20240206.cgz\n"
		      "kconfig: x86_64-rhel-9.4\ncompiler: gcc-12\n"
		      "commit: %s\nhackbench:\n  nr_threads: 800%%\n"
		      "  mode: threads\n  ipc: pipe\n"
		      "cpufreq_governor: performance\n", sha[side]);
	rc |= sb_addf(&path, "%s/%s/job.yaml", dir, side ? "head" : "base");
	if (rc || file_write_atomic(sb_str(&path), sb.buf, sb.len, 0644, &err))
		rc = -1;
	sb_release(&sb);
	sb_release(&path);
	return rc;
}

int main(int argc, char **argv)
{
	long metrics, runs;
	int side;

	if (argc != 4 || parse_long(argv[2], 2, 10000000, &metrics) ||
	    parse_long(argv[3], 1, 10000, &runs)) {
		fprintf(stderr, "usage: genroots DIR METRICS RUNS\n");
		return 64;
	}
	mkdir(argv[1], 0755);
	for (side = 0; side < 2; side++)
		if (write_side(argv[1], side, metrics, runs) ||
		    write_job(argv[1], side)) {
			fprintf(stderr, "genroots: cannot write %s\n", argv[1]);
			return 73;
		}
	return 0;
}
