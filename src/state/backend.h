/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STATE_BACKEND_H
#define PERFBOT_STATE_BACKEND_H

/*
 * The state's backends (internal to src/state/): a table of functions
 * each, as git's ref storage backends and libgit2's refdb backends are,
 * and perfbot's scheduler backends (act/sched_backend.h). backend.c is
 * the front: state_open() chooses the backend by the 'state:' value (a
 * plain path: SQLite; a URI: the backend of its scheme) and every
 * state_* function of the public headers calls the open state's backend
 * through 'st->be'. Nothing above src/state/ sees a backend or its SQL.
 *
 * Two backends: SQLite (state_sqlite, opened in state.c, its driver in
 * sqlite_sql.c) and PostgreSQL (state_postgresql, pg.c, its driver in
 * pg_sql.c); their tables' operations are the same, in SQL both accept
 * (queue.c, admin.c, seen.c, inbox.c, marks.c, requests.c, records.c,
 * status.c, archive.c, prune.c; doc/state-sql.md). A new
 * backend is one more struct state_backend with every member set, its
 * files, and one line in backend.c's table; the operations mean what the
 * public headers say, whatever the backend.
 */

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "perfbot/state/archive.h"
#include "perfbot/state/backup.h"
#include "perfbot/state/noise.h"
#include "perfbot/state/bisections.h"
#include "perfbot/state/inbox.h"
#include "perfbot/state/outbox.h"
#include "perfbot/state/prune.h"
#include "perfbot/state/records.h"
#include "perfbot/state/requests.h"
#include "perfbot/state/seen.h"
#include "perfbot/state/state.h"
#include "perfbot/state/status.h"

/* The operations of each family of tables, named as the state_* they serve. */
/* archive.h */
struct state_archive_ops {
	int (*archive_reports)(struct state *st, struct archive_report **out,
			       size_t *n, struct pb_err *err);
	int (*archive_thread)(struct state *st, const char *report_id,
			      struct archive_thread *t, int *found,
			      struct pb_err *err);
};

/* inbox.h */
struct state_inbox_ops {
	int (*mailbox_get)(struct state *st, const char *mailbox,
			   unsigned long *uidvalidity, unsigned long *last_uid,
			   struct pb_err *err);
	int (*mailbox_set)(struct state *st, const char *mailbox,
			   unsigned long uidvalidity, unsigned long last_uid,
			   struct pb_err *err);
	int (*inbox_seen)(struct state *st, const char *message_id, int *seen,
			  struct pb_err *err);
	int (*inbox_record)(struct state *st, const struct inbox_entry *e,
			    time_t now, struct pb_err *err);
	int (*inbox_count)(struct state *st, const char *sender, time_t since,
			   const char *prefix, long *n, struct pb_err *err);
	int (*inbox_count_report)(struct state *st, const char *report_id,
				  time_t since, const char *outcome, long *n,
				  struct pb_err *err);
	int (*inbox_count_exact)(struct state *st, const char *sender,
				 time_t since, const char *outcome, long *n,
				 struct pb_err *err);
	int (*route)(struct state *st, const char *const *ids, size_t n,
		     struct thread_report *tr, int *found, struct pb_err *err);
};

/* inbox.h */
struct state_marks_ops {
	int (*mark_add)(struct state *st, const char *mailbox,
			unsigned long uidvalidity, unsigned long uid,
			struct pb_err *err);
	int (*mark_done)(struct state *st, const char *mailbox,
			 unsigned long uidvalidity, unsigned long uid,
			 struct pb_err *err);
	int (*marks)(struct state *st, const char *mailbox,
		     unsigned long uidvalidity, size_t max, uint32_t **uids,
		     size_t *n, struct pb_err *err);
	int (*mailbox_stuck)(struct state *st, const char *mailbox,
			     unsigned long uidvalidity, unsigned long uid,
			     long *count, struct pb_err *err);
};

