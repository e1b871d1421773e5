// SPDX-License-Identifier: GPL-2.0-only
/*
 * Asking the benchmark farm for more runs: one request, three backends
 * (exec, spool, http) behind a table. The request is checked once for
 * every backend: its values reach a command line, a file name, a YAML
 * file and a JSON body, and come (through the report and the reply) from
 * outside.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>

#include "perfbot/fileio.h"
#include "perfbot/http.h"
#include "perfbot/scheduler.h"
#include "perfbot/strbuf.h"

#define SCHED_TIMEOUT 600		/* scheduler.timeout default, s */
#define SCHED_MAX_FIELD 4096		/* bytes of one request value */
#define SCHED_MAX_ID 200		/* bytes of a request id */
#define SCHED_MAX_RUNS 1000
#define SCHED_MAX_OUTPUT ((size_t)64 << 10)	/* kept of a command's output */
#define SCHED_MAX_ARG ((size_t)64 << 10)	/* one expanded argument */
#define SCHED_MAX_ARGC 1024
#define SCHED_MAX_ANSWER ((size_t)64 << 10)	/* an HTTP answer body */
#define SCHED_MAX_LINE 300		/* of the farm's reason, in 'why' */
#define POLL_SLICE_MS 50
#define SPOOL_COMMIT_LEN 12
#define SPOOL_MODE 0644

#define SCHED_TRIES 3		/* attempts when the farm fails for now */
#define DEFAULT_PATH "/usr/local/bin:/usr/bin:/bin"

typedef int (*submit_fn)(const struct config *cfg,
			 const struct sched_request *rq,
			 enum sched_outcome *out, char *why, size_t whylen,
			 struct pb_err *err);

/*
 * Length of the valid UTF-8 sequence at 's' (at most 'n' bytes) with its
 * code point in *cp; 0 for an invalid, overlong or truncated sequence.
 */
static size_t utf8_next(const unsigned char *s, size_t n, uint32_t *cp)
{
	uint32_t c = s[0], min;
	size_t len, i;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if ((c & 0xe0) == 0xc0) {
		len = 2;
		c &= 0x1f;
		min = 0x80;
	} else if ((c & 0xf0) == 0xe0) {
		len = 3;
		c &= 0x0f;
		min = 0x800;
	} else if ((c & 0xf8) == 0xf0) {
		len = 4;
		c &= 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

/* C0 and C1 controls, DEL and the Unicode line and paragraph separators. */
static int is_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 ||
		cp == 0x2029;
}

/*
 * Replace, in place, every control character and every byte of an invalid
 * UTF-8 sequence by '?': 'why' is echoed into mails and logs.
 */
static void scrub(char *s)
{
	unsigned char *r = (unsigned char *)s, *w = r;
	size_t n = strlen(s), k;
	uint32_t cp;

	while (n) {
		k = utf8_next(r, n, &cp);
		if (!k || is_control(cp)) {
			*w++ = '?';
			k = k ? k : 1;
		} else {
			memmove(w, r, k);
			w += k;
		}
		r += k;
		n -= k;
	}
	*w = '\0';
}

static void say(char *why, size_t whylen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Set the reason of a rejection, scrubbed and cut to 'whylen'. */
static void say(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (!why || !whylen)
		return;
	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	scrub(why);
}

/* The first non-blank line of 'text', trimmed and capped, into 'out'. */
static void first_line(const char *text, size_t len, char *out,
		       size_t outlen)
{
	const char *p = text, *end = text + len, *eol;
	size_t n;

	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' ||
			   *p == '\n'))
		p++;
	for (eol = p; eol < end && *eol != '\n' && *eol != '\r' && *eol;
	     eol++)
		;
	while (eol > p && (eol[-1] == ' ' || eol[-1] == '\t'))
		eol--;
	n = (size_t)(eol - p);
	if (n >= outlen)
		n = outlen - 1;
	memcpy(out, p, n);
	out[n] = '\0';
}

/* ------------------------------------------------------------------ */
/* The request                                                         */

static int check_value(const char *key, const char *v, size_t max,
		       struct pb_err *err)
{
	const unsigned char *p = (const unsigned char *)v;
	size_t n, k;
	uint32_t cp;

