/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_OUTBOX_H
#define PERFBOT_OUTBOX_H

#include <time.h>

#include "perfbot/config/config.h"
#include "perfbot/compose/mail.h"
#include "perfbot/state/state.h"

/*
 * The outbox (send): the one way in for every mail the bot sends, reports
 * and answers alike, and its delivery.
 *
 * Delivering the outbox: every queued mail whose next attempt is due goes
 * out over one SMTP connection. A mail is marked sent only after the
 * server accepted it (its own commit, right after); a temporary failure
 * (no connection, 4xx) keeps it queued with backoff and stops the batch
 * when the server is unreachable; a 5xx marks it failed with the server's
 * reason; a refused login or a TLS problem stops the batch with an error
 * and changes nothing. Rejected recipients are recorded one by one.
 * limits.mails_per_hour caps what goes out in any hour.
 */

/*
 * Queue the composed mail 'c' at 'now': its bytes, ids, envelope (the
 * recipients stored as the state's JSON list) and subject, and for a
 * report its manifest and its record (open, with its headline). EX_SOFTWARE when 'c' lacks an id, a Message-ID, a
 * sender or a recipient; the state's errors else. Opens no transaction:
 * a caller that records more with it wraps both in one.
 */
int outbox_queue(struct state *st, const struct composed *c, time_t now,
		 struct pb_err *err);

struct send_stats {
	long sent;
	long deferred;	/* temporary failures this run */
	long failed;	/* permanent failures this run */
};

/*
 * 'reuse' 0 opens a new connection per message (the benchmark compares
 * both). Returns 0, or -1 with 'err' when the batch had to stop for a
 * reason that is not one mail's (login, TLS, configuration, state).
 */
int outbox_deliver(struct state *st, const struct config *cfg, time_t now,
		   int reuse, struct send_stats *ss, struct pb_err *err);

#endif
