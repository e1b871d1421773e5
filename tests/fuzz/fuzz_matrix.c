// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target: the matrix.json reader. */
#include <stddef.h>
#include <stdint.h>

#include "perfbot/ingest/result.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct result_root rr = { 0 };
	struct pb_err err;

	if (!result_root_parse_matrix(&rr, "fuzz", (const char *)data, size,
				      &err))
		(void)result_root_find(&rr, "a");
	result_root_release(&rr);
	return 0;
}
