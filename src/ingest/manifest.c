// SPDX-License-Identifier: GPL-2.0-only
/*
 * ingest: a comparison manifest loaded and checked (manifest.h): the two
 * commits and their result roots, the recipients and the posted patch it
 * answers, each error naming key and line, and the stricter rules for a
 * manifest from a url source. For the cycle's ingest, retests,
 * confirmations and 'perfbot report'.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/util/addr.h"
#include "perfbot/util/fileio.h"
#include "perfbot/ingest/manifest.h"
#include "perfbot/util/text.h"
#include "manifest_internal.h"

static const char *const top_keys[] = {
	"id", "base", "head", "to", "cc", "notes", "materials_url",
	"metrics", "kconfig_file", "patch", "headline", "bisect", "group",
};
#define NTOP_KEYS (sizeof(top_keys) / sizeof(top_keys[0]))
static const char *const side_keys[] = {
	"commit", "subject", "author", "repo", "branch", "tree",
	"result_root", "sha",
};
#define NSIDE_KEYS (sizeof(side_keys) / sizeof(side_keys[0]))

static int known(const char *key, const char *const *keys, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(key, keys[i]))
			return 1;
	return 0;
}

static int check_keys(const struct ydoc *doc, const struct ynode *map,
		      const char *const *keys, size_t nkeys,
		      const char *where, struct pb_err *err)
{
	size_t i;

	for (i = 0; i < map->n; i++) {
		const char *k = map->keys[i];
		const struct ynode *v = map->items[i];

		if (!known(k, keys, nkeys))
			return pb_fail(err, EX_DATAERR,
				       "%s:%d: unknown key '%s%.64s'",
				       doc->name, ynode_line(v), where, k);
		if (!ynode_is(v, Y_STR) && strcmp(k, "to") &&
		    strcmp(k, "cc") && strcmp(k, "notes") &&
		    strcmp(k, "base") && strcmp(k, "head") &&
		    strcmp(k, "patch") && strcmp(k, "bisect"))
			return pb_fail(err, EX_DATAERR,
				       "%s:%d: '%s%s' must be a string",
				       doc->name, ynode_line(v), where, k);
	}
	return 0;
}

int manifest_is_sha(const char *s)
{
	size_t n = strlen(s), i;

	if (n < 7 || n > 40)
		return 0;
	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}



/* A path relative to the manifest; a URL stays as it is. */
static int resolve(const char *dir, const char *rel, char **out,
		   struct pb_err *err)
{
	if (!strncmp(rel, "http://", 7) || !strncmp(rel, "https://", 8))
		*out = strdup(rel);
	else
		*out = path_join(dir, rel);
	return *out ? 0 : pb_fail(err, EX_OSERR, "out of memory");
}

static int load_side(struct manifest *m, const char *which, const char *dir,
		     struct manifest_side *s, struct pb_err *err)
{
	const struct ydoc *doc = &m->doc;
	const struct ynode *map = ymap_get(doc->root, which);
	const char *rr;
	char where[8];

	if (!ynode_is(map, Y_MAP))
		return pb_fail(err, EX_DATAERR, "%s: '%s' must be a mapping "
			       "with commit and result_root", doc->name, which);
	snprintf(where, sizeof(where), "%s.", which);
	if (check_keys(doc, map, side_keys, NSIDE_KEYS, where, err) ||
	    manifest_load_commit(doc, map, which, s, err))
		return -1;
	s->subject = ynode_str(ymap_get(map, "subject"));
	if (!s->subject)
		s->subject = "";
	s->author = ynode_str(ymap_get(map, "author"));
	s->repo = ynode_str(ymap_get(map, "repo"));
	s->branch = ynode_str(ymap_get(map, "branch"));
	s->tree = ynode_str(ymap_get(map, "tree"));
	rr = ynode_str(ymap_get(map, "result_root"));
	if (!rr)
		return pb_fail(err, EX_DATAERR, "%s:%d: '%s.result_root' is "
			       "missing", doc->name, ynode_line(map), which);
	return resolve(dir, rr, &s->result_root, err);
}

/*
 * Values that reach a header (the subject, To/Cc, ids) hold no control
 * character; an author is exactly one mailbox.
 */
static int check_value(const struct ydoc *doc, const struct ynode *map,
		       const char *key, const char *where,
		       struct pb_err *err)
{
	const struct ynode *v = ymap_get(map, key), *e;
	const char *why = NULL;
	size_t i;

