// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: the open farm requests of a kind that this instance holds the
 * lease on (lease.c), for a follow-up run by several instances on one
 * state: each open one is claimed, those another instance holds are
 * left out, and each claimed one is read again after its claim, so that
 * what is followed up is what the state holds now, not what an earlier
 * read saw before another instance moved it on.
 */
#include <stdlib.h>
#include <string.h>

#include "perfbot/state/requests.h"
#include "perfbot/util/log.h"

int state_requests_claim(struct state *st, const char *kind, time_t now,
			 long ttl, struct request **out, size_t *n,
			 struct pb_err *err)
{
	struct request *rows = NULL, *keep = NULL, *fresh;
	size_t i, kept = 0, all = 0;
	int claimed, rc = -1;

	*out = NULL;
	*n = 0;
	if (state_requests_open(st, kind, &rows, &all, err))
		return -1;
	if (all && !(keep = calloc(all, sizeof(*keep)))) {
		pb_fail(err, EX_OSERR, "out of memory");
		goto out;
	}
	for (i = 0; i < all; i++) {
		fresh = NULL;
		if (state_request_claim(st, rows[i].request_id, now, ttl,
					&claimed, err))
			goto out;
		if (!claimed) {
			log_debug("%s '%s' is another instance's; skipped",
				  kind, rows[i].request_id);
			continue;
		}
		if (state_request_get(st, rows[i].request_id, &fresh, err)) {
			state_request_release(st, rows[i].request_id, err);
			goto out;
		}
		if (!fresh)	/* gone meanwhile */
			continue;
		keep[kept++] = *fresh;
		free(fresh);
	}
	rc = 0;
out:
	request_rows_free(rows, all);
	if (rc) {
		state_requests_release(st, keep, kept);
		request_rows_free(keep, kept);
		return -1;
	}
	*out = keep;
	*n = kept;
	return 0;
}

void state_requests_release(struct state *st, const struct request *rows,
			    size_t n)
{
	struct pb_err err = { 0, "" };
	size_t i;

	for (i = 0; i < n; i++)
		if (state_request_release(st, rows[i].request_id, &err))
			log_warn("%s", err.msg);
}
