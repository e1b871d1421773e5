// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the state module (src/state/state.c and inbox.c): the
 * schema and its migrations, read-only opening, the run lock, the outbox
 * lifecycle (queue, due, retry with backoff, sent, failed), recipients,
 * counts, manifests seen and skipped, source validators, the UNIQUE
 * constraints inside a transaction, the mailbox position, the inbox, the
 * routing of a thread to its report, retests and the manifest text kept
 * with a report. Every test works on a fresh database in a temp dir.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfbot/state/records.h"
#include "perfbot/state/requests.h"
#include "perfbot/util/fileio.h"
#include "perfbot/state/state.h"
#include "perfbot/state/outbox.h"
#include "perfbot/state/seen.h"
#include "perfbot/state/inbox.h"

#include "testutil.h"
#include "teststate.h"
#include <sqlite3.h>

#include "../../src/state/internal.h"

/* src/state/schema.c: state_migrations[] has fourteen entries. */
#define SCHEMA_VERSION 16
#define T0 1739548080	/* 2025-02-14 15:48:00 UTC */

struct fx {
	char dir[64];
	char path[128];		/* <dir>/perfbot.db */
	char where[512];	/* 'path', or its schema's URL (teststate.h) */
	struct state *st;
	int open;
	struct pb_err err;
};


/* The answers of state_seen, state_inbox_seen and state_claim as one
 * number: 1 yes, 0 no, -1 the call failed. */
static int seen_of(struct state *st, const char *id, struct pb_err *err)
{
	int seen;

	return state_seen(st, id, &seen, err) ? -1 : seen;
}

static int inbox_seen_of(struct state *st, const char *id,
			 struct pb_err *err)
{
	int seen;

	return state_inbox_seen(st, id, &seen, err) ? -1 : seen;
}

static int claim_of(struct state *st, long long rowid, time_t now, long ttl,
		    struct pb_err *err)
{
	int claimed;

	return state_claim(st, rowid, now, ttl, &claimed, err) ? -1 : claimed;
}

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_state");

	if (!f)
		return -1;
	tu_path(f->path, sizeof(f->path), f->dir, "perfbot.db");
	tu_state(f->where, sizeof(f->where), f->path);
	*state = f;
	return 0;
}

/* A fresh state, opened for writing. */
static int setup_open(void **state)
{
	struct fx *f;

	if (setup(state))
		return -1;
	f = *state;
	if (state_open(&f->st, f->where, STATE_WRITE, &f->err)) {
		fprintf(stderr, "state_open: %s\n", f->err.msg);
		return -1;
	}
	f->open = 1;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	if (f->open)
		state_close(f->st);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

static void reopen(struct fx *f, enum state_mode mode)
{
	if (f->open)
		state_close(f->st);
	f->open = 0;
	if (state_open(&f->st, f->where, mode, &f->err))
		fail_msg("state_open: %s", f->err.msg);
	f->open = 1;
}

/* ---- direct SQL, to look at what the API does not return ---- */

static long long q_int(struct state *st, const char *sql)
{
	struct db_stmt *s;
	struct pb_err err;
	long long v;

	if (db_query(st, &s, &err, sql, ""))
		fail_msg("%s: %s", sql, err.msg);
	if (db_step(s) != DB_ROW) {
		db_finalize(s);
		fail_msg("%s: no row", sql);
	}
	v = db_int(s, 0);
	db_finalize(s);
	return v;
}

/* The first column of the first row, as text ("(null)" for NULL). */
static void q_text(struct state *st, const char *sql, char *buf, size_t len)
{
	struct db_stmt *s;
	struct pb_err err;
	const char *t;

	if (db_query(st, &s, &err, sql, ""))
		fail_msg("%s: %s", sql, err.msg);
	if (db_step(s) != DB_ROW) {
		db_finalize(s);
		fail_msg("%s: no row", sql);
	}
	t = db_text(s, 0);
	snprintf(buf, len, "%s", t ? t : "(null)");
	db_finalize(s);
}

/* The first column of every row, ','-joined (portable group_concat). */
static void q_rows(struct state *st, const char *sql, char *buf, size_t len)
{
	struct db_stmt *s;
	struct pb_err err;
	size_t o = 0;
	int rc;

	if (db_query(st, &s, &err, sql, ""))
		fail_msg("%s: %s", sql, err.msg);
	buf[0] = '\0';
	while ((rc = db_step(s)) == DB_ROW)
		o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%s",
				      o ? "," : "", db_text(s, 0) ?
				      db_text(s, 0) : "(null)");
	db_finalize(s);
	if (rc != DB_DONE || o >= len)
		fail_msg("%s: failed, or longer than %zu", sql, len - 1);
}

static void q_exec(struct state *st, const char *sql)
{
	struct pb_err err;

	if (db_run(st, &err, sql, ""))
		fail_msg("%s: %s", sql, err.msg);
}

/* ---- mails ---- */

static const char message[] = "From: perfbot <perfbot@example.test>\n"
	"Subject: x\n\nbody\n";

static struct outbox_mail mail(const char *id, const char *kind,
			       const char *msgid)
{
	struct outbox_mail m = { 0 };

	m.id = (char *)id;
	m.kind = (char *)kind;
	m.message_id = (char *)msgid;
	m.sender = "perfbot@example.test";
	m.recipients = "[\"a@example.test\",\"b@example.test\"]";
	m.message = (char *)message;
	m.len = sizeof(message) - 1;
	return m;
}

/* Queue a report; its rowid. */
static long long queue(struct fx *f, const char *id, const char *msgid,
		       time_t now)
{
	struct outbox_mail m = mail(id, "report", msgid);

	if (state_queue(f->st, &m, "fixtures/manifests/x.yaml", NULL, NULL, "subject of "
			"x", now, &f->err))
		fail_msg("state_queue: %s", f->err.msg);
	char sql[256];

	snprintf(sql, sizeof(sql), "SELECT rowid FROM outbox WHERE kind = "
		 "'report' AND id = '%s'", id);
	return q_int(f->st, sql);
}

/* The ids of the due mails, ' '-joined, and their count. */
static size_t due_ids(struct fx *f, time_t now, size_t max, char *buf,
		      size_t len)
{
	struct outbox_mail *v = NULL;
	size_t n = 99, i, used = 0;

	if (state_due(f->st, now, max, &v, &n, &f->err))
		fail_msg("state_due: %s", f->err.msg);
	buf[0] = '\0';
	for (i = 0; i < n; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? " " : "", v[i].id);
	outbox_free(v, n);
	return n;
}

static void counts(struct fx *f, long want_queued, long want_failed)
{
	long q = -1, fl = -1;

	assert_int_equal(state_counts(f->st, &q, &fl, &f->err), 0);
	assert_int_equal(q, want_queued);
	assert_int_equal(fl, want_failed);
}

static long sent_since(struct fx *f, time_t since)
{
	long n = -1;

	assert_int_equal(state_sent_since(f->st, since, &n, &f->err), 0);
	return n;
}

/* ------------------------------------------------------------------ */
/* opening                                                             */

static void t_open_creates_and_migrates(void **state)
{
	struct fx *f = *state;
	char mode[32];
	struct stat sb;

	TU_SQLITE_ONLY("the file, its pragmas (PostgreSQL: t_pg_schema)");
	assert_int_not_equal(access(f->path, F_OK), 0);
	reopen(f, STATE_WRITE);
	assert_int_equal(stat(f->path, &sb), 0);
	assert_string_equal(f->st->path, f->path);
	assert_int_equal(f->st->lock_fd, -1);
	assert_int_equal(q_int(f->st, "PRAGMA user_version"), SCHEMA_VERSION);
	q_text(f->st, "PRAGMA journal_mode", mode, sizeof(mode));
	assert_string_equal(mode, "wal");
	assert_int_equal(q_int(f->st, "PRAGMA foreign_keys"), 1);
	/* Every migration ran: the last one added manifests.text. */
	assert_int_equal(q_int(f->st, "SELECT count(*) FROM sqlite_master "
			       "WHERE type = 'table' AND name IN ('outbox', "
			       "'outbox_recipients', 'manifests', 'sources', "
			       "'inbox', 'mailbox', 'requests')"), 7);
	assert_int_equal(q_int(f->st, "SELECT count(*) FROM "
			       "pragma_table_info('manifests') WHERE name IN "
			       "('text', 'dir')"), 2);
	assert_int_equal(q_int(f->st, "SELECT count(*) FROM "
			       "pragma_table_info('outbox') WHERE name = "
			       "'report_id'"), 1);
	/* 10: the requests of every kind, a test's own columns too */
	assert_int_equal(q_int(f->st, "SELECT count(*) FROM "
			       "pragma_table_info('requests') WHERE name IN "
			       "('request_id', 'form', 'result_root', 'patch', "
			       "'decided')"), 5);
}

/*
 * state_check(): a good state passes; one whose inbox root page is
 * garbage fails, EX_IOERR, saying it is damaged (issue 29 item 22).
 */
static void t_check(void **state)
{
	struct fx *f = *state;
	char page[4096];
	long long root, size;
	int fd;

	TU_SQLITE_ONLY("a damaged page of the file");
	reopen(f, STATE_WRITE);
	assert_int_equal(state_check(f->st, &f->err), 0);
	root = q_int(f->st, "SELECT rootpage FROM sqlite_master WHERE name = "
		     "'inbox'");
	size = q_int(f->st, "PRAGMA page_size");
	assert_true(size <= (long long)sizeof(page));
	state_close(f->st);
	f->open = 0;
	memset(page, 0x5a, sizeof(page));
	fd = open(f->path, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, page, (size_t)size, (root - 1) * size),
			 size);
	close(fd);
	reopen(f, STATE_WRITE);
	assert_int_equal(state_check(f->st, &f->err), -1);
	assert_int_equal(f->err.code, EX_IOERR);
	assert_non_null(strstr(f->err.msg, ": check: damaged ("));
	assert_non_null(strstr(f->err.msg, "restore it from a backup"));
}

/* Reopening changes nothing: same version, same schema, data kept. */
static void t_reopen_is_noop(void **state)
{
	struct fx *f = *state;
	char before[8192], after[8192];
	static const char schema[] = "SELECT group_concat(sql, ';') FROM "
		"(SELECT sql FROM sqlite_master ORDER BY name)";

	TU_SQLITE_ONLY("a file of an older schema made by hand");
	queue(f, "r1", "r1@example.test", T0);
	q_text(f->st, schema, before, sizeof(before));
	reopen(f, STATE_WRITE);
	reopen(f, STATE_WRITE);
	assert_int_equal(q_int(f->st, "PRAGMA user_version"), SCHEMA_VERSION);
	q_text(f->st, schema, after, sizeof(after));
	assert_string_equal(before, after);
	counts(f, 1, 0);
}

