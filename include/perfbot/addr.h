/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_ADDR_H
#define PERFBOT_ADDR_H

#include <stddef.h>

/*
 * Strict checks for values that end up in mail headers. A manifest's
 * author must be exactly one mailbox, "addr@domain" or "Name <addr@domain>"
 * (a quoted name may hold specials): never a list, never a group, no
 * comments, no control character, at most ADDR_MAX_MAILBOX bytes. Mail
 * libraries accept much more, which is how "Dev <a@x>, b@y" became two
 * recipients.
 */

#define ADDR_MAX_MAILBOX 512
#define ADDR_MAX_SPEC 254

/* 1 when s[0..n) holds a C0 control, DEL or a C1 control (UTF-8). */
int text_has_control(const char *s, size_t n);

/*
 * 0 when 'mailbox' is one mailbox as above; else -1 with a short reason
 * in *why (a static string). 'spec', when not NULL, receives the bare
 * addr-spec (at most ADDR_MAX_SPEC bytes and a NUL; 'len' its size).
 */
int addr_check_mailbox(const char *mailbox, char *spec, size_t len,
		       const char **why);

/* The domain of a bare addr-spec (after its last '@'), or NULL. */
const char *addr_domain(const char *spec);

#endif
