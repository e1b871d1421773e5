// SPDX-License-Identifier: GPL-2.0-only
/*
 * ingest: the files a manifest names on this machine (manifest_files.h):
 * its result roots checked before anything is compared, and the files it
 * attaches to its mail read: where they may come from, what they may be,
 * never a secret.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfbot/ingest/manifest_files.h"
#include "perfbot/util/fileio.h"
#include "perfbot/util/strbuf.h"
#include "manifest_internal.h"

static int is_url(const char *s)
{
	return !strncmp(s, "http://", 7) || !strncmp(s, "https://", 8);
}

/* 'real' (resolved) is 'dir' (resolved) or lies below it. */
static int below(const char *real, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		return 1;
	return !strncmp(real, dir, n) && (real[n] == '/' || !real[n]);
}

/* 'real' lies below 'dir' once 'dir' is resolved (a missing one: no). */
static int allowed_by(const char *real, const char *dir)
{
	char *d;
	int ok;

	if (!dir || !*dir || is_url(dir) || !(d = realpath(dir, NULL)))
		return 0;
	ok = below(real, d);
	free(d);
	return ok;
}

/* The source whose directory holds the manifest, or NULL. */
static const struct cfg_source *source_of(const struct config *cfg,
					  const struct manifest *m)
{
	const struct cfg_source *found = NULL;
	char *md = m->dir ? realpath(m->dir, NULL) : NULL, *sd;
	size_t i;

	for (i = 0; md && !found && i < cfg->nsources; i++) {
		if (!cfg->sources[i].dir ||
		    !(sd = realpath(cfg->sources[i].dir, NULL)))
			continue;
		if (!strcmp(md, sd))
			found = &cfg->sources[i];
		free(sd);
	}
	free(md);
	return found;
}

/* 1 when the resolved file 'real' may be attached from 'm'. */
static int allowed(const struct config *cfg, const struct manifest *m,
		   const char *real)
{
	const struct cfg_source *src = source_of(cfg, m);
	size_t i;

	if (src && src->has_attach_dirs) {
		for (i = 0; i < src->attach_dirs.n; i++)
			if (allowed_by(real, src->attach_dirs.v[i]))
				return 1;
		return 0;
	}
	return allowed_by(real, m->dir) ||
	       allowed_by(real, m->base.result_root) ||
	       allowed_by(real, m->head.result_root);
}

/* The setting whose file 'st' is, when it is one perfbot keeps secret. */
static const char *secret_file(const struct config *cfg,
			       const struct stat *st)
{
	const struct {
		const char *key, *path;
	} secret[] = {
		{ "smtp.password_file", cfg->smtp.secret.password_file },
		{ "imap.password_file", cfg->imap.secret.password_file },
		{ "the configuration", cfg->path },
		{ "state", cfg->state },
	};
	struct stat s;
	size_t i;

	for (i = 0; i < sizeof(secret) / sizeof(secret[0]); i++)
		if (secret[i].path && !stat(secret[i].path, &s) &&
		    s.st_dev == st->st_dev && s.st_ino == st->st_ino)
			return secret[i].key;
	return NULL;
}

int manifest_attach(const struct config *cfg, const struct manifest *m,
		const char *key, const char *path, struct strbuf *out,
		struct pb_err *err)
{
	const struct ynode *node = ymap_get(m->doc.root, key);
	const char *name = m->doc.name, *why;
	struct pb_err e = { 0, "" };
	int line = node ? ynode_line(node) : 0, fd, rc;
	char *real;
	struct stat st;

