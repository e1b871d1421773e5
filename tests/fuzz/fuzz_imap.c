// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: IMAP server answers. With the first byte even, the
 * rest of the input is what a server sends: a listener on 127.0.0.1
 * plays it to perfbot's IMAP client (poll/imapchild.c), whose child runs
 * the mail library on it; whatever comes, the parent gets a clean 0 or
 * -1 (a crash or a hang stays in the child; a hang costs the timeout of
 * one operation, so this half runs a few inputs a second). With it odd,
 * the rest is an answer frame of the child, checked as the parent checks
 * it (poll/imapwire.c).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perfbot/poll/imap.h"
#include "perfbot/poll/imapwire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void frames(const uint8_t *p, size_t n)
{
	struct imap_msg m;
	uint32_t *uids = NULL;
	const char *why;
	size_t k = 0;
	char text[128];
	int code;

	if (n < IW_HEAD)
		return;
	if (iw_check(p[0], iw_get32(p + 1), 1 << 20, 5000))
		return;
	p += IW_HEAD;
	n -= IW_HEAD;
	if (!iw_uids(p, n, 5000, &uids, &k, &why))
		free(uids);
	if (!iw_msg(p, n, 1 << 20, n >= 4 ? iw_get32(p) : 0, &m, &why))
		imap_msg_release(&m);
	iw_err(p, n, &code, text, sizeof(text));
}

/* A server that says 'p' to whoever connects first, then only listens. */
static pid_t server(const uint8_t *p, size_t n, unsigned short *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	char sink[4096];
	int l = socket(AF_INET, SOCK_STREAM, 0), c;
	pid_t pid;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1) ||
	    getsockname(l, (struct sockaddr *)&a, &len))
		return -1;
	*port = ntohs(a.sin_port);
	pid = fork();
	if (pid == 0) {
		alarm(5);
		c = accept(l, NULL, NULL);
		if (c >= 0 && n)
			(void)!write(c, p, n);
		if (c >= 0)	/* the end of what it says: no waiting */
			shutdown(c, SHUT_WR);
		while (c >= 0 && read(c, sink, sizeof(sink)) > 0)
			;
		_exit(0);
	}
	close(l);
	return pid;
}

static void session(const uint8_t *p, size_t n)
{
	char yaml[256];
	struct config cfg;
	struct pb_err err;
	struct imap *im = NULL;
	struct imap_msg m;
	uint32_t *uids = NULL;
	size_t k = 0, i;
	unsigned short port = 0;
	pid_t srv = server(p, n, &port);

	if (srv < 0)
		return;
	snprintf(yaml, sizeof(yaml), "imap: {url: \"imap://127.0.0.1:%u\", "
		 "tls: none, user: u, password_env: FUZZ_PW, timeout: 1}\n",
		 port);
	setenv("FUZZ_PW", "pw", 1);
	if (!config_parse(&cfg, "fuzz.yaml", NULL, yaml, strlen(yaml), &err)) {
		if (!imap_open(&im, &cfg, &err) &&
		    !imap_new_uids(im, 0, 10, &uids, &k, &err))
			for (i = 0; i < k; i++)
				if (!imap_fetch(im, uids[i], 1 << 16, &m, &err)) {
					imap_msg_release(&m);
					imap_done(im, uids[i], NULL, &err);
				}
		free(uids);
		imap_close(im);
		config_release(&cfg);
	}
	kill(srv, SIGKILL);
	waitpid(srv, NULL, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size || size > 65536)
		return 0;
	if (data[0] & 1)
		frames(data + 1, size - 1);
	else
		session(data + 1, size - 1);
	return 0;
}
