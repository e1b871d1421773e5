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
#include <sys/socket.h>
#include <curl/curl.h>

#include "perfbot/util/curl.h"
#include "perfbot/config/secret.h"
#include "perfbot/send/smtp.h"
#include "perfbot/util/strbuf.h"
#include "perfbot/util/text.h"
#include "smtp_internal.h"


static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* "host:port" of the URL (its port, or the scheme's), for messages. */
static char *host_port(const char *url)
{
	struct strbuf sb = STRBUF_INIT;
	char *host = NULL, *port = NULL, *out = NULL;
	CURLU *u = curl_url();

	if (u && !curl_url_set(u, CURLUPART_URL, url, 0) &&
	    !curl_url_get(u, CURLUPART_HOST, &host, 0) &&
	    !curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) &&
	    !sb_addf(&sb, "%s:%s", host, port))
		out = sb_detach(&sb, NULL);
	sb_release(&sb);
	curl_free(host);
	curl_free(port);
	curl_url_cleanup(u);
	return out ? out : strdup(url);
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
	s->what = host_port(url);
	s->user = dup_or_null(cfg->smtp.user);
	s->ca_file = dup_or_null(cfg->smtp.ca_file);
	if (!s->url || !s->what ||
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
	free(s->what);
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




static int debug_cb(CURL *c, curl_infotype type, char *d, size_t n,
		    void *arg)
{
	struct smtp *s = arg;

	(void)c;
	smtp_feed(&s->tr, type, d, n);
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
	/* every reply, the QUIT's at the close too (else 120 s) */
	curl_easy_setopt(c, CURLOPT_SERVER_RESPONSE_TIMEOUT, s->timeout);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_VERBOSE, 1L);
	curl_easy_setopt(c, CURLOPT_DEBUGFUNCTION, debug_cb);
	curl_easy_setopt(c, CURLOPT_DEBUGDATA, s);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, s->errbuf);
}

/* 1 when this mail goes over the connection of the one before. */
static int set_options(struct smtp *s, const char *sender,
		       struct curl_slist *rcpts)
{
	CURL *c = s->curl;
	int reused = s->reuse && s->on_conn > 0;

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
	smtp_watch_greeting(s, !reused);
	return reused;
}

static enum smtp_transport transport(CURLcode rc)
{
	switch (rc) {
	case CURLE_OK:
		return SMTP_TR_OK;
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CERTPROBLEM:
		return SMTP_TR_CERT;
	case CURLE_SSL_CONNECT_ERROR:
		return SMTP_TR_TLS;
	case CURLE_USE_SSL_FAILED:
		return SMTP_TR_NOSTARTTLS;
	case CURLE_LOGIN_DENIED:
		return SMTP_TR_NOAUTH;
	case CURLE_UNSUPPORTED_PROTOCOL:
	case CURLE_URL_MALFORMAT:
		return SMTP_TR_URL;
	case CURLE_COULDNT_CONNECT:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_GOT_NOTHING:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
		return SMTP_TR_NOCONN;
	default:
		return SMTP_TR_REFUSED;
	}
}

/* What the library says, when the server said nothing that tells. */
static const char *lib_why(struct smtp *s, CURLcode rc)
{
	return *s->errbuf ? s->errbuf : curl_easy_strerror(rc);
}



/*
 * A server that let a reply time out is silent: libcurl keeps its
 * connection and would send it QUIT at the close, waiting once more for
 * a reply (smtp.timeout again). Shut the socket down now, so that the
 * close finds it gone at once and no later mail is sent over it.
 */
static void drop_silent(struct smtp *s, CURLcode rc)
{
	curl_socket_t fd = CURL_SOCKET_BAD;

	if (rc == CURLE_OPERATION_TIMEDOUT &&
	    curl_easy_getinfo(s->curl, CURLINFO_ACTIVESOCKET, &fd) == CURLE_OK &&
	    fd != CURL_SOCKET_BAD)
		shutdown(fd, SHUT_RDWR);
}

static void judge(struct smtp *s, CURLcode rc, struct smtp_result *res)
{
	struct smtp_setup su = { s->tls != CFG_TLS_NONE, s->user,
				 s->what, lib_why(s, rc) };
	enum smtp_transport tr = transport(rc);

	if (s->tr.ehlo_done) {
		s->caps_known = 1;
		s->caps = s->tr.caps;
	}
	drop_silent(s, rc);
	if (tr == SMTP_TR_NOAUTH && s->tr.auth_sent)
		tr = SMTP_TR_REFUSED;	/* the AUTH reply tells */
	smtp_judge(&s->tr, tr, &su, res);
	if (res->outcome == SMTP_SESSION && !s->tr.replies &&
	    (tr == SMTP_TR_TLS || rc == CURLE_OPERATION_TIMEDOUT ||
	     s->greet_tls))
		smtp_diagnose_tls(s, res);
}

