// SPDX-License-Identifier: GPL-2.0-only
/*
 * poll: the IMAP session over libetpan (imaplib.h), run only in the
 * child process of imapchild.c, so that whatever a hostile server makes
 * the library do stays there: TLS (a port that speaks the other kind is
 * recognised and the setting named), the server's certificate verified
 * with GnuTLS before the login, the mailbox selected, new UIDs listed,
 * mails fetched without marking them read and never more than the cap
 * downloaded, marked handled, a mailbox made sure of.
 */
#include <stdlib.h>
#include <string.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <libetpan/libetpan.h>

#include "imaplib.h"
#include "perfbot/config/secret.h"
#include "perfbot/util/strbuf.h"
#include "perfbot/util/yaml.h"

#define MAX_CHAIN 16


struct imaplib {
	mailimap *s;
	uint32_t uidvalidity;
};

struct target {
	char host[256];
	uint16_t port;
	enum cfg_tls tls;
};

/* imap://host:port or imaps://host:port (no user, no path). */
static int parse_url(const struct config *cfg, struct target *t,
		     struct pb_err *err)
{
	const char *url = cfg->imap.url;
	const char *h, *colon, *end;
	long port;
	int imaps;

	if (!url)
		return pb_fail(err, EX_CONFIG, "imap.url: not configured");
	imaps = !strncmp(url, "imaps://", 8);
	if (!imaps && strncmp(url, "imap://", 7))
		return pb_fail(err, EX_CONFIG, "imap.url: '%s' is not an "
			       "imap:// or imaps:// URL", url);
	h = url + (imaps ? 8 : 7);
	end = h + strcspn(h, "/");
	colon = memchr(h, ':', (size_t)(end - h));
	if (!colon)
		colon = end;
	if (colon == h || (size_t)(colon - h) >= sizeof(t->host))
		return pb_fail(err, EX_CONFIG, "imap.url: bad host in '%s'",
			       url);
	memcpy(t->host, h, (size_t)(colon - h));
	t->host[colon - h] = '\0';
	port = imaps ? 993 : 143;
	if (colon < end) {
		char buf[8] = "";

		if (end - colon - 1 > 0 && end - colon - 1 < 7)
			memcpy(buf, colon + 1, (size_t)(end - colon - 1));
		if (parse_long(buf, 1, 65535, &port))
			return pb_fail(err, EX_CONFIG, "imap.url: bad port in "
				       "'%s'", url);
	}
	t->port = (uint16_t)port;
	t->tls = cfg->imap.tls;
	return 0;
}

static int import_chain(carray *chain, gnutls_x509_crt_t *crt, unsigned *n)
{
	unsigned i;

	*n = 0;
	for (i = 0; i < carray_count(chain) && i < MAX_CHAIN; i++) {
		MMAPString *der = carray_get(chain, i);
		gnutls_datum_t d = { (unsigned char *)der->str,
				     (unsigned)der->len };

		if (gnutls_x509_crt_init(&crt[i]) < 0)
			return -1;
		(*n)++;
		if (gnutls_x509_crt_import(crt[i], &d, GNUTLS_X509_FMT_DER) < 0)
			return -1;
	}
	return *n ? 0 : -1;
}

/* Verify the server's chain and name before any credential is sent. */
static int verify_peer(mailimap *s, const char *host, const char *ca_file,
		       struct pb_err *err)
{
	carray *chain = mailstream_get_certificate_chain(s->imap_stream);
	gnutls_x509_crt_t crt[MAX_CHAIN];
	gnutls_x509_trust_list_t tl = NULL;
	unsigned n = 0, i, status = 1;
	const char *why = "no certificate";

