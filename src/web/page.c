// SPDX-License-Identifier: GPL-2.0-only
/*
 * web: what every page of the archive shares (page.h): the templates of
 * templates/web/ rendered in HTML mode, the word of a hidden address,
 * the key of everything every page depends on, and the common parts of
 * a page's context.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/render/mustache.h"
#include "perfbot/util/addr.h"
#include "perfbot/util/fileio.h"
#include "perfbot/util/strmap.h"
#include "perfbot/util/version.h"
#include "perfbot/web/mask.h"
#include "perfbot/web/page.h"

#define ASSET_MAX ((size_t)1 << 20)
#define DATA_MAX ((size_t)16 << 20)

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Fold file 'path' into '*h': its name (not where the tree is, so that
 * the key is the same in every copy) and its bytes; a missing one counts.
 */
static void fold_file(unsigned long long *h, const char *path)
{
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct strbuf sb = STRBUF_INIT;

	*h = hash_fnv1a(name, strlen(name) + 1, *h);
	if (!file_read(path, DATA_MAX, 0, &sb, NULL))
		*h = hash_fnv1a(sb_str(&sb), sb.len, *h);
	sb_release(&sb);
}

/* Every file of templates/web/, in the order of their names. */
static int fold_templates(struct web_site *s, struct pb_err *err)
{
	char *names[256], *path;
	struct dirent *de;
	size_t n = 0, i;
	DIR *d = opendir(s->dir);

	if (!d)
		return pb_fail(err, EX_NOINPUT, "%s: cannot read the web "
			       "templates", s->dir);
	while ((de = readdir(d)) && n < 256)
		if (de->d_name[0] != '.' && (names[n] = strdup(de->d_name)))
			n++;
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_names);
	for (i = 0; i < n; i++) {
		path = path_join(s->dir, names[i]);
		if (path)
			fold_file(&s->key, path);
		free(path);
		free(names[i]);
	}
	return 0;
}

static void fold_str(unsigned long long *h, const char *v)
{
	*h = hash_fnv1a(v ? v : "\1", v ? strlen(v) + 1 : 2, *h);
}

/* The settings and tables every page is made with. */
static void fold_settings(struct web_site *s)
{
	const struct config *cfg = s->cfg;
	char nums[96], *p;

	fold_str(&s->key, PERFBOT_VERSION);
	fold_str(&s->key, cfg->identity.name);
	fold_str(&s->key, cfg->identity.archive_url);
	fold_str(&s->key, cfg->web.base_url);
	fold_str(&s->key, s->domain);
	snprintf(nums, sizeof(nums), "%d %ld %ld", cfg->web.show_addresses,
		 cfg->web.feed_entries, cfg->web.per_page);
	fold_str(&s->key, nums);
	if (!data_find(cfg->data.metrics, NULL, &p, NULL))
		fold_file(&s->key, p);
	free(p);
	p = NULL;
	if (!data_find(cfg->data.testcases, NULL, &p, NULL))
		fold_file(&s->key, p);
	free(p);
}

static int read_hidden(struct web_site *s, struct pb_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	json_t *ctx = json_object();
	int rc;

	rc = !ctx ? pb_fail(err, EX_OSERR, "out of memory") :
		web_render(s, "hidden.txt", ctx, &sb, err);
	json_decref(ctx);
	while (!rc && sb.len && (sb.buf[sb.len - 1] == '\n' ||
				 sb.buf[sb.len - 1] == ' '))
		sb_setlen(&sb, sb.len - 1);
	if (!rc && !(s->hidden = sb_detach(&sb, NULL)))
		rc = pb_fail(err, EX_OSERR, "out of memory");
	sb_release(&sb);
	return rc;
}

/* The authority of the feed's ids: the Message-IDs' domain. */
static char *id_domain(const struct config *cfg)
{
	char *spec, *d = NULL;

	if (cfg->identity.message_id_domain)
		return strdup(cfg->identity.message_id_domain);
	spec = addr_spec(cfg->identity.from);
	if (spec && addr_domain(spec))
		d = strdup(addr_domain(spec));
	free(spec);
	return d ? d : strdup("localhost");
}

int web_site_init(struct web_site *s, const struct config *cfg, time_t now,
		  struct pb_err *err)
{
	char *top = NULL;

