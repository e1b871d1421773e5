/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_ONELINE_H
#define PERFBOT_ONELINE_H

/*
 * One line of header text (util): what every value that reaches a mail
 * header passes through, so that no CR or LF can start a header or the
 * body. To be folded into the text module (util/text.c).
 */

/* Replace CR, LF and other control characters by spaces, in place. */
void text_one_line(char *s);

#endif