	if (ynode_is(v, Y_STR) && !strcmp(key, "author") &&
	    addr_check_mailbox_n(v->str, v->len, NULL, 0, &why))
		return pb_fail(err, EX_DATAERR, "%s:%d: '%s%s' is not one "
			       "mail address: %s", doc->name, ynode_line(v),
			       where, key, why);
	if (ynode_is(v, Y_STR) && text_has_control(v->str, v->len))
		return pb_fail(err, EX_DATAERR, "%s:%d: '%s%s' holds a "
			       "control character", doc->name, ynode_line(v),
			       where, key);
	for (i = 0; ynode_is(v, Y_SEQ) && i < v->n; i++) {
		e = v->items[i];
		if (ynode_is(e, Y_STR) && text_has_control(e->str, e->len))
			return pb_fail(err, EX_DATAERR, "%s:%d: '%s%s' holds a "
				       "control character", doc->name,
				       ynode_line(e), where, key);
	}
	/* to, cc: each exactly one mailbox, checked as the config's are */
	for (i = 0; ynode_is(v, Y_SEQ) && (!strcmp(key, "to") ||
					   !strcmp(key, "cc")) && i < v->n; i++) {
		e = v->items[i];
		if (ynode_is(e, Y_STR) &&
		    addr_check_mailbox_n(e->str, e->len, NULL, 0, &why))
			return pb_fail(err, EX_DATAERR, "%s:%d: '%s%s' holds "
				       "what is not one mail address: %s",
				       doc->name, ynode_line(e), where, key,
				       why);
	}
	return 0;
}

static int check_values(const struct manifest *m, struct pb_err *err)
{
	static const char *const root[] = { "id", "to", "cc",
					    "materials_url" };
	static const char *const side[] = { "subject", "author", "repo",
					    "branch", "tree" };
	const struct ydoc *doc = &m->doc;
	const struct ynode *b = ymap_get(doc->root, "base");
	const struct ynode *h = ymap_get(doc->root, "head");
	size_t i;

	for (i = 0; i < sizeof(root) / sizeof(root[0]); i++)
		if (check_value(doc, doc->root, root[i], "", err))
			return -1;
	for (i = 0; i < sizeof(side) / sizeof(side[0]); i++)
		if (check_value(doc, b, side[i], "base.", err) ||
		    check_value(doc, h, side[i], "head.", err))
			return -1;
	return 0;
}

/*
 * The strings of list 'l' (checked to hold only strings; the document
 * keeps them) as 'out'.
 */
static int strv_of(const struct ynode *l, struct strv *out,
		   struct pb_err *err)
{
	size_t i;

	out->n = l->n;
	out->v = calloc(out->n + 1, sizeof(*out->v));
	if (!out->v)
		return pb_fail(err, EX_OSERR, "out of memory");
	for (i = 0; i < out->n; i++)
		out->v[i] = ynode_str(l->items[i]);
	return 0;
}

/* A null list or item names no line (ynode_msg_line), as it never has. */
static int string_list(struct manifest *m, const char *key,
		       struct strv *out, struct pb_err *err)
{
	const struct ynode *l = ymap_get(m->doc.root, key);
	size_t i;

	if (!l)
		return 0;
	if (!ynode_is(l, Y_SEQ))
		return pb_fail(err, EX_DATAERR, "%s:%d: '%s' must be a list",
			       m->doc.name, ynode_msg_line(l), key);
	for (i = 0; i < l->n; i++)
		if (!ynode_is(l->items[i], Y_STR))
			return pb_fail(err, EX_DATAERR,
				       "%s:%d: '%s' must hold strings",
				       m->doc.name,
				       ynode_msg_line(l->items[i]), key);
	return strv_of(l, out, err);
}

/* ---- patch: the posted patch a report answers ---- */

#define PATCH_MAX_TEXT 2000	/* bytes of a subject, URL or base */
#define PATCH_MAX_ID 250	/* bytes of a Message-ID */

static const char *const patch_keys[] = {
	"message_id", "subject", "link", "url", "base", "references", "to",
	"cc",
};

/* atext (RFC 5322) and '.', the characters of a dot-atom. */
static int id_char(char c)
{
	return isalnum((unsigned char)c) || (c && strchr("!#$%&'*+-/=?^_`{|}~.",
							  c));
}

