// SPDX-License-Identifier: GPL-2.0-only
/*
 * The exec scheduler backend: run scheduler.argv (placeholders replaced,
 * no shell) with a minimal environment, kill it after scheduler.timeout
 * seconds, and judge its exit: 0 accepted, 75 failed for now, anything
 * else rejected with the first line of its output as the reason.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/util/proc.h"
#include "perfbot/util/strbuf.h"

#include "sched_backend.h"

#define SCHED_MAX_OUTPUT ((size_t)64 << 10)	/* kept of a command's output */
#define DEFAULT_PATH "/usr/local/bin:/usr/bin:/bin"

/*
 * The whole environment of an exec scheduler: PATH, HOME (perfbot's own,
 * when set) and LANG=C, LC_ALL=C. Nothing else of perfbot's environment
 * is passed on: it may hold the SMTP and IMAP passwords (password_env).
 */
struct child_env {
	char *v[5];
};

static int env_add(struct child_env *e, size_t *n, const char *name,
		   const char *value)
{
	struct strbuf sb = STRBUF_INIT;

	if (!value || sb_addf(&sb, "%s=%s", name, value))
		return value ? -1 : 0;
	e->v[(*n)++] = sb_detach(&sb, NULL);
	return e->v[*n - 1] ? 0 : -1;
}

static int child_env_init(struct child_env *e)
{
	const char *path = getenv("PATH");
	size_t n = 0;

	memset(e, 0, sizeof(*e));
	return env_add(e, &n, "PATH", path && *path ? path : DEFAULT_PATH) ||
	       env_add(e, &n, "HOME", getenv("HOME")) ||
	       env_add(e, &n, "LANG", "C") || env_add(e, &n, "LC_ALL", "C");
}

static void child_env_release(struct child_env *e)
{
	size_t i;

	for (i = 0; i < sizeof(e->v) / sizeof(e->v[0]); i++)
		free(e->v[i]);
	memset(e, 0, sizeof(*e));
}

/*
 * Start argv[0] in a process group of its own (so that a timeout kills
 * whatever it started too), stdin /dev/null, stdout and stderr into a
 * pipe. Returns 0 or an errno value.
 */
static int spawn(char **argv, struct proc *c)
{
	struct child_env env;
	int rc;

	if (child_env_init(&env)) {
		child_env_release(&env);
		return ENOMEM;
	}
	rc = proc_start(c, argv, env.v, PROC_STDIN_NULL | PROC_STDERR |
			PROC_GROUP);
	child_env_release(&env);
	return rc;
}

static void judge_exit(const struct proc *c, const struct strbuf *output,
		       long timeout, enum sched_outcome *out, char *why,
		       size_t whylen)
{
	char line[SCHED_MAX_LINE];

	sched_first_line(sb_str(output), output->len, line, sizeof(line));
	*out = SCHED_REJECTED;
	if (c->timed_out)
		sched_say(why, whylen, "timed out after %ld s", timeout);
	else if (c->code == 0)
		*out = SCHED_ACCEPTED;
	else if (c->code > 0) {
		sched_say(why, whylen, "exit %d%s%s", c->code,
			  *line ? ": " : "", line);
		if (c->code == EX_TEMPFAIL)
			*out = SCHED_TEMPORARY;
	}
	else
		sched_say(why, whylen, "killed by signal %d%s%s", c->sig,
			  *line ? ": " : "", line);
}

static int submit_exec(const struct cfg_scheduler *sc,
		       const struct sched_request *rq,
		       enum sched_outcome *out, char *why, size_t whylen,
		       struct pb_err *err)
{
	long timeout = sc->timeout;
	struct strbuf output;
	struct proc c;
	char **argv = NULL;
	int rc;

	if (sched_argv(sc, rq, &argv, err))
		return -1;
	sb_init(&output, SCHED_MAX_OUTPUT);
	rc = spawn(argv, &c);
	if (rc) {
		*out = rc == EAGAIN || rc == ENOMEM ? SCHED_TEMPORARY :
			SCHED_REJECTED;
		sched_say(why, whylen, "cannot run '%s': %s", argv[0],
			  strerror(rc));
	} else {
		proc_collect(&c, &output, timeout * 1000);
		judge_exit(&c, &output, timeout, out, why, whylen);
		proc_release(&c);
	}
	sb_release(&output);
	sched_argv_free(argv);
	return 0;
}

const struct sched_backend sched_exec = { "exec", submit_exec,
					  sched_argv_check };
