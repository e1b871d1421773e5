// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "perfbot/config.h"
#include "perfbot/strbuf.h"

enum ktype { K_MAP, K_STR, K_BOOL, K_INT, K_STRLIST, K_MAPLIST };

struct key {
	const char *path;	/* "smtp.url"; list items: "sources[].dir" */
	enum ktype type;
	long min, max;		/* K_INT bounds */
};

static const struct key schema[] = {
	{ "identity", K_MAP, 0, 0 },
	{ "identity.from", K_STR, 0, 0 },
	{ "identity.name", K_STR, 0, 0 },
	{ "identity.message_id_domain", K_STR, 0, 0 },
	{ "identity.archive_url", K_STR, 0, 0 },
	{ "identity.reported_by", K_STR, 0, 0 },
	{ "smtp", K_MAP, 0, 0 },
	{ "smtp.url", K_STR, 0, 0 },
	{ "smtp.tls", K_STR, 0, 0 },
	{ "smtp.user", K_STR, 0, 0 },
	{ "smtp.password", K_STR, 0, 0 },
	{ "smtp.password_env", K_STR, 0, 0 },
	{ "smtp.password_file", K_STR, 0, 0 },
	{ "smtp.password_command", K_STRLIST, 0, 0 },
	{ "smtp.ca_file", K_STR, 0, 0 },
	{ "smtp.connect_timeout", K_INT, 1, 3600 },
	{ "smtp.timeout", K_INT, 1, 86400 },
	{ "smtp.batch", K_INT, 1, 100000 },
	{ "imap", K_MAP, 0, 0 },
	{ "imap.url", K_STR, 0, 0 },
	{ "imap.tls", K_STR, 0, 0 },
	{ "imap.user", K_STR, 0, 0 },
	{ "imap.password", K_STR, 0, 0 },
	{ "imap.password_env", K_STR, 0, 0 },
	{ "imap.password_file", K_STR, 0, 0 },
	{ "imap.password_command", K_STRLIST, 0, 0 },
	{ "imap.ca_file", K_STR, 0, 0 },
	{ "imap.mailbox", K_STR, 0, 0 },
	{ "imap.processed_mailbox", K_STR, 0, 0 },
	{ "imap.max_message_bytes", K_INT, 1024, 1L << 30 },
	{ "imap.timeout", K_INT, 1, 3600 },
	{ "state", K_STR, 0, 0 },
	{ "sources", K_MAPLIST, 0, 0 },
	{ "sources[].dir", K_STR, 0, 0 },
	{ "sources[].url", K_STR, 0, 0 },
	{ "recipients", K_MAP, 0, 0 },
	{ "recipients.to_author", K_BOOL, 0, 0 },
	{ "recipients.to", K_STRLIST, 0, 0 },
	{ "recipients.cc", K_STRLIST, 0, 0 },
	{ "recipients.max_cc", K_INT, 0, 1000 },
	{ "commands", K_MAP, 0, 0 },
	{ "commands.allow", K_STRLIST, 0, 0 },
	{ "commands.authserv_id", K_STR, 0, 0 },
	{ "limits", K_MAP, 0, 0 },
	{ "limits.mails_per_hour", K_INT, 0, 1000000 },
	{ "limits.commands_per_mail", K_INT, 1, 100 },
	{ "limits.retests_per_report", K_INT, 0, 1000 },
	{ "limits.max_runs", K_INT, 1, 1000 },
	{ "limits.default_runs", K_INT, 1, 1000 },
	{ "limits.per_sender_per_day", K_INT, 0, 1000000 },
	{ "limits.refusals_per_day", K_INT, 0, 1000000 },
	{ "scheduler", K_MAP, 0, 0 },
	{ "scheduler.backend", K_STR, 0, 0 },
	{ "scheduler.argv", K_STRLIST, 0, 0 },
	{ "scheduler.spool_dir", K_STR, 0, 0 },
	{ "scheduler.url", K_STR, 0, 0 },
	{ "scheduler.timeout", K_INT, 1, 86400 },
	{ "scheduler.deadline", K_INT, 60, 30L * 86400 },
	{ "templates", K_MAP, 0, 0 },
	{ "templates.report", K_STR, 0, 0 },
	{ "templates.dir", K_STR, 0, 0 },
	{ "data", K_MAP, 0, 0 },
	{ "data.metrics", K_STR, 0, 0 },
	{ "data.testcases", K_STR, 0, 0 },
	{ "data.hosts", K_STR, 0, 0 },
};

#define NKEYS (sizeof(schema) / sizeof(schema[0]))

static const struct key *find_key(const char *path)
{
	size_t i;

	for (i = 0; i < NKEYS; i++)
		if (!strcmp(schema[i].path, path))
			return &schema[i];
	return NULL;
}

static int check_node(struct config *cfg, const char *path, json_t *node,
		      int line, struct pb_err *err);

static int bad_type(struct config *cfg, const char *path, int line,
		    const char *what, struct pb_err *err)
{
	if (!*path)
		return pb_fail(err, EX_CONFIG, "%s: the file must be a "
			       "mapping of keys", cfg->doc.name);
	return pb_fail(err, EX_CONFIG, "%s:%d: '%s' must be %s",
		       cfg->doc.name, line, path, what);
}

