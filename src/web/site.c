// SPDX-License-Identifier: GPL-2.0-only
/*
 * web: the build of the site (site.h): the state's reports, each page
 * kept or made again, the lists, the feed, the status and the style, in
 * a new tree put in place at once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfbot/judge/inputs.h"
#include "perfbot/state/archive.h"
#include "perfbot/state/duty.h"
#include "perfbot/util/log.h"
#include "perfbot/util/strmap.h"
#include "perfbot/web/feed.h"
#include "perfbot/web/lists.h"
#include "perfbot/web/pool.h"
#include "perfbot/web/reportpage.h"
#include "perfbot/web/site.h"
#include "perfbot/web/statuspage.h"
#include "perfbot/web/tree.h"

struct build {
	const struct web_opts *o;
	struct web_site s;
	struct state *st;
	struct site_tree t;
	struct inputs_cache cache;
	struct archive_report *rows;
	size_t n;
	struct web_summary *sums;
	char **paths;
	char (*keys)[17];
	size_t *todo;		/* the reports whose page is made again */
	size_t ntodo;
	struct web_entry *entries;
	struct web_stats *ws;
};

/* What report 'r''s page is made from: every page's key and its stamp. */
static void page_key(const struct build *b, const struct archive_report *r,
		     char *buf)
{
	unsigned long long h = hash_fnv1a(r->id, strlen(r->id) + 1, b->s.key);

	h = hash_fnv1a(r->stamp, strlen(r->stamp), h);
	snprintf(buf, 17, "%016llx", h);
}

/* The old tree's page and summary, when its key is the same. */
static int reuse(struct build *b, size_t i, const char *key, int *kept,
		 struct pb_err *err)
{
	const json_t *old = site_old_report(&b->t, b->rows[i].id);

	*kept = 0;
	if (b->o->full || !old || web_summary_from_json(&b->sums[i], old))
		return 0;
	/* a page made without its roots tries them again each time */
	if (b->sums[i].ok && site_keep(&b->t, b->paths[i], key, kept, err))
		return -1;
	if (!*kept)
		web_summary_release(&b->sums[i]);
	return 0;
}

/* In a worker: the state's own connection (none crosses a fork). */
static int worker_start(void *arg, struct pb_err *err)
{
	struct build *b = arg;

	b->st = NULL;	/* the builder's: never used here, never closed */
	return state_open(&b->st, b->o->state, STATE_READ, err);
}

/* Report i's page into the new tree; its summary is the result. */
static int make(void *arg, size_t i, json_t **result, struct pb_err *err)
{
	struct build *b = arg;
	struct strbuf page = STRBUF_INIT;
	int rc;

	rc = web_report_page(&b->s, b->st, &b->cache, &b->rows[i], &page,
			     &b->sums[i], err) ||
	     site_write(&b->t, b->paths[i], sb_str(&page), page.len, err);
	sb_release(&page);
	if (rc)
		return pb_wrap(err, "report '%s'", b->rows[i].id);
	*result = web_summary_json(&b->sums[i]);
	return *result ? 0 : pb_fail(err, EX_OSERR, "out of memory");
}

/* In the builder: a page made (here or by a worker) and its summary. */
static int take(void *arg, size_t i, json_t *result, struct pb_err *err)
{
	struct build *b = arg;

	web_summary_release(&b->sums[i]);	/* made here: read it back */
	if (web_summary_from_json(&b->sums[i], result))
		return pb_fail(err, EX_SOFTWARE, "report '%s': its summary "
			       "does not read", b->rows[i].id);
	b->t.written++;
	b->ws->made++;
	return site_note_page(&b->t, b->paths[i], b->keys[i], err);
}

static const struct pool_ops page_ops = { worker_start, make, take };

/* Kept, or to be made: report i's page. */
static int plan(struct build *b, size_t i, struct pb_err *err)
{
	int kept;

	b->paths[i] = web_report_path(b->rows[i].id);
	if (!b->paths[i])
		return pb_fail(err, EX_OSERR, "out of memory");
	page_key(b, &b->rows[i], b->keys[i]);
	if (reuse(b, i, b->keys[i], &kept, err))
		return -1;
	if (kept)
		b->ws->reused++;
	else
		b->todo[b->ntodo++] = i;
	return 0;
}

