// SPDX-License-Identifier: GPL-2.0-only
/*
 * web: the archive's directory (tree.h): DIR a symbolic link to the tree
 * DIR.<n> beside it, a new tree built next to it (unchanged pages hard
 * links to the old tree's), synced, and put in place by renaming a new
 * link over DIR; the manifest that tells the next build what it may keep.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfbot/util/fileio.h"
#include "perfbot/util/strmap.h"
#include "perfbot/web/tree.h"

#define MANIFEST ".perfbot-web.json"
#define MANIFEST_MAX ((size_t)256 << 20)
#define MANIFEST_VERSION 1
#define RECORD_MAX ((size_t)64 << 10)
#define FREE_TRIES 1000

void site_hash(const void *data, size_t len, char *buf)
{
	snprintf(buf, 17, "%016llx", hash_fnv1a(data, len, 0));
}

/* "<a>.<suffix>" or "<a>/<b>", newly allocated. */
static char *join(const char *a, char sep, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s%c%s", a, sep, b);
	return p;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void rmtree(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int lock(struct site_tree *t, struct pb_err *err)
{
	char *path = join(t->out, '.', "lock");
	int fd = path ? open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644) : -1;

	if (fd < 0) {
		pb_fail(err, EX_CANTCREAT, "%s: %s", path ? path : t->out,
			path ? strerror(errno) : "out of memory");
		free(path);
		return -1;
	}
	free(path);
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		close(fd);
		return pb_fail(err, EX_TEMPFAIL, "%s: another 'perfbot web' is "
			       "building it; try again later", t->out);
	}
	t->lock_fd = fd;
	return 0;
}

/* <n> of "<base>.<n>" (0 when 'name' is no tree of 'base'). */
static unsigned long gen_of(const char *name, const char *base)
{
	size_t n = strlen(base);
	unsigned long g = 0;
	const char *p;

	if (strncmp(name, base, n) || name[n] != '.' || !name[n + 1])
		return 0;
	for (p = name + n + 1; *p; p++) {
		if (*p < '0' || *p > '9' || g > ULONG_MAX / 10 - 10)
			return 0;
		g = g * 10 + (unsigned long)(*p - '0');
	}
	return g;
}

/* The base name of DIR, and where its trees are. */
static const char *base_of(const char *out)
{
	const char *b = strrchr(out, '/');

	return b ? b + 1 : out;
}

/* What DIR is now: missing, a build's link (its tree), an empty dir. */
static int current(struct site_tree *t, struct pb_err *err)
{
	char target[PATH_MAX], *dir;
	struct stat sb;
	ssize_t n;

	if (lstat(t->out, &sb))
		return errno == ENOENT ? 0 : pb_fail(err, EX_CANTCREAT,
						     "%s: %s", t->out,
						     strerror(errno));
	if (S_ISDIR(sb.st_mode) && !rmdir(t->out))
		return 0;	/* empty: nothing to lose */
	n = S_ISLNK(sb.st_mode) ? readlink(t->out, target, sizeof(target) - 1)
		: -1;
	if (n > 0)
		target[n] = '\0';
	if (n <= 0 || strchr(target, '/') ||
	    !(t->gen = gen_of(target, base_of(t->out))))
		return pb_fail(err, EX_CANTCREAT, "%s: not a site 'perfbot web' "
			       "made (a link to the tree %s.N beside it); "
			       "remove it or choose another --out", t->out,
			       base_of(t->out));
	dir = path_dirname(t->out);
	t->old_dir = dir ? path_join(dir, target) : NULL;
	free(dir);
	return t->old_dir ? 0 : pb_fail(err, EX_OSERR, "out of memory");
}

/* The old tree's manifest; any problem is an empty one. */
static void read_old(struct site_tree *t)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = t->old_dir ? path_join(t->old_dir, MANIFEST) : NULL;
	json_t *v;

	if (path && !file_read(path, MANIFEST_MAX, 1, &sb, NULL))
		t->old = json_loadb(sb_str(&sb), sb.len, 0, NULL);
	v = json_object_get(t->old, "version");
	if (!json_is_integer(v) || json_integer_value(v) != MANIFEST_VERSION) {
		json_decref(t->old);
		t->old = json_object();
	}
	free(path);
	sb_release(&sb);
}

/*
 * The record of the trees the builds made (DIR.builds, a name a line):
 * only those are ever removed or built over, so that a DIR.<digits> of
 * someone else's beside DIR (a user's site.2024/, a file site.7) is left
 * alone. 1 when 'name' is in it.
 */
static int recorded(struct site_tree *t, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = join(t->out, '.', "builds");
	const char *p, *nl;
	size_t n = strlen(name);
	int found = 0;

	if (path && !file_read(path, RECORD_MAX, 1, &sb, NULL))
		for (p = sb_str(&sb); *p && !found; p = nl ? nl + 1 : "") {
			nl = strchr(p, '\n');
			found = (size_t)((nl ? nl : p + strlen(p)) - p) == n &&
				!strncmp(p, name, n);
		}
	free(path);
	sb_release(&sb);
	return found;
}

