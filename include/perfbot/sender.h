/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_SENDER_H
#define PERFBOT_SENDER_H

#include "perfbot/reply.h"

/*
 * Checks of who sent a reply, before the bot answers it at all.
 *
 * sender_aligned(): the envelope sender the delivering server recorded
 * (Return-Path) and the From address are in the same domain (or one is a
 * subdomain of the other). What it proves: the mail was not sent with a
 * stranger's envelope under somebody else's From, the usual shape of
 * forged mail and of backscatter bait, so answering does not mail a third
 * party who never wrote. What it cannot prove: anybody can put the same
 * forged address in both (SMTP does not check either); only the
 * operator's MTA can (SPF for the envelope, DKIM/DMARC for From), hence
 * sender_authenticated().
 *
 * sender_authenticated(): an Authentication-Results header (RFC 8601)
 * whose authserv-id is 'authserv_id' (the operator's MTA, which must
 * remove such headers arriving from outside, as OpenDKIM, OpenDMARC and
 * rspamd do) reports dkim=pass for a signing domain aligned with From,
 * dmarc=pass for the From domain, or arc=pass (a chain the operator's
 * sealer trusts).
 */

/* 1 when the two domains are equal or one is a subdomain of the other. */
int sender_domains_align(const char *a, const char *b);

int sender_aligned(const struct reply *r);

int sender_authenticated(const struct reply *r, const char *authserv_id);

#endif