/* Any byte >= 0x80 before the '@': the address needs SMTPUTF8. */
static int utf8_local(const char *addr)
{
	const char *at = strrchr(addr, '@');
	const char *p;

	for (p = addr; *p && (!at || p < at); p++)
		if ((unsigned char)*p >= 0x80)
			return 1;
	return 0;
}

/*
 * SMTPUTF8 only where the server offers it: an address whose local part
 * is not ASCII is refused here (code 553, as a server would) when it does
 * not. The offer is known once a session has read EHLO; the first such
 * address asks (a session of EHLO and NOOP).
 */
static int utf8_refused(struct smtp *s, struct smtp_rcpt *r)
{
	struct strbuf ignored = STRBUF_INIT;
	struct pb_err err;

	if (!utf8_local(r->addr))
		return 0;
	if (!s->caps_known)
		smtp_probe(s, &ignored, &err);
	sb_release(&ignored);
	if (s->caps_known && (s->caps & SMTP_CAP_SMTPUTF8))
		return 0;
	r->code = 553;
	snprintf(r->reply, sizeof(r->reply), "553 not sent: the address "
		 "needs SMTPUTF8, which %s does not offer", s->what);
	return 1;
}

void smtp_send(struct smtp *s, const char *sender, const char *const *rcpts,
	       size_t nrcpts, const char *msg, size_t len,
	       struct smtp_result *res)
{
	struct smtp_rcpt kept[SMTP_MAX_RCPTS];
	struct curl_slist *list = NULL, *n;
	CURLcode rc = CURLE_OUT_OF_MEMORY;
	struct strbuf a = STRBUF_INIT;
	size_t i, k = 0, nk = 0;
	int reused;

	memset(res, 0, sizeof(*res));
	if (nrcpts > SMTP_MAX_RCPTS) {
		res->outcome = SMTP_PERMANENT;
		snprintf(res->reply, sizeof(res->reply), "%zu recipients, more "
			 "than the limit of %d", nrcpts, SMTP_MAX_RCPTS);
		return;
	}
	for (i = 0; i < nrcpts; i++) {
		snprintf(res->rcpt[i].addr, sizeof(res->rcpt[i].addr), "%s",
			 rcpts[i]);
		if (utf8_refused(s, &res->rcpt[i]))
			kept[nk++] = res->rcpt[i];
		else
			res->rcpt[k++] = res->rcpt[i];
	}
	res->nrcpt = k;
	s->msg = msg;
	s->len = len;
	s->off = 0;
	s->errbuf[0] = '\0';
	for (i = 0; i < k; i++) {
		sb_reset(&a);
		if (sb_addf(&a, "<%s>", res->rcpt[i].addr) ||
		    !(n = curl_slist_append(list, a.buf)))
			goto out;
		list = n;
	}
	reused = set_options(s, sender, list);
	smtp_trace_start(&s->tr, res->rcpt, k, reused);
	rc = k ? curl_easy_perform(s->curl) : CURLE_OK;
	if (k)
		judge(s, rc, res);
	else
		res->outcome = SMTP_PERMANENT;
out:
	if (rc == CURLE_OUT_OF_MEMORY) {
		res->outcome = SMTP_SESSION;
		res->exit = EX_OSERR;
		snprintf(res->reply, sizeof(res->reply), "out of memory");
	}
	/* the addresses refused here, after those the server answered */
	for (i = 0; i < nk && res->nrcpt < SMTP_MAX_RCPTS; i++)
		res->rcpt[res->nrcpt++] = kept[i];
	if (!k && nk) {
		memcpy(res->reply, kept[0].reply, sizeof(res->reply));
		res->code = kept[0].code;
	}
	curl_slist_free_all(list);
	sb_release(&a);
}

int smtp_session_error(const struct smtp *s, const struct smtp_result *r,
		       struct pb_err *err)
{
	return pb_fail(err, r->exit ? r->exit : EX_SOFTWARE, "%s: %s: %s: %s",
		       r->setting ? r->setting : "smtp", s->what,
		       *r->why ? r->why : "the session failed", r->reply);
}

