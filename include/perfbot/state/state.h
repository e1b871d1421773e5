/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STATE_H
#define PERFBOT_STATE_H

#include <stddef.h>
#include <time.h>

#include "perfbot/util/err.h"

/*
 * perfbot's state, the handle (src/state/state.c, db.c): open (and
 * migrate), lock, check, transactions and the disk reserve. Each family
 * of tables has its own header and file:
 *   outbox.h    the mails to send and their outcomes (queue.c, admin.c)
 *   seen.h      manifests seen, sources' validators (seen.c)
 *   inbox.h     replies handled, mailbox position, marks (inbox.c, marks.c)
 *   requests.h  the farm requests (requests.c)
 *   records.h   the records of regressions (records.c)
 *   status.h    what 'perfbot status' shows (status.c)
 *   archive.h, backup.h, prune.h  the web archive, backups, pruning
 * The schema version is PRAGMA user_version; opening a file applies the
 * migrations it lacks in one transaction.
 */

/* An open state: opaque (src/state/internal.h), made by state_open(). */
struct state;

enum state_mode {
	STATE_WRITE,	/* create when missing, migrate */
	STATE_READ,	/* read only (--dry-run): no write of any kind */
	STATE_LOCKED,	/* STATE_WRITE with the run lock taken first */
	/*
	 * A cycle's (run, send, poll): STATE_LOCKED on a backend that runs
	 * one run at a time (SQLite); on one whose work is claimed
	 * (PostgreSQL: leases, manifest claims, duties) instances run side
	 * by side, each holding the run lock shared, so that only the
	 * commands that take it alone (STATE_LOCKED) wait for them.
	 */
	STATE_SHARED,
};

/*
 * Open and migrate into a new '*st' (NULL on failure). EX_CANTCREAT /
 * EX_IOERR / EX_NOINPUT.
 */
int state_open(struct state **st, const char *path, enum state_mode mode,
	       struct pb_err *err);
/*
 * 1 when 'path' (the 'state:' value) names a state not made yet: a file
 * of the SQLite backend that is not there, a PostgreSQL database reached
 * that holds no perfbot schema yet (nothing has run). 0 when it is there,
 * and when a server cannot be reached: its backend's open says why.
 */
int state_missing(const char *path);
/* 1 when 'path' is a file's (SQLite's), 0 for a URI of another backend. */
int state_is_file(const char *path);
/*
 * The password of a state on a database server, for the opens that
 * follow (config's state_password_env / state_password_file; NULL
 * forgets it; without one, libpq's own sources: PGPASSFILE). Kept in
 * memory only, never said. -1 when out of memory.
 */
int state_password(const char *pw);
/*
 * What the open state is, one line into 'buf' ('perfbot check'): its
 * name (a URI without its password), its engine and version (a server's
 * as the server says it), its schema version.
 */
int state_describe(struct state *st, char *buf, size_t n, struct pb_err *err);

/*
 * What 'perfbot check' asks of the 'state:' value before a run: a file's
 * nearest folder there writable, and the file, when it is there, readable
 * and writable ('*made' 0 when it is not made yet); a URI's state opened
 * read only. 0, or -1 with EX_CONFIG (or the open's error).
 */
int state_usable(const char *path, int *made, struct pb_err *err);

/*
 * The name this handle's leases are taken under (lease.c: work claimed
 * exactly once), instead of "host:pid" of the process; NULL: that again.
 * A name with no ':' is never taken for a dead process's.
 */
int state_owner_set(struct state *st, const char *name, struct pb_err *err);

/* Close and free; NULL is fine. */
void state_close(struct state *st);

/*
 * Take the run lock (an flock on the database file itself, so that every
 * name of the file, symlink or hard link, shares it) so that overlapping
 * cron runs never work on the same state at once; EX_TEMPFAIL when
 * another perfbot holds it. STATE_LOCKED takes it before SQLite opens the
 * file; state_lock() on a state opened so is a no-op.
 */
int state_lock(struct state *st, struct pb_err *err);

/*
 * SQLite's quick check of every page of the state (PRAGMA quick_check:
 * the pages and their records, not the indexes' contents; a few ms for a
 * state of thousands of mails): 0, or -1 with EX_IOERR naming the first
 * problem, so that a run refuses a damaged state at its open rather than
 * when a step meets the bad page.
 */
int state_check(struct state *st, struct pb_err *err);

/*
 * Room on the disk for the records of mail handed to the server: the
 * reserve (a file of 1 MiB beside the state) is made before sending
 * (EX_IOERR when the disk has no room: nothing is to be sent); a record
 * that finds the disk full (state_full()) gives it back with
 * state_unreserve() and is written again, and the sending stops.
 */
int state_reserve(struct state *st, struct pb_err *err);
int state_unreserve(struct state *st);
int state_full(const struct state *st);

int state_begin(struct state *st, struct pb_err *err);
int state_commit(struct state *st, struct pb_err *err);
void state_rollback(struct state *st);

#endif
