/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_SECRET_H
#define PERFBOT_SECRET_H

#include "perfbot/config/config.h"

/*
 * The password of section 'sec' ("smtp", "imap"; "state": the top-level
 * state_password_env and state_password_file only): password_env (an
 * environment variable), password_file (its first line), password_command
 * (an argv run without a shell; its first line of output) or password (in
 * the config file itself, which must then be mode 0600). *out is NULL
 * when none is configured. The secret never appears in any message: errors
 * name only the key. Free with secret_free(), which wipes it.
 */
int secret_get(const struct config *cfg, const char *sec, char **out,
	       struct pb_err *err);
void secret_free(char *s);

#endif
