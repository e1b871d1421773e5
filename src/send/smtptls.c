// SPDX-License-Identifier: GPL-2.0-only
/*
 * send: a port that speaks the other kind of TLS (smtp_internal.h):
 * smtp:// on an implicit-TLS port found within seconds by a late
 * greeting, smtps:// on a plain port by its plain answer; each said with
 * the setting that fixes it.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <curl/curl.h>

#include "perfbot/util/strbuf.h"
#include "smtp_internal.h"

/* The dialogue, read by smtp_trace_*; AUTH lines are never kept. */
void smtp_feed(struct smtp_trace *t, curl_infotype type, const char *d,
	       size_t n)
{
	const char *nl;

	if (type == CURLINFO_HEADER_OUT) {
		smtp_trace_out(t, d, n);
		return;
	}
	if (type != CURLINFO_HEADER_IN)
		return;
	while (n) {	/* one line at a time, whatever the library hands */
		nl = memchr(d, '\n', n);
		smtp_trace_in(t, d, nl ? (size_t)(nl - d) : n);
		if (!nl)
			break;
		n -= (size_t)(nl - d) + 1;
		d = nl + 1;
	}
}

static int trace_cb(CURL *c, curl_infotype type, char *d, size_t n,
		    void *arg)
{
	(void)c;
	smtp_feed(arg, type, d, n);
	return 0;
}

size_t smtp_discard_cb(char *buf, size_t size, size_t nmemb, void *arg)
{
	(void)buf;
	(void)arg;
	return size * nmemb;
}

static int port_speaks(const struct smtp *s, int tls, long secs);

/*
 * A port of implicit TLS (465) waits for the client's handshake and a
 * plain client waits for the greeting: both would wait until
 * smtp.connect_timeout. A greeting that is late by SMTP_GREETING_LATE
 * seconds has the port tried once with a TLS handshake on a connection
 * of its own; when that succeeds the session stops at once and judge()
 * says to use smtps://. A slow plain server (a greeting pause) fails
 * the handshake and is waited for as before.
 */
#define SMTP_GREETING_LATE 3

static int greeting_cb(void *arg, curl_off_t dltotal, curl_off_t dlnow,
		       curl_off_t ultotal, curl_off_t ulnow)
{
	struct smtp *s = arg;
	struct timespec now;

	(void)dltotal, (void)dlnow, (void)ultotal, (void)ulnow;
	if (!s->greet_watch || s->tr.replies)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (now.tv_sec - s->greet_t0.tv_sec < SMTP_GREETING_LATE)
		return 0;
	s->greet_watch = 0;
	s->greet_probed = 1;
	/* a TLS server answers a ClientHello at once: a silent one waits */
	s->greet_tls = port_speaks(s, 1, SMTP_GREETING_LATE);
	return s->greet_tls;	/* non-zero: libcurl stops the transfer */
}

/* Watch the greeting of a new connection that starts in plain text. */
void smtp_watch_greeting(struct smtp *s, int fresh)
{
	s->greet_tls = s->greet_probed = 0;
	s->greet_watch = fresh && s->tls != CFG_TLS_IMPLICIT &&
			 s->connect_timeout > SMTP_GREETING_LATE;
	clock_gettime(CLOCK_MONOTONIC, &s->greet_t0);
	curl_easy_setopt(s->curl, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(s->curl, CURLOPT_XFERINFOFUNCTION, greeting_cb);
	curl_easy_setopt(s->curl, CURLOPT_XFERINFODATA, s);
}

/*
 * A second look at a port that did not talk as expected, for at most
 * 'secs': 1 when it does.
 */
static int port_speaks(const struct smtp *s, int tls, long secs)
{
	struct strbuf url = STRBUF_INIT;
	struct smtp_trace t;
	CURL *c = curl_easy_init();
	CURLcode rc = CURLE_FAILED_INIT;

	if (c && !sb_addf(&url, "%s://%s/", tls ? "https" : "smtp", s->what)) {
		curl_easy_setopt(c, CURLOPT_URL, sb_str(&url));
		curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, secs);
		curl_easy_setopt(c, CURLOPT_TIMEOUT, secs);
		curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
		if (tls) {	/* a handshake is all that is asked: no data */
			curl_easy_setopt(c, CURLOPT_CONNECT_ONLY, 1L);
			curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 0L);
			curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 0L);
		} else {
			smtp_trace_start(&t, NULL, 0, 0);
			curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, "NOOP");
			curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, smtp_discard_cb);
			curl_easy_setopt(c, CURLOPT_VERBOSE, 1L);
			curl_easy_setopt(c, CURLOPT_DEBUGFUNCTION, trace_cb);
			curl_easy_setopt(c, CURLOPT_DEBUGDATA, &t);
		}
		rc = curl_easy_perform(c);
	}
	if (c)
		curl_easy_cleanup(c);
	sb_release(&url);
	return tls ? rc == CURLE_OK : rc == CURLE_OK && t.replies > 0;
}

/*
 * A TLS handshake that failed, or no greeting at all: the port may speak
 * the other kind of TLS. Said so, with the setting that fixes it.
 */
void smtp_diagnose_tls(struct smtp *s, struct smtp_result *res)
{
	int implicit = s->tls == CFG_TLS_IMPLICIT;

	if (s->greet_tls)	/* known: greeting_cb tried it */
		snprintf(res->reply, sizeof(res->reply), "no greeting in %d s, "
			 "and a TLS handshake on the port succeeded",
			 SMTP_GREETING_LATE);
	else if (s->greet_probed ||	/* it did not: asked once is enough */
		 !port_speaks(s, !implicit, s->connect_timeout))
		return;
	res->exit = EX_CONFIG;
	res->setting = "smtp.url";
	snprintf(res->why, sizeof(res->why), implicit ?
		 "the port answers in plain text, not with implicit TLS: use "
		 "smtp://%s (smtp.tls: starttls)" : "the port speaks implicit "
		 "TLS (smtps, port 465): use smtps://%s (smtp.tls: implicit)",
		 s->what);
}

