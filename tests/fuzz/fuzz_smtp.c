// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: SMTP replies. Each input line that starts with '>' is
 * a command perfbot sent, every other line a reply line of the server;
 * the trace (send/smtpreply.c) reads them and the reply rule judges the
 * outcome under each way the transport may have ended. Whatever the
 * server says, the outcome is one of the four and a session-level one has
 * a sysexits code.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sysexits.h>

#include "perfbot/send/smtpreply.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const addrs[3] = { "a@example.test",
		"b@example.test", "c@example.test" };
	struct smtp_rcpt r[3];
	struct smtp_trace t;
	struct smtp_result res;
	struct smtp_setup su = { 1, "perfbot", "127.0.0.1:25", "lib" };
	const char *p = (const char *)data, *end = p + size, *nl;
	int tr;
	size_t i;

	memset(r, 0, sizeof(r));
	for (i = 0; i < 3; i++)
		snprintf(r[i].addr, sizeof(r[i].addr), "%s", addrs[i]);
	smtp_trace_start(&t, r, 3, size && data[0] & 1);
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		if (nl > p && *p == '>')
			smtp_trace_out(&t, p + 1, (size_t)(nl - p - 1));
		else
			smtp_trace_in(&t, p, (size_t)(nl - p));
		p = nl + 1;
	}
	for (tr = SMTP_TR_OK; tr <= SMTP_TR_URL; tr++) {
		memset(&res, 0, sizeof(res));
		su.tls = tr & 1;
		su.user = tr & 2 ? NULL : "perfbot";
		smtp_judge(&t, (enum smtp_transport)tr, &su, &res);
		if (res.outcome > SMTP_SESSION ||
		    (res.outcome == SMTP_SESSION &&
		     (res.exit < EX__BASE || res.exit > EX__MAX)) ||
		    !memchr(res.reply, '\0', sizeof(res.reply)) ||
		    !memchr(res.why, '\0', sizeof(res.why)))
			abort();
	}
	return 0;
}
