/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_CLI_CHECKER_H
#define PERFBOT_CLI_CHECKER_H

#include "perfbot/config/config.h"
#include "perfbot/util/err.h"

/*
 * 'perfbot check', what its checks share (src/cli/checker.c): the
 * problems said and counted, each once, and the 'ok:' lines.
 */

#define CHECK_MAX_SAID 256

struct checker {
	const struct config *cfg;
	int problems;
	int bad_manifests;	/* not the config's: exit 65, not 78 */
	int quiet;
	/* what each problem said it was about (problem_subject), once */
	unsigned long long said[CHECK_MAX_SAID];
	size_t nsaid;
};

/* Say the problem in 'err' and count it, unless one about the same
 * subject was said already. */
void check_problem(struct checker *ck, const struct pb_err *err);

/* An 'ok:' line (not when quiet), with any password in a URL masked. */
void check_okay(struct checker *ck, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
