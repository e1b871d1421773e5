// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target: Mustache templates against a fixed context. */
#include <stddef.h>
#include <stdint.h>

#include "perfbot/render/mustache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mustache_opts o = { 0, NULL, NULL, 16, 1 << 20, 0 };
	struct strbuf out = STRBUF_INIT;
	struct pb_err err;
	json_t *ctx = json_pack("{s:s, s:[i, i], s:{s:b}}", "a", "x", "l", 1,
				2, "o", "t", 1);

	mustache_render((const char *)data, size, "fuzz", ctx, &o, &out,
			&err);
	json_decref(ctx);
	sb_release(&out);
	return 0;
}
