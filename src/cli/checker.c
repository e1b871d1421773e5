// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli: what the checks of 'perfbot check' share (checker.h): each
 * problem said and counted once, the 'ok:' lines.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "checker.h"
#include "perfbot/util/log.h"
#include "perfbot/util/strmap.h"

/*
 * What a problem is about: the setting its message starts with
 * ("smtp.password_file: ..."), else the whole message. Two checks may
 * find one fault (the password file unreadable, then its secret not
 * fetched; a template parsed as the report's, as a shipped one and as
 * one of the directory): it is one problem, said once.
 */
static unsigned long long problem_subject(const char *msg)
{
	size_t n = strspn(msg, "abcdefghijklmnopqrstuvwxyz0123456789_.[]");

	if (n && msg[n] == ':' && memchr(msg, '.', n))
		return hash_fnv1a(msg, n, 0);
	return hash_fnv1a(msg, strlen(msg), 0);
}

void check_problem(struct checker *ck, const struct pb_err *err)
{
	unsigned long long h = problem_subject(err->msg);
	size_t i;

	for (i = 0; i < ck->nsaid; i++)
		if (ck->said[i] == h)
			return;
	if (ck->nsaid < CHECK_MAX_SAID)
		ck->said[ck->nsaid++] = h;
	log_error("%s", err->msg);
	ck->problems++;
}

void check_okay(struct checker *ck, const char *fmt, ...)
{
	char line[2048];
	va_list ap;

	if (ck->quiet)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* a password written in a URL is never printed */
	pb_mask_credentials(line);
	printf("ok: %s\n", line);
}

