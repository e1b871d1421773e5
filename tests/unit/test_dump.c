// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/state/dump.c ('perfbot state export' and 'import',
 * issue 34 item 5): a state filled through the state API (reports and
 * answers with their recipients, replies, marks, manifests, sources,
 * requests of every kind, records and their events, tracked tips,
 * reminders, bisections, noise, the operator's actions) dumps, imports
 * into a new state and dumps again to the same bytes, and what it read
 * back is what was written; a state that is not empty, a dump of another
 * schema version or format, a dump cut short or damaged are refused and
 * leave the state as it was. The dump lists every table of the schema
 * (so a migration that adds one must add it there).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "perfbot/state/bisections.h"
#include "perfbot/state/dump.h"
#include "perfbot/state/inbox.h"
#include "perfbot/state/noise.h"
#include "perfbot/state/outbox.h"
#include "perfbot/state/records.h"
#include "perfbot/state/requests.h"
#include "perfbot/state/seen.h"
#include "perfbot/state/state.h"
#include "../../src/state/internal.h"

#include "testutil.h"
#include "teststate.h"

#define T0 1739548080

struct fx {
	char dir[64];
	char a[128], b[128], c[128];	/* three states */
	struct state *st;
	struct pb_err err;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_dump");

	if (!f)
		return -1;
	tu_path(f->a, sizeof(f->a), f->dir, "a.db");
	tu_path(f->b, sizeof(f->b), f->dir, "b.db");
	tu_path(f->c, sizeof(f->c), f->dir, "c.db");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	state_close(f->st);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

static void queue(struct state *st, const char *kind, const char *id,
		  const char *report, const char *mid, const char *msg,
		  size_t len, time_t now)
{
	struct outbox_mail m = { 0 };
	struct pb_err err = { 0, "" };

	m.kind = (char *)kind;
	m.id = (char *)id;
	m.report_id = (char *)report;
	m.message_id = (char *)mid;
	m.sender = "perfbot@example.test";
	m.recipients = "[\"a@example.test\", \"list@example.test\"]";
	m.message = (char *)msg;
	m.len = len;
	assert_int_equal(state_queue(st, &m, kind[0] == 'r' ? "m.yaml" : NULL,
				     kind[0] == 'r' ? "commit: abc\n" : NULL,
				     kind[0] == 'r' ? "/m" : NULL,
				     "[perf] x 10.5% regression", now, &err), 0);
}

static const struct request_new retest = {
	.request_id = "retest-1", .kind = "retest", .report_id = "r1",
	.runs = 4, .deadline = T0 + 86400, .base_runs = 3,
	.requested_by = "carol@example.test", .head_runs = 3,
	.reply_message_id = "<reply1@example.test>",
	.thread = "{\"subject\":\"Re: x\"}",
}, confirm = {
	.request_id = "confirm-1", .kind = "confirm", .report_id = "r2",
	.runs = 2, .deadline = T0 + 3600,
	.metric = "hackbench.throughput",
	.reported_change = 0.1 + 0.2,	/* not a round number */
};

/* A state with a row in every table, and the awkward values. */
static void fill(struct state *st)
{
	static const char bytes[] = "Subject: \t\\x\r\n\r\nbody\0with nul\n";
	struct pb_err err = { 0, "" };
	struct inbox_entry ie = { 0 };
	struct record r = { 0 };
	struct record_event ev = { 0 };
	long count;

	queue(st, "report", "r1", "r1", "<r1@example.test>", bytes,
	      sizeof(bytes) - 1, T0);
	queue(st, "report", "r2", "r2", "<r2@example.test>", "", 0, T0 + 1);
	queue(st, "answer", "a1", "r1", "<a1@example.test>", "re: x\n", 6,
	      T0 + 2);
	assert_int_equal(state_recipient(st, 1, "a@example.test", "accepted",
					 "250 2.1.5 Ok", &err), 0);
	assert_int_equal(state_sent(st, 1, T0 + 5, &err), 0);
	assert_int_equal(state_retry(st, 3, "451 try\tlater\nplease", T0 + 6,
				     &err), 0);
	assert_int_equal(state_drop(st, "r2", T0 + 7, "ops@example.test",
				    &err), 0);
	ie.message_id = "<reply1@example.test>";
	ie.uidvalidity = 7;
	ie.uid = 12;
	ie.sender = "carol@example.test";
	ie.report_id = "r1";
	ie.outcome = "answered";
	ie.commands = "[\"retest 4x\"]";
	assert_int_equal(state_inbox_record(st, &ie, T0 + 10, &err), 0);
	ie.message_id = "<reply2@example.test>";
	ie.sender = NULL;
	ie.report_id = NULL;
	ie.outcome = "ignored: auto-submitted";
	ie.commands = NULL;
	assert_int_equal(state_inbox_record(st, &ie, T0 + 11, &err), 0);
	assert_int_equal(state_mailbox_set(st, "INBOX", 7, 12, &err), 0);
	assert_int_equal(state_mailbox_stuck(st, "INBOX", 7, 13, &count, &err),
			 0);
	assert_int_equal(state_mark_add(st, "INBOX", 7, 12, &err), 0);
	assert_int_equal(state_skip(st, "skip1", "s.yaml", "no change", T0,
				    &err), 0);
	assert_int_equal(state_source_set(st, "https://x.test/m", "\"e1\"",
					  NULL, T0, &err), 0);
	assert_int_equal(state_request_add(st, &retest, T0 + 12, &err), 0);
	assert_int_equal(state_request_add(st, &confirm, T0 + 13, &err), 0);
	assert_int_equal(state_request_set(st, "confirm-1", "done",
					   "confirmed", "ok", T0 + 20, &err),
			 0);
	assert_int_equal(state_record_open(st, "r1", "hackbench.throughput",
					   -10.473829174, 1, T0, &err), 0);
	r.report_id = "r1";
	r.status = "fix named";
	r.metric = "hackbench.throughput";
	r.change = -10.473829174;
	r.regression = 1;
	r.fix_named = "pipe: fix it";
	r.created = T0;
	ev.at = T0 + 30;
	ev.event = "fix:";
	ev.from = "open";
	ev.to = "fix named";
	ev.by = "carol@example.test";
	ev.detail = "pipe: fix it";
	ev.source = "<reply1@example.test>";
	assert_int_equal(state_record_put(st, &r, &ev, T0 + 30, &err), 0);
	assert_int_equal(state_track_set(st, "master", "0123abcd", T0, &err),
			 0);
	assert_int_equal(state_reminder_add(st, "<rem1@example.test>",
					    "1 r1\n2 r2", T0, &err), 0);
	assert_int_equal(state_bisection_add(st, "bisect-1", "r1", "search",
					     "{\"good\":\"a\",\"bad\":\"b\"}",
					     "/j/job.yaml", NULL, T0 + 99, T0,
					     &err), 0);
	if (state_noise_add(st, "hackbench", "lkp-icl-2sp2",
			    "hackbench.throughput", 1.0 / 3e140, 7, T0, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(state_noise_add(st, "hackbench", "lkp-icl-2sp2",
					 "perf-stat.ipc", 0.0123456789, 3, T0,
					 &err), 0);
}

/* The state at 'path' dumped, as a string. */
static char *dump_of(const char *path, struct dump_counts *c)
{
	struct pb_err err = { 0, "" };
	struct state *st = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(state_open(&st, path, STATE_READ, &err), 0);
	if (state_dump_write(st, out, c, &err))
		fail_msg("%s", err.msg);
	fclose(out);
	state_close(st);
	return buf;
}

/* 'text' read into the new state 'path': the result of the read. */
static int load(const char *path, const char *text, struct pb_err *err)
{
	struct dump_counts c;
	struct state *st = NULL;
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	int rc;

	assert_non_null(in);
	assert_int_equal(state_open(&st, path, STATE_LOCKED, err), 0);
	rc = state_dump_read(st, in, "d.dump", &c, err);
	fclose(in);
	state_close(st);
	return rc;
}

static void t_round_trip(void **state)
{
	struct fx *f = *state;
	struct dump_counts c1, c2;
	struct outbox_mail m = { 0 };
	struct request *rq = NULL;
	struct record rec = { 0 };
	struct state_noise *nz = NULL;
	size_t n = 0, at = 0;
	char *d1, *d2;
	int found = 0;

	assert_int_equal(state_open(&f->st, f->a, STATE_WRITE, &f->err), 0);
	fill(f->st);
	state_close(f->st);
	f->st = NULL;
	d1 = dump_of(f->a, &c1);
	assert_int_equal(c1.tables, 19);
	assert_true(c1.rows >= 20);
	if (load(f->b, d1, &f->err))
		fail_msg("%s", f->err.msg);
	d2 = dump_of(f->b, &c2);
	assert_string_equal(d2, d1);
	assert_int_equal(c2.rows, c1.rows);
	/* read back through the API, the awkward values intact */
	assert_int_equal(state_open(&f->st, f->b, STATE_WRITE, &f->err), 0);
	assert_int_equal(state_mail(f->st, 1, &m, &found, &f->err), 0);
	assert_int_equal(found, 1);
	assert_int_equal(m.len, 30);
	assert_memory_equal(m.message, "Subject: \t\\x\r\n\r\nbody\0with nul\n",
			    30);
	outbox_mail_release(&m);
	assert_int_equal(state_request_get(f->st, "confirm-1", &rq, &f->err),
			 0);
	assert_non_null(rq);
	assert_true(rq->reported_change == 0.1 + 0.2);
	assert_string_equal(rq->verdict, "confirmed");
	request_rows_free(rq, 1);
	assert_int_equal(state_record_get(f->st, "r1", &rec, &found, &f->err),
			 0);
	assert_true(rec.change == -10.473829174);
	assert_string_equal(rec.status, "fix named");
	record_release(&rec);
	assert_int_equal(state_noise_all(f->st, "hackbench", "lkp-icl-2sp2",
					 "hackbench.throughput", &nz, &n, &at,
					 &f->err), 0);
	assert_true(n >= 1);
	assert_true(nz[at].cv == 1.0 / 3e140);
	state_noise_free(nz, n);
	/* a new row after the import takes a rowid of its own */
	queue(f->st, "answer", "a2", "r1", "<a2@example.test>", "x", 1, T0);
	state_close(f->st);
	f->st = NULL;
	free(d1);
	free(d2);
}

static void t_refused(void **state)
{
	struct fx *f = *state;
	struct dump_counts c;
	char *d, *other, *p;
	struct pb_err err = { 0, "" };
	char *before, *after;

	assert_int_equal(state_open(&f->st, f->a, STATE_WRITE, &f->err), 0);
	fill(f->st);
	state_close(f->st);
	f->st = NULL;
	d = dump_of(f->a, &c);
	/* into a state that is not empty: refused, the state as it was */
	before = dump_of(f->a, &c);
	assert_int_equal(load(f->a, d, &err), -1);
	assert_int_equal(err.code, EX_CANTCREAT);
	assert_non_null(strstr(err.msg, "not empty"));
	after = dump_of(f->a, &c);
	assert_string_equal(before, after);
	free(before);
	free(after);
	/* another schema version: one clear line, nothing written */
	p = strstr(d, "\nschema ");
	assert_non_null(p);
	p = strchr(p + 1, '\n');
	other = malloc(strlen(d) + 32);
	assert_non_null(other);
	sprintf(other, "perfbot-state-dump 1\nschema 999%s", p);
	assert_int_equal(load(f->b, other, &err), -1);
	assert_int_equal(err.code, EX_DATAERR);
	assert_non_null(strstr(err.msg, "a dump of schema version 999, this "
			       "perfbot's is"));
	/* another format */
	assert_int_equal(load(f->b, "perfbot-state-dump 2\nschema 14\n",
			      &err), -1);
	assert_non_null(strstr(err.msg, "format '2'"));
	assert_int_equal(load(f->b, "hello\n", &err), -1);
	assert_non_null(strstr(err.msg, "not a perfbot state dump"));
	/* cut short, in the middle of a table: nothing kept */
	strcpy(other, d);
	p = strstr(other, "table requests\n");
	assert_non_null(p);
	p[0] = '\0';
	assert_int_equal(load(f->b, other, &err), -1);
	assert_non_null(strstr(err.msg, "cut short"));
	before = dump_of(f->b, &c);
	assert_int_equal(c.rows, 0);
	free(before);
	/* a damaged cell, a table that is none */
	strcpy(other, d);
	p = strstr(other, "\ttfix named");
	assert_non_null(p);
	p[1] = 'q';
	assert_int_equal(load(f->b, other, &err), -1);
	assert_non_null(strstr(err.msg, "a cell that is none"));
	strcpy(other, d);
	p = strstr(other, "table noise\n");
	memcpy(p, "table nois;", 11);
	assert_int_equal(load(f->b, other, &err), -1);
	assert_non_null(strstr(err.msg, "not a table of the state"));
	/* and the good one still goes in after all that */
	assert_int_equal(load(f->b, d, &err), 0);
	free(other);
	free(d);
}

/* Every table of the schema is dumped, meta (the backend's) aside. */
static void t_tables_listed(void **state)
{
	struct fx *f = *state;
	const char *const *names;
	size_t n = state_dump_tables(&names), i, found = 0;
	sqlite3_stmt *s;

	assert_int_equal(state_open(&f->st, f->a, STATE_WRITE, &f->err), 0);
	assert_int_equal(sqlite3_prepare_v2(state_db(f->st), "SELECT name "
					    "FROM sqlite_master WHERE type = "
					    "'table' AND name != 'meta'", -1,
					    &s, NULL), SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(s, 0);

		for (i = 0; i < n && strcmp(names[i], t); i++)
			;
		if (i == n)
			fail_msg("table %s is not dumped", t);
		found++;
	}
	sqlite3_finalize(s);
	assert_int_equal(found, n);
}

/* A row holds at most one real or blob (the import binds it first). */
static void t_one_real_or_blob(void **state)
{
	struct fx *f = *state;
	const char *const *names;
	size_t n = state_dump_tables(&names), i;
	sqlite3_stmt *s;
	char sql[128];
	int special;

	assert_int_equal(state_open(&f->st, f->a, STATE_WRITE, &f->err), 0);
	for (i = 0; i < n; i++) {
		snprintf(sql, sizeof(sql), "PRAGMA table_info(%s)", names[i]);
		assert_int_equal(sqlite3_prepare_v2(state_db(f->st), sql, -1,
						    &s, NULL), SQLITE_OK);
		special = 0;
		while (sqlite3_step(s) == SQLITE_ROW) {
			const char *type =
				(const char *)sqlite3_column_text(s, 2);

			special += !strcmp(type, "REAL") ||
				   !strcmp(type, "BLOB");
		}
		sqlite3_finalize(s);
		if (special > 1)
			fail_msg("%s has %d REAL or BLOB columns", names[i],
				 special);
	}
}

static void t_export_import_files(void **state)
{
	struct fx *f = *state;
	struct dump_counts c;
	char dest[160];
	struct stat sb;

	tu_path(dest, sizeof(dest), f->dir, "x.dump");
	assert_int_equal(state_export(f->a, dest, &c, &f->err), -1);
	assert_int_equal(f->err.code, EX_NOINPUT);
	assert_int_equal(state_open(&f->st, f->a, STATE_WRITE, &f->err), 0);
	fill(f->st);
	state_close(f->st);
	f->st = NULL;
	assert_int_equal(state_export(f->a, dest, &c, &f->err), 0);
	assert_int_equal(stat(dest, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	assert_int_equal(state_import(f->c, dest, &c, &f->err), 0);
	assert_int_equal(c.tables, 19);
	assert_int_equal(state_import(f->c, dest, &c, &f->err), -1);
	assert_int_equal(f->err.code, EX_CANTCREAT);
}

/*
 * SQLite to PostgreSQL and back (the runner's server, PERFBOT_TEST_STATE):
 * the server's dump is the file's, and so is the file made from it; a
 * row added on the server after the import takes a rowid of its own.
 */
static void t_through_postgresql(void **state)
{
	struct fx *f = *state;
	struct dump_counts c;
	char where[1024], *d1, *d2, *d3;

	if (!tu_pg()) {
		print_message("skipped: no PostgreSQL (PERFBOT_TEST_STATE)\n");
		skip();
	}
	assert_int_equal(state_open(&f->st, f->a, STATE_WRITE, &f->err), 0);
	fill(f->st);
	state_close(f->st);
	f->st = NULL;
	d1 = dump_of(f->a, &c);
	tu_state(where, sizeof(where), f->b);
	if (load(where, d1, &f->err))
		fail_msg("%s", f->err.msg);
	d2 = dump_of(where, &c);
	assert_string_equal(d2, d1);
	if (load(f->c, d2, &f->err))
		fail_msg("%s", f->err.msg);
	d3 = dump_of(f->c, &c);
	assert_string_equal(d3, d1);
	assert_int_equal(state_open(&f->st, where, STATE_WRITE, &f->err), 0);
	queue(f->st, "answer", "a2", "r1", "<a2@example.test>", "x", 1, T0);
	state_close(f->st);
	f->st = NULL;
	free(d1);
	free(d2);
	free(d3);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(t_round_trip),
		T(t_refused),
		T(t_tables_listed),
		T(t_one_real_or_blob),
		T(t_export_import_files),
		T(t_through_postgresql),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
