/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_PROC_H
#define PERFBOT_PROC_H

#include <sys/types.h>

#include "perfbot/util/strbuf.h"

/*
 * Child processes (an exec scheduler, a password_command): one argv run
 * without a shell, argv[0] looked up in PATH when it holds no '/'. The
 * child gets the environment it is given and nothing else of perfbot's:
 * no open file past stderr, an empty signal mask, and SIGPIPE, SIGINT,
 * SIGTERM and SIGHUP at their default dispositions. Its stdout goes into
 * a pipe that perfbot reads.
 */

#define PROC_STDIN_NULL	0x1	/* stdin from /dev/null, else perfbot's */
#define PROC_STDERR	0x2	/* stderr into the pipe too, else perfbot's */
#define PROC_GROUP	0x4	/* a process group of its own: a kill past
				 * the deadline ends what it started too */
#define PROC_STDERR_KEEP 0x8	/* stderr into a pipe of its own, read into
				 * 'err' (its first PROC_ERR_MAX bytes) */

#define PROC_ERR_MAX 1024

struct proc {
	pid_t pid;
	int fd;			/* read end of its output, or -1 */
	int errfd;		/* PROC_STDERR_KEEP: read end of stderr */
	char err[PROC_ERR_MAX + 1];	/* what it said there */
	size_t errlen;
	unsigned flags;
	int exited;		/* it ended and was reaped */
	int timed_out;		/* killed past its deadline */
	int code;		/* its exit code, or -1 (a signal, unknown) */
	int sig;		/* the signal that ended it, or 0 */
};

/*
 * 0 when 'prog' (a path, or a name looked up in PATH) is an executable,
 * else an errno value.
 */
int proc_can_run(const char *prog);

/*
 * Start argv with exactly the environment 'envp' and PROC_* 'flags'.
 * Returns 0, or an errno value (nothing runs then; ENOENT or EACCES for
 * a program that cannot be run, EAGAIN or ENOMEM for a lack of resources).
 */
int proc_start(struct proc *p, char *const argv[], char *const envp[],
	       unsigned flags);

/*
 * Read the output into 'out' until the child exits and its output ends,
 * killing it after 'timeout_ms'. Past out's cap the output is read and
 * dropped, so that a chatty child does not block on a full pipe. Once it
 * has exited, only what is already in the pipe is read: something it left
 * running may hold the pipe open.
 */
void proc_collect(struct proc *p, struct strbuf *out, long timeout_ms);

/*
 * Read the output into 'out' until it holds a line end, the output ends,
 * nothing comes for 'idle_ms', or the next piece would pass out's cap.
 * The child is not waited for: see proc_wait().
 */
void proc_read_line(struct proc *p, struct strbuf *out, long idle_ms);

/* Wait for the child to exit (reading nothing), killing it after 'ms'. */
void proc_wait(struct proc *p, long timeout_ms);

/* Close the output; a child still running is killed and reaped. */
void proc_release(struct proc *p);

#endif
