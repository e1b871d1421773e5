// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli: the part of 'perfbot check' that looks at the systemd unit that
 * runs perfbot: a path the configuration writes that the unit makes
 * read-only, hides or gives a private /tmp of its own is a problem now,
 * not a "Read-only file system" when a developer asks for a retest.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkunit.h"
#include "perfbot/cli/clicommon.h"
#include "perfbot/config/sdunit.h"
#include "perfbot/util/log.h"

#define WRITTEN_MAX 8

/* The commands whose cycle writes the state and the scheduler's paths. */
static int writes(const char *command)
{
	static const char *const cmds[] = { "run", "send", "poll", "retest",
					     "requeue", "drop" };
	size_t i;

	for (i = 0; command && i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(command, cmds[i]))
			return 1;
	return 0;
}

static int same_file(const char *a, const char *b)
{
	char *ra = realpath(a ? a : "/etc/perfbot/perfbot.yaml", NULL);
	char *rb = realpath(b, NULL);
	int same = ra && rb && !strcmp(ra, rb);

	free(ra);
	free(rb);
	return same;
}

static int one_unit(const struct config *cfg, const char *path, int given,
		    const char *const *key, char *const *dir, size_t n,
		    int quiet)
{
	struct pb_err err = { 0, "" };
	struct sdunit u;
	int problems = 0;
	size_t i;

	if (sdunit_load(&u, path, &err)) {
		log_error("--unit: %s", err.msg);
		return 1;
	}
	if (!writes(u.command)) {
		if (given) {
			log_error("--unit: %s: its ExecStart= runs %s%s, not "
				  "'perfbot run'", path, u.command ?
				  "perfbot " : "no perfbot",
				  u.command ? u.command : "");
			problems++;
		}
		goto out;
	}
	if (given && !same_file(u.config, cfg->path))
		log_warn("--unit: %s runs '--config %s', not '%s'", path,
			 u.config ? u.config : "/etc/perfbot/perfbot.yaml",
			 cfg->path);
	if (sdunit_user_check(&u, &err)) {
		log_error("%s", err.msg);
		problems++;
	}
	for (i = 0; i < n; i++) {
		if (!sdunit_may_write(&u, key[i], dir[i], &err))
			continue;
		log_error("%s", err.msg);
		problems++;
	}
	if (!problems && !quiet)
		printf("ok: the unit %s lets perfbot write every path it "
		       "writes (%zu)\n", path, n);
out:
	sdunit_release(&u);
	return problems;
}

int check_units(const struct config *cfg, const char *unit, int quiet)
{
	const char *key[WRITTEN_MAX];
	char *dir[WRITTEN_MAX], *state = cli_state_path(cfg), **units = NULL;
	struct pb_err err = { 0, "" };
	size_t n = sdunit_written(cfg, state, key, dir, WRITTEN_MAX), i;
	int problems = 0, found = 0;

	if (unit) {
		problems = one_unit(cfg, unit, 1, key, dir, n, quiet);
	} else if ((found = sdunit_find(sdunit_system_dirs, cfg->path,
					&units, &err)) < 0) {
		log_debug("systemd units: %s", err.msg);
	} else if (!found && !quiet) {
		printf("ok: no installed systemd unit runs this configuration "
		       "('--unit FILE' checks one)\n");
	}
	for (i = 0; (int)i < found; i++) {
		problems += one_unit(cfg, units[i], 0, key, dir, n, quiet);
		free(units[i]);
	}
	free(units);
	for (i = 0; i < n; i++)
		free(dir[i]);
	free(state);
	return problems;
}
