// SPDX-License-Identifier: GPL-2.0-only
/*
 * Loading perfbot.yaml: the document read, every key checked against the
 * schema (schema.c) with its line in the message, relative paths made
 * absolute, the password rule, and then the typed settings filled.
 */
#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "schema.h"
#include "perfbot/util/addr.h"
#include "perfbot/util/fileio.h"
#include "perfbot/util/log.h"
#include "perfbot/util/strbuf.h"
#include "perfbot/util/suggest.h"
#include "perfbot/util/text.h"

static int check_node(struct config *cfg, const char *path,
		      struct ynode *node, int line, struct pb_err *err);

/*
 * A problem found while checking: stop at the first, or (CONFIG_ALL_PROBLEMS)
 * print it, count it and go on.
 */
static int problem(struct config *cfg, int rc, struct pb_err *err)
{
	if (!rc || !(cfg->flags & CONFIG_ALL_PROBLEMS) || !err ||
	    err->code == EX_OSERR)
		return rc;
	/* one problem stays the one error line; more are each printed */
	if (cfg->problems == 0)
		snprintf(cfg->first, sizeof(cfg->first), "%s", err->msg);
	else if (cfg->problems == 1)
		log_error("%s", cfg->first);
	if (cfg->problems > 0)
		log_error("%s", err->msg);
	cfg->problems++;
	pb_err_clear(err);
	return 0;
}

static int bad_type(struct config *cfg, const char *path, int line,
		    const char *what, struct pb_err *err)
{
	if (!*path)
		return pb_fail(err, EX_CONFIG, "%s: the file must be a "
			       "mapping of keys", cfg->doc.name);
	return pb_fail(err, EX_CONFIG, "%s:%d: '%s' must be %s",
		       cfg->doc.name, line, path, what);
}

static int unknown_key(struct config *cfg, const char *path, int line,
		       struct pb_err *err)
{
	const char *best = schema_closest(path);

	if (best)
		return pb_fail(err, EX_CONFIG, "%s:%d: unknown key '%s' (did "
			       "you mean '%s'?)", cfg->doc.name, line, path,
			       best);
	return pb_fail(err, EX_CONFIG, "%s:%d: unknown key '%s'",
		       cfg->doc.name, line, path);
}

static int check_map(struct config *cfg, const char *path,
		     struct ynode *node, int line, struct pb_err *err)
{
	struct strbuf sub = STRBUF_INIT;
	size_t i;
	int rc = 0;

	if (!ynode_is(node, Y_MAP))
		return bad_type(cfg, path, line, "a mapping", err);
	for (i = 0; i < node->n; i++) {
		sb_reset(&sub);
		if (sb_addf(&sub, "%s%s%s", path, *path ? "." : "",
			    node->keys[i])) {
			rc = pb_fail(err, EX_OSERR, "out of memory");
			break;
		}
		/* a value's line is its key's */
		rc = problem(cfg, check_node(cfg, sb_str(&sub), node->items[i],
					     ynode_line(node->items[i]), err),
			     err);
		if (rc)
			break;
	}
	sb_release(&sub);
	return rc;
}

/* A relative path made absolute against the config file's directory. */
static int resolve(struct config *cfg, struct ynode *node,
		   struct pb_err *err)
{
	const char *s = ynode_str(node);
	char *p;
	int rc;

	if (!s || !*s || s[0] == '/' || !cfg->dir)
		return 0;
	p = path_join(cfg->dir, s);
	rc = p ? ydoc_set_str(&cfg->doc, node, p, err) :
		pb_fail(err, EX_OSERR, "out of memory");
	free(p);
	return rc;
}

/*
 * Exactly one mailbox, "Name <user@domain>" or user@domain, checked as a
 * manifest's addresses are (util/addr.c): never two, no CR or LF, no
 * control or Unicode separator. NULL, or why not.
 */
static const char *addr_why(const struct ynode *v)
{
	const char *why = NULL;

	addr_check_mailbox_n(v->str, v->len, NULL, 0, &why);
	return why;
}

static int bad_addr(struct config *cfg, const char *path, int line,
		    const char *what, const char *why, struct pb_err *err)
{
	return pb_fail(err, EX_CONFIG, "%s:%d: '%s' must be %s: %s",
		       cfg->doc.name, line, path, what, why);
}

