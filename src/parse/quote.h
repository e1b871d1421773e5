/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_QUOTE_H
#define PERFBOT_QUOTE_H

#include <stddef.h>

#include "perfbot/parse/reply.h"

/*
 * The reply's own lines out of its plain text[0..len): an inline patch,
 * Outlook's quoted original, the signature, quotes and their attributions
 * cut; sets r->text (blank runs as one) and the commands found in the
 * lines kept (prefix from 'o', which may be NULL). -1 when out of memory.
 */
int quote_read(const char *text, size_t len, const struct reply_opts *o,
	       struct reply *r);

#endif
