/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_FETCH_H
#define PERFBOT_FETCH_H

#include "perfbot/util/err.h"
#include "perfbot/util/strbuf.h"

/*
 * How the URLs of result roots and url sources are fetched. Each binary
 * chooses once, at the start of main(): perfbot-full takes http_get()
 * (ingest/http.c, libcurl); the front end (cli/front.c), which links no
 * libcurl, takes its own function, which hands the whole command line
 * over to perfbot-full. Until one is chosen, a URL is refused.
 */

struct http_answer {
	long status;		/* 200, 304, 404, ... */
	char *etag;		/* ETag of the answer, or NULL */
	char *last_modified;	/* Last-Modified of the answer, or NULL */
};

/*
 * GET 'url' with optional If-None-Match / If-Modified-Since validators
 * into 'body' (capped by body->max); 'a' gets the status and validators.
 * 'a' is always set: release it with http_answer_release().
 */
typedef int (*fetch_fn)(const char *url, const char *etag,
			const char *last_modified, const char *ca_file,
			struct strbuf *body, struct http_answer *a,
			struct pb_err *err);

/* The binary's choice; NULL refuses every URL. */
void fetch_use(fetch_fn get);

/* GET through the chosen function (EX_UNAVAILABLE when none). */
int fetch_get(const char *url, const char *etag, const char *last_modified,
	      const char *ca_file, struct strbuf *body, struct http_answer *a,
	      struct pb_err *err);

void http_answer_release(struct http_answer *a);

#endif
