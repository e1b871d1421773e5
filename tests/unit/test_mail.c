// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for mail composition (src/compose/mail.c) and the helper
 * it depends on (text_scrub_line, src/util/text.c): the headers, 8bit
 * against quoted-printable, RFC 2047 and folding, header injection
 * through every field that reaches a header (checked by parsing the
 * output back with GMime), attachments, the mbox format (mboxrd
 * quoting), the envelope and the composed mail.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <cmocka.h>
#include <gmime/gmime.h>

#include "perfbot/compose/mail.h"
#include "perfbot/util/text.h"

#define EVIL "Bcc: evil@example.test"
#define BODY "Hello,\n\nkernel test robot noticed a 10.5% improvement.\n"

/* A mail with every field set; tests change what they look at. */
struct fixture {
	struct mail m;
	struct addrlist to, cc;
	struct strbuf out;
	GMimeMessage *msg;	/* the output parsed back */
	char *tmp;
};

static int group_setup(void **state)
{
	(void)state;
	g_mime_init();
	return 0;
}

static int group_teardown(void **state)
{
	(void)state;
	g_mime_shutdown();
	return 0;
}

/* 'l' made of the strings up to NULL. */
static void set_list(struct addrlist *l, ...)
{
	const char *s;
	va_list ap;

	addrlist_release(l);
	va_start(ap, l);
	while ((s = va_arg(ap, const char *)))
		assert_int_equal(addrlist_add(l, s), 0);
	va_end(ap);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	sb_init(&f->out, SB_DEFAULT_MAX);
	f->m.from = "perfbot <perfbot@example.test>";
	f->m.to = &f->to;
	f->m.cc = &f->cc;
	set_list(&f->to, "Alice Example <alice@example.test>", NULL);
	set_list(&f->cc, "lkp@example.test", "Bob <bob@example.test>", NULL);
	f->m.subject = "[linus:master] [pipe] f017b0a495: "
		       "hackbench.throughput 10.5% improvement";
	f->m.body = BODY;
	f->m.message_id = "202311142213.6e78241a-perfbot@example.test";
	f->m.date = 1700000000;	/* Tue, 14 Nov 2023 22:13:20 +0000 */
	f->m.in_reply_to = "<parent@example.test>";
	f->m.references = "<root@example.test> <parent@example.test>";
	f->m.auto_submitted = "auto-generated";
	f->m.report_id = "hackbench-f017b0a495";
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	if (f->msg)
		g_object_unref(f->msg);
	addrlist_release(&f->to);
	addrlist_release(&f->cc);
	sb_release(&f->out);
	free(f->tmp);
	free(f);
	return 0;
}

/* Compose f->m into f->out (which must succeed) and parse it back. */
static const char *compose(struct fixture *f)
{
	struct pb_err err = { 0, "" };
	GMimeStream *stream;
	GMimeParser *parser;

	sb_reset(&f->out);
	if (mail_compose(&f->m, &f->out, &err))
		fail_msg("mail_compose: %s", err.msg);
	if (f->msg)
		g_object_unref(f->msg);
	stream = g_mime_stream_mem_new_with_buffer(f->out.buf, f->out.len);
	parser = g_mime_parser_new_with_stream(stream);
	f->msg = g_mime_parser_construct_message(parser, NULL);
	g_object_unref(parser);
	g_object_unref(stream);
	if (!f->msg)
		fail_msg("GMime cannot parse the output:\n%s", sb_str(&f->out));
	return sb_str(&f->out);
}

/* The header block of the raw output (up to the first empty line). */
static char *header_block(const char *text)
{
	const char *end = strstr(text, "\n\n");

	assert_non_null(end);
	return strndup(text, (size_t)(end - text) + 1);
}

/* The raw header line 'name: ...' (first line only), or NULL. */
static char *raw_header(struct fixture *f, const char *name)
{
	char *block = header_block(sb_str(&f->out)), *line, *save = NULL;
	size_t n = strlen(name);
	char *found = NULL;

	for (line = strtok_r(block, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save))
		if (!strncasecmp(line, name, n) && line[n] == ':')
			found = strdup(line);
	free(block);
	free(f->tmp);
	f->tmp = found;
	return found;
}

static void assert_raw_header(struct fixture *f, const char *line)
{
	const char *colon = strchr(line, ':');
	char name[64];

	assert_non_null(colon);
	assert_true((size_t)(colon - line) < sizeof(name));
	memcpy(name, line, (size_t)(colon - line));
	name[colon - line] = '\0';
	if (!raw_header(f, name))
		fail_msg("no '%s' header in:\n%s", name, sb_str(&f->out));
	assert_string_equal(f->tmp, line);
}

