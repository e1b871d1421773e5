/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STATE_BACKUP_H
#define PERFBOT_STATE_BACKUP_H

#include "perfbot/util/err.h"

/*
 * A backup of the state 'where' (the 'state:' value) in 'dest': one
 * consistent snapshot, taken while a run may be writing (the state is
 * only read, its lock not taken), into a new file beside 'dest' (mode
 * 0600: the state holds mail), synced and renamed over 'dest'. Its form
 * is the backend's (backend.h):
 *  - SQLite: a copy of the file made with SQLite's online backup
 *    (sqlite3_backup_*), checked (PRAGMA quick_check) and made one file
 *    (no -wal): restored by copying it over the state;
 *  - PostgreSQL: the neutral dump of 'perfbot state export' (dump.h),
 *    read in one REPEATABLE READ transaction: restored by 'perfbot state
 *    import' into an empty state (pg_dump backs up the whole database).
 * 0 with 'b' set, or -1 with 'err': EX_NOINPUT no state at 'where',
 * EX_USAGE 'dest' is the state itself, EX_CANTCREAT 'dest' cannot be
 * made, EX_IOERR a read, write or check that failed (nothing is left at
 * 'dest' then).
 */
struct backup_counts {
	int dump;		/* 1: the neutral dump; 0: a copy of the file */
	long pages;		/* the copy's */
	long tables, rows;	/* the dump's */
	long long bytes;
};
int state_backup(const char *where, const char *dest, struct backup_counts *b,
		 struct pb_err *err);

#endif
