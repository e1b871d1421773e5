/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_REQUESTS_H
#define PERFBOT_REQUESTS_H

#include <stddef.h>
#include <time.h>

#include "perfbot/state/state.h"

/*
 * The farm requests (record stage, src/state/requests.c): every run
 * perfbot asks the farm for, of every kind ("retest", "confirm", "test",
 * "verify"), is one row of one table. What a kind is (its placeholders,
 * its answers, its verdict) is act/'s; here the kind is a string.
 *
 * Its status is one of one vocabulary, the same for every kind:
 *   asking    recorded, the farm not yet known to have it (a crash while
 *             asking asks again with the same request id)
 *   queued    the farm has it
 *   done      its runs landed: 'verdict' says what they showed
 *   failed    the farm wrote why it cannot run it ('detail')
 *   expired   the deadline passed ('verdict' "unconfirmed" when a
 *             confirmation's report was mailed all the same)
 *   rejected  the farm did not take it ('detail', for the operator)
 *   dropped   the record moved on before it ended (a verify whose fix
 *             was reverted)
 * 'asking' and 'queued' are open; the others are final and stamp
 * 'decided'.
 */

/* A request as asked: strings borrowed, NULL where the kind has none. */
struct request_new {
	const char *request_id;
	const char *kind;
	const char *report_id;
	long runs;		/* asked (a side, for a confirmation) */
	const char *status;	/* NULL: "queued" */
	const char *detail;
	time_t deadline;
	const char *result_root;
	const char *requested_by;	/* a reply's sender */
	const char *reply_message_id;	/* the mail that asked */
	const char *thread;	/* JSON: what an answer in the thread needs */
	long base_runs, head_runs;	/* runs there when it was asked */
	/* a kind's own */
	const char *form;	/* a test's: "patch", "tree", "commit" */
	const char *commit;	/* a test's base, a verify's fix */
	const char *repo, *ref;	/* a tree test's */
	const char *patch;	/* a patch test's saved patch */
	long patch_bytes;
	const char *metric;	/* a confirmation's headline */
	double reported_change;
};

/* A request as read back: every string malloc'd, NULL when none. */
struct request {
	char *request_id, *kind, *report_id, *status, *verdict, *detail;
	char *result_root, *requested_by, *reply_message_id, *thread;
	char *form, *commit, *repo, *ref, *patch, *metric;
	long runs, base_runs, head_runs, patch_bytes;
	double reported_change;
	time_t deadline, created, decided;	/* decided 0: not yet */
};
void request_rows_free(struct request *r, size_t n);

/* Record a request; one already recorded under its id is kept as it is. */
int state_request_add(struct state *st, const struct request_new *rq,
		      time_t now, struct pb_err *err);

/*
 * Record a request 'asking' (its status and detail as given are not
 * kept) and commit it now, before the farm is asked: one already
 * recorded under its id is kept as it is (its counts too). When a
 * transaction is open, what it holds is committed with it and a new one
 * begun, so the caller's commit or rollback still ends it.
 */
int state_request_hold(struct state *st, const struct request_new *rq,
		       time_t now, struct pb_err *err);

/*
 * The open requests ('asking', 'queued') of 'kind' (NULL: of every
 * kind), oldest first. Free with request_rows_free().
 */
int state_requests_open(struct state *st, const char *kind,
			struct request **out, size_t *n, struct pb_err *err);
/* Every request of report 'report_id' of 'kind' (NULL: all), oldest first. */
int state_requests_of(struct state *st, const char *report_id,
		      const char *kind, struct request **out, size_t *n,
		      struct pb_err *err);
/* Request 'request_id' into '*out' (NULL when there is none). */
int state_request_get(struct state *st, const char *request_id,
		      struct request **out, struct pb_err *err);

/*
 * A request moves on: its 'status', 'verdict' and 'detail'; a final
 * status is decided at 'now'.
 */
int state_request_set(struct state *st, const char *request_id,
		      const char *status, const char *verdict,
		      const char *detail, time_t now, struct pb_err *err);

/* What the limits of a kind count. */
struct request_tally {
	long of_report;		/* asked for the report, ever (but those
				 * that ran nothing: 'failed') */
	long of_sender;		/* asked by the sender since 'since' */
	char *open_status;	/* the report's newest open one's, or NULL */
	time_t open_since;	/* when it was asked, 0 when none is open */
};
int state_request_tally(struct state *st, const char *kind,
			const char *report_id, const char *sender,
			time_t since, struct request_tally *t,
			struct pb_err *err);
void request_tally_release(struct request_tally *t);

/*
 * A confirmation (cycle/confirm.c) holds its report: the request
 * ('asking') and the manifest as seen (outcome 'confirming', its text
 * kept for later) in one transaction.
 */
int state_confirm_hold(struct state *st, const struct request_new *c,
		       const char *manifest, const char *text,
		       const char *dir, time_t now, struct pb_err *err);
/*
 * A confirmation moves on (state_request_set()) and its manifest's
 * outcome with it: the verdict, else "confirming" while open, else the
 * status.
 */
int state_confirm_set(struct state *st, const struct request *c,
		      const char *status, const char *verdict,
		      const char *detail, time_t now, struct pb_err *err);

/*
 * The next look of a sequential confirmation: 'runs' new runs a side in
 * all under a new request id, status 'asking' again.
 */
int state_confirm_more(struct state *st, const char *report_id,
		       const char *request_id, long runs, struct pb_err *err);

/*
 * The next look of an open sequential request (a retest's): 'runs' new
 * runs a side in all under the look's own id 'new_id', until 'deadline',
 * status 'asking' again (the farm is asked next).
 */
int state_request_look(struct state *st, const char *request_id,
		       const char *new_id, long runs, time_t deadline,
		       struct pb_err *err);

/*
 * Take an open request's follow-up for 'ttl' seconds (its lease: owner
 * "host:pid", its end), in one conditional write: '*claimed' 1, or 0
 * when it is no longer open or another instance's lease on it is not
 * over (one of a process of this host that no longer exists is taken
 * over). Released (one's own only) when the follow-up is done.
 */
int state_request_claim(struct state *st, const char *request_id, time_t now,
			long ttl, int *claimed, struct pb_err *err);
int state_request_release(struct state *st, const char *request_id,
			  struct pb_err *err);

/*
 * The open requests of 'kind' (state_requests_open()) that this handle
 * now holds the lease on (state_request_claim(), 'ttl' seconds), each
 * read again after its claim; another instance's are left out. Given
 * back with state_requests_release() (failures logged) once followed up.
 */
int state_requests_claim(struct state *st, const char *kind, time_t now,
			 long ttl, struct request **out, size_t *n,
			 struct pb_err *err);
void state_requests_release(struct state *st, const struct request *rows,
			    size_t n);

#endif