/* The decoded content of a leaf part. */
static char *part_text(GMimeObject *obj)
{
	GMimeDataWrapper *w;
	GMimeStream *mem;
	GByteArray *ba;
	char *s;

	assert_true(GMIME_IS_PART(obj));
	w = g_mime_part_get_content(GMIME_PART(obj));
	assert_non_null(w);
	mem = g_mime_stream_mem_new();
	assert_true(g_mime_data_wrapper_write_to_stream(w, mem) >= 0);
	ba = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	s = strndup((const char *)ba->data, ba->len);
	g_object_unref(mem);
	return s;
}

/* The first part of a multipart decodes to 'want'. */
static void assert_body_part0(struct fixture *f, const char *want)
{
	GMimeObject *top = g_mime_message_get_mime_part(f->msg);
	char *got = part_text(g_mime_multipart_get_part(GMIME_MULTIPART(top),
							 0));

	assert_string_equal(got, want);
	free(got);
}

static void assert_body(struct fixture *f, const char *want)
{
	char *got = part_text(g_mime_message_get_mime_part(f->msg));

	assert_string_equal(got, want);
	free(got);
}

/* No header named 'name' anywhere: message or top part, raw or parsed. */
static void assert_no_header(struct fixture *f, const char *name)
{
	GMimeHeaderList *hl;
	int i;

	assert_null(raw_header(f, name));
	hl = g_mime_object_get_header_list(GMIME_OBJECT(f->msg));
	for (i = 0; i < g_mime_header_list_get_count(hl); i++)
		if (!strcasecmp(g_mime_header_get_name(
				g_mime_header_list_get_header_at(hl, i)), name))
			fail_msg("header '%s' in:\n%s", name, sb_str(&f->out));
	hl = g_mime_object_get_header_list(g_mime_message_get_mime_part(
		f->msg));
	for (i = 0; i < g_mime_header_list_get_count(hl); i++)
		if (!strcasecmp(g_mime_header_get_name(
				g_mime_header_list_get_header_at(hl, i)), name))
			fail_msg("part header '%s' in:\n%s", name,
				 sb_str(&f->out));
}

/*
 * The raw header block holds exactly these fields, in this order (each
 * field one line or folded with leading white space): no field was added
 * and the block did not end early.
 */