/* outbox.h */
struct state_outbox_ops {
	int (*queue)(struct state *st, const struct outbox_mail *m,
		     const char *manifest, const char *text, const char *dir,
		     const char *subject, time_t now, struct pb_err *err);
	int (*due)(struct state *st, time_t now, size_t max,
		   struct outbox_mail **out, size_t *n, struct pb_err *err);
	int (*due_rows)(struct state *st, time_t now, size_t max,
			long long **rows, size_t *n, struct pb_err *err);
	int (*queued_rows)(struct state *st, long long **rows, size_t *n,
			   struct pb_err *err);
	int (*mail)(struct state *st, long long rowid, struct outbox_mail *m,
		    int *found, struct pb_err *err);
	int (*queued)(struct state *st, struct outbox_mail **out, size_t *n,
		      struct pb_err *err);
	int (*claim)(struct state *st, long long rowid, time_t now, long ttl,
		     int *claimed, struct pb_err *err);
	int (*claim_due)(struct state *st, time_t now, long long after,
			 size_t max, long ttl, long long **rows, size_t *n,
			 struct pb_err *err);
	int (*unclaim)(struct state *st, long long rowid, struct pb_err *err);
	int (*sent)(struct state *st, long long rowid, time_t now,
		    struct pb_err *err);
	int (*retry)(struct state *st, long long rowid, const char *why,
		     time_t now, struct pb_err *err);
	int (*failed)(struct state *st, long long rowid, const char *why,
		      time_t now, struct pb_err *err);
	int (*recipient)(struct state *st, long long rowid, const char *addr,
			 const char *status, const char *reply,
			 struct pb_err *err);
	int (*rcpt_finals)(struct state *st, long long rowid,
			   struct addrlist *accepted, struct addrlist *rejected,
			   struct pb_err *err);
	int (*message_id_used)(struct state *st, const char *message_id,
			       int *used, struct pb_err *err);
	int (*counts)(struct state *st, long *queued, long *failed,
		      struct pb_err *err);
	int (*sent_clock)(struct state *st, long long rowid,
			  const struct clock_mono *m, struct pb_err *err);
	int (*sent_within)(struct state *st, time_t now, long secs,
			   const struct clock_mono *m, long *n,
			   struct pb_err *err);
	int (*sent_since)(struct state *st, time_t since, long *n,
			  struct pb_err *err);
	int (*outbox_has)(struct state *st, const char *message_id, int *sent,
			  struct pb_err *err);
};

/* outbox.h */
struct state_admin_ops {
	int (*requeue)(struct state *st, const char *id, time_t now,
		       const char *by, long *n, struct pb_err *err);
	int (*drop)(struct state *st, const char *id, time_t now,
		    const char *by, struct pb_err *err);
};

/* prune.h */
struct state_prune_ops {
	int (*done_roots)(struct state *st, time_t before,
			  struct done_root **out, size_t *n,
			  struct pb_err *err);
};

/* records.h */
struct state_records_ops {
	int (*record_open)(struct state *st, const char *report_id,
			   const char *metric, double change, int regression,
			   time_t now, struct pb_err *err);
	int (*record_get)(struct state *st, const char *report_id,
			  struct record *r, int *found, struct pb_err *err);
	int (*record_find)(struct state *st, const char *key, char **report_id,
			   struct pb_err *err);
	int (*record_by_subject)(struct state *st, const char *subject,
				 char **ids, size_t max, size_t *n,
				 struct pb_err *err);
	int (*records)(struct state *st, const char *statuses,
		       int regressions_only, struct record **out, size_t *n,
		       struct pb_err *err);
	int (*record_put)(struct state *st, const struct record *r,
			  const struct record_event *ev, time_t now,
			  struct pb_err *err);
	int (*record_events)(struct state *st, const char *report_id,
			     struct record_event **out, size_t *n,
			     struct pb_err *err);
	int (*track_tip)(struct state *st, const char *branch, char **tip,
			 struct pb_err *err);
	int (*track_set)(struct state *st, const char *branch, const char *tip,
			 time_t now, struct pb_err *err);
	int (*reminder_last)(struct state *st, time_t *when, long *count,
			     struct pb_err *err);
	int (*reminder_add)(struct state *st, const char *id, const char *lines,
			    time_t now, struct pb_err *err);
	int (*route_reminder)(struct state *st, const char *const *ids,
			      size_t n, char **reminder_id, struct pb_err *err);
	int (*reminder_line)(struct state *st, const char *id, long line,
			     char **report_id, struct pb_err *err);
};

