// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/act/scheduler.c: the exec backend (placeholders, no
 * shell, exit reasons, the timeout killing the process group, a missing
 * program), the spool backend (hostile values read back by the project's
 * YAML loader, atomic and idempotent files, unsafe request ids) and the
 * http backend against build/tools/httpd (2xx, 4xx, 5xx, no server).
 * Run from the repository root after 'make build/tools/httpd'.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "perfbot/config/config.h"
#include "perfbot/util/fileio.h"
#include "perfbot/act/scheduler.h"

#include "testutil.h"
#include "testproc.h"

#define FAKE_FARM "scripts/fake-lkp-run"
#define SHA "96f8ba3dd632aff684cc7c67d9f4af435be0341c"
#define RID "rt-0123456789abcdef"

/* A temporary directory (the spool, httpd's files, the config). */
struct fx {
	char dir[64];
	char path[128];		/* <dir>/perfbot.yaml */
	struct config cfg;
	int loaded;
	struct pb_err err;
	char why[256];
	enum sched_outcome out;
	pid_t httpd;
	struct sched_request rq;
};

static const struct sched_request rq0 = {
	RID, "jobs/hackbench-pipe.yaml", SHA, "/srv/result/hackbench/x", 4,
	"<reply-1@example.org>", "retest", NULL, NULL, NULL,
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_scheduler");

	if (!f)
		return -1;
	tu_path(f->path, sizeof(f->path), f->dir, "perfbot.yaml");
	f->rq = rq0;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	tu_httpd_stop(&f->httpd);
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

/* An exec configuration; the argv items are YAML-quoted here. */
static void load_exec(struct fx *f, int timeout, const char *const *argv)
{
	struct strbuf y = STRBUF_INIT;
	char cwd[PATH_MAX];
	const char *p, *prog = NULL;

	assert_int_equal(sb_addf(&y, "scheduler:\n  backend: exec\n  timeout: "
				 "%d\n  argv:\n", timeout), 0);
	/* a relative program is relative to the config file: make it ours */
	if (argv[0][0] != '/' && strchr(argv[0], '/') && getcwd(cwd, sizeof(cwd)))
		prog = cwd;
	for (; *argv; argv++) {
		if (prog) {
			assert_int_equal(sb_addf(&y, "    - \"%s/%s\"\n", prog,
						 *argv), 0);
			prog = NULL;
			continue;
		}
		assert_int_equal(sb_adds(&y, "    - \""), 0);
		for (p = *argv; *p; p++)
			assert_int_equal((*p == '"' || *p == '\\' ?
					  sb_addc(&y, '\\') : 0) ||
					 sb_addc(&y, *p), 0);
		assert_int_equal(sb_adds(&y, "\"\n"), 0);
	}
	load(f, sb_str(&y));
	sb_release(&y);
}

static int submit(struct fx *f)
{
	memset(&f->err, 0, sizeof(f->err));
	f->why[0] = '\0';
	return scheduler_submit(&f->cfg, &f->rq, &f->out, f->why,
				sizeof(f->why), &f->err);
}

static void assert_fails(struct fx *f, int code, const char *msg)
{
	assert_int_equal(submit(f), -1);
	if (f->err.code != code || !strstr(f->err.msg, msg))
		fail_msg("got %d '%s', want %d '...%s...'", f->err.code,
			 f->err.msg, code, msg);
}

/* ------------------------------------------------------------------ */
/* exec                                                                */

/* argv items reach the program one by one, placeholders replaced. */
static void t_exec_placeholders(void **state)
{
	struct fx *f = *state;
	char out[128], cmd[256];
	struct strbuf sb;
	const char *argv[] = {
		"/bin/sh", "-c", cmd, "sh", "{commit}", "{runs}x{runs}",
		"id={request_id} job={job}", "{result_root}/", "{unknown}",
		"{", "{{runs}}", "{job", "}", NULL,
	};

	snprintf(cmd, sizeof(cmd), "printf '%%s\\n' \"$@\" > '%s'",
		 tu_path(out, sizeof(out), f->dir, "out"));
	load_exec(f, 10, argv);
	assert_int_equal(submit(f), 0);
	assert_int_equal(f->out, SCHED_ACCEPTED);
	assert_string_equal(f->why, "");
	tu_read_text(out, &sb);
	assert_string_equal(sb_str(&sb), SHA "\n4x4\n"
			    "id=" RID " job=jobs/hackbench-pipe.yaml\n"
			    "/srv/result/hackbench/x/\n{unknown}\n{\n{4}\n"
			    "{job\n}\n");
	sb_release(&sb);
}

/* Hostile values stay one argument: no shell ever sees them. */
static void t_exec_no_shell(void **state)
{
	struct fx *f = *state;
	char out[128], pwned[128], cmd[256], root[512];
	struct strbuf sb;
	const char *argv[] = { "/bin/sh", "-c", cmd, "sh", "{result_root}",
			       NULL };

	snprintf(cmd, sizeof(cmd), "printf '%%s' \"$1\" > '%s'",
		 tu_path(out, sizeof(out), f->dir, "out"));
	tu_path(pwned, sizeof(pwned), f->dir, "pwned");
	snprintf(root, sizeof(root), "/x; touch %s $(touch %s) `touch %s` "
		 "\"q\" 'q' * \\ {commit}\nline 2", pwned, pwned, pwned);
	f->rq.result_root = root;
	load_exec(f, 10, argv);
	assert_int_equal(submit(f), 0);
	assert_int_equal(f->out, SCHED_ACCEPTED);
	tu_read_text(out, &sb);
	assert_string_equal(sb_str(&sb), root);
	assert_int_not_equal(access(pwned, F_OK), 0);
	sb_release(&sb);
}

/* The child's whole environment: PATH, HOME, LANG=C, LC_ALL=C. */
static void t_exec_minimal_env(void **state)
{
	struct fx *f = *state;
	char out[128], cmd[256];
	struct strbuf sb;
	const char *argv[] = { "/bin/sh", "-c", cmd, NULL };

	setenv("PERFBOT_SMTP_PASSWORD", "s3cret-smtp", 1);
	setenv("PERFBOT_IMAP_PASSWORD", "s3cret-imap", 1);
	setenv("HOME", "/home/perfbot-test", 1);
	snprintf(cmd, sizeof(cmd), "env | LC_ALL=C sort > '%s'",
		 tu_path(out, sizeof(out), f->dir, "env"));
	load_exec(f, 10, argv);
	assert_int_equal(submit(f), 0);
	assert_int_equal(f->out, SCHED_ACCEPTED);
	tu_read_text(out, &sb);
	assert_null(strstr(sb_str(&sb), "s3cret"));
	assert_null(strstr(sb_str(&sb), "PASSWORD"));
	assert_non_null(strstr(sb_str(&sb), "HOME=/home/perfbot-test\n"));
	assert_non_null(strstr(sb_str(&sb), "LANG=C\n"));
	assert_non_null(strstr(sb_str(&sb), "LC_ALL=C\n"));
	assert_non_null(strstr(sb_str(&sb), "PATH="));
	/* sh itself adds PWD (and maybe SHLVL, _): nothing of ours else */
	{
		const char *p = sb_str(&sb);
		int n = 0;

		for (; (p = strchr(p, '\n')); p++)
			n++;
		assert_true(n <= 7);
	}
	sb_release(&sb);
	unsetenv("PERFBOT_SMTP_PASSWORD");
	unsetenv("PERFBOT_IMAP_PASSWORD");
}

/* Exit 75 is "for now": tried again, and again, then an error. */
static void t_exec_tempfail_retried(void **state)
{
	struct fx *f = *state;
	char count[128], cmd[512];
	struct strbuf sb;
	const char *argv[] = { "/bin/sh", "-c", cmd, NULL };

	tu_path(count, sizeof(count), f->dir, "count");
	/* fails for now twice, then accepts */
	snprintf(cmd, sizeof(cmd), "echo x >> '%s'; [ $(wc -l < '%s') -ge 3 ]"
		 " || { echo 'farm busy' >&2; exit 75; }", count, count);
	load_exec(f, 10, argv);
	assert_int_equal(submit(f), 0);
	assert_int_equal(f->out, SCHED_ACCEPTED);
	tu_read_text(count, &sb);
	assert_string_equal(sb_str(&sb), "x\nx\nx\n");
	sb_release(&sb);
	/* always busy: 3 tries, then EX_TEMPFAIL saying so */
	snprintf(cmd, sizeof(cmd), "echo y >> '%s'; echo 'farm busy' >&2; "
		 "exit 75", count);
	config_release(&f->cfg);
	f->loaded = 0;
	load_exec(f, 10, argv);
	assert_fails(f, EX_TEMPFAIL, "exit 75: farm busy (tried 3 times)");
	tu_read_text(count, &sb);
	assert_string_equal(sb_str(&sb), "x\nx\nx\ny\ny\ny\n");
	sb_release(&sb);
	/* any other exit is the farm's no: not tried again */
	snprintf(cmd, sizeof(cmd), "echo z >> '%s'; exit 3", count);
	config_release(&f->cfg);
	f->loaded = 0;
	load_exec(f, 10, argv);
	assert_int_equal(submit(f), 0);
	assert_int_equal(f->out, SCHED_REJECTED);
	tu_read_text(count, &sb);
	assert_string_equal(sb_str(&sb) + 12, "z\n");
	sb_release(&sb);
}

static void t_exec_exit_reason(void **state)
{
	struct fx *f = *state;
	const char *argv[] = {
		"/bin/sh", "-c", "echo; echo '  '; printf 'farm \\033[31mbusy"
		"\\t now  \\nsecond line\\n' >&2; exit 3", NULL,
	};

	load_exec(f, 10, argv);
	assert_int_equal(submit(f), 0);
	assert_int_equal(f->out, SCHED_REJECTED);
	assert_string_equal(f->why, "exit 3: farm ?[31mbusy? now");
}

/*
 * The reason read as UTF-8: a C1 control, U+2028 and each byte of an
 * invalid sequence become '?' too; other characters are kept.
 */
static void t_exec_reason_unicode(void **state)
{
	struct fx *f = *state;
	const char *argv[] = {
		"/bin/sh", "-c", "printf 'farm\\342\\200\\250busy \\302\\205x "
		"\\377\\342\\202 \\303\\251t\\303\\251\\n' >&2; exit 3", NULL,
	};

	load_exec(f, 10, argv);
	assert_int_equal(submit(f), 0);
	assert_int_equal(f->out, SCHED_REJECTED);
	assert_string_equal(f->why, "exit 3: farm?busy ?x ??? "
			    "\xc3\xa9t\xc3\xa9");
}

/* stdin is /dev/null: 'cat' ends at once; no output, no colon. */
static void t_exec_stdin_and_silence(void **state)
{
	struct fx *f = *state;
	const char *argv[] = { "/bin/sh", "-c", "cat; exit 1", NULL };
	double t0 = tp_now();

	load_exec(f, 5, argv);
	assert_int_equal(submit(f), 0);
	assert_int_equal(f->out, SCHED_REJECTED);
	assert_string_equal(f->why, "exit 1");
	assert_true(tp_now() - t0 < 3);
}

static void t_exec_signal(void **state)
{
	struct fx *f = *state;
	const char *argv[] = { "/bin/sh", "-c", "echo dying; kill -9 $$",
			       NULL };

	load_exec(f, 10, argv);
	assert_int_equal(submit(f), 0);
	assert_int_equal(f->out, SCHED_REJECTED);
	assert_string_equal(f->why, "killed by signal 9: dying");
}

/* Megabytes of output neither block the command nor overflow 'why'. */
static void t_exec_chatty(void **state)
{
	struct fx *f = *state;
	const char *fail_argv[] = {
		"/bin/sh", "-c", "head -c 2000000 /dev/zero | tr '\\0' x; "
		"exit 2", NULL,
	};
	const char *ok_argv[] = {
		"/bin/sh", "-c", "head -c 2000000 /dev/zero", NULL,
	};

	load_exec(f, 20, fail_argv);
	assert_int_equal(submit(f), 0);
	assert_int_equal(f->out, SCHED_REJECTED);
	assert_memory_equal(f->why, "exit 2: xxxx", 12);
	assert_true(strlen(f->why) < sizeof(f->why));
	load_exec(f, 20, ok_argv);
	assert_int_equal(submit(f), 0);
	assert_int_equal(f->out, SCHED_ACCEPTED);
}

static void t_exec_timeout(void **state)
{
	struct fx *f = *state;
	const char *argv[] = { "/bin/sleep", "30", NULL };
	double t0 = tp_now();

	load_exec(f, 1, argv);
	assert_int_equal(submit(f), 0);
	assert_int_equal(f->out, SCHED_REJECTED);
	assert_string_equal(f->why, "timed out after 1 s");
	assert_true(tp_now() - t0 < 2.5);
}

/* The timeout kills what the command started too (its process group). */
static void t_exec_timeout_kills_group(void **state)
{
	struct fx *f = *state;
	char pidfile[128], cmd[256];
	const char *argv[] = { "/bin/sh", "-c", cmd, NULL };
	pid_t pid;

	snprintf(cmd, sizeof(cmd), "/bin/sleep 30 & echo $! > '%s'; wait",
		 tu_path(pidfile, sizeof(pidfile), f->dir, "pid"));
	load_exec(f, 1, argv);
	assert_int_equal(submit(f), 0);
	assert_int_equal(f->out, SCHED_REJECTED);
	assert_string_equal(f->why, "timed out after 1 s");
	pid = tp_read_pid(pidfile);
	if (!tp_wait_gone(pid)) {
		kill(pid, SIGKILL);
		fail_msg("sleep %ld outlived the timeout", (long)pid);
	}
}

/* Something left running with the output pipe does not hold us up. */
static void t_exec_background_child(void **state)
{
	struct fx *f = *state;
	char pidfile[128], cmd[256];
	const char *argv[] = { "/bin/sh", "-c", cmd, NULL };
	double t0 = tp_now();

	snprintf(cmd, sizeof(cmd), "/bin/sleep 5 & echo $! > '%s'; "
		 "echo queued",
		 tu_path(pidfile, sizeof(pidfile), f->dir, "pid"));
	load_exec(f, 20, argv);
	assert_int_equal(submit(f), 0);
	assert_int_equal(f->out, SCHED_ACCEPTED);
	assert_true(tp_now() - t0 < 2);
	kill(tp_read_pid(pidfile), SIGKILL);
}

static void t_exec_missing_program(void **state)
{
	struct fx *f = *state;
	const char *abs_argv[] = { "/nonexistent/farm-submit", "{commit}",
				   NULL };
	const char *path_argv[] = { "perfbot-no-such-program", NULL };

	load_exec(f, 10, abs_argv);
	assert_int_equal(submit(f), 0);
	assert_int_equal(f->out, SCHED_REJECTED);
	assert_string_equal(f->why, "cannot run '/nonexistent/farm-submit': "
			    "No such file or directory");
	load_exec(f, 10, path_argv);
	assert_int_equal(submit(f), 0);
	assert_int_equal(f->out, SCHED_REJECTED);
	assert_string_equal(f->why, "cannot run 'perfbot-no-such-program': "
			    "No such file or directory");
}

/* The demo's farm: scripts/fake-lkp-run adds the runs, or says why not. */
static void t_exec_fake_farm(void **state)
{
	struct fx *f = *state;
	char root[128];
	struct strbuf sb;
	const char *argv[] = { FAKE_FARM, "{result_root}", "{commit}",
			       "{runs}", "{request_id}", NULL };

	if (access("build/tools/fake-lkp-run", X_OK))
		fail_msg("build/tools/fake-lkp-run: not built");
	tu_put(f->dir, "matrix.json",
	       "{\"a\": [1, 2, 3], \"stats_source\": [\"x\", \"y\", \"z\"]}",
	       0644);
	tu_put(f->dir, "job.yaml", "commit: " SHA "\n", 0644);
	f->rq.result_root = f->dir;
	load_exec(f, 10, argv);
	assert_int_equal(submit(f), 0);
	assert_int_equal(f->out, SCHED_ACCEPTED);
	tu_path(root, sizeof(root), f->dir, ".fake-lkp-requests");
	tu_read_text(root, &sb);
	assert_string_equal(sb_str(&sb), RID "\n");
	sb_release(&sb);
	f->rq.commit = "0123456789abcdef0123456789abcdef01234567";
	assert_int_equal(submit(f), 0);
	assert_int_equal(f->out, SCHED_REJECTED);
	assert_memory_equal(f->why, "exit 65: fake-lkp-run: commit 0123", 34);
}

static void t_exec_no_argv(void **state)
{
	struct fx *f = *state;

	load(f, "scheduler:\n  backend: exec\n  argv: []\n");
	assert_fails(f, EX_CONFIG, "scheduler.argv");
	load(f, "scheduler:\n  backend: exec\n");
	assert_fails(f, EX_CONFIG, "scheduler.argv");
}

/* ------------------------------------------------------------------ */
/* spool                                                               */

static void load_spool(struct fx *f, const char *dir)
{
	struct strbuf y = STRBUF_INIT;

	assert_int_equal(sb_addf(&y, "scheduler:\n  backend: spool\n  "
				 "spool_dir: \"%s\"\n", dir), 0);
	load(f, sb_str(&y));
	sb_release(&y);
}

static void assert_key(const struct ydoc *doc, const char *key,
		       const char *want)
{
	const char *got = ynode_str(ymap_get(doc->root, key));

	if (!got || strcmp(got, want))
		fail_msg("'%s': got '%s', want '%s'", key, got ? got : "(none)",
			 want);
}

static const char hostile_job[] =
	"jobs/\"quoted\" \\back\\slash\\\nnew line\r\ttab\x01\x1f\x7f"
	" # not a comment: {x} - [a, b] &anchor *alias !!str '%s' "
	"\xc2\x85nel\xe2\x80\xa8ls\xe2\x80\xa9ps\xef\xbb\xbf bom "
	"\xc2\x9b csi \xf0\x9f\x90\xa7 tux \xc3\xa9t\xc3\xa9  ";
static const char hostile_thread[] =
	"[\"<a\\\"b@x>\"]\n---\nrequest_id: evil\n...";

static void t_spool_round_trip(void **state)
{
	struct fx *f = *state;
	char path[256];
	struct strbuf names;
	struct ydoc doc;
	struct stat st;

	load_spool(f, f->dir);
	f->rq.job = hostile_job;
	f->rq.result_root = "  leading and trailing  ";
	f->rq.thread = hostile_thread;
	assert_int_equal(submit(f), 0);
	assert_int_equal(f->out, SCHED_ACCEPTED);
	tu_names(f->dir, "perfbot.yaml", &names);
	assert_string_equal(sb_str(&names), RID "-96f8ba3dd632.yaml");
	sb_release(&names);
	tu_path(path, sizeof(path), f->dir, RID "-96f8ba3dd632.yaml");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	if (yaml_load_file(path, 1 << 20, &doc, &f->err))
		fail_msg("%s", f->err.msg);
	assert_true(ynode_is(doc.root, Y_MAP));
	assert_int_equal(doc.root->n, 10);
	assert_key(&doc, "request_id", RID);
	assert_key(&doc, "kind", "retest");
	assert_key(&doc, "repo", "");
	assert_key(&doc, "patch", "");
	assert_key(&doc, "job", hostile_job);
	assert_key(&doc, "commit", SHA);
	assert_key(&doc, "runs", "4");
	assert_key(&doc, "result_root", "  leading and trailing  ");
	assert_key(&doc, "thread", hostile_thread);
	ydoc_release(&doc);
}

/* The same request twice is one file, holding the last submission. */
static void t_spool_twice(void **state)
{
	struct fx *f = *state;
	char path[256];
	struct strbuf names;
	struct ydoc doc;

	load_spool(f, f->dir);
	f->rq.thread = NULL;
	assert_int_equal(submit(f), 0);
	f->rq.runs = 8;
	assert_int_equal(submit(f), 0);
	assert_int_equal(f->out, SCHED_ACCEPTED);
	tu_names(f->dir, "perfbot.yaml", &names);
	assert_string_equal(sb_str(&names), RID "-96f8ba3dd632.yaml");
	sb_release(&names);
	tu_path(path, sizeof(path), f->dir, RID "-96f8ba3dd632.yaml");
	if (yaml_load_file(path, 1 << 20, &doc, &f->err))
		fail_msg("%s", f->err.msg);
	assert_key(&doc, "runs", "8");
	assert_key(&doc, "thread", "");
	ydoc_release(&doc);
}

static void t_spool_dir_missing(void **state)
{
	struct fx *f = *state;
	char missing[128];

	load_spool(f, tu_path(missing, sizeof(missing), f->dir, "no-such-dir"));
	assert_fails(f, EX_CONFIG, "scheduler.spool_dir: '");
	assert_fails(f, EX_CONFIG, "No such file or directory");
	load_spool(f, f->path);
	assert_fails(f, EX_CONFIG, "not a directory");
	load(f, "scheduler:\n  backend: spool\n");
	assert_fails(f, EX_CONFIG, "scheduler.spool_dir");
}

static void t_unsafe_request_ids(void **state)
{
	static const char *const bad[] = {
		"../evil", ".hidden", "a/b", "/abs", "", "id\nx", "id\x7f",
		"id\x01", "\x1f",
	};
	struct fx *f = *state;
	struct strbuf names;
	size_t i;

	load_spool(f, f->dir);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		f->rq.request_id = bad[i];
		assert_fails(f, EX_DATAERR, "request");
	}
	f->rq.request_id = NULL;
	assert_fails(f, EX_DATAERR, "request");
	tu_names(f->dir, "perfbot.yaml", &names);
	assert_string_equal(sb_str(&names), "");
	sb_release(&names);
	/* bytes of UTF-8 (a line separator too) and blanks are no control */
	f->rq.request_id = "caf\xc3\xa9 \xe2\x80\xa8~1";
	assert_int_equal(submit(f), 0);
	assert_int_equal(f->out, SCHED_ACCEPTED);
}