/* Schema version 1 as shipped (src/state/state.c, migrations[0]). */
static const char schema_v1[] =
	"CREATE TABLE outbox ("
	"  rowid INTEGER PRIMARY KEY,"
	"  id TEXT NOT NULL,"
	"  kind TEXT NOT NULL,"
	"  manifest TEXT,"
	"  subject TEXT,"
	"  status TEXT NOT NULL DEFAULT 'queued'"
	"    CHECK (status IN ('queued', 'sent', 'failed')),"
	"  message_id TEXT NOT NULL UNIQUE,"
	"  sender TEXT NOT NULL,"
	"  recipients TEXT NOT NULL,"
	"  message BLOB NOT NULL,"
	"  attempts INTEGER NOT NULL DEFAULT 0,"
	"  next_attempt INTEGER NOT NULL DEFAULT 0,"
	"  last_error TEXT,"
	"  created INTEGER NOT NULL,"
	"  sent_at INTEGER,"
	"  UNIQUE (kind, id));"
	"CREATE INDEX outbox_due ON outbox (status, next_attempt);"
	"CREATE TABLE outbox_recipients ("
	"  mail INTEGER NOT NULL REFERENCES outbox (rowid),"
	"  address TEXT NOT NULL,"
	"  status TEXT NOT NULL,"
	"  reply TEXT,"
	"  PRIMARY KEY (mail, address));"
	"CREATE TABLE manifests ("
	"  id TEXT PRIMARY KEY,"
	"  manifest TEXT,"
	"  outcome TEXT NOT NULL,"
	"  seen INTEGER NOT NULL);"
	"CREATE TABLE sources ("
	"  url TEXT PRIMARY KEY,"
	"  etag TEXT,"
	"  last_modified TEXT,"
	"  fetched INTEGER);"
	"CREATE VIEW reports AS"
	"  SELECT id, manifest, status, message_id, recipients, attempts,"
	"         next_attempt, last_error, sent_at, created"
	"  FROM outbox WHERE kind = 'report';"
	"INSERT INTO outbox (id, kind, message_id, sender, recipients, "
	"  message, created, subject) VALUES ('old-1', 'report', "
	"  'old-1@example.test', 'perfbot@example.test', "
	"  '[\"a@example.test\"]', "
	"  'Subject: old', 1, 'old subject');"
	"PRAGMA user_version = 1;";

static void make_v1(struct fx *f, const char *extra)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, schema_v1, NULL, NULL, NULL),
			 SQLITE_OK);
	if (extra)
		assert_int_equal(sqlite3_exec(db, extra, NULL, NULL, NULL),
				 SQLITE_OK);
	sqlite3_close(db);
}

/* A version 1 file is brought up to date, its mails kept and routable. */
static void t_upgrade_from_v1(void **state)
{
	struct fx *f = *state;
	const char *ids[] = { "old-1@example.test" };
	struct thread_report tr;
	char buf[64];
	int found = 0;

	TU_SQLITE_ONLY("a file of schema 1");
	make_v1(f, NULL);
	/* --dry-run does not upgrade. */
	assert_int_equal(state_open(&f->st, f->path, STATE_READ, &f->err), -1);
	assert_int_equal(f->err.code, EX_CONFIG);
	reopen(f, STATE_WRITE);
	assert_int_equal(q_int(f->st, "PRAGMA user_version"), SCHEMA_VERSION);
	q_text(f->st, "SELECT report_id FROM outbox", buf, sizeof(buf));
	assert_string_equal(buf, "old-1");
	assert_int_equal(state_route(f->st, ids, 1, &tr, &found, &f->err), 0);
	assert_int_equal(found, 1);
	assert_string_equal(tr.subject, "old subject");
	thread_report_release(&tr);
	assert_int_equal(inbox_seen_of(f->st, "x@y", &f->err), 0);
	counts(f, 1, 0);
	/* 7, 9 and 10 on a file of before them: one table of requests */
	assert_int_equal(q_int(f->st, "SELECT count(*) FROM requests"), 0);
	assert_int_equal(q_int(f->st, "SELECT count(*) FROM sqlite_master "
			       "WHERE type = 'table' AND name IN ('retests', "
			       "'confirms', 'tests', 'verifies')"), 0);
	/* 8: its report has no record row, and reads as open */
	assert_int_equal(q_int(f->st, "SELECT count(*) FROM records"), 0);
	assert_int_equal(q_int(f->st, "SELECT count(*) FROM sqlite_master "
			       "WHERE type = 'table' AND name IN ('records', "
			       "'record_events', 'tracking', 'reminders')"),
			 4);
	assert_int_equal(q_int(f->st, "SELECT count(*) FROM "
			       "pragma_table_info('requests') WHERE name IN "
			       "('request_id', 'kind', 'report_id', "
			       "'commit_sha', 'result_root', 'status', "
			       "'verdict', 'deadline')"), 8);
	{
		struct record r;
		int got = 0;

		assert_int_equal(state_record_get(f->st, "old-1", &r, &got,
						  &f->err), 0);
		assert_int_equal(got, 1);
		assert_string_equal(r.status, "open");
		assert_int_equal(r.stored, 0);
		assert_int_equal(r.regression, -1);
		record_release(&r);
	}
}

/* The rows of 'sql' (one text column), one a line. */
static void q_lines(struct state *st, const char *sql, struct strbuf *out)
{
	sqlite3_stmt *s;

	assert_int_equal(sqlite3_prepare_v2(state_db(st), sql, -1, &s, NULL),
			 SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW) {
		assert_int_equal(sb_adds(out, (const char *)
					 sqlite3_column_text(s, 0)), 0);
		assert_int_equal(sb_addc(out, '\n'), 0);
	}
	sqlite3_finalize(s);
}

/*
 * A state of the release before (tests/unit/fixtures/state-v9.sql: a row
 * of every kind and status in the four tables of then) keeps every row
 * in the one table of requests, each status in the one vocabulary, the
 * old word kept as the verdict where it was one.
 */
static void t_upgrade_requests(void **state)
{
	static const char want[] =
		"rt-requested|retest|r1|3|asking||2000|||a@example.test|m1@ex"
		"ample.test|{\"message_id\":\"m1@example.test\"}|3|3|1001||||"
		"|||||\n"
		"rt-queued|retest|r1|4|queued||2000|||a@example.test|m2@examp"
		"le.test|{}|3|3|1002|||||||||\n"
		"rt-done|retest|r1|5|done|stable|2000|stable||b@example.test|"
		"m3@example.test|{}|4|4|1003|||||||||\n"
		"rt-expired|retest|r2|3|expired||2000|deadline passed||b@exam"
		"ple.test|m4@example.test||3|3|1004|||||||||\n"
		"rt-rejected|retest|r2|3|rejected||2000|exit 1||b@example.tes"
		"t|m5@example.test||0|0|1005|||||||||\n"
		"confirm-c1|confirm|c1|13|asking||3000||||||3|3|1101||||||||m"
		".a|-4.25\n"
		"confirm-c2|confirm|c2|13|queued||3000||||||3|3|1102|0|||||||"
		"m.b|10.5\n"
		"confirm-c3|confirm|c3|13|done|confirmed|3000|yes: 16 runs|||"
		"||3|3|1103|1200|||||||m.c|7\n"
		"confirm-c4|confirm|c4|13|done|not reproduced|3000|not reprod"
		"uced by 13 more runs|||||3|3|1104|1201|||||||m.d|7\n"
		"confirm-c5|confirm|c5|13|expired|unconfirmed|3000|late|||||3"
		"|3|1105|1202|||||||m.e|7\n"
		"confirm-c6|confirm|c6|13|expired||3000|late, dropped|||||3|3"
		"|1106|1203|||||||m.f|7\n"
		"confirm-c7|confirm|c7|13|rejected||3000|refused|||||3|3|1107"
		"|1204|||||||m.g|7\n"
		"test-queued|test|r1|4|queued||4000||/r/test-queued|p@example"
		".test|t1@example.test|{}|||1301||patch|c0ffee|||/r/t.patch|1"
		"20||\n"
		"test-done|test|r1|4|done|fixed|4000|fixed|/r/test-done|p@exa"
		"mple.test|t2@example.test|{}|||1302|1400|tree|c0ffee|https:/"
		"/git.example.test/x.git|fix||||\n"
		"test-failed|test|r1|4|failed||4000|patch failed|/r/test-fail"
		"ed|p@example.test|t3@example.test|{}|||1303|1401|commit|beef"
		"||beef||||\n"
		"test-expired|test|r2|4|expired||4000|deadline passed|/r/test"
		"-expired|q@example.test|t4@example.test||||1304|1402|patch|c"
		"0ffee|||/r/x.patch|9||\n"
		"test-rejected|test|r2|4|rejected||4000|exit 1||q@example.tes"
		"t|t5@example.test||||1305||tree||https://git.example.test/x."
		"git|main||0||\n"
		"verify-queued|verify|r1|6|queued||5000||/r/v1||||||1501|||aa"
		"aa||||||\n"
		"verify-done|verify|r2|6|done|not fixed|5000|not fixed|/r/v2|"
		"|||||1502|1600||bbbb||||||\n"
		"verify-failed|verify|r3|6|failed||5000|no disk|/r/v3||||||15"
		"03|1601||cccc||||||\n"
		"verify-expired|verify|r4|6|expired||5000|deadline passed|/r/"
		"v4||||||1504|1602||dddd||||||\n"
		"verify-dropped|verify|r5|6|dropped||5000|open|/r/v5||||||150"
		"5|1603||eeee||||||\n"
		"verify-rejected|verify|r6|6|rejected||5000|exit 1|||||||1506"
		"|1604||ffff||||||\n";
	struct fx *f = *state;
	struct strbuf sql = STRBUF_INIT, got = STRBUF_INIT;
	struct request *rows = NULL;
	size_t n = 0;
	sqlite3 *db;

	TU_SQLITE_ONLY("a file of schema 9");
	assert_int_equal(file_read("tests/unit/fixtures/state-v9.sql",
				   1 << 20, 1, &sql, &f->err), 0);
	assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sb_str(&sql), NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	sb_release(&sql);
	reopen(f, STATE_WRITE);
	assert_int_equal(q_int(f->st, "PRAGMA user_version"), SCHEMA_VERSION);
	q_lines(f->st,
		"SELECT coalesce(request_id, '') || '|' || coalesce(kind, "
		"'') || '|' || coalesce(report_id, '') || '|' || "
		"coalesce(runs, '') || '|' || coalesce(status, '') || '|' "
		"|| coalesce(verdict, '') || '|' || coalesce(deadline, "
		"'') || '|' || coalesce(detail, '') || '|' || "
		"coalesce(result_root, '') || '|' || "
		"coalesce(requested_by, '') || '|' || "
		"coalesce(reply_message_id, '') || '|' || "
		"coalesce(thread, '') || '|' || coalesce(base_runs, '') "
		"|| '|' || coalesce(head_runs, '') || '|' || "
		"coalesce(created, '') || '|' || coalesce(decided, '') || "
		"'|' || coalesce(form, '') || '|' || coalesce(commit_sha, "
		"'') || '|' || coalesce(repo, '') || '|' || coalesce(ref, "
		"'') || '|' || coalesce(patch, '') || '|' || "
		"coalesce(patch_bytes, '') || '|' || coalesce(metric, '') "
		"|| '|' || coalesce(reported_change, '') FROM requests "
		"ORDER BY rowid",
		&got);
	assert_string_equal(sb_str(&got), want);
	sb_release(&got);
	/* the open ones are followed up as before, whatever their kind */
	assert_int_equal(state_requests_open(f->st, NULL, &rows, &n, &f->err),
			 0);
	assert_int_equal(n, 6);
	request_rows_free(rows, n);
}

/* A migration that fails leaves the file as it was: one transaction. */
static void t_upgrade_fails_atomically(void **state)
{
	struct fx *f = *state;
	struct state rawst = { .be = &state_sqlite, .lock_fd = -1 },
		     *raw = &rawst;

	TU_SQLITE_ONLY("a file of schema 1");
	make_v1(f, "CREATE TABLE retests (x);");
	assert_int_equal(state_open(&f->st, f->path, STATE_WRITE, &f->err), -1);
	assert_int_equal(f->err.code, EX_IOERR);
	assert_non_null(strstr(f->err.msg, "retests"));
	/* Look with plain SQLite: still version 1, nothing of version 2. */
	assert_int_equal(sqlite3_open(f->path, &rawst.db), SQLITE_OK);
	assert_int_equal(q_int(raw, "PRAGMA user_version"), 1);
	assert_int_equal(q_int(raw, "SELECT count(*) FROM "
			       "pragma_table_info('outbox') WHERE name = "
			       "'report_id'"), 0);
	assert_int_equal(q_int(raw, "SELECT count(*) FROM sqlite_master "
			       "WHERE name IN ('inbox', 'mailbox')"), 0);
	assert_int_equal(q_int(raw, "SELECT count(*) FROM outbox"), 1);
	sqlite3_close(state_db(raw));
}

