/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_VALUES_H
#define PERFBOT_VALUES_H

#include <jansson.h>

#include "perfbot/util/err.h"

/*
 * compose: the values of a template context made fit for a mail, at the
 * one place where they enter it (answer_piece() and the reminder call
 * this before rendering). A value from outside (an attachment's file
 * name, a commit title, a command line, a farm's words, a name) is one
 * line: every control character in it (C0 with CR, LF and TAB, DEL, C1
 * with NEL, U+2028, U+2029) becomes a space, so it can neither start a
 * line of its own in the bot's mail nor colour a terminal. Only the
 * blocks perfbot lays out itself (values_block()) keep their line feeds.
 */

/* 1 when the context key 'key' holds one of perfbot's own text blocks. */
int values_block(const char *key);

/*
 * Scrub every string of 'ctx' (objects and lists, at any depth) in
 * place by the rule above; the items of a list take their key's rule.
 * 0, or -1 with 'err' (out of memory).
 */
int values_scrub(json_t *ctx, struct pb_err *err);

#endif
