/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_RECORDS_H
#define PERFBOT_RECORDS_H

#include <stddef.h>
#include <time.h>

#include "perfbot/state/state.h"

/*
 * The life of each report in the state (record stage, records.c): its
 * record (a status word and what the status rests on: the fix named, the
 * commit that landed, the report it duplicates, why it is invalid, the
 * verify run), every transition with who or what made it and when, the
 * tips of the tracked branches walked, the reminders mailed with the
 * report of each of their lines (the farm's runs on the landed fixes are
 * requests of kind "verify", requests.h). The words of the statuses and what may follow what are
 * act/regression.c's; here they are strings.
 *
 * A report has a record from the moment its mail is queued
 * (state_record_open(), in the same transaction); a report queued before
 * the records existed reads as one of status "open" whose headline is
 * unknown ('stored' 0) until its first transition writes the row.
 */

struct record {
	char *report_id;
	char *status;		/* "open", "fix named", ... */
	char *metric;		/* the headline as mailed, NULL unknown */
	double change;		/* its %change */
	int regression;		/* 1, 0 an improvement, -1 unknown */
	char *fix_named;	/* what 'fix:' named: a title or a sha */
	char *fix_commit;	/* the commit that landed, full sha */
	char *fix_summary;	/* its title */
	char *fix_branch;	/* where it was found */
	time_t fix_date;	/* its commit time */
	char *dup_of;		/* the report it duplicates */
	char *reason;		/* why it is invalid, or NULL */
	char *verify_request;	/* the farm's run on the fix, or NULL */
	char *verdict;		/* what that run said, or NULL */
	int no_reminders;
	int searched;		/* the named fix was looked for in the tree */
	time_t created, changed;	/* the last transition */
	int stored;		/* the row exists (else the defaults) */

	/* the report's own, read with it (state_record_put() ignores them) */
	char *subject, *message_id;
	char *recipients;	/* JSON list of its envelope's addresses */
	char *mail_status;	/* its mail: "queued", "sent", ... */
	time_t mailed;		/* when it was queued */
	time_t activity;	/* the newest of its transitions, the mails
				 * read in its thread and its answers */
};

/* Free what 'r' holds and zero it; safe on a zeroed record and twice. */
void record_release(struct record *r);
void records_free(struct record *r, size_t n);

/*
 * The record of the mail just queued as report 'report_id' (its headline
 * 'metric', NULL when unknown, and 'change'; 'regression' 1, 0 or -1):
 * status "open". A record already there is left as it is.
 */
int state_record_open(struct state *st, const char *report_id,
		      const char *metric, double change, int regression,
		      time_t now, struct pb_err *err);

/*
 * The record of report 'report_id' into 'r' (record_release() after, in
 * both cases); '*found' 0 when the outbox has no such report.
 */
int state_record_get(struct state *st, const char *report_id,
		     struct record *r, int *found, struct pb_err *err);

/*
 * The report whose id or Message-ID (with or without <>) is 'key', or
 * whose id a request names (a report held for confirmation and never
 * mailed): '*report_id' newly allocated, NULL when none.
 */
int state_record_find(struct state *st, const char *key, char **report_id,
		      struct pb_err *err);

/*
 * The reports whose subject is exactly 'subject': up to 'max' ids into
 * 'ids' (each malloc'd), '*n' how many there are in all.
 */
int state_record_by_subject(struct state *st, const char *subject,
			    char **ids, size_t max, size_t *n,
			    struct pb_err *err);

/*
 * Every record whose status is one of the JSON list 'statuses' (NULL:
 * all), of reports whose 'regression' is not 0 when 'regressions_only',
 * the oldest report first. Free with records_free().
 */
int state_records(struct state *st, const char *statuses,
		  int regressions_only, struct record **out, size_t *n,
		  struct pb_err *err);

/* A transition, as recorded and read back. */
struct record_event {
	time_t at;
	char *event;		/* the command or the finding: "fix:",
				 * "landed", "reverted", "verified", ... */
	char *from, *to;	/* the statuses before and after */
	char *by;		/* who: an address, "tracking", "verify" */
	char *detail;		/* its argument: a title, a commit, ... */
	char *source;		/* what carried it: a Message-ID, a sha */
};
void record_events_free(struct record_event *e, size_t n);

/*
 * Write record 'r' (its row, all fields but the report's own) and the
 * transition 'ev' (its 'at' is 'now'), in one statement each: the caller
 * holds the transaction that also queues the answer.
 */
int state_record_put(struct state *st, const struct record *r,
		     const struct record_event *ev, time_t now,
		     struct pb_err *err);

/* The transitions of report 'report_id', oldest first. */
int state_record_events(struct state *st, const char *report_id,
			struct record_event **out, size_t *n,
			struct pb_err *err);

/*
 * The tip of tracked branch 'branch' at the last walk ('*tip' malloc'd,
 * NULL when never walked), and the new one once a walk is done.
 */
int state_track_tip(struct state *st, const char *branch, char **tip,
		    struct pb_err *err);
int state_track_set(struct state *st, const char *branch, const char *tip,
		    time_t now, struct pb_err *err);

/*
 * Reminders: when the last was queued ('*when' 0: never) and how many
 * were; a new one, 'id' its outbox id, 'lines' the JSON list of the
 * report id of each of its lines (line N is item N-1).
 */
int state_reminder_last(struct state *st, time_t *when, long *count,
			struct pb_err *err);
int state_reminder_add(struct state *st, const char *id, const char *lines,
		       time_t now, struct pb_err *err);

/*
 * The reminder a thread is about: 'ids' as for state_route(), the
 * closest first; '*reminder_id' malloc'd, NULL when none is a reminder.
 */
int state_route_reminder(struct state *st, const char *const *ids,
			 size_t n, char **reminder_id, struct pb_err *err);

/* The report of line 'line' (1...) of reminder 'id', or NULL. */
int state_reminder_line(struct state *st, const char *id, long line,
			char **report_id, struct pb_err *err);

#endif