static void assert_header_names(struct fixture *f, const char *const *names)
{
	char *block = header_block(sb_str(&f->out)), *line, *save = NULL;
	size_t i = 0, n;

	for (line = strtok_r(block, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (*line == ' ' || *line == '\t')
			continue;
		if (!names[i])
			fail_msg("extra header line '%s'", line);
		n = strlen(names[i]);
		if (strncmp(line, names[i], n) || line[n] != ':')
			fail_msg("header line '%s', expected '%s:'", line,
				 names[i]);
		i++;
	}
	free(block);
	if (names[i])
		fail_msg("missing header '%s'", names[i]);
}

static const char *const all_headers[] = {
	"Date", "From", "Subject", "To", "Cc", "Message-Id", "In-Reply-To",
	"References", "Auto-Submitted", "X-Auto-Response-Suppress",
	"X-Perfbot-Report", "MIME-Version", "Content-Type",
	"Content-Transfer-Encoding", "Content-Disposition", NULL,
};

/* ======================= headers ======================= */

static void t_headers(void **state)
{
	struct fixture *f = *state;
	const char *text = compose(f);

	assert_header_names(f, all_headers);
	assert_raw_header(f, "Date: Tue, 14 Nov 2023 22:13:20 +0000");
	assert_raw_header(f, "From: perfbot <perfbot@example.test>");
	assert_raw_header(f, "To: Alice Example <alice@example.test>");
	assert_raw_header(f, "Cc: lkp@example.test, Bob <bob@example.test>");
	assert_raw_header(f, "Message-Id: "
			  "<202311142213.6e78241a-perfbot@example.test>");
	assert_raw_header(f, "MIME-Version: 1.0");
	assert_raw_header(f, "Content-Type: text/plain; charset=utf-8");
	assert_raw_header(f, "Content-Transfer-Encoding: 8bit");
	assert_raw_header(f, "Content-Disposition: inline");
	assert_no_header(f, "Bcc");
	/* LF line ends only */
	assert_null(strchr(text, '\r'));
	/* the body follows the empty line unchanged */
	assert_string_equal(strstr(text, "\n\n") + 2, BODY);
	assert_body(f, BODY);
	assert_string_equal(g_mime_message_get_subject(f->msg), f->m.subject);
	assert_string_equal(g_mime_message_get_message_id(f->msg),
			    f->m.message_id);
}

static void t_thread_headers(void **state)
{
	struct fixture *f = *state;

	compose(f);
	assert_raw_header(f, "In-Reply-To: <parent@example.test>");
	assert_raw_header(f, "References: <root@example.test> "
			  "<parent@example.test>");
	assert_raw_header(f, "Auto-Submitted: auto-generated");
	assert_raw_header(f, "X-Auto-Response-Suppress: All");
	assert_raw_header(f, "X-Perfbot-Report: hackbench-f017b0a495");
}

/* Unset optional fields leave no header; X-Auto-Response-Suppress stays. */
static void t_optional_headers_absent(void **state)
{
	struct fixture *f = *state;
	static const char *const names[] = {
		"Date", "From", "Subject", "To", "Cc", "Message-Id",
		"X-Auto-Response-Suppress", "MIME-Version", "Content-Type",
		"Content-Transfer-Encoding", "Content-Disposition", NULL,
	};

	f->m.in_reply_to = NULL;
	f->m.references = NULL;
	f->m.auto_submitted = NULL;
	f->m.report_id = NULL;
	compose(f);
	assert_header_names(f, names);
	assert_raw_header(f, "X-Auto-Response-Suppress: All");
	assert_no_header(f, "In-Reply-To");
	assert_no_header(f, "References");
	assert_no_header(f, "Auto-Submitted");
	assert_no_header(f, "X-Perfbot-Report");
}

/* ======================= encodings ======================= */

static char *line_of(size_t n, char c)
{
	char *s = malloc(n + 2);

	assert_non_null(s);
	memset(s, c, n);
	s[n] = '\n';
	s[n + 1] = '\0';
	return s;
}

/* A line of exactly 998 octets still goes as 8bit. */
static void t_body_998_is_8bit(void **state)
{
	struct fixture *f = *state;
	char *body = line_of(998, 'x');

	f->m.body = body;
	compose(f);
	assert_raw_header(f, "Content-Transfer-Encoding: 8bit");
	assert_body(f, body);
	free(body);
}

/* 999 octets do not fit SMTP: quoted-printable, decoding back intact. */
static void t_body_long_line_qp(void **state)
{
	struct fixture *f = *state;
	char *body = line_of(999, 'y');
	char *block;
	const char *text, *p, *nl;

	f->m.body = body;
	text = compose(f);
	assert_raw_header(f, "Content-Transfer-Encoding: quoted-printable");
	/* no line of the output is longer than 998 octets (76 for QP) */
	for (p = text; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		assert_true(nl - p <= 998);
		if (!*nl)
			break;
	}
	block = header_block(text);
	assert_non_null(strstr(block, "Content-Type: text/plain; "
				      "charset=utf-8"));
	free(block);
	assert_body(f, body);
	free(body);
}

/* A bare CR cannot travel as 8bit: quoted-printable, decoding back. */
static void t_body_cr_qp(void **state)
{
	struct fixture *f = *state;
	static const char body[] = "progress 10%\rprogress 20%\nend\n";

	f->m.body = body;
	compose(f);
	assert_raw_header(f, "Content-Transfer-Encoding: quoted-printable");
	assert_body(f, body);
}

/* UTF-8 in the body is fine as 8bit. */
static void t_body_utf8_8bit(void **state)
{
	struct fixture *f = *state;
	static const char body[] = "Gr\xc3\xbc\xc3\x9f""e, 5000 \xc2\xb1  3%\n";

	f->m.body = body;
	compose(f);
	assert_raw_header(f, "Content-Transfer-Encoding: 8bit");
	assert_body(f, body);
}

/* A non-ASCII subject is RFC 2047 encoded; the header block stays ASCII. */
static void t_subject_rfc2047(void **state)
{
	struct fixture *f = *state;
	static const char subject[] =
		"R\xc3\xa9gression de 10% \xe2\x80\x94 hackbench";
	char *block;
	const char *p;

	f->m.subject = subject;
	compose(f);
	assert_non_null(raw_header(f, "Subject"));
	assert_non_null(strcasestr(f->tmp, "=?utf-8?"));
	block = header_block(sb_str(&f->out));
	for (p = block; *p; p++)
		assert_true((unsigned char)*p < 0x80);
	free(block);
	assert_string_equal(g_mime_message_get_subject(f->msg), subject);
}

/* A non-ASCII display name is encoded too, and the address survives. */
static void t_name_rfc2047(void **state)
{
	struct fixture *f = *state;
	InternetAddressList *to;
	InternetAddress *a;

	set_list(&f->to, "J\xc3\xb6rg M\xc3\xbcller <jm@example.test>", NULL);
	compose(f);
	assert_non_null(raw_header(f, "To"));
	assert_non_null(strstr(f->tmp, "=?"));
	to = g_mime_message_get_addresses(f->msg, GMIME_ADDRESS_TYPE_TO);
	assert_int_equal(internet_address_list_length(to), 1);
	a = internet_address_list_get_address(to, 0);
	assert_string_equal(internet_address_get_name(a),
			    "J\xc3\xb6rg M\xc3\xbcller");
	assert_string_equal(internet_address_mailbox_get_addr(
		INTERNET_ADDRESS_MAILBOX(a)), "jm@example.test");
}

/* A long subject is folded (continuation lines) and unfolds back. */
static void t_subject_folded(void **state)
{
	struct fixture *f = *state;
	static const char subject[] =
		"[linux-next:master] [mm/page_alloc] 0123456789: "
		"will-it-scale.per_process_ops 12.3% regression on "
		"lkp-icl-2sp2 with mode process, nr_task 100%, test "
		"page_fault2, cpufreq_governor performance and more words";
	char *block, *line, *save = NULL;
	int in_subject = 0, lines = 0;

	assert_true(strlen(subject) > 200);
	f->m.subject = subject;
	compose(f);
	block = header_block(sb_str(&f->out));
	for (line = strtok_r(block, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "Subject:", 8))
			in_subject = 1;
		else if (*line != ' ' && *line != '\t')
			in_subject = 0;
		if (in_subject) {
			lines++;
			assert_true(strlen(line) <= 78);
		}
	}
	free(block);
	assert_true(lines >= 3);
	assert_string_equal(g_mime_message_get_subject(f->msg), subject);
}

