// SPDX-License-Identifier: GPL-2.0-only
/*
 * ingest: where new manifests come from (sources.h): every *.yaml of a
 * 'dir' source in name order, and the JSON list a 'url' source answers,
 * fetched conditionally with the validators kept in the state. The
 * cycle's ingest step turns them into reports.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "perfbot/util/fileio.h"
#include "perfbot/ingest/fetch.h"
#include "perfbot/util/log.h"
#include "perfbot/ingest/manifest.h"
#include "perfbot/ingest/manifest_files.h"
#include "perfbot/ingest/sources.h"
#include "perfbot/state/seen.h"

static int add(struct source_batch *b, const char *name, const char *dir,
	       char *text, size_t len, int remote, struct pb_err *err)
{
	struct manifest_text *nm;
	char *fit;

	if (b->n == SOURCE_MAX_MANIFESTS) {
		free(text);
		return pb_fail(err, EX_DATAERR, "more than %d manifests in "
			       "one run", SOURCE_MAX_MANIFESTS);
	}
	nm = realloc(b->m, (b->n + 1) * sizeof(*nm));
	if (!nm) {
		free(text);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	b->m = nm;
	/* a read leaves room to grow (64 KiB): a cycle of thousands keeps
	 * every manifest until the end, at its size */
	if ((fit = realloc(text, len + 1)))
		text = fit;
	nm = &b->m[b->n];
	nm->name = strdup(name);
	nm->dir = strdup(dir);
	nm->text = text;
	nm->len = len;
	nm->remote = remote;
	b->n++;
	return nm->name && nm->dir ? 0 : pb_fail(err, EX_OSERR,
						 "out of memory");
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int is_manifest(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' &&
	       ((n > 5 && !strcmp(d->d_name + n - 5, ".yaml")) ||
		(n > 4 && !strcmp(d->d_name + n - 4, ".yml")));
}

int sources_collect_dir(const char *dir, struct source_batch *b,
			struct pb_err *err)
{
	struct dirent **ents = NULL;
	struct strbuf text = STRBUF_INIT;
	struct pb_err ferr;
	char *path;
	int i, n, rc = 0;

	n = scandir(dir, &ents, is_manifest, by_name);
	if (n < 0) {
		log_error("%s: cannot read the source directory", dir);
		b->errors++;
		return 0;
	}
	for (i = 0; i < n; i++) {
		path = path_join(dir, ents[i]->d_name);
		sb_reset(&text);
		if (!path) {
			rc = pb_fail(err, EX_OSERR, "out of memory");
		} else if (file_read(path, MANIFEST_MAX_BYTES, 1, &text,
				     &ferr)) {
			log_error("%s", ferr.msg);
			b->errors++;
		} else if (!rc) {
			size_t len = text.len;

			rc = add(b, path, dir, sb_detach(&text, NULL), len,
				 0, err);
		}
		free(path);
		free(ents[i]);
	}
	free(ents);
	sb_release(&text);
	return rc;
}

/* A JSON list of manifests: each element becomes one manifest text. */
static int split_list(const char *url, const char *body, size_t len,
		      struct source_batch *b, struct pb_err *err)
{
	json_error_t jerr;
	json_t *list = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
	struct strbuf name = STRBUF_INIT;
	size_t i;
	json_t *v;
	char *text;
	int rc = 0;

	if (!json_is_array(list)) {
		log_error("%s:%d: not a JSON list of manifests", url,
			  list ? 1 : jerr.line);
		json_decref(list);
		b->errors++;
		return 0;
	}
	json_array_foreach(list, i, v) {
		sb_reset(&name);
		text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		if (!text || sb_addf(&name, "%s#%zu", url, i)) {
			free(text);
			rc = pb_fail(err, EX_OSERR, "out of memory");
			break;
		}
		if ((rc = add(b, name.buf, ".", text, strlen(text), 1, err)))
			break;
	}
	sb_release(&name);
	json_decref(list);
	return rc;
}

/* A 200's validators and manifests, kept for sources_remember(). */
static int fetched(struct source_batch *b, const char *url,
		   const struct http_answer *a, size_t first,
		   struct pb_err *err)
{
	struct source_fetch *nf, *f;

	nf = realloc(b->fetched, (b->nfetched + 1) * sizeof(*nf));
	if (!nf)
		return pb_fail(err, EX_OSERR, "out of memory");
	b->fetched = nf;
	f = &b->fetched[b->nfetched++];
	memset(f, 0, sizeof(*f));
	f->first = first;
	f->n = b->n - first;
	f->url = strdup(url);
	f->etag = a->etag ? strdup(a->etag) : NULL;
	f->last_modified = a->last_modified ? strdup(a->last_modified) : NULL;
	return f->url && (!a->etag || f->etag) &&
	       (!a->last_modified || f->last_modified) ? 0 :
	       pb_fail(err, EX_OSERR, "out of memory");
}

static int from_url(const struct config *cfg, const char *url,
		    struct state *st, struct source_batch *b,
		    struct pb_err *err)
{
	struct strbuf body;
	struct http_answer a;
	struct pb_err herr;
	char *etag = NULL, *lm = NULL;
	size_t first = b->n;
	int rc = 0;

