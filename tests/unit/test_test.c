// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/act/test.c: what a tree test may name (the
 * repository's scheme, host and patterns, a safe ref), and the whole
 * "test" in a temporary state with the fake farm (scripts/fake-lkp-run,
 * exec) on seed 003's result roots: the act step's answers (the ack, a
 * refusal, the farm's refusal, a patch that does not apply) and the
 * follow-ups (fixed, partly fixed, not fixed, did not finish), each
 * compared with its golden file fixtures/golden/test-*.expected
 * ('UPDATE=1 build/tests/test_test' rewrites them; check the diff). Run
 * from the repository root after 'make build/tools/fake-lkp-run'.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <gmime/gmime.h>

#include "perfbot/act/kind.h"
#include "perfbot/act/dispatch.h"
#include "perfbot/act/test.h"
#include "perfbot/util/fileio.h"
#include "perfbot/util/gmime.h"
#include "perfbot/util/id.h"
#include "perfbot/state/outbox.h"
#include "perfbot/state/inbox.h"

#include "testutil.h"

#define T0 1739548080	/* 2025-02-14 15:48:00 UTC */
#define REPORT_MSGID "202502141548.7c8c8447c8c8447c-perfbot@example.test"
#define ASK_MSGID "ask-1@example.test"
#define SEED "fixtures/seeds/003"

#define DIFF(directive) \
	"diff --git a/fs/iversion.c b/fs/iversion.c\n" \
	"--- a/fs/iversion.c\n" \
	"+++ b/fs/iversion.c\n" \
	"@@ -10,2 +10,3 @@ bool inode_cmp_iversion(void)\n" \
	" \tu64 cur;\n" \
	"+\t/* fake-lkp-run: " directive " */\n" \
	" \treturn cur != old;\n"

struct fx {
	char dir[64];
	char top[PATH_MAX];	/* the repository (the working directory) */
	char path[PATH_MAX];	/* <dir>/perfbot.yaml */
	char results[PATH_MAX];
	char db[PATH_MAX];	/* the state's file, */
	char state[1024];	/* and where it is (tu_state()) */
	struct config cfg;
	int loaded;
	struct state *st;
	struct thread_report tr;
	struct answer_thread t;
	struct reply_patch patch;
	struct act_ctx a;
	struct pb_err err;
};

/* The configuration: the fake farm, 'extra' lines at the end. */
static void configure(struct fx *f, const char *extra)
{
	struct strbuf y = STRBUF_INIT;

	assert_int_equal(sb_addf(&y, "identity:\n"
				 "  from: \"perfbot <perfbot@example.test>\"\n"
				 "  message_id_domain: example.test\n"
				 "state: \"%s\"\n"
				 "scheduler:\n  backend: exec\n"
				 "  argv: [\"%s/scripts/fake-lkp-run\", "
				 "\"{result_root}\", \"{commit}\", \"{runs}\", "
				 "\"{request_id}\", \"{kind}\", \"{job}\", "
				 "\"{repo}\", \"{ref}\", \"{patch}\"]\n"
				 "  results_dir: %s\n  deadline: 3600\n%s",
				 f->state, f->top,
				 f->results, extra ? extra : ""),
			 0);
	tu_load_config(&f->cfg, &f->loaded, f->path, sb_str(&y), &f->err);
	sb_release(&y);
	f->a.cfg = &f->cfg;
}

/* The report of seed 003, queued with its manifest as a report is. */
static void queue_report(struct fx *f)
{
	struct strbuf man = STRBUF_INIT, rules = STRBUF_INIT;
	struct outbox_mail m = { 0 };
	struct strbuf seed = STRBUF_INIT;
	char path[PATH_MAX];
	const char *p;

	tu_read_text(SEED "/metrics.yaml", &seed);
	/* the seed's era rules, their base named absolutely */
	assert_int_equal(sb_addf(&rules, "base: %s/config/metrics.yaml\n",
				 f->top), 0);
	for (p = sb_str(&seed); *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 :
	     p + strlen(p))
		if (strncmp(p, "base:", 5))
			assert_int_equal(sb_add(&rules, p, strchr(p, '\n') ?
					(size_t)(strchr(p, '\n') + 1 - p) :
					strlen(p)), 0);
	tu_put(f->dir, "metrics.yaml", sb_str(&rules), 0644);
	assert_int_equal(sb_addf(&man, "id: tp-1\n"
		"base: { commit: 3da90b159b146672f830bcd2489dd3a1f4e9e089, "
		"subject: \" f2fs-for-4.16-rc1\", result_root: %s/" SEED
		"/base }\n"
		"head: { commit: c0cef30e4ff0dc025f4a1660b8f0ba43ed58426e, "
		"subject: \"iversion: make inode_cmp_iversion{+raw} return "
		"bool instead of s64\", author: \"Joanna <alice@example.test>\", "
		"repo: \"https://git.kernel.org/cgit/linux/kernel/git/torvalds/"
		"linux.git\", branch: master, tree: linus, result_root: %s/"
		SEED "/head }\nmetrics: %s\n", f->top, f->top,
		tu_path(path, sizeof(path), f->dir, "metrics.yaml")), 0);
	m.id = "tp-1";
	m.kind = "report";
	m.message_id = REPORT_MSGID;
	m.sender = "perfbot@example.test";
	m.recipients = "[\"alice@example.test\",\"perf@example.test\"]";
	m.message = "Subject: x\n\nreport\n";
	m.len = strlen(m.message);
	assert_int_equal(state_queue(f->st, &m, "tp-1.yaml", sb_str(&man),
				     f->dir, "[linus:master] [iversion] "
				     "c0cef30e4f: aim7.jobs-per-min -18.0% "
				     "regression", T0 - 3600, &f->err), 0);
	sb_release(&man);
	sb_release(&rules);
	sb_release(&seed);
}

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_test");
	static const char *const refs[] = { REPORT_MSGID };
	int found = 0;

	if (!f || !getcwd(f->top, sizeof(f->top)))
		return -1;
	tu_path(f->path, sizeof(f->path), f->dir, "perfbot.yaml");
	tu_path(f->results, sizeof(f->results), f->dir, "results");
	tu_path(f->db, sizeof(f->db), f->dir, "perfbot.db");
	tu_state(f->state, sizeof(f->state), f->db);
	if (mkdir(f->results, 0755))
		return -1;
	configure(f, NULL);
	if (state_open(&f->st, f->cfg.state, STATE_WRITE, &f->err)) {
		fprintf(stderr, "setup: %s\n", f->err.msg);
		return -1;
	}
	queue_report(f);
	if (state_route(f->st, refs, 1, &f->tr, &found, &f->err) || !found)
		return -1;
	f->t = (struct answer_thread){ .message_id = ASK_MSGID,
				       .in_reply_to = REPORT_MSGID,
				       .references = refs, .nrefs = 1,
				       .subject = "Re: report",
				       .from_addr = "alice@example.test",
				       .from_name = "Joanna", .report = &f->tr };
	f->a = (struct act_ctx){ .st = f->st, .cfg = &f->cfg, .now = T0,
				 .t = &f->t, .patch = &f->patch };
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	answer_pieces_release(&f->a.pieces);
	thread_report_release(&f->tr);
	state_close(f->st);
	if (f->loaded)
		config_release(&f->cfg);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

/* 'text' is fixtures/golden/<name>.expected (UPDATE=1: becomes it). */
static void assert_golden(const char *name, const char *text)
{
	struct strbuf want = STRBUF_INIT;
	char path[256];

	snprintf(path, sizeof(path), "fixtures/golden/%s.expected", name);
	if (getenv("UPDATE") && !strcmp(getenv("UPDATE"), "1"))
		tu_write(path, text, 0644);
	tu_read_text(path, &want);
	if (strcmp(sb_str(&want), text))
		fail_msg("%s differs; it is now:\n%s", path, text);
	sb_release(&want);
}

/* Do the mail's one command 'line'; the pieces it made. */
static size_t act(struct fx *f, const char *line)
{
	struct mail_command c;

	assert_int_equal(command_parse_line(line, strlen(line), "#perfbot",
					    command_lookup, &c), 1);
	answer_pieces_release(&f->a.pieces);
	f->a.tests = 0;
	if (dispatch_commands(&f->a, &c, 1, 1, &f->err))
		fail_msg("dispatch_commands: %s", f->err.msg);
	return f->a.pieces.n;
}

static const char *piece(struct fx *f)
{
	return f->a.pieces.n ? f->a.pieces.v[0] : NULL;
}

static void set_patch(struct fx *f, const char *text)
{
	f->patch.text = (char *)text;
	f->patch.len = strlen(text);
	f->patch.hunks = 1;
}

/* The text of the follow-up queued for request 'rid' of 'msgid'. */
static char *answer_text(struct fx *f, const char *msgid, const char *rid)
{
	char tag[64], *id, *text;
	struct outbox_mail *out = NULL;
	GMimeStream *st;
	GMimeParser *p;
	GMimeMessage *msg;
	GMimeObject *part;
	size_t i, n = 0;

	snprintf(tag, sizeof(tag), "result:%s", rid);
	id = id_answer(msgid, tag);
	gmime_once();
	assert_int_equal(state_queued(f->st, &out, &n, &f->err), 0);
	for (i = 0; i < n && strcmp(out[i].id, id); i++)
		;
	if (i == n)
		fail_msg("no follow-up '%s' queued", id);
	st = g_mime_stream_mem_new_with_buffer(out[i].message, out[i].len);
	p = g_mime_parser_new_with_stream(st);
	msg = g_mime_parser_construct_message(p, NULL);
	assert_non_null(msg);
	part = g_mime_message_get_mime_part(msg);
	assert_true(GMIME_IS_TEXT_PART(part));
	text = g_mime_text_part_get_text(GMIME_TEXT_PART(part));
	g_object_unref(msg);
	g_object_unref(p);
	g_object_unref(st);
	outbox_free(out, n);
	free(id);
	return text;
}

/* The text of the follow-up queued for the first test of 'msgid'. */
static char *followup_text2(struct fx *f, const char *msgid)
{
	char *rid = id_test_request(msgid, 0), *text;

	text = answer_text(f, msgid, rid);
	free(rid);
	return text;
}

static char *followup_text(struct fx *f, size_t index)
{
	assert_int_equal(index, 0);
	return followup_text2(f, ASK_MSGID);
}

/* The follow-ups of a run at 'now': how many were answered. */
static long followups(struct fx *f, time_t now, struct kind_stats *ts)
{
	struct kind_env e = { .st = f->st, .cfg = &f->cfg, .now = now,
			      .jobs = 1 };

	if (kind_follow(&e, &kind_test, ts, &f->err))
		fail_msg("kind_follow: %s", f->err.msg);
	return ts->done + ts->failed + ts->expired;
}

/*
 * The report's requests as another process would read them (what is
 * committed), through the state API on a handle of its own, so on
 * either backend; oldest first. request_rows_free() after.
 */
static struct request *requests(struct fx *f, size_t *n)
{
	struct request *rows = NULL;
	struct state *rd = NULL;

	if (state_open(&rd, f->cfg.state, STATE_READ, &f->err))
		fail_msg("state_open: %s", f->err.msg);
	if (state_requests_of(rd, "tp-1", NULL, &rows, n, &f->err))
		fail_msg("state_requests_of: %s", f->err.msg);
	state_close(rd);
	return rows;
}

/* "status: detail" of the report's first request, or "". */
static const char *detail(struct fx *f, char *buf, size_t n)
{
	size_t nr;
	struct request *r = requests(f, &nr);

	buf[0] = '\0';
	if (nr)
		snprintf(buf, n, "%s: %s", r->status, r->detail ?
			 r->detail : "");
	request_rows_free(r, nr);
	return buf;
}

/* ------------------------------------------------------------------ */

static void t_repo_allowed(void **state)
{
	static const struct { const char *url, *why; } cases[] = {
		{ "https://git.kernel.org/pub/scm/linux/kernel/git/a/b.git",
		  NULL },
		{ "git://git.kernel.org/pub/scm/linux/kernel/git/a/b.git",
		  NULL },
		{ "https://github.com/dev/linux", "repo_not_allowed" },
		{ "http://git.kernel.org/x.git", "repo_scheme" },
		{ "ssh://git.kernel.org/x.git", "repo_scheme" },
		{ "file:///etc", "repo_scheme" },
		{ "/srv/git/linux", "repo_scheme" },
		{ "git@github.com:dev/linux.git", "repo_scheme" },
		{ "-uhttps://git.kernel.org/x", "repo_scheme" },
		{ "https://", "repo_unsafe" },
		{ "https:///x", "repo_unsafe" },
		{ "https://user:pw@git.kernel.org/x", "repo_unsafe" },
		{ "https://git.kernel.org/../x", "repo_unsafe" },
		{ "https://git.kernel.org/x;touch", "repo_unsafe" },
		{ "https://git.kernel.org/x$(id)", "repo_unsafe" },
		{ "https://git.kernel.org/x`id`", "repo_unsafe" },
		{ "https://git.kernel.org/\xc3\xa9", "repo_unsafe" },
		{ "https://-oProxy/x", "repo_unsafe" },
	};
	struct fx *f = *state;
	const char *why;
	size_t i;

	configure(f, "commands:\n  test_repos: [\"https://git.kernel.org/*\","
		  " \"git://git.kernel.org/pub/*\"]\n");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		why = "unset";
		test_repo_allowed(&f->cfg, cases[i].url, &why);
		if (cases[i].why ? !why || strcmp(why, cases[i].why) : !!why)
			fail_msg("'%s': %s, want %s", cases[i].url,
				 why ? why : "allowed",
				 cases[i].why ? cases[i].why : "allowed");
	}
	/* no patterns: tree tests are off */
	configure(f, NULL);
	assert_int_equal(test_repo_allowed(&f->cfg, cases[0].url, &why), -1);
	assert_string_equal(why, "repo_off");
}

