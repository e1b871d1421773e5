/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_CLICOMMON_H
#define PERFBOT_CLICOMMON_H

#include <time.h>

#include "perfbot/config/config.h"

/*
 * Helpers the subcommands share.
 *
 * Which configuration file is loaded: --config FILE, else
 * $PERFBOT_CONFIG, else the first that exists of
 * $XDG_CONFIG_HOME/perfbot/perfbot.yaml (~/.config/perfbot/perfbot.yaml)
 * and PERFBOT_SYSCONF (/etc/perfbot/perfbot.yaml). The working directory
 * is never searched, so a cron line does the same wherever it runs. With
 * 'required' (run, send, poll, retest, check, status) finding none is
 * EX_CONFIG naming every place looked in; without, the built-in defaults
 * are used. The file loaded is logged (info).
 *
 * The current time is SOURCE_DATE_EPOCH when set, so that output can be
 * reproduced.
 */
int cli_load_config(struct config *cfg, const char *opt_path, int required,
		    struct pb_err *err);
/* The same, reporting every problem of the file (perfbot check). */
int cli_load_config_all(struct config *cfg, const char *opt_path,
			struct pb_err *err);
time_t cli_now(void);

/* The state file: 'state' of the config, else the XDG state directory. */
char *cli_state_path(const struct config *cfg);

/*
 * The state for a command that changes it (requeue, drop): opened under
 * the run lock, EX_NOINPUT when it was never created.
 */
struct state;
int cli_open_state(const struct config *cfg, struct state **st,
		   struct pb_err *err);

/*
 * A state on a server: its password (state_password_env/_file) handed to
 * the state for the opens to come; none set, libpq's own sources. Every
 * command that opens the state calls it after loading the config.
 */
int cli_state_secret(const struct config *cfg, struct pb_err *err);

/* Who runs this command (the user name), for the state's records. */
const char *cli_who(void);

#endif