	if (!v)
		return pb_fail(err, EX_DATAERR, "request: no '%s'", key);
	n = strlen(v);
	if (n > max)
		return pb_fail(err, EX_DATAERR, "request: '%s' is longer than "
			       "%zu bytes", key, max);
	for (; n; p += k, n -= k)
		if (!(k = utf8_next(p, n, &cp)))
			return pb_fail(err, EX_DATAERR, "request: '%s' is not "
				       "valid UTF-8", key);
	return 0;
}

/* The id names a spool file and a line of the farm's records. */
static int check_id(const char *id, struct pb_err *err)
{
	const char *p;

	if (check_value("request_id", id, SCHED_MAX_ID, err))
		return -1;
	if (!*id || *id == '.' || strchr(id, '/'))
		return pb_fail(err, EX_DATAERR, "request: request id '%s' is "
			       "not a safe file name", id);
	for (p = id; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return pb_fail(err, EX_DATAERR, "request: request id "
				       "'%s' holds a control character", id);
	return 0;
}

static int check_commit(const char *commit, struct pb_err *err)
{
	size_t n;

	if (!commit)
		return pb_fail(err, EX_DATAERR, "request: no 'commit'");
	n = strspn(commit, "0123456789abcdefABCDEF");
	if (commit[n] || n < 7 || n > 64)
		return pb_fail(err, EX_DATAERR, "request: commit '%.80s' is "
			       "not a sha", commit);
	return 0;
}

static int check_request(const struct sched_request *rq, struct pb_err *err)
{
	if (check_id(rq->request_id, err) || check_commit(rq->commit, err) ||
	    check_value("job", rq->job, SCHED_MAX_FIELD, err) ||
	    check_value("result_root", rq->result_root, SCHED_MAX_FIELD,
			err) ||
	    (rq->thread && check_value("thread", rq->thread, SCHED_MAX_FIELD,
				       err)))
		return -1;
	if (rq->runs < 1 || rq->runs > SCHED_MAX_RUNS)
		return pb_fail(err, EX_DATAERR, "request: %d runs: give 1 to "
			       "%d", rq->runs, SCHED_MAX_RUNS);
	return 0;
}

static const char *thread_of(const struct sched_request *rq)
{
	return rq->thread ? rq->thread : "";
}

/* ------------------------------------------------------------------ */
/* exec: run scheduler.argv                                            */

struct placeholder {
	const char *name;
	const char *value;
};

/* Copy 'tmpl' to 'out' with every known {name} replaced. */
static int expand(const char *tmpl, const struct placeholder *ph,
		  size_t nph, struct strbuf *out)
{
	const char *p = tmpl, *open, *close;
	size_t i, n;

	while ((open = strchr(p, '{'))) {
		if (sb_add(out, p, (size_t)(open - p)))
			return -1;
		close = strchr(open + 1, '}');
		n = close ? (size_t)(close - open - 1) : 0;
		for (i = 0; close && i < nph; i++)
			if (strlen(ph[i].name) == n &&
			    !memcmp(open + 1, ph[i].name, n))
				break;
		if (close && i < nph) {
			if (sb_adds(out, ph[i].value))
				return -1;
			p = close + 1;
		} else {
			if (sb_addc(out, '{'))
				return -1;
			p = open + 1;
		}
	}
	return sb_adds(out, p);
}

static void free_argv(char **argv)
{
	size_t i;

	for (i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* scheduler.argv with the placeholders replaced, NULL-terminated. */
static int build_argv(const struct config *cfg,
		      const struct sched_request *rq, char ***argvp,
		      struct pb_err *err)
{
	json_t *list = cfg_list(cfg, "scheduler.argv");
	size_t i, n = json_array_size(list);
	char runs[16], **argv;
	struct strbuf sb;
	struct placeholder ph[] = {
		{ "result_root", rq->result_root }, { "commit", rq->commit },
		{ "runs", runs }, { "job", rq->job },
		{ "request_id", rq->request_id },
	};

	*argvp = NULL;
	if (!n)
		return pb_fail(err, EX_CONFIG, "scheduler.argv: give the "
			       "command to run (a list of strings)");
	if (n > SCHED_MAX_ARGC)
		return pb_fail(err, EX_CONFIG, "scheduler.argv: more than %d "
			       "arguments", SCHED_MAX_ARGC);
	snprintf(runs, sizeof(runs), "%d", rq->runs);
	argv = calloc(n + 1, sizeof(*argv));
	if (!argv)
		return pb_fail(err, EX_OSERR, "out of memory");
	for (i = 0; i < n; i++) {
		sb_init(&sb, SCHED_MAX_ARG);
		if (expand(json_string_value(json_array_get(list, i)), ph,
			   sizeof(ph) / sizeof(ph[0]), &sb) ||
		    !(argv[i] = sb_detach(&sb, NULL))) {
			sb_release(&sb);
			free_argv(argv);
			return pb_fail(err, EX_DATAERR, "scheduler.argv: "
				       "argument %zu: longer than %zu bytes",
				       i + 1, SCHED_MAX_ARG);
		}
	}
	*argvp = argv;
	return 0;
}

/*
 * 0 when 'prog' (a path, or a name looked up in PATH) is an executable,
 * else an errno value. posix_spawnp says so too, but not on every system
 * (an exec failure in the child can show as exit 127, as under valgrind).
 */
static int can_run(const char *prog)
{
	const char *path = getenv("PATH"), *p, *colon;
	struct strbuf sb = STRBUF_INIT;
	int rc = ENOENT;

	if (strchr(prog, '/'))
		return access(prog, X_OK) ? errno : 0;
	if (!path)
		path = "/bin:/usr/bin";
	for (p = path; rc; p = colon + 1) {
		colon = strchrnul(p, ':');
		sb_reset(&sb);
		if (colon == p ? sb_addc(&sb, '.') :
		    sb_add(&sb, p, (size_t)(colon - p)))
			break;
		if (!sb_addf(&sb, "/%s", prog) && !access(sb.buf, X_OK))
			rc = 0;
		if (!*colon)
			break;
	}
	sb_release(&sb);
	return rc;
}

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

struct child {
	pid_t pid;
	int fd;			/* read end of its stdout+stderr, or -1 */
	int exited;
	int timed_out;
	int status;
	struct strbuf out;	/* the first SCHED_MAX_OUTPUT bytes */
};

/*
 * Start argv[0] in a process group of its own (so that a timeout kills
 * whatever it started too), stdin /dev/null, stdout and stderr into a
 * pipe, default signal dispositions. Returns 0 or an errno value.
 */
static int spawn(char **argv, struct child *c)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	struct child_env env;
	sigset_t none, dfl;
	int pfd[2], rc;

	if (child_env_init(&env)) {
		child_env_release(&env);
		return ENOMEM;
	}
	if (pipe2(pfd, O_CLOEXEC)) {
		child_env_release(&env);
		return errno;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null",
					 O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], STDERR_FILENO);
	posix_spawnattr_init(&at);
	sigemptyset(&none);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	sigaddset(&dfl, SIGINT);
	sigaddset(&dfl, SIGTERM);
	sigaddset(&dfl, SIGHUP);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &dfl);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP |
				 POSIX_SPAWN_SETSIGMASK |
				 POSIX_SPAWN_SETSIGDEF);
	rc = posix_spawnp(&c->pid, argv[0], &fa, &at, argv, env.v);
	child_env_release(&env);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	if (rc)
		close(pfd[0]);
	else
		c->fd = pfd[0];
	return rc;
}

