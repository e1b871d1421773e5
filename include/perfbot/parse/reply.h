/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_REPLY_H
#define PERFBOT_REPLY_H

#include <stddef.h>

#include "perfbot/parse/commands.h"
#include "perfbot/util/err.h"

/*
 * Reading one incoming mail: the facts the bot needs to match it to a
 * report and to decide whether it may answer (RFC 3834), the reply's own
 * new text (quotes, attributions, signature and Outlook's quoted original
 * removed) and the commands in that text. Parsing is done with GMime and
 * never trusts the input: every size, count and depth is capped.
 */

#define REPLY_MAX_BYTES (10 << 20)
#define REPLY_MAX_COMMANDS 32	/* parsed at most; the caller applies
				 * its own commands-per-mail limit */
#define REPLY_MAX_REFS 100	/* References ids kept */
#define REPLY_MAX_DEPTH 20	/* MIME nesting looked into */
#define REPLY_MAX_LINES 100000	/* text lines kept and looked at */
#define REPLY_MAX_HEADER 4096	/* bytes kept of a header value */
#define REPLY_MAX_AUTH 8	/* Authentication-Results headers kept */
#define REPLY_MAX_SIGNATURE 8	/* lines kept of the signature */

/*
 * The patch the sender gave with the mail: the attached ones, in order,
 * when there are any (a part that is not the mail's text: text/x-patch,
 * text/x-diff, or text/plain or application/octet-stream named *.patch
 * or *.diff or holding a diff), their bytes as they are but CRLF line
 * ends made LF; else every patch or diff pasted into the sender's own
 * text (parse/patch.c: below a "--" line, the signature or the quoted
 * report too), with the blanks mail clients take from context lines given
 * back. Never one in a quote, a quoted or forwarded original, or an
 * attached message (message/rfc822).
 */
struct reply_patch {
	char *text;		/* NULL when the mail has none */
	size_t len;
	size_t hunks;		/* "@@ -a,b +c,d @@" hunks in it */
	size_t repaired;	/* context lines given their blank back */
	size_t parts;		/* attachments it is made of; 0: inline */
	int binary;		/* a NUL or another control byte: no text */
	char *name;		/* the first attachment's file name, or NULL */
};

struct reply {
	char *message_id;	/* without <>, NULL when absent */
	char *in_reply_to;	/* the first id of In-Reply-To, without <> */
	char **references;	/* References ids in order, without <> */
	size_t nrefs;
	char *from_addr;	/* addr-spec of From, lowercased; NULL when
				 * absent or unparsable */
	char *from_name;	/* display name, NULL when none */
	char *reply_to_addr;	/* for information only: never authorizes */
	char *envelope_addr;	/* Return-Path addr-spec, lowercased; NULL
				 * when absent or null */
	char *auth_results[REPLY_MAX_AUTH];	/* Authentication-Results
						 * values, top first */
	size_t nauth;
	char *subject;		/* decoded to UTF-8, one line, NULL if none */
	char *auto_submitted;	/* header value, NULL when absent */
	const char *auto_reply;	/* static: what marks an auto-reply that has
				 * no Auto-Submitted (X-Autoreply, an
				 * out-of-office subject, ...), or NULL */
	int null_sender;	/* Return-Path: <> or empty */
	int is_dsn;		/* a bounce: multipart/report;
				 * report-type=delivery-status, or a mail
				 * system's plain text returning a mail */
	char *dsn_message_id;	/* the bounced message's Message-ID */
	int list_mail;		/* List-Id or Precedence: bulk/list (recorded,
				 * never a reason to drop) */
	int via_list;		/* relayed by a mailing list: List-Id,
				 * X-Mailing-List or Mailing-List (such a
				 * copy never commands: act/authorize.c) */
	char *text;		/* the reply's own new text, UTF-8, never NULL
				 * after a successful parse ("" when none) */
	char *signature;	/* the lines under its "-- " line (at most
				 * REPLY_MAX_SIGNATURE, blanks trimmed), NULL
				 * when none: how the bot knows its own text */
	struct reply_patch patch;	/* the sender's patch, if any */
	struct mail_command cmds[REPLY_MAX_COMMANDS];
	size_t ncmds;
	size_t ncmds_seen;	/* command lines found, even beyond the cap */
};

struct reply_opts {
	const char *prefix;	/* "#perfbot"; NULL or "" for none */
	command_lookup_fn lookup;	/* the commands (act/dispatch.c's
					 * command_lookup); NULL: none */
};

/*
 * Parse the raw message 'raw' ('len' bytes, LF or CRLF line ends, an mbox
 * "From " line tolerated) into 'r', which needs no initialisation; 'o'
 * may be NULL (no command prefix). Commands are only looked for in the
 * reply's own text: never in quotes, attributions, the signature, an
 * Outlook-quoted original or an HTML <blockquote>. Returns
 * 0 with whatever could be found, or -1 with EX_DATAERR in 'err' for an
 * empty message, one larger than REPLY_MAX_BYTES or one GMime cannot
 * read at all (EX_OSERR when out of memory). Call reply_release() on 'r'
 * afterwards in both cases.
 */
int reply_parse(const char *raw, size_t len, const struct reply_opts *o,
		struct reply *r, struct pb_err *err);

/* Free what reply_parse() allocated; 'r' is left zeroed. */
void reply_release(struct reply *r);

/*
 * 1 when the bot must never answer this mail (RFC 3834 and robot safety),
 * else 0: Auto-Submitted present and not "no"; an auto-reply without it
 * (r->auto_reply); a null sender; no usable From; a From local part
 * MAILER-DAEMON, postmaster, a mail gateway's (mail-gateway, mail-daemon,
 * ...) or a no-reply one (noreply, do-not-reply, ...), any case, ending in
 * "-request" or starting with "owner-"; From equal (any case) to one of
 * the 'nown' addresses in 'own' (bare addr-specs); a bounce. '*why' (may
 * be NULL) gets a short static reason.
 */
int reply_must_not_answer(const struct reply *r, const char *const *own,
			  size_t nown, const char **why);

#endif
