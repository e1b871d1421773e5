// SPDX-License-Identifier: GPL-2.0-only
/*
 * webstate: what a state holds after mail went back and forth, made
 * without mail servers, for the web archive's tests and its benchmark.
 *   webstate reply CONFIG REPORT_ID FROM BODY_FILE UID
 *       a reply to report REPORT_ID (In-Reply-To its Message-ID) from
 *       FROM ("Name <addr>"), its text BODY_FILE, handled as the poll
 *       handles a mail (poll_one(): routed, authorized, acted on,
 *       answered, recorded) as message UID of the mailbox
 *   webstate sent CONFIG
 *       every queued mail marked sent, as if the server had taken it
 *   webstate bench CONFIG N ROOTS [FIRST]
 *       N reports (bench-FIRST on, FIRST 0 by default) of the result
 *       roots ROOTS/base and ROOTS/head, each
 *       with a manifest of its own, made as 'perfbot run' makes one
 *       (report_make, report_compose) once and queued N times under new
 *       ids, a minute apart
 * "Now" is SOURCE_DATE_EPOCH when set. Exit 0, or 1 with the error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "perfbot/cli/clicommon.h"
#include "perfbot/compose/reportmail.h"
#include "perfbot/cycle/report.h"
#include "perfbot/poll/poll.h"
#include "perfbot/send/outbox.h"
#include "perfbot/state/archive.h"
#include "perfbot/state/outbox.h"
#include "perfbot/util/addr.h"
#include "perfbot/util/fileio.h"

#include "tool.h"

static int fail(const struct pb_err *err)
{
	fprintf(stderr, "webstate: %s\n", err->msg);
	return 1;
}

static int open_state(const struct config *cfg, struct state **st,
		      struct pb_err *err)
{
	char *path = cli_state_path(cfg);
	int rc = path ? state_open(st, path, STATE_LOCKED, err) :
		pb_fail(err, EX_CONFIG, "no state");

	free(path);
	return rc;
}

static void reply_text(struct strbuf *m, const struct config *cfg,
		       const struct archive_report *r, const char *from,
		       const char *body, unsigned long uid)
{
	char *spec = addr_spec(from);
	const char *dom = spec && addr_domain(spec) ? addr_domain(spec) :
		"example.test";

	MUST(sb_addf(m, "Return-Path: <%s>\nFrom: %s\nTo: %s\n"
		     "Subject: Re: %s\nDate: Fri, 14 Feb 2025 16:00:00 +0000\n"
		     "Message-ID: <reply-%lu@%s>\nIn-Reply-To: <%s>\n"
		     "References: <%s>\nMIME-Version: 1.0\n"
		     "Content-Type: text/plain; charset=utf-8\n\n%s",
		     spec ? spec : "", from, cfg->identity.from,
		     r->subject ? r->subject : "", uid, dom, r->message_id,
		     r->message_id, body));
	free(spec);
}

static int reply(const struct config *cfg, char **argv, time_t now,
		 struct pb_err *err)
{
	struct archive_report *r = NULL;
	struct strbuf body = STRBUF_INIT, m = STRBUF_INIT;
	unsigned long uid = strtoul(argv[4], NULL, 10);
	struct state *st = NULL;
	struct poll_stats ps;
	size_t i, n = 0;
	int rc = -1;

	if (open_state(cfg, &st, err) ||
	    file_read(argv[3], 1 << 20, 1, &body, err) ||
	    state_archive_reports(st, &r, &n, err))
		goto out;
	for (i = 0; i < n && strcmp(r[i].id, argv[1]); i++)
		;
	if (i == n) {
		pb_fail(err, EX_DATAERR, "no report '%s'", argv[1]);
		goto out;
	}
	reply_text(&m, cfg, &r[i], argv[2], sb_str(&body), uid);
	rc = poll_one(st, cfg, now, m.buf, m.len, 1, (uint32_t)uid, &ps, err);
out:
	archive_reports_free(r, n);
	state_close(st);
	sb_release(&body);
	sb_release(&m);
	return rc;
}

static int sent(const struct config *cfg, time_t now, struct pb_err *err)
{
	struct outbox_mail *q = NULL;
	struct state *st = NULL;
	size_t i, n = 0;
	int rc = -1;

	if (open_state(cfg, &st, err) || state_queued(st, &q, &n, err))
		goto out;
	for (i = 0; i < n; i++)
		if (state_sent(st, q[i].rowid, now, err))
			goto out;
	rc = 0;
out:
	outbox_free(q, n);
	state_close(st);
	return rc;
}

/* The manifest of bench report 'i'. */
static void bench_manifest(struct strbuf *sb, const char *roots, long i)
{
	sb_reset(sb);
	MUST(sb_addf(sb, "id: bench-%06ld\n"
		     "base: { commit: %040lx, subject: \"bench: base %ld\", "
		     "result_root: %s/base }\n"
		     "head: { commit: %040lx, subject: \"bench: change %ld\", "
		     "author: \"Dev %ld <dev%ld@example.test>\", result_root: "
		     "%s/head }\n",
		     i, (unsigned long)(2 * i + 1), i, roots,
		     (unsigned long)(2 * i + 2), i, i, i % 50, roots));
}