/* ======================= header injection ======================= */

/*
 * A CR/LF (or an empty line) followed by "Bcc: ..." in any field that
 * ends up in a header must neither add a Bcc header nor end the header
 * block early: the fields are the same as without it and the body is
 * unchanged.
 */
/* Whether 'addr' is a recipient in 'list', groups included. */
static int has_addr(InternetAddressList *list, const char *addr)
{
	InternetAddress *a;
	int i;

	for (i = 0; list && i < internet_address_list_length(list); i++) {
		a = internet_address_list_get_address(list, i);
		if (INTERNET_ADDRESS_IS_GROUP(a) &&
		    has_addr(internet_address_group_get_members(
				INTERNET_ADDRESS_GROUP(a)), addr))
			return 1;
		if (INTERNET_ADDRESS_IS_MAILBOX(a) &&
		    !strcasecmp(internet_address_mailbox_get_addr(
				INTERNET_ADDRESS_MAILBOX(a)), addr))
			return 1;
	}
	return 0;
}

static void check_no_injection(struct fixture *f)
{
	InternetAddressList *bcc;
	int t;

	compose(f);
	assert_no_header(f, "Bcc");
	bcc = g_mime_message_get_addresses(f->msg, GMIME_ADDRESS_TYPE_BCC);
	assert_int_equal(internet_address_list_length(bcc), 0);
	/* nor does the address become a recipient or a sender */
	for (t = GMIME_ADDRESS_TYPE_SENDER; t <= GMIME_ADDRESS_TYPE_BCC; t++)
		assert_false(has_addr(g_mime_message_get_addresses(f->msg,
			(GMimeAddressType)t), "evil@example.test"));
	assert_header_names(f, all_headers);
	assert_body(f, BODY);
	assert_string_equal(strstr(sb_str(&f->out), "\n\n") + 2, BODY);
}

static void t_inject_subject(void **state)
{
	struct fixture *f = *state;
	static const char *const evil[] = {
		"hi\r\n" EVIL, "hi\n" EVIL, "hi\r" EVIL, "hi\n\n" EVIL,
		"hi\r\n\r\n" EVIL "\r\n\r\nfake body", "\n" EVIL,
	};
	size_t i;

	for (i = 0; i < sizeof(evil) / sizeof(evil[0]); i++) {
		f->m.subject = evil[i];
		check_no_injection(f);
		/* the text stays, on one line */
		assert_null(strpbrk(g_mime_message_get_subject(f->msg),
				    "\r\n"));
		assert_non_null(strstr(g_mime_message_get_subject(f->msg),
				       EVIL));
	}
}