	if (chain && !import_chain(chain, crt, &n) &&
	    !gnutls_x509_trust_list_init(&tl, 0)) {
		int added = ca_file ?
			gnutls_x509_trust_list_add_trust_file(tl, ca_file,
				NULL, GNUTLS_X509_FMT_PEM, 0, 0) :
			gnutls_x509_trust_list_add_system_trust(tl, 0, 0);

		why = "certificate not trusted";
		if (added <= 0)
			why = "no trusted CA could be loaded";
		else if (gnutls_x509_trust_list_verify_crt(tl, crt, n, 0,
							   &status, NULL) < 0)
			status = 1;
		if (!status && !gnutls_x509_crt_check_hostname(crt[0], host)) {
			why = "certificate does not name the host";
			status = 1;
		}
	}
	for (i = 0; i < n; i++)
		gnutls_x509_crt_deinit(crt[i]);
	if (tl)
		gnutls_x509_trust_list_deinit(tl, 1);
	if (chain)
		mailstream_certificate_chain_free(chain);
	return status ? pb_fail(err, EX_UNAVAILABLE, "imap.ca_file: %s: %s%s",
				host, why, ca_file ? "" : " (by the system's "
				"CAs: imap.ca_file is not set)") : 0;
}

/* A second look at a port that did not talk as expected: 1 when it does. */
static int port_speaks(const struct target *t, int tls, long timeout)
{
	mailimap *s = mailimap_new(0, NULL);
	int r;

	if (!s)
		return 0;
	mailimap_set_timeout(s, timeout);
	r = tls ? mailimap_ssl_connect(s, t->host, t->port) :
		mailimap_socket_connect(s, t->host, t->port);
	mailimap_free(s);
	return r == MAILIMAP_NO_ERROR_AUTHENTICATED ||
	       r == MAILIMAP_NO_ERROR_NON_AUTHENTICATED;
}

/* No greeting, or no handshake: is it the other kind of TLS? */
static int connect_failed(const struct target *t, long timeout, int r,
			  struct pb_err *err)
{
	int implicit = t->tls == CFG_TLS_IMPLICIT;

	if (port_speaks(t, !implicit, timeout))
		return pb_fail(err, EX_CONFIG, implicit ?
			       "imap.url: %s:%u answers in plain text, not with "
			       "implicit TLS: use imap://%s:%u (imap.tls: "
			       "starttls)" : "imap.url: %s:%u speaks implicit "
			       "TLS (imaps, port 993): use imaps://%s:%u "
			       "(imap.tls: implicit)", t->host, t->port,
			       t->host, t->port);
	return pb_fail(err, EX_TEMPFAIL, "imap: cannot connect to %s:%u "
		       "(error %d)", t->host, t->port, r);
}

static int connect_tls(mailimap *s, const struct target *t,
		       const char *ca_file, long timeout, struct pb_err *err)
{
	int r;

	if (t->tls == CFG_TLS_IMPLICIT)
		r = mailimap_ssl_connect(s, t->host, t->port);
	else
		r = mailimap_socket_connect(s, t->host, t->port);
	if (r != MAILIMAP_NO_ERROR_AUTHENTICATED &&
	    r != MAILIMAP_NO_ERROR_NON_AUTHENTICATED)
		return connect_failed(t, timeout, r, err);
	if (t->tls == CFG_TLS_STARTTLS &&
	    mailimap_socket_starttls(s) != MAILIMAP_NO_ERROR)
		return pb_fail(err, EX_UNAVAILABLE, "imap.tls: %s:%u: STARTTLS "
			       "failed (imap.tls: none reads in clear text; "
			       "imaps:// is implicit TLS)", t->host, t->port);
	if (t->tls == CFG_TLS_NONE)
		return 0;
	return verify_peer(s, t->host, ca_file, err);
}

/*
 * A failed LOGIN: refused by the server (a NO or BAD: the password), or
 * no answer within imap.timeout, or the connection lost (try again).
 */
static int login_failed(const struct target *t, const char *user, int r,
			long timeout, struct pb_err *err)
{
	if (r == MAILIMAP_ERROR_LOGIN)
		return pb_fail(err, EX_NOPERM, "imap: login as '%s' refused",
			       user);
	if (r == MAILIMAP_ERROR_STREAM)
		return pb_fail(err, EX_TEMPFAIL, "imap: %s:%u: LOGIN as '%s': "
			       "no answer within %ld s (imap.timeout), or the "
			       "connection broke", t->host, t->port, user,
			       timeout);
	return pb_fail(err, EX_PROTOCOL, "imap: %s:%u: LOGIN as '%s': the "
		       "server's answer could not be read (error %d)",
		       t->host, t->port, user, r);
}