/* A domain name: letters, digits, '-', '.' (no '@', no space). */
static int is_domain(const char *s)
{
	const char *p;

	if (!*s || *s == '.' || *s == '-')
		return 0;
	for (p = s; *p; p++)
		if (!(isalnum((unsigned char)*p) || *p == '-' || *p == '.'))
			return 0;
	return 1;
}

/* commands.allow: an address, or "@domain". */
static const char *allow_why(const struct ynode *v)
{
	const char *s = v->str;

	if (s[0] != '@')
		return addr_why(v);
	return is_domain(s + 1) ? NULL : "not a domain";
}

/*
 * commands.test_repos: a URL pattern a tree test's repository must match
 * (act/test.c): https:// or git://, then a host ('*' is no host), no
 * blank, no control character, no "..", no user or password.
 */
static const char *repo_pattern_why(const struct ynode *v)
{
	const char *s = v->str, *host;
	size_t i, n = strlen(s);

	if (!strncmp(s, "https://", 8))
		host = s + 8;
	else if (!strncmp(s, "git://", 6))
		host = s + 6;
	else
		return "not https:// or git://";
	if (!*host || *host == '/' || *host == '*' || *host == '.')
		return "no host";
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] <= 0x20 || s[i] == 0x7f)
			return "a blank or a control character";
	if (strstr(s, ".."))
		return "'..' in it";
	if (memchr(host, '@', strcspn(host, "/")))
		return "a user in it";
	return NULL;
}

static int check_list(struct config *cfg, const char *path,
		      const struct key *k, struct ynode *node, int line,
		      struct pb_err *err)
{
	struct strbuf item = STRBUF_INIT;
	struct ynode *v;
	const char *why = NULL;
	size_t i;
	int rc = 0;

	if (!ynode_is(node, Y_SEQ))
		return bad_type(cfg, path, line, "a list", err);
	if (sb_addf(&item, "%s[]", path))
		return pb_fail(err, EX_OSERR, "out of memory");
	for (i = 0; i < node->n; i++) {
		/* a null item is named by the list's line */
		int iline = ynode_msg_line(node->items[i]);

		v = node->items[i];
		if (!iline)
			iline = line;
		if (k->type != K_MAPLIST && !ynode_is(v, Y_STR))
			rc = bad_type(cfg, path, iline, "a list of strings",
				      err);
		else if (k->type == K_MAPLIST)
			rc = check_map(cfg, sb_str(&item), v, iline, err);
		else if (k->type == K_ARGV && i == 0 && strchr(v->str, '/'))
			rc = resolve(cfg, v, err);
		else if (k->type == K_PATHLIST)
			rc = resolve(cfg, v, err);
		else if (k->type == K_ADDRLIST && (why = addr_why(v)))
			rc = bad_addr(cfg, path, iline, "a list of mail "
				      "addresses", why, err);
		else if (k->type == K_ALLOW && (why = allow_why(v)))
			rc = bad_addr(cfg, path, iline, "a list of mail "
				      "addresses and @domains", why, err);
		else if (k->type == K_REPOLIST && (why = repo_pattern_why(v)))
			rc = bad_addr(cfg, path, iline, "a list of repository "
				      "URL patterns (https://HOST/... or "
				      "git://HOST/..., '*' for any text)", why,
				      err);
		if (rc)
			break;
	}
	sb_release(&item);
	return rc;
}

/*
 * What makes a URL with a host unusable: a character no URL holds (a
 * blank, a control, '"', '<', '>', '\\', '^', '`', '|': such a value
 * would break out of a page's attribute or a mail's line; '{' '}' are
 * kept for the {placeholders} of identity.archive_url), or a port that
 * is not 1 to 65535. 'host' is just after "://".
 */
static const char *url_why(const char *host)
{
	const char *p, *end = host + strcspn(host, "/?#");
	const char *colon;
	long port = 0;

	for (p = host; *p; p++)
		if ((unsigned char)*p <= 0x20 || *p == 0x7f ||
		    strchr("\"<>\\^`|", *p))
			return "a blank, a control character or one of "
				"\" < > \\ ^ ` | in it";
	for (p = host; p < end; p++)	/* user:password@ is no port */
		if (*p == '@')
			host = p + 1;
	colon = host[0] == '[' ? strstr(host, "]:") : NULL;
	colon = colon ? colon + 1 : memchr(host, ':', (size_t)(end - host));
	if (!colon)
		return NULL;
	for (p = colon + 1; p < end; p++) {
		if (!isdigit((unsigned char)*p))
			return "a port that is not a number";
		port = port * 10 + (*p - '0');
		if (port > 65535)
			break;
	}
	return port >= 1 && port <= 65535 ? NULL :
		"a port out of 1 to 65535";
}

