// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/act/verify.c (and the shared src/act/fixrun.c): a
 * landed fix of seed 003's report run by the fake farm
 * (scripts/fake-lkp-run, exec, kind verify; what the fix does is a line
 * "SHA DIRECTIVE" of results/fake-lkp-trees) and its follow-up in the
 * report's thread: fixed, not fixed, partly fixed (not fixed for the
 * record), the farm's reason, a refusal, a deadline passed, a record that
 * moved on, and asking again after a crash (the same request id, run
 * once). The answers are compared with fixtures/golden/verify-*.expected
 * ('UPDATE=1 build/tests/test_verify' rewrites them; check the diff).
 * Run from the repository root after 'make build/tools/fake-lkp-run'.
 */
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
#include "perfbot/act/regression.h"
#include "perfbot/act/verify.h"
#include "perfbot/state/records.h"
#include "perfbot/state/outbox.h"
#include "perfbot/util/fileio.h"
#include "perfbot/util/gmime.h"
#include "perfbot/util/id.h"

#include "testutil.h"

#define T0 1739548080	/* 2025-02-14 15:48:00 UTC */
#define REPORT_MSGID "202502141548.7c8c8447c8c8447c-perfbot@example.test"
#define SEED "fixtures/seeds/003"
#define FIX "5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed"
#define FARM "[\"%s/scripts/fake-lkp-run\", \"{result_root}\", " \
	"\"{commit}\", \"{runs}\", \"{request_id}\", \"{kind}\", \"{job}\", " \
	"\"{repo}\", \"{ref}\", \"{patch}\"]"

struct fx {
	char dir[64];
	char top[PATH_MAX];	/* the repository (the working directory) */
	char path[PATH_MAX];	/* <dir>/perfbot.yaml */
	char results[PATH_MAX];
	struct config cfg;
	int loaded;
	struct state *st;
	struct pb_err err;
};

/* The configuration, the farm's argv 'argv' (NULL: the fake farm). */
static void configure(struct fx *f, const char *argv)
{
	struct strbuf y = STRBUF_INIT, a = STRBUF_INIT;
	char where[1024], db[PATH_MAX];

	tu_path(db, sizeof(db), f->dir, "perfbot.db");
	if (argv)
		assert_int_equal(sb_add(&a, argv, strlen(argv)), 0);
	else
		assert_int_equal(sb_addf(&a, FARM, f->top), 0);
	assert_int_equal(sb_addf(&y, "identity:\n"
				 "  from: \"perfbot <perfbot@example.test>\"\n"
				 "  message_id_domain: example.test\n"
				 "state: \"%s\"\n"
				 "limits:\n  default_runs: 6\n"
				 "scheduler:\n  backend: exec\n  argv: %s\n"
				 "  results_dir: %s\n  deadline: 3600\n"
				 "tracking:\n  repo: %s\n  verify: true\n",
				 tu_state(where, sizeof(where), db), sb_str(&a),
				 f->results, f->dir), 0);
	tu_load_config(&f->cfg, &f->loaded, f->path, sb_str(&y), &f->err);
	sb_release(&y);
	sb_release(&a);
}

