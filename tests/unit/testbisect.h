/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the unit tests of the bisections' listings share, header-only
 * (testutil.h's rules): a bisection of three candidates recorded in a
 * state as the rounds driver records it, in its first round or done
 * with its culprit.
 */
#ifndef PERFBOT_TESTBISECT_H
#define PERFBOT_TESTBISECT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfbot/judge/bisect.h"
#include "perfbot/state/bisections.h"

#define TB_BASE "00000000000000000000000000000000000000aa"

/* Candidate i's sha (1..3): "000...0i". */
static inline void tb_sha(char *buf, size_t i)
{
	snprintf(buf, GIT_SHA_HEX, "%040zx", i);
}

/*
 * Bisection "bisect-<report>" of 'report' of aim7.jobs-per-min recorded
 * at 'now'; 'culprit' 0: searching, no round yet; else done, candidate
 * 'culprit' (1..3) its culprit after 2 rounds of 12 runs.
 */
static inline void tb_bisection_add(struct state *st, const char *report,
				    size_t culprit, time_t now)
{
	static const double base[] = { 100, 101, 99 }, head[] = { 90, 91, 89 };
	struct bisect_cand c[3];
	struct bisect_range r = { c, 3 };
	struct bisect_params par;
	struct bisect b = { 0 };
	struct pb_err err = { 0, "" };
	char id[128], *json;
	size_t i;

	memset(c, 0, sizeof(c));
	for (i = 0; i < 3; i++)
		tb_sha(c[i].sha, i + 1);
	bisect_params_default(&par);
	assert_int_equal(bisect_init(&b, &par, "aim7.jobs-per-min", TB_BASE,
				     base, 3, &r, head, 3, &err), 0);
	if (culprit) {
		b.phase = BISECT_CULPRIT;
		b.culprit = culprit;
		b.rounds = 2;
		b.runs = 12;
	}
	json = bisect_to_json(&b);
	assert_non_null(json);
	snprintf(id, sizeof(id), "bisect-%s", report);
	if (state_bisection_add(st, id, report, bisect_phase_name(b.phase),
				json, "/j", NULL, now + 3600, now, &err))
		fail_msg("state_bisection_add: %s", err.msg);
	free(json);
	bisect_release(&b);
}

#endif
