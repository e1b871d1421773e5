// SPDX-License-Identifier: GPL-2.0-only
/*
 * web: work shared among forked worker processes (pool.h), each item's
 * result sent back as one line of JSON over a pipe.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perfbot/util/strbuf.h"
#include "perfbot/util/workers.h"
#include "perfbot/web/pool.h"

#define POOL_MAX WORKERS_MAX	/* as many processes as threads */
#define MIN_PER_WORKER 8	/* fewer items are not worth a fork */

size_t pool_workers(long jobs)
{
	return workers_count(jobs);	/* the cycle's rule for its threads */
}

/* Each item here, one after the other. */
static int serial(const struct pool_ops *ops, void *arg, const size_t *items,
		  size_t n, struct pb_err *err)
{
	json_t *r = NULL;
	size_t i;
	int rc = 0;

	for (i = 0; i < n && !rc; i++) {
		rc = ops->make(arg, items[i], &r, err) ||
		     ops->take(arg, items[i], r, err);
		json_decref(r);
		r = NULL;
	}
	return rc ? -1 : 0;
}

static int write_all(int fd, const char *s, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(fd, s, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

/* One line: "ok INDEX JSON" or "error CODE MESSAGE". */
static int send_line(int fd, const char *kind, size_t a, const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = sb_addf(&sb, "%s %zu %s\n", kind, a, text) ||
		 write_all(fd, sb.buf, sb.len);

	sb_release(&sb);
	return rc ? -1 : 0;
}

/* A worker: its items, then it ends without the builder's exit work. */
static void worker(const struct pool_ops *ops, void *arg, const size_t *items,
		   size_t n, size_t w, size_t nw, int fd)
{
	struct pb_err err = { 0, "" };
	json_t *r = NULL;
	char *text;
	size_t i;
	int bad = ops->start && ops->start(arg, &err);

	for (i = w; i < n && !bad; i += nw) {
		bad = ops->make(arg, items[i], &r, &err);
		text = bad ? NULL : json_dumps(r, JSON_COMPACT);
		if (!bad && (!text || send_line(fd, "ok", items[i], text))) {
			pb_fail(&err, EX_OSERR, "a worker could not send its "
				"result");
			bad = 1;
		}
		free(text);
		json_decref(r);
		r = NULL;
	}
	if (bad)
		send_line(fd, "error", (size_t)(err.code ? err.code :
						EX_SOFTWARE), err.msg);
	_exit(bad ? 1 : 0);
}

struct reader {
	int fd;
	pid_t pid;
	struct strbuf in;
};

/* The complete lines read so far, each handed to 'take'. */
static int lines(const struct pool_ops *ops, void *arg, struct reader *r,
		 struct pb_err *err)
{
	char *nl, *line = r->in.buf, *end;
	size_t index, used = 0;
	json_t *j;
	int rc = 0;

	while (!rc && (nl = memchr(line, '\n', r->in.len - used))) {
		*nl = '\0';
		index = strtoul(line + (line[0] == 'o' ? 3 : 6), &end, 10);
		if (!strncmp(line, "error ", 6))
			rc = pb_fail(err, (int)index, "%s", end + 1);
		else if (!(j = json_loads(end, 0, NULL)))
			rc = pb_fail(err, EX_SOFTWARE, "a worker's result "
				     "does not read");
		else {
			rc = ops->take(arg, index, j, err);
			json_decref(j);
		}
		used += (size_t)(nl + 1 - line);
		line = nl + 1;
	}
	memmove(r->in.buf, r->in.buf + used, r->in.len - used);
	sb_setlen(&r->in, r->in.len - used);
	return rc;
}

/* Read every worker until its pipe closes. */
static int collect(const struct pool_ops *ops, void *arg, struct reader *r,
		   size_t nw, struct pb_err *err)
{
	struct pollfd pf[POOL_MAX];
	size_t i, open = nw;
	char buf[65536];
	ssize_t got;
	int rc = 0;

	while (open) {
		for (i = 0; i < nw; i++)
			pf[i] = (struct pollfd){ r[i].fd, POLLIN, 0 };
		if (poll(pf, nw, -1) < 0 && errno != EINTR)
			return pb_fail(err, EX_OSERR, "poll: %s",
				       strerror(errno));
		for (i = 0; i < nw; i++) {
			if (r[i].fd < 0 || !pf[i].revents)
				continue;
			got = read(r[i].fd, buf, sizeof(buf));
			if (got < 0 && errno == EINTR)
				continue;
			if (got > 0 && sb_add(&r[i].in, buf, (size_t)got))
				rc = pb_fail(err, EX_OSERR, "out of memory");
			else if (got > 0)
				rc = lines(ops, arg, &r[i], err);
			if (rc)	/* reap() stops the others */
				return rc;
			if (got <= 0) {
				close(r[i].fd);
				r[i].fd = -1;
				open--;
			}
		}
	}
	return 0;
}

/* Wait for each worker; one that failed without a word fails too. */
static int reap(struct reader *r, size_t nw, int rc, struct pb_err *err)
{
	int status;
	size_t i;

	for (i = 0; i < nw; i++) {
		if (r[i].pid <= 0)
			continue;
		if (rc)
			kill(r[i].pid, SIGTERM);
		while (waitpid(r[i].pid, &status, 0) < 0 && errno == EINTR)
			;
		if (!rc && !(WIFEXITED(status) && !WEXITSTATUS(status)))
			rc = pb_fail(err, EX_SOFTWARE, "a worker ended badly "
				     "(status %d)", status);
		sb_release(&r[i].in);
	}
	return rc;
}

int pool_run(const struct pool_ops *ops, void *arg, const size_t *items,
	     size_t n, size_t nw, struct pb_err *err)
{
	struct reader r[POOL_MAX];
	size_t i, started = 0;
	int fds[2], rc = 0;

	if (nw > n / MIN_PER_WORKER)
		nw = n / MIN_PER_WORKER;
	if (nw < 2)
		return serial(ops, arg, items, n, err);
	fflush(NULL);	/* nothing buffered is written twice */
	for (i = 0; i < nw && !rc; i++, started++) {
		r[i] = (struct reader){ -1, -1, STRBUF_INIT };
		if (pipe(fds)) {
			rc = pb_fail(err, EX_OSERR, "worker: %s",
				     strerror(errno));
			break;
		}
		if ((r[i].pid = fork()) < 0) {
			rc = pb_fail(err, EX_OSERR, "worker: %s",
				     strerror(errno));
			close(fds[0]);
			close(fds[1]);
			break;
		}
		if (!r[i].pid) {
			close(fds[0]);
			worker(ops, arg, items, n, i, nw, fds[1]);
		}
		close(fds[1]);
		r[i].fd = fds[0];
	}
	if (!rc)
		rc = collect(ops, arg, r, started, err);
	for (i = 0; i < started; i++)
		if (r[i].fd >= 0)
			close(r[i].fd);
	return reap(r, started, rc, err) ? -1 : 0;
}
