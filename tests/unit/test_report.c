// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/render/report.c and src/compose/reportmail.c: the
 * report of the demo manifests (subject, addressees, Message-ID, the
 * template context, the body and the mail against the golden files), the
 * classic template, a regression with its Closes: link, a comparison with
 * nothing worth a mail, the host description file and its fallback, the
 * recipients policy (src/compose/recipients.c) as a report applies it,
 * the composed mail (report_compose),
 * and reports that answer a posted patch (manifest 'patch'). Run from
 * the repository root: fixtures, config/ and templates/ are read by
 * relative path.
 */
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

#include "perfbot/cycle/report.h"
#include "perfbot/config/config.h"
#include "perfbot/util/fileio.h"
#include "perfbot/util/log.h"
#include "perfbot/compose/mail.h"
#include "perfbot/ingest/manifest.h"
#include "perfbot/render/report.h"
#include "perfbot/parse/reply.h"
#include "perfbot/compose/reportmail.h"
#include "perfbot/util/text.h"

#include "testutil.h"

#define SHIPPED "config/perfbot.yaml"
#define HACKBENCH "fixtures/manifests/hackbench-pipe.yaml"
#define AIM7 "fixtures/manifests/aim7-xfs-iversion.yaml"
#define SEED4 "fixtures/seeds/004"
#define PATCH4 "fixtures/patch/pipe-v4.yaml"
#define PATCH4_ID "20250213180124.868655-5-mirela.sandu@example.test"
#define T0 1739548080	/* 2025-02-14 15:48:00 UTC, as the golden files */
#define MSGID4 "202502141548.4b086ddf7c8c8447-perfbot@example.test"
#define SUBJECT4 "[linux-next:master] [pipe]  f017b0a495:  " \
	"hackbench.throughput 10.5% improvement"
#define ICL2 "128 threads 2 sockets Intel(R) Xeon(R) Gold 6338 CPU @ " \
	"2.00GHz (Ice Lake) with 256G memory"

struct fx {
	char dir[64];
	struct config cfg;
	struct manifest m;
	int have_m;
	struct report r;
	struct pb_err err;
	enum log_level level;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_report");

