// SPDX-License-Identifier: GPL-2.0-only
/*
 * Child processes, for the stages that run a program: act (an exec
 * scheduler) and config (a password_command). Start one argv with a given
 * environment, read its output up to a cap, wait with a deadline and kill
 * past it, tell how it ended.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfbot/util/proc.h"

#define POLL_SLICE_MS 50	/* between two looks while collecting */
#define WAIT_SLICE_MS 10	/* between two looks while waiting */
#define READ_CHUNK 4096

enum read_result { READ_GOT, READ_NOTHING, READ_END, READ_FULL };

int proc_can_run(const char *prog)
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

/* The signal state and process group of the child, per 'flags'. */
static void spawn_attr(posix_spawnattr_t *at, unsigned flags)
{
	sigset_t none, dfl;
	short f = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;

	posix_spawnattr_init(at);
	sigemptyset(&none);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	sigaddset(&dfl, SIGINT);
	sigaddset(&dfl, SIGTERM);
	sigaddset(&dfl, SIGHUP);
	posix_spawnattr_setsigmask(at, &none);
	posix_spawnattr_setsigdefault(at, &dfl);
	if (flags & PROC_GROUP) {
		posix_spawnattr_setpgroup(at, 0);
		f |= POSIX_SPAWN_SETPGROUP;
	}
	posix_spawnattr_setflags(at, f);
}

/* stdin, stdout and stderr per 'flags'; every other descriptor closed. */
static void spawn_files(posix_spawn_file_actions_t *fa, int out, int errw,
			unsigned flags)
{
	posix_spawn_file_actions_init(fa);
	if (flags & PROC_STDIN_NULL)
		posix_spawn_file_actions_addopen(fa, STDIN_FILENO, "/dev/null",
						 O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(fa, out, STDOUT_FILENO);
	if (flags & PROC_STDERR)
		posix_spawn_file_actions_adddup2(fa, out, STDERR_FILENO);
	else if (errw >= 0)
		posix_spawn_file_actions_adddup2(fa, errw, STDERR_FILENO);
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 34)
	posix_spawn_file_actions_addclosefrom_np(fa, STDERR_FILENO + 1);
#endif
}

int proc_start(struct proc *p, char *const argv[], char *const envp[],
	       unsigned flags)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	int pfd[2], efd[2] = { -1, -1 }, rc;

	memset(p, 0, sizeof(*p));
	p->fd = -1;
	p->errfd = -1;
	p->code = -1;
	p->flags = flags;
	/*
	 * posix_spawnp says so too, but not on every system (an exec
	 * failure in the child can show as exit 127, as under valgrind).
	 */
	rc = proc_can_run(argv[0]);
	if (rc)
		return rc;
	if (pipe2(pfd, O_CLOEXEC))
		return errno;
	if ((flags & PROC_STDERR_KEEP) && pipe2(efd, O_CLOEXEC | O_NONBLOCK)) {
		rc = errno;
		close(pfd[0]);
		close(pfd[1]);
		return rc;
	}
	spawn_files(&fa, pfd[1], efd[1], flags);
	spawn_attr(&at, flags);
	rc = posix_spawnp(&p->pid, argv[0], &fa, &at, argv, envp);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	if (efd[1] >= 0)
		close(efd[1]);
	if (rc) {
		close(pfd[0]);
		if (efd[0] >= 0)
			close(efd[0]);
		p->pid = 0;
	} else {
		p->fd = pfd[0];
		p->errfd = efd[0];
	}
	return rc;
}

static void reap(struct proc *p, int flags)
{
	int status = 0;
	pid_t r;

	while ((r = waitpid(p->pid, &status, flags)) < 0 && errno == EINTR)
		;
	if (r == p->pid) {
		p->exited = 1;
		if (WIFEXITED(status))
			p->code = WEXITSTATUS(status);
		else if (WIFSIGNALED(status))
			p->sig = WTERMSIG(status);
	} else if (r < 0) {
		p->exited = 1;	/* not ours to wait for: its status is lost */
	}
}

static void kill_child(struct proc *p)
{
	if (p->flags & PROC_GROUP)
		kill(-p->pid, SIGKILL);
	kill(p->pid, SIGKILL);
	reap(p, 0);
}

static void close_output(struct proc *p)
{
	close(p->fd);
	p->fd = -1;
}

