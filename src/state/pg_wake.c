// SPDX-License-Identifier: GPL-2.0-only
/*
 * record: PostgreSQL's side of waking (wake.h): NOTIFY and LISTEN on the
 * channel "perfbot", and a wait on the connection's socket with a
 * timeout (poll(2)) that ends at the first notification.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <time.h>

#include "pg.h"

#define CHANNEL "perfbot"

int pg_wake_notify(struct state *st, struct pb_err *err)
{
	return pg_exec(st, "NOTIFY " CHANNEL, "notify", err);
}

int pg_wake_listen(struct state *st, struct pb_err *err)
{
	return pg_exec(st, "LISTEN " CHANNEL, "listen", err);
}

/* Every notification already read, taken: 1 when there was one. */
static int drain(PGconn *c)
{
	PGnotify *n;
	int any = 0;

	while ((n = PQnotifies(c))) {
		any = 1;
		PQfreemem(n);
	}
	return any;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int pg_wake_wait(struct state *st, long ms, int *woken, struct pb_err *err)
{
	PGconn *c = pg_of(st)->conn;
	long end = now_ms() + ms, left;
	struct pollfd p;

	*woken = 0;
	if (PQconsumeInput(c) && drain(c)) {
		*woken = 1;
		return 0;
	}
	while ((left = end - now_ms()) > 0) {
		p.fd = PQsocket(c);
		p.events = POLLIN;
		p.revents = 0;
		if (p.fd < 0)
			return pb_fail(err, EX_TEMPFAIL, "%s: wait: the server "
				       "is gone; try again later", st->path);
		if (poll(&p, 1, (int)(left > 60000 ? 60000 : left)) < 0) {
			if (errno == EINTR)
				return 0;
			return pb_fail(err, EX_OSERR, "%s: wait: %s", st->path,
				       strerror(errno));
		}
		if (!PQconsumeInput(c))
			return pb_fail(err, EX_TEMPFAIL, "%s: wait: the server "
				       "is gone; try again later", st->path);
		if (drain(c)) {
			*woken = 1;
			return 0;
		}
	}
	return 0;
}
