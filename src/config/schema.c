// SPDX-License-Identifier: GPL-2.0-only
/*
 * The schema of perfbot.yaml and the typed settings filled from it: the
 * one table that says which keys exist, what each may hold, where its
 * setting lives in struct config and what it is when the file is silent.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "schema.h"
#include "perfbot/util/numparse.h"
#include "perfbot/util/suggest.h"

#define F(field) offsetof(struct config, field)
#define NOF KEY_NO_FIELD
/* a string, a number from lo to hi, a bool or word index, a list */
#define S(p, t, field, def) { p, t, 0, 0, F(field), def, 0 }
#define N(p, field, lo, hi, def) { p, K_INT, lo, hi, F(field), NULL, def }
#define B(p, t, field, def) { p, t, 0, 0, F(field), NULL, def }
#define L(p, t, field) { p, t, 0, 0, F(field), NULL, 0 }
#define D(p, field, lo, hi, def) { p, K_DURATION, lo, hi, F(field), NULL, def }
#define DAY (24L * 3600)
#define MAP(p) { p, K_MAP, 0, 0, NOF, NULL, 0 }

static const struct key schema[] = {
	MAP("identity"),
	S("identity.from", K_ADDR, identity.from,
	  "perfbot <perfbot@localhost>"),
	S("identity.name", K_LINE, identity.name, "perfbot"),
	S("identity.message_id_domain", K_DOMAIN,
	  identity.message_id_domain, NULL),
	S("identity.archive_url", K_HTTP_URL, identity.archive_url, NULL),
	S("identity.patch_archive_url", K_HTTP_URL,
	  identity.patch_archive_url, NULL),
	/* NULL here: identity.from (schema_fill) */
	S("identity.reported_by", K_ADDR, identity.reported_by, NULL),
	MAP("smtp"),
	S("smtp.url", K_SMTP_URL, smtp.url, NULL),
	/* implicit for an smtps:// URL (schema_fill) */
	B("smtp.tls", K_TLS, smtp.tls, CFG_TLS_STARTTLS),
	S("smtp.user", K_STR, smtp.user, NULL),
	S("smtp.password", K_STR, smtp.secret.password, NULL),
	S("smtp.password_env", K_STR, smtp.secret.password_env, NULL),
	S("smtp.password_file", K_PATH, smtp.secret.password_file, NULL),
	L("smtp.password_command", K_ARGV, smtp.secret.password_command),
	S("smtp.ca_file", K_PATH, smtp.ca_file, NULL),
	N("smtp.connect_timeout", smtp.connect_timeout, 1, 3600, 30),
	N("smtp.timeout", smtp.timeout, 1, 86400, 300),
	N("smtp.batch", smtp.batch, 1, 100000, 0),
	MAP("imap"),
	S("imap.url", K_IMAP_URL, imap.url, NULL),
	/* implicit for an imaps:// URL (schema_fill) */
	B("imap.tls", K_TLS, imap.tls, CFG_TLS_STARTTLS),
	S("imap.user", K_STR, imap.user, NULL),
	S("imap.password", K_STR, imap.secret.password, NULL),
	S("imap.password_env", K_STR, imap.secret.password_env, NULL),
	S("imap.password_file", K_PATH, imap.secret.password_file, NULL),
	L("imap.password_command", K_ARGV, imap.secret.password_command),
	S("imap.ca_file", K_PATH, imap.ca_file, NULL),
	S("imap.mailbox", K_STR, imap.mailbox, "INBOX"),
	/* "" is NULL (schema_fill) */
	S("imap.processed_mailbox", K_STR, imap.processed_mailbox, NULL),
	N("imap.max_message_bytes", imap.max_message_bytes, 1024, 1L << 30,
	  10L << 20),
	N("imap.timeout", imap.timeout, 1, 3600, 60),
	S("state", K_PATH, state, NULL),
	S("state_password_env", K_STR, state_secret.password_env, NULL),
	S("state_password_file", K_PATH, state_secret.password_file, NULL),
	L("sources", K_MAPLIST, sources),
	{ "sources[].dir", K_PATH, 0, 0, NOF, NULL, 0 },
	{ "sources[].url", K_HTTP_URL, 0, 0, NOF, NULL, 0 },
	{ "sources[].attach_dirs", K_PATHLIST, 0, 0, NOF, NULL, 0 },
	MAP("recipients"),
	B("recipients.to_author", K_BOOL, recipients.to_author, 1),
	L("recipients.to", K_ADDRLIST, recipients.to),
	L("recipients.cc", K_ADDRLIST, recipients.cc),
	N("recipients.max_cc", recipients.max_cc, 0, 1000, 10),
	MAP("commands"),
	L("commands.allow", K_ALLOW, commands.allow),
	S("commands.authserv_id", K_LINE, commands.authserv_id, NULL),
	L("commands.test_repos", K_REPOLIST, commands.test_repos),
	MAP("limits"),
	N("limits.mails_per_hour", limits.mails_per_hour, 0, 1000000, 60),
	N("limits.commands_per_mail", limits.commands_per_mail, 1, 100, 3),
	N("limits.retests_per_report", limits.retests_per_report, 0, 1000, 3),
	N("limits.max_runs", limits.max_runs, 1, 1000, 20),
	N("limits.default_runs", limits.default_runs, 1, 1000, 4),
	N("limits.per_sender_per_day", limits.per_sender_per_day, 0, 1000000,
	  20),
	N("limits.refusals_per_day", limits.refusals_per_day, 0, 1000000,
	  50),
	N("limits.tests_per_report", limits.tests_per_report, 0, 1000, 5),
	N("limits.tests_per_sender_per_day", limits.tests_per_sender_per_day,
	  0, 1000000, 10),
	N("limits.bisects_per_sender_per_day",
	  limits.bisects_per_sender_per_day, 0, 1000000, 3),
	N("limits.max_patch_bytes", limits.max_patch_bytes, 1, 10L << 20,
	  1L << 20),
	MAP("scheduler"),
	S("scheduler.backend", K_BACKEND, scheduler.backend, NULL),
	L("scheduler.argv", K_ARGV, scheduler.argv),
	S("scheduler.spool_dir", K_PATH, scheduler.spool_dir, NULL),
	S("scheduler.url", K_HTTP_URL, scheduler.url, NULL),
	S("scheduler.results_dir", K_PATH, scheduler.results_dir, NULL),
	D("scheduler.results_keep", scheduler.results_keep, 0, 3660 * DAY, 0),
	N("scheduler.timeout", scheduler.timeout, 1, 86400, 600),
	N("scheduler.deadline", scheduler.deadline, 60, 30L * 86400,
	  24 * 3600),
	MAP("confirm"),
	B("confirm.enabled", K_BOOL, confirm.enabled, 0),
	N("confirm.total_runs", confirm.total_runs, 2, 1000, 16),
	N("confirm.min_runs", confirm.min_runs, 2, 1000, 8),
	/* 0 here: scheduler.deadline (schema_fill) */
	N("confirm.deadline", confirm.deadline, 60, 30L * 86400, 0),
	B("confirm.on_deadline", K_ON_DEADLINE, confirm.on_deadline,
	  CFG_DEADLINE_MAIL),
	MAP("report"),
	B("report.attachments", K_ATTACHMENTS, report.attachments,
	  CFG_ATTACH_AUTO),
	MAP("templates"),
	S("templates.report", K_NAME, templates.report, "report"),
	S("templates.dir", K_PATH, templates.dir, "templates"),
	MAP("data"),
	S("data.metrics", K_PATH, data.metrics, "config/metrics.yaml"),
	S("data.testcases", K_PATH, data.testcases, "config/testcases.yaml"),
	S("data.hosts", K_PATH, data.hosts, "config/hosts"),
	MAP("staging"),
	S("staging.redirect_to", K_ADDR, staging.redirect_to, NULL),
	MAP("web"),
	B("web.show_addresses", K_BOOL, web.show_addresses, 1),
	S("web.base_url", K_HTTP_URL, web.base_url, NULL),
	N("web.feed_entries", web.feed_entries, 1, 1000, 50),
	N("web.per_page", web.per_page, 1, 200, 200),
	N("web.jobs", web.jobs, 0, 64, 0),
	MAP("run"),
	N("run.jobs", run.jobs, 0, 64, 0),
	MAP("tracking"),
	S("tracking.repo", K_PATH, tracking.repo, NULL),
	L("tracking.branches", K_STRLIST, tracking.branches),
	B("tracking.verify", K_BOOL, tracking.verify, 0),
	MAP("bisect"),
	B("bisect.confirmed", K_BOOL, bisect.confirmed, 0),
	{ "bisect.confidence", K_PROB, 0, 0, F(bisect.confidence), "0.999",
	  0 },
	N("bisect.max_runs", bisect.max_runs, 1, 100000, 80),
	N("bisect.max_rounds", bisect.max_rounds, 1, 1000, 12),
	MAP("reminders"),
	D("reminders.every", reminders.every, 3600, 366 * DAY, 30 * DAY),
	L("reminders.to", K_ADDRLIST, reminders.to),
	D("reminders.min_age", reminders.min_age, 0, 366 * DAY, 14 * DAY),
};