static long ms_left(const struct timespec *end)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long)(end->tv_sec - now.tv_sec) * 1000 +
		(end->tv_nsec - now.tv_nsec) / 1000000;
}

/*
 * Read what is there within 'ms'. Returns 0 after reading, 1 when nothing
 * came, -1 at the end of the output. Past the cap the output is read and
 * dropped, so that a chatty command does not block on a full pipe.
 */
static int read_some(struct child *c, int ms)
{
	struct pollfd p = { c->fd, POLLIN, 0 };
	char buf[4096];
	size_t room = c->out.max - c->out.len;
	ssize_t n;
	int k;

	k = poll(&p, 1, ms);
	if (k < 0)
		return errno == EINTR ? 0 : -1;
	if (k == 0)
		return 1;
	n = read(c->fd, buf, sizeof(buf));
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -1;
	if (n == 0)
		return -1;
	sb_add(&c->out, buf, (size_t)n < room ? (size_t)n : room);
	return 0;
}

static void reap(struct child *c, int flags)
{
	pid_t r;

	while ((r = waitpid(c->pid, &c->status, flags)) < 0 && errno == EINTR)
		;
	if (r == c->pid)
		c->exited = 1;
}

static void kill_group(struct child *c)
{
	kill(-c->pid, SIGKILL);
	kill(c->pid, SIGKILL);
	reap(c, 0);
	c->timed_out = 1;
}

