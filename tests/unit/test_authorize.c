// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/poll/sender.c and the headers it reads (reply.c):
 * the envelope sender against From, and Authentication-Results of the
 * operator's MTA (only its authserv-id counts; dkim aligned with From,
 * dmarc for From, arc).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "perfbot/authorize.h"

static void parse(struct reply *r, const char *headers)
{
	char buf[4096];
	struct pb_err err = { 0, "" };
	int n = snprintf(buf, sizeof(buf), "%sMessage-ID: <x@example.test>\n"
			 "Subject: Re: r\n\nretest\n", headers);

	if (reply_parse(buf, (size_t)n, NULL, r, &err))
		fail_msg("reply_parse: %s", err.msg);
}

static void t_align(void **state)
{
	(void)state;
	assert_true(authorize_domains_align("example.test", "example.test"));
	assert_true(authorize_domains_align("EXAMPLE.test", "example.TEST"));
	assert_true(authorize_domains_align("lists.example.test", "example.test"));
	assert_true(authorize_domains_align("example.test", "mx.example.test"));
	assert_false(authorize_domains_align("badexample.test", "example.test"));
	assert_false(authorize_domains_align("example.test.evil", "example.test"));
	assert_false(authorize_domains_align("example.org", "example.test"));
	assert_false(authorize_domains_align("", "example.test"));
	assert_false(authorize_domains_align(NULL, "example.test"));
}

static void t_envelope(void **state)
{
	struct reply r;

	(void)state;
	parse(&r, "Return-Path: <Alice@Example.TEST>\n"
		  "From: Alice <alice@example.test>\n");
	assert_string_equal(r.envelope_addr, "alice@example.test");
	assert_true(authorize_aligned(&r));
	reply_release(&r);
	/* the top Return-Path is the delivering server's */
	parse(&r, "Return-Path: <mallory@evil.example>\n"
		  "Return-Path: <alice@example.test>\n"
		  "From: Alice <alice@example.test>\n");
	assert_string_equal(r.envelope_addr, "mallory@evil.example");
	assert_false(authorize_aligned(&r));
	reply_release(&r);
	parse(&r, "From: Alice <alice@example.test>\n");
	assert_null(r.envelope_addr);
	assert_false(authorize_aligned(&r));	/* unknown is not aligned */
	reply_release(&r);
	parse(&r, "Return-Path: <>\nFrom: Alice <alice@example.test>\n");
	assert_null(r.envelope_addr);
	assert_false(authorize_aligned(&r));
	reply_release(&r);
	parse(&r, "Return-Path: <bounce-1@lists.example.test>\n"
		  "From: Alice <alice@example.test>\n");
	assert_true(authorize_aligned(&r));
	reply_release(&r);
}

static int auth(const char *ar)
{
	struct reply r;
	char h[2048];
	int ok;

	snprintf(h, sizeof(h), "From: Alice <alice@example.test>\n%s", ar);
	parse(&r, h);
	ok = authorize_authenticated(&r, "mx.example.test");
	reply_release(&r);
	return ok;
}

static void t_auth_results(void **state)
{
	(void)state;
	assert_true(auth("Authentication-Results: mx.example.test;\n"
			 "\tdkim=pass (2048-bit key) header.d=example.test "
			 "header.s=s1\n"));
	assert_true(auth("Authentication-Results: MX.example.test 1; "
			 "spf=fail smtp.mailfrom=x; dkim=pass "
			 "header.i=@lists.example.test\n"));
	assert_true(auth("Authentication-Results: mx.example.test; "
			 "dmarc=pass (p=none) header.from=example.test\n"));
	assert_true(auth("Authentication-Results: mx.example.test; arc=pass "
			 "(i=2)\n"));
	/* another server's result does not count */
	assert_false(auth("Authentication-Results: evil.example; dkim=pass "
			  "header.d=example.test\n"));
	assert_false(auth("Authentication-Results: mx.example.test.evil; "
			  "dkim=pass header.d=example.test\n"));
	/* a signature of another domain, a failure, nothing */
	assert_false(auth("Authentication-Results: mx.example.test; dkim=pass "
			  "header.d=evil.example\n"));
	assert_false(auth("Authentication-Results: mx.example.test; dkim=fail "
			  "header.d=example.test\n"));
	assert_false(auth("Authentication-Results: mx.example.test; "
			  "dkim=passed header.d=example.test\n"));
	assert_false(auth("Authentication-Results: mx.example.test; none\n"));
	assert_false(auth("Authentication-Results: mx.example.test; dmarc=pass "
			  "header.from=evil.example\n"));
	assert_false(auth("Authentication-Results: mx.example.test (dkim=pass "
			  "header.d=example.test); spf=pass\n"));
	assert_false(auth(""));
	/* the second header of the MTA passes */
	assert_true(auth("Authentication-Results: mx.example.test; spf=pass\n"
			 "Authentication-Results: mx.example.test; dkim=pass "
			 "header.d=example.test\n"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_align),
		cmocka_unit_test(t_envelope),
		cmocka_unit_test(t_auth_results),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
