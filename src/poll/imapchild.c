// SPDX-License-Identifier: GPL-2.0-only
/*
 * poll: the IMAP client of imap.h, with the mail library in a child
 * process. The parent (poll.c, 'perfbot check --connect') asks; the
 * child (forked here, talking libetpan to the server with imaplib.c)
 * answers in checked, size-bounded frames (imapwire.c). Each answer is
 * waited for at most imap.timeout, the session as a whole at most ten
 * times it; a child that crashes, hangs or sends what was not asked for
 * ends the session with one error, and perfbot goes on with the rest of
 * its cycle.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfbot/poll/imap.h"
#include "perfbot/poll/imapwire.h"
#include "perfbot/util/text.h"
#include "imaplib.h"

#define REQ_MAX 4096		/* a request's payload (a mailbox name) */
#define UIDS_MAX 100000		/* UIDs one search may answer */
#define OPEN_TIMES 4		/* the open: connect, TLS, login, select */
#define SESSION_TIMES 10	/* the whole session */
#define CHILD_MEM (512L << 20)	/* the child's address space, at least */

/*
 * AddressSanitizer and ThreadSanitizer reserve terabytes of address
 * space: under them the child's RLIMIT_AS would kill it at start.
 */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif

struct imap {
	pid_t pid;
	int fd;
	long timeout;		/* imap.timeout, s */
	struct timespec end;	/* of the whole session */
	uint32_t uidvalidity;
	const char *url;
	int dead;
};

void imap_msg_release(struct imap_msg *msg)
{
	free(msg->data);
	memset(msg, 0, sizeof(*msg));
}

/* ---- the child ---- */

static int read_full(int fd, void *buf, size_t n)
{
	char *p = buf;
	ssize_t r;

	while (n) {
		r = read(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

static void say_err(int fd, const struct pb_err *err)
{
	unsigned char c[4];

	iw_put32(c, (uint32_t)(err->code ? err->code : EX_SOFTWARE));
	iw_send(fd, IW_ERR, c, 4, err->msg, strlen(err->msg));
}

static void say_msg(int fd, const struct imap_msg *m)
{
	unsigned char h[IW_MSG_EXTRA];

	iw_put32(h, m->uid);
	iw_put32(h + 4, m->size);
	h[8] = m->data != NULL;
	iw_send(fd, IW_MSG, h, sizeof(h), m->data, m->data ? m->len : 0);
}

static void say_uids(int fd, const uint32_t *uids, size_t n)
{
	unsigned char *b = malloc(4 * n + 1);
	size_t i;

	if (!b) {
		struct pb_err err = { EX_OSERR, "imap: out of memory" };

		say_err(fd, &err);
		return;
	}
	for (i = 0; i < n; i++)
		iw_put32(b + 4 * i, uids[i]);
	iw_send(fd, IW_UIDS, b, 4 * n, NULL, 0);
	free(b);
}

/* One request of the parent, answered; -1 when the session is over. */
static int serve_one(int fd, struct imaplib **im, const struct config *cfg,
		     int type, const unsigned char *p, size_t len)
{
	struct pb_err err = { 0, "" };
	struct strbuf out = STRBUF_INIT;
	struct imap_msg m = { 0 };
	uint32_t *uids = NULL;
	unsigned char c[4];
	size_t n = 0;
	int created = 0, rc = 0;
	char box[REQ_MAX + 1];

	memcpy(box, p, len);
	box[len] = '\0';
	if (type == IW_QUIT)
		return -1;
	if (type != IW_OPEN && !*im)
		rc = pb_fail(&err, EX_SOFTWARE, "imap: not open");
	else if (type == IW_OPEN && !(rc = imaplib_open(im, cfg, &err))) {
		iw_put32(c, imaplib_uidvalidity(*im));
		iw_send(fd, IW_OPENED, c, 4, NULL, 0);
	} else if (type == IW_SEARCH && len == 8 &&
		   !(rc = imaplib_new_uids(*im, iw_get32(p), iw_get32(p + 4),
					   &uids, &n, &err))) {
		say_uids(fd, uids, n);
	} else if (type == IW_FETCH && len == 8 &&
		   !(rc = imaplib_fetch(*im, iw_get32(p), iw_get32(p + 4), &m,
					&err))) {
		say_msg(fd, &m);
	} else if (type == IW_DONE && len >= 4) {
		memmove(box, box + 4, len - 3);
		rc = imaplib_done(*im, iw_get32(p), *box ? box : NULL, &err);
	} else if (type == IW_ENSURE) {
		rc = imaplib_ensure(*im, box, &created, &err);
	} else if (type == IW_PROBE &&
		   !(rc = imaplib_probe(*im, cfg, &out, &err))) {
		iw_send(fd, IW_TEXT, out.buf, out.len, NULL, 0);
	} else if (type != IW_OPEN && type != IW_SEARCH && type != IW_FETCH &&
		   type != IW_PROBE) {
		rc = pb_fail(&err, EX_SOFTWARE, "imap: a bad request");
	}
	if (rc)
		say_err(fd, &err);
	else if (type == IW_DONE || type == IW_ENSURE)
		iw_send(fd, IW_OK, (unsigned char[]){ (unsigned char)created },
			1, NULL, 0);
	free(uids);
	imap_msg_release(&m);
	sb_release(&out);
	return 0;
}

/*
 * The child owns nothing of perfbot's: no descriptor but its socket,
 * nothing printed (a library's words stay here), a bound on memory, and
 * it dies with its parent.
 */
static void child_setup(int fd, const struct config *cfg)
{
	int null = open("/dev/null", O_RDWR);
	struct rlimit rl;
	rlim_t mem = (rlim_t)CHILD_MEM + 4 * (rlim_t)cfg->imap.max_message_bytes;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGPIPE, SIG_IGN);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
	}
	dup2(fd, 3);
	close_range(4, ~0U, 0);
#ifndef UNDER_SANITIZER
	rl.rlim_cur = rl.rlim_max = mem;
	setrlimit(RLIMIT_AS, &rl);
#else
	(void)rl;
	(void)mem;
#endif
}

static void child_main(int fd, const struct config *cfg)
{
	unsigned char head[IW_HEAD], p[REQ_MAX];
	struct imaplib *im = NULL;
	uint32_t len;

	child_setup(fd, cfg);
	fd = 3;
	for (;;) {
		if (read_full(fd, head, sizeof(head)))
			break;
		len = iw_get32(head + 1);
		if (len > REQ_MAX || read_full(fd, p, len) ||
		    serve_one(fd, &im, cfg, head[0], p, len))
			break;
	}
	imaplib_close(im);
	_exit(0);
}

/* ---- the parent ---- */

static long ms_to(const struct timespec *end)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long)(end->tv_sec - now.tv_sec) * 1000 +
		(end->tv_nsec - now.tv_nsec) / 1000000;
}