	if (!f)
		return -1;
	f->level = log_get_level();
	*state = f;
	if (config_load(&f->cfg, SHIPPED, &f->err)) {
		fprintf(stderr, "%s\n", f->err.msg);
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	log_set_level(f->level);
	report_release(&f->r);
	if (f->have_m)
		manifest_release(&f->m);
	config_release(&f->cfg);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

static void load_manifest(struct fx *f, const char *path)
{
	if (f->have_m)
		manifest_release(&f->m);
	f->have_m = 0;
	if (manifest_load(&f->m, path, &f->err))
		fail_msg("%s", f->err.msg);
	f->have_m = 1;
}

static int build(struct fx *f, const char *tmpl, time_t now)
{
	struct report_opts o = { tmpl, now, NULL, NULL, 0, NULL, NULL, NULL,
				 NULL, 0 };

	report_release(&f->r);
	memset(&f->err, 0, sizeof(f->err));
	return report_make(&f->r, &f->m, &f->cfg, &o, &f->err);
}

static void build_ok(struct fx *f, const char *manifest, const char *tmpl)
{
	load_manifest(f, manifest);
	if (build(f, tmpl, T0))
		fail_msg("report_build: %s", f->err.msg);
}

/* Copy 'src' to <dir>/<name>, replacing 'from' by 'to' when given. */
static void copy(const struct fx *f, const char *src, const char *name,
		 const char *from, const char *to)
{
	struct strbuf in, out = STRBUF_INIT;
	const char *p;

	tu_read_text(src, &in);
	p = from ? strstr(sb_str(&in), from) : NULL;
	if (from && !p)
		fail_msg("%s: no '%s'", src, from);
	if (p) {
		assert_int_equal(sb_add(&out, in.buf, (size_t)(p - in.buf)), 0);
		assert_int_equal(sb_adds(&out, to), 0);
		assert_int_equal(sb_adds(&out, p + strlen(from)), 0);
	} else {
		assert_int_equal(sb_adds(&out, sb_str(&in)), 0);
	}
	tu_put(f->dir, name, sb_str(&out), 0644);
	sb_release(&in);
	sb_release(&out);
}

static void mkdir_in(const struct fx *f, const char *name)
{
	char path[256];

	assert_int_equal(mkdir(tu_path(path, sizeof(path), f->dir, name), 0700),
			 0);
}

/* A copy of seed 004 in the temp dir: base/, head/ and manifest.yaml. */
static void seed_copy(struct fx *f, const char *base_from, const char *head,
		      const char *tbox, const char *manifest)
{
	char path[256];

	mkdir_in(f, "base");
	mkdir_in(f, "head");
	copy(f, SEED4 "/base/job.yaml", "base/job.yaml", NULL, NULL);
	copy(f, SEED4 "/base/matrix.json", "base/matrix.json", NULL, NULL);
	copy(f, base_from, "head/job.yaml", tbox ? "tbox_group: lkp-icl-2sp2" :
	     NULL, tbox);
	copy(f, head, "head/matrix.json", NULL, NULL);
	tu_path(path, sizeof(path), f->dir, "manifest.yaml");
	tu_write(path, manifest, 0644);
	load_manifest(f, path);
}

#define SEED_MANIFEST \
	"base: { commit: 262b2fa99cbe02a715ce23981c2c30685ccf3a93, " \
	"subject: \"pipe: a\", result_root: base }\n" \
	"head: { commit: f017b0a4951fac8f150232661b2cc0b67e0c57f0, " \
	"subject: \"pipe: b\", author: \"Mirela Sandu " \
	"<mirela.sandu@example.test>\", result_root: head }\n"

static const char *ctx_at(const struct fx *f, const char *path)
{
	json_t *v = f->r.ctx;
	char key[64];
	const char *p = path, *dot;

	while ((dot = strchr(p, '.'))) {
		snprintf(key, sizeof(key), "%.*s", (int)(dot - p), p);
		v = json_object_get(v, key);
		p = dot + 1;
	}
	v = json_object_get(v, p);
	if (!json_is_string(v))
		fail_msg("context '%s' is not a string", path);
	return json_string_value(v);
}

/* ------------------------------------------------------------------ */
/* the demo report                                                     */

static void t_hackbench(void **state)
{
	struct fx *f = *state;
	const char *job;

	build_ok(f, HACKBENCH, NULL);
	assert_int_equal(f->r.worth, 1);
	assert_int_equal(f->r.regression, 0);
	assert_string_equal(f->r.id, "demo-004");
	assert_string_equal(f->r.subject, SUBJECT4);
	assert_string_equal(f->r.message_id, MSGID4);
	assert_int_equal(f->r.date, T0);
	assert_string_equal(f->r.from, "perfbot <perfbot@example.test>");
	assert_int_equal(f->r.to.n, 1);
	assert_string_equal(f->r.to.v[0],
			    "Mirela Sandu <mirela.sandu@example.test>");
	assert_int_equal(f->r.cc.n, 1);
	assert_string_equal(f->r.cc.v[0],
			    "perf-reports@example.test");
	/* the head's job.yaml as written, for the attachment */
	job = f->r.job_yaml;
	assert_non_null(strstr(job, "testcase: hackbench\n"));
	assert_non_null(strstr(job, "commit: f017b0a4951fac8f150232661b2cc0b67e0c57f0\n"));
	assert_null(f->r.kconfig);
	assert_non_null(strstr(f->r.body, "perfbot noticed a 10.5% "
			       "improvement of hackbench.throughput on:\n"));
	assert_non_null(strstr(f->r.body, "test machine: " ICL2 "\n"));
	assert_null(strstr(f->r.body, "Reported-by"));	/* no trailers */
}

/*
 * A report with another comparison of its commits after it (issue 31
 * item 2): the robot's sentence and box under the parameters (the
 * other's testcase and change, machine, its parameters sorted), and its
 * machine and table after a line of stars under the report's own; in
 * both layouts. Without one, neither.
 */
static void t_also(void **state)
{
	static const char *const tmpl[2] = { "report", "report-classic" };
	struct fx *f = *state;
	json_t *other;
	size_t i;

	build_ok(f, "fixtures/headline/aim7/manifest.yaml", NULL);
	other = json_incref(f->r.ctx);
	assert_true(json_is_null(json_object_get(other, "also_box")));
	assert_int_equal(json_array_size(json_object_get(other, "also")), 0);
	assert_null(strstr(f->r.body, "In addition to that"));
	for (i = 0; i < 2; i++) {
		struct report_opts o = { tmpl[i], T0, NULL, NULL, 0, NULL,
					 NULL, NULL, &other, 1 };

		load_manifest(f, HACKBENCH);
		report_release(&f->r);
		assert_int_equal(report_make(&f->r, &f->m, &f->cfg, &o,
					     &f->err), 0);
		assert_non_null(strstr(f->r.body, "In addition to that, the "
				       "commit also has significant impact on "
				       "the following tests:\n\n+------------"
				       "------+---"));
		assert_non_null(strstr(f->r.body, "| testcase: change | aim7: "
				       "aim7.jobs-per-min -18.0% regression "));
		assert_non_null(strstr(f->r.body, "| test parameters  | "
				       "cpufreq_governor=performance "));
		assert_non_null(strstr(f->r.body, "|                  | "
				       "disk=4BRD_12G "));
		assert_non_null(strstr(f->r.body, "\n*****************************"
				       "**********************************************"
				       "************************\nlkp-icl-2sp2: " ICL2
				       "\n=========="));
		assert_non_null(strstr(f->r.body, "/disk_wrt/aim7\n"));
		/* the report's own headline stays its own */
		assert_non_null(strstr(f->r.subject, "hackbench.throughput"));
	}
	json_decref(other);
}

/* The body is the one of the golden file (tests/golden). */
static void t_hackbench_golden_body(void **state)
{
	struct fx *f = *state;
	struct strbuf golden;

	build_ok(f, HACKBENCH, NULL);
	tu_read_text("fixtures/golden/report-004.expected", &golden);
	if (!strstr(sb_str(&golden), f->r.body))
		fail_msg("the body is not in report-004.expected:\n%s",
			 f->r.body);
	sb_release(&golden);
}

static void t_context(void **state)
{
	static const char *const params[][2] = {
		{ "nr_threads", "800%" }, { "iterations", "4" },
		{ "mode", "threads" }, { "ipc", "pipe" },
		{ "cpufreq_governor", "performance" },
	};
	struct fx *f = *state;
	json_t *p, *charts, *runs;
	const char *table;
	size_t i;

	build_ok(f, HACKBENCH, NULL);
	assert_string_equal(ctx_at(f, "headline.metric"),
			    "hackbench.throughput");
	assert_string_equal(ctx_at(f, "headline.change"), "10.5%");
	/* the evidence: a line, the tests of the headline and of every row */
	assert_non_null(strstr(f->r.body, "\nevidence: 6 runs per side, "
			       "Welch's t-test p = "));
	assert_non_null(ctx_at(f, "headline.tests.welch.p"));
	assert_true(json_is_object(json_object_get(json_object_get(
		json_object_get(f->r.ctx, "headline"), "evidence"), "welch")));
	assert_true(json_array_size(json_object_get(f->r.ctx, "evidence")) >
		    1);
	assert_true(json_is_null(json_object_get(f->r.ctx, "confirmation")));
	assert_true(f->r.worth && !f->r.candidate);
	assert_string_equal(f->r.metric, "hackbench.throughput");
	assert_true(f->r.runs[0] == 6 && f->r.evidence.w.ok);
	assert_string_equal(ctx_at(f, "headline.kind"), "improvement");
	assert_true(json_is_false(json_object_get(json_object_get(f->r.ctx,
			"headline"), "regression")));
	assert_string_equal(ctx_at(f, "report_id"), "demo-004");
	assert_string_equal(ctx_at(f, "message_id"), MSGID4);
	assert_string_equal(ctx_at(f, "testcase"), "hackbench");
	assert_string_equal(ctx_at(f, "tbox_group"), "lkp-icl-2sp2");
	assert_string_equal(ctx_at(f, "machine"), ICL2);
	assert_string_equal(ctx_at(f, "commit.short"), "f017b0a495");
	assert_string_equal(ctx_at(f, "commit.tree"), "linux-next");
	assert_string_equal(ctx_at(f, "commit.subsystem"), "pipe");
	assert_string_equal(ctx_at(f, "base.sha"),
			    "262b2fa99cbe02a715ce23981c2c30685ccf3a93");
	assert_string_equal(ctx_at(f, "closes_url"), "https://lore.example."
			    "test/perf/" MSGID4);
	assert_string_equal(ctx_at(f, "reported_by"),
			    "perfbot <perfbot@example.test>");
	/* Parameters in the order of job.yaml. */
	p = json_object_get(f->r.ctx, "parameters");
	assert_int_equal(json_array_size(p), 5);
	for (i = 0; i < 5; i++) {
		json_t *kv = json_array_get(p, i);

		assert_string_equal(json_string_value(json_object_get(kv,
								      "key")),
				    params[i][0]);
		assert_string_equal(json_string_value(json_object_get(kv,
								      "value")),
				    params[i][1]);
	}
	/* The LKP table: 89 '=' then the axes. */
	table = ctx_at(f, "table");
	assert_int_equal(strspn(table, "="), 89);
	assert_int_equal(table[89], '\n');
	assert_non_null(strstr(table, "compiler/cpufreq_governor/ipc/"));
	assert_int_not_equal(table[strlen(table) - 1], '\n');
	/* Charts: the headline first, then others, at most 4. */
	charts = json_object_get(f->r.ctx, "charts");
	assert_true(json_array_size(charts) >= 1);
	assert_true(json_array_size(charts) <= 4);
	assert_string_equal(json_string_value(json_object_get(
		json_array_get(charts, 0), "metric")), "hackbench.throughput");
	for (i = 0; i < json_array_size(charts); i++)
		assert_true(json_string_length(json_object_get(
			json_array_get(charts, i), "chart")) > 0);
	for (i = 1; i < json_array_size(charts); i++)
		assert_string_not_equal(json_string_value(json_object_get(
			json_array_get(charts, i), "metric")),
			"hackbench.throughput");
	runs = json_object_get(f->r.ctx, "runs");
	assert_true(json_integer_value(json_object_get(runs, "base")) > 0);
	assert_true(json_integer_value(json_object_get(runs, "head")) > 0);
}

/* Same id and time: same Message-ID; another minute: another one. */
static void t_message_id_stable(void **state)
{
	struct fx *f = *state;
	char first[128];

	build_ok(f, HACKBENCH, NULL);
	snprintf(first, sizeof(first), "%s", f->r.message_id);
	assert_int_equal(build(f, NULL, T0), 0);
	assert_string_equal(f->r.message_id, first);
	assert_int_equal(build(f, NULL, T0 + 59), 0);
	assert_string_equal(f->r.message_id, first);	/* same minute */
	assert_int_equal(build(f, NULL, T0 + 60), 0);
	assert_string_equal(f->r.message_id, "202502141549.4b086ddf7c8c8447-perfbot@"
			    "example.test");
	assert_int_equal(f->r.date, T0 + 60);
}

static void t_classic_template(void **state)
{
	struct fx *f = *state;
	struct strbuf golden;
	char *modern;

	build_ok(f, HACKBENCH, NULL);
	modern = strdup(f->r.body);
	assert_int_equal(build(f, "report-classic", T0), 0);
	assert_string_not_equal(f->r.body, modern);
	assert_string_equal(f->r.subject, SUBJECT4);
	free(modern);
	/* The golden classic report of seed 003. */
	build_ok(f, AIM7, "report-classic");
	tu_read_text("fixtures/golden/report-003-classic.expected", &golden);
	if (!strstr(sb_str(&golden), f->r.body))
		fail_msg("the body is not in report-003-classic.expected:\n%s",
			 f->r.body);
	sb_release(&golden);
}

static void t_template_errors(void **state)
{
	struct fx *f = *state;

	load_manifest(f, HACKBENCH);
	assert_int_equal(build(f, "../templates/report", T0), -1);
	assert_int_equal(f->err.code, EX_USAGE);
	assert_non_null(strstr(f->err.msg, "a name, not a path"));
	assert_null(f->r.body);
	assert_null(f->r.id);
	assert_int_equal(build(f, "no-such-template", T0), -1);
	assert_non_null(strstr(f->err.msg, "no-such-template.txt"));
}

static void t_regression(void **state)
{
	struct fx *f = *state;
	char url[256];

	build_ok(f, AIM7, NULL);
	assert_int_equal(f->r.worth, 1);
	assert_int_equal(f->r.regression, 1);
	assert_string_equal(f->r.id, "demo-003");
	assert_string_equal(ctx_at(f, "headline.kind"), "regression");
	assert_true(json_is_true(json_object_get(f->r.ctx, "regression")));
	assert_memory_equal(f->r.subject, "[linus:master] ", 15);
	assert_non_null(strstr(f->r.subject, " regression"));
	assert_string_equal(ctx_at(f, "message_id"), f->r.message_id);
	snprintf(url, sizeof(url), "https://lore.example.test/perf/%s",
		 f->r.message_id);
	assert_string_equal(ctx_at(f, "closes_url"), url);
	assert_non_null(strstr(f->r.body, "| Closes: "));
	assert_non_null(strstr(f->r.body, url));
	assert_non_null(strstr(f->r.body, "| Reported-by: perfbot "
			       "<perfbot@example.test>"));
}

/* ------------------------------------------------------------------ */
/* nothing worth a mail                                                */

static void t_not_worth(void **state)
{
	struct fx *f = *state;
	char first[64];

	seed_copy(f, SEED4 "/base/job.yaml", SEED4 "/base/matrix.json", NULL,
		  SEED_MANIFEST);
	assert_int_equal(build(f, NULL, T0), 0);
	assert_int_equal(f->r.worth, 0);
	assert_int_equal(f->r.regression, 0);
	assert_non_null(f->r.id);
	assert_int_equal(strlen(f->r.id), 16);
	assert_int_equal(strspn(f->r.id, "0123456789abcdef"), 16);
	assert_null(f->r.message_id);
	assert_null(f->r.subject);
	assert_null(f->r.body);
	assert_null(f->r.ctx);
	/* The derived id is stable. */
	snprintf(first, sizeof(first), "%s", f->r.id);
	assert_int_equal(build(f, NULL, T0 + 3600), 0);
	assert_string_equal(f->r.id, first);
}

/* seed 004's job with 'base' and 'head' as the headline's runs */
static void runs_copy(struct fx *f, const char *base, const char *head)
{
	struct strbuf sb = STRBUF_INIT;
	char path[256];

	mkdir_in(f, "base");
	mkdir_in(f, "head");
	copy(f, SEED4 "/base/job.yaml", "base/job.yaml", NULL, NULL);
	copy(f, SEED4 "/head/job.yaml", "head/job.yaml", NULL, NULL);
	assert_int_equal(sb_addf(&sb, "{\"hackbench.throughput\": %s}",
				 base), 0);
	tu_put(f->dir, "base/matrix.json", sb_str(&sb), 0644);
	sb_reset(&sb);
	assert_int_equal(sb_addf(&sb, "{\"hackbench.throughput\": %s}",
				 head), 0);
	tu_put(f->dir, "head/matrix.json", sb_str(&sb), 0644);
	sb_release(&sb);
	tu_path(path, sizeof(path), f->dir, "manifest.yaml");
	tu_write(path, SEED_MANIFEST, 0644);
	load_manifest(f, path);
}

/*
 * A first report says what its tests showed and never which could not be
 * made: constant runs leave Welch's test (and the interval) out of the
 * line. (Fewer than 3 runs a side never pass the noise filter, so a
 * report always has the Mann-Whitney test.)
 */
static void t_no_impossible_tests(void **state)
{
	struct fx *f = *state;

	runs_copy(f, "[1000, 1000, 1000]", "[1200, 1200, 1200]");
	assert_int_equal(build(f, NULL, T0), 0);
	assert_int_equal(f->r.worth, 1);
	assert_non_null(strstr(f->r.body, "evidence: 3 runs per side, "
			       "Mann-Whitney U test p = 0.1000 (exact)"));
	assert_null(strstr(f->r.body, "not possible"));
	assert_null(strstr(f->r.body, "no confidence interval"));
}

/* ------------------------------------------------------------------ */
/* the test machine                                                    */

static void t_host_missing(void **state)
{
	struct fx *f = *state;

	log_set_level(LOG_QUIET);
	seed_copy(f, SEED4 "/head/job.yaml", SEED4 "/head/matrix.json",
		  "tbox_group: lkp-nosuch-9", "id: host-1\n" SEED_MANIFEST);
	assert_int_equal(build(f, NULL, T0), 0);
	assert_int_equal(f->r.worth, 1);
	assert_string_equal(ctx_at(f, "tbox_group"), "lkp-nosuch-9");
	assert_string_equal(ctx_at(f, "machine"), "lkp-nosuch-9");
	assert_non_null(strstr(f->r.body, "test machine: lkp-nosuch-9\n"));
}

/* A host name that would climb out of config/hosts is not a path. */
static void t_host_not_a_path(void **state)
{
	static const char *const bad[] = {
		"../hosts/lkp-icl-2sp2", "./lkp-icl-2sp2", ".lkp-icl-2sp2",
		"lkp icl 2sp2",
	};
	struct fx *f = *state;
	char tbox[128];
	size_t i;

	log_set_level(LOG_QUIET);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		tu_rmtree(f->dir);
		assert_int_equal(mkdir(f->dir, 0700), 0);
		snprintf(tbox, sizeof(tbox), "tbox_group: \"%s\"", bad[i]);
		seed_copy(f, SEED4 "/head/job.yaml", SEED4 "/head/matrix.json",
			  tbox, "id: host-2\n" SEED_MANIFEST);
		assert_int_equal(build(f, NULL, T0), 0);
		assert_string_equal(ctx_at(f, "tbox_group"), bad[i]);
		assert_string_equal(ctx_at(f, "machine"), bad[i]);
	}
}

/* data.hosts points the descriptions elsewhere. */
static void t_host_dir(void **state)
{
	struct fx *f = *state;
	char yaml[512], path[256];

	mkdir_in(f, "hosts");
	tu_put(f->dir, "hosts/lkp-icl-2sp2.yaml",
	       "description: \"a box in the test\"\n", 0644);
	snprintf(yaml, sizeof(yaml), "identity:\n  from: \"bot <bot@example."
		 "test>\"\ndata:\n  hosts: \"%s/hosts\"\n", f->dir);
	tu_path(path, sizeof(path), f->dir, "perfbot.yaml");
	tu_write(path, yaml, 0644);
	config_release(&f->cfg);
	assert_int_equal(config_load(&f->cfg, path, &f->err), 0);
	build_ok(f, HACKBENCH, NULL);
	assert_string_equal(ctx_at(f, "machine"), "a box in the test");
	/* Defaults without identity.message_id_domain / archive_url. */
	assert_string_equal(f->r.message_id, "202502141548.4b086ddf7c8c8447-perfbot@"
			    "localhost");
	assert_true(json_is_null(json_object_get(f->r.ctx, "closes_url")));
	assert_string_equal(f->r.from, "bot <bot@example.test>");
}

/* ------------------------------------------------------------------ */
/* helpers                                                             */

static void t_text_scrub_line(void **state)
{
	char s[] = "a\r\nb\tc\x01\x1f\x7f" "d caf\xc3\xa9";
	char e[] = "";

	(void)state;
	text_scrub_line(s);
	assert_string_equal(s, "a  b c   d caf\xc3\xa9");
	text_scrub_line(e);
	assert_string_equal(e, "");
}

/* ------------------------------------------------------------------ */
/* the mail                                                            */

/* report_compose(): the bytes, the sender and the envelope's JSON. */
static int compose_mail(struct fx *f, struct strbuf *msg, char **sender,
			char **rcpts)
{
	struct composed c;
	int rc = report_compose(&f->r, &f->cfg, &c, &f->err);

	*sender = *rcpts = NULL;
	if (!rc) {
		assert_int_equal(sb_add(msg, c.msg.buf, c.msg.len), 0);
		*sender = strdup(c.sender);
		*rcpts = addrlist_to_json(&c.rcpts);
		assert_non_null(*sender);
		assert_non_null(*rcpts);
	}
	composed_release(&c);
	return rc;
}

static void t_mail_golden(void **state)
{
	struct fx *f = *state;
	struct strbuf mbox = STRBUF_INIT, golden;
	const char *msg;
	struct composed c;
	char *rcpts;

	/* reproducible output: the boundary too (else it is random) */
	setenv("SOURCE_DATE_EPOCH", "1739548080", 1);
	build_ok(f, HACKBENCH, NULL);
	assert_int_equal(report_compose(&f->r, &f->cfg, &c, &f->err), 0);
	unsetenv("SOURCE_DATE_EPOCH");
	assert_string_equal(c.kind, "report");
	assert_string_equal(c.id, "demo-004");
	assert_null(c.report_id);
	assert_string_equal(c.message_id, MSGID4);
	assert_string_equal(c.subject, SUBJECT4);
	assert_int_equal(c.date, T0);
	assert_string_equal(c.sender, "perfbot@example.test");
	rcpts = addrlist_to_json(&c.rcpts);
	assert_string_equal(rcpts, "[\"mirela.sandu@example.test\","
			    "\"perf-reports@example.test\"]");
	free(rcpts);
	msg = sb_str(&c.msg);
	assert_non_null(strstr(msg, "\nContent-Type: multipart/mixed;"
			       " boundary="));
	assert_non_null(strstr(msg, "\nAuto-Submitted: auto-generated\n"));
	assert_non_null(strstr(msg, "\nX-Perfbot-Report: demo-004\n"));
	assert_non_null(strstr(msg, "\nMessage-Id: <" MSGID4 ">\n"));
	assert_non_null(strstr(msg, "Content-Disposition: attachment;"
			       " filename=job.yaml\n"));
	assert_non_null(strstr(msg, "Content-Disposition: attachment;"
			       " filename=reproduce\n"));
	assert_null(strstr(msg, "filename=config"));
	assert_non_null(strstr(msg, "# Reproduce perfbot report "
			       "demo-004:\n"));
	/* Byte for byte what 'perfbot report --dry-run' prints. */
	assert_int_equal(mbox_append(&mbox, c.sender, c.date, c.msg.buf,
				     c.msg.len), 0);
	tu_read_text("fixtures/golden/report-004.expected", &golden);
	assert_string_equal(sb_str(&mbox), sb_str(&golden));
	sb_release(&golden);
	sb_release(&mbox);
	composed_release(&c);
}

/* No address left to send to: an error, whatever the headers hold. */
static void t_mail_no_envelope(void **state)
{
	struct fx *f = *state;
	struct composed c;

	build_ok(f, HACKBENCH, NULL);
	addrlist_release(&f->r.to);
	addrlist_release(&f->r.cc);
	assert_int_equal(addrlist_add(&f->r.cc, "undisclosed-recipients:;"),
			 0);
	assert_int_equal(report_compose(&f->r, &f->cfg, &c, &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_string_equal(f->err.msg, "report 'demo-004': no usable sender "
			    "or recipient address");
	composed_release(&c);
}

/*
 * Issue 21 item 15: the headline sentence ends with the commit lines, the
 * evidence stands below them on lines of at most 80 columns, and a
 * regression's Reported-by/Closes block comes before "Details are as
 * below", as in the robot's reports.
 */
static void t_layout(void **state)
{
	struct fx *f = *state;
	const char *b, *ev, *commit, *tags, *details, *line, *nl;

	build_ok(f, AIM7, NULL);
	b = f->r.body;
	commit = strstr(b, "\ncommit: ");
	ev = strstr(b, "\nevidence: ");
	tags = strstr(b, "\n| Reported-by: ");
	details = strstr(b, "\nDetails are as below:");
	assert_non_null(commit);
	assert_non_null(ev);
	assert_non_null(details);
	assert_true(f->r.regression);
	assert_non_null(tags);
	assert_true(strstr(b, "regression of ") < commit);
	assert_true(commit < ev && ev < details);
	assert_true(ev < tags && tags < details);
	/* the sentence "noticed ... on:" runs on into the commit line */
	assert_null(strstr(b, "on:\nevidence"));
	for (line = ev + 1; *line == 'e' || !strncmp(line, "  ", 2);
	     line = nl + 1) {
		nl = strchr(line, '\n');
		assert_non_null(nl);
		if (nl - line > 80)
			fail_msg("longer than 80 columns: %.*s",
				 (int)(nl - line), line);
	}
	assert_true(line > ev + 60);
}

/* kconfig_file: read when the report is made, attached as 'config'. */
static void t_mail_kconfig(void **state)
{
	struct fx *f = *state;
	struct strbuf msg = STRBUF_INIT;
	char *sender = NULL, *rcpts = NULL;

	tu_put(f->dir, "config-6.8",
	       "CONFIG_X86_64=y\n# CONFIG_KASAN is not set\n", 0644);
	seed_copy(f, SEED4 "/head/job.yaml", SEED4 "/head/matrix.json", NULL,
		  "id: kc-1\nkconfig_file: config-6.8\n"
		  "cc: [\"Jane <jane@example.test>\", list@example.test]\n"
		  SEED_MANIFEST);
	assert_int_equal(build(f, NULL, T0), 0);
	assert_non_null(f->r.kconfig);
	/* read once: a file gone by the time the mail is made is no matter */
	{
		char gone[256];

		assert_int_equal(unlink(tu_path(gone, sizeof(gone), f->dir,
						"config-6.8")), 0);
	}
	assert_int_equal(compose_mail(f, &msg, &sender, &rcpts), 0);
	assert_non_null(strstr(sb_str(&msg), "filename=config\n"));
	assert_non_null(strstr(sb_str(&msg), "\n# CONFIG_KASAN is not set\n"));
	assert_string_equal(rcpts, "[\"mirela.sandu@example.test\","
			    "\"jane@example.test\",\"list@example.test\","
			    "\"perf-reports@example.test\"]");
	sb_release(&msg);
	free(sender);
	free(rcpts);
}

/* Build with the manifest naming 'kconfig' as its kconfig_file: fails. */
static void kconfig_refused(struct fx *f, const char *kconfig, int code,
			    const char *why)
{
	char manifest[512], path[256];

	snprintf(manifest, sizeof(manifest), "id: kc-2\nkconfig_file: %s\n"
		 SEED_MANIFEST, kconfig);
	tu_path(path, sizeof(path), f->dir, "manifest.yaml");
	tu_write(path, manifest, 0644);
	load_manifest(f, path);
	assert_int_equal(build(f, NULL, T0), -1);
	assert_int_equal(f->err.code, code);
	assert_non_null(strstr(f->err.msg, ":2: 'kconfig_file': "));
	if (!strstr(f->err.msg, why))
		fail_msg("'%s' does not say '%s'", f->err.msg, why);
}

/*
 * Issue 25 items 4 and 5: what a manifest may attach. Never a file
 * outside its own directory and result roots (a secret of the machine's),
 * never a file of perfbot's secrets even there, never a FIFO (it would
 * hang the run) or a device; each refused naming the manifest and key.
 */
static void t_mail_kconfig_refused(void **state)
{
	struct fx *f = *state;
	char path[256];

	seed_copy(f, SEED4 "/head/job.yaml", SEED4 "/head/matrix.json", NULL,
		  SEED_MANIFEST);
	kconfig_refused(f, "/etc/passwd", EX_DATAERR,
			"not in a directory this manifest may attach files "
			"from");
	tu_put(f->dir, "secret", "hunter2\n", 0600);
	tu_path(path, sizeof(path), f->dir, "secret");
	f->cfg.smtp.secret.password_file = path;
	kconfig_refused(f, "secret", EX_DATAERR,
			"is the file of smtp.password_file, which is never "
			"mailed");
	f->cfg.smtp.secret.password_file = NULL;
	/* a link inside the directory to a file outside it */
	tu_path(path, sizeof(path), f->dir, "link");
	assert_int_equal(symlink("/etc/passwd", path), 0);
	kconfig_refused(f, "link", EX_DATAERR, "not in a directory");
	tu_path(path, sizeof(path), f->dir, "fifo");
	assert_int_equal(mkfifo(path, 0600), 0);
	kconfig_refused(f, "fifo", EX_DATAERR, "not a regular file (a FIFO)");
	kconfig_refused(f, "missing", EX_NOINPUT, "No such file");
	kconfig_refused(f, "https://example.test/config", EX_DATAERR,
			"must be a local file");
}

/* Recipients: the author (unless recipients.to_author is off), to, cc. */
static void t_recipients(void **state)
{
	struct fx *f = *state;
	char path[256];

	tu_path(path, sizeof(path), f->dir, "perfbot.yaml");
	tu_write(path, "recipients:\n  to_author: false\n", 0644);
	config_release(&f->cfg);
	assert_int_equal(config_load(&f->cfg, path, &f->err), 0);
	load_manifest(f, HACKBENCH);
	assert_int_equal(build(f, NULL, T0), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_non_null(strstr(f->err.msg, "no recipients"));
	assert_null(f->r.id);
	tu_write(path, "recipients:\n  to_author: true\n  to: [\"MIRELA.sandu@"
		 "example.test\", x@example.test]\n  cc: [x@example.test]\n",
		 0644);
	config_release(&f->cfg);
	assert_int_equal(config_load(&f->cfg, path, &f->err), 0);
	assert_int_equal(build(f, NULL, T0), 0);
	/* the author's address once, whatever its case; To wins over Cc */
	assert_int_equal(f->r.to.n, 2);
	assert_string_equal(f->r.to.v[1],
			    "x@example.test");
	assert_int_equal(f->r.cc.n, 0);
}

/*
 * Each address once across To and Cc (To winning), whatever its display
 * name or case: the author named in the manifest, the same address bare
 * in recipients.to and again in Cc give one recipient.
 */
static void t_recipients_unique(void **state)
{
	struct fx *f = *state;
	struct strbuf msg = STRBUF_INIT;
	char *sender = NULL, *rcpts = NULL, path[256];

	tu_path(path, sizeof(path), f->dir, "perfbot.yaml");
	tu_write(path, "recipients:\n  to: [mirela.sandu@example.test]\n"
		 "  cc: [\"Mirela <MIRELA.SANDU@example.test>\", "
		 "perf@example.test]\n", 0644);
	config_release(&f->cfg);
	assert_int_equal(config_load(&f->cfg, path, &f->err), 0);
	build_ok(f, HACKBENCH, NULL);
	assert_int_equal(compose_mail(f, &msg, &sender, &rcpts), 0);
	sb_release(&msg);
	free(sender);
	if (strcmp(rcpts, "[\"mirela.sandu@example.test\","
		   "\"perf@example.test\"]")) {
		char got[512];

		snprintf(got, sizeof(got), "%s", rcpts);
		free(rcpts);
		fail_msg("duplicate recipients: envelope %s, To %zu, "
			 "Cc %zu", got, f->r.to.n,
			 f->r.cc.n);
	}
	free(rcpts);
	assert_int_equal(f->r.to.n, 1);
	assert_int_equal(f->r.cc.n, 1);
}

/* ------------------------------------------------------------------ */
/* reports that answer a posted patch                                  */

static int count_char(const char *s, char c)
{
	int n = 0;

	for (; (s = strchr(s, c)); s++)
		n++;
	return n;
}

static void use_config(struct fx *f, const char *text)
{
	char path[256];

	tu_path(path, sizeof(path), f->dir, "perfbot.yaml");
	tu_write(path, text, 0644);
	config_release(&f->cfg);
	if (config_load(&f->cfg, path, &f->err))
		fail_msg("%s", f->err.msg);
}

static void t_patch_report(void **state)
{
	struct fx *f = *state;
	struct strbuf msg = STRBUF_INIT, mbox = STRBUF_INIT, golden;
	char *sender = NULL, *rcpts = NULL;

	build_ok(f, PATCH4, NULL);
	assert_string_equal(f->r.subject, "Re: [PATCH v4 4/5] pipe: don't "
			    "update {a,c,m}time for anonymous pipes");
	assert_string_equal(f->r.in_reply_to, "<" PATCH4_ID ">");
	assert_string_equal(f->r.references, "<20250213180124.868655-1-"
			    "mirela.sandu@example.test> <" PATCH4_ID ">");
	assert_string_equal(ctx_at(f, "patch.link"),
			    "https://lore.example.test/all/" PATCH4_ID "/");
	assert_string_equal(ctx_at(f, "patch.message_id"), PATCH4_ID);
	/* the author in To; the patch's To and Cc, then the config's Cc */
	assert_int_equal(f->r.to.n, 1);
	assert_string_equal(f->r.to.v[0],
			    "Mirela Sandu <mirela.sandu@example.test>");
	assert_int_equal(f->r.cc.n, 4);
	assert_string_equal(f->r.cc.v[0],
			    "Christian Brauner <brauner@example.test>");
	assert_string_equal(f->r.cc.v[2],
			    "Jan Kara <jack@example.test>");
	/* the full sha, as the robot's patch reports give it */
	assert_non_null(strstr(f->r.body, "\ncommit: f017b0a4951fac8f150232"
			       "661b2cc0b67e0c57f0 (\"[PATCH v4 4/5] pipe: "
			       "don't update {a,c,m}time for anonymous pipes"
			       "\")\nurl: https://"));
	assert_non_null(strstr(f->r.body, "\nbase: https://git.kernel.org/"
			       "cgit/linux/kernel/git/vfs/vfs.git vfs.pipe\n"
			       "patch link: https://lore.example.test/all/"
			       PATCH4_ID "/\npatch subject: [PATCH v4 4/5] "
			       "pipe: don't update {a,c,m}time for anonymous "
			       "pipes\n\nevidence: "));
	/* a fixed date makes the MIME boundary reproducible */
	setenv("SOURCE_DATE_EPOCH", "1739548080", 1);
	assert_int_equal(compose_mail(f, &msg, &sender, &rcpts), 0);
	unsetenv("SOURCE_DATE_EPOCH");
	assert_non_null(strstr(sb_str(&msg), "\nIn-Reply-To: <" PATCH4_ID
			       ">\n"));
	assert_string_equal(rcpts, "[\"mirela.sandu@example.test\","
			    "\"brauner@example.test\","
			    "\"linux-fsdevel@lists.example.test\","
			    "\"jack@example.test\","
			    "\"perf-reports@example.test\"]");
	assert_int_equal(mbox_append(&mbox, sender, f->r.date, msg.buf,
				     msg.len), 0);
	tu_read_text("fixtures/golden/report-patch.expected", &golden);
	assert_string_equal(sb_str(&mbox), sb_str(&golden));
	sb_release(&golden);
	sb_release(&mbox);
	sb_release(&msg);
	free(sender);
	free(rcpts);
}

/*
 * No Re: Re:; a link given wins; no url or base: no such lines, and never
 * the tree line; long References keep the root, the closest and the
 * patch's id; the patch's copies capped at recipients.max_cc.
 */
static void t_patch_variants(void **state)
{
	struct fx *f = *state;
	struct strbuf man = STRBUF_INIT;
	const char *refs;
	int i;

	use_config(f, "identity:\n  patch_archive_url: \"https://a/{message_id}"
		   "\"\nrecipients:\n  max_cc: 3\n");
	assert_int_equal(sb_adds(&man, SEED_MANIFEST "patch:\n  message_id: "
		"<p@x>\n  subject: \"RE: Re: [PATCH] pipe: b\"\n"
		"  link: https://lore.example.test/p\n  references:\n"), 0);
	for (i = 0; i < 30; i++)
		assert_int_equal(sb_addf(&man, "    - <ref-%02d@x>\n", i),
				 0);
	assert_int_equal(sb_adds(&man, "    - <p@x>\n  to: [Mirela "
		"<MIRELA.sandu@example.test>]\n  cc:\n"), 0);
	for (i = 0; i < 10; i++)
		assert_int_equal(sb_addf(&man, "    - cc%d@example.test\n",
					 i), 0);
	assert_int_equal(sb_adds(&man, "cc: [list@example.test]\n"), 0);
	seed_copy(f, SEED4 "/head/job.yaml", SEED4 "/head/matrix.json", NULL,
		  sb_str(&man));
	assert_int_equal(build(f, NULL, T0), 0);
	assert_string_equal(f->r.subject, "Re: [PATCH] pipe: b");
	assert_string_equal(ctx_at(f, "patch.link"),
			    "https://lore.example.test/p");
	assert_non_null(strstr(f->r.body, "\")\npatch link: https://lore."
			       "example.test/p\npatch subject: RE: Re: [PATCH]"
			       " pipe: b\n\nevidence: "));
	refs = f->r.references;
	assert_int_equal(count_char(refs, '<'), 20);
	assert_memory_equal(refs, "<ref-00@x> <ref-12@x> ", 22);
	assert_non_null(strstr(refs, " <ref-29@x> <p@x>"));
	assert_int_equal(refs[strlen(refs) - 1], '>');
	assert_int_equal(count_char(refs, 'p'), 1);
	/*
	 * the author was in the patch's To: once; the patch's Cc kept whole
	 * (recipients.max_cc caps only what perfbot adds), then the list
	 */
	assert_int_equal(f->r.to.n, 1);
	assert_int_equal(f->r.cc.n, 11);
	assert_string_equal(f->r.cc.v[0],
			    "cc0@example.test");
	assert_string_equal(f->r.cc.v[9],
			    "cc9@example.test");
	assert_string_equal(f->r.cc.v[10],
			    "list@example.test");
	sb_release(&man);
}

/* The link built from the id: what a URL path may not hold escaped. */
static void t_patch_link_built(void **state)
{
	struct fx *f = *state;

	use_config(f, "identity:\n  patch_archive_url: \"https://lore.example."
		   "test/all/{message_id}/\"\n");
	seed_copy(f, SEED4 "/head/job.yaml", SEED4 "/head/matrix.json", NULL,
		  SEED_MANIFEST "patch: { message_id: \"<a/b%c?d#e=f@x.y>\", "
		  "subject: \"[PATCH] b\" }\n");
	assert_int_equal(build(f, NULL, T0), 0);
	assert_string_equal(ctx_at(f, "patch.link"), "https://lore.example."
			    "test/all/a%2Fb%25c%3Fd%23e=f@x.y/");
	assert_string_equal(f->r.references, "<a/b%c?d#e=f@x.y>");
	/* no archive pattern and no link: no link line */
	use_config(f, "recipients:\n  cc: [l@example.test]\n");
	assert_int_equal(build(f, NULL, T0), 0);
	assert_true(json_is_null(json_object_get(json_object_get(f->r.ctx,
								 "patch"),
						 "link")));
	assert_null(strstr(f->r.body, "patch link:"));
	assert_non_null(strstr(f->r.body, "\npatch subject: [PATCH] b\n"));
	/* without a patch the context says null, the tree line is back */
	build_ok(f, HACKBENCH, NULL);
	assert_true(json_is_null(json_object_get(f->r.ctx, "patch")));
	assert_null(f->r.in_reply_to);
	assert_null(f->r.references);
	assert_non_null(strstr(f->r.body, "\nhttps://git.kernel.org/cgit/linux"
			       "/kernel/git/next/linux-next.git master\n"));
}

/*
 * What a mail client reads back: a long non-ASCII patch subject encoded
 * and folded by GMime decodes to "Re: " + the subject, and the threading
 * headers parse to the patch's ids.
 */
static void t_patch_mail_roundtrip(void **state)
{
	static const char subj[] = "[PATCH v3 07/12] f2fs: größere Blöcke "
		"für die Überprüfung der Prüfsummen bei sehr langen Dateien "
		"verwenden";
	struct fx *f = *state;
	struct strbuf man = STRBUF_INIT, msg = STRBUF_INIT;
	char *sender = NULL, *rcpts = NULL;
	const char *p, *line;
	struct reply r;

	assert_int_equal(sb_addf(&man, SEED_MANIFEST "patch:\n  message_id: "
		"<p7@x.example>\n  subject: \"%s\"\n  references: "
		"[<p0@x.example>]\n", subj), 0);
	seed_copy(f, SEED4 "/head/job.yaml", SEED4 "/head/matrix.json", NULL,
		  sb_str(&man));
	assert_int_equal(build(f, NULL, T0), 0);
	assert_int_equal(compose_mail(f, &msg, &sender, &rcpts), 0);
	/* encoded words on folded lines, none longer than 998 */
	assert_non_null(strstr(sb_str(&msg), "\nSubject: Re: [PATCH v3 07/12] "
			       "f2fs:\n =?UTF-8?B?"));
	for (line = sb_str(&msg); (p = strchr(line, '\n')); line = p + 1) {
		assert_true(p - line <= 998);
		if (!strncmp(line, "\n", 1))
			break;
	}
	memset(&r, 0, sizeof(r));
	assert_int_equal(reply_parse(msg.buf, msg.len, NULL, &r, &f->err), 0);
	assert_non_null(r.subject);
	assert_memory_equal(r.subject, "Re: ", 4);
	assert_string_equal(r.subject + 4, subj);
	assert_string_equal(r.in_reply_to, "p7@x.example");
	assert_int_equal(r.nrefs, 2);
	assert_string_equal(r.references[0], "p0@x.example");
	assert_string_equal(r.references[1], "p7@x.example");
	reply_release(&r);
	sb_release(&man);
	sb_release(&msg);
	free(sender);
	free(rcpts);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(t_hackbench),
		T(t_hackbench_golden_body),
		T(t_also),
		T(t_context),
		T(t_message_id_stable),
		T(t_classic_template),
		T(t_template_errors),
		T(t_regression),
		T(t_no_impossible_tests),
		T(t_not_worth),
		T(t_host_missing),
		T(t_host_not_a_path),
		T(t_host_dir),
		cmocka_unit_test(t_text_scrub_line),
		T(t_mail_golden),
		T(t_mail_no_envelope),
		T(t_layout),
		T(t_mail_kconfig),
		T(t_mail_kconfig_refused),
		T(t_recipients),
		T(t_recipients_unique),
		T(t_patch_report),
		T(t_patch_variants),
		T(t_patch_link_built),
		T(t_patch_mail_roundtrip),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
