/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_PATTERN_INTERNAL_H
#define PERFBOT_PATTERN_INTERNAL_H

/*
 * Shared by the two files of the pattern lists only: what
 * pattern_syntax.c learns of a Ruby pattern when it is added (its
 * literal prefix, the literals a match needs, whether a regex must
 * decide) and pattern.c uses to match names.
 */

#include <regex.h>
#include <stddef.h>

#include "pattern.h"

enum tail { T_NONE, T_ANY1, T_ANY0, T_ANY1PLUS };

/* Every match contains one of these literals. */
struct need {
	char **alt;
	size_t n;
};

struct pat {
	char *lit;		/* literal prefix of an anchored pattern */
	size_t litlen;
	int fast;		/* lit + tail decides; no regex */
	enum tail tail;
	int end;		/* the match must end the name */
	regex_t re;
	int has_re;		/* a regex decides (compiled on first use) */
	int state;		/* 0: not compiled yet, 1: compiled, -1: bad */
	char *src;		/* the pattern as written */
	enum pat_mode mode;
	const char *file;	/* for the error */
	int line;
	struct need *need;
	size_t nneed;
};

/*
 * Take 'pattern' apart for a list of 'mode' into 'pt' (zeroed, with its
 * src and mode set). Returns 0, or -1 when memory ran out.
 */
int pat_build(struct pat *pt, enum pat_mode mode, const char *pattern);

/* Compile the Ruby regex 'p' for 'mode' as a POSIX ERE: 0, or -1. */
int pat_compile(regex_t *re, enum pat_mode mode, const char *p);

void pat_need_free(struct need *nd);

#endif