static void deadline_in(struct timespec *end, long ms)
{
	clock_gettime(CLOCK_MONOTONIC, end);
	end->tv_sec += ms / 1000;
	end->tv_nsec += (ms % 1000) * 1000000;
	if (end->tv_nsec >= 1000000000) {
		end->tv_sec++;
		end->tv_nsec -= 1000000000;
	}
}

static long ms_left(const struct timespec *end)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long)(end->tv_sec - now.tv_sec) * 1000 +
		(end->tv_nsec - now.tv_nsec) / 1000000;
}

/* What it said on stderr so far: kept up to PROC_ERR_MAX, the rest read
 * and dropped so that it never blocks on a full pipe. */
static void drain_err(struct proc *p)
{
	char buf[READ_CHUNK];
	ssize_t n;
	size_t k;

	while (p->errfd >= 0 && (n = read(p->errfd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				break;
			return;
		}
		k = (size_t)n;
		if (k > PROC_ERR_MAX - p->errlen)
			k = PROC_ERR_MAX - p->errlen;
		memcpy(p->err + p->errlen, buf, k);
		p->errlen += k;
		p->err[p->errlen] = '\0';
	}
	if (p->errfd >= 0) {	/* its end: closed */
		close(p->errfd);
		p->errfd = -1;
	}
}

/*
 * Read what is there within 'ms' into 'out'. A piece past the cap is
 * dropped (what fits of it kept), or with 'whole' refused: READ_FULL.
 */
static enum read_result read_some(struct proc *p, struct strbuf *out,
				  int ms, int whole)
{
	struct pollfd pfd[2] = { { p->fd, POLLIN, 0 }, { p->errfd, POLLIN, 0 } };
	size_t room = out->max - out->len;
	enum read_result res = READ_GOT;
	char buf[READ_CHUNK];
	size_t keep;
	ssize_t n;
	int k;

	k = poll(pfd, p->errfd >= 0 ? 2 : 1, ms);
	if (k < 0)
		return errno == EINTR ? READ_GOT : READ_END;
	if (k == 0)
		return READ_NOTHING;
	if (p->errfd >= 0 && pfd[1].revents)
		drain_err(p);
	if (!pfd[0].revents)
		return READ_GOT;
	n = read(p->fd, buf, sizeof(buf));
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? READ_GOT : READ_END;
	if (n == 0)
		return READ_END;
	keep = (size_t)n;
	if (!whole && keep > room)
		keep = room;
	/* without 'whole', what does not fit (or finds no memory) is dropped */
	if (sb_add(out, buf, keep) && whole)
		res = READ_FULL;
	explicit_bzero(buf, (size_t)n);	/* it may be a password */
	return res;
}

void proc_collect(struct proc *p, struct strbuf *out, long timeout_ms)
{
	struct timespec end;
	enum read_result k;
	long left;

	deadline_in(&end, timeout_ms);
	while (!p->exited || p->fd >= 0) {
		left = ms_left(&end);
		if (left <= 0) {
			if (!p->exited) {
				kill_child(p);
				p->timed_out = 1;
			}
			break;
		}
		if (left > POLL_SLICE_MS)
			left = POLL_SLICE_MS;
		if (p->fd >= 0) {
			k = read_some(p, out, p->exited ? 0 : (int)left, 0);
			if (k == READ_END || (k == READ_NOTHING && p->exited))
				close_output(p);
		} else {
			poll(NULL, 0, (int)left);
		}
		if (!p->exited)
			reap(p, WNOHANG);
	}
	if (p->fd >= 0)
		close_output(p);
}

void proc_read_line(struct proc *p, struct strbuf *out, long idle_ms)
{
	while (p->fd >= 0 && !memchr(sb_str(out), '\n', out->len))
		if (read_some(p, out, (int)idle_ms, 1) != READ_GOT)
			break;
}

void proc_wait(struct proc *p, long timeout_ms)
{
	struct timespec end;

	deadline_in(&end, timeout_ms);
	while (!p->exited) {
		drain_err(p);
		reap(p, WNOHANG);
		if (p->exited)
			break;
		if (ms_left(&end) <= 0) {
			kill_child(p);
			p->timed_out = 1;
			break;
		}
		poll(NULL, 0, WAIT_SLICE_MS);
	}
	drain_err(p);
}

void proc_release(struct proc *p)
{
	if (p->fd >= 0)
		close_output(p);
	if (p->errfd >= 0) {
		close(p->errfd);
		p->errfd = -1;
	}
	if (p->pid > 0 && !p->exited)
		kill_child(p);
}
