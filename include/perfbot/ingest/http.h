/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_HTTP_H
#define PERFBOT_HTTP_H

#include "perfbot/ingest/fetch.h"
#include "perfbot/util/err.h"
#include "perfbot/util/strbuf.h"

/*
 * Small HTTP(S) client calls with libcurl: certificate verification on,
 * timeouts, redirects off, the body capped by body->max. A failure to
 * connect is EX_UNAVAILABLE ("url: why"); any answer is returned with
 * its status for the caller to judge.
 */

#define HTTP_TIMEOUT 60

/*
 * GET with optional If-None-Match / If-Modified-Since validators: the
 * fetch_fn of perfbot-full (fetch.h).
 */
int http_get(const char *url, const char *etag, const char *last_modified,
	     const char *ca_file, struct strbuf *body, struct http_answer *a,
	     struct pb_err *err);

/* POST 'json' with Content-Type: application/json. */
int http_post_json(const char *url, const char *json, const char *ca_file,
		   long timeout, struct strbuf *body, struct http_answer *a,
		   struct pb_err *err);

#endif
