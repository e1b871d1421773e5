// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer target: the YAML loader and, on top, the manifest reader and
 * the configuration's schema check.
 */
#include <stddef.h>
#include <stdint.h>

#include "perfbot/config/config.h"
#include "perfbot/ingest/manifest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pb_err err;
	struct manifest m;
	struct config cfg;

	if (!manifest_parse(&m, "fuzz.yaml", "/tmp", (const char *)data, size,
			    &err))
		manifest_release(&m);
	if (!config_parse(&cfg, "fuzz.yaml", "/tmp", (const char *)data, size,
			  &err))
		config_release(&cfg);
	return 0;
}
