// SPDX-License-Identifier: GPL-2.0-only
/*
 * Asking the benchmark farm for more runs: the request, checked once for
 * every backend (its values reach a command line, a file name, a YAML
 * file and a JSON body, and come through the report and the reply from
 * outside), the placeholders of scheduler.argv, the backend chosen by
 * scheduler.backend (sched_exec.c, sched_spool.c, sched_http.c) and the
 * retries of what failed for now.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/stat.h>

#include "perfbot/util/fileio.h"
#include "perfbot/util/proc.h"
#include "perfbot/act/scheduler.h"
#include "perfbot/util/strbuf.h"
#include "perfbot/util/text.h"

#include "sched_backend.h"

#define SCHED_MAX_FIELD 4096		/* bytes of one request value */
#define SCHED_MAX_ID 200		/* bytes of a request id */
#define SCHED_MAX_RUNS 1000
#define SCHED_MAX_ARG ((size_t)64 << 10)	/* one expanded argument */
#define SCHED_MAX_ARGC 1024

#define SCHED_TRIES 3		/* attempts when the farm fails for now */

void sched_say(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (!why || !whylen)
		return;
	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	/* echoed into mails and logs */
	text_scrub(why, TEXT_UNICODE);
}

void sched_first_line(const char *text, size_t len, char *out,
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
	size_t n;

	if (!v)
		return pb_fail(err, EX_DATAERR, "request: no '%s'", key);
	n = strlen(v);
	if (n > max)
		return pb_fail(err, EX_DATAERR, "request: '%s' is longer than "
			       "%zu bytes", key, max);
	if (!utf8_valid(v, n))
		return pb_fail(err, EX_DATAERR, "request: '%s' is not valid "
			       "UTF-8", key);
	return 0;
}

/* The id names a spool file and a line of the farm's records. */
static int check_id(const char *id, struct pb_err *err)
{
	if (check_value("request_id", id, SCHED_MAX_ID, err))
		return -1;
	if (!*id || *id == '.' || strchr(id, '/'))
		return pb_fail(err, EX_DATAERR, "request: request id '%s' is "
			       "not a safe file name", id);
	if (text_scrub_at(id, strlen(id), 0) < strlen(id))
		return pb_fail(err, EX_DATAERR, "request: request id '%s' "
			       "holds a control character", id);
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

/*
 * A value that reaches the farm's command line as an argument of its
 * own (repo, ref, patch) never starts with '-' (no option of git's or the
 * farm's) and holds no control character.
 */
static int check_arg(const char *key, const char *v, struct pb_err *err)
{
	if (!v)
		return 0;
	if (check_value(key, v, SCHED_MAX_FIELD, err))
		return -1;
	if (*v == '-' || text_scrub_at(v, strlen(v), 0) < strlen(v))
		return pb_fail(err, EX_DATAERR, "request: %s '%.80s' starts "
			       "with '-' or holds a control character", key,
			       v);
	return 0;
}

static int check_kind(const char *kind, struct pb_err *err)
{
	static const char *const kinds[] = { "retest", "confirm", "test",
					     "verify", "bisect" };
	size_t i;

	for (i = 0; kind && i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kind, kinds[i]))
			return 0;
	return kind ? pb_fail(err, EX_DATAERR, "request: kind '%.40s' is "
			      "none of retest, confirm, test, verify, bisect",
			      kind) :
		0;
}

