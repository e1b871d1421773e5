// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ingest step's claims (ingest_unit.h): several instances may ingest
 * the same sources side by side on one state (PostgreSQL), so each
 * group's manifests are claimed, all or none, before the state is asked
 * whether they were seen and their reports are made, and let go once
 * their reports are queued, held or recorded; a group another instance
 * holds is left to it. Nothing is claimed for --dry-run.
 *
 * A manifest that names no id is known by the id an earlier run derived
 * for it (item_id_keep()), so an unchanged one is seen without its
 * result roots being loaded again.
 */
#include <stdio.h>
#include <string.h>

#include "perfbot/state/seen.h"
#include "perfbot/util/log.h"
#include "perfbot/util/strmap.h"

#include "ingest_unit.h"

/*
 * The keys of the claims of a unit's manifests (their ids, else their
 * names: the same for every instance reading the same source), NULL for
 * an item that is no manifest; 0 when there is nothing to claim (no
 * state written: --dry-run).
 */
static size_t unit_keys(const struct ingest *in, const struct unit *un,
			const char **keys)
{
	size_t k;

	if (!in->cy->have_state || in->cy->dry_run)
		return 0;
	for (k = 0; k < un->n; k++)
		keys[k] = un->it[k].kind == ITEM_BAD ||
			  un->it[k].kind == ITEM_NONE ? NULL :
			  un->it[k].m.id ? un->it[k].m.id : un->it[k].mt->name;
	return un->n;
}

void unit_unclaim(struct ingest *in, struct unit *un)
{
	const char *keys[GROUP_MAX_MEMBERS];
	struct pb_err e = { 0, "" };
	size_t n;

	if (!un->claimed)
		return;
	un->claimed = 0;
	n = unit_keys(in, un, keys);
	if (n && state_manifests_release(in->cy->st, keys, n, &e))
		log_warn("%s", e.msg);
}

/* A digest of the manifest's text and folder: 32 hex digits. */
static void digest_of(const struct manifest_text *mt, char out[33])
{
	unsigned long long h[2];
	int i;

	for (i = 0; i < 2; i++) {
		h[i] = hash_fnv1a(mt->dir, strlen(mt->dir) + 1, (unsigned)i);
		h[i] = hash_fnv1a(mt->text, mt->len, h[i]);
	}
	snprintf(out, 33, "%016llx%016llx", h[0], h[1]);
}

/* The item's id: its manifest's, else the one derived by an earlier run
 * (NULL when none is known). */
static int id_known(struct ingest *in, struct item *it, const char **id,
		    struct pb_err *err)
{
	*id = it->m.id;
	if (*id || !in->cy->have_state)
		return 0;
	if (!it->looked) {
		it->looked = 1;
		digest_of(it->mt, it->digest);
		if (state_manifest_id_get(in->cy->st, it->digest, &it->known,
					  err))
			return -1;
	}
	*id = it->known;
	return 0;
}

int item_id_keep(struct ingest *in, struct item *it, struct pb_err *err)
{
	const char *id;

	if (it->m.id || !it->r.id || in->cy->dry_run || !in->cy->have_state)
		return 0;
	if (id_known(in, it, &id, err))
		return -1;
	return id ? 0 : state_manifest_id_keep(in->cy->st, it->digest,
					       it->r.id, in->cy->now, err);
}

/*
 * The unit's manifests the state knows marked so (ITEM_SEEN); '*left'
 * the number still to judge.
 */
static int mark_seen(struct ingest *in, struct unit *un, size_t *left,
		     struct pb_err *err)
{
	struct cycle *cy = in->cy;
	const char *id;
	size_t k;
	int s;

	*left = 0;
	for (k = 0; k < un->n; k++) {
		struct item *it = &un->it[k];

		if (it->kind != ITEM_JUDGE)
			continue;
		s = 0;
		if (id_known(in, it, &id, err) ||
		    (id && cy->have_state && state_seen(cy->st, id, &s, err)))
			return -1;
		if (s)
			it->kind = ITEM_SEEN;
		else
			++*left;
	}
	return 0;
}

/*
 * A unit whose manifests the state knows already is not claimed (most of
 * a source's manifests, every cycle: one read each, not a claim and its
 * release); the others are claimed and then asked again, since another
 * instance may have finished them between the two. The seen manifests
 * stay known: ingest.c's finish need not ask again.
 */
int unit_claim(struct ingest *in, struct unit *un, struct pb_err *err)
{
	const char *keys[GROUP_MAX_MEMBERS];
	struct cycle *cy = in->cy;
	size_t n, k, left;
	int mine = 1;

	if (mark_seen(in, un, &left, err))
		return -1;
	if (!left)
		return 0;
	n = unit_keys(in, un, keys);
	if (n && state_manifests_claim(cy->st, keys, n, cy->now,
				       MANIFEST_LEASE, &mine, err))
		return -1;
	un->claimed = n && mine;
	if (mine)
		return n ? mark_seen(in, un, &left, err) : 0;
	for (k = 0; k < un->n; k++) {
		struct item *it = &un->it[k];

		if (it->kind != ITEM_JUDGE)
			continue;
		log_info("%s: another instance is on it; skipped",
			 it->mt->name);
		it->kind = ITEM_OTHER;
	}
	return 0;
}
