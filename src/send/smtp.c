// SPDX-License-Identifier: GPL-2.0-only
/*
 * send: the SMTP client over libcurl (smtp.h): one connection reused for
 * a batch, TLS verified, each message's outcome (accepted, temporary,
 * permanent, fatal) with the server's reply to each recipient; for the
 * outbox's delivery and 'perfbot check --connect'.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <curl/curl.h>

#include "perfbot/util/curl.h"
#include "perfbot/config/secret.h"
#include "perfbot/send/smtp.h"
#include "perfbot/util/strbuf.h"
#include "perfbot/util/text.h"



struct smtp {
	CURL *curl;
	char *url;
	char *user;
	char *password;
	char *ca_file;
	enum cfg_tls tls;
	long connect_timeout, timeout;
	int reuse;
	long batch;		/* smtp.batch: mails per connection, 0 all */
	long on_conn;		/* mails sent over the current one */
	/* per message */
	const char *msg;
	size_t len, off;
	struct smtp_result *res;
	int in_rcpt;		/* the last command sent was RCPT TO */
	int quitting;		/* QUIT sent: its 221 is not the outcome */
	char errbuf[CURL_ERROR_SIZE];
};

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

int smtp_new(struct smtp **out, const struct config *cfg, int reuse,
	     struct pb_err *err)
{
	const char *url = cfg->smtp.url;
	struct smtp *s;

	*out = NULL;
	if (!url)
		return pb_fail(err, EX_CONFIG, "smtp.url: not configured");
	if (curl_once(err))
		return -1;
	s = calloc(1, sizeof(*s));
	if (!s)
		return pb_fail(err, EX_OSERR, "out of memory");
	s->reuse = reuse;
	s->connect_timeout = cfg->smtp.connect_timeout;
	s->timeout = cfg->smtp.timeout;
	s->batch = cfg->smtp.batch;
	s->tls = cfg->smtp.tls;
	s->url = strdup(url);
	s->user = dup_or_null(cfg->smtp.user);
	s->ca_file = dup_or_null(cfg->smtp.ca_file);
	if (!s->url ||
	    (s->user && secret_get(cfg, "smtp", &s->password, err))) {
		smtp_free(s);
		return err && err->code ? -1 :
			pb_fail(err, EX_OSERR, "out of memory");
	}
	s->curl = curl_easy_init();
	if (!s->curl) {
		smtp_free(s);
		return pb_fail(err, EX_SOFTWARE, "libcurl: no handle");
	}
	*out = s;
	return 0;
}

void smtp_free(struct smtp *s)
{
	if (!s)
		return;
	if (s->curl)
		curl_easy_cleanup(s->curl);
	free(s->url);
	free(s->user);
	secret_free(s->password);
	free(s->ca_file);
	free(s);
}

/* libcurl 7.88 spells it with three Ls; later versions add the fix. */
#ifdef CURLOPT_MAIL_RCPT_ALLOWFAILS
#define OPT_RCPT_ALLOWFAILS CURLOPT_MAIL_RCPT_ALLOWFAILS
#else
#define OPT_RCPT_ALLOWFAILS CURLOPT_MAIL_RCPT_ALLLOWFAILS
#endif

static size_t read_cb(char *buf, size_t size, size_t nmemb, void *arg)
{
	struct smtp *s = arg;
	size_t n = size * nmemb;

	if (n > s->len - s->off)
		n = s->len - s->off;
	memcpy(buf, s->msg + s->off, n);
	s->off += n;
	return n;
}

/* A line of the dialogue kept to show: CR, LF go; other bytes < 0x20 '?'. */
#define SMTP_LINE (TEXT_DROP_CRLF | TEXT_KEEP_DEL)

static void note_command(struct smtp *s, const char *d, size_t n)
{
	struct smtp_result *r = s->res;
	char addr[256];
	const char *lt, *gt;
	size_t i;

	s->in_rcpt = -1;
	if (n >= 4 && !strncasecmp(d, "QUIT", 4))
		s->quitting = 1;
	if (n < 9 || strncasecmp(d, "RCPT TO:", 8))
		return;
	lt = memchr(d, '<', n);
	gt = lt ? memchr(lt, '>', n - (size_t)(lt - d)) : NULL;
	if (!lt || !gt)
		return;
	text_scrub_to(addr, sizeof(addr), lt + 1, (size_t)(gt - lt - 1),
		      SMTP_LINE);
	for (i = 0; i < r->nrcpt; i++)
		if (!strcasecmp(r->rcpt[i].addr, addr))
			s->in_rcpt = (int)i;
}