static int reports(struct build *b, struct pb_err *err)
{
	size_t i, nw = pool_workers(b->s.cfg->web.jobs);

	for (i = 0; i < b->n; i++)
		if (plan(b, i, err))
			return -1;
	if (pool_run(&page_ops, b, b->todo, b->ntodo, nw, err))
		return -1;
	for (i = 0; i < b->n; i++) {
		b->entries[i].row = &b->rows[i];
		b->entries[i].sum = &b->sums[i];
		b->entries[i].path = b->paths[i];
		if (site_note_report(&b->t, b->rows[i].id,
				     web_summary_json(&b->sums[i]), err))
			return -1;
	}
	return 0;
}

/* A page made every time, kept when its bytes are the same. */
static int page(struct build *b, const char *path, struct strbuf *sb,
		int rc, struct pb_err *err)
{
	if (!rc)
		rc = site_page(&b->t, path, NULL, sb_str(sb), sb->len, err);
	sb_release(sb);
	return rc;
}

static int the_rest(struct build *b, struct pb_err *err)
{
	struct strbuf sb = STRBUF_INIT;

	if (web_lists(&b->s, &b->t, b->entries, b->n, err))
		return -1;
	if (page(b, "feed.atom", &sb, web_feed(&b->s, b->entries, b->n, &sb,
						err), err))
		return -1;
	if (page(b, "status.html", &sb, web_status(&b->s, b->st, &sb, err),
		 err))
		return -1;
	return page(b, "style.css", &sb, web_asset(&b->s, "style.css", &sb,
						    err), err);
}

static int open_all(struct build *b, const struct config *cfg,
		    struct pb_err *err)
{
	int held;

	if (state_missing(b->o->state))
		return pb_fail(err, EX_NOINPUT, "%s: no state yet: 'perfbot "
			       "run' makes it", b->o->state);
	if (web_site_init(&b->s, cfg, b->o->now, err) ||
	    state_open(&b->st, b->o->state, STATE_READ, err) ||
	    state_duty_hold(b->st, "web", b->o->now, 0, &held, err))
		return -1;
	/* one instance at a time builds (state/duty.h) */
	if (!held) {
		b->ws->skipped = 1;
		return 0;
	}
	if (state_archive_reports(b->st, &b->rows, &b->n, err) ||
	    web_site_ids(&b->s, b->rows, b->n, err) ||
	    site_open(&b->t, b->o->out, err))
		return -1;
	b->sums = calloc(b->n + 1, sizeof(*b->sums));
	b->paths = calloc(b->n + 1, sizeof(*b->paths));
	b->entries = calloc(b->n + 1, sizeof(*b->entries));
	b->keys = calloc(b->n + 1, sizeof(*b->keys));
	b->todo = calloc(b->n + 1, sizeof(*b->todo));
	if (!b->sums || !b->paths || !b->entries || !b->keys || !b->todo)
		return pb_fail(err, EX_OSERR, "out of memory");
	return 0;
}

static void release(struct build *b)
{
	size_t i;

	for (i = 0; b->sums && i < b->n; i++)
		web_summary_release(&b->sums[i]);
	for (i = 0; b->paths && i < b->n; i++)
		free(b->paths[i]);
	free(b->sums);
	free(b->paths);
	free(b->entries);
	free(b->keys);
	free(b->todo);
	archive_reports_free(b->rows, b->n);
	inputs_cache_release(&b->cache);
	site_release(&b->t);
	state_close(b->st);
	web_site_release(&b->s);
}

int web_build(const struct config *cfg, const struct web_opts *o,
	      struct web_stats *ws, struct pb_err *err)
{
	struct build b;
	int rc = -1;

	memset(&b, 0, sizeof(b));
	memset(ws, 0, sizeof(*ws));
	b.o = o;
	b.ws = ws;
	inputs_cache_init(&b.cache);
	if (open_all(&b, cfg, err))
		goto out;
	if (ws->skipped) {
		rc = 0;
		goto out;
	}
	if (reports(&b, err) || the_rest(&b, err) || site_commit(&b.t, err))
		goto out;
	ws->reports = (long)b.n;
	ws->written = b.t.written;
	ws->kept = b.t.kept;
	rc = 0;
out:
	release(&b);
	return rc;
}
