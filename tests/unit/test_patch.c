// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for the sender's patch of a reply (src/parse/patch.c,
 * quote.c and attach.c, through reply_parse()): every placement issue
 * 18 names for a pasted patch (above the command, below it, below a "--"
 * line, the signature or the quoted report, a git format-patch), the
 * damage mail clients do (a context line's blank lost or made a no-break
 * space, CRLF line ends), the attached ones (text/x-patch, text/x-diff,
 * application/octet-stream or text/plain named *.patch or *.diff or
 * holding a diff), and what is not the sender's: a quoted patch, one in
 * a forward (Gmail's, Outlook's header block, mutt's, an attached
 * message), one under an attribution quoted without marks, and a part
 * that is no patch.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "perfbot/act/dispatch.h"
#include "perfbot/parse/reply.h"

#define HDRS "From: Jane Developer <jane@example.test>\n" \
	"To: perfbot <perfbot@example.test>\n" \
	"Subject: Re: [linux-next:master] [pipe] f017b0a495: regression\n" \
	"Message-ID: <p-1@example.test>\n" \
	"In-Reply-To: <202502141548.4b086ddf7c8c8447-perfbot@example.test>\n"
#define MIXED HDRS "MIME-Version: 1.0\n" \
	"Content-Type: multipart/mixed; boundary=\"b0\"\n\n" \
	"--b0\nContent-Type: text/plain; charset=utf-8\n\n"

/* A unified diff of one hunk (with a blank context line), as git writes it. */
#define DIFF "diff --git a/fs/pipe.c b/fs/pipe.c\n" \
	"index 262b2fa..f017b0a 100644\n" \
	"--- a/fs/pipe.c\n" \
	"+++ b/fs/pipe.c\n" \
	"@@ -10,5 +10,6 @@ static int pipe_write(void)\n" \
	" \tint ret;\n" \
	" \n" \
	"+\tfile_accessed(filp);\n" \
	" \tret = 0;\n" \
	" \treturn ret;\n" \
	" }\n"

#define SHA_LINE "From 1234567890abcdef1234567890abcdef12345678 Mon Sep 17 " \
	"00:00:00 2001\n"
#define FORMAT_PATCH SHA_LINE \
	"From: Jane Developer <jane@example.test>\n" \
	"Date: Mon, 1 Dec 2026 10:00:00 +0000\n" \
	"Subject: [PATCH] pipe: update atime again\n\n" \
	"Restore it.\n\n" \
	"Signed-off-by: Jane Developer <jane@example.test>\n" \
	"---\n fs/pipe.c | 1 +\n 1 file changed, 1 insertion(+)\n\n" \
	DIFF "-- \n2.43.0\n"

static const struct reply_opts opts = { "#perfbot", command_lookup };

static int setup(void **state)
{
	struct reply *r = calloc(1, sizeof(*r));

	*state = r;
	return r ? 0 : -1;
}

static int teardown(void **state)
{
	reply_release(*state);
	free(*state);
	return 0;
}

static struct reply *parse(void **state, const char *raw)
{
	struct reply *r = *state;
	struct pb_err err = { 0, "" };

	reply_release(r);
	if (reply_parse(raw, strlen(raw), &opts, r, &err))
		fail_msg("reply_parse: %s", err.msg);
	return r;
}

/* The mail has a "test" command and the patch 'want' (NULL: none). */
static void assert_patch(const struct reply *r, const char *want)
{
	size_t i;

	for (i = 0; i < r->ncmds && r->cmds[i].kind != CMD_TEST; i++)
		;
	if (i == r->ncmds)
		fail_msg("no test command found");
	if (!want) {
		if (r->patch.text)
			fail_msg("a patch that is not the sender's:\n%s",
				 r->patch.text);
		return;
	}
	if (!r->patch.text)
		fail_msg("no patch found");
	assert_string_equal(r->patch.text, want);
	assert_int_equal(r->patch.len, strlen(want));
	assert_false(r->patch.binary);
}

