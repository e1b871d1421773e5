/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_THREAD_H
#define PERFBOT_THREAD_H

#include <stddef.h>

/*
 * compose: a reply's place in its thread (answers, and reports that
 * answer a posted patch): its subject and its References.
 */

/*
 * A References value for a reply to 'id' whose own References are 'refs'
 * ('n' ids without brackets, the oldest first): theirs and 'id', each
 * once, bracketed and space separated. Past THREAD_MAX_REFS ids or
 * THREAD_MAX_REFS_BYTES bytes the first id (the thread's root), 'keep'
 * (when not NULL: the report's id) and the last ones (the closest) are
 * kept, as RFC 5322 3.6.4 suggests. Newly allocated; NULL when out of
 * memory.
 */
#define THREAD_MAX_REFS 20
#define THREAD_MAX_REFS_BYTES 3000
char *thread_references(const char *const *refs, size_t n, const char *keep,
			const char *id);

/* "Re: " + 'subject' without its own Re: prefixes; newly allocated. */
char *thread_subject(const char *subject);

/* 1 when 'id' is among v[0..n). */
int thread_has(const char *const *v, size_t n, const char *id);

#endif
