// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SQLite backend of the state (record stage; backend.h): opening the
 * file (the run lock, an flock of it; the name the file keeps), applying
 * the migrations of schema.c, transactions, and its table of functions,
 * state_sqlite, whose tables' operations are in the other files of the
 * module (queue.c, seen.c, inbox.c, requests.c, status.c...).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "perfbot/util/fileio.h"
#include <sqlite3.h>

#include "perfbot/state/state.h"
#include "internal.h"

#define BUSY_TIMEOUT_MS 5000

#define NMIGRATIONS state_nmigrations

static int exec(struct state *st, const char *sql, struct pb_err *err)
{
	if (sqlite3_exec(st->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(st, err, "sql");
	return 0;
}

static int user_version(struct state *st, int *v, struct pb_err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &s, NULL))
		return db_fail(st, err, "schema version");
	rc = sqlite3_step(s);
	*v = rc == SQLITE_ROW ? sqlite3_column_int(s, 0) : 0;
	sqlite3_finalize(s);
	return rc == SQLITE_ROW ? 0 : db_fail(st, err, "schema version");
}

/* After a rebuild: no row may point at a row that is not there. */
static int fk_check(struct state *st, struct pb_err *err)
{
	sqlite3_stmt *s;
	int rc;

	if (sqlite3_prepare_v2(st->db, "PRAGMA foreign_key_check", -1, &s,
			       NULL))
		return db_fail(st, err, "foreign key check");
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc == SQLITE_ROW)
		return pb_fail(err, EX_DATAERR, "%s: a migration left a "
			       "recipient of no mail", st->path);
	return rc == SQLITE_DONE ? 0 : db_fail(st, err, "foreign key check");
}

static int migrate(struct state *st, struct pb_err *err)
{
	char sql[64];
	int v, i;

	if (exec(st, "BEGIN IMMEDIATE", err))
		return -1;
	if (user_version(st, &v, err))
		goto fail;
	if (v > NMIGRATIONS) {
		pb_fail(err, EX_CONFIG, "%s: schema version %d is newer than "
			"this perfbot (%d)", st->path, v, NMIGRATIONS);
		goto fail;
	}
	for (i = v; i < NMIGRATIONS; i++)
		if (exec(st, state_migrations[i].sql, err))
			goto fail;
	if (v < NMIGRATIONS && fk_check(st, err))
		goto fail;
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", NMIGRATIONS);
	if (exec(st, sql, err) || exec(st, "COMMIT", err))
		goto fail;
	return 0;
fail:
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

static int check_version(struct state *st, struct pb_err *err)
{
	int v;

	if (user_version(st, &v, err))
		return -1;
	if (v != NMIGRATIONS)
		return pb_fail(err, EX_CONFIG, "%s: schema version %d, this "
			       "perfbot needs %d (run it once without "
			       "--dry-run)", st->path, v, NMIGRATIONS);
	return 0;
}

/*
 * The run lock is an flock on the database file itself, opened (created
 * empty when missing: SQLite takes an empty file for a new database)
 * before SQLite touches it: whatever name reaches the file, a symlink or
 * a hard link, the lock is the inode's, and two first runs never race on
 * creating the schema. SQLite's own locks are POSIX locks, which flock
 * does not interfere with on a local file system; the descriptor is
 * closed only after SQLite's connection.
 */
static int lock_file(struct state *st, const char *path, struct pb_err *err)
{
	struct stat sb;
	int fd;

	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NONBLOCK,
		  0600);
	if (fd < 0) {
		char whose[256] = "";
		int e = errno;

		if (e == EACCES || e == EPERM || e == EROFS)
			path_whose(path, whose, sizeof(whose));
		return pb_fail(err, EX_CANTCREAT, "%s: %s%s", path,
			       strerror(e), whose);
	}
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		close(fd);
		return pb_fail(err, EX_CANTCREAT, "%s: not a regular file",
			       path);
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int e = errno;

		close(fd);
		if (e != EWOULDBLOCK)
			return pb_fail(err, EX_IOERR, "%s: lock: %s", path,
				       strerror(e));
		return pb_fail(err, EX_TEMPFAIL, "%s: another perfbot is "
			       "running on this state; try again later", path);
	}
	st->lock_fd = fd;
	return 0;
}

