// SPDX-License-Identifier: GPL-2.0-only
/*
 * compose: what makes a mail a reply in its thread, for answers and for
 * reports on posted patches alike: the "Re: " subject and the capped
 * References.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "perfbot/util/strbuf.h"
#include "perfbot/util/text.h"
#include "perfbot/compose/thread.h"

/* Skip "Re:", "RE :", "Re[2]:", "Aw:" prefixes and blanks. */
static const char *strip_re(const char *s)
{
	const char *p;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (strncasecmp(s, "re", 2) && strncasecmp(s, "aw", 2))
			return s;
		p = s + 2;
		if (*p == '[') {
			while (isdigit((unsigned char)*++p))
				;
			if (*p++ != ']')
				return s;
		}
		while (*p == ' ')
			p++;
		if (*p != ':')
			return s;
		s = p + 1;
	}
}

char *thread_subject(const char *subject)
{
	struct strbuf sb = STRBUF_INIT;

	if (sb_addf(&sb, "Re: %s", strip_re(subject ? subject : ""))) {
		sb_release(&sb);
		return NULL;
	}
	text_scrub_line(sb.buf);
	return sb_detach(&sb, NULL);
}

int thread_has(const char *const *v, size_t n, const char *id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], id))
			return 1;
	return 0;
}

char *thread_references(const char *const *refs, size_t n, const char *keep,
			const char *id)
{
	unsigned char *pick = calloc(n + 1, 1);
	size_t i, k = 1, bytes = strlen(id) + 2;
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;

	if (!pick)
		return NULL;
	/* the root and 'keep' first, then the newest, each id once */
	for (i = 0; i < n; i++) {
		int dup = !strcmp(refs[i], id) || thread_has(refs, i, refs[i]);

		if (!dup && (i == 0 || (keep && !strcmp(refs[i], keep))) &&
		    k < THREAD_MAX_REFS) {
			pick[i] = 1;
			k++;
			bytes += strlen(refs[i]) + 3;
		}
	}
	for (i = n; i > 0 && k < THREAD_MAX_REFS; i--) {
		const char *r = refs[i - 1];

		if (pick[i - 1] || !strcmp(r, id) || thread_has(refs, i - 1, r))
			continue;
		if (bytes + strlen(r) + 3 > THREAD_MAX_REFS_BYTES)
			break;
		bytes += strlen(r) + 3;
		pick[i - 1] = 1;
		k++;
	}
	for (i = 0; i < n && !rc; i++)	/* in the thread's order */
		if (pick[i])
			rc = sb_addf(&sb, "%s<%s>", sb.len ? " " : "", refs[i]);
	rc = rc || sb_addf(&sb, "%s<%s>", sb.len ? " " : "", id);
	free(pick);
	if (rc) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb, NULL);
}
