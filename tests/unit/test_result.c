// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/ingest/result.c (and the matrix.json reader behind
 * it): a result root loads into metrics in file order, and bad input gets
 * one clear line naming the file and what is wrong, with EX_NOINPUT (66)
 * or EX_DATAERR (65) and never a crash: missing files, malformed JSON or
 * YAML, non-numeric values, different run counts, empty matrices, absurd
 * sizes. Each test builds its result root under a fresh /tmp directory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfbot/util/fileio.h"
#include "perfbot/ingest/result.h"
#include "perfbot/util/strbuf.h"

#include "testutil.h"

#define JOB_OK "testcase: fsmark\ntbox_group: lkp-icl-2sp6\n"

struct fx {
	char dir[64];
	struct result_root rr;
	struct pb_err err;
	struct strbuf tmp;
	char path[128];		/* the last file written or named */
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_result");

	if (!f)
		return -1;
	sb_init(&f->tmp, 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	result_root_release(&f->rr);
	tu_rmtree(f->dir);
	sb_release(&f->tmp);
	free(f);
	return 0;
}

/* f->path = '<dir>/<name>'. */
static const char *name(struct fx *f, const char *file)
{
	return tu_path(f->path, sizeof(f->path), f->dir, file);
}

static void put_n(struct fx *f, const char *file, const char *text,
		  size_t len)
{
	tu_write_n(name(f, file), text, len, 0600);
}

static void put(struct fx *f, const char *file, const char *text)
{
	tu_write(name(f, file), text, 0600);
}

/* A root with this matrix.json and a good job.yaml, loaded. */
static void load_ok(struct fx *f, const char *matrix)
{
	put(f, "job.yaml", JOB_OK);
	put(f, "matrix.json", matrix);
	if (result_root_load(&f->rr, f->dir, &f->err))
		fail_msg("load failed: %s", f->err.msg);
}

/*
 * Loading fails with 'code' and one line "<dir>/<file>:..." that holds
 * every one of the NULL-terminated phrases; the root is left empty.
 */
static void load_fails(struct fx *f, int code, const char *file, ...)
{
	const char *phrase;
	size_t n;
	va_list ap;

	assert_int_equal(result_root_load(&f->rr, f->dir, &f->err), -1);
	name(f, file);
	n = strlen(f->path);
	if (strncmp(f->err.msg, f->path, n) || f->err.msg[n] != ':')
		fail_msg("'%s' does not start with '%s:'", f->err.msg,
			 f->path);
	assert_null(strchr(f->err.msg, '\n'));
	va_start(ap, file);
	while ((phrase = va_arg(ap, const char *)))
		if (!strstr(f->err.msg, phrase))
			fail_msg("'%s' does not say '%s'", f->err.msg, phrase);
	va_end(ap);
	assert_int_equal(f->err.code, code);
	assert_null(f->rr.metrics);
	assert_int_equal(f->rr.nmetrics, 0);
}

/* A good job.yaml and this matrix.json; loading must fail saying so. */
#define MATRIX_FAILS(f, text, ...)                                       \
	do {                                                             \
		put(f, "job.yaml", JOB_OK);                              \
		put(f, "matrix.json", text);                             \
		load_fails(f, EX_DATAERR, "matrix.json", __VA_ARGS__,    \
			   (const char *)NULL);                          \
	} while (0)

static void assert_values(const struct result_root *rr,
			  const struct metric *m, const double *want, size_t n)
{
	size_t i;

	assert_non_null(m);
	for (i = 0; i < n; i++)
		if (metric_values(rr, m)[i] != want[i])
			fail_msg("%s[%zu] = %g, want %g", m->name, i,
				 metric_values(rr, m)[i], want[i]);
}

/* ---- good roots ---- */

static void t_load_ok(void **state)
{
	struct fx *f = *state;
	static const double fps[] = { 19.1, 19.0, 19.2 };
	static const double cs[] = { 3380, 3391, -2 };

	load_ok(f, "{\"stats_source\": [\"a/1\", \"a/2\", \"a/3\"],\n"
		   " \"fsmark.files_per_sec\": [19.1, 19.0, 19.2],\n"
		   " \"vmstat.system.cs\": [3380, 3391, -2]}\n");
	assert_string_equal(f->rr.dir, f->dir);
	assert_int_equal(f->rr.runs, 3);
	assert_int_equal(f->rr.nmetrics, 2);
	assert_string_equal(f->rr.metrics[0].name, "fsmark.files_per_sec");
	assert_values(&f->rr, &f->rr.metrics[0], fps, 3);
	assert_string_equal(f->rr.metrics[1].name, "vmstat.system.cs");
	assert_values(&f->rr, &f->rr.metrics[1], cs, 3);
	assert_string_equal(result_root_job_str(&f->rr, "testcase"), "fsmark");
	assert_string_equal(result_root_job_str(&f->rr, "tbox_group"),
			    "lkp-icl-2sp6");
	assert_true(ynode_is(f->rr.job.root, Y_MAP));
}

static void t_metrics_order(void **state)
{
	struct fx *f = *state;
	static const char *const want[] = {
		"zeta.last", "alpha.first", "mid.x", "aaa", "zzz",
	};
	size_t i;

	load_ok(f, "{\"zeta.last\": [1], \"alpha.first\": [2], \"mid.x\": [3],"
		   " \"aaa\": [4], \"zzz\": [5]}");
	assert_int_equal(f->rr.nmetrics, 5);
	for (i = 0; i < 5; i++) {
		assert_string_equal(f->rr.metrics[i].name, want[i]);
		assert_true(metric_values(&f->rr, &f->rr.metrics[i])[0] == (double)(i + 1));
	}
}

static void t_find(void **state)
{
	struct fx *f = *state;
	const struct metric *m;

	load_ok(f, "{\"a.b\": [1, 2], \"c\": [3, 4], \"d\": [5, 6]}");
	m = result_root_find(&f->rr, "c");
	assert_ptr_equal(m, &f->rr.metrics[1]);
	assert_true(metric_values(&f->rr, m)[1] == 4);
	assert_ptr_equal(result_root_find(&f->rr, "a.b"), &f->rr.metrics[0]);
	assert_null(result_root_find(&f->rr, "a"));
	assert_null(result_root_find(&f->rr, "C"));
	assert_null(result_root_find(&f->rr, ""));
}

/* A list holding strings is a metric without values, marked 'strings'. */
static void t_string_lists_ignored(void **state)
{
	struct fx *f = *state;
	const struct metric *m;

	load_ok(f, "{\"stats_source\": [\"x\", \"y\"],"
		   " \"kmsg.tags\": [\"oops\", \"warn\"],"
		   " \"mix\": [1, \"2\"],"
		   " \"m\": [1.5, 2.5]}");
	assert_int_equal(f->rr.nmetrics, 3);
	assert_null(result_root_find(&f->rr, "stats_source"));
	m = result_root_find(&f->rr, "kmsg.tags");
	assert_non_null(m);
	assert_true(m->strings && metric_values(&f->rr, m)[0] == 0 && metric_values(&f->rr, m)[1] == 0);
	assert_true(result_root_find(&f->rr, "mix")->strings);
	assert_false(result_root_find(&f->rr, "m")->strings);
	assert_int_equal(f->rr.runs, 2);
}

/* Ruby's JSON: a number without '.' or exponent is an Integer. */
static void t_integer_literals(void **state)
{
	struct fx *f = *state;
	const struct metric *m;

	load_ok(f, "{\"m\": [1, 1.0, 1e2, -0, 20], \"n\": [1]}");
	m = result_root_find(&f->rr, "m");
	assert_int_equal(metric_ints(&f->rr, m)[0], 1);
	assert_int_equal(metric_ints(&f->rr, m)[1], 0);
	assert_int_equal(metric_ints(&f->rr, m)[2], 0);
	assert_int_equal(metric_ints(&f->rr, m)[3], 1);
	assert_false(signbit(metric_values(&f->rr, m)[3]));
	assert_int_equal(metric_ints(&f->rr, m)[4], 1);
	/* the 0 padding is an Integer too */
	m = result_root_find(&f->rr, "n");
	assert_int_equal(metric_ints(&f->rr, m)[1], 1);
	assert_true(metric_values(&f->rr, m)[1] == 0);
}

static void t_padding(void **state)
{
	struct fx *f = *state;
	static const double a[] = { 1, 2, 3, 4 };
	static const double b[] = { 5, 0, 0, 0 };
	static const double c[] = { 0, 0, 0, 0 };

	/* No stats_source: the longest list gives the runs. */
	load_ok(f, "{\"a\": [1, 2, 3, 4], \"b\": [5], \"c\": []}");
	assert_int_equal(f->rr.runs, 4);
	assert_values(&f->rr, result_root_find(&f->rr, "a"), a, 4);
	assert_values(&f->rr, result_root_find(&f->rr, "b"), b, 4);
	assert_values(&f->rr, result_root_find(&f->rr, "c"), c, 4);
}

static void t_padding_to_stats_source(void **state)
{
	struct fx *f = *state;
	static const double a[] = { 7, 8, 0 };

	load_ok(f, "{\"a\": [7, 8], \"stats_source\": [\"1\", \"2\", \"3\"]}");
	assert_int_equal(f->rr.runs, 3);
	assert_values(&f->rr, result_root_find(&f->rr, "a"), a, 3);
}

static void t_numbers(void **state)
{
	struct fx *f = *state;
	static const double want[] = {
		0, -0.5, 1e300, -1e300, 6.694e+10, 1.385E8, 12345678901234567.0,
		0.1, 123456789.123456789,
	};

	load_ok(f, "{\"n\": [0, -0.5, 1e300, -1e300, 6.694e+10, 1.385E8,"
		   " 12345678901234567, 0.1, 123456789.123456789]}");
	assert_int_equal(f->rr.runs, 9);
	assert_values(&f->rr, &f->rr.metrics[0], want, 9);
}

static void t_whitespace_and_escapes(void **state)
{
	struct fx *f = *state;

	load_ok(f, "\n\t{ \"meminfo.Active(anon)\" :\r\n [ 1 , 2 ] ,"
		   "\"esc\\\"aped\\u00e9\\/\" : [3,4] }\n\n");
	assert_int_equal(f->rr.nmetrics, 2);
	assert_string_equal(f->rr.metrics[0].name, "meminfo.Active(anon)");
	assert_string_equal(f->rr.metrics[1].name, "esc\"aped\xc3\xa9/");
	assert_non_null(result_root_find(&f->rr, "esc\"aped\xc3\xa9/"));
}

static void t_exactly_max_runs(void **state)
{
	struct fx *f = *state;
	struct strbuf *sb = &f->tmp;
	size_t i;

	assert_int_equal(sb_adds(sb, "{\"m\": [0"), 0);
	for (i = 1; i < RESULT_MAX_RUNS; i++)
		assert_int_equal(sb_addf(sb, ",%zu", i), 0);
	assert_int_equal(sb_adds(sb, "]}"), 0);
	load_ok(f, sb_str(sb));
	assert_int_equal(f->rr.runs, RESULT_MAX_RUNS);
	assert_true(metric_values(&f->rr, f->rr.metrics)[RESULT_MAX_RUNS - 1] ==
		    RESULT_MAX_RUNS - 1);
}

static void t_parse_matrix_direct(void **state)
{
	struct fx *f = *state;
	const char *text = "{\"x\": [1, 2], \"y\": [3]}";
	static const double y[] = { 3, 0 };

	assert_int_equal(result_root_parse_matrix(&f->rr, "mem", text,
						  strlen(text), &f->err), 0);
	assert_int_equal(f->rr.runs, 2);
	assert_int_equal(f->rr.nmetrics, 2);
	assert_values(&f->rr, result_root_find(&f->rr, "y"), y, 2);
	assert_null(f->rr.job.root);
}

static void t_parse_matrix_length_bounded(void **state)
{
	struct fx *f = *state;
	/* Only the first 'len' bytes count: the rest is not JSON. */
	const char *text = "{\"x\": [1]}GARBAGE";

	assert_int_equal(result_root_parse_matrix(&f->rr, "mem", text, 10,
						  &f->err), 0);
	assert_int_equal(f->rr.nmetrics, 1);
}

static void t_parse_matrix_errors_name_it(void **state)
{
	struct fx *f = *state;
	const char *text = "{\"x\": [1, true]}";

	assert_int_equal(result_root_parse_matrix(&f->rr, "http://h/m.json",
						  text, strlen(text),
						  &f->err), -1);
	assert_int_equal(f->err.code, EX_DATAERR);
	assert_memory_equal(f->err.msg, "http://h/m.json:", 16);
	assert_non_null(strstr(f->err.msg, "'x'"));
	assert_non_null(strstr(f->err.msg, "not a number"));
}

static void t_job_str(void **state)
{
	struct fx *f = *state;

	put(f, "job.yaml", JOB_OK "rootfs: debian\nnested:\n  a: b\n"
	    "list: [x]\nempty:\n");
	put(f, "matrix.json", "{\"m\": [1]}");
	assert_int_equal(result_root_load(&f->rr, f->dir, &f->err), 0);
	assert_string_equal(result_root_job_str(&f->rr, "rootfs"), "debian");
	assert_null(result_root_job_str(&f->rr, "nested"));
	assert_null(result_root_job_str(&f->rr, "list"));
	assert_null(result_root_job_str(&f->rr, "empty"));
	assert_null(result_root_job_str(&f->rr, "absent"));
}

/* ---- missing and unreadable input ---- */

static void t_missing_dir(void **state)
{
	struct fx *f = *state;
	char gone[128];

	snprintf(gone, sizeof(gone), "%s/nope", f->dir);
	assert_int_equal(result_root_load(&f->rr, gone, &f->err), -1);
	assert_int_equal(f->err.code, EX_NOINPUT);
	assert_non_null(strstr(f->err.msg, "/nope/matrix.json: "));
	assert_null(f->rr.dir);
}

static void t_missing_matrix(void **state)
{
	struct fx *f = *state;

	put(f, "job.yaml", JOB_OK);
	load_fails(f, EX_NOINPUT, "matrix.json", "No such file",
		   (const char *)NULL);
}

static void t_missing_job(void **state)
{
	struct fx *f = *state;

	put(f, "matrix.json", "{\"m\": [1, 2]}");
	assert_int_equal(result_root_load(&f->rr, f->dir, &f->err), -1);
	name(f, "job.yaml");
	assert_int_equal(f->err.code, EX_NOINPUT);
	assert_memory_equal(f->err.msg, f->path, strlen(f->path));
	assert_non_null(strstr(f->err.msg, "No such file"));
	/* Everything loaded before is released. */
	assert_null(f->rr.metrics);
	assert_null(f->rr.dir);
}

static void t_matrix_is_directory(void **state)
{
	struct fx *f = *state;

	put(f, "job.yaml", JOB_OK);
	assert_int_equal(mkdir(name(f, "matrix.json"), 0700), 0);
	load_fails(f, EX_DATAERR, "matrix.json", "directory",
		   (const char *)NULL);
}

static void t_matrix_nul_byte(void **state)
{
	struct fx *f = *state;

	put(f, "job.yaml", JOB_OK);
	put_n(f, "matrix.json", "{\"m\": [1]}\0", 11);
	load_fails(f, EX_DATAERR, "matrix.json", "NUL", (const char *)NULL);
}

/* ---- malformed JSON ---- */

static void t_malformed_json(void **state)
{
	struct fx *f = *state;

	MATRIX_FAILS(f, "{\n\"a\": [1,\n}\n", "json:3:");
}

static void t_malformed_json_variants(void **state)
{
	static const char *const bad[] = {
		"", "   \n", "{", "{\"a\": [1, 2]", "{\"a\" [1]}",
		"{\"a\": [1 2]}", "{a: [1]}", "{\"a\": [1],}",
		"{\"a\": [01]}", "{\"a\": [1.]}", "{\"a\": [.5]}",
		"{\"a\": [+1]}", "{\"a\": [1e]}", "{\"a\": [0x10]}",
		"{\"a\": [NaN]}", "{\"a\": [Infinity]}", "{\"a\": [-]}",
		"{\"a\": [1]} {}", "{\"a\": [1]} x", "{\"a\": [\"x]}",
		"{\"a\\q\": [1]}", "{\"a\\u12\": [1]}", "{\"a\": [1]]",
		"{\"a\nb\": [1]}",
	};
	struct fx *f = *state;
	size_t i, n;

	put(f, "job.yaml", JOB_OK);
	name(f, "matrix.json");
	n = strlen(f->path);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		put(f, "matrix.json", bad[i]);
		if (result_root_load(&f->rr, f->dir, &f->err) != -1)
			fail_msg("accepted '%s'", bad[i]);
		if (f->err.code != EX_DATAERR ||
		    strncmp(f->err.msg, f->path, n) || f->err.msg[n] != ':')
			fail_msg("'%s': code %d, '%s'", bad[i], f->err.code,
				 f->err.msg);
		assert_null(strchr(f->err.msg, '\n'));
	}
}

