// SPDX-License-Identifier: GPL-2.0-only
/*
 * config: whether a systemd unit (read by sdunit.c) lets the service
 * write a path: the unit's mounts (ProtectSystem=, ProtectHome=,
 * PrivateTmp=, the path lists, the longest path first) and User='s
 * permissions; the paths a cycle writes; the installed units that run a
 * given config.
 */
#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfbot/config/sdunit.h"
#include "perfbot/util/fileio.h"
#include "perfbot/util/log.h"
#include "perfbot/util/strbuf.h"

#define RULES_MAX 256
#define GROUPS_MAX 256

static const char *const home_dirs[] = { "/home", "/root", "/run/user" };
static const char *const system_dirs[] = { "/usr", "/boot", "/efi" };

/* 'p' is 'dir' or below it. */
static int under(const char *p, const char *dir)
{
	size_t n = strlen(dir);

	if (!strcmp(dir, "/"))
		return 1;
	return !strncmp(p, dir, n) && (p[n] == '\0' || p[n] == '/');
}

/*
 * 'p' with its nearest existing ancestor's links resolved and the rest
 * appended (what the service would make); '*exist' gets that ancestor.
 */
static char *resolve(const char *p, char **exist)
{
	char *dir = strdup(p), *up, *real = NULL, *full;
	struct stat st;

	*exist = NULL;
	while (dir && stat(dir, &st) && strcmp(dir, "/")) {
		up = path_dirname(dir);
		free(dir);
		dir = up;
	}
	if (dir)
		real = realpath(dir, NULL);
	if (!real) {
		free(dir);
		return NULL;
	}
	full = strlen(dir) < strlen(p) ?
		path_join(real, p + strlen(dir) + (dir[strlen(dir) - 1] != '/')) :
		strdup(real);
	free(dir);
	*exist = real;
	return full;
}

/* The rule that decides 'p', or NULL: the longest path, then RO first. */
static const struct sd_rule *deciding(const struct sd_rule *r, size_t n,
				      const char *p)
{
	const struct sd_rule *best = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!under(p, r[i].path))
			continue;
		if (!best || strlen(r[i].path) > strlen(best->path) ||
		    (strlen(r[i].path) == strlen(best->path) &&
		     r[i].mode > best->mode))
			best = &r[i];
	}
	return best;
}

/*
 * The rules of the Protect*= settings, then the unit's own, resolved
 * (allocated from '*fixed' on, also when it fails: free_rules()).
 */
static int all_rules(const struct sdunit *u, struct sd_rule *r, size_t *n,
		     size_t *fixed)
{
	static const char *const ps[] = { NULL, "ProtectSystem=yes",
		"ProtectSystem=full", "ProtectSystem=strict" };
	static const char *const ph[] = { NULL, "ProtectHome=yes",
		"ProtectHome=read-only", "ProtectHome=tmpfs" };
	size_t i, k = 0;
	char *real;
	char *ex;

	if (u->protect_system == 3)
		r[k++] = (struct sd_rule){ (char *)"/", SD_RO, ps[3] };
	for (i = 0; u->protect_system && u->protect_system < 3 && i < 3; i++)
		r[k++] = (struct sd_rule){ (char *)system_dirs[i], SD_RO,
					   ps[u->protect_system] };
	if (u->protect_system == 2)
		r[k++] = (struct sd_rule){ (char *)"/etc", SD_RO, ps[2] };
	for (i = 0; u->protect_home && i < 3; i++)
		r[k++] = (struct sd_rule){ (char *)home_dirs[i],
			u->protect_home == 2 ? SD_RO : SD_HIDDEN,
			ph[u->protect_home] };
	*fixed = *n = k;
	for (i = 0; i < u->nrules; i++) {
		real = resolve(u->rules[i].path, &ex);
		free(ex);
		r[k] = u->rules[i];
		r[k++].path = real ? real : strdup(u->rules[i].path);
		*n = k;
		if (!r[k - 1].path)
			return -1;
	}
	return 0;
}