static void t_ref_safe(void **state)
{
	static const char *const good[] = { "master", "for-next", "v6.13-rc1",
		"perf/fix", "dev/a_b+c",
		"3da90b159b146672f830bcd2489dd3a1f4e9e089", "1234567" };
	static const char *const bad[] = { "", "-b", "--upload-pack=x", ".x",
		"/x", "x/", "x.", "a..b", "a//b", "a/.b", "x.lock", "a b",
		"a\tb", "a~1", "a^", "a:b", "a?", "a*", "a[", "a\\b", "a@{1}",
		"a;b", "a$b", "\xc3\xa9" };
	char longref[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		if (!test_ref_safe(good[i]))
			fail_msg("'%s' refused", good[i]);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (test_ref_safe(bad[i]))
			fail_msg("'%s' taken", bad[i]);
	memset(longref, 'a', 201);
	longref[201] = '\0';
	assert_false(test_ref_safe(longref));
	longref[200] = '\0';
	assert_true(test_ref_safe(longref));
}

/* Item 4: a patch that brings the metric back, acked, then "fixed". */
static void t_fixed(void **state)
{
	struct fx *f = *state;
	struct kind_stats ts;
	char buf[256], *text;

	set_patch(f, DIFF("aim7.jobs-per-min *1.219"));
	assert_int_equal(act(f, "test"), 1);
	assert_golden("test-ack", piece(f));
	assert_true(f->a.acted);
	assert_int_equal(followups(f, T0 + 60, &ts), 1);
	assert_int_equal(ts.done, 1);
	assert_string_equal(detail(f, buf, sizeof(buf)), "done: fixed");
	text = followup_text(f, 0);
	assert_golden("test-result-fixed", text);
	g_free(text);
	/* answered once */
	assert_int_equal(followups(f, T0 + 120, &ts), 0);
}

static void t_partly_fixed(void **state)
{
	struct fx *f = *state;
	struct kind_stats ts;
	char buf[256], *text;

	set_patch(f, DIFF("aim7.jobs-per-min *1.1"));
	f->patch.parts = 1;
	f->patch.name = "0001-fix.patch";
	assert_int_equal(act(f, "test 6x"), 1);
	assert_int_equal(followups(f, T0 + 60, &ts), 1);
	assert_string_equal(detail(f, buf, sizeof(buf)), "done: partly fixed");
	text = followup_text(f, 0);
	assert_golden("test-result-partly", text);
	g_free(text);
}

/* A tree test whose branch changes nothing: "not fixed". */
static void t_not_fixed(void **state)
{
	struct fx *f = *state;
	struct kind_stats ts;
	char buf[256], *text;

	configure(f, "commands:\n  test_repos: [\"https://git.example.test/"
		  "*\"]\n");
	tu_put(f->results, "fake-lkp-trees",
	       "perf-fix aim7.jobs-per-min *1.0\n", 0644);
	assert_int_equal(act(f, "test https://git.example.test/linux.git "
			     "perf-fix"), 1);
	assert_non_null(strstr(piece(f), "https://git.example.test/linux.git "
			       "at perf-fix\n(request test-"));
	assert_int_equal(followups(f, T0 + 60, &ts), 1);
	assert_string_equal(detail(f, buf, sizeof(buf)), "done: not fixed");
	text = followup_text(f, 0);
	assert_golden("test-result-not-fixed", text);
	g_free(text);
}

/* The farm's reason for a patch that does not apply, answered at once. */
static void t_does_not_apply(void **state)
{
	struct fx *f = *state;
	struct kind_stats ts;
	char buf[256];

	set_patch(f, DIFF("does not apply"));
	assert_int_equal(act(f, "test"), 1);
	assert_golden("test-failed", piece(f));
	assert_string_equal(detail(f, buf, sizeof(buf)), "failed: error: patch "
			    "failed: fs/iversion.c:10\nerror: fs/iversion.c: "
			    "patch does not apply");
	/* nothing left to follow up */
	assert_int_equal(followups(f, T0 + 60, &ts), 0);
	assert_int_equal(ts.waiting, 0);
}

/* A farm that says no, and one that never finishes. */
static void t_rejected_and_expired(void **state)
{
	struct fx *f = *state;
	struct kind_stats ts;
	struct strbuf y = STRBUF_INIT;
	char buf[256], *text;

	set_patch(f, DIFF("aim7.jobs-per-min *1.219"));
	assert_int_equal(sb_addf(&y, "identity:\n  from: \"perfbot "
				 "<perfbot@example.test>\"\n  message_id_domain: "
				 "example.test\nstate: \"%s\"\n"
				 "scheduler:\n  backend: exec\n  argv: "
				 "[/bin/false]\n  results_dir: %s\n", f->state,
				 f->results), 0);
	tu_load_config(&f->cfg, &f->loaded, f->path, sb_str(&y), &f->err);
	sb_reset(&y);
	assert_int_equal(act(f, "test"), 1);
	assert_golden("test-rejected", piece(f));
	assert_string_equal(detail(f, buf, sizeof(buf)), "rejected: exit 1");
	/* a farm that takes it and never writes: did not finish */
	assert_int_equal(sb_addf(&y, "identity:\n  from: \"perfbot "
				 "<perfbot@example.test>\"\n  message_id_domain: "
				 "example.test\nstate: \"%s\"\n"
				 "scheduler:\n  backend: exec\n  argv: "
				 "[/bin/true]\n  results_dir: %s\n"
				 "  deadline: 3600\n", f->state, f->results), 0);
	tu_load_config(&f->cfg, &f->loaded, f->path, sb_str(&y), &f->err);
	sb_release(&y);
	f->t.message_id = "ask-2@example.test";
	assert_int_equal(act(f, "test"), 1);
	assert_int_equal(followups(f, T0 + 60, &ts), 0);
	assert_int_equal(ts.waiting, 1);
	assert_int_equal(followups(f, T0 + 3601, &ts), 1);
	assert_int_equal(ts.expired, 1);
	text = followup_text2(f, "ask-2@example.test");
	assert_golden("test-expired", text);
	g_free(text);
	f->t.message_id = ASK_MSGID;
}

/*
 * A farm that writes a result root without the headline metric: the
 * answer says so, "inconclusive", and shows no tests made on nothing.
 */
static void t_metric_missing(void **state)
{
	struct fx *f = *state;
	struct strbuf y = STRBUF_INIT;
	struct kind_stats ts;
	char buf[256], dir[PATH_MAX], *rid, *text;

	assert_int_equal(sb_addf(&y, "identity:\n  from: \"perfbot "
				 "<perfbot@example.test>\"\n  message_id_domain: "
				 "example.test\nstate: \"%s\"\n"
				 "scheduler:\n  backend: exec\n  argv: "
				 "[/bin/true]\n  results_dir: %s\n", f->state,
				 f->results), 0);
	tu_load_config(&f->cfg, &f->loaded, f->path, sb_str(&y), &f->err);
	sb_release(&y);
	set_patch(f, DIFF("x"));
	assert_int_equal(act(f, "test 2x"), 1);
	rid = id_test_request(ASK_MSGID, 0);
	tu_path(dir, sizeof(dir), f->results, rid);
	free(rid);
	tu_put(dir, "job.yaml", "testcase: aim7\ntbox_group: lkp-ivb-ep01\n",
	       0644);
	tu_put(dir, "matrix.json", "{\"aim7.time.system_time\": [3500, 3510],"
	       " \"stats_source\": [\"a\", \"b\"]}", 0644);
	assert_int_equal(followups(f, T0 + 60, &ts), 1);
	assert_string_equal(detail(f, buf, sizeof(buf)), "done: inconclusive");
	text = followup_text(f, 0);
	assert_non_null(strstr(text, "Verdict: inconclusive.\nThe test's runs "
			       "have no aim7.jobs-per-min, so nothing can be "
			       "said of it.\n"));
	assert_null(strstr(text, "evidence:"));
	assert_null(strstr(text, "Tested-by"));
	g_free(text);
}

/* Refused before the farm is asked: no patch; the forms are shown. */
static void t_refused(void **state)
{
	struct fx *f = *state;
	char buf[256];

	f->patch.text = NULL;
	assert_int_equal(act(f, "test"), 1);
	assert_golden("test-refused-no-patch", piece(f));
	assert_false(f->a.acted);
	assert_string_equal(detail(f, buf, sizeof(buf)), "");
	set_patch(f, DIFF("x"));
	f->patch.hunks = 0;
	assert_int_equal(act(f, "test"), 1);
	assert_non_null(strstr(piece(f), "has no hunk"));
	f->patch.hunks = 1;
	f->patch.len = (size_t)f->cfg.limits.max_patch_bytes + 1;
	assert_int_equal(act(f, "test"), 1);
	assert_non_null(strstr(piece(f), "more than the 1048576 I take"));
	f->patch.binary = 1;
	assert_int_equal(act(f, "test"), 1);
	assert_non_null(strstr(piece(f), "is not text"));
	assert_string_equal(detail(f, buf, sizeof(buf)), "");
}

/* The shipped templates and the tests' noop.txt, in 'dir'/templates. */
static void noop_templates(struct fx *f)
{
	char dir[PATH_MAX], path[PATH_MAX], extra[PATH_MAX + 32];
	struct strbuf text;
	struct dirent *e;
	DIR *d = opendir("templates");

	tu_path(dir, sizeof(dir), f->dir, "templates");
	assert_non_null(d);
	assert_int_equal(mkdir(dir, 0755), 0);
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (n < 5 || strcmp(e->d_name + n - 4, ".txt"))
			continue;
		tu_read_text(tu_path(path, sizeof(path), "templates",
				     e->d_name), &text);
		tu_put(dir, e->d_name, sb_str(&text), 0644);
		sb_release(&text);
	}
	closedir(d);
	tu_put(dir, "noop.txt", "noop {{request_id}} on "
	       "{{commits.head.short}}: nothing was run.\n", 0644);
	snprintf(extra, sizeof(extra), "templates:\n  dir: %s\n", dir);
	configure(f, extra);
}

