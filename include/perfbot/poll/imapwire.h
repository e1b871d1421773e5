/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_IMAPWIRE_H
#define PERFBOT_IMAPWIRE_H

#include <stddef.h>
#include <stdint.h>

#include "perfbot/poll/imap.h"

/*
 * The frames between perfbot and its IMAP child (poll, imapchild.c): a
 * type byte, a 32-bit big-endian length, the payload. The parent trusts
 * nothing the child sends: each answer is checked against its type's
 * size and shape before it is used (tests/fuzz/fuzz_imap.c feeds these
 * checks anything).
 */

#define IW_HEAD 5
#define IW_TEXT_MAX 4096	/* an error's or the probe's text */
#define IW_MSG_EXTRA 9		/* a message frame: uid, size, flag, data */

enum iw_type {
	/* requests */
	IW_OPEN = 'O', IW_SEARCH = 'S', IW_FETCH = 'F', IW_DONE = 'D',
	IW_ENSURE = 'E', IW_PROBE = 'P', IW_QUIT = 'Q',
	/* answers */
	IW_OPENED = 'o', IW_UIDS = 'u', IW_MSG = 'm', IW_OK = 'k',
	IW_TEXT = 'p', IW_ERR = 'e',
};

void iw_put32(unsigned char *p, uint32_t v);
uint32_t iw_get32(const unsigned char *p);

/*
 * Write one frame (its payload the two parts 'a' and 'b', either may be
 * empty) to 'fd', whole: 0, or -1 with errno.
 */
int iw_send(int fd, int type, const void *a, size_t an, const void *b,
	    size_t bn);

/*
 * May an answer of 'type' and 'len' bytes be read at all? 'cap' is the
 * message cap, 'max_uids' the most UIDs asked for. NULL, or why not.
 */
const char *iw_check(int type, uint32_t len, size_t cap, size_t max_uids);

/* The UIDs of an IW_UIDS payload, checked: ascending, at most 'max'. */
int iw_uids(const unsigned char *p, size_t len, size_t max, uint32_t **uids,
	    size_t *n, const char **why);

/* An IW_MSG payload as a message (its data copied), checked. */
int iw_msg(const unsigned char *p, size_t len, size_t cap, uint32_t uid,
	   struct imap_msg *m, const char **why);

/* An IW_ERR payload: its sysexits code (checked) and text (scrubbed). */
void iw_err(const unsigned char *p, size_t len, int *code, char *text,
	    size_t n);

#endif
