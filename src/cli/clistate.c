// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli: the state for the commands that change it by hand (requeue,
 * drop): opened under the run lock, and who asked; a server's password
 * handed to the state. Apart from common.c so that the front end
 * (src/cli/front.c) links no SQLite nor libpq.
 */
#include <pwd.h>
#include <stdlib.h>
#include <unistd.h>

#include "perfbot/cli/clicommon.h"
#include "perfbot/config/secret.h"
#include "perfbot/state/state.h"

int cli_open_state(const struct config *cfg, struct state **st,
		   struct pb_err *err)
{
	char *path = cli_state_path(cfg);
	int rc;

	*st = NULL;
	if (cli_state_secret(cfg, err)) {
		free(path);
		return -1;
	}
	if (!path)
		return pb_fail(err, EX_CONFIG, "state: not set, and no $HOME "
			       "for the default place");
	if (state_missing(path))
		rc = pb_fail(err, EX_NOINPUT, "state '%s': not created yet: "
			     "nothing has run", path);
	else
		rc = state_open(st, path, STATE_LOCKED, err);
	free(path);
	return rc;
}

int cli_state_secret(const struct config *cfg, struct pb_err *err)
{
	char *pw = NULL;
	int rc;

	if (!cfg->state || state_is_file(cfg->state))
		return 0;
	if (secret_get(cfg, "state", &pw, err))
		return -1;
	rc = state_password(pw);
	secret_free(pw);
	return rc ? pb_fail(err, EX_OSERR, "out of memory") : 0;
}

const char *cli_who(void)
{
	struct passwd *pw = getpwuid(getuid());

	return pw && pw->pw_name ? pw->pw_name : "?";
}