/*
 * The noop kind (act/noop.c: one file and one row of the table) through
 * the one ask path and the one follow-up loop: recorded 'asking' and
 * committed, queued without asking the farm, then answered in the
 * thread that asked by its template, and done.
 */
static void t_noop(void **state)
{
	static const struct kind *const table[] = { &kind_retest, &kind_noop };
	struct fx *f = *state;
	struct kind_env e = { .st = f->st, .cfg = &f->cfg, .now = T0 + 60,
			      .jobs = 2 };
	struct kind_asking q;
	char buf[256], *text;

	noop_templates(f);
	kind_asking_init(&q, &kind_noop);
	q.rq = (struct request_new){
		.request_id = "noop-1", .kind = "noop", .report_id = "tp-1",
		.deadline = T0 + 3600, .requested_by = "alice@example.test",
		.reply_message_id = ASK_MSGID,
		.thread = "{\"message_id\": \"" ASK_MSGID "\", "
			  "\"in_reply_to\": \"" REPORT_MSGID "\", "
			  "\"references\": [\"" REPORT_MSGID "\"], "
			  "\"subject\": \"Re: report\", "
			  "\"from\": \"alice@example.test\"}",
	};
	assert_int_equal(kind_ask(f->st, &f->cfg, &kind_noop, &q, T0, &f->err),
			 0);
	assert_int_equal(q.out, KIND_QUEUED);
	kind_asking_release(&q);
	assert_string_equal(detail(f, buf, sizeof(buf)), "queued: ");
	if (kind_followups(&e, table, 2, KIND_AT_FOLLOWUP, &f->err))
		fail_msg("kind_followups: %s", f->err.msg);
	assert_string_equal(detail(f, buf, sizeof(buf)), "done: noop");
	text = answer_text(f, ASK_MSGID, "noop-1");
	assert_non_null(strstr(text, "noop noop-1 on c0cef30e4f: nothing was "
			       "run."));
	g_free(text);
}

