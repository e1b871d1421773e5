// SPDX-License-Identifier: GPL-2.0-only
/*
 * poll: the frames between perfbot and its IMAP child (imapwire.h),
 * written whole and read back checked, so that a child the server made
 * misbehave can send nothing the parent would take for a mail.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sysexits.h>

#include "perfbot/poll/imapwire.h"
#include "perfbot/util/text.h"

void iw_put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

uint32_t iw_get32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static int send_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	ssize_t w;

	while (n) {
		w = send(fd, c, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

int iw_send(int fd, int type, const void *a, size_t an, const void *b,
	    size_t bn)
{
	unsigned char head[IW_HEAD];

	if (an + bn > UINT32_MAX) {
		errno = EMSGSIZE;
		return -1;
	}
	head[0] = (unsigned char)type;
	iw_put32(head + 1, (uint32_t)(an + bn));
	return send_all(fd, head, sizeof(head)) ||
	       (an && send_all(fd, a, an)) || (bn && send_all(fd, b, bn)) ?
		-1 : 0;
}

const char *iw_check(int type, uint32_t len, size_t cap, size_t max_uids)
{
	switch (type) {
	case IW_OPENED:
		return len == 4 ? NULL : "a bad OPENED frame";
	case IW_OK:
		return len == 1 ? NULL : "a bad OK frame";
	case IW_UIDS:
		return len % 4 == 0 && len / 4 <= max_uids ? NULL :
			"more UIDs than asked for";
	case IW_MSG:
		return len >= IW_MSG_EXTRA && len - IW_MSG_EXTRA <= cap ? NULL :
			"a message larger than imap.max_message_bytes";
	case IW_TEXT:
	case IW_ERR:
		return len <= IW_TEXT_MAX ? NULL : "a text too long";
	default:
		return "an answer of no known kind";
	}
}

int iw_uids(const unsigned char *p, size_t len, size_t max, uint32_t **uids,
	    size_t *n, const char **why)
{
	size_t i, k = len / 4;

	*uids = NULL;
	*n = 0;
	*why = len % 4 || k > max ? "more UIDs than asked for" : NULL;
	if (*why)
		return -1;
	*uids = calloc(k + 1, sizeof(**uids));
	if (!*uids)
		return *why = "out of memory", -1;
	for (i = 0; i < k; i++) {
		(*uids)[i] = iw_get32(p + 4 * i);
		if (!(*uids)[i] || (i && (*uids)[i] <= (*uids)[i - 1])) {
			free(*uids);
			*uids = NULL;
			return *why = "UIDs out of order", -1;
		}
	}
	*n = k;
	return 0;
}

int iw_msg(const unsigned char *p, size_t len, size_t cap, uint32_t uid,
	   struct imap_msg *m, const char **why)
{
	size_t n;

	memset(m, 0, sizeof(*m));
	*why = iw_check(IW_MSG, len > UINT32_MAX ? UINT32_MAX : (uint32_t)len,
			cap, 0);
	if (*why)
		return -1;
	if (iw_get32(p) != uid)
		return *why = "the answer is for another UID", -1;
	m->uid = uid;
	m->size = iw_get32(p + 4);
	n = len - IW_MSG_EXTRA;
	if (!p[8])	/* not downloaded: larger than the cap */
		return n ? (*why = "data for a mail not downloaded", -1) : 0;
	m->data = malloc(n + 1);
	if (!m->data)
		return *why = "out of memory", -1;
	memcpy(m->data, p + IW_MSG_EXTRA, n);
	m->data[n] = '\0';
	m->len = n;
	return 0;
}

void iw_err(const unsigned char *p, size_t len, int *code, char *text,
	    size_t n)
{
	uint32_t c = len >= 4 ? iw_get32(p) : 0;

	/* a sysexits code, or the child's word is not taken */
	*code = c >= EX__BASE && c <= EX__MAX ? (int)c : EX_SOFTWARE;
	if (len < 4)
		len = 4;
	text_scrub_to(text, n, (const char *)p + 4, len - 4,
		      TEXT_CTRL_QMARK);
}
