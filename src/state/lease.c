// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: work claimed exactly once (issue 34 item 2). A row of work (a
 * mail of the outbox, a farm request to follow up, a bisection's round)
 * is taken with a lease: its owner ("host:pid" of the process) and the
 * time the lease ends, written by one conditional UPDATE ... RETURNING
 * that only succeeds when the row is still open and free (no owner, the
 * taker's own, a lease over, or an owner of this host that no longer
 * exists): the same SQL on every backend, atomic in each, so two
 * instances never both take one row. What is done outside the state
 * (a mail sent, a farm asked) stays idempotent by its Message-ID or
 * request id, so a lease taken over never does a thing twice.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

int lease_owner(const struct state *st, char *buf, size_t n)
{
	char host[256];

	if (st->owner)
		return snprintf(buf, n, "%s", st->owner) < (int)n ? 0 : -1;
	if (gethostname(host, sizeof(host)))
		host[0] = '\0';
	host[sizeof(host) - 1] = '\0';
	return snprintf(buf, n, "%s:%ld", host, (long)getpid()) < (int)n ? 0
		: -1;
}

/*
 * May 'owner' (another's lease, not over) be taken over? Only when it is
 * a process of this host that no longer exists (a killed run).
 */
static int owner_dead(const char *owner, const char *mine)
{
	const char *c = strrchr(owner, ':'), *m = strrchr(mine, ':');
	char *end;
	long pid;

	if (!c || !m || c - owner != m - mine ||
	    strncmp(owner, mine, (size_t)(c - owner)))
		return 0;
	errno = 0;
	pid = strtol(c + 1, &end, 10);
	if (errno || *end || pid <= 0 || pid > INT_MAX)
		return 0;
	return kill((pid_t)pid, 0) && errno == ESRCH;
}

/* The key's condition, its value argument number 'n'. */
static void key_cond(const struct lease_of *l, int n, char *buf, size_t len)
{
	if (l->int_key)
		snprintf(buf, len, "%s = CAST(?%d AS BIGINT)", l->key, n);
	else
		snprintf(buf, len, "%s = ?%d", l->key, n);
}

/* The owner of the row when it is a dead process of this host, or NULL. */
static int dead_owner(struct state *st, const struct lease_of *l,
		      const char *id, const char *mine, char **dead,
		      struct pb_err *err)
{
	struct db_stmt *s;
	char sql[256], key[96];
	const char *owner;
	int rc, oom = 0;

	*dead = NULL;
	key_cond(l, 1, key, sizeof(key));
	snprintf(sql, sizeof(sql), "SELECT %s FROM %s WHERE %s", l->owner,
		 l->table, key);
	if (db_query(st, &s, err, sql, "s", id))
		return -1;
	rc = db_step(s);
	owner = rc == DB_ROW ? db_text(s, 0) : NULL;
	if (owner && strcmp(owner, mine) && owner_dead(owner, mine))
		oom = !(*dead = strdup(owner));
	db_finalize(s);
	if (oom)
		return pb_fail(err, EX_OSERR, "out of memory");
	return rc == DB_ERROR ? db_fail(st, err, "read") : 0;
}

int lease_take(struct state *st, const struct lease_of *l, const char *id,
	       time_t now, long ttl, int *taken, struct pb_err *err)
{
	struct db_stmt *s;
	char mine[300], sql[768], key[96];
	char *dead = NULL;
	int rc;

	*taken = 0;
	if (lease_owner(st, mine, sizeof(mine)))
		return pb_fail(err, EX_SOFTWARE, "lease: host name too long");
	if (dead_owner(st, l, id, mine, &dead, err))
		return -1;
	key_cond(l, 4, key, sizeof(key));
	snprintf(sql, sizeof(sql), "UPDATE %s SET %s = ?1, %s = ?2%s WHERE "
		 "%s AND %s AND (%s IS NULL OR %s = ?1 OR %s <= ?3 OR %s = "
		 "?5) RETURNING %s", l->table, l->owner, l->until,
		 l->also ? l->also : "", key, l->open, l->owner, l->owner,
		 l->until, l->owner, l->key);
	rc = db_query(st, &s, err, sql, "siiss", mine, (long long)now + ttl,
		      (long long)now, id, dead);
	free(dead);
	if (rc)
		return -1;
	while ((rc = db_step(s)) == DB_ROW)
		*taken = 1;
	db_finalize(s);
	return rc == DB_DONE ? 0 : db_fail(st, err, "lease");
}

