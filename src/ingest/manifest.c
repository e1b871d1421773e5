// SPDX-License-Identifier: GPL-2.0-only
/*
 * ingest: a comparison manifest loaded and checked (manifest.h): the two
 * commits and their result roots, the recipients and the posted patch it
 * answers, each error naming key and line, and the stricter rules for a
 * manifest from a url source. For the cycle's ingest, retests,
 * confirmations and 'perfbot report'.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/util/addr.h"
#include "perfbot/util/fileio.h"
#include "perfbot/ingest/manifest.h"
#include "perfbot/util/text.h"

static const char *const top_keys[] = {
	"id", "base", "head", "to", "cc", "notes", "materials_url",
	"metrics", "kconfig_file", "patch",
};
static const char *const side_keys[] = {
	"commit", "subject", "author", "repo", "branch", "tree",
	"result_root",
};

static int known(const char *key, const char *const *keys, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(key, keys[i]))
			return 1;
	return 0;
}

static int check_keys(const struct ydoc *doc, json_t *map,
		      const char *const *keys, size_t n, const char *where,
		      struct pb_err *err)
{
	const char *k;
	json_t *v;

	json_object_foreach(map, k, v) {
		if (!known(k, keys, n))
			return pb_fail(err, EX_DATAERR,
				       "%s:%d: unknown key '%s%.64s'",
				       doc->name, ydoc_key_line(doc, map, k),
				       where, k);
		if (!json_is_string(v) && strcmp(k, "to") &&
		    strcmp(k, "cc") && strcmp(k, "notes") &&
		    strcmp(k, "base") && strcmp(k, "head") &&
		    strcmp(k, "patch"))
			return pb_fail(err, EX_DATAERR,
				       "%s:%d: '%s%s' must be a string",
				       doc->name, ydoc_key_line(doc, map, k),
				       where, k);
	}
	return 0;
}

static int is_sha(const char *s)
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
	json_t *map = json_object_get(doc->root, which);
	const char *rr;
	char where[8];

	if (!json_is_object(map))
		return pb_fail(err, EX_DATAERR, "%s: '%s' must be a mapping "
			       "with commit and result_root", doc->name, which);
	snprintf(where, sizeof(where), "%s.", which);
	if (check_keys(doc, map, side_keys, 7, where, err))
		return -1;
	s->commit = json_string_value(json_object_get(map, "commit"));
	if (!s->commit || !is_sha(s->commit))
		return pb_fail(err, EX_DATAERR, "%s:%d: '%s.commit' must be "
			       "7 to 40 hex digits", doc->name,
			       ydoc_line(doc, map), which);
	s->subject = json_string_value(json_object_get(map, "subject"));
	if (!s->subject)
		s->subject = "";
	s->author = json_string_value(json_object_get(map, "author"));
	s->repo = json_string_value(json_object_get(map, "repo"));
	s->branch = json_string_value(json_object_get(map, "branch"));
	s->tree = json_string_value(json_object_get(map, "tree"));
	rr = json_string_value(json_object_get(map, "result_root"));
	if (!rr)
		return pb_fail(err, EX_DATAERR, "%s:%d: '%s.result_root' is "
			       "missing", doc->name, ydoc_line(doc, map), which);
	return resolve(dir, rr, &s->result_root, err);
}

/*
 * Values that reach a header (the subject, To/Cc, ids) hold no control
 * character; an author is exactly one mailbox.
 */