/* The one report every bench report is a copy of. */
static int bench_mail(const struct config *cfg, const char *roots,
		      time_t now, struct composed *c, struct pb_err *err)
{
	struct report_opts o = { .now = now };
	struct strbuf text = STRBUF_INIT;
	struct manifest m;
	struct report r;
	int rc;

	memset(&m, 0, sizeof(m));
	bench_manifest(&text, roots, 0);
	rc = manifest_parse(&m, "bench.yaml", ".", text.buf, text.len, err) ||
	     report_make(&r, &m, cfg, &o, err);
	if (!rc && !r.worth)
		rc = pb_fail(err, EX_DATAERR, "%s: no change worth a report",
			     roots);
	if (!rc)
		rc = report_compose(&r, cfg, c, err);
	report_release(&r);
	manifest_release(&m);
	sb_release(&text);
	return rc;
}

static int bench_one(struct state *st, struct composed *c, long i,
		     const char *roots, time_t when, struct strbuf *text,
		     struct pb_err *err)
{
	char id[32], msgid[96], subject[128];
	struct outbox_mail m = { 0 };

	snprintf(id, sizeof(id), "bench-%06ld", i);
	snprintf(msgid, sizeof(msgid), "%ld.bench-%06ld-perfbot@example.test",
		 (long)when, i);
	snprintf(subject, sizeof(subject), "[bench] %s %06ld", c->subject, i);
	bench_manifest(text, roots, i);
	m.id = id;
	m.kind = "report";
	m.message_id = msgid;
	m.sender = c->sender;
	m.recipients = "[\"dev@example.test\"]";
	m.message = c->msg.buf;
	m.len = c->msg.len;
	return state_queue(st, &m, "bench.yaml", text->buf, ".", subject, when,
			   err);
}

static int bench(const struct config *cfg, char **argv, time_t now,
		 struct pb_err *err)
{
	long i, n = strtol(argv[1], NULL, 10);
	long first = argv[3] ? strtol(argv[3], NULL, 10) : 0;
	struct strbuf text = STRBUF_INIT;
	struct state *st = NULL;
	struct composed c;
	int rc = -1;

	composed_init(&c);
	if (bench_mail(cfg, argv[2], now, &c, err) ||
	    open_state(cfg, &st, err) || state_begin(st, err))
		goto out;
	for (i = first; i < first + n; i++)
		if (bench_one(st, &c, i, argv[2], now - (first + n - i) * 60,
			      &text, err)) {
			state_rollback(st);
			goto out;
		}
	rc = state_commit(st, err);
out:
	composed_release(&c);
	state_close(st);
	sb_release(&text);
	return rc;
}

int main(int argc, char **argv)
{
	struct pb_err err = { 0, "" };
	struct config cfg;
	int rc;

	if (argc < 3 || (!strcmp(argv[1], "reply") && argc != 7) ||
	    (!strcmp(argv[1], "sent") && argc != 3) ||
	    (!strcmp(argv[1], "bench") && argc != 5 && argc != 6)) {
		fprintf(stderr, "usage: webstate reply CONFIG REPORT_ID FROM "
			"BODY_FILE UID | sent CONFIG | bench CONFIG N ROOTS "
			"[FIRST]\n");
		return 64;
	}
	if (config_load(&cfg, argv[2], &err))
		return fail(&err);
	if (!strcmp(argv[1], "reply"))
		rc = reply(&cfg, argv + 2, cli_now(), &err);
	else if (!strcmp(argv[1], "sent"))
		rc = sent(&cfg, cli_now(), &err);
	else
		rc = bench(&cfg, argv + 2, cli_now(), &err);
	config_release(&cfg);
	return rc ? fail(&err) : 0;
}
