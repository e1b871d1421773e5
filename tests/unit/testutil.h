/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers shared by the unit tests (tests/unit/test_*.c), header-only:
 * each test binary is one .c file, so everything here is static inline.
 * The helpers that check call cmocka's fail_msg()/assert_*(), so they
 * belong in tests and fixtures. Run the tests from the repository root.
 */
#ifndef PERFBOT_TESTUTIL_H
#define PERFBOT_TESTUTIL_H

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfbot/compare/compare.h"
#include "perfbot/config/config.h"
#include "perfbot/state/state.h"
#include "perfbot/util/fileio.h"
#include "perfbot/util/strbuf.h"

#include "teststate.h"

/* The test web server (tests/tools/httpd.c): 'make build/tools/httpd'. */
#define TU_HTTPD "build/tools/httpd"

/* ---- temporary directories and paths ---- */

/* A new directory /tmp/<tag>.XXXXXX in 'buf' (mkdtemp); 'buf', or NULL. */
static inline char *tu_tmpdir(char *buf, size_t n, const char *tag)
{
	int len = snprintf(buf, n, "/tmp/%s.XXXXXX", tag);

	if (len < 0 || (size_t)len >= n)
		return NULL;
	return mkdtemp(buf);
}

/* nftw() callback of tu_rmtree(): remove one entry. */
static inline int tu_rm_one(const char *path, const struct stat *st,
			    int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* nftw() callback of tu_rmtree_force(): make it ours (0700), remove it. */
static inline int tu_rm_one_force(const char *path, const struct stat *st,
				  int flag, struct FTW *ftw)
{
	chmod(path, 0700);
	return tu_rm_one(path, st, flag, ftw);
}

/* Remove 'dir' and everything below it (links not followed). */
static inline int tu_rmtree(const char *dir)
{
	return nftw(dir, tu_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* tu_rmtree(), chmod-ing each entry 0700 first (for mode tests). */
static inline int tu_rmtree_force(const char *dir)
{
	return nftw(dir, tu_rm_one_force, 16, FTW_DEPTH | FTW_PHYS);
}

/* calloc(1, size) with a new tu_tmpdir() in the 'dir_len' bytes at 'dir_off'. */
static inline void *tu_calloc_tmpdir(size_t size, size_t dir_off,
				     size_t dir_len, const char *tag)
{
	char *p = calloc(1, size);

	if (p && !tu_tmpdir(p + dir_off, dir_len, tag)) {
		free(p);
		return NULL;
	}
	return p;
}

/* A zeroed 'type' whose member 'char dir[]' is a new temporary directory. */
#define TU_NEW_FX(type, tag)						\
	((type *)tu_calloc_tmpdir(sizeof(type), offsetof(type, dir),	\
				  sizeof(((type *)NULL)->dir), (tag)))

/* '<dir>/<name>' into 'buf' (the test fails when it does not fit). */
static inline const char *tu_path(char *buf, size_t n, const char *dir,
				  const char *name)
{
	int len = snprintf(buf, n, "%s/%s", dir, name);

	if (len < 0 || (size_t)len >= n)
		fail_msg("path '%s/%s' longer than %zu", dir, name, n - 1);
	return buf;
}

/* A fixture of a temporary directory and a state in it, opened to write. */
struct tu_state_fx {
	char dir[64];
	char path[128];
	struct state *st;
	struct pb_err err;
};

static inline int tu_state_setup(void **state, const char *tag)
{
	struct tu_state_fx *f = TU_NEW_FX(struct tu_state_fx, tag);

	if (!f)
		return -1;
	tu_path(f->path, sizeof(f->path), f->dir, "state.db");
	/* the file, or a schema of its own on PostgreSQL (teststate.h) */
	if (tu_state_open(&f->st, f->path, STATE_WRITE, &f->err)) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static inline int tu_state_teardown(void **state)
{
	struct tu_state_fx *f = *state;

	state_close(f->st);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

/* The names in 'dir' but '.', '..' and 'skip' (or NULL), sorted, '|'-joined. */
static inline void tu_names(const char *dir, const char *skip,
			    struct strbuf *sb)
{
	struct dirent **list;
	int i, n = scandir(dir, &list, NULL, alphasort);

	assert_true(n >= 0);
	sb_init(sb, 4096);
	for (i = 0; i < n; i++) {
		if (strcmp(list[i]->d_name, ".") &&
		    strcmp(list[i]->d_name, "..") &&
		    (!skip || strcmp(list[i]->d_name, skip)))
			assert_int_equal(sb_addf(sb, "%s%s", sb->len ? "|" : "",
					list[i]->d_name), 0);
		free(list[i]);
	}
	free(list);
}

/* ---- files ---- */

/* Write 'len' bytes to 'path' (file_write_atomic, 'mode'), or fail the test. */
static inline void tu_write_n(const char *path, const void *data, size_t len,
			      unsigned mode)
{
	struct pb_err err = { 0, "" };

	if (file_write_atomic(path, data, len, mode, &err))
		fail_msg("%s", err.msg);
}

/* Write the string 'text' to 'path' with 'mode', or fail the test. */
static inline void tu_write(const char *path, const char *text,
			    unsigned mode)
{
	tu_write_n(path, text, strlen(text), mode);
}

/* Write the string 'text' to '<dir>/<name>' with 'mode', or fail the test. */
static inline void tu_put(const char *dir, const char *name, const char *text,
			  unsigned mode)
{
	char path[PATH_MAX];

	tu_write(tu_path(path, sizeof(path), dir, name), text, mode);
}

/* Read the text file 'path' (at most 1 MiB) into a new 'sb', or fail. */
static inline void tu_read_text(const char *path, struct strbuf *sb)
{
	struct pb_err err;

	sb_init(sb, 1 << 20);
	if (file_read(path, 1 << 20, 1, sb, &err))
		fail_msg("%s", err.msg);
}

/* Point fd 2 at 'path' (truncated, 0600); the old fd 2 goes to '*saved'. */
static inline void tu_stderr_capture(const char *path, int *saved)
{
	int fd;

	fflush(stderr);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	*saved = dup(STDERR_FILENO);
	assert_true(*saved >= 0);
	assert_int_equal(dup2(fd, STDERR_FILENO), STDERR_FILENO);
	close(fd);
}

/* Put back the fd 2 kept in '*saved' by tu_stderr_capture() (if any). */
static inline void tu_stderr_restore(int *saved)
{
	if (*saved < 0)
		return;
	fflush(stderr);
	dup2(*saved, STDERR_FILENO);
	close(*saved);
	*saved = -1;
}

/* ---- configuration, rules, result roots ---- */

/* Write 'yaml' to 'path' (0600) and load it into 'cfg', or fail the test. */
static inline void tu_load_config(struct config *cfg, int *loaded,
				  const char *path, const char *yaml,
				  struct pb_err *err)
{
	tu_write(path, yaml, 0600);
	if (*loaded)
		config_release(cfg);
	*loaded = 0;
	if (config_load(cfg, path, err))
		fail_msg("config: %s", err->msg);
	*loaded = 1;
}

/* Write 'text' to 'path' (0600) and load it as '*r', freeing the old. */
static inline void tu_load_rules(struct rules **r, const char *path,
				 const char *text)
{
	struct pb_err err = { 0, "" };

	tu_write(path, text, 0600);
	rules_free(*r);
	*r = NULL;
	if (rules_load(r, path, &err))
		fail_msg("rules_load: %s", err.msg);
}

/* Parse the matrix.json text 'json' into a fresh 'rr', or fail the test. */
static inline void tu_parse_root(struct result_root *rr, const char *json)
{
	struct pb_err err = { 0, "" };

	memset(rr, 0, sizeof(*rr));
	if (result_root_parse_matrix(rr, "test", json, strlen(json), &err))
		fail_msg("matrix: %s", err.msg);
}

/* Parse 'base' and 'head' into 'root' and compare them into 'c', or fail. */
static inline void tu_compare(struct comparison *c, struct result_root *root,
			      const char *base, const char *head,
			      const struct rules *r)
{
	struct pb_err err = { 0, "" };

	tu_parse_root(&root[BASE], base);
	tu_parse_root(&root[HEAD], head);
	if (compare_roots(c, &root[BASE], &root[HEAD], r, &err))
		fail_msg("compare_roots: %s", err.msg);
}

/* Release what tu_compare() filled in. */
static inline void tu_compare_release(struct comparison *c,
				      struct result_root *root)
{
	comparison_release(c);
	result_root_release(&root[BASE]);
	result_root_release(&root[HEAD]);
}

/* The row 'name' of comparison 'c'; the test fails when there is none. */
static inline const struct cmp_row *tu_row(const struct comparison *c,
					   const char *name)
{
	const struct cmp_row *row = comparison_find(c, name);

	if (!row)
		fail_msg("no row '%s'", name);
	return row;
}

/* ---- build/tools/httpd ---- */

/* Start httpd serving 'dir' ('*pid'); 0 once it wrote <dir>/port, or -1. */
static inline int tu_httpd_start(const char *dir, pid_t *pid)
{
	char port[PATH_MAX];
	int i;

	if (access(TU_HTTPD, X_OK)) {
		fprintf(stderr, "%s: not built; run 'make %s'\n", TU_HTTPD,
			TU_HTTPD);
		return -1;
	}
	*pid = fork();
	if (*pid < 0)
		return -1;
	if (*pid == 0) {
		execl(TU_HTTPD, "httpd", dir, (char *)NULL);
		_exit(127);
	}
	tu_path(port, sizeof(port), dir, "port");
	for (i = 0; i < 500 && access(port, F_OK); i++)
		usleep(10000);
	return access(port, F_OK) ? -1 : 0;
}

/* The port httpd wrote to <dir>/port, or 0 when it cannot be read. */
static inline long tu_httpd_port(const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	struct pb_err err;
	char path[PATH_MAX];
	long port = 0;

	tu_path(path, sizeof(path), dir, "port");
	if (!file_read(path, 64, 1, &sb, &err))
		port = strtol(sb_str(&sb), NULL, 10);
	sb_release(&sb);
	return port;
}

/* Stop the httpd of '*pid' (if started) and reap it. */
static inline void tu_httpd_stop(pid_t *pid)
{
	if (*pid <= 0)
		return;
	kill(*pid, SIGTERM);
	waitpid(*pid, NULL, 0);
	*pid = 0;
}

#endif /* PERFBOT_TESTUTIL_H */