static int check_value(const struct ydoc *doc, json_t *map, const char *key,
		       const char *where, struct pb_err *err)
{
	json_t *v = json_object_get(map, key), *e;
	const char *why = NULL;
	size_t i;

	if (json_is_string(v) && !strcmp(key, "author") &&
	    addr_check_mailbox_n(json_string_value(v), json_string_length(v),
				 NULL, 0, &why))
		return pb_fail(err, EX_DATAERR, "%s:%d: '%s%s' is not one "
			       "mail address: %s", doc->name,
			       ydoc_key_line(doc, map, key), where, key, why);
	if (json_is_string(v) && text_has_control(json_string_value(v),
						  json_string_length(v)))
		return pb_fail(err, EX_DATAERR, "%s:%d: '%s%s' holds a "
			       "control character", doc->name,
			       ydoc_key_line(doc, map, key), where, key);
	json_array_foreach(json_is_array(v) ? v : NULL, i, e)
		if (json_is_string(e) && text_has_control(json_string_value(e),
							  json_string_length(e)))
			return pb_fail(err, EX_DATAERR, "%s:%d: '%s%s' holds a "
				       "control character", doc->name,
				       ydoc_line(doc, e), where, key);
	/* to, cc: each exactly one mailbox, checked as the config's are */
	json_array_foreach(json_is_array(v) && (!strcmp(key, "to") ||
		!strcmp(key, "cc")) ? v : NULL, i, e)
		if (json_is_string(e) &&
		    addr_check_mailbox_n(json_string_value(e),
					 json_string_length(e), NULL, 0, &why))
			return pb_fail(err, EX_DATAERR, "%s:%d: '%s%s' holds "
				       "what is not one mail address: %s",
				       doc->name, ydoc_line(doc, e), where, key,
				       why);
	return 0;
}

