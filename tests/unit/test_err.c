// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/util/err.c: the one error convention (return -1, a
 * sysexits code and a one-line message), control characters scrubbed,
 * wrapping bounded by PB_ERR_MAX.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/util/err.h"

/* A message buffer full of 'Z', so missing terminators show. */
static void dirty(struct pb_err *e)
{
	memset(e, 'Z', sizeof(*e));
}

static void t_fail_formats(void **state)
{
	struct pb_err e;

	(void)state;
	dirty(&e);
	assert_int_equal(pb_fail(&e, EX_DATAERR, "'%s': %d runs, %.1f%%",
				 "fsmark", 3, 12.25), -1);
	assert_int_equal(e.code, EX_DATAERR);
	assert_string_equal(e.msg, "'fsmark': 3 runs, 12.2%");
	assert_int_equal(pb_fail(&e, EX_NOINPUT, "plain"), -1);
	assert_int_equal(e.code, EX_NOINPUT);
	assert_string_equal(e.msg, "plain");
}

static void t_fail_null_err(void **state)
{
	(void)state;
	assert_int_equal(pb_fail(NULL, EX_CONFIG, "%s", "ignored"), -1);
	assert_int_equal(pb_wrap(NULL, "%s", "ignored"), -1);
}

static void t_fail_scrubs_control(void **state)
{
	struct pb_err e;

	(void)state;
	assert_int_equal(pb_fail(&e, EX_DATAERR, "bad '%s'",
				 "a\nb\rc\td\x1b[31me\x7f" "f\x01"), -1);
	assert_string_equal(e.msg, "bad 'a?b?c?d?[31me?f?'");
	assert_null(strchr(e.msg, '\n'));
}

static void t_fail_keeps_utf8(void **state)
{
	struct pb_err e;

	(void)state;
	/* Bytes >= 0x80 are not control characters: UTF-8 survives. */
	assert_int_equal(pb_fail(&e, EX_DATAERR, "%s", "caf\xc3\xa9 \xe2\x80\x94"),
			 -1);
	assert_string_equal(e.msg, "caf\xc3\xa9 \xe2\x80\x94");
}

static void t_fail_truncates(void **state)
{
	char big[2000];
	struct pb_err e;

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	dirty(&e);
	assert_int_equal(pb_fail(&e, EX_DATAERR, "%s: %s", "file", big), -1);
	assert_int_equal(strlen(e.msg), PB_ERR_MAX - 1);
	assert_memory_equal(e.msg, "file: xxx", 9);
	assert_int_equal(e.msg[PB_ERR_MAX - 2], 'x');
}

static void t_wrap_prefix(void **state)
{
	struct pb_err e;

	(void)state;
	pb_fail(&e, EX_NOINPUT, "matrix.json: No such file or directory");
	assert_int_equal(pb_wrap(&e, "loading '%s'", "roots/a"), -1);
	assert_string_equal(e.msg,
			    "loading 'roots/a': matrix.json: No such file or "
			    "directory");
	/* The code is kept. */
	assert_int_equal(e.code, EX_NOINPUT);
	assert_int_equal(pb_wrap(&e, "report"), -1);
	assert_string_equal(e.msg, "report: loading 'roots/a': matrix.json: "
			    "No such file or directory");
	assert_int_equal(e.code, EX_NOINPUT);
}

static void t_wrap_empty_message(void **state)
{
	struct pb_err e;

	(void)state;
	pb_err_clear(&e);
	assert_int_equal(pb_wrap(&e, "what"), -1);
	assert_string_equal(e.msg, "what: ");
	assert_int_equal(e.code, 0);
}