int lease_drop(struct state *st, const struct lease_of *l, const char *id,
	       struct pb_err *err)
{
	char mine[300], sql[512], key[96];

	if (lease_owner(st, mine, sizeof(mine)))
		return pb_fail(err, EX_SOFTWARE, "lease: host name too long");
	key_cond(l, 1, key, sizeof(key));
	snprintf(sql, sizeof(sql), "UPDATE %s SET %s = NULL, %s = NULL WHERE "
		 "%s AND %s = ?2", l->table, l->owner, l->until, key,
		 l->owner);
	return db_run(st, err, sql, "ss", id, mine);
}

/*
 * Give back the leases of 'l' held by processes of this host that no
 * longer exist (killed runs), so that a taking of several rows at once
 * takes them over as lease_take() does one row.
 */
static int lease_reap(struct state *st, const struct lease_of *l,
		      const char *mine, time_t now, struct pb_err *err)
{
	struct db_stmt *s;
	char sql[512], **dead = NULL, **nd;
	size_t n = 0, i;
	int rc, oom = 0;

	snprintf(sql, sizeof(sql), "SELECT DISTINCT %s FROM %s WHERE %s AND "
		 "%s IS NOT NULL AND %s != ? AND %s > ?", l->owner, l->table,
		 l->open, l->owner, l->owner, l->until);
	if (db_query(st, &s, err, sql, "si", mine, (long long)now))
		return -1;
	while ((rc = db_step(s)) == DB_ROW && !oom) {
		const char *o = db_text(s, 0);

		if (!o || !owner_dead(o, mine))
			continue;
		nd = realloc(dead, (n + 1) * sizeof(*dead));
		oom = !nd || !(nd[n] = strdup(o));
		if (nd)
			dead = nd;
		n += !oom;
	}
	db_finalize(s);
	if (!oom && rc == DB_ERROR)
		rc = db_fail(st, err, "read");
	else
		rc = oom ? pb_fail(err, EX_OSERR, "out of memory") : 0;
	snprintf(sql, sizeof(sql), "UPDATE %s SET %s = NULL, %s = NULL WHERE "
		 "%s = ? AND %s", l->table, l->owner, l->until, l->owner,
		 l->open);
	for (i = 0; i < n; i++) {
		if (!rc)
			rc = db_run(st, err, sql, "s", dead[i]);
		free(dead[i]);
	}
	free(dead);
	return rc;
}

static int cmp_key(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

int lease_take_some(struct state *st, const struct lease_of *l,
		    const char *pick, long long arg, long long after,
		    size_t max, time_t now, long ttl, long long **keys,
		    size_t *n, struct pb_err *err)
{
	struct db_stmt *s;
	char mine[300], sql[1536], free_[256];

	*keys = NULL;
	*n = 0;
	if (!max)
		return 0;
	if (lease_owner(st, mine, sizeof(mine)))
		return pb_fail(err, EX_SOFTWARE, "lease: host name too long");
	if (lease_reap(st, l, mine, now, err))
		return -1;
	snprintf(free_, sizeof(free_), "(%s IS NULL OR %s = ?1 OR %s <= ?3)",
		 l->owner, l->owner, l->until);
	/*
	 * the rows picked once (MATERIALIZED): a subquery in the WHERE may
	 * be run again for each row, its LIMIT then holding for each run
	 */
	snprintf(sql, sizeof(sql), "WITH picked AS MATERIALIZED (SELECT %s "
		 "AS k FROM %s WHERE %s AND %s AND %s > ?4 AND %s ORDER BY %s "
		 "LIMIT ?5%s) UPDATE %s SET %s = ?1, %s = ?2%s WHERE %s IN "
		 "(SELECT k FROM picked) AND %s AND %s RETURNING %s", l->key,
		 l->table, l->open, pick, l->key, free_, l->key,
		 st->be->sql->skip_locked, l->table, l->owner, l->until,
		 l->also ? l->also : "", l->key, l->open, free_, l->key);
	if (db_query(st, &s, err, sql, "siiiii", mine, (long long)now + ttl,
		     (long long)now, after, (long long)max, arg))
		return -1;
	if (db_read_keys(st, s, "lease", keys, n, err))
		return -1;
	if (*n)
		qsort(*keys, *n, sizeof(**keys), cmp_key);
	return 0;
}
