// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SMTP and IMAP passwords, for the stages that log in (send, poll,
 * check): from an environment variable, a file's first line, a
 * password_command's first line of output, or the config file itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfbot/util/fileio.h"
#include "perfbot/util/proc.h"
#include "perfbot/config/secret.h"
#include "perfbot/util/log.h"
#include "perfbot/util/text.h"

#define SECRET_MAX 4096
#define COMMAND_TIMEOUT_MS 10000

extern char **environ;

/* Keep the first line only; -1 when it is empty. */
static int first_line(char *s)
{
	s[strcspn(s, "\r\n")] = '\0';
	return *s ? 0 : -1;
}

static int from_file(const char *path, const char *key, char **out,
		     struct pb_err *err)
{
	struct strbuf sb = STRBUF_INIT;

	if (file_read(path, SECRET_MAX, 1, &sb, err)) {
		sb_release(&sb);
		return pb_wrap(err, "%s", key);
	}
	*out = sb_detach(&sb, NULL);
	if (!*out || first_line(*out)) {
		secret_free(*out);
		*out = NULL;
		return pb_fail(err, EX_CONFIG, "%s: '%s' is empty", key, path);
	}
	return 0;
}

/* Each line the command wrote on stderr, as one warning line of its own. */
static void said(const char *key, const char *s, size_t n)
{
	char line[256];
	size_t k;

	while (n) {
		k = strcspn(s, "\n");
		if (k > n)
			k = n;
		text_scrub_to(line, sizeof(line), s, k, TEXT_CTRL_QMARK);
		if (*line)
			log_warn("%s said: %s", key, line);
		s += k + (k < n);
		n -= k + (k < n);
	}
}

/*
 * The first line of the command's output: read until a line end (or
 * nothing came for COMMAND_TIMEOUT_MS), then the command gets as long
 * again to exit 0. It has perfbot's stdin (a password manager may ask on
 * the terminal) and environment, less the other passwords (command_env).
 * What it says on stderr is never passed through as it is: each line is
 * logged scrubbed, with URL passwords masked, after the key's name.
 */
static int from_command(const char *const *argv, const char *key,
			char **env, char **out, struct pb_err *err)
{
	struct strbuf sb;
	struct proc p;
	int rc = -1;

	if (!argv[0])
		return pb_fail(err, EX_CONFIG, "%s: cannot run", key);
	sb_init(&sb, SECRET_MAX);
	/* posix_spawn wants char *const[]: nothing writes to them */
	if (!proc_start(&p, (char **)argv, env, PROC_STDERR_KEEP)) {
		proc_read_line(&p, &sb, COMMAND_TIMEOUT_MS);
		proc_wait(&p, COMMAND_TIMEOUT_MS);
		rc = p.code == 0 ? 0 : -1;
		said(key, p.err, p.errlen);
		proc_release(&p);
	}
	*out = rc ? NULL : sb_detach(&sb, NULL);
	if (rc || !*out || first_line(*out)) {
		sb_release(&sb);
		secret_free(*out);
		*out = NULL;
		return pb_fail(err, EX_CONFIG, "%s: the command failed or "
			       "printed nothing", key);
	}
	return 0;
}

static int from_env(const char *name, const char *key, char **out,
		    struct pb_err *err)
{
	const char *e = getenv(name);

	if (!e || !*e)
		return pb_fail(err, EX_CONFIG, "%s: environment variable '%s' "
			       "is not set", key, name);
	if (!(*out = strdup(e)))
		return pb_fail(err, EX_OSERR, "out of memory");
	return 0;
}

/*
 * The environment of a password_command: perfbot's, less the variables
 * that hold the other passwords (smtp.password_env, imap.password_env,
 * state_password_env).
 * The strings are perfbot's own; only the array is allocated.
 */
static char **command_env(const struct config *cfg)
{
	const char *hide[3] = { cfg->smtp.secret.password_env,
				cfg->imap.secret.password_env,
				cfg->state_secret.password_env };
	size_t i, j, k, n = 0, len;
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + 1, sizeof(*env));
	if (!env)
		return NULL;
	for (i = k = 0; i < n; i++) {
		for (j = 0; j < 3; j++) {
			len = hide[j] ? strlen(hide[j]) : 0;
			if (len && !strncmp(environ[i], hide[j], len) &&
			    environ[i][len] == '=')
				break;
		}
		if (j == 3)
			env[k++] = environ[i];
	}
	return env;
}

int secret_get(const struct config *cfg, const char *sec, char **out,
	       struct pb_err *err)
{
	const struct cfg_secret *s = !strcmp(sec, "imap") ? &cfg->imap.secret :
		!strcmp(sec, "state") ? &cfg->state_secret : &cfg->smtp.secret;
	const char *dot = strcmp(sec, "state") ? "." : "_";
	char key[32];
	char **env;
	int rc = 0;

	*out = NULL;
	if (s->password_env) {
		snprintf(key, sizeof(key), "%s%spassword_env", sec, dot);
		rc = from_env(s->password_env, key, out, err);
	} else if (s->password_file) {
		snprintf(key, sizeof(key), "%s%spassword_file", sec, dot);
		rc = from_file(s->password_file, key, out, err);
	} else if (s->password_command.v) {	/* set, maybe [] */
		snprintf(key, sizeof(key), "%s.password_command", sec);
		env = command_env(cfg);
		rc = env ? from_command(s->password_command.v, key, env, out,
					err) :
			pb_fail(err, EX_OSERR, "out of memory");
		free(env);
	} else if (s->password && !(*out = strdup(s->password))) {
		rc = pb_fail(err, EX_OSERR, "out of memory");
	}
	return rc;
}

void secret_free(char *s)
{
	if (!s)
		return;
	explicit_bzero(s, strlen(s));
	free(s);
}
