/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_AUTHORIZE_H
#define PERFBOT_AUTHORIZE_H

#include <time.h>

#include "perfbot/config/config.h"
#include "perfbot/parse/reply.h"
#include "perfbot/state/state.h"
#include "perfbot/state/inbox.h"

/*
 * Whether the sender of a reply that holds commands may command the bot,
 * and whether the bot may answer them at all.
 *
 * authorize_aligned(): the envelope sender the delivering server recorded
 * (Return-Path) and the From address are in the same domain (or one is a
 * subdomain of the other). What it proves: the mail was not sent with a
 * stranger's envelope under somebody else's From, the usual shape of
 * forged mail and of backscatter bait, so answering does not mail a third
 * party who never wrote. What it cannot prove: anybody can put the same
 * forged address in both (SMTP does not check either); only the
 * operator's MTA can (SPF for the envelope, DKIM/DMARC for From), hence
 * authorize_authenticated().
 *
 * authorize_authenticated(): the topmost Authentication-Results header
 * (RFC 8601) whose authserv-id is 'authserv_id' (the operator's MTA,
 * which writes its own on top and must remove such headers arriving from
 * outside, as OpenDKIM, OpenDMARC and rspamd do) reports dkim=pass for a
 * signing domain aligned with From or dmarc=pass for the From domain,
 * and no dmarc failure. Lower headers of that id never count (they came
 * with the mail), and arc=pass alone vouches for nobody: it says a chain
 * of forwarders was intact, not who wrote the mail.
 */

/* 1 when the two domains are equal or one is a subdomain of the other. */
int authorize_domains_align(const char *a, const char *b);

int authorize_aligned(const struct reply *r);

int authorize_authenticated(const struct reply *r, const char *authserv_id);

/* 1 when 'addr' is in commands.allow ("user@host" or "@domain"). */
int authorize_allowed(const struct config *cfg, const char *addr);

/* The outcomes recorded for answers to strangers (their daily budget). */
#define AUTH_OUT_REFUSED "refused"
#define AUTH_OUT_NOREPORT "answered: no report in this thread"

enum auth_verdict {
	AUTH_IGNORE,	/* not answered at all */
	AUTH_NOREPORT,	/* answered: the thread is of no report */
	AUTH_REFUSE,	/* may not command: the sender alone is told, when
			 * 'tell' */
	AUTH_COMMAND,	/* may command: act and answer */
};

struct auth {
	enum auth_verdict verdict;
	int tell;	/* an answer goes to the sender */
	int rekey;	/* record the mail under its mailbox position, so
			 * another copy of it is still read */
	char outcome[160];	/* for the record: "answered", "refused",
				 * "ignored: ..." */
	int recipient;	/* the sender is one of the report's recipients */
};

/*
 * Decide for reply 'r' (parsed, with a Message-ID and commands) in the
 * thread of report 'tr' (NULL: the thread is of no report): the mail is
 * no mailing list's (List-Id, a list's bounces address as the envelope
 * sender, From a list of recipients.cc or named like one, or a From a
 * list rewrote, "Jane via list"), the sender's domains agree (for
 * commands.allow too) and, with commands.authserv_id set, the operator's
 * MTA vouches for From; the
 * sender is under limits.per_sender_per_day answers; then no report is
 * answered as such, a sender neither in commands.allow nor among the
 * report's recipients is refused, and anybody else may command. Answers
 * to strangers (refusals, "no report") go at most once a day per sender
 * and limits.refusals_per_day in all. 0, or -1 when the state fails.
 */
int authorize(struct state *st, const struct config *cfg, time_t now,
	      const struct reply *r, const struct thread_report *tr,
	      struct auth *au, struct pb_err *err);

/*
 * The same for a reply in the thread of reminder 'reminder_id', whose
 * commands name its lines ("invalid <2>"): the sender may command when
 * in commands.allow or among the recipients of the report of one line
 * of the reminder (each command is held to the line it names when done,
 * and one that names none is told how to);
 * the answer goes to the sender alone ('recipient' 0).
 */
int authorize_reminder(struct state *st, const struct config *cfg,
		       time_t now, const struct reply *r,
		       const char *reminder_id, struct auth *au,
		       struct pb_err *err);

#endif