/* Placements of a pasted diff: the issue's, one by one. */
static void t_inline_placements(void **state)
{
	struct reply *r;

	/* below the command */
	r = parse(state, HDRS "\nDoes this fix it?\n\ntest\n\n" DIFF);
	assert_patch(r, DIFF);
	assert_int_equal(r->patch.hunks, 1);
	assert_int_equal(r->patch.parts, 0);
	assert_int_equal(r->patch.repaired, 0);
	/* above it */
	assert_patch(parse(state, HDRS "\n" DIFF "\ntest 8x\n"), DIFF);
	assert_int_equal((*(struct reply **)state)->cmds[0].runs, 8);
	/* below a "--" line */
	assert_patch(parse(state, HDRS "\nCould you check whether the "
			   "following patch resolves it?\n\ntest\n\n--\n"
			   DIFF), DIFF);
	/* below the sender's signature */
	assert_patch(parse(state, HDRS "\ntest\n\n-- \nJane Developer\n"
			   "Kernel hacker\n\n" DIFF), DIFF);
	/* below the quoted report, bottom-posted */
	assert_patch(parse(state, HDRS "\ntest\n\nOn Fri, Feb 14, 2025 at "
			   "3:48 PM perfbot <perfbot@example.test> wrote:\n"
			   "> perfbot noticed a -18.0% regression of "
			   "aim7.jobs-per-min\n>\n> commit: c0cef30e4f\n\n"
			   DIFF), DIFF);
	/* in the middle of the sender's prose, command below it */
	assert_patch(parse(state, HDRS "\nHow about this:\n\n" DIFF
			   "\nThanks.\n\ntest\n"), DIFF);
}

/* A pasted git format-patch is taken whole, its header and trailer too. */
static void t_format_patch(void **state)
{
	struct reply *r = parse(state, HDRS "\ntest\n\n" FORMAT_PATCH);

	assert_patch(r, FORMAT_PATCH);
	/* and with the command below it, mbox-escaped */
	r = parse(state, HDRS "\n>" FORMAT_PATCH "\n#perfbot test\n");
	assert_patch(r, ">" FORMAT_PATCH);
}

/* Two diffs of the sender's text are one patch, in order. */
static void t_two_diffs(void **state)
{
#define SECOND "--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1,2 +1,2 @@\n-a\n+b\n c\n"
	struct reply *r = parse(state, HDRS "\ntest\n\n" DIFF
				"\nand also:\n\n" SECOND);

	assert_patch(r, DIFF SECOND);
	assert_int_equal(r->patch.hunks, 2);
#undef SECOND
}

/*
 * Whitespace damage: the blank of a context line lost (an empty line,
 * a tab first) or made a no-break space by an HTML mail client; each
 * given back. Trailing blanks are kept as written.
 */
static void t_whitespace_damage(void **state)
{
#define HEAD "diff --git a/fs/pipe.c b/fs/pipe.c\nindex 1..2 100644\n" \
	"--- a/fs/pipe.c\n+++ b/fs/pipe.c\n@@ -10,5 +10,6 @@\n"
	struct reply *r = parse(state, HDRS "\ntest\n\n" HEAD
				"\tint ret;\n"
				"\n"
				"+\tfile_accessed(filp);  \n"
				"\xc2\xa0\tret = 0;\n"
				" \treturn ret;\n"
				" }\n");

	assert_patch(r, HEAD
		     " \tint ret;\n"
		     " \n"
		     "+\tfile_accessed(filp);  \n"
		     " \tret = 0;\n"
		     " \treturn ret;\n"
		     " }\n");
	assert_int_equal(r->patch.repaired, 3);
	assert_int_equal(r->patch.hunks, 1);
#undef HEAD
}

/* A mail of CRLF lines (as SMTP carries it) gives a patch of LF lines. */
static void t_crlf_inline(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;

	for (p = HDRS "\ntest\n\n" DIFF; *p; p++)
		assert_int_equal(*p == '\n' ? sb_adds(&sb, "\r\n") :
				 sb_addc(&sb, *p), 0);
	assert_patch(parse(state, sb_str(&sb)), DIFF);
	sb_release(&sb);
}