static void t_bad_values(void **state)
{
	struct fx *f = *state;

	load_spool(f, f->dir);
	f->rq.thread = "<\xff\xfe@x>";
	assert_fails(f, EX_DATAERR, "'thread' is not valid UTF-8");
	f->rq = rq0;
	f->rq.job = "\xc0\xafoverlong";
	assert_fails(f, EX_DATAERR, "'job' is not valid UTF-8");
	f->rq = rq0;
	f->rq.commit = "v6.8-rc1";
	assert_fails(f, EX_DATAERR, "not a sha");
	f->rq = rq0;
	f->rq.runs = 0;
	assert_fails(f, EX_DATAERR, "runs");
	f->rq.runs = 1001;
	assert_fails(f, EX_DATAERR, "runs");
	f->rq = rq0;
	f->rq.result_root = NULL;
	assert_fails(f, EX_DATAERR, "no 'result_root'");
	/* what reaches the farm's git as an argument of its own */
	f->rq = rq0;
	f->rq.repo = "--upload-pack=touch /tmp/pwned";
	assert_fails(f, EX_DATAERR, "repo '--upload-pack");
	f->rq = rq0;
	f->rq.ref = "main\nrm -rf /";
	assert_fails(f, EX_DATAERR, "holds a control character");
	f->rq = rq0;
	f->rq.patch = "relative/x.patch";
	assert_fails(f, EX_DATAERR, "no absolute path");
	f->rq = rq0;
	f->rq.kind = "frobnicate";
	assert_fails(f, EX_DATAERR, "kind 'frobnicate' is none of");
}