static void t_not_an_object(void **state)
{
	struct fx *f = *state;

	MATRIX_FAILS(f, "[1, 2]", "matrix.json:");
	result_root_release(&f->rr);
	MATRIX_FAILS(f, "\"text\"", "matrix.json:");
	result_root_release(&f->rr);
	MATRIX_FAILS(f, "42", "matrix.json:");
}

static void t_duplicate_keys(void **state)
{
	struct fx *f = *state;

	MATRIX_FAILS(f, "{\"dup.key\": [1], \"b\": [2], \"dup.key\": [3]}",
		     "dup.key");
}

static void t_duplicate_string_list_keys(void **state)
{
	struct fx *f = *state;

	/* Duplicates are refused whatever the lists hold: the second
	 * stats_source must not silently change the run count. */
	MATRIX_FAILS(f, "{\"stats_source\": [\"r1\"], \"m\": [1, 2],"
		     " \"stats_source\": [\"r1\", \"r2\"]}", "stats_source");
	result_root_release(&f->rr);
	MATRIX_FAILS(f, "{\"x\": [\"a\"], \"x\": [1]}", "x");
}

static void t_invalid_utf8(void **state)
{
	struct fx *f = *state;

	/* JSON text is UTF-8; a metric name that is not would end up in
	 * mails and JSON output. */
	MATRIX_FAILS(f, "{\"ok\": [1], \"bad\xff\xfe\": [1]}", "json:1:");
	result_root_release(&f->rr);
	MATRIX_FAILS(f, "{\"ok\": [1], \"\xc3\": [1]}", "json:1:");
	/* past the first eight ASCII bytes (read a word at a time) */
	result_root_release(&f->rr);
	MATRIX_FAILS(f, "{\"perf-stat.ps.\xff.x\": [1]}", "json:1:");
	result_root_release(&f->rr);
	MATRIX_FAILS(f, "{\"perf-stat.ps.cpu\xc3\": [1]}", "json:1:");
	result_root_release(&f->rr);
	MATRIX_FAILS(f, "{\"perf-stat.ps.cpu.\xed\xa0\x80\": [1]}",
		     "json:1:");	/* a surrogate */
}