/* requests.h */
struct state_requests_ops {
	int (*request_add)(struct state *st, const struct request_new *rq,
			   time_t now, struct pb_err *err);
	int (*requests_open)(struct state *st, const char *kind,
			     struct request **out, size_t *n,
			     struct pb_err *err);
	int (*requests_of)(struct state *st, const char *report_id,
			   const char *kind, struct request **out, size_t *n,
			   struct pb_err *err);
	int (*request_get)(struct state *st, const char *request_id,
			   struct request **out, struct pb_err *err);
	int (*request_set)(struct state *st, const char *request_id,
			   const char *status, const char *verdict,
			   const char *detail, time_t now, struct pb_err *err);
	int (*request_tally)(struct state *st, const char *kind,
			     const char *report_id, const char *sender,
			     time_t since, struct request_tally *t,
			     struct pb_err *err);
	int (*confirm_hold)(struct state *st, const struct request_new *c,
			    const char *manifest, const char *text,
			    const char *dir, time_t now, struct pb_err *err);
	int (*confirm_set)(struct state *st, const struct request *c,
			   const char *status, const char *verdict,
			   const char *detail, time_t now, struct pb_err *err);
	int (*confirm_more)(struct state *st, const char *report_id,
			    const char *request_id, long runs,
			    struct pb_err *err);
	int (*request_look)(struct state *st, const char *request_id,
			    const char *new_id, long runs, time_t deadline,
			    struct pb_err *err);
	int (*request_claim)(struct state *st, const char *request_id,
			     time_t now, long ttl, int *claimed,
			     struct pb_err *err);
	int (*request_release)(struct state *st, const char *request_id,
			       struct pb_err *err);
};

/* seen.h */
struct state_seen_ops {
	int (*seen)(struct state *st, const char *id, int *seen,
		    struct pb_err *err);
	int (*skip)(struct state *st, const char *id, const char *manifest,
		    const char *why, time_t now, struct pb_err *err);
	int (*manifest_text)(struct state *st, const char *report_id,
			     char **name, char **text, char **dir,
			     struct pb_err *err);
	int (*source_get)(struct state *st, const char *url, char **etag,
			  char **last_modified, struct pb_err *err);
	int (*source_set)(struct state *st, const char *url, const char *etag,
			  const char *last_modified, time_t now,
			  struct pb_err *err);
};

/* status.h */
struct state_status_ops {
	int (*status)(struct state *st, time_t now, struct status *out,
		      struct pb_err *err);
	int (*next_attempt)(struct state *st, struct status_next *nx,
			    struct pb_err *err);
	int (*retry_now)(struct state *st, time_t now, long *n,
			 struct pb_err *err);
};

/* bisections.h */
struct state_bisections_ops {
	int (*bisection_add)(struct state *st, const char *bisect_id,
			     const char *report_id, const char *phase,
			     const char *state_json, const char *job,
			     const char *manifest, time_t deadline, time_t now,
			     struct pb_err *err);
	int (*bisection_set)(struct state *st, const char *bisect_id,
			     const char *phase, const char *state_json,
			     time_t now, struct pb_err *err);
	int (*bisection_get)(struct state *st, const char *bisect_id,
			     struct bisection_row **out, struct pb_err *err);
	int (*bisections)(struct state *st, const char *report_id, int open,
			  struct bisection_row **out, size_t *n,
			  struct pb_err *err);
	int (*bisection_claim)(struct state *st, const char *bisect_id,
			       time_t now, long ttl, int *claimed,
			       struct pb_err *err);
	int (*bisection_release)(struct state *st, const char *bisect_id,
				 struct pb_err *err);
};