static int check_values(const struct manifest *m, struct pb_err *err)
{
	static const char *const root[] = { "id", "to", "cc",
					    "materials_url" };
	static const char *const side[] = { "subject", "author", "repo",
					    "branch", "tree" };
	const struct ydoc *doc = &m->doc;
	json_t *b = json_object_get(doc->root, "base");
	json_t *h = json_object_get(doc->root, "head");
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

/* The strings of list 'l' (of the document, which keeps them) as 'out'. */
static int strv_of(json_t *l, struct strv *out, struct pb_err *err)
{
	size_t i;

	out->n = json_array_size(l);
	out->v = calloc(out->n + 1, sizeof(*out->v));
	if (!out->v)
		return pb_fail(err, EX_OSERR, "out of memory");
	for (i = 0; i < out->n; i++)
		out->v[i] = json_string_value(json_array_get(l, i));
	return 0;
}

static int string_list(struct manifest *m, const char *key,
		       struct strv *out, struct pb_err *err)
{
	json_t *l = json_object_get(m->doc.root, key), *v;
	size_t i;

	if (!l)
		return 0;
	if (!json_is_array(l))
		return pb_fail(err, EX_DATAERR, "%s:%d: '%s' must be a list",
			       m->doc.name, ydoc_line(&m->doc, l), key);
	json_array_foreach(l, i, v)
		if (!json_is_string(v))
			return pb_fail(err, EX_DATAERR,
				       "%s:%d: '%s' must hold strings",
				       m->doc.name, ydoc_line(&m->doc, v), key);
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

static int patch_fail(const struct manifest *m, const json_t *map,
		      const char *key, const char *why, struct pb_err *err)
{
	return pb_fail(err, EX_DATAERR, "%s:%d: 'patch.%s' %s", m->doc.name,
		       ydoc_key_line(&m->doc, map, key), key, why);
}

/* A list of strings, each one line; Message-IDs when 'ids'. */
/*
 * A list of one-line strings: the patch's To or Cc ('out'), or with
 * 'ids' its References, each made a Message-ID without brackets (the
 * patch's 'references').
 */
static int patch_list(struct manifest *m, json_t *map, const char *key,
		      int ids, struct strv *out, struct pb_err *err)
{
	struct manifest_patch *p = &m->patch;
	json_t *l = json_object_get(map, key), *v;
	size_t i;
	char *id;

	if (!l)
		return 0;
	if (!json_is_array(l))
		return patch_fail(m, map, key, "must be a list", err);
	if (ids && !(p->references = calloc(json_array_size(l) + 1,
					    sizeof(*p->references))))
		return pb_fail(err, EX_OSERR, "out of memory");
	json_array_foreach(l, i, v) {
		const char *s = json_string_value(v), *why;
		size_t n = s ? strlen(s) : 0;
		int line = ydoc_item_line(&m->doc, l, i);

		if (!n || n > PATCH_MAX_TEXT || text_scrub_at(s, n, 0) < n ||
		    n != json_string_length(v))
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
static int patch_text(struct manifest *m, json_t *map, const char *key,
		      int url, const char **out, struct pb_err *err)
{
	size_t n;

	*out = json_string_value(json_object_get(map, key));
	if (!*out)
		return 0;
	n = strlen(*out);
	if (n != json_string_length(json_object_get(map, key)))
		return patch_fail(m, map, key, "holds a NUL character", err);
	if (!n || n > PATCH_MAX_TEXT || text_scrub_at(*out, n, 0) < n)
		return patch_fail(m, map, key, "must be one line of text, "
				  "without control characters", err);
	if (url && !is_http_url(*out))
		return patch_fail(m, map, key, "must be an http(s) URL "
				  "without blanks", err);
	return 0;
}

static int patch_keys_ok(struct manifest *m, json_t *map, struct pb_err *err)
{
	const size_t n = sizeof(patch_keys) / sizeof(patch_keys[0]);
	const char *k;
	json_t *v;

	json_object_foreach(map, k, v) {
		int list = !strcmp(k, "references") || !strcmp(k, "to") ||
			   !strcmp(k, "cc");

		if (!known(k, patch_keys, n))
			return pb_fail(err, EX_DATAERR, "%s:%d: unknown key "
				       "'patch.%.64s'", m->doc.name,
				       ydoc_key_line(&m->doc, map, k), k);
		if (!list && !json_is_string(v))
			return patch_fail(m, map, k, "must be a string", err);
	}
	return 0;
}

static int load_patch(struct manifest *m, struct pb_err *err)
{
	json_t *map = json_object_get(m->doc.root, "patch");
	struct manifest_patch *p = &m->patch;
	const char *id;

	if (!map)
		return 0;
	if (!json_is_object(map))
		return pb_fail(err, EX_DATAERR, "%s:%d: 'patch' must be a "
			       "mapping with message_id and subject",
			       m->doc.name, ydoc_key_line(&m->doc, m->doc.root,
							  "patch"));
	if (patch_keys_ok(m, map, err))
		return -1;
	id = json_string_value(json_object_get(map, "message_id"));
	if (!id)
		return pb_fail(err, EX_DATAERR, "%s:%d: 'patch.message_id' is "
			       "missing", m->doc.name, ydoc_line(&m->doc, map));
	if (strlen(id) != json_string_length(json_object_get(map,
							     "message_id")))
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
			       "missing", m->doc.name, ydoc_line(&m->doc, map));
	return 0;
}

static int load_root(struct manifest *m, const char *dir, struct pb_err *err)
{
	json_t *root = m->doc.root;
	const char *s;

	if (!json_is_object(root))
		return pb_fail(err, EX_DATAERR, "%s: not a mapping",
			       m->doc.name);
	if (check_keys(&m->doc, root, top_keys, 10, "", err) ||
	    load_side(m, "base", dir, &m->base, err) ||
	    load_side(m, "head", dir, &m->head, err) ||
	    string_list(m, "to", &m->to, err) ||
	    string_list(m, "cc", &m->cc, err) ||
	    string_list(m, "notes", &m->notes, err) ||
	    load_patch(m, err) || check_values(m, err))
		return -1;
	m->id = json_string_value(json_object_get(root, "id"));
	m->materials_url = json_string_value(json_object_get(root,
							     "materials_url"));
	s = json_string_value(json_object_get(root, "metrics"));
	if (s && resolve(dir, s, &m->metrics, err))
		return -1;
	s = json_string_value(json_object_get(root, "kconfig_file"));
	if (s && resolve(dir, s, &m->kconfig_file, err))
		return -1;
	return 0;
}

int manifest_parse(struct manifest *m, const char *name, const char *dir,
		   const char *text, size_t len, struct pb_err *err)
{
	memset(m, 0, sizeof(*m));
	if (yaml_load_str(name, text, len, &m->doc, err))
		return -1;	/* the loader keeps nothing on failure */
	if (load_root(m, dir, err)) {
		manifest_release(m);
		return -1;
	}
	return 0;
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

	free(m->base.result_root);
	free(m->head.result_root);
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
		if (json_object_get(m->doc.root, local[i]))
			return pb_fail(err, EX_DATAERR, "%s:%d: '%s' names a "
				       "local file, which a manifest from a "
				       "url source may not do", m->doc.name,
				       ydoc_key_line(&m->doc, m->doc.root,
						     local[i]), local[i]);
	return 0;
}