/*
 * A metric name reaches the subject and the table: an escaped newline (or
 * any control character) in it would end a line there, so it is refused.
 */
static void t_control_in_name(void **state)
{
	struct fx *f = *state;

	MATRIX_FAILS(f, "{\"ok\": [1], \"a.b\\n--=-perfbot-0\\nContent-"
		     "Type: text/html\": [1]}", "json:1:",
		     "control character in a metric name");
	result_root_release(&f->rr);
	MATRIX_FAILS(f, "{\"a\\rb\": [1]}", "control character");
	result_root_release(&f->rr);
	MATRIX_FAILS(f, "{\"a\\u001bb\": [1]}", "control character");
	result_root_release(&f->rr);
	MATRIX_FAILS(f, "{\"a\\u0085b\": [1]}", "control character");
	result_root_release(&f->rr);
	MATRIX_FAILS(f, "{\"a\\u0000b\": [1]}", "json:1:", "NUL");
}

static void t_huge_number_literal(void **state)
{
	struct fx *f = *state;

	MATRIX_FAILS(f, "{\"a\": [1e400]}", "json:");
	result_root_release(&f->rr);
	MATRIX_FAILS(f, "{\"a\": [-1e99999]}", "json:");
}

/* ---- values that are not numbers ---- */

static void t_value_bool(void **state)
{
	struct fx *f = *state;

	MATRIX_FAILS(f, "{\"ok\": [1, 2], \"bad.metric\": [1, true]}",
		     "'bad.metric'", "run 2", "not a number");
}

