// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the commands share: which configuration file is loaded, the state
 * file's default place, "now" (SOURCE_DATE_EPOCH), the one error line.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfbot/cli/cli.h"
#include "perfbot/cli/clicommon.h"
#include "perfbot/util/fileio.h"
#include "perfbot/util/log.h"
#include "perfbot/util/yaml.h"

#ifndef PERFBOT_SYSCONF
#define PERFBOT_SYSCONF "/etc/perfbot/perfbot.yaml"
#endif

/* $XDG_<what>_HOME/perfbot/<name>, else ~/<fallback>/perfbot/<name>. */
static char *xdg_path(const char *env, const char *fallback,
		      const char *name)
{
	const char *base = getenv(env), *home = getenv("HOME");
	struct strbuf sb = STRBUF_INIT;
	int rc;

	if (base && base[0] == '/')
		rc = sb_addf(&sb, "%s/perfbot/%s", base, name);
	else if (home && home[0] == '/')
		rc = sb_addf(&sb, "%s/%s/perfbot/%s", home, fallback, name);
	else
		rc = -1;
	if (rc) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb, NULL);
}

/* The file to load: 0 with *path (maybe NULL: none found), -1 on error. */
static int find_config(const char *opt_path, int required, char **path,
		       struct pb_err *err)
{
	const char *env = getenv("PERFBOT_CONFIG");
	char *xdg = NULL;
	int rc = 0;

	*path = NULL;
	if (opt_path || (env && *env)) {
		*path = strdup(opt_path ? opt_path : env);
		return *path ? 0 : pb_fail(err, EX_OSERR, "out of memory");
	}
	xdg = xdg_path("XDG_CONFIG_HOME", ".config", "perfbot.yaml");
	if (xdg && access(xdg, F_OK) == 0) {
		*path = xdg;
		return 0;
	}
	if (access(PERFBOT_SYSCONF, F_OK) == 0) {
		*path = strdup(PERFBOT_SYSCONF);
		if (!*path)
			rc = pb_fail(err, EX_OSERR, "out of memory");
	} else if (required) {
		rc = pb_fail(err, EX_CONFIG, "no configuration: none given "
			     "(--config FILE, $PERFBOT_CONFIG) and none in %s%s"
			     "%s; copy the example (config/perfbot.yaml in the "
			     "data directory) to one of them",
			     xdg ? xdg : "", xdg ? " or " : "",
			     PERFBOT_SYSCONF);
	}
	free(xdg);
	return rc;
}

static int load(struct config *cfg, const char *opt_path, int required,
		unsigned flags, struct pb_err *err)
{
	char *path = NULL;
	int rc;

	if (find_config(opt_path, required, &path, err)) {
		memset(cfg, 0, sizeof(*cfg));
		return -1;
	}
	rc = config_load_flags(cfg, path, flags, err);
	if (!rc && path)
		log_info("config '%s'", cfg->path);
	else if (!rc)
		log_debug("no configuration file: built-in defaults");
	free(path);
	return rc;
}

int cli_load_config(struct config *cfg, const char *opt_path, int required,
		    struct pb_err *err)
{
	return load(cfg, opt_path, required, 0, err);
}

int cli_load_config_all(struct config *cfg, const char *opt_path,
			struct pb_err *err)
{
	return load(cfg, opt_path, 1, CONFIG_ALL_PROBLEMS, err);
}

char *cli_state_path(const struct config *cfg)
{
	const char *s = cfg->state;

	return s ? strdup(s) : xdg_path("XDG_STATE_HOME", ".local/state",
					"perfbot.db");
}

time_t cli_now(void)
{
	const char *s = getenv("SOURCE_DATE_EPOCH");
	long v;

	if (s && !parse_long(s, 0, 4102444800L, &v))
		return (time_t)v;
	return time(NULL);
}

int cli_fail(const struct pb_err *err)
{
	log_error("%s", err->msg);
	return err->code ? err->code : EX_SOFTWARE;
}
