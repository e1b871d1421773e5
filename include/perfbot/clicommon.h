/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_CLICOMMON_H
#define PERFBOT_CLICOMMON_H

#include <time.h>

#include "perfbot/config.h"

/*
 * Helpers the subcommands share: which configuration file to load
 * (--config, else $PERFBOT_CONFIG, else config/perfbot.yaml when it
 * exists, else built-in defaults) and the current time (SOURCE_DATE_EPOCH
 * when set, so that output can be reproduced).
 */
int cli_load_config(struct config *cfg, const char *opt_path,
		    struct pb_err *err);
time_t cli_now(void);

#endif