/* The test's placeholders, and its result root made once, empty. */
static void t_test_request(void **state)
{
	struct fx *f = *state;
	char out[128], cmd[256], results[128], *dir = NULL;
	struct strbuf sb, y = STRBUF_INIT;
	const char *argv[] = {
		"/bin/sh", "-c", cmd, "sh", "{kind}", "{repo}", "{ref}",
		"{patch}", "{result_root}", NULL,
	};

	snprintf(cmd, sizeof(cmd), "printf '%%s\\n' \"$@\" > '%s'",
		 tu_path(out, sizeof(out), f->dir, "out"));
	load_exec(f, 10, argv);
	f->rq.kind = "test";
	f->rq.repo = "https://git.example.org/linux.git";
	f->rq.ref = "perf-fix";
	f->rq.patch = "/srv/patches/x.patch";
	assert_int_equal(submit(f), 0);
	tu_read_text(out, &sb);
	assert_string_equal(sb_str(&sb), "test\nhttps://git.example.org/"
			    "linux.git\nperf-fix\n/srv/patches/x.patch\n"
			    "/srv/result/hackbench/x\n");
	sb_release(&sb);
	/* scheduler.results_dir/<request id>, made empty, taken again */
	assert_int_equal(scheduler_results_dir(&f->cfg, RID, &dir, &f->err),
			 -1);
	assert_non_null(strstr(f->err.msg, "results_dir: not set"));
	tu_path(results, sizeof(results), f->dir, "results");
	assert_int_equal(mkdir(results, 0755), 0);
	assert_int_equal(sb_addf(&y, "scheduler:\n  results_dir: %s\n",
				 results), 0);
	load(f, sb_str(&y));
	sb_release(&y);
	assert_int_equal(scheduler_results_dir(&f->cfg, RID, &dir, &f->err),
			 0);
	{
		struct stat st;

		assert_int_equal(stat(dir, &st), 0);
		assert_true(S_ISDIR(st.st_mode));
	}
	free(dir);
	assert_int_equal(scheduler_results_dir(&f->cfg, RID, &dir, &f->err),
			 0);
	/* what the farm wrote for this very request (a crash before it was
	 * recorded) is taken again: the request id keeps it from running
	 * twice */
	tu_put(dir, "matrix.json", "{}", 0644);
	free(dir);
	assert_int_equal(scheduler_results_dir(&f->cfg, RID, &dir, &f->err),
			 0);
	free(dir);
	/* something there that is no directory is not */
	tu_put(results, "rt-file", "x", 0644);
	assert_int_equal(scheduler_results_dir(&f->cfg, "rt-file", &dir,
					       &f->err), -1);
	assert_int_equal(f->err.code, EX_CANTCREAT);
	assert_null(dir);
	assert_int_equal(scheduler_results_dir(&f->cfg, "../x", &dir,
					       &f->err), -1);
}