static int check_map(struct config *cfg, const char *path, json_t *node,
		     int line, struct pb_err *err)
{
	struct strbuf sub = STRBUF_INIT;
	const char *k;
	json_t *v;
	int rc = 0;

	if (!json_is_object(node))
		return bad_type(cfg, path, line, "a mapping", err);
	json_object_foreach(node, k, v) {
		sb_reset(&sub);
		if (sb_addf(&sub, "%s%s%s", path, *path ? "." : "", k)) {
			rc = pb_fail(err, EX_OSERR, "out of memory");
			break;
		}
		rc = check_node(cfg, sb_str(&sub), v,
				ydoc_key_line(&cfg->doc, node, k), err);
		if (rc)
			break;
	}
	sb_release(&sub);
	return rc;
}

static int check_list(struct config *cfg, const char *path,
		      const struct key *k, json_t *node, int line,
		      struct pb_err *err)
{
	struct strbuf item = STRBUF_INIT;
	size_t i;
	json_t *v;
	int rc = 0;

	if (!json_is_array(node))
		return bad_type(cfg, path, line, "a list", err);
	if (sb_addf(&item, "%s[]", path))
		return pb_fail(err, EX_OSERR, "out of memory");
	json_array_foreach(node, i, v) {
		int iline = ydoc_line(&cfg->doc, v);

		if (!iline)
			iline = line;
		if (k->type == K_STRLIST && !json_is_string(v))
			rc = bad_type(cfg, path, iline, "a list of strings",
				      err);
		else if (k->type == K_MAPLIST)
			rc = check_map(cfg, sb_str(&item), v, iline, err);
		if (rc)
			break;
	}
	sb_release(&item);
	return rc;
}

static int check_node(struct config *cfg, const char *path, json_t *node,
		      int line, struct pb_err *err)
{
	const struct key *k = find_key(path);
	char why[96];
	long l;
	int b;

	if (!k)
		return pb_fail(err, EX_CONFIG, "%s:%d: unknown key '%s'",
			       cfg->doc.name, line, path);
	switch (k->type) {
	case K_MAP:
		return check_map(cfg, path, node, line, err);
	case K_STRLIST:
	case K_MAPLIST:
		return check_list(cfg, path, k, node, line, err);
	case K_STR:
		return json_is_string(node) ? 0 :
			bad_type(cfg, path, line, "a string", err);
	case K_BOOL:
		return yaml_as_bool(&cfg->doc, node, path, &b, NULL) ?
			bad_type(cfg, path, line, "true or false", err) : 0;
	case K_INT:
		snprintf(why, sizeof(why), "a whole number from %ld to %ld",
			 k->min, k->max);
		return yaml_as_long(&cfg->doc, node, path, k->min, k->max,
				    &l, NULL) ?
			bad_type(cfg, path, line, why, err) : 0;
	}
	return 0;
}

static int check_secrets(struct config *cfg, struct pb_err *err)
{
	struct stat st;

	if (!cfg_str(cfg, "smtp.password", NULL) &&
	    !cfg_str(cfg, "imap.password", NULL))
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

int config_load(struct config *cfg, const char *path, struct pb_err *err)
{
	memset(cfg, 0, sizeof(*cfg));
	if (!path) {
		cfg->doc.root = json_object();
		cfg->doc.name = strdup("(defaults)");
		cfg->path = strdup("(defaults)");
		if (!cfg->doc.root || !cfg->doc.name || !cfg->path) {
			config_release(cfg);
			return pb_fail(err, EX_OSERR, "out of memory");
		}
		return 0;
	}
	cfg->path = strdup(path);
	if (!cfg->path)
		return pb_fail(err, EX_OSERR, "out of memory");
	if (yaml_load_file(path, CONFIG_MAX_BYTES, &cfg->doc, err)) {
		if (err && err->code == EX_DATAERR)
			err->code = EX_CONFIG;
		free(cfg->path);
		cfg->path = NULL;
		return -1;
	}
	if (!cfg->doc.root)
		cfg->doc.root = json_object();
	if (check_map(cfg, "", cfg->doc.root, 1, err) ||
	    check_secrets(cfg, err)) {
		config_release(cfg);
		return -1;
	}
	return 0;
}

void config_release(struct config *cfg)
{
	ydoc_release(&cfg->doc);
	free(cfg->path);
	memset(cfg, 0, sizeof(*cfg));
}

/* Walk a dotted path; NULL when any part is absent. */
static json_t *lookup(const struct config *cfg, const char *key)
{
	json_t *node = cfg->doc.root;
	const char *dot;
	char part[64];
	size_t n;

	while (node && (dot = strchr(key, '.'))) {
		n = (size_t)(dot - key);
		if (n >= sizeof(part))
			return NULL;
		memcpy(part, key, n);
		part[n] = '\0';
		node = json_object_get(node, part);
		key = dot + 1;
	}
	return node ? json_object_get(node, key) : NULL;
}

const char *cfg_str(const struct config *cfg, const char *key,
		    const char *def)
{
	const char *s = json_string_value(lookup(cfg, key));

	return s ? s : def;
}

long cfg_long(const struct config *cfg, const char *key, long def)
{
	const char *s = json_string_value(lookup(cfg, key));
	long v;

	return s && !parse_long(s, -2147483647L, 2147483647L, &v) ? v : def;
}

int cfg_bool(const struct config *cfg, const char *key, int def)
{
	json_t *n = lookup(cfg, key);
	int v;

	if (!n || yaml_as_bool(&cfg->doc, n, key, &v, NULL))
		return def;
	return v;
}

json_t *cfg_list(const struct config *cfg, const char *key)
{
	json_t *n = lookup(cfg, key);

	return json_is_array(n) ? n : NULL;
}
