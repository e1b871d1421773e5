/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_CONFIG_SCHEMA_H
#define PERFBOT_CONFIG_SCHEMA_H

#include <stddef.h>

#include "perfbot/config/config.h"

/*
 * The schema of perfbot.yaml, shared by the checker (config.c) and the
 * filler (schema.c): every key with the kind of its value, its bounds,
 * where its typed setting lives in struct config and its default.
 */

/*
 * The kinds of value. Besides the plain ones, a value can be a path
 * (resolved against the config file's directory when relative), an argv
 * (its program resolved the same way when it names a relative path), one
 * of a few words, a URL of given schemes, or a mail address: each is
 * checked when the file is loaded, so a typo fails at once, naming the
 * key and its line, and not when the value is first used.
 */
enum ktype {
	K_MAP, K_STR, K_BOOL, K_INT, K_STRLIST, K_PATHLIST, K_MAPLIST,
	K_PATH, K_ARGV, K_TLS, K_BACKEND, K_ON_DEADLINE, K_ATTACHMENTS,
	K_SMTP_URL,
	K_IMAP_URL, K_HTTP_URL, K_ADDR, K_ADDRLIST, K_ALLOW, K_DOMAIN, K_NAME,
	K_REPOLIST,	/* URL patterns: https:// or git://, a host */
	K_DURATION,
	K_LINE,		/* text that goes into a header or a mail: one
			 * line, no control character */
	K_PROB,		/* a probability above 0.5 and below 1 (a
			 * double; def_s its default) */
};

#define KEY_NO_FIELD ((size_t)-1)

struct key {
	const char *path;	/* "smtp.url"; list items: "sources[].dir" */
	enum ktype type;
	long min, max;		/* K_INT and K_DURATION bounds (seconds) */
	size_t off;		/* of the setting in struct config */
	const char *def_s;	/* default of a string */
	long def_l;		/* of a number, a bool, a word's index */
};

/* The words a value takes, or its URL schemes ("word://..."). */
struct choice {
	enum ktype type;
	int scheme;
	const char *words[4];
};

const struct key *schema_find(const char *path);
/* The schema key closest to an unknown 'path', with the same parent. */
const char *schema_closest(const char *path);
const struct choice *schema_choice(enum ktype t);

/*
 * A duration: whole seconds ("3600"), or a number and a unit ("90s",
 * "30m", "12h", "30d", "2w"), from 'min' to 'max' seconds: 0 with
 * '*secs', else -1.
 */
int schema_duration(const char *s, long min, long max, long *secs);

/* A probability above 0.5 and below 1 ("0.999"): 0 with '*p', else -1. */
int schema_prob(const char *s, double *p);

/* Fill the typed settings from the checked document, defaults elsewhere. */
int schema_fill(struct config *cfg, struct pb_err *err);
void schema_release(struct config *cfg);

#endif