static void t_inject_display_name(void **state)
{
	struct fixture *f = *state;
	static const char *const evil[] = {
		"Alice\r\n" EVIL " <alice@example.test>",
		"Alice\n\n" EVIL " <alice@example.test>",
		"\"Alice\r\n" EVIL "\" <alice@example.test>",
	};
	size_t i;

	for (i = 0; i < sizeof(evil) / sizeof(evil[0]); i++) {
		set_list(&f->to, evil[i], NULL);
		check_no_injection(f);
	}
	/* in Cc and From too */
	set_list(&f->to, "alice@example.test", NULL);
	set_list(&f->cc, "Bob\r\n" EVIL " <bob@example.test>", NULL);
	check_no_injection(f);
	f->m.from = "perfbot\n\n" EVIL " <perfbot@example.test>";
	check_no_injection(f);
}

static void t_inject_message_id(void **state)
{
	struct fixture *f = *state;

	f->m.message_id = "abc@example.test\r\n" EVIL;
	check_no_injection(f);
	f->m.message_id = "abc@example.test\n\n" EVIL;
	check_no_injection(f);
}

static void t_inject_report_id(void **state)
{
	struct fixture *f = *state;

	f->m.report_id = "r1\r\n" EVIL;
	check_no_injection(f);
	f->m.report_id = "r1\n\n" EVIL "\n\nfake body";
	check_no_injection(f);
	assert_non_null(raw_header(f, "X-Perfbot-Report"));
	assert_null(strpbrk(f->tmp, "\r"));
}

static void t_inject_thread_headers(void **state)
{
	struct fixture *f = *state;

	f->m.in_reply_to = "<p@example.test>\r\n" EVIL;
	f->m.references = "<r@example.test>\n\n" EVIL;
	f->m.auto_submitted = "auto-generated\n" EVIL;
	check_no_injection(f);
}

/* ======================= attachments ======================= */

static void t_attachment(void **state)
{
	struct fixture *f = *state;
	static const char job[] = "suite: hackbench\ntestcase: hackbench\n"
				  "nr_threads: 800%\n";
	struct attachment att[] = {
		{ "job.yaml", "text/plain", job, sizeof(job) - 1 },
	};
	GMimeObject *top, *part;
	GMimeContentType *ct;
	char *text;

	f->m.att = att;
	f->m.natt = 1;
	compose(f);
	top = g_mime_message_get_mime_part(f->msg);
	assert_true(GMIME_IS_MULTIPART(top));
	ct = g_mime_object_get_content_type(top);
	assert_string_equal(g_mime_content_type_get_media_type(ct),
			    "multipart");
	assert_string_equal(g_mime_content_type_get_media_subtype(ct),
			    "mixed");
	assert_int_equal(g_mime_multipart_get_count(GMIME_MULTIPART(top)), 2);

	/* the body first, inline */
	part = g_mime_multipart_get_part(GMIME_MULTIPART(top), 0);
	text = part_text(part);
	assert_string_equal(text, BODY);
	free(text);
	assert_string_equal(g_mime_object_get_disposition(part), "inline");

	/* then the attachment, text/plain, named, decoding to the data */
	part = g_mime_multipart_get_part(GMIME_MULTIPART(top), 1);
	ct = g_mime_object_get_content_type(part);
	assert_string_equal(g_mime_content_type_get_media_type(ct), "text");
	assert_string_equal(g_mime_content_type_get_media_subtype(ct),
			    "plain");
	assert_string_equal(g_mime_object_get_disposition(part),
			    "attachment");
	assert_string_equal(g_mime_part_get_filename(GMIME_PART(part)),
			    "job.yaml");
	text = part_text(part);
	assert_string_equal(text, job);
	free(text);
	assert_no_header(f, "Bcc");
}

/* The boundary of the composed multipart, from its Content-Type. */
static const char *boundary_of(struct fixture *f)
{
	GMimeObject *top = g_mime_message_get_mime_part(f->msg);

	assert_true(GMIME_IS_MULTIPART(top));
	return g_mime_multipart_get_boundary(GMIME_MULTIPART(top));
}

/* Parts of the message: count, and no text/html among them. */
static void assert_parts(struct fixture *f, int want)
{
	GMimeObject *top = g_mime_message_get_mime_part(f->msg);
	int i, n = g_mime_multipart_get_count(GMIME_MULTIPART(top));

	assert_int_equal(n, want);
	for (i = 0; i < n; i++) {
		GMimeObject *p = g_mime_multipart_get_part(
			GMIME_MULTIPART(top), i);
		GMimeContentType *ct = g_mime_object_get_content_type(p);

		assert_string_equal(g_mime_content_type_get_media_subtype(ct),
				    "plain");
	}
}