/*
 * The farm's reason a test cannot run (result_root/error): none, its
 * lines between the blank ones, control characters replaced, capped in
 * lines and bytes, and never a link or a directory.
 */
static void t_farm_error(void **state)
{
	struct fx *f = *state;
	struct strbuf sb = STRBUF_INIT, big = STRBUF_INIT;
	char root[128], path[160];
	int found = 1, i;

	tu_path(root, sizeof(root), f->dir, "root");
	assert_int_equal(mkdir(root, 0755), 0);
	assert_int_equal(scheduler_farm_error(root, &sb, &found, &f->err), 0);
	assert_false(found);
	assert_int_equal(sb.len, 0);
	tu_put(root, "error", "\n  \n\terror: patch failed: mm/x.c:12\r\n"
	       "\033[31mmake: Error 1\t \n\n\xe2\x80\xa8x\n\n\n", 0644);
	assert_int_equal(scheduler_farm_error(root, &sb, &found, &f->err), 0);
	assert_true(found);
	assert_string_equal(sb_str(&sb), " error: patch failed: mm/x.c:12\n"
			    "?[31mmake: Error 1\n\n?x");
	/* at most SCHED_ERROR_LINES lines of SCHED_ERROR_BYTES in all */
	for (i = 0; i < 100; i++)
		assert_int_equal(sb_addf(&big, "line %d\n", i), 0);
	tu_put(root, "error", sb_str(&big), 0644);
	sb_reset(&sb);
	assert_int_equal(scheduler_farm_error(root, &sb, &found, &f->err), 0);
	assert_string_equal(strrchr(sb_str(&sb), '\n') + 1, "line 19");
	sb_reset(&big);
	for (i = 0; i < 5000; i++)
		assert_int_equal(sb_addc(&big, 'x'), 0);
	tu_put(root, "error", sb_str(&big), 0644);
	sb_reset(&sb);
	assert_int_equal(scheduler_farm_error(root, &sb, &found, &f->err), 0);
	assert_true(sb.len < SCHED_ERROR_BYTES);
	/* a link is not followed, a directory not read */
	tu_path(path, sizeof(path), root, "error");
	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink("/etc/passwd", path), 0);
	sb_reset(&sb);
	assert_int_equal(scheduler_farm_error(root, &sb, &found, &f->err), 0);
	assert_false(found);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(scheduler_farm_error(root, &sb, &found, &f->err), 0);
	assert_false(found);
	sb_release(&sb);
	sb_release(&big);
}