static void t_value_null(void **state)
{
	struct fx *f = *state;

	MATRIX_FAILS(f, "{\"bad\": [null, 1]}", "'bad'", "run 1",
		     "not a number");
}

static void t_value_object(void **state)
{
	struct fx *f = *state;

	MATRIX_FAILS(f, "{\"bad\": [1, 2, {\"x\": 1}]}", "'bad'", "run 3",
		     "not a number");
	result_root_release(&f->rr);
	MATRIX_FAILS(f, "{\"bad\": [[1], 2]}", "'bad'", "not a number");
}

static void t_metric_not_a_list(void **state)
{
	struct fx *f = *state;

	MATRIX_FAILS(f, "{\"ok\": [1], \"scalar\": 5}", "'scalar'",
		     "not a list");
	result_root_release(&f->rr);
	MATRIX_FAILS(f, "{\"ok\": [1], \"flag\": false}", "'flag'",
		     "not a list");
	result_root_release(&f->rr);
	MATRIX_FAILS(f, "{\"ok\": [1], \"obj\": {\"a\": [1]}}", "'obj'",
		     "not a list");
	result_root_release(&f->rr);
	MATRIX_FAILS(f, "{\"ok\": [1], \"nil\": null}", "'nil'", "not a list");
	result_root_release(&f->rr);
	MATRIX_FAILS(f, "{\"ok\": [1], \"str\": \"1\"}", "'str'", "not a list");
}

