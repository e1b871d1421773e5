/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_ACT_TEST_INTERNAL_H
#define PERFBOT_ACT_TEST_INTERNAL_H

/*
 * Shared by the two files of tests only: src/act/test.c (the act step)
 * and src/act/test_result.c (the follow-up): the words of the forms and
 * the context the answers of both give them.
 */

#include "perfbot/render/context.h"
#include "perfbot/util/strbuf.h"

/* The forms as the state records them, by enum test_form. */
extern const char *const test_form_names[3];

/*
 * "form_patch", "form_tree", "form_commit" (the one of 'form' true) and
 * the "repo" and "ref" (optional) of a test's answers.
 */
void test_form_ctx(struct ctx *x, const char *form, const char *repo,
		   const char *ref);

#endif
