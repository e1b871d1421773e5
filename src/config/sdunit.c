// SPDX-License-Identifier: GPL-2.0-only
/*
 * config: what a systemd service unit lets perfbot write. 'perfbot check'
 * reads the unit (given, or the installed one that runs this config) and
 * says, before a retest fails with "Read-only file system", that a path
 * the config names is one the unit does not let the service write.
 * systemd's own rules, as far as they decide a path: ProtectSystem=
 * makes /usr, /boot, /efi (yes), also /etc (full) or everything (strict)
 * read-only; ProtectHome= hides /home, /root and /run/user (yes, tmpfs)
 * or makes them read-only; PrivateTmp= gives the service a /tmp of its
 * own; ReadWritePaths=, ReadOnlyPaths= and the State/Cache/Logs/
 * RuntimeDirectory= it gets decide below that, the longest path first;
 * InaccessiblePaths= hides what is under it whatever is listed below.
 */
#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfbot/config/sdunit.h"
#include "perfbot/util/fileio.h"
#include "perfbot/util/log.h"
#include "perfbot/util/strbuf.h"

#define UNIT_MAX (64 * 1024)
#define RULES_MAX 256
#define WORD_MAX 4096
#define GROUPS_MAX 256

const char *const sdunit_system_dirs[] = {
	"/etc/systemd/system", "/run/systemd/system",
	"/usr/local/lib/systemd/system", "/usr/lib/systemd/system",
	"/lib/systemd/system", NULL,
};

static const char *const home_dirs[] = { "/home", "/root", "/run/user" };
static const char *const system_dirs[] = { "/usr", "/boot", "/efi" };

struct rule_src {
	const char *key;
	enum sd_mode mode;
	const char *prefix;	/* for the ...Directory= settings */
};

static const struct rule_src path_keys[] = {
	{ "ReadWritePaths", SD_RW, NULL },
	{ "ReadOnlyPaths", SD_RO, NULL },
	{ "InaccessiblePaths", SD_HIDDEN, NULL },
	{ "StateDirectory", SD_RW, "/var/lib/" },
	{ "CacheDirectory", SD_RW, "/var/cache/" },
	{ "LogsDirectory", SD_RW, "/var/log/" },
	{ "RuntimeDirectory", SD_RW, "/run/" },
};
#define NPATH_KEYS (sizeof(path_keys) / sizeof(path_keys[0]))

/* 'p' is 'dir' or below it. */
static int under(const char *p, const char *dir)
{
	size_t n = strlen(dir);

	if (!strcmp(dir, "/"))
		return 1;
	return !strncmp(p, dir, n) && (p[n] == '\0' || p[n] == '/');
}

/* systemd's booleans; -1 for a word that is none. */
static int boolean(const char *v)
{
	static const char *const yes[] = { "1", "yes", "y", "true", "t", "on" };
	static const char *const no[] = { "0", "no", "n", "false", "f", "off" };
	size_t i;

	for (i = 0; i < 6; i++) {
		if (!strcasecmp(v, yes[i]))
			return 1;
		if (!strcasecmp(v, no[i]))
			return 0;
	}
	return -1;
}

/* The next word of 's' (quotes as systemd takes them) into 'w'. */
static const char *word(const char *s, char *w, size_t n)
{
	size_t k = 0;
	char q = 0;

	s += strspn(s, " \t");
	if (!*s)
		return NULL;
	for (; *s && (q || (*s != ' ' && *s != '\t')); s++) {
		if (!q && (*s == '"' || *s == '\'')) {
			q = *s;
		} else if (q && *s == q) {
			q = 0;
		} else if (k + 1 < n) {
			w[k++] = *s;
		}
	}
	w[k] = '\0';
	return s;
}

/*
 * The specifiers of the system manager that name directories, expanded;
 * NULL for one that is not known here (that path is then not used).
 */
static char *expand(const char *w)
{
	static const char spec[] = "SCLtETV%";
	static const char *const val[] = { "/var/lib", "/var/cache",
		"/var/log", "/run", "/etc", "/tmp", "/var/tmp", "%" };
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	int bad = 0;

	for (; *w && !bad; w++) {
		if (*w != '%') {
			bad = sb_addc(&sb, *w);
			continue;
		}
		p = w[1] ? strchr(spec, w[1]) : NULL;
		bad = !p || sb_adds(&sb, val[p - spec]);
		w++;
	}
	if (bad) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb, NULL);
}

