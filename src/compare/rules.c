// SPDX-License-Identifier: GPL-2.0-only
#include <regex.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/rules.h"
#include "perfbot/strbuf.h"
#include "perfbot/yaml.h"

#define RULES_MAX_BYTES (1 << 20)

/* Patterns that are a literal, a literal prefix or suffix skip regexec. */
enum match_kind { M_REGEX, M_EXACT, M_PREFIX, M_SUFFIX };

struct pattern {
	enum match_kind kind;
	char *lit;
	size_t litlen;
	regex_t re;
	double value;	/* threshold, fallback bound or direction */
	int integer;	/* the threshold was written as a whole number */
	int compiled;
};

struct plist {
	struct pattern *p;
	size_t n;
};

enum { L_FAILURE, L_PERF, L_ABSOLUTE, L_SKIP_RATIO, L_THRESHOLDS,
	L_FALLBACKS, L_DIRECTION, L_COUNT };

static const char *const list_names[L_COUNT] = {
	"failure", "perf", "absolute", "skip_ratio", "thresholds",
	"fallbacks", "direction",
};

struct rules {
	struct plist l[L_COUNT];
	struct table_format fmt;
};

static const struct table_format default_format = {
	.float_below = 1000,
	.exp_above = 100000000,
	.zero_as_int = 0,
	.stddev_above = 2,
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

static int load_format_key(struct ydoc *doc, struct table_format *f,
			   const char *key, json_t *val, struct pb_err *err)
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
			       ydoc_line(doc, val), key);
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

static int load_format(struct ydoc *doc, struct rules *r, json_t *map,
		       struct pb_err *err)
{
	const char *key;
	json_t *val;

	if (!json_is_object(map))
		return pb_fail(err, EX_CONFIG, "%s:%d: 'format' must be a "
			       "mapping", doc->name, ydoc_line(doc, map));
	json_object_foreach(map, key, val)
		if (load_format_key(doc, &r->fmt, key, val, err))
			return -1;
	return 0;
}

/* The literal 'text' spells with '\\' escapes removed, or -1. */
static int literal(const char *text, size_t len, struct pattern *p)
{
	size_t i, n = 0;

	p->lit = malloc(len + 1);
	if (!p->lit)
		return -1;
	for (i = 0; i < len; i++) {
		if (text[i] == '\\' && i + 1 < len &&
		    strchr(".[](){}*+?|^$\\-", text[i + 1]))
			i++;
		else if (strchr(".[](){}*+?|^$\\", text[i]))
			goto no;
		p->lit[n++] = text[i];
	}
	p->lit[n] = '\0';
	p->litlen = n;
	return 0;
no:
	free(p->lit);
	p->lit = NULL;
	return -1;
}

static void classify(const char *text, struct pattern *p)
{
	size_t len = strlen(text);

	if (!literal(text, len, p))
		p->kind = M_EXACT;
	else if (len > 2 && !strcmp(text + len - 2, ".*") &&
		 !literal(text, len - 2, p))
		p->kind = M_PREFIX;
	else if (len > 2 && !strncmp(text, ".*", 2) &&
		 !literal(text + 2, len - 2, p))
		p->kind = M_SUFFIX;
	else
		p->kind = M_REGEX;
}

static int pattern_match(const struct pattern *p, const char *name)
{
	size_t n;

	switch (p->kind) {
	case M_EXACT:
		return !strcmp(name, p->lit);
	case M_PREFIX:
		return !strncmp(name, p->lit, p->litlen);
	case M_SUFFIX:
		n = strlen(name);
		return n >= p->litlen &&
		       !memcmp(name + n - p->litlen, p->lit, p->litlen);
	default:
		return !regexec(&p->re, name, 0, NULL, 0);
	}
}

static int compile(struct ydoc *doc, json_t *node, const char *text,
		   struct pattern *p, struct pb_err *err)
{
	regex_t *re = &p->re;

	struct strbuf sb = STRBUF_INIT;
	int rc;

	if (sb_addf(&sb, "^(%s)$", text))
		return pb_fail(err, EX_OSERR, "out of memory");
	rc = regcomp(re, sb.buf, REG_EXTENDED | REG_NOSUB);
	sb_release(&sb);
	if (rc)
		return pb_fail(err, EX_CONFIG, "%s:%d: bad pattern '%.100s'",
			       doc->name, ydoc_line(doc, node), text);
	p->compiled = 1;
	classify(text, p);
	return 0;
}

/* An entry is either "pattern" or { match: pattern, value: v }. */
static int load_entry(struct ydoc *doc, int list, json_t *e, int line,
		      struct pattern *p, struct pb_err *err)
{
	const char *pat, *val;
	json_t *vnode;
	long l;

