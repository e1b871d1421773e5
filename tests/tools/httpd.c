// SPDX-License-Identifier: GPL-2.0-only
/*
 * httpd: a tiny HTTP/1.0 listener for the tests, on 127.0.0.1 only.
 *   httpd DIR
 * picks a free port, writes it to DIR/port, and answers until SIGTERM or
 * for at most 600 seconds:
 *   GET /NAME   DIR/NAME (NAME may be SUB/FILE) with an ETag (a hash of the content); a matching
 *               If-None-Match gets 304; a missing file 404
 *               While DIR/TOP.hold exists (TOP: NAME's first part),
 *               GET /NAME waits, at most 60 s, having made DIR/TOP.held:
 *               a test's way to catch its client in the middle of a fetch
 *   POST /NAME  appends the body as one line to DIR/NAME.posts and answers
 *               the status in DIR/NAME.status (default 202) with body {}
 * Requests are served one at a time and capped at 1 MiB.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tool.h"
#include "perfbot/util/fileio.h"
#include "perfbot/util/strmap.h"

#define MAX_REQUEST (1 << 20)
#define LIFETIME 600

static const char *root;

static int send_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static void answer(int fd, int status, const char *etag, const char *body,
		   size_t len)
{
	struct strbuf h = STRBUF_INIT;

	MUST(sb_addf(&h, "HTTP/1.0 %d X\r\nContent-Length: %zu\r\n"
			"Content-Type: application/json\r\n", status, len));
	if (etag)
		MUST(sb_addf(&h, "ETag: \"%s\"\r\n", etag));
	MUST(sb_adds(&h, "Connection: close\r\n\r\n"));
	send_all(fd, sb_str(&h), h.len);
	if (len)
		send_all(fd, body, len);
	sb_release(&h);
}

/* Read the head and, per Content-Length, the body. */
static int read_request(int fd, struct strbuf *req, size_t *head_len)
{
	char buf[4096], *end, *cl;
	size_t want = 0;
	ssize_t n;

	for (;;) {
		end = req->buf ? strstr(req->buf, "\r\n\r\n") : NULL;
		if (end && !want) {
			*head_len = (size_t)(end - req->buf) + 4;
			cl = strcasestr(req->buf, "\r\nContent-Length:");
			want = *head_len + (cl ? strtoul(cl + 17, NULL, 10) : 0);
		}
		if (want && req->len >= want)
			return 0;
		n = read(fd, buf, sizeof(buf));
		if (n <= 0 || sb_add(req, buf, (size_t)n))
			return -1;
	}
}

/* NAME or DIR/NAME under the root, nothing that climbs out of it. */
static int safe(const char *name)
{
	const char *slash = strchr(name, '/');

	return *name && *name != '/' && !strstr(name, "..") &&
	       (!slash || (slash > name && !strchr(slash + 1, '/')));
}

/* While DIR/TOP.hold exists: DIR/TOP.held made, wait (60 s at most). */
static void hold(const char *name)
{
	char hold[4096], held[4096];
	size_t top = strcspn(name, "/");
	FILE *f;
	int i;

	snprintf(hold, sizeof(hold), "%s/%.*s.hold", root, (int)top, name);
	snprintf(held, sizeof(held), "%s/%.*s.held", root, (int)top, name);
	for (i = 0; i < 1200 && access(hold, F_OK) == 0; i++) {
		if (i == 0 && (f = fopen(held, "w")))
			fclose(f);
		usleep(50000);
	}
}

static void handle_get(int fd, const char *name, const char *req)
{
	struct strbuf body = STRBUF_INIT;
	struct pb_err err;
	char *path = path_join(root, name), etag[20], *inm;

	hold(name);
	if (!path || file_read(path, MAX_REQUEST, 0, &body, &err)) {
		answer(fd, 404, NULL, "{}", 2);
	} else {
		snprintf(etag, sizeof(etag), "%016llx",
			 hash_fnv1a(body.buf, body.len, 0));
		inm = strcasestr(req, "\r\nIf-None-Match:");
		if (inm && strstr(inm, etag) &&
		    strstr(inm, etag) < strstr(inm + 2, "\r\n"))
			answer(fd, 304, etag, NULL, 0);
		else
			answer(fd, 200, etag, sb_str(&body), body.len);
	}
	free(path);
	sb_release(&body);
}

static void handle_post(int fd, const char *name, const char *body,
			size_t len)
{
	struct strbuf p = STRBUF_INIT, st = STRBUF_INIT;
	struct pb_err err;
	FILE *f;
	long status = 202;

	MUST(sb_addf(&p, "%s/%s.status", root, name));
	if (!file_read(p.buf, 64, 1, &st, &err))
		status = strtol(st.buf, NULL, 10);
	sb_reset(&p);
	MUST(sb_addf(&p, "%s/%s.posts", root, name));
	f = fopen(p.buf, "a");
	if (f) {
		fwrite(body, 1, len, f);
		fputc('\n', f);
		fclose(f);
	}
	answer(fd, (int)status, NULL, "{}", 2);
	sb_release(&p);
	sb_release(&st);
}

static void serve(int fd)
{
	struct strbuf req;
	char method[8], name[256];
	size_t head = 0;

	sb_init(&req, MAX_REQUEST);
	if (read_request(fd, &req, &head) ||
	    sscanf(req.buf, "%7s /%255s", method, name) != 2 || !safe(name))
		answer(fd, 400, NULL, "{}", 2);
	else if (!strcmp(method, "GET"))
		handle_get(fd, name, req.buf);
	else if (!strcmp(method, "POST"))
		handle_post(fd, name, req.buf + head, req.len - head);
	else
		answer(fd, 405, NULL, "{}", 2);
	sb_release(&req);
}

static int listen_any(unsigned short *port)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(fd, 16) || getsockname(fd, (struct sockaddr *)&a, &len))
		return -1;
	*port = ntohs(a.sin_port);
	return fd;
}

int main(int argc, char **argv)
{
	struct strbuf p = STRBUF_INIT, port_text = STRBUF_INIT;
	struct pb_err err;
	unsigned short port = 0;
	int lfd, fd;

	if (argc != 2) {
		fprintf(stderr, "usage: httpd DIR\n");
		return 64;
	}
	root = argv[1];
	signal(SIGPIPE, SIG_IGN);
	lfd = listen_any(&port);
	MUST(sb_addf(&p, "%s/port", root));
	MUST(sb_addf(&port_text, "%u\n", port));
	if (lfd < 0 || file_write_atomic(p.buf, port_text.buf, port_text.len,
					 0644, &err)) {
		fprintf(stderr, "httpd: cannot listen\n");
		return 69;
	}
	alarm(LIFETIME);
	for (;;) {
		fd = accept(lfd, NULL, NULL);
		if (fd < 0 && errno == EINTR)
			continue;
		if (fd < 0)
			return 70;
		serve(fd);
		close(fd);
	}
}