static void free_rules(struct sd_rule *r, size_t fixed, size_t n)
{
	size_t i;

	for (i = fixed; i < n; i++)
		free(r[i].path);
}

/* Why the unit's mounts stop the service writing 'p', or NULL. */
static const char *mount_why(const struct sdunit *u, const char *p,
			     char *buf, size_t len, int *managed)
{
	struct sd_rule r[RULES_MAX + 16];
	const struct sd_rule *d;
	size_t n = 0, fixed = 0, i;
	const char *why = NULL;

	if (u->private_tmp && (under(p, "/tmp") || under(p, "/var/tmp")))
		return "PrivateTmp=yes gives the service a /tmp and /var/tmp "
			"of its own, which no other program sees and which "
			"go with each run";
	if (all_rules(u, r, &n, &fixed)) {
		free_rules(r, fixed, n);
		return "out of memory";
	}
	for (i = 0; i < n && !why; i++)
		if (r[i].mode == SD_HIDDEN && under(p, r[i].path)) {
			snprintf(buf, len, "%s hides '%s' from the service",
				 r[i].setting, r[i].path);
			why = buf;
		}
	d = why ? NULL : deciding(r, n, p);
	/* systemd makes these and gives them to User= */
	*managed = d && strstr(d->setting, "Directory");
	if (d && d->mode == SD_RO) {
		snprintf(buf, len, "%s makes it read-only, and it is not "
			 "below one of ReadWritePaths=%s", d->setting,
			 u->rw_paths ? u->rw_paths : "");
		why = buf;
	}
	free_rules(r, fixed, n);
	return why;
}

static int in_groups(gid_t g, const gid_t *gs, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (gs[i] == g)
			return 1;
	return 0;
}

/* The permission bits of 'st' that 'uid' (in groups 'gs') has: rwx. */
static unsigned bits(const struct stat *st, uid_t uid, const gid_t *gs, int n)
{
	if (uid == 0)
		return 7;
	if (st->st_uid == uid)
		return (st->st_mode >> 6) & 7;
	if (in_groups(st->st_gid, gs, n))
		return (st->st_mode >> 3) & 7;
	return st->st_mode & 7;
}

/* User= may search down to 'dir' and write in it: NULL, or why not. */
static const char *user_why(const struct sdunit *u, const char *dir,
			    char *buf, size_t len)
{
	struct passwd *pw = u->user ? getpwnam(u->user) : NULL;
	gid_t gs[GROUPS_MAX];
	int n = GROUPS_MAX;
	struct stat st;
	char *p, *up;
	unsigned want = 3;	/* write and search in 'dir' itself */

	if (!pw || pw->pw_uid == geteuid())
		return NULL;	/* a user missing: sdunit_user_check() */
	if (getgrouplist(u->user, pw->pw_gid, gs, &n) < 0)
		n = 0;
	for (p = strdup(dir); p; want = 1) {
		if (stat(p, &st) == 0 &&
		    (bits(&st, pw->pw_uid, gs, n) & want) != want) {
			snprintf(buf, len, "its User=%s may not %s '%s' "
				 "(owner %ld:%ld, mode %04o)", u->user,
				 want == 3 ? "write in" : "search", p,
				 (long)st.st_uid, (long)st.st_gid,
				 (unsigned)(st.st_mode & 07777));
			free(p);
			return buf;
		}
		up = strcmp(p, "/") ? path_dirname(p) : NULL;
		free(p);
		p = up;
	}
	return NULL;
}

