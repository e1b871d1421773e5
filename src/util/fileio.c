// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfbot/fileio.h"

static int read_fd(int fd, const char *path, size_t max, struct strbuf *out,
		   struct pb_err *err)
{
	char chunk[65536];
	ssize_t n;

	for (;;) {
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return pb_fail(err, EX_IOERR, "%s: %s", path,
				       strerror(errno));
		if (n == 0)
			return 0;
		if (out->len + (size_t)n > max)
			return pb_fail(err, EX_DATAERR,
				       "%s: larger than the limit of %zu bytes",
				       path, max);
		if (sb_add(out, chunk, (size_t)n))
			return pb_fail(err, EX_OSERR, "%s: out of memory",
				       path);
	}
}

int file_read(const char *path, size_t max, int text, struct strbuf *out,
	      struct pb_err *err)
{
	struct stat st;
	int fd, rc;

	if (strcmp(path, "-") == 0) {
		fd = STDIN_FILENO;
	} else {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return pb_fail(err,
				       errno == ENOENT ? EX_NOINPUT : EX_IOERR,
				       "%s: %s", path, strerror(errno));
		if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
			close(fd);
			return pb_fail(err, EX_DATAERR, "%s: is a directory",
				       path);
		}
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
		    (unsigned long long)st.st_size > max) {
			close(fd);
			return pb_fail(err, EX_DATAERR,
				       "%s: larger than the limit of %zu bytes",
				       path, max);
		}
	}
	sb_reset(out);
	rc = read_fd(fd, path, max, out, err);
	if (fd != STDIN_FILENO)
		close(fd);
	if (!rc && text && memchr(sb_str(out), '\0', out->len))
		return pb_fail(err, EX_DATAERR, "%s: holds a NUL byte", path);
	return rc;
}

int file_write_atomic(const char *path, const void *data, size_t len,
		      unsigned mode, struct pb_err *err)
{
	struct strbuf tmp = STRBUF_INIT;
	const char *p = data;
	int fd = -1, rc = -1;
	ssize_t n;

	if (sb_addf(&tmp, "%s.tmp.%ld", path, (long)getpid()))
		return pb_fail(err, EX_OSERR, "%s: out of memory", path);
	fd = open(tmp.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0) {
		pb_fail(err, EX_CANTCREAT, "%s: %s", tmp.buf, strerror(errno));
		goto out;
	}
	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			pb_fail(err, EX_IOERR, "%s: %s", tmp.buf,
				strerror(errno));
			goto out;
		}
		p += n;
		len -= (size_t)n;
	}
	if (fsync(fd) || close(fd)) {
		fd = -1;
		pb_fail(err, EX_IOERR, "%s: %s", tmp.buf, strerror(errno));
		goto out;
	}
	fd = -1;
	if (rename(tmp.buf, path)) {
		pb_fail(err, EX_CANTCREAT, "%s: %s", path, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	if (rc)
		unlink(tmp.buf);
	sb_release(&tmp);
	return rc;
}

char *path_join(const char *dir, const char *name)
{
	size_t dl, nl;
	char *p;

	if (name[0] == '/' || !dir || !*dir)
		return strdup(name);
	dl = strlen(dir);
	nl = strlen(name);
	p = malloc(dl + nl + 2);
	if (!p)
		return NULL;
	memcpy(p, dir, dl);
	if (dir[dl - 1] != '/')
		p[dl++] = '/';
	memcpy(p + dl, name, nl + 1);
	return p;
}

char *path_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *p;

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	p = malloc((size_t)(slash - path) + 1);
	if (!p)
		return NULL;
	memcpy(p, path, (size_t)(slash - path));
	p[slash - path] = '\0';
	return p;
}

#ifndef PERFBOT_DATADIR
#define PERFBOT_DATADIR "/usr/local/share/perfbot"
#endif

char *data_path(const char *rel)
{
	const char *env = getenv("PERFBOT_DATADIR");

	if (rel[0] == '/' || access(rel, F_OK) == 0)
		return strdup(rel);
	return path_join(env && *env ? env : PERFBOT_DATADIR, rel);
}
