// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target: the YAML loader and the manifest reader on top. */
#include <stddef.h>
#include <stdint.h>

#include "perfbot/manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pb_err err;
	struct manifest m;

	if (!manifest_parse(&m, "fuzz.yaml", "/tmp", (const char *)data, size,
			    &err))
		manifest_release(&m);
	return 0;
}