/* ------------------------------------------------------------------ */
/* http                                                                */

/* Start build/tools/httpd on the fixture directory. */
static int setup_http(void **state)
{
	struct fx *f;

	if (setup(state))
		return -1;
	f = *state;
	return tu_httpd_start(f->dir, &f->httpd);
}

static void load_http(struct fx *f, unsigned port)
{
	struct strbuf y = STRBUF_INIT;

	assert_int_equal(sb_addf(&y, "scheduler:\n  backend: http\n  timeout: "
				 "10\n  url: http://127.0.0.1:%u/sched\n",
				 port), 0);
	load(f, sb_str(&y));
	sb_release(&y);
}

static unsigned httpd_port(const struct fx *f)
{
	char path[128];

	return (unsigned)tp_read_pid(tu_path(path, sizeof(path), f->dir, "port"));
}

static void t_http_accepted(void **state)
{
	static const char *const keys[] = {
		"request_id", "job", "commit", "runs", "result_root", "thread",
		"kind", "repo", "ref", "patch",
	};
	struct fx *f = *state;
	char posts[128];
	struct strbuf sb;
	const char *k;
	json_t *o, *v;
	size_t i = 0;

	load_http(f, httpd_port(f));
	f->rq.thread = hostile_thread;
	assert_int_equal(submit(f), 0);
	assert_int_equal(f->out, SCHED_ACCEPTED);
	tu_read_text(tu_path(posts, sizeof(posts), f->dir, "sched.posts"), &sb);
	o = json_loads(sb_str(&sb), 0, NULL);
	assert_non_null(o);
	json_object_foreach(o, k, v) {
		assert_true(i < 10);
		assert_string_equal(k, keys[i++]);
	}
	assert_int_equal(i, 10);
	assert_string_equal(json_string_value(json_object_get(o, "commit")),
			    SHA);
	assert_int_equal(json_integer_value(json_object_get(o, "runs")), 4);
	assert_string_equal(json_string_value(json_object_get(o, "thread")),
			    hostile_thread);
	json_decref(o);
	sb_release(&sb);
}

