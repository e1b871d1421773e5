// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli: 'perfbot state backup FILE', 'export FILE', 'import FILE' and
 * 'prune', for the operator: a consistent copy of the state made while
 * runs go on (the backend's: SQLite's online backup, a server's neutral
 * dump; src/state/backup.c), the state
 * as a neutral dump and back (src/state/dump.c: to move it from SQLite
 * to PostgreSQL or back), and the removal of the
 * result roots perfbot made for requests long over
 * (scheduler.results_keep, src/cycle/prune.c); for a cron line or a
 * systemd timer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfbot/cli/cli.h"
#include "perfbot/cli/clicommon.h"
#include "perfbot/cycle/prune.h"
#include "perfbot/state/backup.h"
#include "perfbot/state/dump.h"
#include "perfbot/util/log.h"

struct cli_state_opts {
	int dry_run;
	const char *config;
	int quiet, verbose;
};

static const struct cli_opt state_opts[] = {
	CLI_OPT_FLAG("dry-run", struct cli_state_opts, dry_run,
		     "prune: say what would be removed, remove nothing"),
	CLI_OPT_CONFIG(struct cli_state_opts),
	CLI_OPT_QUIET(struct cli_state_opts),
	CLI_OPT_VERBOSE(struct cli_state_opts),
	CLI_OPT_END,
};

const struct cli_spec state_spec = {
	"state", "backup FILE | export FILE | import FILE | prune", 1, 2,
	"back up, export or import the state; remove the result roots of "
	"old requests",
	"'backup FILE' copies the state into FILE with SQLite's online "
	"backup: one consistent snapshot, taken without stopping or waiting "
	"for a run, checked, synced, and renamed over FILE (mode 0600). To "
	"restore it, stop the timer or cron line and copy FILE over the "
	"state (its -wal and -shm removed). On PostgreSQL FILE is the "
	"neutral dump of 'export' instead, one snapshot, restored by "
	"'import'. 'export FILE' writes every table "
	"of the state, whatever its backend, as a neutral text dump "
	"(doc/state-dump.md; FILE mode 0600, '-' the standard output), read "
	"in one transaction; 'import FILE' reads such a dump into the "
	"configured state, which must be new or empty, all or nothing, and "
	"refuses a dump of another schema version: together they move a "
	"state from SQLite to PostgreSQL and back. 'prune' removes the result roots "
	"perfbot made under scheduler.results_dir for tests and verify runs "
	"over for scheduler.results_keep (and a test's saved patch): only a "
	"directory the state says perfbot made there, never through a link; "
	"--dry-run lists them.",
	state_opts, sizeof(struct cli_state_opts),
};

static int backup(const char *path, const char *dest, int quiet)
{
	struct pb_err err = { 0, "" };
	struct backup_counts b;

	if (state_backup(path, dest, &b, &err))
		return cli_fail(&err);
	if (quiet)
		return 0;
	if (b.dump)
		printf("backed up '%s' to '%s' as a dump ('perfbot state "
		       "import' restores it): %ld tables, %ld rows, %lld "
		       "bytes\n", path, dest, b.tables, b.rows, b.bytes);
	else
		printf("backed up '%s' to '%s': %ld pages, %lld bytes\n", path,
		       dest, b.pages, b.bytes);
	return 0;
}

static int dump(const char *path, const char *file, int import, int quiet)
{
	struct pb_err err = { 0, "" };
	struct dump_counts c;

	if (import ? state_import(path, file, &c, &err) :
		     state_export(path, file, &c, &err))
		return cli_fail(&err);
	if (!quiet)
		fprintf(import || !strcmp(file, "-") ? stderr : stdout,
			"%s '%s' %s '%s': %ld tables, %ld rows\n",
			import ? "imported" : "exported", import ? file : path,
			import ? "into" : "to", import ? path : file, c.tables,
			c.rows);
	return 0;
}

static int prune(const struct config *cfg, const char *path, int dry,
		 int quiet)
{
	struct pb_err err = { 0, "" };
	struct prune_stats ps;
	struct state *st = NULL;
	int rc = 0;

	if (state_missing(path)) {
		if (!quiet)
			printf("prune: no state yet, nothing to remove\n");
		return 0;
	}
	if (state_open(&st, path, STATE_READ, &err) ||
	    results_prune(cfg, st, cli_now(), dry, &ps, &err))
		rc = cli_fail(&err);
	else if (!quiet || ps.skipped)
		printf("prune: %s%ld result root%s, %lld bytes; %ld left "
		       "alone\n", dry ? "would remove " : "removed ",
		       ps.removed, ps.removed == 1 ? "" : "s", ps.bytes,
		       ps.skipped);
	state_close(st);
	return rc;
}

int cmd_state(int argc, char **argv)
{
	struct pb_err err = { 0, "" };
	struct cli_state_opts o;
	struct cli_args a;
	struct config cfg;
	char *path = NULL;
	int rc = cli_parse(&state_spec, argc, argv, &o, &a), with_file;
	const char *verb;

	if (rc)
		return rc > 0 ? 0 : EX_USAGE;
	verb = a.arg[0];
	with_file = !strcmp(verb, "backup") || !strcmp(verb, "export") ||
		    !strcmp(verb, "import");
	if ((!with_file && strcmp(verb, "prune")) ||
	    (with_file != (a.nargs == 2))) {
		log_error("usage: perfbot state backup|export|import FILE | "
			  "perfbot state prune [--dry-run]");
		return EX_USAGE;
	}
	cli_apply_log(o.quiet, o.verbose, 0);
	if (cli_load_config(&cfg, o.config, 1, &err) ||
	    cli_state_secret(&cfg, &err))
		return cli_fail(&err);
	path = cli_state_path(&cfg);
	if (!path) {
		pb_fail(&err, EX_CONFIG, "state: not set, and no $HOME for "
			"the default place");
		rc = cli_fail(&err);
	} else if (!strcmp(verb, "backup")) {
		rc = backup(path, a.arg[1], o.quiet);
	} else if (with_file) {
		rc = dump(path, a.arg[1], !strcmp(verb, "import"), o.quiet);
	} else {
		rc = prune(&cfg, path, o.dry_run, o.quiet);
	}
	free(path);
	config_release(&cfg);
	return rc;
}