int sdunit_may_write(const struct sdunit *u, const char *key,
		     const char *dir, struct pb_err *err)
{
	char buf[1024];
	char *exist = NULL, *p = resolve(dir, &exist);
	const char *why;
	int managed = 0;

	if (!p) {
		free(exist);
		return pb_fail(err, EX_CONFIG, "%s: '%s': %s", key, dir,
			       strerror(errno ? errno : ENOENT));
	}
	why = mount_why(u, p, buf, sizeof(buf), &managed);
	if (!why && !managed)
		why = user_why(u, exist, buf, sizeof(buf));
	free(p);
	free(exist);
	if (!why)
		return 0;
	return pb_fail(err, EX_CONFIG, "%s: '%s': the unit %s does not let "
		       "perfbot write there: %s (change the unit, or %s)",
		       key, dir, u->path, why, key);
}

int sdunit_user_check(const struct sdunit *u, struct pb_err *err)
{
	if (!u->user || u->dynamic_user || getpwnam(u->user))
		return 0;
	return pb_fail(err, EX_CONFIG, "%s: User=%s: no such user, so "
		       "systemd will not start it (useradd --system %s)",
		       u->path, u->user, u->user);
}

static int add_written(const char **key, char **dir, size_t *n, size_t max,
		       const char *k, char *d)
{
	if (*n >= max || !d) {
		free(d);
		return -1;
	}
	key[*n] = k;
	dir[(*n)++] = d;
	return 0;
}

size_t sdunit_written(const struct config *cfg, const char *state,
		      const char **key, char **dir, size_t max)
{
	const struct cfg_scheduler *sc = &cfg->scheduler;
	size_t n = 0;

	if (state && add_written(key, dir, &n, max, "state",
				 path_dirname(state)))
		return n;
	if (sc->backend && !strcmp(sc->backend, "spool") && sc->spool_dir &&
	    add_written(key, dir, &n, max, "scheduler.spool_dir",
			strdup(sc->spool_dir)))
		return n;
	if (sc->results_dir)
		add_written(key, dir, &n, max, "scheduler.results_dir",
			    strdup(sc->results_dir));
	return n;
}

static int unit_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return !strncmp(d->d_name, "perfbot", 7) && n > 8 &&
		!strcmp(d->d_name + n - 8, ".service");
}

/* The unit 'path' runs perfbot with the config whose real path is 'want'. */
static int runs_config(const char *path, const char *want)
{
	struct pb_err e = { 0, "" };
	struct sdunit u;
	char *real;
	int yes;

	if (sdunit_load(&u, path, &e)) {
		log_debug("%s", e.msg);
		return 0;
	}
	real = u.command ? realpath(u.config ? u.config :
				    "/etc/perfbot/perfbot.yaml", NULL) : NULL;
	yes = real && !strcmp(real, want);
	free(real);
	sdunit_release(&u);
	return yes;
}

/* 'name' found in an earlier directory of 'dirs' than 'i'. */
static int hidden(const char *const *dirs, size_t i, const char *name)
{
	struct stat st;
	char *p;
	int found = 0;

	while (i-- && !found) {
		p = path_join(dirs[i], name);
		found = p && stat(p, &st) == 0;
		free(p);
	}
	return found;
}

int sdunit_find(const char *const *dirs, const char *config, char ***paths,
		struct pb_err *err)
{
	struct dirent **ents = NULL;
	char *want = realpath(config, NULL), *p, **v = NULL, **nv;
	size_t i;
	int n = 0, k, m;

	*paths = NULL;
	if (!want)
		return pb_fail(err, EX_CONFIG, "'%s': %s", config,
			       strerror(errno));
	for (i = 0; dirs[i]; i++) {
		m = scandir(dirs[i], &ents, unit_name, alphasort);
		for (k = 0; k < m; k++) {
			p = hidden(dirs, i, ents[k]->d_name) ? NULL :
				path_join(dirs[i], ents[k]->d_name);
			if (p && runs_config(p, want) &&
			    (nv = realloc(v, (n + 2) * sizeof(*v)))) {
				v = nv;
				v[n++] = p;
				v[n] = NULL;
			} else {
				free(p);
			}
			free(ents[k]);
		}
		free(ents);
		ents = NULL;
	}
	free(want);
	*paths = v;
	return n;
}
