// SPDX-License-Identifier: GPL-2.0-only
/*
 * util: files (fileio.h): whole-file reads with a cap, read-only maps of
 * big inputs (matrix.json), atomic writes, path joining, and data_find()
 * for the shipped data files (templates, config/metrics.yaml); for every
 * stage that reads or writes a file.
 */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfbot/util/fileio.h"

/* Read straight into the buffer, which 'hint' (the file size) presizes. */
static int read_fd(int fd, const char *path, size_t max, size_t hint,
		   struct strbuf *out, struct pb_err *err)
{
	size_t room;
	ssize_t n;

	if (hint && sb_grow(out, hint + 1))
		return pb_fail(err, EX_OSERR, "%s: out of memory", path);
	for (;;) {
		if (out->alloc - out->len < 4096 && sb_grow(out, 65536))
			return pb_fail(err, EX_OSERR, "%s: out of memory",
				       path);
		room = out->alloc - out->len - 1;
		if (room > max + 1 - out->len)	/* one byte past max tells */
			room = max + 1 - out->len;
		n = read(fd, out->buf + out->len, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return pb_fail(err, EX_IOERR, "%s: %s", path,
				       strerror(errno));
		if (n == 0)
			return 0;
		out->len += (size_t)n;
		out->buf[out->len] = '\0';
		if (out->len > max) {
			sb_setlen(out, max);
			return pb_fail(err, EX_DATAERR,
				       "%s: larger than the limit of %zu bytes",
				       path, max);
		}
	}
}

/* A user's name, or their number. */
static void user_name(uid_t uid, char *buf, size_t n)
{
	struct passwd pw, *res = NULL;
	char tmp[1024];

	if (!getpwuid_r(uid, &pw, tmp, sizeof(tmp), &res) && res)
		snprintf(buf, n, "%s", pw.pw_name);
	else
		snprintf(buf, n, "uid %u", (unsigned)uid);
}

const char *path_whose(const char *path, char *buf, size_t n)
{
	char *p = strdup(path), *slash, owner[64], me[64];
	struct stat st;
	int found = 0;

	*buf = '\0';
	while (p && !(found = !stat(p, &st)) && (slash = strrchr(p, '/')) &&
	       slash != p)
		*slash = '\0';
	if (found && st.st_uid != geteuid()) {
		user_name(st.st_uid, owner, sizeof(owner));
		user_name(geteuid(), me, sizeof(me));
		snprintf(buf, n, "; %s is owned by %s (mode %04o) and perfbot "
			 "runs as %s", strcmp(p, path) ? p : "it", owner,
			 (unsigned)(st.st_mode & 07777), me);
	}
	free(p);
	return buf;
}

/*
 * Open 'path' for reading without blocking (a FIFO or a device would hang
 * or never end) and check it is a regular file of at most 'max' bytes.
 */
static int open_regular(const char *path, size_t max, struct stat *st,
			struct pb_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	char whose[256] = "";
	int e = errno;

	if (fd < 0 && (e == EACCES || e == EPERM))
		path_whose(path, whose, sizeof(whose));
	if (fd < 0)
		return pb_fail(err, e == ENOENT ? EX_NOINPUT : EX_IOERR,
			       "%s: %s%s", path, strerror(e), whose);
	if (file_check_fd(fd, path, max, st, err)) {
		close(fd);
		return -1;
	}
	return fd;
}

int file_check_fd(int fd, const char *path, size_t max, struct stat *st,
		  struct pb_err *err)
{
	if (fstat(fd, st))
		return pb_fail(err, EX_IOERR, "%s: %s", path, strerror(errno));
	if (S_ISDIR(st->st_mode))
		return pb_fail(err, EX_DATAERR, "%s: is a directory", path);
	if (!S_ISREG(st->st_mode))
		return pb_fail(err, EX_DATAERR, "%s: not a regular file (%s)",
			       path, S_ISFIFO(st->st_mode) ? "a FIFO" :
			       S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode) ?
			       "a device" : S_ISSOCK(st->st_mode) ?
			       "a socket" : "a special file");
	if ((unsigned long long)st->st_size > max)
		return pb_fail(err, EX_DATAERR,
			       "%s: larger than the limit of %zu bytes", path,
			       max);
	return 0;
}

int file_read_fd(int fd, const char *path, size_t max, size_t hint, int text,
		 struct strbuf *out, struct pb_err *err)
{
	sb_reset(out);
	if (read_fd(fd, path, max, hint, out, err))
		return -1;
	if (text && memchr(sb_str(out), '\0', out->len))
		return pb_fail(err, EX_DATAERR, "%s: holds a NUL byte", path);
	return 0;
}

int file_read(const char *path, size_t max, int text, struct strbuf *out,
	      struct pb_err *err)
{
	struct stat st;
	int fd, rc;

	if (strcmp(path, "-") == 0)
		return file_read_fd(STDIN_FILENO, "standard input", max, 0,
				    text, out, err);
	fd = open_regular(path, max, &st, err);
	if (fd < 0)
		return -1;
	rc = file_read_fd(fd, path, max, (size_t)st.st_size, text, out, err);
	close(fd);
	return rc;
}

