// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/compose/answer.c: the "Re:" subject, the pieces
 * rendered from templates/, and the answer queued in a temporary state:
 * its threading headers (In-Reply-To, References capped at 20 ids), its
 * addressees (To the sender, Cc the report's recipients but the sender
 * and the bot, at most recipients.max_cc), Auto-Submitted, and that one
 * reply is answered once per tag. Run from the repository root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dirent.h>

#include <cmocka.h>
#include <gmime/gmime.h>

#include "perfbot/act/answers.h"
#include "perfbot/act/dispatch.h"
#include "perfbot/compose/answer.h"
#include "perfbot/util/fileio.h"
#include "perfbot/util/id.h"
#include "perfbot/parse/reply.h"
#include "perfbot/render/report.h"
#include "perfbot/state/state.h"
#include "perfbot/state/outbox.h"
#include "perfbot/state/inbox.h"
#include "perfbot/compose/thread.h"

#include "testutil.h"
#include "teststate.h"

#define SHIPPED "config/perfbot.yaml"
#define T0 1739548080	/* 2025-02-14 15:48:00 UTC */
#define REPORT_MSGID "202502141548.7c8c8447-perfbot@example.test"
#define REPORT_SUBJECT "[linux-next:master] [pipe]  f017b0a495:  " \
	"hackbench.throughput 10.5% improvement"
#define REPORT_RCPTS "[\"mirela.sandu@example.test\"," \
	"\"Jane@Example.test\",\"perf-reports@example.test\"," \
	"\"perfbot@example.test\",\"ci@example.test\"]"

struct fx {
	char dir[64];
	char path[128];		/* <dir>/perfbot.yaml */
	char db[128];		/* <dir>/perfbot.db */
	struct config cfg;
	int loaded;
	struct state *st;
	int open;
	struct reply r;
	struct thread_report tr;
	struct answer_pieces pieces;
	struct outbox_mail *out;
	size_t nout;
	struct pb_err err;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_answer");