static void t_open_newer_schema(void **state)
{
	struct fx *f = *state;

	TU_SQLITE_ONLY("user_version (PostgreSQL: t_pg_newer_schema)");
	q_exec(f->st, "PRAGMA user_version = 99");
	state_close(f->st);
	f->open = 0;
	assert_int_equal(state_open(&f->st, f->path, STATE_WRITE, &f->err), -1);
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_non_null(strstr(f->err.msg, "schema version 99 is newer"));
	assert_null(f->st);
	assert_int_equal(state_open(&f->st, f->path, STATE_READ, &f->err), -1);
	assert_int_equal(f->err.code, EX_CONFIG);
}

/*
 * The backend is chosen by the 'state:' value: a plain path is SQLite's
 * (every other test), a postgresql:// URI is a later backend's, refused
 * in so many words, and a URI of no backend is refused too.
 */
static void t_open_backend_by_scheme(void **state)
{
	struct fx *f = *state;
	struct state *st = (struct state *)1;

	/* PostgreSQL's, by either name: no server there, try later */
	assert_int_equal(state_open(&st, "postgresql://pb:secret-pw@"
				    "127.0.0.1:1/perfbot", STATE_LOCKED,
				    &f->err), -1);
	assert_null(st);
	assert_int_equal(f->err.code, EX_TEMPFAIL);
	assert_non_null(strstr(f->err.msg, "postgresql://pb@127.0.0.1:1/"
			       "perfbot: the database server is unreachable"));
	assert_non_null(strstr(f->err.msg, "try again later"));
	assert_null(strstr(f->err.msg, "secret-pw"));
	assert_int_equal(state_open(&st, "postgres://127.0.0.1:1/perfbot",
				    STATE_READ, &f->err), -1);
	assert_int_equal(f->err.code, EX_TEMPFAIL);
	assert_int_equal(state_open(&st, "mysql://db/perfbot", STATE_WRITE,
				    &f->err), -1);
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_string_equal(f->err.msg, "state: 'mysql://': no backend of "
			    "that scheme (a path is SQLite's)");
	/* no file of that name was made on the way */
	assert_int_equal(access("postgresql:", F_OK), -1);
	assert_int_equal(access("mysql:", F_OK), -1);
}

/* What 'perfbot check' asks of the state's place, by its backend. */
static void t_usable(void **state)
{
	struct fx *f = *state;
	char p[256];
	int made = -1;

	TU_SQLITE_ONLY("the file's folder");
	assert_int_equal(state_usable(f->path, &made, &f->err), 0);
	assert_int_equal(made, 0);	/* a file not made yet */
	snprintf(p, sizeof(p), "%s/a/b/c.db", f->dir);
	assert_int_equal(state_usable(p, &made, &f->err), 0);
	assert_int_equal(made, 0);	/* folders made by the first run */
	reopen(f, STATE_WRITE);
	assert_int_equal(state_usable(f->path, &made, &f->err), 0);
	assert_int_equal(made, 1);
	/* a file where a folder would be: no run can make the state */
	snprintf(p, sizeof(p), "%s/x.db", f->path);
	assert_int_equal(state_usable(p, &made, &f->err), -1);
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_non_null(strstr(f->err.msg, "is not a writable directory"));
	assert_int_equal(state_usable("postgresql://127.0.0.1:1/pb", &made,
				      &f->err), -1);
	assert_int_equal(f->err.code, EX_TEMPFAIL);
}

static void t_open_cannot_create(void **state)
{
	struct fx *f = *state;
	char path[160];

	TU_SQLITE_ONLY("the file's folder");
	snprintf(path, sizeof(path), "%s/no-such-dir/perfbot.db", f->dir);
	assert_int_equal(state_open(&f->st, path, STATE_WRITE, &f->err), -1);
	assert_int_equal(f->err.code, EX_CANTCREAT);
	assert_non_null(strstr(f->err.msg, path));
}

static void t_read_missing(void **state)
{
	struct fx *f = *state;

	TU_SQLITE_ONLY("a missing file");
	assert_int_equal(state_open(&f->st, f->path, STATE_READ, &f->err), -1);
	assert_int_equal(f->err.code, EX_NOINPUT);
	assert_non_null(strstr(f->err.msg, f->path));
	assert_int_not_equal(access(f->path, F_OK), 0);
	assert_null(f->st);
}

/* A file that was never migrated is refused read-only, not migrated. */
static void t_read_unmigrated(void **state)
{
	struct fx *f = *state;
	sqlite3 *db;

	TU_SQLITE_ONLY("an empty file");
	assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE x (y)", NULL, NULL,
				      NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(state_open(&f->st, f->path, STATE_READ, &f->err), -1);
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_non_null(strstr(f->err.msg, "schema version 0"));
	assert_non_null(strstr(f->err.msg, "without --dry-run"));
}

static void t_read_refuses_write(void **state)
{
	struct fx *f = *state;
	struct outbox_mail m = mail("r2", "report", "r2@example.test");
	struct outbox_mail *v = NULL;
	size_t n = 0;
	char *etag, *lm;

	queue(f, "r1", "r1@example.test", T0);
	reopen(f, STATE_READ);
	assert_int_equal(state_queued(f->st, &v, &n, &f->err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].id, "r1");
	outbox_free(v, n);
	assert_int_equal(seen_of(f->st, "r1", &f->err), 1);
	assert_int_equal(state_queue(f->st, &m, NULL, NULL, NULL, "s", T0, &f->err), -1);
	assert_int_equal(f->err.code, EX_IOERR);
	assert_int_equal(state_skip(f->st, "x", "x.yaml", "no change", T0,
				    &f->err), -1);
	assert_int_equal(state_source_set(f->st, "http://x/", "\"e\"", NULL,
					  T0, &f->err), -1);
	assert_int_equal(state_mailbox_set(f->st, "INBOX", 1, 2, &f->err), -1);
	/* Even inside a transaction (BEGIN itself may succeed). */
	if (!state_begin(f->st, &f->err)) {
		assert_int_equal(state_queue(f->st, &m, NULL, NULL, NULL, "s", T0,
					     &f->err), -1);
		state_rollback(f->st);
	}
	assert_int_equal(state_source_get(f->st, "http://x/", &etag, &lm,
					  &f->err), 0);
	assert_null(etag);
	/* Nothing was written. */
	reopen(f, STATE_WRITE);
	counts(f, 1, 0);
	assert_int_equal(seen_of(f->st, "x", &f->err), 0);
}

/* ------------------------------------------------------------------ */
/* the run lock                                                        */

static void t_lock_same_process(void **state)
{
	struct fx *f = *state;
	struct state *other = NULL;
	char lock[160];

	TU_SQLITE_ONLY("the file lock (PostgreSQL: t_pg_lock)");
	assert_int_equal(state_lock(f->st, &f->err), 0);
	assert_true(f->st->lock_fd >= 0);
	/* the lock is the database file's own: no side file */
	snprintf(lock, sizeof(lock), "%s.lock", f->path);
	assert_int_equal(access(lock, F_OK), -1);
	assert_int_equal(state_lock(f->st, &f->err), 0);	/* held */
	/* A second open file description of the same lock conflicts. */
	assert_int_equal(state_open(&other, f->path, STATE_WRITE, &f->err), 0);
	assert_int_equal(state_lock(other, &f->err), -1);
	assert_int_equal(f->err.code, EX_TEMPFAIL);
	assert_non_null(strstr(f->err.msg, "another perfbot is running"));
	assert_int_equal(other->lock_fd, -1);
	/* Closing releases it. */
	state_close(f->st);
	f->open = 0;
	assert_int_equal(state_lock(other, &f->err), 0);
	state_close(other);
}

/*
 * Run state_open + state_lock in another process: this program again,
 * as "test_state --lock PATH" (see main), so that the child inherits no
 * open database. Its exit code is err.code (0: locked).
 */
static const char *self;	/* argv[0] */

