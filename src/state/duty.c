// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: singleton duties and the instances seen (duty.h). The lock of
 * a duty is the backend's (struct state_backend's duty_lock: none for
 * SQLite, whose run lock makes every duty the run's); what 'perfbot
 * status' shows of it (who holds which duty since when, which instances
 * were seen when) is written here in portable SQL.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "perfbot/state/duty.h"
#include "internal.h"

/* An instance not seen for this long is forgotten. */
#define INSTANCE_FORGET (24 * 3600)

int state_duty_hold(struct state *st, const char *duty, time_t now, int note,
		    int *held, struct pb_err *err)
{
	char mine[300];

	*held = 1;
	/* no duty lock: the backend runs one run at a time (SQLite) */
	if (!st->be->duty_lock)
		return 0;
	if (st->be->duty_lock(st, duty, held, err))
		return -1;
	if (!*held || !note)
		return 0;
	if (lease_owner(st, mine, sizeof(mine)))
		return pb_fail(err, EX_SOFTWARE, "duty: host name too long");
	return db_run(st, err, "INSERT INTO duties (name, owner, since, seen) "
		      "VALUES (?1, ?2, ?3, ?3) ON CONFLICT (name) DO UPDATE "
		      "SET since = CASE WHEN duties.owner = excluded.owner "
		      "THEN duties.since ELSE excluded.since END, owner = "
		      "excluded.owner, seen = excluded.seen", "ssi", duty, mine,
		      (long long)now);
}

int state_instance_seen(struct state *st, time_t now, struct pb_err *err)
{
	char mine[300], host[256];

	if (!st->be->duty_lock)	/* one instance at a time */
		return 0;
	if (gethostname(host, sizeof(host)))
		host[0] = '\0';
	host[sizeof(host) - 1] = '\0';
	if (lease_owner(st, mine, sizeof(mine)))
		return pb_fail(err, EX_SOFTWARE, "duty: host name too long");
	if (db_run(st, err, "INSERT INTO instances (name, host, pid, started, "
		   "seen) VALUES (?1, ?2, ?3, ?4, ?4) ON CONFLICT (name) DO "
		   "UPDATE SET seen = excluded.seen", "ssii", mine, host,
		   (long long)getpid(), (long long)now))
		return -1;
	return db_run(st, err, "DELETE FROM instances WHERE seen < ?", "i",
		      (long long)now - INSTANCE_FORGET);
}

/* FNV-1a of "perfbot:" and the duty's name: the lock's 64-bit key. */
static long long duty_key(const char *duty)
{
	static const char pre[] = "perfbot:";
	uint64_t h = 1469598103934665603ULL;
	const char *p;

	for (p = pre; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	for (p = duty; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	return (long long)h;
}

int pg_duty_lock(struct state *st, const char *duty, int *held,
		 struct pb_err *err)
{
	long n;

	*held = 0;
	if (db_count(st, &n, err, "SELECT CASE WHEN pg_try_advisory_lock(?) "
		     "THEN 1 ELSE 0 END", "i", duty_key(duty)))
		return -1;
	*held = n == 1;
	return 0;
}
