// SPDX-License-Identifier: GPL-2.0-only
/*
 * ingest: the fetching of URLs (fetch.h) through the function the binary
 * chose, so that the result root and source readers never name libcurl.
 */
#include <stdlib.h>
#include <string.h>

#include "perfbot/ingest/fetch.h"

static fetch_fn chosen;

void fetch_use(fetch_fn get)
{
	chosen = get;
}

int fetch_get(const char *url, const char *etag, const char *last_modified,
	      const char *ca_file, struct strbuf *body, struct http_answer *a,
	      struct pb_err *err)
{
	memset(a, 0, sizeof(*a));
	if (!chosen)
		return pb_fail(err, EX_UNAVAILABLE, "%s: URLs are not fetched "
			       "here", url);
	return chosen(url, etag, last_modified, ca_file, body, a, err);
}

void http_answer_release(struct http_answer *a)
{
	free(a->etag);
	free(a->last_modified);
	memset(a, 0, sizeof(*a));
}