static void close_output(struct child *c)
{
	close(c->fd);
	c->fd = -1;
}

/*
 * Collect the output until the command exits and its output ends, or kill
 * it after 'timeout' seconds. Once it has exited, only what is already in
 * the pipe is read: something it left running may hold the pipe open.
 */
static void supervise(struct child *c, long timeout)
{
	struct timespec end;
	long left;
	int k;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += timeout;
	while (!c->exited || c->fd >= 0) {
		left = ms_left(&end);
		if (left <= 0) {
			if (!c->exited)
				kill_group(c);
			break;
		}
		if (left > POLL_SLICE_MS)
			left = POLL_SLICE_MS;
		if (c->fd >= 0) {
			k = read_some(c, c->exited ? 0 : (int)left);
			if (k < 0 || (k > 0 && c->exited))
				close_output(c);
		} else {
			poll(NULL, 0, (int)left);
		}
		if (!c->exited)
			reap(c, WNOHANG);
	}
	if (c->fd >= 0)
		close_output(c);
}

static void judge_exit(const struct child *c, long timeout,
		       enum sched_outcome *out, char *why, size_t whylen)
{
	char line[SCHED_MAX_LINE];

	first_line(sb_str(&c->out), c->out.len, line, sizeof(line));
	*out = SCHED_REJECTED;
	if (c->timed_out)
		say(why, whylen, "timed out after %ld s", timeout);
	else if (WIFEXITED(c->status) && !WEXITSTATUS(c->status))
		*out = SCHED_ACCEPTED;
	else if (WIFEXITED(c->status)) {
		say(why, whylen, "exit %d%s%s", WEXITSTATUS(c->status),
		    *line ? ": " : "", line);
		if (WEXITSTATUS(c->status) == EX_TEMPFAIL)
			*out = SCHED_TEMPORARY;
	}
	else
		say(why, whylen, "killed by signal %d%s%s",
		    WTERMSIG(c->status), *line ? ": " : "", line);
}

static int submit_exec(const struct config *cfg,
		       const struct sched_request *rq,
		       enum sched_outcome *out, char *why, size_t whylen,
		       struct pb_err *err)
{
	long timeout = cfg_long(cfg, "scheduler.timeout", SCHED_TIMEOUT);
	struct child c = { 0, -1, 0, 0, 0, STRBUF_INIT };
	char **argv = NULL;
	int rc;

	if (build_argv(cfg, rq, &argv, err))
		return -1;
	sb_init(&c.out, SCHED_MAX_OUTPUT);
	rc = can_run(argv[0]);
	if (!rc)
		rc = spawn(argv, &c);
	if (rc) {
		*out = rc == EAGAIN || rc == ENOMEM ? SCHED_TEMPORARY :
			SCHED_REJECTED;
		say(why, whylen, "cannot run '%s': %s", argv[0],
		    strerror(rc));
	} else {
		supervise(&c, timeout);
		judge_exit(&c, timeout, out, why, whylen);
	}
	sb_release(&c.out);
	free_argv(argv);
	return 0;
}

/* ------------------------------------------------------------------ */
/* spool: one YAML file per request                                    */

/*
 * A YAML double-quoted scalar that any loader reads back as 's': quotes,
 * backslashes, controls, line breaks (NEL, LS, PS too) and the code
 * points a YAML reader refuses are escaped. 's' is valid UTF-8.
 */
