/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_RECIPIENTS_H
#define PERFBOT_RECIPIENTS_H

#include "perfbot/util/addr.h"
#include "perfbot/config/config.h"
#include "perfbot/util/err.h"
#include "perfbot/ingest/manifest.h"

/*
 * Who a mail goes to (compose): the recipients policy of reports and
 * answers. Every address is in a list once, compared by its bare address
 * in any case, and one in To is never in Cc too.
 */

/*
 * The To and Cc of the report on 'm', appended to 'to' and 'cc': To the
 * commit's author (unless recipients.to_author is false), the manifest's
 * to, recipients.to; Cc, for a report on a posted patch, the patch's own
 * To and Cc (every list of them, recipients_is_list(), and
 * recipients.max_cc of the others at most: a posted patch often copies
 * dozens of people; whoever is left out is logged), then the manifest's
 * cc and recipients.cc. EX_DATAERR when both end up empty.
 */
int recipients_report(const struct manifest *m, const struct config *cfg,
		      struct addrlist *to, struct addrlist *cc,
		      struct pb_err *err);

/*
 * The To and Cc of an answer to 'addr' (the sender of a reply; 'name',
 * its display name, or NULL), appended to 'to' and 'cc': To the sender,
 * Cc the report's envelope recipients 'thread' (the state's JSON list, or
 * NULL) but the sender and 'own' (the bot's address, or NULL),
 * recipients.max_cc at most (whoever the cap leaves out is logged). -1
 * only when out of memory.
 */
int recipients_answer(const struct config *cfg, const char *name,
		      const char *addr, const char *thread, const char *own,
		      struct addrlist *to, struct addrlist *cc);

/*
 * 1 when 'mailbox' ("Name <addr>" or a bare address) is a mailing list:
 * one of recipients.cc (the configured lists), or one addr_is_list()
 * knows by its name; else 0.
 */
int recipients_is_list(const struct config *cfg, const char *mailbox);

#endif
