// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target: a commit message of the tracked tree, and the matcher. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "perfbot/ingest/trailers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const bots[] = { "perfbot@example.test" };
	static const struct report_key k = {
		"https://lore.example.test/perf/1.2-perfbot@example.test",
		"1.2-perfbot@example.test", "pipe: fix the race", "f017b0a495",
	};
	struct commit_msg m;

	if (!commit_msg_parse(&m, (const char *)data, size)) {
		(void)commit_match(&m, "f017b0a4951fac8f150232661b2cc0b67e0c57f0",
				   &k, bots, 1);
		(void)commit_reverts(m.reverts, m.revert_title,
				     "f017b0a4951fac8f150232661b2cc0b67e0c57f0",
				     m.summary);
	}
	commit_msg_release(&m);
	return 0;
}