	if (is_url(path))
		return pb_fail(err, EX_DATAERR, "%s:%d: '%s': '%s': must be a "
			       "local file", name, line, key, path);
	real = realpath(path, NULL);
	if (!real)
		return pb_fail(err, errno == ENOENT ? EX_NOINPUT : EX_DATAERR,
			       "%s:%d: '%s': %s: %s", name, line, key, path,
			       strerror(errno));
	if (!allowed(cfg, m, real)) {
		rc = pb_fail(err, EX_DATAERR, "%s:%d: '%s': %s: not in a "
			     "directory this manifest may attach files from "
			     "(sources[].attach_dirs; by default the "
			     "manifest's own and its result roots)", name,
			     line, key, path);
		free(real);
		return rc;
	}
	fd = open(real, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY |
		  O_NOFOLLOW);
	free(real);
	if (fd < 0)
		return pb_fail(err, EX_DATAERR, "%s:%d: '%s': %s: %s", name,
			       line, key, path, strerror(errno));
	if (file_check_fd(fd, path, ATTACH_MAX, &st, &e)) {
		rc = -1;
	} else if ((why = secret_file(cfg, &st))) {
		rc = pb_fail(&e, EX_DATAERR, "%s: is the file of %s, which "
			     "is never mailed", path, why);
	} else {
		rc = file_read_fd(fd, path, ATTACH_MAX, (size_t)st.st_size, 1,
				  out, &e);
	}
	close(fd);
	if (rc)
		return pb_fail(err, e.code, "%s:%d: '%s': %s", name, line, key,
			       e.msg);
	return 0;
}

/* A local result root: a directory that holds a regular matrix.json. */
static int check_root(const struct manifest *m, const char *side,
		      const char *rr, struct pb_err *err)
{
	const struct ynode *node = ymap_get(ymap_get(m->doc.root, side),
					    "result_root");
	int line = node ? ynode_line(node) : 0;
	const char *why = NULL;
	int code = EX_DATAERR;
	struct stat st;
	char *matrix;

	if (is_url(rr))
		return 0;
	if (stat(rr, &st)) {
		code = errno == ENOENT ? EX_NOINPUT : EX_DATAERR;
		why = errno == ENOENT ? "no such directory" : strerror(errno);
	} else if (!S_ISDIR(st.st_mode)) {
		why = "not a directory";
	}
	if (why)
		return pb_fail(err, code,
			       "%s:%d: '%s.result_root': '%s': %s",
			       m->doc.name, line, side, rr, why);
	matrix = path_join(rr, "matrix.json");
	if (!matrix)
		return pb_fail(err, EX_OSERR, "out of memory");
	if (stat(matrix, &st))
		why = errno == ENOENT ? "holds no matrix.json" :
			strerror(errno);
	else if (!S_ISREG(st.st_mode))
		why = "its matrix.json is not a regular file";
	free(matrix);
	if (why)
		return pb_fail(err, EX_DATAERR, "%s:%d: '%s.result_root': "
			       "'%s': %s", m->doc.name, line, side, rr, why);
	return 0;
}

int manifest_check_files(const struct manifest *m, const struct config *cfg,
			  struct pb_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;

	if (check_root(m, "base", m->base.result_root, err) ||
	    check_root(m, "head", m->head.result_root, err))
		return -1;
	if (!m->kconfig_file)
		return 0;
	rc = manifest_attach(cfg, m, "kconfig_file", m->kconfig_file, &sb, err);
	sb_release(&sb);
	return rc;
}

int manifest_load_reproduce(struct manifest *m, struct pb_err *err)
{
	const struct ynode *v = ymap_get(m->doc.root, "reproduce");
	size_t i;

	if (!v)
		return 0;
	if (v->len > MANIFEST_MAX_REPRODUCE)
		return pb_fail(err, EX_DATAERR, "%s:%d: 'reproduce' is longer "
			       "than %d bytes", m->doc.name, ynode_line(v),
			       MANIFEST_MAX_REPRODUCE);
	for (i = 0; i < v->len; i++) {
		unsigned char c = (unsigned char)v->str[i];

		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
			return pb_fail(err, EX_DATAERR, "%s:%d: 'reproduce' "
				       "holds a control character",
				       m->doc.name, ynode_line(v));
	}
	m->reproduce = v->str;
	return 0;
}