/* Without SOURCE_DATE_EPOCH: 96 random bits, new for every mail. */
static void t_boundary_random(void **state)
{
	struct fixture *f = *state;
	static const char job[] = "testcase: hackbench\n";
	struct attachment att[] = {
		{ "job.yaml", "text/plain", job, sizeof(job) - 1 },
	};
	char first[64];
	size_t i;

	unsetenv("SOURCE_DATE_EPOCH");
	f->m.att = att;
	f->m.natt = 1;
	compose(f);
	snprintf(first, sizeof(first), "%s", boundary_of(f));
	assert_int_equal(strlen(first), 10 + 24);
	assert_int_equal(strncmp(first, "=-perfbot-", 10), 0);
	for (i = 10; first[i]; i++)
		assert_non_null(strchr("0123456789abcdef", first[i]));
	compose(f);	/* the same mail, the same Message-ID */
	assert_string_not_equal(boundary_of(f), first);
}

/*
 * A line "--<boundary>" in the body or an attachment (a note, a job.yaml
 * string) would close the text part and open one of the attacker's: the
 * boundary is checked against every part and chosen again. With
 * SOURCE_DATE_EPOCH the first boundary tried is known, so the test can
 * plant it.
 */
static void t_boundary_collision(void **state)
{
	struct fixture *f = *state;
	static const char inject_fmt[] = "Hello,\n\n--%s\nContent-Type: "
		"text/html\n\n<b>injected</b>\n--%s\n";
	struct attachment att[] = {
		{ "job.yaml", "text/plain", "x: 1\n", 5 },
		{ "reproduce", "text/plain", "true\n", 5 },
	};
	char known[64], body[256], job[256];

	setenv("SOURCE_DATE_EPOCH", "1739548080", 1);
	f->m.att = att;
	f->m.natt = 2;
	compose(f);
	snprintf(known, sizeof(known), "%s", boundary_of(f));
	assert_parts(f, 3);
	/* in the body */
	snprintf(body, sizeof(body), inject_fmt, known, known);
	f->m.body = body;
	compose(f);
	assert_string_not_equal(boundary_of(f), known);
	assert_null(strstr(boundary_of(f), known));
	assert_parts(f, 3);
	assert_body_part0(f, body);
	/* in an attachment */
	f->m.body = BODY;
	snprintf(job, sizeof(job), "cmd: |\n  --%s\n  Content-Type: "
		 "text/html\n", known);
	att[1].data = job;
	att[1].len = strlen(job);
	compose(f);
	assert_string_not_equal(boundary_of(f), known);
	assert_parts(f, 3);
	unsetenv("SOURCE_DATE_EPOCH");
}

/* Two attachments, one with a line too long for 8bit. */
static void t_attachments_two(void **state)
{
	struct fixture *f = *state;
	char *config = line_of(2000, 'c');
	static const char job[] = "suite: hackbench\n";
	struct attachment att[] = {
		{ "job.yaml", "text/plain", job, sizeof(job) - 1 },
		{ "config-6.8.0", "text/plain", config, 2001 },
	};
	GMimeObject *top, *part;
	char *text;

	f->m.att = att;
	f->m.natt = 2;
	compose(f);
	top = g_mime_message_get_mime_part(f->msg);
	assert_true(GMIME_IS_MULTIPART(top));
	assert_int_equal(g_mime_multipart_get_count(GMIME_MULTIPART(top)), 3);
	part = g_mime_multipart_get_part(GMIME_MULTIPART(top), 2);
	assert_string_equal(g_mime_part_get_filename(GMIME_PART(part)),
			    "config-6.8.0");
	assert_int_equal(g_mime_part_get_content_encoding(GMIME_PART(part)),
			 GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE);
	text = part_text(part);
	assert_string_equal(text, config);
	free(text);
	part = g_mime_multipart_get_part(GMIME_MULTIPART(top), 1);
	assert_int_equal(g_mime_part_get_content_encoding(GMIME_PART(part)),
			 GMIME_CONTENT_ENCODING_8BIT);
	free(config);
}

/*
 * Attachment data with NUL bytes or a bare CR goes quoted-printable and
 * decodes back byte for byte. (A CRLF would come back as LF: the message
 * is written with LF line ends.)
 */
