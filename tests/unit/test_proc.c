// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/util/proc.c: output captured (stdout, stderr into
 * the pipe or not), the cap, the deadline killing the child (and its
 * process group), exit codes and signals, the environment passed exactly,
 * stdin from /dev/null, the signal mask and dispositions reset, no file
 * descriptor of ours reaching the child, a missing program, the first
 * line read without waiting for the rest.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfbot/util/proc.h"

#include "testutil.h"
#include "testproc.h"

#define ALL (PROC_STDIN_NULL | PROC_STDERR | PROC_GROUP)

static char *std_env[] = { "PATH=/usr/bin:/bin", "LC_ALL=C", NULL };

struct fx {
	char dir[64];
	struct proc p;
	struct strbuf out;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_proc");

	if (!f)
		return -1;
	f->p.fd = -1;
	sb_init(&f->out, 1 << 20);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	proc_release(&f->p);
	sb_release(&f->out);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

/* Run 'sh -c script' with 'flags', collecting its output for 'ms'. */
static void run_sh(struct fx *f, const char *script, unsigned flags,
		   long ms)
{
	char *argv[] = { "/bin/sh", "-c", (char *)script, NULL };

	sb_reset(&f->out);
	assert_int_equal(proc_start(&f->p, argv, std_env, flags), 0);
	proc_collect(&f->p, &f->out, ms);
	assert_true(f->p.exited);
}

/* The hexadecimal mask after 'name' in /proc/<pid>/status text 'st'. */
static unsigned long long status_mask(const char *st, const char *name)
{
	const char *p = strstr(st, name);

	assert_non_null(p);
	return strtoull(p + strlen(name), NULL, 16);
}

/* ------------------------------------------------------------------ */

static void t_capture(void **state)
{
	struct fx *f = *state;
	char errpath[128];
	struct strbuf err;
	int saved = -1;

	run_sh(f, "echo out; echo err >&2; exit 3", ALL, 10000);
	assert_string_equal(sb_str(&f->out), "out\nerr\n");
	assert_int_equal(f->p.code, 3);
	assert_int_equal(f->p.sig, 0);
	assert_false(f->p.timed_out);
	assert_int_equal(f->p.fd, -1);
	proc_release(&f->p);
	/* without PROC_STDERR, stderr stays ours */
	tu_stderr_capture(tu_path(errpath, sizeof(errpath), f->dir, "err"),
			  &saved);
	run_sh(f, "echo out; echo err >&2", PROC_STDIN_NULL, 10000);
	tu_stderr_restore(&saved);
	assert_string_equal(sb_str(&f->out), "out\n");
	assert_int_equal(f->p.code, 0);
	tu_read_text(errpath, &err);
	assert_string_equal(sb_str(&err), "err\n");
	sb_release(&err);
}

static void t_exit_codes(void **state)
{
	static const int codes[] = { 0, 1, 2, 75, 127, 255 };
	struct fx *f = *state;
	char script[32];
	size_t i;

	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		snprintf(script, sizeof(script), "exit %d", codes[i]);
		run_sh(f, script, ALL, 10000);
		assert_int_equal(f->p.code, codes[i]);
		assert_int_equal(f->p.sig, 0);
		proc_release(&f->p);
	}
}

static void t_signal(void **state)
{
	struct fx *f = *state;

	run_sh(f, "echo dying; kill -TERM $$", ALL, 10000);
	assert_int_equal(f->p.code, -1);
	assert_int_equal(f->p.sig, SIGTERM);
	assert_false(f->p.timed_out);
	assert_string_equal(sb_str(&f->out), "dying\n");
}

/* More output than the cap: kept up to it, the rest read and dropped. */
static void t_cap(void **state)
{
	struct fx *f = *state;
	char *argv[] = { "/bin/sh", "-c", "head -c 3000000 /dev/zero | "
			 "tr '\\0' x; echo; echo end >&2", NULL };
	size_t i;

	sb_init(&f->out, 1000);
	assert_int_equal(proc_start(&f->p, argv, std_env, ALL), 0);
	proc_collect(&f->p, &f->out, 20000);
	assert_int_equal(f->p.code, 0);
	assert_false(f->p.timed_out);
	assert_int_equal(f->out.len, 1000);
	for (i = 0; i < f->out.len; i++)
		assert_int_equal(f->out.buf[i], 'x');
}

static void t_deadline(void **state)
{
	struct fx *f = *state;
	char *argv[] = { "/bin/sleep", "30", NULL };
	double t0 = tp_now();

	assert_int_equal(proc_start(&f->p, argv, std_env, ALL), 0);
	proc_collect(&f->p, &f->out, 300);
	assert_true(f->p.exited);
	assert_true(f->p.timed_out);
	assert_int_equal(f->p.sig, SIGKILL);
	assert_int_equal(f->p.code, -1);
	assert_true(tp_now() - t0 < 2);
	proc_release(&f->p);
	/* proc_wait() kills past its deadline too */
	t0 = tp_now();
	assert_int_equal(proc_start(&f->p, argv, std_env, 0), 0);
	proc_wait(&f->p, 200);
	assert_true(f->p.timed_out);
	assert_int_equal(f->p.sig, SIGKILL);
	assert_true(tp_now() - t0 < 2);
}

