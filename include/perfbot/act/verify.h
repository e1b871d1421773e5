/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERFBOT_VERIFY_H
#define PERFBOT_VERIFY_H

#include <time.h>

#include "perfbot/config/config.h"
#include "perfbot/state/records.h"
#include "perfbot/state/state.h"

/*
 * act: a landed fix verified by a run (tracking.verify; verify.c). When
 * the walk of the tracked tree (track_apply.c) makes a record 'fix
 * landed', verify_ask() asks the farm, in the transaction of that
 * landing, for the report's job on the fixing commit (the farm's
 * contract: kind "verify", a new result root under
 * scheduler.results_dir, limits.default_runs runs, no repo, ref or
 * patch); the request id comes from the report and the commit
 * (id_verify_request()), so a crash between asking and recording asks
 * again with the same id. Each run's follow-up step then answers in the
 * report's thread, to the report's recipients: when the result root is
 * complete with LKP's table of the parent, the reported commit and the
 * fix, the headline metric's runs and the verdict of seq_fix_judge()
 * (act/fixrun.h), the record moved by "verified" (fixed; not fixed, a
 * partly fixed one too; inconclusive keeps it 'fix landed') in the
 * transaction that queues the answer; or the farm's reason
 * (result_root/error), or that it did not finish by scheduler.deadline,
 * the record left 'fix landed'. A run whose record has moved on (the fix
 * reverted, rewritten or unfixed) is dropped without a word.
 */

/*
 * Ask for the run on the fix of record 'r' (status 'fix landed', its
 * fix_commit set) and record it: the verifies row and r->verify_request
 * (the caller writes 'r' in its transaction). '*asked' 1 when the farm
 * took it (or will say why it cannot: its answer comes later), 0 when it
 * did not (recorded 'rejected', its reason logged and kept for the
 * operator). -1 with 'err' only when the state fails.
 */
int verify_ask(struct state *st, const struct config *cfg, struct record *r,
	       time_t now, int *asked, struct pb_err *err);

#endif
