/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_ERR_H
#define PERFBOT_ERR_H

/*
 * One error convention for every module: a function returns 0 on success
 * and -1 on failure, and puts a one-line human message plus a sysexits
 * category into a 'struct pb_err' that the caller owns. Only main() turns
 * the category into an exit code.
 */

#include <sysexits.h>

#define PB_ERR_MAX 512

struct pb_err {
	int code;		/* a sysexits value: EX_DATAERR, EX_NOINPUT, ... */
	char msg[PB_ERR_MAX];	/* "<what>: <why>", no trailing newline */
};

/*
 * Record an error (when 'err' is not NULL) and return -1, so a failing path
 * can say 'return pb_fail(err, EX_DATAERR, "'%s': not a number", s);'.
 * Control characters in the formatted message are replaced by '?', so
 * hostile input echoed into a message can never forge a line of output.
 */
int pb_fail(struct pb_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prefix an existing message with "<what>: ", keeping its code. */
int pb_wrap(struct pb_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void pb_err_clear(struct pb_err *err);

/*
 * Mask, in place, the password of every URL with credentials in 's':
 * "smtp://user:secret@host" becomes "smtp://user:***@host" (the string
 * only shrinks or stays). pb_fail(), pb_wrap() and the log do it to every
 * message, so a password written in a URL is never echoed.
 */
void pb_mask_credentials(char *s);

#endif
