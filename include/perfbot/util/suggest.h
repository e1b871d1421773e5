/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_SUGGEST_H
#define PERFBOT_SUGGEST_H

#include <stddef.h>

/*
 * "Did you mean": the Damerau-Levenshtein (optimal string alignment)
 * distance of two short strings, and whether a candidate is close enough
 * to a mistyped word to be suggested. Words longer than SUGGEST_MAX_LEN
 * are never close.
 */

#define SUGGEST_MAX_LEN 64

/* The edit distance, or SIZE_MAX when either string is too long. */
size_t edit_distance(const char *a, const char *b);

/* 1 when 'cand' is a plausible correction of 'word'. */
int suggest_close(const char *word, const char *cand);

#endif