static void kill_child(struct imap *im)
{
	if (im->pid > 0) {
		kill(im->pid, SIGKILL);
		while (waitpid(im->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	im->pid = 0;
	im->dead = 1;
}

/* How the child ended, when a read found its socket closed. */
static int child_gone(struct imap *im, const char *what, struct pb_err *err)
{
	int status = 0;
	pid_t r;

	while ((r = waitpid(im->pid, &status, 0)) < 0 && errno == EINTR)
		;
	im->pid = 0;
	im->dead = 1;
	/* the child exits 0 only; else it crashed (a sanitizer's exit 1) */
	if (r > 0 && WIFSIGNALED(status))
		return pb_fail(err, EX_PROTOCOL, "imap: %s: the mail library "
			       "crashed (signal %d) on the server's answer to "
			       "%s; the rest of the cycle goes on", im->url,
			       WTERMSIG(status), what);
	return pb_fail(err, EX_PROTOCOL, "imap: %s: the mail library "
		       "crashed (exit %d) on the server's answer to %s; the "
		       "rest of the cycle goes on", im->url,
		       r > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1,
		       what);
}

/* Read 'n' bytes within 'ms' (and the session's end): 0, -1 gone, -2 late */
static int wait_read(struct imap *im, void *buf, size_t n, long ms)
{
	struct pollfd pfd = { im->fd, POLLIN, 0 };
	struct timespec end;
	char *p = buf;
	long left;
	ssize_t r;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += ms / 1000;
	end.tv_nsec += (ms % 1000) * 1000000;
	if (end.tv_nsec >= 1000000000) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000;
	}
	while (n) {
		left = ms_to(&end);
		if (ms_to(&im->end) < left)
			left = ms_to(&im->end);
		if (left <= 0)
			return -2;
		r = poll(&pfd, 1, (int)(left > 60000 ? 60000 : left));
		if (r < 0 && errno != EINTR)
			return -1;
		if (r <= 0)
			continue;
		r = read(im->fd, p, n);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

static int late(struct imap *im, const char *what, long ms,
		struct pb_err *err)
{
	int whole = ms_to(&im->end) <= 0;

	kill_child(im);
	if (whole)
		return pb_fail(err, EX_TEMPFAIL, "imap: %s: the session took "
			       "longer than %d times imap.timeout (%ld s) at "
			       "%s; the rest waits for the next run", im->url,
			       SESSION_TIMES, im->timeout * SESSION_TIMES,
			       what);
	return pb_fail(err, EX_TEMPFAIL, "imap: %s: no answer to %s within "
		       "%ld s (imap.timeout); the connection was dropped",
		       im->url, what, ms / 1000);
}

/*
 * One request and its answer: '*type' and 'body' (the payload) after the
 * checks of imapwire.h; an IW_ERR answer is the child's error, 'err'.
 */
static int ask(struct imap *im, const char *what, int req, const void *a,
	       size_t an, const void *b, size_t bn, long ms, size_t cap,
	       size_t max_uids, int *type, struct strbuf *body,
	       struct pb_err *err)
{
	unsigned char head[IW_HEAD];
	const char *why;
	uint32_t len;
	int rc, code;
	char text[IW_TEXT_MAX + 1];

	if (im->dead)
		return pb_fail(err, EX_TEMPFAIL, "imap: %s: the session is "
			       "over", im->url);
	if (iw_send(im->fd, req, a, an, b, bn))
		return child_gone(im, what, err);
	rc = wait_read(im, head, sizeof(head), ms);
	if (rc == -2)
		return late(im, what, ms, err);
	if (rc)
		return child_gone(im, what, err);
	len = iw_get32(head + 1);
	why = iw_check(head[0], len, cap, max_uids);
	if (why) {
		kill_child(im);
		return pb_fail(err, EX_PROTOCOL, "imap: %s: %s in the answer to "
			       "%s", im->url, why, what);
	}
	sb_reset(body);
	if (sb_grow(body, (size_t)len + 1))
		return pb_fail(err, EX_OSERR, "imap: out of memory");
	rc = wait_read(im, body->buf, len, ms);
	if (rc == -2)
		return late(im, what, ms, err);
	if (rc)
		return child_gone(im, what, err);
	body->len = len;
	body->buf[len] = '\0';
	*type = head[0];
	if (*type != IW_ERR)
		return 0;
	iw_err((unsigned char *)body->buf, len, &code, text, sizeof(text));
	return pb_fail(err, code, "%s", text);
}

/* An answer of the wrong kind for the request: the child is not sane. */
static int wrong(struct imap *im, const char *what, struct pb_err *err)
{
	kill_child(im);
	return pb_fail(err, EX_PROTOCOL, "imap: %s: a wrong answer to %s",
		       im->url, what);
}

static int start(struct imap *im, const struct config *cfg,
		 struct pb_err *err)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return pb_fail(err, EX_OSERR, "imap: socketpair: %s",
			       strerror(errno));
	fflush(NULL);	/* nothing buffered is written twice */
	im->pid = fork();
	if (im->pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return pb_fail(err, EX_OSERR, "imap: fork: %s",
			       strerror(errno));
	}
	if (im->pid == 0) {
		close(sv[0]);
		child_main(sv[1], cfg);
	}
	close(sv[1]);
	im->fd = sv[0];
	return 0;
}

int imap_open(struct imap **out, const struct config *cfg,
	      struct pb_err *err)
{
	struct strbuf body = STRBUF_INIT;
	struct imap *im;
	int type = 0;

	*out = NULL;
	if (!cfg->imap.url)
		return pb_fail(err, EX_CONFIG, "imap.url: not configured");
	im = calloc(1, sizeof(*im));
	if (!im)
		return pb_fail(err, EX_OSERR, "out of memory");
	im->fd = -1;
	im->url = cfg->imap.url;
	im->timeout = cfg->imap.timeout;
	clock_gettime(CLOCK_MONOTONIC, &im->end);
	im->end.tv_sec += im->timeout * SESSION_TIMES;
	if (start(im, cfg, err) ||
	    ask(im, "LOGIN and SELECT", IW_OPEN, NULL, 0, NULL, 0,
		im->timeout * OPEN_TIMES * 1000, 0, 0, &type, &body, err) ||
	    (type != IW_OPENED && wrong(im, "LOGIN and SELECT", err))) {
		sb_release(&body);
		imap_close(im);
		return -1;
	}
	im->uidvalidity = iw_get32((unsigned char *)body.buf);
	sb_release(&body);
	*out = im;
	return 0;
}

void imap_close(struct imap *im)
{
	struct timespec end;
	int status;

	if (!im)
		return;
	if (im->pid > 0 && !iw_send(im->fd, IW_QUIT, NULL, 0, NULL, 0)) {
		/* LOGOUT, briefly; then it is killed */
		clock_gettime(CLOCK_MONOTONIC, &end);
		end.tv_sec += 2;
		while (waitpid(im->pid, &status, WNOHANG) == 0 &&
		       ms_to(&end) > 0)
			poll(NULL, 0, 10);
		if (waitpid(im->pid, &status, WNOHANG) != 0)
			im->pid = 0;
	}
	kill_child(im);
	if (im->fd >= 0)
		close(im->fd);
	free(im);
}

uint32_t imap_uidvalidity(const struct imap *im)
{
	return im->uidvalidity;
}

static long op_ms(const struct imap *im)
{
	return (im->timeout + 1) * 1000;
}

int imap_new_uids(struct imap *im, uint32_t after, size_t max,
		  uint32_t **uids, size_t *n, struct pb_err *err)
{
	struct strbuf body = STRBUF_INIT;
	unsigned char p[8];
	const char *why;
	int type = 0, rc;

	*uids = NULL;
	*n = 0;
	if (max > UIDS_MAX)
		max = UIDS_MAX;
	iw_put32(p, after);
	iw_put32(p + 4, (uint32_t)max);
	rc = ask(im, "UID SEARCH", IW_SEARCH, p, 8, NULL, 0, op_ms(im), 0, max,
		 &type, &body, err);
	if (!rc && type != IW_UIDS)
		rc = wrong(im, "UID SEARCH", err);
	if (!rc && iw_uids((unsigned char *)body.buf, body.len, max, uids, n,
			   &why))
		rc = pb_fail(err, EX_PROTOCOL, "imap: %s: %s", im->url, why);
	sb_release(&body);
	return rc;
}

int imap_fetch(struct imap *im, uint32_t uid, size_t cap,
	       struct imap_msg *msg, struct pb_err *err)
{
	struct strbuf body = STRBUF_INIT;
	unsigned char p[8];
	const char *why;
	char what[48];
	int type = 0, rc;

	memset(msg, 0, sizeof(*msg));
	sb_init(&body, cap + IW_MSG_EXTRA + 1);
	snprintf(what, sizeof(what), "UID FETCH %u", (unsigned)uid);
	iw_put32(p, uid);
	iw_put32(p + 4, (uint32_t)cap);
	rc = ask(im, what, IW_FETCH, p, 8, NULL, 0, op_ms(im), cap, 0, &type,
		 &body, err);
	if (!rc && type != IW_MSG)
		rc = wrong(im, what, err);
	if (!rc && iw_msg((unsigned char *)body.buf, body.len, cap, uid, msg,
			  &why))
		rc = pb_fail(err, EX_PROTOCOL, "imap: %s: %s: %s", im->url,
			     what, why);
	sb_release(&body);
	return rc;
}

/* A request answered IW_OK (a flag byte). */
static int ask_ok(struct imap *im, const char *what, int req, const void *a,
		  size_t an, const void *b, size_t bn, int *flag,
		  struct pb_err *err)
{
	struct strbuf body = STRBUF_INIT;
	int type = 0, rc;

	rc = ask(im, what, req, a, an, b, bn, op_ms(im), 0, 0, &type, &body,
		 err);
	if (!rc && type != IW_OK)
		rc = wrong(im, what, err);
	if (!rc && flag)
		*flag = body.buf[0] != 0;
	sb_release(&body);
	return rc;
}

int imap_done(struct imap *im, uint32_t uid, const char *mailbox,
	      struct pb_err *err)
{
	size_t n = mailbox ? strlen(mailbox) : 0;
	unsigned char p[4];

	if (n > REQ_MAX - 4)
		return pb_fail(err, EX_CONFIG, "imap.processed_mailbox: too "
			       "long");
	iw_put32(p, uid);
	return ask_ok(im, "UID STORE", IW_DONE, p, 4, mailbox, n, NULL, err);
}

int imap_ensure(struct imap *im, const char *mailbox, int *created,
		struct pb_err *err)
{
	size_t n = strlen(mailbox);

	*created = 0;
	if (n > REQ_MAX)
		return pb_fail(err, EX_CONFIG, "imap.processed_mailbox: too "
			       "long");
	return ask_ok(im, "LIST", IW_ENSURE, mailbox, n, NULL, 0, created,
		      err);
}

int imap_probe(struct imap *im, const struct config *cfg,
	       struct strbuf *out, struct pb_err *err)
{
	struct strbuf body = STRBUF_INIT;
	int type = 0, rc;

	(void)cfg;
	rc = ask(im, "CAPABILITY", IW_PROBE, NULL, 0, NULL, 0, op_ms(im), 0, 0,
		 &type, &body, err);
	if (!rc && type != IW_TEXT)
		rc = wrong(im, "CAPABILITY", err);
	if (!rc && text_scrub_add(out, body.buf, body.len, TEXT_CTRL_QMARK))
		rc = pb_fail(err, EX_OSERR, "out of memory");
	sb_release(&body);
	return rc;
}