#define NKEYS (sizeof(schema) / sizeof(schema[0]))

/* The order of the words is the order of enum cfg_tls and the others. */
static const struct choice choices[] = {
	{ K_TLS, 0, { "starttls", "implicit", "none", NULL } },
	{ K_BACKEND, 0, { "exec", "spool", "http", NULL } },
	{ K_ON_DEADLINE, 0, { "mail", "drop", NULL, NULL } },
	{ K_ATTACHMENTS, 0, { "none", "job", "all", NULL } },
	{ K_SMTP_URL, 1, { "smtp", "smtps", NULL, NULL } },
	{ K_IMAP_URL, 1, { "imap", "imaps", NULL, NULL } },
	{ K_HTTP_URL, 1, { "http", "https", NULL, NULL } },
};

const struct key *schema_find(const char *path)
{
	size_t i;

	for (i = 0; i < NKEYS; i++)
		if (!strcmp(schema[i].path, path))
			return &schema[i];
	return NULL;
}

const char *schema_closest(const char *path)
{
	const char *dot = strrchr(path, '.'), *leaf = dot ? dot + 1 : path;
	size_t plen = dot ? (size_t)(dot - path) + 1 : 0, i;
	const char *best = NULL, *kl;
	size_t bd = SIZE_MAX, d;

	for (i = 0; i < NKEYS; i++) {
		kl = schema[i].path + plen;
		if (strncmp(schema[i].path, path, plen) || strchr(kl, '.') ||
		    !suggest_close(leaf, kl))
			continue;
		d = edit_distance(leaf, kl);
		if (d < bd) {
			bd = d;
			best = schema[i].path;
		}
	}
	return best;
}

