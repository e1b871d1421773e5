// SPDX-License-Identifier: GPL-2.0-only
/*
 * The state's backup (record stage): SQLite's online backup copies the
 * open state page by page into a new file within one read transaction,
 * so the copy is the state as one moment saw it, even while 'perfbot run'
 * writes (WAL: the reader never blocks the writer). 'cp perfbot.db' is
 * not that: it can take a file whose last transactions are still in the
 * -wal beside it, or pages from two moments.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfbot/state/backup.h"
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
static int copy(struct state *src, const char *tmp, const char *dest,
		long *pages, struct pb_err *err)
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
	*pages = sqlite3_backup_pagecount(b);
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

int state_backup(const char *path, const char *dest, long *pages,
		 long long *bytes, struct pb_err *err)
{
	struct state *src = NULL;
	char *tmp = NULL;
	int rc = -1;

	*pages = 0;
	*bytes = 0;
	if (access(path, F_OK))
		return pb_fail(err, EX_NOINPUT, "%s: no state there (nothing "
			       "has run yet)", path);
	if (is_state(path, dest))
		return pb_fail(err, EX_USAGE, "%s: that is the state itself",
			       dest);
	if (state_open(&src, path, STATE_READ, err) ||
	    !(tmp = state_new_beside(dest, err)) ||
	    copy(src, tmp, dest, pages, err) ||
	    state_publish(tmp, dest, bytes, err))
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