/* 'name' added to the record, on disk before the tree is made. */
static int record_add(struct site_tree *t, const char *name,
		      struct pb_err *err)
{
	char *path = join(t->out, '.', "builds");
	int fd = path ? open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC,
			     0644) : -1;
	size_t n = strlen(name);
	int rc = fd < 0 || write(fd, name, n) != (ssize_t)n ||
		 write(fd, "\n", 1) != 1 || fsync(fd);

	if (rc)
		pb_fail(err, EX_CANTCREAT, "%s: %s", path ? path : t->out,
			path ? strerror(errno) : "out of memory");
	if (fd >= 0)
		close(fd);
	free(path);
	return rc ? -1 : 0;
}

/*
 * DIR.<n> for the new tree: the next number that is free or that a
 * killed build of ours left (removed first); recorded before it is made.
 */
static int pick_new(struct site_tree *t, struct pb_err *err)
{
	struct stat sb;
	char num[32];
	int i, ours;

	for (i = 0; i < FREE_TRIES; i++) {
		snprintf(num, sizeof(num), "%lu", ++t->gen);
		free(t->new_dir);
		t->new_dir = join(t->out, '.', num);
		if (!t->new_dir)
			return pb_fail(err, EX_OSERR, "out of memory");
		ours = recorded(t, base_of(t->new_dir));
		if (lstat(t->new_dir, &sb) && errno == ENOENT)
			return record_add(t, base_of(t->new_dir), err);
		if (ours) {
			rmtree(t->new_dir);	/* what a killed build left */
			return 0;
		}
	}
	return pb_fail(err, EX_CANTCREAT, "%s: no free name %s.N for the new "
		       "tree", t->out, base_of(t->out));
}

static int make_new(struct site_tree *t, struct pb_err *err)
{
	char *r = NULL, *tc = NULL;
	int rc;

	if (pick_new(t, err))
		return -1;
	r = join(t->new_dir, '/', "r");
	tc = join(t->new_dir, '/', "t");
	rc = !r || !tc || mkdir(t->new_dir, 0755) || mkdir(r, 0755) ||
	     mkdir(tc, 0755);
	if (rc)
		pb_fail(err, EX_CANTCREAT, "%s: %s", t->new_dir,
			r && tc ? strerror(errno) : "out of memory");
	free(r);
	free(tc);
	return rc ? -1 : 0;
}

int site_open(struct site_tree *t, const char *out, struct pb_err *err)
{
	memset(t, 0, sizeof(*t));
	t->lock_fd = -1;
	t->out = strdup(out);
	while (t->out && strlen(t->out) > 1 &&
	       t->out[strlen(t->out) - 1] == '/')
		t->out[strlen(t->out) - 1] = '\0';
	t->pages = json_object();
	t->reports = json_object();
	if (!t->out || !t->pages || !t->reports)
		return pb_fail(err, EX_OSERR, "out of memory");
	if (lock(t, err) || current(t, err))
		return -1;
	read_old(t);
	if (!t->old)
		return pb_fail(err, EX_OSERR, "out of memory");
	return make_new(t, err);
}

static int is_key(const json_t *pages, const char *path, const char *key)
{
	const char *old = json_string_value(json_object_get(pages, path));

	return old && !strcmp(old, key);
}

static int copy_file(const char *from, const char *to)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = file_read(from, MANIFEST_MAX, 0, &sb, NULL) ||
		 file_write_atomic(to, sb_str(&sb), sb.len, 0644, NULL);

	sb_release(&sb);
	return rc ? -1 : 0;
}

/* The old tree's 'path' into the new tree: a hard link, else a copy. */
static int carry(struct site_tree *t, const char *path)
{
	char *from = path_join(t->old_dir, path), *to = path_join(t->new_dir,
								  path);
	int rc = -1;

	if (from && to)
		rc = link(from, to) && copy_file(from, to) ? -1 : 0;
	free(from);
	free(to);
	return rc;
}

int site_note_page(struct site_tree *t, const char *path, const char *key,
		   struct pb_err *err)
{
	if (json_object_set_new(t->pages, path, json_string(key)))
		return pb_fail(err, EX_OSERR, "out of memory");
	return 0;
}

int site_keep(struct site_tree *t, const char *path, const char *key,
	      int *kept, struct pb_err *err)
{
	*kept = t->old_dir &&
		is_key(json_object_get(t->old, "pages"), path, key) &&
		!carry(t, path);
	if (!*kept)
		return 0;
	t->kept++;
	return site_note_page(t, path, key, err);
}

