/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_CONTEXT_H
#define PERFBOT_CONTEXT_H

#include <stddef.h>
#include <jansson.h>

#include "perfbot/util/err.h"

/*
 * A template context built value by value and checked once at the end,
 * so that a value that is missing is named ("report context: 'machine'
 * is missing") rather than taken for a lack of memory. Each family of
 * templates (the report, the answer pieces, the web pages) builds its
 * contexts with these from its own typed structs; nothing else of a
 * template's input is JSON.
 *
 *	struct ctx c;
 *	ctx_init(&c, "report");
 *	ctx_str(&c, "testcase", in->testcase);	  required: NULL is missing
 *	ctx_opt(&c, "test_url", url);		  optional: NULL is null
 *	ctx_take(&c, "charts", charts_json());	  NULL: missing as well
 *	if (ctx_finish(&c, &json, err)) ...
 *
 * Every call after the first problem does nothing; ctx_finish() reports
 * the first one (EX_SOFTWARE for a missing value, EX_OSERR for memory)
 * and always leaves the builder released.
 */
struct ctx {
	json_t *obj;
	const char *family;	/* "report", "answer", ... for messages */
	const char *missing;	/* the first key without a value */
	int oom;
};

void ctx_init(struct ctx *c, const char *family);

/* A required string: NULL is a missing value. */
void ctx_str(struct ctx *c, const char *key, const char *v);
/* A string of at most 'n' bytes (ctx_str's rules). */
void ctx_strn(struct ctx *c, const char *key, const char *v, size_t n);
/* An optional string: NULL is JSON null. */
void ctx_opt(struct ctx *c, const char *key, const char *v);
void ctx_int(struct ctx *c, const char *key, long long v);
void ctx_real(struct ctx *c, const char *key, double v);
void ctx_bool(struct ctx *c, const char *key, int v);
/* A value built elsewhere, taken (NULL is a missing value). */
void ctx_take(struct ctx *c, const char *key, json_t *v);
/* A nested object built with a builder of its own, released here. */
void ctx_child(struct ctx *c, const char *key, struct ctx *child);
/*
 * A list of objects under 'key', built one item at a time: ctx_list()
 * sets it (empty) and gives it back (borrowed; NULL once the builder is
 * broken), ctx_append() adds an item built with a builder of its own,
 * released here; its problem becomes the list owner's.
 */
json_t *ctx_list(struct ctx *c, const char *key);
void ctx_append(struct ctx *c, json_t *list, struct ctx *item);
/*
 * The same without a handle: 'item' appended to the list under 'key',
 * which ctx_list() or the first ctx_add() sets.
 */
void ctx_add(struct ctx *c, const char *key, struct ctx *item);
/* A list of 'n' strings (never NULL ones); always a list. */
void ctx_strings(struct ctx *c, const char *key, const char *const *v,
		 size_t n);
/*
 * The lines of 'text' (without their newlines) as a list of strings; a
 * line that is not UTF-8 makes the list a missing value.
 */
void ctx_lines(struct ctx *c, const char *key, const char *text);

/*
 * The object (the caller's reference), or -1 with the first problem in
 * 'err'; the builder is released either way.
 */
int ctx_finish(struct ctx *c, json_t **out, struct pb_err *err);

/* Release without a result (safe after ctx_finish and on a zeroed ctx). */
void ctx_release(struct ctx *c);

#endif