/* Neither a quoted patch nor one in somebody else's mail is the sender's. */
static void t_not_the_senders(void **state)
{
	/* quoted with '>' */
	assert_patch(parse(state, HDRS "\nOn Mon, Dec 1, 2026, Dev wrote:\n"
			   "> diff --git a/x b/x\n> --- a/x\n> +++ b/x\n"
			   "> @@ -1 +1 @@\n> -a\n> +b\n\ntest\n"), NULL);
	/* Gmail's forward */
	assert_patch(parse(state, HDRS "\ntest\n\n---------- Forwarded "
			   "message ---------\nFrom: Dev <dev@example.org>\n"
			   "Date: Mon, 1 Dec 2026 at 10:00\nSubject: [PATCH] "
			   "fix\nTo: Jane <jane@example.test>\n\n" DIFF),
		     NULL);
	/* Outlook's header block */
	assert_patch(parse(state, HDRS "\ntest\n\n________________________"
			   "________\nFrom: Dev <dev@example.org>\nSent: "
			   "Monday, December 1, 2026 10:00 AM\nTo: Jane\n"
			   "Subject: fix\n\n" DIFF), NULL);
	/* "-----Original Message-----" */
	assert_patch(parse(state, HDRS "\ntest\n\n-----Original Message-----"
			   "\n" DIFF), NULL);
	/* an original quoted without marks under its attribution */
	assert_patch(parse(state, HDRS "\ntest\n\nAm 1. Dez. 2026 um 10:00 "
			   "schrieb Dev <dev@example.org>:\n\n" DIFF), NULL);
	/* a mutt forward; what follows its end line is the sender's again */
	assert_patch(parse(state, HDRS "\ntest\n\n----- Forwarded message "
			   "from Dev <dev@example.org> -----\n\n" DIFF
			   "\n----- End forwarded message -----\n"), NULL);
	assert_patch(parse(state, HDRS "\ntest\n\n----- Forwarded message "
			   "from Dev <dev@example.org> -----\n\n" FORMAT_PATCH
			   "\n----- End forwarded message -----\n\nMine:\n\n"
			   "--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1 +1 @@\n-a\n+b\n"),
		     "--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1 +1 @@\n-a\n+b\n");
	/* an attached message: not entered */
	assert_patch(parse(state, MIXED "test\n\n--b0\nContent-Type: "
			   "message/rfc822\n\nFrom: Dev <dev@example.org>\n"
			   "Subject: [PATCH] fix\nContent-Type: text/x-patch\n"
			   "\n" DIFF "\n--b0--\n"), NULL);
	/* no patch at all */
	assert_patch(parse(state, HDRS "\ntest\n"), NULL);
}

/* An attachment of 'type' named 'name' (NULL: none) holding 'body'. */
static char *attached(const char *type, const char *name, const char *cte,
		      const char *body)
{
	struct strbuf sb = STRBUF_INIT;

	assert_int_equal(sb_addf(&sb, MIXED "Would this help?\n\ntest\n\n"
				 "--b0\nContent-Type: %s%s%s%s\n"
				 "Content-Disposition: attachment%s%s%s\n"
				 "%s%s%s\n%s\n--b0--\n", type,
				 name ? "; name=\"" : "", name ? name : "",
				 name ? "\"" : "", name ? "; filename=\"" : "",
				 name ? name : "", name ? "\"" : "",
				 cte ? "Content-Transfer-Encoding: " : "",
				 cte ? cte : "", cte ? "\n" : "", body), 0);
	return sb_detach(&sb, NULL);
}

static void assert_attached(void **state, const char *type,
			    const char *name, const char *cte,
			    const char *body, const char *want)
{
	char *raw = attached(type, name, cte, body);
	struct reply *r = parse(state, raw);

	free(raw);
	assert_patch(r, want);
	if (want) {
		assert_int_equal(r->patch.parts, 1);
		if (name)
			assert_string_equal(r->patch.name, name);
	}
}