/*
 * A Message-ID "<left@right>" or "left@right": both sides dot-atoms
 * (RFC 5322 msg-id without the obsolete forms); a copy without the angle
 * brackets, or NULL.
 */
static char *msgid_strip(const char *s)
{
	size_t n = strlen(s), i, at = 0, ats = 0;

	if (n >= 2 && s[0] == '<' && s[n - 1] == '>') {
		s++;
		n -= 2;
	}
	if (!n || n > PATCH_MAX_ID)
		return NULL;
	for (i = 0; i < n; i++) {
		if (s[i] == '@') {
			at = i;
			ats++;
		} else if (!id_char(s[i])) {
			return NULL;
		}
	}
	if (ats != 1 || at == 0 || at == n - 1)
		return NULL;
	return strndup(s, n);
}

static int is_http_url(const char *s)
{
	const char *p;
	size_t n = strlen(s);

	if (strncmp(s, "http://", 7) && strncmp(s, "https://", 8))
		return 0;
	p = s + (s[4] == 's' ? 8 : 7);
	if (!*p || *p == '/')
		return 0;
	/* no control character and no blank */
	return text_scrub_at(s, n, TEXT_SPACE_CTRL) == n;
}

static int patch_fail(const struct manifest *m, const struct ynode *map,
		      const char *key, const char *why, struct pb_err *err)
{
	return pb_fail(err, EX_DATAERR, "%s:%d: 'patch.%s' %s", m->doc.name,
		       ynode_line(ymap_get(map, key)), key, why);
}

/* A list of strings, each one line; Message-IDs when 'ids'. */
/*
 * A list of one-line strings: the patch's To or Cc ('out'), or with
 * 'ids' its References, each made a Message-ID without brackets (the
 * patch's 'references').
 */
static int patch_list(struct manifest *m, const struct ynode *map,
		      const char *key, int ids, struct strv *out,
		      struct pb_err *err)
{
	struct manifest_patch *p = &m->patch;
	const struct ynode *l = ymap_get(map, key);
	size_t i;
	char *id;

	if (!l)
		return 0;
	if (!ynode_is(l, Y_SEQ))
		return patch_fail(m, map, key, "must be a list", err);
	if (ids && !(p->references = calloc(l->n + 1,
					    sizeof(*p->references))))
		return pb_fail(err, EX_OSERR, "out of memory");
	for (i = 0; i < l->n; i++) {
		const char *s = ynode_str(l->items[i]), *why;
		size_t n = s ? strlen(s) : 0;
		int line = ynode_line(l->items[i]);

		if (!n || n > PATCH_MAX_TEXT || text_scrub_at(s, n, 0) < n ||
		    n != l->items[i]->len)
			return pb_fail(err, EX_DATAERR, "%s:%d: 'patch.%s' "
				       "must hold one-line strings",
				       m->doc.name, line, key);
		if (!ids && addr_check_mailbox_n(s, n, NULL, 0, &why))
			return pb_fail(err, EX_DATAERR, "%s:%d: 'patch.%s': "
				       "'%.80s' is not one mail address: %s",
				       m->doc.name, line, key, s, why);
		if (!ids)
			continue;
		if (!(id = msgid_strip(s)))
			return pb_fail(err, EX_DATAERR, "%s:%d: 'patch.%s': "
				       "'%.80s' is not a Message-ID "
				       "(<left@right>)", m->doc.name, line,
				       key, s);
		p->references[p->nreferences++] = id;
	}
	return ids ? 0 : strv_of(l, out, err);
}

/* A one-line text; an http(s) URL when 'url'. */
static int patch_text(struct manifest *m, const struct ynode *map,
		      const char *key, int url, const char **out,
		      struct pb_err *err)
{
	size_t n;

	*out = ynode_str(ymap_get(map, key));
	if (!*out)
		return 0;
	n = strlen(*out);
	if (n != ymap_get(map, key)->len)
		return patch_fail(m, map, key, "holds a NUL character", err);
	if (!n || n > PATCH_MAX_TEXT || text_scrub_at(*out, n, 0) < n)
		return patch_fail(m, map, key, "must be one line of text, "
				  "without control characters", err);
	if (url && !is_http_url(*out))
		return patch_fail(m, map, key, "must be an http(s) URL "
				  "without blanks", err);
	return 0;
}

