// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rules file: one key per LKP rule list, each compiled into a
 * patlist with the anchoring of the lkp-tests file it comes from. An
 * "era" file (the seeds' older LKP versions) names a 'base' file and
 * replaces whole keys of it.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/util/fileio.h"
#include "rules_internal.h"
#include "perfbot/util/strbuf.h"
#include "perfbot/util/strmap.h"
#include "perfbot/util/yaml.h"

#define RULES_MAX_BYTES (1 << 20)

static const struct list_spec {
	const char *key;
	enum pat_mode mode;
	enum entry entry;
} specs[L_COUNT] = {
	[L_FAILURE] = { "failure", PAT_START, E_PLAIN },
	[L_PASS] = { "pass", PAT_START, E_PLAIN },
	[L_FAILURE_EXCLUDE] = { "failure_exclude", PAT_SEARCH, E_PLAIN },
	[L_DENY] = { "stat_denylist", PAT_SEARCH, E_PLAIN },
	[L_ALLOW] = { "stat_allowlist", PAT_SEARCH, E_PLAIN },
	[L_REPORT_ALLOW] = { "report_allowlist", PAT_SEARCH, E_PLAIN },
	[L_PERF_PREFIXES] = { "perf_prefixes", PAT_PREFIX, E_PLAIN },
	[L_PERF_PROGRAMS] = { "perf_programs", PAT_PREFIX, E_FAMILY },
	[L_PERF_PATTERNS] = { "perf_patterns", PAT_SEARCH, E_PLAIN },
	[L_ABSOLUTE] = { "absolute", PAT_SEARCH, E_PLAIN },
	[L_FAM_INCOMPLETE] = { "incomplete_run_families", PAT_PREFIX,
			       E_FAMILY },
	[L_FAM_UNPAIRED] = { "unpaired_failure_families", PAT_PREFIX,
			     E_FAMILY },
	[L_FAM_MONITORED] = { "monitored_families", PAT_PREFIX, E_FAMILY },
	[L_THRESHOLDS] = { "thresholds", PAT_WHOLE, E_VALUE },
	[L_FALLBACKS] = { "fallbacks", PAT_SEARCH, E_BOUND },
	[L_DIRECTION] = { "direction", PAT_WHOLE, E_VALUE },
	/* names, not patterns: lkp-tests' programs for a job's axes */
	[L_JOB_OPTIONS] = { "job_program_options", PAT_WHOLE, E_NAME },
	[L_JOB_MONITORS] = { "job_monitors", PAT_WHOLE, E_NAME },
	[L_JOB_WRAPPER] = { "job_wrapper_options", PAT_WHOLE, E_NAME },
	/* LKP's KPI index: which stat a bisection follows, which way */
	[L_INDEX_PERF] = { "index_perf", PAT_WHOLE, E_VALUE },
	[L_INDEX_PERF_ALL] = { "index_perf_all", PAT_WHOLE, E_VALUE },
	[L_INDEX_LATENCY] = { "index_latency", PAT_WHOLE, E_VALUE },
	[L_INDEX_LATENCY_ALL] = { "index_latency_all", PAT_WHOLE, E_VALUE },
	[L_KPI_DENY] = { "kpi_denylist", PAT_WHOLE, E_PLAIN },
};

static const struct table_format default_format = {
	.float_below = 1000,
	.exp_above = 100000000,
	.zero_as_int = 0,
	.stddev_above = 2,
	.stddev_zero_mean = 1,
	.change_decimals = 1,
	.change_sign = 1,
	.change_blank_below = 0,
	.change_exp_above = 100000,
	.absolute_exponent = 0,
};

enum ftype { F_DOUBLE, F_BOOL, F_DECIMALS };

static const struct format_key {
	const char *key;
	enum ftype type;
	size_t off;
} format_keys[] = {
	{ "float_below", F_DOUBLE, offsetof(struct table_format, float_below) },
	{ "exp_above", F_DOUBLE, offsetof(struct table_format, exp_above) },
	{ "zero_as_int", F_BOOL, offsetof(struct table_format, zero_as_int) },
	{ "stddev_above", F_DOUBLE,
	  offsetof(struct table_format, stddev_above) },
	{ "stddev_zero_mean", F_BOOL,
	  offsetof(struct table_format, stddev_zero_mean) },
	{ "change_decimals", F_DECIMALS,
	  offsetof(struct table_format, change_decimals) },
	{ "change_sign", F_BOOL, offsetof(struct table_format, change_sign) },
	{ "change_blank_below", F_DOUBLE,
	  offsetof(struct table_format, change_blank_below) },
	{ "change_exp_above", F_DOUBLE,
	  offsetof(struct table_format, change_exp_above) },
	{ "absolute_exponent", F_BOOL,
	  offsetof(struct table_format, absolute_exponent) },
};

/* An unknown key with a null value names no line (ynode_msg_line). */
static int load_format_key(const struct ydoc *doc, struct table_format *f,
			   const char *key, const struct ynode *val,
			   struct pb_err *err)
{
	const struct format_key *k = NULL;
	char *base = (char *)f;
	long l;
	size_t i;

	for (i = 0; i < sizeof(format_keys) / sizeof(format_keys[0]); i++)
		if (!strcmp(format_keys[i].key, key))
			k = &format_keys[i];
	if (!k)
		return pb_fail(err, EX_CONFIG,
			       "%s:%d: unknown key 'format.%.64s'", doc->name,
			       ynode_msg_line(val), key);
	if (k->type == F_DOUBLE)
		return yaml_as_double(doc, val, key,
				      (double *)(base + k->off), err);
	if (k->type == F_BOOL)
		return yaml_as_bool(doc, val, key, (int *)(base + k->off),
				    err);
	if (yaml_as_long(doc, val, key, 0, 3, &l, err))
		return -1;
	*(int *)(base + k->off) = (int)l;
	return 0;
}

static int load_format(const struct ydoc *doc, struct rules *r,
		       const struct ynode *map, struct pb_err *err)
{
	size_t i;

	if (!ynode_is(map, Y_MAP))
		return pb_fail(err, EX_CONFIG, "%s:%d: 'format' must be a "
			       "mapping", doc->name, ynode_msg_line(map));
	for (i = 0; i < map->n; i++)
		if (load_format_key(doc, &r->fmt, map->keys[i], map->items[i],
				    err))
			return -1;
	return 0;
}

static void sources_clear(struct list *l)
{
	size_t i;

	for (i = 0; i < l->nsrc; i++)
		free(l->src[i].pattern);
	l->nsrc = 0;
}

static void list_release(struct list *l)
{
	sources_clear(l);
	free(l->src);
	patlist_free(l->pl);
	free(l->val);
	memset(l, 0, sizeof(*l));
}

/* { match: PATTERN, value | max_above | delta_above: NUMBER } */
static int load_valued(const struct ydoc *doc, int list,
		       const struct ynode *e, int line, const char **pat,
		       struct value *v, struct pb_err *err)
{
	static const char *const bound[2] = { "max_above", "delta_above" };
	const char *vkey = specs[list].entry == E_VALUE ? "value" : NULL;
	const struct ynode *vnode = NULL;
	long l;
	int i;

	*pat = ynode_str(ymap_get(e, "match"));
	if (vkey)
		vnode = ymap_get(e, vkey);
	for (i = 0; !vkey && i < 2; i++)
		if ((vnode = ymap_get(e, bound[i]))) {
			v->on_delta = i;
			break;
		}
	if (!ynode_is(e, Y_MAP) || !*pat || !ynode_is(vnode, Y_STR) ||
	    e->n != 2)
		return pb_fail(err, EX_CONFIG, "%s:%d: '%s' entries are "
			       "{ match: PATTERN, %s: NUMBER }", doc->name,
			       line, specs[list].key,
			       vkey ? vkey : "max_above|delta_above");
	if (yaml_as_double(doc, vnode, "value", &v->v, err))
		return -1;
	v->integer = !parse_long(vnode->str, -1000000000L, 1000000000L, &l);
	if (list == L_DIRECTION && v->v != 1 && v->v != -1)
		return pb_fail(err, EX_CONFIG, "%s:%d: a direction is 1 or -1",
			       doc->name, ynode_line(vnode));
	return 0;
}

/* One entry of list 'list' (item 'i' of 'arr') into 'out'. */
static int read_entry(const struct ydoc *doc, const char *file, int list,
		      const struct ynode *arr, size_t i,
		      struct entry_src *out, struct pb_err *err)
{
	const struct ynode *e = arr->items[i];
	const char *pat = ynode_str(e);
	int line = ynode_line(e);

	memset(out, 0, sizeof(*out));
	out->file = file;
	out->line = line;
	if (specs[list].entry == E_VALUE || specs[list].entry == E_BOUND) {
		if (load_valued(doc, list, e, line, &pat, &out->val, err))
			return -1;
	} else if (!pat) {
		return pb_fail(err, EX_CONFIG, "%s:%d: '%s' entries are "
			       "strings", doc->name, line, specs[list].key);
	}
	out->pattern = strdup(pat);
	return out->pattern ? 0 : pb_fail(err, EX_OSERR, "out of memory");
}

static int push_source(struct list *l, struct entry_src *e)
{
	struct entry_src *n;

	if (l->nsrc == l->capsrc) {
		l->capsrc = l->capsrc ? 2 * l->capsrc : 16;
		n = realloc(l->src, l->capsrc * sizeof(*n));
		if (!n)
			return -1;
		l->src = n;
	}
	l->src[l->nsrc++] = *e;
	return 0;
}

static void remove_source(struct list *l, const char *pattern)
{
	size_t i, k = 0;

	for (i = 0; i < l->nsrc; i++) {
		if (!strcmp(l->src[i].pattern, pattern))
			free(l->src[i].pattern);
		else
			l->src[k++] = l->src[i];
	}
	l->nsrc = k;
}

enum edit { ED_SET, ED_ADD, ED_REMOVE };

/* 'KEY: [...]' replaces a list, 'KEY_add' appends, 'KEY_remove' drops. */
static int load_list(const struct ydoc *doc, const char *file,
		     struct rules *r, int list, enum edit ed, const char *key,
		     const struct ynode *arr, struct pb_err *err)
{
	struct list *l = &r->l[list];
	struct entry_src e;
	size_t i;

	if (!ynode_is(arr, Y_SEQ) && !ynode_is(arr, Y_NULL))
		return pb_fail(err, EX_CONFIG, "%s:%d: '%s' must be a list",
			       doc->name, ynode_line(arr), key);
	if (ed == ED_SET)
		sources_clear(l);
	/* a null list has no items: it empties a list or leaves it */
	for (i = 0; i < arr->n; i++) {
		if (read_entry(doc, file, list, arr, i, &e, err))
			return -1;
		if (ed == ED_REMOVE) {
			remove_source(l, e.pattern);
			free(e.pattern);
		} else if (push_source(l, &e)) {
			free(e.pattern);
			return pb_fail(err, EX_OSERR, "out of memory");
		}
	}
	return 0;
}

/* Compile the entries of every list once all files are read. */
static int compile_lists(struct rules *r, struct pb_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	int list, rc = 0;

	for (list = 0; list < L_COUNT && !rc; list++) {
		struct list *l = &r->l[list];

		l->pl = patlist_new(specs[list].mode);
		l->val = calloc(l->nsrc + 1, sizeof(*l->val));
		if (!l->pl || !l->val)
			rc = pb_fail(err, EX_OSERR, "out of memory");
		for (i = 0; i < l->nsrc && !rc; i++) {
			const char *pat = l->src[i].pattern;

			l->val[i] = l->src[i].val;
			if (specs[list].entry == E_NAME)
				continue;	/* index_programs() */
			if (specs[list].entry == E_FAMILY) {
				sb_reset(&sb);
				if (sb_addf(&sb, "%s.", pat)) {
					rc = pb_fail(err, EX_OSERR,
						     "out of memory");
					break;
				}
				l->val[i].v = (double)strlen(pat);
				pat = sb.buf;
			}
			rc = patlist_add(l->pl, pat, l->src[i].file,
					 l->src[i].line, err);
		}
	}
	sb_release(&sb);
	if (!rc && rules_index_programs(r))
		rc = pb_fail(err, EX_OSERR, "out of memory");
	return rc;
}

static int load_path(struct rules *r, const char *path, int depth,
		     struct pb_err *err);

/* 'base: FILE', relative to the file that names it, is loaded first. */
static int load_base(const struct ydoc *doc, struct rules *r, int depth,
		     struct pb_err *err)
{
	const struct ynode *node = ymap_get(doc->root, "base");
	const char *base;
	char *dir, *path;
	int rc;

	if (!node)
		return 0;
	if (yaml_as_string(doc, node, "base", &base, err))
		return -1;
	if (depth >= RULES_MAX_DEPTH)
		return pb_fail(err, EX_CONFIG, "%s:%d: 'base' nested too deep",
			       doc->name, ynode_line(node));
	dir = path_dirname(doc->name);
	path = dir && base[0] != '/' ? path_join(dir, base) : strdup(base);
	rc = path ? load_path(r, path, depth + 1, err) :
		pb_fail(err, EX_OSERR, "out of memory");
	free(dir);
	free(path);
	return rc;
}

static int load_scalar(const struct ydoc *doc, struct rules *r,
		       const char *key, const struct ynode *val,
		       struct pb_err *err)
{
	const char *s;

	if (!strcmp(key, "format"))
		return load_format(doc, r, val, err);
	if (!strcmp(key, "perf_profile_threshold"))
		return yaml_as_long(doc, val, key, 0, 1000000, &r->perf_profile,
				    err);
	if (!strcmp(key, "lkp_tests_commit") || !strcmp(key, "base"))
		return yaml_as_string(doc, val, key, &s, err);
	return pb_fail(err, EX_CONFIG, "%s:%d: unknown key '%.64s'", doc->name,
		       ynode_line(val), key);
}

/* The list 'key' edits ('KEY', 'KEY_add', 'KEY_remove'), or L_COUNT. */
static int list_of(const char *key, enum edit *ed)
{
	int i;

	*ed = ED_SET;
	for (i = 0; i < L_COUNT; i++) {
		size_t n = strlen(specs[i].key);

		if (strncmp(key, specs[i].key, n))
			continue;
		if (!strcmp(key + n, "_add"))
			*ed = ED_ADD;
		else if (!strcmp(key + n, "_remove"))
			*ed = ED_REMOVE;
		else if (key[n])
			continue;
		break;
	}
	return i;
}

static int load_doc(const struct ydoc *doc, const char *file,
		    struct rules *r, int depth, struct pb_err *err)
{
	const struct ynode *root = doc->root;
	enum edit ed;
	size_t k;
	int i;

	if (!ynode_is(root, Y_MAP))
		return pb_fail(err, EX_CONFIG, "%s: not a mapping", doc->name);
	if (load_base(doc, r, depth, err))
		return -1;
	for (k = 0; k < root->n; k++) {
		i = list_of(root->keys[k], &ed);
		if (i == L_COUNT ?
		    load_scalar(doc, r, root->keys[k], root->items[k], err) :
		    load_list(doc, file, r, i, ed, root->keys[k],
			      root->items[k], err))
			return -1;
	}
	return 0;
}

static int load_path(struct rules *r, const char *path, int depth,
		     struct pb_err *err)
{
	struct ydoc doc;
	int rc;

	if (yaml_load_file(path, RULES_MAX_BYTES, &doc, err)) {
		if (err && err->code == EX_DATAERR)
			err->code = EX_CONFIG;
		return -1;
	}
	if (r->nfiles == RULES_MAX_DEPTH + 2 ||
	    !(r->files[r->nfiles] = strdup(path))) {
		ydoc_release(&doc);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	rc = load_doc(&doc, r->files[r->nfiles++], r, depth, err);
	ydoc_release(&doc);
	return rc;
}

int rules_load(struct rules **out, const char *path, struct pb_err *err)
{
	struct rules *r;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return pb_fail(err, EX_OSERR, "out of memory");
	r->fmt = default_format;
	strmap_init(&r->progs);
	strmap_init(&r->monitors);
	if (load_path(r, path, 0, err) || compile_lists(r, err))
		goto fail;
	*out = r;
	return 0;
fail:
	rules_free(r);
	return -1;
}

void rules_free(struct rules *r)
{
	int i;

	if (!r)
		return;
	for (i = 0; i < L_COUNT; i++)
		list_release(&r->l[i]);
	for (i = 0; i < r->nfiles; i++)
		free(r->files[i]);
	strmap_release(&r->progs);
	strmap_release(&r->monitors);
	free(r->prog);
	free(r->opts);
	free(r);
}

static long first_n(const struct rules *r, int list, const char *name,
		    size_t len)
{
	return patlist_first(r->l[list].pl, name, len);
}

long rules_first(const struct rules *r, int list, const char *name)
{
	return first_n(r, list, name, strlen(name));
}

/* The exclusions are looked at only for what the lists would take. */
int rules_is_failure(const struct rules *r, const char *name)
{
	size_t n = strlen(name);

	if (first_n(r, L_FAILURE, name, n) < 0 &&
	    first_n(r, L_PASS, name, n) < 0)
		return 0;
	return first_n(r, L_FAILURE_EXCLUDE, name, n) < 0;
}

/* allow || !deny || report_allow, the deny list asked first. */
int rules_is_reportable(const struct rules *r, const char *name)
{
	size_t n = strlen(name);

	return first_n(r, L_DENY, name, n) < 0 ||
	       first_n(r, L_ALLOW, name, n) >= 0 ||
	       first_n(r, L_REPORT_ALLOW, name, n) >= 0;
}

int rules_is_perf(const struct rules *r, const char *name)
{
	size_t n = strlen(name);

	return first_n(r, L_PERF_PATTERNS, name, n) >= 0 ||
	       first_n(r, L_PERF_PREFIXES, name, n) >= 0 ||
	       first_n(r, L_PERF_PROGRAMS, name, n) >= 0;
}

int rules_is_absolute(const struct rules *r, const char *name)
{
	return rules_first(r, L_ABSOLUTE, name) >= 0;
}

size_t rules_family(const struct rules *r, enum rules_family f,
		    const char *name)
{
	static const int lists[FAM_COUNT] = { L_FAM_INCOMPLETE, L_FAM_UNPAIRED,
					      L_FAM_MONITORED };
	long i = rules_first(r, lists[f], name);

	return i < 0 ? 0 : (size_t)r->l[lists[f]].val[i].v;
}

int rules_threshold_ok(const struct rules *r, const char *name, double max,
		       double delta)
{
	const struct value *v;
	long i = rules_first(r, L_THRESHOLDS, name);

	if (i >= 0) {
		v = &r->l[L_THRESHOLDS].val[i];
		if (max < v->v)
			return 0;
		/* Ruby: Integer / 2 divides whole numbers */
		return !(v->integer && delta < (double)((long)v->v / 2));
	}
	i = rules_first(r, L_FALLBACKS, name);
	if (i < 0)
		return 1;
	v = &r->l[L_FALLBACKS].val[i];
	return v->on_delta ? delta > v->v : max > v->v;
}

int rules_check(const struct rules *r, int all, struct pb_err *err)
{
	int i;

	for (i = 0; i < L_COUNT; i++)
		if (patlist_check(r->l[i].pl, all, err))
			return -1;
	return 0;
}

long rules_perf_profile(const struct rules *r)
{
	return r->perf_profile;
}

const struct table_format *rules_format(const struct rules *r)
{
	return &r->fmt;
}