/* The name the file was first opened by, NULL when none was kept. */
static char *home_read(struct state *st)
{
	sqlite3_stmt *s;
	char *home = NULL;

	if (sqlite3_prepare_v2(st->db, "SELECT value FROM meta WHERE key = "
			       "'home'", -1, &s, NULL) != SQLITE_OK)
		return NULL;	/* a new file, or one from before meta */
	if (sqlite3_step(s) == SQLITE_ROW &&
	    sqlite3_column_type(s, 0) == SQLITE_TEXT)
		home = strdup((const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	return home;
}

static int same_file(const char *path, int fd)
{
	struct stat a, b;

	return path && !stat(path, &a) && !fstat(fd, &b) &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static int open_db(struct state *st, const char *name, int flags,
		   int create, struct pb_err *err)
{
	char whose[256];

	if (sqlite3_open_v2(name, &st->db, flags, NULL) == SQLITE_OK)
		return 0;
	return pb_fail(err, create ? EX_CANTCREAT : EX_NOINPUT, "%s: %s%s",
		       st->path, st->db ? sqlite3_errmsg(st->db) :
		       "cannot open", path_whose(name, whose, sizeof(whose)));
}

/*
 * SQLite names its -wal file after the name it is given, so a run killed
 * while it used one hard link leaves its last transactions where another
 * name would not look (and replaying them later would corrupt the file).
 * The file keeps the name it was first opened by; a run that comes by
 * another name of the same file reopens it by that one.
 */
static int home_name(struct state *st, const char *real, int flags,
		     struct pb_err *err)
{
	char *home = home_read(st);
	int rc = 0;

	if (home && strcmp(home, real) && same_file(home, st->lock_fd)) {
		sqlite3_close(st->db);
		st->db = NULL;
		rc = open_db(st, home, flags, 1, err);
	}
	free(home);
	return rc;
}

/* After the migrations: keep this name when the file has no home yet. */
static int home_keep(struct state *st, const char *real, struct pb_err *err)
{
	char *home = home_read(st);
	int rc = 0;

	if (!home || !same_file(home, st->lock_fd)) {
		rc = db_run(st, err, "INSERT INTO meta (key, value) VALUES "
			    "('home', ?) ON CONFLICT (key) DO UPDATE SET "
			    "value = excluded.value", "s", real);
		/* into the file itself, where every name sees it */
		if (!rc)
			sqlite3_exec(st->db, "PRAGMA wal_checkpoint(TRUNCATE)",
				     NULL, NULL, NULL);
	}
	free(home);
	return rc;
}

static void release(struct state *st)
{
	if (st->db)
		sqlite3_close(st->db);
	if (st->lock_fd >= 0)
		close(st->lock_fd);
	free(st->path);
	free(st);
}

/*
 * Read only, writing nothing at all: with no run at work and no -wal
 * left (everything is in the file itself), the file is opened immutable,
 * so SQLite makes no -wal or -shm (and a read-only directory is fine);
 * else as a reader of the WAL, whose files are there already.
 */
static int open_read(struct state *st, const char *path, struct pb_err *err)
{
	char wal[4096];
	struct stat sb;
	char *uri = NULL;
	int rc, flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_FULLMUTEX;

	snprintf(wal, sizeof(wal), "%s-wal", path);
	if (state_nobody_writing(path) && (stat(wal, &sb) || sb.st_size == 0)) {
		uri = state_uri(path, "?immutable=1");
		if (!uri)
			return pb_fail(err, EX_OSERR, "out of memory");
		flags |= SQLITE_OPEN_URI;
	}
	rc = open_db(st, uri ? uri : path, flags, 0, err);
	free(uri);
	if (rc)
		return -1;
	sqlite3_busy_timeout(st->db, BUSY_TIMEOUT_MS);
	return check_version(st, err);
}

static int open_at(struct state *st, const char *path, enum state_mode mode,
		   struct pb_err *err)
{
	int create = mode != STATE_READ;
	int flags = (create ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY) |
		    SQLITE_OPEN_FULLMUTEX;
	char *real = NULL;

	st->path = strdup(path);
	if (!st->path)
		return pb_fail(err, EX_OSERR, "out of memory");
	if (!create)
		return open_read(st, path, err);
	if (state_marker_check(path, err) ||
	    (mode == STATE_LOCKED && lock_file(st, path, err)))
		return -1;
	/* SQLite names its -wal and -shm after the name it is given. */
	if (mode == STATE_LOCKED)
		real = realpath(path, NULL);
	if (create)
		flags |= SQLITE_OPEN_CREATE;
	if (open_db(st, real ? real : path, flags, create, err) ||
	    (real && home_name(st, real, flags, err))) {
		free(real);
		return -1;
	}
	sqlite3_busy_timeout(st->db, BUSY_TIMEOUT_MS);
	/* foreign keys after the migrations: 6 rebuilds a table (fk_check) */
	if (exec(st, "PRAGMA journal_mode = WAL", err) ||
	    exec(st, "PRAGMA synchronous = FULL", err) || migrate(st, err) ||
	    exec(st, "PRAGMA foreign_keys = ON", err) ||
	    (real && home_keep(st, real, err)) ||
	    state_marker_keep(path, time(NULL), err)) {
		free(real);
		return -1;
	}
	free(real);
	return 0;
}

static int sqlite_open(struct state **out, const char *path,
		       enum state_mode mode, struct pb_err *err)
{
	struct state *st = calloc(1, sizeof(*st));

	*out = NULL;
	if (!st)
		return pb_fail(err, EX_OSERR, "out of memory");
	st->be = &state_sqlite;
	st->lock_fd = -1;
	if (open_at(st, path, mode, err)) {
		release(st);
		return -1;
	}
	*out = st;
	return 0;
}

static int sqlite_missing(const char *path)
{
	return access(path, F_OK) != 0;
}

static void sqlite_close(struct state *st)
{
	if (st)
		release(st);
}

static int sqlite_lock(struct state *st, struct pb_err *err)
{
	if (st->lock_fd >= 0)
		return 0;
	return lock_file(st, st->path, err);
}

static int sqlite_begin(struct state *st, struct pb_err *err)
{
	return exec(st, "BEGIN IMMEDIATE", err);
}

static int sqlite_commit(struct state *st, struct pb_err *err)
{
	return exec(st, "COMMIT", err);
}

static void sqlite_rollback(struct state *st)
{
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
}

static int sqlite_describe(struct state *st, char *buf, size_t n,
			   struct pb_err *err)
{
	int v;

	if (user_version(st, &v, err))
		return -1;
	snprintf(buf, n, "%s: SQLite %s, schema version %d", st->path,
		 sqlite3_libversion(), v);
	return 0;
}

const struct state_backend state_sqlite = {
	.name = "sqlite",
	.scheme = NULL,
	.open = sqlite_open,
	.missing = sqlite_missing,
	.usable = sqlite_usable,
	.close = sqlite_close,
	.lock = sqlite_lock,
	.check = sqlite_check,
	.describe = sqlite_describe,
	.reserve = sqlite_reserve,
	.unreserve = sqlite_unreserve,
	.full = sqlite_full,
	.begin = sqlite_begin,
	.commit = sqlite_commit,
	.rollback = sqlite_rollback,
	.backup = sqlite_backup,
	.sql = &db_sqlite,
	SQL_TABLES_OPS,
};