static int patch_keys_ok(struct manifest *m, const struct ynode *map,
			 struct pb_err *err)
{
	const size_t n = sizeof(patch_keys) / sizeof(patch_keys[0]);
	size_t i;

	for (i = 0; i < map->n; i++) {
		const char *k = map->keys[i];
		int list = !strcmp(k, "references") || !strcmp(k, "to") ||
			   !strcmp(k, "cc");

		if (!known(k, patch_keys, n))
			return pb_fail(err, EX_DATAERR, "%s:%d: unknown key "
				       "'patch.%.64s'", m->doc.name,
				       ynode_line(map->items[i]), k);
		if (!list && !ynode_is(map->items[i], Y_STR))
			return patch_fail(m, map, k, "must be a string", err);
	}
	return 0;
}

static int load_patch(struct manifest *m, struct pb_err *err)
{
	const struct ynode *map = ymap_get(m->doc.root, "patch");
	struct manifest_patch *p = &m->patch;
	const char *id;

	if (!map)
		return 0;
	if (!ynode_is(map, Y_MAP))
		return pb_fail(err, EX_DATAERR, "%s:%d: 'patch' must be a "
			       "mapping with message_id and subject",
			       m->doc.name, ynode_line(map));
	if (patch_keys_ok(m, map, err))
		return -1;
	id = ynode_str(ymap_get(map, "message_id"));
	if (!id)
		return pb_fail(err, EX_DATAERR, "%s:%d: 'patch.message_id' is "
			       "missing", m->doc.name, ynode_line(map));
	if (strlen(id) != ymap_get(map, "message_id")->len)
		return patch_fail(m, map, "message_id", "holds a NUL "
				  "character", err);
	if (!(p->message_id = msgid_strip(id)))
		return patch_fail(m, map, "message_id", "is not a Message-ID "
				  "(<left@right>)", err);
	if (patch_text(m, map, "subject", 0, &p->subject, err) ||
	    patch_text(m, map, "link", 1, &p->link, err) ||
	    patch_text(m, map, "url", 1, &p->url, err) ||
	    patch_text(m, map, "base", 0, &p->base, err) ||
	    patch_list(m, map, "references", 1, NULL, err) ||
	    patch_list(m, map, "to", 0, &p->to, err) ||
	    patch_list(m, map, "cc", 0, &p->cc, err))
		return -1;
	if (!p->subject)
		return pb_fail(err, EX_DATAERR, "%s:%d: 'patch.subject' is "
			       "missing", m->doc.name, ynode_line(map));
	return 0;
}

static int load_root(struct manifest *m, const char *dir, struct pb_err *err)
{
	const struct ynode *root = m->doc.root;
	const char *s;

	if (!ynode_is(root, Y_MAP))
		return pb_fail(err, EX_DATAERR, "%s: not a mapping",
			       m->doc.name);
	if (check_keys(&m->doc, root, top_keys, NTOP_KEYS, "", err) ||
	    load_side(m, "base", dir, &m->base, err) ||
	    load_side(m, "head", dir, &m->head, err) ||
	    string_list(m, "to", &m->to, err) ||
	    string_list(m, "cc", &m->cc, err) ||
	    string_list(m, "notes", &m->notes, err) ||
	    load_patch(m, err) || check_values(m, err) ||
	    manifest_bisect(m, err))
		return -1;
	m->id = ynode_str(ymap_get(root, "id"));
	m->materials_url = ynode_str(ymap_get(root, "materials_url"));
	m->headline = ynode_str(ymap_get(root, "headline"));
	if (manifest_load_group(m, err))
		return -1;
	s = ynode_str(ymap_get(root, "metrics"));
	if (s && resolve(dir, s, &m->metrics, err))
		return -1;
	s = ynode_str(ymap_get(root, "kconfig_file"));
	if (s && resolve(dir, s, &m->kconfig_file, err))
		return -1;
	return 0;
}

/*
 * Why a YAML document is no manifest at all (a metrics.yaml beside the
 * manifests), or NULL. Decided from the document's shape, never its
 * name: a manifest's 'base' and 'head' are mappings, where a metric
 * table's 'base' is a file name. So a mapping with a 'base' or 'head'
 * mapping is a manifest; a 'base' string with no 'head' is a metric
 * table's; otherwise a mapping whose keys are all a manifest's is one
 * (a broken one, then).
 */
