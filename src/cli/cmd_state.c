// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli: 'perfbot state backup FILE', for the operator: a consistent copy
 * of the state made while runs go on (SQLite's online backup, in
 * src/state/backup.c), for a cron line or a systemd timer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/cli/cli.h"
#include "perfbot/cli/clicommon.h"
#include "perfbot/state/backup.h"
#include "perfbot/util/log.h"

struct cli_state_opts {
	const char *config;
	int quiet, verbose;
};

static const struct cli_opt state_opts[] = {
	CLI_OPT_CONFIG(struct cli_state_opts),
	CLI_OPT_QUIET(struct cli_state_opts),
	CLI_OPT_VERBOSE(struct cli_state_opts),
	CLI_OPT_END,
};

const struct cli_spec state_spec = {
	"state", "backup FILE", 2, 2,
	"back up the state: a consistent copy, made while runs go on",
	"'backup FILE' copies the state into FILE with SQLite's online "
	"backup: one consistent snapshot, taken without stopping or waiting "
	"for a run, checked, synced, and renamed over FILE (mode 0600). To "
	"restore it, stop the timer or cron line and copy FILE over the "
	"state (its -wal and -shm removed).",
	state_opts, sizeof(struct cli_state_opts),
};

int cmd_state(int argc, char **argv)
{
	struct pb_err err = { 0, "" };
	struct cli_state_opts o;
	struct cli_args a;
	struct config cfg;
	char *path = NULL;
	long pages;
	long long bytes;
	int rc = cli_parse(&state_spec, argc, argv, &o, &a);

	if (rc)
		return rc > 0 ? 0 : EX_USAGE;
	if (strcmp(a.arg[0], "backup")) {
		log_error("state: '%s': unknown (the one is 'perfbot state "
			  "backup FILE')", a.arg[0]);
		return EX_USAGE;
	}
	cli_apply_log(o.quiet, o.verbose, 0);
	if (cli_load_config(&cfg, o.config, 1, &err))
		return cli_fail(&err);
	path = cli_state_path(&cfg);
	if (!path) {
		pb_fail(&err, EX_CONFIG, "state: not set, and no $HOME for "
			"the default place");
		rc = cli_fail(&err);
	} else if (state_backup(path, a.arg[1], &pages, &bytes, &err))
		rc = cli_fail(&err);
	else if (!o.quiet)
		printf("backed up '%s' to '%s': %ld pages, %lld bytes\n", path,
		       a.arg[1], pages, bytes);
	free(path);
	config_release(&cfg);
	return rc;
}
