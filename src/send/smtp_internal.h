/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_SMTP_INTERNAL_H
#define PERFBOT_SMTP_INTERNAL_H
/*
 * send: what smtp.c (the session) and smtptls.c (a port that speaks the
 * other kind of TLS) share; no other folder includes it.
 */
#include <time.h>
#include <curl/curl.h>

#include "perfbot/config/config.h"
#include "perfbot/send/smtp.h"
#include "perfbot/send/smtpreply.h"

struct smtp {
	CURL *curl;
	char *url;
	char *what;		/* "host:port", for messages */
	char *user;
	char *password;
	char *ca_file;
	enum cfg_tls tls;
	long connect_timeout, timeout;
	int reuse;
	long batch;		/* smtp.batch: mails per connection, 0 all */
	long on_conn;		/* mails sent over the current one */
	int caps_known;		/* a session's EHLO was read */
	unsigned caps;		/* and what it offered (SMTP_CAP_*) */
	/* a new plain connection's greeting awaited (greeting_cb) */
	int greet_watch;
	struct timespec greet_t0;
	int greet_probed;	/* late: the port was tried with TLS */
	int greet_tls;		/* and it spoke TLS: stopped */
	/* per message */
	const char *msg;
	size_t len, off;
	struct smtp_trace tr;
	char errbuf[CURL_ERROR_SIZE];
};

/* The dialogue, read by smtp_trace_*; AUTH lines are never kept. */
void smtp_feed(struct smtp_trace *t, curl_infotype type, const char *d,
	       size_t n);
/* A write callback that keeps nothing. */
size_t smtp_discard_cb(char *buf, size_t size, size_t nmemb, void *arg);
/*
 * The next transfer on 's' watches its greeting when 'fresh' (a new
 * connection) and it starts in plain text: late, the port is tried with
 * TLS, and a port that speaks it stops the transfer (s->greet_tls).
 */
void smtp_watch_greeting(struct smtp *s, int fresh);
/*
 * A session that failed with no reply: when the port speaks the other
 * kind of TLS, 'res' says so with the setting to change (exit 78).
 */
void smtp_diagnose_tls(struct smtp *s, struct smtp_result *res);

#endif