static int write_all(int fd, const char *p, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * The file is written unnamed (O_TMPFILE) and given its name only once
 * whole and on disk, so that a process killed while writing leaves
 * nothing behind: 1 done, 0 when the file system cannot (the caller
 * falls back to a named temporary file), -1 with 'err'.
 */
static int write_unnamed(const char *path, const void *data, size_t len,
			 unsigned mode, struct pb_err *err)
{
	char *dir = path_dirname(path), proc[64];
	struct strbuf tmp = STRBUF_INIT;
	int fd, rc = -1;

	if (!dir)
		return pb_fail(err, EX_OSERR, "%s: out of memory", path);
	fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
	free(dir);
	if (fd < 0)
		return 0;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (write_all(fd, data, len) || fchmod(fd, mode) || fsync(fd)) {
		pb_fail(err, EX_IOERR, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (!linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW)) {
		rc = 1;
		goto out;
	}
	/* the name is taken: a name of its own for the instant of a rename */
	if (errno != EEXIST || sb_addf(&tmp, "%s.tmp.%ld", path,
				       (long)getpid()) ||
	    linkat(AT_FDCWD, proc, AT_FDCWD, tmp.buf, AT_SYMLINK_FOLLOW)) {
		rc = errno == EEXIST || errno == ENOENT ? 0 :
			pb_fail(err, EX_CANTCREAT, "%s: %s", path,
				strerror(errno));
		goto out;
	}
	if (rename(tmp.buf, path)) {
		pb_fail(err, EX_CANTCREAT, "%s: %s", path, strerror(errno));
		unlink(tmp.buf);
		goto out;
	}
	rc = 1;
out:
	close(fd);
	sb_release(&tmp);
	return rc;
}

int file_write_atomic(const char *path, const void *data, size_t len,
		      unsigned mode, struct pb_err *err)
{
	struct strbuf tmp = STRBUF_INIT;
	int fd = -1, rc;

	rc = write_unnamed(path, data, len, mode, err);
	if (rc)
		return rc < 0 ? -1 : 0;
	rc = -1;
	if (sb_addf(&tmp, "%s.tmp.%ld", path, (long)getpid()))
		return pb_fail(err, EX_OSERR, "%s: out of memory", path);
	fd = open(tmp.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0) {
		pb_fail(err, EX_CANTCREAT, "%s: %s", tmp.buf, strerror(errno));
		goto out;
	}
	if (write_all(fd, data, len)) {
		pb_fail(err, EX_IOERR, "%s: %s", tmp.buf, strerror(errno));
		goto out;
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

/*
 * The directories a data file is looked for in, in order: $PERFBOT_DATADIR
 * when set, the binary's own directory (a build tree), the
 * installed tree beside it (<bindir>/../share/perfbot), the directory the
 * build was configured for and, last, the working directory.
 */
static int data_dirs(struct strbuf *dirs, size_t *n)
{
	const char *env = getenv("PERFBOT_DATADIR");
	char exe[4096], *bindir = NULL, *prefix = NULL, *share = NULL;
	ssize_t len;
	int rc = 0;

	*n = 0;
	if (env && *env) {
		rc |= sb_add(dirs, env, strlen(env) + 1);
		(*n)++;
	}
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = '\0';
		bindir = path_dirname(exe);
		prefix = bindir ? path_dirname(bindir) : NULL;
		share = prefix ? path_join(prefix, "share/perfbot") : NULL;
		if (bindir && share) {
			rc |= sb_add(dirs, bindir, strlen(bindir) + 1);
			rc |= sb_add(dirs, share, strlen(share) + 1);
			*n += 2;
		}
	}
	rc |= sb_add(dirs, PERFBOT_DATADIR, strlen(PERFBOT_DATADIR) + 1);
	rc |= sb_add(dirs, ".", 2);
	*n += 2;
	free(bindir);
	free(prefix);
	free(share);
	return rc ? -1 : 0;
}

int data_find(const char *rel, const char *hint, char **out,
	      struct pb_err *err)
{
	struct strbuf dirs = STRBUF_INIT, tried = STRBUF_INIT;
	const char *d;
	size_t i, n;
	int rc = -1;

	*out = NULL;
	if (rel[0] == '/')
		return (*out = strdup(rel)) ? 0 :
			pb_fail(err, EX_OSERR, "out of memory");
	if (data_dirs(&dirs, &n))
		goto oom;
	for (i = 0, d = sb_str(&dirs); i < n; i++, d += strlen(d) + 1) {
		/* the working directory: 'rel' as given */
		*out = strcmp(d, ".") ? path_join(d, rel) : strdup(rel);
		if (!*out)
			goto oom;
		if (access(*out, F_OK) == 0) {
			rc = 0;
			goto out;
		}
		if (sb_addf(&tried, "%s%s", i ? ", " : "", d)) {
			free(*out);
			*out = NULL;
			goto oom;
		}
		free(*out);
		*out = NULL;
	}
	pb_fail(err, EX_NOINPUT, "%s: not found in %s; set PERFBOT_DATADIR%s%s",
		rel, sb_str(&tried), hint ? " or " : "", hint ? hint : "");
	goto out;
oom:
	pb_fail(err, EX_OSERR, "out of memory");
out:
	sb_release(&dirs);
	sb_release(&tried);
	return rc;
}

char *data_path(const char *rel)
{
	const char *env = getenv("PERFBOT_DATADIR");
	char *p = NULL;

	if (data_find(rel, NULL, &p, NULL))
		return path_join(env && *env ? env : PERFBOT_DATADIR, rel);
	return p;
}

int file_map(const char *path, size_t max, struct file_map *m,
	     struct pb_err *err)
{
	struct stat st;
	void *p;
	int fd;

	m->data = NULL;
	m->len = 0;
	fd = open_regular(path, max, &st, err);
	if (fd < 0)
		return -1;
	if (st.st_size == 0) {
		close(fd);
		m->data = "";
		return 0;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ,
		 MAP_PRIVATE | MAP_POPULATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return pb_fail(err, EX_IOERR, "%s: %s", path, strerror(errno));
	m->data = p;
	m->len = (size_t)st.st_size;
	return 0;
}

void file_unmap(struct file_map *m)
{
	if (m->len)
		munmap((void *)m->data, m->len);
	m->data = NULL;
	m->len = 0;
}
