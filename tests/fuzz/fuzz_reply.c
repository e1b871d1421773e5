// SPDX-License-Identifier: GPL-2.0-only
/* libFuzzer target: reading a reply mail and its commands. */
#include <stddef.h>
#include <stdint.h>

#include "perfbot/act/dispatch.h"
#include "perfbot/parse/reply.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct reply_opts o = { "#perfbot", command_lookup };
	const char *own[1] = { "perfbot@example.test" }, *why;
	struct pb_err err;
	struct reply r;

	if (!reply_parse((const char *)data, size, &o, &r, &err))
		(void)reply_must_not_answer(&r, own, 1, &why);
	reply_release(&r);
	return 0;
}
