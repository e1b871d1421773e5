/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_HTML_H
#define PERFBOT_HTML_H

#include <stddef.h>

#include "perfbot/util/strbuf.h"

/*
 * Append the HTML s[0..n) (UTF-8) as plain text to 'out': tags dropped,
 * blocks on lines of their own, entities decoded, script/style/title
 * hidden, text in <blockquote> marked with one '>' per level so that the
 * quote rules drop it. -1 when 'out' is full.
 */
int html_to_text(const char *s, size_t n, struct strbuf *out);

#endif