static void set_status(const struct fx *f, const char *status)
{
	tu_put(f->dir, "sched.status", status, 0644);
}

static void t_http_rejected(void **state)
{
	struct fx *f = *state;

	load_http(f, httpd_port(f));
	set_status(f, "409\n");
	assert_int_equal(submit(f), 0);
	assert_int_equal(f->out, SCHED_REJECTED);
	assert_string_equal(f->why, "HTTP 409: {}");
}

static void t_http_server_error(void **state)
{
	struct fx *f = *state;

	load_http(f, httpd_port(f));
	set_status(f, "503\n");
	assert_fails(f, EX_TEMPFAIL, "scheduler: HTTP 503");
}

/* A port nobody listens on: bound, then closed. */
static unsigned closed_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	close(fd);
	return ntohs(a.sin_port);
}

static void t_http_refused(void **state)
{
	struct fx *f = *state;

	load_http(f, closed_port());
	assert_fails(f, EX_UNAVAILABLE, "http://127.0.0.1:");
}

static void t_http_no_url(void **state)
{
	struct fx *f = *state;

	load(f, "scheduler:\n  backend: http\n");
	assert_fails(f, EX_CONFIG, "scheduler.url");
}

/* ------------------------------------------------------------------ */

static void t_backend(void **state)
{
	struct fx *f = *state;
	char bad[256];

	/* an unknown backend is refused when the config is loaded */
	tu_put(f->dir, "bad.yaml", "scheduler:\n  backend: carrier-pigeon\n",
	       0600);
	tu_path(bad, sizeof(bad), f->dir, "bad.yaml");
	assert_int_equal(config_load(&f->cfg, bad, &f->err), -1);
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_non_null(strstr(f->err.msg, "'scheduler.backend': "
			       "'carrier-pigeon' is not one of exec, spool, "
			       "http"));
	load(f, "scheduler:\n  timeout: 5\n");
	assert_fails(f, EX_CONFIG, "scheduler.backend");
	config_release(&f->cfg);
	assert_int_equal(config_load(&f->cfg, NULL, &f->err), 0);
	assert_fails(f, EX_CONFIG, "scheduler.backend");
}

