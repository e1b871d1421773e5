// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: the files beside the state (internal.h), for state.c: the
 * marker that says a state was in use, so that one deleted or truncated
 * is not silently made anew; and what a reader needs to write nothing at
 * all (the file's URI for an immutable open, whether a run is at work).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "perfbot/util/fileio.h"
#include "internal.h"

/*
 * The marker beside the state: ".<name>.in-use" in its directory, made on
 * the first open for writing. A state that is missing or empty while its
 * marker is there was in use: it is not silently made anew (every
 * manifest still in the sources would be mailed again). The leading dot
 * keeps it out of 'rm perfbot.db*'.
 */
static char *marker_path(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
	size_t n = strlen(path) + 16;
	char *m = malloc(n);

	if (m)
		snprintf(m, n, "%.*s.%s.in-use", (int)dir, path, path + dir);
	return m;
}

int state_marker_check(const char *path, struct pb_err *err)
{
	char *m = marker_path(path);
	struct stat sb;
	int rc = 0;

	if (!m)
		return pb_fail(err, EX_OSERR, "out of memory");
	if ((stat(path, &sb) || sb.st_size == 0) && !access(m, F_OK))
		rc = pb_fail(err, EX_NOINPUT, "state '%s' is %s, but it was in "
			     "use ('%s' says so): a new state would mail every "
			     "manifest of the sources again; restore it from "
			     "a backup, or remove '%s' to start afresh", path,
			     stat(path, &sb) ? "missing" : "empty", m, m);
	free(m);
	return rc;
}

int state_marker_keep(const char *path, time_t now, struct pb_err *err)
{
	char *m = marker_path(path);
	char text[96];
	int fd, rc = 0;

	if (!m)
		return pb_fail(err, EX_OSERR, "out of memory");
	if (access(m, F_OK)) {
		fd = open(m, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		snprintf(text, sizeof(text), "perfbot state in use since %lld; "
			 "see 'perfbot status'\n", (long long)now);
		if (fd < 0 || write(fd, text, strlen(text)) < 0 || fsync(fd))
			rc = pb_fail(err, EX_CANTCREAT, "%s: %s", m,
				     strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	free(m);
	return rc;
}

/*
 * A file name as an SQLite URI ("file:" and the path, percent-encoded
 * but for unreserved characters and '/').
 */
char *state_uri(const char *path, const char *query)
{
	size_t n = strlen(path), i, k = 0;
	char *u = malloc(3 * n + strlen(query) + 8);
	const char *p;

	if (!u)
		return NULL;
	memcpy(u, "file:", 5);
	k = 5;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)path[i];

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("-._~/", c))
			u[k++] = (char)c;
		else
			k += (size_t)snprintf(u + k, 4, "%%%02X", c);
	}
	for (p = query; *p; p++)
		u[k++] = *p;
	u[k] = '\0';
	return u;
}

/* No run holds the state: the run lock is free for a shared lock. */
int state_nobody_writing(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	int free_ = 0;

	if (fd < 0)
		return 0;
	if (!flock(fd, LOCK_SH | LOCK_NB)) {
		free_ = 1;
		flock(fd, LOCK_UN);
	}
	close(fd);
	return free_;
}


/*
 * The reserve: ".<name>.reserve" beside the state, RESERVE_BYTES of disk
 * kept for the records of mail already handed to the server. A record
 * that finds the disk full gives it back and is written again, and the
 * sending stops; a next run makes it anew when there is room, and sends
 * nothing when there is none.
 */
#define RESERVE_BYTES (1L << 20)

static char *reserve_path(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
	size_t n = strlen(path) + 16;
	char *r = malloc(n);

	if (r)
		snprintf(r, n, "%.*s.%s.reserve", (int)dir, path, path + dir);
	return r;
}

int state_reserve_make(const char *path, struct pb_err *err)
{
	char *r = reserve_path(path);
	struct stat sb;
	int fd, e, rc = 0;

	if (!r)
		return pb_fail(err, EX_OSERR, "out of memory");
	if (!stat(r, &sb) && sb.st_size >= RESERVE_BYTES) {
		free(r);
		return 0;
	}
	fd = open(r, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	e = fd < 0 ? errno : posix_fallocate(fd, 0, RESERVE_BYTES);
	if (fd >= 0)
		close(fd);
	if (e) {
		unlink(r);
		rc = pb_fail(err, e == ENOSPC ? EX_IOERR : EX_CANTCREAT,
			     "%s: %s: no room kept for the records of what is "
			     "sent, so nothing is sent", path, strerror(e));
	}
	free(r);
	return rc;
}

int state_reserve_free(const char *path)
{
	char *r = reserve_path(path);
	int rc = r ? unlink(r) : -1;

	free(r);
	return rc;
}

/* The nearest existing ancestor of 'path' must be a writable directory. */
int sqlite_usable(const char *path, int *made, struct pb_err *err)
{
	char *dir = path_dirname(path), *up;
	struct stat sb;
	int rc = 0;

	while (dir && stat(dir, &sb) && strcmp(dir, "/") && strcmp(dir, ".")) {
		up = path_dirname(dir);
		free(dir);
		dir = up;
	}
	if (!dir)
		rc = pb_fail(err, EX_OSERR, "out of memory");
	else if (!S_ISDIR(sb.st_mode) || access(dir, W_OK | X_OK))
		rc = pb_fail(err, EX_CONFIG, "state: '%s': '%s' is not a "
			     "writable directory", path, dir);
	else if (access(path, F_OK) == 0 && access(path, R_OK | W_OK))
		rc = pb_fail(err, EX_CONFIG, "state: '%s': %s", path,
			     strerror(errno));
	*made = access(path, F_OK) == 0;
	free(dir);
	return rc;
}