	(void)cfg;
	sb_init(&body, SOURCE_MAX_BYTES);
	if (st && state_source_get(st, url, &etag, &lm, err))
		return -1;
	if (fetch_get(url, etag, lm, NULL, &body, &a, &herr)) {
		log_error("%s", herr.msg);
		b->errors++;
	} else if (a.status == 304) {
		log_info("%s: not modified", url);
	} else if (a.status != 200) {
		log_error("%s: HTTP status %ld", url, a.status);
		b->errors++;
	} else {
		rc = split_list(url, sb_str(&body), body.len, b, err);
		if (!rc)
			rc = fetched(b, url, &a, first, err);
	}
	http_answer_release(&a);
	free(etag);
	free(lm);
	sb_release(&body);
	return rc;
}

int sources_collect(const struct config *cfg, struct state *st,
		    struct source_batch *b, struct pb_err *err)
{
	const char *dir, *url;
	size_t i;

	memset(b, 0, sizeof(*b));
	for (i = 0; i < cfg->nsources; i++) {
		dir = cfg->sources[i].dir;
		url = cfg->sources[i].url;
		if ((dir && sources_collect_dir(dir, b, err)) ||
		    (url && from_url(cfg, url, st, b, err)))
			return -1;
	}
	return 0;
}

int sources_remember(struct state *st, const struct source_batch *b,
		     const unsigned char *left, time_t now,
		     struct pb_err *err)
{
	const struct source_fetch *f;
	size_t i, k, open;

	for (i = 0; i < b->nfetched; i++) {
		f = &b->fetched[i];
		for (k = open = 0; left && k < f->n; k++)
			open += left[f->first + k] != 0;
		if (open) {
			log_info("%s: %zu of its manifests not settled: the "
				 "next run asks for the whole list again",
				 f->url, open);
			continue;
		}
		if (state_source_set(st, f->url, f->etag, f->last_modified,
				     now, err))
			return -1;
	}
	return 0;
}

void sources_release(struct source_batch *b)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		free(b->m[i].name);
		free(b->m[i].dir);
		free(b->m[i].text);
	}
	for (i = 0; i < b->nfetched; i++) {
		free(b->fetched[i].url);
		free(b->fetched[i].etag);
		free(b->fetched[i].last_modified);
	}
	free(b->m);
	free(b->fetched);
	memset(b, 0, sizeof(*b));
}

void source_ids_init(struct source_ids *ids)
{
	memset(ids, 0, sizeof(*ids));
	strmap_init(&ids->map);
}

void source_ids_release(struct source_ids *ids)
{
	size_t i;

	for (i = 0; i < ids->n; i++) {
		free(ids->id[i]);
		free(ids->where[i]);
	}
	free(ids->id);
	free(ids->where);
	strmap_release(&ids->map);
	memset(ids, 0, sizeof(*ids));
}

int source_ids_claim(struct source_ids *ids, const char *id,
		     const char *where, struct pb_err *err)
{
	char **nid, **nwhere;
	size_t at;

	if (!strmap_get(&ids->map, id, &at))
		return pb_fail(err, EX_DATAERR, "%s: id '%s' is the id of %s "
			       "already: skipped (each manifest needs an id "
			       "of its own)", where, id, ids->where[at]);
	nid = realloc(ids->id, (ids->n + 1) * sizeof(*nid));
	if (nid)
		ids->id = nid;
	nwhere = realloc(ids->where, (ids->n + 1) * sizeof(*nwhere));
	if (nwhere)
		ids->where = nwhere;
	if (!nid || !nwhere)
		return pb_fail(err, EX_OSERR, "out of memory");
	ids->id[ids->n] = strdup(id);
	ids->where[ids->n] = strdup(where);
	if (!ids->id[ids->n] || !ids->where[ids->n] ||
	    strmap_put(&ids->map, ids->id[ids->n], ids->n, NULL)) {
		free(ids->id[ids->n]);
		free(ids->where[ids->n]);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	ids->n++;
	return 0;
}

int source_take(const struct config *cfg, struct source_ids *ids,
		const struct manifest_text *mt, struct manifest *m,
		int *taken, struct pb_err *err)
{
	const struct ynode *id;
	char where[PB_ERR_MAX];

	if (manifest_parse_any(m, mt->name, mt->dir, mt->text, mt->len, taken,
			       err)) {
		*taken = 0;
		return -1;
	}
	if (!*taken)
		return 0;
	id = ymap_get(m->doc.root, "id");
	snprintf(where, sizeof(where), "%s:%d", m->doc.name,
		 id ? ynode_line(id) : 1);
	if ((mt->remote && manifest_check_remote(m, err)) ||
	    (m->id && source_ids_claim(ids, m->id, where, err)) ||
	    manifest_check_files(m, cfg, err) ||
	    manifest_resolve(m, cfg, err)) {
		manifest_release(m);
		*taken = 0;
		return -1;
	}
	return 0;
}
