// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SMTP and IMAP passwords, for the stages that log in (send, poll,
 * check): from an environment variable, a file's first line, a
 * password_command's first line of output, or the config file itself.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfbot/fileio.h"
#include "perfbot/proc.h"
#include "perfbot/secret.h"

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

/*
 * The first line of the command's output: read until a line end (or
 * nothing came for COMMAND_TIMEOUT_MS), then the command gets as long
 * again to exit 0. It has perfbot's environment, stdin and stderr (a
 * password manager may ask on the terminal).
 */
static int from_command(json_t *argv_json, const char *key, char **out,
			struct pb_err *err)
{
	size_t i, n = json_array_size(argv_json);
	struct strbuf sb;
	struct proc p;
	char **argv;
	int rc = -1;

	argv = calloc(n + 1, sizeof(*argv));
	if (!n || !argv) {
		free(argv);
		return pb_fail(err, EX_CONFIG, "%s: cannot run", key);
	}
	for (i = 0; i < n; i++)
		argv[i] = (char *)json_string_value(json_array_get(argv_json,
								   i));
	sb_init(&sb, SECRET_MAX);
	if (!proc_start(&p, argv, environ, 0)) {
		proc_read_line(&p, &sb, COMMAND_TIMEOUT_MS);
		proc_wait(&p, COMMAND_TIMEOUT_MS);
		rc = p.code == 0 ? 0 : -1;
		proc_release(&p);
	}
	free(argv);
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

/* 'k' becomes "<sec>.<name>". */
static int set_key(struct strbuf *k, const char *sec, const char *name,
		   struct pb_err *err)
{
	sb_reset(k);
	if (sb_addf(k, "%s.%s", sec, name))
		return pb_fail(err, EX_OSERR, "out of memory");
	return 0;
}

int secret_get(const struct config *cfg, const char *sec, char **out,
	       struct pb_err *err)
{
	struct strbuf k = STRBUF_INIT;
	const char *v;
	json_t *cmd;
	int rc = 0;

	*out = NULL;
	if (set_key(&k, sec, "password_env", err))
		rc = -1;
	else if ((v = cfg_str(cfg, k.buf, NULL)))
		rc = from_env(v, k.buf, out, err);
	else if (set_key(&k, sec, "password_file", err))
		rc = -1;
	else if ((v = cfg_str(cfg, k.buf, NULL)))
		rc = from_file(v, k.buf, out, err);
	else if (set_key(&k, sec, "password_command", err))
		rc = -1;
	else if ((cmd = cfg_list(cfg, k.buf)))
		rc = from_command(cmd, k.buf, out, err);
	else if (set_key(&k, sec, "password", err))
		rc = -1;
	else if ((v = cfg_str(cfg, k.buf, NULL)) && !(*out = strdup(v)))
		rc = pb_fail(err, EX_OSERR, "out of memory");
	sb_release(&k);
	return rc;
}

void secret_free(char *s)
{
	if (!s)
		return;
	explicit_bzero(s, strlen(s));
	free(s);
}