static void t_attachment_binary(void **state)
{
	struct fixture *f = *state;
	static const char data[] = "a\0b\rc\n";
	struct attachment att[] = {
		{ "trace.txt", "text/plain", data, sizeof(data) - 1 },
	};
	GMimeObject *part;
	GMimeStream *mem;
	GByteArray *ba;

	f->m.att = att;
	f->m.natt = 1;
	compose(f);
	part = g_mime_multipart_get_part(GMIME_MULTIPART(
		g_mime_message_get_mime_part(f->msg)), 1);
	assert_int_equal(g_mime_part_get_content_encoding(GMIME_PART(part)),
			 GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE);
	mem = g_mime_stream_mem_new();
	assert_true(g_mime_data_wrapper_write_to_stream(
		g_mime_part_get_content(GMIME_PART(part)), mem) >= 0);
	ba = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
	assert_int_equal(ba->len, sizeof(data) - 1);
	assert_memory_equal(ba->data, data, sizeof(data) - 1);
	g_object_unref(mem);
}

/* ======================= errors ======================= */

static void compose_fails(struct fixture *f, const char *want)
{
	struct pb_err err = { 0, "" };

	sb_reset(&f->out);
	assert_int_equal(mail_compose(&f->m, &f->out, &err), -1);
	assert_string_equal(err.msg, want);
	assert_int_not_equal(err.code, 0);
}

static void t_invalid_address(void **state)
{
	struct fixture *f = *state;

	set_list(&f->to, "not an address", NULL);
	compose_fails(f, "'not an address': not a mail address");
	set_list(&f->to, "alice@example.test", "", NULL);
	compose_fails(f, "'': not a mail address");
	set_list(&f->to, "alice@example.test", NULL);
	set_list(&f->cc, "Bob <", NULL);
	compose_fails(f, "'Bob <': not a mail address");
	set_list(&f->cc, NULL);
	f->m.from = "perfbot@";
	compose_fails(f, "'perfbot@': not a mail address");
}

/* ======================= mbox ======================= */

#define SEP_14 "From perfbot@example.test Tue Nov 14 22:13:20 2023\n"
#define SEP_5 "From perfbot@example.test Sun Nov  5 00:00:00 2023\n"

static void t_mbox_separator(void **state)
{
	struct fixture *f = *state;
	static const char msg[] = "Subject: x\n\nbody\n";

	assert_int_equal(mbox_append(&f->out, "perfbot@example.test",
				     1700000000, msg, strlen(msg)), 0);
	assert_string_equal(sb_str(&f->out), SEP_14 "Subject: x\n\nbody\n\n");
	/* a second message follows after the blank line; day < 10 */
	assert_int_equal(mbox_append(&f->out, "perfbot@example.test",
				     1699142400, msg, strlen(msg)), 0);
	assert_string_equal(sb_str(&f->out),
			    SEP_14 "Subject: x\n\nbody\n\n"
			    SEP_5 "Subject: x\n\nbody\n\n");
}

/* mboxrd: ">*From " lines get one more '>'; nothing else changes. */
static void t_mbox_quoting(void **state)
{
	struct fixture *f = *state;
	static const char msg[] =
		"Subject: x\n\n"
		"From here\n"
		">From there\n"
		">>From far\n"
		"From:no space\n"
		" From indented\n"
		"Fromage\n"
		">>> quoted\n"
		"From \n"
		"x From y\n";

	assert_int_equal(mbox_append(&f->out, "a@b", 0, msg, strlen(msg)), 0);
	assert_string_equal(sb_str(&f->out),
			    "From a@b Thu Jan  1 00:00:00 1970\n"
			    "Subject: x\n\n"
			    ">From here\n"
			    ">>From there\n"
			    ">>>From far\n"
			    "From:no space\n"
			    " From indented\n"
			    "Fromage\n"
			    ">>> quoted\n"
			    ">From \n"
			    "x From y\n"
			    "\n");
}

/* A message without a final newline still ends with one, then a blank. */
static void t_mbox_no_final_newline(void **state)
{
	struct fixture *f = *state;
	static const char msg[] = "Subject: x\n\nFrom the end";

	assert_int_equal(mbox_append(&f->out, "a@b", 0, msg, strlen(msg)), 0);
	assert_string_equal(sb_str(&f->out),
			    "From a@b Thu Jan  1 00:00:00 1970\n"
			    "Subject: x\n\n>From the end\n\n");
}

