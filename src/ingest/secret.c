// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perfbot/fileio.h"
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

/* Wait for the command to end, killing it past the deadline. */
static int reap(pid_t pid, int ms_left)
{
	int status = 0;
	pid_t r;

	for (;;) {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
		if (r < 0 && errno != EINTR)
			return -1;
		if (ms_left <= 0) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			return -1;
		}
		poll(NULL, 0, 10);
		ms_left -= 10;
	}
}

/* The first line of the command's output; the rest is not waited for. */
static int read_child(int fd, pid_t pid, struct strbuf *sb)
{
	struct pollfd p = { fd, POLLIN, 0 };
	char buf[512];
	ssize_t n;

	while (!memchr(sb_str(sb), '\n', sb->len)) {
		if (poll(&p, 1, COMMAND_TIMEOUT_MS) <= 0)
			break;
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || sb_add(sb, buf, (size_t)n))
			break;
	}
	return reap(pid, COMMAND_TIMEOUT_MS);
}

static int from_command(json_t *argv_json, const char *key, char **out,
			struct pb_err *err)
{
	size_t i, n = json_array_size(argv_json);
	posix_spawn_file_actions_t fa;
	struct strbuf sb;
	char **argv;
	int pfd[2], rc = -1;
	pid_t pid;

	argv = calloc(n + 1, sizeof(*argv));
	if (!n || !argv || pipe2(pfd, O_CLOEXEC)) {
		free(argv);
		return pb_fail(err, EX_CONFIG, "%s: cannot run", key);
	}
	for (i = 0; i < n; i++)
		argv[i] = (char *)json_string_value(json_array_get(argv_json,
								   i));
	sb_init(&sb, SECRET_MAX);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, pfd[0]);
	if (!posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ)) {
		close(pfd[1]);
		pfd[1] = -1;
		rc = read_child(pfd[0], pid, &sb);
	}
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[0]);
	if (pfd[1] >= 0)
		close(pfd[1]);
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

int secret_get(const struct config *cfg, const char *sec, char **out,
	       struct pb_err *err)
{
	struct strbuf k = STRBUF_INIT;
	const char *v;
	json_t *cmd;
	int rc = 0;

	*out = NULL;
	if (sb_addf(&k, "%s.password_env", sec))
		return pb_fail(err, EX_OSERR, "out of memory");
	if ((v = cfg_str(cfg, k.buf, NULL))) {
		const char *e = getenv(v);

		if (!e || !*e)
			rc = pb_fail(err, EX_CONFIG, "%s: environment "
				     "variable '%s' is not set", k.buf, v);
		else if (!(*out = strdup(e)))
			rc = pb_fail(err, EX_OSERR, "out of memory");
		goto done;
	}
	sb_reset(&k);
	sb_addf(&k, "%s.password_file", sec);
	if ((v = cfg_str(cfg, k.buf, NULL))) {
		rc = from_file(v, k.buf, out, err);
		goto done;
	}
	sb_reset(&k);
	sb_addf(&k, "%s.password_command", sec);
	if ((cmd = cfg_list(cfg, k.buf))) {
		rc = from_command(cmd, k.buf, out, err);
		goto done;
	}
	sb_reset(&k);
	sb_addf(&k, "%s.password", sec);
	if ((v = cfg_str(cfg, k.buf, NULL)) && !(*out = strdup(v)))
		rc = pb_fail(err, EX_OSERR, "out of memory");
done:
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
