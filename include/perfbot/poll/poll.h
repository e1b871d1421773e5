/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_POLL_H
#define PERFBOT_POLL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "perfbot/config/config.h"
#include "perfbot/state/state.h"

/*
 * One poll of the bot's mailbox: fetch the mails that arrived since the
 * last poll (by UID; a changed UIDVALIDITY rescans, de-duplicated by
 * Message-ID), read each reply, find the report its thread is about,
 * decide whether the sender may command and whether the bot may answer
 * at all (RFC 3834, loops, rate limits), act on the commands and queue
 * the answer in the outbox. Each mail is recorded, with its answer and
 * the new mailbox position, in one transaction before the server is told
 * it was handled (\Seen or moved), so a dropped connection or a crash
 * never skips a mail nor handles one twice.
 */

struct poll_stats {
	long fetched;	/* messages downloaded */
	long answered;
	long ignored;	/* no commands, robots, duplicates, bounces */
	long refused;
	long failed;	/* could not be handled: recorded and passed over */
	int fail_code;	/* the sysexits code of the last of those */
};

int poll_mailbox(struct state *st, const struct config *cfg, time_t now,
		 struct poll_stats *ps, struct pb_err *err);

/*
 * One mail, 'len' bytes read from somewhere else than the mailbox (a
 * test, a tool), handled exactly as the poll handles each: read, routed,
 * authorized, acted on, answered and recorded in one transaction, as
 * message 'uid' of imap.mailbox (UIDVALIDITY 'uidvalidity'); one that
 * cannot be handled is recorded as failed. The server is not told.
 */
int poll_one(struct state *st, const struct config *cfg, time_t now,
	     const char *data, size_t len, unsigned long uidvalidity,
	     uint32_t uid, struct poll_stats *ps, struct pb_err *err);

#endif