static int child_lock(const char *path)
{
	pid_t pid;
	int status;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		execl(self, self, "--lock", path, (char *)NULL);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static int lock_main(const char *path)
{
	struct state *st = NULL;
	struct pb_err err;
	int code = 100;

	if (!state_open(&st, path, STATE_WRITE, &err)) {
		code = state_lock(st, &err) ? err.code : 0;
		state_close(st);
	}
	return code;
}

static void t_lock_other_process(void **state)
{
	struct fx *f = *state;

	TU_SQLITE_ONLY("the file lock (PostgreSQL: t_pg_lock)");
	assert_int_equal(child_lock(f->path), 0);	/* free */
	assert_int_equal(state_lock(f->st, &f->err), 0);
	assert_int_equal(child_lock(f->path), EX_TEMPFAIL);
	state_close(f->st);
	f->open = 0;
	assert_int_equal(child_lock(f->path), 0);
}

/*
 * Other names of the same file (a symlink, a hard link, a symlinked
 * directory) share the lock, taken before SQLite opens the file.
 */
static void t_lock_other_names(void **state)
{
	struct fx *f = *state;
	struct state *other = NULL;
	char sym[160], hard[160], dir[160], via[200];

	TU_SQLITE_ONLY("the file's other names");
	snprintf(sym, sizeof(sym), "%s/sym.db", f->dir);
	snprintf(hard, sizeof(hard), "%s/hard.db", f->dir);
	snprintf(dir, sizeof(dir), "%s/dirlink", f->dir);
	snprintf(via, sizeof(via), "%s/perfbot.db", dir);
	assert_int_equal(symlink(f->path, sym), 0);
	assert_int_equal(link(f->path, hard), 0);
	assert_int_equal(symlink(f->dir, dir), 0);
	assert_int_equal(state_lock(f->st, &f->err), 0);
	assert_int_equal(state_open(&other, sym, STATE_LOCKED, &f->err), -1);
	assert_int_equal(f->err.code, EX_TEMPFAIL);
	assert_int_equal(state_open(&other, hard, STATE_LOCKED, &f->err), -1);
	assert_int_equal(f->err.code, EX_TEMPFAIL);
	assert_int_equal(state_open(&other, via, STATE_LOCKED, &f->err), -1);
	assert_int_equal(f->err.code, EX_TEMPFAIL);
	assert_non_null(strstr(f->err.msg, "another perfbot is running"));
	state_close(f->st);
	f->open = 0;
	assert_int_equal(state_open(&other, sym, STATE_LOCKED, &f->err), 0);
	assert_int_equal(q_int(other, "PRAGMA user_version"), SCHEMA_VERSION);
	assert_int_equal(child_lock(hard), EX_TEMPFAIL);
	state_close(other);
	assert_int_equal(child_lock(hard), 0);
}

/*
 * A run killed while it used one hard link leaves its last transactions
 * in that name's -wal: a run by another name reopens the file by its home
 * name and sees them (else it would miss them, and replaying that WAL
 * later would corrupt the file).
 */
static void t_hard_link_wal(void **state)
{
	struct fx *f = *state;
	struct state *other = NULL;
	char hard[160], wal[170];
	pid_t pid;
	int status;

	TU_SQLITE_ONLY("the file's -wal");
	snprintf(hard, sizeof(hard), "%s/hard.db", f->dir);
	/* created by its first name, which becomes its home */
	assert_int_equal(state_open(&other, f->path, STATE_LOCKED, &f->err), 0);
	state_close(other);
	assert_int_equal(link(f->path, hard), 0);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct state *st = NULL;
		struct pb_err err;
		struct outbox_mail m = mail("killed", "report", "k@example.test");

		if (state_open(&st, f->path, STATE_LOCKED, &err) ||
		    sqlite3_exec(state_db(st), "PRAGMA wal_autocheckpoint = 0", NULL,
				 NULL, NULL) ||
		    state_queue(st, &m, NULL, NULL, NULL, "s", T0, &err))
			_exit(1);
		_exit(0);	/* killed: no close, no checkpoint */
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	snprintf(wal, sizeof(wal), "%s-wal", f->path);
	assert_int_equal(access(wal, F_OK), 0);	/* the row is only there */
	assert_int_equal(state_open(&f->st, hard, STATE_LOCKED, &f->err), 0);
	f->open = 1;
	assert_int_equal(seen_of(f->st, "killed", &f->err), 1);
	snprintf(wal, sizeof(wal), "%s-wal", hard);
	assert_int_equal(access(wal, F_OK), -1);	/* never used */
	state_close(f->st);
	f->open = 0;
	assert_int_equal(state_open(&f->st, f->path, STATE_LOCKED, &f->err), 0);
	f->open = 1;
	{
		char ok[64];

		q_text(f->st, "PRAGMA integrity_check", ok, sizeof(ok));
		assert_string_equal(ok, "ok");
	}
	assert_int_equal(seen_of(f->st, "killed", &f->err), 1);
}

/* A first run on a missing file: the lock comes before the schema. */
static void t_lock_before_create(void **state)
{
	struct fx *f = *state;
	struct state *other = NULL;
	int fd;

	TU_SQLITE_ONLY("the file lock");
	/* another process holds the lock on the (still empty) file */
	fd = open(f->path, O_RDWR | O_CREAT, 0600);
	assert_true(fd >= 0);
	assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
	assert_int_equal(state_open(&other, f->path, STATE_LOCKED, &f->err), -1);
	assert_int_equal(f->err.code, EX_TEMPFAIL);
	{
		struct stat sb;

		assert_int_equal(stat(f->path, &sb), 0);
		assert_int_equal(sb.st_size, 0);	/* SQLite never ran */
	}
	close(fd);
	assert_int_equal(state_open(&f->st, f->path, STATE_LOCKED, &f->err), 0);
	f->open = 1;
	assert_int_equal(q_int(f->st, "PRAGMA user_version"), SCHEMA_VERSION);
	/* a FIFO is no database */
	{
		char fifo[160];

		snprintf(fifo, sizeof(fifo), "%s/fifo", f->dir);
		assert_int_equal(mkfifo(fifo, 0600), 0);
		assert_int_equal(state_open(&other, fifo, STATE_LOCKED,
					    &f->err), -1);
		assert_non_null(strstr(f->err.msg, "not a regular file"));
	}
}

/* ------------------------------------------------------------------ */
/* claims                                                              */

static void t_claim(void **state)
{
	struct fx *f = *state;
	long long a = queue(f, "a", "a@example.test", T0);
	long long b = queue(f, "b", "b@example.test", T0);
	char host[256], sql[512];

	assert_int_equal(claim_of(f->st, a, T0, 600, &f->err), 1);
	assert_int_equal(q_int(f->st, "SELECT claim_expires FROM outbox "
			       "WHERE id = 'a'"), T0 + 600);
	/* this process may claim again (a retry in the same run) */
	assert_int_equal(claim_of(f->st, a, T0, 600, &f->err), 1);
	/* another host's live claim holds until it expires */
	q_exec(f->st, "UPDATE outbox SET claim_owner = 'elsewhere:1', "
	       "claim_expires = 1739548680 WHERE id = 'b'");
	assert_int_equal(claim_of(f->st, b, T0, 600, &f->err), 0);
	assert_int_equal(claim_of(f->st, b, T0 + 599, 600, &f->err), 0);
	assert_int_equal(claim_of(f->st, b, T0 + 600, 600, &f->err), 1);
	/* a live process of this host (pid 1) holds it */
	assert_int_equal(gethostname(host, sizeof(host)), 0);
	host[sizeof(host) - 1] = '\0';
	snprintf(sql, sizeof(sql), "UPDATE outbox SET claim_owner = '%s:1', "
		 "claim_expires = 1739550000 WHERE id = 'b'", host);
	q_exec(f->st, sql);
	assert_int_equal(claim_of(f->st, b, T0, 600, &f->err), 0);
	/* a dead one (a killed run) does not */
	{
		pid_t pid = fork();
		int st;

		assert_true(pid >= 0);
		if (pid == 0)
			_exit(0);
		assert_int_equal(waitpid(pid, &st, 0), pid);
		snprintf(sql, sizeof(sql), "UPDATE outbox SET claim_owner = "
			 "'%s:%ld' WHERE id = 'b'", host, (long)pid);
		q_exec(f->st, sql);
	}
	assert_int_equal(claim_of(f->st, b, T0, 600, &f->err), 1);
	/* a sent mail is never claimed again, and its claim is cleared */
	assert_int_equal(state_sent(f->st, a, T0, &f->err), 0);
	assert_int_equal(q_int(f->st, "SELECT claim_owner IS NULL FROM outbox "
			       "WHERE id = 'a'"), 1);
	assert_int_equal(claim_of(f->st, a, T0 + 9999, 600, &f->err), 0);
	assert_int_equal(claim_of(f->st, 424242, T0, 600, &f->err), 0);
	/* a retry clears the claim too */
	assert_int_equal(state_retry(f->st, b, "451 later", T0, &f->err), 0);
	assert_int_equal(q_int(f->st, "SELECT claim_owner IS NULL FROM outbox "
			       "WHERE id = 'b'"), 1);
}

/* ------------------------------------------------------------------ */
/* the outbox                                                          */

static void t_backoff(void **state)
{
	static const long want[] = {
		60, 120, 240, 480, 960, 1920, 3840, 7680, 15360, 21600, 21600,
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_int_equal(state_backoff((int)i + 1), want[i]);
	assert_int_equal(state_backoff(0), 60);
	assert_int_equal(state_backoff(-5), 60);
	assert_int_equal(state_backoff(1000), 6 * 3600);
	assert_int_equal(state_backoff(2147483647), 6 * 3600);
}

static void t_queue_and_read_back(void **state)
{
	struct fx *f = *state;
	static const char bin[] = "Subject: nul\n\nbefore\0after\n";
	struct outbox_mail m = mail("r1", "report", "r1@example.test");
	struct outbox_mail *v = NULL;
	size_t n = 0;
	char buf[256];

	m.message = (char *)bin;
	m.len = sizeof(bin) - 1;
	assert_int_equal(state_queue(f->st, &m, "x.yaml", NULL, NULL, "the subject", T0,
				     &f->err), 0);
	assert_int_equal(state_due(f->st, T0, 10, &v, &n, &f->err), 0);
	assert_int_equal(n, 1);
	assert_true(v[0].rowid > 0);
	assert_string_equal(v[0].id, "r1");
	assert_string_equal(v[0].kind, "report");
	assert_string_equal(v[0].message_id, "r1@example.test");
	assert_string_equal(v[0].sender, "perfbot@example.test");
	assert_string_equal(v[0].recipients, m.recipients);
	assert_int_equal(v[0].len, sizeof(bin) - 1);
	assert_memory_equal(v[0].message, bin, sizeof(bin) - 1);
	assert_int_equal(v[0].message[v[0].len], '\0');
	assert_int_equal(v[0].attempts, 0);
	assert_null(v[0].report_id);	/* not read back */
	outbox_free(v, n);
	q_text(f->st, "SELECT subject || '|' || manifest || '|' || status || "
	       "'|' || report_id || '|' || created FROM outbox", buf,
	       sizeof(buf));
	assert_string_equal(buf, "the subject|x.yaml|queued|r1|1739548080");
	counts(f, 1, 0);
	outbox_free(NULL, 0);
}

/* queue -> retry -> retry -> sent, with attempts and next_attempt. */
static void t_retry_then_sent(void **state)
{
	struct fx *f = *state;
	long long row = queue(f, "r1", "r1@example.test", T0);
	struct outbox_mail *v;
	size_t n;
	char ids[256], err[128];

	assert_int_equal(due_ids(f, T0, 10, ids, sizeof(ids)), 1);
	assert_int_equal(state_retry(f->st, row, "421 try later", T0,
				     &f->err), 0);
	assert_int_equal(q_int(f->st, "SELECT next_attempt FROM outbox"),
			 T0 + 60);
	assert_int_equal(q_int(f->st, "SELECT attempts FROM outbox"), 1);
	q_text(f->st, "SELECT last_error FROM outbox", err, sizeof(err));
	assert_string_equal(err, "421 try later");
	assert_int_equal(due_ids(f, T0 + 59, 10, ids, sizeof(ids)), 0);
	assert_int_equal(due_ids(f, T0 + 60, 10, ids, sizeof(ids)), 1);
	counts(f, 1, 0);

	assert_int_equal(state_retry(f->st, row, "timeout", T0 + 60,
				     &f->err), 0);
	assert_int_equal(q_int(f->st, "SELECT next_attempt FROM outbox"),
			 T0 + 60 + 120);
	assert_int_equal(due_ids(f, T0 + 179, 10, ids, sizeof(ids)), 0);
	assert_int_equal(state_due(f->st, T0 + 180, 10, &v, &n, &f->err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].attempts, 2);
	outbox_free(v, n);

	assert_int_equal(state_sent(f->st, row, T0 + 200, &f->err), 0);
	assert_int_equal(q_int(f->st, "SELECT attempts FROM outbox"), 3);
	assert_int_equal(q_int(f->st, "SELECT sent_at FROM outbox"), T0 + 200);
	assert_int_equal(q_int(f->st, "SELECT last_error IS NULL FROM outbox"),
			 1);
	q_text(f->st, "SELECT status FROM reports", err, sizeof(err));
	assert_string_equal(err, "sent");
	assert_int_equal(due_ids(f, T0 + 100000, 10, ids, sizeof(ids)), 0);
	counts(f, 0, 0);
	assert_int_equal(sent_since(f, T0 + 200), 1);
	assert_int_equal(sent_since(f, T0 + 201), 0);
	assert_int_equal(sent_since(f, 0), 1);
}

/* The backoff of a mail keeps growing with its attempts, up to 6 h. */
static void t_retry_backoff_capped(void **state)
{
	struct fx *f = *state;
	long long row = queue(f, "r1", "r1@example.test", T0);
	int i;

	for (i = 0; i < 12; i++)
		assert_int_equal(state_retry(f->st, row, "busy", T0, &f->err),
				 0);
	assert_int_equal(q_int(f->st, "SELECT attempts FROM outbox"), 12);
	assert_int_equal(q_int(f->st, "SELECT next_attempt FROM outbox"),
			 T0 + 6 * 3600);
}

static void t_failed(void **state)
{
	struct fx *f = *state;
	long long row = queue(f, "r1", "r1@example.test", T0);
	char ids[256], why[128];

	queue(f, "r2", "r2@example.test", T0);
	assert_int_equal(state_failed(f->st, row, "550 no such user", T0,
				      &f->err), 0);
	q_text(f->st, "SELECT status || ' ' || attempts || ' ' || last_error "
	       "FROM outbox WHERE id = 'r1'", why, sizeof(why));
	assert_string_equal(why, "failed 1 550 no such user");
	assert_int_equal(due_ids(f, T0, 10, ids, sizeof(ids)), 1);
	assert_string_equal(ids, "r2");
	counts(f, 1, 1);
	assert_int_equal(sent_since(f, 0), 0);
}

/*
 * A wall clock that jumps back (issue 25 item 8) neither stretches a
 * deferral past the longest backoff nor freezes the hourly limit: the
 * mail is due again, and a mail sent two hours ago by the monotonic clock
 * is out of the last hour, whatever the wall clock says.
 */
static void t_clock_back(void **state)
{
	struct fx *f = *state;
	long long row = queue(f, "r1", "r1@example.test", T0);
	struct clock_mono then = { 1, "boot-1", 1000 };
	struct clock_mono now = { 1, "boot-1", 1000 + 7200 };
	struct clock_mono soon = { 1, "boot-1", 1000 + 10 };
	struct clock_mono none = { 0, "", 0 };
	char ids[64];
	long n = -1;

	assert_int_equal(state_retry(f->st, row, "451 later", T0, &f->err), 0);
	assert_int_equal(due_ids(f, T0, 10, ids, sizeof(ids)), 0);
	/* a day back: the deferral of a minute is not a day and a minute */
	assert_int_equal(due_ids(f, T0 - 86400, 10, ids, sizeof(ids)), 1);
	assert_int_equal(state_sent(f->st, row, T0, &f->err), 0);
	assert_int_equal(state_sent_clock(f->st, row, &then, &f->err), 0);
	assert_int_equal(state_sent_within(f->st, T0 - 86400, 3600, &now, &n,
					   &f->err), 0);
	assert_int_equal(n, 0);
	assert_int_equal(state_sent_within(f->st, T0 - 86400, 3600, &soon, &n,
					   &f->err), 0);
	assert_int_equal(n, 1);
	/* no monotonic clock: the wall clock, never in its future */
	assert_int_equal(state_sent_within(f->st, T0 - 86400, 3600, &none, &n,
					   &f->err), 0);
	assert_int_equal(n, 0);
	assert_int_equal(state_sent_within(f->st, T0 + 60, 3600, &none, &n,
					   &f->err), 0);
	assert_int_equal(n, 1);
}

/* state_due: next_attempt honoured, oldest first, at most 'max'. */
static void t_due_limit_and_order(void **state)
{
	struct fx *f = *state;
	long long first;
	char ids[256];

	first = queue(f, "r1", "r1@example.test", T0);
	queue(f, "r2", "r2@example.test", T0 + 5);
	queue(f, "r3", "r3@example.test", T0 + 1);
	queue(f, "r4", "r4@example.test", T0);
	assert_int_equal(due_ids(f, T0, 2, ids, sizeof(ids)), 2);
	assert_string_equal(ids, "r1 r2");
	assert_int_equal(due_ids(f, T0, 100, ids, sizeof(ids)), 4);
	assert_string_equal(ids, "r1 r2 r3 r4");
	assert_int_equal(due_ids(f, T0, 0, ids, sizeof(ids)), 0);
	assert_int_equal(state_retry(f->st, first, "busy", T0, &f->err), 0);
	assert_int_equal(due_ids(f, T0, 2, ids, sizeof(ids)), 2);
	assert_string_equal(ids, "r2 r3");
	assert_int_equal(due_ids(f, T0 + 60, 10, ids, sizeof(ids)), 4);
	assert_string_equal(ids, "r1 r2 r3 r4");
}

/*
 * The rowids alone, in the same order as the mails (state_due_rows,
 * state_queued_rows), and one mail by its rowid (state_mail).
 */
static void t_rows_and_one_mail(void **state)
{
	struct fx *f = *state;
	long long r1, r2, r3, *rows = NULL;
	struct outbox_mail m;
	size_t n = 99;
	int found = -1;

	assert_int_equal(state_due_rows(f->st, T0, 10, &rows, &n, &f->err), 0);
	assert_int_equal(n, 0);
	free(rows);
	r1 = queue(f, "r1", "r1@example.test", T0);
	r2 = queue(f, "r2", "r2@example.test", T0);
	r3 = queue(f, "r3", "r3@example.test", T0);
	assert_int_equal(state_retry(f->st, r1, "busy", T0, &f->err), 0);
	assert_int_equal(state_due_rows(f->st, T0, 10, &rows, &n, &f->err), 0);
	assert_int_equal(n, 2);
	assert_true(rows[0] == r2 && rows[1] == r3);
	free(rows);
	assert_int_equal(state_due_rows(f->st, T0, 1, &rows, &n, &f->err), 0);
	assert_int_equal(n, 1);
	assert_true(rows[0] == r2);
	free(rows);
	assert_int_equal(state_queued_rows(f->st, &rows, &n, &f->err), 0);
	assert_int_equal(n, 3);
	assert_true(rows[0] == r1 && rows[1] == r2 && rows[2] == r3);
	free(rows);
	assert_int_equal(state_mail(f->st, r2, &m, &found, &f->err), 0);
	assert_int_equal(found, 1);
	assert_true(m.rowid == r2);
	assert_string_equal(m.id, "r2");
	assert_string_equal(m.message_id, "r2@example.test");
	assert_string_equal(m.kind, "report");
	assert_non_null(m.message);
	assert_true(m.len > 0);
	outbox_mail_release(&m);
	assert_null(m.id);
	assert_int_equal(state_mail(f->st, r3 + 100, &m, &found, &f->err), 0);
	assert_int_equal(found, 0);
	assert_null(m.message);
	outbox_mail_release(&m);
}

/* state_queued: every queued mail whatever its next attempt. */
static void t_queued(void **state)
{
	struct fx *f = *state;
	long long r1, r2;
	struct outbox_mail *v = NULL;
	size_t n = 0;

	assert_int_equal(state_queued(f->st, &v, &n, &f->err), 0);
	assert_int_equal(n, 0);
	outbox_free(v, n);
	r1 = queue(f, "r1", "r1@example.test", T0);
	r2 = queue(f, "r2", "r2@example.test", T0);
	queue(f, "r3", "r3@example.test", T0);
	assert_int_equal(state_retry(f->st, r1, "busy", T0, &f->err), 0);
	assert_int_equal(state_sent(f->st, r2, T0, &f->err), 0);
	assert_int_equal(state_queued(f->st, &v, &n, &f->err), 0);
	assert_int_equal(n, 2);
	assert_string_equal(v[0].id, "r1");
	assert_int_equal(v[0].attempts, 1);
	assert_string_equal(v[1].id, "r3");
	outbox_free(v, n);
}

static void t_recipients(void **state)
{
	struct fx *f = *state;
	long long row = queue(f, "r1", "r1@example.test", T0);
	char buf[256];

	assert_int_equal(state_recipient(f->st, row, "a@example.test",
					 "rejected", "450 busy", &f->err), 0);
	assert_int_equal(state_recipient(f->st, row, "b@example.test",
					 "rejected", "550 unknown", &f->err),
			 0);
	/* The later outcome replaces the earlier one. */
	assert_int_equal(state_recipient(f->st, row, "a@example.test",
					 "accepted", "250 ok", &f->err), 0);
	assert_int_equal(q_int(f->st, "SELECT count(*) FROM "
			       "outbox_recipients"), 2);
	q_rows(f->st, "SELECT address || ' ' || status || ' ' || reply FROM "
	       "outbox_recipients ORDER BY address", buf, sizeof(buf));
	assert_string_equal(buf, "a@example.test accepted 250 ok,"
			    "b@example.test rejected 550 unknown");
	/* No such mail: the foreign key refuses it. */
	assert_int_equal(state_recipient(f->st, row + 100, "c@example.test",
					 "accepted", NULL, &f->err), -1);
	assert_int_equal(f->err.code, EX_IOERR);
}

static void t_seen_and_skip(void **state)
{
	struct fx *f = *state;
	struct outbox_mail a = mail("a-1", "answer", "a1@example.test");
	char why[64];

	assert_int_equal(seen_of(f->st, "m1", &f->err), 0);
	assert_int_equal(state_skip(f->st, "m1", "m1.yaml", "no change", T0,
				    &f->err), 0);
	assert_int_equal(seen_of(f->st, "m1", &f->err), 1);
	/* A second skip keeps the first record. */
	assert_int_equal(state_skip(f->st, "m1", "other.yaml", "again",
				    T0 + 1, &f->err), 0);
	q_text(f->st, "SELECT outcome || ' ' || manifest || ' ' || seen FROM "
	       "manifests WHERE id = 'm1'", why, sizeof(why));
	assert_string_equal(why, "no change m1.yaml 1739548080");
	/* A queued report is seen, through manifests and the outbox. */
	queue(f, "r1", "r1@example.test", T0);
	assert_int_equal(seen_of(f->st, "r1", &f->err), 1);
	q_exec(f->st, "DELETE FROM manifests WHERE id = 'r1'");
	assert_int_equal(seen_of(f->st, "r1", &f->err), 1);
	/* An answer's id is not a manifest. */
	assert_int_equal(state_queue(f->st, &a, NULL, NULL, NULL, "Re: x", T0, &f->err),
			 0);
	assert_int_equal(seen_of(f->st, "a-1", &f->err), 0);
	assert_int_equal(seen_of(f->st, "", &f->err), 0);
}

static void t_sources(void **state)
{
	struct fx *f = *state;
	char *etag = (char *)1, *lm = (char *)1;

	assert_int_equal(state_source_get(f->st, "http://h/m", &etag, &lm,
					  &f->err), 0);
	assert_null(etag);
	assert_null(lm);
	assert_int_equal(state_source_set(f->st, "http://h/m", "\"abc\"",
					  NULL, T0, &f->err), 0);
	assert_int_equal(state_source_get(f->st, "http://h/m", &etag, &lm,
					  &f->err), 0);
	assert_string_equal(etag, "\"abc\"");
	assert_null(lm);
	free(etag);
	assert_int_equal(state_source_set(f->st, "http://h/m", NULL,
					  "Fri, 14 Feb 2025 15:48:00 GMT",
					  T0 + 1, &f->err), 0);
	assert_int_equal(state_source_get(f->st, "http://h/m", &etag, &lm,
					  &f->err), 0);
	assert_null(etag);
	assert_string_equal(lm, "Fri, 14 Feb 2025 15:48:00 GMT");
	free(lm);
	assert_int_equal(state_source_get(f->st, "http://h/other", &etag,
					  &lm, &f->err), 0);
	assert_null(etag);
	assert_null(lm);
	assert_int_equal(q_int(f->st, "SELECT count(*) FROM sources"), 1);
}

/* The ids derived for manifests that name none, by digest: the first
 * kept stays (a derived id never changes for one text). */
static void t_manifest_ids(void **state)
{
	struct fx *f = *state;
	char *id = NULL;

	reopen(f, STATE_WRITE);
	assert_int_equal(state_manifest_id_get(f->st, "d1", &id, &f->err), 0);
	assert_null(id);
	assert_int_equal(state_manifest_id_keep(f->st, "d1", "r-1", T0,
						&f->err), 0);
	assert_int_equal(state_manifest_id_keep(f->st, "d1", "r-2", T0 + 1,
						&f->err), 0);
	assert_int_equal(state_manifest_id_keep(f->st, "d2", "r-2", T0 + 1,
						&f->err), 0);
	assert_int_equal(state_manifest_id_get(f->st, "d1", &id, &f->err), 0);
	assert_string_equal(id, "r-1");
	free(id);
	assert_int_equal(state_manifest_id_get(f->st, "d2", &id, &f->err), 0);
	assert_string_equal(id, "r-2");
	free(id);
	assert_int_equal(state_manifest_id_get(f->st, "d3", &id, &f->err), 0);
	assert_null(id);
	assert_int_equal(q_int(f->st, "SELECT count(*) FROM manifest_ids"), 2);
}

/*
 * UNIQUE(kind, id) and UNIQUE(message_id), inside a transaction. A mail
 * of a kind and id queued already is left as it is, without an error
 * (an answer due twice is queued once: issue 29 item 16); another mail
 * under a Message-ID in use is refused.
 */
static void t_unique(void **state)
{
	struct fx *f = *state;
	struct outbox_mail m = mail("r1", "report", "other@example.test");
	struct outbox_mail a = mail("r1", "answer", "a1@example.test");
	struct outbox_mail d = mail("r9", "report", "r1@example.test");
	char buf[64];

	queue(f, "r1", "r1@example.test", T0);
	q_exec(f->st, "UPDATE outbox SET status = 'sent' WHERE id = 'r1'");
	/* The same report again: no error, and the first one kept. */
	assert_int_equal(state_queue(f->st, &m, NULL, NULL, NULL, "s", T0, &f->err), 0);
	assert_int_equal(q_int(f->st, "SELECT count(*) FROM outbox WHERE id = "
			       "'r1'"), 1);
	q_text(f->st, "SELECT message_id || ' ' || status FROM outbox WHERE "
	       "id = 'r1'", buf, sizeof(buf));
	assert_string_equal(buf, "r1@example.test sent");
	/* The same Message-ID for another mail: refused. */
	assert_int_equal(state_queue(f->st, &d, NULL, NULL, NULL, "s", T0, &f->err), -1);
	assert_int_equal(f->err.code, EX_IOERR);
	/* SQLite's words, or PostgreSQL's */
	assert_true(strstr(f->err.msg, "UNIQUE") ||
		    strstr(f->err.msg, "unique constraint"));
	assert_non_null(strstr(f->err.msg, f->st->path));
	/* The same id of another kind is another mail. */
	assert_int_equal(state_queue(f->st, &a, NULL, NULL, NULL, "s", T0, &f->err), 0);
	counts(f, 1, 0);

	/* In a transaction the failure leaves it open for a rollback. */
	m = mail("r2", "report", "r2@example.test");
	d = mail("r3", "report", "r2@example.test");
	assert_int_equal(state_begin(f->st, &f->err), 0);
	assert_int_equal(state_queue(f->st, &m, "r2.yaml", NULL, NULL, "s", T0, &f->err),
			 0);
	assert_int_equal(state_queue(f->st, &m, "r2.yaml", NULL, NULL, "s", T0, &f->err),
			 0);
	assert_int_equal(state_queue(f->st, &d, "r3.yaml", NULL, NULL, "s", T0, &f->err),
			 -1);
	assert_int_equal(db_in_transaction(f->st), 1);
	state_rollback(f->st);
	assert_int_equal(db_in_transaction(f->st), 0);
	assert_int_equal(seen_of(f->st, "r2", &f->err), 0);
	counts(f, 1, 0);

	/* And a commit keeps what was queued. */
	assert_int_equal(state_begin(f->st, &f->err), 0);
	assert_int_equal(state_queue(f->st, &m, "r2.yaml", NULL, NULL, "s", T0, &f->err),
			 0);
	assert_int_equal(state_commit(f->st, &f->err), 0);
	reopen(f, STATE_WRITE);
	assert_int_equal(seen_of(f->st, "r2", &f->err), 1);
	counts(f, 2, 0);
	/* Commit without a transaction is an error, not a crash. */
	assert_int_equal(state_commit(f->st, &f->err), -1);
	assert_int_equal(f->err.code, EX_IOERR);
	state_rollback(f->st);
}

/* ------------------------------------------------------------------ */
/* replies                                                             */

static void t_mailbox(void **state)
{
	struct fx *f = *state;
	unsigned long v = 9, u = 9;

	assert_int_equal(state_mailbox_get(f->st, "INBOX", &v, &u, &f->err),
			 0);
	assert_int_equal(v, 0);
	assert_int_equal(u, 0);
	assert_int_equal(state_mailbox_set(f->st, "INBOX", 1700000000UL, 42,
					   &f->err), 0);
	assert_int_equal(state_mailbox_set(f->st, "Archive", 7, 3, &f->err),
			 0);
	assert_int_equal(state_mailbox_get(f->st, "INBOX", &v, &u, &f->err),
			 0);
	assert_int_equal(v, 1700000000UL);
	assert_int_equal(u, 42);
	assert_int_equal(state_mailbox_set(f->st, "INBOX", 4294967295UL,
					   4294967295UL, &f->err), 0);
	assert_int_equal(state_mailbox_get(f->st, "INBOX", &v, &u, &f->err),
			 0);
	assert_int_equal(v, 4294967295UL);
	assert_int_equal(u, 4294967295UL);
	assert_int_equal(state_mailbox_get(f->st, "Archive", &v, &u, &f->err),
			 0);
	assert_int_equal(v, 7);
	assert_int_equal(u, 3);
	assert_int_equal(state_mailbox_get(f->st, "inbox", &v, &u, &f->err),
			 0);
	assert_int_equal(v, 0);
}

/*
 * A mail that fails to download is counted in a row per UID; another UID
 * starts again at 1, and so does moving the position on. (On PostgreSQL
 * the upsert's unqualified columns were ambiguous: every count failed.)
 */
static void t_mailbox_stuck(void **state)
{
	struct fx *f = *state;
	long n = -1;
	int i;

	for (i = 1; i <= 3; i++) {
		assert_int_equal(state_mailbox_stuck(f->st, "INBOX", 7, 6, &n,
						     &f->err), 0);
		assert_int_equal(n, i);
	}
	assert_int_equal(state_mailbox_stuck(f->st, "INBOX", 7, 8, &n,
					     &f->err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(state_mailbox_stuck(f->st, "Archive", 7, 8, &n,
					     &f->err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(state_mailbox_set(f->st, "INBOX", 7, 8, &f->err), 0);
	assert_int_equal(state_mailbox_stuck(f->st, "INBOX", 7, 8, &n,
					     &f->err), 0);
	assert_int_equal(n, 1);
}

static void record(struct fx *f, const char *msgid, const char *sender,
		   const char *outcome, time_t when)
{
	struct inbox_entry e = {
		msgid, 1, 10, sender, "r1", outcome, "[\"help\"]",
	};

	if (state_inbox_record(f->st, &e, when, &f->err))
		fail_msg("state_inbox_record: %s", f->err.msg);
}

static long inbox_count(struct fx *f, const char *sender, time_t since,
			const char *prefix)
{
	long n = -1;

	if (state_inbox_count(f->st, sender, since, prefix, &n, &f->err))
		fail_msg("state_inbox_count: %s", f->err.msg);
	return n;
}

static void t_inbox(void **state)
{
	struct fx *f = *state;
	struct inbox_entry bare = { "m9@x", 0, 0, NULL, NULL, "ignored: no "
				    "from", NULL };
	char buf[256];

	assert_int_equal(inbox_seen_of(f->st, "m1@x", &f->err), 0);
	record(f, "m1@x", "jane@example.test", "answered", T0);
	assert_int_equal(inbox_seen_of(f->st, "m1@x", &f->err), 1);
	assert_int_equal(inbox_seen_of(f->st, "M1@x", &f->err), 0);
	/* Recording the same mail twice keeps the first. */
	record(f, "m1@x", "jane@example.test", "ignored: again", T0 + 5);
	q_text(f->st, "SELECT outcome || ' ' || received || ' ' || commands "
	       "|| ' ' || uid || ' ' || report_id FROM inbox", buf,
	       sizeof(buf));
	assert_string_equal(buf, "answered 1739548080 [\"help\"] 10 r1");
	assert_int_equal(state_inbox_record(f->st, &bare, T0, &f->err), 0);
	assert_int_equal(inbox_seen_of(f->st, "m9@x", &f->err), 1);
}

static void t_inbox_count(void **state)
{
	struct fx *f = *state;

	record(f, "m1@x", "jane@example.test", "answered", T0 - 3600);
	record(f, "m2@x", "jane@example.test", "answered: retest", T0);
	record(f, "m3@x", "jane@example.test", "ignored: auto-submitted", T0);
	record(f, "m4@x", "joe@example.test", "answered", T0);
	record(f, "m5@x", "jane@example.test", "refused", T0 + 10);
	/* Prefixes. */
	assert_int_equal(inbox_count(f, "jane@example.test", 0, "answered"),
			 2);
	assert_int_equal(inbox_count(f, "jane@example.test", 0, "ignored"), 1);
	assert_int_equal(inbox_count(f, "jane@example.test", 0, "ignored: "
				     "auto-submitted"), 1);
	assert_int_equal(inbox_count(f, "jane@example.test", 0, "ignored: "
				     "auto-submitted!"), 0);
	assert_int_equal(inbox_count(f, "jane@example.test", 0, ""), 4);
	/* A prefix is not a LIKE pattern. */
	assert_int_equal(inbox_count(f, "jane@example.test", 0, "%"), 0);
	assert_int_equal(inbox_count(f, "jane@example.test", 0, "answ_red"),
			 0);
	assert_int_equal(inbox_count(f, "jane@example.test", 0, "Answered"),
			 0);
	/* Time windows: 'since' is inclusive. */
	assert_int_equal(inbox_count(f, "jane@example.test", T0, "answered"),
			 1);
	assert_int_equal(inbox_count(f, "jane@example.test", T0 - 3600,
				     "answered"), 2);
	assert_int_equal(inbox_count(f, "jane@example.test", T0 + 1, ""), 1);
	assert_int_equal(inbox_count(f, "jane@example.test", T0 + 11, ""), 0);
	/* Per sender. */
	assert_int_equal(inbox_count(f, "joe@example.test", 0, ""), 1);
	assert_int_equal(inbox_count(f, "nobody@example.test", 0, ""), 0);
}

/* A report R1 with an answer A1, and a report R2. */
static void thread_mails(struct fx *f)
{
	struct outbox_mail r1 = mail("r1", "report", "r1@example.test");
	struct outbox_mail r2 = mail("r2", "report", "r2@example.test");
	struct outbox_mail a1 = mail("a-1", "answer", "a1@example.test");
	struct outbox_mail orphan = mail("a-2", "answer", "a2@example.test");

	r2.recipients = "[\"c@example.test\"]";
	a1.report_id = "r1";
	a1.recipients = "[\"jane@example.test\"]";
	orphan.report_id = "gone";
	assert_int_equal(state_queue(f->st, &r1, "r1.yaml", NULL, NULL, "[tree] r1 "
				     "subject", T0, &f->err), 0);
	assert_int_equal(state_queue(f->st, &r2, "r2.yaml", NULL, NULL, "r2 subject", T0,
				     &f->err), 0);
	assert_int_equal(state_queue(f->st, &a1, NULL, NULL, NULL, "Re: [tree] r1 "
				     "subject", T0, &f->err), 0);
	assert_int_equal(state_queue(f->st, &orphan, NULL, NULL, NULL, "Re: ?", T0,
				     &f->err), 0);
}

static void route(struct fx *f, const char *const *ids, size_t n,
		  struct thread_report *tr, int want_found)
{
	int found = -1;

	if (state_route(f->st, ids, n, tr, &found, &f->err))
		fail_msg("state_route: %s", f->err.msg);
	assert_int_equal(found, want_found);
}

static void t_route(void **state)
{
	struct fx *f = *state;
	const char *by_report[] = { "unknown@x", "r1@example.test" };
	const char *by_answer[] = { "a1@example.test" };
	const char *closest[] = { NULL, "r2@example.test", "a1@example.test" };
	const char *none[] = { "unknown@x", "<r1@example.test>", "R1@x",
			       "a2@example.test" };
	struct thread_report tr;

	thread_mails(f);
	route(f, by_report, 2, &tr, 1);
	assert_string_equal(tr.report_id, "r1");
	assert_string_equal(tr.subject, "[tree] r1 subject");
	assert_string_equal(tr.recipients,
			    "[\"a@example.test\",\"b@example.test\"]");
	thread_report_release(&tr);
	assert_null(tr.report_id);
	/* An answer of the bot leads back to its report. */
	route(f, by_answer, 1, &tr, 1);
	assert_string_equal(tr.report_id, "r1");
	assert_string_equal(tr.subject, "[tree] r1 subject");
	assert_string_equal(tr.recipients,
			    "[\"a@example.test\",\"b@example.test\"]");
	thread_report_release(&tr);
	/* The closest id wins; NULL entries are skipped. */
	route(f, closest, 3, &tr, 1);
	assert_string_equal(tr.report_id, "r2");
	assert_string_equal(tr.recipients, "[\"c@example.test\"]");
	thread_report_release(&tr);
	/* Ids with brackets, other case, or an answer without its report. */
	route(f, none, 4, &tr, 0);
	assert_null(tr.report_id);
	assert_null(tr.subject);
	assert_null(tr.recipients);
	thread_report_release(&tr);
	route(f, NULL, 0, &tr, 0);
	thread_report_release(&tr);
}

/* ------------------------------------------------------------------ */
/* retests                                                             */

static struct request_new retest(const char *rid, const char *status)
{
	struct request_new rq = {
		.request_id = rid, .kind = "retest", .report_id = "r1",
		.runs = 8, .requested_by = "jane@example.test",
		.reply_message_id = "m1@x",
		.thread = "{\"message_id\":\"m1@x\"}", .status = status,
		.base_runs = 4, .head_runs = 5, .deadline = T0 + 86400,
	};

	return rq;
}

static void retest_count(struct fx *f, const char *report, long want_n,
			 const char *want_open)
{
	struct request_tally t;

	assert_int_equal(state_request_tally(f->st, "retest", report, NULL, 0,
					     &t, &f->err), 0);
	assert_int_equal(t.of_report, want_n);
	if (!want_open) {
		assert_null(t.open_status);
		assert_int_equal(t.open_since, 0);
	} else {
		assert_non_null(t.open_status);
		assert_string_equal(t.open_status, want_open);
	}
	request_tally_release(&t);
}

static void t_retests(void **state)
{
	struct fx *f = *state;
	struct request_new rq = retest("rt-1", NULL);
	struct request_new rej = retest("rt-2", "rejected");
	struct request *rows = NULL;
	size_t n = 9;
	char buf[128];

	retest_count(f, "r1", 0, NULL);
	assert_int_equal(state_requests_open(f->st, "retest", &rows, &n,
					     &f->err), 0);
	assert_int_equal(n, 0);
	request_rows_free(rows, n);

	assert_int_equal(state_request_add(f->st, &rq, T0, &f->err), 0);
	retest_count(f, "r1", 1, "queued");
	rej.detail = "max_runs is 20";
	assert_int_equal(state_request_add(f->st, &rej, T0 + 1, &f->err), 0);
	retest_count(f, "r1", 2, "queued");
	retest_count(f, "r2", 0, NULL);
	/* The same request again is ignored. */
	rq.runs = 99;
	assert_int_equal(state_request_add(f->st, &rq, T0 + 2, &f->err), 0);
	retest_count(f, "r1", 2, "queued");

	assert_int_equal(state_requests_open(f->st, "retest", &rows, &n,
					     &f->err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(rows[0].request_id, "rt-1");
	assert_string_equal(rows[0].report_id, "r1");
	assert_string_equal(rows[0].thread, "{\"message_id\":\"m1@x\"}");
	assert_int_equal(rows[0].runs, 8);
	assert_int_equal(rows[0].base_runs, 4);
	assert_int_equal(rows[0].head_runs, 5);
	assert_int_equal(rows[0].deadline, T0 + 86400);
	request_rows_free(rows, n);

	assert_int_equal(state_request_set(f->st, "rt-1", "done",
					   "improvement confirmed",
					   "improvement confirmed", T0 + 5,
					   &f->err), 0);
	retest_count(f, "r1", 2, NULL);
	assert_int_equal(state_requests_open(f->st, "retest", &rows, &n,
					     &f->err), 0);
	assert_int_equal(n, 0);
	request_rows_free(rows, n);
	q_text(f->st, "SELECT status || ': ' || verdict || ' ' || decided "
	       "FROM requests WHERE request_id = 'rt-1'", buf, sizeof(buf));
	assert_string_equal(buf, "done: improvement confirmed 1739548085");
	/* Finishing an unknown request changes nothing. */
	assert_int_equal(state_request_set(f->st, "rt-x", "done", NULL, NULL,
					   T0, &f->err), 0);
	/* A status outside the one vocabulary is refused. */
	assert_int_equal(state_request_set(f->st, "rt-1", "confirmed", NULL,
					   NULL, T0, &f->err), -1);
	request_rows_free(NULL, 0);
}

/* A held report: recorded 'asking' with its manifest seen, then moved on. */
static void t_confirms(void **state)
{
	struct fx *f = *state;
	struct request_new c = {
		.request_id = "confirm-r1", .kind = "confirm",
		.report_id = "r1", .status = "asking", .metric = "m.x",
		.reported_change = -4.25, .runs = 13, .base_runs = 3,
		.head_runs = 3, .deadline = T0 + 100,
	};
	struct request *rows = NULL;
	char *name = NULL, *text = NULL, *dir = NULL;
	size_t n = 0;

	assert_int_equal(state_confirm_hold(f->st, &c, "r1.yaml", "id: r1\n",
					    "/d", T0, &f->err), 0);
	assert_int_equal(seen_of(f->st, "r1", &f->err), 1);
	assert_int_equal(state_manifest_text(f->st, "r1", &name, &text, &dir,
					     &f->err), 0);
	assert_string_equal(text, "id: r1\n");
	free(name);
	free(text);
	free(dir);
	/* held twice is refused: one hold per report */
	c.request_id = "confirm-r1-again";
	assert_int_equal(state_confirm_hold(f->st, &c, "r1.yaml", "id: r1\n",
					    "/d", T0, &f->err), -1);
	assert_int_equal(state_requests_open(f->st, "confirm", &rows, &n,
					     &f->err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(rows[0].status, "asking");
	assert_string_equal(rows[0].metric, "m.x");
	assert_true(rows[0].reported_change == -4.25);
	assert_true(rows[0].runs == 13 && rows[0].base_runs == 3 &&
		    rows[0].deadline == T0 + 100);
	request_rows_free(rows, n);
	assert_int_equal(state_confirm_set(f->st, &(struct request){
		.request_id = "confirm-r1", .report_id = "r1" }, "queued",
					   NULL, NULL, T0, &f->err), 0);
	assert_int_equal(q_int(f->st, "SELECT count(*) FROM manifests WHERE "
			       "outcome = 'confirming'"), 1);
	assert_int_equal(state_requests_open(f->st, "confirm", &rows, &n,
					     &f->err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(rows[0].status, "queued");
	request_rows_free(rows, n);
	assert_int_equal(state_confirm_set(f->st, &(struct request){
		.request_id = "confirm-r1", .report_id = "r1" }, "done",
					   "not reproduced", "why", T0,
					   &f->err), 0);
	assert_int_equal(state_requests_open(f->st, "confirm", &rows, &n,
					     &f->err), 0);
	assert_int_equal(n, 0);
	request_rows_free(rows, n);
	assert_int_equal(q_int(f->st, "SELECT count(*) FROM manifests WHERE "
			       "outcome = 'not reproduced'"), 1);
}

/* Tests: recorded once, read back queued, ended, counted. */
static void t_tests(void **state)
{
	struct fx *f = *state;
	struct request_new a = {
		.request_id = "test-1", .kind = "test", .report_id = "r1",
		.form = "patch", .runs = 4, .requested_by = "paul@example.test",
		.reply_message_id = "ask@example.test", .thread = "{}",
		.commit = "c0ffee1", .patch = "/r/test-1.patch",
		.patch_bytes = 120, .result_root = "/r/test-1",
		.deadline = T0 + 60,
	};
	struct request_new b = {
		.request_id = "test-2", .kind = "test", .report_id = "r1",
		.form = "tree", .runs = 8, .requested_by = "paul@example.test",
		.reply_message_id = "ask2@example.test", .thread = "{}",
		.commit = "c0ffee1", .repo = "https://git.example/x.git",
		.ref = "fix", .result_root = "/r/test-2", .status = "rejected",
		.detail = "exit 1", .deadline = T0 + 60,
	};
	struct request *rows = NULL;
	struct request_tally t;
	size_t n = 0;

	assert_int_equal(state_request_add(f->st, &a, T0, &f->err), 0);
	/* the same request again (a crash before the commit) is one row */
	assert_int_equal(state_request_add(f->st, &a, T0 + 1, &f->err), 0);
	assert_int_equal(state_request_add(f->st, &b, T0 + 2, &f->err), 0);
	assert_int_equal(state_requests_open(f->st, "test", &rows, &n,
					     &f->err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(rows[0].request_id, "test-1");
	assert_string_equal(rows[0].form, "patch");
	assert_string_equal(rows[0].patch, "/r/test-1.patch");
	assert_string_equal(rows[0].result_root, "/r/test-1");
	assert_null(rows[0].repo);
	assert_int_equal(rows[0].runs, 4);
	assert_int_equal(rows[0].patch_bytes, 120);
	assert_true(rows[0].deadline == T0 + 60 && rows[0].created == T0);
	request_rows_free(rows, n);
	assert_int_equal(state_request_tally(f->st, "test", "r1",
					     "paul@example.test", T0 + 1, &t,
					     &f->err), 0);
	assert_int_equal(t.of_report, 2);
	assert_int_equal(t.of_sender, 1);
	request_tally_release(&t);
	assert_int_equal(state_request_set(f->st, "test-1", "done", "fixed",
					   "fixed", T0 + 30, &f->err), 0);
	assert_int_equal(state_requests_open(f->st, "test", &rows, &n,
					     &f->err), 0);
	assert_int_equal(n, 0);
	request_rows_free(rows, n);
	assert_int_equal(q_int(f->st, "SELECT decided FROM requests WHERE "
			       "request_id = 'test-1'"), T0 + 30);
	/* issue 29 item 10: a test the farm could not build does not use
	 * up one of the report's tests (the sender's day counts it) */
	assert_int_equal(state_request_set(f->st, "test-2", "failed", NULL,
					   "build failed", T0 + 31, &f->err),
			 0);
	assert_int_equal(state_request_tally(f->st, "test", "r1",
					     "paul@example.test", T0, &t,
					     &f->err), 0);
	assert_int_equal(t.of_report, 1);
	assert_int_equal(t.of_sender, 2);
	request_tally_release(&t);
	/* a form that is none of the three is never recorded */
	a.request_id = "test-3";
	a.form = "other";
	assert_int_equal(state_request_add(f->st, &a, T0, &f->err), 0);
	assert_int_equal(q_int(f->st, "SELECT count(*) FROM requests WHERE "
			       "request_id = 'test-3'"), 0);
}

/* 'asking' is open too; the newest open request is the one reported. */
static void t_retest_open_status(void **state)
{
	struct fx *f = *state;
	struct request_new a = retest("rt-1", "asking");
	struct request_new b = retest("rt-2", "queued");

	assert_int_equal(state_request_add(f->st, &a, T0, &f->err), 0);
	retest_count(f, "r1", 1, "asking");
	assert_int_equal(state_request_add(f->st, &b, T0 + 10, &f->err), 0);
	retest_count(f, "r1", 2, "queued");
	assert_int_equal(state_request_set(f->st, "rt-2", "expired", NULL,
					   NULL, T0 + 20, &f->err), 0);
	retest_count(f, "r1", 2, "asking");
}

static void t_retests_queued_order(void **state)
{
	struct fx *f = *state;
	struct request_new a = retest("rt-a", NULL);
	struct request_new b = retest("rt-b", NULL);
	struct request_new c = retest("rt-c", NULL);
	struct request *rows = NULL;
	size_t n = 0;

	c.report_id = "r2";
	c.thread = NULL;
	assert_int_equal(state_request_add(f->st, &b, T0 + 2, &f->err), 0);
	assert_int_equal(state_request_add(f->st, &a, T0 + 1, &f->err), 0);
	assert_int_equal(state_request_add(f->st, &c, T0 + 3, &f->err), 0);
	assert_int_equal(state_requests_open(f->st, "retest", &rows, &n,
					     &f->err), 0);
	assert_int_equal(n, 3);
	assert_string_equal(rows[0].request_id, "rt-a");
	assert_string_equal(rows[1].request_id, "rt-b");
	assert_string_equal(rows[2].request_id, "rt-c");
	assert_null(rows[2].thread);
	request_rows_free(rows, n);
}

/* ------------------------------------------------------------------ */
/* the manifest kept with a report                                     */

static void t_manifest_text(void **state)
{
	struct fx *f = *state;
	struct outbox_mail m = mail("r1", "report", "r1@example.test");
	struct outbox_mail p = mail("r2", "report", "r2@example.test");
	static const char text[] = "id: r1\nbase: {}\n";
	char *name = (char *)1, *t = (char *)1, *dir = (char *)1;

	assert_int_equal(state_queue(f->st, &m, "src/r1.yaml", text,
					    "/srv/manifests", "the subject", T0,
					    &f->err), 0);
	assert_int_equal(seen_of(f->st, "r1", &f->err), 1);
	assert_int_equal(state_manifest_text(f->st, "r1", &name, &t, &dir,
					     &f->err), 0);
	assert_string_equal(name, "src/r1.yaml");
	assert_string_equal(t, text);
	assert_string_equal(dir, "/srv/manifests");
	free(name);
	free(t);
	free(dir);
	/* Queued without the text: unknown. */
	assert_int_equal(state_queue(f->st, &p, "src/r2.yaml", NULL, NULL, "s", T0,
				     &f->err), 0);
	assert_int_equal(state_manifest_text(f->st, "r2", &name, &t, &dir,
					     &f->err), 0);
	assert_null(name);
	assert_null(t);
	assert_null(dir);
	assert_int_equal(state_manifest_text(f->st, "nope", &name, &t, &dir,
					     &f->err), 0);
	assert_null(name);
	assert_null(t);
	assert_null(dir);
	/* Without a manifest name nothing is recorded beside the mail. */
	p = mail("r3", "report", "r3@example.test");
	assert_int_equal(state_queue(f->st, &p, NULL, text, ".", "s",
					    T0, &f->err), 0);
	assert_int_equal(q_int(f->st, "SELECT count(*) FROM manifests WHERE "
			       "id = 'r3'"), 0);
	assert_int_equal(seen_of(f->st, "r3", &f->err), 1);
}

static void t_close_twice(void **state)
{
	struct fx *f = *state;

	state_close(f->st);
	f->st = NULL;
	state_close(f->st);	/* NULL is fine */
	f->open = 0;
}

/* ------------------------------------------------------------------ */
/* PostgreSQL's own (skipped on SQLite)                                */

#define TU_PG_ONLY()							\
	do {								\
		if (!tu_pg()) {						\
			print_message("skipped on SQLite: PostgreSQL's "\
				      "own\n");				\
			skip();						\
		}							\
	} while (0)

/* The schema: the version in meta, SQLite's tables with PG's types. */
static void t_pg_schema(void **state)
{
	struct fx *f = *state;

	TU_PG_ONLY();
	assert_int_equal(q_int(f->st, "SELECT CAST(value AS BIGINT) FROM meta "
			       "WHERE key = 'schema_version'"),
			 SCHEMA_VERSION);
	assert_int_equal(q_int(f->st, "SELECT count(*) FROM "
			       "information_schema.tables WHERE table_schema "
			       "= current_schema() AND table_name IN "
			       "('outbox', 'outbox_recipients', 'manifests', "
			       "'sources', 'inbox', 'mailbox', 'requests', "
			       "'bisections', 'noise', 'records')"), 10);
	/* the old tables merged into requests by 10 are gone */
	assert_int_equal(q_int(f->st, "SELECT count(*) FROM "
			       "information_schema.tables WHERE table_schema "
			       "= current_schema() AND table_name IN "
			       "('retests', 'confirms', 'tests', 'verifies')"),
			 0);
	/* rowid an identity, BLOB as bytea, INTEGER as bigint */
	assert_int_equal(q_int(f->st, "SELECT count(*) FROM "
			       "information_schema.columns WHERE table_schema "
			       "= current_schema() AND column_name = 'rowid' "
			       "AND is_identity = 'YES' AND table_name IN "
			       "('outbox', 'inbox', 'requests', 'actions', "
			       "'bisections', 'record_events', "
			       "'outbox_recipients')"), 7);
	assert_int_equal(q_int(f->st, "SELECT count(*) FROM "
			       "information_schema.columns WHERE table_schema "
			       "= current_schema() AND table_name = 'outbox' "
			       "AND ((column_name = 'message' AND data_type = "
			       "'bytea') OR (column_name = 'created' AND "
			       "data_type = 'bigint'))"), 2);
	assert_int_equal(q_int(f->st, "SELECT count(*) FROM "
			       "information_schema.columns WHERE table_schema "
			       "= current_schema() AND table_name = 'noise' "
			       "AND column_name = 'cv' AND data_type = "
			       "'double precision'"), 1);
	/* opened again: nothing to do */
	reopen(f, STATE_WRITE);
	assert_int_equal(state_check(f->st, &f->err), 0);
}

static void t_pg_newer_schema(void **state)
{
	struct fx *f = *state;

	TU_PG_ONLY();
	q_exec(f->st, "UPDATE meta SET value = '99' WHERE key = "
	       "'schema_version'");
	state_close(f->st);
	f->open = 0;
	assert_int_equal(state_open(&f->st, f->where, STATE_WRITE, &f->err),
			 -1);
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_non_null(strstr(f->err.msg, "schema version 99 is newer"));
	assert_int_equal(state_open(&f->st, f->where, STATE_READ, &f->err),
			 -1);
	assert_int_equal(f->err.code, EX_CONFIG);
}

/* The run lock: one session holds it; it goes with the session. */
static void t_pg_lock(void **state)
{
	struct fx *f = *state;
	struct state *a = NULL, *b = NULL;

	TU_PG_ONLY();
	assert_int_equal(state_open(&a, f->where, STATE_LOCKED, &f->err), 0);
	assert_int_equal(state_open(&b, f->where, STATE_LOCKED, &f->err), -1);
	assert_int_equal(f->err.code, EX_TEMPFAIL);
	assert_non_null(strstr(f->err.msg, "another perfbot is running"));
	/* a reader is no run: it opens */
	assert_int_equal(state_open(&b, f->where, STATE_READ, &f->err), 0);
	state_close(b);
	state_close(a);
	assert_int_equal(state_open(&b, f->where, STATE_LOCKED, &f->err), 0);
	state_close(b);
}

/* The password given by state_password() opens; it is never said. */
static void t_pg_password(void **state)
{
	struct fx *f = *state;
	const char *pw = getenv("PGPASSWORD");
	char *saved = pw ? strdup(pw) : NULL;
	struct state *a = NULL;

	TU_PG_ONLY();
	assert_non_null(saved);
	unsetenv("PGPASSWORD");
	assert_int_equal(state_password("not-the-password"), 0);
	assert_int_equal(state_open(&a, f->where, STATE_WRITE, &f->err), -1);
	assert_null(strstr(f->err.msg, "not-the-password"));
	assert_int_equal(state_password(saved), 0);
	assert_int_equal(state_open(&a, f->where, STATE_WRITE, &f->err), 0);
	assert_null(strstr(a->path, saved));
	state_close(a);
	assert_int_equal(state_password(NULL), 0);
	setenv("PGPASSWORD", saved, 1);
	free(saved);
}

/* End the sessions of 'st' from another one (a server gone, for it). */
static void pg_cut(struct state *st, const char *where)
{
	struct state *other = NULL;
	struct pb_err err;
	long pid = (long)q_int(st, "SELECT pg_backend_pid()");
	char sql[96];

	if (state_open(&other, where, STATE_READ, &err))
		fail_msg("open: %s", err.msg);
	snprintf(sql, sizeof(sql), "SELECT pg_terminate_backend(%ld)", pid);
	assert_int_equal(q_int(other, sql), 1);
	state_close(other);
}

/*
 * The server gone under a run (restarted, the connection cut): the next
 * statement fails "try again later" (EX_TEMPFAIL), and the next run
 * works; a transaction cut before its commit leaves nothing written.
 */
static void t_pg_server_gone(void **state)
{
	struct fx *f = *state;
	struct outbox_mail m = mail("r9", "report", "r9@example.test");
	long q, failed;

	TU_PG_ONLY();
	queue(f, "r1", "r1@example.test", T0);
	pg_cut(f->st, f->where);
	assert_int_equal(state_counts(f->st, &q, &failed, &f->err), -1);
	assert_int_equal(f->err.code, EX_TEMPFAIL);
	assert_non_null(strstr(f->err.msg, "try again later"));
	assert_null(strstr(f->err.msg, getenv("PGPASSWORD")));
	reopen(f, STATE_WRITE);
	counts(f, 1, 0);
	/* cut in the middle of a transaction: nothing half-written */
	assert_int_equal(state_begin(f->st, &f->err), 0);
	assert_int_equal(state_queue(f->st, &m, "r9.yaml", NULL, NULL, "s",
				     T0, &f->err), 0);
	pg_cut(f->st, f->where);
	assert_int_equal(state_commit(f->st, &f->err), -1);
	assert_int_equal(f->err.code, EX_TEMPFAIL);
	state_rollback(f->st);
	reopen(f, STATE_WRITE);
	assert_int_equal(seen_of(f->st, "r9", &f->err), 0);
	counts(f, 1, 0);
}

/* A database reached but never run on is missing: nothing to read yet. */
static void t_pg_missing(void **state)
{
	struct fx *f = *state;
	int made = -1;

	TU_PG_ONLY();
	assert_int_equal(state_missing(f->where), 1);
	assert_int_equal(state_usable(f->where, &made, &f->err), 0);
	assert_int_equal(made, 0);
	reopen(f, STATE_WRITE);
	assert_int_equal(state_missing(f->where), 0);
	assert_int_equal(state_usable(f->where, &made, &f->err), 0);
	assert_int_equal(made, 1);
	/* no server there: not missing, the open says why */
	assert_int_equal(state_missing("postgresql://127.0.0.1:1/pb"), 0);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup_open, teardown)
#define T_EMPTY(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		T_EMPTY(t_open_creates_and_migrates),
		T(t_reopen_is_noop),
		T(t_check),
		T_EMPTY(t_upgrade_from_v1),
		T_EMPTY(t_upgrade_requests),
		T_EMPTY(t_upgrade_fails_atomically),
		T(t_open_newer_schema),
		T_EMPTY(t_open_backend_by_scheme),
		T_EMPTY(t_usable),
		T_EMPTY(t_open_cannot_create),
		T_EMPTY(t_read_missing),
		T_EMPTY(t_read_unmigrated),
		T(t_read_refuses_write),
		T(t_lock_same_process),
		T(t_lock_other_process),
		T(t_lock_other_names),
		T_EMPTY(t_lock_before_create),
		T_EMPTY(t_hard_link_wal),
		T(t_claim),
		T_EMPTY(t_backoff),
		T(t_queue_and_read_back),
		T(t_retry_then_sent),
		T(t_retry_backoff_capped),
		T(t_clock_back),
		T(t_failed),
		T(t_due_limit_and_order),
		T(t_rows_and_one_mail),
		T(t_queued),
		T(t_recipients),
		T(t_seen_and_skip),
		T(t_sources),
		T(t_manifest_ids),
		T(t_unique),
		T(t_mailbox),
		T(t_mailbox_stuck),
		T(t_inbox),
		T(t_inbox_count),
		T(t_route),
		T(t_retests),
		T(t_retest_open_status),
		T(t_confirms),
		T(t_tests),
		T(t_retests_queued_order),
		T(t_manifest_text),
		T(t_close_twice),
		T(t_pg_schema),
		T(t_pg_newer_schema),
		T(t_pg_lock),
		T(t_pg_password),
		T(t_pg_server_gone),
		T_EMPTY(t_pg_missing),
	};

	if (argc == 3 && !strcmp(argv[1], "--lock"))
		return lock_main(argv[2]);
	self = argv[0];
	return cmocka_run_group_tests(tests, NULL, NULL);
}
