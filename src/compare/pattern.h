/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_PATTERN_H
#define PERFBOT_PATTERN_H

#include <stddef.h>

#include "perfbot/util/err.h"

/*
 * Ordered lists of metric-name patterns, matched exactly as LKP matches
 * its rule files (lkp-tests is Ruby: a pattern is a Ruby regex, and each
 * list has its own anchoring). Most of LKP's patterns are a literal
 * prefix ('^dmesg\.foo', 'perf-stat.'), so a list buckets its patterns by
 * the first byte of their literal prefix and only runs regexec(3) on the
 * few that are real regexes, after a check of the literals every match
 * must contain. Ruby syntax that POSIX EREs spell differently (a '{' that
 * starts no interval, '\-' and other escaped punctuation) is translated.
 */

enum pat_mode {
	PAT_SEARCH,	/* name =~ /p/: anywhere; p may carry its own '^' */
	PAT_START,	/* name =~ /^p/ */
	PAT_WHOLE,	/* name =~ /^p$/ */
	PAT_PREFIX,	/* name.start_with?(p): p is a literal, not a regex */
};

struct patlist;

struct patlist *patlist_new(enum pat_mode mode);
void patlist_free(struct patlist *pl);

/*
 * Append 'pattern'; 'file' and 'line' (0: none) name it in errors, and
 * 'file' must outlive the list. A pattern that needs a regex is compiled
 * when it is first needed (most never are): patlist_check() says whether
 * one failed.
 */
int patlist_add(struct patlist *pl, const char *pattern, const char *file,
		int line, struct pb_err *err);

/*
 * EX_CONFIG "<where>: bad pattern '<pattern>'" when a pattern compiled so
 * far is no valid regex; with 'all', every pattern is compiled first.
 */
int patlist_check(const struct patlist *pl, int all, struct pb_err *err);

/* Patterns in the list. */
size_t patlist_count(const struct patlist *pl);

/*
 * The index (in the order added) of the first pattern that matches the
 * NUL-terminated 'name' of length 'len', or -1.
 */
long patlist_first(const struct patlist *pl, const char *name, size_t len);

/* 1 when any pattern matches. */
int patlist_any(const struct patlist *pl, const char *name, size_t len);

#endif