/* scheduler_check: what 'perfbot check' reports for each backend. */
static void check_fails(struct fx *f, const char *msg)
{
	memset(&f->err, 0, sizeof(f->err));
	assert_int_equal(scheduler_check(&f->cfg, &f->err), -1);
	if (f->err.code != EX_CONFIG || !strstr(f->err.msg, msg))
		fail_msg("got %d '%s', want '...%s...'", f->err.code,
			 f->err.msg, msg);
}

static void t_check(void **state)
{
	struct fx *f = *state;
	char yaml[512];

	load(f, "scheduler:\n  timeout: 5\n");
	check_fails(f, "scheduler.backend: not set; use exec, spool or http");
	load(f, "scheduler:\n  backend: exec\n");
	check_fails(f, "scheduler.argv: not set (backend exec runs it)");
	load(f, "scheduler:\n  backend: exec\n  argv: [no-such-prog-xyz]\n");
	check_fails(f, "scheduler.argv: 'no-such-prog-xyz' cannot be run");
	load(f, "scheduler:\n  backend: exec\n"
	     "  argv: [sh, -c, \"{runs} {result_root}\", \"{rusn}\"]\n");
	check_fails(f, "argument 4: unknown placeholder '{rusn}'");
	load(f, "scheduler:\n  backend: exec\n  argv: [sh, \"{job}\", "
	     "\"{commit}{request_id}\", \"{}\"]\n");
	check_fails(f, "argument 4: unknown placeholder '{}'");
	load(f, "scheduler:\n  backend: exec\n  argv: [sh, \"{job}\", "
	     "\"{commit}{request_id}\", \"{ not closed\"]\n");
	assert_int_equal(scheduler_check(&f->cfg, &f->err), 0);
	load(f, "scheduler:\n  backend: http\n");
	check_fails(f, "scheduler.url: not set (backend http posts there)");
	load(f, "scheduler:\n  backend: http\n  url: http://127.0.0.1:9/\n");
	assert_int_equal(scheduler_check(&f->cfg, &f->err), 0);
	load(f, "scheduler:\n  backend: spool\n");
	check_fails(f, "scheduler.spool_dir: give the directory");
	snprintf(yaml, sizeof(yaml), "scheduler:\n  backend: spool\n"
		 "  spool_dir: %s/none\n", f->dir);
	load(f, yaml);
	check_fails(f, "No such file or directory");
	snprintf(yaml, sizeof(yaml), "scheduler:\n  backend: spool\n"
		 "  spool_dir: %s\n", f->dir);
	load(f, yaml);
	assert_int_equal(scheduler_check(&f->cfg, &f->err), 0);
	if (geteuid() != 0) {	/* root may write anywhere */
		assert_int_equal(chmod(f->dir, 0500), 0);
		check_fails(f, "not writable");
		assert_int_equal(chmod(f->dir, 0700), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_check, setup, teardown),
		cmocka_unit_test_setup_teardown(t_exec_placeholders, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_exec_no_shell, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_exec_exit_reason, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_exec_reason_unicode, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_exec_stdin_and_silence,
						setup, teardown),
		cmocka_unit_test_setup_teardown(t_exec_signal, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_exec_chatty, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_exec_timeout, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_exec_timeout_kills_group,
						setup, teardown),
		cmocka_unit_test_setup_teardown(t_exec_background_child,
						setup, teardown),
		cmocka_unit_test_setup_teardown(t_exec_missing_program, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_exec_fake_farm, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_exec_no_argv, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_spool_round_trip, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_spool_twice, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_spool_dir_missing, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_unsafe_request_ids, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_bad_values, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_farm_error, setup, teardown),
		cmocka_unit_test_setup_teardown(t_test_request, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_http_accepted, setup_http,
						teardown),
		cmocka_unit_test_setup_teardown(t_http_rejected, setup_http,
						teardown),
		cmocka_unit_test_setup_teardown(t_exec_minimal_env, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_exec_tempfail_retried, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_http_server_error,
						setup_http, teardown),
		cmocka_unit_test_setup_teardown(t_http_refused, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_http_no_url, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_backend, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
