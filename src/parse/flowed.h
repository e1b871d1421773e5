/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_FLOWED_H
#define PERFBOT_FLOWED_H

#include <stddef.h>

#include "perfbot/util/strbuf.h"

/*
 * Append the format=flowed text s[0..n) (RFC 3676, LF line ends) to 'out'
 * with its soft line breaks joined ('delsp': DelSp=yes), quote marks
 * kept as "> ". -1 when 'out' is full.
 */
int flowed_unflow(const char *s, size_t n, int delsp, struct strbuf *out);

#endif