static int check_request(const struct sched_request *rq, struct pb_err *err)
{
	if (check_kind(rq->kind, err) || check_arg("repo", rq->repo, err) ||
	    check_arg("ref", rq->ref, err) ||
	    check_arg("patch", rq->patch, err) ||
	    (rq->patch && rq->patch[0] != '/' &&
	     pb_fail(err, EX_DATAERR, "request: the patch is no absolute "
		     "path")))
		return -1;
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

const char *sched_thread_of(const struct sched_request *rq)
{
	return rq->thread ? rq->thread : "";
}

const char *sched_kind_of(const struct sched_request *rq)
{
	return rq->kind ? rq->kind : "retest";
}

const char *sched_or_empty(const char *s)
{
	return s ? s : "";
}

/* ------------------------------------------------------------------ */
/* The placeholders of scheduler.argv                                  */

/* The names, in the order of the values sched_argv() fills in. */
static const char *const placeholder_names[] = {
	"result_root", "commit", "runs", "job", "request_id", "kind", "repo",
	"ref", "patch",
};

#define NPLACEHOLDERS \
	(sizeof(placeholder_names) / sizeof(placeholder_names[0]))

/* The index of the placeholder name[0..n), NPLACEHOLDERS when none. */
static size_t placeholder_of(const char *name, size_t n)
{
	size_t k;

	for (k = 0; k < NPLACEHOLDERS; k++)
		if (strlen(placeholder_names[k]) == n &&
		    !memcmp(name, placeholder_names[k], n))
			break;
	return k;
}

int sched_argv_check(const struct cfg_scheduler *sc, struct pb_err *err)
{
	const char *p, *open, *close;
	size_t i, n;
	int e;

	if (!sc->argv.n)
		return pb_fail(err, EX_CONFIG, "scheduler.argv: not set "
			       "(backend exec runs it)");
	if ((e = proc_can_run(sc->argv.v[0])))
		return pb_fail(err, EX_CONFIG, "scheduler.argv: '%s' cannot "
			       "be run: %s", sc->argv.v[0], strerror(e));
	for (i = 0; i < sc->argv.n; i++)
		for (p = sc->argv.v[i]; (open = strchr(p, '{')) &&
		     (close = strchr(open, '}')); p = close + 1) {
			n = (size_t)(close - open - 1);
			if (placeholder_of(open + 1, n) == NPLACEHOLDERS)
				return pb_fail(err, EX_CONFIG, "scheduler.argv: "
					       "argument %zu: unknown "
					       "placeholder '{%.*s}' (known: "
					       "{kind}, {result_root}, "
					       "{commit}, {repo}, {ref}, "
					       "{patch}, {runs}, {job}, "
					       "{request_id})",
					       i + 1, (int)(n < 64 ? n : 64),
					       open + 1);
		}
	return 0;
}

/* Copy 'tmpl' to 'out' with every known {name} replaced by its value. */
static int expand(const char *tmpl, const char *const value[NPLACEHOLDERS],
		  struct strbuf *out)
{
	const char *p = tmpl, *open, *close;
	size_t i;

	while ((open = strchr(p, '{'))) {
		if (sb_add(out, p, (size_t)(open - p)))
			return -1;
		close = strchr(open + 1, '}');
		i = close ? placeholder_of(open + 1,
					   (size_t)(close - open - 1)) :
			NPLACEHOLDERS;
		if (i < NPLACEHOLDERS) {
			if (sb_adds(out, value[i]))
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

void sched_argv_free(char **argv)
{
	size_t i;

	for (i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

int sched_argv(const struct cfg_scheduler *sc,
	       const struct sched_request *rq, char ***argvp,
	       struct pb_err *err)
{
	size_t i, n = sc->argv.n;
	char runs[16], **argv;
	struct strbuf sb;
	const char *const value[NPLACEHOLDERS] = {
		rq->result_root, rq->commit, runs, rq->job, rq->request_id,
		sched_kind_of(rq), sched_or_empty(rq->repo),
		sched_or_empty(rq->ref), sched_or_empty(rq->patch),
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
		if (expand(sc->argv.v[i], value, &sb) ||
		    !(argv[i] = sb_detach(&sb, NULL))) {
			sb_release(&sb);
			sched_argv_free(argv);
			return pb_fail(err, EX_DATAERR, "scheduler.argv: "
				       "argument %zu: longer than %zu bytes",
				       i + 1, SCHED_MAX_ARG);
		}
	}
	*argvp = argv;
	return 0;
}

/* ------------------------------------------------------------------ */

static const struct sched_backend *const backends[] = {
	&sched_exec,
	&sched_spool,
	&sched_http,
};

#define NBACKENDS (sizeof(backends) / sizeof(backends[0]))

/* "use exec, spool or http": the names of the table. */
static int use_backends(struct strbuf *sb)
{
	size_t i;
	int rc = sb_adds(sb, "use ");

	for (i = 0; i < NBACKENDS && !rc; i++)
		rc = sb_addf(sb, "%s%s", i == 0 ? "" : i + 1 < NBACKENDS ?
			     ", " : " or ", backends[i]->name);
	return rc;
}

static const struct sched_backend *backend_of(const struct config *cfg,
					      struct pb_err *err)
{
	const char *name = cfg->scheduler.backend;
	struct strbuf use = STRBUF_INIT;
	size_t i;

	for (i = 0; name && i < NBACKENDS; i++)
		if (!strcmp(name, backends[i]->name))
			return backends[i];
	if (use_backends(&use))
		pb_fail(err, EX_OSERR, "out of memory");
	else if (!name)
		pb_fail(err, EX_CONFIG, "scheduler.backend: not set; %s",
			use.buf);
	else
		pb_fail(err, EX_CONFIG, "scheduler.backend: '%.64s': %s",
			name, use.buf);
	sb_release(&use);
	return NULL;
}

/*
 * Try again, a second apart, what failed only for now (an exec
 * scheduler's exit 75, an HTTP 5xx or 429, no connection): the request id
 * keeps a repeated request from running twice. Still failing after
 * SCHED_TRIES attempts is an EX_TEMPFAIL error (or the transport's).
 */
static int submit_tries(const struct sched_backend *b,
			const struct config *cfg,
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
		rc = b->submit(&cfg->scheduler, rq, out, why, whylen, err);
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

int scheduler_check(const struct config *cfg, struct pb_err *err)
{
	const struct sched_backend *b = backend_of(cfg, err);

	return b ? b->check(&cfg->scheduler, err) : -1;
}

int scheduler_submit(const struct config *cfg, const struct sched_request *rq,
		     enum sched_outcome *out, char *why, size_t whylen,
		     struct pb_err *err)
{
	const struct sched_backend *b;

	*out = SCHED_REJECTED;
	if (why && whylen)
		why[0] = '\0';
	if (!(b = backend_of(cfg, err)) || check_request(rq, err))
		return -1;
	return submit_tries(b, cfg, rq, out, why, whylen, err);
}

/* 'dir' made, or there as a directory of its own (no link): 0, or -1. */
static int made_or_there(const char *dir)
{
	struct stat st;

	if (!mkdir(dir, 0755))
		return 0;
	if (errno != EEXIST)
		return -1;
	if (lstat(dir, &st))
		return -1;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return -1;
	}
	return 0;
}

int scheduler_results_dir(const struct config *cfg, const char *request_id,
			  char **dir, struct pb_err *err)
{
	const char *base = cfg->scheduler.results_dir;

	*dir = NULL;
	if (!base)
		return pb_fail(err, EX_CONFIG, "scheduler.results_dir: not "
			       "set (a test's runs need a result root of their "
			       "own)");
	if (check_id(request_id, err))
		return -1;
	*dir = path_join(base, request_id);
	if (!*dir)
		return pb_fail(err, EX_OSERR, "out of memory");
	if (made_or_there(*dir)) {
		pb_fail(err, EX_CANTCREAT, "scheduler.results_dir: '%s': %s",
			*dir, strerror(errno));
		free(*dir);
		*dir = NULL;
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* What the farm says when it cannot run a test                        */

#define SCHED_ERROR_READ ((size_t)64 << 10)	/* read of the file */

/* Append line s[0..n) scrubbed, if the caps leave room; 0 when full. */
static int error_line(struct strbuf *out, const char *s, size_t n,
		      size_t *lines)
{
	size_t room;

	if (*lines >= SCHED_ERROR_LINES || out->len >= SCHED_ERROR_BYTES)
		return 0;
	room = SCHED_ERROR_BYTES - out->len;
	n = utf8_cut(s, n, room > 1 ? room - 1 : 0);
	if ((*lines && sb_addc(out, '\n')) ||
	    text_scrub_add(out, s, n, TEXT_UNICODE | TEXT_TAB_SPACE))
		return -1;
	(*lines)++;
	return 1;
}

/* A line of blanks (and control characters) only. */
static int blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] > 0x20 && s[i] != 0x7f)
			return 0;
	return 1;
}

/* The first SCHED_ERROR_READ bytes of 'path': a longer file is cut. */
static int read_head(const char *path, struct strbuf *out, struct pb_err *err)
{
	char buf[4096];
	ssize_t k;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);

	if (fd < 0)
		return pb_fail(err, EX_NOINPUT, "%s: %s", path,
			       strerror(errno));
	while (out->len < SCHED_ERROR_READ &&
	       (k = read(fd, buf, sizeof(buf))) > 0)
		if (sb_add(out, buf, (size_t)k)) {
			close(fd);
			return pb_fail(err, EX_OSERR, "out of memory");
		}
	close(fd);
	if (out->len > SCHED_ERROR_READ)
		out->len = SCHED_ERROR_READ;
	return 0;
}

int scheduler_farm_error(const char *result_root, struct strbuf *out,
			 int *found, struct pb_err *err)
{
	struct strbuf text = STRBUF_INIT;
	const char *p, *e, *nl, *first = NULL, *last = NULL;
	char *path = path_join(result_root, "error");
	size_t lines = 0, len;
	struct stat st;
	int more = 1;

	*found = 0;
	if (!path)
		return pb_fail(err, EX_OSERR, "out of memory");
	if (lstat(path, &st) || !S_ISREG(st.st_mode)) {
		free(path);
		return 0;
	}
	if (read_head(path, &text, err)) {
		free(path);
		sb_release(&text);
		return -1;
	}
	free(path);
	*found = 1;
	/* the lines that are not blank, from the first to the last */
	for (p = text.buf, e = p + text.len; p && p < e; p = nl ? nl + 1 : e) {
		nl = memchr(p, '\n', (size_t)(e - p));
		if (!blank(p, (size_t)((nl ? nl : e) - p))) {
			if (!first)
				first = p;
			last = nl ? nl : e;
		}
	}
	for (p = first; p && p < last && more > 0; p = nl ? nl + 1 : last) {
		nl = memchr(p, '\n', (size_t)(last - p));
		len = (size_t)((nl ? nl : last) - p);
		while (len && (p[len - 1] == '\r' || p[len - 1] == ' ' ||
			       p[len - 1] == '\t'))
			len--;
		more = error_line(out, p, len, &lines);
	}
	sb_release(&text);
	return more < 0 ? pb_fail(err, EX_OSERR, "out of memory") : 0;
}