/* The counts kept with the only request, "base head". */
static const char *counts(struct fx *f, char *buf, size_t n)
{
	size_t nr;
	struct request *r = requests(f, &nr);

	buf[0] = '\0';
	if (nr)
		snprintf(buf, n, "%ld %ld", r->base_runs, r->head_runs);
	request_rows_free(r, nr);
	return buf;
}

/*
 * A kind that adds runs to the report's roots is recorded and committed
 * before the farm is asked, even inside the caller's transaction (a
 * poll's, for a mail's retest): a crash (here a rollback) after the ask
 * leaves it 'asking' with its counts, and asking again under its id
 * keeps those counts, not the ones of that moment (issue 29 item 17).
 */
static void t_hold_before_asking(void **state)
{
	struct fx *f = *state;
	struct kind_asking q;
	char buf[64];

	kind_asking_init(&q, &kind_noop);
	q.rq = (struct request_new){ .request_id = "noop-2", .kind = "noop",
				     .report_id = "tp-1", .deadline = T0 + 60,
				     .base_runs = 4, .head_runs = 5 };
	assert_int_equal(state_begin(f->st, &f->err), 0);
	assert_int_equal(kind_ask(f->st, &f->cfg, &kind_noop, &q, T0, &f->err),
			 0);
	assert_string_equal(detail(f, buf, sizeof(buf)), "asking: ");
	state_rollback(f->st);	/* killed before the caller's commit */
	assert_string_equal(detail(f, buf, sizeof(buf)), "asking: ");
	assert_string_equal(counts(f, buf, sizeof(buf)), "4 5");
	/* the next run: the runs landed meanwhile are not its expectation */
	q.rq.base_runs = 8;
	assert_int_equal(kind_ask(f->st, &f->cfg, &kind_noop, &q, T0, &f->err),
			 0);
	assert_string_equal(detail(f, buf, sizeof(buf)), "queued: ");
	assert_string_equal(counts(f, buf, sizeof(buf)), "4 5");
	kind_asking_release(&q);
}

int main(void)
{
#define T(t) cmocka_unit_test_setup_teardown(t, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(t_repo_allowed),
		cmocka_unit_test(t_ref_safe),
		T(t_fixed),
		T(t_partly_fixed),
		T(t_not_fixed),
		T(t_does_not_apply),
		T(t_rejected_and_expired),
		T(t_metric_missing),
		T(t_refused),
		T(t_noop),
		T(t_hold_before_asking),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
