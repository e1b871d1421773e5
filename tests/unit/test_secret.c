// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/config/secret.c: password_env, password_file (first
 * line only, CRLF, empty, missing, too large), password_command (argv
 * without a shell, failing, silent, chatty, its environment without the
 * other passwords, and stderr),
 * the inline password, the order of precedence, and that no error message
 * ever holds the secret.
 * The command timeout (10 s) is not exercised.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfbot/config/config.h"
#include "perfbot/util/fileio.h"
#include "perfbot/config/secret.h"

#include "testutil.h"

#define SECRET "s3cret-Tr0ub4dor"
#define ENV_NAME "PERFBOT_TEST_SECRET_PW"

struct fx {
	char dir[64];
	char path[128];		/* <dir>/perfbot.yaml */
	struct config cfg;
	int loaded;
	struct pb_err err;
	char *secret;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_secret");

	if (!f)
		return -1;
	tu_path(f->path, sizeof(f->path), f->dir, "perfbot.yaml");
	unsetenv(ENV_NAME);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	unsetenv(ENV_NAME);
	secret_free(f->secret);
	if (f->loaded)
		config_release(&f->cfg);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

/* Load a configuration made of 'yaml' (mode 0600, so 'password' is ok). */
static void load(struct fx *f, const char *yaml)
{
	tu_load_config(&f->cfg, &f->loaded, f->path, yaml, &f->err);
}

static void load_file_key(struct fx *f, const char *file)
{
	char yaml[512];

	snprintf(yaml, sizeof(yaml), "smtp:\n  password_file: \"%s\"\n",
		 file);
	load(f, yaml);
}

static int get(struct fx *f, const char *sec)
{
	secret_free(f->secret);
	f->secret = (char *)0x1;	/* secret_get must set it */
	memset(&f->err, 0, sizeof(f->err));
	return secret_get(&f->cfg, sec, &f->secret, &f->err);
}

static void assert_secret(struct fx *f, const char *sec, const char *want)
{
	if (get(f, sec))
		fail_msg("secret_get: %s", f->err.msg);
	assert_non_null(f->secret);
	assert_string_equal(f->secret, want);
}

/* Fails with 'code', names 'key', and never shows the secret. */
static void assert_fails(struct fx *f, const char *sec, int code,
			 const char *key)
{
	assert_int_equal(get(f, sec), -1);
	assert_null(f->secret);
	if (f->err.code != code || !strstr(f->err.msg, key))
		fail_msg("got %d '%s', want %d '...%s...'", f->err.code,
			 f->err.msg, code, key);
	if (strstr(f->err.msg, SECRET) || strstr(f->err.msg, "s3cret"))
		fail_msg("the secret leaked into '%s'", f->err.msg);
}

/* ------------------------------------------------------------------ */

static void t_none(void **state)
{
	struct fx *f = *state;

	load(f, "smtp:\n  url: smtp://127.0.0.1:25\n");
	assert_int_equal(get(f, "smtp"), 0);
	assert_null(f->secret);
	assert_int_equal(get(f, "imap"), 0);
	assert_null(f->secret);
}

static void t_env(void **state)
{
	struct fx *f = *state;

	load(f, "smtp:\n  password_env: " ENV_NAME "\n");
	assert_int_equal(setenv(ENV_NAME, SECRET, 1), 0);
	assert_secret(f, "smtp", SECRET);
	assert_int_equal(get(f, "imap"), 0);
	assert_null(f->secret);
}

static void t_env_unset_or_empty(void **state)
{
	struct fx *f = *state;

	load(f, "imap:\n  password_env: " ENV_NAME "\n");
	assert_fails(f, "imap", EX_CONFIG, "imap.password_env");
	assert_non_null(strstr(f->err.msg, "'" ENV_NAME "' is not set"));
	assert_int_equal(setenv(ENV_NAME, "", 1), 0);
	assert_fails(f, "imap", EX_CONFIG, "imap.password_env");
}

static void t_file_first_line(void **state)
{
	static const char text[] = SECRET "\nsecond line\n";
	struct fx *f = *state;
	char path[128];

	tu_path(path, sizeof(path), f->dir, "pw");
	tu_write_n(path, text, strlen(text), 0600);
	load_file_key(f, path);
	assert_secret(f, "smtp", SECRET);
}

static void t_file_crlf_and_no_newline(void **state)
{
	static const char crlf[] = SECRET "\r\nsecond\r\n";
	struct fx *f = *state;
	char path[128];

	tu_path(path, sizeof(path), f->dir, "pw");
	tu_write_n(path, crlf, strlen(crlf), 0600);
	load_file_key(f, path);
	assert_secret(f, "smtp", SECRET);
	tu_write_n(path, SECRET, strlen(SECRET), 0600);
	assert_secret(f, "smtp", SECRET);
	/* Inner blanks belong to the password. */
	tu_write_n(path, " a b \n", 6, 0600);
	assert_secret(f, "smtp", " a b ");
}

static void t_file_empty(void **state)
{
	struct fx *f = *state;
	char path[128];

	tu_path(path, sizeof(path), f->dir, "pw");
	tu_write_n(path, "", 0, 0600);
	load_file_key(f, path);
	assert_fails(f, "smtp", EX_CONFIG, "smtp.password_file");
	assert_non_null(strstr(f->err.msg, "is empty"));
	/* An empty first line: the second line is not the password. */
	tu_write_n(path, "\n" SECRET "\n", strlen(SECRET) + 2, 0600);
	assert_fails(f, "smtp", EX_CONFIG, "smtp.password_file");
	tu_write_n(path, "\r\n" SECRET, strlen(SECRET) + 2, 0600);
	assert_fails(f, "smtp", EX_CONFIG, "smtp.password_file");
}

static void t_file_missing(void **state)
{
	struct fx *f = *state;
	char path[128];

	load_file_key(f, tu_path(path, sizeof(path), f->dir, "no-such-file"));
	assert_fails(f, "smtp", EX_NOINPUT, "smtp.password_file: ");
	assert_non_null(strstr(f->err.msg, "no-such-file"));
}

/* Larger than 4096 bytes, or a NUL byte: refused, nothing echoed. */
static void t_file_too_large_or_binary(void **state)
{
	struct fx *f = *state;
	char path[128], big[5000];

	memset(big, 'k', sizeof(big));
	memcpy(big, SECRET "\n", strlen(SECRET) + 1);
	tu_path(path, sizeof(path), f->dir, "pw");
	tu_write_n(path, big, sizeof(big), 0600);
	load_file_key(f, path);
	assert_fails(f, "smtp", EX_DATAERR, "smtp.password_file: ");
	tu_write_n(path, SECRET "\0x\n", strlen(SECRET) + 3, 0600);
	assert_fails(f, "smtp", EX_DATAERR, "smtp.password_file: ");
}

static void t_command(void **state)
{
	struct fx *f = *state;

	load(f, "smtp:\n  password_command: [\"/bin/echo\", \"" SECRET
	     "\"]\n");
	assert_secret(f, "smtp", SECRET);
	/* No shell: a metacharacter is just an argument. */
	load(f, "smtp:\n  password_command: [\"/bin/echo\", \"$HOME;x\"]\n");
	assert_secret(f, "smtp", "$HOME;x");
	/* Found on PATH; first line only. */
	load(f, "imap:\n  password_command: [printf, \"" SECRET
	     "\\r\\nline 2\\n\"]\n");
	assert_secret(f, "imap", SECRET);
}

static void t_command_fails(void **state)
{
	struct fx *f = *state;

	load(f, "smtp:\n  password_command: [\"/bin/false\"]\n");
	assert_fails(f, "smtp", EX_CONFIG, "smtp.password_command");
	assert_non_null(strstr(f->err.msg, "failed or printed nothing"));
	/* Prints the secret but exits 1: still a failure, nothing echoed. */
	load(f, "smtp:\n  password_command: [/bin/sh, -c, \"echo " SECRET
	     "; exit 1\"]\n");
	assert_fails(f, "smtp", EX_CONFIG, "smtp.password_command");
	load(f, "smtp:\n  password_command: [\"/nonexistent/pass\", show]\n");
	assert_fails(f, "smtp", EX_CONFIG, "smtp.password_command");
	load(f, "smtp:\n  password_command: []\n");
	assert_fails(f, "smtp", EX_CONFIG, "smtp.password_command");
}

static void t_command_silent(void **state)
{
	struct fx *f = *state;

	load(f, "smtp:\n  password_command: [\"/bin/true\"]\n");
	assert_fails(f, "smtp", EX_CONFIG, "smtp.password_command");
	load(f, "smtp:\n  password_command: [/bin/sh, -c, \"echo; echo "
	     SECRET "\"]\n");
	assert_fails(f, "smtp", EX_CONFIG, "smtp.password_command");
}

/* More output than a secret can be: refused. */
static void t_command_chatty(void **state)
{
	struct fx *f = *state;

	load(f, "smtp:\n  password_command: [/bin/sh, -c, \"head -c 100000 "
	     "/dev/zero | tr '\\\\0' k\"]\n");
	assert_fails(f, "smtp", EX_CONFIG, "smtp.password_command");
}

/*
 * The command has perfbot's environment (a password manager needs its
 * agent's variables); what it says on stderr is not the password, and
 * reaches perfbot's stderr as a log line of its own (issue 25 item 13).
 */
static void t_command_env_and_stderr(void **state)
{
	struct fx *f = *state;
	char errpath[128];
	struct strbuf sb;
	int saved = -1;

	assert_int_equal(setenv(ENV_NAME, SECRET, 1), 0);
	load(f, "smtp:\n  password_command: [/bin/sh, -c, \"echo 'agent "
	     "locked?' >&2; echo $" ENV_NAME "\"]\n");
	tu_stderr_capture(tu_path(errpath, sizeof(errpath), f->dir, "err"),
			  &saved);
	get(f, "smtp");
	tu_stderr_restore(&saved);
	assert_non_null(f->secret);
	assert_string_equal(f->secret, SECRET);
	tu_read_text(errpath, &sb);
	assert_non_null(strstr(sb_str(&sb), "perfbot: smtp.password_command "
			       "said: agent locked?\n"));
	sb_release(&sb);
}

/*
 * ...but not the other passwords: the variables that smtp.password_env
 * and imap.password_env name are left out of it.
 */
static void t_command_env_without_passwords(void **state)
{
	struct fx *f = *state;

	assert_int_equal(setenv(ENV_NAME, SECRET, 1), 0);
	assert_int_equal(setenv("PERFBOT_TEST_OTHER", "visible", 1), 0);
	load(f, "imap:\n  password_env: " ENV_NAME "\n"
	     "smtp:\n  password_command: [/bin/sh, -c, \"echo "
	     "x${" ENV_NAME ":-unset}-$PERFBOT_TEST_OTHER\"]\n");
	assert_secret(f, "smtp", "xunset-visible");
	load(f, "smtp:\n  password_env: " ENV_NAME "\n"
	     "imap:\n  password_command: [/bin/sh, -c, \"echo "
	     "x${" ENV_NAME ":-unset}\"]\n");
	assert_secret(f, "imap", "xunset");
	/* and the one that has it still reads it */
	assert_secret(f, "smtp", SECRET);
}

static void t_inline(void **state)
{
	struct fx *f = *state;

	load(f, "smtp:\n  password: \"" SECRET "\"\n");
	assert_secret(f, "smtp", SECRET);
	assert_int_equal(get(f, "imap"), 0);
	assert_null(f->secret);
}

/*
 * A password comes from one place (issue 21 item 8): two sources set are
 * refused when the file loads, naming both; a configured source that
 * fails never falls back to another.
 */
static void t_one_source(void **state)
{
	struct fx *f = *state;
	struct config cfg;
	struct pb_err err = { 0, "" };
	char yaml[512];

	snprintf(yaml, sizeof(yaml), "smtp:\n  password_env: " ENV_NAME "\n"
		 "  password_file: /run/pw\n");
	assert_int_equal(config_parse(&cfg, "perfbot.yaml", NULL, yaml,
				      strlen(yaml), &err), -1);
	assert_int_equal(err.code, EX_CONFIG);
	assert_string_equal(err.msg, "perfbot.yaml:3: 'smtp.password_env' and "
			    "'smtp.password_file' are both set: a password "
			    "comes from one of them, remove the other");
	snprintf(yaml, sizeof(yaml), "imap:\n  password_env: PW\n"
		 "  password_command: [pass]\n");
	assert_int_equal(config_parse(&cfg, "perfbot.yaml", NULL, yaml,
				      strlen(yaml), &err), -1);
	assert_non_null(strstr(err.msg, "perfbot.yaml:3: 'imap.password_env' and "
			       "'imap.password_command' are both set"));
	load(f, "smtp:\n  password_env: " ENV_NAME "X\n");
	assert_fails(f, "smtp", EX_CONFIG, "smtp.password_env");
}

/*
 * The state's password (issue 34): state_password_env or
 * state_password_file at the top level, one of them only; "state.x"
 * keys are no such thing.
 */
static void t_state(void **state)
{
	struct fx *f = *state;
	struct config cfg;
	struct pb_err err = { 0, "" };
	char yaml[512], pw[256];

	load(f, "state: postgresql://pb@127.0.0.1/pb\n"
	     "state_password_env: " ENV_NAME "\n");
	assert_int_equal(setenv(ENV_NAME, SECRET, 1), 0);
	assert_secret(f, "state", SECRET);
	assert_int_equal(get(f, "smtp"), 0);
	assert_null(f->secret);
	assert_int_equal(unsetenv(ENV_NAME), 0);
	assert_fails(f, "state", EX_CONFIG, "state_password_env");
	config_release(&f->cfg);
	f->loaded = 0;
	tu_write(tu_path(pw, sizeof(pw), f->dir, "pw"), SECRET "\n", 0600);
	snprintf(yaml, sizeof(yaml), "state: postgresql://pb@127.0.0.1/pb\n"
		 "state_password_file: \"%s\"\n", pw);
	load(f, yaml);
	assert_secret(f, "state", SECRET);
	snprintf(yaml, sizeof(yaml), "state_password_env: PW\n"
		 "state_password_file: /run/pw\n");
	assert_int_equal(config_parse(&cfg, "perfbot.yaml", NULL, yaml,
				      strlen(yaml), &err), -1);
	assert_int_equal(err.code, EX_CONFIG);
	assert_string_equal(err.msg, "perfbot.yaml:2: 'state_password_env' "
			    "and 'state_password_file' are both set: a "
			    "password comes from one of them, remove the "
			    "other");
	snprintf(yaml, sizeof(yaml), "state_password: x\n");
	assert_int_equal(config_parse(&cfg, "perfbot.yaml", NULL, yaml,
				      strlen(yaml), &err), -1);
}

static void t_free_null(void **state)
{
	char *s = strdup(SECRET);

	(void)state;
	secret_free(NULL);
	assert_non_null(s);
	secret_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_none, setup, teardown),
		cmocka_unit_test_setup_teardown(t_env, setup, teardown),
		cmocka_unit_test_setup_teardown(t_env_unset_or_empty, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_file_first_line, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_file_crlf_and_no_newline,
						setup, teardown),
		cmocka_unit_test_setup_teardown(t_file_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(t_file_missing, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_file_too_large_or_binary,
						setup, teardown),
		cmocka_unit_test_setup_teardown(t_command, setup, teardown),
		cmocka_unit_test_setup_teardown(t_command_fails, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_command_silent, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_command_chatty, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_command_env_without_passwords,
						setup, teardown),
		cmocka_unit_test_setup_teardown(t_command_env_and_stderr, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_inline, setup, teardown),
		cmocka_unit_test_setup_teardown(t_one_source, setup, teardown),
		cmocka_unit_test_setup_teardown(t_state, setup, teardown),
		cmocka_unit_test_setup_teardown(t_free_null, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