	if (!f)
		return -1;
	tu_path(f->path, sizeof(f->path), f->dir, "perfbot.yaml");
	tu_path(f->db, sizeof(f->db), f->dir, "perfbot.db");
	if (config_load(&f->cfg, SHIPPED, &f->err) ||
	    tu_state_open(&f->st, f->db, STATE_WRITE, &f->err)) {
		fprintf(stderr, "setup: %s\n", f->err.msg);
		return -1;
	}
	f->loaded = f->open = 1;
	*state = f;
	return answer_pieces_add(&f->pieces, "First piece: I queued it.") ||
	       answer_pieces_add(&f->pieces, "Second piece.") ? -1 : 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	outbox_free(f->out, f->nout);
	reply_release(&f->r);
	thread_report_release(&f->tr);
	answer_pieces_release(&f->pieces);
	if (f->open)
		state_close(f->st);
	if (f->loaded)
		config_release(&f->cfg);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

static void load(struct fx *f, const char *yaml)
{
	tu_load_config(&f->cfg, &f->loaded, f->path, yaml, &f->err);
}

static void parse(struct fx *f, const char *raw)
{
	reply_release(&f->r);
	if (reply_parse(raw, strlen(raw), NULL, &f->r, &f->err))
		fail_msg("reply_parse: %s", f->err.msg);
}

/* The thread's report, by hand. */
static void thread(struct fx *f, const char *recipients)
{
	thread_report_release(&f->tr);
	f->tr.report_id = strdup("demo-004");
	f->tr.subject = strdup(REPORT_SUBJECT);
	f->tr.recipients = strdup(recipients);
	assert_non_null(f->tr.report_id);
	assert_non_null(f->tr.subject);
	assert_non_null(f->tr.recipients);
}

static const char reply_mail[] =
	"From: Jane Developer <Jane@Example.test>\n"
	"To: perfbot <perfbot@example.test>\n"
	"Cc: perf-reports@example.test\n"
	"Subject: RE: Re[2]: AW: " REPORT_SUBJECT "\n"
	"Date: Fri, 14 Feb 2025 16:00:00 +0000\n"
	"Message-ID: <reply-1@example.test>\n"
	"In-Reply-To: <" REPORT_MSGID ">\n"
	"References: <" REPORT_MSGID ">\n"
	"\n"
	"help\n";

/* Every queued mail, read back (kept in f, freed in teardown). */
static void queued(struct fx *f, size_t want)
{
	outbox_free(f->out, f->nout);
	f->out = NULL;
	if (state_queued(f->st, &f->out, &f->nout, &f->err))
		fail_msg("state_queued: %s", f->err.msg);
	assert_int_equal(f->nout, want);
}

static int answer(struct fx *f, const char *tag, time_t now)
{
	struct answer_thread t = {
		.message_id = f->r.message_id,
		.in_reply_to = f->r.in_reply_to,
		.references = (const char *const *)f->r.references,
		.nrefs = f->r.nrefs, .subject = f->r.subject,
		.from_addr = f->r.from_addr, .from_name = f->r.from_name,
		.report = f->tr.report_id ? &f->tr : NULL,
	};
	struct answer_mail m = { .t = &t, .tag = tag, .pieces = &f->pieces };

	memset(&f->err, 0, sizeof(f->err));
	return answers_queue(f->st, &f->cfg, &m, now, &f->err);
}

/*
 * The value of header 'name' of the message (any case), unfolded with
 * each fold read as one blank (GMime folds with "\n\t"), or NULL when the
 * header part has none; 'buf' holds it.
 */
static const char *header(const struct outbox_mail *m, const char *name,
			  char *buf, size_t len)
{
	const char *p = m->message, *end = strstr(m->message, "\n\n");
	size_t n = strlen(name), used = 0;
	char c;

	assert_non_null(end);
	while (p && p < end) {
		if (!strncasecmp(p, name, n) && p[n] == ':') {
			p += n + 1;
			while (*p == ' ')
				p++;
			for (; p < end + 1; p++) {
				if (*p == '\n' && p[1] != ' ' && p[1] != '\t')
					break;
				if (*p == '\n') {	/* a fold: one blank */
					while (p[1] == ' ' || p[1] == '\t')
						p++;
					if (used && buf[used - 1] == ' ')
						continue;
					c = ' ';
				} else {
					c = *p;
				}
				assert_true(used + 1 < len);
				buf[used++] = c;
			}
			buf[used] = '\0';
			return buf;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

static void assert_header(const struct outbox_mail *m, const char *name,
			  const char *want)
{
	char buf[8192];
	const char *got = header(m, name, buf, sizeof(buf));

	if (!got || strcmp(got, want))
		fail_msg("%s: got '%s', want '%s'", name, got ? got : "(none)",
			 want);
}

static const char *body(const struct outbox_mail *m)
{
	const char *b = strstr(m->message, "\n\n");

	assert_non_null(b);
	return b + 2;
}

/* ------------------------------------------------------------------ */
/* thread_subject (compose/thread.c)                                   */

static void subject_is(const char *in, const char *want)
{
	char *got = thread_subject(in);

	assert_non_null(got);
	if (strcmp(got, want))
		fail_msg("'%s': got '%s', want '%s'", in ? in : "(null)", got,
			 want);
	free(got);
}

static void t_subject(void **state)
{
	(void)state;
	subject_is("x", "Re: x");
	subject_is("Re: x", "Re: x");
	subject_is("RE: Re[2]: AW: x", "Re: x");
	subject_is("re:Re:  rE :x", "Re: x");
	subject_is("Aw: Re[12]: " REPORT_SUBJECT, "Re: " REPORT_SUBJECT);
	subject_is(NULL, "Re: ");
	subject_is("", "Re: ");
	subject_is("Re: ", "Re: ");
	subject_is("  Re:\tx", "Re: x");
}

/* Only real prefixes go: words that merely start with "re" stay. */
static void t_subject_not_a_prefix(void **state)
{
	(void)state;
	subject_is("Regression in pipe", "Re: Regression in pipe");
	subject_is("Re[x]: y", "Re: Re[x]: y");
	subject_is("Re[2 x", "Re: Re[2 x");
	subject_is("Fwd: x", "Re: Fwd: x");
	subject_is("Reply needed", "Re: Reply needed");
	subject_is("Awesome: result", "Re: Awesome: result");
}

static void t_subject_controls(void **state)
{
	(void)state;
	subject_is("a\nBcc: evil@example.test", "Re: a Bcc: evil@example.test");
	subject_is("Re: x\r\ny\tz\x01\x7f", "Re: x  y z  ");
	subject_is("caf\xc3\xa9", "Re: caf\xc3\xa9");
}

/* ------------------------------------------------------------------ */
/* answer_piece                                                        */

static void t_piece_help(void **state)
{
	struct fx *f = *state;
	json_t *ctx = json_pack("{s:[{s:s, s:s}], s:i}", "commands", "usage",
				"retest [RUNS]", "summary", "run the job again",
				"max_runs", 17);
	char *out = NULL;

	assert_int_equal(answer_piece(&f->cfg, "help", ctx, &out, &f->err), 0);
	assert_non_null(out);
	assert_non_null(strstr(out, "Commands I understand, one per line"));
	assert_non_null(strstr(out, "  - retest [RUNS]: run the job again\n"));
	assert_non_null(strstr(out, "up to 17 more times on both commits"));
	free(out);
	json_decref(ctx);
}

static void t_piece_plain(void **state)
{
	struct fx *f = *state;
	json_t *ctx = json_object();
	char *out = NULL;

	assert_int_equal(answer_piece(&f->cfg, "noreport", ctx, &out, &f->err),
			 0);
	assert_non_null(strstr(out, "I found no report of mine in this "
			       "thread"));
	free(out);
	assert_int_equal(answer_piece(&f->cfg, "refused", ctx, &out, &f->err),
			 0);
	assert_non_null(strstr(out, "I take commands only from the people"));
	free(out);
	json_decref(ctx);
}

static void t_piece_missing(void **state)
{
	struct fx *f = *state;
	json_t *ctx = json_object();
	char *out = (char *)1;

	assert_int_equal(answer_piece(&f->cfg, "no-such-template", ctx, &out,
				      &f->err), -1);
	assert_null(out);
	assert_non_null(strstr(f->err.msg, "no-such-template.txt"));
	json_decref(ctx);
}

/* Whether 'out' holds a control character but the line feed. */
static int has_control(const char *out)
{
	const unsigned char *p;

	for (p = (const unsigned char *)out; *p; p++)
		if ((*p < 0x20 && *p != '\n') || *p == 0x7f ||
		    (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) ||
		    (*p == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 ||
						   p[2] == 0xa9)))
			return 1;
	return 0;
}

/* Whether a line of 'out' starts with 'what'. */
static int line_starts(const char *out, const char *what)
{
	const char *p = out;

	for (; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, what, strlen(what)))
			return 1;
	return 0;
}

/*
 * No value from outside brings a line or a control character into an
 * answer (issue 29 item 19): an attachment's name that held encoded
 * newlines, a commit title with ESC, BEL, BS, DEL, NEL and U+2028; only
 * perfbot's own blocks (a table) keep their lines.
 */
static void t_piece_values(void **state)
{
	struct fx *f = *state;
	json_t *ctx = json_pack("{s:b, s:b, s:b, s:s, s:s, s:s, s:s, s:b, "
				"s:s, s:s}", "landed", 1, "reverted", 0,
				"left", 0, "branch", "master", "short",
				"0123456789ab", "summary",
				"pipe: fix\x1b[31m red\x07\b\x7f\xc2\x85"
				"retest 20x\xe2\x80\xa8Hi all",
				"how", "title", "by_trailer", 0, "status",
				"fix landed\r\nretest 30x", "table",
				"  a  b\n  1  2\x1b\n");
	char *out = NULL;

	assert_non_null(ctx);
	assert_int_equal(answer_piece(&f->cfg, "tracked", ctx, &out, &f->err),
			 0);
	assert_false(has_control(out));
	assert_false(line_starts(out, "retest"));
	assert_false(line_starts(out, "Hi all"));
	assert_non_null(strstr(out, "(\"pipe: fix [31m red    retest 20x "
			       "Hi all\")"));
	assert_non_null(strstr(out, "is now \"fix landed  retest 30x\""));
	/* the context was scrubbed in place: a block keeps its lines */
	assert_string_equal(json_string_value(json_object_get(ctx, "table")),
			    "  a  b\n  1  2 \n");
	free(out);
	json_decref(ctx);

	ctx = json_pack("{s:i, s:b, s:{s:{s:s}, s:{s:s}}, s:i, s:i, s:b, "
			"s:b, s:s, s:s, s:b, s:b, s:b}", "runs", 3,
			"form_patch", 1, "commits", "head", "short",
			"f017b0a495", "base", "short", "262b2fa99c",
			"patch_bytes", 300, "hunks", 1, "one_hunk", 1,
			"attached", 1, "name", "fix.patch\r\nretest 20x\n"
			"Hi all, the fix is fine\n", "request_id", "t-1",
			"form_tree", 0, "form_commit", 0, "any_repaired", 0);
	assert_non_null(ctx);
	assert_int_equal(answer_piece(&f->cfg, "test-ack", ctx, &out, &f->err),
			 0);
	assert_false(has_control(out));
	assert_false(line_starts(out, "retest"));
	assert_false(line_starts(out, "Hi all"));
	assert_non_null(strstr(out, "attached as fix.patch  retest 20x Hi "
			       "all, the fix is fine ;"));
	free(out);
	json_decref(ctx);
}

/* templates.dir points the pieces elsewhere. */
static void t_piece_templates_dir(void **state)
{
	struct fx *f = *state;
	json_t *ctx = json_pack("{s:s}", "who", "<Jane>");
	char yaml[256], tmpl[160];
	char *out = NULL;

	snprintf(tmpl, sizeof(tmpl), "%s/hello.txt", f->dir);
	assert_int_equal(file_write_atomic(tmpl, "Hello {{who}} {{{who}}}\n",
					   24, 0644, &f->err), 0);
	snprintf(yaml, sizeof(yaml), "templates:\n  dir: \"%s\"\n", f->dir);
	load(f, yaml);
	assert_int_equal(answer_piece(&f->cfg, "hello", ctx, &out, &f->err), 0);
	assert_string_equal(out, "Hello <Jane> <Jane>\n");
	free(out);
	json_decref(ctx);
}

/* ------------------------------------------------------------------ */
/* No line of an answer is a command                                   */

/*
 * The values of an answer that carry words from outside: the line a
 * developer wrote and why it was refused, their name and address, the
 * report's subject, a metric's name (matrix.json), the command table's
 * usage and summary (the "  help" of issue 22), a retest's status. The
 * rest the bot formats itself (numbers, percentages, hex shas, the
 * table, the pieces, each rendered and checked on its own).
 */
static int outside_value(const char *name)
{
	static const char *const outside[] = { "line", "why", "sender",
		"sender_name", "report_subject", "metric", "usage", "summary",
		"status", "repo", "ref", "name", "said", "subject", "fix_named", "dup_subject", "dup_of",
		"reason", "revert_summary", "branch", "testcase", "fix",
		"link", "message_id", ".", NULL };
	const char *leaf = strrchr(name, '.');
	const char *const *o;

	leaf = leaf && leaf[1] ? leaf + 1 : name;
	for (o = outside; *o; o++)
		if (!strcmp(leaf, *o))
			return 1;
	return 0;
}

/* Set 'path' ("a.b.c") in 'ctx' to 'v' (taken), objects made on the way. */
static void set_path(json_t *ctx, const char *path, json_t *v)
{
	char key[128];
	const char *dot = strchr(path, '.');
	json_t *sub;

	if (!dot || !strcmp(path, ".")) {
		sub = json_object_get(ctx, path);
		/* "tests" and "tests.x"; a tag that is a section and a
		 * value ("{{#why}}...{{why}}") is the value */
		if (json_is_object(sub) ||
		    (json_is_string(sub) && !json_is_string(v)))
			json_decref(v);
		else
			json_object_set_new(ctx, path, v);
		return;
	}
	snprintf(key, sizeof(key), "%.*s", (int)(dot - path), path);
	sub = json_object_get(ctx, key);
	if (!json_is_object(sub)) {
		sub = json_object();
		json_object_set_new(ctx, key, sub);
	}
	set_path(sub, dot + 1, v);
}

/*
 * The context of template 'name' (and of its partials): every variable
 * it names that carries outside words set to 'value', the others to
 * "1", every section to a list of one such value (so "{{.}}" and names
 * of the outer context both resolve) or, with 'off', to false.
 */
static void tags_of(const char *name, json_t *ctx, const char *value,
		    int off, int depth)
{
	struct strbuf sb;
	char path[256], tag[128];
	const char *p, *e;
	size_t n;

	snprintf(path, sizeof(path), "templates/%s.txt", name);
	tu_read_text(path, &sb);
	for (p = sb.buf; (p = strstr(p, "{{")); p = e + 2) {
		int triple = p[2] == '{';
		char kind;

		p += 2 + triple;
		while (*p == ' ')
			p++;
		e = strstr(p, "}}");
		assert_non_null(e);
		kind = strchr("#^/!>&", *p) ? *p++ : 0;
		while (*p == ' ')
			p++;
		for (n = (size_t)(e - p); n > 0 && (p[n - 1] == ' ' ||
						    p[n - 1] == '}'); n--)
			;
		snprintf(tag, sizeof(tag), "%.*s", (int)n, p);
		if (kind == '>' && depth < 4)
			tags_of(tag, ctx, value, off, depth + 1);
		else if (kind == '#' || kind == '^')
			set_path(ctx, tag, off ? json_false() :
				 json_pack("[s]", outside_value(tag) ? value :
					   "1"));
		else if (!kind || kind == '&')
			set_path(ctx, tag, json_string(outside_value(tag) ?
						       value : "1"));
	}
	sb_release(&sb);
}

/* The line of 'text' that is a command, or NULL (and 'len' its length). */
static const char *command_line_in(const char *text, int *len)
{
	struct mail_command c;
	const char *p, *nl;

	for (p = text; *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		*len = (int)(nl ? (size_t)(nl - p) : strlen(p));
		if (command_parse_line(p, (size_t)*len, "#perfbot",
				       command_lookup, &c))
			return p;
	}
	return NULL;
}

/*
 * An answer relayed back to the bot (a list that rewrites From and drops
 * Auto-Submitted) must not command it: no line of any answer template,
 * rendered with every value that carries outside words set to something
 * a developer could write (the command words themselves), with each
 * section present and absent, reads as a command. The report layouts, its subject and the
 * reproduce script are no answers.
 */
static void t_templates_no_command(void **state)
{
	static const char *const values[] = { "help", "retest", "retest 4x",
		"#perfbot help", "#perfbot: retest 2x", "HELP", "invalid",
		"reopen", "unfix", "fix: x", "dup: <r1@x>", "set no-reminders",
		"#perfbot invalid <2> no" };
	static const char *const not_answers[] = { "report.txt",
		"report-classic.txt", "subject.txt", "reproduce.txt", NULL };
	struct fx *f = *state;
	struct dirent *d;
	DIR *dir = opendir("templates");
	size_t v, k, checked = 0;
	char name[128];
	int off, len;

	assert_non_null(dir);
	while ((d = readdir(dir))) {
		size_t n = strlen(d->d_name);

		for (k = 0; not_answers[k] && strcmp(d->d_name,
						     not_answers[k]); k++)
			;
		if (n < 5 || strcmp(d->d_name + n - 4, ".txt") ||
		    not_answers[k])
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(n - 4), d->d_name);
		for (v = 0; v < sizeof(values) / sizeof(values[0]); v++)
			for (off = 0; off < 2; off++) {
				json_t *ctx = json_object();
				char *out = NULL;
				const char *bad;

				tags_of(name, ctx, values[v], off, 0);
				if (answer_piece(&f->cfg, name, ctx, &out,
						 &f->err))
					fail_msg("%s: %s", name, f->err.msg);
				bad = command_line_in(out, &len);
				if (bad)
					fail_msg("templates/%s.txt with '%s': "
						 "a command line '%.*s'", name,
						 values[v], len, bad);
				free(out);
				json_decref(ctx);
				checked++;
			}
	}
	closedir(dir);
	/* every answer piece, the answer itself and its partials */
	assert_true(checked >= 2 * 13 * 19);
}

/* ------------------------------------------------------------------ */
/* answers_queue                                                        */

static void t_queue_headers(void **state)
{
	struct fx *f = *state;
	struct outbox_mail *m;
	char buf[512], want[256], *want_id;
	const char *b;

	parse(f, reply_mail);
	thread(f, REPORT_RCPTS);
	assert_int_equal(answer(f, "", T0), 0);
	queued(f, 1);
	m = &f->out[0];
	assert_string_equal(m->kind, "answer");
	assert_int_equal(strlen(m->id), 18);
	assert_memory_equal(m->id, "a-", 2);
	assert_string_equal(m->sender, "perfbot@example.test");
	assert_header(m, "In-Reply-To", "<reply-1@example.test>");
	assert_header(m, "References", "<" REPORT_MSGID "> "
		      "<reply-1@example.test>");
	assert_header(m, "Subject", "Re: " REPORT_SUBJECT);
	assert_header(m, "Auto-Submitted", "auto-replied");
	assert_header(m, "X-Perfbot-Report", "demo-004");
	assert_header(m, "From", "perfbot <perfbot@example.test>");
	assert_header(m, "To", "Jane Developer <jane@example.test>");
	/* The report's recipients but Jane (any case) and the bot. */
	assert_header(m, "Cc", "mirela.sandu@example.test, "
		      "perf-reports@example.test, ci@example.test");
	assert_string_equal(m->recipients, "[\"jane@example.test\","
			    "\"mirela.sandu@example.test\","
			    "\"perf-reports@example.test\","
			    "\"ci@example.test\"]");
	/* id_message_id() of the answer's id, in brackets. */
	want_id = id_message_id(m->id, T0, "example.test");
	assert_string_equal(m->message_id, want_id);
	snprintf(want, sizeof(want), "<%s>", want_id);
	free(want_id);
	assert_header(m, "Message-Id", want);
	assert_memory_equal(want, "<202502141548.", 14);
	assert_non_null(header(m, "Date", buf, sizeof(buf)));
	assert_non_null(strstr(buf, "14 Feb 2025 15:48:00"));
	b = body(m);
	assert_non_null(strstr(b, "Hi Jane Developer,\n"));
	assert_non_null(strstr(b, "First piece: I queued it.\n\nSecond "
			       "piece.\n"));
	assert_non_null(strstr(b, "perfbot performance test service"));
}

/* The answer is routed like the report: its Message-ID leads back. */
static void t_queue_routes_back(void **state)
{
	struct fx *f = *state;
	struct outbox_mail rep = { 0 };
	struct thread_report tr;
	const char *ids[1];
	char msgid[512];
	int found = 0;

	rep.id = "demo-004";
	rep.kind = "report";
	rep.message_id = REPORT_MSGID;
	rep.sender = "perfbot@example.test";
	rep.recipients = REPORT_RCPTS;
	rep.message = "Subject: x\n\nreport\n";
	rep.len = strlen(rep.message);
	assert_int_equal(state_queue(f->st, &rep, "x.yaml", NULL, NULL, REPORT_SUBJECT,
				     T0 - 60, &f->err), 0);
	parse(f, reply_mail);
	ids[0] = f->r.in_reply_to;
	assert_int_equal(state_route(f->st, ids, 1, &f->tr, &found, &f->err),
			 0);
	assert_int_equal(found, 1);
	assert_int_equal(answer(f, "", T0), 0);
	queued(f, 2);
	assert_string_equal(f->out[1].kind, "answer");
	snprintf(msgid, sizeof(msgid), "%s", f->out[1].message_id);
	ids[0] = msgid;
	assert_int_equal(state_route(f->st, ids, 1, &tr, &found, &f->err), 0);
	assert_int_equal(found, 1);
	assert_string_equal(tr.report_id, "demo-004");
	assert_string_equal(tr.subject, REPORT_SUBJECT);
	thread_report_release(&tr);
}

/*
 * References: 20 in all: their first (the thread's root), their last 18
 * and their own id.
 */
/* The report's id stays however long the chain (issue: > 19 refs). */
static void t_references_keep_report(void **state)
{
	struct fx *f = *state;
	struct strbuf raw = STRBUF_INIT;
	char got[8192];
	const char *p;
	int i, n = 0;

	assert_int_equal(sb_adds(&raw, "From: jane@example.test\nSubject: "
		"Re: x\nMessage-ID: <mine@example.test>\nIn-Reply-To: "
		"<ref-29@example.test>\nReferences: <patch-0@example.test> "
		"<" REPORT_MSGID ">"), 0);
	for (i = 0; i < 30; i++)
		assert_int_equal(sb_addf(&raw, " <ref-%02d@example.test>",
					 i), 0);
	assert_int_equal(sb_adds(&raw, "\n\nretest\n"), 0);
	parse(f, sb_str(&raw));
	thread(f, "[]");
	f->tr.message_id = strdup(REPORT_MSGID);
	assert_int_equal(answer(f, "", T0), 0);
	queued(f, 1);
	assert_non_null(header(&f->out[0], "References", got, sizeof(got)));
	{
		static const char head[] = "<patch-0@example.test> <"
			REPORT_MSGID "> <ref-13@example.test> ";

		if (strncmp(got, head, sizeof(head) - 1))
			fail_msg("'%s' does not start with '%s'", got, head);
	}
	assert_non_null(strstr(got, " <ref-29@example.test> "
			       "<mine@example.test>"));
	for (p = got; (p = strchr(p, '<')); p++)
		n++;
	assert_int_equal(n, 20);
	sb_release(&raw);
}

/*
 * A reply with In-Reply-To and no References (some clients): the chain
 * is the report and the parent, then their id.
 */
static void t_references_from_in_reply_to(void **state)
{
	struct fx *f = *state;
	char got[1024];

	parse(f, "From: jane@example.test\nSubject: Re: x\n"
		 "Message-ID: <mine@example.test>\n"
		 "In-Reply-To: <answer-1@example.test>\n\nhelp\n");
	assert_int_equal(f->r.nrefs, 0);
	thread(f, "[]");
	f->tr.message_id = strdup(REPORT_MSGID);
	assert_int_equal(answer(f, "", T0), 0);
	queued(f, 1);
	assert_non_null(header(&f->out[0], "References", got, sizeof(got)));
	assert_string_equal(got, "<" REPORT_MSGID "> <answer-1@example.test> "
			    "<mine@example.test>");
	/* the parent is the report itself: no id twice */
	reply_release(&f->r);
	parse(f, "From: jane@example.test\nSubject: Re: x\n"
		 "Message-ID: <mine2@example.test>\n"
		 "In-Reply-To: <" REPORT_MSGID ">\n\nhelp\n");
	assert_int_equal(answer(f, "", T0), 0);
	queued(f, 2);
	assert_non_null(header(&f->out[1], "References", got, sizeof(got)));
	assert_string_equal(got, "<" REPORT_MSGID "> <mine2@example.test>");
}

static void t_references_capped(void **state)
{
	struct fx *f = *state;
	struct strbuf raw = STRBUF_INIT, want = STRBUF_INIT;
	char got[8192];
	const char *p;
	int i, n = 0;

	assert_int_equal(sb_adds(&raw, "From: jane@example.test\nSubject: "
		"Re: x\nMessage-ID: <mine@example.test>\nReferences:"), 0);
	for (i = 0; i < 25; i++)
		assert_int_equal(sb_addf(&raw, " <ref-%02d@example.test>",
					 i), 0);
	assert_int_equal(sb_adds(&raw, "\n\nhelp\n"), 0);
	assert_int_equal(sb_adds(&want, "<ref-00@example.test> "), 0);
	for (i = 7; i < 25; i++)
		assert_int_equal(sb_addf(&want, "<ref-%02d@example.test> ",
					 i), 0);
	assert_int_equal(sb_adds(&want, "<mine@example.test>"), 0);
	parse(f, sb_str(&raw));
	assert_int_equal(f->r.nrefs, 25);
	thread(f, "[]");
	assert_int_equal(answer(f, "", T0), 0);
	queued(f, 1);
	assert_non_null(header(&f->out[0], "References", got, sizeof(got)));
	assert_string_equal(got, sb_str(&want));
	for (p = got; (p = strchr(p, '<')); p++)
		n++;
	assert_int_equal(n, 20);
	assert_header(&f->out[0], "In-Reply-To", "<mine@example.test>");
	sb_release(&raw);
	sb_release(&want);
}

/* No References of theirs: just their own id. */
static void t_references_none(void **state)
{
	struct fx *f = *state;

	parse(f, "From: jane@example.test\nSubject: hi\n"
	      "Message-ID: <mine@example.test>\n\nhelp\n");
	assert_int_equal(answer(f, "", T0), 0);
	queued(f, 1);
	assert_header(&f->out[0], "References", "<mine@example.test>");
	assert_header(&f->out[0], "In-Reply-To", "<mine@example.test>");
	assert_header(&f->out[0], "Subject", "Re: hi");
	assert_header(&f->out[0], "To", "jane@example.test");
	/* No report: no copies and no report header. */
	assert_null(header(&f->out[0], "Cc", (char[64]){ 0 }, 64));
	assert_null(header(&f->out[0], "X-Perfbot-Report", (char[64]){ 0 },
			   64));
	assert_string_equal(f->out[0].recipients, "[\"jane@example.test\"]");
	assert_non_null(strstr(body(&f->out[0]), "Hi,\n"));
}

static void t_cc_capped(void **state)
{
	struct fx *f = *state;

	load(f, "identity:\n  from: \"perfbot <perfbot@example.test>\"\n"
	     "recipients:\n  max_cc: 2\n");
	parse(f, reply_mail);
	thread(f, "[\"perfbot@example.test\",\"jane@example.test\","
	       "\"a@example.test\",\"b@example.test\",\"c@example.test\"]");
	assert_int_equal(answer(f, "", T0), 0);
	queued(f, 1);
	assert_header(&f->out[0], "Cc", "a@example.test, b@example.test");
	assert_string_equal(f->out[0].recipients, "[\"jane@example.test\","
			    "\"a@example.test\",\"b@example.test\"]");
}

static void t_cc_none(void **state)
{
	struct fx *f = *state;
	char buf[64];

	load(f, "recipients:\n  max_cc: 0\n");
	parse(f, reply_mail);
	thread(f, REPORT_RCPTS);
	assert_int_equal(answer(f, "", T0), 0);
	queued(f, 1);
	assert_null(header(&f->out[0], "Cc", buf, sizeof(buf)));
	assert_string_equal(f->out[0].recipients, "[\"jane@example.test\"]");
	/* The default sender when identity.from is not configured. */
	assert_string_equal(f->out[0].sender, "perfbot@localhost");
}

/*
 * One answer per (reply, tag): one due twice is queued once, and that is
 * no error (issue 29 item 16).
 */
static void t_twice(void **state)
{
	struct fx *f = *state;
	char first[64];

	parse(f, reply_mail);
	thread(f, REPORT_RCPTS);
	assert_int_equal(answer(f, "", T0), 0);
	assert_int_equal(answer(f, "", T0 + 60), 0);
	queued(f, 1);
	assert_int_equal(answer(f, NULL, T0 + 60), 0);	/* NULL is "" */
	queued(f, 1);
	assert_int_equal(answer(f, "rt-0123456789abcdef", T0 + 60), 0);
	assert_int_equal(answer(f, "rt-0123456789abcdef", T0 + 120), 0);
	queued(f, 2);
	snprintf(first, sizeof(first), "%s", f->out[0].id);
	assert_string_not_equal(first, f->out[1].id);
	assert_string_not_equal(f->out[0].message_id, f->out[1].message_id);
	/* A different reply gets an answer of its own. */
	reply_release(&f->r);
	parse(f, "From: jane@example.test\nSubject: Re: x\n"
	      "Message-ID: <reply-2@example.test>\n\nhelp\n");
	assert_int_equal(answer(f, "", T0), 0);
	queued(f, 3);
}

/* Without a Subject the report's is used, still with one "Re:". */
static void t_subject_from_report(void **state)
{
	struct fx *f = *state;

	parse(f, "From: jane@example.test\n"
	      "Message-ID: <reply-3@example.test>\n\nhelp\n");
	assert_null(f->r.subject);
	thread(f, "[]");
	free(f->tr.subject);
	f->tr.subject = strdup("Re: " REPORT_SUBJECT);
	assert_int_equal(answer(f, "", T0), 0);
	queued(f, 1);
	assert_header(&f->out[0], "Subject", "Re: " REPORT_SUBJECT);
	assert_non_null(strstr(body(&f->out[0]), "Hi,\n"));
}

/* Quotes in the display name cannot break out of the To header. */
static void t_hostile_name(void **state)
{
	struct fx *f = *state;
	InternetAddressList *l;
	char to[512];

	parse(f, "From: \"Eve \\\" <x@evil.test>, \\\\ \" <eve@example.test>\n"
	      "Subject: Re: x\nMessage-ID: <reply-4@example.test>\n\nhelp\n");
	assert_string_equal(f->r.from_addr, "eve@example.test");
	assert_int_equal(answer(f, "", T0), 0);
	queued(f, 1);
	assert_string_equal(f->out[0].recipients, "[\"eve@example.test\"]");
	assert_non_null(header(&f->out[0], "To", to, sizeof(to)));
	assert_non_null(strstr(to, "<eve@example.test>"));
	/* One address, Eve's, whatever her name holds. */
	l = internet_address_list_parse(NULL, to);
	assert_non_null(l);
	assert_int_equal(internet_address_list_length(l), 1);
	assert_string_equal(internet_address_mailbox_get_addr(
		INTERNET_ADDRESS_MAILBOX(internet_address_list_get_address(l,
									   0))),
		"eve@example.test");
	g_object_unref(l);
}

/* thread_references(): each id once, the root kept, bytes capped. */
static void t_thread_references(void **state)
{
	static const char *const dup[] = { "r@x", "a@x", "a@x", "me@x", "b@x" };
	static const char *const root_is_me[] = { "me@x", "a@x" };
	const char *many[40];
	char ids[40][220];
	char *s;
	size_t i;
	int n = 0;
	const char *p;

	(void)state;
	s = thread_references(NULL, 0, NULL, "me@x");
	assert_string_equal(s, "<me@x>");
	free(s);
	s = thread_references(dup, 5, NULL, "me@x");
	assert_string_equal(s, "<r@x> <a@x> <b@x> <me@x>");
	free(s);
	s = thread_references(root_is_me, 2, NULL, "me@x");
	assert_string_equal(s, "<a@x> <me@x>");
	free(s);
	/* 40 ids of 200 bytes: the root, the last ones, within the cap */
	for (i = 0; i < 40; i++) {
		snprintf(ids[i], sizeof(ids[i]), "%02zu-%0196d@x", i, 0);
		many[i] = ids[i];
	}
	s = thread_references(many, 40, NULL, "me@x");
	assert_true(strlen(s) <= THREAD_MAX_REFS_BYTES);
	assert_memory_equal(s, "<00-", 4);
	assert_non_null(strstr(s, "<39-"));
	assert_null(strstr(s, "<01-"));
	assert_int_equal(strcmp(s + strlen(s) - 7, " <me@x>"), 0);
	for (p = s; (p = strchr(p, '<')); p++)
		n++;
	assert_true(n > 20 / 2 && n < 20);
	free(s);
	/* 'keep' (the report) stays in a capped chain, after the root */
	s = thread_references(many, 40, ids[5], "me@x");
	assert_memory_equal(s, "<00-", 4);
	assert_non_null(strstr(s, "> <05-"));
	assert_true(strlen(s) <= THREAD_MAX_REFS_BYTES);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_subject),
		cmocka_unit_test(t_subject_not_a_prefix),
		cmocka_unit_test(t_subject_controls),
		cmocka_unit_test_setup_teardown(t_piece_help, setup, teardown),
		cmocka_unit_test_setup_teardown(t_piece_plain, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_piece_values, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_piece_missing, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_templates_no_command, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_piece_templates_dir, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_queue_headers, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_queue_routes_back, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_references_keep_report,
						setup, teardown),
		cmocka_unit_test_setup_teardown(t_references_from_in_reply_to,
						setup, teardown),
		cmocka_unit_test_setup_teardown(t_references_capped, setup,
						teardown),
		cmocka_unit_test(t_thread_references),
		cmocka_unit_test_setup_teardown(t_references_none, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_cc_capped, setup, teardown),
		cmocka_unit_test_setup_teardown(t_cc_none, setup, teardown),
		cmocka_unit_test_setup_teardown(t_twice, setup, teardown),
		cmocka_unit_test_setup_teardown(t_subject_from_report, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_hostile_name, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
