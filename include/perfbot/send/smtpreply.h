/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_SMTPREPLY_H
#define PERFBOT_SMTPREPLY_H

#include <stddef.h>

/*
 * The SMTP dialogue as libcurl's protocol trace shows it (send): each
 * command sent and each reply line received is fed in, and what the
 * replies mean is read off at the end: which step of the session each
 * reply answered (the greeting, EHLO, STARTTLS, AUTH, MAIL FROM, RCPT TO,
 * DATA, the end of the message), each recipient's reply, what EHLO
 * offered. AUTH data lines are never kept. Every buffer is bounded; the
 * input may be anything (tests/fuzz/fuzz_smtp.c).
 *
 * The rule (doc/usage.md "Sending from cron"): a reply about the session, the
 * sender or the account keeps every mail queued and stops the batch, with
 * the exit code of its cause; only a 5xx for the message (DATA, end of
 * data) or for one recipient (RCPT) is final, and a 4xx recipient is
 * tried again later.
 */

#define SMTP_MAX_RCPTS 100
#define SMTP_REPLY_MAX 256

enum smtp_phase {
	SMTP_PH_GREETING, SMTP_PH_EHLO, SMTP_PH_STARTTLS, SMTP_PH_AUTH,
	SMTP_PH_MAIL, SMTP_PH_RCPT, SMTP_PH_DATA, SMTP_PH_EOD, SMTP_PH_QUIT,
	SMTP_PH_OTHER,
};

#define SMTP_CAP_AUTH 0x1u
#define SMTP_CAP_STARTTLS 0x2u
#define SMTP_CAP_SMTPUTF8 0x4u

enum smtp_outcome {
	SMTP_ACCEPTED,	/* the server took the message (some recipients
			 * may have been refused or deferred) */
	SMTP_TEMPORARY,	/* a 4xx for this message: try it again later */
	SMTP_PERMANENT,	/* a 5xx for this message: give up on it */
	SMTP_SESSION,	/* about the session, the sender or the account:
			 * stop the batch; 'exit' says why (EX_TEMPFAIL:
			 * try again later) */
};

struct smtp_rcpt {
	char addr[256];
	int code;		/* the server's reply to RCPT TO, 0: none */
	char reply[SMTP_REPLY_MAX];
};

struct smtp_result {
	enum smtp_outcome outcome;
	int exit;			/* SMTP_SESSION: a sysexits code */
	const char *setting;		/* SMTP_SESSION: the key to look at */
	int code;			/* the deciding reply's code, 0: none */
	char reply[SMTP_REPLY_MAX];	/* that reply, or what happened */
	char why[SMTP_REPLY_MAX];	/* SMTP_SESSION: what it means */
	struct smtp_rcpt rcpt[SMTP_MAX_RCPTS];
	size_t nrcpt;
};

/* What the trace has seen of one session (or one mail of a reused one). */
struct smtp_trace {
	enum smtp_phase phase;	/* what the last command sent was */
	int rcpt;		/* its recipient, or -1 */
	int data_go;		/* DATA got its 354: the message follows */
	int in_reply;		/* a multi-line reply is being read */
	int ehlo_line;		/* lines of the EHLO reply so far */
	unsigned caps;		/* SMTP_CAP_* of the last EHLO */
	int ehlo_done;		/* an EHLO was answered 250 */
	int auth_sent, auth_ok, tls_ok;
	int quitting;		/* QUIT sent: its reply decides nothing */
	int replies;		/* final reply lines seen */
	/* the first reply that was neither 2xx nor 3xx */
	int fail_code;
	enum smtp_phase fail_at;
	char fail_reply[SMTP_REPLY_MAX];
	/* the reply to the message (end of data) */
	int eod_code;
	char eod_reply[SMTP_REPLY_MAX];
	struct smtp_rcpt *rcpts;	/* borrowed: the envelope's */
	size_t nrcpts;
};

/* Start reading a dialogue for the recipients 'r' (codes cleared). */
void smtp_trace_start(struct smtp_trace *t, struct smtp_rcpt *r, size_t n,
		      int reused);
/* A command perfbot sent ('d', 'n' bytes, maybe with CRLF). */
void smtp_trace_out(struct smtp_trace *t, const char *d, size_t n);
/* A reply line the server sent. */
void smtp_trace_in(struct smtp_trace *t, const char *d, size_t n);

/* How the transfer ended, as far as the transport goes. */
enum smtp_transport {
	SMTP_TR_OK,		/* the library says all went well */
	SMTP_TR_REFUSED,	/* the server said no (a reply tells why) */
	SMTP_TR_NOCONN,		/* no connection, lost, or timed out */
	SMTP_TR_TLS,		/* the TLS handshake failed */
	SMTP_TR_CERT,		/* the certificate is not trusted */
	SMTP_TR_NOSTARTTLS,	/* STARTTLS was needed but not offered */
	SMTP_TR_NOAUTH,		/* no AUTH mechanism the library knows */
	SMTP_TR_URL,		/* smtp.url cannot be used */
};

/* What the session needs to know to name a setting. */
struct smtp_setup {
	int tls;		/* TLS asked for (starttls, implicit) */
	const char *user;	/* smtp.user, or NULL */
	const char *what;	/* "host:port", for the messages */
	const char *libwhy;	/* the library's words, when no reply */
};

/*
 * Read the outcome of one mail off the trace 't' (smtp_trace_*) and how
 * the transfer ended: 'res' gets the outcome, the deciding reply (the
 * server's own words, never the library's when there is one), for a
 * session-level reason its exit code, the setting to look at and what it
 * means, and each recipient's reply (already in t->rcpts).
 */
void smtp_judge(const struct smtp_trace *t, enum smtp_transport tr,
		const struct smtp_setup *su, struct smtp_result *res);

#endif