static int add_rule(struct sdunit *u, char *path, enum sd_mode mode,
		    const char *setting, struct pb_err *err)
{
	struct sd_rule *r;

	if (u->nrules >= RULES_MAX) {
		free(path);
		return pb_fail(err, EX_DATAERR, "%s: more than %d paths",
			       u->path, RULES_MAX);
	}
	r = realloc(u->rules, (u->nrules + 1) * sizeof(*r));
	if (!r) {
		free(path);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	u->rules = r;
	r[u->nrules].path = path;
	r[u->nrules].mode = mode;
	r[u->nrules++].setting = setting;
	return 0;
}

/* An empty assignment resets the list, as systemd does. */
static void drop_rules(struct sdunit *u, const char *setting)
{
	size_t i, k = 0;

	for (i = 0; i < u->nrules; i++) {
		if (u->rules[i].setting == setting)
			free(u->rules[i].path);
		else
			u->rules[k++] = u->rules[i];
	}
	u->nrules = k;
}

/*
 * One path of a list: '-' (ignored when missing: the rule is kept, and
 * a missing directory is refused by the caller anyway) and '+' (the
 * root directory: none here) are dropped.
 */
static int path_word(struct sdunit *u, const struct rule_src *k,
		     const char *w, struct pb_err *err)
{
	char *p, *full;

	w += strspn(w, "-+");
	if (!(p = expand(w))) {
		log_debug("%s: %s=%s: a specifier not known here: not used",
			  u->path, k->key, w);
		return 0;
	}
	if (k->prefix) {
		p[strcspn(p, ":")] = '\0';	/* 'dir:link' */
		full = path_join(k->prefix, p);
		free(p);
		if (!full)
			return pb_fail(err, EX_OSERR, "out of memory");
		p = full;
	} else if (p[0] != '/') {
		free(p);
		return pb_fail(err, EX_DATAERR, "%s: %s=: '%s' is not an "
			       "absolute path", u->path, k->key, w);
	}
	return add_rule(u, p, k->mode, k->key, err);
}

static int path_list(struct sdunit *u, const struct rule_src *k,
		     const char *v, struct pb_err *err)
{
	char w[WORD_MAX];
	struct strbuf sb = STRBUF_INIT;

	if (!*v) {
		drop_rules(u, k->key);
		if (k->mode == SD_RW && !k->prefix) {
			free(u->rw_paths);
			u->rw_paths = NULL;
		}
		return 0;
	}
	if (k->mode == SD_RW && !k->prefix) {
		if ((u->rw_paths && (sb_adds(&sb, u->rw_paths) ||
				     sb_addc(&sb, ' '))) ||
		    sb_adds(&sb, v)) {
			sb_release(&sb);
			return pb_fail(err, EX_OSERR, "out of memory");
		}
		free(u->rw_paths);
		u->rw_paths = sb_detach(&sb, NULL);
	}
	while ((v = word(v, w, sizeof(w))))
		if (path_word(u, k, w, err))
			return -1;
	return 0;
}

static int set_str(char **to, const char *v, struct pb_err *err)
{
	free(*to);
	*to = *v ? strdup(v) : NULL;
	return *v && !*to ? pb_fail(err, EX_OSERR, "out of memory") : 0;
}

/* ExecStart=: which perfbot command runs, with which --config. */
static int exec_start(struct sdunit *u, const char *v, struct pb_err *err)
{
	char w[WORD_MAX];
	const char *base;
	int want_config = 0;

	if (u->command)
		return 0;	/* the first that runs perfbot */
	v += strspn(v, " \t@-:+!");
	if (!(v = word(v, w, sizeof(w))))
		return 0;
	base = strrchr(w, '/') ? strrchr(w, '/') + 1 : w;
	if (strcmp(base, "perfbot") && strcmp(base, "perfbot-full"))
		return 0;
	while ((v = word(v, w, sizeof(w)))) {
		if (want_config) {
			if (set_str(&u->config, w, err))
				return -1;
			want_config = 0;
		} else if (!strncmp(w, "--config=", 9)) {
			if (set_str(&u->config, w + 9, err))
				return -1;
		} else if (!strcmp(w, "--config")) {
			want_config = 1;
		} else if (w[0] != '-' && !u->command &&
			   set_str(&u->command, w, err)) {
			return -1;
		}
	}
	if (!u->command)
		return set_str(&u->command, "help", err);
	return 0;
}

/* A setting of several words ('strict', 'read-only') or a boolean. */
static int level(struct sdunit *u, const char *key, const char *v,
		 const char *const *words, int *out, struct pb_err *err)
{
	int b = boolean(v), i;

	if (b >= 0) {
		*out = b;
		return 0;
	}
	for (i = 0; words[i]; i++)
		if (!strcmp(v, words[i])) {
			*out = i + 2;
			return 0;
		}
	return pb_fail(err, EX_DATAERR, "%s: %s=%s: not a value systemd "
		       "takes", u->path, key, v);
}

static int setting(struct sdunit *u, const char *key, const char *v,
		   int *dynamic, struct pb_err *err)
{
	static const char *const ps[] = { "full", "strict", NULL };
	static const char *const ph[] = { "read-only", "tmpfs", NULL };
	static const char *const pt[] = { "disconnected", NULL };
	size_t i;

	for (i = 0; i < NPATH_KEYS; i++)
		if (!strcmp(key, path_keys[i].key))
			return path_list(u, &path_keys[i], v, err);
	if (!strcmp(key, "ProtectSystem"))
		return level(u, key, v, ps, &u->protect_system, err);
	if (!strcmp(key, "ProtectHome"))
		return level(u, key, v, ph, &u->protect_home, err);
	if (!strcmp(key, "PrivateTmp"))
		return level(u, key, v, pt, &u->private_tmp, err);
	if (!strcmp(key, "DynamicUser"))
		return level(u, key, v, pt + 1, dynamic, err);
	if (!strcmp(key, "User"))
		return set_str(&u->user, v, err);
	if (!strcmp(key, "ExecStart")) {
		if (*v)
			return exec_start(u, v, err);
		free(u->command);
		free(u->config);
		u->command = u->config = NULL;
	}
	return 0;
}

static char *trim(char *s)
{
	char *e;

	s += strspn(s, " \t");
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* Lines ending in '\' go on on the next line. */
static void join_lines(char *s)
{
	char *p;

	for (p = s; (p = strchr(p, '\n')); p++) {
		char *b = p;

		if (b > s && b[-1] == '\r')
			b--;
		if (b > s && b[-1] == '\\') {
			b[-1] = ' ';
			memset(b, ' ', (size_t)(p - b) + 1);
		}
	}
}

static int parse(struct sdunit *u, char *text, struct pb_err *err)
{
	char *line, *save = NULL, *eq, *s;
	int service = 0, dynamic = 0;

	join_lines(text);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		s = trim(line);
		if (*s == '#' || *s == ';' || !*s)
			continue;
		if (*s == '[') {
			service = !strcmp(s, "[Service]");
			continue;
		}
		if (!service || !(eq = strchr(s, '=')))
			continue;
		*eq = '\0';
		if (setting(u, trim(s), trim(eq + 1), &dynamic, err))
			return -1;
	}
	u->dynamic_user = dynamic;
	if (dynamic) {	/* as systemd.exec(5) says DynamicUser= implies */
		if (u->protect_system < 3)
			u->protect_system = 3;
		if (!u->protect_home)
			u->protect_home = 2;
		u->private_tmp = 1;
	}
	return 0;
}

int sdunit_load(struct sdunit *u, const char *path, struct pb_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = -1;

	memset(u, 0, sizeof(*u));
	if (!(u->path = strdup(path))) {
		pb_fail(err, EX_OSERR, "out of memory");
		goto out;
	}
	if (file_read(path, UNIT_MAX, 1, &sb, err) || !sb.buf)
		goto out;
	rc = parse(u, sb.buf, err);
out:
	sb_release(&sb);
	if (rc)
		sdunit_release(u);
	return rc;
}

void sdunit_release(struct sdunit *u)
{
	size_t i;

	for (i = 0; i < u->nrules; i++)
		free(u->rules[i].path);
	free(u->rules);
	free(u->path);
	free(u->user);
	free(u->command);
	free(u->config);
	free(u->rw_paths);
	memset(u, 0, sizeof(*u));
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
