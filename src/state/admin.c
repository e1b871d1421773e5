// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: what the operator does to the outbox (state.h), for 'perfbot
 * requeue' and 'perfbot drop': a failed or dropped mail queued again (its
 * refused recipients tried again, its backoff started afresh), a queued
 * one made due now, a mail dropped; each action a row of 'actions' that
 * 'perfbot status' shows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/state/state.h"
#include "perfbot/state/outbox.h"
#include "internal.h"

/* The rows of the mail 'id' (its id, or its Message-ID with or without
 * brackets), at most 'max'; or, with 'id' NULL, every failed mail. */
static int find(struct state *st, const char *id, long long *rows,
		size_t max, size_t *n, struct pb_err *err)
{
	struct db_stmt *s;
	size_t len = id ? strlen(id) : 0;
	char bare[512];
	int rc;

	*n = 0;
	snprintf(bare, sizeof(bare), "%.*s", (int)(len > 2 && id[0] == '<' &&
		 id[len - 1] == '>' ? len - 2 : len), id && len > 2 &&
		 id[0] == '<' ? id + 1 : id ? id : "");
	if (id ? db_query(st, &s, err, "SELECT rowid FROM outbox WHERE id = ? "
			  "OR message_id = ? ORDER BY rowid", "ss", id, bare) :
	    db_query(st, &s, err, "SELECT rowid FROM outbox WHERE status = "
		     "'failed' ORDER BY rowid", ""))
		return -1;
	while ((rc = db_step(s)) == DB_ROW && *n < max)
		rows[(*n)++] = db_int(s, 0);
	db_finalize(s);
	return rc == DB_ROW || rc == DB_DONE ? 0 :
		db_fail(st, err, "read");
}

static int status_of(struct state *st, long long row, char *status,
		     size_t n, char *id, size_t idn, struct pb_err *err)
{
	struct db_stmt *s;
	int rc;

	if (db_query(st, &s, err, "SELECT status, id FROM outbox WHERE rowid "
		     "= ?", "i", row))
		return -1;
	rc = db_step(s);
	if (rc == DB_ROW) {
		snprintf(status, n, "%s", db_text(s, 0));
		snprintf(id, idn, "%s", db_text(s, 1));
	}
	db_finalize(s);
	return rc == DB_ROW ? 0 : db_fail(st, err, "read");
}

static int note(struct state *st, long long row, const char *action,
		const char *was, time_t now, const char *by,
		struct pb_err *err)
{
	return db_run(st, err, "INSERT INTO actions (at, mail, id, action, "
		      "detail, by) SELECT ?, rowid, id, ?, 'was ' || ? || "
		      "coalesce(': ' || last_error, ''), ? FROM outbox WHERE "
		      "rowid = ?", "isssi", (long long)now, action, was, by,
		      row);
}

static int requeue_row(struct state *st, long long row, time_t now,
		       const char *by, struct pb_err *err)
{
	char status[16] = "", id[256] = "";

	if (status_of(st, row, status, sizeof(status), id, sizeof(id), err))
		return -1;
	if (!strcmp(status, "sent"))
		return pb_fail(err, EX_DATAERR, "requeue: '%s' was sent: "
			       "queueing it again would send it twice", id);
	return note(st, row, "requeued", status, now, by, err) ||
	       db_run(st, err, "DELETE FROM outbox_recipients WHERE mail = ? "
		      "AND status != 'accepted'", "i", row) ||
	       db_run(st, err, "UPDATE outbox SET status = 'queued', attempts "
		      "= CASE status WHEN 'queued' THEN attempts ELSE 0 END, "
		      "next_attempt = 0, claim_owner = NULL WHERE rowid = ?",
		      "i", row) ? -1 : 0;
}

static int drop_row(struct state *st, long long row, time_t now,
		    const char *by, struct pb_err *err)
{
	char status[16] = "", id[256] = "";

	if (status_of(st, row, status, sizeof(status), id, sizeof(id), err))
		return -1;
	if (!strcmp(status, "sent"))
		return pb_fail(err, EX_DATAERR, "drop: '%s' was sent already",
			       id);
	if (!strcmp(status, "dropped"))
		return 0;
	return note(st, row, "dropped", status, now, by, err) ||
	       db_run(st, err, "UPDATE outbox SET status = 'dropped', "
		      "claim_owner = NULL WHERE rowid = ?", "i", row) ? -1 : 0;
}

#define ADMIN_MAX 100000

static int each(struct state *st, const char *id, time_t now, const char *by,
		int (*fn)(struct state *, long long, time_t, const char *,
			  struct pb_err *), long *done, struct pb_err *err)
{
	long long *rows = malloc(ADMIN_MAX * sizeof(*rows));
	size_t i, n = 0;
	int rc = -1;

	*done = 0;
	if (!rows)
		return pb_fail(err, EX_OSERR, "out of memory");
	if (state_begin(st, err))
		goto out;
	if (find(st, id, rows, ADMIN_MAX, &n, err))
		goto fail;
	if (id && !n) {
		pb_fail(err, EX_NOINPUT, "no mail '%s' in the state (see "
			"'perfbot status')", id);
		goto fail;
	}
	for (i = 0; i < n; i++)
		if (fn(st, rows[i], now, by, err))
			goto fail;
	if (state_commit(st, err))
		goto out;
	*done = (long)n;
	rc = 0;
	goto out;
fail:
	state_rollback(st);
out:
	free(rows);
	return rc;
}

static int sql_requeue(struct state *st, const char *id, time_t now,
			  const char *by, long *n, struct pb_err *err)
{
	return each(st, id, now, by, requeue_row, n, err);
}

static int sql_drop(struct state *st, const char *id, time_t now,
		       const char *by, struct pb_err *err)
{
	long n;

	return each(st, id, now, by, drop_row, &n, err);
}

const struct state_admin_ops sql_admin_ops = {
	.requeue = sql_requeue,
	.drop = sql_drop,
};
