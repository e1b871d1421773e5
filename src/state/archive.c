// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: the state read back for the web archive (archive.h), read only:
 * the list of every report with what its index line and its status need
 * and a stamp of everything its page shows, and one report's whole
 * thread (its mail, manifest, replies, answers, retests, tests,
 * confirmation).
 */
#include <stdlib.h>
#include <string.h>

#include "perfbot/state/archive.h"
#include "perfbot/state/seen.h"

#include "internal.h"

/* A row being read: a column that is not NULL but cannot be copied is oom. */
struct reader {
	struct db_stmt *s;
	int oom;
};

static char *col(struct reader *r, int i)
{
	char *v;

	if (db_null(r->s, i))
		return NULL;
	v = db_column_dup(r->s, i, NULL);
	r->oom |= !v;
	return v;
}

static char *col_blob(struct reader *r, int i, size_t *len)
{
	char *v = db_column_dup(r->s, i, len);

	r->oom |= !v;
	return v;
}

static long long col_int(struct reader *r, int i)
{
	return db_int(r->s, i);
}

/*
 * Every row of 's' (finalized here) into a growing array of 'size'-byte
 * items, each zeroed, then filled by 'one'. '*n' counts the items
 * filled, also on failure, so that the caller can free them.
 */
static int read_rows(struct state *st, struct db_stmt *s, size_t size,
		     void (*one)(struct reader *, void *), void **out,
		     size_t *n, struct pb_err *err)
{
	struct reader r = { s, 0 };
	size_t cap = 0;
	char *v = NULL, *nv;
	int rc;

	*out = NULL;
	*n = 0;
	while ((rc = db_step(s)) == DB_ROW && !r.oom) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			nv = realloc(v, cap * size);
			if (!nv) {
				r.oom = 1;
				break;
			}
			v = nv;
			*out = v;
		}
		memset(v + *n * size, 0, size);
		one(&r, v + *n * size);
		(*n)++;
	}
	db_finalize(s);
	if (r.oom)
		return pb_fail(err, EX_OSERR, "out of memory");
	return rc == DB_DONE ? 0 : db_fail(st, err, "read");
}

/* ---- every report ---- */

/*
 * The stamp: each part a list or a value of its own table, so that a
 * change anywhere in the report's thread changes it.
 */
#define REPORTS_SQL \
	"SELECT o.id, o.message_id, o.subject, o.status, o.created, " \
	"  o.sent_at, coalesce(i.n, 0), coalesce(r.n, 0), " \
	"  coalesce(r.open, 0), " \
	"  (SELECT verdict FROM requests WHERE report_id = o.id AND " \
	"   kind = 'retest' AND status = 'done' ORDER BY created DESC, " \
	"   rowid DESC LIMIT 1), " \
	"  (SELECT status FROM requests WHERE report_id = o.id AND " \
	"   kind = 'retest' ORDER BY created DESC, rowid DESC LIMIT 1), " \
	"  coalesce(c.verdict, c.status), coalesce(l.status, 'open'), " \
	"  o.status || '/' || coalesce(CAST(o.sent_at AS TEXT), '') || '/' " \
	"  || coalesce(i.sig, '') || '/' || coalesce(c.status || ':' || " \
	"  coalesce(c.detail, '') || ':' || " \
	"  coalesce(CAST(c.decided AS TEXT), ''), '') " \
	"  || coalesce('/' || l.status || ':' || CAST(l.changed AS TEXT), " \
	"  ''), " \
	"  l.verdict " \
	"FROM outbox o " \
	"LEFT JOIN (SELECT report_id, count(*) n, count(*) || ':' || " \
	"  max(received) || ':' || max(rowid) sig FROM inbox " \
	"  WHERE report_id IS NOT NULL GROUP BY report_id) i " \
	"  ON i.report_id = o.id " \
	"LEFT JOIN (SELECT report_id, count(*) n, " \
	"  sum(CASE WHEN status IN ('asking', 'queued') THEN 1 ELSE 0 END) " \
	"  open FROM requests WHERE kind = 'retest' GROUP BY report_id) r " \
	"  ON r.report_id = o.id " \
	"LEFT JOIN requests c ON c.report_id = o.id AND c.kind = 'confirm' " \
	"LEFT JOIN records l ON l.report_id = o.id " \
	"WHERE o.kind = 'report' ORDER BY o.created DESC, o.rowid DESC"

