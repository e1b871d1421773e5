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

const char *const sdunit_system_dirs[] = {
	"/etc/systemd/system", "/run/systemd/system",
	"/usr/local/lib/systemd/system", "/usr/lib/systemd/system",
	"/lib/systemd/system", NULL,
};


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
