// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: manifests claimed at ingest (issue 34: several instances side
 * by side on one state). Before an instance makes the report of a
 * manifest it takes the manifest's claim, a row of manifest_claims keyed
 * by the manifest's id (its owner and the end of its lease, taken as
 * lease.c takes every lease: one conditional UPDATE ... RETURNING), for
 * every member of a group or none; it lets the claims go once the
 * reports are queued, held or recorded as seen, and a claim whose lease
 * is over or whose owner is a dead process of this host is taken over.
 * The one that takes a claim asks the state again whether the manifest
 * was seen, so a manifest finished by another instance meanwhile is not
 * made twice. A backend that runs one run at a time (SQLite, its run
 * lock) needs no claim: every one is taken and nothing is written.
 */
#include "perfbot/state/seen.h"
#include "perfbot/util/log.h"
#include "internal.h"

static const struct lease_of manifest_lease = {
	.table = "manifest_claims", .key = "id", .owner = "owner",
	.until = "lease_until", .open = "1 = 1",
};

/* Does the backend let several instances work on the state at once? */
static int shared(const struct state *st)
{
	return st->be->duty_lock != NULL;
}

int state_manifests_release(struct state *st, const char *const *keys,
			    size_t n, struct pb_err *err)
{
	char mine[300];
	size_t i;

	if (!shared(st))
		return 0;
	if (lease_owner(st, mine, sizeof(mine)))
		return pb_fail(err, EX_SOFTWARE, "lease: host name too long");
	for (i = 0; i < n; i++)
		if (keys[i] && db_run(st, err, "DELETE FROM manifest_claims "
				      "WHERE id = ? AND owner = ?", "ss",
				      keys[i], mine))
			return -1;
	return 0;
}

int state_manifests_forget_seen(struct state *st, struct pb_err *err)
{
	if (!shared(st))
		return 0;
	return db_run(st, err, "DELETE FROM manifest_claims WHERE id IN "
		      "(SELECT id FROM manifests) OR id IN (SELECT id FROM "
		      "outbox WHERE kind = 'report')", "");
}

int state_manifests_claim(struct state *st, const char *const *keys,
			  size_t n, time_t now, long ttl, int *claimed,
			  struct pb_err *err)
{
	struct pb_err e = { 0, "" };
	size_t got;
	int taken = 1;

	*claimed = 1;
	if (!shared(st))
		return 0;
	for (got = 0; got < n && taken; got++) {
		if (!keys[got])
			continue;
		if (db_run(st, err, "INSERT INTO manifest_claims (id) VALUES "
			   "(?) ON CONFLICT (id) DO NOTHING", "s", keys[got]) ||
		    lease_take(st, &manifest_lease, keys[got], now, ttl,
			       &taken, err))
			goto fail;
	}
	if (taken)
		return 0;
	/* one is another instance's: none of the group is this one's */
	*claimed = 0;
	log_debug("manifest '%s' is another instance's", keys[got - 1]);
	if (state_manifests_release(st, keys, got - 1, err))
		return -1;
	return 0;
fail:
	if (state_manifests_release(st, keys, got, &e))
		log_warn("%s", e.msg);
	return -1;
}
