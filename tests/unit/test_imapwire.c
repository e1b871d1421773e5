// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/poll/imapwire.c: the frames of the IMAP child, each
 * answer checked before the parent uses it: the size its kind allows,
 * UIDs ascending and no more than asked for, a message for the UID asked
 * and within the cap, an error's code a sysexits one and its text
 * scrubbed; a frame written whole.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sysexits.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfbot/poll/imapwire.h"

static void t_check(void **state)
{
	(void)state;
	assert_null(iw_check(IW_OPENED, 4, 0, 0));
	assert_non_null(iw_check(IW_OPENED, 5, 0, 0));
	assert_null(iw_check(IW_UIDS, 8, 0, 2));
	assert_non_null(iw_check(IW_UIDS, 12, 0, 2));
	assert_non_null(iw_check(IW_UIDS, 7, 0, 2));
	assert_null(iw_check(IW_MSG, IW_MSG_EXTRA + 100, 100, 0));
	assert_non_null(iw_check(IW_MSG, IW_MSG_EXTRA + 101, 100, 0));
	assert_non_null(iw_check(IW_MSG, 3, 100, 0));
	assert_non_null(iw_check(IW_ERR, IW_TEXT_MAX + 1, 0, 0));
	assert_non_null(iw_check('?', 0, 0, 0));
}

static void t_uids(void **state)
{
	unsigned char p[12];
	uint32_t *u = NULL;
	const char *why;
	size_t n = 9;

	(void)state;
	iw_put32(p, 3);
	iw_put32(p + 4, 7);
	iw_put32(p + 8, 9);
	assert_int_equal(iw_uids(p, 12, 3, &u, &n, &why), 0);
	assert_int_equal(n, 3);
	assert_int_equal(u[2], 9);
	free(u);
	assert_int_equal(iw_uids(p, 12, 2, &u, &n, &why), -1);
	iw_put32(p + 8, 7);	/* not ascending */
	assert_int_equal(iw_uids(p, 12, 3, &u, &n, &why), -1);
	assert_null(u);
	assert_int_equal(n, 0);
}

static void t_msg(void **state)
{
	unsigned char p[IW_MSG_EXTRA + 3];
	struct imap_msg m;
	const char *why;

	(void)state;
	iw_put32(p, 5);
	iw_put32(p + 4, 3);
	p[8] = 1;
	memcpy(p + IW_MSG_EXTRA, "abc", 3);
	assert_int_equal(iw_msg(p, sizeof(p), 10, 5, &m, &why), 0);
	assert_int_equal(m.len, 3);
	assert_string_equal(m.data, "abc");
	imap_msg_release(&m);
	/* another UID than asked for, past the cap, data for none */
	assert_int_equal(iw_msg(p, sizeof(p), 10, 6, &m, &why), -1);
	assert_int_equal(iw_msg(p, sizeof(p), 2, 5, &m, &why), -1);
	p[8] = 0;
	assert_int_equal(iw_msg(p, sizeof(p), 10, 5, &m, &why), -1);
	assert_int_equal(iw_msg(p, IW_MSG_EXTRA, 10, 5, &m, &why), 0);
	assert_null(m.data);
	assert_int_equal(m.size, 3);
}

static void t_err(void **state)
{
	unsigned char p[16];
	char text[32];
	int code;

	(void)state;
	iw_put32(p, EX_TEMPFAIL);
	memcpy(p + 4, "no\nway\033", 7);
	iw_err(p, 11, &code, text, sizeof(text));
	assert_int_equal(code, EX_TEMPFAIL);
	assert_null(strchr(text, '\n'));
	assert_null(strchr(text, '\033'));
	iw_put32(p, 12345);	/* not a sysexits code: not taken */
	iw_err(p, 4, &code, text, sizeof(text));
	assert_int_equal(code, EX_SOFTWARE);
	iw_err(p, 1, &code, text, sizeof(text));
	assert_int_equal(code, EX_SOFTWARE);
}

static void t_send(void **state)
{
	unsigned char b[32];
	int sv[2];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(iw_send(sv[0], IW_OK, "x", 1, "yz", 2), 0);
	assert_int_equal(read(sv[1], b, sizeof(b)), IW_HEAD + 3);
	assert_int_equal(b[0], IW_OK);
	assert_int_equal(iw_get32(b + 1), 3);
	assert_memory_equal(b + IW_HEAD, "xyz", 3);
	close(sv[1]);
	/* the other end gone: an error, never a SIGPIPE */
	assert_int_equal(iw_send(sv[0], IW_OK, "x", 1, NULL, 0), -1);
	close(sv[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_check),
		cmocka_unit_test(t_uids),
		cmocka_unit_test(t_msg),
		cmocka_unit_test(t_err),
		cmocka_unit_test(t_send),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
