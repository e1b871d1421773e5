// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests for src/config/sdunit.c: what a systemd unit lets perfbot
 * write (ProtectSystem=, ProtectHome=, PrivateTmp=, DynamicUser=, the
 * path lists and the directories systemd makes, User='s permissions),
 * the installed units that run a config, and the shipped pair of
 * config/contrib/: every path the example config writes is one the
 * example unit allows (issue 29 item 9). Run from the repository root.
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
#include "perfbot/config/sdunit.h"
#include "perfbot/util/fileio.h"

#include "testutil.h"

struct fx {
	char dir[64];
	char path[128];		/* <dir>/u.service */
	struct sdunit u;
	struct config cfg;
	struct pb_err err;
};

static int setup(void **state)
{
	struct fx *f = TU_NEW_FX(struct fx, "test_sdunit");

	if (!f)
		return -1;
	tu_path(f->path, sizeof(f->path), f->dir, "u.service");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	sdunit_release(&f->u);
	config_release(&f->cfg);
	tu_rmtree_force(f->dir);
	free(f);
	return 0;
}

static void unit(struct fx *f, const char *text)
{
	sdunit_release(&f->u);
	tu_write(f->path, text, 0644);
	if (sdunit_load(&f->u, f->path, &f->err))
		fail_msg("sdunit_load: %s", f->err.msg);
}

/* 'dir' may be written: 1, or 0 with f->err naming why. */
static int may(struct fx *f, const char *dir)
{
	pb_err_clear(&f->err);
	return sdunit_may_write(&f->u, "k", dir, &f->err) == 0;
}

static void has(struct fx *f, const char *part)
{
	if (!strstr(f->err.msg, part))
		fail_msg("'%s' not in '%s'", part, f->err.msg);
}

static void t_strict(void **state)
{
	struct fx *f = *state;

	unit(f, "[Unit]\nReadWritePaths=/nowhere\n[Service]\n"
	     "ExecStart=/usr/bin/perfbot run --quiet --config /etc/p.yaml\n"
	     "ProtectSystem=strict\nStateDirectory=perfbot\n"
	     "ReadWritePaths=-/var/spool/perfbot \\\n  \"/srv/a b\"\n"
	     "ReadOnlyPaths=/var/spool/perfbot/ro\n");
	assert_string_equal(f->u.command, "run");
	assert_string_equal(f->u.config, "/etc/p.yaml");
	assert_true(may(f, "/var/lib/perfbot"));
	assert_true(may(f, "/var/lib/perfbot/x/y"));
	assert_true(may(f, "/var/spool/perfbot/requests"));
	assert_true(may(f, "/srv/a b/c"));
	assert_false(may(f, "/srv/lkp/requests"));
	has(f, "k: '/srv/lkp/requests': the unit ");
	has(f, "ProtectSystem=strict makes it read-only");
	has(f, "ReadWritePaths=-/var/spool/perfbot");
	has(f, "(change the unit, or k)");
	assert_int_equal(f->err.code, EX_CONFIG);
	assert_false(may(f, "/var/spool/perfbot/ro/x"));
	has(f, "ReadOnlyPaths makes it read-only");
	/* a [Unit] section's keys are not the service's */
	assert_false(may(f, "/nowhere"));
	/* an empty assignment resets the list */
	unit(f, "[Service]\nProtectSystem=strict\nReadWritePaths=/srv\n"
	     "ReadWritePaths=\n");
	assert_false(may(f, "/srv"));
	assert_null(f->u.command);
}

static void t_system_home_tmp(void **state)
{
	struct fx *f = *state;

	unit(f, "[Service]\nProtectSystem=full\nProtectHome=yes\n"
	     "PrivateTmp=yes\nReadWritePaths=/home/op/spool\n");
	assert_true(may(f, "/srv/x"));
	assert_false(may(f, "/etc/perfbot"));
	has(f, "ProtectSystem=full");
	assert_false(may(f, "/usr/local/x"));
	assert_false(may(f, "/home/op/spool"));
	has(f, "ProtectHome=yes hides '/home'");
	assert_false(may(f, "/tmp/spool"));
	has(f, "PrivateTmp=yes");
	assert_false(may(f, "/var/tmp"));
	unit(f, "[Service]\nProtectHome=read-only\n"
	     "ReadWritePaths=/home/op/spool\n");
	assert_true(may(f, "/home/op/spool/r"));
	assert_false(may(f, "/home/op"));
	assert_true(may(f, "/tmp/x"));
	unit(f, "[Service]\nProtectSystem=yes\n"
	     "InaccessiblePaths=/srv\nReadWritePaths=/srv/x\n");
	assert_true(may(f, "/etc"));
	assert_false(may(f, "/srv/x"));
	has(f, "InaccessiblePaths hides '/srv'");
	/* DynamicUser= implies strict, read-only home, a private /tmp */
	unit(f, "[Service]\nDynamicUser=yes\nStateDirectory=%N-x\n"
	     "CacheDirectory=c\nLogsDirectory=%L-not\n");
	assert_false(may(f, "/srv"));
	assert_false(may(f, "/tmp/a"));
	assert_true(may(f, "/var/cache/c"));
	assert_false(may(f, "/var/lib/perfbot"));
}

static void t_bad_values(void **state)
{
	struct fx *f = *state;

	tu_write(f->path, "[Service]\nProtectSystem=strcit\n", 0644);
	assert_int_equal(sdunit_load(&f->u, f->path, &f->err), -1);
	has(f, "ProtectSystem=strcit: not a value systemd takes");
	tu_write(f->path, "[Service]\nReadWritePaths=var/x\n", 0644);
	assert_int_equal(sdunit_load(&f->u, f->path, &f->err), -1);
	has(f, "'var/x' is not an absolute path");
	assert_int_equal(sdunit_load(&f->u, "/nonexistent/u.service",
				     &f->err), -1);
	assert_int_equal(f->err.code, EX_NOINPUT);
	sdunit_release(&f->u);
	sdunit_release(&f->u);
}

/* User= must be able to write where the unit lets it. */
static void t_user(void **state)
{
	struct fx *f = *state;
	char d[PATH_MAX], text[512];

	tu_path(d, sizeof(d), f->dir, "spool");
	assert_int_equal(mkdir(d, 0700), 0);
	assert_int_equal(chmod(d, 0700), 0);
	if (geteuid() == 0)	/* root's 0700: no one else's */
		assert_int_equal(chown(d, 0, 0), 0);
	snprintf(text, sizeof(text), "[Service]\nUser=nobody\n");
	unit(f, text);
	assert_false(may(f, d));
	has(f, "its User=nobody may not write in '");
	has(f, "mode 0700");
	assert_int_equal(chmod(d, 0777), 0);
	assert_int_equal(chmod(f->dir, 0700), 0);
	assert_false(may(f, d));
	has(f, "may not search");
	assert_int_equal(chmod(f->dir, 0755), 0);
	assert_true(may(f, d));
	assert_int_equal(sdunit_user_check(&f->u, &f->err), 0);
	unit(f, "[Service]\nUser=perfbot-no-such-user\n");
	assert_int_equal(sdunit_user_check(&f->u, &f->err), -1);
	has(f, "User=perfbot-no-such-user: no such user");
	unit(f, "[Service]\nUser=perfbot-no-such-user\nDynamicUser=yes\n");
	assert_int_equal(sdunit_user_check(&f->u, &f->err), 0);
}

/* The installed units that run a config, found by their ExecStart=. */
static void t_find(void **state)
{
	struct fx *f = *state;
	char a[PATH_MAX], b[PATH_MAX], cfg[PATH_MAX], text[PATH_MAX + 64];
	const char *dirs[3] = { a, b, NULL };
	char **found = NULL;

	tu_path(a, sizeof(a), f->dir, "etc");
	tu_path(b, sizeof(b), f->dir, "lib");
	tu_path(cfg, sizeof(cfg), f->dir, "p.yaml");
	assert_int_equal(mkdir(a, 0755), 0);
	assert_int_equal(mkdir(b, 0755), 0);
	tu_write(cfg, "{}\n", 0644);
	/* another name of the same file */
	snprintf(text, sizeof(text), "[Service]\nExecStart=-/x/perfbot "
		 "--quiet run --config=%s/../p.yaml\n", a);
	tu_put(a, "perfbot.service", text, 0644);
	tu_put(b, "perfbot-web.service", text, 0644);
	tu_put(a, "other.service", text, 0644);
	/* hidden by the one of the first directory */
	tu_put(b, "perfbot.service", "[Service]\nExecStart=/x/perfbot run "
	       "--config /elsewhere\n", 0644);
	tu_put(b, "perfbot-x.service", "[Service]\nExecStart=/bin/sh -c "
	       "perfbot\n", 0644);
	assert_int_equal(sdunit_find(dirs, cfg, &found, &f->err), 2);
	assert_string_equal(strrchr(found[0], '/'), "/perfbot.service");
	assert_non_null(strstr(found[0], "/etc/"));
	assert_string_equal(strrchr(found[1], '/'), "/perfbot-web.service");
	assert_null(found[2]);
	free(found[0]);
	free(found[1]);
	free(found);
}

/*
 * The shipped pair: every directory the example config writes is one the
 * example unit lets perfbot write (its spool_dir was /srv/lkp/requests,
 * read-only under ProtectSystem=strict).
 */
static void t_contrib_agree(void **state)
{
	struct fx *f = *state;
	const char *key[8];
	char *dir[8];
	size_t n, i;

	if (config_load(&f->cfg, "config/contrib/perfbot.yaml", &f->err) ||
	    sdunit_load(&f->u, "config/contrib/perfbot.service", &f->err))
		fail_msg("%s", f->err.msg);
	assert_string_equal(f->u.config, "/etc/perfbot/perfbot.yaml");
	n = sdunit_written(&f->cfg, f->cfg.state, key, dir, 8);
	assert_true(n >= 2);
	assert_string_equal(key[1], "scheduler.spool_dir");
	for (i = 0; i < n; i++) {
		if (sdunit_may_write(&f->u, key[i], dir[i], &f->err))
			fail_msg("%s", f->err.msg);
		free(dir[i]);
	}
}

int main(void)
{
#define T(t) cmocka_unit_test_setup_teardown(t, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(t_strict),
		T(t_system_home_tmp),
		T(t_bad_values),
		T(t_user),
		T(t_find),
		T(t_contrib_agree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
