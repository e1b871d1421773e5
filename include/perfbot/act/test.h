/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_TEST_H
#define PERFBOT_TEST_H

#include <stddef.h>
#include <time.h>

#include "perfbot/act/dispatch.h"
#include "perfbot/config/config.h"
#include "perfbot/state/state.h"

/*
 * Tests: "test" in a report's thread asks the farm to run the report's
 * job on a tree of its own (the farm's contract: kind "test", a new
 * result root under scheduler.results_dir): the patch the mail carries
 * applied on the reported commit, a tree as it is (a repository
 * commands.test_repos allows, at a branch or commit), or a commit of the
 * reported tree. The act step checks what it may do (one test a mail,
 * limits.tests_per_report, limits.tests_per_sender_per_day, the patch:
 * text with a hunk, at most limits.max_patch_bytes; the repository and
 * ref: safe, allowed), saves the patch, asks the farm and records the
 * test; a later run answers in the thread when the result root is
 * complete: the N-commit table of the base, the reported commit and the
 * tested tree, the headline metric's runs, the verdict of
 * seq_fix_judge() (fixed, partly fixed, not fixed, inconclusive) with
 * the tests of both comparisons and, on fixed, the Tested-by trailer; or
 * the farm's reason when it could not build or apply it
 * (result_root/error); or that it did not finish by the deadline.
 */

/*
 * The command "test", an entry of the command table of act/dispatch.c:
 * its arguments (parse/commands.h's grammar), its check (N: 2 to
 * limits.max_runs) and its act step.
 */
int test_parse(const char *args, struct mail_command *c);
int test_check(const struct mail_command *c, const struct command_limits *l,
	       char *why, size_t whylen);

/*
 * The act step of the command table's "test" (dispatch.h): 0 asked (the
 * farm took it, or refused it: answered so), 1 refused here (answered,
 * nothing done), -1 with 'err' when the state or a template fails.
 */
int test_act(struct act_ctx *a, const struct mail_command *c, size_t index,
	     struct pb_err *err);

/*
 * May a tree test name repository 'url'? 0, or -1 with the reason (a
 * word of templates/test-refused.txt: "repo_scheme", "repo_unsafe",
 * "repo_off", "repo_not_allowed") in '*why'. https:// or git://, a host,
 * no user, no blank or control character, no "..", and a match of one of
 * commands.test_repos (fnmatch(3) patterns; none: tree tests are off).
 */
int test_repo_allowed(const struct config *cfg, const char *url,
		      const char **why);

/*
 * A branch or commit safe to hand to the farm's git: 1 to 200 bytes of
 * letters, digits, '.', '_', '-', '+', '/', not starting with '-', '.'
 * or '/', no "..", "//" or "/.", not ending with '/', '.' or ".lock".
 */
int test_ref_safe(const char *ref);

#endif
