// SPDX-License-Identifier: GPL-2.0-only
/*
 * smtpbench: send N small messages through perfbot's SMTP sender and
 * print messages per second: smtpbench CONFIG N REUSE(1|0) RCPT
 */
#include <stdio.h>
#include <time.h>

#include "tool.h"
#include "perfbot/config/config.h"
#include "perfbot/send/smtp.h"
#include "perfbot/util/strbuf.h"
#include "perfbot/util/yaml.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct config cfg;
	struct pb_err err = { 0, "" };
	struct smtp *s;
	struct smtp_result r;
	struct strbuf msg = STRBUF_INIT;
	const char *rcpt[1];
	long n, reuse, i, ok = 0;
	double t0, t;

	if (argc != 5 || parse_long(argv[2], 1, 1000000, &n) ||
	    parse_long(argv[3], 0, 1, &reuse)) {
		fprintf(stderr, "usage: smtpbench CONFIG N REUSE RCPT\n");
		return 64;
	}
	rcpt[0] = argv[4];
	if (config_load(&cfg, argv[1], &err) ||
	    smtp_new(&s, &cfg, (int)reuse, &err)) {
		fprintf(stderr, "smtpbench: %s\n", err.msg);
		return 1;
	}
	t0 = now();
	for (i = 0; i < n; i++) {
		sb_reset(&msg);
		MUST(sb_addf(&msg, "From: perfbot@example.test\nTo: %s\n"
				"Subject: bench %ld\nMessage-ID: <bench-%ld-%ld@example."
				"test>\n\nbench message %ld\n", argv[4], i, reuse, i, i));
		smtp_send(s, "perfbot@example.test", rcpt, 1, msg.buf, msg.len,
			  &r);
		ok += r.outcome == SMTP_ACCEPTED;
	}
	t = now() - t0;
	printf("%s: %ld of %ld accepted in %.2f s: %.0f messages/s\n",
	       reuse ? "one connection" : "a connection per message", ok, n,
	       t, (double)ok / t);
	smtp_free(s);
	config_release(&cfg);
	sb_release(&msg);
	return ok == n ? 0 : 1;
}