/* Only strings (and no stats_source): there is nothing to count runs by. */
static void t_mixed_numbers_strings(void **state)
{
	struct fx *f = *state;

	MATRIX_FAILS(f, "{\"mix\": [1, \"2\", 3]}", "no runs");
}

static void t_value_out_of_range(void **state)
{
	struct fx *f = *state;

	MATRIX_FAILS(f, "{\"m\": [1, 1e301]}", "'m'", "run 2",
		     "out of range");
	result_root_release(&f->rr);
	MATRIX_FAILS(f, "{\"m\": [-1e301]}", "'m'", "run 1", "out of range");
	result_root_release(&f->rr);
	MATRIX_FAILS(f, "{\"m\": [1.7976931348623157e308]}", "'m'",
		     "out of range");
}

static void t_message_scrubbed(void **state)
{
	struct fx *f = *state;

	/* A metric name with an escaped newline cannot break the line: it
	 * is refused before anything names it. */
	MATRIX_FAILS(f, "{\"evil\\nSubject: x\": [true]}",
		     "control character in a metric name");
}

/* ---- run counts and empty matrices ---- */

static void t_longer_than_stats_source(void **state)
{
	struct fx *f = *state;

	MATRIX_FAILS(f, "{\"stats_source\": [\"r1\", \"r2\"],"
		     " \"ok\": [1, 2], \"long\": [1, 2, 3]}",
		     "'long'", "3 values", "2 runs");
}

