// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cleanup of old result roots ('perfbot state prune'): the farm fills
 * a directory perfbot made under scheduler.results_dir for each test and
 * verify run, and nothing else ever removes them. The state says which
 * ones perfbot made and when their request was over; what is removed is
 * only that, and only when the path is the one perfbot made it at.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfbot/cycle/prune.h"
#include "perfbot/state/prune.h"
#include "perfbot/util/fileio.h"
#include "perfbot/util/log.h"

#define DEPTH_MAX 64

/*
 * Remove what is in the directory 'fd' (of device 'dev'), depth first,
 * never following a link, never leaving the file system; adds the sizes
 * to '*bytes' (counted only, nothing removed, when 'dry'). 0, or -1 with
 * errno.
 */
static int empty_dir(int fd, dev_t dev, int depth, int dry, long long *bytes)
{
	DIR *d = fdopendir(fd);
	struct dirent *e;
	struct stat st;
	int sub, rc = 0;

	if (!d) {
		close(fd);
		return -1;
	}
	while (!rc && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW)) {
			rc = -1;
			break;
		}
		if (S_ISDIR(st.st_mode)) {
			if (st.st_dev != dev || depth >= DEPTH_MAX) {
				errno = st.st_dev != dev ? EXDEV : ELOOP;
				rc = -1;
				break;
			}
			sub = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY |
				     O_NOFOLLOW | O_CLOEXEC);
			rc = sub < 0 ? -1 :
				empty_dir(sub, dev, depth + 1, dry, bytes);
			if (!rc && !dry)
				rc = unlinkat(fd, e->d_name, AT_REMOVEDIR);
		} else {
			*bytes += (long long)st.st_size;
			if (!dry)
				rc = unlinkat(fd, e->d_name, 0);
		}
	}
	closedir(d);
	return rc;
}

/* Remove the directory 'dir' (no link) and what is in it. */
static int remove_tree(const char *dir, int dry, long long *bytes)
{
	struct stat st;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (empty_dir(fd, st.st_dev, 0, dry, bytes))
		return -1;
	return dry ? 0 : rmdir(dir);
}

/* A test's patch, saved beside its result root: a regular file only. */
static void remove_patch(const char *base, const char *rid, int dry,
			 long long *bytes)
{
	char name[512];
	char *p;
	struct stat st;

	snprintf(name, sizeof(name), "%s.patch", rid);
	p = path_join(base, name);
	if (p && !lstat(p, &st) && S_ISREG(st.st_mode)) {
		*bytes += (long long)st.st_size;
		if (!dry && unlink(p))
			log_warn("prune: '%s': %s", p, strerror(errno));
	}
	free(p);
}

/* One result root: 1 removed, 0 left alone (said why), -1 failed. */
static int prune_one(const char *base, const struct done_root *r, int dry,
		     long long *bytes)
{
	char *made = path_join(base, r->request_id);
	struct stat st;
	int rc = 0;

	if (!made)
		return -1;
	if (strcmp(made, r->result_root) || strchr(r->request_id, '/')) {
		log_info("prune: %s '%s': '%s' is not under "
			 "scheduler.results_dir: left alone", r->kind,
			 r->request_id, r->result_root);
	} else if (lstat(made, &st)) {
		rc = errno == ENOENT ? 2 : -1;	/* gone already */
	} else if (!S_ISDIR(st.st_mode)) {
		log_warn("prune: '%s' is no directory perfbot made: left "
			 "alone", made);
	} else if (remove_tree(made, dry, bytes)) {
		log_warn("prune: '%s': %s", made, strerror(errno));
		rc = -1;
	} else {
		remove_patch(base, r->request_id, dry, bytes);
		log_info("prune: %s%s result root '%s' (%s '%s')",
			 dry ? "would remove the " : "removed the ", r->kind,
			 made, r->kind, r->request_id);
		rc = 1;
	}
	free(made);
	return rc;
}

int results_prune(const struct config *cfg, struct state *st, time_t now,
		  int dry, struct prune_stats *ps, struct pb_err *err)
{
	const char *base = cfg->scheduler.results_dir;
	long keep = cfg->scheduler.results_keep;
	struct done_root *v = NULL;
	size_t n = 0, i;
	int rc;

	memset(ps, 0, sizeof(*ps));
	if (!keep)
		return pb_fail(err, EX_CONFIG, "scheduler.results_keep: not "
			       "set, so no result root is ever removed");
	if (!base)
		return pb_fail(err, EX_CONFIG, "scheduler.results_dir: not "
			       "set: perfbot made no result root");
	if (state_done_roots(st, now - keep, &v, &n, err))
		return -1;
	for (i = 0; i < n; i++) {
		rc = prune_one(base, &v[i], dry, &ps->bytes);
		ps->removed += rc == 1;
		ps->skipped += rc == 0 || rc == -1;
	}
	done_roots_free(v, n);
	return 0;
}
