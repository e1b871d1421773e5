/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STATE_DUTY_H
#define PERFBOT_STATE_DUTY_H

#include <time.h>

#include "perfbot/state/state.h"

/*
 * Singleton duties (src/state/duty.c; issue 34 item 3): what one
 * instance at a time does of all those on one state: reading the IMAP
 * mailbox ("poll"), walking the tracked tree ("track"), the reminders
 * ("remind"), the web build ("web"). A backend that lets several
 * instances work on one state holds a duty with a lock of its server's
 * session (PostgreSQL: pg_try_advisory_lock, released when the session
 * ends, so a killed instance's duty is free at once); SQLite's run lock
 * already makes the run the only one, so every duty is held there.
 */

/*
 * Is 'duty' this handle's? '*held' 1 (and, when 'note', the duties table
 * says this instance holds it since ... and saw it 'now'), or 0 when
 * another instance holds it.
 */
int state_duty_hold(struct state *st, const char *duty, time_t now, int note,
		    int *held, struct pb_err *err);

/*
 * This instance (the handle's owner name, state_owner_set(), else
 * "host:pid") seen 'now' in the instances table, for 'perfbot status';
 * instances not seen for a day are forgotten. Nothing on a backend of
 * one instance at a time (SQLite).
 */
int state_instance_seen(struct state *st, time_t now, struct pb_err *err);

#endif