	if (json_is_string(e))
		return compile(doc, e, json_string_value(e), p, err);
	pat = json_string_value(json_object_get(e, "match"));
	vnode = json_object_get(e, "value");
	val = json_string_value(vnode);
	if (!json_is_object(e) || !pat || !val || json_object_size(e) != 2)
		return pb_fail(err, EX_CONFIG,
			       "%s:%d: '%s' entries are { match: REGEX, "
			       "value: NUMBER }", doc->name, line,
			       list_names[list]);
	if (yaml_as_double(doc, vnode, "value", &p->value, err))
		return -1;
	p->integer = !parse_long(val, -1000000000L, 1000000000L, &l);
	if (list == L_DIRECTION && p->value != 1 && p->value != -1)
		return pb_fail(err, EX_CONFIG, "%s:%d: a direction is 1 or -1",
			       doc->name, ydoc_line(doc, vnode));
	return compile(doc, e, pat, p, err);
}

static int load_list(struct ydoc *doc, struct rules *r, int list,
		     json_t *arr, struct pb_err *err)
{
	struct plist *pl = &r->l[list];
	size_t i;
	json_t *e;

	if (json_is_null(arr))
		return 0;
	if (!json_is_array(arr))
		return pb_fail(err, EX_CONFIG, "%s:%d: '%s' must be a list",
			       doc->name, ydoc_line(doc, arr),
			       list_names[list]);
	pl->p = calloc(json_array_size(arr) + 1, sizeof(*pl->p));
	if (!pl->p)
		return pb_fail(err, EX_OSERR, "out of memory");
	json_array_foreach(arr, i, e) {
		int line = ydoc_item_line(doc, arr, i);

		if (load_entry(doc, list, e, line, &pl->p[i], err))
			return -1;
		pl->n++;
	}
	return 0;
}

static int load_doc(struct ydoc *doc, struct rules *r, struct pb_err *err)
{
	const char *key;
	json_t *val;
	int i;

	if (!json_is_object(doc->root))
		return pb_fail(err, EX_CONFIG, "%s: not a mapping", doc->name);
	json_object_foreach(doc->root, key, val) {
		if (!strcmp(key, "format")) {
			if (load_format(doc, r, val, err))
				return -1;
			continue;
		}
		for (i = 0; i < L_COUNT; i++)
			if (!strcmp(key, list_names[i]))
				break;
		if (i == L_COUNT)
			return pb_fail(err, EX_CONFIG,
				       "%s:%d: unknown key '%.64s'", doc->name,
				       ydoc_key_line(doc, doc->root, key), key);
		if (load_list(doc, r, i, val, err))
			return -1;
	}
	return 0;
}

int rules_load(struct rules **out, const char *path, struct pb_err *err)
{
	struct ydoc doc;
	struct rules *r;
	int rc;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return pb_fail(err, EX_OSERR, "out of memory");
	r->fmt = default_format;
	rc = yaml_load_file(path, RULES_MAX_BYTES, &doc, err);
	if (rc && err && err->code == EX_DATAERR)
		err->code = EX_CONFIG;
	if (!rc)
		rc = load_doc(&doc, r, err);
	ydoc_release(&doc);
	if (rc) {
		rules_free(r);
		return -1;
	}
	*out = r;
	return 0;
}

void rules_free(struct rules *r)
{
	size_t i;
	int l;

	if (!r)
		return;
	for (l = 0; l < L_COUNT; l++) {
		for (i = 0; i < r->l[l].n; i++) {
			if (r->l[l].p[i].compiled)
				regfree(&r->l[l].p[i].re);
			free(r->l[l].p[i].lit);
		}
		free(r->l[l].p);
	}
	free(r);
}

static const struct pattern *first_match(const struct rules *r, int list,
					 const char *name)
{
	size_t i;

	for (i = 0; i < r->l[list].n; i++)
		if (pattern_match(&r->l[list].p[i], name))
			return &r->l[list].p[i];
	return NULL;
}

int rules_is_failure(const struct rules *r, const char *name)
{
	return first_match(r, L_FAILURE, name) != NULL;
}

int rules_is_perf(const struct rules *r, const char *name,
		  const char *testcase)
{
	size_t n = testcase ? strlen(testcase) : 0;

	if (n && !strncmp(name, testcase, n) && name[n] == '.')
		return 1;
	return first_match(r, L_PERF, name) != NULL;
}

int rules_is_absolute(const struct rules *r, const char *name)
{
	return first_match(r, L_ABSOLUTE, name) != NULL;
}

int rules_skips_ratio(const struct rules *r, const char *name)
{
	return first_match(r, L_SKIP_RATIO, name) != NULL;
}

int rules_threshold_ok(const struct rules *r, const char *name, double max,
		       double delta)
{
	const struct pattern *p = first_match(r, L_THRESHOLDS, name);

	if (p)
		return !(max < p->value ||
			 (p->integer && delta < p->value / 2));
	p = first_match(r, L_FALLBACKS, name);
	return !p || max > p->value;
}

const struct table_format *rules_format(const struct rules *r)
{
	return &r->fmt;
}

int rules_direction(const struct rules *r, const char *name)
{
	const struct pattern *p = first_match(r, L_DIRECTION, name);

	return p ? (int)p->value : 0;
}