static void t_wrap_long_message(void **state)
{
	char big[PB_ERR_MAX];
	struct pb_err e;

	(void)state;
	memset(big, 'm', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	pb_fail(&e, EX_DATAERR, "%s", big);
	assert_int_equal(strlen(e.msg), PB_ERR_MAX - 1);
	assert_int_equal(pb_wrap(&e, "pre"), -1);
	assert_int_equal(strlen(e.msg), PB_ERR_MAX - 1);
	assert_memory_equal(e.msg, "pre: mmm", 8);
	assert_int_equal(e.msg[PB_ERR_MAX - 2], 'm');
	assert_int_equal(e.code, EX_DATAERR);
}

static void t_wrap_long_prefix(void **state)
{
	char big[3 * PB_ERR_MAX];
	struct pb_err e;
	size_t i;

	(void)state;
	memset(big, 'p', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	pb_fail(&e, EX_CONFIG, "the reason");
	assert_int_equal(pb_wrap(&e, "%s", big), -1);
	/* Only the prefix fits; the message stays one bounded line. */
	assert_int_equal(strlen(e.msg), PB_ERR_MAX - 1);
	for (i = 0; i < PB_ERR_MAX - 1; i++)
		assert_int_equal(e.msg[i], 'p');
	assert_int_equal(e.code, EX_CONFIG);
}

static void t_wrap_prefix_at_limit(void **state)
{
	char pre[PB_ERR_MAX - 4];
	struct pb_err e;

	(void)state;
	/* "<507 q>: " leaves room for two bytes of the old message. */
	memset(pre, 'q', sizeof(pre) - 1);
	pre[sizeof(pre) - 1] = '\0';
	pb_fail(&e, EX_DATAERR, "abcdef");
	assert_int_equal(pb_wrap(&e, "%s", pre), -1);
	assert_int_equal(strlen(e.msg), PB_ERR_MAX - 1);
	assert_memory_equal(e.msg + PB_ERR_MAX - 6, "q: ab", 5);
}

static void t_wrap_repeated(void **state)
{
	struct pb_err e;
	int i;

	(void)state;
	pb_fail(&e, EX_DATAERR, "root cause");
	for (i = 0; i < 200; i++)
		assert_int_equal(pb_wrap(&e, "level %d", i), -1);
	assert_int_equal(strlen(e.msg), PB_ERR_MAX - 1);
	assert_memory_equal(e.msg, "level 199: level 198: ", 22);
	assert_int_equal(e.code, EX_DATAERR);
}

static void t_wrap_scrubs(void **state)
{
	struct pb_err e;

	(void)state;
	pb_fail(&e, EX_DATAERR, "why");
	assert_int_equal(pb_wrap(&e, "'%s'", "evil\nSubject: x"), -1);
	assert_string_equal(e.msg, "'evil?Subject: x': why");
}

static void mask(const char *in, const char *want)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "%s", in);
	pb_mask_credentials(buf);
	assert_string_equal(buf, want);
}

/* A password written in a URL never reaches a message. */
static void t_mask_credentials(void **state)
{
	struct pb_err err = { 0, "" };

	(void)state;
	mask("smtp://u:pw-secret@host:587", "smtp://u:***@host:587");
	mask("'smtps://perfbot:hunter2@mail.example.test/x': refused",
	     "'smtps://perfbot:***@mail.example.test/x': refused");
	mask("imap://a%40b:p%3Aw@h/INBOX and http://x:yyyy@z/",
	     "imap://a%40b:***@h/INBOX and http://x:***@z/");
	mask("smtp://u:p@h", "smtp://u:*@h");
	mask("smtp://u:p@ss@h", "smtp://u:***@h");
	mask("smtp://user@host:25", "smtp://user@host:25");
	mask("smtp://host:25/x@y", "smtp://host:25/x@y");
	mask("no url: a:b@c", "no url: a:b@c");
	mask("smtp://:pw@h", "smtp://:**@h");
	pb_fail(&err, EX_CONFIG, "smtp.url: '%s': not smtp or smtps",
		"ftp://bot:s3cr3t@mail.example.test");
	assert_null(strstr(err.msg, "s3cr3t"));
	assert_string_equal(err.msg, "smtp.url: 'ftp://bot:***@mail.example."
			    "test': not smtp or smtps");
	pb_wrap(&err, "config 'smtp://x:another-one@h'");
	assert_null(strstr(err.msg, "another-one"));
}

static void t_clear(void **state)
{
	struct pb_err e;

	(void)state;
	pb_fail(&e, EX_IOERR, "something");
	pb_err_clear(&e);
	assert_int_equal(e.code, 0);
	assert_string_equal(e.msg, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_fail_formats),
		cmocka_unit_test(t_fail_null_err),
		cmocka_unit_test(t_fail_scrubs_control),
		cmocka_unit_test(t_fail_keeps_utf8),
		cmocka_unit_test(t_fail_truncates),
		cmocka_unit_test(t_wrap_prefix),
		cmocka_unit_test(t_wrap_empty_message),
		cmocka_unit_test(t_wrap_long_message),
		cmocka_unit_test(t_wrap_long_prefix),
		cmocka_unit_test(t_wrap_prefix_at_limit),
		cmocka_unit_test(t_wrap_repeated),
		cmocka_unit_test(t_wrap_scrubs),
		cmocka_unit_test(t_mask_credentials),
		cmocka_unit_test(t_clear),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