static int yaml_quote(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), k;
	uint32_t cp;
	int rc = sb_addc(sb, '"');

	for (; n && !rc; p += k, n -= k) {
		if (!(k = utf8_next(p, n, &cp)))
			return -1;
		if (cp == '"' || cp == '\\')
			rc = sb_addf(sb, "\\%c", (char)cp);
		else if (cp == '\n')
			rc = sb_adds(sb, "\\n");
		else if (cp == '\t')
			rc = sb_adds(sb, "\\t");
		else if (cp == '\r')
			rc = sb_adds(sb, "\\r");
		else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f))
			rc = sb_addf(sb, "\\x%02x", (unsigned)cp);
		else if (cp == 0x2028 || cp == 0x2029 || cp == 0xfeff ||
			 cp == 0xfffe || cp == 0xffff)
			rc = sb_addf(sb, "\\u%04x", (unsigned)cp);
		else
			rc = sb_add(sb, p, k);
	}
	return rc || sb_addc(sb, '"');
}

static int spool_text(const struct sched_request *rq, struct strbuf *sb)
{
	return sb_adds(sb, "# perfbot: a retest request; run 'job' 'runs' "
		       "more times on 'commit'\n# and add the runs to "
		       "'result_root'\nrequest_id: ") ||
		yaml_quote(sb, rq->request_id) ||
		sb_adds(sb, "\njob: ") || yaml_quote(sb, rq->job) ||
		sb_adds(sb, "\ncommit: ") || yaml_quote(sb, rq->commit) ||
		sb_addf(sb, "\nruns: %d\nresult_root: ", rq->runs) ||
		yaml_quote(sb, rq->result_root) ||
		sb_adds(sb, "\nthread: ") || yaml_quote(sb, thread_of(rq)) ||
		sb_addc(sb, '\n');
}

static int spool_dir(const struct config *cfg, const char **dirp,
		     struct pb_err *err)
{
	const char *dir = cfg_str(cfg, "scheduler.spool_dir", NULL);
	struct stat st;

	*dirp = dir;
	if (!dir || !*dir)
		return pb_fail(err, EX_CONFIG, "scheduler.spool_dir: give the "
			       "directory of the requests");
	if (stat(dir, &st))
		return pb_fail(err, EX_CONFIG, "scheduler.spool_dir: '%s': %s",
			       dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return pb_fail(err, EX_CONFIG, "scheduler.spool_dir: '%s': "
			       "not a directory", dir);
	return 0;
}

/* Make the rename durable; some file systems refuse, which is harmless. */
static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/*
 * '<request_id>-<commit 12>.yaml': the same request lands on the same
 * file, so submitting it twice replaces it instead of asking twice.
 */
static int submit_spool(const struct config *cfg,
			const struct sched_request *rq,
			enum sched_outcome *out, char *why, size_t whylen,
			struct pb_err *err)
{
	struct strbuf name = STRBUF_INIT, text = STRBUF_INIT;
	const char *dir;
	char *path = NULL;
	int rc = -1;

	(void)why;
	(void)whylen;
	if (spool_dir(cfg, &dir, err))
		return -1;
	if (sb_addf(&name, "%s-%.*s.yaml", rq->request_id, SPOOL_COMMIT_LEN,
		    rq->commit) || spool_text(rq, &text) ||
	    !(path = path_join(dir, sb_str(&name)))) {
		pb_fail(err, EX_OSERR, "out of memory");
		goto out;
	}
	if (file_write_atomic(path, text.buf, text.len, SPOOL_MODE, err)) {
		pb_wrap(err, "scheduler");
		goto out;
	}
	sync_dir(dir);
	*out = SCHED_ACCEPTED;
	rc = 0;
out:
	free(path);
	sb_release(&name);
	sb_release(&text);
	return rc;
}

/* ------------------------------------------------------------------ */
/* http: POST the request as JSON                                      */

static char *request_json(const struct sched_request *rq)
{
	json_t *o;
	char *s;

	o = json_pack("{s:s, s:s, s:s, s:i, s:s, s:s}",
		      "request_id", rq->request_id, "job", rq->job,
		      "commit", rq->commit, "runs", rq->runs,
		      "result_root", rq->result_root,
		      "thread", thread_of(rq));
	if (!o)
		return NULL;
	s = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	return s;
}

static int judge_answer(const struct http_answer *a,
			const struct strbuf *body, enum sched_outcome *out,
			char *why, size_t whylen, struct pb_err *err)
{
	char line[SCHED_MAX_LINE];

	if (a->status >= 200 && a->status < 300) {
		*out = SCHED_ACCEPTED;
		return 0;
	}
	first_line(sb_str(body), body->len, line, sizeof(line));
	if (a->status >= 500 || a->status == 429) {
		*out = SCHED_TEMPORARY;
		say(why, whylen, "HTTP %ld%s%s", a->status, *line ? ": " : "",
		    line);
		return 0;
	}
	if (a->status < 400)
		return pb_fail(err, EX_TEMPFAIL, "scheduler: HTTP %ld",
			       a->status);
	*out = SCHED_REJECTED;
	say(why, whylen, "HTTP %ld%s%s", a->status, *line ? ": " : "", line);
	return 0;
}

static int submit_http(const struct config *cfg,
		       const struct sched_request *rq,
		       enum sched_outcome *out, char *why, size_t whylen,
		       struct pb_err *err)
{
	const char *url = cfg_str(cfg, "scheduler.url", NULL);
	long timeout = cfg_long(cfg, "scheduler.timeout", SCHED_TIMEOUT);
	struct http_answer a = { 0, NULL, NULL };
	struct strbuf body;
	char *json;
	int rc;

