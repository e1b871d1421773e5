// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare: a fix judged by the sequential rule (sequential.h,
 * seq_fix_judge()): both comparisons of a test or a landed fix decided
 * at one look with a retest's design, and the fix verdict of the two.
 */
#include <string.h>

#include "perfbot/compare/sequential.h"

/* One comparison: 'other' against the tested runs, the way 'way'. */
static int judge_one(struct seq_design *d, struct seq_decision *dec,
		     const double *other, size_t no, const double *tested,
		     size_t nt, double reported, int way, double cv)
{
	size_t n = no < nt ? no : nt;
	struct seq_params p;
	struct pb_err err = { 0, "" };

	if (n < SEQ_MIN_RUNS)
		return 0;
	seq_params_retest(&p, (long)n, (long)n, 0, reported * way, cv);
	if (seq_design_init(d, &p, &err))
		return 0;
	seq_decide(d, other, no, tested, nt, dec);
	return 1;
}

void seq_fix_judge(struct seq_fix *f, const double *base, size_t nb,
		   const double *head, size_t nh, const double *tested,
		   size_t nt, double reported, double cv)
{
	enum seq_answer away, back;

	memset(f, 0, sizeof(*f));
	f->v = FIX_INCONCLUSIVE;
	if (reported == 0 || reported != reported)
		return;
	f->ok[SEQ_FIX_AWAY] = judge_one(&f->d[SEQ_FIX_AWAY],
					&f->dec[SEQ_FIX_AWAY], base, nb,
					tested, nt, reported, 1, cv);
	f->ok[SEQ_FIX_BACK] = judge_one(&f->d[SEQ_FIX_BACK],
					&f->dec[SEQ_FIX_BACK], head, nh,
					tested, nt, reported, -1, cv);
	if (!f->ok[SEQ_FIX_AWAY] || !f->ok[SEQ_FIX_BACK])
		return;
	away = f->dec[SEQ_FIX_AWAY].answer;
	back = f->dec[SEQ_FIX_BACK].answer;
	if (back == SEQ_CHANGED && away == SEQ_NOT_CHANGED)
		f->v = FIX_FIXED;
	else if (back == SEQ_CHANGED && away == SEQ_CHANGED)
		f->v = FIX_PARTLY;
	else if (back == SEQ_NOT_CHANGED && away == SEQ_CHANGED)
		f->v = FIX_NOT_FIXED;
}