/* Only the commands and replies are looked at; AUTH lines are skipped. */
static int debug_cb(CURL *c, curl_infotype type, char *d, size_t n,
		    void *arg)
{
	struct smtp *s = arg;
	struct smtp_result *r = s->res;
	int code;

	(void)c;
	if (type == CURLINFO_HEADER_OUT) {
		note_command(s, d, n);
		return 0;
	}
	/* 'd' is not NUL-terminated: read the code digit by digit */
	if (type != CURLINFO_HEADER_IN || n < 4 || d[3] != ' ' ||
	    s->quitting || !isdigit((unsigned char)d[0]) ||
	    !isdigit((unsigned char)d[1]) || !isdigit((unsigned char)d[2]))
		return 0;
	code = (d[0] - '0') * 100 + (d[1] - '0') * 10 + (d[2] - '0');
	r->code = code;
	text_scrub_to(r->reply, sizeof(r->reply), d, n, SMTP_LINE);
	if (s->in_rcpt >= 0) {
		r->rcpt[s->in_rcpt].code = code;
		text_scrub_to(r->rcpt[s->in_rcpt].reply, SMTP_REPLY_MAX, d, n,
			      SMTP_LINE);
	}
	return 0;
}

/* The server, TLS (always verified), login and timeouts. */
static void connection_options(struct smtp *s)
{
	CURL *c = s->curl;

	curl_easy_setopt(c, CURLOPT_URL, s->url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
	curl_easy_setopt(c, CURLOPT_USE_SSL, s->tls == CFG_TLS_NONE ?
			 (long)CURLUSESSL_NONE : (long)CURLUSESSL_ALL);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
	if (s->ca_file)
		curl_easy_setopt(c, CURLOPT_CAINFO, s->ca_file);
	if (s->user) {
		curl_easy_setopt(c, CURLOPT_USERNAME, s->user);
		curl_easy_setopt(c, CURLOPT_PASSWORD,
				 s->password ? s->password : "");
	}
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, s->connect_timeout);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, s->timeout);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
}

static void set_options(struct smtp *s, const char *sender,
			struct curl_slist *rcpts)
{
	CURL *c = s->curl;

	connection_options(s);
	/* the last mail of a batch closes its connection behind it */
	s->on_conn++;
	if (s->batch && s->on_conn >= s->batch)
		s->on_conn = 0;
	curl_easy_setopt(c, CURLOPT_FORBID_REUSE,
			 s->reuse && s->on_conn ? 0L : 1L);
	curl_easy_setopt(c, CURLOPT_MAIL_FROM, sender);
	curl_easy_setopt(c, CURLOPT_MAIL_RCPT, rcpts);
	curl_easy_setopt(c, OPT_RCPT_ALLOWFAILS, 1L);
	curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(c, CURLOPT_READFUNCTION, read_cb);
	curl_easy_setopt(c, CURLOPT_READDATA, s);
	curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, (curl_off_t)s->len);
	curl_easy_setopt(c, CURLOPT_VERBOSE, 1L);
	curl_easy_setopt(c, CURLOPT_DEBUGFUNCTION, debug_cb);
	curl_easy_setopt(c, CURLOPT_DEBUGDATA, s);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, s->errbuf);
}

/* Every recipient refused with a 5xx: the message can never go. */
static int all_rcpts_refused(const struct smtp_result *r)
{
	size_t i;

	for (i = 0; i < r->nrcpt; i++)
		if (r->rcpt[i].code < 500 || r->rcpt[i].code >= 600)
			return 0;
	return r->nrcpt > 0;
}

static enum smtp_outcome classify(CURLcode rc, int code)
{
	switch (rc) {
	case CURLE_OK:
		return SMTP_ACCEPTED;
	case CURLE_LOGIN_DENIED:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_USE_SSL_FAILED:
	case CURLE_SSL_CERTPROBLEM:
	case CURLE_UNSUPPORTED_PROTOCOL:
	case CURLE_URL_MALFORMAT:
		return SMTP_FATAL;
	default:
		break;
	}
	if (code >= 500 && code < 600)
		return SMTP_PERMANENT;
	return SMTP_TEMPORARY;
}

void smtp_send(struct smtp *s, const char *sender, const char *const *rcpts,
	       size_t nrcpts, const char *msg, size_t len,
	       struct smtp_result *res)
{
	struct curl_slist *list = NULL, *n;
	CURLcode rc = CURLE_OUT_OF_MEMORY;
	struct strbuf a = STRBUF_INIT;
	size_t i;

	memset(res, 0, sizeof(*res));
	if (nrcpts > SMTP_MAX_RCPTS) {
		res->outcome = SMTP_PERMANENT;
		snprintf(res->reply, sizeof(res->reply), "%zu recipients, more "
			 "than the limit of %d", nrcpts, SMTP_MAX_RCPTS);
		return;
	}
	s->msg = msg;
	s->len = len;
	s->off = 0;
	s->res = res;
	s->in_rcpt = -1;
	s->quitting = 0;
	s->errbuf[0] = '\0';
	for (i = 0; i < nrcpts && i < SMTP_MAX_RCPTS; i++) {
		sb_reset(&a);
		snprintf(res->rcpt[i].addr, sizeof(res->rcpt[i].addr), "%s",
			 rcpts[i]);
		if (sb_addf(&a, "<%s>", rcpts[i]) ||
		    !(n = curl_slist_append(list, a.buf)))
			goto out;
		list = n;
		res->nrcpt++;
	}
	set_options(s, sender, list);
	rc = curl_easy_perform(s->curl);
out:
	res->outcome = classify(rc, res->code);
	res->login_refused = rc == CURLE_LOGIN_DENIED;
	if (rc != CURLE_OK && all_rcpts_refused(res)) {
		res->outcome = SMTP_PERMANENT;
		res->code = res->rcpt[0].code;
		memcpy(res->reply, res->rcpt[0].reply, sizeof(res->reply));
	}
	if (rc != CURLE_OK && (res->outcome != SMTP_PERMANENT || !*res->reply))
		snprintf(res->reply, sizeof(res->reply), "%s",
			 *s->errbuf ? s->errbuf : curl_easy_strerror(rc));
	curl_slist_free_all(list);
	sb_release(&a);
	s->res = NULL;
}