static const char *not_manifest(const struct ynode *root)
{
	const struct ynode *base, *head;
	size_t i;

	if (!root)
		return "empty";
	if (!ynode_is(root, Y_MAP))
		return "not a mapping";
	base = ymap_get(root, "base");
	head = ymap_get(root, "head");
	if (ynode_is(base, Y_MAP) || ynode_is(head, Y_MAP))
		return NULL;
	if (ynode_is(base, Y_STR) && !head)
		return "its 'base' is a string, as a metric table's; a "
			"manifest's is a mapping";
	if (base || head)
		return NULL;
	for (i = 0; i < root->n; i++)
		if (!known(root->keys[i], top_keys, NTOP_KEYS))
			return "no 'base' nor 'head', and keys no manifest "
				"has";
	return NULL;
}

static int parse(struct manifest *m, const char *name, const char *dir,
		 const char *text, size_t len, int sniff, int *is_manifest,
		 struct pb_err *err)
{
	const char *why;

	memset(m, 0, sizeof(*m));
	*is_manifest = 0;
	if (yaml_load_str(name, text, len, &m->doc, err))
		return -1;	/* the loader keeps nothing on failure */
	if (sniff && (why = not_manifest(m->doc.root))) {
		pb_fail(err, EX_DATAERR, "%s: not a manifest (%s)", name, why);
		manifest_release(m);
		return 0;
	}
	*is_manifest = 1;
	m->dir = strdup(dir);
	if (!m->dir) {
		manifest_release(m);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	if (load_root(m, dir, err)) {
		manifest_release(m);
		return -1;
	}
	return 0;
}

int manifest_parse_any(struct manifest *m, const char *name,
		       const char *dir, const char *text, size_t len,
		       int *is_manifest, struct pb_err *err)
{
	return parse(m, name, dir, text, len, 1, is_manifest, err);
}

int manifest_parse(struct manifest *m, const char *name, const char *dir,
		   const char *text, size_t len, struct pb_err *err)
{
	int is;

	return parse(m, name, dir, text, len, 0, &is, err);
}

int manifest_load(struct manifest *m, const char *path, struct pb_err *err)
{
	struct strbuf text = STRBUF_INIT;
	char *dir = path_dirname(path);
	int rc = -1;

	memset(m, 0, sizeof(*m));
	if (!dir)
		return pb_fail(err, EX_OSERR, "out of memory");
	if (!file_read(path, MANIFEST_MAX_BYTES, 1, &text, err))
		rc = manifest_parse(m, path, dir, sb_str(&text), text.len,
				    err);
	sb_release(&text);
	free(dir);
	return rc;
}

void manifest_release(struct manifest *m)
{
	size_t i;

	free(m->dir);
	free(m->base.result_root);
	free(m->head.result_root);
	free(m->base.resolved);
	free(m->head.resolved);
	free(m->metrics);
	free(m->kconfig_file);
	free(m->patch.message_id);
	for (i = 0; i < m->patch.nreferences; i++)
		free(m->patch.references[i]);
	free(m->patch.references);
	free(m->patch.to.v);
	free(m->patch.cc.v);
	free(m->to.v);
	free(m->cc.v);
	free(m->notes.v);
	ydoc_release(&m->doc);
	memset(m, 0, sizeof(*m));
}

static int is_url(const char *s)
{
	return !strncmp(s, "http://", 7) || !strncmp(s, "https://", 8);
}

int manifest_check_remote(const struct manifest *m, struct pb_err *err)
{
	static const char *const local[] = { "kconfig_file", "metrics" };
	const struct manifest_side *sides[2] = { &m->base, &m->head };
	size_t i;

	for (i = 0; i < 2; i++)
		if (!is_url(sides[i]->result_root))
			return pb_fail(err, EX_DATAERR, "%s: '%s.result_root' "
				       "must be an http(s) URL in a manifest "
				       "from a url source", m->doc.name,
				       i ? "head" : "base");
	for (i = 0; i < sizeof(local) / sizeof(local[0]); i++)
		if (ymap_get(m->doc.root, local[i]))
			return pb_fail(err, EX_DATAERR, "%s:%d: '%s' names a "
				       "local file, which a manifest from a "
				       "url source may not do", m->doc.name,
				       ynode_line(ymap_get(m->doc.root,
							   local[i])),
				       local[i]);
	return 0;
}

