// SPDX-License-Identifier: GPL-2.0-only
/*
 * The http scheduler backend: POST the request as JSON to scheduler.url;
 * 2xx is accepted, 4xx rejected (the status and the first line of the
 * answer as the reason), 5xx and 429 failed for now.
 */
#include <stdlib.h>
#include <jansson.h>

#include "perfbot/ingest/http.h"
#include "perfbot/util/strbuf.h"

#include "sched_backend.h"

#define SCHED_MAX_ANSWER ((size_t)64 << 10)	/* an HTTP answer body */

static char *request_json(const struct sched_request *rq)
{
	json_t *o;
	char *s;

	o = json_pack("{s:s, s:s, s:s, s:i, s:s, s:s, s:s, s:s, s:s, s:s}",
		      "request_id", rq->request_id, "job", rq->job,
		      "commit", rq->commit, "runs", rq->runs,
		      "result_root", rq->result_root,
		      "thread", sched_thread_of(rq),
		      "kind", sched_kind_of(rq),
		      "repo", sched_or_empty(rq->repo),
		      "ref", sched_or_empty(rq->ref),
		      "patch", sched_or_empty(rq->patch));
	if (!o)
		return NULL;
	s = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	return s;
}

static int judge_answer(const struct http_answer *a,
			const struct strbuf *body, enum sched_outcome *out,
			char *why, size_t whylen, struct pb_err *err)
{
	char line[SCHED_MAX_LINE];

	if (a->status >= 200 && a->status < 300) {
		*out = SCHED_ACCEPTED;
		return 0;
	}
	sched_first_line(sb_str(body), body->len, line, sizeof(line));
	if (a->status >= 500 || a->status == 429) {
		*out = SCHED_TEMPORARY;
		sched_say(why, whylen, "HTTP %ld%s%s", a->status,
			  *line ? ": " : "", line);
		return 0;
	}
	if (a->status < 400)
		return pb_fail(err, EX_TEMPFAIL, "scheduler: HTTP %ld",
			       a->status);
	*out = SCHED_REJECTED;
	sched_say(why, whylen, "HTTP %ld%s%s", a->status, *line ? ": " : "",
		  line);
	return 0;
}

static int submit_http(const struct cfg_scheduler *sc,
		       const struct sched_request *rq,
		       enum sched_outcome *out, char *why, size_t whylen,
		       struct pb_err *err)
{
	const char *url = sc->url;
	long timeout = sc->timeout;
	struct http_answer a = { 0, NULL, NULL };
	struct strbuf body;
	char *json;
	int rc;

	if (!url || !*url)
		return pb_fail(err, EX_CONFIG, "scheduler.url: give the URL "
			       "of the farm");
	json = request_json(rq);
	if (!json)
		return pb_fail(err, EX_OSERR, "out of memory");
	sb_init(&body, SCHED_MAX_ANSWER);
	rc = http_post_json(url, json, NULL, timeout, &body, &a, err);
	if (!rc)
		rc = judge_answer(&a, &body, out, why, whylen, err);
	http_answer_release(&a);
	sb_release(&body);
	free(json);
	return rc;
}

static int check_http(const struct cfg_scheduler *sc, struct pb_err *err)
{
	if (!sc->url)
		return pb_fail(err, EX_CONFIG, "scheduler.url: not set "
			       "(backend http posts there)");
	return 0;
}

const struct sched_backend sched_http = { "http", submit_http,
					  check_http };
