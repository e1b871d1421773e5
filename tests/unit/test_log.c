// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/util/log.c: which levels print at which setting, the
 * "perfbot: " prefix and the newline, control characters replaced, long
 * messages cut. stderr is captured by putting a temporary file on fd 2
 * around each call.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfbot/util/fileio.h"
#include "perfbot/util/log.h"

#include "testutil.h"

/* A temporary file standing in for stderr while 'saved' keeps the real one. */
struct fx {
	char dir[64];
	char path[128];
	int saved;
	enum log_level level;
	struct strbuf out;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_log");

	if (!f)
		return -1;
	tu_path(f->path, sizeof(f->path), f->dir, "stderr");
	f->saved = -1;
	f->level = log_get_level();
	sb_init(&f->out, 1 << 20);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	tu_stderr_restore(&f->saved);
	log_set_level(f->level);
	sb_release(&f->out);
	tu_rmtree(f->dir);
	free(f);
	return 0;
}

/* From now on fd 2 writes to a new, empty file. */
static void capture(struct fx *f)
{
	tu_stderr_capture(f->path, &f->saved);
}

/* Put stderr back and return what was written to it meanwhile. */
static const char *captured(struct fx *f)
{
	struct pb_err err;

	tu_stderr_restore(&f->saved);
	sb_reset(&f->out);
	if (file_read(f->path, 1 << 20, 0, &f->out, &err))
		fail_msg("%s", err.msg);
	return sb_str(&f->out);
}

/* One line of each kind at 'level'. */
static const char *all_four(struct fx *f, enum log_level level)
{
	log_set_level(level);
	capture(f);
	log_error("e %d", 1);
	log_warn("w %d", 2);
	log_info("i %d", 3);
	log_debug("d %d", 4);
	return captured(f);
}

static void t_levels(void **state)
{
	struct fx *f = *state;

	assert_string_equal(all_four(f, LOG_QUIET), "perfbot: e 1\n");
	assert_string_equal(all_four(f, LOG_WARN),
			    "perfbot: e 1\nperfbot: w 2\n");
	assert_string_equal(all_four(f, LOG_INFO),
			    "perfbot: e 1\nperfbot: w 2\nperfbot: i 3\n");
	assert_string_equal(all_four(f, LOG_DEBUG),
			    "perfbot: e 1\nperfbot: w 2\nperfbot: i 3\n"
			    "perfbot: d 4\n");
}

static void t_get_set(void **state)
{
	(void)state;
	log_set_level(LOG_DEBUG);
	assert_int_equal(log_get_level(), LOG_DEBUG);
	log_set_level(LOG_QUIET);
	assert_int_equal(log_get_level(), LOG_QUIET);
}

static void t_prefix_and_format(void **state)
{
	struct fx *f = *state;

	log_set_level(LOG_WARN);
	capture(f);
	log_warn("'%s': %ld runs, %.1f%%", "hackbench", 4L, 10.54);
	log_warn("%s", "");
	assert_string_equal(captured(f), "perfbot: 'hackbench': 4 runs, "
			    "10.5%\nperfbot: \n");
}

/* Hostile text cannot forge a line or a terminal sequence. */
static void t_control_characters(void **state)
{
	struct fx *f = *state;

	log_set_level(LOG_WARN);
	capture(f);
	log_warn("'%s'", "a\nperfbot: forged\r\tb\x1b[31mc\x7f" "d\x01");
	log_error("%s", "caf\xc3\xa9 \xe2\x80\x94 ok");
	assert_string_equal(captured(f), "perfbot: 'a?perfbot: forged??b?[31m"
			    "c?d?'\nperfbot: caf\xc3\xa9 \xe2\x80\x94 ok\n");
}

/* A long message is cut, still one line with its newline. */
static void t_long_message(void **state)
{
	struct fx *f = *state;
	char big[4000];
	const char *out;

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	log_set_level(LOG_WARN);
	capture(f);
	log_warn("%s", big);
	out = captured(f);
	assert_memory_equal(out, "perfbot: xxx", 12);
	assert_int_equal(strlen(out), strlen("perfbot: ") + 1023 + 1);
	assert_ptr_equal(strchr(out, '\n'), out + strlen(out) - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(t_levels, setup, teardown),
		cmocka_unit_test_setup_teardown(t_get_set, setup, teardown),
		cmocka_unit_test_setup_teardown(t_prefix_and_format, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_control_characters, setup,
						teardown),
		cmocka_unit_test_setup_teardown(t_long_message, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