/* One of the words, or a URL of one of the schemes with a host. */
static int check_choice(struct config *cfg, const char *path, int line,
			const struct choice *c, const char *v,
			struct pb_err *err)
{
	const char *sep = c->scheme ? strstr(v, "://") : NULL, *best = NULL;
	struct strbuf list = STRBUF_INIT, word = STRBUF_INIT;
	size_t i;
	int rc = 0;

	if (sb_add(&word, v, sep ? (size_t)(sep - v) : strlen(v)))
		return pb_fail(err, EX_OSERR, "out of memory");
	for (i = 0; i < 4 && c->words[i]; i++) {
		if (strcmp(sb_str(&word), c->words[i])) {
			if (!best && suggest_close(sb_str(&word), c->words[i]))
				best = c->words[i];
		} else if (!c->scheme) {
			goto out;
		} else if (sep && sep[3] && sep[3] != '/' &&
			   url_why(sep + 3)) {
			rc = pb_fail(err, EX_CONFIG, "%s:%d: '%s': '%.64s': %s",
				     cfg->doc.name, line, path, v,
				     url_why(sep + 3));
			goto out;
		} else if (sep && sep[3] && sep[3] != '/') {
			goto out;
		} else {
			rc = pb_fail(err, EX_CONFIG, "%s:%d: '%s': '%.64s' "
				     "has no host (%s://HOST[:PORT])",
				     cfg->doc.name, line, path, v,
				     c->words[i]);
			goto out;
		}
		if (sb_addf(&list, "%s%s%s", i ? ", " : "", c->words[i],
			    c->scheme ? "://HOST" : "")) {
			rc = pb_fail(err, EX_OSERR, "out of memory");
			goto out;
		}
	}
	if (c->scheme && best && sep)
		rc = pb_fail(err, EX_CONFIG, "%s:%d: '%s': '%.64s' is not a "
			     "URL of %s (did you mean '%s://'?)",
			     cfg->doc.name, line, path, v, sb_str(&list),
			     best);
	else if (best)
		rc = pb_fail(err, EX_CONFIG, "%s:%d: '%s': '%.64s' is not one "
			     "of %s (did you mean '%s'?)", cfg->doc.name, line,
			     path, v, sb_str(&list), best);
	else
		rc = pb_fail(err, EX_CONFIG, "%s:%d: '%s': '%.64s' is not %s "
			     "%s", cfg->doc.name, line, path, v,
			     c->scheme ? "a URL of" : "one of", sb_str(&list));
out:
	sb_release(&list);
	sb_release(&word);
	return rc;
}

static int check_string(struct config *cfg, const char *path,
			const struct key *k, struct ynode *node, int line,
			struct pb_err *err)
{
	const char *v = ynode_str(node);
	const struct choice *c = schema_choice(k->type);

	if (!v)
		return bad_type(cfg, path, line, "a string", err);
	if (c)
		return check_choice(cfg, path, line, c, v, err);
	/* 'state:' may be a URI of a state's backend (postgresql://...) */
	if (k->type == K_PATH && !strcmp(path, "state") && strstr(v, "://"))
		return 0;
	if (k->type == K_PATH)
		return resolve(cfg, node, err);
	if (k->type == K_ADDR && addr_why(node))
		return bad_addr(cfg, path, line, "a mail address (\"Name "
				"<user@domain>\" or user@domain)",
				addr_why(node), err);
	if (k->type == K_LINE && text_has_control(v, strlen(v)))
		return bad_type(cfg, path, line, "one line of text, without "
				"control characters", err);
	if (k->type == K_DOMAIN && !is_domain(v))
		return bad_type(cfg, path, line, "a domain name", err);
	if (k->type == K_NAME && (!*v || strchr(v, '/')))
		return bad_type(cfg, path, line, "a template name (not a "
				"path: templates.dir says where)", err);
	return 0;
}

static int check_node(struct config *cfg, const char *path,
		      struct ynode *node, int line, struct pb_err *err)
{
	const struct key *k = schema_find(path);
	char why[96];
	double d;
	long l;
	int b;