/* What 'perfbot check --connect' learns from the server's replies. */
struct probe {
	struct smtp *s;
	struct strbuf caps;	/* the last EHLO's capabilities */
	int caps_cut;		/* too many to keep them all */
	int in_ehlo;
	int ehlo_lines;		/* lines of the current EHLO reply */
};

static void probe_in(struct probe *p, const char *d, size_t n)
{
	char line[SMTP_REPLY_MAX];

	if (!p->in_ehlo || n < 4 || strncmp(d, "250", 3))
		return;
	if (d[3] == ' ')
		p->in_ehlo = 0;
	/* the first line is the server's name, not a capability */
	if (p->ehlo_lines++ == 0)
		return;
	text_scrub_to(line, sizeof(line), d + 4, n - 4,
		      TEXT_DROP_CRLF | TEXT_KEEP_DEL);
	/* a list to show: past its cap the rest is left out */
	if (sb_addf(&p->caps, "%s%s", p->caps.len ? ", " : "", line))
		p->caps_cut = 1;
}

static int probe_cb(CURL *c, curl_infotype type, char *d, size_t n,
		    void *arg)
{
	struct probe *p = arg;

	(void)c;
	smtp_feed(&p->s->tr, type, d, n);
	if (type == CURLINFO_HEADER_OUT && n >= 4 &&
	    !strncasecmp(d, "EHLO", 4)) {
		sb_reset(&p->caps);
		p->caps_cut = 0;
		p->ehlo_lines = 0;
		p->in_ehlo = 1;
	} else if (type == CURLINFO_HEADER_IN) {
		probe_in(p, d, n);
	}
	return 0;	/* AUTH lines are never looked at beyond their code */
}

/* The login as it went: made, refused, or not even tried. */
static int probe_auth(struct smtp *s, struct strbuf *out,
		      struct pb_err *err)
{
	if (!s->user)
		return sb_adds(out, "no AUTH (no smtp.user); ");
	if (s->tr.auth_ok)
		return sb_addf(out, "AUTH as '%s': ok; ", s->user);
	if (!(s->tr.caps & SMTP_CAP_AUTH))
		return pb_fail(err, EX_CONFIG, "%s: %s: the server offered no "
			       "AUTH%s, so the login as '%s' was not tried",
			       s->tls == CFG_TLS_NONE ? "smtp.tls" : "smtp.user",
			       s->what, s->tls == CFG_TLS_NONE ?
			       " without TLS (smtp.tls: none)" : "", s->user);
	return pb_fail(err, EX_NOPERM, "smtp.user: %s: the login as '%s' "
		       "was not made", s->what, s->user);
}

static int probe_report(struct smtp *s, struct probe *p, struct strbuf *out,
			struct pb_err *err)
{
	int r = sb_addf(out, "smtp: %s: connected; TLS: %s; ", s->url,
		    s->tls == CFG_TLS_IMPLICIT ? "implicit, certificate verified" :
		    s->tls == CFG_TLS_STARTTLS ? "STARTTLS, certificate verified" :
		    "none (tls: none)");

	if (!r) {
		r = probe_auth(s, out, err);
		if (r < 0 && err->code)
			return -1;
	}
	if (!r)
		r = sb_addf(out, "capabilities: %s%s", p->caps.len ?
			    sb_str(&p->caps) : "(none)",
			    p->caps_cut ? ", ..." : "");
	return r ? pb_fail(err, EX_OSERR, "out of memory") : 0;
}

int smtp_probe(struct smtp *s, struct strbuf *out, struct pb_err *err)
{
	struct probe p = { s, STRBUF_INIT, 0, 0, 0 };
	struct smtp_result res;
	CURL *c = s->curl;
	CURLcode rc;
	int r = 0;

	curl_easy_reset(c);
	s->errbuf[0] = '\0';
	connection_options(s);
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, "NOOP");
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, smtp_discard_cb);
	curl_easy_setopt(c, CURLOPT_DEBUGFUNCTION, probe_cb);
	curl_easy_setopt(c, CURLOPT_DEBUGDATA, &p);
	smtp_watch_greeting(s, 1);
	smtp_trace_start(&s->tr, NULL, 0, 0);
	rc = curl_easy_perform(c);
	memset(&res, 0, sizeof(res));
	if (rc != CURLE_OK || s->tr.fail_code) {
		judge(s, rc, &res);
		r = smtp_session_error(s, &res, err);
	} else {
		if (s->tr.ehlo_done) {
			s->caps_known = 1;
			s->caps = s->tr.caps;
		}
		r = probe_report(s, &p, out, err);
	}
	sb_release(&p.caps);
	curl_easy_reset(c);
	return r;
}
