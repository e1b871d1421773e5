// SPDX-License-Identifier: GPL-2.0-only
/*
 * util: struct pb_err, the one error convention (err.h): pb_fail() and
 * pb_wrap() fill it with control characters scrubbed and URL passwords
 * masked; every module reports through it, and the log masks with it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "perfbot/util/err.h"
#include "perfbot/util/text.h"

/* The end of a URL's authority: '/', '?', '#', a blank, a quote, the end. */
static size_t authority_len(const char *s)
{
	return strcspn(s, "/?#\"' \t\r\n<>");
}

void pb_mask_credentials(char *s)
{
	char *p = s, *auth, *at, *colon;
	size_t n, k;

	while ((p = strstr(p, "://"))) {
		auth = p + 3;
		n = authority_len(auth);
		at = memrchr(auth, '@', n);
		colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
		k = colon ? (size_t)(at - colon - 1) : 0;
		if (k >= 3) {
			memcpy(colon + 1, "***", 3);
			memmove(colon + 4, at, strlen(at) + 1);
			n = authority_len(auth);
		} else if (k) {
			memset(colon + 1, '*', k);	/* never grow */
		}
		p = auth + n;
	}
}

int pb_fail(struct pb_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	text_scrub(err->msg, TEXT_CTRL_QMARK);
	pb_mask_credentials(err->msg);
	return -1;
}

int pb_wrap(struct pb_err *err, const char *fmt, ...)
{
	char both[2 * PB_ERR_MAX + 2];
	size_t n;
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(both, PB_ERR_MAX, fmt, ap);
	va_end(ap);
	n = strlen(both);
	both[n++] = ':';
	both[n++] = ' ';
	memcpy(both + n, err->msg, PB_ERR_MAX);
	both[sizeof(both) - 1] = '\0';
	memcpy(err->msg, both, PB_ERR_MAX - 1);
	err->msg[PB_ERR_MAX - 1] = '\0';
	text_scrub(err->msg, TEXT_CTRL_QMARK);
	pb_mask_credentials(err->msg);
	return -1;
}

void pb_err_clear(struct pb_err *err)
{
	err->code = 0;
	err->msg[0] = '\0';
}
