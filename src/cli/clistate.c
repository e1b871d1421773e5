// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli: the state for the commands that change it by hand (requeue,
 * drop): opened under the run lock, and who asked. Apart from common.c
 * so that the front end (src/cli/front.c) links no SQLite.
 */
#include <pwd.h>
#include <stdlib.h>
#include <unistd.h>

#include "perfbot/cli/clicommon.h"
#include "perfbot/state/state.h"

int cli_open_state(const struct config *cfg, struct state **st,
		   struct pb_err *err)
{
	char *path = cli_state_path(cfg);
	int rc;

	*st = NULL;
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

const char *cli_who(void)
{
	struct passwd *pw = getpwuid(getuid());

	return pw && pw->pw_name ? pw->pw_name : "?";
}