/* Past the deadline the whole group goes with PROC_GROUP, else the child. */
static void t_group_kill(void **state)
{
	struct fx *f = *state;
	char pidfile[128], cmd[256];
	pid_t pid;

	snprintf(cmd, sizeof(cmd), "/bin/sleep 30 & echo $! > '%s'; wait",
		 tu_path(pidfile, sizeof(pidfile), f->dir, "pid"));
	run_sh(f, cmd, ALL, 500);
	assert_true(f->p.timed_out);
	pid = tp_read_pid(pidfile);
	if (!tp_wait_gone(pid)) {
		kill(pid, SIGKILL);
		fail_msg("sleep %ld outlived the timeout", (long)pid);
	}
	proc_release(&f->p);
	/* without a group of its own, what it started lives on */
	run_sh(f, cmd, PROC_STDIN_NULL, 500);
	assert_true(f->p.timed_out);
	pid = tp_read_pid(pidfile);
	assert_false(tp_gone(pid));
	kill(pid, SIGKILL);
}

/* A child that exits while something it started holds the pipe. */
static void t_exit_with_background(void **state)
{
	struct fx *f = *state;
	double t0 = tp_now();
	long pid;

	run_sh(f, "/bin/sleep 5 & echo $!", ALL, 20000);
	assert_true(tp_now() - t0 < 2);
	assert_false(f->p.timed_out);
	assert_int_equal(f->p.code, 0);
	sb_setlen(&f->out, strcspn(sb_str(&f->out), "\n"));
	assert_int_equal(parse_long(sb_str(&f->out), 2, 1L << 30, &pid), 0);
	kill((pid_t)pid, SIGKILL);
}

/* The environment is the one given, to the byte, and nothing else. */
static void t_env_exact(void **state)
{
	struct fx *f = *state;
	char *argv[] = { "/usr/bin/env", NULL };
	char *env[] = { "A=1", "B=two words", "EMPTY=", "PATH=/nowhere",
			NULL };
	char *none[] = { NULL };

	setenv("PERFBOT_TEST_SECRET", "s3cret", 1);
	assert_int_equal(proc_start(&f->p, argv, env, ALL), 0);
	proc_collect(&f->p, &f->out, 10000);
	assert_int_equal(f->p.code, 0);
	assert_string_equal(sb_str(&f->out),
			    "A=1\nB=two words\nEMPTY=\nPATH=/nowhere\n");
	proc_release(&f->p);
	sb_reset(&f->out);
	assert_int_equal(proc_start(&f->p, argv, none, ALL), 0);
	proc_collect(&f->p, &f->out, 10000);
	assert_int_equal(f->p.code, 0);
	assert_string_equal(sb_str(&f->out), "");
	unsetenv("PERFBOT_TEST_SECRET");
}

static void t_stdin_null(void **state)
{
	struct fx *f = *state;
	double t0 = tp_now();

	run_sh(f, "cat; echo done", ALL, 5000);
	assert_string_equal(sb_str(&f->out), "done\n");
	assert_false(f->p.timed_out);
	assert_true(tp_now() - t0 < 3);
}

/*
 * Only 0, 1 and 2 reach the child: not our pipe's ends, not a descriptor
 * we left open without O_CLOEXEC. The listing's own directory is the
 * lowest free descriptor, 3.
 */
static void t_no_fd_leak(void **state)
{
	struct fx *f = *state;
	int fd = open("/dev/null", O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(dup2(fd, 40), 40);
	run_sh(f, "cd /proc/self/fd && echo *", ALL, 10000);
	assert_string_equal(sb_str(&f->out), "0 1 2 3\n");
	proc_release(&f->p);
	run_sh(f, "cd /proc/self/fd && echo *", PROC_STDIN_NULL, 10000);
	assert_string_equal(sb_str(&f->out), "0 1 2 3\n");
	close(40);
	close(fd);
}

/*
 * Nothing blocked there; SIGPIPE, SIGINT, SIGTERM and SIGHUP at their
 * defaults even when we ignore them.
 */
static void t_signals_reset(void **state)
{
	struct fx *f = *state;
	char *argv[] = { "/bin/cat", "/proc/self/status", NULL };
	unsigned long long ours = 1ULL << (SIGPIPE - 1) | 1ULL << (SIGINT - 1) |
		1ULL << (SIGTERM - 1) | 1ULL << (SIGHUP - 1);
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_term, old_pipe,
		old_hup;
	sigset_t block, old_mask;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGUSR1);
	sigaction(SIGTERM, &ign, &old_term);
	sigaction(SIGPIPE, &ign, &old_pipe);
	sigaction(SIGHUP, &ign, &old_hup);
	sigprocmask(SIG_BLOCK, &block, &old_mask);
	assert_int_equal(proc_start(&f->p, argv, std_env, ALL), 0);
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGPIPE, &old_pipe, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	proc_collect(&f->p, &f->out, 10000);
	assert_int_equal(f->p.code, 0);
	assert_int_equal(status_mask(sb_str(&f->out), "\nSigBlk:"), 0);
	assert_int_equal(status_mask(sb_str(&f->out), "\nSigIgn:") & ours, 0);
}