	if (!url || !*url)
		return pb_fail(err, EX_CONFIG, "scheduler.url: give the URL "
			       "of the farm");
	json = request_json(rq);
	if (!json)
		return pb_fail(err, EX_OSERR, "out of memory");
	sb_init(&body, SCHED_MAX_ANSWER);
	rc = http_post_json(url, json, NULL, timeout, &body, &a, err);
	if (!rc)
		rc = judge_answer(&a, &body, out, why, whylen, err);
	http_answer_release(&a);
	sb_release(&body);
	free(json);
	return rc;
}

/* ------------------------------------------------------------------ */

static const struct backend {
	const char *name;
	submit_fn submit;
} backends[] = {
	{ "exec", submit_exec },
	{ "spool", submit_spool },
	{ "http", submit_http },
};

/*
 * Try again, a second apart, what failed only for now (an exec
 * scheduler's exit 75, an HTTP 5xx or 429, no connection): the request id
 * keeps a repeated request from running twice. Still failing after
 * SCHED_TRIES attempts is an EX_TEMPFAIL error (or the transport's).
 */
static int submit_tries(const struct backend *b, const struct config *cfg,
			const struct sched_request *rq,
			enum sched_outcome *out, char *why, size_t whylen,
			struct pb_err *err)
{
	int try, rc = 0;

	for (try = 1; try <= SCHED_TRIES; try++) {
		if (try > 1)
			sleep(1);
		*out = SCHED_REJECTED;
		err->code = 0;
		rc = b->submit(cfg, rq, out, why, whylen, err);
		if (!rc && *out != SCHED_TEMPORARY)
			return 0;
		if (rc && err->code != EX_TEMPFAIL &&
		    err->code != EX_UNAVAILABLE)
			return rc;
	}
	*out = SCHED_REJECTED;
	if (rc)
		return rc;
	return pb_fail(err, EX_TEMPFAIL, "scheduler: %s (tried %d times)",
		       why && *why ? why : "failed for now", SCHED_TRIES);
}

int scheduler_submit(const struct config *cfg, const struct sched_request *rq,
		     enum sched_outcome *out, char *why, size_t whylen,
		     struct pb_err *err)
{
	const char *name = cfg_str(cfg, "scheduler.backend", NULL);
	size_t i;

	*out = SCHED_REJECTED;
	if (why && whylen)
		why[0] = '\0';
	if (!name)
		return pb_fail(err, EX_CONFIG, "scheduler.backend: not set; "
			       "use exec, spool or http");
	for (i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		if (!strcmp(name, backends[i].name))
			break;
	if (i == sizeof(backends) / sizeof(backends[0]))
		return pb_fail(err, EX_CONFIG, "scheduler.backend: '%.64s': "
			       "use exec, spool or http", name);
	if (check_request(rq, err))
		return -1;
	return submit_tries(&backends[i], cfg, rq, out, why, whylen, err);
}
