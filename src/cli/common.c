// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <unistd.h>

#include "perfbot/clicommon.h"
#include "perfbot/yaml.h"

#define DEFAULT_CONFIG "config/perfbot.yaml"

int cli_load_config(struct config *cfg, const char *opt_path,
		    struct pb_err *err)
{
	const char *path = opt_path;

	if (!path)
		path = getenv("PERFBOT_CONFIG");
	if (!path && access(DEFAULT_CONFIG, F_OK) == 0)
		path = DEFAULT_CONFIG;
	return config_load(cfg, path, err);
}

time_t cli_now(void)
{
	const char *s = getenv("SOURCE_DATE_EPOCH");
	long v;

	if (s && !parse_long(s, 0, 4102444800L, &v))
		return (time_t)v;
	return time(NULL);
}