static void t_missing_program(void **state)
{
	struct fx *f = *state;
	char *abs_argv[] = { "/nonexistent/prog", NULL };
	char *path_argv[] = { "perfbot-no-such-program", NULL };
	char *noexec_argv[] = { NULL, NULL };
	char path[128];

	assert_int_equal(proc_start(&f->p, abs_argv, std_env, ALL), ENOENT);
	assert_int_equal(f->p.fd, -1);
	proc_release(&f->p);
	assert_int_equal(proc_start(&f->p, path_argv, std_env, ALL), ENOENT);
	proc_release(&f->p);
	assert_int_equal(proc_can_run("sh"), 0);
	assert_int_equal(proc_can_run("/bin/sh"), 0);
	if (geteuid() == 0)
		return;		/* root may run anything that exists */
	tu_put(f->dir, "noexec", "#!/bin/sh\n", 0644);
	noexec_argv[0] = (char *)tu_path(path, sizeof(path), f->dir, "noexec");
	assert_int_equal(proc_start(&f->p, noexec_argv, std_env, ALL), EACCES);
}

/* The first line, without waiting for the rest; then a wait. */
static void t_read_line(void **state)
{
	struct fx *f = *state;
	char *argv[] = { "/bin/sh", "-c", "printf 'pw\\r\\nrest\\n'; "
			 "exec sleep 30", NULL };
	char *quick[] = { "/bin/sh", "-c", "echo pw; echo rest", NULL };
	double t0 = tp_now();

	assert_int_equal(proc_start(&f->p, argv, std_env, 0), 0);
	proc_read_line(&f->p, &f->out, 10000);
	assert_memory_equal(sb_str(&f->out), "pw\r\n", 4);
	assert_true(tp_now() - t0 < 2);
	assert_false(f->p.exited);
	proc_wait(&f->p, 200);
	assert_true(f->p.timed_out);
	proc_release(&f->p);
	sb_reset(&f->out);
	assert_int_equal(proc_start(&f->p, quick, std_env, 0), 0);
	proc_read_line(&f->p, &f->out, 10000);
	proc_wait(&f->p, 10000);
	assert_int_equal(f->p.code, 0);
	assert_false(f->p.timed_out);
	assert_memory_equal(sb_str(&f->out), "pw\n", 3);
}

/* Nothing for 'idle_ms', a line too long for the cap: reading stops. */
static void t_read_line_limits(void **state)
{
	struct fx *f = *state;
	char *silent[] = { "/bin/sleep", "30", NULL };
	char *chatty[] = { "/bin/sh", "-c", "head -c 100000 /dev/zero | "
			   "tr '\\0' k", NULL };
	double t0 = tp_now();

	assert_int_equal(proc_start(&f->p, silent, std_env, 0), 0);
	proc_read_line(&f->p, &f->out, 200);
	assert_true(tp_now() - t0 < 2);
	assert_int_equal(f->out.len, 0);
	proc_release(&f->p);
	assert_true(f->p.exited);
	sb_init(&f->out, 4096);
	assert_int_equal(proc_start(&f->p, chatty, std_env, 0), 0);
	proc_read_line(&f->p, &f->out, 10000);
	assert_true(f->out.len > 0);
	assert_true(f->out.len <= 4096);
	assert_null(memchr(sb_str(&f->out), '\n', f->out.len));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_capture, setup, teardown),
		cmocka_unit_test_setup_teardown(t_exit_codes, setup, teardown),
		cmocka_unit_test_setup_teardown(t_signal, setup, teardown),
		cmocka_unit_test_setup_teardown(t_cap, setup, teardown),
		cmocka_unit_test_setup_teardown(t_deadline, setup, teardown),
		cmocka_unit_test_setup_teardown(t_group_kill, setup, teardown),
		cmocka_unit_test_setup_teardown(t_exit_with_background, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_env_exact, setup, teardown),
		cmocka_unit_test_setup_teardown(t_stdin_null, setup, teardown),
		cmocka_unit_test_setup_teardown(t_no_fd_leak, setup, teardown),
		cmocka_unit_test_setup_teardown(t_signals_reset, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_missing_program, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_read_line, setup, teardown),
		cmocka_unit_test_setup_teardown(t_read_line_limits, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