/*
 * The parts of the stamps that list rows (the answers mailed, the farm
 * requests), added in C rather than by SQL's string aggregates, which
 * SQLite and PostgreSQL name differently: each row its report's id
 * and its part of the stamp, sorted so that the stamp is the same for
 * the same rows.
 */
#define STAMP_ROWS_SQL \
	"SELECT report_id, '/a' || status || ':' || " \
	"  coalesce(CAST(sent_at AS TEXT), '') || ':' || CAST(rowid AS TEXT) " \
	"  FROM outbox WHERE kind = 'answer' AND report_id IS NOT NULL " \
	"UNION ALL " \
	"SELECT report_id, '/' || kind || ':' || request_id || ':' || status " \
	"  || ':' || coalesce(detail, '') FROM requests " \
	"  WHERE kind != 'confirm' ORDER BY 1, 2"

static int by_id(const void *a, const void *b)
{
	const struct archive_report *x = *(struct archive_report *const *)a;
	const struct archive_report *y = *(struct archive_report *const *)b;

	return strcmp(x->id, y->id);
}

static int append_stamp(struct archive_report *a, const char *part)
{
	size_t n = strlen(a->stamp), m = strlen(part);
	char *v = realloc(a->stamp, n + m + 1);

	if (!v)
		return -1;
	memcpy(v + n, part, m + 1);
	a->stamp = v;
	return 0;
}

static int stamp_rows(struct state *st, struct archive_report *v, size_t n,
		      struct pb_err *err)
{
	struct archive_report **ix, key, *kp = &key, **hit;
	struct db_stmt *s;
	size_t i;
	int rc, oom = 0;

	if (!n)
		return 0;
	ix = malloc(n * sizeof(*ix));
	if (!ix)
		return pb_fail(err, EX_OSERR, "out of memory");
	for (i = 0; i < n; i++)
		ix[i] = &v[i];
	qsort(ix, n, sizeof(*ix), by_id);
	if (db_query(st, &s, err, STAMP_ROWS_SQL, "")) {
		free(ix);
		return -1;
	}
	while (!oom && (rc = db_step(s)) == DB_ROW) {
		key.id = (char *)db_text(s, 0);
		hit = key.id ? bsearch(&kp, ix, n, sizeof(*ix), by_id) : NULL;
		if (hit && db_text(s, 1))
			oom = append_stamp(*hit, db_text(s, 1));
	}
	db_finalize(s);
	free(ix);
	if (oom)
		return pb_fail(err, EX_OSERR, "out of memory");
	return rc == DB_DONE ? 0 : db_fail(st, err, "read");
}

static void report_row(struct reader *r, void *item)
{
	struct archive_report *a = item;

	a->id = col(r, 0);
	a->message_id = col(r, 1);
	a->subject = col(r, 2);
	a->status = col(r, 3);
	a->created = (time_t)col_int(r, 4);
	a->sent_at = (time_t)col_int(r, 5);
	a->replies = (long)col_int(r, 6);
	a->retests = (long)col_int(r, 7);
	a->retests_open = (long)col_int(r, 8);
	a->verdict = col(r, 9);
	a->retest_status = col(r, 10);
	a->confirm = col(r, 11);
	a->record = col(r, 12);
	a->stamp = col(r, 13);
	a->record_verdict = col(r, 14);
	r->oom |= !a->id || !a->message_id || !a->status || !a->stamp ||
		!a->record;
}

static int sql_archive_reports(struct state *st, struct archive_report **out,
				  size_t *n, struct pb_err *err)
{
	struct db_stmt *s;
	void *v;

	*out = NULL;
	*n = 0;
	if (db_query(st, &s, err, REPORTS_SQL, ""))
		return -1;
	if (read_rows(st, s, sizeof(**out), report_row, &v, n, err) ||
	    stamp_rows(st, v, *n, err)) {
		archive_reports_free(v, *n);
		*n = 0;
		return -1;
	}
	*out = v;
	return 0;
}

