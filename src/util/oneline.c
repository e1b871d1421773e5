// SPDX-License-Identifier: GPL-2.0-only
/*
 * util: one line of header text, for compose (mail headers, the "Re:"
 * subject) and render (the rendered subject line).
 */
#include "perfbot/oneline.h"

void text_one_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = ' ';
}
