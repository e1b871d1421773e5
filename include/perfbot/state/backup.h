/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STATE_BACKUP_H
#define PERFBOT_STATE_BACKUP_H

#include "perfbot/util/err.h"

/*
 * A copy of the state 'path' in 'dest', made with SQLite's online backup
 * (sqlite3_backup_*): one consistent snapshot, taken while a run may be
 * writing (the state is only read, its lock not taken), into a new file
 * beside 'dest' (mode 0600: the state holds mail) that is checked
 * (PRAGMA quick_check), made one file (no -wal), synced and renamed over
 * 'dest'. '*pages' and '*bytes' get its size. 0, or -1 with 'err':
 * EX_NOINPUT no state at 'path', EX_USAGE 'dest' is the state itself,
 * EX_CANTCREAT 'dest' cannot be made, EX_IOERR a read, write or check
 * that failed (nothing is left at 'dest' then).
 */
int state_backup(const char *path, const char *dest, long *pages,
		 long long *bytes, struct pb_err *err);

#endif
