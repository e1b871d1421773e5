// SPDX-License-Identifier: GPL-2.0-only
/*
 * ingest: the small HTTP(S) client over libcurl (http.h): GET for remote
 * result roots and url sources (with their validators), a JSON POST for
 * the http scheduler backend.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <curl/curl.h>

#include "perfbot/ingest/http.h"
#include "perfbot/util/curl.h"

struct call {
	struct strbuf *body;
	struct http_answer *a;
	int too_big;
};

static size_t write_cb(char *p, size_t size, size_t n, void *arg)
{
	struct call *c = arg;

	if (sb_add(c->body, p, size * n)) {
		c->too_big = 1;
		return 0;
	}
	return size * n;
}

/* Keep ETag and Last-Modified of the answer. */
static size_t header_cb(char *p, size_t size, size_t n, void *arg)
{
	struct call *c = arg;
	size_t len = size * n, k;
	char **dst = NULL;

	if (len > 5 && !strncasecmp(p, "ETag:", 5)) {
		dst = &c->a->etag;
		k = 5;
	} else if (len > 14 && !strncasecmp(p, "Last-Modified:", 14)) {
		dst = &c->a->last_modified;
		k = 14;
	}
	if (!dst)
		return len;
	while (k < len && (p[k] == ' ' || p[k] == '\t'))
		k++;
	while (len > k && (p[len - 1] == '\r' || p[len - 1] == '\n'))
		len--;
	free(*dst);
	*dst = strndup(p + k, len - k);
	return size * n;
}

static int perform(CURL *h, const char *url, struct call *c,
		   struct pb_err *err)
{
	char ebuf[CURL_ERROR_SIZE] = "";
	CURLcode rc;

	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 30L);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, write_cb);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, c);
	curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, header_cb);
	curl_easy_setopt(h, CURLOPT_HEADERDATA, c);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, ebuf);
	rc = curl_easy_perform(h);
	if (c->too_big)
		return pb_fail(err, EX_DATAERR, "%s: answer larger than %zu "
			       "bytes", url, c->body->max);
	if (rc != CURLE_OK)
		return pb_fail(err, EX_UNAVAILABLE, "%s: %s", url,
			       *ebuf ? ebuf : curl_easy_strerror(rc));
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &c->a->status);
	return 0;
}

static CURL *handle(const char *ca_file, long timeout, struct pb_err *err)
{
	CURL *h;

	if (curl_once(err))
		return NULL;
	h = curl_easy_init();
	if (!h) {
		pb_fail(err, EX_SOFTWARE, "libcurl: no handle");
		return NULL;
	}
	if (ca_file)
		curl_easy_setopt(h, CURLOPT_CAINFO, ca_file);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, timeout);
	return h;
}

int http_get(const char *url, const char *etag, const char *last_modified,
	     const char *ca_file, struct strbuf *body, struct http_answer *a,
	     struct pb_err *err)
{
	struct call c = { body, a, 0 };
	struct curl_slist *hdr = NULL, *n;
	struct strbuf line = STRBUF_INIT;
	CURL *h;
	int rc = -1;

	memset(a, 0, sizeof(*a));
	h = handle(ca_file, HTTP_TIMEOUT, err);
	if (!h)
		return -1;
	if (etag && !sb_addf(&line, "If-None-Match: %s", etag) &&
	    (n = curl_slist_append(hdr, line.buf)))
		hdr = n;
	sb_reset(&line);
	if (last_modified &&
	    !sb_addf(&line, "If-Modified-Since: %s", last_modified) &&
	    (n = curl_slist_append(hdr, line.buf)))
		hdr = n;
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
	rc = perform(h, url, &c, err);
	curl_slist_free_all(hdr);
	sb_release(&line);
	curl_easy_cleanup(h);
	return rc;
}

int http_post_json(const char *url, const char *json, const char *ca_file,
		   long timeout, struct strbuf *body, struct http_answer *a,
		   struct pb_err *err)
{
	struct call c = { body, a, 0 };
	struct curl_slist *hdr;
	CURL *h;
	int rc;

	memset(a, 0, sizeof(*a));
	h = handle(ca_file, timeout, err);
	if (!h)
		return -1;
	hdr = curl_slist_append(NULL, "Content-Type: application/json");
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
	curl_easy_setopt(h, CURLOPT_POSTFIELDS, json);
	rc = perform(h, url, &c, err);
	curl_slist_free_all(hdr);
	curl_easy_cleanup(h);
	return rc;
}