static void t_empty_matrix(void **state)
{
	struct fx *f = *state;

	MATRIX_FAILS(f, "{}", "no runs");
	result_root_release(&f->rr);
	MATRIX_FAILS(f, "  {  }  \n", "no runs");
}

static void t_no_runs(void **state)
{
	struct fx *f = *state;

	MATRIX_FAILS(f, "{\"a\": [], \"b\": []}", "no runs");
	result_root_release(&f->rr);
	/* stats_source, when present, is the run count: zero runs here
	 * (and it is never a metric itself, empty or not). */
	MATRIX_FAILS(f, "{\"stats_source\": [], \"a\": [1]}", "");
}

static void t_no_metrics(void **state)
{
	struct fx *f = *state;

	MATRIX_FAILS(f, "{\"stats_source\": [\"r1\", \"r2\"]}", "no metrics");
	result_root_release(&f->rr);
	/* Only lists of strings: nothing to compare ("no runs" or "no
	 * metrics" both say it). */
	MATRIX_FAILS(f, "{\"tags\": [\"a\"], \"more\": [\"b\"]}", "no ");
}

/* ---- absurd sizes ---- */

static void t_too_many_runs(void **state)
{
	struct fx *f = *state;
	struct strbuf *sb = &f->tmp;
	size_t i;

	assert_int_equal(sb_adds(sb, "{\"m\": [0"), 0);
	for (i = 1; i <= RESULT_MAX_RUNS; i++)
		assert_int_equal(sb_adds(sb, ",1"), 0);
	assert_int_equal(sb_adds(sb, "]}"), 0);
	MATRIX_FAILS(f, sb_str(sb), "runs");
}

