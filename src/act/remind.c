// SPDX-License-Identifier: GPL-2.0-only
/*
 * act: the reminder of the regressions still open (remind.h): whether
 * one is due, its lines grouped by testcase, and the mail queued with
 * the record of its lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/act/answers.h"
#include "perfbot/act/lifecmd.h"
#include "perfbot/act/regression.h"
#include "perfbot/act/remind.h"
#include "perfbot/compose/identity.h"
#include "perfbot/compose/reminder.h"
#include "perfbot/render/context.h"
#include "perfbot/render/evidence_view.h"
#include "perfbot/send/outbox.h"
#include "perfbot/state/records.h"
#include "perfbot/state/outbox.h"
#include "perfbot/util/addr.h"

#define DAY (24L * 3600)
#define REMIND_MAX_LINES 1000	/* a reminder lists at most these */

/* The testcase of a headline ("hackbench.throughput": hackbench). */
static void testcase_of(const struct record *r, char *buf, size_t n)
{
	const char *m = r->metric, *dot = m ? strchr(m, '.') : NULL;

	if (!m || !dot || dot == m)
		snprintf(buf, n, "unknown");
	else
		snprintf(buf, n, "%.*s", (int)(dot - m), m);
}

/* Listed: open, no no-reminders, old enough, its report mailed. */
static int listed(const struct config *cfg, const struct record *r,
		  time_t now)
{
	return !r->no_reminders && r->mail_status &&
	       !strcmp(r->mail_status, "sent") &&
	       r->mailed <= now - cfg->reminders.min_age;
}

static void date_of(time_t t, char *buf, size_t n)
{
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, n, "%Y-%m-%d", &tm))
		snprintf(buf, n, "?");
}

/* What the status rests on: the fix named or landed. */
static void fix_of(const struct record *r, char *buf, size_t n)
{
	buf[0] = '\0';
	if (r->fix_commit)
		snprintf(buf, n, "%.12s in %s", r->fix_commit,
			 r->fix_branch ? r->fix_branch : "?");
	else if (r->fix_named)
		lifecmd_fix_shown(r->fix_named, buf, n);
}

static void line_ctx(const struct config *cfg, struct ctx *g,
		     const struct record *r, long ref, time_t now)
{
	char date[32], fix[256], *url;
	struct ctx c;

	ctx_init(&c, g->family);
	ctx_int(&c, "ref", ref);
	ctx_int(&c, "age", (long long)((now - r->mailed) / DAY));
	ctx_str(&c, "subject", r->subject ? r->subject : r->report_id);
	ctx_opt(&c, "metric", r->metric);
	ctx_bool(&c, "known", r->metric != NULL);
	if (r->metric)
		ctx_percent(&c, "change", r->change);
	else
		ctx_opt(&c, "change", NULL);
	ctx_str(&c, "status", r->status);
	fix_of(r, fix, sizeof(fix));
	ctx_opt(&c, "fix", fix[0] ? fix : NULL);
	date_of(r->activity, date, sizeof(date));
	ctx_str(&c, "activity", date);
	url = identity_closes_url(cfg, r->report_id, r->message_id);
	ctx_opt(&c, "link", url);
	ctx_opt(&c, "message_id", r->message_id);
	free(url);
	ctx_add(g, "lines", &c);
}

/* "30 days", "12 hours". */
static void every_of(long secs, char *buf, size_t n)
{
	if (secs % DAY == 0)
		snprintf(buf, n, "%ld day%s", secs / DAY, secs == DAY ? "" :
			 "s");
	else
		snprintf(buf, n, "%ld hour%s", secs / 3600, secs / 3600 == 1 ?
			 "" : "s");
}

/*
 * The reminder rendered and the list of the report of each line; the
 * records listed are those of 'v' whose 'keep' is set.
 */
static int reminder_of(const struct config *cfg, const struct record *v,
		       const int *keep, size_t n, size_t count, time_t now,
		       struct reminder_text *t, struct addrlist *ids,
		       struct pb_err *err)
{
	char tc[128], other[128], every[64];
	size_t i, j;
	long ref = 0;
	struct ctx c, g;
	int *done = calloc(n + 1, sizeof(*done));

	if (!done)
		return pb_fail(err, EX_OSERR, "out of memory");
	ctx_init(&c, "reminder");
	ctx_str(&c, "bot_name", cfg->identity.name);
	ctx_int(&c, "count", (long long)count);
	ctx_bool(&c, "one", count == 1);
	every_of(cfg->reminders.every, every, sizeof(every));
	ctx_str(&c, "every", every);
	ctx_list(&c, "groups");
	/* the groups in the order of their oldest line */
	for (i = 0; i < n; i++) {
		if (!keep[i] || done[i])
			continue;
		testcase_of(&v[i], tc, sizeof(tc));
		ctx_init(&g, "reminder");
		ctx_str(&g, "testcase", tc);
		ctx_list(&g, "lines");
		for (j = i; j < n; j++) {
			testcase_of(&v[j], other, sizeof(other));
			if (!keep[j] || done[j] || strcmp(tc, other))
				continue;
			done[j] = 1;
			line_ctx(cfg, &g, &v[j], ++ref, now);
			if (addrlist_add(ids, v[j].report_id))
				c.oom = 1;
		}
		ctx_add(&c, "groups", &g);
	}
	free(done);
	return reminder_render(cfg, &c, t, err);
}

/* Queue the reminder 'id' and record its lines, in one transaction. */
static int queue(struct state *st, const struct config *cfg, const char *id,
		 const struct reminder_text *t, const struct addrlist *ids,
		 time_t now, struct pb_err *err)
{
	char *lines = addrlist_to_json(ids);
	struct answer_mail m = { .reminder_id = id, .reminder = t };
	int rc;

	if (!lines)
		return pb_fail(err, EX_OSERR, "out of memory");
	rc = state_begin(st, err) || answers_queue(st, cfg, &m, now, err) ||
	     state_reminder_add(st, id, lines, now, err);
	if (rc)
		state_rollback(st);
	else
		rc = state_commit(st, err);
	free(lines);
	return rc;
}

int remind_step(struct state *st, const struct config *cfg, time_t now,
		struct remind_stats *rs, struct pb_err *err)
{
	struct record *v = NULL;
	struct reminder_text t = { NULL, NULL };
	struct addrlist ids = ADDRLIST_INIT;
	size_t n = 0, i, count = 0;
	int *keep = NULL, rc = -1;
	char id[64];
	time_t last;
	long sent;

	rs->listed = 0;
	if (!cfg->reminders.to.n)
		return 0;
	if (state_reminder_last(st, &last, &sent, err))
		return -1;
	if (last && now - last < cfg->reminders.every)
		return 0;
	if (state_records(st, regression_open_json, 1, &v, &n, err))
		return -1;
	keep = calloc(n + 1, sizeof(*keep));
	if (!keep) {
		pb_fail(err, EX_OSERR, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++)
		if ((keep[i] = listed(cfg, &v[i], now) &&
			       count < REMIND_MAX_LINES))
			count++;
	rc = 0;
	if (!count)
		goto out;	/* nothing open: nothing to say */
	snprintf(id, sizeof(id), "reminder-%ld", sent + 1);
	rc = reminder_of(cfg, v, keep, n, count, now, &t, &ids, err) ||
	     queue(st, cfg, id, &t, &ids, now, err);
	if (!rc)
		rs->listed = (long)count;
out:
	reminder_text_release(&t);
	addrlist_release(&ids);
	free(keep);
	records_free(v, n);
	return rc ? -1 : 0;
}
