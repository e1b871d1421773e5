// SPDX-License-Identifier: GPL-2.0-only
/*
 * ingest: a manifest's commits that are ref names (manifest.h): a tag
 * such as v6.13 or v5.19-rc6, or a branch, checked as git would take it,
 * printed as it is, and resolved to its sha in the tracked tree
 * (tracking.repo) when the manifest does not give it.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/config/config.h"
#include "perfbot/ingest/gittree.h"
#include "perfbot/ingest/manifest.h"
#include "manifest_internal.h"

/*
 * A ref name as git's check-ref-format takes one, stricter: letters,
 * digits and '._-/+', at most 100, no '..', no component starting with
 * '.' or '-', no trailing '/' or '.lock', not all hex digits (a sha cut
 * wrong). So it can be printed in a subject and looked up, and never
 * reads as an option, a sha or revision syntax.
 */
static int is_ref_name(const char *s)
{
	size_t n = strlen(s), i;

	if (!n || n > 100 || strspn(s, "0123456789abcdefABCDEF") == n ||
	    strstr(s, "..") || strstr(s, "//") || s[0] == '/' ||
	    s[n - 1] == '/' || s[n - 1] == '.' ||
	    (n >= 5 && !strcmp(s + n - 5, ".lock")))
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!isalnum(c) && !strchr("._-/+", c))
			return 0;
		if ((i == 0 || s[i - 1] == '/') && (c == '.' || c == '-'))
			return 0;
	}
	return 1;
}


/* 'commit' (a sha or a ref name) and the optional 'sha' of a side. */
int manifest_load_commit(const struct ydoc *doc, const struct ynode *map,
		       const char *which, struct manifest_side *s,
		       struct pb_err *err)
{
	const struct ynode *sha = ymap_get(map, "sha");

	s->commit = ynode_str(ymap_get(map, "commit"));
	s->ref = NULL;
	s->sha = NULL;
	if (s->commit && manifest_is_sha(s->commit))
		s->sha = s->commit;
	else if (s->commit && is_ref_name(s->commit))
		s->ref = s->commit;
	else
		return pb_fail(err, EX_DATAERR, "%s:%d: '%s.commit' must be "
			       "7 to 40 hex digits or a ref name (a tag such "
			       "as v6.13)", doc->name, ynode_line(map), which);
	if (!sha)
		return 0;
	if (!s->ref)
		return pb_fail(err, EX_DATAERR, "%s:%d: '%s.sha' is for a ref "
			       "name in '%s.commit', which is a sha already",
			       doc->name, ynode_line(sha), which, which);
	if (!manifest_is_sha(sha->str))
		return pb_fail(err, EX_DATAERR, "%s:%d: '%s.sha' must be 7 to "
			       "40 hex digits", doc->name, ynode_line(sha),
			       which);
	s->sha = sha->str;
	return 0;
}


const char *manifest_side_sha(const struct manifest_side *s)
{
	return s->sha ? s->sha : s->commit;
}

int manifest_resolve(struct manifest *m, const struct config *cfg,
		     struct pb_err *err)
{
	struct manifest_side *sides[2] = { &m->base, &m->head };
	static const char *const which[2] = { "base", "head" };
	struct gittree *t = NULL;
	char full[GIT_SHA_HEX];
	int i, rc = 0;

	for (i = 0; i < 2 && !rc; i++) {
		if (!sides[i]->ref || sides[i]->sha)
			continue;
		if (!cfg->tracking.repo) {
			rc = pb_fail(err, EX_CONFIG, "%s: '%s.commit' is the "
				     "ref '%s': give its sha as '%s.sha', or "
				     "set tracking.repo to resolve it",
				     m->doc.name, which[i], sides[i]->ref,
				     which[i]);
			break;
		}
		if (!t && gittree_open(&t, cfg->tracking.repo, err)) {
			rc = -1;
			break;
		}
		if (gittree_ref(t, sides[i]->ref, full, err)) {
			rc = pb_wrap(err, "%s: '%s.commit'", m->doc.name,
				     which[i]);
			break;
		}
		free(sides[i]->resolved);
		sides[i]->resolved = strdup(full);
		if (!sides[i]->resolved) {
			rc = pb_fail(err, EX_OSERR, "out of memory");
			break;
		}
		sides[i]->sha = sides[i]->resolved;
	}
	gittree_close(t);
	return rc;
}
