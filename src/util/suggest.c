// SPDX-License-Identifier: GPL-2.0-only
/*
 * util: "did you mean" (suggest.h): the edit distance of two short words
 * and whether one is close enough to suggest, for mistyped config keys,
 * commands and options.
 */
#include <stdint.h>
#include <string.h>

#include "perfbot/util/suggest.h"

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;

	return m < c ? m : c;
}

size_t edit_distance(const char *a, const char *b)
{
	size_t d[SUGGEST_MAX_LEN + 1][SUGGEST_MAX_LEN + 1];
	size_t la = strlen(a), lb = strlen(b), i, j, cost;

	if (la > SUGGEST_MAX_LEN || lb > SUGGEST_MAX_LEN)
		return SIZE_MAX;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			cost = a[i - 1] != b[j - 1];
			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1,
				       d[i - 1][j - 1] + cost);
			/* a swap of two neighbours is one typo */
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 <
			    d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	}
	return d[la][lb];
}

int suggest_close(const char *word, const char *cand)
{
	size_t n = strlen(word), d = edit_distance(word, cand);
	size_t limit = n <= 3 ? 1 : n <= 8 ? 2 : 3;

	return d != SIZE_MAX && d > 0 && d <= limit;
}
