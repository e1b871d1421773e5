// SPDX-License-Identifier: GPL-2.0-only
/*
 * util: libcurl's global setup, done once per process whichever module
 * uses libcurl first (ingest/http.c, send/smtp.c), and safe from threads.
 */
#include <pthread.h>
#include <curl/curl.h>

#include "perfbot/util/curl.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static CURLcode setup_rc;

static void setup(void)
{
	setup_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

int curl_once(struct pb_err *err)
{
	pthread_once(&once, setup);
	if (setup_rc != CURLE_OK)
		return pb_fail(err, EX_SOFTWARE, "libcurl: cannot initialise");
	return 0;
}
