// SPDX-License-Identifier: GPL-2.0-only
/*
 * The state's backup (backup.h), a backend operation (backend.h): the
 * front here makes the new file beside the destination and renames it
 * over it once whole; what goes in is the backend's. SQLite's online
 * backup (sqlite_backup()) copies the open state page by page into the
 * new file within one read transaction, so the copy is the state as one
 * moment saw it, even while 'perfbot run' writes (WAL: the reader never
 * blocks the writer). 'cp perfbot.db' is not that: it can take a file
 * whose last transactions are still in the -wal beside it, or pages from
 * two moments. A backend without a copy of its own (PostgreSQL) writes
 * the neutral dump of 'perfbot state export', read as one snapshot.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfbot/state/backup.h"
#include "perfbot/state/dump.h"
#include "perfbot/state/state.h"
#include "perfbot/util/fileio.h"
#include <sqlite3.h>

#include "internal.h"

/* 'dest' is a name of the file 'path' (or of its -wal, -shm). */
static int is_state(const char *path, const char *dest)
{
	static const char *const sfx[] = { "", "-wal", "-shm", "-journal" };
	struct stat a, b;
	char name[4096];
	size_t i;

	if (stat(dest, &b))
		return 0;
	for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		snprintf(name, sizeof(name), "%s%s", path, sfx[i]);
		if (!stat(name, &a) && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino)
			return 1;
	}
	return 0;
}

char *state_new_beside(const char *dest, struct pb_err *err)
{
	char *dir = path_dirname(dest), *tmp = NULL;
	int fd = -1;

	if (dir)
		tmp = path_join(dir, ".perfbot-backup.XXXXXX");
	if (tmp)
		fd = mkstemp(tmp);
	if (fd < 0) {
		if (!tmp)
			pb_fail(err, EX_OSERR, "out of memory");
		else
			pb_fail(err, EX_CANTCREAT, "%s: %s", dest,
				strerror(errno));
		free(tmp);
		tmp = NULL;
	} else {
		fchmod(fd, 0600);
		close(fd);
	}
	free(dir);
	return tmp;
}

static int sql_fail(sqlite3 *db, const char *name, const char *what,
		    struct pb_err *err)
{
	return pb_fail(err, EX_IOERR, "%s: %s: %s", name, what,
		       db ? sqlite3_errmsg(db) : "out of memory");
}

/* 'db' holds one good file of its own: no -wal, pages checked. */
static int settle(sqlite3 *db, const char *dest, struct pb_err *err)
{
	sqlite3_stmt *s = NULL;
	const char *ok;
	int rc;

	if (sqlite3_exec(db, "PRAGMA journal_mode = DELETE", NULL, NULL,
			 NULL) != SQLITE_OK)
		return sql_fail(db, dest, "journal_mode", err);
	if (sqlite3_prepare_v2(db, "PRAGMA quick_check", -1, &s, NULL) !=
	    SQLITE_OK)
		return sql_fail(db, dest, "quick_check", err);
	rc = sqlite3_step(s);
	ok = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(s, 0) : NULL;
	if (!ok || strcmp(ok, "ok")) {
		pb_fail(err, EX_IOERR, "%s: the copy fails its check: %s",
			dest, ok ? ok : sqlite3_errmsg(db));
		sqlite3_finalize(s);
		return -1;
	}
	sqlite3_finalize(s);
	return 0;
}

/* Copy every page of 'src' into the file 'tmp'. */
int sqlite_backup(struct state *src, const char *tmp, const char *dest,
		  struct backup_counts *bc, struct pb_err *err)
{
	sqlite3 *db = NULL;
	sqlite3_backup *b;
	int rc = -1, step;

	if (sqlite3_open_v2(tmp, &db, SQLITE_OPEN_READWRITE, NULL) !=
	    SQLITE_OK) {
		sql_fail(db, dest, "open", err);
		goto out;
	}
	b = sqlite3_backup_init(db, "main", src->db, "main");
	if (!b) {
		sql_fail(db, dest, "backup", err);
		goto out;
	}
	/* all pages in one step: one read transaction, one snapshot */
	step = sqlite3_backup_step(b, -1);
	bc->pages = sqlite3_backup_pagecount(b);
	sqlite3_backup_finish(b);
	if (step != SQLITE_DONE) {
		pb_fail(err, step == SQLITE_BUSY || step == SQLITE_LOCKED ?
			EX_TEMPFAIL : EX_IOERR, "%s: backup of %s: %s", dest,
			src->path, sqlite3_errstr(step));
		goto out;
	}
	rc = settle(db, dest, err);
out:
	if (sqlite3_close(db) != SQLITE_OK && !rc)
		rc = pb_fail(err, EX_IOERR, "%s: close failed", dest);
	return rc;
}

int state_publish(const char *tmp, const char *dest, long long *bytes,
		   struct pb_err *err)
{
	char *dir = path_dirname(dest);
	struct stat st;
	int fd = open(tmp, O_RDONLY | O_CLOEXEC), rc = -1;

	if (fd < 0 || fsync(fd) || fstat(fd, &st) || rename(tmp, dest)) {
		pb_fail(err, EX_IOERR, "%s: %s", dest, strerror(errno));
	} else {
		*bytes = (long long)st.st_size;
		rc = 0;
	}
	if (fd >= 0)
		close(fd);
	fd = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
	return rc;
}

/* The neutral dump into 'tmp', for a backend without a copy of its own. */
static int dump_backup(struct state *st, const char *tmp, const char *dest,
		       struct backup_counts *b, struct pb_err *err)
{
	struct dump_counts c = { 0, 0 };
	int rc = state_dump_file(st, tmp, dest, &c, err);

	b->dump = 1;
	b->tables = c.tables;
	b->rows = c.rows;
	return rc;
}

int state_backup(const char *where, const char *dest, struct backup_counts *b,
		 struct pb_err *err)
{
	struct state *src = NULL;
	char *tmp = NULL;
	int rc = -1;

	memset(b, 0, sizeof(*b));
	if (state_missing(where))
		return pb_fail(err, EX_NOINPUT, "%s: no state there (nothing "
			       "has run yet)", where);
	if (is_state(where, dest))
		return pb_fail(err, EX_USAGE, "%s: that is the state itself",
			       dest);
	if (state_open(&src, where, STATE_READ, err) ||
	    !(tmp = state_new_beside(dest, err)) ||
	    (src->be->backup ? src->be->backup(src, tmp, dest, b, err) :
	     dump_backup(src, tmp, dest, b, err)) ||
	    state_publish(tmp, dest, &b->bytes, err))
		goto out;
	rc = 0;
out:
	if (rc && tmp) {
		char journal[4096];

		unlink(tmp);
		/* SQLite's own file beside it, if it left one */
		snprintf(journal, sizeof(journal), "%s-journal", tmp);
		unlink(journal);
	}
	free(tmp);
	state_close(src);
	return rc;
}
