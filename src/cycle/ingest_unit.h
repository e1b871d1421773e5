/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_CYCLE_INGEST_UNIT_H
#define PERFBOT_CYCLE_INGEST_UNIT_H

/*
 * The ingest step's items (ingest.c), shared with the claims of its
 * manifests (ingest_claim.c); internal to src/cycle/.
 */

#include "perfbot/compose/mail.h"
#include "perfbot/ingest/group.h"
#include "perfbot/ingest/manifest.h"
#include "perfbot/ingest/sources.h"
#include "perfbot/render/report.h"

#include "steps.h"

/*
 * A manifest's claim lasts this long (s): far more than a group's
 * reports take; one of a killed run of this host is taken over at once.
 */
#define MANIFEST_LEASE 900

/* One manifest on its way through the workers. */
enum item_kind {
	ITEM_BAD,	/* reported in 'err' */
	ITEM_NONE,	/* no manifest at all: 'err' says why (--verbose) */
	ITEM_SEEN,	/* the state knows it */
	ITEM_OTHER,	/* another instance holds its claim */
	ITEM_JUDGE,	/* its report is made */
};

struct item {
	const struct manifest_text *mt;
	enum item_kind kind;
	struct pb_err err;	/* why it is bad, or why no report */
	struct manifest m;
	int made;		/* report_make(): 0, or -1 with 'err' */
	struct report r;
	int mailed;		/* 'c' holds its mail: 1, -1 failed ('cerr') */
	struct composed c;
	struct pb_err cerr;
	int joined;		/* its comparison is in the primary's mail */
	int waiting;		/* its bisection runs: seen again next run */
	/* a manifest that names no id: the id derived for it by an earlier
	 * run (state_manifest_id_get()), looked up once, by its digest */
	int looked;
	char digest[33];
	char *known;
	char *kept;		/* the primary's: its text and the joined ones'
				 * (ingest/group.h), kept with its mail */
};

/*
 * The manifests of one group (ingest/group.h) on their way: one mail
 * when several of them are worth one and go out at once, the primary's
 * (the largest change), with the others' comparisons in it.
 */
struct unit {
	struct item *it;	/* in manifest order */
	size_t n;
	size_t primary;		/* the item whose mail holds them, or n */
	json_t **also;		/* the joined ones' contexts (their r.ctx) */
	size_t nalso;
	int claimed;		/* its manifests' claims are this run's */
};

/* What the workers share, and each worker's own tables. */
struct ingest {
	struct cycle *cy;
	struct source_batch b;
	struct source_ids ids;	/* the ids taken so far, in order */
	struct manifest_groups groups;
	struct unit *slot;
	struct inputs_opts *io;		/* [worker], then the caller's */
	size_t jobs;
	unsigned char *left;	/* [b.n]: 1 for a manifest a later run must
				 * see again (sources_remember()) */
};

/*
 * Claim the unit's manifests (state_manifests_claim(): all or none)
 * before their reports are made, then see whether the state knows each
 * (asked after the claim: another instance may have finished one
 * meanwhile). Those another instance holds become ITEM_OTHER. -1 with
 * 'err' when the state fails.
 */
int unit_claim(struct ingest *in, struct unit *un, struct pb_err *err);
/* Let the unit's claims go (its reports queued, held or recorded). */
void unit_unclaim(struct ingest *in, struct unit *un);
/*
 * Keep the id derived for an item whose manifest names none, once this
 * run has taken it (its report made, the id no other manifest's): a
 * later run knows it, and whether it was seen, without making the report
 * (state_manifest_id_keep()). Nothing for --dry-run.
 */
int item_id_keep(struct ingest *in, struct item *it, struct pb_err *err);

#endif
