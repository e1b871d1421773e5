// SPDX-License-Identifier: GPL-2.0-only
/*
 * render: the checked builder of template contexts (context.h): each
 * value set under its key, the first missing one or lack of memory kept
 * and reported by ctx_finish().
 */
#include <string.h>

#include "perfbot/render/context.h"

void ctx_init(struct ctx *c, const char *family)
{
	c->obj = json_object();
	c->family = family;
	c->missing = NULL;
	c->oom = !c->obj;
}

static int broken(const struct ctx *c)
{
	return c->oom || c->missing;
}

/* Set a value just made ('j' NULL: it could not be made). */
static void set(struct ctx *c, const char *key, json_t *j)
{
	if (broken(c))
		json_decref(j);
	else if (!j || json_object_set_new(c->obj, key, j))
		c->oom = 1;
}

static void missing(struct ctx *c, const char *key)
{
	if (!broken(c))
		c->missing = key;
}

void ctx_take(struct ctx *c, const char *key, json_t *v)
{
	if (v)
		set(c, key, v);
	else
		missing(c, key);
}

void ctx_str(struct ctx *c, const char *key, const char *v)
{
	if (v)
		set(c, key, json_string(v));
	else
		missing(c, key);
}

void ctx_strn(struct ctx *c, const char *key, const char *v, size_t n)
{
	if (v)
		set(c, key, json_stringn(v, n));
	else
		missing(c, key);
}

void ctx_opt(struct ctx *c, const char *key, const char *v)
{
	set(c, key, v ? json_string(v) : json_null());
}

void ctx_int(struct ctx *c, const char *key, long long v)
{
	set(c, key, json_integer((json_int_t)v));
}

void ctx_real(struct ctx *c, const char *key, double v)
{
	set(c, key, json_real(v));
}

void ctx_bool(struct ctx *c, const char *key, int v)
{
	set(c, key, json_boolean(v));
}

void ctx_child(struct ctx *c, const char *key, struct ctx *child)
{
	if (child->missing)
		missing(c, child->missing);
	else if (child->oom && !broken(c))
		c->oom = 1;
	else if (!child->oom) {
		set(c, key, child->obj);
		child->obj = NULL;
	}
	ctx_release(child);
}

json_t *ctx_list(struct ctx *c, const char *key)
{
	json_t *a = json_array();

	set(c, key, a);
	return broken(c) ? NULL : a;
}

void ctx_append(struct ctx *c, json_t *list, struct ctx *item)
{
	if (item->missing)
		missing(c, item->missing);
	else if (item->oom || !list)
		c->oom |= !broken(c);
	else {
		/* taken, also when it fails */
		c->oom |= json_array_append_new(list, item->obj) != 0;
		item->obj = NULL;
	}
	ctx_release(item);
}

void ctx_strings(struct ctx *c, const char *key, const char *const *v,
		 size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++) {
		if (!v[i]) {
			json_decref(a);
			missing(c, key);
			return;
		}
		if (a && json_array_append_new(a, json_string(v[i]))) {
			json_decref(a);
			a = NULL;
		}
	}
	set(c, key, a);
}

void ctx_add(struct ctx *c, const char *key, struct ctx *item)
{
	json_t *list = broken(c) ? NULL : json_object_get(c->obj, key);

	if (!json_is_array(list) && !broken(c))
		list = ctx_list(c, key);
	ctx_append(c, list, item);
}

void ctx_lines(struct ctx *c, const char *key, const char *text)
{
	json_t *a = json_array();
	const char *p = text, *nl;

	for (; a && *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		if (json_array_append_new(a, json_stringn(p, nl ?
				(size_t)(nl - p) : strlen(p)))) {
			json_decref(a);
			a = NULL;
		}
	}
	ctx_take(c, key, a);
}

int ctx_finish(struct ctx *c, json_t **out, struct pb_err *err)
{
	int rc = 0;

	*out = NULL;
	if (c->missing)
		rc = pb_fail(err, EX_SOFTWARE, "%s context: '%s' is missing",
			     c->family, c->missing);
	else if (c->oom)
		rc = pb_fail(err, EX_OSERR, "%s context: out of memory",
			     c->family);
	else
		*out = c->obj;
	if (rc)
		json_decref(c->obj);
	c->obj = NULL;
	return rc;
}

void ctx_release(struct ctx *c)
{
	json_decref(c->obj);
	c->obj = NULL;
}