	if (!k)
		return unknown_key(cfg, path, line, err);
	switch (k->type) {
	case K_MAP:
		return check_map(cfg, path, node, line, err);
	case K_STRLIST:
	case K_PATHLIST:
	case K_MAPLIST:
	case K_ARGV:
	case K_ADDRLIST:
	case K_ALLOW:
	case K_REPOLIST:
		return check_list(cfg, path, k, node, line, err);
	case K_BOOL:
		return yaml_as_bool(&cfg->doc, node, path, &b, NULL) ?
			bad_type(cfg, path, line, "true or false", err) : 0;
	case K_INT:
		snprintf(why, sizeof(why), "a whole number from %ld to %ld",
			 k->min, k->max);
		return yaml_as_long(&cfg->doc, node, path, k->min, k->max,
				    &l, NULL) ?
			bad_type(cfg, path, line, why, err) : 0;
	case K_PROB:
		return schema_prob(ynode_str(node), &d) ?
			bad_type(cfg, path, line, "a number above 0.5 and "
				 "below 1", err) : 0;
	case K_DURATION:
		snprintf(why, sizeof(why), "a duration (seconds, or with a "
			 "unit: 12h, 30d, 2w) from %lds to %ldd", k->min,
			 k->max / 86400);
		return schema_duration(ynode_str(node), k->min, k->max, &l) ?
			bad_type(cfg, path, line, why, err) : 0;
	default:
		return check_string(cfg, path, k, node, line, err);
	}
}

static int check_secrets(struct config *cfg, struct pb_err *err)
{
	struct stat st;

	if (!ymap_get(ymap_get(cfg->doc.root, "smtp"), "password") &&
	    !ymap_get(ymap_get(cfg->doc.root, "imap"), "password"))
		return 0;
	if (stat(cfg->path, &st))
		return pb_fail(err, EX_CONFIG, "%s: cannot stat", cfg->path);
	if ((st.st_mode & 077) != 0)
		return pb_fail(err, EX_CONFIG,
			       "%s: holds a password but is mode %04o; "
			       "make it 0600 or use password_env, "
			       "password_file or password_command",
			       cfg->path, (unsigned)(st.st_mode & 07777));
	return 0;
}

/*
 * A password comes from one place: two of password, password_env,
 * password_file and password_command set is refused naming both (the
 * first found would be used and the other silently ignored); "state"
 * is the top-level state_password_env and state_password_file.
 */
static int check_secret_sources(struct config *cfg, const char *sec,
				struct pb_err *err)
{
	static const char *const keys[] = { "password", "password_env",
		"password_file", "password_command" };
	int top = !strcmp(sec, "state");
	const struct ynode *map = top ? cfg->doc.root :
		ymap_get(cfg->doc.root, sec), *v;
	const char *dot = top ? "_" : ".", *first = NULL;
	char key[40];
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		snprintf(key, sizeof(key), "%s%s", top ? "state_" : "", keys[i]);
		if (!(v = ymap_get(map, key)))
			continue;
		if (!first && (first = keys[i]))
			continue;
		return pb_fail(err, EX_CONFIG, "%s:%d: '%s%s%s' and '%s%s%s' "
			       "are both set: a password comes from one of "
			       "them, remove the other", cfg->doc.name,
			       ynode_line(v), sec, dot, first, sec, dot,
			       keys[i]);
	}
	return 0;
}

/* smtps:// and imaps:// are implicit TLS; smtp:// and imap:// are not. */
static int check_tls(struct config *cfg, const char *sec, const char *url,
		     enum cfg_tls tls, struct pb_err *err)
{
	static const char *const word[] = { "starttls", "implicit", "none" };
	int implicit = url && !strncmp(url + 4, "s://", 4);
	const struct ynode *map = ymap_get(cfg->doc.root, sec);

	if (!url || implicit == (tls == CFG_TLS_IMPLICIT))
		return 0;
	return pb_fail(err, EX_CONFIG, "%s:%d: '%s.tls' %s does not go with "
		       "the %s URL", cfg->doc.name,
		       ynode_line(ymap_get(map, "url")), sec, word[tls],
		       implicit ? "implicit TLS" : "plain");
}