static void t_too_many_runs_stats_source(void **state)
{
	struct fx *f = *state;
	struct strbuf *sb = &f->tmp;
	size_t i;

	assert_int_equal(sb_adds(sb, "{\"stats_source\": [\"r\""), 0);
	for (i = 1; i <= RESULT_MAX_RUNS; i++)
		assert_int_equal(sb_adds(sb, ",\"r\""), 0);
	assert_int_equal(sb_adds(sb, "], \"m\": [1]}"), 0);
	MATRIX_FAILS(f, sb_str(sb), "runs");
}

static void t_metric_name_too_long(void **state)
{
	struct fx *f = *state;
	struct strbuf *sb = &f->tmp;

	assert_int_equal(sb_adds(sb, "{\""), 0);
	assert_int_equal(sb_addn(sb, 'n', RESULT_MAX_NAME + 1), 0);
	assert_int_equal(sb_adds(sb, "\": [1]}"), 0);
	MATRIX_FAILS(f, sb_str(sb), "name");
}

static void t_metric_name_at_limit(void **state)
{
	struct fx *f = *state;
	struct strbuf *sb = &f->tmp;

	assert_int_equal(sb_adds(sb, "{\""), 0);
	assert_int_equal(sb_addn(sb, 'n', RESULT_MAX_NAME), 0);
	assert_int_equal(sb_adds(sb, "\": [1]}"), 0);
	load_ok(f, sb_str(sb));
	assert_int_equal(strlen(f->rr.metrics[0].name), RESULT_MAX_NAME);
}

static void t_metric_name_empty(void **state)
{
	struct fx *f = *state;

	MATRIX_FAILS(f, "{\"ok\": [1], \"\": [2]}", "name");
}

/* ---- job.yaml ---- */

static void t_job_bad_yaml(void **state)
{
	struct fx *f = *state;

	put(f, "matrix.json", "{\"m\": [1]}");
	put(f, "job.yaml", "testcase: fsmark\ntbox_group: [x\n");
	load_fails(f, EX_DATAERR, "job.yaml", (const char *)NULL);
	result_root_release(&f->rr);
	put(f, "job.yaml", "testcase: a\ntestcase: b\ntbox_group: x\n");
	load_fails(f, EX_DATAERR, "job.yaml", "job.yaml:2:", "duplicate",
		   (const char *)NULL);
}