/* The attachment types and names of issue 18, and what is no patch. */
static void t_attachments(void **state)
{
	assert_attached(state, "text/x-patch", NULL, NULL, DIFF, DIFF);
	assert_attached(state, "text/x-diff", "fix.diff", NULL, DIFF, DIFF);
	assert_attached(state, "application/octet-stream", "0001-fix.patch",
			NULL, DIFF, DIFF);
	assert_attached(state, "text/plain", "fix.PATCH", NULL, DIFF, DIFF);
	/* a text file holding a diff, whatever its name */
	assert_attached(state, "text/plain", "notes.txt", NULL, DIFF, DIFF);
	assert_attached(state, "application/octet-stream", NULL, NULL, DIFF,
			DIFF);
	/* base64, as webmail sends it */
	assert_attached(state, "application/octet-stream", "fix.patch",
			"base64", "LS0tIGEveAorKysgYi94CkBAIC0xICsxIEBACi1hCitiCg==",
			"--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n");
	/* quoted-printable */
	assert_attached(state, "text/x-patch", NULL, "quoted-printable",
			"--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a=3D1\n+b=3D2\n",
			"--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a=1\n+b=2\n");
	/* not patches: a log, an image, a blob without name nor diff */
	assert_attached(state, "text/plain", "dmesg.txt", NULL,
			"[    0.000000] Linux version 6.13\n", NULL);
	assert_attached(state, "image/png", "fix.patch", "base64",
			"iVBORw0KGgo=", NULL);
	assert_attached(state, "application/octet-stream", "kconfig", NULL,
			"CONFIG_X=y\n", NULL);
}

/* CRLF line ends of an attachment become LF, only when all lines have them. */
static void t_attached_crlf(void **state)
{
	assert_attached(state, "text/x-patch", "fix.patch", "base64",
			/* "--- a/x\r\n+++ b/x\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n" */
			"LS0tIGEveA0KKysrIGIveA0KQEAgLTEgKzEgQEANCi1hDQorYg0K",
			"--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n");
	assert_attached(state, "text/x-patch", "fix.patch", "base64",
			/* "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\r\n+b\r\n" */
			"LS0tIGEveAorKysgYi94CkBAIC0xICsxIEBACi1hDQorYg0K",
			"--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\r\n+b\r\n");
}

/* An attachment that is not text: recorded as such, no bytes kept. */
static void t_attached_binary(void **state)
{
	/* "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-\0\n+b\n" */
	char *raw = attached("application/octet-stream", "fix.patch",
			     "base64", "LS0tIGEveAorKysgYi94CkBAIC0xICsxIEBAC"
			     "i0ACitiCg==");
	struct reply *r = parse(state, raw);

	free(raw);
	assert_null(r->patch.text);
	assert_true(r->patch.binary);
	assert_int_equal(r->patch.parts, 1);
}

/* Attachments win over a pasted diff; several are one patch, in order. */
static void t_attached_first(void **state)
{
	struct reply *r = parse(state, MIXED "test\n\n" DIFF "\n--b0\n"
				"Content-Type: text/x-patch; name=\"1.patch\"\n"
				"Content-Disposition: attachment; filename="
				"\"1.patch\"\n\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n"
				"-a\n+b\n\n--b0\nContent-Type: text/x-patch; "
				"name=\"2.patch\"\n\n--- a/y\n+++ b/y\n"
				"@@ -1 +1 @@\n-c\n+d\n--b0--\n");

	assert_patch(r, "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"
		     "--- a/y\n+++ b/y\n@@ -1 +1 @@\n-c\n+d\n");
	assert_int_equal(r->patch.parts, 2);
	assert_int_equal(r->patch.hunks, 2);
	assert_string_equal(r->patch.name, "1.patch");
}

/* A patch file with no hunk is kept with 0 hunks (the act step says so). */
static void t_no_hunk(void **state)
{
	struct reply *r = parse(state, MIXED "test\n\n--b0\nContent-Type: "
				"text/x-patch; name=\"x.patch\"\n\nnothing "
				"here\n--b0--\n");

	assert_patch(r, "nothing here\n");
	assert_int_equal(r->patch.hunks, 0);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(t_inline_placements),
		T(t_format_patch),
		T(t_two_diffs),
		T(t_whitespace_damage),
		T(t_crlf_inline),
		T(t_not_the_senders),
		T(t_attachments),
		T(t_attached_crlf),
		T(t_attached_binary),
		T(t_attached_first),
		T(t_no_hunk),
	};
#undef T

	return cmocka_run_group_tests(tests, NULL, NULL);
}