/* Each source is a directory or a URL: one of the two. */
static int check_sources(struct config *cfg, struct pb_err *err)
{
	const struct ynode *list = ymap_get(cfg->doc.root, "sources");
	size_t i;
	int rc = 0;

	for (i = 0; i < cfg->nsources && !rc; i++)
		if (!cfg->sources[i].dir == !cfg->sources[i].url)
			rc = problem(cfg, pb_fail(err, EX_CONFIG, "%s:%d: "
					      "'sources[%zu]': give 'dir' or "
					      "'url', one of the two",
					      cfg->doc.name,
					      ynode_line(list->items[i]),
					      i + 1), err);
	return rc;
}

/* The absolute directory of the file, for its relative paths. */
static int config_dir(struct config *cfg, struct pb_err *err)
{
	char *dir = path_dirname(cfg->path), real[PATH_MAX];

	if (!dir)
		return pb_fail(err, EX_OSERR, "out of memory");
	if (realpath(dir, real))
		cfg->dir = strdup(real);
	else
		cfg->dir = strdup(dir);
	free(dir);
	return cfg->dir ? 0 : pb_fail(err, EX_OSERR, "out of memory");
}

/* An empty document: every setting its default. */
static int load_defaults(struct config *cfg, struct pb_err *err)
{
	cfg->path = strdup("(defaults)");
	if (!cfg->path || yaml_load_str(cfg->path, "", 0, &cfg->doc, err) ||
	    schema_fill(cfg, err)) {
		config_release(cfg);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	return 0;
}

/* The document is loaded: check it, resolve its paths. */
static int check_doc(struct config *cfg, struct pb_err *err)
{
	/* an empty file sets nothing */
	if ((cfg->doc.root && check_map(cfg, "", cfg->doc.root, 1, err)) ||
	    problem(cfg, check_secrets(cfg, err), err) ||
	    problem(cfg, check_secret_sources(cfg, "smtp", err), err) ||
	    problem(cfg, check_secret_sources(cfg, "imap", err), err) ||
	    problem(cfg, check_secret_sources(cfg, "state", err), err) ||
	    schema_fill(cfg, err) ||
	    problem(cfg, check_tls(cfg, "smtp", cfg->smtp.url, cfg->smtp.tls,
				   err), err) ||
	    problem(cfg, check_tls(cfg, "imap", cfg->imap.url, cfg->imap.tls,
				   err), err) ||
	    check_sources(cfg, err))
		return -1;
	if (cfg->problems == 1)
		return pb_fail(err, EX_CONFIG, "%s", cfg->first);
	if (cfg->problems)
		return pb_fail(err, EX_CONFIG, "%s: %d problems", cfg->path,
			       cfg->problems);
	return 0;
}

int config_load_flags(struct config *cfg, const char *path, unsigned flags,
		      struct pb_err *err)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->flags = flags;
	if (!path)
		return load_defaults(cfg, err);
	cfg->path = strdup(path);
	if (!cfg->path)
		return pb_fail(err, EX_OSERR, "out of memory");
	if (yaml_load_file(path, CONFIG_MAX_BYTES, &cfg->doc, err)) {
		/* a missing or broken configuration is bad configuration */
		if (err && (err->code == EX_DATAERR || err->code == EX_NOINPUT))
			err->code = EX_CONFIG;
		config_release(cfg);
		return -1;
	}
	if (config_dir(cfg, err) || check_doc(cfg, err)) {
		config_release(cfg);
		return -1;
	}
	return 0;
}

int config_parse(struct config *cfg, const char *name, const char *dir,
		 const char *text, size_t len, struct pb_err *err)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->path = strdup(name);
	cfg->dir = dir ? strdup(dir) : NULL;
	if (!cfg->path || (dir && !cfg->dir)) {
		config_release(cfg);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	if (yaml_load_str(name, text, len, &cfg->doc, err)) {
		if (err)
			err->code = EX_CONFIG;
		config_release(cfg);
		return -1;
	}
	if (check_doc(cfg, err)) {
		config_release(cfg);
		return -1;
	}
	return 0;
}

int config_load(struct config *cfg, const char *path, struct pb_err *err)
{
	return config_load_flags(cfg, path, 0, err);
}

void config_release(struct config *cfg)
{
	schema_release(cfg);
	ydoc_release(&cfg->doc);
	free(cfg->path);
	free(cfg->dir);
	memset(cfg, 0, sizeof(*cfg));
}