int site_write(struct site_tree *t, const char *path, const char *data,
	       size_t len, struct pb_err *err)
{
	char *to = path_join(t->new_dir, path);
	ssize_t w = 0;
	size_t done = 0;
	int fd = to ? open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644) :
		-1;

	while (fd >= 0 && done < len &&
	       ((w = write(fd, data + done, len - done)) > 0 || errno == EINTR))
		done += w > 0 ? (size_t)w : 0;
	if (fd < 0 || done < len || close(fd)) {
		pb_fail(err, EX_IOERR, "%s: %s", to ? to : path,
			to ? strerror(errno) : "out of memory");
		if (fd >= 0 && done < len)
			close(fd);
		free(to);
		return -1;
	}
	free(to);
	return 0;
}

int site_page(struct site_tree *t, const char *path, const char *key,
	      const char *data, size_t len, struct pb_err *err)
{
	char hash[17];
	int kept;

	if (!key) {
		site_hash(data, len, hash);
		key = hash;
	}
	if (site_keep(t, path, key, &kept, err))
		return -1;
	if (kept)
		return 0;
	if (site_write(t, path, data, len, err))
		return -1;
	t->written++;
	return site_note_page(t, path, key, err);
}

const json_t *site_old_report(const struct site_tree *t, const char *id)
{
	return json_object_get(json_object_get(t->old, "reports"), id);
}

int site_note_report(struct site_tree *t, const char *id, json_t *summary,
		     struct pb_err *err)
{
	if (!summary || json_object_set_new(t->reports, id, summary))
		return pb_fail(err, EX_OSERR, "out of memory");
	return 0;
}

static int write_manifest(struct site_tree *t, struct pb_err *err)
{
	json_t *m = json_pack("{s:i, s:O, s:O}", "version", MANIFEST_VERSION,
			      "pages", t->pages, "reports", t->reports);
	char *text = m ? json_dumps(m, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
	int rc;

	json_decref(m);
	if (!text)
		return pb_fail(err, EX_OSERR, "out of memory");
	rc = site_write(t, MANIFEST, text, strlen(text), err);
	free(text);
	return rc;
}

/* Every file of the new tree on disk before any reader is sent there. */
static int sync_dir(const char *dir, int all, struct pb_err *err)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc;

	if (fd < 0)
		return pb_fail(err, EX_IOERR, "%s: %s", dir, strerror(errno));
	rc = all ? syncfs(fd) : fsync(fd);
	close(fd);
	return rc ? pb_fail(err, EX_IOERR, "%s: sync: %s", dir,
			    strerror(errno)) : 0;
}

/* DIR -> DIR.<n>, by renaming a new link over it. */
static int swap(struct site_tree *t, struct pb_err *err)
{
	char *tmp = join(t->out, '.', "link");
	const char *target = base_of(t->new_dir);
	int rc;

	if (!tmp)
		return pb_fail(err, EX_OSERR, "out of memory");
	unlink(tmp);
	rc = symlink(target, tmp) || rename(tmp, t->out);
	if (rc) {
		pb_fail(err, EX_CANTCREAT, "%s: %s", t->out, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	return rc ? -1 : 0;
}

/*
 * The old tree, and any other DIR.<n> a build of ours made (a killed
 * one's): those of the record and the tree DIR showed, nothing else.
 * The record then holds the new tree alone.
 */
static void remove_old(struct site_tree *t, const char *parent)
{
	const char *base = base_of(t->out), *mine = base_of(t->new_dir);
	char *rec = join(t->out, '.', "builds"), *p, *line;
	struct dirent *de;
	DIR *d = opendir(parent);

	while (d && (de = readdir(d))) {
		if (!gen_of(de->d_name, base) || !strcmp(de->d_name, mine) ||
		    (!recorded(t, de->d_name) && (!t->old_dir ||
		     strcmp(de->d_name, base_of(t->old_dir)))))
			continue;
		if ((p = path_join(parent, de->d_name))) {
			rmtree(p);
			free(p);
		}
	}
	if (d)
		closedir(d);
	line = join(mine, '\n', "");
	if (rec && line)	/* else the next build removes more of ours */
		file_write_atomic(rec, line, strlen(line), 0644, NULL);
	free(line);
	free(rec);
}

int site_commit(struct site_tree *t, struct pb_err *err)
{
	char *parent = path_dirname(t->out);
	int rc;

	if (!parent)
		return pb_fail(err, EX_OSERR, "out of memory");
	rc = write_manifest(t, err) || sync_dir(t->new_dir, 1, err) ||
	     swap(t, err) || sync_dir(parent, 0, err);
	if (!rc) {
		t->committed = 1;
		remove_old(t, parent);
	}
	free(parent);
	return rc ? -1 : 0;
}

void site_release(struct site_tree *t)
{
	if (t->new_dir && !t->committed)
		rmtree(t->new_dir);
	if (t->lock_fd > 0)
		close(t->lock_fd);
	free(t->out);
	free(t->old_dir);
	free(t->new_dir);
	json_decref(t->old);
	json_decref(t->pages);
	json_decref(t->reports);
	memset(t, 0, sizeof(*t));
}