const struct choice *schema_choice(enum ktype t)
{
	size_t i;

	for (i = 0; i < sizeof(choices) / sizeof(choices[0]); i++)
		if (choices[i].type == t)
			return &choices[i];
	return NULL;
}

int schema_prob(const char *s, double *p)
{
	double v;

	if (!s || parse_double(s, &v) || !(v > 0.5 && v < 1))
		return -1;
	*p = v;
	return 0;
}

int schema_duration(const char *s, long min, long max, long *secs)
{
	static const struct { char unit; long secs; } units[] = {
		{ 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', DAY },
		{ 'w', 7 * DAY },
	};
	long n = 0, mul = 1;
	const char *p = s;
	size_t i;

	if (!s || *p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (n > (max > 0 ? max : 0))
			return -1;	/* already past the bound */
		n = n * 10 + (*p - '0');
	}
	if (*p) {
		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (*p == units[i].unit)
				mul = units[i].secs;
		if (mul == 1 && *p != 's')
			return -1;
		if (p[1])
			return -1;
	}
	if (n > max / mul || n * mul < min)
		return -1;
	*secs = n * mul;
	return 0;
}

/* The node of a dotted path in the document; NULL when absent. */
static const struct ynode *lookup(const struct config *cfg, const char *path)
{
	const char *dot = strchr(path, '.');
	const struct ynode *node = cfg->doc.root;
	char part[32];
	size_t n;

	if (dot) {
		n = (size_t)(dot - path);
		if (n >= sizeof(part))
			return NULL;
		memcpy(part, path, n);
		part[n] = '\0';
		node = ymap_get(node, part);
		path = dot + 1;
	}
	return ymap_get(node, path);
}

/*
 * The items of a list, none when it is not one: with CONFIG_ALL_PROBLEMS
 * the settings are filled after a problem too (an item that is not a
 * string is then NULL).
 */
static size_t items_of(const struct ynode *list)
{
	return ynode_is(list, Y_SEQ) ? list->n : 0;
}

static int fill_strv(struct strv *sv, const struct ynode *list)
{
	size_t i;

	sv->n = items_of(list);
	sv->v = calloc(sv->n + 1, sizeof(*sv->v));
	if (!sv->v)
		return -1;
	for (i = 0; i < sv->n; i++)
		sv->v[i] = ynode_str(list->items[i]);
	return 0;
}

static int fill_sources(struct config *cfg, const struct ynode *list)
{
	size_t i, n = items_of(list);
	const struct ynode *dirs;

	if (!n)
		return 0;
	cfg->sources = calloc(n, sizeof(*cfg->sources));
	if (!cfg->sources)
		return -1;
	cfg->nsources = n;
	for (i = 0; i < n; i++) {
		cfg->sources[i].dir =
			ynode_str(ymap_get(list->items[i], "dir"));
		cfg->sources[i].url =
			ynode_str(ymap_get(list->items[i], "url"));
		dirs = ymap_get(list->items[i], "attach_dirs");
		cfg->sources[i].has_attach_dirs = dirs != NULL;
		if (fill_strv(&cfg->sources[i].attach_dirs, dirs))
			return -1;
	}
	return 0;
}

/* A word's index in its choice (the value was checked to be one). */
static long word_index(const struct key *k, const char *v)
{
	const struct choice *c = schema_choice(k->type);
	long i;

	for (i = 0; c && i < 4 && c->words[i]; i++)
		if (!strcmp(c->words[i], v))
			return i;
	return k->def_l;
}

static int fill_one(struct config *cfg, const struct key *k)
{
	void *at = (char *)cfg + k->off;
	const struct ynode *node = lookup(cfg, k->path);
	const char *s = ynode_str(node);
	long l;
	int b;

	switch (k->type) {
	case K_INT:
		if (!s || yaml_as_long(&cfg->doc, node, k->path, k->min,
				       k->max, &l, NULL))
			l = k->def_l;
		*(long *)at = l;
		return 0;
	case K_BOOL:
		if (!node || yaml_as_bool(&cfg->doc, node, k->path, &b, NULL))
			b = (int)k->def_l;
		*(int *)at = b;
		return 0;
	case K_PROB:
		if (!s || schema_prob(s, (double *)at))
			*(double *)at = strtod(k->def_s, NULL);
		return 0;
	case K_DURATION:
		if (schema_duration(s, k->min, k->max, &l))
			l = k->def_l;
		*(long *)at = l;
		return 0;
	case K_TLS:
	case K_ON_DEADLINE:
	case K_ATTACHMENTS:
		*(int *)at = s ? (int)word_index(k, s) : (int)k->def_l;
		return 0;
	case K_MAPLIST:
		return fill_sources(cfg, node);
	case K_STRLIST:
	case K_PATHLIST:
	case K_ARGV:
	case K_ADDRLIST:
	case K_ALLOW:
	case K_REPOLIST:
		return node ? fill_strv(at, node) : 0;
	default:
		*(const char **)at = s ? s : k->def_s;
		return 0;
	}
}

int schema_fill(struct config *cfg, struct pb_err *err)
{
	size_t i;

	for (i = 0; i < NKEYS; i++)
		if (schema[i].off != KEY_NO_FIELD &&
		    fill_one(cfg, &schema[i]))
			return pb_fail(err, EX_OSERR, "out of memory");
	/* the defaults that are other settings */
	if (!cfg->identity.reported_by)
		cfg->identity.reported_by = cfg->identity.from;
	if (!cfg->confirm.deadline)
		cfg->confirm.deadline = cfg->scheduler.deadline;
	/* "" is no mailbox: messages stay where they are */
	if (cfg->imap.processed_mailbox && !*cfg->imap.processed_mailbox)
		cfg->imap.processed_mailbox = NULL;
	/* smtps:// and imaps:// say implicit TLS when tls says nothing */
	if (!lookup(cfg, "smtp.tls") && cfg->smtp.url &&
	    !strncmp(cfg->smtp.url, "smtps:", 6))
		cfg->smtp.tls = CFG_TLS_IMPLICIT;
	if (!lookup(cfg, "imap.tls") && cfg->imap.url &&
	    !strncmp(cfg->imap.url, "imaps:", 6))
		cfg->imap.tls = CFG_TLS_IMPLICIT;
	return 0;
}

void schema_release(struct config *cfg)
{
	size_t i;

	for (i = 0; i < NKEYS; i++)
		if (schema[i].off != KEY_NO_FIELD &&
		    (schema[i].type == K_STRLIST || schema[i].type == K_ARGV ||
		     schema[i].type == K_ADDRLIST ||
		     schema[i].type == K_ALLOW || schema[i].type == K_PATHLIST ||
		     schema[i].type == K_REPOLIST))
			free(((struct strv *)((char *)cfg +
						  schema[i].off))->v);
	for (i = 0; i < cfg->nsources; i++)
		free(cfg->sources[i].attach_dirs.v);
	free(cfg->sources);
}

/* report.attachments as it applies (config.h) */
enum cfg_attachments config_attachments(const struct config *cfg,
					int materials)
{
	if (cfg->report.attachments != CFG_ATTACH_AUTO)
		return cfg->report.attachments;
	return materials ? CFG_ATTACH_NONE : CFG_ATTACH_ALL;
}