void archive_reports_free(struct archive_report *r, size_t n)
{
	size_t i;

	for (i = 0; r && i < n; i++) {
		free(r[i].id);
		free(r[i].message_id);
		free(r[i].subject);
		free(r[i].status);
		free(r[i].verdict);
		free(r[i].retest_status);
		free(r[i].confirm);
		free(r[i].record);
		free(r[i].record_verdict);
		free(r[i].stamp);
	}
	free(r);
}

/* ---- one report's thread ---- */

#define MAIL_SQL "SELECT id, message_id, status, recipients, message, " \
	"created, sent_at FROM outbox "

static void mail_row(struct reader *r, void *item)
{
	struct archive_mail *m = item;

	m->id = col(r, 0);
	m->message_id = col(r, 1);
	m->status = col(r, 2);
	m->recipients = col(r, 3);
	m->message = col_blob(r, 4, &m->len);
	m->created = (time_t)col_int(r, 5);
	m->sent_at = (time_t)col_int(r, 6);
}

static void mail_release(struct archive_mail *m)
{
	free(m->id);
	free(m->message_id);
	free(m->status);
	free(m->recipients);
	free(m->message);
	memset(m, 0, sizeof(*m));
}

static void reply_row(struct reader *r, void *item)
{
	struct archive_reply *a = item;

	a->message_id = col(r, 0);
	a->sender = col(r, 1);
	a->outcome = col(r, 2);
	a->commands = col(r, 3);
	a->received = (time_t)col_int(r, 4);
}

static void retest_row(struct reader *r, void *item)
{
	struct archive_retest *a = item;

	a->request_id = col(r, 0);
	a->requested_by = col(r, 1);
	a->reply_message_id = col(r, 2);
	a->status = col(r, 3);
	a->detail = col(r, 4);
	a->runs = (long)col_int(r, 5);
	a->base_runs = (long)col_int(r, 6);
	a->head_runs = (long)col_int(r, 7);
	a->created = (time_t)col_int(r, 8);
}

static void test_row(struct reader *r, void *item)
{
	struct archive_test *a = item;

	a->request_id = col(r, 0);
	a->requested_by = col(r, 1);
	a->reply_message_id = col(r, 2);
	a->status = col(r, 3);
	a->detail = col(r, 4);
	a->form = col(r, 5);
	a->repo = col(r, 6);
	a->ref = col(r, 7);
	a->runs = (long)col_int(r, 8);
	a->created = (time_t)col_int(r, 9);
}

/* The report's own mail; '*found' 0 when there is none. */
static int report_mail(struct state *st, const char *id,
		       struct archive_thread *t, int *found,
		       struct pb_err *err)
{
	struct archive_mail *m = NULL;
	struct db_stmt *s;
	size_t n = 0;
	void *v;
	int rc;

	if (db_query(st, &s, err, MAIL_SQL "WHERE kind = 'report' AND "
		     "id = ?", "s", id))
		return -1;
	rc = read_rows(st, s, sizeof(*m), mail_row, &v, &n, err);
	m = v;
	*found = !rc && n == 1;
	if (*found)
		t->report = m[0];
	else if (n)
		mail_release(&m[0]);
	free(m);
	return rc;
}

static int manifest_of(struct state *st, const char *id,
		       struct archive_thread *t, struct pb_err *err)
{
	return state_manifest_text(st, id, &t->manifest, &t->text, &t->dir,
				   err);
}

static int confirm_of(struct state *st, const char *id,
		      struct archive_thread *t, struct pb_err *err)
{
	struct reader r;
	int rc;

	if (db_query(st, &r.s, err, "SELECT coalesce(verdict, status), "
		     "detail, runs, decided FROM requests WHERE report_id = ? "
		     "AND kind = 'confirm'", "s", id))
		return -1;
	r.oom = 0;
	rc = db_step(r.s);
	if (rc == DB_ROW) {
		t->confirm_status = col(&r, 0);
		t->confirm_detail = col(&r, 1);
		t->confirm_runs = (long)col_int(&r, 2);
		t->confirm_decided = (time_t)col_int(&r, 3);
	}
	db_finalize(r.s);
	if (r.oom)
		return pb_fail(err, EX_OSERR, "out of memory");
	return rc == DB_ROW || rc == DB_DONE ? 0 :
		db_fail(st, err, "read");
}