/* A composed mail round-trips: its body "From " line is quoted. */
static void t_mbox_composed(void **state)
{
	struct fixture *f = *state;
	struct strbuf mbox = STRBUF_INIT;
	const char *text;

	f->m.body = "From the kernel test robot\n";
	text = compose(f);
	assert_int_equal(mbox_append(&mbox, "perfbot@example.test",
				     f->m.date, text, strlen(text)), 0);
	assert_non_null(strstr(sb_str(&mbox),
			       "\n\n>From the kernel test robot\n\n"));
	assert_int_equal(strncmp(sb_str(&mbox), "From perfbot@example.test "
				 "Tue Nov 14 22:13:20 2023\nDate: ", 54), 0);
	sb_release(&mbox);
}

/* ======================= envelope ======================= */

/*
 * The envelope: every mailbox of To and Cc, lists and names included, by
 * its bare address, once whatever its case; a group is no recipient.
 */
static void t_envelope(void **state)
{
	struct fixture *f = *state;
	struct addrlist env = ADDRLIST_INIT;
	char *json;

	set_list(&f->to, "Alice <alice@example.test>, bob@example.test",
		 "\"Doe, John\" <jd@example.test>", NULL);
	set_list(&f->cc, "ALICE@example.test", "undisclosed-recipients:;",
		 "Bob Again <Bob@Example.test>", "carol@example.test", NULL);
	assert_int_equal(mail_envelope(&f->to, &f->cc, &env), 0);
	json = addrlist_to_json(&env);
	assert_string_equal(json, "[\"alice@example.test\","
			    "\"bob@example.test\",\"jd@example.test\","
			    "\"carol@example.test\"]");
	free(json);
	addrlist_release(&env);
	/* no list at all, or empty ones: no recipient */
	assert_int_equal(mail_envelope(NULL, NULL, &env), 0);
	set_list(&f->to, NULL);
	assert_int_equal(mail_envelope(&f->to, NULL, &env), 0);
	assert_int_equal(env.n, 0);
}

/* No To, no Cc: the headers are left out, From is still there. */
static void t_no_lists(void **state)
{
	struct fixture *f = *state;

	f->m.to = NULL;
	f->m.cc = NULL;
	compose(f);
	assert_null(raw_header(f, "To"));
	assert_null(raw_header(f, "Cc"));
	assert_non_null(raw_header(f, "From"));
}

/* A composed mail starts empty and is released back to empty. */
static void t_composed(void **state)
{
	struct composed c;

	(void)state;
	composed_init(&c);
	assert_null(c.id);
	assert_int_equal(c.rcpts.n, 0);
	assert_int_equal(c.msg.len, 0);
	c.id = strdup("x");
	c.sender = strdup("perfbot@example.test");
	assert_int_equal(addrlist_add(&c.rcpts, "a@example.test"), 0);
	assert_int_equal(sb_adds(&c.msg, "Subject: x\n\nbody\n"), 0);
	composed_release(&c);
	assert_null(c.id);
	assert_null(c.sender);
	assert_int_equal(c.rcpts.n, 0);
	assert_int_equal(c.msg.len, 0);
}

/* ======================= helpers ======================= */

static void one_line_is(const char *in, const char *want)
{
	char *s = strdup(in);

	assert_non_null(s);
	text_scrub_line(s);
	assert_string_equal(s, want);
	free(s);
}

static void t_text_scrub_line(void **state)
{
	(void)state;
	one_line_is("a\r\nb", "a  b");
	one_line_is("a\nb\rc\td", "a b c d");
	one_line_is("x\x01y\x1fz\x7f", "x y z ");
	one_line_is("\n" EVIL, " " EVIL);
	/* UTF-8 is kept as it is */
	one_line_is("R\xc3\xa9gression \xc2\xb1", "R\xc3\xa9gression \xc2\xb1");
	one_line_is("", "");
	one_line_is("plain text", "plain text");
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(t_headers),
		T(t_thread_headers),
		T(t_optional_headers_absent),
		T(t_body_998_is_8bit),
		T(t_body_long_line_qp),
		T(t_body_cr_qp),
		T(t_body_utf8_8bit),
		T(t_subject_rfc2047),
		T(t_name_rfc2047),
		T(t_subject_folded),
		T(t_inject_subject),
		T(t_inject_display_name),
		T(t_inject_message_id),
		T(t_inject_report_id),
		T(t_inject_thread_headers),
		T(t_attachment),
		T(t_attachments_two),
		T(t_boundary_random),
		T(t_boundary_collision),
		T(t_attachment_binary),
		T(t_invalid_address),
		T(t_mbox_separator),
		T(t_mbox_quoting),
		T(t_mbox_no_final_newline),
		T(t_mbox_composed),
		T(t_envelope),
		T(t_no_lists),
		T(t_composed),
		T(t_text_scrub_line),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