	memset(s, 0, sizeof(*s));
	s->cfg = cfg;
	s->now = now;
	s->key = 0x7065726662677765ULL;
	if (data_find(cfg->templates.dir, "templates.dir in the "
		      "configuration", &top, err))
		return -1;
	s->dir = path_join(top, "web");
	free(top);
	s->domain = id_domain(cfg);
	if (!s->dir || !s->domain) {
		web_site_release(s);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	fold_settings(s);
	if (fold_templates(s, err) || read_hidden(s, err)) {
		web_site_release(s);
		return -1;
	}
	return 0;
}

int web_site_ids(struct web_site *s, const struct archive_report *rows,
		 size_t n, struct pb_err *err)
{
	size_t i;

	free(s->ids);
	s->nids = 0;
	s->ids = malloc((n ? n : 1) * sizeof(*s->ids));
	if (!s->ids)
		return pb_fail(err, EX_OSERR, "out of memory");
	for (i = 0; i < n; i++)
		if (rows[i].message_id)
			s->ids[s->nids++] = rows[i].message_id;
	web_ids_sort(s->ids, s->nids);
	return 0;
}

void web_site_release(struct web_site *s)
{
	free(s->ids);
	free(s->dir);
	free(s->hidden);
	free(s->domain);
	memset(s, 0, sizeof(*s));
}

int web_render(const struct web_site *s, const char *name, json_t *ctx,
	       struct strbuf *out, struct pb_err *err)
{
	struct mustache_opts o = { 1, s->dir, ".html", 0, 0, 0 };
	char *path = path_join(s->dir, name);
	int rc;

	if (!path)
		return pb_fail(err, EX_OSERR, "out of memory");
	rc = mustache_render_file(path, ctx, &o, out, err);
	free(path);
	return rc;
}

int web_asset(const struct web_site *s, const char *name, struct strbuf *out,
	      struct pb_err *err)
{
	char *path = path_join(s->dir, name);
	int rc;

	if (!path)
		return pb_fail(err, EX_OSERR, "out of memory");
	rc = file_read(path, ASSET_MAX, 1, out, err);
	free(path);
	return rc;
}

void ctx_page(struct ctx *c, const struct web_site *s, const char *root)
{
	ctx_str(c, "root", root);
	ctx_str(c, "bot_name", s->cfg->identity.name);
	ctx_str(c, "version", PERFBOT_VERSION);
}

void ctx_date(struct ctx *parent, const char *key, time_t t)
{
	char text[40], iso[40];
	struct ctx c;
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(text, sizeof(text), "%Y-%m-%d %H:%M UTC", &tm);
	strftime(iso, sizeof(iso), "%Y-%m-%dT%H:%M:%SZ", &tm);
	ctx_init(&c, parent->family);
	ctx_str(&c, "text", text);
	ctx_str(&c, "iso", iso);
	ctx_child(parent, key, &c);
}

/* A page template or a partial: rendered with nothing, it must parse. */
static int check_one(const struct web_site *s, const char *name,
		     struct pb_err *err)
{
	struct strbuf out = STRBUF_INIT;
	json_t *ctx = json_object();
	int rc = ctx ? web_render(s, name, ctx, &out, err) :
		pb_fail(err, EX_OSERR, "out of memory");

	json_decref(ctx);
	sb_release(&out);
	return rc;
}

static int is_template(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' &&
	       ((n > 5 && !strcmp(name + n - 5, ".html")) ||
		(n > 5 && !strcmp(name + n - 5, ".atom")) ||
		(n > 4 && !strcmp(name + n - 4, ".txt")));
}

int web_check_templates(const struct config *cfg, char **dir, int *count,
			struct pb_err *err)
{
	struct web_site s;
	struct dirent *de;
	DIR *d;
	int rc;

	*count = 0;
	*dir = NULL;
	if (web_site_init(&s, cfg, 0, err))
		return -1;
	d = opendir(s.dir);
	rc = d ? 0 : pb_fail(err, EX_NOINPUT, "%s: cannot read", s.dir);
	while (!rc && (de = readdir(d))) {
		if (!is_template(de->d_name))
			continue;
		rc = check_one(&s, de->d_name, err);
		*count += !rc;
	}
	if (d)
		closedir(d);
	*dir = rc ? NULL : s.dir;
	if (!rc)
		s.dir = NULL;
	web_site_release(&s);
	return rc;
}