/* One list of the thread: 'sql' with the report id bound. */
static int list_of(struct state *st, const char *sql, const char *id,
		   size_t size, void (*one)(struct reader *, void *),
		   void **out, size_t *n, struct pb_err *err)
{
	struct db_stmt *s;

	*out = NULL;
	*n = 0;
	if (db_query(st, &s, err, sql, "s", id))
		return -1;
	return read_rows(st, s, size, one, out, n, err);
}

static int sql_archive_thread(struct state *st, const char *report_id,
				 struct archive_thread *t, int *found,
				 struct pb_err *err)
{
	void *replies = NULL, *answers = NULL, *retests = NULL, *tests = NULL;
	int rc;

	memset(t, 0, sizeof(*t));
	if (report_mail(st, report_id, t, found, err))
		return -1;
	if (!*found)
		return 0;
	rc = manifest_of(st, report_id, t, err) ||
	     list_of(st, "SELECT message_id, sender, outcome, commands, "
		     "received FROM inbox WHERE report_id = ? ORDER BY "
		     "received, rowid", report_id, sizeof(*t->replies),
		     reply_row, &replies, &t->nreplies, err) ||
	     list_of(st, MAIL_SQL "WHERE kind = 'answer' AND report_id = ? "
		     "ORDER BY created, rowid", report_id, sizeof(*t->answers),
		     mail_row, &answers, &t->nanswers, err) ||
	     list_of(st, "SELECT request_id, requested_by, reply_message_id, "
		     "status, detail, runs, base_runs, head_runs, created FROM "
		     "requests WHERE report_id = ? AND kind = 'retest' ORDER "
		     "BY created, rowid",
		     report_id, sizeof(*t->retests), retest_row, &retests,
		     &t->nretests, err) ||
	     list_of(st, "SELECT request_id, requested_by, reply_message_id, "
		     "status, detail, form, repo, ref, runs, created FROM "
		     "requests WHERE report_id = ? AND kind = 'test' ORDER BY "
		     "created, rowid", report_id,
		     sizeof(*t->tests), test_row, &tests, &t->ntests, err) ||
	     confirm_of(st, report_id, t, err);
	t->replies = replies;
	t->answers = answers;
	t->retests = retests;
	t->tests = tests;
	return rc ? -1 : 0;
}

void archive_thread_release(struct archive_thread *t)
{
	size_t i;

	mail_release(&t->report);
	free(t->manifest);
	free(t->text);
	free(t->dir);
	for (i = 0; t->replies && i < t->nreplies; i++) {
		free(t->replies[i].message_id);
		free(t->replies[i].sender);
		free(t->replies[i].outcome);
		free(t->replies[i].commands);
	}
	free(t->replies);
	for (i = 0; t->answers && i < t->nanswers; i++)
		mail_release(&t->answers[i]);
	free(t->answers);
	for (i = 0; t->retests && i < t->nretests; i++) {
		free(t->retests[i].request_id);
		free(t->retests[i].requested_by);
		free(t->retests[i].reply_message_id);
		free(t->retests[i].status);
		free(t->retests[i].detail);
	}
	free(t->retests);
	for (i = 0; t->tests && i < t->ntests; i++) {
		free(t->tests[i].request_id);
		free(t->tests[i].requested_by);
		free(t->tests[i].reply_message_id);
		free(t->tests[i].status);
		free(t->tests[i].detail);
		free(t->tests[i].form);
		free(t->tests[i].repo);
		free(t->tests[i].ref);
	}
	free(t->tests);
	free(t->confirm_status);
	free(t->confirm_detail);
	memset(t, 0, sizeof(*t));
}

const struct state_archive_ops sql_archive_ops = {
	.archive_reports = sql_archive_reports,
	.archive_thread = sql_archive_thread,
};