/* What 'perfbot check --connect' learns from the server's replies. */
struct probe {
	struct strbuf caps;	/* the last EHLO's capabilities */
	int caps_cut;		/* too many to keep them all */
	int ehlo_lines;		/* lines of the current EHLO reply */
	int in_ehlo;
	int starttls;		/* STARTTLS was sent */
	int auth_ok;		/* 235 */
};

static void probe_in(struct probe *p, const char *d, size_t n)
{
	char line[SMTP_REPLY_MAX];

	if (n >= 3 && !strncmp(d, "235", 3))
		p->auth_ok = 1;
	if (!p->in_ehlo || n < 4 || strncmp(d, "250", 3))
		return;
	if (d[3] == ' ')
		p->in_ehlo = 0;
	/* the first line is the server's name, not a capability */
	if (p->ehlo_lines++ == 0)
		return;
	text_scrub_to(line, sizeof(line), d + 4, n - 4, SMTP_LINE);
	/* a list to show: past its cap the rest is left out */
	if (sb_addf(&p->caps, "%s%s", p->caps.len ? ", " : "", line))
		p->caps_cut = 1;
}

static int probe_cb(CURL *c, curl_infotype type, char *d, size_t n,
		    void *arg)
{
	struct probe *p = arg;

	(void)c;
	if (type == CURLINFO_HEADER_OUT && n >= 4 &&
	    !strncasecmp(d, "EHLO", 4)) {
		sb_reset(&p->caps);
		p->caps_cut = 0;
		p->ehlo_lines = 0;
		p->in_ehlo = 1;
	} else if (type == CURLINFO_HEADER_OUT && n >= 8 &&
		   !strncasecmp(d, "STARTTLS", 8)) {
		p->starttls = 1;
	} else if (type == CURLINFO_HEADER_IN) {
		probe_in(p, d, n);
	}
	return 0;	/* AUTH lines are never looked at beyond their code */
}

static size_t discard_cb(char *buf, size_t size, size_t nmemb, void *arg)
{
	(void)buf;
	(void)arg;
	return size * nmemb;
}

static int probe_fail(struct smtp *s, CURLcode rc, struct pb_err *err)
{
	const char *why = *s->errbuf ? s->errbuf : curl_easy_strerror(rc);

	if (rc == CURLE_LOGIN_DENIED)
		return pb_fail(err, EX_NOPERM, "smtp: %s: login as '%s' "
			       "refused", s->url, s->user ? s->user : "");
	if (classify(rc, 0) == SMTP_FATAL)
		return pb_fail(err, EX_UNAVAILABLE, "smtp: %s: %s", s->url,
			       why);
	return pb_fail(err, EX_TEMPFAIL, "smtp: %s: %s", s->url, why);
}

int smtp_probe(struct smtp *s, struct strbuf *out, struct pb_err *err)
{
	struct probe p = { .caps = STRBUF_INIT };
	CURL *c = s->curl;
	CURLcode rc;
	int r;

	curl_easy_reset(c);
	s->errbuf[0] = '\0';
	connection_options(s);
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, "NOOP");
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, discard_cb);
	curl_easy_setopt(c, CURLOPT_VERBOSE, 1L);
	curl_easy_setopt(c, CURLOPT_DEBUGFUNCTION, probe_cb);
	curl_easy_setopt(c, CURLOPT_DEBUGDATA, &p);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, s->errbuf);
	rc = curl_easy_perform(c);
	if (rc != CURLE_OK) {
		r = probe_fail(s, rc, err);
		goto out;
	}
	r = sb_addf(out, "smtp: %s: connected; TLS: %s; ", s->url,
		    s->tls == CFG_TLS_IMPLICIT ? "implicit, certificate verified" :
		    s->tls == CFG_TLS_STARTTLS ? "STARTTLS, certificate verified" :
		    "none (tls: none)");
	if (!r && s->user)
		r = sb_addf(out, "AUTH as '%s': %s; ", s->user,
			    p.auth_ok ? "ok" : "accepted");
	else if (!r)
		r = sb_adds(out, "no AUTH (no smtp.user); ");
	if (!r)
		r = sb_addf(out, "capabilities: %s%s", p.caps.len ?
			    sb_str(&p.caps) : "(none)",
			    p.caps_cut ? ", ..." : "");
	if (r)
		r = pb_fail(err, EX_OSERR, "out of memory");
out:
	sb_release(&p.caps);
	return r;
}