static void t_job_not_mapping(void **state)
{
	struct fx *f = *state;

	put(f, "matrix.json", "{\"m\": [1]}");
	put(f, "job.yaml", "- testcase\n- fsmark\n");
	load_fails(f, EX_DATAERR, "job.yaml", "not a mapping",
		   (const char *)NULL);
	result_root_release(&f->rr);
	put(f, "job.yaml", "");
	load_fails(f, EX_DATAERR, "job.yaml", "not a mapping",
		   (const char *)NULL);
	result_root_release(&f->rr);
	put(f, "job.yaml", "just a string\n");
	load_fails(f, EX_DATAERR, "job.yaml", "not a mapping",
		   (const char *)NULL);
}

static void t_job_missing_keys(void **state)
{
	struct fx *f = *state;

	put(f, "matrix.json", "{\"m\": [1]}");
	put(f, "job.yaml", "tbox_group: lkp\n");
	load_fails(f, EX_DATAERR, "job.yaml", "'testcase'",
		   (const char *)NULL);
	result_root_release(&f->rr);
	put(f, "job.yaml", "testcase: fsmark\n");
	load_fails(f, EX_DATAERR, "job.yaml", "'tbox_group'",
		   (const char *)NULL);
	result_root_release(&f->rr);
	/* Present but not a plain value. */
	put(f, "job.yaml", "testcase:\n  a: b\ntbox_group: lkp\n");
	load_fails(f, EX_DATAERR, "job.yaml", "'testcase'",
		   (const char *)NULL);
	result_root_release(&f->rr);
	put(f, "job.yaml", "testcase: fsmark\ntbox_group:\n");
	load_fails(f, EX_DATAERR, "job.yaml", "'tbox_group'",
		   (const char *)NULL);
}

static void t_job_too_large(void **state)
{
	struct fx *f = *state;
	struct strbuf *sb = &f->tmp;

	assert_int_equal(sb_adds(sb, JOB_OK "pad: \""), 0);
	assert_int_equal(sb_addn(sb, 'x', RESULT_MAX_JOB_BYTES), 0);
	assert_int_equal(sb_adds(sb, "\"\n"), 0);
	put(f, "matrix.json", "{\"m\": [1]}");
	put_n(f, "job.yaml", sb->buf, sb->len);
	load_fails(f, EX_DATAERR, "job.yaml", "limit", (const char *)NULL);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(t_load_ok),
		T(t_metrics_order),
		T(t_find),
		T(t_string_lists_ignored),
		T(t_integer_literals),
		T(t_padding),
		T(t_padding_to_stats_source),
		T(t_numbers),
		T(t_whitespace_and_escapes),
		T(t_exactly_max_runs),
		T(t_parse_matrix_direct),
		T(t_parse_matrix_length_bounded),
		T(t_parse_matrix_errors_name_it),
		T(t_job_str),
		T(t_missing_dir),
		T(t_missing_matrix),
		T(t_missing_job),
		T(t_matrix_is_directory),
		T(t_matrix_nul_byte),
		T(t_malformed_json),
		T(t_malformed_json_variants),
		T(t_not_an_object),
		T(t_duplicate_keys),
		T(t_duplicate_string_list_keys),
		T(t_invalid_utf8),
		T(t_control_in_name),
		T(t_huge_number_literal),
		T(t_value_bool),
		T(t_value_null),
		T(t_value_object),
		T(t_metric_not_a_list),
		T(t_mixed_numbers_strings),
		T(t_value_out_of_range),
		T(t_message_scrubbed),
		T(t_longer_than_stats_source),
		T(t_empty_matrix),
		T(t_no_runs),
		T(t_no_metrics),
		T(t_too_many_runs),
		T(t_too_many_runs_stats_source),
		T(t_metric_name_too_long),
		T(t_metric_name_at_limit),
		T(t_metric_name_empty),
		T(t_job_bad_yaml),
		T(t_job_not_mapping),
		T(t_job_missing_keys),
		T(t_job_too_large),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
