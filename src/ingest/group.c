// SPDX-License-Identifier: GPL-2.0-only
/*
 * ingest: the manifests of a cycle that make one report (group.h): the
 * same commits, or the same 'group' name; and the robot's order of the
 * comparisons of one report.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/ingest/group.h"
#include "perfbot/ingest/sources.h"
#include "perfbot/util/strbuf.h"
#include "manifest_internal.h"

#define GROUP_MAX 64	/* bytes of a 'group' name */

/*
 * 'group': the name of the report this comparison joins (letters,
 * digits, '.', '_', '-', at most GROUP_MAX bytes), or 'none' to keep it
 * a report of its own; absent, the commits decide (ingest/group.h).
 */
int manifest_load_group(struct manifest *m, struct pb_err *err)
{
	const struct ynode *v = ymap_get(m->doc.root, "group");
	size_t i;

	if (!v)
		return 0;
	for (i = 0; i < v->len; i++)
		if (!isalnum((unsigned char)v->str[i]) &&
		    !strchr("._-", v->str[i]))
			break;
	if (!v->len || v->len > GROUP_MAX || i < v->len)
		return pb_fail(err, EX_DATAERR, "%s:%d: 'group' must be 1 to "
			       "%d letters, digits, '.', '_' or '-'",
			       m->doc.name, ynode_line(v), GROUP_MAX);
	m->group = v->str;
	return 0;
}

char *manifest_group_key(const struct manifest *m, const char *dir,
			 int *oom)
{
	struct strbuf sb = STRBUF_INIT;
	const char *b, *h;
	int rc;

	*oom = 0;
	if (m->bisect || (m->group && !strcmp(m->group, "none")))
		return NULL;
	if (m->group) {
		rc = sb_addf(&sb, "group %s\n%s", m->group, dir ? dir : "");
	} else {
		b = manifest_side_sha(&m->base);
		h = manifest_side_sha(&m->head);
		rc = sb_addf(&sb, "commits %s %s\n%s", b ? b : m->base.commit,
			     h ? h : m->head.commit, dir ? dir : "");
	}
	if (rc) {
		sb_release(&sb);
		*oom = 1;
		return NULL;
	}
	return sb_detach(&sb, NULL);
}

void manifest_groups_release(struct manifest_groups *g)
{
	free(g->member);
	free(g->first);
	memset(g, 0, sizeof(*g));
}

/* The members of the group manifest 'i' starts, after 'i', into 'g'. */
static size_t take_group(struct manifest_groups *g, char *const *key,
			 size_t n, size_t i, unsigned char *taken, size_t at)
{
	size_t j, size = 1;

	g->member[at++] = i;
	taken[i] = 1;
	for (j = i + 1; key[i] && j < n && size < GROUP_MAX_MEMBERS; j++) {
		if (taken[j] || !key[j] || strcmp(key[i], key[j]))
			continue;
		g->member[at++] = j;
		taken[j] = 1;
		size++;
	}
	return at;
}

int manifest_groups_make(struct manifest_groups *g, char *const *key,
			 size_t n, struct pb_err *err)
{
	unsigned char *taken = calloc(n ? n : 1, 1);
	size_t i, at = 0;

	memset(g, 0, sizeof(*g));
	g->member = calloc(n ? n : 1, sizeof(*g->member));
	g->first = calloc(n + 1, sizeof(*g->first));
	if (!taken || !g->member || !g->first) {
		free(taken);
		manifest_groups_release(g);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	for (i = 0; i < n; i++) {
		if (taken[i])
			continue;
		g->first[g->ngroups++] = at;
		at = take_group(g, key, n, i, taken, at);
	}
	g->first[g->ngroups] = at;
	free(taken);
	return 0;
}

void group_order(const double *change, size_t n, size_t *order)
{
	size_t i, j, k;

	for (i = 0; i < n; i++)
		order[i] = i;
	/* insertion sort: stable, and a group is small */
	for (i = 1; i < n; i++) {
		k = order[i];
		for (j = i; j > 0 && fabs(change[order[j - 1]]) <
			     fabs(change[k]); j--)
			order[j] = order[j - 1];
		order[j] = k;
	}
}

size_t manifest_kept_len(const char *text)
{
	const char *sep = strstr(text, MANIFEST_KEPT_SEP);

	return sep ? (size_t)(sep - text) : strlen(text);
}

int manifest_kept_next(const char *text, size_t *at, size_t *start,
		       size_t *len)
{
	size_t n = strlen(MANIFEST_KEPT_SEP);
	const char *sep = strstr(text + *at, MANIFEST_KEPT_SEP);

	if (!sep)
		return 0;
	*start = (size_t)(sep - text) + n;
	*len = manifest_kept_len(text + *start);
	*at = *start + *len;
	return 1;
}

int manifest_kept_add(struct strbuf *kept, const char *text)
{
	return sb_adds(kept, MANIFEST_KEPT_SEP) || sb_adds(kept, text) ? -1 :
		0;
}

char *manifest_kept_join(const char *const *texts, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (!n || sb_adds(&sb, texts[0]))
		return NULL;
	for (i = 1; i < n; i++)
		if (manifest_kept_add(&sb, texts[i])) {
			sb_release(&sb);
			return NULL;
		}
	return sb_detach(&sb, NULL);
}

int manifest_groups_of(struct manifest_groups *g,
		       const struct manifest_text *mt, size_t n,
		       struct pb_err *err)
{
	char **key = calloc(n ? n : 1, sizeof(*key));
	size_t i;
	int rc, oom = 0;

	memset(g, 0, sizeof(*g));
	if (!key)
		return pb_fail(err, EX_OSERR, "out of memory");
	for (i = 0; i < n && !oom; i++) {
		struct pb_err ignored = { 0, "" };
		struct manifest m;
		int is = 0;

		if (manifest_parse_any(&m, mt[i].name, mt[i].dir, mt[i].text,
				       mt[i].len, &is, &ignored))
			continue;
		if (is)
			key[i] = manifest_group_key(&m, mt[i].dir, &oom);
		manifest_release(&m);
	}
	rc = oom ? pb_fail(err, EX_OSERR, "out of memory") :
		manifest_groups_make(g, key, n, err);
	for (i = 0; i < n; i++)
		free(key[i]);
	free(key);
	return rc;
}