/* noise.h */
struct state_noise_ops {
	int (*noise_add)(struct state *st, const char *testcase,
			 const char *machine, const char *metric, double cv,
			 long df, time_t now, struct pb_err *err);
	int (*noise_all)(struct state *st, const char *testcase,
			 const char *machine, const char *metric,
			 struct state_noise **out, size_t *n, size_t *at,
			 struct pb_err *err);
};

struct db_driver;

struct state_backend {
	const char *name;
	/*
	 * The scheme of the 'state:' URIs it opens ("postgresql"), NULL for
	 * the backend of a plain path.
	 */
	const char *scheme;
	/* another name of that scheme ("postgres", as libpq has it) */
	const char *alias;
	/*
	 * Open (and migrate, and lock for STATE_LOCKED) the state 'where'
	 * names into a new '*st' whose 'be' is this backend; NULL on failure.
	 */
	int (*open)(struct state **st, const char *where, enum state_mode mode,
		    struct pb_err *err);
	/* 1 when 'where' is not made yet (state_missing()) */
	int (*missing)(const char *where);
	/* can a run use 'where' (state_usable()) */
	int (*usable)(const char *where, int *made, struct pb_err *err);
	/*
	 * The handle's operations (state.h); the run lock is the backend's
	 * (a file lock for SQLite).
	 */
	void (*close)(struct state *st);
	int (*lock)(struct state *st, struct pb_err *err);
	int (*check)(struct state *st, struct pb_err *err);
	/* state_describe() */
	int (*describe)(struct state *st, char *buf, size_t n,
			struct pb_err *err);
	int (*reserve)(struct state *st, struct pb_err *err);
	int (*unreserve)(struct state *st);
	int (*full)(const struct state *st);
	int (*begin)(struct state *st, struct pb_err *err);
	int (*commit)(struct state *st, struct pb_err *err);
	void (*rollback)(struct state *st);
	/*
	 * Take the singleton duty 'duty' (duty.h) for this handle: '*held'
	 * 1, or 0 when another instance's session holds it. NULL: the
	 * backend lets one run at a time (SQLite), every duty is held.
	 */
	int (*duty_lock)(struct state *st, const char *duty, int *held,
			 struct pb_err *err);
	/*
	 * Waking the other instances (wake.h): say that work was queued
	 * (at commit), listen, wait up to 'ms' for a word. NULL: no other
	 * instance to wake (SQLite); the wait is a sleep.
	 */
	int (*wake_notify)(struct state *st, struct pb_err *err);
	int (*wake_listen)(struct state *st, struct pb_err *err);
	int (*wake_wait)(struct state *st, long ms, int *woken,
			 struct pb_err *err);
	/*
	 * After an import gave rows their rowids (dump.h): the backend's
	 * own counters go on after the largest. NULL: they do by themselves.
	 */
	int (*rowids_go_on)(struct state *st, struct pb_err *err);
	/*
	 * 'perfbot state backup' (backup.h): the open state copied into the
	 * new file 'tmp' (that will become 'dest') as one snapshot, in the
	 * backend's own form. NULL: the backend has none that a user can
	 * restore by hand (a server's), and the backup is the neutral dump
	 * of 'perfbot state export' (dump.h), restored by 'import'.
	 */
	int (*backup)(struct state *st, const char *tmp, const char *dest,
		      struct backup_counts *b, struct pb_err *err);
	/* its statements, for the tables' operations in SQL (internal.h) */
	const struct db_driver *sql;
	/* the tables' */
	const struct state_noise_ops *noise;
	const struct state_bisections_ops *bisections;
	const struct state_archive_ops *archive;
	const struct state_inbox_ops *inbox;
	const struct state_marks_ops *marks;
	const struct state_outbox_ops *outbox;
	const struct state_admin_ops *admin;
	const struct state_prune_ops *prune;
	const struct state_records_ops *records;
	const struct state_requests_ops *requests;
	const struct state_seen_ops *seen;
	const struct state_status_ops *status;
};

extern const struct state_backend state_sqlite;
extern const struct state_backend state_postgresql;

#endif