/* The report of seed 003, queued with its manifest and record. */
static void queue_report(struct fx *f)
{
	struct strbuf man = STRBUF_INIT, rules = STRBUF_INIT;
	struct outbox_mail m = { 0 };
	struct strbuf seed = STRBUF_INIT;
	char path[PATH_MAX];
	const char *p;

	tu_read_text(SEED "/metrics.yaml", &seed);
	assert_int_equal(sb_addf(&rules, "base: %s/config/metrics.yaml\n",
				 f->top), 0);
	for (p = sb_str(&seed); *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 :
	     p + strlen(p))
		if (strncmp(p, "base:", 5))
			assert_int_equal(sb_add(&rules, p, strchr(p, '\n') ?
					(size_t)(strchr(p, '\n') + 1 - p) :
					strlen(p)), 0);
	tu_put(f->dir, "metrics.yaml", sb_str(&rules), 0644);
	assert_int_equal(sb_addf(&man, "id: vf-1\n"
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
	m.id = "vf-1";
	m.kind = "report";
	m.message_id = REPORT_MSGID;
	m.sender = "perfbot@example.test";
	m.recipients = "[\"alice@example.test\",\"perf@example.test\"]";
	m.message = "Subject: x\n\nreport\n";
	m.len = strlen(m.message);
	assert_int_equal(state_queue(f->st, &m, "vf-1.yaml", sb_str(&man),
				     f->dir, "[linus:master] [iversion] "
				     "c0cef30e4f: aim7.jobs-per-min -18.0% "
				     "regression", T0 - 3600, &f->err), 0);
	assert_int_equal(state_record_open(f->st, "vf-1", "aim7.jobs-per-min",
					   -18.0, 1, T0 - 3600, &f->err), 0);
	sb_release(&man);
	sb_release(&rules);
	sb_release(&seed);
}

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_verify");

	if (!f || !getcwd(f->top, sizeof(f->top)))
		return -1;
	tu_path(f->path, sizeof(f->path), f->dir, "perfbot.yaml");
	tu_path(f->results, sizeof(f->results), f->dir, "results");
	if (mkdir(f->results, 0755))
		return -1;
	configure(f, NULL);
	if (state_open(&f->st, f->cfg.state, STATE_WRITE, &f->err)) {
		fprintf(stderr, "setup: %s\n", f->err.msg);
		return -1;
	}
	queue_report(f);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

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

/* What the farm does with the fix: a line of results/fake-lkp-trees. */
static void farm_does(struct fx *f, const char *directive)
{
	char line[256];

	snprintf(line, sizeof(line), FIX " %s\n", directive);
	tu_put(f->results, "fake-lkp-trees", line, 0644);
}

static void record_of(struct fx *f, struct record *r)
{
	int found = 0;

	assert_int_equal(state_record_get(f->st, "vf-1", r, &found, &f->err),
			 0);
	assert_int_equal(found, 1);
}

/*
 * The fix lands at T0 as the walk of the tree lands it: the record moved
 * by the state machine, the farm asked, both written in one transaction
 * (rolled back instead when 'crash'). '*asked' as verify_ask() says.
 */
static void land(struct fx *f, int crash, int *asked)
{
	struct reg_change ch = { REG_EV_LANDED, NULL, FIX,
				 "iversion: restore the old return", "master",
				 T0 - 60 };
	struct record_event ev = { 0, (char *)"landed", (char *)"open",
				   (char *)"fix landed", (char *)"tracking",
				   NULL, (char *)FIX };
	struct record r;
	char why[160];

	record_of(f, &r);
	assert_int_equal(regression_next(&r, &ch, why, sizeof(why)), 0);
	assert_int_equal(state_begin(f->st, &f->err), 0);
	if (verify_ask(f->st, &f->cfg, &r, T0, asked, &f->err))
		fail_msg("verify_ask: %s", f->err.msg);
	assert_int_equal(state_record_put(f->st, &r, &ev, T0, &f->err), 0);
	if (crash)
		state_rollback(f->st);
	else
		assert_int_equal(state_commit(f->st, &f->err), 0);
	record_release(&r);
}

static long followups(struct fx *f, time_t now, struct kind_stats *vs)
{
	struct kind_env e = { .st = f->st, .cfg = &f->cfg, .now = now,
			      .jobs = 1 };

	if (kind_follow(&e, &kind_verify, vs, &f->err))
		fail_msg("kind_follow: %s", f->err.msg);
	return vs->done + vs->failed + vs->expired;
}

/*
 * The state as another process reads it (what is committed), through
 * the state API on a handle of its own, so on either backend.
 */
static struct state *reader(struct fx *f)
{
	struct state *rd = NULL;

	if (state_open(&rd, f->cfg.state, STATE_READ, &f->err))
		fail_msg("state_open: %s", f->err.msg);
	return rd;
}

/* The report's requests: how many, and the first one's columns. */
struct seen_request {
	size_t n;
	char status[32], commit[64], detail[128];
	long runs;
};

static void request_seen(struct fx *f, struct seen_request *sr)
{
	struct state *rd = reader(f);
	struct request *rows = NULL;

	memset(sr, 0, sizeof(*sr));
	if (state_requests_of(rd, "vf-1", NULL, &rows, &sr->n, &f->err))
		fail_msg("state_requests_of: %s", f->err.msg);
	if (sr->n) {
		snprintf(sr->status, sizeof(sr->status), "%s", rows->status);
		snprintf(sr->commit, sizeof(sr->commit), "%s", rows->commit ?
			 rows->commit : "");
		snprintf(sr->detail, sizeof(sr->detail), "%s", rows->detail ?
			 rows->detail : "");
		sr->runs = rows->runs;
	}
	request_rows_free(rows, sr->n);
	state_close(rd);
}

/* "status: detail" of the report's first request. */
static const char *request_detail(struct fx *f, char *buf, size_t n)
{
	struct seen_request sr;

	request_seen(f, &sr);
	snprintf(buf, n, "%s: %s", sr.status, sr.detail);
	return buf;
}

/* The record's 'verified' event, "event from -> to by who (source)". */
static const char *verified_event(struct fx *f, char *buf, size_t n)
{
	struct state *rd = reader(f);
	struct record_event *e = NULL;
	size_t ne = 0, i;

	buf[0] = '\0';
	if (state_record_events(rd, "vf-1", &e, &ne, &f->err))
		fail_msg("state_record_events: %s", f->err.msg);
	for (i = 0; i < ne; i++)
		if (!strcmp(e[i].event, "verified")) {
			snprintf(buf, n, "%s %s -> %s by %s (%s)", e[i].event,
				 e[i].from, e[i].to, e[i].by, e[i].source);
			break;
		}
	record_events_free(e, ne);
	state_close(rd);
	return buf;
}

/* The answers queued in the report's thread. */
static size_t answers(struct fx *f)
{
	struct state *rd = reader(f);
	struct outbox_mail *m = NULL;
	size_t n = 0, i, count = 0;

	if (state_queued(rd, &m, &n, &f->err))
		fail_msg("state_queued: %s", f->err.msg);
	for (i = 0; i < n; i++)
		count += !strcmp(m[i].kind, "answer");
	outbox_free(m, n);
	state_close(rd);
	return count;
}

/* The text of the run's answer, and its recipients into 'rcpts'. */
static char *answer_text(struct fx *f, char *rcpts, size_t rn)
{
	char *rid = id_verify_request("vf-1", FIX), tag[64], *id, *text;
	struct outbox_mail *out = NULL;
	GMimeStream *st;
	GMimeParser *p;
	GMimeMessage *msg;
	GMimeObject *part;
	size_t i, n = 0;

	snprintf(tag, sizeof(tag), "verify:%s", rid);
	id = id_answer(REPORT_MSGID, tag);
	gmime_once();
	assert_int_equal(state_queued(f->st, &out, &n, &f->err), 0);
	for (i = 0; i < n && strcmp(out[i].id, id); i++)
		;
	if (i == n)
		fail_msg("no answer '%s' queued", id);
	snprintf(rcpts, rn, "%s", out[i].recipients);
	assert_non_null(strstr(out[i].message, "In-Reply-To: <" REPORT_MSGID
			       ">"));
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
	free(rid);
	free(id);
	return text;
}

/* The whole run: landed, asked, answered; the record and row after. */
static void run_fix(struct fx *f, const char *directive, const char *golden,
		    const char *status, const char *verdict)
{
	struct kind_stats vs;
	struct seen_request sr;
	struct record r;
	char buf[512], rcpts[256], *rid, *text;
	int asked = 0;

	farm_does(f, directive);
	land(f, 0, &asked);
	assert_int_equal(asked, 1);
	rid = id_verify_request("vf-1", FIX);
	record_of(f, &r);
	assert_string_equal(r.status, "fix landed");
	assert_string_equal(r.verify_request, rid);
	assert_null(r.verdict);
	record_release(&r);
	request_seen(f, &sr);
	assert_string_equal(sr.status, "queued");
	assert_string_equal(sr.commit, FIX);
	assert_int_equal(sr.runs, 6);
	assert_int_equal(followups(f, T0 + 60, &vs), 1);
	assert_int_equal(vs.done, 1);
	text = answer_text(f, rcpts, sizeof(rcpts));
	assert_golden(golden, text);
	g_free(text);
	/* to the report's recipients, as the landing's answer */
	assert_non_null(strstr(rcpts, "alice@example.test"));
	assert_non_null(strstr(rcpts, "perf@example.test"));
	record_of(f, &r);
	assert_string_equal(r.status, status);
	assert_string_equal(r.verdict, verdict);
	assert_string_equal(r.verify_request, rid);
	record_release(&r);
	request_seen(f, &sr);
	assert_string_equal(sr.status, "done");
	assert_string_equal(sr.detail, verdict);
	snprintf(buf, sizeof(buf), "verified fix landed -> %s by verify (%s)",
		 status, rid);
	assert_string_equal(verified_event(f, buf + 200, sizeof(buf) - 200),
			    buf);
	/* the next run: nothing more to say */
	assert_int_equal(followups(f, T0 + 120, &vs), 0);
	assert_int_equal(answers(f), 1);
	free(rid);
}

static void t_fixed(void **state)
{
	run_fix(*state, "aim7.jobs-per-min *1.219", "verify-result-fixed",
		"fixed", "fixed");
}

static void t_not_fixed(void **state)
{
	run_fix(*state, "aim7.jobs-per-min *1.0", "verify-result-not-fixed",
		"not fixed", "not fixed");
}

/* Partly fixed is 'not fixed' for the record; the text says "partly". */
static void t_partly(void **state)
{
	struct fx *f = *state;
	char rcpts[256], *text;

	run_fix(f, "aim7.jobs-per-min *1.1", "verify-result-partly",
		"not fixed", "partly fixed");
	text = answer_text(f, rcpts, sizeof(rcpts));
	assert_non_null(strstr(text, "Verdict: not fixed (partly fixed).\n"));
	g_free(text);
}

/* The farm cannot build it: its words, the record stays 'fix landed'. */
static void t_farm_failed(void **state)
{
	struct fx *f = *state;
	struct seen_request sr;
	struct kind_stats vs;
	struct record r;
	char rcpts[256], *text;
	int asked = 0;

	farm_does(f, "build fails");
	land(f, 0, &asked);
	assert_int_equal(asked, 1);
	assert_int_equal(followups(f, T0 + 60, &vs), 1);
	assert_int_equal(vs.failed, 1);
	text = answer_text(f, rcpts, sizeof(rcpts));
	assert_golden("verify-failed", text);
	g_free(text);
	record_of(f, &r);
	assert_string_equal(r.status, "fix landed");
	assert_null(r.verdict);
	record_release(&r);
	request_seen(f, &sr);
	assert_string_equal(sr.status, "failed");
	assert_int_equal(followups(f, T0 + 120, &vs), 0);
	assert_int_equal(answers(f), 1);
}

/* The farm does not take it: recorded so, nothing to follow up. */
static void t_rejected(void **state)
{
	struct fx *f = *state;
	struct kind_stats vs;
	struct record r;
	char buf[256];
	int asked = 1;

	configure(f, "[/bin/false]");
	land(f, 0, &asked);
	assert_int_equal(asked, 0);
	assert_string_equal(request_detail(f, buf, sizeof(buf)),
			    "rejected: exit 1");
	record_of(f, &r);
	assert_string_equal(r.status, "fix landed");
	record_release(&r);
	assert_int_equal(followups(f, T0 + 7200, &vs), 0);
	assert_int_equal(vs.waiting, 0);
	assert_int_equal(answers(f), 0);
}

/* A farm that takes it and never writes: did not finish by the deadline. */
static void t_deadline(void **state)
{
	struct fx *f = *state;
	struct kind_stats vs;
	struct record r;
	char buf[256], rcpts[256], *text;
	int asked = 0;

	configure(f, "[/bin/true]");
	land(f, 0, &asked);
	assert_int_equal(asked, 1);
	assert_int_equal(followups(f, T0 + 60, &vs), 0);
	assert_int_equal(vs.waiting, 1);
	assert_int_equal(answers(f), 0);
	assert_int_equal(followups(f, T0 + 3601, &vs), 1);
	assert_int_equal(vs.expired, 1);
	text = answer_text(f, rcpts, sizeof(rcpts));
	assert_golden("verify-expired", text);
	g_free(text);
	record_of(f, &r);
	assert_string_equal(r.status, "fix landed");
	record_release(&r);
	assert_string_equal(request_detail(f, buf, sizeof(buf)),
			    "expired: deadline passed");
	assert_int_equal(followups(f, T0 + 7200, &vs), 0);
	assert_int_equal(answers(f), 1);
}

/*
 * A crash after the farm was asked, before the landing was recorded: the
 * walk lands the fix again and asks with the same request id; the farm
 * ran it once, the state holds one row, one answer comes.
 */
static void t_crash_asks_once(void **state)
{
	struct fx *f = *state;
	struct seen_request sr;
	struct kind_stats vs;
	char dir[PATH_MAX], path[PATH_MAX], *rid;
	int asked = 0;

	farm_does(f, "aim7.jobs-per-min *1.219");
	land(f, 1, &asked);
	assert_int_equal(asked, 1);
	request_seen(f, &sr);
	assert_int_equal(sr.n, 0);
	land(f, 0, &asked);
	assert_int_equal(asked, 1);
	request_seen(f, &sr);
	assert_int_equal(sr.n, 1);
	rid = id_verify_request("vf-1", FIX);
	tu_path(dir, sizeof(dir), f->results, rid);
	tu_path(path, sizeof(path), dir, ".fake-lkp-requests");
	{
		struct strbuf done = STRBUF_INIT;

		tu_read_text(path, &done);
		/* the farm's log of requests done: this one, once */
		assert_int_equal(done.len, strlen(rid) + 1);
		sb_release(&done);
	}
	free(rid);
	assert_int_equal(followups(f, T0 + 60, &vs), 1);
	assert_int_equal(followups(f, T0 + 120, &vs), 0);
	assert_int_equal(answers(f), 1);
}

/* The fix reverted before its runs were in: the run is dropped quietly. */
static void t_moved_on(void **state)
{
	struct fx *f = *state;
	struct reg_change ch = { REG_EV_REVERTED, NULL, NULL, NULL, NULL, 0 };
	struct kind_stats vs;
	struct record r;
	char buf[256], why[160];
	int asked = 0;

	farm_does(f, "aim7.jobs-per-min *1.219");
	land(f, 0, &asked);
	record_of(f, &r);
	assert_int_equal(regression_next(&r, &ch, why, sizeof(why)), 0);
	assert_null(r.verify_request);
	assert_int_equal(state_record_put(f->st, &r, NULL, T0 + 30, &f->err),
			 0);
	record_release(&r);
	assert_int_equal(followups(f, T0 + 60, &vs), 0);
	assert_int_equal(vs.dropped, 1);
	assert_int_equal(answers(f), 0);
	assert_string_equal(request_detail(f, buf, sizeof(buf)), "dropped: open");
	record_of(f, &r);
	assert_string_equal(r.status, "open");
	record_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_fixed, setup, teardown),
		cmocka_unit_test_setup_teardown(t_not_fixed, setup, teardown),
		cmocka_unit_test_setup_teardown(t_partly, setup, teardown),
		cmocka_unit_test_setup_teardown(t_farm_failed, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_rejected, setup, teardown),
		cmocka_unit_test_setup_teardown(t_deadline, setup, teardown),
		cmocka_unit_test_setup_teardown(t_crash_asks_once, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_moved_on, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