static int login_select(mailimap *s, const struct target *t,
			const struct config *cfg, struct pb_err *err)
{
	const char *user = cfg->imap.user;
	const char *mbox = cfg->imap.mailbox;
	char *pw = NULL;
	int r;

	if (!user)
		return pb_fail(err, EX_CONFIG, "imap.user: not configured");
	if (secret_get(cfg, "imap", &pw, err))
		return -1;
	r = mailimap_login(s, user, pw ? pw : "");
	secret_free(pw);
	if (r != MAILIMAP_NO_ERROR)
		return login_failed(t, user, r, cfg->imap.timeout, err);
	if (mailimap_select(s, mbox) != MAILIMAP_NO_ERROR)
		return pb_fail(err, EX_UNAVAILABLE, "imap.mailbox: cannot "
			       "select '%s' on the server", mbox);
	return 0;
}

int imaplib_open(struct imaplib **out, const struct config *cfg,
	      struct pb_err *err)
{
	struct target t;
	struct imaplib *im;

	*out = NULL;
	if (parse_url(cfg, &t, err))
		return -1;
	im = calloc(1, sizeof(*im));
	if (!im || !(im->s = mailimap_new(0, NULL))) {
		free(im);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	mailimap_set_timeout(im->s, cfg->imap.timeout);
	if (connect_tls(im->s, &t, cfg->imap.ca_file, cfg->imap.timeout, err) ||
	    login_select(im->s, &t, cfg, err)) {
		imaplib_close(im);
		return -1;
	}
	if (im->s->imap_selection_info)
		im->uidvalidity = im->s->imap_selection_info->sel_uidvalidity;
	*out = im;
	return 0;
}

void imaplib_close(struct imaplib *im)
{
	if (!im)
		return;
	if (im->s) {
		if (im->s->imap_state != MAILIMAP_STATE_DISCONNECTED &&
		    im->s->imap_stream)
			mailimap_logout(im->s);
		mailimap_free(im->s);
	}
	free(im);
}

uint32_t imaplib_uidvalidity(const struct imaplib *im)
{
	return im->uidvalidity;
}

static int cmp_uid(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

int imaplib_new_uids(struct imaplib *im, uint32_t after, size_t max,
		  uint32_t **uids, size_t *n, struct pb_err *err)
{
	struct mailimap_search_key *key;
	struct mailimap_set *set;
	clist *result = NULL;
	clistiter *it;
	int r;

	*uids = NULL;
	*n = 0;
	set = mailimap_set_new_interval(after + 1, 0);
	key = set ? mailimap_search_key_new_uid(set) : NULL;
	if (!key) {
		if (set)
			mailimap_set_free(set);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	r = mailimap_uid_search(im->s, NULL, key, &result);
	mailimap_search_key_free(key);
	if (r != MAILIMAP_NO_ERROR)
		return pb_fail(err, EX_TEMPFAIL, "imap: UID SEARCH failed "
			       "(error %d)", r);
	*uids = calloc((size_t)clist_count(result) + 1, sizeof(**uids));
	if (!*uids) {
		mailimap_search_result_free(result);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	/* "N:*" includes the highest UID even when it is below N */
	for (it = clist_begin(result); it; it = clist_next(it)) {
		uint32_t uid = *(uint32_t *)clist_content(it);

		if (uid > after)
			(*uids)[(*n)++] = uid;
	}
	mailimap_search_result_free(result);
	qsort(*uids, *n, sizeof(**uids), cmp_uid);
	if (*n > max)
		*n = max;
	return 0;
}

/* UID FETCH of one attribute; the caller walks and frees the result. */
static int fetch_att(struct imaplib *im, uint32_t uid,
		     struct mailimap_fetch_att *att, clist **result,
		     struct pb_err *err)
{
	struct mailimap_fetch_type *ft =
		mailimap_fetch_type_new_fetch_att_list_empty();
	struct mailimap_set *set = mailimap_set_new_single(uid);
	int r;

	if (!ft || !set || !att ||
	    mailimap_fetch_type_new_fetch_att_list_add(ft, att)) {
		if (ft)
			mailimap_fetch_type_free(ft);
		if (set)
			mailimap_set_free(set);
		return pb_fail(err, EX_OSERR, "out of memory");
	}
	r = mailimap_uid_fetch(im->s, set, ft, result);
	mailimap_fetch_type_free(ft);
	mailimap_set_free(set);
	if (r != MAILIMAP_NO_ERROR)
		return pb_fail(err, EX_TEMPFAIL, "imap: UID FETCH %u failed "
			       "(error %d)", uid, r);
	return 0;
}

/* The first static item of 'type' in a fetch result. */
static struct mailimap_msg_att_static *item(clist *result, int type)
{
	clistiter *m, *i;

	for (m = clist_begin(result); m; m = clist_next(m)) {
		struct mailimap_msg_att *att = clist_content(m);

		for (i = clist_begin(att->att_list); i; i = clist_next(i)) {
			struct mailimap_msg_att_item *it = clist_content(i);

			if (it->att_type == MAILIMAP_MSG_ATT_ITEM_STATIC &&
			    it->att_data.att_static->att_type == type)
				return it->att_data.att_static;
		}
	}
	return NULL;
}

/* The body of one message, 'cap' + 1 bytes at most asked for. */
static int fetch_body(struct imaplib *im, uint32_t uid, size_t cap,
		      struct imap_msg *msg, struct pb_err *err)
{
	struct mailimap_msg_att_static *st;
	struct mailimap_section *sec = mailimap_section_new(NULL);
	clist *result = NULL;
	size_t n;

	if (fetch_att(im, uid, sec ? mailimap_fetch_att_new_body_peek_section_partial(
			      sec, 0, (uint32_t)cap + 1) : NULL, &result, err))
		return -1;
	st = item(result, MAILIMAP_MSG_ATT_BODY_SECTION);
	n = st ? st->att_data.att_body_section->sec_length : 0;
	if (st && n > cap) {	/* more than asked: the size lied */
		msg->size = (uint32_t)n;
	} else if (st) {
		msg->len = n;
		msg->data = malloc(n + 1);
		if (msg->data) {
			memcpy(msg->data,
			       st->att_data.att_body_section->sec_body_part, n);
			msg->data[n] = '\0';
		}
	}
	mailimap_fetch_list_free(result);
	if (st && n <= cap && !msg->data)
		return pb_fail(err, EX_OSERR, "out of memory");
	return st ? 0 : pb_fail(err, EX_TEMPFAIL, "imap: UID %u: no body",
				uid);
}

int imaplib_fetch(struct imaplib *im, uint32_t uid, size_t cap,
		  struct imap_msg *msg, struct pb_err *err)
{
	struct mailimap_msg_att_static *st;
	clist *result = NULL;

	memset(msg, 0, sizeof(*msg));
	msg->uid = uid;
	if (fetch_att(im, uid, mailimap_fetch_att_new_rfc822_size(), &result,
		      err))
		return -1;
	st = item(result, MAILIMAP_MSG_ATT_RFC822_SIZE);
	msg->size = st ? st->att_data.att_rfc822_size : 0;
	mailimap_fetch_list_free(result);
	if (!st)
		return pb_fail(err, EX_TEMPFAIL, "imap: UID %u is gone", uid);
	if (msg->size > cap)
		return 0;
	return fetch_body(im, uid, cap, msg, err);
}

static int mark_seen(struct imaplib *im, uint32_t uid, struct pb_err *err)
{
	struct mailimap_flag_list *fl = mailimap_flag_list_new_empty();
	struct mailimap_store_att_flags *sa;
	struct mailimap_set *set = mailimap_set_new_single(uid);
	int r = -1;

	struct mailimap_flag *seen = mailimap_flag_new_seen();

	if (fl && seen && !mailimap_flag_list_add(fl, seen)) {
		seen = NULL;	/* the list owns it now */
		sa = mailimap_store_att_flags_new_add_flags_silent(fl);
		fl = NULL;
		if (sa && set) {
			r = mailimap_uid_store(im->s, set, sa);
			mailimap_store_att_flags_free(sa);
		}
	}
	if (seen)
		mailimap_flag_free(seen);
	if (fl)
		mailimap_flag_list_free(fl);
	if (set)
		mailimap_set_free(set);
	return r == MAILIMAP_NO_ERROR ? 0 :
		pb_fail(err, EX_TEMPFAIL, "imap: cannot mark UID %u seen", uid);
}

int imaplib_done(struct imaplib *im, uint32_t uid, const char *mailbox,
	      struct pb_err *err)
{
	struct mailimap_set *set;
	int r;

	if (!mailbox || !*mailbox)
		return mark_seen(im, uid, err);
	set = mailimap_set_new_single(uid);
	if (!set)
		return pb_fail(err, EX_OSERR, "out of memory");
	r = mailimap_uid_move(im->s, set, mailbox);
	mailimap_set_free(set);
	return r == MAILIMAP_NO_ERROR ? 0 :
		pb_fail(err, EX_TEMPFAIL, "imap: cannot move UID %u to '%s'",
			uid, mailbox);
}

int imaplib_ensure(struct imaplib *im, const char *mailbox, int *created,
		   struct pb_err *err)
{
	clist *list = NULL;
	int r, n;

	*created = 0;
	r = mailimap_list(im->s, "", mailbox, &list);
	n = r == MAILIMAP_NO_ERROR && list ? clist_count(list) : 0;
	if (list)
		mailimap_list_result_free(list);
	if (r != MAILIMAP_NO_ERROR)
		return pb_fail(err, EX_TEMPFAIL, "imap: LIST '%s' failed "
			       "(error %d)", mailbox, r);
	if (n)
		return 0;
	if (mailimap_create(im->s, mailbox) != MAILIMAP_NO_ERROR)
		return pb_fail(err, EX_CONFIG, "imap.processed_mailbox: '%s' "
			       "does not exist and cannot be created", mailbox);
	*created = 1;
	return 0;
}

int imaplib_probe(struct imaplib *im, const struct config *cfg,
	       struct strbuf *out, struct pb_err *err)
{
	enum cfg_tls tls = cfg->imap.tls;
	struct mailimap_capability_data *cd = NULL;
	struct mailimap_selection_info *si = im->s->imap_selection_info;
	struct strbuf caps = STRBUF_INIT;
	clistiter *cur;
	int rc = 0;

	if (mailimap_capability(im->s, &cd) == MAILIMAP_NO_ERROR && cd) {
		for (cur = clist_begin(cd->cap_list); cur;
		     cur = clist_next(cur)) {
			struct mailimap_capability *c = clist_content(cur);
			const char *name = c->cap_type ==
				MAILIMAP_CAPABILITY_AUTH_TYPE ?
				c->cap_data.cap_auth_type :
				c->cap_data.cap_name;

			/* a list to show: past its cap it ends */
			if (name &&
			    sb_addf(&caps, "%s%s%s", caps.len ? " " : "",
				    c->cap_type ==
				    MAILIMAP_CAPABILITY_AUTH_TYPE ?
				    "AUTH=" : "", name))
				break;
		}
		mailimap_capability_data_free(cd);
	}
	if (sb_addf(out, "imap: %s: connected; TLS: %s; login as '%s': ok; "
		    "mailbox '%s': %u messages, UIDVALIDITY %u, UIDNEXT %u; "
		    "capabilities: %s", cfg->imap.url ? cfg->imap.url : "",
		    tls == CFG_TLS_NONE ? "none (tls: none)" :
		    tls == CFG_TLS_IMPLICIT ? "implicit, certificate verified" :
		    "STARTTLS, certificate verified",
		    cfg->imap.user ? cfg->imap.user : "", cfg->imap.mailbox,
		    si ? si->sel_exists : 0, si ? si->sel_uidvalidity : 0,
		    si ? si->sel_uidnext : 0,
		    caps.len ? sb_str(&caps) : "(none)"))
		rc = pb_fail(err, EX_OSERR, "out of memory");
	sb_release(&caps);
	return rc;
}
