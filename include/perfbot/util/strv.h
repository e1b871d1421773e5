/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_STRV_H
#define PERFBOT_STRV_H

#include <stddef.h>

/*
 * util: a list of strings that belong to someone else (a loaded document:
 * the configuration, a manifest). 'v' has a NULL after the last, so an
 * argv is one as it is; v is NULL for a list the document does not have
 * and { NULL } for an empty one. Only the array is the list's own.
 */
struct strv {
	const char **v;
	size_t n;
};

#endif
